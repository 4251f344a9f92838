#!/bin/bash
# tests/real/gjs.sh - gjs (GNOME's JavaScript bindings, C++) from Debian's
# source, built as a new user would: `meson setup -Ddtrace=true
# -Dsystemtap=true` with the optional parts off and probegen as `dtrace`
# on PATH, nothing edited by hand.  Its probe sites pass a C++ smart
# pointer by value (`GJS_OBJECT_WRAPPER_NEW(this, m_ptr, ...)`), which
# must compile as it does with SystemTap's header.  libgjs's notes are
# compared with a build with SystemTap's dtrace, `--check` passes, and a
# script that creates and collects 100 GObjects is traced: 100 of each
# probe, and `--pair` by arg0 (the .d names no parameters) times all 100.
NAME=real_gjs
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
[ -n "${REAL_KEEP:-}" ] || rm -rf "$WORK"
mkdir -p "$WORK"
for p in meson ninja; do command -v $p > /dev/null || skip "$p is not installed"; done
for p in libmozjs-102-dev libgirepository1.0-dev libglib2.0-dev libffi-dev; do
	dpkg -s $p > /dev/null 2>&1 || skip "$p is not installed"
done
fetch_source gjs

build() { # probegen|systemtap -> $WORK/build-$1
	meson_build "$1" -Ddtrace=true -Dsystemtap=true \
		-Dcairo=disabled -Dreadline=disabled -Dprofiler=disabled \
		-Dinstalled_tests=false -Dskip_dbus_tests=true -Dskip_gtk_tests=true \
		-- gjs-console GjsPrivate-1.0.typelib
}
build probegen
build systemtap
b=$WORK/build-probegen
lib=$(cd "$b" && ls libgjs.so.0.* 2>/dev/null | head -1)
[ -n "$lib" ] || fail "no libgjs built"
notes_of "$b/$lib" > "$WORK/notes"
notes_of "$WORK/build-systemtap/$lib" > "$WORK/notes-stap"
[ -s "$WORK/notes" ] || fail "no probes in $lib"
diff -u "$WORK/notes-stap" "$WORK/notes" || fail "probes differ from the SystemTap build"
same_sites "$lib"
# The smart pointer is read in memory, 8 bytes, as SystemTap's build reads it.
readelf -nW "$b/$lib" | grep -q 'Arguments: 8@%[a-z0-9]* 8@[-0-9]*(%[a-z0-9]*) ' ||
	{ readelf -nW "$b/$lib" | grep Arguments; fail "m_ptr is not read in memory"; }
"$PROBEGEN" --check -s "$SRC/gi/gjs_gi_probes.d" "$b/$lib" > "$WORK/check" 2>&1 ||
	{ cat "$WORK/check"; fail "--check"; }

need_root_bpftrace
cat > "$WORK/objects.js" <<'JS'
const GObject = imports.gi.GObject;
const System = imports.system;
let objects = [];
for (let i = 0; i < 100; i++)
    objects.push(new GObject.Object());
objects = null;
System.gc();
System.gc();
JS
gjs=$b/gjs-console
export GI_TYPELIB_PATH=$b # GjsPrivate's typelib, from the build tree
"$PROBEGEN" --trace -n 'gjs:*' -- "$gjs" "$WORK/objects.js" > "$WORK/trace" 2> "$WORK/trace.err" ||
	{ cat "$WORK/trace.err"; fail "--trace"; }
new=$(grep -c ' gjs:object__wrapper__new ' "$WORK/trace")
fin=$(grep -c ' gjs:object__wrapper__finalize ' "$WORK/trace")
[ "$new" = 100 ] && [ "$fin" = 100 ] ||
	{ head -5 "$WORK/trace"; fail "traced $new object__wrapper__new and $fin object__wrapper__finalize, not 100 each"; }
grep -q ' gjs:object__wrapper__new arg0=0x[0-9a-f]* arg1=0x[0-9a-f]* arg2="GObject" arg3="Object"$' "$WORK/trace" ||
	{ head -3 "$WORK/trace"; fail "object__wrapper__new's arguments"; }
# m_ptr, the smart pointer read in memory, holds each new wrapper's
# GObject; at finalize it is already released, in SystemTap's build too.
[ "$(grep ' gjs:object__wrapper__new ' "$WORK/trace" | grep -c ' arg1=0x[1-9a-f][0-9a-f]* ')" = 100 ] ||
	fail "object__wrapper__new: m_ptr is not a pointer in every firing"
GI_TYPELIB_PATH=$WORK/build-systemtap "$PROBEGEN" --trace -n 'gjs:*' -- \
	"$WORK/build-systemtap/gjs-console" "$WORK/objects.js" > "$WORK/trace-stap" 2>&1 ||
	fail "--trace on SystemTap's build"

m_new=$(grep -c ' gjs:object__wrapper__new arg0=[0-9]* arg1=[1-9]' "$WORK/trace-stap")
m_fin_stap=$(grep ' gjs:object__wrapper__finalize ' "$WORK/trace-stap" | grep -c ' arg1=0 ')
m_fin=$(grep ' gjs:object__wrapper__finalize ' "$WORK/trace" | grep -c ' arg1=0x0 ')
[ "$m_new" = 100 ] && [ "$m_fin" = "$m_fin_stap" ] ||
	fail "m_ptr differs from SystemTap's build: new $m_new/100 set there; finalize null $m_fin here, $m_fin_stap there"
# Each object's start and end matched by its wrapper (arg0), with no -s:
# the declaration comes from libgjs, which the command loads.
"$PROBEGEN" --trace --summary --pair gjs:object__wrapper__new,gjs:object__wrapper__finalize,arg0 \
	-- "$gjs" "$WORK/objects.js" > "$WORK/pair" 2> "$WORK/pair.err" ||
	{ cat "$WORK/pair.err"; fail "--pair by arg0"; }
grep -q '100 timed' "$WORK/pair" || { cat "$WORK/pair"; fail "--pair did not time 100 objects"; }
ok "$VERSION, $(wc -l < "$WORK/notes") probes at $(wc -l < "$WORK/sites") sites as SystemTap's build (m_ptr read as '$(readelf -nW "$b/$lib" | sed -n 's/^ *Arguments: [^ ]* \([^ ]*\) .*/\1/p' | head -1)'), --check: $(grep -c ': warning: ' "$WORK/check") warnings, traced 100 new and 100 finalize, --pair by arg0: 100 timed, $(( $(date +%s) - start )) s"
