#!/bin/bash
# tests/run.sh - probegen's test suite.  Each tests/t_*.sh file defines
# test functions named t_*; every one runs in its own scratch directory
# and reports through ok/fail/skip.  The last line is the summary.
#   tests/run.sh [PATTERN...]  run the tests whose name matches a PATTERN
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
PROBEGEN=${PROBEGEN:-$ROOT/probegen}
OUT=${TEST_OUT:-$ROOT/tests/out} # TEST_OUT: another scratch tree, for a second run at once
rm -rf "$OUT" && mkdir -p "$OUT"
export ROOT PROBEGEN OUT
. tests/lib.sh

patterns=("$@")
for f in tests/t_*.sh; do
	# A test file that does not parse would silently lose its tests.
	if ! bash -n "$f" 2> "$OUT/syntax.err"; then
		failed=$((failed + 1))
		echo "FAIL $f: does not parse"
		sed 's/^/     | /' "$OUT/syntax.err"
		continue
	fi
	. "$f"
done
declare -A matched
for t in $(declare -F | awk '{print $3}' | grep '^t_' | sort -V); do
	if [ ${#patterns[@]} -gt 0 ]; then
		match=
		for p in "${patterns[@]}"; do
			[[ $t == *$p* ]] && match=1 matched[$p]=1
		done
		[ -n "$match" ] || continue
	fi
	run_test "$t"
done
# A pattern that names no test is a test lost (renamed, or mistyped in
# CI's list): it fails.
for p in "${patterns[@]}"; do
	[ -n "${matched[$p]:-}" ] && continue
	failed=$((failed + 1))
	echo "FAIL $p: no test matches it"
done
summary
