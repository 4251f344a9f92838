#!/bin/bash
# tests/real/qemu.sh - QEMU, the largest dtrace user on Linux, built from
# Debian 12's source with its dtrace trace backend, once with probegen as
# `dtrace` and once with SystemTap's: qemu-img, the block-curl.so module
# and the x86_64 user-mode emulator.  Checks: the notes of both builds
# agree; the module loads (its probes' semaphores live in qemu-img, which
# needs -DSTAP_SDT_V2 to mean what it means to SystemTap); --check against
# all of QEMU's provider files; --trace on the emulator; the generated
# bpftrace script runs.  Prints the build times and the time spent in
# dtrace steps.
NAME=real_qemu
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
[ -n "${REAL_KEEP:-}" ] || rm -rf "$WORK"
mkdir -p "$WORK"
for p in ninja-build meson python3-venv libglib2.0-dev libpixman-1-dev libcurl4-gnutls-dev libfdt-dev; do
	dpkg -s $p > /dev/null 2>&1 || fail "$p is not installed (tests/packages)"
done
fetch_source qemu

# A `dtrace` that runs KIND's and logs how long each run took (ms).
timed_dtrace() { # probegen|systemtap
	local d=$WORK/bin-$1 real
	real=$PROBEGEN; [ "$1" = systemtap ] && real=$(command -v dtrace)
	mkdir -p "$d"
	cat > "$d/dtrace" <<-W
	#!/bin/bash
	s=\$(date +%s%N)
	err=\$(mktemp)
	"$real" "\$@" 2> "\$err"
	rc=\$?
	cat "\$err" >&2
	[ "$1" = probegen ] && cat "\$err" >> "$WORK/probegen-stderr"
	rm -f "\$err"
	echo \$(( (\$(date +%s%N) - s) / 1000000 )) >> "$WORK/dtrace-$1.ms"
	exit \$rc
	W
	chmod +x "$d/dtrace"
	echo "$d"
}

