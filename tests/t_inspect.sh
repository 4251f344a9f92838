# t_inspect.sh - the inspector (--list, --check) and what it feeds:
# --bpftrace scripts run under bpftrace, --docs against a golden file,
# declaration notes, --list and --check on good and deliberately broken
# binaries.

# The script of values.d under bpftrace, against loop.c's known values;
# the script made from the binary's recorded declarations is the same.
t_inspect_bpftrace_script() {
	need_bpftrace
	values_program loop.c loop
	"$PROBEGEN" --bpftrace -s "$ROOT/tests/src/values.d" -o values.bt || fail "--bpftrace"
	# values.c fires every probe of the file, loop.c all but vals:none.
	values_program values.c values
	"$PROBEGEN" --bpftrace values -o frombin.bt || fail "--bpftrace BINARY"
	# Past the header comment (which says what each is for) they agree.
	diff <(sed '1,/^ \*\/$/d' values.bt) <(sed '1,/^ \*\/$/d' frombin.bt) ||
		fail "scripts from the .d and the binary differ"
	# Arguments bpftrace 0.17 cannot read are named, not dropped.
	expect_grep 'not printed: g (long), h (unsigned long), i (long long), j (unsigned long long)' values.bt
	timeout 60 bpftrace values.bt ./loop -c ./loop > out 2> err
	grep -v '^Attaching' out | grep . | sort -u > got
	cat > want <<-'W'
	program saw the semaphore set: yes
	vals:ints a=65 b=250 c=-300 d=60000 e=-70000 f=4000000000
	vals:twelve a1=1 a2=-2 a3=3 a4=-4 a5=5 a6=-6
	W
	sort -u want -o want
	grep -v '^vals:ptrs' got | diff -u want - || { cat err; fail "bpftrace output"; }
	grep -Eq '^vals:ptrs s="hello probe" p=0x[0-9a-f]+ t="hello probe"$' got ||
		{ cat got; fail "strings and pointers"; }
	ok
}

# A script made from a shared library (which carries vals:twelve only),
# attached to it in a running process.
t_inspect_bpftrace_shared_library() {
	need_bpftrace
	start_library_program
	"$PROBEGEN" --bpftrace libvals.so -o values.bt || fail "--bpftrace libvals.so"
	expect_eq "$(grep -c '^usdt:' values.bt)" 1 "probes in the library's script"
	timeout -s INT 4 bpftrace -p $pid values.bt "$PWD/libvals.so" > out 2> err
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	# lib_fire(n) passes its counter first.
	[ "$(grep -Ec '^vals:twelve a1=[0-9]+ a2=-2 a3=3 a4=-4 a5=5 a6=-6$' out)" -ge 3 ] ||
		{ cat out err; fail "library firings traced"; }
	ok
}

t_inspect_docs_golden() {
	"$PROBEGEN" --docs -s "$ROOT/tests/docs/shop.d" -o shop.md 2> err || fail "--docs"
	diff -u "$ROOT/tests/docs/shop.md" shop.md || fail "shop.md differs from the golden file"
	# Doc comments survive -C.
	"$PROBEGEN" -C --docs -s "$ROOT/tests/docs/shop.d" -o cpp.md 2> err || fail "-C --docs"
	diff -u <(sed 3d "$ROOT/tests/docs/shop.md") <(sed 3d cpp.md) || fail "-C loses the docs"
	ok
}

