#!/bin/bash
# bench/trace.sh - probegen --trace against bpftrace 0.17 on one program
# firing bench:event (a string and 5 integers) a million times: events
# a second the tracer delivers, events lost, and the program's slowdown,
# next to the floor (a bpftrace program that only counts).  Medians of 3
# runs; output to files, counted.  Needs root; writes bench/out/trace.md.
set -eu
cd "$(dirname "$0")/.."
ROOT=$PWD
PROBEGEN=$ROOT/${PROBEGEN_BIN:-probegen}
OUT=$ROOT/bench/out/trace
N=${TRACE_EVENTS:-1000000}
mkdir -p "$OUT"
cd "$OUT"
"$PROBEGEN" -h -s "$ROOT/bench/trace_loop.d" -o trace_loop.h
"$PROBEGEN" -G -s "$ROOT/bench/trace_loop.d" -o trace_loop_probes.o
gcc -O2 -I. "$ROOT/bench/trace_loop.c" trace_loop_probes.o -o loop
[ "$(id -u)" = 0 ] || { echo "bench/trace.sh: needs root"; exit 0; }
mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true

# run NAME COMMAND...: seconds and the lines it wrote, 3 times.
run() {
	local name=$1 i s e
	shift
	: > "$name.runs"
	for i in 1 2 3; do
		s=$(date +%s%N)
		"$@" > "$name.out" 2> "$name.err" || true
		e=$(date +%s%N)
		echo "$(( (e - s) / 1000 )) $(grep -c "$name_pattern" "$name.out" || true)" >> "$name.runs"
	done
}
name_pattern=.
run untraced ./loop $N
name_pattern='bench:event'
run probegen "$PROBEGEN" --trace -c "./loop $N"
name_pattern='^probegen '
run bpftrace bpftrace -e 'usdt:./loop:bench:event { printf("probegen %s %d %d %u %d %d\n", str(arg0), arg1, arg2, arg3, arg4, arg5); }' -c "./loop $N"
name_pattern=.
run floor bpftrace -e 'usdt:./loop:bench:event { @c = count(); } END { print(@c); clear(@c); }' -c "./loop $N"
# --summary: counted in the kernel, like the floor.
name_pattern='^  bench:event '
run summary "$PROBEGEN" --trace --summary -n 'bench:event' -c "./loop $N"
# A start/done pair, N times: --summary against a hand-written hist().
name_pattern=.
run pairs_untraced ./loop $N pairs
name_pattern='timed'
run pairs_summary "$PROBEGEN" --trace --summary -c "./loop $N pairs"
name_pattern='^\['
run pairs_bpftrace bpftrace -e 'usdt:./loop:bench:work__start { @s[tid] = nsecs; }
	usdt:./loop:bench:work__done /@s[tid]/ { @ns = hist(nsecs - @s[tid]); @n = count(); delete(@s[tid]); }
	END { clear(@s); }' -c "./loop $N pairs"
python3 - "$N" <<'PY' | tee trace.md
import statistics, sys
n = int(sys.argv[1])
def runs(name):
    rows = [tuple(int(x) for x in l.split()) for l in open(name + ".runs")]
    return statistics.median(r[0] for r in rows) / 1e6, statistics.median(r[1] for r in rows)
base, _ = runs("untraced")
print("| tracer | seconds | events received | lost | events/s | slowdown |")
print("|---|---:|---:|---:|---:|---:|")
print("| untraced | %.3f | - | - | - | 1.0x |" % base)
for name, label, counted in (("probegen", "probegen --trace (all 6 fields)", True),
                             ("bpftrace", "bpftrace 0.17 printf (same fields)", True),
                             ("floor", "bpftrace count() only (the floor)", False)):
    t, lines = runs(name)
    got = lines if counted else n
    print("| %s | %.3f | %s | %s | %.0f | %.1fx |" % (label, t, got if counted else "(counted)",
          "%.1f%%" % (100.0 * (n - got) / n) if counted else "-", got / t, t / base))
floor, _ = runs("floor")
summ, _ = runs("summary")
print("| probegen --trace --summary (counts in the kernel) | %.3f | (counted) | - | %.0f | %.1fx |" % (summ, n / summ, summ / base))
print()
print("--summary against the count-only floor: %.2fx its time (goal: at most 1.2x)." % (summ / floor))
print()
# The timed pairs each tool reports: probegen's "N timed", bpftrace's @n.
def pairs_done(name):
    import re
    best = []
    for l in open(name + ".out"):
        m = re.search(r"(\d+) timed", l) or re.match(r"@n: (\d+)", l)
        if m:
            best.append(int(m.group(1)))
    return max(best) if best else 0
pbase, _ = runs("pairs_untraced")
print("| %d start/done pairs | seconds | pairs timed | lost | slowdown |" % n)
print("|---|---:|---:|---:|---:|")
print("| untraced | %.3f | - | - | 1.0x |" % pbase)
for name, label in (("pairs_summary", "probegen --trace --summary"),
                    ("pairs_bpftrace", "bpftrace 0.17 hist() by hand")):
    t, _ = runs(name)
    got = pairs_done(name)
    print("| %s | %.3f | %d | %.1f%% | %.1fx |" % (label, t, got, 100.0 * (n - got) / n, t / pbase))
PY
