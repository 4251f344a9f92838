#!/bin/sh
# fuzz/ci.sh SECONDS - what every CI run does: each harness for SECONDS
# (built with ASan and UBSan), from the kept corpus, FUZZ_JOBS at once
# (default: the cores; each harness is one process).  A finding fails
# the run with the input's path and the sanitizer's report; otherwise one
# line a harness gives its executions and coverage, in the harnesses'
# order.
cd "$(dirname "$0")/.."
seconds=${1:-90}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
harnesses="pipeline binary metrics event where filter"
mkdir -p fuzz/out
rm -rf fuzz/out/findings fuzz/out/binary-findings fuzz/out/metrics-findings \
	fuzz/out/event-findings fuzz/out/where-findings fuzz/out/filter-findings

# One harness: its log, and its line into fuzz/out/HARNESS.line.
one() {
	h=$1 log=fuzz/out/$1.log
	if fuzz/run.sh "$seconds" "$h" > "$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
		echo "ok   fuzz_$h: $seconds s, $runs inputs run, $cov coverage edges" > fuzz/out/$h.line
	else
		{
			echo "FAIL fuzz_$h: a finding after $(grep -c '^#[0-9]' "$log") progress lines"
			grep -m1 -A40 -E '^==[0-9]+==ERROR|runtime error:|deadly signal|ALARM|out-of-memory' "$log"
			grep -E 'Test unit written to|artifact' "$log" | sed 's/^/     /'
		} > fuzz/out/$h.line
	fi
}

running=0
for h in $harnesses; do
	rm -f fuzz/out/$h.line
	one $h &
	running=$((running + 1))
	if [ $running -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait
status=0
for h in $harnesses; do
	cat fuzz/out/$h.line
	grep -q '^ok ' fuzz/out/$h.line || status=1
done
exit $status
