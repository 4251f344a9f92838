# t_header.sh - the -h header: golden files, the compile matrix, the
# typed, lazy and header-only forms, and the seds real builds apply.

GOOD=$ROOT/tests/good

gen_headers() {
	local f
	for f in all_types twelve tcl_like translators one_line crlf \
		 empty_provider empty_file markers; do
		"$PROBEGEN" -h -s "$GOOD/$f.d" -o $f.h || fail "probegen -h $f.d"
	done
}

t_header_golden() {
	local g n=0
	for g in "$ROOT"/tests/golden/*.h; do
		n=$((n + 1))
		name=${g##*/}
		"$PROBEGEN" -h -s "$GOOD/${name%.h}.d" -o "$name" 2>/dev/null ||
			fail "probegen -h ${name%.h}.d"
		diff -u "$g" "$name" || fail "$name differs from the golden file"
	done
	[ $n -ge 5 ] || fail "only $n golden headers"
	ok
}

# Every good input is accepted by -h and -G.
t_header_all_good_inputs() {
	local d
	for d in "$GOOD"/*.d; do
		"$PROBEGEN" -h -s "$d" -o x.h 2>/dev/null || fail "-h ${d##*/}"
		"$PROBEGEN" -G -s "$d" -o x.o 2>/dev/null || fail "-G ${d##*/}"
	done
	ok
}

# gcc 12, clang 14 and clang 19; C89 to C23 and C++98 to C++23 (c2x and
# c++2b where a compiler lacks the final name); the default header,
# --header-only and --self-contained; -Wall -Wextra -Werror -pedantic.
# use_all.c fires probes of 0, 1 and 12 arguments.
t_header_compile_matrix() {
	local cc std lang mode n=0 f
	for cc in gcc clang clang-19; do
		have $cc || skip "$cc is not installed"
	done
	for mode in default --header-only --self-contained; do
		for f in all_types twelve tcl_like translators one_line crlf \
			 empty_provider empty_file markers; do
			"$PROBEGEN" -h $([ $mode = default ] || echo $mode) \
				-s "$GOOD/$f.d" -o $f.h 2>/dev/null || fail "probegen -h $mode $f.d"
		done
		for cc in gcc clang clang-19; do
			for std in c89 c99 c11 c17 c2x c++98 c++11 c++17 c++20 c++2b; do
				case $std in c++*) lang=c++ ;; *) lang=c ;; esac
				$cc -x $lang -std=$std -Wall -Wextra -Werror -pedantic -I. \
					-c "$ROOT/tests/src/use_all.c" -o use.o 2> err ||
					{ head -20 err; fail "$cc -std=$std, $mode"; }
				n=$((n + 1))
			done
		done
	done
	expect_eq $n 90 "configurations compiled"
	echo "$n configurations compiled clean"
	ok
}

# Structs, unions and classes by value, references and enums compile as
# probe arguments in every standard, with gcc and clang, at -O0 and -O2,
# warning-free: SystemTap's header compiles them (t_trace_object_arguments
# fires them and reads their values).
t_header_object_arguments_compile() {
	printf 'provider o {\n\tprobe p(long a, long b, long c, long d, int e);\n};\n' > o.d
	expect "$PROBEGEN" -h -s o.d -o o.h
	cat > o.c <<-'C'
	#include "o.h"
	struct one { long v; };
	struct three { long a, b, c; };
	union num { long l; double d; };
	enum colour { red = 7 };
	static struct one make(long v) { struct one o; o.v = v; return o; }
	#ifdef __cplusplus
	class holder {
	public:
		explicit holder(long x) : v(x) {}
		~holder() { v = 0; }
		long v;
	};
	void f(const holder &h, long &r);
	void f(const holder &h, long &r) { O_P(h, holder(2), r, make(3), red); }
	#endif
	void g(struct one o, struct three t, union num u);
	void g(struct one o, struct three t, union num u) { O_P(o, t, u, make(4), red); }
	C
	local cc std o n=0
	for cc in gcc clang; do
		for std in c89 c99 c11 c2x c++98 c++11 c++17 c++20 c++2b; do
			for o in -O0 -O2; do
				$cc -x $([ -z "${std##c++*}" ] && echo c++ || echo c) -std=$std $o \
					-Wall -Wextra -Werror -pedantic -c o.c -o o.o 2> err ||
					{ head -20 err; fail "$cc -std=$std $o"; }
				n=$((n + 1))
			done
		done
	done
	readelf -nW o.o | grep -q 'Arguments: 8@(%[a-z0-9]*) 24@(%[a-z0-9]*) 8@(%[a-z0-9]*) 8@(%[a-z0-9]*) -\?4@' ||
		{ readelf -nW o.o | grep Arguments; fail "the site does not read its objects in memory"; }
	echo "$n configurations compiled clean"
	ok
}

