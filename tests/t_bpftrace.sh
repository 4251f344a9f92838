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

# Generated scripts load: a fixed length past what bpftrace's BPF stack
# holds (@length p 600 was buf(arg0, 600), refused whole: "BPF stack
# limit of 512 bytes is exceeded") is clamped to the probe's share, and
# said; an @enum of 5,000 names prints the number, said (its chain of
# conditions took bpftrace seconds to minutes to compile); the bytes
# printed are the program's.
t_bpftrace_scripts_load() {
	need_bpftrace
	python3 - > big.d <<-'PY'
	print("provider big {")
	print("\t/** @length p 600 */\n\tprobe one(const void *p);")
	print("\t/** @length a 200\n\t * @length b 200 */\n\tprobe two(const void *a, const void *b);")
	print("\t/** @enum m " + " ".join("V%d=%d" % (i, i) for i in range(5000)) + " */")
	print("\tprobe e(int m);\n\t/** @enum m A=1 B=-2 */\n\tprobe small(int m);\n};")
	PY
	cat > big.c <<-'C'
	#include "big.h"
	int main(void)
	{
		static unsigned char p[600], a[200], b[200];
		int i;
		for (i = 0; i < 600; i++) p[i] = (unsigned char)(0x80 + i % 64);
		for (i = 0; i < 200; i++) a[i] = 0xaa, b[i] = 0xbb;
		BIG_ONE(p);
		BIG_TWO(a, b);
		BIG_E(4990);
		BIG_SMALL(-2);
		return 0;
	}
	C
	expect "$PROBEGEN" -h -s big.d -o big.h
	expect "$PROBEGEN" -G -s big.d -o big_probes.o
	expect gcc -I. big.c big_probes.o -o big
	expect "$PROBEGEN" --bpftrace -s big.d -o big.bt
	expect_grep "p: 600 bytes; bpftrace reads 200 (BPFTRACE_STRLEN's most)" big.bt
	expect_grep 'a: 200 bytes; bpftrace reads 128 (its BPF stack holds 256 bytes' big.bt
	expect_grep 'm: its @enum has more names than bpftrace compiles quickly' big.bt
	# bpftrace prints a buf's bytes up to BPFTRACE_STRLEN (64 by
	# default, 200 at most), as the comments say: raised here to see
	# all it reads.
	BPFTRACE_STRLEN=200 timeout 120 bpftrace big.bt ./big -c ./big > out 2> err ||
		{ cat err; fail "bpftrace refused the script"; }
	# %r prints bytes as \xNN (these are none of them printable).
	want=$(python3 -c 'print("".join("\\x%02x" % (0x80 + i % 64) for i in range(200)))')
	grep -qxF "big:one p=$want" out || { cat out; fail "big:one's bytes"; }
	grep -q '^big:two a=\(\\xaa\)\{128\} b=\(\\xbb\)\{128\}$' out || { cat out; fail "big:two's bytes"; }
	expect_grep '^big:e m=4990$' out
	expect_grep '^big:small m=B$' out
	ok
}
