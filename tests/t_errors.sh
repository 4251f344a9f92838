# t_errors.sh - every bad input gives its exact diagnostics (golden
# stderr), exit status 1, and writes nothing, for -h and for -G.

t_errors_golden() {
	local d mode ext name why
	for d in "$ROOT"/tests/errors/*.d; do
		name=${d##*/} why=
		for mode in h G; do
			ext=$([ $mode = h ] && echo h || echo o)
			# Run from tests/ so messages name "errors/NAME.d".
			(cd "$ROOT/tests" && "$PROBEGEN" -$mode -s "errors/$name" \
				-o "$OLDPWD/out.$ext") 2> got.err
			status=$?
			[ $status -eq 1 ] || why="$why -$mode: exit $status, expected 1;"
			[ ! -e out.$ext ] || why="$why -$mode: wrote out.$ext;"
			rm -f out.$ext
			diff -u "${d%.d}.err" got.err > diff.out || { cat diff.out; why="$why -$mode: stderr differs from ${d%.d}.err;"; }
		done
		if [ -z "$why" ]; then case_ok "$name"; else case_fail "$name" "$why"; fi
	done
	[ $cases_run -ge 20 ] || fail "only $cases_run error cases"
	cases_end
}

# Every error in a file is reported in one run.
t_errors_all_reported() {
	cat > many.d <<-'D'
	provider p {
		probe a(int x;
		probe b(int y, int y);
		probe c(int, ...);
		probe b(void);
	};
	probe outside();
	D
	"$PROBEGEN" -h -s many.d -o many.h 2> err
	expect_eq $? 1 "exit status"
	expect_eq "$(grep -c ': error: ' err)" 4 "errors reported"
	expect_eq "$(grep -c ': warning: ' err)" 1 "warnings reported"
	ok
}

# SystemTap's dtrace hangs on this; we must answer at once.
t_errors_no_hang() {
	printf 'provider p {\n\tprobe a(int x;\n' > hang.d
	timeout 5 "$PROBEGEN" -h -s hang.d -o hang.h 2> err
	status=$?
	[ $status -ne 124 ] || fail "timed out"
	expect_eq $status 1 "exit status"
	ok
}

# With -C, diagnostics point at the user's file and line, not cpp's output.
t_errors_after_cpp() {
	printf '#define T void\n\nprovider p {\n\tprobe a(int x, T y);\n};\n' > p.d
	"$PROBEGEN" -C -h -s p.d -o p.h 2> err
	expect_eq $? 1 "exit status"
	# cpp's expansion moves columns; file and line stay the user's.
	[[ $(head -n 1 err) == "p.d:4:"*": error: argument 2 of probe 'a' has type 'void'" ]] ||
		fail "message: $(head -n 1 err)"
	expect_grep 'probe a(int x, T y);' err
	ok
}

# Warnings do not fail the run, and say why.
t_errors_warnings() {
	printf 'provider p {\n\tprobe f(double d, struct s v);\n};\n' > w.d
	"$PROBEGEN" -h -s w.d -o w.h 2> err
	expect_eq $? 0 "exit status"
	expect_grep "w.d:2:17: warning: argument 1 of probe 'f' has floating type 'double'" err
	expect_grep "is a 'struct s' passed by value" err
	[ -s w.h ] || fail "no header written"
	# The sites pass the native arguments: those are judged, not the
	# argument mapping's.
	printf 'provider p {\n\tprobe m(double d, int i) : (int i);\n\tprobe n(int i) : (double i);\n};\n' > m.d
	"$PROBEGEN" -h -s m.d -o m.h 2> err
	expect_eq $? 0 "exit status (mapping)"
	expect_grep "m.d:2:17: warning: argument 1 of probe 'm' has floating type 'double'" err
	expect_eq "$(grep -c warning err)" 1 "warnings (mapping)"
	# SystemTap accepts repeated names (its own tests have such a file):
	# a warning, and the header is written.
	"$PROBEGEN" -h -s "$ROOT/tests/good/duplicate_param.d" -o d.h 2> err
	expect_eq $? 0 "exit status (duplicate names)"
	expect_eq "$(head -n 1 err)" "$ROOT/tests/good/duplicate_param.d:2:23: warning: duplicate argument name 'x' in probe 'a'" "duplicate names"
	expect_grep '^#define P_A(...)' d.h
	# A type name that looks like a typo of a known one: a warning with
	# the likely name, and where the program's own types are checked;
	# a name like no known one is the program's own type, unsaid.
	printf 'provider p {\n\tprobe t(chr c, uint64 n, Oid o);\n};\n' > t.d
	"$PROBEGEN" -h -s t.d -o t.h 2> err
	expect_eq $? 0 "exit status (unknown types)"
	expect_grep "^t.d:2:10: warning: unknown type 'chr' (did you mean 'char'?)$" err
	expect_grep "^t.d:2:17: warning: unknown type 'uint64' (did you mean 'uint64_t'?)$" err
	expect_grep "PROBEGEN_USER_TYPES" err
	expect_eq "$(grep -c warning err)" 2 "warnings (unknown types: not Oid)"
	"$PROBEGEN" -G -s t.d -o t.o 2> err
	[ ! -s err ] || { cat err; fail "-G warned of types it does not write"; }
	# A declaration the parser cannot read that no probe uses: skipped
	# with a warning naming it, and the header written (SystemTap's
	# fallback parser does the same); a probe that uses it:
	# tests/errors/unreadable_declaration_used.d.
	printf 'typedef const static unsigned short __u_c_short;\nprovider p {\n\tprobe a(int v);\n};\n' > u.d
	"$PROBEGEN" -h -s u.d -o u.h 2> err
	expect_eq $? 0 "exit status (a declaration skipped)"
	expect_eq "$(head -n 1 err)" "u.d:1:15: warning: unexpected 'static': the declaration of '__u_c_short' is skipped (no probe uses it)" "skipped declaration"
	expect_grep '^#define P_A(' u.h
	ok
}

# A file is quoted from disk when an error needs it; a pipe can be read
# only once, so its text is kept: both quote the same line and caret.
t_errors_quote_file_and_pipe() {
	printf 'provider p {\n\tprobe a(int x, void x);\n};\n' > q.d
	"$PROBEGEN" -h -s q.d -o q.h 2> file.err
	expect_eq $? 1 "exit status (file)"
	cat q.d | "$PROBEGEN" -h -s /dev/stdin -o q.h 2> pipe.err
	expect_eq $? 1 "exit status (pipe)"
	expect_eq "$(sed -n 2,3p file.err)" "$(printf ' \tprobe a(int x, void x);\n \t                    ^')" "quoted line (file)"
	expect_eq "$(sed -n 2,3p pipe.err)" "$(sed -n 2,3p file.err)" "quoted line (pipe)"
	ok
}

# A probe declared twice with the same types in one file is one probe,
# with a warning at the second naming the first; in two files (QEMU's
# blocks, one file a group) it is quiet; other types stay an error.
t_errors_declared_twice() {
	printf 'provider p {\n\tprobe a(int x);\n\tprobe b(int);\n\tprobe a(int y);\n};\n' > twice.d
	"$PROBEGEN" -h -s twice.d -o twice.h 2> err
	expect_eq $? 0 "exit status"
	expect_eq "$(grep -c '^#define P_A(' twice.h)" 1 "one probe a"
	expect_eq "$(grep -c ': warning: ' err)" 1 "warnings"
	expect_grep "^twice.d:4:8: warning: probe 'a' declared again$" err
	expect_grep "^twice.d:2:8: note: previous declaration of 'a' was here$" err
	printf 'provider p {\n\tprobe a(int x);\n};\n' > one.d
	printf 'provider p {\n\tprobe a(int x);\n\tprobe c(int x);\n};\n' > two.d
	"$PROBEGEN" --docs -s one.d -s two.d -o both.md 2> err
	expect_eq $? 0 "exit status (two files)"
	[ -s err ] && { cat err; fail "a warning for a probe declared in two files"; }
	printf 'provider p {\n\tprobe a(int x);\n\tprobe a(long x);\n};\n' > other.d
	"$PROBEGEN" -h -s other.d -o other.h 2> err
	expect_eq $? 1 "exit status (other types)"
	expect_grep "declared again with other argument types" err
	ok
}

# Without -C, '#' lines are ignored as SystemTap ignores them, and only
# what that changes is said: a macro used as a type (with its #define),
# a declaration inside an #if block (once a block, at the #if).  An
# #include, a #define no probe uses or one inside an #if (the X server's
# __APPLE__ block) say nothing.  -w silences warnings; -Werror makes
# them errors, and nothing is written.
t_errors_directives_without_cpp() {
	cat > quiet.d <<-'D'
	#ifdef __APPLE__
	#define pid_t uint32_t
	#define string char *
	#else
	#include <sys/types.h>
	#endif
	#include <stdint.h>
	#define UNUSED 1
	typedef const uint8_t *const_uint8_p;
	provider Xserver {
		probe request__start(string, uint8_t, uint16_t, int, void *);
		probe client__connect(int, int);
		probe client__auth(int, string, pid_t, int);
		probe input__event(int, int, int, const_uint8_p);
	};
	D
	"$PROBEGEN" -h -s quiet.d -o quiet.h 2> err || { cat err; fail "-h"; }
	"$PROBEGEN" -G -s quiet.d -o quiet.o 2>> err || { cat err; fail "-G"; }
	[ -s err ] && { cat err; fail "warnings where ignoring the lines changes nothing"; }
	cat > loud.d <<-'D'
	#define Oid unsigned int
	provider p {
	#ifdef WITH_EXTRA
		probe extra(int x);
		probe more(int x);
	#endif
		probe a(Oid o);
	};
	D
	"$PROBEGEN" -h -s loud.d -o loud.h 2> err || { cat err; fail "-h loud.d"; }
	expect_eq "$(grep -c ': warning: ' err)" 2 "warnings"
	expect_grep "^loud.d:3:1: warning: '#if' block ignored without -C: the declarations inside it are compiled whatever it says$" err
	expect_grep "^loud.d:7:9: warning: 'Oid' is a macro, which is not expanded without -C$" err
	expect_grep "^loud.d:1:1: note: 'Oid' is defined here$" err
	"$PROBEGEN" -w -h -s loud.d -o w.h 2> err || fail "-w"
	[ -s err ] && { cat err; fail "-w said something"; }
	[ -s w.h ] || fail "-w: no header"
	"$PROBEGEN" -Werror -h -s loud.d -o e.h 2> err
	expect_eq $? 1 "-Werror's exit status"
	expect_eq "$(grep -c ': error: ' err)" 2 "errors under -Werror"
	[ ! -e e.h ] || fail "-Werror wrote the header"
	ok
}
