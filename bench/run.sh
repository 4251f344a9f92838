#!/bin/bash
# bench/run.sh - `make bench`: probegen against SystemTap's dtrace, side
# by side in the same run, and the cost of a probe site.  Writes
# bench/out/ and BENCHMARKS.md.  Needs hyperfine, valgrind, python3 and
# systemtap-sdt-dev (for dtrace).
set -eu
cd "$(dirname "$0")/.."
ROOT=$PWD
PROBEGEN=$ROOT/${PROBEGEN_BIN:-probegen}
OUT=$ROOT/bench/out
SIZES=${BENCH_SIZES:-4 100 2000 20000 100000}
rm -rf "$OUT" && mkdir -p "$OUT/dtrace-cwd"
for t in hyperfine valgrind python3 dtrace gcc clang /usr/bin/time; do
	command -v $t >/dev/null || { echo "bench: $t is needed (apt-get install hyperfine valgrind python3 systemtap-sdt-dev time clang)"; exit 2; }
done

median() { # hyperfine JSON files -> median seconds of all their runs
	python3 -c 'import json,statistics,sys; print(statistics.median(t for f in sys.argv[1:] for t in json.load(open(f))["results"][0]["times"]))' "$@"
}
# Peak resident memory of one run, in KiB (GNU time).
peak_kib() {
	/usr/bin/time -f %M -o "$OUT/rss" "$@" > /dev/null
	cat "$OUT/rss"
}
secs() { python3 -c "import sys; print(sys.argv[1] if not sys.argv[1][0].isdigit() else '%.4f' % float(sys.argv[1]))" "$1"; }
# time_cmd NAME RUNS COMMAND... -> median seconds, or "skip" past a minute
time_cmd() {
	local name=$1 runs=$2 start end
	shift 2
	start=$(date +%s%N)
	timeout 60 "$@" > /dev/null 2>&1 || {
		[ $? -eq 124 ] && echo skip || echo failed
		return
	}
	end=$(date +%s%N)
	# One run took more than 10 s: three runs are enough for a median.
	[ $(( (end - start) / 1000000000 )) -lt 10 ] || runs=3
	hyperfine -N --style none --warmup 1 --runs "$runs" \
		--export-json "$OUT/$name.json" "$*" > /dev/null 2>&1
	median "$OUT/$name.json"
}

# round R NAME RUNS WARMUP COMMAND...: one round's runs, in NAME.rR.json
round() {
	local r=$1 name=$2 runs=$3 warmup=$4
	shift 4
	hyperfine -N --style none --warmup "$warmup" --runs "$runs" \
		--export-json "$OUT/$name.r$r.json" "$*" > /dev/null 2>&1 ||
		{ echo "bench: $* failed" >&2; exit 1; }
}

echo "probegen $("$PROBEGEN" --version | cut -d' ' -f2) vs SystemTap dtrace $(dpkg-query -W -f '${Version}' systemtap-sdt-dev 2>/dev/null)"
: > "$OUT/results.tsv"
for kind in mixed plain; do
echo "== $kind files"
printf '%-8s %-10s %-10s %-8s %-10s %-10s %-8s %-9s %s\n' probes "pg -h" "stap -h" ratio "pg -G" "stap -G" ratio "pg KiB" "stap -G semaphores"
for n in $SIZES; do
	f=$OUT/p$n-$kind.d
	bench/gen.sh "$n" $kind > "$f"
	small=$([ "$n" -le 2000 ] && echo 1 || echo 0)
	if [ $small = 1 ]; then
		# Both tools in turn, five rounds: this machine has slow
		# stretches of a few seconds, which should fall on both.
		# probegen 100 runs in all, SystemTap 10.
		for r in 1 2 3 4 5; do
			round $r pg-h-$n-$kind 20 1 "$PROBEGEN" -h -s "$f" -o "$OUT/pg$n.h"
			round $r pg-G-$n-$kind 20 1 "$PROBEGEN" -G -s "$f" -o "$OUT/pg$n.o"
			# SystemTap's -G compiles in the current directory.
			# Its runs are long: one to warm up, in the first round.
			(cd "$OUT/dtrace-cwd" &&
			 round $r stap-h-$n-$kind 2 $((r == 1)) dtrace -h -s "$f" -o "$OUT/stap$n.h" &&
			 round $r stap-G-$n-$kind 2 $((r == 1)) dtrace -G -s "$f" -o "$OUT/stap$n.o")
		done
		ph=$(median "$OUT"/pg-h-$n-$kind.r*.json)
		pG=$(median "$OUT"/pg-G-$n-$kind.r*.json)
		sh=$(median "$OUT"/stap-h-$n-$kind.r*.json)
		sG=$(median "$OUT"/stap-G-$n-$kind.r*.json)
	else
		ph=$(time_cmd pg-h-$n-$kind 5 "$PROBEGEN" -h -s "$f" -o "$OUT/pg$n.h")
		pG=$(time_cmd pg-G-$n-$kind 5 "$PROBEGEN" -G -s "$f" -o "$OUT/pg$n.o")
		cd "$OUT/dtrace-cwd"
		sh=$(time_cmd stap-h-$n-$kind 3 dtrace -h -s "$f" -o "$OUT/stap$n.h")
		sG=$(time_cmd stap-G-$n-$kind 3 dtrace -G -s "$f" -o "$OUT/stap$n.o")
		cd "$ROOT"
	fi
	mem=$(peak_kib "$PROBEGEN" -h -s "$f" -o "$OUT/pg$n.h")
	sems=$( [ -e "$OUT/stap$n.o" ] && readelf -sW "$OUT/stap$n.o" | grep -c '_semaphore$' || echo "-")
	rh=$(python3 -c "import sys; a, b = sys.argv[1:]; print('%.0fx' % (float(b) / float(a)) if b[0].isdigit() else '-')" "$ph" "$sh")
	rG=$(python3 -c "import sys; a, b = sys.argv[1:]; print('%.0fx' % (float(b) / float(a)) if b[0].isdigit() else '-')" "$pG" "$sG")
	printf '%-8s %-10s %-10s %-8s %-10s %-10s %-8s %-9s %s\n' "$n" \
		"$(secs $ph)" "$(secs $sh)" "$rh" "$(secs $pG)" "$(secs $sG)" "$rG" \
		"$mem" "$sems of $n"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$ph" "$sh" "$rh" "$pG" "$sG" "$rG" "$mem" "$sems" "$kind" >> "$OUT/results.tsv"
