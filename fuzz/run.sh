#!/bin/sh
# fuzz/run.sh SECONDS - seed a corpus from the test inputs and run the
# fuzzer; findings land in fuzz/out/findings (copy each into
# tests/fuzz/ as NAME.d once fixed, with NAME.d.status holding its exit
# status when that is not 0: tests/t_hostile.sh replays them).
set -e
cd "$(dirname "$0")/.."
seconds=${1:-60}
mkdir -p fuzz/out/corpus fuzz/out/findings
cp tests/good/*.d tests/errors/*.d tests/cpp/*.d tests/src/*.d \
	examples/*/*.d fuzz/out/corpus/ 2>/dev/null || true
[ -d tests/fuzz ] && cp tests/fuzz/*.d fuzz/out/corpus/ 2>/dev/null || true
exec build-fuzz/fuzzer -max_total_time="$seconds" -timeout=10 \
	-rss_limit_mb=2048 -max_len=65536 -dict=fuzz/d.dict \
	-artifact_prefix=fuzz/out/findings/ fuzz/out/corpus
