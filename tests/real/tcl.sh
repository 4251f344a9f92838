#!/bin/bash
# tests/real/tcl.sh - Tcl's Debian source (tcl8.6) built with probegen as
# its dtrace (unix/configure --enable-dtrace).  Its provider file declares
# structs after the provider, which SystemTap's parser cannot read.  The
# probes live in libtcl: a running tclsh is traced with bpftrace -p PID.
NAME=real_tcl
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
# REAL_KEEP=1 reuses the trees already built (when iterating on a script).
[ -n "${REAL_KEEP:-}" ] || rm -rf "$WORK"
mkdir -p "$WORK"
fetch_source tcl8.6

build() { # probegen|systemtap
	build_tree "$1" unix --enable-dtrace --enable-shared -- make -j2 binaries
}
build probegen
build systemtap
lib=$(ls "$WORK"/build-probegen/unix/libtcl*.so | head -1)
[ -n "$lib" ] || fail "no libtcl built"

declared_of "$SRC/generic/tclDTrace.d" > "$WORK/declared"
notes_of "$lib" > "$WORK/notes"
missing=$(comm -23 "$WORK/declared" "$WORK/notes")
[ -z "$missing" ] || fail "declared but not in libtcl: $missing"
notes_of "$(ls "$WORK"/build-systemtap/unix/libtcl*.so | head -1)" > "$WORK/notes-stap"
"$PROBEGEN" --check -s "$SRC/generic/tclDTrace.d" "$lib" > "$WORK/check" ||
	{ cat "$WORK/check"; fail "--check"; }
grep -v ': warning: ' "$WORK/check" && fail "--check printed an error"
diff -u "$WORK/notes-stap" "$WORK/notes" || fail "notes differ from the SystemTap build"

need_root_bpftrace
cat > "$WORK/loop.tcl" <<'TCL'
proc probegen_proc {n} { return [expr {$n * 2}] }
puts ready
flush stdout
for {set i 0} {$i < 400} {incr i} { probegen_proc $i; after 50 }
TCL
(cd "$WORK/build-probegen/unix" && LD_LIBRARY_PATH=$PWD TCL_LIBRARY=$SRC/library \
	exec ./tclsh "$WORK/loop.tcl") > "$WORK/tclsh.out" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
for i in $(seq 50); do grep -q ready "$WORK/tclsh.out" && break; sleep 0.1; done
timeout 30 bpftrace -p $pid -e "usdt:$lib:tcl:proc__entry {
	printf(\"entry %s %d\\n\", str(arg0), arg1); @n++; if (@n >= 3) { exit(); } }
	END { clear(@n); }" > "$WORK/trace" 2>&1
# Tcl passes the proc's argument count (objc - 1): one here.
grep -q '^entry ::probegen_proc 1$\|^entry probegen_proc 1$' "$WORK/trace" ||
	{ cat "$WORK/trace"; fail "no proc__entry traced"; }
ok "$VERSION, $(wc -l < "$WORK/notes") probes, traced '$(grep '^entry' "$WORK/trace" | head -1)', $(( $(date +%s) - start )) s"