# As Debian configures QEMU for its tools and modules, with the dtrace
# backend; one user-mode target.
build() { # probegen|systemtap -> $WORK/build-$1/build
	local b=$WORK/build-$1 t0
	[ -n "${REAL_KEEP:-}" ] && [ -x "$b/build/qemu-img" ] && return
	rm -rf "$b" "$WORK/dtrace-$1.ms"
	cp -a "$SRC" "$b"
	t0=$(date +%s)
	(cd "$b" && PATH=$(timed_dtrace "$1"):$PATH ./configure --prefix=/usr \
		--disable-install-blobs --disable-strip --with-git-submodules=ignore \
		--disable-docs --disable-system --target-list=x86_64-linux-user \
		--enable-tools --enable-modules --enable-curl \
		--enable-trace-backends=dtrace > configure.log 2>&1 &&
		PATH=$(timed_dtrace "$1"):$PATH ninja -C build qemu-img block-curl.so qemu-x86_64 > make.log 2>&1) ||
		{ tail -n 30 "$b"/*.log; fail "build with $1's dtrace"; }
	echo "$1: built in $(( $(date +%s) - t0 )) s, $(wc -l < "$WORK/dtrace-$1.ms") dtrace runs taking $(awk '{ s += $1 } END { printf "%.1f", s / 1000 }' "$WORK/dtrace-$1.ms") s" | tee "$WORK/time-$1"
}
build probegen
build systemtap
pg=$WORK/build-probegen/build
st=$WORK/build-systemtap/build

# The notes of both builds agree, binary by binary.
for f in qemu-img block-curl.so qemu-x86_64; do
	notes_of "$pg/$f" > "$WORK/notes-$f"
	notes_of "$st/$f" > "$WORK/notes-stap-$f"
	[ -s "$WORK/notes-$f" ] || fail "$f has no probes"
	diff -u "$WORK/notes-stap-$f" "$WORK/notes-$f" || fail "$f: notes differ from the SystemTap build"
done
readelf -sW "$pg/qemu-img" | grep -q 'DEFAULT .* qemu_curl_timer_cb_semaphore$' ||
	fail "qemu-img's semaphores are not of default visibility"

# The module loads: an http image on a closed loopback port is a
# connection error, not an unknown driver.
port=$((21000 + RANDOM % 20000))
(cd "$pg" && QEMU_MODULE_DIR=$pg ./qemu-img info "http://127.0.0.1:$port/x.img") > "$WORK/img.out" 2>&1
grep -q "Unknown driver\|undefined symbol" "$WORK/img.out" && { cat "$WORK/img.out"; fail "block-curl.so did not load"; }
grep -qi "connect\|refused" "$WORK/img.out" || { cat "$WORK/img.out"; fail "qemu-img info http: no connection error"; }

# --check against every provider file of the build (a binary carries
# only its own subsystems' probes).
dfiles=$(find "$pg/trace" -name '*.dtrace' | sort)
args=()
for f in $dfiles; do args+=(-s "$f"); done
for f in qemu-img block-curl.so qemu-x86_64; do
	"$PROBEGEN" --check --allow-missing "${args[@]}" "$pg/$f" > "$WORK/check-$f" 2>&1 ||
		{ tail -n 20 "$WORK/check-$f"; fail "--check $f"; }
	grep ': error: ' "$WORK/check-$f" && fail "--check $f printed an error"
done
checked="--check: $(echo "$dfiles" | wc -l) provider files, $(grep -h 'in none of the binaries' "$WORK"/check-qemu-img | wc -l) of their probes not in qemu-img"

need_root_bpftrace
# --trace on the emulator running /bin/true: typed events.
"$PROBEGEN" --trace --limit 20 -c "$pg/qemu-x86_64 /bin/true" > "$WORK/trace" 2> "$WORK/trace.err" ||
	{ cat "$WORK/trace.err"; fail "--trace"; }
grep -Eq ' qemu:[a-z_0-9]+ [a-z_0-9]+=' "$WORK/trace" || { head "$WORK/trace" "$WORK/trace.err"; fail "--trace: no typed event"; }
first=$(grep -Eo ' qemu:[a-z_0-9]+' "$WORK/trace" | head -1 | sed 's/ qemu://')
# The generated bpftrace script, for the probes --trace saw fire (their
# declarations as QEMU's provider files write them: bpftrace refuses a
# script naming a probe the binary lacks), runs against the emulator.
{
	echo 'provider qemu {'
	for p in $(grep -Eo ' qemu:[a-z_0-9]+' "$WORK/trace" | sed 's/ qemu://' | sort -u); do
		grep -h "probe $p(" $dfiles | head -1
	done
	echo '};'
} > "$WORK/fired.d"
"$PROBEGEN" --bpftrace -s "$WORK/fired.d" -o "$WORK/q.bt" || fail "--bpftrace fired.d"
ulimit -l unlimited 2>/dev/null
timeout 120 bpftrace "$WORK/q.bt" "$pg/qemu-x86_64" -c "$pg/qemu-x86_64 /bin/true" > "$WORK/bt" 2>&1 ||
	{ tail "$WORK/bt"; fail "bpftrace script"; }
grep -q "$first" "$WORK/bt" || { tail "$WORK/bt"; fail "bpftrace: no $first"; }
ok "$VERSION, $(cat "$WORK"/notes-qemu-img "$WORK"/notes-block-curl.so "$WORK"/notes-qemu-x86_64 | sort -u | wc -l) probes; $(cat "$WORK/time-probegen"); $(cat "$WORK/time-systemtap"); module loads ('$(head -c 100 "$WORK/img.out" | tr '\n' ' ')'); $checked; --trace '$(grep -Eo ' qemu:.*' "$WORK/trace" | head -1 | cut -c1-80)'; $(( $(date +%s) - start )) s"
