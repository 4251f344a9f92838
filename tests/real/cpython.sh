#!/bin/bash
# tests/real/cpython.sh - CPython's Debian source built with probegen as
# its dtrace (./configure --with-dtrace: the BEGIN{} check, the header
# sed'ed PYTHON_ -> PyDTrace_, -G over the objects), checked against
# pydtrace.d and a SystemTap build, then a script traced with bpftrace.
NAME=real_cpython
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
# REAL_KEEP=1 reuses the trees already built (when iterating on a script).
[ -n "${REAL_KEEP:-}" ] || rm -rf "$WORK"
mkdir -p "$WORK"
fetch_source python3.11

# configure's BEGIN{} check must find that -G works.
build() { # probegen|systemtap
	build_tree "$1" . --with-dtrace --without-ensurepip -- \
		sh -c 'grep -q "ac_cv_dtrace_link=yes" config.log && make -j2 python'
}
build probegen
build systemtap
bin=$WORK/build-probegen/python

declared_of "$SRC/Include/pydtrace.d" > "$WORK/declared"
notes_of "$bin" > "$WORK/notes"
# pydtrace.d declares instance__new/delete probes CPython never fires: so
# every note must be declared (same argument count), and every declared
# probe must have its semaphore, which the -G object provides.
extra=$(comm -13 "$WORK/declared" "$WORK/notes")
[ -z "$extra" ] || fail "notes not declared as such in pydtrace.d: $extra"
for p in $(cut -d' ' -f1 "$WORK/declared" | cut -d: -f2); do
	readelf -sW "$bin" | grep -q " python_${p}_semaphore\$" || fail "no semaphore for $p"
done
notes_of "$WORK/build-systemtap/python" > "$WORK/notes-stap"
diff -u "$WORK/notes-stap" "$WORK/notes" || fail "notes differ from the SystemTap build"
# --check names the four instance__* probes CPython declares and never
# fires, and nothing else.
"$PROBEGEN" --check -s "$SRC/Include/pydtrace.d" "$bin" > "$WORK/check"
[ $? -eq 1 ] || { cat "$WORK/check"; fail "--check: exit status"; }
grep -v ': warning: ' "$WORK/check" | sed -e 's/^[^ ]*: //' -e 's/ (declared at [^)]*)$//' | sort > "$WORK/check-errors"
printf '%s\n' 'python:instance__delete__done: in none of the binaries' \
	'python:instance__delete__start: in none of the binaries' \
	'python:instance__new__done: in none of the binaries' \
	'python:instance__new__start: in none of the binaries' > "$WORK/check-want"
diff -u "$WORK/check-want" "$WORK/check-errors" || fail "--check: not the four never-fired probes"

need_root_bpftrace
# CPython 3.11 fires function__entry only on its tracing path, taken
# while a Python profile function is set (a 3.11 regression): set one.
cat > "$WORK/script.py" <<'PY'
import sys, time
def probegen_function(n):
    return n * 2
sys.setprofile(lambda frame, event, arg: None)
for i in range(50):
    probegen_function(i)
    time.sleep(0.02)
PY
cd "$WORK/build-probegen"
# bpftrace 0.17 cannot compare str() with a literal: filter here instead.
timeout 60 bpftrace -e "usdt:./python:python:function__entry {
	printf(\"entry %s line %d\\n\", str(arg1), arg2); }" \
	-c "./python $WORK/script.py" > "$WORK/trace" 2>&1
[ "$(grep -c '^entry probegen_function line 2$' "$WORK/trace")" -ge 3 ] ||
	{ tail "$WORK/trace"; fail "function__entry not traced"; }
# --summary of the function pair on a recursive script: every entry
# timed, the script's 1,973 calls of fib(15) among them, and its
# per-function table has them under fib.
cat > "$WORK/recurse.py" <<'PY'
import sys
calls = 0
def fib(n):
    global calls
    calls += 1
    return n if n < 2 else fib(n - 1) + fib(n - 2)
sys.setprofile(lambda frame, event, arg: None)
fib(15)
sys.setprofile(None)
print("calls", calls)
PY
# pydtrace.d names no argument: examples/runtimes/python.d does.
"$PROBEGEN" --trace --summary --json -s "$ROOT/examples/runtimes/python.d" -n 'python:function__*' -c "./python $WORK/recurse.py" \
	> "$WORK/summary.json" 2> "$WORK/summary.err" || { cat "$WORK/summary.err"; fail "--summary"; }
grep '^calls ' "$WORK/summary.json"
python3 - "$WORK/summary.json" > "$WORK/summary.check" <<'PY' || { cat "$WORK/summary.check"; fail "--summary: function pair"; }
import json, sys
lines = open(sys.argv[1]).read().splitlines()
calls = int([l for l in lines if l.startswith("calls ")][0].split()[1])
d = json.loads([l for l in lines if l.startswith("{")][0])
f = [p for p in d["pairs"] if p["work"] == "function"][0]
assert calls == 1973, calls
# Every entry is timed; besides fib's, CPython fires a few for its own
# code while the profile function is set.
assert f["count"] == d["probes"]["python:function__entry"]["count"], f
assert calls <= f["count"] <= calls + 10, (f["count"], calls)
# The per-function table: fib's calls, named by funcname.
n = {x["name"]: x["calls"] for x in f["names"]}
assert f["named_by"] == ["funcname"] and n["fib"] == calls, (f["named_by"], n)
print("function pair: %d timed, %d of them fib's, by name: %s" % (f["count"], calls, ", ".join("%s %d" % (x["name"], x["calls"]) for x in f["names"][:3])))
PY
# A real program's timeline, in a real viewer.
"$PROBEGEN" --trace --timeline "$WORK/timeline.json" -n 'python:function__*' -c "./python $WORK/recurse.py" \
	> /dev/null 2> "$WORK/timeline.err" || { cat "$WORK/timeline.err"; fail "--timeline"; }
"$ROOT/tests/speedscope.sh" "$WORK/timeline.json" > "$WORK/view.out" ||
	{ cat "$WORK/view.out"; fail "the timeline in speedscope"; }
ok "$VERSION, $(wc -l < "$WORK/notes") probes, timeline in speedscope: $(cat "$WORK/view.out"); --summary: $(grep '^function pair' "$WORK/summary.check"), traced '$(grep -m1 '^entry probegen_function' "$WORK/trace")', $(( $(date +%s) - start )) s"
