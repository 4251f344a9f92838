#!/bin/bash
# bench/budget.sh - what --budget saves a busy server: memcached, built
# as make check-real builds it (tests/real/memcached.sh, with probegen as
# its dtrace), under memcaslap (libmemcached-tools) on loopback, traced
# three ways in turns: untraced, every probe (--budget none) and
# --budget 5%, ROUNDS rounds of SECONDS each, under two loads: as fast
# as memcached answers (its throughput each way; memcaslap), and a
# steady TPS below what it answers traced whole
# (bench/memcached_load.c): each hot probe's firings and the pair's
# latency, the whole trace's against the budget's estimate (the same
# load, so the same firings) and against the same run's exact counts
# (a second probegen beside it, whole), and memcached's CPU a request
# against untraced (what the trace really cost it); then two memcached
# side by side under the same load at once, one traced with --budget 5%
# and its twin not (the VM's drift the same for both).  Prints Markdown
# tables; the throughput's share in turns is the median of each round's
# ratio to its own untraced run.
# BUDGET_MEMCACHED=path uses a memcached already built.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PROBEGEN=${PROBEGEN:-$ROOT/probegen}
ROUNDS=${BUDGET_ROUNDS:-3}
SECONDS_EACH=${BUDGET_SECONDS:-5}
TPS=${BUDGET_TPS:-5000}
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
cc -O2 -o "$W/steady" "$ROOT/bench/memcached_load.c" || { echo "SKIP: cc"; exit 0; }

