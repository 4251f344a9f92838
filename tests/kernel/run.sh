#!/bin/bash
# tests/kernel/run.sh [TEST...] - `make check-kernel`: the tracer's tests
# on Debian 12's own kernel (6.1), booted under qemu-system-x86_64 with
# this machine's root shared read-only over 9p: the BPF verifier of 6.1
# refuses code that later kernels take, 6.1 reads an empty string as 0
# bytes, and it runs 32-bit programs (ia32 emulation), which the build
# machine's kernel may not.  The kernel is Debian's package, fetched
# with apt-get download into PROBEGEN_KERNEL_CACHE (nothing of it is
# kept in the tree).  The last line is the inner suite's summary.
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
PROBEGEN=${PROBEGEN:-$ROOT/probegen}
CACHE=${PROBEGEN_KERNEL_CACHE:-${HOME:-/root}/.cache/probegen-kernel}
OUT=${TEST_OUT:-$ROOT/tests/out}/kernel
TESTS=("$@")

die() { echo "FAIL check-kernel: $*"; echo "0 passed, 1 failed, 0 skipped"; exit 1; }
for tool in qemu-system-x86_64 busybox cpio apt-get dpkg-deb; do
	command -v $tool > /dev/null || die "no $tool (tests/packages names its package)"
done
[ "$(id -u)" = 0 ] || die "not root: the tests inside trace"

# Debian 12's kernel: the package linux-image-amd64 depends on.
mkdir -p "$CACHE" && cd "$CACHE" || die "no cache folder $CACHE"
pkg=$(apt-cache depends linux-image-amd64 2> /dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -1)
[ -n "$pkg" ] || die "apt-cache knows no linux-image-amd64 (apt-get update?)"
if [ ! -d "$pkg" ]; then
	rm -f "$pkg"_*.deb
	# apt-get download writes as _apt where it can, else as root (warned).
	apt-get download "$pkg" > download.log 2>&1 || { cat download.log; die "apt-get download $pkg"; }
	dpkg-deb -x "$pkg"_*.deb "$pkg.tmp" || die "dpkg-deb -x"
	rm -f "$pkg"_*.deb
	mv "$pkg.tmp" "$pkg"
fi
vmlinuz=$(ls "$CACHE/$pkg"/boot/vmlinuz-* 2> /dev/null | head -1)
[ -n "$vmlinuz" ] || die "no vmlinuz in $pkg"
cd "$ROOT" || exit 2

# The first root: busybox, the modules that mount 9p and overlayfs (in
# their order of need), and an init that mounts this machine's root,
# writable through an overlay in the guest's memory (a test may install
# a file: nothing reaches this machine), and runs the suite in it.
rm -rf "$OUT" && mkdir -p "$OUT/initrd/bin" "$OUT/initrd/mods" || exit 2
for d in proc sys dev host lower rw; do mkdir -p "$OUT/initrd/$d"; done
cp "$(command -v busybox)" "$OUT/initrd/bin/busybox"
mods="virtio_ring virtio virtio_pci_legacy_dev virtio_pci_modern_dev virtio_pci 9pnet 9pnet_virtio netfs fscache 9p overlay"
for m in $mods; do
	f=$(find "$CACHE/$pkg/lib/modules" -name "$m.ko" -o -name "$m.ko.xz" | head -1)
	[ -n "$f" ] || die "no module $m in $pkg"
	case $f in *.xz) xz -dc "$f" > "$OUT/initrd/mods/$m.ko" ;; *) cp "$f" "$OUT/initrd/mods/" ;; esac
done
# What the inner run does: the suite's own runner, its scratch in the
# guest's /tmp (the overlay's: the tree may be under this machine's /tmp,
# as a CI clone is, so no tmpfs hides it).
printf '%s\n' "cd '$ROOT' && export HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin &&" \
	"PROBEGEN_STRICT_SKIPS=${PROBEGEN_STRICT_SKIPS:-} TEST_OUT=/tmp/out" \
	"PROBEGEN='$PROBEGEN' exec bash tests/run.sh ${TESTS[*]}" | paste -sd' ' > "$OUT/initrd/suite.sh"
cat > "$OUT/initrd/init" <<-INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc && mount -t sysfs sys /sys && mount -t devtmpfs dev /dev
for m in $mods; do insmod /mods/\$m.ko || echo "check-kernel: insmod \$m failed"; done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 hostroot /lower ||
	echo "check-kernel: the shared root does not mount"
mount -t tmpfs rw /rw && mkdir -p /rw/upper /rw/work
mount -t overlay overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work /host ||
	echo "check-kernel: the overlay does not mount"
mount -t proc proc /host/proc && mount -t sysfs sys /host/sys && mount -t devtmpfs dev /host/dev
mkdir -p /host/dev/shm /host/dev/pts && mount -t tmpfs shm /host/dev/shm && mount -t devpts pts /host/dev/pts
ln -s /proc/self/fd /host/dev/fd && ln -s fd/0 /host/dev/stdin && ln -s fd/1 /host/dev/stdout && ln -s fd/2 /host/dev/stderr
mount -t tmpfs run /host/run
mount -t tracefs tracefs /host/sys/kernel/tracing && mount -t debugfs debugfs /host/sys/kernel/debug
ip link set lo up
cp /suite.sh /host/tmp/suite.sh
echo "== check-kernel: \$(uname -r)"
chroot /host /bin/bash /tmp/suite.sh
echo "== check-kernel: exit \$?"
poweroff -f
INIT
chmod +x "$OUT/initrd/init"
(cd "$OUT/initrd" && find . | cpio -o -H newc 2> /dev/null | gzip -1) > "$OUT/initrd.gz" || die "cpio"

# -m 4096: the overlay's writes live in the guest's memory.
# The guest's console from its first line of the suite (after the
# firmware's escape codes) to the suite's summary.
# multidevs=remap: the root's mount points (/proc, /sys: each its own
# file system's inode 1) would otherwise be one inode to the guest.
timeout "${PROBEGEN_KERNEL_TIMEOUT:-3600}" qemu-system-x86_64 -m 4096 -smp "$(nproc)" \
	-nographic -no-reboot -kernel "$vmlinuz" -initrd "$OUT/initrd.gz" \
	-append "console=ttyS0 quiet panic=-1" \
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
	< /dev/null 2>&1 | sed -u 's/\x1bc//g; s/\x1b\[[?0-9;]*[a-zA-Z]//g; s/\r$//' | tee "$OUT/console.log" |
	sed -u -n '/== check-kernel: [0-9]/,/^== check-kernel: exit/{/^== check-kernel: exit/!p}'
grep -q '^== check-kernel: exit 0$' "$OUT/console.log" && exit 0
grep -q '^== check-kernel: exit' "$OUT/console.log" || die "the guest did not run the suite (see $OUT/console.log)"
exit 1
