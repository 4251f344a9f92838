# t_trace.sh - probegen --trace (libbpf): values of every integer width
# and sign, strings, a 12-argument probe, JSON read by a JSON parser, a
# probe in a shared library under -p, -n and --limit, semaphores set
# while attached and cleared after, and the errors users meet.
# serial_tests: t_trace_filters_limit t_trace_command_dlopen
# (timing-bound: --limit must end the command within 8 s: run alone;
# -p's dlopen waits for a tracer's on_loader link, which another test's
# tracer would give too early)

# Every firing of values.c, all twelve arguments, by name and type.
t_trace_values() {
	need_trace
	values_program values.c values
	"$PROBEGEN" --trace -c ./values > out 2> err || { cat err; fail "--trace"; }
	# The program saw its probes enabled while traced.
	expect_grep '^enabled=1$' out
	firings out > got
	{
		for i in 1 2 3; do echo 'vals:ints a=65 b=250 c=-300 d=60000 e=-70000 f=4000000000 g=-5000000000 h=18000000000000000000 i=-9000000000000000000 j=18446744073709551615'; done
		for i in 1 2; do echo 'vals:ptrs s="hello probe" p=0xADDR t="hello probe"'; done
		for i in 1 2; do echo 'vals:twelve a1=1 a2=-2 a3=3 a4=-4 a5=5 a6=-6 a7=7 a8=-8 a9=9 a10=-10 a11=11 a12=-12'; done
		echo 'vals:none'
	} > want
	sed -E 's/p=0x[0-9a-f]+/p=0xADDR/' got | diff -u want - || fail "values"
	grep -Eq '^[0-9]+\.[0-9]{6} [0-9]+/[0-9]+ vals:none$' out || fail "timestamp, pid/tid"
	ok
}

