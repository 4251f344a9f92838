# t_docs.sh - the docs as a new user runs them: every code block of
# README.md and of the man page's EXAMPLES, by the marker before it
# (tests/docs_check.py says what each kind means).  A block that cannot
# run here is marked so with the reason, and listed under the test's
# line; one that fails fails the test.

t_docs_blocks() {
	need python3
	need bpftrace
	need gdb
	need cargo
	[ "$(id -u)" = 0 ] || skip "the docs' tracing examples need root"
	python3 "$ROOT/tests/docs_check.py" "$ROOT" "$PROBEGEN" "$PWD/work" > out 2>&1
	local rc=$?
	grep -E '^(FAIL|docs:)' out
	[ $rc = 0 ] || fail "a block of the docs does not run as shown"
	grep '^docs:' out | sed 's/^/NOTE /'
	grep '^skip ' out | sed 's/^skip /NOTE not runnable here: /'
	ok
}
