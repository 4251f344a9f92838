#!/bin/bash
# bench/budget.sh - what --budget saves a busy server: memcached, built
# as make check-real builds it (tests/real/memcached.sh, with probegen as
# its dtrace), under memcaslap (libmemcached-tools) on loopback, traced
# three ways in turns: untraced, every probe (--budget none) and
# --budget 5%, ROUNDS rounds of SECONDS each.  Prints a Markdown table:
# each way's median throughput and its share of the untraced one; each
# hot probe's rate (whole trace, and the budget's estimate); the pair's
# median latency both ways.  BUDGET_MEMCACHED=path uses a memcached
# already built.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROBEGEN=${PROBEGEN:-$ROOT/probegen}
ROUNDS=${BUDGET_ROUNDS:-3}
SECONDS_EACH=${BUDGET_SECONDS:-5}
MC=${BUDGET_MEMCACHED:-$ROOT/tests/out-real/memcached/build-probegen/memcached}
command -v memcaslap > /dev/null || { echo "SKIP: no memcaslap (apt-get install libmemcached-tools)"; exit 0; }
[ "$(id -u)" = 0 ] || { echo "SKIP: --trace needs root"; exit 0; }
if [ ! -x "$MC" ]; then
	REAL_KEEP=1 bash "$ROOT/tests/real/memcached.sh" > /dev/null 2>&1
	[ -x "$MC" ] || { echo "SKIP: memcached could not be built (tests/real/memcached.sh)"; exit 0; }
fi
W=$(mktemp -d)
trap 'kill $mcpid 2> /dev/null; rm -rf "$W"' EXIT
port=$((21000 + RANDOM % 20000))
# One worker thread: the load's client takes the other CPU.
"$MC" -u root -l 127.0.0.1 -p $port -U 0 -t 1 > "$W/mc.log" 2>&1 &
mcpid=$!
for i in $(seq 50); do (exec 3<> /dev/tcp/127.0.0.1/$port) 2> /dev/null && break; sleep 0.1; done

load() { # -> TPS
	memcaslap -s 127.0.0.1:$port -T 1 -c 16 -t "${SECONDS_EACH}s" 2>&1 |
		sed -n 's/.*TPS: \([0-9]*\).*/\1/p' | tail -1
}
# way round: untraced, or traced with --budget way; the summary as JSON.
run() {
	local way=$1 round=$2 pg
	if [ "$way" = untraced ]; then
		load > "$W/tps-$way-$round"
		return
	fi
	"$PROBEGEN" --trace --summary --json --budget "$way" -p $mcpid \
		-o "$W/sum-$way-$round.json" 2> "$W/err-$way-$round" &
	pg=$!
	sleep 1 # attached, and its first decisions made
	load > "$W/tps-$way-$round"
	kill -INT $pg
	wait $pg
}
for r in $(seq "$ROUNDS"); do
	for way in untraced none 5%; do run "$way" "$r"; done
done
python3 - "$W" "$ROUNDS" <<'PY'
import json, statistics, sys
w, rounds = sys.argv[1], int(sys.argv[2])
tps = {way: statistics.median(int(open("%s/tps-%s-%d" % (w, way, r)).read() or 0) for r in range(1, rounds + 1))
       for way in ("untraced", "none", "5%")}
sums = {way: [json.load(open("%s/sum-%s-%d.json" % (w, way, r))) for r in range(1, rounds + 1)] for way in ("none", "5%")}
print("| way | median TPS | of untraced |")
print("|---|---:|---:|")
for way in ("untraced", "none", "5%"):
    print("| %s | %.0f | %.0f%% |" % ({"untraced": "untraced", "none": "--budget none", "5%": "--budget 5%"}[way], tps[way], 100 * tps[way] / tps["untraced"]))
# A probe's firings per request (a rate a second is the load's, which
# the trace itself changes): the whole trace's, and the budget's estimate.
def per_request(s, probe):
    p = s["probes"].get(probe)
    q = s["probes"].get("memcached:process__command__start")
    return p["count"] / q["count"] if p and q else 0
hot = sorted((k for k, v in sums["none"][0]["probes"].items() if v["count"] / sums["none"][0]["seconds"] >= 1000))
print()
print("| hot probe | firings a request, whole | under 5% (estimated) | sampled share | differ |")
print("|---|---:|---:|---:|---:|")
for probe in hot:
    a = statistics.median(per_request(s, probe) for s in sums["none"])
    b = statistics.median(per_request(s, probe) for s in sums["5%"])
    share = statistics.median(s["probes"].get(probe, {}).get("sampled", {}).get("share", 1) for s in sums["5%"])
    print("| %s | %.3f | %.3f | %.1f%% | %+.0f%% |" % (probe, a, b, 100 * share, 100 * (b - a) / a if a else 0))
print()
print("| pair | p50 whole | p50 under 5% | differ | trace cost under 5% |")
print("|---|---:|---:|---:|---:|")
for i, p in enumerate(sums["none"][0]["pairs"]):
    a = statistics.median(s["pairs"][i].get("p50_ns", 0) for s in sums["none"])
    b = statistics.median(s["pairs"][i].get("p50_ns", 0) for s in sums["5%"])
    cost = statistics.median(s["budget"]["cost_percent"] for s in sums["5%"])
    if a:
        print("| %s | %.1f us | %.1f us | %+.0f%% | %.1f%% |" % (p["work"], a / 1e3, b / 1e3, 100 * (b - a) / a, cost))
PY
