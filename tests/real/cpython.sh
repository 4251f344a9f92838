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

build() { # probegen|systemtap
	local b=$WORK/build-$1
	[ -n "${REAL_KEEP:-}" ] && [ -d "$b" ] && return
	cp -a "$SRC" "$b"
	(cd "$b" && DTRACE=$(dtrace_dir $1)/dtrace ./configure --with-dtrace \
		--without-ensurepip > configure.log 2>&1 &&
		grep -q 'ac_cv_dtrace_link=yes' config.log &&
		make -j2 python > make.log 2>&1) ||
		{ tail -n 30 "$b"/*.log; fail "build with $1's dtrace"; }
}
build probegen
build systemtap
bin=$WORK/build-probegen/python

declared_of "$SRC/Include/pydtrace.d" > "$WORK/declared"
notes_of "$bin" > "$WORK/notes"
missing=$(comm -23 "$WORK/declared" "$WORK/notes")
[ -z "$missing" ] || fail "declared but not in python: $missing"
notes_of "$WORK/build-systemtap/python" > "$WORK/notes-stap"
diff -u "$WORK/notes-stap" "$WORK/notes" || fail "notes differ from the SystemTap build"

need_root_bpftrace
cat > "$WORK/script.py" <<'PY'
import time
def probegen_function(n):
    return n * 2
for i in range(100):
    probegen_function(i)
    time.sleep(0.02)
PY
cd "$WORK/build-probegen"
timeout 60 bpftrace -e "usdt:./python:python:function__entry
	/str(arg1) == \"probegen_function\"/ { printf(\"entry %s line %d\\n\", str(arg1), arg2); @n++;
	if (@n >= 3) { exit(); } } END { clear(@n); }" -c "./python $WORK/script.py" > "$WORK/trace" 2>&1
grep -q '^entry probegen_function line 2$' "$WORK/trace" || { cat "$WORK/trace"; fail "function__entry not traced"; }
ok "$VERSION, $(wc -l < "$WORK/notes") probes, traced '$(grep -m1 '^entry' "$WORK/trace")', $(( $(date +%s) - start )) s"
