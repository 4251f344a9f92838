# t_suite.sh - the suite itself: each test file runs alone (tests/run.sh
# gives a test tests/lib.sh and its own file only), and every test is
# in one tier.

# No file calls a function another t_*.sh file defines: a helper two
# files use lives in tests/lib.sh.  (A test that skips early would not
# show such a call by failing.)
t_suite_files_run_alone() {
	python3 - "$ROOT/tests" > out 2>&1 <<-'PY'
	import glob, os, re, sys
	d = sys.argv[1]
	defs = {}
	for f in glob.glob(os.path.join(d, "t_*.sh")):
	    for name in re.findall(r"^([a-z_][a-z0-9_]*)\(\)", open(f).read(), re.M):
	        defs.setdefault(name, set()).add(os.path.basename(f))
	lib = set(re.findall(r"^([a-z_][a-z0-9_]*)\(\)", open(os.path.join(d, "lib.sh")).read(), re.M))
	bad = []
	for name, files in defs.items():
	    if len(files) > 1 and not name.startswith("t_"):
	        bad.append("%s is defined in %s" % (name, ", ".join(sorted(files))))
	for f in sorted(glob.glob(os.path.join(d, "t_*.sh"))):
	    own = os.path.basename(f)
	    text = open(f).read()
	    for name, files in defs.items():
	        if name.startswith("t_") or own in files or name in lib:
	            continue
	        if re.search(r"(^|[\s;&|({`$])%s(\s|$|;|\))" % re.escape(name), text, re.M):
	            bad.append("%s calls %s, which is %s's: move it to tests/lib.sh" % (own, name, ", ".join(sorted(files))))
	print("%d files, %d helpers of their own, %d in lib.sh" % (len(glob.glob(os.path.join(d, "t_*.sh"))), len([n for n in defs if not n.startswith("t_")]), len(lib)))
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	PY
	local rc=$?
	note "$(head -n 1 out)"
	[ $rc = 0 ] || { cat out; fail "a test file leans on another's helper"; }
	ok
}

# Every test file says its tier or is in the default one, and the tiers
# are the ones tests/run.sh and the Makefile know; a file's serial tests
# are its own.
t_suite_tiers_and_serials() {
	local f t
	for f in "$ROOT"/tests/t_*.sh; do
		t=$(sed -n 's/^# tier: *//p' "$f")
		case ${t:-check} in check|build) ;; *) fail "${f##*/}: unknown tier '$t'" ;; esac
		for t in $(sed -n 's/^# serial_tests: *//p' "$f"); do
			grep -q "^$t()" "$f" || fail "${f##*/}: serial test $t is not defined there"
		done
	done
	grep -q '^t_rebuild_static()' "$ROOT/tests/t_rebuild.sh" || fail "no build tier"
	ok
}