done
done

# Growth: the slope of log(time) against log(size), where start-up no
# longer dominates (2,000 probes and up).
growth=$(python3 - "$OUT/results.tsv" <<'PY'
import math, sys
rows = [l.split('\t') for l in open(sys.argv[1])]
pts = [(math.log(int(r[0])), math.log(float(r[1]))) for r in rows
       if int(r[0]) >= 2000 and r[9].strip() == "mixed"]
if len(pts) < 2:
    print("n/a"); sys.exit()
mx = sum(p[0] for p in pts) / len(pts); my = sum(p[1] for p in pts) / len(pts)
print("%.2f" % (sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)))
PY
)
echo "growth exponent of probegen -h time (2,000 to largest): $growth (1.00 is linear)"

# Where probegen's time goes on 2,000 mixed probes: a process that only
# starts, the same runs writing to /dev/null (no file system) and to a
# file, in rounds as above; and the instructions each run and each of its
# stages execute (callgrind: the same on any machine load, so the
# numbers to watch for regressions).
f=$OUT/p2000-mixed.d
[ -e "$f" ] || bench/gen.sh 2000 mixed > "$f"
for r in 1 2 3 4 5; do
	round $r start 20 1 "$PROBEGEN" --version
	for m in h G; do
		round $r null-$m 20 1 "$PROBEGEN" -$m -s "$f" -o /dev/null
		round $r file-$m 20 1 "$PROBEGEN" -$m -s "$f" -o "$OUT/bd.$m"
	done
done
{
	printf 'start\t%s\n' "$(median "$OUT"/start.r*.json)"
	for m in h G; do
		printf 'null-%s\t%s\n' $m "$(median "$OUT"/null-$m.r*.json)"
		printf 'file-%s\t%s\n' $m "$(median "$OUT"/file-$m.r*.json)"
		valgrind --tool=callgrind --callgrind-out-file="$OUT/cg-$m.out" \
			"$PROBEGEN" -$m -s "$f" -o "$OUT/bd.$m" > /dev/null 2> "$OUT/cg-$m.log"
		printf 'instr-%s\t%s\n' $m "$(sed -n 's/.*Collected : //p' "$OUT/cg-$m.log")"
		printf 'bytes-%s\t%s\n' $m "$(stat -c %s "$OUT/bd.$m")"
		# Each stage main() calls, its callees included.
		callgrind_annotate --inclusive=yes --tree=calling "$OUT/cg-$m.out" |
			sed -n 's/^ *\([0-9,]*\) .*=> .*:\(parse_text\|check_program\|emit_header\|emit_object\) (1x)$/\2 \1/p' |
			sort -u | tr -d , | while read -r stage n; do
				printf 'stage-%s-%s\t%s\n' $m $stage $n
			done
	done
} > "$OUT/breakdown.tsv"

# The cost of a disabled probe site, in instructions (bench/site.sh).
OUT=$OUT bench/site.sh
# What including the header costs a translation unit (bench/compile.sh).
bench/compile.sh | tee "$OUT/compile.md"

# What the Rust module costs a crate (bench/rust.sh).
bench/rust.sh | tee "$OUT/rust.md"

# probegen --trace against bpftrace on a million firings (bench/trace.sh),
# and, with BASELINE=REV (make bench BASELINE=v0.1.0), against probegen
# built from REV in the same turns: the events each lost, side by side.
if [ -n "${BASELINE:-}" ]; then
	rm -rf "$OUT/baseline"
	git worktree add -f --detach "$OUT/baseline" "$BASELINE" > /dev/null
	make -C "$OUT/baseline" -s > /dev/null
	export PROBEGEN_BASELINE=$OUT/baseline/probegen
fi
bench/trace.sh
if [ -n "${BASELINE:-}" ]; then
	git worktree remove --force "$OUT/baseline"
fi

# What --budget saves a busy server: memcached under memcaslap, traced
# three ways in turns (bench/budget.sh).
bench/budget.sh | tee "$OUT/budget.md"

bench/report.sh "$growth" > BENCHMARKS.md
echo "wrote BENCHMARKS.md"
