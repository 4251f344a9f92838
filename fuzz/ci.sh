#!/bin/sh
# fuzz/ci.sh SECONDS - what every CI run does: each harness for SECONDS
# (built with ASan and UBSan), from the kept corpus.  A finding fails the
# run with the input's path and the sanitizer's report; otherwise one
# line a harness gives its executions and coverage.
cd "$(dirname "$0")/.."
seconds=${1:-90}
status=0
for h in pipeline binary metrics event where filter; do
	log=fuzz/out/$h.log
	mkdir -p fuzz/out
	rm -rf fuzz/out/findings fuzz/out/binary-findings fuzz/out/metrics-findings fuzz/out/event-findings fuzz/out/where-findings fuzz/out/filter-findings
	if fuzz/run.sh "$seconds" $h > "$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
		echo "ok   fuzz_$h: $seconds s, $runs inputs run, $cov coverage edges"
	else
		echo "FAIL fuzz_$h: a finding after $(grep -c '^#[0-9]' "$log") progress lines"
		grep -m1 -A40 -E '^==[0-9]+==ERROR|runtime error:|deadly signal|ALARM|out-of-memory' "$log"
		grep -E 'Test unit written to|artifact' "$log" | sed 's/^/     /'
		status=1
	fi
done
exit $status
