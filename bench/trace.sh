#!/bin/bash
# bench/trace.sh - probegen --trace against bpftrace 0.17 on one program
# firing bench:event (a string and 5 integers) a million times, and on a
# million start/done pairs.  Each tracer runs in turns (floor, probegen,
# bpftrace, ... then again), 5 rounds, medians.  Two costs are kept for
# each: the whole run's wall-clock seconds (start and end included) and
# what the program itself paid a firing (the loop times its firings and
# says so on stderr), beside the floor's: a bpftrace program that only
# counts, what the probe itself costs.  Then the time to attach 1, 10,
# 100 and 1,000 probes in a shared library, a long run of --metrics
# (memory, counts, losses), and what the BPF program costs a firing by
# the kernel's own statistics.  Needs root; writes
# bench/out/trace.md.
set -eu
cd "$(dirname "$0")/.."
ROOT=$PWD
PROBEGEN=$ROOT/${PROBEGEN_BIN:-probegen}
OUT=$ROOT/bench/out/trace
N=${TRACE_EVENTS:-1000000}
ROUNDS=${TRACE_ROUNDS:-5}
mkdir -p "$OUT"
cd "$OUT"
"$PROBEGEN" -h -s "$ROOT/bench/trace_loop.d" -o trace_loop.h
"$PROBEGEN" -G -s "$ROOT/bench/trace_loop.d" -o trace_loop_probes.o
gcc -O2 -I. "$ROOT/bench/trace_loop.c" trace_loop_probes.o -o loop
[ "$(id -u)" = 0 ] || { echo "bench/trace.sh: needs root"; exit 0; }
mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true

# The tracers, one a line (each command on one line): NAME|PATTERN OF AN EVENT LINE (empty: the
# run counts in the kernel)|COMMAND (run by bash).
FLOOR='usdt:./loop:bench:event { @c = count(); } END { print(@c); clear(@c); }'
PRINTF='usdt:./loop:bench:event { printf("probegen %s %d %d %u %d %d\n", str(arg0), arg1, arg2, arg3, arg4, arg5); }'
HIST='usdt:./loop:bench:work__start { @s[tid] = nsecs; } usdt:./loop:bench:work__done /@s[tid]/ { @ns = hist(nsecs - @s[tid]); @n = count(); delete(@s[tid]); } END { clear(@s); }'
cat > tracers.txt <<EOF
untraced||./loop $N
floor||bpftrace -e '$FLOOR' -c './loop $N'
probegen|bench:event|$PROBEGEN --trace -c './loop $N'
json|"probe": "bench:event"|$PROBEGEN --trace --json -c './loop $N'
summary||$PROBEGEN --trace --summary -n bench:event -c './loop $N'
metrics||$PROBEGEN --trace --metrics 127.0.0.1:0 -n bench:event -c './loop $N'
metrics_by||$PROBEGEN --trace --metrics 127.0.0.1:0 --by bench:event:name -n bench:event -c './loop $N'
bpftrace|^probegen |bpftrace -e '$PRINTF' -c './loop $N'
where_none|bench:event|$PROBEGEN --trace --where 'bench:event: a < 0' -c './loop $N'
where_glob_none|bench:event|$PROBEGEN --trace --where 'bench:event: name ~ "x*"' -c './loop $N'
where_all|bench:event|$PROBEGEN --trace --where 'bench:event: a >= 0' -c './loop $N'
stack_base|bench:event|$PROBEGEN --trace -c './loop $((N / 10))'
stack|bench:event|$PROBEGEN --trace --stack -c './loop $((N / 10))'
deep_base|bench:event|$PROBEGEN --trace -c './loop 20000 deep'
deep_8k|bench:event|$PROBEGEN --trace --stack -c './loop 20000 deep'
deep_16k|bench:event|$PROBEGEN --trace --stack --stack-bytes 16384 -c './loop 20000 deep'
deep_64k|bench:event|$PROBEGEN --trace --stack --stack-bytes 65536 -c './loop 20000 deep'
stack_10k|bench:event|$PROBEGEN --trace --stack -c './loop 20000 paced 10000'
stack_25k|bench:event|$PROBEGEN --trace --stack -c './loop 50000 paced 25000'
stack_50k|bench:event|$PROBEGEN --trace --stack -c './loop 100000 paced 50000'
stack_100k|bench:event|$PROBEGEN --trace --stack -c './loop 200000 paced 100000'
server_floor||bpftrace -e 'usdt:./loop:bench:request__start,usdt:./loop:bench:header,usdt:./loop:bench:request__done { @c = count(); } END { print(@c); clear(@c); }' -c './loop $N server'
server_summary||$PROBEGEN --trace --summary -n 'bench:request__*' -n bench:header -c './loop $N server'
server|bench:header |$PROBEGEN --trace -n 'bench:request__*' -n bench:header -c './loop $N server'
server_json|"probe": "bench:header"|$PROBEGEN --trace --json -n 'bench:request__*' -n bench:header -c './loop $N server'
pairs_untraced||./loop $N pairs
pairs_summary||$PROBEGEN --trace --summary -c './loop $N pairs'
pairs_bpftrace||bpftrace -e '$HIST' -c './loop $N pairs'
EOF
# The baseline (bench/run.sh's BASELINE=REV), in the same turns.
if [ -n "${PROBEGEN_BASELINE:-}" ]; then
	cat >> tracers.txt <<EOF