# The declarations -G records survive strip and eu-strip, list with
# names and types, and read as one however many objects record them.
t_inspect_list_stripped() {
	need eu-strip
	values_program loop.c loop
	cp loop loop.strip && strip loop.strip
	cp loop loop.eustrip && eu-strip loop.eustrip
	for b in loop loop.strip loop.eustrip; do
		"$PROBEGEN" --list $b > list.$b || fail "--list $b"
		grep -q '^    arg9  j: unsigned long long  *8 bytes$' list.$b ||
			{ cat list.$b; fail "$b: no names and types"; }
		"$PROBEGEN" --list --json $b > $b.json || fail "--list --json $b"
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))[0]
p = {q["name"]: q for q in d["probes"]}
a = p["ints"]["arguments"]
assert [x["name"] for x in a] == list("abcdefghij"), a
assert a[2]["type"] == "short" and a[2]["size"] == 2 and a[2]["signed"], a[2]
assert p["ptrs"]["arguments"][2]["type"] == "string"
assert len(p["twelve"]["arguments"]) == 12
' $b.json || fail "$b: JSON"
	done
	# The declarations note taken out (README): the probes stay, listed
	# without names or types.
	objcopy --remove-section=.note.probegen loop loop.nodecl || fail "objcopy"
	"$PROBEGEN" --list loop.nodecl > list.nodecl || fail "--list loop.nodecl"
	expect_eq "$(grep -c '^  vals:' list.nodecl)" "$(grep -c '^  vals:' list.loop)" "probes without the note"
	expect_grep 'arg0  (not declared)' list.nodecl
	# SystemTap's dtrace records no declarations: listed without names.
	if ! have dtrace; then
		skip_part "SystemTap's dtrace is not installed (systemtap-sdt-dev)"
	else
		(dtrace -G -s "$ROOT/tests/src/values.d" -o stap.o) > /dev/null 2>&1 || fail "dtrace -G"
		gcc -O2 -I. "$ROOT/tests/src/loop.c" stap.o -o stap || fail "build with dtrace's object"
		"$PROBEGEN" --list stap > list.stap || fail "--list stap"
		expect_grep 'arg0  (not declared)' list.stap
	fi
	# Header-only: each site records its own probe only, and two units
	# recording one probe read as one.
	printf 'provider h {\n\tprobe p(int n, char *s);\n\tprobe q(long x);\n};\n' > h.d
	expect "$PROBEGEN" -h --header-only -s h.d -o h.h
	printf '#include "h.h"\nvoid a(void);\nvoid a(void) { H_P(1, "x"); }\n' > a.c
	printf '#include "h.h"\nvoid a(void);\nint main(void) { a(); trace_h_p(2, "y"); return 0; }\n' > m.c
	expect gcc -O2 a.c m.c -o ho
	expect_eq "$(readelf -nW ho | grep -c '^ *probegen ')" 2 "declaration notes (two sites of h:p)"
	"$PROBEGEN" --list ho > list.ho || fail "--list ho"
	expect_eq "$(grep -c '^  h:' list.ho)" 1 "probes listed"
	expect_grep 'arg1  s: char \*' list.ho
	ok
}

