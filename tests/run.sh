#!/bin/bash
# tests/run.sh - probegen's test suite.  Each tests/t_*.sh file defines
# test functions named t_*; every one runs in a shell of its own, which
# sources tests/lib.sh and its own file alone (a helper two files use
# lives in lib.sh), in its own scratch directory, and reports through
# ok/fail/skip.  The last line is the summary.
#
#   tests/run.sh [-j N] [--tier TIER] [--except NAME]... [PATTERN...]
#
# -j N: N tests at once (default: the number of cores).  A file lists the
# tests that must run alone (timing-bound ones) in a line
# "serial_tests: t_a t_b"; they run first, one at a time, then the rest
# side by side.  Output is in test-name order, each line with the test's
# seconds, then the ten slowest, then the summary.
#
# --tier: the tests of a tier, by the "# tier: NAME" line of their file
# (check, the default: root and this machine's kernel; build: builds of
# probegen itself, make check-build).  PATTERNs choose among every tier's
# tests: those whose name holds a PATTERN.  --except NAME leaves that
# test out (CI's sanitized pass: tests whose slow part is another
# program's); a NAME that names no test fails the run, as a PATTERN does.
set -u
cd "$(dirname "$0")/.." || exit 2
ROOT=$PWD
PROBEGEN=${PROBEGEN:-$ROOT/probegen}
OUT=${TEST_OUT:-$ROOT/tests/out} # TEST_OUT: another scratch tree, for a second run at once
export ROOT PROBEGEN OUT

jobs=$(nproc 2> /dev/null || echo 1)
tier=check
patterns=()
declare -A excepted
while [ $# -gt 0 ]; do
	case $1 in
	-j) jobs=$2; shift 2 ;;
	-j*) jobs=${1#-j}; shift ;;
	--tier) tier=$2; shift 2 ;;
	--except) excepted[$2]=0; shift 2 ;;
	*) patterns+=("$1"); shift ;;
	esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "tests/run.sh: -j takes a number of tests, not '$jobs'" >&2; exit 2; }
rm -rf "$OUT" && mkdir -p "$OUT"

passed=0 failed=0 skipped=0
declare -A file_of serial matched
names=()
for f in tests/t_*.sh; do
	# A test file that does not parse would silently lose its tests.
	if ! bash -n "$f" 2> "$OUT/syntax.err"; then
		failed=$((failed + 1))
		echo "FAIL $f: does not parse"
		sed 's/^/     | /' "$OUT/syntax.err"
		continue
	fi
	file_tier=$(sed -n 's/^# tier: *//p' "$f" | head -n 1)
	for s in $(sed -n 's/^# serial_tests: *//p' "$f"); do
		serial[$s]=1
	done
	for t in $(grep -oE '^t_[A-Za-z0-9_]+\(\)' "$f" | tr -d '()'); do
		[ -z "${excepted[$t]:-}" ] || excepted[$t]=1
		if [ ${#patterns[@]} -gt 0 ]; then
			match=
			for p in "${patterns[@]}"; do
				[[ $t == *$p* ]] && match=1 matched[$p]=1
			done
			[ -n "$match" ] || continue
		elif [ "${file_tier:-check}" != "$tier" ]; then
			continue
		fi
		[ -z "${excepted[$t]:-}" ] || continue
		file_of[$t]=$f
		names+=("$t")
	done
done
mapfile -t names < <(printf "%s\n" "${names[@]}" | sed "/^$/d" | sort -V) # none: no line

# One test in its own shell and directory: its result, log and seconds
# in $OUT/NAME/.
run_one() {
	local name=$1 dir=$OUT/$1 start
	mkdir -p "$dir"
	start=$(date +%s%N)
	(cd "$dir" && exec bash -c '. "$ROOT/tests/lib.sh" && . "$ROOT/$1" && "$2"' \
		run "${file_of[$name]}" "$name") > "$dir/log" 2>&1 < /dev/null
	echo $(( ($(date +%s%N) - start) / 1000000 )) > "$dir/.ms"
	touch "$dir/.done"
}

# The line of a finished test, and its count.
report() {
	local name=$1 dir=$OUT/$1 result secs
	result=$(cat "$dir/.result" 2> /dev/null)
	secs=$(awk '{ printf "%.1f", $1 / 1000 }' "$dir/.ms")
	case $result in
	ok) passed=$((passed + 1)); printf 'ok   %s (%s s)\n' "$name" "$secs"
	    grep -E '^(SKIP \(part\)|NOTE|case )' "$dir/log" | sed 's/^/     /' ;;
	skip*) skipped=$((skipped + 1)); printf 'SKIP %s: %s (%s s)\n' "$name" "${result#skip }" "$secs" ;;
	*) failed=$((failed + 1))
	   [ -n "$result" ] || result="fail it said neither ok, fail nor skip"
	   printf 'FAIL %s: %s (%s s)\n' "$name" "${result#fail }" "$secs"
	   grep -E '^case ' "$dir/log" | sed 's/^/     /'
	   grep -vE '^case ' "$dir/log" | sed 's/^/     | /' | tail -n 25 ;;
	esac
}

# The serial tests first, alone; then the rest, $jobs at a time.  Lines
# are printed in name order as soon as every test before them is done.
order=()
for t in "${names[@]}"; do [ -n "${serial[$t]:-}" ] && order+=("$t"); done
for t in "${names[@]}"; do [ -z "${serial[$t]:-}" ] && order+=("$t"); done
next=0
print_ready() {
	while [ $next -lt ${#names[@]} ] && [ -e "$OUT/${names[$next]}/.done" ]; do
		report "${names[$next]}"
		next=$((next + 1))
	done
}
running=0
for t in "${order[@]}"; do
	if [ -n "${serial[$t]:-}" ]; then
		run_one "$t"
	else
		while [ $running -ge "$jobs" ]; do
			wait -n
			running=$((running - 1))
			print_ready
		done
		run_one "$t" &
		running=$((running + 1))
	fi
	print_ready
done
wait
print_ready

# A pattern that names no test is a test lost (renamed, or mistyped in
# CI's list): it fails.
for p in "${patterns[@]}"; do
	[ -n "${matched[$p]:-}" ] && continue
	failed=$((failed + 1))
	echo "FAIL $p: no test matches it"
done
for t in "${!excepted[@]}"; do
	[ "${excepted[$t]}" = 1 ] && continue
	failed=$((failed + 1))
	echo "FAIL --except $t: no such test"
done
if [ ${#names[@]} -gt 1 ]; then
	echo "slowest:"
	for t in "${names[@]}"; do echo "$(cat "$OUT/$t/.ms") $t"; done | sort -rn | head -n 10 |
		awk '{ printf "  %7.1f s  %s\n", $1 / 1000, $2 }'
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
