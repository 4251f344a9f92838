#!/bin/bash
# tests/real/xorg.sh - the X server's Debian source (xorg-server), built
# with meson -Ddtrace=true and only Xvfb, once with probegen as `dtrace`
# on PATH and once with SystemTap's: the same probes site by site, a build
# log with no probegen warning (the X server runs `dtrace -G` on the .d
# alone), `--check` passing, and Xvfb traced under -p while `xset q` and
# `xdpyinfo` talk to it: as many requests done as started, both clients'
# connections and disconnections seen.
NAME=real_xorg
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
[ -n "${REAL_KEEP:-}" ] || rm -rf "$WORK"
mkdir -p "$WORK"
for p in meson ninja; do command -v $p > /dev/null || skip "$p is not installed"; done
for p in x11proto-dev xtrans-dev libxfont-dev libxkbfile-dev libpixman-1-dev libssl-dev \
	 libxau-dev libxdmcp-dev x11-xkb-utils xkb-data x11-xserver-utils x11-utils xfonts-utils xutils-dev; do
	dpkg -s $p > /dev/null 2>&1 || skip "$p is not installed"
done
fetch_source xorg-server

build() { # probegen|systemtap -> $WORK/build-$1
	meson_build "$1" -Ddtrace=true \
		-Dxorg=false -Dxephyr=false -Dxnest=false -Dxwin=false -Dxvfb=true \
		-Dglamor=false -Dglx=false -Ddri1=false -Ddri2=false -Ddri3=false \
		-Dudev=false -Dudev_kms=false -Dhal=false -Dsystemd_logind=false \
		-Dsecure-rpc=false -Dxselinux=false -Dlibunwind=false -Ddocs=false \
		-Ddevel-docs=false -Dsha1=libcrypto \
		-Dxkb_dir=/usr/share/X11/xkb -Dxkb_bin_dir=/usr/bin -Dxkb_output_dir="$WORK/xkb" \
		-- -v Xvfb
}
build probegen
build systemtap
xvfb=$WORK/build-probegen/hw/vfb/Xvfb
[ -x "$xvfb" ] || fail "no Xvfb built"
# The log of the probegen build: the dtrace steps ran, and probegen said
# nothing on them (SystemTap's dtrace says nothing either).
grep -q "dtrace.* -G -s .*Xserver.d" "$WORK/compile-probegen.log" || fail "no dtrace -G step in the build log"
grep -n 'probegen: \|Xserver\.d:[0-9]*:[0-9]*: ' "$WORK/compile-probegen.log" &&
	fail "the build log has probegen warnings"
notes_of "$xvfb" > "$WORK/notes"
notes_of "$WORK/build-systemtap/hw/vfb/Xvfb" > "$WORK/notes-stap"
diff -u "$WORK/notes-stap" "$WORK/notes" || fail "probes differ from the SystemTap build"
same_sites hw/vfb/Xvfb
"$PROBEGEN" --check -s "$SRC/include/Xserver.d" "$xvfb" > "$WORK/check" 2>&1 ||
	{ cat "$WORK/check"; fail "--check"; }

need_root_bpftrace
mkdir -p "$WORK/xkb"
display=$((90 + RANDOM % 100))
"$xvfb" :$display -nolisten tcp -fp built-ins > "$WORK/xvfb.log" 2>&1 &
xpid=$!
trap 'kill $xpid 2>/dev/null' EXIT
for i in $(seq 50); do [ -S /tmp/.X11-unix/X$display ] && break; sleep 0.1; done
[ -S /tmp/.X11-unix/X$display ] || { cat "$WORK/xvfb.log"; fail "Xvfb did not start"; }
"$PROBEGEN" --trace --summary -p $xpid -n 'Xserver:*' --duration 6 > "$WORK/summary" 2> "$WORK/summary.err" &
tpid=$!
for i in $(seq 50); do grep -q '^probegen: tracing' "$WORK/summary.err" && break; sleep 0.1; done
DISPLAY=:$display xset q > "$WORK/xset.out" 2>&1 || { cat "$WORK/xset.out"; fail "xset q"; }
DISPLAY=:$display xdpyinfo > "$WORK/xdpyinfo.out" 2>&1 || { cat "$WORK/xdpyinfo.out"; fail "xdpyinfo"; }
wait $tpid || { cat "$WORK/summary.err"; fail "--trace -p"; }
count() { awk -v p="Xserver:$1" '$1 == p { print $2 }' "$WORK/summary"; }
starts=$(count request__start) dones=$(count request__done)
connects=$(count client__connect) disconnects=$(count client__disconnect)
[ -n "$starts" ] && [ "$starts" -gt 10 ] && [ "$starts" = "$dones" ] ||
	{ cat "$WORK/summary"; fail "request__start ${starts:-0}, request__done ${dones:-0}"; }
[ "${connects:-0}" -ge 2 ] && [ "${disconnects:-0}" -ge 2 ] ||
	{ cat "$WORK/summary"; fail "client__connect ${connects:-0}, client__disconnect ${disconnects:-0}"; }
ok "$VERSION, $(wc -l < "$WORK/notes") probes at $(wc -l < "$WORK/sites") sites as SystemTap's build, no probegen warning in the build, --check: $(grep -c ': warning: ' "$WORK/check") warnings, Xvfb under -p: $starts requests started and done, $connects connects, $disconnects disconnects, $(( $(date +%s) - start )) s"