# --check: a good binary passes; each kind of break is named.
t_inspect_check() {
	values_program loop.c loop
	values_program values.c values
	"$PROBEGEN" --check -s "$ROOT/tests/src/values.d" values > out || { cat out; fail "good binary"; }
	[ ! -s out ] || { cat out; fail "good binary: output"; }
	# Wrong arity, an undeclared probe, a missing one.
	sed -e 's/unsigned long long j);/unsigned long long j, int k);/' \
	    -e 's/probe none();/probe none();\n\tprobe ghost(int x);/' \
	    "$ROOT/tests/src/values.d" > declared.d
	sed 's/probe none();/probe none();\n\tprobe extra();/' "$ROOT/tests/src/values.d" > built.d
	expect "$PROBEGEN" -h -s built.d -o values.h
	expect "$PROBEGEN" -G -s built.d -o values.o
	printf '#include "values.h"\nint main(void) { VALS_EXTRA(); return 0; }\n' > extra.c
	expect gcc -O2 -I. extra.c values.o -o extra
	"$PROBEGEN" --check -s declared.d values extra > out
	expect_eq $? 1 "exit status"
	grep -Eq '^values: vals:ints: site 0x[0-9a-f]+( \([^)]*\))?: the note has 10 arguments, the declaration 11$' out ||
		{ cat out; fail "arity"; }
	expect_grep '^extra: vals:extra: not declared in declared.d$' out
	expect_grep '^values, extra: vals:ghost: in none of the binaries (declared at declared.d:[0-9]*)$' out
	"$PROBEGEN" --check --allow-missing -s declared.d values > out2
	expect_eq $? 1 "exit status (arity still wrong)"
	expect_grep '^values: vals:ghost: warning: in none of the binaries (declared at declared.d:[0-9]*)$' out2
	# Many binaries (a build's hundreds of objects): their count.
	"$PROBEGEN" --check --allow-missing -s declared.d values extra values extra > out3
	expect_grep '^4 binaries: vals:ghost: warning: in none of the binaries (declared at declared.d:[0-9]*)$' out3
	# No .stapsdt.base; a semaphore outside .probes.
	objcopy --remove-section .stapsdt.base values nobase
	"$PROBEGEN" --check -s "$ROOT/tests/src/values.d" nobase > out
	expect_eq $? 1 "exit status (no base)"
	expect_grep '^nobase: no .stapsdt.base section: gdb ignores every probe$' out
	printf 'provider s {\n\tprobe p(int x);\n};\n' > s.d
	expect "$PROBEGEN" -h -s s.d -o s.h
	# The semaphore defined in a unit that does not see the header's
	# section attribute: it lands in .bss.
	printf '#include "s.h"\nint main(int c, char **v) { (void)v; S_P(c); return 0; }\n' > s.c
	printf 'unsigned short s_p_semaphore;\n' > sem.c
	expect gcc -O2 s.c sem.c -o sem
	"$PROBEGEN" --check -s s.d sem > out
	expect_eq $? 1 "exit status (semaphore)"
	grep -Eq '^sem: s:p: semaphore 0x[0-9a-f]+ is outside .probes$' out || { cat out; fail "semaphore"; }
	# What libbpf cannot parse: sys/sdt.h's own "nor" takes a global
	# as RIP-relative memory.
	printf '#include <sys/sdt.h>\nint g = 3;\nint main(void) { DTRACE_PROBE1(s, p, g); return 0; }\n' > rip.c
	expect gcc -O2 rip.c -o rip
	"$PROBEGEN" --check -s s.d rip > out
	expect_eq $? 1 "exit status (libbpf)"
	grep -Eq "^rip: s:p: site 0x[0-9a-f]+( \([^)]*\))?: libbpf cannot parse argument '-4@g\(%rip\)' \(x86_64\)$" out ||
		{ cat out; fail "libbpf check"; }
	# Sizes that differ from the declaration: a warning, or an error
	# with --strict (memcached passes a uint8_t for an int).
	printf '#include <stdint.h>\n#include "s.h"\nint main(int c, char **v) { uint8_t u = (uint8_t)c; (void)v; S_P(u); return 0; }\n' > narrow.c
	expect "$PROBEGEN" -G -s s.d -o s.o
	expect gcc -O2 narrow.c s.o -o narrow
	"$PROBEGEN" --check -s s.d narrow > out
	expect_eq $? 0 "exit status (a warning)"
	grep -Eq '^narrow: s:p: warning: site 0x[0-9a-f]+( \([^)]*\))?: argument 0 is recorded as 1 bytes unsigned, declared 4 bytes signed$' out ||
		{ cat out; fail "narrow"; }
	"$PROBEGEN" --check --strict -s s.d narrow > out
	expect_eq $? 1 "exit status (--strict)"
	ok
}

