#!/bin/sh
# bench/tricks.sh [ROUNDS] - each piece of speed machinery in probegen
# against its plain version (issue 22's rule: it stays only if it saves
# 10% or more of the wall time on realistic files).  What is left is
# --trace's hand-written event formatter (numbers written by hand, not
# by printf); the compiler's tricks went at 0.94x-1.09x on the
# 2,000-probe file (BENCHMARKS.md) and their plain versions are the code.
# For each trick a copy of the tree gets the plain version, both
# binaries are built, and they run in turns; the figure is the median
# of the rounds' own ratios (plain/trick), as make bench measures, with
# the user CPU time beside it.  Needs root (it traces).  Writes
# bench/out/tricks.md.
set -e
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$ROOT/bench/out/tricks
ROUNDS=${1:-10}
rm -rf "$OUT" && mkdir -p "$OUT"
make -s > /dev/null
if [ "$(id -u)" != 0 ] || ! "$ROOT/probegen" --help | grep -q -- --trace; then
	echo "bench/tricks.sh: SKIP (needs root and a probegen built with --trace)" |
		tee "$OUT/../tricks.md"
	exit 0
fi
mountpoint -q /sys/kernel/tracing || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
"$ROOT/probegen" -h -s "$ROOT/bench/trace_loop.d" -o "$OUT/trace_loop.h"
"$ROOT/probegen" -G -s "$ROOT/bench/trace_loop.d" -o "$OUT/trace_loop_probes.o"
gcc -O2 -I"$OUT" "$ROOT/bench/trace_loop.c" "$OUT/trace_loop_probes.o" -o "$OUT/loop"

# plain NAME: a tree with the plain version of trick NAME, built.
plain() {
	t=$OUT/tree-$1
	mkdir -p "$t"
	git -C "$ROOT" ls-files -z --cached --others --exclude-standard |
		(cd "$ROOT" && xargs -0 tar -cf - --) | tar -xf - -C "$t"
	python3 - "$1" "$t" <<'PY'
import sys
name, t = sys.argv[1], sys.argv[2]
def edit(path, old, new):
    p = t + '/' + path
    s = open(p).read()
    a, b = s.index(old[0]), s.index(old[1])
    open(p, 'w').write(s[:a] + new + s[b:])
if name == 'formatter':
    # Numbers written by sprintf into the same line.
    edit('src/trace/events.c', ('static void put_u64', '/* Escaped for a quoted string'),
         'static void put_u64(struct line *l, unsigned long long v, int min_digits)\n'
         '{\n\tl->p += sprintf(l->p, "%0*llu", min_digits, v);\n}\n\n'
         'static void put_hex(struct line *l, unsigned long long v)\n'
         '{\n\tl->p += sprintf(l->p, "0x%llx", v);\n}\n\n')
    edit('src/trace/events.c', ('#include <stdlib.h>', '#include <stdlib.h>'), '#include <stdio.h>\n')
PY
	make -s -C "$t" > "$OUT/build-$1.log" 2>&1
	echo "$t/probegen"
}

# ratio TRICK-BINARY PLAIN-BINARY ARGS...: median over ROUNDS of
# time(plain)/time(trick), each timing the best of 3 runs; and the
# medians of each one's wall and user CPU time.
ratio() {
	python3 - "$ROUNDS" "$@" <<'PY'
import os, statistics, subprocess, sys, time
rounds, a, b, args = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
def run(p):
    best = (1e9, 0)
    for _ in range(3):
        u = os.times().children_user
        t = time.perf_counter()
        subprocess.run([p] + args, check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        best = min(best, (time.perf_counter() - t, os.times().children_user - u))
    return best
ratios, ta, tb = [], [], []
for r in range(rounds):
    x, y = (run(a), run(b)) if r % 2 == 0 else tuple(reversed((run(b), run(a))))
    ratios.append(y[0] / x[0]); ta.append(x); tb.append(y)
med = lambda rows, i: 1000 * statistics.median(r[i] for r in rows)
print("%.2fx %.0f %.0f %.0f %.0f" % (statistics.median(ratios), med(ta, 0), med(tb, 0), med(ta, 1), med(tb, 1)))
PY
}

cd "$OUT"
{
	echo "| trick | run | with it | plain | plain / with it | user CPU with it | plain |"
	echo "|---|---|---:|---:|---:|---:|---:|"
	for t in formatter; do
		p=$(plain $t)
		set -- $(ratio "$ROOT/probegen" "$p" --trace -c "./loop 1000000")
		echo "| $t | --trace of 1,000,000 firings | $2 ms | $3 ms | $1 | $4 ms | $5 ms |"
	done
} | tee "$OUT/../tricks.md"
# report.sh reads it as $OUT/tricks.md
