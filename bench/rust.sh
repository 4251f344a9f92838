#!/bin/bash
# bench/rust.sh - what probegen's Rust module costs the user's build, on
# Erlang's provider file (erts/emulator/beam/erlang_dtrace.d, 1,015
# probes, most with ten arguments, six of them strings), taken from
# Debian's erlang source package once and kept in
# ~/.cache/probegen-bench.  A crate that includes the module and fires
# nothing, compiled by rustc without and with -O, against an empty
# crate; and the C header for the same file, included by a C unit,
# against an empty unit.  Median seconds of BENCH_RUST_RUNS runs
# (hyperfine) and the peak resident memory of one run.  The issue's goals
# for the module (under 1 MB; under 5x the empty crate's time and under
# 150 MB) are checked in the last column.  Prints a Markdown table.
set -eu
cd "$(dirname "$0")/.."
ROOT=$PWD
PROBEGEN=$ROOT/${PROBEGEN_BIN:-probegen}
OUT=$ROOT/bench/out/rust
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/probegen-bench
RUNS=${BENCH_RUST_RUNS:-5}
mkdir -p "$OUT" "$CACHE"
command -v rustc > /dev/null || { echo "(not run: no rustc)"; exit 0; }

# Erlang's provider file, from the Debian source package (downloaded,
# never committed): only the one file is unpacked.
erlang_d() {
	local f=$CACHE/erlang_dtrace.d apt=$CACHE/apt
	[ -s "$f" ] && { echo "$f"; return; }
	mkdir -p "$apt/parts" "$apt/lists/partial" "$apt/src"
	sed 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources > "$apt/parts/src.sources" 2> /dev/null || return 1
	local opts="-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=$apt/parts -o Dir::State::Lists=$apt/lists"
	apt-get $opts -qq update > /dev/null 2>&1 &&
		(cd "$apt/src" && apt-get $opts source --download-only -qq erlang > /dev/null 2>&1) || return 1
	tar -xJf "$apt"/src/erlang_*.orig.tar.xz -C "$apt/src" --wildcards '*/erts/emulator/beam/erlang_dtrace.d' &&
		cp "$(find "$apt/src" -name erlang_dtrace.d | head -1)" "$f" && rm -rf "$apt/src" && echo "$f"
}
d=$(erlang_d) || { echo "(not run: cannot fetch Debian's erlang source for erlang_dtrace.d)"; exit 0; }

"$PROBEGEN" --rust -s "$d" -o "$OUT/erlang.rs"
"$PROBEGEN" -h -s "$d" -o "$OUT/erlang.h"
probes=$(grep -c 'pub fn [a-z0-9_]*_enabled()' "$OUT/erlang.rs")
printf 'include!("erlang.rs");\nfn main() {}\n' > "$OUT/module.rs"
printf 'fn main() {}\n' > "$OUT/empty.rs"
printf '#include "erlang.h"\nint main(void)\n{\n\treturn 0;\n}\n' > "$OUT/header.c"
printf 'int main(void)\n{\n\treturn 0;\n}\n' > "$OUT/empty.c"

# measure NAME COMMAND...: "seconds KiB" (median time, peak of one run)
measure() {
	local name=$1
	shift
	(cd "$OUT" && hyperfine -N --style none --warmup 1 --runs "$RUNS" \
		--export-json "$name.json" "$*" > /dev/null 2>&1) ||
		{ echo "bench: $* failed" >&2; exit 1; }
	(cd "$OUT" && /usr/bin/time -f %M -o "$name.kib" "$@" > /dev/null 2>&1)
	python3 -c 'import json,statistics,sys; print("%.3f" % statistics.median(json.load(open(sys.argv[1]))["results"][0]["times"]), open(sys.argv[2]).read().strip())' \
		"$OUT/$name.json" "$OUT/$name.kib"
}

rust=(rustc --edition 2021 --crate-type bin)
echo "| what | size | compile | ratio to empty | peak memory | goals (issue 24) |"
echo "|---|---:|---:|---:|---:|---|"
for opt in "" -O; do
	read -r te ke <<< "$(measure empty$opt "${rust[@]}" $opt -o empty$opt.bin empty.rs)"
	read -r tm km <<< "$(measure module$opt "${rust[@]}" $opt -o module$opt.bin module.rs)"
	size=$(stat -c %s "$OUT/erlang.rs")
	verdict=$(python3 -c '
import sys
size, tm, te, km = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
goals = [("size < 1 MB", size < 1e6), ("time < 5x", tm < 5 * te), ("memory < 150 MB", km < 150e3)]
print(", ".join(("met: " if ok else "NOT met: ") + g for g, ok in goals))' "$size" "$tm" "$te" "$km")
	echo "| empty crate, rustc ${opt:--O0} | | $te s | 1.0x | $((ke / 1024)) MB | |"
	echo "| Erlang's module ($probes probes), rustc ${opt:--O0} | $((size / 1024)) KB | $tm s | $(python3 -c "print('%.1fx' % ($tm / $te))") | $((km / 1024)) MB | $verdict |"
done
for opt in -O0 -O2; do
	read -r te ke <<< "$(measure cempty$opt gcc $opt -c -o cempty.o empty.c)"
	read -r th kh <<< "$(measure cheader$opt gcc $opt -c -o cheader.o header.c)"
	echo "| empty C unit, gcc $opt | | $te s | 1.0x | $((ke / 1024)) MB | |"
	echo "| C unit including Erlang's header, gcc $opt | $(( $(stat -c %s "$OUT/erlang.h") / 1024 )) KB | $th s | $(python3 -c "print('%.1fx' % ($th / $te))") | $((kh / 1024)) MB | |"
done

# UsdtLayer while nothing traces (bench/tracing-layer), built offline
# against Debian's tracing crates as the tests build the example.
if ls -d /usr/share/cargo/registry/tracing-subscriber-* > /dev/null 2>&1; then
	mkdir -p "$OUT/cargo-home"
	cp tests/cargo-debian.toml "$OUT/cargo-home/config.toml"
	rm -rf "$OUT/layer" && cp -r bench/tracing-layer "$OUT/layer"
	sed -i "s|path = \"../../build-systems|path = \"$ROOT/build-systems|" "$OUT/layer/Cargo.toml"
	(cd "$OUT/layer" && CARGO_HOME=$OUT/cargo-home PROBEGEN=$PROBEGEN cargo build --release -q) > "$OUT/layer.log" 2>&1 ||
		{ cat "$OUT/layer.log" >&2; exit 1; }
	echo
	echo "| nothing traces | no subscriber | registry() | with a layer that does nothing | with UsdtLayer | UsdtLayer adds |"
	echo "|---|---:|---:|---:|---:|---:|"
	"$OUT/layer/target/release/tracing-layer-bench" | while read -r what none plain identity layer; do
		printf '| %s | %s ns | %s ns | %s ns | %s ns | %s ns |\n' \
			"$([ $what = span ] && echo 'an #[instrument]ed call' || echo 'an info! event')" \
			"$none" "$plain" "$identity" "$layer" "$(python3 -c "print('%+.1f' % ($layer - $identity))")"
	done
else
	echo
	echo "(UsdtLayer not measured: librust-tracing-subscriber-dev is not installed)"
fi