# How a tracer reads each type is decided once (type.c): the checker's
# warnings, --docs, the --bpftrace script and --check agree on which
# arguments no tracer can read, and on those it can.
t_inspect_one_reading() {
	cat > r.d <<-'D'
	struct pair { int a, b; };
	typedef int my_int;
	provider r {
		probe p(double d, struct pair by_value, int n, const char *s, my_int m, void *ptr);
	};
	D
	"$PROBEGEN" -h -s r.d -o r.h 2> warnings || fail "-h"
	"$PROBEGEN" --docs -s r.d -o r.md 2> /dev/null || fail "--docs"
	"$PROBEGEN" --bpftrace -s r.d -o r.bt 2> /dev/null || fail "--bpftrace"
	grep -q "argument 1 of probe 'p' has floating type 'double'" warnings &&
		grep -q "argument 2 of probe 'p' is a 'struct pair' passed by value" warnings ||
		{ cat warnings; fail "checker warnings"; }
	expect_eq "$(grep -c ': warning: ' warnings)" 2 "warnings"
	grep -qF '| 0 | `d` | `double` | not readable (floating) |' r.md &&
		grep -qF '| 1 | `by_value` | `struct pair` | not readable (passed by value) |' r.md &&
		grep -qF '| 2 | `n` | `int` | `arg2` |' r.md && grep -qF '| 3 | `s` | `char const *` | `str(arg3)` |' r.md ||
		{ cat r.md; fail "--docs"; }
	grep -qF 'printf("r:p d=(not readable: floating) by_value=(not readable: passed by value) n=%d s=\"%s\" m=%d ptr=0x%lx\n", arg2, str(arg3), arg4, arg5);' r.bt ||
		{ cat r.bt; fail "--bpftrace"; }
	ok
}

# A probe fired from several places: --list shows every site, with its
# source line, and where they disagree each argument's sizes with their
# sites (text and JSON); --check judges every site, so the literal 0's
# site is named whether it comes first or last.
t_inspect_sites_disagree() {
	printf 'provider t {\n\tprobe p(long x);\n};\n' > t.d
	expect "$PROBEGEN" -h -s t.d -o t.h
	expect "$PROBEGEN" -G -s t.d -o t.o
	local order
	for order in first last; do
		if [ $order = first ]; then
			printf '#include "t.h"\nlong v = 5;\nint main(void)\n{\n\tT_P(0);\n\tT_P(v);\n\treturn 0;\n}\n' > t.c
		else
			printf '#include "t.h"\nlong v = 5;\nint main(void)\n{\n\tT_P(v);\n\tT_P(0);\n\treturn 0;\n}\n' > t.c
		fi
		expect gcc -g -O2 t.c t.o -o t
		"$PROBEGEN" --list t > list || fail "--list"
		[ "$(grep -c '^    site 0x' list)" = 2 ] || { cat list; fail "$order: not two sites"; }
		grep -Eq '^    site 0x[0-9a-f]+  -4@\$0  \(.*t\.c:[56]\)$' list || { cat list; fail "$order: the literal's site"; }
		grep -Eq '^    arg0  x: long +sites disagree: (signed, 4 bytes at 0x[0-9a-f]+; signed, 8 bytes at 0x[0-9a-f]+|signed, 8 bytes at 0x[0-9a-f]+; signed, 4 bytes at 0x[0-9a-f]+)$' list ||
			{ cat list; fail "$order: the disagreeing argument"; }
		"$PROBEGEN" --list --json t | python3 -c '
import json, sys
p = json.load(sys.stdin)[0]["probes"][0]
sizes = sorted(s["arguments"][0]["size"] for s in p["sites"])
assert sizes == [4, 8], sizes
assert all(s["source"].endswith(("t.c:5", "t.c:6")) for s in p["sites"]), p["sites"]
assert p["arguments"][0]["sites_agree"] is False
' || fail "$order: --list --json"
		"$PROBEGEN" --check -s t.d t > out
		expect_eq $? 0 "exit status ($order)"
		[ "$(wc -l < out)" = 1 ] || { cat out; fail "$order: one warning expected"; }
		line=$([ $order = first ] && echo 5 || echo 6)
		grep -Eq "^t: t:p: warning: site 0x[0-9a-f]+ \(.*t\.c:$line\): argument 0 is recorded as 4 bytes signed, declared 8 bytes signed$" out ||
			{ cat out; fail "$order: the warning does not name the literal's site"; }
	done
	ok
}

