# t_build.sh - the build: install, the dtrace alias, and ./configure.

t_build_install() {
	make -s -C "$ROOT" install DESTDIR="$PWD/root" PREFIX=/usr > log 2>&1 || { cat log; fail "make install"; }
	[ -x root/usr/bin/probegen ] || fail "probegen not installed"
	[ -f root/usr/share/man/man1/probegen.1 ] || fail "man page not installed"
	make -s -C "$ROOT" install-dtrace-alias DESTDIR="$PWD/root" PREFIX=/usr > log 2>&1 || { cat log; fail "install-dtrace-alias"; }
	expect_eq "$(readlink root/usr/bin/dtrace)" probegen "dtrace alias"
	printf 'provider a { probe b(int c); };\n' > a.d
	root/usr/bin/dtrace -h -s a.d -o a.h || fail "probegen called as dtrace"
	expect_grep '#define A_B(...)' a.h
	ok
}

# ./configure is optional: it writes config.mak, which make reads.
t_build_configure() {
	need autoconf
	git -C "$ROOT" archive --format=tar HEAD | tar -xf - || fail "git archive"
	# As the README says: configure.ac ships, autoconf makes configure.
	autoconf > log 2>&1 || { cat log; fail "autoconf"; }
	./configure CFLAGS="-O1 -DPROBEGEN_CONFIGURED" > log 2>&1 || { cat log; fail "configure"; }
	expect_grep 'CFLAGS = -O1 -DPROBEGEN_CONFIGURED' config.mak
	# A plain build, whatever the make that runs the tests was given.
	MAKEFLAGS= MAKELEVEL= make V=1 SANITIZE= > log 2>&1 || { cat log; fail "make after configure"; }
	grep -q 'DPROBEGEN_CONFIGURED' log || fail "config.mak not read"
	./probegen --version > /dev/null || fail "configured build does not run"
	ok
}

# From clean under any -j, bison and flex run once each: each makes two
# files, and a rule run twice at once could leave a corrupt parser.
t_build_parser_once() {
	MAKEFLAGS= MAKELEVEL= make -C "$ROOT" -j8 B="$PWD/b" PROG="$PWD/b/probegen" SANITIZE= > log 2>&1 ||
		{ cat log; fail "make -j8"; }
	expect_eq "$(grep -c '^  BISON ' log) $(grep -c '^  FLEX ' log)" "1 1" "bison and flex runs"
	ok
}

# The scanner never backs up (flex -b): with %option full that keeps its
# inner loop to one table lookup a byte.  A new rule that breaks this
# shows here rather than as a slower build tool.
t_build_lexer_no_backing_up() {
	need flex
	flex -b -o lexer.c "$ROOT/grammar/lexer.l" > log 2>&1 || { cat log; fail "flex"; }
	expect_eq "$(head -n 1 lex.backup)" "No backing up." "flex -b"
	ok
}

# The fuzzing harness (make fuzz) calls the stages' interfaces directly:
# build it and run it over the good, bad and fuzz-found inputs, so that
# it cannot drift from them unseen.
t_build_fuzz_harness() {
	need clang
	[ -z "${PROBEGEN_SANITIZED:-}" ] || skip "covered by the plain run"
	echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' > probe.c
	clang -fsanitize=fuzzer probe.c -o probe > /dev/null 2>&1 ||
		skip "clang cannot build libFuzzer programs here"
	make -s -C "$ROOT" build-fuzz/fuzz_pipeline > log 2>&1 || { cat log; fail "building the harness"; }
	"$ROOT/build-fuzz/fuzz_pipeline" -runs=0 "$ROOT"/tests/good/*.d "$ROOT"/tests/errors/*.d \
		"$ROOT"/tests/fuzz/*.d > log 2>&1 || { tail -n 30 log; fail "harness on the test inputs"; }
	ok
}