baseline|bench:event|$PROBEGEN_BASELINE --trace -c './loop $N'
baseline_json|"probe": "bench:event"|$PROBEGEN_BASELINE --trace --json -c './loop $N'
EOF
fi

# In turns: each round runs every tracer once; a line per run says
# NAME SECONDS NS-A-FIRING EVENT-LINES.
: > runs.txt
for round in $(seq "$ROUNDS"); do
	while IFS='|' read -r name pattern command; do
		s=$(date +%s%N)
		bash -c "$command" > "$name.out" 2> "$name.err" || true
		e=$(date +%s%N)
		ns=$(sed -n 's/^loop: \([0-9.]*\) ns a firing$/\1/p' "$name.err")
		lines=0
		[ -z "$pattern" ] || lines=$(grep -c -- "$pattern" "$name.out" || true)
		echo "$name $(( (e - s) / 1000 )) ${ns:-0} $lines" >> runs.txt
	done < tracers.txt
done

# Attaching: a shared library with K probes, a program that loads it and
# fires nothing; the time until probegen says it traces them (ready),
# and the whole run (attach, the program, detach).
for k in 1 10 100 1000; do
	python3 - "$k" <<'PY'
import sys
k = int(sys.argv[1])
with open("attach%d.d" % k, "w") as d:
    d.write("provider attach {\n")
    for i in range(k):
        d.write("\tprobe p%d(int i);\n" % i)
    d.write("};\n")
with open("attach%d.c" % k, "w") as c:
    c.write('#include "attach%d.h"\nint fire(int n)\n{\n' % k)
    for i in range(k):
        c.write("\tif (n == %d)\n\t\tATTACH_P%d(n);\n" % (i + 1, i))
    c.write("\treturn n;\n}\n")
PY
	"$PROBEGEN" -h -s attach$k.d -o attach$k.h
	"$PROBEGEN" -G -s attach$k.d -o attach${k}_probes.o
	gcc -O1 -fPIC -shared attach$k.c attach${k}_probes.o -o libattach$k.so
	printf 'int fire(int);\nint main(int argc, char **argv) { (void)argv; return fire(-argc) > 0; }\n' > attach_main.c
	gcc attach_main.c -L. -lattach$k -Wl,-rpath,"$OUT" -o attach$k
done
: > attach.txt
for round in 1 2 3; do
	for k in 1 10 100 1000; do
		python3 - "$k" "$PROBEGEN" "$round" >> attach.txt <<'PY'