# Structs, unions and classes passed by value (tests/src/objects.c and
# objects.cc), with gcc and clang at -O0 to -O3: every such program
# compiles (SystemTap's header compiles them), and --trace reads each
# object's first bytes as the program printed them.  --check says which
# objects are wider than libbpf reads, as warnings.
t_trace_object_arguments() {
	need_trace
	"$PROBEGEN" -h -s "$ROOT/tests/src/objects.d" -o objects.h || fail "-h objects.d"
	"$PROBEGEN" -G -s "$ROOT/tests/src/objects.d" -o objects.o || fail "-G objects.d"
	local cc cxx o prog n=0
	for cc in gcc:g++ clang:clang++; do
		cxx=${cc#*:} cc=${cc%:*}
		for o in -O0 -O1 -O2 -O3; do
			$cc $o -std=c99 -Wall -Wextra -Werror -I. "$ROOT/tests/src/objects.c" objects.o -o oc ||
				fail "$cc $o objects.c"
			$cxx $o -std=c++17 -Wall -Wextra -Werror -I. "$ROOT/tests/src/objects.cc" objects.o -o ocpp ||
				fail "$cxx $o objects.cc"
			for prog in oc ocpp; do
				"$PROBEGEN" --trace -n 'objs:*' -c ./$prog > out 2> err || { cat err; fail "--trace $prog ($cc $o)"; }
				grep '^objs:' out > want
				sed -n 's/^[0-9.]* [0-9]*\/[0-9]* \(objs:\)/\1/p' out > got
				[ -s want ] || fail "$prog printed nothing"
				diff -u want got || fail "$prog ($cc $o): traced values differ from the program's"
				n=$((n + 1))
			done
		done
	done
	"$PROBEGEN" --check -s "$ROOT/tests/src/objects.d" ./oc ./ocpp > check 2>&1 || { cat check; fail "--check"; }
	expect_grep 'argument 1 is a 24-byte object: libbpf (bpftrace) cannot attach here' check
	expect_grep 'argument 2 is a 16-byte object' check
	grep -v ': warning: ' check && fail "--check printed an error"
	echo "$n programs traced, values as printed: $(sed -n 1p got)"
	ok
}

# --json: one object a line that a JSON parser reads, 64-bit exact.
t_trace_json() {
	need_trace
	values_program values.c values
	"$PROBEGEN" --trace --json -n 'vals:*' -c ./values 2> err | grep '^{' > out ||
		{ cat err; fail "--trace --json"; }
	python3 - out <<-'PY' || fail "JSON"
	import json, sys
	ev = [json.loads(l) for l in open(sys.argv[1])]
	assert len(ev) == 8, len(ev)
	ints = [e for e in ev if e["probe"] == "vals:ints"][0]["args"]
	assert ints == {"a": 65, "b": 250, "c": -300, "d": 60000, "e": -70000,
	                "f": 4000000000, "g": -5000000000, "h": 18000000000000000000,
	                "i": -9000000000000000000, "j": 18446744073709551615}, ints
	ptrs = [e for e in ev if e["probe"] == "vals:ptrs"][0]["args"]
	assert ptrs["s"] == "hello probe" and ptrs["p"].startswith("0x"), ptrs
	tw = [e for e in ev if e["probe"] == "vals:twelve"][0]["args"]
	assert list(tw.values()) == [1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12], tw
	assert all(isinstance(e["pid"], int) and e["time"] >= 0 for e in ev)
	PY
	ok
}

# -o FILE: probegen's own output (events, the summary, JSON) in FILE,
# never mixed with the command's, which keeps stdout; a file that
# cannot be written is said before the trace; a trace that never
# started leaves no file.
t_trace_output_file() {
	need_trace
	values_program values.c values
	printf '#!/bin/sh\necho "the command speaks"\nexec ./values\n' > run.sh
	chmod +x run.sh
	"$PROBEGEN" --trace --summary --json -o sum.json -n 'vals:*' -c ./run.sh > out 2> err ||
		{ cat err; fail "--summary --json -o"; }
	expect_grep '^the command speaks$' out
	grep -q '"probes"' out && fail "the summary went to stdout too"
	python3 -c 'import json, sys; s = json.load(open(sys.argv[1])); assert s["probes"]["vals:ints"]["count"] == 3, s' sum.json ||
		{ cat sum.json; fail "-o's JSON"; }
	"$PROBEGEN" --trace --json -o events.json -n 'vals:*' -c ./run.sh > out 2> err || fail "--json -o"
	[ "$(grep -c . out)" = "$(grep -vc '^{' out)" ] || fail "an event on stdout"
	python3 -c 'import json, sys; ev = [json.loads(l) for l in open(sys.argv[1])]; assert len(ev) == 8, len(ev)' events.json ||
		fail "-o's events"
	"$PROBEGEN" --trace -o /nonexistent/dir/x -c ./values > out 2> err
	expect_eq $? 2 "-o an unwritable path"
	expect_grep "cannot create '/nonexistent/dir/x'" err
	"$PROBEGEN" --trace -o never.txt -c ./no-such-program > out 2> err
	[ ! -e never.txt ] || fail "a trace that never ran left its -o file"
	ok
}

# -o FILE is written beside FILE and replaces it only when the trace
# ran: a trace that found no probes kept the old contents (it truncated
# them).  Every write of the events is checked: /dev/full as -o or as
# stdout, and a file-size limit, each said, exit 2, the old -o file
# kept (each exited 0 with a half line, or died of SIGXFSZ).
t_trace_output_failures() {
	need_trace
	values_program values.c values
	echo 'the old trace' > kept.txt
	"$PROBEGEN" --trace -o kept.txt -c 'sh -c true' > out 2> err
	expect_eq $? 1 "no probes"
	expect_eq "$(cat kept.txt)" 'the old trace' "-o's old file after a trace that found no probes"
	ls | grep -q 'kept.txt.tmp' && fail "a temporary file was left"
	"$PROBEGEN" --trace -o kept.txt -c ./values > out 2> err || { cat err; fail "--trace -o"; }
	expect_eq "$(grep -c 'vals:' kept.txt)" 8 "events in -o's file"
	"$PROBEGEN" --trace -o /dev/full -c ./values > out 2> err
	expect_eq $? 2 "-o /dev/full"
	expect_grep "cannot write '/dev/full': No space left on device" err
	"$PROBEGEN" --trace -c ./values > /dev/full 2> err
	expect_eq $? 2 "stdout to /dev/full"
	expect_grep "cannot write 'standard output': No space left on device" err
	printf 'for i in $(seq 40); do ./values > /dev/null; done
' > many.sh
	echo 'the old trace' > kept.txt
	(ulimit -f 1; "$PROBEGEN" --trace --json -o kept.txt -c 'sh many.sh' > out 2> err)
	expect_eq $? 2 "-o under a file-size limit"
	expect_grep "cannot write 'kept.txt': File too large" err
	expect_eq "$(cat kept.txt)" 'the old trace' "-o's old file after a write failed"
	(ulimit -f 1; "$PROBEGEN" --trace --json -c 'sh many.sh' > big.json 2> err)
	expect_eq $? 2 "stdout under a file-size limit"
	expect_grep "cannot write 'standard output': File too large" err
	ok
}

# The traced command's failure is the run's, as strace, time and perf
# stat give it: its exit status, 128+N for signal N; probegen's own
# status (an expectation not met) when the command succeeded.  The
# README's CI recipe exited 0 when the test suite failed.
t_trace_command_status() {
	need_trace
	values_program values.c values
	"$PROBEGEN" --trace --expect-all -c 'sh -c "./values; exit 3"' > out 2> err
	expect_eq $? 3 "a command that exits 3"
	expect_grep 'the command exited with status 3' err
	"$PROBEGEN" --trace -c 'sh -c "./values; kill -SEGV \$\$"' > out 2> err
	expect_eq $? 139 "a command ended by SIGSEGV"
	expect_grep 'the command was ended by signal 11' err
	"$PROBEGEN" --trace -n 'vals:ints' --expect-all -c ./values > out 2> err
	expect_eq $? 0 "every probe chosen fired, the command succeeded"
	# A probe that never fires, the command fine: probegen's own 1.
	printf 'provider two {\n\tprobe fired(int x);\n\tprobe never(int x);\n};\n' > two.d
	printf '#include "two.h"\nint main(int c, char **v) { (void)v; TWO_FIRED(c); if (c > 5) TWO_NEVER(c); return 0; }\n' > two.c
	expect "$PROBEGEN" -h -s two.d -o two.h
	expect "$PROBEGEN" -G -s two.d -o two_probes.o
	expect gcc -I. two.c two_probes.o -o two
	"$PROBEGEN" --trace --expect-all -c ./two > out 2> err
	expect_eq $? 1 "an expectation not met, the command succeeded"
	expect_grep 'two:never' err
	"$PROBEGEN" --trace --expect-all -c 'sh -c "./two; exit 4"' > out 2> err
	expect_eq $? 4 "an expectation not met and the command failed"
	"$PROBEGEN" --trace --limit 1 -c 'sh -c "./values; sleep 30"' > out 2> err
	expect_eq $? 0 "a command --limit ended is not a failure"
	ok
}

# When probegen stops first, the command's whole tree ends with it:
# --duration and --limit left a shell's child (sleep) running with
# parent 1; SIGTERM and SIGINT at every stage, the command's start
# included, end probegen and the tree; a tiny --duration hung in
# waitpid on a command stopped at its exec with SIGTERM pending;
# stopped before any probes, it said the command had none.
t_trace_command_tree_ended() {
	local mark="51.$$" d sig st
	need_trace
	values_program values.c values
	left() { pgrep -f "sleep $mark" > /dev/null; }
	timeout 30 "$PROBEGEN" --trace --duration 1 -- sh -c "./values; sleep $mark; true" > out 2> err
	expect_eq $? 0 "--duration 1"
	grep -q 'vals:ints' out || fail "--duration traced nothing"
	! left || fail "--duration left the command's child running"
	timeout 30 "$PROBEGEN" --trace --limit 1 -- sh -c "./values; sleep $mark; true" > out 2> err
	expect_eq $? 0 "--limit 1"
	! left || fail "--limit left the command's child running"
	# A grandchild whose parent ended first (its parent is probegen's
	# then), and one that ignores SIGTERM.
	timeout 30 "$PROBEGEN" --trace --duration 1 -- sh -c "(sleep $mark &) ; (trap '' TERM; sleep $mark) & ./values; sleep $mark" > out 2> err
	expect_eq $? 0 "--duration with orphans"
	! left || { pgrep -af "sleep $mark"; fail "--duration left an orphan or a process that ignores SIGTERM"; }
	for sig in TERM INT; do
		for d in 0.01 0.05 0.1 0.3 0.6 1.5; do
			# A script's background job starts with SIGINT ignored,
			# from the fork on, unless job control is on (set -m:
			# its own process group instead, SIGINT at its default).
			set -m
			"$PROBEGEN" --trace -- sh -c "./values; sleep $mark" > out 2> err &
			set +m
			sleep $d
			kill -$sig $! 2> /dev/null
			timeout 15 tail --pid=$! -f /dev/null
			st=$?
			[ $st = 0 ] || { kill -KILL $!; fail "SIG$sig after $d s: probegen did not end"; }
			wait $!
			st=$?
			[ $st = 0 ] || [ $st = $((128 + $(kill -l $sig))) ] || { cat err; fail "SIG$sig after $d s: exit status $st"; }
			! left || fail "SIG$sig after $d s left the command running"
		done
	done
	# Stopped before the command ran a program with probes: no claim
	# that it has none (CI's sanitized pass said "no probes", status 1).
	set -m
	"$PROBEGEN" --trace -- sh -c "sleep 1; ./values; sleep $mark" > out 2> err &
	set +m
	sleep 0.3
	kill -TERM $!
	wait $!
	st=$?
	[ $st = 0 ] || [ $st = 143 ] || { cat err; fail "SIGTERM before any probes: exit status $st"; }
	grep -q 'error' err && { cat err; fail "SIGTERM before any probes: said an error"; }
	expect_grep 'stopped before the command ran a program with probes' err
	! left || fail "SIGTERM before any probes left the command running"
	for d in $(seq 1 20); do
		timeout 20 "$PROBEGEN" --trace --duration 1e-9 -- ./values > out 2> err
		st=$?
		[ $st = 0 ] || fail "--duration 1e-9, run $d: exit status $st (124: it hung)"
	done
	ok
}

# -n selects probes (globs), --limit stops after N events and ends the
# command it started.
t_trace_filters_limit() {
	need_trace
	values_program values.c values
	"$PROBEGEN" --trace -n 'vals:twelve' -n '*:none' -c ./values 2> err > out || fail "-n"
	expect_eq "$(grep -c ' vals:' out)" 3 "events of vals:twelve and vals:none"
	grep ' vals:' out | grep -vq 'vals:twelve\|vals:none' && fail "-n let another probe through"
	values_program loop.c loop
	start=$(date +%s)
	timeout 30 "$PROBEGEN" --trace --limit 5 -n 'vals:ints' -c ./loop > out 2> err
	expect_eq $? 0 "exit status with --limit"
	expect_eq "$(grep -c ' vals:ints ' out)" 5 "events with --limit 5"
	[ $(( $(date +%s) - start )) -lt 8 ] || fail "--limit did not end the command"
	pgrep -x loop > /dev/null && fail "the command outlived --trace"
	ok
}

# A probe in a shared library of a running process (-p PID), and the
# semaphore: set while attached, cleared once --trace has ended.
t_trace_process_and_semaphores() {
	need_trace
	start_library_program
	timeout 30 "$PROBEGEN" --trace -p $pid -n 'vals:twelve' --limit 3 > out 2> err
	kill $pid 2>/dev/null; wait $pid 2>/dev/null
	expect_eq "$(grep -Ec ' vals:twelve a1=[0-9]+ a2=-2 a3=3 a4=-4 a5=5 a6=-6 a7=7 a8=-8 a9=9 a10=-10 a11=11 a12=-12$' out)" 3 \
		"library firings (all twelve arguments)"
	gcc -O2 -I. "$ROOT/tests/src/semaphore.c" values.o -o sem || fail "build sem"
	./sem > sem.out &
	pid=$!
	sleep 0.5
	timeout 30 "$PROBEGEN" --trace -p $pid -n 'vals:none' --limit 20 > out 2> err ||
		{ cat err; fail "--trace -p"; }
	wait $pid
	expect_eq "$(tr '\n' ' ' < sem.out)" "0 1 0 " "the program's _ENABLED(): before, during, after"
	ok
}

# The errors users meet, each with its message and exit status.
t_trace_errors() {
	need_trace
	values_program values.c values
	"$PROBEGEN" --trace -p 999999 2> err
	expect_eq $? 2 "no such PID"
	expect_grep 'no process with PID 999999' err
	"$PROBEGEN" --trace /bin/true 2> err
	expect_eq $? 1 "a binary with no probes"
	expect_grep "'/bin/true' has no probes" err
	"$PROBEGEN" --trace -n 'nope:*' values 2> err
	expect_eq $? 1 "a filter that matches nothing"
	expect_grep 'no probe matches nope:\*' err
	# A second pattern that matches nothing beside one that does: a
	# warning naming it, and the status stays 0; with -c, said once the
	# command has ended.
	"$PROBEGEN" --trace -n 'vals:*' -n 'nope:*' -n 'vals:intz' -o /dev/null values 2> err &
	local tpid=$!
	sleep 1; kill -INT $tpid; wait $tpid
	expect_eq $? 0 "a second pattern that matches nothing"
	expect_grep '^probegen: warning: -n nope:\*: no probe in the binaries matches it$' err
	expect_grep '^probegen: warning: -n vals:intz: no probe in the binaries matches it$' err
	grep -q 'vals:\*:' err && fail "a pattern that matched was said"
	"$PROBEGEN" --trace -n 'vals:ints' -n 'vals:gone' -o /dev/null -c ./values > /dev/null 2> err
	expect_eq $? 0 "-c: a second pattern that matches nothing"
	expect_grep '^probegen: warning: -n vals:gone: no probe in the command or the programs it started matches it$' err
	[ "$(tail -n 1 err)" = "probegen: warning: -n vals:gone: no probe in the command or the programs it started matches it" ] ||
		fail "-c: the warning is not said at the end: $(cat err)"
	echo 'provider x { probe y(); };' > text.d
	"$PROBEGEN" --trace text.d 2> err
	expect_eq $? 2 "not ELF"
	expect_grep "'text.d' is not an ELF file" err
	# No uprobes: the uprobe PMU hidden and tracefs unmounted, in a
	# private mount namespace.
	unshare -m sh -c 'mount -t tmpfs none /sys/bus/event_source/devices &&
		{ umount /sys/kernel/debug/tracing 2>/dev/null; umount /sys/kernel/tracing 2>/dev/null;
		  umount /sys/kernel/debug 2>/dev/null; true; } &&
		exec "$0" --trace -c ./values' "$PROBEGEN" > out 2> err
	expect_eq $? 2 "no uprobes"
	expect_grep 'no uprobes: the kernel has no uprobe PMU and tracefs is not mounted' err
	if have setpriv; then
		chmod 755 . ; chmod 755 values
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
			"$PROBEGEN" --trace -c ./values > out 2> err
		expect_eq $? 2 "not root"
		expect_grep 'needs root, or the capabilities CAP_BPF and CAP_PERFMON' err
	else
		skip_part "setpriv is not installed (util-linux): the not-root case"
	fi
	ok
}

# Where libbpf is absent the compiler builds the same, and --trace says
# how to get it.
t_trace_without_libbpf() {
	git -C "$ROOT" archive --format=tar HEAD | tar -xf - || fail "git archive"
	MAKEFLAGS= MAKELEVEL= make TRACE=no SANITIZE= > log 2>&1 || { cat log; fail "make TRACE=no"; }
	grep -q 'src/trace/trace_none.c' log || { cat log; fail "not built without --trace"; }
	printf 'provider a { probe b(int c); };\n' > a.d
	./probegen -h -s a.d -o a.h || fail "-h without libbpf"
	./probegen --trace -c /bin/true 2> err
	expect_eq $? 2 "exit status"
	expect_grep 'built without --trace: install libbpf-dev, clang and bpftool' err
	ok
}

# A string longer than the documented 127 bytes is cut, and says so.
t_trace_long_string() {
	need_trace
	printf 'provider l {\n\tprobe s(char *text, int n);\n};\n' > l.d
	expect "$PROBEGEN" -h -s l.d -o l.h
	expect "$PROBEGEN" -G -s l.d -o l.o
	cat > l.c <<-'C'
	#include <string.h>
	#include "l.h"
	static char text[300];
	int main(void) {
		memset(text, 'x', 200);
		L_S(text, 200);
		text[5] = '\0';
		L_S(text, 5);
		return 0;
	}
	C
	expect gcc -O2 l.c l.o -o l
	"$PROBEGEN" --trace -c ./l > out 2> err || { cat err; fail "--trace"; }
	expect_grep " l:s text=\"$(printf 'x%.0s' $(seq 127))\"\.\.\. n=200$" out
	expect_grep ' l:s text="xxxxx" n=5$' out
	"$PROBEGEN" --trace --json -c ./l 2> err | grep '^{' > out.json
	python3 -c '
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
assert ev[0]["args"]["text"] == "x" * 127 and ev[0]["cut"] == {"text": True}, ev[0]
assert ev[1]["args"]["text"] == "xxxxx" and "cut" not in ev[1], ev[1]
' out.json || fail "JSON of a cut string"
	ok
}

# A string one byte shorter than its slot fits whole, with its NUL: not
# cut (it was called cut, as a string of the slot's length is), at the
# default 128 and at 136, 1000 and 4096 bytes; a string as long as the
# slot, or longer, is cut.  Each in text and JSON (a --show member is
# judged by the same string_cut in slots.bpf.h).
t_trace_string_one_short() {
	local b st
	need_trace
	printf 'provider l {\n\tprobe s(char *text, int n);\n};\n' > l.d
	expect "$PROBEGEN" -h -s l.d -o l.h
	expect "$PROBEGEN" -G -s l.d -o l.o
	cat > l.c <<-'C'
	#include <stdlib.h>
	#include <string.h>
	#include "l.h"
	int main(int argc, char **argv) {
		for (int a = 1; a < argc; a++) {
			int n = atoi(argv[a]);
			char *t = malloc(n + 1);
			memset(t, 'y', n);
			t[n] = 0;
			L_S(t, n);
			free(t);
		}
		return 0;
	}
	C
	expect gcc -O2 l.c l.o -o l
	for b in 128 136 1000 4096; do
		"$PROBEGEN" --trace --json --string-bytes $b -- ./l $((b - 2)) $((b - 1)) $b $((b + 1)) 2> err | grep '^{' > out.json ||
			{ cat err; fail "--string-bytes $b"; }
		python3 - out.json $b <<-'PY' || fail "--string-bytes $b: the cut"
		import json, sys
		b = int(sys.argv[2])
		ev = [json.loads(l) for l in open(sys.argv[1])]
		assert [e["args"]["n"] for e in ev] == [b - 2, b - 1, b, b + 1], ev
		for e in ev:
		    n = e["args"]["n"]
		    whole = n <= b - 1
		    assert e["args"]["text"] == "y" * min(n, b - 1), (n, len(e["args"]["text"]))
		    assert ("cut" in e) == (not whole), (b, n, e.get("cut"))
		PY
		"$PROBEGEN" --trace --string-bytes $b -- ./l $((b - 1)) $b > out.txt 2> err || { cat err; fail "text at $b"; }
		expect_grep "text=\"y*\" n=$((b - 1))\$" out.txt
		expect_grep "text=\"y*\"\.\.\. n=$b\$" out.txt
	done
	ok
}

# --where (in the kernel) and --expect (in probegen) compare what
# --trace shows: with --string-bytes 512, a string's end past byte 128
# and a field at byte 201 of a key=value text (they saw the first 128
# bytes: the filter passed nothing, the expectation was not met).
t_trace_compare_the_whole_slot() {
	need_trace
	printf 'provider l {\n\tprobe s(char *text, int n);\n\t/** @fields f */\n\tprobe kv(const char *f);\n};\n' > l.d
	expect "$PROBEGEN" -h -s l.d -o l.h
	expect "$PROBEGEN" -G -s l.d -o l.o
	cat > l.c <<-'C'
	#include <string.h>
	#include "l.h"
	int main(void) {
		static char t[301], kv[260];
		memset(t, 'a', 300);
		memcpy(t + 290, "the-end-xy", 10);
		L_S(t, 300);
		L_S("short", 5);
		memset(kv, 'z', 200);
		kv[0] = 'p', kv[1] = '=';
		strcpy(kv + 200, " id=12 more=1");
		L_KV(kv);
		return 0;
	}
	C
	expect gcc -O2 l.c l.o -o l
	"$PROBEGEN" --trace --json --string-bytes 512 -c ./l 2> err | grep '^{' > all.json || { cat err; fail "--trace"; }
	python3 -c '
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
assert ev[2]["args"]["f"]["id"] == "12", ev[2]' all.json || fail "JSON shows fields.id"
	"$PROBEGEN" --trace --string-bytes 512 --where 'l:s: text ~ "*the-end-xy"' -n l:s -c ./l > out 2> err || { cat err; fail "--where ~ at the end"; }
	expect_eq "$(grep -c '^.* l:s ' out)" 1 "the firings the glob past byte 128 passed"
	"$PROBEGEN" --trace --string-bytes 512 --where 'l:kv: f.id == "12"' -n l:kv -c ./l > out 2> err || { cat err; fail "--where fields"; }
	expect_eq "$(grep -c ' l:kv ' out)" 1 "the firings fields.id at byte 201 passed"
	"$PROBEGEN" --trace --string-bytes 512 --summary --expect 'l:kv{1}: f.id == "12"' \
		--expect 'l:s{1}: text ~ "*-xy"' -c ./l > out 2> err || { cat err; fail "--expect past byte 128"; }
	expect_grep "l:kv{1}: f.id == \"12\"': met: 1 of 1" err
	ok
}

# --string-bytes raises the cut, for strings and for bytes with their
# length, each value the program's own, byte for byte (its pattern
# rebuilt here); a value longer than the slot is still cut and said.
# 128 to 4096; nothing below the default.
t_trace_string_bytes() {
	need_trace
	printf 'provider l {\n\tprobe s(char *text, int n);\n\t/** @length buf len */\n\tprobe b(const char *buf, int len);\n};\n' > l.d
	expect "$PROBEGEN" -h -s l.d -o l.h
	expect "$PROBEGEN" -G -s l.d -o l.o
	cat > l.c <<-'C'
	#include "l.h"
	static char shorter[3001], text[5000];
	int main(void) {
		for (int i = 0; i < 4999; i++)
			text[i] = 'a' + i % 26;
		for (int i = 0; i < 3000; i++)
			shorter[i] = 'a' + i % 26;
		L_S(shorter, 3000);
		L_S(text, 4999);
		L_B(text, 2000);
		return 0;
	}
	C
	expect gcc -O2 l.c l.o -o l
	"$PROBEGEN" --trace --json --string-bytes 3001 -c ./l 2> err | grep '^{' > out.json || { cat err; fail "--string-bytes 3001"; }
	"$PROBEGEN" --trace --json -c ./l 2> err | grep '^{' > short.json || { cat err; fail "--trace"; }
	python3 - out.json short.json <<-'PY' || fail "--string-bytes's values"
	import json, sys
	text = "".join(chr(97 + i % 26) for i in range(4999))
	ev = [json.loads(l) for l in open(sys.argv[1])]
	# 3001 is rounded up to 3008 bytes a slot: 3007 characters and a NUL.
	assert ev[0]["args"]["text"] == text[:3000] and "cut" not in ev[0], ev[0]
	assert ev[1]["args"]["text"] == text[:3007] and ev[1]["cut"] == {"text": True}, ev[1]
	assert ev[2]["args"]["buf"] == text[:2000] and "cut" not in ev[2], ev[2]
	short = [json.loads(l) for l in open(sys.argv[2])]
	assert short[2]["args"]["buf"] == text[:128] and short[2]["cut"] == {"buf": 2000}, short[2]
	PY
	"$PROBEGEN" --trace --string-bytes 4096 -c ./l > out 2> err || { cat err; fail "--string-bytes 4096, text"; }
	expect_grep " l:b buf=\"$(python3 -c 'print("".join(chr(97 + i % 26) for i in range(2000)))')\" len=2000$" out
	expect_grep " l:s text=\"$(python3 -c 'print("".join(chr(97 + i % 26) for i in range(4095)))')\"\.\.\. n=4999$" out
	for bad in 127 4097 x; do
		! "$PROBEGEN" --trace --string-bytes $bad -c ./l > out 2> err &&
			grep -q -- "--string-bytes takes a number of bytes from 128 to 4096, not '$bad'" err ||
			{ cat err; fail "--string-bytes $bad"; }
	done
	ok
}

# String literals the program never reads, so never faulted in: --trace
# reads them all, in the three forms, text and JSON.
t_trace_literal_strings() {
	need_trace
	literals_program
	"$PROBEGEN" --trace -c ./literals > out 2> err || { cat err; fail "--trace"; }
	firings out > got
	cat > want <<-'W'
	fleet:truck__departed id=17 driver="marta" odometer=2500000000
	fleet:truck__departed id=18 driver="jonas" odometer=1
	fleet:truck__departed id=19 driver="ines" odometer=2
	W
	diff -u want got || fail "--trace text"
	"$PROBEGEN" --trace --json -c ./literals 2> err | grep '^{' > out.json || { cat err; fail "--trace --json"; }
	python3 - out.json <<-'PY' || fail "--trace --json values"
	import json, sys
	ev = [json.loads(l)["args"] for l in open(sys.argv[1])]
	assert [e["driver"] for e in ev] == ["marta", "jonas", "ines"], ev
	assert [e["id"] for e in ev] == [17, 18, 19], ev
	PY
	ok
}

# Commands as users type them: -- CMD ARGS exactly as given, and -c
# 'CMD ARGS' split as a shell splits words (quotes, backslash), with no
# expansion and no shell.
t_trace_command_forms() {
	need_trace
	"$PROBEGEN" -h -s "$ROOT/tests/src/literals.d" -o literals.h || fail "-h"
	"$PROBEGEN" -G -s "$ROOT/tests/src/literals.d" -o literals_probes.o || fail "-G"
	printf '#include "literals.h"\nint main(int argc, char **argv) { trace_fleet_truck_departed(argc, argv[1], 0); return 0; }\n' > args.c
	gcc -O2 -I. args.c literals_probes.o -o args || fail "build"
	"$PROBEGEN" --trace -- ./args "two words" '$HOME' > a.out 2> err || { cat err; fail "--trace --"; }
	grep -q 'id=3 driver="two words" ' a.out || { cat a.out; fail "-- CMD ARGS"; }
	"$PROBEGEN" --trace -c "./args 'two words' \$HOME" > c.out 2> err || { cat err; fail "-c with quotes"; }
	grep -q 'id=3 driver="two words" ' c.out || { cat c.out; fail "-c: single quotes"; }
	"$PROBEGEN" --trace -c './args "say \"hi\"" x\ y' > d.out 2> err || { cat err; fail "-c with escapes"; }
	grep -qF 'id=3 driver="say \"hi\"" ' d.out || { cat d.out; fail "-c: double quotes and backslashes"; }
	"$PROBEGEN" --trace -c './args $HOME' > e.out 2> err || { cat err; fail "-c with \$"; }
	grep -qF 'id=2 driver="$HOME" ' e.out || { cat e.out; fail "-c expanded a variable"; }
	# A backslash-newline joins lines, as in sh: no empty argument.
	"$PROBEGEN" --trace -c "./args \\
 hi" > f.out 2> err || { cat err; fail "-c with backslash-newline"; }
	grep -qF 'id=2 driver="hi" ' f.out || { cat f.out; fail "-c: backslash-newline made an argument"; }
	"$PROBEGEN" --trace -c "./args h\\
i" > g.out 2> err || { cat err; fail "-c with backslash-newline in a word"; }
	grep -qF 'id=2 driver="hi" ' g.out || { cat g.out; fail "-c: backslash-newline inside a word"; }
	ok
}

# Each file is read once, whatever runs it again: a tree that runs its
# program twice, through sh, has probegen itself open the program and
# sh once each (they were opened up to 7 times: to test for ELF,
# to read the notes, twice for the loader's path), and every firing is
# still traced.
t_trace_command_reads_each_file_once() {
	need_trace
	have strace || skip "strace is not installed"
	printf 'provider p {\n\tprobe tick(int n);\n};\n' > p.d
	expect "$PROBEGEN" -h -s p.d -o p.h
	expect "$PROBEGEN" -G -s p.d -o p.o
	printf '#include "p.h"\nint main(void)\n{\n\tfor (int i = 0; i < 3; i++)\n\t\tP_TICK(i);\n\treturn 0;\n}\n' > m.c
	expect gcc m.c p.o -o prog
	# LeakSanitizer cannot run under ptrace (a sanitized build).
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -e trace=openat -o opens "$PROBEGEN" --trace -n 'p:*' -c "sh -c './prog; ./prog'" > out 2> err ||
		{ cat err; fail "--trace under strace"; }
	expect_eq "$(grep -c ' p:tick ' out)" 6 "the firings of both runs"
	local me sh f n
	me=$(head -n 1 opens | awk '{ print $1 }')
	sh=$(readlink -f /bin/sh)
	for f in "$PWD/prog" "$sh"; do
		n=$(awk -v p="$me" '$1 == p' opens | grep -c "\"$f\"")
		expect_eq "$n" 1 "probegen's opens of $f"
	done
	ok
}

# -c follows the command's whole process tree: make runs a script that
# runs the program directly and through sh -c (two levels down), with
# different arguments; every firing of the tree is traced, with each
# process's pid, and --expect-all passes; a suite that never fires one
# probe fails naming it.  The same program run outside the tree, all
# through the trace, is not traced.
t_trace_command_tree() {
	need_trace
	need make
	printf 'provider app {\n\tprobe start(int n);\n\tprobe work(const char *what, int n);\n\tprobe stop(int n);\n};\n' > app.d
	cat > app.c <<-'EOF'
	#include <stdlib.h>
	#include <unistd.h>
	#include "app.h"
	int main(int argc, char **argv)
	{
		int n = argc > 1 ? atoi(argv[1]) : 0;

		APP_START(n); /* its first microseconds after exec */
		if (n > 1)
			APP_WORK("twice", n);
		if (n == 7)
			usleep(1000);
		APP_STOP(n);
		return 0;
	}
	EOF
	expect "$PROBEGEN" -h -s app.d -o app.h
	expect "$PROBEGEN" -G -s app.d -o app_probes.o
	expect gcc -O2 app.c app_probes.o -o app
	printf '#!/bin/sh\nset -e\nsleep 0.2\n./app 1\nsh -c "./app 2"\nsleep 0.2\n' > suite.sh
	printf '#!/bin/sh\n./app 1\n' > short.sh
	chmod +x suite.sh short.sh
	printf 'test:\n\t./suite.sh\nshort:\n\t./short.sh\n' > Makefile
	# The same program outside the tree, firing all through the trace.
	(while [ ! -e stop ]; do ./app 7; echo x >> outside; done) &
	loop=$!
	"$PROBEGEN" --trace --expect-all -c 'make test' > out 2> err; rc=$?
	touch stop; wait $loop
	[ $rc = 0 ] || { cat err out; fail "--expect-all -c 'make test' exited $rc"; }
	[ "$(wc -l < outside)" -gt 10 ] || fail "the program outside the tree ran $(wc -l < outside) times"
	grep -q 'n=7' out && { grep n=7 out | head -3; fail "a process outside the tree was traced"; }
	firings out > got
	printf 'app:start n=1\napp:stop n=1\napp:start n=2\napp:work what="twice" n=2\napp:stop n=2\n' | diff -u - got || fail "the tree's firings"
	[ "$(grep ' app:' out | awk '{ print $2 }' | sort -u | wc -l)" = 2 ] || { cat out; fail "two processes, each its pid"; }
	expect_grep '^probegen: tracing 3 probes of .*/app$' err
	# The program named as a BINARY operand too (by a relative path) is
	# one file with the one the tree execs: each firing once.
	"$PROBEGEN" --trace app -c ./suite.sh > once 2> err || { cat err; fail "BINARY with -c"; }
	[ "$(grep -c ' app:start ' once)" = 2 ] || { cat once; fail "a firing traced twice"; }
	# One uprobe a site (Linux before 6.6) too: libbpf looks a name with
	# no slash up in $PATH, and found no "app" there.
	PROBEGEN_NO_UPROBE_MULTI=1 "$PROBEGEN" --trace app -c ./suite.sh > once 2> err ||
		{ cat err; fail "BINARY with -c, a uprobe a site"; }
	[ "$(grep -c ' app:start ' once)" = 2 ] || { cat once; fail "a uprobe a site: not each firing once"; }
	# --summary: in how many processes each probe fired.
	"$PROBEGEN" --trace --summary -c 'make test' > sum 2> err || { cat err; fail "--summary"; }
	grep -Eq '^  app:start +2  [0-9.]+/s in 2 processes$' sum || { cat sum; fail "--summary: processes"; }
	grep -Eq '^  app:work +1  [0-9.]+/s$' sum || { cat sum; fail "--summary: one process is not said"; }
	"$PROBEGEN" --trace --summary --json -c 'make test' > sum.json 2> err || { cat err; fail "--summary --json"; }
	python3 - sum.json <<-'PY' || fail "--summary --json: processes"
	import json, sys
	p = json.loads([l for l in open(sys.argv[1]) if l.startswith("{")][0])["probes"]
	assert {k: v for k, v in p["app:start"].items() if k != "rate"} == {"count": 2, "processes": 2}, p
	assert {k: v for k, v in p["app:work"].items() if k != "rate"} == {"count": 1, "processes": 1}, p
	PY
	rm -f stop
	"$PROBEGEN" --trace --expect-all -c 'make short' > out 2> err
	expect_eq $? 1 "a probe that never fired"
	grep -q 'app:work' err || { cat err; fail "--expect-all names app:work"; }
	grep -q 'app:start' err && { cat err; fail "--expect-all names only what never fired"; }
	# -p follows the processes its process starts once traced: a shell
	# that runs the program every 50 ms (argument 3), traced for 2 s
	# (under check-kernel's emulated 6.1 a turn took 0.25 s: 4 in 1 s).
	sh -c 'while [ ! -e stop ]; do ./app 3; sleep 0.05; done' &
	loop=$!
	sleep 0.2
	timeout 30 "$PROBEGEN" --trace -p $loop --duration 2 > pout 2> err || { cat err; fail "--trace -p"; }
	# No process of the tree is left stopped once the trace has ended
	# (one stopped at an exec or in its loader as it ended goes on).
	touch stop
	if ! timeout 10 tail --pid=$loop -f /dev/null; then
		ps -o pid,stat,args --ppid $loop
		pkill -CONT -P $loop
		fail "a process of the tree was left stopped"
	fi
	wait $loop; rm -f stop
	[ "$(grep -c ' app:work what="twice" n=3$' pout)" -ge 5 ] || { cat err pout; fail "-p: the program its shell runs"; }
	# A command that runs nothing with probes says so, and leaves no
	# profile (--pprof only where probegen was built with it).
	"$PROBEGEN" --trace --folded none.folded --timeline none.json -c 'sh -c true' > out 2> err
	expect_eq $? 1 "no probes anywhere"
	expect_grep 'no probes in the command or the programs it started' err
	[ ! -e none.folded ] && [ ! -e none.json ] || fail "files written by a trace of no probes"
	"$PROBEGEN" --trace --pprof none.pb.gz -c 'sh -c true' > out 2> err
	[ ! -e none.pb.gz ] || fail "--pprof written by a trace of no probes"
	ok
}

# The libraries a program is linked with are found by its loader's list
# and attached before they load: a probe a library fires in its
# constructor, before main, is traced, for the command and for a program
# a script execs, and for a library the program's own environment chose
# (the loader's stop at its start finds those); a static program (no
# loader) is traced alone.
t_trace_command_libraries() {
	need_trace
	printf 'provider lib {\n\tprobe ready(int n);\n\tprobe call(int n);\n};\n' > lib.d
	cat > lib.c <<-'EOF'
	#include "lib.h"
	__attribute__((constructor)) static void on_load(void) { LIB_READY(41); }
	int lib_call(int n) { LIB_CALL(n); return n + 1; }
	EOF
	printf 'int lib_call(int);\nint main(void) { return lib_call(1) != 2; }\n' > prog.c
	expect "$PROBEGEN" -h -s lib.d -o lib.h
	expect "$PROBEGEN" -G -s lib.d -o lib_probes.o
	expect gcc -O2 -fPIC -shared lib.c lib_probes.o -o liblib.so
	expect gcc -O2 prog.c -L. -llib -Wl,-rpath,'$ORIGIN' -o prog
	"$PROBEGEN" --trace --expect-all -c ./prog > out 2> err || { cat err out; fail "-c ./prog"; }
	firings out > got
	printf 'lib:ready n=41\nlib:call n=1\n' | diff -u - got || fail "the library's firings"
	expect_grep "^probegen: tracing 2 probes$" err
	printf '#!/bin/sh\n./prog\n' > run.sh
	chmod +x run.sh
	"$PROBEGEN" --trace --expect-all -c ./run.sh > out 2> err || { cat err out; fail "-c ./run.sh"; }
	firings out > got
	printf 'lib:ready n=41\nlib:call n=1\n' | diff -u - got || fail "the library's firings, exec'd"
	expect_grep '^probegen: tracing 2 probes of .*/prog$' err
	# A library the program's own environment chooses, which the loader
	# probegen asks (in its environment) does not list: LD_LIBRARY_PATH
	# set by a wrapper script, as libtool's are, and LD_PRELOAD.
	mkdir -p build
	expect gcc -O2 -fPIC -shared lib.c lib_probes.o -o build/libwrapped.so
	expect gcc -O2 prog.c -Lbuild -lwrapped -o wrapped
	printf '#!/bin/sh\nLD_LIBRARY_PATH=build exec ./wrapped\n' > wrapper.sh
	chmod +x wrapper.sh
	"$PROBEGEN" --trace --expect-all -c ./wrapper.sh > out 2> err || { cat err out; fail "-c ./wrapper.sh"; }
	firings out > got
	printf 'lib:ready n=41\nlib:call n=1\n' | diff -u - got || fail "the firings of a library LD_LIBRARY_PATH chose"
	expect_grep '^probegen: tracing 2 probes of .*/build/libwrapped.so$' err
	"$PROBEGEN" --trace -c "env LD_PRELOAD=$PWD/build/libwrapped.so /bin/true" > out 2> err || { cat err out; fail "LD_PRELOAD"; }
	expect_eq "$(firings out)" "lib:ready n=41" "a preloaded library's constructor"
	if gcc -O2 -static lib.c prog.c lib_probes.o -o static 2> /dev/null; then
		"$PROBEGEN" --trace --expect-all -c ./static > out 2> err || { cat err out; fail "-c ./static"; }
		expect_eq "$(firings out | tr '\n' ' ')" "lib:ready n=41 lib:call n=1 " "a static program's firings"
	else
		skip_part "no static C library"
	fi
	ok
}

# A library the program dlopen()s is attached when the loader has mapped
# it, before its constructor runs: its constructor's firing, a firing
# behind its semaphore (_ENABLED()) and one after dlclose and a second
# dlopen are traced, for a command run by a script and for -p's process;
# probegen says it traces the library's probes.  The program itself has
# none.
t_trace_command_dlopen() {
	need_trace
	printf 'provider plug {\n\tprobe loaded(int n);\n\tprobe called(const char *what, int round);\n};\n' > plug.d
	cat > plug.c <<-'EOF'
	#include "plug.h"
	__attribute__((constructor)) static void on_load(void) { PLUG_LOADED(42); }
	void plug_run(int round)
	{
		if (PLUG_CALLED_ENABLED())
			PLUG_CALLED("hello", round);
	}
	EOF
	cat > host.c <<-'EOF'
	#include <dlfcn.h>
	#include <stdio.h>
	#include <unistd.h>
	int main(int argc, char **argv)
	{
		int round;

		/* -p: wait until the tracer has attached (it makes "go"). */
		while (argc > 1 && access(argv[1], F_OK) != 0)
			usleep(10000);
		for (round = 1; round <= 2; round++) {
			void *h = dlopen("./plug.so", RTLD_NOW);
			void (*run)(int) = h ? (void (*)(int))dlsym(h, "plug_run") : 0;

			if (!run) {
				fprintf(stderr, "dlopen: %s\n", dlerror());
				return 1;
			}
			run(round);
			dlclose(h);
		}
		return 0;
	}
	EOF
	expect "$PROBEGEN" -h -s plug.d -o plug.h
	expect "$PROBEGEN" -G -s plug.d -o plug_probes.o
	expect gcc -O2 -fPIC -shared plug.c plug_probes.o -o plug.so
	expect gcc -O2 host.c -o host -ldl
	[ -z "$(./host)" ] || fail "the program prints"
	printf '#!/bin/sh\n./host\n' > run.sh
	chmod +x run.sh
	want='plug:loaded n=42 plug:called what="hello" round=1 plug:loaded n=42 plug:called what="hello" round=2 '
	"$PROBEGEN" --trace --expect-all -c ./run.sh > out 2> err || { cat err out; fail "-c ./run.sh"; }
	expect_eq "$(firings out | tr '\n' ' ')" "$want" "the dlopen'ed library's firings"
	expect_grep '^probegen: tracing 2 probes of .*/plug.so$' err
	# The same with a uprobe a site (kernels before 6.6).
	PROBEGEN_NO_UPROBE_MULTI=1 "$PROBEGEN" --trace -c ./run.sh > out 2> err || { cat err out; fail "a uprobe a site"; }
	expect_eq "$(firings out | tr '\n' ' ')" "$want" "a uprobe a site: the library's firings"
	# -p: the process runs before the trace; it loads the library after.
	rm -f go
	./host go > /dev/null &
	pid=$!
	"$PROBEGEN" --trace -p $pid > pout 2> perr &
	tracer=$!
	# Attached once a link runs on_loader (bpftool lists them).
	for i in $(seq 300); do
		for prog in $(bpftool link show 2> /dev/null | sed -n 's/.* prog \([0-9]*\).*/\1/p'); do
			bpftool prog show id "$prog" 2> /dev/null | grep -q 'name on_loader' && break 2
		done
		sleep 0.1
	done
	touch go
	wait $tracer || { cat perr pout; fail "--trace -p"; }
	wait $pid
	expect_eq "$(firings pout | tr '\n' ' ')" "$want" "-p: the dlopen'ed library's firings"
	ok
}

# Sites that disagree (a literal 0 passed as 4 bytes, a long in a
# register as 8) are each read by their own specs: --trace and the
# --bpftrace script made from the binary print both values.
t_trace_sites_disagree() {
	need_trace
	printf 'provider t {\n\tprobe p(long x);\n};\n' > t.d
	expect "$PROBEGEN" -h -s t.d -o t.h
	expect "$PROBEGEN" -G -s t.d -o t.o
	printf '#include "t.h"\nlong v = -5000000000;\nint main(void)\n{\n\tT_P(0);\n\tT_P(v);\n\treturn 0;\n}\n' > t.c
	expect gcc -O2 t.c t.o -o t
	[ "$(readelf -nW t | grep -c 'Name: p$')" = 2 ] || fail "not two sites"
	"$PROBEGEN" --trace -c ./t > out 2>&1 || { cat out; fail "--trace"; }
	grep -q ' t:p x=0$' out && grep -q ' t:p x=-5000000000$' out || { cat out; fail "--trace values"; }
	if have bpftrace; then
		"$PROBEGEN" --bpftrace t -o t.bt || fail "--bpftrace t"
		timeout 60 bpftrace t.bt ./t -c ./t > bt.out 2>&1
		grep -q 'x=0\b' bt.out && grep -q 'x=-5000000000\b' bt.out || { cat t.bt bt.out; fail "bpftrace values"; }
	else
		skip_part "bpftrace is not installed"
	fi
	ok
}

# A string that cannot be read (PHP passes ZSTR_VAL(NULL), 0x18) takes a
# shape no string the program passes can take: unquoted in text, an
# object in JSON (--trace --json and --timeline's args alike).
t_trace_unreadable_string() {
	need_trace
	printf 'provider u {\n\tprobe s(int n, const char *p);\n\tprobe s__start(int n, const char *p);\n\tprobe s__done(int n);\n};\n' > u.d
	expect "$PROBEGEN" -h -s u.d -o u.h
	expect "$PROBEGEN" -G -s u.d -o u.o
	printf '#include "u.h"\nint main(void)\n{\n\tU_S(1, (const char *)0x18);\n\tU_S(2, "0x18 (unreadable)");\n\tU_S_START(3, (const char *)0x18);\n\tU_S_DONE(3);\n\treturn 0;\n}\n' > u.c
	expect gcc -O2 u.c u.o -o u
	"$PROBEGEN" --trace -c ./u > out 2> err || { cat err; fail "--trace"; }
	grep -q ' u:s n=1 p=0x18(unreadable)$' out || { cat out; fail "text: the unreadable string"; }
	grep -qF ' u:s n=2 p="0x18 (unreadable)"' out || { cat out; fail "text: the program's own string"; }
	"$PROBEGEN" --trace --json -c ./u > out.json 2> err || { cat err; fail "--trace --json"; }
	"$PROBEGEN" --trace --timeline tl.json -c ./u > /dev/null 2> err || { cat err; fail "--timeline"; }
	python3 - out.json tl.json <<-'PY' || fail "JSON shapes"
	import json, sys
	ev = [json.loads(l) for l in open(sys.argv[1])]
	s = [e['args'] for e in ev if e['probe'] == 'u:s']
	assert s[0]['p'] == {'address': '0x18', 'unreadable': True}, s[0]
	assert s[1]['p'] == '0x18 (unreadable)', s[1]
	tl = json.load(open(sys.argv[2]))['traceEvents']
	starts = [e['args']['start'] for e in tl if e.get('ph') == 'X']
	assert starts and starts[0]['p'] == {'address': '0x18', 'unreadable': True}, starts
	PY
	ok
}

# A site whose argument no spec can say (a volatile global passed
# through sys/sdt.h: "-8@counter(%rip)") is not attached, with a warning
# naming the probe, the file, the site and the operand; the program's
# other probes are traced, and their values read right.
t_trace_unreadable_spec() {
	need_trace
	cat > rip.c <<-'EOF'
	#include <sys/sdt.h>
	volatile long counter = 41;
	int main(void)
	{
		counter++;
		STAP_PROBE2(t, global, counter, 7);
		STAP_PROBE2(t, ok, 5, -6);
		return 0;
	}
	EOF
	expect gcc -O2 rip.c -o rip
	"$PROBEGEN" --list rip > list || fail "--list"
	grep -q '@counter(%rip)' list || skip "gcc put the global in a register here: $(grep site list | head -1)"
	"$PROBEGEN" --trace -c ./rip > out 2> err || { cat err; fail "--trace"; }
	grep -Eq "^probegen: warning: cannot attach to t:global in .*/rip: site 0x[0-9a-f]+: argument '-8@counter\(%rip\)' cannot be read$" err ||
		{ cat err; fail "the warning"; }
	grep -q '^probegen: tracing 1 probe$' err || { cat err; fail "the other probe attached"; }
	firings out > got
	echo 't:ok arg0=5 arg1=-6' | diff -u - got || fail "the other probe's values"
	ok
}

# A 32-bit program (i686, static: it runs on this kernel) is traced:
# libbpf 1.1's own USDT attach refused it ("Bad file descriptor"); its
# arguments are read with its own sizes (long and pointers of 4
# bytes), and the --bpftrace script made from it formats them so.
t_trace_foreign_32bit() {
	need_trace
	need i686-linux-gnu-gcc
	printf 'provider m32 {\n\tprobe v(int i, long l, void *p, const char *s, unsigned int u, unsigned long ul);\n};\n' > m.d
	expect "$PROBEGEN" -h --self-contained -s m.d -o m.h
	expect "$PROBEGEN" -G --target=i386 -s m.d -o m.o
	cat > m.c <<-'C'
	#include <stdio.h>
	#include "m.h"
	static char text[] = "hello 32";
	static volatile int k = 1;
	int main(void)
	{
		printf("p=%p\n", (void *)text);
		fflush(stdout);
		M32_V(-7 * k, -70000L * k, text, text, 4000000000u * (unsigned)k, 4000000001ul * (unsigned long)k);
		trace_m32_v(-8, -80000L, text, "literal 32", 7u, 4000000002ul);
		return 0;
	}
	C
	i686-linux-gnu-gcc -static -O2 -I. m.c m.o -o m32 || fail "i686 build"
	file m32 | grep -q 'ELF 32-bit' || fail "not a 32-bit program"
	./m32 > /dev/null 2> run.err ||
		{ grep -q 'Exec format error' run.err && skip_kernel "this kernel cannot run 32-bit x86 programs (ia32 emulation is off)"; }
	"$PROBEGEN" --trace -c ./m32 > out 2> err || { cat err; fail "--trace of a 32-bit program"; }
	cat out
	local p
	p=$(sed -n 's/^p=\(0x[0-9a-f]*\)$/\1/p' out)
	[ -n "$p" ] || fail "the program printed no pointer"
	grep -qF " m32:v i=-7 l=-70000 p=$p s=\"hello 32\" u=4000000000 ul=4000000001" out ||
		fail "first firing's values"
	grep -qF " m32:v i=-8 l=-80000 p=$p s=\"literal 32\" u=7 ul=4000000002" out ||
		fail "second firing's values"
	"$PROBEGEN" --trace --json -c ./m32 > out.json 2> err || { cat err; fail "--trace --json"; }
	grep -qF '"args": {"i": -7, "l": -70000, ' out.json || { cat out.json; fail "JSON values"; }
	# The script made from the binary formats a long as 4 bytes.
	"$PROBEGEN" --bpftrace m32 -o m32.bt || fail "--bpftrace m32"
	expect_grep 'printf("m32:v i=%d l=%d p=0x%lx s=\\"%s\\" u=%u ul=%u\\n"' m32.bt
	ok
}

# A constant address passed for a string ((char *)0x18, which PHP's
# ZSTR_VAL(NULL) is) is not a literal: a traced program is not made to
# read it (it did, and crashed, when every constant was read), in every
# form, C and C++.
t_trace_constant_address_not_read() {
	need_trace
	printf 'provider v {\n\tprobe s(int n, const char *p);\n};\n' > v.d
	expect "$PROBEGEN" -h -s v.d -o v.h
	expect "$PROBEGEN" -G -s v.d -o v.o
	printf '#include "v.h"\nint main(void)\n{\n\tV_S(1, (const char *)0x18);\n\ttrace_v_s(2, (const char *)0x18);\n\tV_S_LAZY(3, (const char *)0x18);\n\tV_S(4, "literal");\n\treturn 0;\n}\n' > v.c
	local cc
	for cc in gcc g++; do
		$cc -O2 -x $([ $cc = gcc ] && echo c || echo c++) v.c -x none v.o -o v-$cc || fail "$cc"
		"$PROBEGEN" --trace -c ./v-$cc > out 2> err || { cat err; fail "--trace ($cc)"; }
		grep -q 'Segmentation\|signal' err && { cat err; fail "the program crashed ($cc)"; }
		expect_eq "$(grep -c 'p=0x18(unreadable)$' out)" 3 "unreadable addresses ($cc)"
		expect_grep ' v:s n=4 p="literal"$' out
	done
	ok
}

# A thousand probes at once, and five thousand: a generated program with
# 5,000 probes (bench/gen.sh, 0 to 12 arguments each) traced with every
# probe attached, each counted once, with no crash, through the
# multi-uprobe link and, for 100 of them, one uprobe a site too.
t_trace_five_thousand_probes() {
	need_trace
	need python3
	"$ROOT/bench/gen.sh" 5000 plain > many.d
	expect "$PROBEGEN" -h -s many.d -o many.h
	expect "$PROBEGEN" -G -s many.d -o many.o
	python3 - <<-'PY'
	import re
	text = open('many.h').read()
	calls = []
	for m in re.finditer(r'#define (BENCH\d+_P(\d+)_EVENT)\((\.\.\.)?\) \\', text):
	    calls.append('\t%s(%s);' % (m.group(1), ', '.join(['v'] * (int(m.group(2)) % 13))))
	with open('many.c', 'w') as f:
	    f.write('#include <stdlib.h>\n#include <unistd.h>\n#include "many.h"\nvolatile long v = 1;\n')
	    f.write('int main(int argc, char **argv) {\n\tint n = argc > 1 ? atoi(argv[1]) : 5000, i = 0;\n')
	    for k, c in enumerate(calls):
	        f.write('\tif (i++ < n)%s\n' % c)
	    f.write('\treturn 0;\n}\n')
	    print(len(calls), "probes")
	PY
	expect gcc -O1 many.c many.o -o many
	local start end
	start=$(date +%s%N)
	"$PROBEGEN" --trace --summary --json -c './many 5000' > all.json 2> err || { cat err; fail "--summary of 5,000 probes"; }
	end=$(date +%s%N)
	grep -qi 'double free\|abort\|Segmentation' err && { cat err; fail "crashed"; }
	python3 - all.json <<-'PY' || fail "counts"
	import json, sys
	d = json.load(open(sys.argv[1]))
	counts = [p['count'] for p in d['probes'].values()]
	assert len(counts) == 5000 and set(counts) == {1}, (len(counts), set(counts))
	assert d['unfired'] == [], d['unfired'][:5]
	PY
	note "5,000 probes traced in $(( (end - start) / 1000000 )) ms, each counted once"
	# One uprobe a site: 100 of them (each costs the kernel about a
	# tenth of a second to register; 5,000 would take minutes).
	start=$(date +%s%N)
	PROBEGEN_NO_UPROBE_MULTI=1 "$PROBEGEN" --trace --summary --json -n 'bench4:p44??__event' -c './many 5000' > one.json 2> err ||
		{ cat err; fail "--summary, one uprobe a site"; }
	end=$(date +%s%N)
	python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); c = [p["count"] for p in d["probes"].values()]; assert len(c) == 100 and set(c) == {1}, (len(c), set(c))' one.json ||
		fail "counts, one uprobe a site"
	note "100 probes one uprobe a site: $(( (end - start) / 1000000 )) ms"
	ok
}

