#!/bin/bash
# tests/unit/run.sh [--no-trace] PROGRAM... - run the unit layer's
# programs (make check-unit builds them from tests/unit/test_*.c), each
# printing a line a case and its own "N passed, N failed"; then the sum,
# as the suite's last line.  --no-trace: probegen was built without
# --trace, so the tracer's unit tests were not built (said as a SKIP).
set -u
passed=0 failed=0 skipped=0
if [ "${1:-}" = --no-trace ]; then
	shift
	echo "SKIP test_trace_*: probegen was built without --trace"
	skipped=1
fi
for prog in "$@"; do
	out=$(ROOT=${ROOT:-$PWD} "$prog" 2>&1)
	rc=$?
	name=${prog##*/}
	printf '%s\n' "$out" | grep -v '^[0-9]* passed, [0-9]* failed, [0-9]* skipped$' | sed "s/^\(ok  \|FAIL\|SKIP\) /&$name: /"
	line=$(printf '%s\n' "$out" | tail -n 1)
	if [[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped$ ]]; then
		passed=$((passed + BASH_REMATCH[1])) failed=$((failed + BASH_REMATCH[2]))
		skipped=$((skipped + BASH_REMATCH[3]))
		# A program that died after its line, or failed with no failed
		# case, is a failure of its own.
		[ $rc -eq 0 ] || [ "${BASH_REMATCH[2]}" -gt 0 ] || { echo "FAIL $name: exit status $rc"; failed=$((failed + 1)); }
	else
		echo "FAIL $name: died (exit status $rc) before its summary"
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