# The header's fixed parts (src/compiler/header/) are C that compiles on its own,
# as the headers put them together: stapsdt_base.h and common.h, then
# decl_note.h and header_only.h, and one of the two site files; with
# probes and without (PROBEGEN_NO_PROBES).
t_header_parts_compile_alone() {
	local parts cc lang n=0 none
	for parts in "stapsdt_base.h common.h" \
		     "stapsdt_base.h common.h decl_note.h header_only.h" \
		     "stapsdt_base.h common.h sdt_site.h" \
		     "stapsdt_base.h common.h self_site.h" \
		     "stapsdt_base.h common.h decl_note.h header_only.h self_site.h"; do
		: > parts.h
		for f in $parts; do
			echo "#include \"$ROOT/src/compiler/header/$f\"" >> parts.h
		done
		for cc in gcc clang; do
			for lang in c c++; do
				for none in "" -DPROBEGEN_NO_PROBES; do
					$cc -x $lang -Wall -Wextra -Werror -pedantic $none \
						-fsyntax-only parts.h 2> err ||
						{ cat err; fail "$cc $lang $none: $parts"; }
					n=$((n + 1))
				done
			done
		done
	done
	expect_eq $n 40 "compilations of the fixed parts"
	ok
}

# Wrong arity is an error, incompatible types are diagnosed, and
# pointers to const are accepted where the .d says char *.
t_header_typed_checks() {
	printf 'provider t {\n\tprobe p(int n, char *s);\n};\n' > t.d
	expect "$PROBEGEN" -h -s t.d -o t.h
	cat > good.c <<-'C'
	#include "t.h"
	void f(const char *s);
	void f(const char *s) { trace_t_p(1, s); T_P_LAZY(2, s); T_P(3, s); }
	C
	for cc in gcc clang; do
		$cc -Wall -Wextra -Werror -c good.c || fail "$cc: const char * not accepted"
		printf '#include "t.h"\nvoid f(void);\nvoid f(void) { trace_t_p(1); }\n' > arity.c
		! $cc -c arity.c 2> err || fail "$cc: wrong arity compiled"
		# The typed call is a macro of the probe's arity: the error
		# names it (gcc) or shows its definition (clang's note).
		grep -q 'macro "trace_t_p" requires 2 arguments, but only 1 given' err ||
			{ grep -q "too few arguments provided to function-like macro" err &&
				grep -q "note: macro 'trace_t_p' defined here" err; } ||
			{ cat err; fail "$cc: no arity diagnostic naming trace_t_p and its count"; }
		# One wrong argument is one error, on its line.
		printf '#include "t.h"\nstruct s { int x; };\nvoid f(struct s v);\nvoid f(struct s v) { trace_t_p(v, "a"); }\n' > one.c
		! $cc -c one.c 2> err || fail "$cc: a struct passed as int compiled"
		[ "$(grep -c 'error:' err)" = 1 ] && grep -Eq '^one.c:4:[0-9]+: error:' err ||
			{ cat err; fail "$cc: one wrong argument is not one error at it"; }
		printf '#include "t.h"\nvoid f(void);\nvoid f(void) { trace_t_p(1, "a", 3); }\n' > many.c
		! $cc -c many.c 2> err || fail "$cc: too many arguments compiled"
		! $cc -x c++ -c arity.c 2> /dev/null || fail "$cc c++: wrong arity compiled"
		printf '#include "t.h"\nvoid f(void);\nvoid f(void) { trace_t_p("x", 2); }\n' > types.c
		! $cc -Werror -c types.c 2> err || fail "$cc: swapped types compiled"
		# gcc: "makes integer from pointer without a cast"; clang:
		# "incompatible pointer to integer conversion".
		grep -Eq 'integer from pointer|pointer to integer' err ||
			{ cat err; fail "$cc: no diagnostic for a string passed as int"; }
		! $cc -x c++ -c types.c 2> /dev/null || fail "$cc c++: swapped types compiled"
		printf '#include "t.h"\nvoid f(void);\nvoid f(void) { T_P_LAZY(1); }\n' > lazy.c
		! $cc -c lazy.c 2> /dev/null || fail "$cc: lazy arity not checked"
	done
	ok
}

# The typed call records the declared sizes and signs; the SystemTap
# macro records those of the expressions passed, as SystemTap does.
t_header_typed_note_sizes() {
	printf 'provider t {\n\tprobe p(long long a, unsigned char b, short c);\n};\n' > t.d
	expect "$PROBEGEN" -h -s t.d -o t.h
	expect "$PROBEGEN" -G -s t.d -o t.o
	cat > main.c <<-'C'
	#include "t.h"
	int main(int argc, char **argv) {
		(void)argv;
		trace_t_p(argc, argc, argc);
		T_P(argc, argc, argc);
		return 0;
	}
	C
	expect gcc -O2 main.c t.o -o main
	readelf -nW main | sed -n 's/^ *Arguments: //p' > args
	read -r a b c < <(sed -n 1p args)
	[[ $a == -8@* && $b == 1@* && $c == -2@* ]] || fail "typed note: $(sed -n 1p args)"
	read -r a b c < <(sed -n 2p args)
	[[ $a == -4@* && $b == -4@* && $c == -4@* ]] || fail "macro note: $(sed -n 2p args)"
	ok
}