# --trace as a user with CAP_BPF and CAP_PERFMON alone (a CI container's
# or a service's), not root: it traces, follows the command's tree and
# judges its --expect; without them it says what it needs (exit 2).
t_trace_capabilities_not_root() {
	need_trace
	have setpriv || skip "no setpriv (util-linux)"
	# Where nobody reaches: the tree may be under a home of mode 700.
	local d
	d=$(mktemp -d /tmp/probegen-caps.XXXXXX) || fail "mktemp"
	chmod 755 "$d"
	cp "$PROBEGEN" "$d/probegen" && cp -r "$ROOT/examples/make/." "$d" || fail "copy"
	(cd "$d" && make -s PROBEGEN="$d/probegen" > /dev/null) || fail "examples/make"
	chmod -R a+rwX "$d"
	local as_nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	(cd "$d" && timeout 60 $as_nobody --inh-caps=+bpf,+perfmon --ambient-caps=+bpf,+perfmon \
		./probegen --trace --summary --expect 'myapp:request__done{6}' -c ./tests.sh) > out 2> err ||
		{ cat err; rm -rf "$d"; fail "not root, with CAP_BPF and CAP_PERFMON"; }
	(cd "$d" && timeout 60 $as_nobody ./probegen --trace -c ./myapp) > out2 2> err2
	local status=$?
	# -p 1 with the capabilities but not CAP_SYS_PTRACE: the process
	# exists (it said "no process with PID 1"), its mappings are closed.
	(cd "$d" && timeout 60 $as_nobody --inh-caps=+bpf,+perfmon --ambient-caps=+bpf,+perfmon \
		./probegen --trace -p 1 --duration 1) > out3 2> err3
	local status3=$?
	rm -rf "$d"
	expect_eq $status3 2 "-p 1 without CAP_SYS_PTRACE"
	expect_grep "cannot read process 1's program and mappings (/proc/1/exe: Permission denied): -p of another user's process needs root or CAP_SYS_PTRACE" err3
	! grep -q 'no process with PID' err3 || fail "-p 1: said the process does not exist"
	expect_grep "'myapp:request__done{6}': met: 6 of 6" err
	expect_eq $status 2 "without the capabilities"
	expect_grep "needs root, or the capabilities CAP_BPF and CAP_PERFMON" err2
	ok
}
