#!/bin/bash
# bench/compile.sh - what including the header costs the user: a
# translation unit that includes a generated header and fires three
# probes, compiled alone (-c), with SystemTap's header and with
# probegen's (default, --header-only, --self-contained, and both), under gcc and
# clang at -O0 and -O2, for plain files of 50, 500 and 2,000 probes.
# The five compiles of one configuration take turns, 20 rounds, so that
# this machine's slow stretches fall on all of them; a ratio is the
# median of the rounds' ratios (a slow stretch then moves both sides of
# one ratio, not one side of a median).  Writes bench/out/compile.tsv
# (median seconds, peak KiB, median ratio to SystemTap's) and prints a
# table.
set -eu
cd "$(dirname "$0")/.."
ROOT=$PWD
PROBEGEN=$ROOT/${PROBEGEN_BIN:-probegen}
OUT=$ROOT/bench/out/compile
ROUNDS=${COMPILE_ROUNDS:-20}
mkdir -p "$OUT"
: > "$OUT/../compile.tsv"
forms="stap default header-only self-contained both"
for n in ${COMPILE_SIZES:-50 500 2000}; do
	bench/gen.sh "$n" plain > "$OUT/p$n.d"
	(cd "$OUT" && dtrace -h -s "p$n.d" -o "stap$n.h")
	for form in default header-only self-contained both; do
		case $form in
		default) flags= ;;
		both) flags="--header-only --self-contained" ;;
		*) flags=--$form ;;
		esac
		"$PROBEGEN" -h $flags \
			-s "$OUT/p$n.d" -o "$OUT/$form$n.h"
	done
	for form in $forms; do
		printf '#include "%s%s.h"\nint f(int x, char *s, void *p);\nint f(int x, char *s, void *p)\n{\n\tBENCH0_P1_EVENT(x);\n\tBENCH0_P2_EVENT(x, s);\n\tBENCH0_P5_EVENT(p, x, (unsigned char)x, (unsigned)x, (long)x);\n\treturn 0;\n}\n' \
			$form $n > "$OUT/unit-$form$n.c"
		printf '%s\t' $form >> "$OUT/../compile.tsv.bytes.$n"
		wc -c < "$OUT/$form$n.h" >> "$OUT/../compile.tsv.bytes.$n"
	done
	for cc in gcc clang; do
		for opt in -O0 -O2; do
			python3 - "$OUT" "$n" "$cc" "$opt" "$ROUNDS" $forms <<'PY' >> "$OUT/../compile.tsv"
import os, statistics, subprocess, sys, time
out, n, cc, opt, rounds, forms = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6:]
t = {f: [] for f in forms}; rss = {f: 0 for f in forms}
for r in range(rounds + 1):
    for f in forms:
        unit = os.path.join(out, "unit-%s%s.c" % (f, n))
        s = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M", cc, opt, "-c", unit,
                            "-o", os.path.join(out, "unit.o")], capture_output=True, text=True)
        e = time.perf_counter() - s
        if p.returncode != 0:
            sys.exit("bench/compile.sh: %s %s %s failed:\n%s" % (cc, opt, unit, p.stderr))
        if r:  # the first round warms the caches
            t[f].append(e)
            rss[f] = max(rss[f], int(p.stderr.strip().split("\n")[-1]))
for f in forms:
    ratio = statistics.median(a / b for a, b in zip(t[f], t["stap"]))
    print("%s\t%s\t%s\t%s\t%.4f\t%d\t%.3f" % (n, cc, opt, f, statistics.median(t[f]), rss[f], ratio))
PY
		done
	done
done
python3 - "$OUT/../compile.tsv" "$OUT/.." <<'PY'
import sys, os
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
sizes = {}
for n in sorted({r[0] for r in rows}, key=int):
    for l in open(os.path.join(sys.argv[2], "compile.tsv.bytes." + n)):
        f, b = l.split()
        sizes[(n, f)] = int(b)
print("| probes | compiler | stap | probegen | ratio | stap KiB | probegen KiB | ratio | --header-only | --self-contained | both |")
print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
by = {(r[0], r[1], r[2], r[3]): (float(r[4]), int(r[5]), float(r[6])) for r in rows}
for (n, cc, opt, f) in sorted({(r[0], r[1], r[2], "x") for r in rows}, key=lambda k: (int(k[0]), k[1], k[2])):
    st, stm, _ = by[(n, cc, opt, "stap")]
    pg, pgm, pgr = by[(n, cc, opt, "default")]
    ho, _, hor = by[(n, cc, opt, "header-only")]
    sc, _, scr = by[(n, cc, opt, "self-contained")]
    bo, _, bor = by[(n, cc, opt, "both")]
    print("| %s | %s %s | %.3f s | %.3f s | %.2fx | %d | %d | %.2fx | %.3f s (%.2fx) | %.3f s (%.2fx) | %.3f s (%.2fx) |" % (
        n, cc, opt, st, pg, pgr, stm, pgm, pgm / stm, ho, hor, sc, scr, bo, bor))
print()
print("| probes | stap header | probegen header | ratio | --header-only | --self-contained | both |")
print("|---:|---:|---:|---:|---:|---:|---:|")
for n in sorted({r[0] for r in rows}, key=int):
    s = sizes[(n, "stap")]
    print("| %s | %d B | %d B | %.2fx | %d B | %d B | %d B |" % (n, s, sizes[(n, "default")], sizes[(n, "default")] / s,
          sizes[(n, "header-only")], sizes[(n, "self-contained")], sizes[(n, "both")]))
PY
rm -f "$OUT"/../compile.tsv.bytes.*