# Types from the user's headers never break the default header; with
# PROBEGEN_USER_TYPES the typed call checks them too.
t_header_user_types() {
	printf 'provider u {\n\tprobe p(Oid id, struct foo f, foo_t *ptr);\n};\n' > u.d
	expect "$PROBEGEN" -h -s u.d -o u.h 2>/dev/null
	cat > plain.c <<-'C'
	#include "u.h"
	void f(void);
	void f(void) { long x = 1; U_P(x, x, &x); trace_u_p(1, 2, 0); U_P_LAZY(1, 2, 0); }
	C
	expect gcc -Wall -Werror -c plain.c
	expect clang -Wall -Werror -c plain.c
	cat > typed.c <<-'C'
	typedef unsigned int Oid;
	struct foo { int a; };
	typedef struct foo foo_t;
	#define PROBEGEN_USER_TYPES
	#include "u.h"
	void f(struct foo v);
	void f(struct foo v) { trace_u_p(1, v, &v); }
	C
	expect gcc -Wall -Werror -c typed.c
	sed 's/trace_u_p(1, v, &v)/trace_u_p(1, 2, \&v)/' typed.c > bad.c
	! gcc -c bad.c 2>/dev/null || fail "opted-in types not checked"
	ok
}

# The lazy form evaluates nothing until a tracer attaches (gdb here).
t_header_lazy() {
	need gdb
	printf 'provider l {\n\tprobe p(int n);\n};\n' > l.d
	expect "$PROBEGEN" -h -s l.d -o l.h
	expect "$PROBEGEN" -G -s l.d -o l.o
	cat > main.c <<-'C'
	#include <stdio.h>
	#include "l.h"
	static int evaluated;
	static int costly(int i) { evaluated++; return i * 10; }
	int main(void) {
		int i;
		for (i = 0; i < 5; i++)
			L_P_LAZY(costly(i));
		printf("evaluated=%d\n", evaluated);
		return 0;
	}
	C
	expect gcc -O2 main.c l.o -o main
	expect_eq "$(./main)" "evaluated=0" "untraced run"
	gdb -q -batch -ex 'break -probe-stap l:p' -ex run \
		-ex 'print $_probe_arg0' -ex continue -ex 'print $_probe_arg0' \
		-ex 'delete' -ex continue ./main > gdb.out 2>&1
	# Two firings while the breakpoint existed; none once it was deleted.
	grep -q '^evaluated=2' gdb.out || { cat gdb.out; fail "traced run: wrong evaluations"; }
	grep -q '= 0$' gdb.out && grep -q '= 10$' gdb.out || fail "traced values"
	ok
}

# --header-only: no -G object; one semaphore per executable and per
# shared object however many translation units include the header.
# The header declares each semaphore without SystemTap's unused and
# section(".probes") attributes, which change nothing on a declaration.
# A file that defines the semaphores SystemTap's way after including it
# (as dtrace -G's own C file does) still compiles clean, and the note's
# semaphore is that definition, in .probes.
t_header_semaphore_defined_by_hand() {
	printf 'provider s {\n\tprobe p(int n);\n};\n' > s.d
	expect "$PROBEGEN" -h -s s.d -o s.h
	grep -q '^extern unsigned short s_p_semaphore;$' s.h ||
		fail "the declaration is not plain: $(grep s_p_semaphore s.h | head -n 1)"
	cat > s.c <<-'C'
	#include "s.h"
	__extension__ unsigned short s_p_semaphore __attribute__ ((unused)) __attribute__ ((section (".probes")));
	int main(void) { S_P(S_P_ENABLED()); return 0; }
	C
	local cc
	for cc in gcc clang; do
		$cc -Wall -Wextra -Werror -pedantic s.c -o s 2> err || { cat err; fail "$cc"; }
		sem=$(readelf -nW s | sed -n 's/.*Semaphore: 0x0*//p')
		sym=$(readelf -sW s | awk '$NF == "s_p_semaphore" { sub(/^0+/, "", $2); print $2 }')
		[ -n "$sem" ] && [ "$sem" = "$sym" ] || fail "$cc: note's semaphore $sem, symbol at $sym"
		ndx=$(readelf -sW s | awk '$NF == "s_p_semaphore" { print $7 }')
		readelf -SW s | grep -q "^ *\[ *$ndx\] \.probes " ||
			fail "$cc: the semaphore is in section $ndx, not .probes"
	done
	ok
}

