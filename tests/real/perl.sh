#!/bin/bash
# tests/real/perl.sh - Perl 5.36's Debian source (perl, Debian's patches
# applied) configured with -Dusedtrace=PATH (Configure ignores
# -Ddtrace=PATH) and built once with probegen as that dtrace and once with
# SystemTap's.  Perl runs three -G passes over different object sets
# (miniperl, libperl, perl) and a sed over the header.  The two builds'
# notes must agree site by site; --check passes; a one-liner traced with
# `--trace -- ./perl -e '...'` shows sub names, files, lines and packages
# as strings; the bpftrace script probegen writes from the binary runs.
NAME=real_perl
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
[ -n "${REAL_KEEP:-}" ] || rm -rf "$WORK"
mkdir -p "$WORK"
fetch_source perl

build() { # probegen|systemtap -> $WORK/build-$1/perl
	local b=$WORK/build-$1 t0=$(date +%s)
	if [ -z "${REAL_KEEP:-}" ] || [ ! -d "$b" ]; then
		cp -a "$SRC" "$b"
		(cd "$b" && sh Configure -des -Dusedtrace="$(dtrace_dir "$1")/dtrace" \
			-Dprefix="$WORK/inst-$1" -Uusethreads -Dman1dir=none -Dman3dir=none \
			> configure.log 2>&1 && make -j2 perl > make.log 2>&1) ||
			{ tail -n 30 "$b"/configure.log "$b"/make.log 2>/dev/null; fail "build with $1's dtrace"; }
	fi
	grep -q "^usedtrace='define'" "$b/config.sh" || fail "Configure did not take -Dusedtrace with $1's dtrace"
	eval "time_$1=$(( $(date +%s) - t0 ))"
}
build probegen
build systemtap
bin=$WORK/build-probegen/perl
[ -x "$bin" ] || fail "no perl built"

same_sites perl
"$PROBEGEN" --check -s "$SRC/perldtrace.d" "$bin" > "$WORK/check" ||
	{ cat "$WORK/check"; fail "--check"; }
grep -v ': warning: ' "$WORK/check" && fail "--check printed an error"
warned=$(grep -c ': warning: ' "$WORK/check")

cd "$WORK/build-probegen"
timeout 120 "$PROBEGEN" --trace -n 'perl:sub__entry' -- ./perl -e \
	'sub greet { my ($who) = @_; return "hello $who" } greet($_) for qw(a b c);' \
	> "$WORK/trace" 2>&1 || { cat "$WORK/trace"; fail "--trace -- ./perl -e"; }
grep -Eq 'perl:sub__entry [a-z_0-9]+="greet" [a-z_0-9]+="-e" [a-z_0-9]+=1 [a-z_0-9]+="main"$' "$WORK/trace" ||
	{ head -20 "$WORK/trace"; fail "no sub__entry of greet with its file, line and package"; }
[ "$(grep -c '="greet"' "$WORK/trace")" = 3 ] || fail "greet is called 3 times: $(grep -c '="greet"' "$WORK/trace") traced"

# The per-sub table: main::greet's 3 calls, by package and sub (Perl's
# perldtrace.d names no argument: examples/runtimes/perl.d does).
timeout 120 "$PROBEGEN" --trace --summary --json -s "$ROOT/examples/runtimes/perl.d" -n 'perl:sub__*' -- ./perl -e \
	'sub greet { my ($who) = @_; return "hello $who" } greet($_) for qw(a b c);' \
	> "$WORK/summary.json" 2> "$WORK/summary.err" || { cat "$WORK/summary.err"; fail "--summary"; }
python3 - "$WORK/summary.json" > "$WORK/names" <<'PY' || { cat "$WORK/names"; fail "the per-sub table"; }
import json, sys
p = [x for x in json.load(open(sys.argv[1]))["pairs"] if x["start"] == "perl:sub__entry"][0]
n = {x["name"]: x["calls"] for x in p["names"]}
print(p["named_by"], n)
assert p["named_by"] == ["packagename", "subname"] and n.get("main::greet") == 3, n
PY

need_root_bpftrace
"$PROBEGEN" --bpftrace "$bin" -o "$WORK/perl.bt" || fail "--bpftrace BINARY"
# bpftrace's -c splits on blanks, quotes and all: the program in a file.
echo 'sub f {} f();' > "$WORK/f.pl"
timeout 120 bpftrace "$WORK/perl.bt" "$bin" -c "$bin $WORK/f.pl" > "$WORK/bt" 2>&1 ||
	{ tail "$WORK/bt"; fail "the generated bpftrace script"; }
grep -q 'perl:sub__entry arg0="f" arg1=".*/f.pl" arg2=1 arg3="main"' "$WORK/bt" ||
	{ tail "$WORK/bt"; fail "the script printed no sub__entry of f"; }
ok "$VERSION, $(wc -l < "$WORK/sites") sites, per sub: $(tail -1 "$WORK/names"), $warned size warnings, builds: probegen ${time_probegen} s, systemtap ${time_systemtap} s; traced '$(grep -m1 '="greet"' "$WORK/trace" | cut -d' ' -f3-)'; $(( $(date +%s) - start )) s"