# Each architecture's libbpf forms are compiled and used: a site whose
# spec is turned into one no parser reads (patched into an object built
# by that architecture's compiler) is reported for it.  A form that did
# not compile once skipped the check without a word.
t_inspect_libbpf_forms_every_arch() {
	need python3
	local cc arch n=0
	printf 'provider s {\n\tprobe p(int x);\n};\n' > s.d
	expect "$PROBEGEN" -h --self-contained -s s.d -o s.h
	printf '#include "s.h"\nint f(int x) { S_P(x); return x; }\n' > f.c
	for cc in gcc:x86_64 i686-linux-gnu-gcc:i386 aarch64-linux-gnu-gcc:aarch64 \
		  riscv64-linux-gnu-gcc:riscv64 arm-linux-gnueabihf-gcc:arm s390x-linux-gnu-gcc:s390x; do
		arch=${cc#*:} cc=${cc%%:*}
		have $cc || { skip_part "$cc is not installed"; continue; }
		$cc -O2 -I. -c f.c -o f.$arch.o || fail "$cc"
		"$PROBEGEN" --check -s s.d f.$arch.o > out 2>&1 || { cat out; fail "$arch: --check of a good object"; }
		python3 - f.$arch.o <<-'PY' || fail "$arch: patching the spec"
		import re, sys
		data = open(sys.argv[1], 'rb').read()
		m = re.search(rb'-4@[^\0]+\0', data)
		assert m, 'no spec'
		bad = (b'-4@' + b'?' * (len(m.group(0)) - 4) + b'\0')
		open(sys.argv[1], 'wb').write(data[:m.start()] + bad + data[m.end():])
		PY
		"$PROBEGEN" --check -s s.d f.$arch.o > out 2>&1
		expect_eq $? 1 "$arch: exit status"
		grep -q "libbpf cannot parse argument '-4@?*' ($arch)" out || { cat out; fail "$arch: not reported"; }
		n=$((n + 1))
	done
	echo "$n architectures"
	ok
}


# The writer-to-reader round trip on every file in tests/good: its
# header and -G object linked into a program with a site for every probe
# (tests/fire_all.py), then read back.  --list --json must list every
# probe with its argument names and count, and the --bpftrace script
# made from the binary must equal the one made from the file (the same
# probes, the same formats: typedefs of the file included).
t_inspect_round_trip_every_good_file() {
	need python3
	local f b why
	for f in "$ROOT"/tests/good/*.d; do
		b=${f##*/} b=${b%.d} why=
		"$PROBEGEN" -h -s "$f" -o $b.h 2> /dev/null && "$PROBEGEN" -G -s "$f" -o $b.o 2> /dev/null ||
			{ case_fail $b "probegen -h or -G"; continue; }
		python3 "$ROOT/tests/fire_all.py" $b.h > $b.c && gcc -O2 -I. $b.c $b.o -o $b.bin 2> $b.cc ||
			{ case_fail $b "build: $(head -n 3 $b.cc)"; continue; }
		"$PROBEGEN" --bpftrace -s "$f" -o $b.file.bt 2> /dev/null &&
			"$PROBEGEN" --bpftrace $b.bin -o $b.bin.bt 2> /dev/null || { case_fail $b "--bpftrace"; continue; }
		# Past the header comment (which says what each is for), the
		# scripts are equal but for the declarations in comments: the
		# binary records its types with the file's typedefs expanded.
		diff <(sed '1,/^ \*\/$/d; /^\/\*/d' $b.file.bt) <(sed '1,/^ \*\/$/d; /^\/\*/d' $b.bin.bt) > $b.diff ||
			why="scripts differ: $(head -c 300 $b.diff | tr '\n' ' ')"
		"$PROBEGEN" --list --json $b.bin > $b.json 2> /dev/null || why="$why --list --json failed"
		python3 - $b.json $b.file.bt <<-'PY' > $b.py 2>&1 || why="$why $(tail -n 1 $b.py)"
		import json, re, sys
		listed = {}
		for binary in json.load(open(sys.argv[1])):
		    for p in binary['probes']:
		        listed[p['provider'] + ':' + p['name']] = [a['name'] for a in p['arguments']]
		declared = {}
		for line in open(sys.argv[2]):
		    m = re.match(r'usdt:\$1:(\w+):(\w+)$', line)
		    if m:
		        declared[m.group(1) + ':' + m.group(2)] = None
		    m = re.match(r'\tprintf\("(\w+:\w+)((?: \w+=\S*)*)\\n"', line)
		    if m:
		        declared[m.group(1)] = [w.split('=')[0] for w in m.group(2).split()]
		assert set(listed) == set(declared), (sorted(listed), sorted(declared))
		for k, names in declared.items():
		    assert names is None or listed[k][:len(names)] == names, (k, listed[k], names)
		PY
		if [ -z "$why" ]; then case_ok "$b ($(grep -c '^usdt:' $b.file.bt) probes)"; else case_fail $b "$why"; fi
	done
	cases_end
}