t_header_header_only() {
	printf 'provider h {\n\tprobe p(int n);\n\tprobe q();\n};\n' > h.d
	expect "$PROBEGEN" -h --header-only -s h.d -o h.h
	printf '#include "h.h"\nvoid a(int);\nvoid a(int n) { trace_h_p(n); H_Q(); }\n' > a.c
	printf '#include "h.h"\nvoid b(int);\nvoid b(int n) { H_P(n); if (H_P_ENABLED()) H_Q(); }\n' > b.c
	printf '#include "h.h"\nvoid a(int); void b(int); int lib(int);\nint main(void) { a(1); b(2); trace_h_p(3); return lib(0); }\n' > main.c
	printf '#include "h.h"\nint lib(int);\nint lib(int n) { H_P(n); return 0; }\n' > lib.c
	expect gcc -fPIC -shared lib.c -o libh.so
	expect gcc a.c b.c main.c -L. -lh -o main
	LD_LIBRARY_PATH=. ./main || fail "program failed"
	# Each object carries the semaphores of the probes it fires: main
	# fires h:p and h:q, the library only h:p.
	for f in main:2:4 libh.so:1:2; do
		bytes=${f##*:} f=${f%:*}
		want=${f#*:} f=${f%:*}
		n=$(readelf -sW $f | grep -c ' h_p_semaphore$')
		expect_eq "$n" 1 "h_p_semaphore symbols in $f"
		readelf -sW $f | grep ' h_p_semaphore$' | grep -qE 'HIDDEN|LOCAL' ||
			fail "semaphore in $f is neither hidden nor local"
		readelf --dyn-syms -W $f | grep -q semaphore &&
			fail "$f exports a semaphore"
		size=$(readelf -SW $f | awk '$2 == ".probes" { print $6 }')
		expect_eq "$size" 00000$bytes ".probes size in $f (one copy per probe fired)"
		sems=$(readelf -nW $f | sed -n 's/.*Semaphore: //p' | sort -u | wc -l)
		expect_eq "$sems" $want "distinct semaphores in $f's notes"
	done
	# gcc -O0 with clang too: the asm definition is assembler-neutral.
	expect clang a.c b.c main.c lib.c -o main2
	ok
}

# The seds real builds run over dtrace's header must keep ours compiling.
t_header_build_seds() {
	printf 'provider postgresql {\n\tprobe query__start(char *q);\n\tprobe lock(void *p, char *m, int n);\n};\n' > pg.d
	printf 'provider python {\n\tprobe function__entry(const char *f, const char *n, int l);\n\tprobe gc__start(int g);\n};\n' > py.d
	printf 'provider memcached {\n\tprobe command__set(int c, const char *k, int kl, void *v, int vl);\n};\n' > mc.d
	expect "$PROBEGEN" -h -s pg.d -o pg.h.tmp
	sed -e 's/POSTGRESQL_/TRACE_POSTGRESQL_/g' -e 's/( *char \*/(const char */g' \
	    -e 's/, *char \*/, const char */g' pg.h.tmp > pg.h
	printf '#include "pg.h"\nvoid f(const char *q, void *p);\nvoid f(const char *q, void *p) { TRACE_POSTGRESQL_QUERY_START(q); if (TRACE_POSTGRESQL_LOCK_ENABLED()) TRACE_POSTGRESQL_LOCK(p, q, 1); TRACE_POSTGRESQL_LOCK_LAZY(p, q, 2); trace_postgresql_lock(p, q, 3); }\n' > pg.c
	expect gcc -Wall -Werror -c pg.c
	expect "$PROBEGEN" -h -s py.d -o py.h.tmp
	sed 's/PYTHON_/PyDTrace_/' py.h.tmp > py.h
	printf '#include "py.h"\nvoid f(const char *s);\nvoid f(const char *s) { if (PyDTrace_FUNCTION_ENTRY_ENABLED()) PyDTrace_FUNCTION_ENTRY(s, s, 1); PyDTrace_GC_START(2); PyDTrace_GC_START_LAZY(3); }\n' > py.c
	expect gcc -Wall -Werror -c py.c
	(cd sub 2>/dev/null || mkdir sub; cd sub && "$PROBEGEN" -h -s ../mc.d) || fail "default output name"
	sed -e 's,void \*,const void \*,' -e 's,char \*,const char \*,g' sub/mc.h > mc.h
	printf '#include "mc.h"\nvoid f(const char *k, const void *v);\nvoid f(const char *k, const void *v) { MEMCACHED_COMMAND_SET(1, k, 2, v, 3); trace_memcached_command_set(1, k, 2, v, 3); }\n' > mc.c
	expect gcc -Wall -Werror -c mc.c
	expect g++ -Wall -Werror -x c++ -c mc.c
	"$PROBEGEN" -h -s mc.d -o probes.h.tmp
	sed 's/PROBES_H_TMP/RUBY_PROBES_H/' probes.h.tmp > probes.h
	expect_grep '^#ifndef _RUBY_PROBES_H$' probes.h
	"$PROBEGEN" -h -s mc.d -o glib.h
	sed -e 's/^#define STAP_HAS_SEMAPHORES 1$/#undef STAP_HAS_SEMAPHORES/' \
	    -e 's/^#define _SDT_HAS_SEMAPHORES 1$/#undef _SDT_HAS_SEMAPHORES/' glib.h > glib2.h
	grep -q 'define.*HAS_SEMAPHORES' glib2.h && fail "GLib's edit did not apply"
	printf '#include "glib2.h"\nint main(void) { MEMCACHED_COMMAND_SET(1, "k", 2, 0, 3); return 0; }\n' > g.c
	expect gcc -Wall -Werror g.c -o g
	readelf -nW g | grep -q 'Semaphore: 0x0*$' || fail "GLib build still uses semaphores"
	sed '/const/!s/char \*/const char */g' pg.h.tmp > perl.h
	printf '#include "perl.h"\nvoid f(void);\nvoid f(void) { POSTGRESQL_QUERY_START("x"); }\n' > perl.c
	expect gcc -Wall -Werror -c perl.c
	# Erlang (erts/emulator/Makefile.in) lower-cases every line that
	# defines an ERLANG_...() macro, to rename them, and calls the
	# lower-case names (dtrace-wrapper.h); in every header mode the
	# header still compiles and its sites are those of the unedited one.
	printf 'provider erlang {\n\tprobe message__send(char *sender, char *receiver, int size, int tl, int ts, int ts2);\n\tprobe process__spawn(char *p, char *mfa);\n};\n' > erl.d
	expect "$PROBEGEN" -G -s erl.d -o erl.o
	printf '#include "erl.h"\nint main(int c, char **v) { if (erlang_message_send_enabled()) erlang_message_send(v[0], v[0], c, 1, 2, 3); erlang_process_spawn(v[0], "m:f/0"); return 0; }\n' > erl.c
	local mode
	for mode in "" --header-only --self-contained "--header-only --self-contained"; do
		"$PROBEGEN" -h $mode -s erl.d -o erl.h.tmp || fail "-h $mode"
		sed -e '/^#define[ \t]*ERLANG_[A-Z0-9_]*(.*)/y/ABCDEFGHIJKLMNOPQRSTUVWXYZ/abcdefghijklmnopqrstuvwxyz/' erl.h.tmp > erl.h
		# Only the macros' names changed: each edited line ends in '\'.
		diff erl.h.tmp erl.h | grep '^>' | grep -v '^> #define erlang_[a-z0-9_]*(.*) \\$' > changed
		[ -s changed ] && { cat changed; fail "Erlang's sed changed more than names ($mode)"; }
		gcc -Wall -Werror -O2 erl.c $([ -z "${mode##*--header-only*}" ] && [ -n "$mode" ] || echo erl.o) -o erl 2> err ||
			{ cat err; fail "Erlang's edited header ($mode)"; }
		expect_eq "$(readelf -nW erl | grep -c 'Name: \(message__send\|process__spawn\)$')" 2 "sites ($mode)"
	done
	ok
}

# GCC's inliner weighs an asm statement by its lines (and ';'s): each
# of probegen's sites, 0 to 12 arguments, weighs what sys/sdt.h's does
# under SystemTap's header, so that GCC inlines as with SystemTap's and a
# build gets the same sites (Ruby's string.o).  In the default header and
# --self-contained; --header-only's sites also define their semaphores,
# which SystemTap's never do (they weigh 21 more).
t_header_inline_weight_as_systemtap() {
	need dtrace
	python3 - > w.d <<-'PY'
	print('provider w {')
	for n in range(13):
	    print('\tprobe p%d(%s);' % (n, ', '.join('int a%d' % i for i in range(n))))
	print('};')
	PY
	python3 - > fn.c <<-'PY'
	for n in range(13):
	    args = ', '.join('a%d' % i for i in range(n))
	    params = ', '.join('int a%d' % i for i in range(n)) or 'void'
	    print('void f%d(%s);\nvoid f%d(%s) { W_P%d(%s); }' % (n, params, n, params, n, args))
	PY
	cat > weigh.py <<-'PY'
	import re, sys
	# The weight GCC gives the asm statements of each function f0..f12.
	s = open(sys.argv[1]).read()
	out = []
	for n in range(13):
	    i = s.index('void f%d(' % n, s.index('void f%d(' % n) + 1)
	    j = s.find('void f%d(' % (n + 1), i)
	    body = s[i:j if j > 0 else len(s)]
	    w = 0
	    for m in re.finditer(r'__asm__\s*(?:__volatile__|volatile)?\s*\(', body):
	        k, tmpl = m.end(), ''
	        while k < len(body) and body[k] not in ':)':
	            if body[k] == '"':
	                e = k + 1
	                while body[e] != '"':
	                    e += 2 if body[e] == '\\' else 1
	                tmpl += body[k + 1:e]
	                k = e + 1
	            else:
	                k += 1
	        w += tmpl.count('\\n') + tmpl.count(';') + 1
	    out.append(w)
	print(' '.join(map(str, out)))
	PY
	dtrace -h -s w.d -o stap.h 2> /dev/null || fail "SystemTap's dtrace -h"
	{ echo '#include "stap.h"'; cat fn.c; } > s.c
	gcc -E -P s.c -o s.i && python3 weigh.py s.i > stap.w || fail "weighing SystemTap's sites"
	local mode
	for mode in "" --self-contained; do
		"$PROBEGEN" -h $mode -s w.d -o pg.h || fail "-h $mode"
		{ echo '#include "pg.h"'; cat fn.c; } > p.c
		gcc -E -P p.c -o p.i && python3 weigh.py p.i > pg.w || fail "weighing probegen's sites ($mode)"
		diff stap.w pg.w || fail "sites weigh otherwise than SystemTap's ($mode): $(cat pg.w) against $(cat stap.w)"
	done
	echo "weights for 0..12 arguments: $(cat stap.w)"
	ok
}

# The sites are probegen's own (src/compiler/header/self_site.h): for the same
# calls, every Debian cross target records the same sizes, signs and
# float markers in the default and --self-contained headers as
# sys/sdt.h's own STAP_PROBEn macros do.  (Register choices are the
# compiler's and may differ; t_gdb_values and t_gdb_aarch64_qemu read the
# values of both kinds of build and check libbpf can parse them.)
t_header_self_contained_notes() {
	cat > n.d <<-'D'
	provider n {
		probe mix(int a, char *b, unsigned char c, short d, long long e,
		    unsigned long long f, char *g, struct s *h, long i, int j,
		    double k, float l);
		probe none();
		probe one(unsigned char x);
	};
	D
	cat > n.c <<-'C'
	#ifdef REFERENCE
	#include <sys/sdt.h>
	#define N_MIX(...) STAP_PROBE12(n, mix, __VA_ARGS__)
	#define trace_n_mix(a, b, c, d, e, f, g, h, i, j, k, l) STAP_PROBE12(n, mix, (int)(a), \
		(char const *)(b), (unsigned char)(c), (short)(d), (long long)(e), (unsigned long long)(f), \
		(char const *)(g), (struct s *)(h), (long)(i), (int)(j), (double)(k), (float)(l))
	#define N_NONE() STAP_PROBE(n, none)
	#define N_ONE(x) STAP_PROBE1(n, one, x)
	#define trace_n_one(x) STAP_PROBE1(n, one, (unsigned char)(x))
	#else
	#include "h.h"
	#endif
	struct s { int x; };
	volatile long g = 5;
	double gd = 2.5;
	int f(int argc, char **argv);
	int f(int argc, char **argv) {
		const char *p = argv[0];
		unsigned char uc = (unsigned char)argc;
		short sh = (short)-argc;
		long long ll = -argc;
		unsigned long long ull = (unsigned long long)argc;
		char arr[4] = "ab";
		struct s st;
		st.x = argc;
		N_MIX(argc, p, uc, sh, ll, ull, arr, &st, g, 42, gd, (float)gd);
		trace_n_mix(argc, p, uc, sh, ll, ull, arr, &st, g, 42, gd, (float)gd);
		N_NONE(); N_ONE(uc); trace_n_one(argc);
		return 0;
	}
	C
	sdt_for_cross || skip "sys/sdt.h not found"
	local t mode n=0
	for t in x86_64-linux-gnu:x86_64 aarch64-linux-gnu:aarch64 \
		 arm-linux-gnueabihf:arm riscv64-linux-gnu:riscv \
		 powerpc64le-linux-gnu:ppc64le s390x-linux-gnu:s390 \
		 i686-linux-gnu:i386; do
		t=${t%:*}
		have $t-gcc || skip "$t-gcc is not installed"
		for mode in reference default --self-contained; do
			"$PROBEGEN" -h $([ $mode = --self-contained ] && echo $mode) -s n.d -o h.h ||
				fail "-h $mode"
			$t-gcc -O2 -Icross-include $([ $mode = reference ] && echo -DREFERENCE) \
				-c n.c -o ${mode#--}.o 2> err || { cat err; fail "$t $mode"; }
			readelf -nW ${mode#--}.o | sed -n 's/^ *Arguments: *//p' > ${mode#--}.args
			# The spec of every argument, without its operand.
			# (Operands may hold blanks: aarch64's [x1, 8].)
			while read -r line; do
				echo "$line" | grep -oE '(^| )-?[0-9]+f?@' | tr -d ' @' | tr '\n' ' '
				echo
			done < ${mode#--}.args > ${mode#--}.specs
		done
		expect_eq "$(wc -l < reference.specs)" 5 "$t notes"
		diff -u reference.specs default.specs || fail "$t: the default header's notes differ from sys/sdt.h's"
		diff -u reference.specs self-contained.specs ||
			fail "$t: the self-contained notes differ from sys/sdt.h's"
		n=$((n + 1))
	done
	echo "$n targets: same specs as sys/sdt.h's macros"
	head -n 1 default.args
	ok
}

# Where probes cannot exist (not ELF: Windows, macOS; or not GNU C: tcc),
# every header still compiles clean, arguments count as used but are
# never evaluated, and _ENABLED() is 0.
t_header_non_elf() {
	need x86_64-w64-mingw32-gcc
	need clang
	need tcc
	printf 'provider w {\n\tprobe p(int n, char *s);\n\tprobe q();\n};\n' > w.d
	cat > w.c <<-'C'
	#include "w.h"
	int costly(void);
	char enabled_is_zero[W_P_ENABLED() == 0 ? 1 : -1];
	int f(void);
	int f(void) {
		int n = 1;
		char *s = 0;
		W_P(costly(), s);
		trace_w_p(costly(), s);
		W_P_LAZY(costly(), s);
		W_P(n, s);
		W_Q(); trace_w_q();
		return W_Q_ENABLED();
	}
	C
	local mode lang n=0
	for mode in default --header-only --self-contained; do
		"$PROBEGEN" -h $([ $mode = default ] || echo $mode) -s w.d -o w.h || fail "-h $mode"
		for lang in c c++; do
			x86_64-w64-mingw32-gcc -x $lang -Wall -Wextra -Werror -pedantic -O0 \
				-c w.c -o w.obj 2> err || { cat err; fail "mingw $lang $mode"; }
			x86_64-w64-mingw32-nm w.obj | grep -q costly &&
				fail "mingw $lang $mode: an argument is evaluated"
			clang -target x86_64-apple-darwin -ffreestanding -fsyntax-only -nostdinc++ \
				-x $lang -Wall -Wextra -Werror -pedantic w.c 2> err ||
				{ cat err; fail "darwin $lang $mode"; }
			n=$((n + 2))
		done
		# An ELF compiler that is not GNU C (tcc, C only): no probes either.
		tcc -Wall -Werror -c w.c -o w.o 2> err || { cat err; fail "tcc $mode"; }
		nm w.o | grep -q costly && fail "tcc $mode: an argument is evaluated"
		n=$((n + 1))
	done
	expect_eq $n 15 "non-ELF and non-GNU compilations"
	ok
}

# For every test file SystemTap's dtrace handles, a program built against
# its header and one built against probegen's (and -G object) carry the
# same probes: provider, name, argument count and the sizes and signs the
# SystemTap macro records for the same expressions.  The one exception
# is (void), which SystemTap takes for one argument: such probes are
# left out of the comparison.
t_header_same_probes_as_systemtap() {
	need dtrace
	local d name n=0 macro nargs i args
	local vals=("(char)1" "(unsigned char)2" "(short)-3" "(unsigned short)4"
		"(int)-5" "(unsigned)6" "(long)-7" "(unsigned long)8" "(long long)-9"
		"(unsigned long long)10" "(void *)0" '"s"')
	for d in "$ROOT"/tests/good/*.d; do
		name=$(basename "$d" .d)
		grep -q '(void)' "$d" && sed 's/(void)/()/' "$d" > $name.d || cp "$d" $name.d
		mkdir -p stap pg
		(cd stap && dtrace -h -s ../$name.d -o probes.h && dtrace -G -s ../$name.d -o probes.o) \
			> /dev/null 2>&1 || continue
		grep -q 'DTRACE_PROBE' stap/probes.h || continue
		"$PROBEGEN" -h -s $name.d -o pg/probes.h 2>/dev/null || fail "-h $name"
		"$PROBEGEN" -G -s $name.d -o pg/probes.o 2>/dev/null || fail "-G $name"
		# "MACRO nargs" for each header; SystemTap misreads some
		# declarations (function pointers): those probes are left out.
		sed -n 's/^#define \([A-Z0-9_]*\)(\(.*\)) \\$/\1 \2/p' stap/probes.h |
			awk '{ $1 = $1; n = split(substr($0, index($0, " ") + 1), a, ","); if (NF == 1) n = 0; print $1, n }' |
			sort -u > stap/arity
		# probegen's: "#define MACRO(...) \" then PROBEGEN_SITEn(...).
		awk '/^#define [A-Z0-9_]+\(/ { m = $2; sub(/\(.*/, "", m); next }
			m && match($0, /PROBEGEN_SITE[0-9]+\(/) {
				print m, substr($0, RSTART + 13, RLENGTH - 14) }
			{ m = "" }' pg/probes.h | sort > pg/arity
		comm -12 stap/arity pg/arity > common
		misread=$(comm -23 stap/arity pg/arity | wc -l)
		# Only function-pointer parameters trip SystemTap's parser.
		[ "$misread" -eq 0 ] || grep -q '(\*' $name.d ||
			{ comm -3 stap/arity pg/arity; fail "$name: argument counts differ from SystemTap's"; }
		# Every common SystemTap macro, called with the same expressions.
		{
			echo '#include "probes.h"'
			echo 'int main(void) {'
			while read -r macro nargs; do
				printf '\t%s(' "$macro"
				for ((i = 0; i < nargs; i++)); do
					printf '%s%s' "$([ $i -gt 0 ] && echo ', ')" "${vals[i]}"
				done
				echo ');'
			done < common
			echo 'return 0; }'
		} > main.c
		for v in stap pg; do
			gcc -O0 -w -I$v main.c $v/probes.o -o $v/prog 2> err ||
				{ cat err; fail "$name: build against $v's header"; }
			readelf -nW $v/prog | awk '
				/Provider:/ { p = $NF } /Name:/ { nm = $NF }
				/Arguments:/ { sub(/^[ \t]*Arguments:[ \t]*/, ""); s = "";
					for (i = 1; i <= NF; i++) { split($i, a, "@"); s = s " " a[1] }
					print p ":" nm " " NF ":" s }' | sort > $v/notes
		done
		[ -s stap/notes ] || continue
		diff -u stap/notes pg/notes || fail "$name: probes differ from SystemTap's"
		echo "$name: $(wc -l < pg/notes) probes alike; $misread misread by SystemTap"
		n=$((n + 1))
	done
	[ $n -ge 5 ] || fail "only $n files compared"
	echo "$n files: the same probes as SystemTap's"
	ok
}

# Each argument is evaluated once, in every form, traced or not (the
# semaphore set by hand stands for a tracer), whether the site has a
# string literal (which is then read) or not: C and C++, gcc and clang,
# -O0 and -O2.
t_header_arguments_evaluated_once() {
	printf 'provider once {\n\tprobe p(int n, const char *s, const char *t);\n};\n' > once.d
	expect "$PROBEGEN" -h -s once.d -o once.h
	expect "$PROBEGEN" -G -s once.d -o once_probes.o
	cat > once.c <<-'C'
	#include <stdio.h>
	#include "once.h"
	static int calls;
	static const char *name(void) { calls++; return "computed"; }
	int main(void)
	{
		int i = 0, on;
		for (on = 0; on < 2; on++) {
			once_p_semaphore = (unsigned short)on;
			ONCE_P(i++, "literal", name());
			trace_once_p(i++, "literal", name());
			ONCE_P_LAZY(i++, "literal", name());
		}
		/* lazy: only while enabled (on = 1) */
		printf("%d %d\n", i, calls);
		return !(i == 5 && calls == 5);
	}
	C
	local cc o x
	for cc in gcc clang g++ clang++; do
		have $cc || { skip_part "$cc is not installed"; continue; }
		for o in -O0 -O2; do
			case $cc in *++) x="-x c++" ;; *) x= ;; esac
			$cc $o $x once.c -x none once_probes.o -o once 2> err || { cat err; fail "$cc $o"; }
			./once > out || fail "$cc $o: evaluated $(cat out) (i, calls), expected 5 5"
		done
	done
	ok
}

# The header's choices stay its own: a STAP_PROBE the program writes
# itself, in a unit that includes probegen's header, is recorded exactly
# as without it (the header once set STAP_SDT_ARG_CONSTRAINT for the
# whole unit: at -O0 a long double or a 16-byte argument lost half its
# bytes), whichever is included first, at -O0 and -O2.
t_header_own_sites_untouched() {
	printf 'provider h {\n\tprobe p(int x);\n};\n' > h.d
	expect "$PROBEGEN" -h -s h.d -o h.h
	cat > own.c <<-'C'
	#if defined(WITH_HEADER_FIRST)
	#include "h.h"
	#endif
	#include <sys/sdt.h>
	#if defined(WITH_HEADER_AFTER)
	#include "h.h"
	#endif
	#if defined(WITH_HEADER_FIRST) || defined(WITH_HEADER_AFTER)
	unsigned short own_site_semaphore; /* the header turns semaphores on */
	#endif
	long double ld = 1.5L;
	__int128 big = 7;
	int gi = 3;
	void f(int x);
	void f(int x)
	{
		long double l = ld * x;
		__int128 b = big * x;
		STAP_PROBE4(own, site, l, b, gi, x);
	#if defined(WITH_HEADER_FIRST) || defined(WITH_HEADER_AFTER)
		H_P(x);
	#endif
	}
	C
	local o variant
	for o in -O0 -O2; do
		gcc $o -c own.c -o plain.o || fail "gcc $o"
		readelf -nW plain.o | grep -A3 'Name: site' | sed -n 's/^ *Arguments: *//p' > plain.args
		for variant in WITH_HEADER_FIRST WITH_HEADER_AFTER; do
			gcc $o -D$variant -c own.c -o with.o || fail "gcc $o -D$variant"
			readelf -nW with.o | grep -A3 'Name: site' | sed -n 's/^ *Arguments: *//p' > with.args
			diff -u plain.args with.args || fail "$o $variant: the program's own site is recorded differently"
			readelf -nW with.o | grep -q 'Name: p$' || fail "$o $variant: the header's own site is missing"
		done
		echo "$o: $(cat plain.args)"
	done
	ok
}
