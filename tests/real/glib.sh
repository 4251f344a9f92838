#!/bin/bash
# tests/real/glib.sh - GLib's Debian source (a Meson project) built with
# -Ddtrace=true, once with probegen as its dtrace and once with
# SystemTap's: both libraries must carry the same probes (provider, name,
# argument count), and bpftrace traces glib:mem__alloc in a small program
# linked against the library built with probegen.
NAME=real_glib
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
[ -n "${REAL_KEEP:-}" ] || rm -rf "$WORK"
mkdir -p "$WORK"
for p in meson ninja; do command -v $p > /dev/null || skip "$p is not installed"; done
for p in libffi-dev libpcre2-dev zlib1g-dev; do
	dpkg -s $p > /dev/null 2>&1 || skip "$p is not installed"
done
fetch_source glib2.0

build() { # probegen|systemtap -> $WORK/build-$1
	meson_build "$1" -Ddtrace=true -Dtests=false -Dman=false -Dgtk_doc=false \
		-Dnls=disabled -Dlibmount=disabled -Dselinux=disabled -Dxattr=false \
		-Dlibelf=disabled -Dsysprof=disabled -- glib-2.0 gobject-2.0
}
build probegen
build systemtap

n=0
for lib in glib/libglib-2.0.so gobject/libgobject-2.0.so; do
	notes_of "$WORK/build-probegen/$lib" > "$WORK/notes"
	notes_of "$WORK/build-systemtap/$lib" > "$WORK/notes-stap"
	[ -s "$WORK/notes" ] || fail "no probes in $lib"
	diff -u "$WORK/notes-stap" "$WORK/notes" || fail "$lib: probes differ from the SystemTap build"
	n=$((n + $(wc -l < "$WORK/notes")))
done

need_root_bpftrace
b=$WORK/build-probegen
cat > "$WORK/prog.c" <<'C'
#include <glib.h>
int main(void)
{
	int i;

	for (i = 0; i < 1000; i++) {
		g_free(g_malloc(4242));
		g_usleep(20000);
	}
	return 0;
}
C
gcc -I"$SRC" -I"$SRC/glib" -I"$b/glib" -I"$b" "$WORK/prog.c" -L"$b/glib" -lglib-2.0 \
	-Wl,-rpath,"$b/glib" -o "$WORK/prog" || fail "building a program against the built GLib"
lib=$(readlink -f "$b/glib/libglib-2.0.so")
# bpftrace 0.17 cannot place this library's probes when it starts the
# program itself (-c), with GLib built by either dtrace; in a running
# process (-p) it can.
"$WORK/prog" &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
sleep 0.5
timeout 60 bpftrace -p $pid -e "usdt:$lib:glib:mem__alloc /arg1 == 4242/ {
	printf(\"mem__alloc %d bytes at %p\\n\", arg1, arg0); exit(); }" > "$WORK/trace" 2>&1
grep -q '^mem__alloc 4242 bytes at 0x' "$WORK/trace" || { tail "$WORK/trace"; fail "glib:mem__alloc not traced"; }
ok "$VERSION, $n probes in libglib and libgobject, the same as SystemTap's; traced '$(grep -m1 '^mem__alloc' "$WORK/trace")', $(( $(date +%s) - start )) s"
