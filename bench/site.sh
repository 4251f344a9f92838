#!/bin/bash
# bench/site.sh - the cost of a disabled probe site (bench/site.c), in
# instructions counted by callgrind inside the loop: each form (the
# SystemTap-style macro, the typed call, the lazy form) with a string
# argument the program computed, and with a string literal.  Writes
# $OUT/site.tsv and prints the table (also $OUT/site.txt).
set -eu
cd "$(dirname "$0")/.."
ROOT=$PWD
PROBEGEN=$ROOT/${PROBEGEN_BIN:-probegen}
OUT=${OUT:-$ROOT/bench/out}
mkdir -p "$OUT"
cd "$OUT"
"$PROBEGEN" -h -s "$ROOT/bench/site.d" -o site.h
"$PROBEGEN" -G -s "$ROOT/bench/site.d" -o site_probes.o
: > site.tsv
for form in 0:none 1:macro 2:typed 3:lazy 1:macro-literal 2:typed-literal 3:lazy-literal; do
	id=${form%%:*} name=${form#*:}
	literal=0
	[ "${name%-literal}" = "$name" ] || literal=1
	gcc -O2 -DFORM=$id -DLITERAL=$literal -I. "$ROOT/bench/site.c" site_probes.o -o site-$name
	valgrind --tool=callgrind --callgrind-out-file=cg-$name.out --toggle-collect=run_loop ./site-$name > /dev/null 2> cg-$name.log
	ir=$(sed -n 's/.*Collected : //p' cg-$name.log)
	code=$(nm -S site-$name | awk '$4 == "run_loop" { print $2 }')
	notes=$(readelf -SW site-$name | sed -n 's/^ *\[ *[0-9]*\] *//p' | awk '$1 == ".note.stapsdt" { print $5 }')
	printf '%s\t%s\t%d\t%d\n' "$name" "$ir" $((16#$code)) $((16#${notes:-0})) >> site.tsv
done
objdump -d --no-show-raw-insn site-lazy | awk '/<run_loop>:/,/^$/' > lazy.asm
objdump -d --no-show-raw-insn site-macro | awk '/<run_loop>:/,/^$/' > macro.asm
python3 - "$OUT/site.tsv" <<'PY' | tee "$OUT/site.txt"
import sys
rows = {r[0]: r[1:] for r in (l.split('\t') for l in open(sys.argv[1]).read().split('\n') if l)}
base_ir, base_code, _ = (int(x) for x in rows['none'])
print("%-14s %14s %10s %12s %12s" % ("form", "instructions", "per iter", "code bytes", "note bytes"))
for name in ('none', 'macro', 'typed', 'lazy', 'macro-literal', 'typed-literal', 'lazy-literal'):
    ir, code, notes = (int(x) for x in rows[name])
    print("%-14s %14d %+10.2f %+12d %12d" % (name, ir, (ir - base_ir) / 1e6, code - base_code, notes))
PY