# --list's columns stay aligned whatever the names' length (PHP's
# compile_file_translated), an unnamed argument is named once
# ("arg1: int"), and a binary with no probes says nothing of gdb.
t_inspect_list_columns() {
	printf 'provider php {\n\tprobe compile__file__return(const char *compile_file, const char *compile_file_translated, unsigned long long a_very_long_argument_name_indeed);\n\tprobe un(int, long);\n};\n' > php.d
	expect "$PROBEGEN" -h -s php.d -o php.h
	expect "$PROBEGEN" -G -s php.d -o php.o
	printf '#include "php.h"\nint main(int c, char **v) { PHP_COMPILE_FILE_RETURN(v[0], v[0], (unsigned long long)c); PHP_UN(c, (long)c); return 0; }\n' > php.c
	expect gcc -O2 php.c php.o -o php
	"$PROBEGEN" --list php > list || fail "--list"
	cat list
	# The size column starts at one place within a probe.
	awk '/^  php:/ { probe = $1 } /^    arg/ { match($0, /(signed, )?[0-9]+ bytes$/); if (probe in start && start[probe] != RSTART) bad = 1; start[probe] = RSTART } END { exit bad }' list ||
		fail "columns not aligned"
	expect_grep '^    arg2  a_very_long_argument_name_indeed: unsigned long long  8 bytes$' list
	expect_grep '^    arg0: int  *signed, 4 bytes$' list
	expect_grep '^    arg1: long  *signed, 8 bytes$' list
	grep -q 'arg0  arg0' list && fail "an unnamed argument named twice"
	printf 'int main(void) { return 0; }\n' > none.c
	expect gcc -O2 none.c -o none
	expect_eq "$("$PROBEGEN" --list none)" "none: 0 probes" "a binary with no probes"
	ok
}

# --bpftrace with binaries writes the probes they carry and says which
# were left out (bpftrace refuses a whole script with one missing); a
# script from -s alone says what it needs; one for a shared library
# suggests -p, which bpftrace 0.17 needs there, not -c.
t_inspect_bpftrace_fits_binaries() {
	need_bpftrace
	printf 'provider vals {\n\tprobe twelve(int a1, int a2, int a3, int a4, int a5, int a6, int a7, int a8, int a9, int a10, int a11, int a12);\n\tprobe elsewhere(int x);\n};\n' > part.d
	start_library_program
	kill $pid 2> /dev/null
	"$PROBEGEN" --bpftrace -s part.d libvals.so -o lib.bt 2> err || { cat err; fail "--bpftrace -s part.d libvals.so"; }
	expect_eq "$(cat err)" "probegen: warning: 1 probe of part.d left out, not in libvals.so: vals:elsewhere" "the warning"
	expect_eq "$(grep -c '^usdt:' lib.bt)" 1 "probes in the script"
	expect_grep '^ \* For libvals.so, a shared library' lib.bt
	expect_grep 'bpftrace -p PID THIS.bt /path/to/library.so' lib.bt
	grep -q -- '-c ./prog' lib.bt && fail "a library's script suggests -c"
	"$PROBEGEN" --bpftrace libvals.so -o lib2.bt || fail "--bpftrace libvals.so"
	expect_grep 'bpftrace -p PID THIS.bt /path/to/library.so' lib2.bt
	"$PROBEGEN" --bpftrace -s part.d -o all.bt || fail "--bpftrace -s part.d"
	expect_eq "$(grep -c '^usdt:' all.bt)" 2 "probes in the -s script"
	expect_grep 'bpftrace refuses the whole script' all.bt
	printf 'int main(void) { return 0; }\n' > none.c
	expect gcc none.c -o none
	"$PROBEGEN" --bpftrace -s part.d none -o none.bt 2> err
	expect_eq $? 1 "exit status with no probe carried"
	expect_grep "none of the probes of part.d are in none" err
	[ ! -e none.bt ] || fail "a script written for no probe"
	# The fitted script runs where the -s one is refused.
	start_library_program
	ulimit -l unlimited 2> /dev/null
	timeout 30 bpftrace -p $pid all.bt "$PWD/libvals.so" > refused.out 2>&1 &
	local bt=$!
	timeout 30 bpftrace -p $pid lib.bt "$PWD/libvals.so" > fitted.out 2>&1 &
	local bt2=$!
	sleep 8
	kill -INT $bt2 2> /dev/null; wait $bt2
	kill $bt 2> /dev/null; wait $bt
	kill $pid 2> /dev/null
	grep -q '^vals:twelve a1=' fitted.out || { cat fitted.out; fail "the fitted script"; }
	grep -q '^vals:twelve a1=' refused.out && fail "bpftrace ran the script with a missing probe"
	ok
}