import os, subprocess, sys, time
k, probegen, first = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
t = time.perf_counter()
p = subprocess.Popen([probegen, "--trace", "-c", "./attach" + k],
                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
ready = None
for line in p.stderr:
    if ready is None and line.startswith("probegen: tracing "):
        ready = time.perf_counter() - t
        assert line.split()[2] == k, line
p.wait()
print("probegen", k, ready, time.perf_counter() - t)
# bpftrace 0.17 cannot find a library's probes with -c (the library
# is not loaded yet): it attaches by path and ends at BEGIN, which runs
# once every probe is attached.  100 probes take it about 11 s: once.
if int(k) < 100 or (int(k) == 100 and first):
    t = time.perf_counter()
    subprocess.run(["bpftrace", "-e", "usdt:%s/libattach%s.so:attach:* { @ = count(); } BEGIN { exit(); }"
                    % (os.getcwd(), k)], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=True)
    print("bpftrace", k, 0, time.perf_counter() - t)
PY
	done
done

# --metrics for a long run: SOAK firings (20 million) with a scrape
# every 100 ms, the counts by --by's argument (every event crosses to
# user space); resident memory at the start and the end, the count the
# last scrape gives and the events lost.
SOAK=${TRACE_SOAK:-20000000}
soak_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$PROBEGEN" --trace --metrics 127.0.0.1:$soak_port --by bench:event:name -n bench:event ./loop \
	> soak.out 2> soak.err &
soak_pid=$!
for i in $(seq 100); do grep -q 'serving the metrics' soak.err && break; sleep 0.1; done
sleep 1
rss_start=$(awk '/VmRSS/ { print $2 }' /proc/$soak_pid/status)
rm -f soak.done
(scrapes=0; while kill -0 $soak_pid 2> /dev/null && [ ! -e soak.done ]; do
	curl -sf -o /dev/null "http://127.0.0.1:$soak_port/metrics" && scrapes=$((scrapes + 1))
	sleep 0.1
done; echo $scrapes > soak.scrapes) &
scraper=$!
/usr/bin/time -f %e -o soak.time ./loop "$SOAK" > /dev/null 2> soak.loop
soak_s=$(cat soak.time)
curl -sf "http://127.0.0.1:$soak_port/metrics" > soak.metrics
rss_end=$(awk '/VmRSS/ { print $2 }' /proc/$soak_pid/status)
touch soak.done; wait $scraper
kill -TERM $soak_pid; wait $soak_pid || true
echo "$SOAK $soak_s $rss_start $rss_end $(cat soak.scrapes) $(sed -n 's/^probegen_probe_firings_total{provider="bench",probe="event",name="probegen"} //p' soak.metrics) $(sed -n 's/^probegen_events_lost_total //p' soak.metrics)" > soak.txt

# The BPF program's own cost a firing, by the kernel's statistics
# (run_time_ns / run_cnt while a run of 4 million firings is traced).
bpf_cost() {
	local name=$1 out
	shift
	sysctl -qw kernel.bpf_stats_enabled=1
	"$@" > /dev/null 2>&1 &
	local pid=$!
	sleep 2
	out=$(bpftool prog show | awk '/name on_probe/ {
		for (i = 1; i <= NF; i++) { if ($i == "run_time_ns") t = $(i + 1); if ($i == "run_cnt") c = $(i + 1) }
		if (c > 0) printf "%.0f %d", t / c, c }')
	local xlated
	xlated=$(bpftool prog show | awk '/name on_probe/ { getline; getline; for (i = 1; i <= NF; i++) if ($i == "xlated") print $(i + 1) }' | head -1)
	wait $pid || true
	sysctl -qw kernel.bpf_stats_enabled=0
	echo "$name ${out:-0 0} ${xlated:-?}" >> bpfcost.txt
}
: > bpfcost.txt
if command -v bpftool > /dev/null; then
	bpf_cost probegen "$PROBEGEN" --trace -c "./loop 4000000"
	bpf_cost summary "$PROBEGEN" --trace --summary -n bench:event -c "./loop 4000000"
	bpf_cost pairs "$PROBEGEN" --trace --summary -c "./loop 4000000 pairs"
fi

python3 - "$N" <<'PY' | tee trace.md
import statistics, sys
n = int(sys.argv[1])
rows = {}
for l in open("runs.txt"):
    name, us, ns, lines = l.split()
    rows.setdefault(name, []).append((int(us) / 1e6, float(ns), int(lines)))
def med(name, i):
    return statistics.median(r[i] for r in rows[name])
floor_s, floor_ns = med("floor", 0), med("floor", 1)
print("The floor (bpftrace counting, the probe's own cost): **%.0f ns a firing** in the program, %.3f s the whole run." % (floor_ns, floor_s))
print()
print("| tracer | seconds | vs the floor | ns a firing in the program | vs the floor | events received | lost |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, label, counted in (("untraced", "untraced", False),
                             ("floor", "bpftrace `count()` only (the floor)", False),
                             ("probegen", "probegen --trace (every field, text)", True),
                             ("json", "probegen --trace --json (every field)", True),
                             ("summary", "probegen --trace --summary (counts in the kernel)", False),
                             ("metrics", "probegen --trace --metrics (counts in the kernel, served)", False),
                             ("metrics_by", "probegen --trace --metrics --by bench:event:name (counted by value in probegen)", False),
                             ("bpftrace", "bpftrace 0.17 `printf` (same fields)", True),
                             ("where_none", "probegen --trace --where 'a < 0' (rejects every firing in the kernel)", True),
                             ("where_glob_none", "probegen --trace --where 'name ~ \"x*\"' (a glob, rejects every firing)", True),
                             ("where_all", "probegen --trace --where 'a >= 0' (passes every firing, streamed)", True),
                             ("baseline", "the baseline's probegen --trace (BASELINE=REV)", True),
                             ("baseline_json", "the baseline's probegen --trace --json", True)):
    if name not in rows:
        continue
    s, ns = med(name, 0), med(name, 1)
    got = int(med(name, 2)) if counted else None
    print("| %s | %.3f | %.2fx | %.0f | %.2fx | %s | %s |" % (
        label, s, s / floor_s, ns, ns / floor_ns,
        got if counted else "(counted)" if name != "untraced" else "-",
        "%.1f%%" % (100.0 * (n - got) / n) if counted and "none" not in name else "-"))
print()
print("A server's firings (%d: %d requests, each its start, 8 headers passed as pointers into the request with their lengths, its end), every field streamed against counting them in the kernel:" % (n // 10 * 10, n // 10))
print()
print("| tracer | seconds | ns a firing in the program | vs counting | header events received |")
print("|---|---:|---:|---:|---:|")
sfloor = med("server_floor", 1)
for name, label in (("server_floor", "bpftrace `count()` (counting)"),
                    ("server_summary", "probegen --trace --summary (counting)"),
                    ("server", "probegen --trace (every field, text)"),
                    ("server_json", "probegen --trace --json (every field)")):
    print("| %s | %.3f | %.0f | %.2fx | %s |" % (label, med(name, 0), med(name, 1), med(name, 1) / sfloor,
                                             int(med(name, 2)) if name in ("server", "server_json") else "-"))
print()
print("--stack on %d firings (the loop's, 4 calls below main): the copy of 8 KiB of stack in the kernel and the walk in probegen, against streaming without it:" % (n // 10))
print()
print("| tracer | seconds | ns a firing in the program | events received | lost | events walked a second |")
print("|---|---:|---:|---:|---:|---:|")
for name, label in (("stack_base", "probegen --trace"), ("stack", "probegen --trace --stack")):
    s, ns, got = med(name, 0), med(name, 1), int(med(name, 2))
    print("| %s | %.3f | %.0f | %d | %.1f%% | %.0f |" % (label, s, ns, got, 100.0 * (n // 10 - got) / (n // 10), got / s))
print()
print("--stack under 60 frames of 1 KiB (20,000 firings): what the copy costs the program a firing, by --stack-bytes (the default 8 KiB and 16 KiB stop short of main; 64 KiB, perf's most, reaches it):")
print()
print("| tracer | ns a firing in the program | more than without --stack |")
print("|---|---:|---:|")
for name, label in (("deep_base", "probegen --trace"), ("deep_8k", "--stack (8 KiB)"),
                    ("deep_16k", "--stack --stack-bytes 16384"), ("deep_64k", "--stack --stack-bytes 65536")):
    print("| %s | %.0f | %.0f |" % (label, med(name, 1), med(name, 1) - med("deep_base", 1)))
print()
print("--stack at a steady rate (the loop paced, 2 seconds each): the events walked, and lost (the worst round); the highest rate with none lost is what it sustains. A process's first walk reads its binaries' CFI, symbols and DWARF (about 170 ms with libc6-dbg installed): the firings meanwhile wait in the ring, 64 MiB with --stack, room for about 7,900 of them (8 KiB of stack each; with 16 MiB, 25,000 a second lost a burst of 1,500 to 2,700):")
print()
print("| firings a second | sent | events received | lost |")
print("|---:|---:|---:|---:|")
for name, rate in (("stack_10k", 10000), ("stack_25k", 25000), ("stack_50k", 50000), ("stack_100k", 100000)):
    got = min(r[2] for r in rows[name])  # the worst round
    print("| %d | %d | %d | %.1f%% |" % (rate, 2 * rate, got, 100.0 * (2 * rate - got) / (2 * rate)))
print()
print("%d start/done pairs, each timed:" % n)
print()
print("| tracer | seconds | ns a pair in the program | pairs timed | vs bpftrace `hist()` (seconds, a pair) |")
print("|---|---:|---:|---:|---:|")
import re
def pairs_done(name):
    best = []
    for l in open(name + ".out"):
        m = re.search(r"(\d+) timed", l) or re.match(r"@n: (\d+)", l)
        if m:
            best.append(int(m.group(1)))
    return max(best) if best else 0
hs, hns = med("pairs_bpftrace", 0), med("pairs_bpftrace", 1)
for name, label in (("pairs_untraced", "untraced"),
                    ("pairs_summary", "probegen --trace --summary"),
                    ("pairs_bpftrace", "bpftrace 0.17 `hist()` by hand")):
    s, ns = med(name, 0), med(name, 1)
    print("| %s | %.3f | %.0f | %s | %s |" % (label, s, ns,
          pairs_done(name) if name != "pairs_untraced" else "-",
          "%.2fx, %.2fx" % (s / hs, ns / hns) if name != "pairs_untraced" else "-"))
print()
att = {}
for l in open("attach.txt"):
    tool, k, ready, total = l.split()
    att.setdefault((tool, int(k)), []).append((float(ready), float(total)))
print("Attaching K probes in a shared library (a program that loads it and fires none; medians of 3):")
print()
print("| probes | probegen: ready to trace | probegen: whole run | bpftrace 0.17: attached and ended |")
print("|---:|---:|---:|---:|")
for k in (1, 10, 100, 1000):
    p = att[("probegen", k)]
    b = att.get(("bpftrace", k))
    print("| %d | %.3f s | %.3f s | %s |" % (k, statistics.median(r[0] for r in p),
          statistics.median(r[1] for r in p),
          "%.3f s" % statistics.median(r[1] for r in b) if b else "(not run)"))
print()
soak = open("soak.txt").read().split()
if len(soak) == 7:
    firings, secs, rss0, rss1, scrapes, counted, lost = soak
    print("--metrics --by for a long run: %s firings in %s s, scraped %s times (every 100 ms); resident memory %s KiB at the start, %s KiB at the end; the last scrape counts %s, %s lost." % (
        "{:,}".format(int(firings)), secs, scrapes, rss0, rss1, "{:,}".format(int(counted or 0)), lost))
    print()
cost = [l.split() for l in open("bpfcost.txt")]
if cost:
    print("The BPF program a firing, by the kernel's statistics (`kernel.bpf_stats_enabled`: run_time_ns / run_cnt over 4,000,000 firings; the program's size, translated):")
    print()
    print("| run | ns a firing | firings counted | program size (bytes, translated) |")
    print("|---|---:|---:|---:|")
    for name, ns, cnt, xl in cost:
        label = {"probegen": "--trace (every field)", "summary": "--trace --summary",
                 "pairs": "--trace --summary, a start/done pair (a firing is half a pair)"}[name]
        print("| %s | %s | %s | %s |" % (label, ns, cnt, xl))
PY
