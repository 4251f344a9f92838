#!/bin/bash
# tests/real/php.sh - PHP 8.2's Debian source (php8.2) configured
# --disable-all --enable-dtrace and built (the CLI) once with probegen as
# `dtrace` first on PATH (PHP's build calls it by name: -h over
# Zend/zend_dtrace.d, then -G over the objects libtool lists, some of
# them not built yet) and once with SystemTap's.  The two builds' notes
# must agree site by site; --check passes; a script traced with
# USE_ZEND_DTRACE=1 (PHP fires its probes only then) gives the
# per-function table: each of its functions and methods (Class::method)
# named with its call count.
NAME=real_php
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
[ -n "${REAL_KEEP:-}" ] || rm -rf "$WORK"
mkdir -p "$WORK"
fetch_source php8.2

build() { # probegen|systemtap -> $WORK/build-$1/sapi/cli/php
	local b=$WORK/build-$1 t0=$(date +%s) d
	d=$(dtrace_dir "$1")
	if [ -z "${REAL_KEEP:-}" ] || [ ! -x "$b/sapi/cli/php" ]; then
		rm -rf "$b"
		cp -a "$SRC" "$b"
		(cd "$b" && export PATH="$d:$PATH" &&
			./configure --disable-all --enable-dtrace --disable-cgi --disable-phpdbg \
				--without-pear > configure.log 2>&1 &&
			make -j2 > make.log 2>&1) ||
			{ tail -n 30 "$b"/configure.log "$b"/make.log 2>/dev/null; fail "build with $1's dtrace"; }
	fi
	grep -q 'zend_dtrace' "$b/make.log" || fail "PHP's build ran no dtrace ($1)"
	eval "time_$1=$(( $(date +%s) - t0 ))"
}
build probegen
build systemtap
bin=$WORK/build-probegen/sapi/cli/php
[ -x "$bin" ] || fail "no php built"
same_sites sapi/cli/php
"$PROBEGEN" --check -s "$SRC/Zend/zend_dtrace.d" "$bin" > "$WORK/check" ||
	{ cat "$WORK/check"; fail "--check"; }
grep -v ': warning: ' "$WORK/check" && fail "--check printed an error"

# A script of known calls: a function, a static method and a method.
cat > "$WORK/calls.php" <<'PHP'
<?php
function leaf($n) { return $n + 1; }
class Shape {
    public static function make() { return new Shape(); }
    public function area() { return leaf(1); }
}
for ($i = 0; $i < 7; $i++) { leaf($i); }
$s = Shape::make();
for ($i = 0; $i < 11; $i++) { $s->area(); }
PHP
USE_ZEND_DTRACE=1 timeout 120 "$PROBEGEN" --trace --summary --json -n 'php:function__*' \
	-c "$bin $WORK/calls.php" > "$WORK/summary.json" 2> "$WORK/summary.err" ||
	{ cat "$WORK/summary.err"; fail "--trace --summary of a script"; }
USE_ZEND_DTRACE=1 timeout 120 "$PROBEGEN" --trace --summary -n 'php:function__*' \
	-c "$bin $WORK/calls.php" > "$WORK/summary.txt" 2>&1 || fail "--summary, text"
python3 - "$WORK/summary.json" > "$WORK/names" <<'PY' || { cat "$WORK/names"; fail "the per-function table"; }
import json, sys
d = json.load(open(sys.argv[1]))
p = [x for x in d["pairs"] if x["start"] == "php:function__entry"][0]
n = {x["name"]: x["calls"] for x in p["names"]}
print(p["named_by"], n)
assert p["named_by"] == ["classname", "function_name"], p["named_by"]
assert n.get("leaf") == 18 and n.get("Shape::make") == 1 and n.get("Shape::area") == 11, n
assert p["unmatched_ends"] == 0 and p["unended_starts"] == 0, p
PY
sed -n '/by name/,$p' "$WORK/summary.txt" | head -8
ok "$VERSION, $(wc -l < "$WORK/sites") sites, builds: probegen ${time_probegen} s, systemtap ${time_systemtap} s; per function: $(tail -1 "$WORK/names" | cut -c1-200); $(( $(date +%s) - start )) s"