# --check reads well at any size: the same finding about a family of
# probes (Erlang's user_trace__n0..n950 pass a 64-bit value where the .d
# says int) is one line with its probes and sites counted; --sites
# gives each site its line, and --json every site for tools.
t_inspect_check_grouped() {
	need python3
	python3 - <<-'PY'
	with open('fam.d', 'w') as f:
	    f.write('provider fam {\n')
	    for i in range(20):
	        f.write('\tprobe user_trace__n%d(int a, int b);\n' % i)
	    f.write('\tprobe other(int a);\n};\n')
	with open('fam.c', 'w') as f:
	    f.write('#include "fam.h"\nvolatile long big = 1; volatile int small = 1;\n')
	    f.write('void f(void);\nvoid f(void) {\n')
	    for i in range(20):
	        for k in range(4):
	            f.write('\tFAM_USER_TRACE_N%d(small, big);\n' % i)
	    f.write('\tFAM_OTHER(big);\n}\nint main(void) { f(); return 0; }\n')
	PY
	expect "$PROBEGEN" -h -s fam.d -o fam.h
	expect "$PROBEGEN" -G -s fam.d -o fam.o
	expect gcc -O2 fam.c fam.o -o fam
	"$PROBEGEN" --check -s fam.d fam > out || { cat out; fail "--check (warnings only)"; }
	cat out
	expect_eq "$(wc -l < out)" 2 "lines"
	expect_grep '^fam: fam:user_trace__n0 .. user_trace__n19 (20 probes, 80 sites): warning: argument 1 is recorded as 8 bytes signed, declared 4 bytes signed$' out
	grep -Eq '^fam: fam:other: warning: site 0x[0-9a-f]+( \([^)]*\))?: argument 0 is recorded as 8 bytes signed, declared 4 bytes signed$' out ||
		fail "a single site keeps its own line"
	"$PROBEGEN" --check --sites -s fam.d fam > sites || fail "--sites"
	expect_eq "$(grep -c 'user_trace__n[0-9]*: warning: site 0x' sites)" 80 "lines with --sites"
	"$PROBEGEN" --check --json -s fam.d fam > out.json || fail "--json"
	python3 - out.json <<-'PY' || fail "--check --json"
	import json, sys
	d = json.load(open(sys.argv[1]))
	p = d['problems']
	assert len(p) == 81 and d['errors'] == 0, (len(p), d['errors'])
	assert all(x['site'].startswith('site 0x') and not x['error'] for x in p), p[0]
	assert sum(1 for x in p if x['probe'] == 'fam:user_trace__n7') == 4
	PY
	"$PROBEGEN" --check --strict -s fam.d fam > out
	expect_eq $? 1 "--strict's exit status"
	expect_grep '^fam: fam:user_trace__n0 .. user_trace__n19 (20 probes, 80 sites): argument 1' out
	ok
}

