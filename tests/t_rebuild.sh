# tests/t_rebuild.sh - builds of probegen itself, each from the tree's
# files as committed: the tier make check-build runs (minutes each; not
# in make check).  Each build serves as many checks as it can.
# tier: build

# make static: one file, not a dynamic executable, that builds
# examples/make (-h, -G, a program against them), lists and traces it
# with no library to find (an empty LD_LIBRARY_PATH).
t_rebuild_static() {
	git -C "$ROOT" archive --format=tar HEAD | tar -xf - || fail "git archive"
	MAKEFLAGS= MAKELEVEL= make static SANITIZE= > log 2>&1 || { tail -20 log; fail "make static"; }
	file probegen-static | grep -q 'statically linked' || fail "not linked statically: $(file probegen-static)"
	ldd probegen-static 2>&1 | grep -q 'not a dynamic executable' || fail "ldd sees libraries"
	cp -r examples/make bare && cp probegen-static bare/probegen
	LD_LIBRARY_PATH= make -C bare PROBEGEN=./probegen > make.log 2>&1 || { cat make.log; fail "examples/make with the static binary"; }
	LD_LIBRARY_PATH= bare/probegen --list bare/myapp | grep -q 'myapp:' || fail "--list"
	if [ "$(id -u)" = 0 ]; then
		LD_LIBRARY_PATH= bare/probegen --trace --summary -c bare/myapp > sum 2> err || { cat err; fail "--trace of the static binary"; }
		grep -q '^probes:' sum || { cat sum err; fail "--trace --summary printed no counts"; }
	else
		skip_part "--trace needs root"
	fi
	bare/probegen --trace --metrics :0 bare/myapp > out 2> err
	expect_eq $? 2 "--metrics in the static binary"
	expect_grep 'built without libmicrohttpd (make static leaves it out' err
	ok
}


# make dist, and the tarball built as a user builds it: the same bytes
# twice (SOURCE_DATE_EPOCH, sorted names, owner 0); then in the unpacked
# tarball, as the README says, autoconf and ./configure (which writes
# config.mak, which make reads), and one make -j8 from clean, in which
# bison and flex run once each (each makes two files: a rule run twice
# at once could leave a corrupt parser); its --version is the tarball's,
# which is the checkout's.  One build for what were three.
t_rebuild_dist_configured() {
	local tgz d
	need autoconf
	git clone -q "$ROOT" src || fail "git clone"
	(cd src && MAKEFLAGS= MAKELEVEL= make -s dist > ../dist1.log) || fail "make dist"
	tgz=src/$(tail -n 1 dist1.log)
	[ -f "$tgz" ] || { cat dist1.log; fail "no tarball"; }
	cp "$tgz" first.tar.gz
	sleep 1
	(cd src && MAKEFLAGS= MAKELEVEL= make -s dist > /dev/null) || fail "make dist again"
	cmp first.tar.gz "$tgz" || fail "two make dist runs differ"
	tar tvzf first.tar.gz | awk '$2 != "0/0" { bad = 1 } END { exit bad }' || fail "an owner is not 0/0"
	mkdir -p built && tar xzf first.tar.gz -C built
	d=$(ls built)
	expect_eq "$d" "probegen-$(cat "built/$d/.version")" "the tarball's directory"
	expect_eq "$(MAKEFLAGS= MAKELEVEL= make -s -C src version)" "$(cat "built/$d/.version")" "the checkout's version"
	# In the tarball's directory; ok and fail write the test's own.
	local b=built/$d
	(cd "$b" && autoconf) > log 2>&1 || { cat log; fail "autoconf"; }
	(cd "$b" && ./configure CFLAGS="-O1 -DPROBEGEN_CONFIGURED") > log 2>&1 || { cat log; fail "configure"; }
	expect_grep 'CFLAGS = -O1 -DPROBEGEN_CONFIGURED' "$b/config.mak"
	# A plain build, whatever the make that runs the tests was given.
	(cd "$b" && MAKEFLAGS= MAKELEVEL= make -j8 V=1 SANITIZE=) > build.log 2>&1 || { tail -n 30 build.log; fail "make after configure"; }
	grep -q 'DPROBEGEN_CONFIGURED' build.log || fail "config.mak not read"
	expect_eq "$(grep -c '^bison ' build.log) $(grep -c '^flex ' build.log)" "1 1" "bison and flex runs"
	expect_eq "$("$b/probegen" --version)" "probegen $(cat "$b/.version")" "--version of the tarball's build"
	note "$(basename "$tgz"), $(stat -c %s first.tar.gz) bytes, twice the same"
	ok
}

# HACKING.md's recipes, as the patches that make them
# (tests/recipes/*.patch, each headed by what it shows and a "Test:"
# line): each applies to the tree as committed, builds, and passes the
# tests it adds ("unit": make check-unit), one after another in one
# build tree; each says how many files of src/ and the Makefile it
# touches (tests, man pages and docs apart).  A change that breaks a
# recipe breaks this test, so HACKING.md cannot go stale.
t_rebuild_recipes() {
	local p name files tests
	git -C "$ROOT" archive --format=tar HEAD | tar -xf - || fail "git archive"
	# A repository of its own: git apply inside $ROOT's would take the
	# patches' paths from $ROOT's top.
	git init -q . || fail "git init"
	MAKEFLAGS= MAKELEVEL= make -j"$(nproc)" SANITIZE= > build.log 2>&1 || { tail -20 build.log; fail "make"; }
	for p in "$ROOT"/tests/recipes/*.patch; do
		name=$(basename "$p" .patch)
		tests=$(sed -n 's/^Test: *//p' "$p")
		[ -n "$tests" ] || fail "$name.patch: no Test: line"
		git apply "$p" || fail "$name.patch does not apply"
		files=$(git apply --numstat "$p" | awk '$3 ~ /^src\// || $3 == "Makefile" { print $3 }' | tr '\n' ' ')
		MAKEFLAGS= MAKELEVEL= make -j"$(nproc)" SANITIZE= > "$name.log" 2>&1 || { tail -20 "$name.log"; fail "$name.patch: make"; }
		if [ "$tests" = unit ]; then
			MAKEFLAGS= MAKELEVEL= make check-unit SANITIZE= > "$name.test" 2>&1 ||
				{ grep -v '^ok' "$name.test" | tail -20; fail "$name.patch: make check-unit"; }
		else
			# shellcheck disable=SC2086 # the test names, split
			PROBEGEN=$PWD/probegen TEST_OUT=$PWD/out-$name tests/run.sh -j 1 $tests > "$name.test" 2>&1 ||
				{ grep -A8 '^FAIL' "$name.test" | head -30; fail "$name.patch: $tests"; }
			grep -q " 0 skipped$" "$name.test" || skip_part "$name.patch: a test skipped: $(grep '^SKIP' "$name.test" | head -1)"
		fi
		note "$name.patch: $(echo $files | wc -w) files: $files"
		git apply -R "$p" || fail "$name.patch does not come off"
	done
	ok
}

# The fuzzing harness (make fuzz) calls the stages' interfaces directly:
# build it and run it over the good, bad and fuzz-found inputs, so that
# it cannot drift from them unseen.
t_rebuild_fuzz_harness() {
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
