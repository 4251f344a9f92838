# t_bpftrace.sh - bpftrace (as root) attaches to a program built from
# the header and the -G object, prints its arguments, and sets the
# semaphore the program sees; and traces probes inside a shared library.

t_bpftrace_args() {
	need_bpftrace
	values_program loop.c loop
	bpftrace -l 'usdt:./loop:*' > list 2>&1
	for p in ints ptrs twelve; do
		grep -q "usdt:./loop:vals:$p" list || { cat list; fail "bpftrace does not list vals:$p"; }
	done
	timeout 60 bpftrace -e '
	usdt:./loop:vals:ints /@n < 3/ {
		@n++;
		/* bpftrace 0.17 reads USDT arg0..arg5 only on x86-64;
		   t_gdb_values checks all twelve. */
		printf("ints %d %d %d %d %d %u\n", (int8)arg0, (uint8)arg1,
		       (int16)arg2, (uint16)arg3, (int32)arg4, (uint32)arg5);
	}
	usdt:./loop:vals:ptrs /@p < 3/ {
		@p++;
		printf("ptrs %s|%s|%s\n", str(arg0), str(arg1), str(arg2));
	}
	END { clear(@n); clear(@p); }' -c ./loop > out 2> err
	cat out
	grep -q '^program saw the semaphore set: yes$' out || fail "semaphore not seen by the program"
	grep -q '^ints 65 250 -300 60000 -70000 4000000000$' out ||
		fail "ints values"
	grep -q '^ptrs hello probe|probe|hello probe$' out || fail "string values"
	ok
}

# A probe in a shared library, traced in a running process (-p PID).
t_bpftrace_shared_library() {
	need_bpftrace
	start_library_program
	timeout 30 bpftrace -p $pid -e "usdt:$PWD/libvals.so:vals:twelve {
		printf(\"twelve %d %d %d\\n\", arg1, arg2, arg5); @c++;
		if (@c >= 3) { exit(); } }
		END { clear(@c); }" > out 2> err
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	cat out err
	# bpftrace 0.17 reads arg0..arg5 only: arg5 is the sixth, -6.
	expect_eq "$(grep -c '^twelve -2 3 -6$' out)" 3 "library firings traced"
	ok
}

# bpftrace cannot fault a page in: the typed and lazy forms touch their
# string arguments while traced, so literals the program never read
# show.  (The SystemTap macro stays SystemTap's, which cannot.)
t_bpftrace_literal_strings() {
	need_bpftrace
	literals_program
	ulimit -l unlimited 2> /dev/null
	timeout 60 bpftrace -e 'usdt:./literals:fleet:truck__departed {
		printf("%d %s\n", arg0, str(arg1)); }' -c ./literals > out 2> err
	grep -q '^18 jonas$' out && grep -q '^19 ines$' out ||
		{ cat out err; fail "typed and lazy literals not read by bpftrace"; }
	# The generated script prints them by name.
	"$PROBEGEN" --bpftrace -s "$ROOT/tests/src/literals.d" -o l.bt || fail "--bpftrace"
	timeout 60 bpftrace l.bt ./literals -c ./literals > out 2> err
	grep -q 'fleet:truck__departed id=18 driver="jonas" odometer=1$' out &&
		grep -q 'fleet:truck__departed id=19 driver="ines" odometer=2$' out ||
		{ cat out err; fail "the generated script"; }
	ok
}

# A string literal passed to each form (the SystemTap-style macro, the
# typed call, the lazy form), in a .rodata page the program never read:
# bpftrace, which cannot fault a page in, prints every one, in C and in
# C++; and a site with no literal is the nop alone (no semaphore test).
t_bpftrace_literals_every_form() {
	need_bpftrace
	literals_program
	ulimit -l unlimited 2> /dev/null
	local lang
	for lang in c c++; do
		if [ $lang = c++ ]; then
			g++ -O2 -I. -x c++ "$ROOT/tests/src/literals.c" -x none literals_probes.o -o literals ||
				fail "building literals as C++"
		fi
		timeout 60 bpftrace -e 'usdt:./literals:fleet:truck__departed { printf("%d %s\n", arg0, str(arg1)); }' \
			-c ./literals > out 2> err || { cat err; fail "bpftrace ($lang)"; }
		grep -v '^Attaching' out | grep . > got
		printf '17 marta\n18 jonas\n19 ines\n' > want
		diff -u want got || fail "bpftrace read a literal as empty ($lang)"
	done
	# Untraced, a site with no literal is one nop: no load of the
	# semaphore before it.
	printf '#include "literals.h"\nvoid f(int i, const char *s);\nvoid f(int i, const char *s) { FLEET_TRUCK_DEPARTED(i, s, 1ULL); trace_fleet_truck_departed(i, s, 2ULL); }\n' > nolit.c
	gcc -O2 -I. -c nolit.c -o nolit.o || fail "nolit.c"
	objdump -dr --no-show-raw-insn nolit.o > nolit.asm
	grep -q 'semaphore' nolit.asm && { cat nolit.asm; fail "a site with no literal tests the semaphore"; }
	expect_eq "$(grep -c 'nop$' nolit.asm)" 2 "nops"
	ok
}
