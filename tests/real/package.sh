#!/bin/bash
# tests/real/package.sh - probegen as a Debian package: the .deb built
# from a clean clone of this tree (dpkg-buildpackage -us -uc -b), lintian
# with no error, installed with dpkg -i, the README's first steps run with
# the installed binary (as dtrace from /usr/lib/probegen/bin too),
# memcached's Debian source built with PATH=/usr/lib/probegen/bin:$PATH
# (its configure finds `dtrace` there, not SystemTap's /usr/bin/dtrace),
# and the package purged leaving no file it installed.
NAME=real_package
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
rm -rf "$WORK"
mkdir -p "$WORK"
[ "$(id -u)" = 0 ] || skip "dpkg -i needs root"
for t in dpkg-buildpackage lintian dh; do
	command -v $t > /dev/null || skip "$t is not installed (debhelper, lintian, dpkg-dev)"
done
dpkg -s probegen > /dev/null 2>&1 && fail "a probegen package is installed already: dpkg -P probegen first"

git clone -q "$ROOT" "$WORK/probegen" || fail "git clone"
(cd "$WORK/probegen" && dpkg-buildpackage -us -uc -b > "$WORK/build.log" 2>&1) ||
	{ tail -n 30 "$WORK/build.log"; fail "dpkg-buildpackage"; }
deb=$(ls "$WORK"/probegen_*.deb 2> /dev/null | head -n 1)
[ -f "$deb" ] || fail "no .deb"
lintian "$deb" > "$WORK/lintian" 2>&1
grep '^E: ' "$WORK/lintian" && fail "lintian errors"
dpkg-deb -c "$deb" > "$WORK/contents"
for f in ./usr/bin/probegen ./usr/share/man/man1/probegen.1.gz ./usr/share/man/man1/probegen-trace.1.gz ./usr/share/man/man5/probegen-provider.5.gz ./usr/lib/probegen/bin/dtrace \
	./usr/lib/cmake/probegen/probegenConfig.cmake ./usr/share/pkgconfig/probegen.pc \
	./usr/share/bash-completion/completions/probegen ./usr/lib/systemd/system/probegen-metrics@.service \
	./usr/share/doc/probegen/README.md.gz; do
	grep -q " $f\( ->\|$\)" "$WORK/contents" || fail "the package has no $f"
done
grep -q ' ./usr/bin/dtrace' "$WORK/contents" && fail "the package takes /usr/bin/dtrace"

dpkg -i "$deb" > "$WORK/install.log" 2>&1 || { cat "$WORK/install.log"; fail "dpkg -i"; }
trap 'dpkg -P probegen > /dev/null 2>&1' EXIT
dpkg -L probegen | sort > "$WORK/installed"
/usr/bin/probegen --trace -c /bin/true 2>&1 | grep -q 'built without' && fail "the packaged probegen has no --trace"
/usr/bin/probegen --trace --metrics :0 /bin/true 2>&1 | grep -q 'built without' && fail "the packaged probegen has no --metrics"
# The README's first steps, with the installed binary.
cp -r "$ROOT/examples/make" "$WORK/first"
cd "$WORK/first"
make PROBEGEN=/usr/bin/probegen > make.log 2>&1 || { cat make.log; fail "examples/make with the package"; }
# The same header made by `dtrace` from /usr/lib/probegen/bin (the
# same file name: the include guard is made from it).
mkdir -p as-dtrace && cp myapp.d as-dtrace/
(cd as-dtrace && PATH=/usr/lib/probegen/bin:$PATH dtrace -h -s myapp.d -o myapp_probes.h) ||
	fail "dtrace from /usr/lib/probegen/bin"
cmp -s myapp_probes.h as-dtrace/myapp_probes.h || fail "dtrace from /usr/lib/probegen/bin is not probegen"
/usr/bin/probegen --trace --summary -c ./myapp > summary 2>&1 || { cat summary; fail "--trace with the package"; }
# memcached through the PATH form.
dpkg -s libevent-dev > /dev/null 2>&1 || skip "libevent-dev is not installed"
fetch_source memcached
cp -a "$SRC" "$WORK/memcached"
(cd "$WORK/memcached" && PATH=/usr/lib/probegen/bin:$PATH ./configure --enable-dtrace > configure.log 2>&1 &&
	PATH=/usr/lib/probegen/bin:$PATH make -j2 > make.log 2>&1) ||
	{ tail -n 20 "$WORK"/memcached/*.log; fail "memcached with PATH=/usr/lib/probegen/bin:\$PATH"; }
grep -q '^DTRACE *= */usr/lib/probegen/bin/dtrace' "$WORK/memcached/Makefile" ||
	fail "memcached's configure did not find /usr/lib/probegen/bin/dtrace: $(grep '^DTRACE' "$WORK/memcached/Makefile")"
probes=$(/usr/bin/probegen --list "$WORK/memcached/memcached" | head -n 1)
[ -n "$probes" ] && ! echo "$probes" | grep -q ': 0 probes' || fail "memcached has no probes"
dpkg -P probegen > "$WORK/purge.log" 2>&1 || { cat "$WORK/purge.log"; fail "dpkg -P"; }
trap - EXIT
left=$(while read -r f; do [ -f "$f" ] || [ -L "$f" ] && echo "$f"; done < "$WORK/installed")
[ -z "$left" ] || fail "files left after dpkg -P: $left"
warnings=$(grep -c '^W: ' "$WORK/lintian")
ok "$(basename "$deb"), $(grep -c . "$WORK/contents") entries, lintian: 0 errors, $warnings warnings; memcached through /usr/lib/probegen/bin: $probes; purged, nothing left; $(( $(date +%s) - start )) s"