load() { # [steady] -> TPS
	if [ -n "${1:-}" ]; then
		echo $(($("$W/steady" $port "$TPS" "$SECONDS_EACH") / SECONDS_EACH))
		return
	fi
	memcaslap -s 127.0.0.1:$port -T 1 -c 16 -t "${SECONDS_EACH}s" 2>&1 |
		sed -n 's/.*TPS: \([0-9]*\).*/\1/p' | tail -1
}
# A process's CPU so far, every thread's, in ns (the kernel's
# schedstat); cpu_ns: memcached's.
pid_cpu_ns() {
	cat /proc/$1/task/*/schedstat 2> /dev/null | awk '{ n += $1 } END { printf "%.0f", n }'
}
cpu_ns() { pid_cpu_ns $mcpid; }
# A run's load: its TPS, and memcached's CPU over it (ns).
measured_load() { # name [steady]
	local c0=$(cpu_ns)
	load ${2:-} > "$W/tps-$1"
	echo $(($(cpu_ns) - c0)) > "$W/cpu-$1"
}
# way round [steady]: untraced, or traced with --budget way; the
# summary as JSON.
run() {
	local way=$1 round=$2 steady=${3:-} pg
	# Each steady run finds memcached as the same untraced load left
	# it (item__remove fires as it lets items go: by what it holds).
	[ -z "$steady" ] || memcaslap -s 127.0.0.1:$port -T 1 -c 16 -t 2s > /dev/null 2>&1
	if [ "$way" = untraced ]; then
		measured_load "$way$steady-$round" $steady
		return
	fi
	local budget=${way%+exact} exact=
	# 5%+exact: a second probegen beside it counts every firing, so
	# that its estimates meet the same run's exact counts (a probe
	# that fires in bursts differs as much from run to run, whole).
	if [ "$way" != "$budget" ]; then
		"$PROBEGEN" --trace --summary --json --budget none -p $mcpid \
			-o "$W/exact-$round.json" 2> /dev/null &
		exact=$!
	fi
	"$PROBEGEN" --trace --summary --json --budget "$budget" -p $mcpid \
		-o "$W/sum-$way$steady-$round.json" 2> "$W/err-$way$steady-$round" &
	pg=$!
	sleep 1 # attached
	measured_load "$way$steady-$round" $steady
	kill -INT $pg $exact
	wait $pg $exact
}
for r in $(seq "$ROUNDS"); do
	# The saturated runs, --budget 5% next to its untraced run (this
	# VM's speed drifts over tens of seconds), first or second in
	# turns; then the steady runs.
	if [ $((r % 2)) = 1 ]; then
		run untraced "$r"; run 5% "$r"
	else
		run 5% "$r"; run untraced "$r"
	fi
	run none "$r"
	for way in untraced none 5% 5%+exact; do
		run "$way" "$r" steady
	done
done
# Side by side: a second memcached (its twin) under its own memcaslap at
# the same time, one of the two traced with --budget 5%, the other not:
# the VM's drift (10 to 20% over tens of seconds, the same for both)
# leaves their ratio alone.  The two share the two CPUs, so the ratio
# is the traced one's work a request against its twin's.  Each run
# reads both memcached's requests (their stats) in slices of 3 s; the
# first run traces neither (how alike the twins are), the others trace
# each in turns, so that neither's place counts.
twin_port=$((port + 1))
"$MC" -u root -l 127.0.0.1 -p $twin_port -U 0 -t 1 > "$W/twin.log" 2>&1 &
twinpid=$!
trap 'kill $mcpid $twinpid 2> /dev/null; rm -rf "$W"' EXIT
for i in $(seq 50); do (exec 3<> /dev/tcp/127.0.0.1/$twin_port) 2> /dev/null && break; sleep 0.1; done
requests() { # port -> gets and sets answered so far
	exec 3<> /dev/tcp/127.0.0.1/$1
	printf 'stats\r\nquit\r\n' >&3
	awk '/cmd_get|cmd_set/ { n += $3 } END { print n + 0 }' <&3
	exec 3>&-
}
TWIN_RUNS=${BUDGET_TWIN_RUNS:-4}
TWIN_SLICES=${BUDGET_TWIN_SLICES:-8}
for t in $(seq 0 "$TWIN_RUNS"); do
	# Run 0: neither traced; then the first memcached, then its twin.
	traced=$mcpid tport=$port uport=$twin_port
	[ $((t % 2)) = 0 ] && traced=$twinpid tport=$twin_port uport=$port
	loads=
	for p in $port $twin_port; do
		memcaslap -s 127.0.0.1:$p -T 1 -c 16 -t $((TWIN_SLICES * 3 + 6))s > /dev/null 2>&1 &
		loads="$loads $!"
	done
	sleep 2
	pg=
	if [ "$t" != 0 ]; then
		"$PROBEGEN" --trace --summary --json --budget 5% -p $traced \
			-o "$W/twin-$t.json" 2> /dev/null &
		pg=$!
	fi
	sleep 2 # attached, and the first decisions made
	upid=$mcpid
	[ $traced = $mcpid ] && upid=$twinpid
	# Each slice: the traced one's requests and the twin's, and their
	# CPU (every thread's, ns).
	for i in $(seq "$TWIN_SLICES"); do
		a0=$(requests $tport) b0=$(requests $uport)
		c0=$(pid_cpu_ns $traced) d0=$(pid_cpu_ns $upid)
		sleep 3
		echo $(($(requests $tport) - a0)) $(($(requests $uport) - b0)) \
			$(($(pid_cpu_ns $traced) - c0)) $(($(pid_cpu_ns $upid) - d0))
	done > "$W/twin-$t"
	[ -z "$pg" ] || { kill -INT $pg; wait $pg; }
	wait $loads
done
python3 - "$W" "$ROUNDS" "$TPS" "$SECONDS_EACH" "$TWIN_RUNS" <<'PY'
import json, statistics, sys
w, rounds, tps_asked = sys.argv[1], int(sys.argv[2]), sys.argv[3]
R = range(1, rounds + 1)
med = statistics.median
tps = {way: med(int(open("%s/tps-%s-%d" % (w, way, r)).read() or 0) for r in R)
       for way in ("untraced", "none", "5%")}
name = {"untraced": "untraced", "none": "--budget none", "5%": "--budget 5%"}
print("As fast as it answers (memcaslap's TPS, medians):")
print()
# Each round's ways ran in turns: its ratio to the round's untraced run
# leaves out the machine's drift from round to round (a VM's throughput
# here varies by 10% between runs a minute apart).
ratio = {way: med(int(open("%s/tps-%s-%d" % (w, way, r)).read() or 0) /
                  max(1, int(open("%s/tps-untraced-%d" % (w, r)).read() or 0)) for r in R)
         for way in ("untraced", "none", "5%")}
print("| way | TPS | of untraced (median of the rounds' ratios) |")
print("|---|---:|---:|")
for way in ("untraced", "none", "5%"):
    print("| %s | %.0f | %.1f%% |" % (name[way], tps[way], 100 * ratio[way]))
print()
print("Each round's --budget 5%% against its untraced run: %s." % ", ".join(
    "%.1f%%" % (100 * int(open("%s/tps-5%%-%d" % (w, r)).read() or 0) /
                max(1, int(open("%s/tps-untraced-%d" % (w, r)).read() or 0))) for r in R))
# memcached's CPU a request as fast as it answers (every thread's): what
# the trace added to its work, beside what it took from its throughput
# (on two CPUs shared with the load's client the two need not agree).
def sat_per_request(way, r):
    n = int(open("%s/tps-%s-%d" % (w, way, r)).read() or 0) * float(sys.argv[4])
    return int(open("%s/cpu-%s-%d" % (w, way, r)).read() or 0) / max(1, n)
print()
print("memcached's CPU a request as fast as it answers, every thread's (each round's against its untraced run, medians): untraced %.1f us; --budget none %+.1f%%; --budget 5%% %+.1f%%, where the budget counted %.1f%%." % (
    med(sat_per_request("untraced", r) for r in R) / 1e3,
    100 * med(sat_per_request("none", r) / sat_per_request("untraced", r) - 1 for r in R),
    100 * med(sat_per_request("5%", r) / sat_per_request("untraced", r) - 1 for r in R),
    med(json.load(open("%s/sum-5%%-%d.json" % (w, r)))["budget"]["cost_percent"] for r in R)))
sums = {way: [json.load(open("%s/sum-%ssteady-%d.json" % (w, way, r))) for r in R] for way in ("none", "5%")}
steady = {way: med(int(open("%s/tps-%ssteady-%d" % (w, way, r)).read() or 0) for r in R) for way in ("none", "5%")}
print()
print("At a steady %s TPS (answered: %.0f whole, %.0f under 5%%), each hot probe's firings:" % (tps_asked, steady["none"], steady["5%"]))
print()
print("| hot probe | whole | under 5% (estimated) | share counted | differ | whole, the rounds' range | under 5%, the rounds' range |")
print("|---|---:|---:|---:|---:|---:|---:|")
first = sums["none"][0]
worst = 0
for probe in sorted(k for k, v in first["probes"].items() if v["count"] / first["seconds"] >= 1000):
    a = med(s["probes"].get(probe, {}).get("count", 0) for s in sums["none"])
    b = med(s["probes"].get(probe, {}).get("count", 0) for s in sums["5%"])
    share = med(s["probes"].get(probe, {}).get("sampled", {}).get("share", 1) for s in sums["5%"])
    d = 100 * (b - a) / a if a else 0
    worst = max(worst, abs(d))
    # The probe's own spread from round to round: a probe that does
    # not fire a request at a time (item__remove) varies as much whole.
    wa = [s["probes"].get(probe, {}).get("count", 0) for s in sums["none"]]
    wb = [s["probes"].get(probe, {}).get("count", 0) for s in sums["5%"]]
    print("| %s | %.0f | %.0f | %.1f%% | %+.1f%% | %d-%d | %d-%d |" % (probe, a, b, 100 * share, d, min(wa), max(wa), min(wb), max(wb)))
# The same run's exact counts (a second probegen, whole, beside the
# budget's): each round's estimate against them.
exact = [json.load(open("%s/exact-%d.json" % (w, r))) for r in R]
beside = [json.load(open("%s/sum-5%%+exactsteady-%d.json" % (w, r))) for r in R]
print()
print("The same load under --budget 5% with a second probegen beside it counting every firing: each round's estimate against the same run's exact count:")
print()
print("| hot probe | exact (median) | estimated (median) | differ, median of the rounds | the rounds' differences |")
print("|---|---:|---:|---:|---|")
worst_same = 0
for probe in sorted(k for k, v in first["probes"].items() if v["count"] / first["seconds"] >= 1000):
    ds = []
    for e, s in zip(exact, beside):
        n = e["probes"].get(probe, {}).get("count", 0)
        if n:
            ds.append(100 * (s["probes"].get(probe, {}).get("count", 0) - n) / n)
    d = med(ds) if ds else 0
    worst_same = max(worst_same, abs(d))
    print("| %s | %.0f | %.0f | %+.1f%% | %s |" % (probe,
        med(e["probes"].get(probe, {}).get("count", 0) for e in exact),
        med(s["probes"].get(probe, {}).get("count", 0) for s in beside), d,
        ", ".join("%+.0f%%" % x for x in ds)))
print()
print("| pair | p50 whole | p50 under 5% | differ | the trace's cost under 5% |")
print("|---|---:|---:|---:|---:|")
for i, p in enumerate(first["pairs"]):
    a = med(s["pairs"][i].get("p50_ns", 0) for s in sums["none"])
    b = med(s["pairs"][i].get("p50_ns", 0) for s in sums["5%"])
    cost = med(s["budget"]["cost_percent"] for s in sums["5%"])
    if a:
        print("| %s | %.1f us | %.1f us | %+.1f%% | %.1f%% |" % (p["work"], a / 1e3, b / 1e3, 100 * (b - a) / a, cost))
# What the trace really cost memcached at the steady load: its CPU a
# request (every thread's, from schedstat) against the round's untraced
# run, beside what the budget counted.
def per_request(way, r):
    n = int(open("%s/tps-%ssteady-%d" % (w, way, r)).read() or 0) * float(sys.argv[4])
    return int(open("%s/cpu-%ssteady-%d" % (w, way, r)).read() or 0) / max(1, n)
print()
print("What the trace cost memcached at the steady load (its CPU a request, every thread's, against the same round's untraced run; medians):")
print()
print("| way | CPU a request | more than untraced | the budget's own measure |")
print("|---|---:|---:|---:|")
base = med(per_request("untraced", r) for r in R)
print("| untraced | %.1f us | - | - |" % (base / 1e3))
for way in ("none", "5%"):
    more = med(per_request(way, r) / per_request("untraced", r) - 1 for r in R)
    own = med(s["budget"]["cost_percent"] for s in sums[way]) if way == "5%" else None
    print("| %s | %.1f us | %+.1f%% | %s |" % (name[way], med(per_request(way, r) for r in R) / 1e3, 100 * more,
                                      "%.1f%%" % own if own is not None else "-"))
# Side by side: each slice's traced over its twin, its requests and its
# CPU a request.  Each run traced one of the two in turns, so that how
# the twins differ (run 0, neither traced) cancels: the cost is the
# geometric mean of the two ways' medians.
twin_runs = int(sys.argv[5])
def slices(t):
    return [tuple(map(int, l.split())) for l in open("%s/twin-%d" % (w, t))]
def both_ways(f):
    ways = [[f(*x) for t in range(1, twin_runs + 1) if t % 2 == k for x in slices(t)] for k in (0, 1)]
    return (med(ways[0]) * med(ways[1])) ** 0.5
thru = both_ways(lambda a, b, ca, cb: a / b)
work = both_ways(lambda a, b, ca, cb: (ca / a) / (cb / b))
counted = med(json.load(open("%s/twin-%d.json" % (w, t)))["budget"]["cost_percent"] for t in range(1, twin_runs + 1))
control = [a / b for a, b, ca, cb in slices(0)]
print()
print("Side by side: two memcached at once, each under its own memcaslap, one traced with --budget 5% and its twin not (each in turns), read in slices of 3 s (the VM's drift is the same for both):")
print()
print("| the traced one against its twin | median |")
print("|---|---:|")
print("| requests answered | %.1f%% |" % (100 * thru))
print("| its CPU a request, every thread's | %+.1f%% |" % (100 * (work - 1)))
print("| what the budget counted | %.1f%% |" % counted)
print("| with neither traced, the first's requests against its twin's | %.1f%% |" % (100 * med(control)))
print()
print("Goals: --budget 5%% at least 95%% of untraced throughput: %.1f%% in turns, %.1f%% side by side; hot probes' estimates within 10%% of the same run's exact counts: worst %.1f%% (of another run's whole trace: worst %.1f%%)." % (100 * ratio["5%"], 100 * thru, worst_same, worst))
PY
