#!/bin/bash
# tests/real/ruby.sh - Ruby 3.1's Debian source (ruby3.1, Debian's
# patches applied) configured --enable-dtrace and built once with
# probegen as its dtrace (configure's DTRACE=) and once with SystemTap's.
# Ruby runs `dtrace -xnolibs -h -C -I... -s probes.d`, rewrites the header
# with sed, and links the -G object of its core.  The two builds' notes
# must agree site by site (sizes and signs); --check passes, with the
# size warnings listed below, which are what Ruby's source passes; a
# one-liner traced with `--trace -- ./ruby -e '...'` shows method names,
# files and lines as strings (Ruby 3.1 fires method__entry only while a
# :call TracePoint exists, so the one-liner makes one); the bpftrace
# script probegen writes from the binary runs.
NAME=real_ruby
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
[ -n "${REAL_KEEP:-}" ] || rm -rf "$WORK"
mkdir -p "$WORK"
fetch_source ruby3.1

build() { # probegen|systemtap -> $WORK/build-$1/ruby
	local t0=$(date +%s)
	# DTRACE= as configure's argument: from the environment, configure
	# takes the dtrace on PATH.
	build_tree "$1" . --enable-dtrace --disable-install-doc --disable-rubygems \
		--without-gmp DTRACE="$(dtrace_dir "$1")/dtrace" -- make -j2 ruby
	grep -q "^DTRACE *= *$(dtrace_dir "$1")/dtrace" "$WORK/build-$1/Makefile" ||
		fail "configure did not take $1's dtrace"
	eval "time_$1=$(( $(date +%s) - t0 ))"
}
build probegen
build systemtap
bin=$WORK/build-probegen/ruby
[ -x "$bin" ] || fail "no ruby built"

sites_of "$bin" > "$WORK/sites"
sites_of "$WORK/build-systemtap/ruby" > "$WORK/sites-stap"
[ -s "$WORK/sites" ] || fail "no probes in ruby"
diff -u "$WORK/sites-stap" "$WORK/sites" || fail "sites differ from the SystemTap build"

# --check: every probe of probes.d; the warnings are Ruby's own calls,
# site by site: a literal 0 (4 bytes) for a long, and sizes passed as
# unsigned size_t where probes.d says long.
# Ruby preprocesses probes.d (-C, its vm_opts.h decides the insn probes).
"$PROBEGEN" --check -C -I"$SRC" -s "$SRC/probes.d" "$bin" > "$WORK/check" ||
	{ cat "$WORK/check"; fail "--check"; }
grep -v ': warning: ' "$WORK/check" && fail "--check printed an error"
grep -o 'ruby:[a-z_]*: warning: site' "$WORK/check" | sort -u | sed 's/: warning: site//' > "$WORK/warned"
expected_warnings="ruby:array__create ruby:hash__create ruby:string__create"
for p in $(cat "$WORK/warned"); do
	case " $expected_warnings " in *" $p "*) ;; *) cat "$WORK/check"; fail "unexpected warning for $p" ;; esac
done
"$PROBEGEN" --list "$bin" > "$WORK/list" || fail "--list"
awk '/^  ruby:hash__create/ { on = 1; print; next } /^  [a-z]/ { on = 0 } on' "$WORK/list" > "$WORK/hash_create"

# A one-liner, its arguments as the user typed them.
cd "$WORK/build-probegen"
timeout 120 "$PROBEGEN" --trace -n 'ruby:method__entry' -- ./ruby --disable-gems -e \
	'TracePoint.new(:call) {}.enable; def fib(n) n < 2 ? n : fib(n - 1) + fib(n - 2) end; fib(5)' \
	> "$WORK/trace" 2>&1 || { cat "$WORK/trace"; fail "--trace -- ./ruby -e"; }
grep -Eq 'ruby:method__entry [a-z_0-9]+="Object" [a-z_0-9]+="fib" [a-z_0-9]+="-e" [a-z_0-9]+=1$' "$WORK/trace" ||
	{ head -20 "$WORK/trace"; fail "no method__entry of fib with its file and line"; }
[ "$(grep -c '="fib"' "$WORK/trace")" = 15 ] || fail "fib(5) makes 15 calls: $(grep -c '="fib"' "$WORK/trace") traced"

# The per-method table: Object::fib's 15 calls, by class and method
# (method__return fires only while a :return TracePoint exists).
timeout 120 "$PROBEGEN" --trace --summary --json -n 'ruby:method__*' -- ./ruby --disable-gems -e \
	'TracePoint.new(:call, :return) {}.enable; def fib(n) n < 2 ? n : fib(n - 1) + fib(n - 2) end; fib(5)' \
	> "$WORK/summary.json" 2> "$WORK/summary.err" || { cat "$WORK/summary.err"; fail "--summary"; }
python3 - "$WORK/summary.json" > "$WORK/names" <<'PY' || { cat "$WORK/names"; fail "the per-method table"; }
import json, sys
p = [x for x in json.load(open(sys.argv[1]))["pairs"] if x["start"] == "ruby:method__entry"][0]
n = {x["name"]: x["calls"] for x in p["names"]}
print(p["named_by"], n)
assert p["named_by"] == ["classname", "methodname"] and n.get("Object::fib") == 15, n
PY

need_root_bpftrace
"$PROBEGEN" --bpftrace "$bin" -o "$WORK/ruby.bt" || fail "--bpftrace BINARY"
# bpftrace's -c splits on blanks, quotes and all: the program in a file.
echo 'TracePoint.new(:call) {}.enable; def f; end; f' > "$WORK/f.rb"
timeout 120 bpftrace "$WORK/ruby.bt" "$bin" -c "$bin --disable-gems $WORK/f.rb" > "$WORK/bt" 2>&1 ||
	{ tail "$WORK/bt"; fail "the generated bpftrace script"; }
grep -q 'ruby:method__entry classname="Object" methodname="f" filename=".*/f.rb" lineno=1' "$WORK/bt" ||
	{ tail "$WORK/bt"; fail "the script printed no method__entry of f"; }
ok "$VERSION, $(wc -l < "$WORK/sites") sites, per method: $(tail -1 "$WORK/names"), warnings for $(tr '\n' ' ' < "$WORK/warned")(expected), builds: probegen ${time_probegen} s, systemtap ${time_systemtap} s; traced '$(grep -m1 '="fib"' "$WORK/trace" | cut -d' ' -f3-)'; $(( $(date +%s) - start )) s"
