#!/bin/sh
# bench/tricks.sh [ROUNDS] - each piece of speed machinery in probegen
# against its plain version (issue 22's rule: it stays only if it saves
# 10% or more of the wall time on realistic files).  What is left is the
# huge-page arena; the memory file with sendfile for -G, RENAME_EXCHANGE
# and the packed block of names went at 0.97x-1.07x (BENCHMARKS.md),
# and their plain versions are now the code.  For each trick a
# copy of the tree gets the plain version, both binaries are built, and
# they run in turns on the 2,000-probe mixed file and a 20,000-probe
# one; the figure is the median of the rounds' own ratios (plain/trick),
# as make bench measures.  Writes bench/out/tricks.md.
set -e
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=$ROOT/bench/out/tricks
ROUNDS=${1:-60}
rm -rf "$OUT" && mkdir -p "$OUT"
make -s > /dev/null
bench/gen.sh 2000 > "$OUT/p2000.d"
bench/gen.sh 20000 > "$OUT/p20000.d"

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
    assert old in s, (name, old[:60])
    open(p, 'w').write(s.replace(old, new))
if name == 'arena':
    # Plain 64 KiB chunks from malloc, whatever the tree's size.
    edit('src/util.c', 'if (!a->chunks && first < HUGE_PAGE / 2 &&', 'if (1 || (!a->chunks && first < HUGE_PAGE / 2 &&')
    edit('src/util.c', '\t\t    n + sizeof(*c) <= first) {\n\t\t\tc = xcalloc(1, first);\n\t\t\tc->size = first - sizeof(*c);',
         '\t\t    n + sizeof(*c) <= first)) {\n\t\t\tfirst = n + sizeof(*c) > ARENA_FIRST_CHUNK ? n + sizeof(*c) : ARENA_FIRST_CHUNK;\n\t\t\tc = xcalloc(1, first);\n\t\t\tc->size = first - sizeof(*c);')
PY
	# Built as the main tree is (with --trace where it is): the same
	# libraries to load, so that only the trick differs.
	make -s -C "$t" > "$OUT/build-$1.log" 2>&1
	echo "$t/probegen"
}

# ratio TRICK-BINARY PLAIN-BINARY ARGS...: median over ROUNDS of
# time(plain)/time(trick), each timing the best of 3 runs.
ratio() {
	python3 - "$ROUNDS" "$@" <<'PY'
import statistics, subprocess, sys, time
rounds, a, b, args = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
def run(p):
    best = 1e9
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run([p] + args, check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - t)
    return best
ratios, ta, tb = [], [], []
for r in range(rounds):
    x, y = (run(a), run(b)) if r % 2 == 0 else tuple(reversed((run(b), run(a))))
    ratios.append(y / x); ta.append(x); tb.append(y)
print("%.2fx %.1f %.1f" % (statistics.median(ratios), 1000 * statistics.median(ta), 1000 * statistics.median(tb)))
PY
}

cd "$OUT"
{
	echo "| trick | file | with it | plain | plain / with it |"
	echo "|---|---|---:|---:|---:|"
	for t in arena; do
		p=$(plain $t)
		mode=-h ext=h
		for f in p2000 p20000; do
			"$ROOT/probegen" $mode -s $f.d -o out.$ext # an output to replace
			set -- $(ratio "$ROOT/probegen" "$p" $mode -s $f.d -o out.$ext)
			echo "| $t | $f.d ($mode) | $2 ms | $3 ms | $1 |"
		done
	done
} | tee "$OUT/../tricks.md"
# report.sh reads it as $OUT/tricks.md
