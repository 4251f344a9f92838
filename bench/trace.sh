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
PY