# --list and --check of a relocatable object (.o): the notes'
# relocations applied, so each site is its offset in its section (as
# readelf -r shows the relocation) and the semaphore its symbol, on a
# RELA target (x86-64) and a REL one (i386); with -g, its source line.
t_inspect_list_object() {
	printf 'provider app {\n\tprobe gated(int i);\n};\n' > app.d
	expect "$PROBEGEN" -h -s app.d -o app.h
	printf '#include "app.h"\nint f(int x) { APP_GATED(x); if (APP_GATED_ENABLED()) APP_GATED(x + 1); return x; }\n' > two.c
	local cc n=0
	for cc in gcc i686-linux-gnu-gcc; do
		have $cc || { skip_part "$cc is not installed"; continue; }
		sdt_for_cross || fail "no sys/sdt.h"
		expect $cc -O2 -Icross-include -c two.c -o two.o
		"$PROBEGEN" --list two.o > out || fail "$cc: --list"
		# What the relocations say: .text plus each site's offset.
		# (RELA: the addend is in the relocation; REL keeps it in the
		# note, so there only the section is compared.)
		readelf -rW two.o | awk '/^Relocation section .*note.stapsdt/ { on = 1; next } /^Relocation section/ { on = 0 }
			on && $5 == ".text" && $6 == "+" { print $7 } on && $5 == ".text" && NF == 5 { print "REL" }' > want.raw
		: > want
		while read -r a; do
			[ "$a" = REL ] && echo REL >> want || printf '.text+0x%x\n' $((16#$a)) >> want
		done < want.raw
		grep -o 'site [^ ]*' out | sed 's/^site //' > got
		[ "$(wc -l < got)" = 2 ] || { cat out; fail "$cc: not two sites"; }
		[ "$(sort -u got | wc -l)" = 2 ] || { cat out; fail "$cc: two sites print as one"; }
		[ "$(grep -c '^.text+0x' got)" = 2 ] || { cat out; fail "$cc: the sites do not say their section"; }
		[ "$(wc -l < want)" = 2 ] || { readelf -rW two.o; fail "$cc: two relocations of the sites expected"; }
		if [ $cc = gcc ]; then
			diff want got || fail "$cc: sites differ from the relocations"
		fi
		grep -q '^  app:gated  semaphore app_gated_semaphore$' out || { cat out; fail "$cc: semaphore"; }
		"$PROBEGEN" --list --json two.o | python3 -c '
import json, sys
d = json.load(sys.stdin)[0]["probes"][0]
assert d["semaphore"] == "app_gated_semaphore", d
assert len({s["address"] for s in d["sites"]}) == 2, d
assert all(s["address"].startswith(".text+0x") for s in d["sites"]), d' || fail "$cc: --list --json"
		"$PROBEGEN" --check --sites app.d two.o > out 2>&1
		expect_eq $? 0 "$cc: --check of the object"
		n=$((n + 1))
	done
	# With -g, each site's source line, in .text and in a section of
	# its own (-ffunction-sections).
	printf '#include "app.h"\nint f(int x) {\n\tAPP_GATED(x);\n\tAPP_GATED(x + 1);\n\treturn x;\n}\n' > lines.c
	for flags in "" -ffunction-sections; do
		expect gcc -g -O2 $flags -c lines.c -o lines.o
		"$PROBEGEN" --list lines.o > out || fail "--list lines.o"
		grep -Eq '^    site \.text(\.f)?\+0x[0-9a-f]+  .*\(.*lines\.c:3\)$' out &&
			grep -Eq '^    site \.text(\.f)?\+0x[0-9a-f]+  .*\(.*lines\.c:4\)$' out ||
			{ cat out; fail "the object's source lines ($flags)"; }
	done
	[ $n -gt 0 ] || fail "no compiler ran"
	ok
}
