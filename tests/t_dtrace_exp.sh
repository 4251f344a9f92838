# t_dtrace_exp.sh - SystemTap 4.8's own test of its dtrace,
# systemtap.base/dtrace.exp, replayed on probegen from its description
# (reference.md, section 10; none of its text is here): each check on
# its own line.  Two checks are different on purpose, and say so: probegen
# runs no $CC, and its header's include guard is named from the output
# file (Ruby's build edits it by name).

# A provider file like SystemTap's test files: a system header, D's
# string, a struct by value, uint8_t *, unnamed arguments, a pragma.
dtrace_exp_file() {
	{
		printf '#include <sys/types.h>\n#include <stdint.h>\n'
		printf 'struct astruct { int a; int b; };\n'
		printf '#pragma D attributes Evolving/Evolving/Common provider test provider\n'
		printf 'provider test {\n'
		printf '\tprobe mark0();\n\tprobe mark1(int);\n\tprobe mark2(string s, int i);\n'
		printf '\tprobe mark3(struct astruct a);\n\tprobe mark4(uint8_t *p, size_t n);\n'
		for i in $(seq 5 14); do printf '\tprobe mark%d(int a, long b, char *c);\n' $i; done
		printf '};\n'
	} > test.d
}

t_dtrace_exp_replayed() {
	dtrace_exp_file
	local odd="-g -O2 -Wall -fstack-protector-strong -fPIC" parser
	export CFLAGS="$odd"
	# 1-2: -G with odd CFLAGS, -o with and without a suffix.
	"$PROBEGEN" -G -64 -fPIC -s test.d -o obj1.o 2> err && [ -s obj1.o ] && [ ! -s err ] &&
		case_ok "1 -G -64 -fPIC -o X.o with odd CFLAGS" || case_fail "1 -G -64 -fPIC -o X.o" "$(cat err)"
	"$PROBEGEN" -G -s test.d -o obj2 2> err && [ -s obj2 ] && [ ! -e obj2.o ] && [ ! -s err ] &&
		case_ok "2 -G -o X (no suffix) with odd CFLAGS" || case_fail "2 -G -o X" "$(ls; cat err)"
	unset CFLAGS
	# 3-6: exactly the names given.
	"$PROBEGEN" -h -s test.d -o hdr1.h && [ -s hdr1.h ] && case_ok "3 -h -o X.h" || case_fail "3 -h -o X.h"
	"$PROBEGEN" -h -s test.d -o hdr2 && [ -s hdr2 ] && [ ! -e hdr2.h ] && case_ok "4 -h -o X" || case_fail "4 -h -o X" "$(ls)"
	local tmp
	tmp=$(mktemp -d)
	"$PROBEGEN" -G -s test.d -o "$tmp/obj3.o" && [ -s "$tmp/obj3.o" ] && [ "$(ls "$tmp")" = obj3.o ] &&
		case_ok "5 -G -o /tmp/X.o" || case_fail "5 -G -o /tmp/X.o" "$(ls "$tmp")"
	"$PROBEGEN" -G -s test.d -o "$tmp/obj4" && [ -s "$tmp/obj4" ] && [ "$(ls "$tmp" | tr '\n' ' ')" = "obj3.o obj4 " ] &&
		case_ok "6 -G -o /tmp/X" || case_fail "6 -G -o /tmp/X" "$(ls "$tmp")"
	rm -rf "$tmp"
	# 7: -o /dev/null as a user who cannot write /dev, with nothing on
	# stderr (Tcl's exec fails on any).
	if [ "$(id -u)" = 0 ] && have setpriv; then
		# A copy that user can read: the scratch tree may sit in a
		# directory only root can enter (mktemp -d makes them 0700).
		local shared
		shared=$(mktemp /tmp/probegen-dtrace-exp.XXXXXX.d)
		cp test.d "$shared" && chmod 644 "$shared"
		setpriv --reuid=65534 --regid=65534 --clear-groups "$PROBEGEN" -G -s "$shared" -o /dev/null > out 2> err &&
			[ ! -s err ] && [ ! -s out ] && case_ok "7 -G -o /dev/null as a non-root user, silent" ||
			case_fail "7 -G -o /dev/null as a non-root user" "$(cat out err)"
		rm -f "$shared"
	else
		skip_part "7 -G -o /dev/null as a non-root user: needs root and setpriv to become one"
	fi
	# 8-9: no -o: FILE.h and FILE.o in the current directory.
	mkdir cwd && (cd cwd && "$PROBEGEN" -h -s ../test.d && "$PROBEGEN" -G -s ../test.d) &&
		[ -s cwd/test.h ] && case_ok "8 -h with no -o writes test.h here" || case_fail "8 no -o, -h" "$(ls cwd)"
	[ -s cwd/test.o ] && case_ok "9 -G with no -o writes test.o here" || case_fail "9 no -o, -G" "$(ls cwd)"
	# 10: SystemTap runs $CC $CFLAGS (CC=echo prints '-g MYCFLAGS');
	# probegen runs no compiler, on purpose: it prints nothing and writes
	# the object itself.
	CFLAGS=MYCFLAGS CC=echo "$PROBEGEN" -G -s test.d -o cc.o > out 2>&1 && [ ! -s out ] && [ -s cc.o ] &&
		case_ok "10 CC=echo -G: different on purpose, no \$CC is run (the object is written, nothing echoed)" ||
		case_fail "10 CC=echo -G" "$(cat out)"
	# 11: -C -h with a #define of a type.
	printf '#define INT16 short\nprovider t {\n\tprobe a(INT16 arg1, int arg2, int arg3, int arg4);\n};\n' > i16.d
	"$PROBEGEN" -C -h -s i16.d -o i16.h 2> err && grep -q 'short arg1, int arg2, int arg3, int arg4' i16.h &&
		case_ok "11 -C -h: #define INT16 short gives 'short arg1, int arg2, int arg3, int arg4'" ||
		case_fail "11 -C -h with #define" "$(cat err)"
	# 12: -C -I<dir> with an #include from that directory.
	mkdir inc && printf 'provider inc {\n\tprobe from__include(int x);\n};\n' > inc/probes.h
	printf '#include "probes.h"\n' > inc.d
	"$PROBEGEN" -C -Iinc -h -s inc.d -o inc.h 2> err && grep -q 'INC_FROM_INCLUDE' inc.h &&
		case_ok "12 -C -I<dir> -h finds the included file's probes" || case_fail "12 -C -I" "$(cat err)"
	# 13: declarations after the provider.
	printf '#ifdef DCL_AFTER_PROVIDER\nprovider t {\n\tprobe a(foo_t x, int y);\n};\ntypedef int foo_t;\n#endif\n' > after.d
	"$PROBEGEN" -C -DDCL_AFTER_PROVIDER -h -s after.d -o after.h 2> err && grep -q 'T_A(' after.h &&
		case_ok "13 -C -DDCL_AFTER_PROVIDER: a typedef after the provider, the header written" ||
		case_fail "13 typedef after the provider" "$(cat err)"
	# 14-17: the same file made twice into two names, through each of
	# SystemTap's two parsers (probegen has one: --no-pyparsing is
	# taken and changes nothing).  The headers differ by their include
	# guard alone, named from the output file on purpose.
	for parser in "" "--no-pyparsing"; do
		"$PROBEGEN" $parser -C -h -s test.d -o X-1.h && "$PROBEGEN" $parser -C -h -s test.d -o X-2.h &&
			diff -w <(sed 's/_X_1_H/_X_H/' X-1.h) <(sed 's/_X_2_H/_X_H/' X-2.h) > d.out &&
			[ "$(diff X-1.h X-2.h | grep -c '^[<>]')" = 6 ] &&
			case_ok "$([ -z "$parser" ] && echo 14 || echo 15) -h twice${parser:+ ($parser)}: identical but for the include guard (on purpose)" ||
			case_fail "$([ -z "$parser" ] && echo 14 || echo 15) -h twice $parser" "$(diff X-1.h X-2.h | head)"
		"$PROBEGEN" $parser -C -G -s test.d -o X-1.o && "$PROBEGEN" $parser -C -G -s test.d -o X-2.o &&
			[ "$(nm X-1.o)" = "$(nm X-2.o)" ] && [ "$(nm X-1.o | grep -c semaphore)" = 15 ] &&
			case_ok "$([ -z "$parser" ] && echo 16 || echo 17) -G twice${parser:+ ($parser)}: identical nm, 15 semaphores" ||
			case_fail "$([ -z "$parser" ] && echo 16 || echo 17) -G twice $parser" "$(nm X-1.o | head)"
	done
	# 18: -x and its value, as other dtraces take.
	"$PROBEGEN" -x IGNORED -C -h -s test.d -o x.h 2> err && [ -s x.h ] && ! grep -q error err &&
		case_ok "18 -x IGNORED -h" || case_fail "18 -x IGNORED" "$(cat err)"
	# 20: -G of a file whose types are macros, without -C, as a
	# non-root user through Tcl's exec: nothing on stderr (the object
	# spells no type; -h still says the macro is not expanded).
	printf '#define INT16 short\nprovider m {\n\tprobe a(INT16 x, int y);\n};\n' > macros.d
	"$PROBEGEN" -G -s macros.d -o /dev/null > out 2> err && [ ! -s err ] && [ ! -s out ] &&
		"$PROBEGEN" -h -s macros.d -o macros.h 2> err && grep -q "'INT16' is a macro" err &&
		case_ok "20 -G -o /dev/null on a file of macro types: silent" ||
		case_fail "20 -G of macro types" "$(cat out err)"
	# 21: a declaration SystemTap's parser cannot read either (its test
	# file's 'typedef const static ...'): it falls back and writes the
	# header with a warning; so does probegen, naming the declaration.
	printf 'typedef const static unsigned short __u_c_short;\nprovider f {\n\tprobe a(int x);\n};\n' > fallback.d
	"$PROBEGEN" -h -s fallback.d -o fallback.h 2> err && [ -s fallback.h ] &&
		grep -q "warning: .*'__u_c_short' is skipped" err &&
		case_ok "21 an unreadable declaration no probe uses: skipped with a warning, header written" ||
		case_fail "21 unreadable declaration" "$(cat err)"
	# 19: the test file's constructs compile and fire: a program built
	# against the header and the object records every probe.
	cat > prog.c <<-'C'
	#include <stdint.h>
	#include <sys/types.h>
	#include "hdr1.h"
	struct astruct { int a; int b; };
	int main(void)
	{
		struct astruct s = { 1, 2 };
		uint8_t b[4] = { 0 };
		TEST_MARK0(); TEST_MARK1(1); TEST_MARK2("s", 2); TEST_MARK3(s); TEST_MARK4(b, sizeof b);
		TEST_MARK5(5, 5L, "c"); TEST_MARK14(14, 14L, "c");
		return 0;
	}
	C
	gcc -O2 prog.c obj1.o -o prog 2> err && [ "$(readelf -nW prog | grep -c 'Name: mark')" = 7 ] &&
		case_ok "19 string, struct by value, uint8_t *, unnamed arguments, #pragma D attributes: built and recorded" ||
		case_fail "19 the test file's constructs" "$(cat err)"
	cases_end
}
