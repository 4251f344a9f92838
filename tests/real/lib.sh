# tests/real/lib.sh - shared by the real-build scripts: fetch a Debian
# source package at test time (nothing downloaded is committed), provide
# probegen under the name `dtrace`, and report in the harness's words.
set -u
ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
PROBEGEN=${PROBEGEN:-$ROOT/probegen}
WORK=${REAL_WORK:-$ROOT/tests/out-real/$(basename "$0" .sh)}

# A build's probegen runs say nothing SystemTap's dtrace would not: what
# they printed on stderr (dtrace_dir's wrapper keeps it) has no warning.
ok() {
	if [ -s "$WORK/probegen-stderr" ] && grep -q 'warning' "$WORK/probegen-stderr"; then
		fail "probegen warned during the build: $(grep -m3 warning "$WORK/probegen-stderr" | tr '\n' ' ')"
	fi
	echo "ok   $NAME${1:+: $1}"; exit 0
}
fail() { echo "FAIL $NAME: $*"; exit 1; }
# A real build that cannot run here (no archive, no package) fails,
# unless REAL_SKIP_OK=1 says that a skip is acceptable.
skip() {
	[ -n "${REAL_SKIP_OK:-}" ] || fail "cannot run (REAL_SKIP_OK=1 to allow): $*"
	echo "SKIP $NAME: $*"; exit 0
}

# A private sources list: the system's Debian entry with Types: deb-src.
apt_private() {
	local src=/etc/apt/sources.list.d/debian.sources
	mkdir -p "$WORK/apt/parts" "$WORK/apt/lists/partial"
	[ -r $src ] || src=$(ls /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
	[ -n "$src" ] && [ -r "$src" ] || skip "no Debian sources entry to copy"
	sed 's/^Types:.*/Types: deb-src/' "$src" > "$WORK/apt/parts/src.sources"
	APT_OPTS="-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts=$WORK/apt/parts -o Dir::State::Lists=$WORK/apt/lists"
	apt-get $APT_OPTS -qq update > "$WORK/apt/update.log" 2>&1 ||
		skip "cannot reach the Debian archive: $(tail -1 "$WORK/apt/update.log")"
}

# fetch_source PACKAGE: unpack its Debian source in $WORK/src; sets SRC.
fetch_source() {
	if [ -n "${REAL_KEEP:-}" ] && ls -d "$WORK"/src/*/ > /dev/null 2>&1; then
		SRC=$(find "$WORK/src" -mindepth 1 -maxdepth 1 -type d | head -1)
		VERSION=$(cd "$WORK/src" && ls *.dsc | sed 's/\.dsc$//')
		return
	fi
	apt_private
	mkdir -p "$WORK/src"
	if ! (cd "$WORK/src" && apt-get $APT_OPTS source -qq "$1" > ../fetch.log 2>&1); then
		# A mirror may lack the security update's source: take the
		# release's own version from the other entries.
		awk -v RS= -v ORS='\n\n' '!/security/' "$WORK/apt/parts/src.sources" > "$WORK/apt/nosec"
		mv "$WORK/apt/nosec" "$WORK/apt/parts/src.sources"
		rm -rf "$WORK/src" && mkdir -p "$WORK/src"
		apt-get $APT_OPTS -qq update > "$WORK/apt/update.log" 2>&1
		(cd "$WORK/src" && apt-get $APT_OPTS source -qq "$1" > ../fetch.log 2>&1) ||
			skip "apt-get source $1 failed: $(tail -1 "$WORK/fetch.log")"
	fi
	SRC=$(find "$WORK/src" -mindepth 1 -maxdepth 1 -type d | head -1)
	VERSION=$(cd "$WORK/src" && ls *.dsc | sed 's/\.dsc$//')
	[ -n "$SRC" ] || fail "no source tree unpacked"
}

# A directory whose `dtrace` is probegen, or SystemTap's.  probegen's
# is a wrapper that passes its stderr on and keeps a copy for ok().
dtrace_dir() { # probegen|systemtap
	local d=$WORK/bin-$1
	mkdir -p "$d"
	if [ "$1" = probegen ]; then
		rm -f "$d/dtrace"
		cat > "$d/dtrace" <<-W
		#!/bin/bash
		err=\$(mktemp)
		"$PROBEGEN" "\$@" 2> "\$err"
		rc=\$?
		cat "\$err" >&2
		cat "\$err" >> "$WORK/probegen-stderr"
		rm -f "\$err"
		exit \$rc
		W
		chmod +x "$d/dtrace"
	else
		ln -sf "$(command -v dtrace)" "$d/dtrace"
	fi
	echo "$d"
}

# build_tree KIND DIR CONFIGURE-ARG... -- MAKE-COMMAND...: copy the source
# to $WORK/build-KIND, configure it in DIR with KIND's (probegen's or
# SystemTap's) dtrace, then run the make command there.
build_tree() {
	local kind=$1 dir=$2 b=$WORK/build-$1 conf=()
	shift 2
	while [ $# -gt 0 ] && [ "$1" != -- ]; do conf+=("$1"); shift; done
	shift
	[ -n "${REAL_KEEP:-}" ] && [ -d "$b" ] && return
	cp -a "$SRC" "$b"
	(cd "$b/$dir" && DTRACE=$(dtrace_dir "$kind")/dtrace ./configure "${conf[@]}" > configure.log 2>&1 &&
		"$@" > make.log 2>&1) ||
		{ tail -n 30 "$b/$dir"/*.log; fail "build with $kind's dtrace"; }
}

# meson_build KIND MESON-OPTION... -- TARGET...: $SRC set up in
# $WORK/build-KIND with KIND's (probegen's or SystemTap's) dtrace first
# on PATH, where meson.build's find_program('dtrace') looks, checked to
# be the one found, then TARGETs compiled (setup and compile logs in
# $WORK).
meson_build() {
	local kind=$1 b=$WORK/build-$1 opts=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	[ -n "${REAL_KEEP:-}" ] && [ -d "$b" ] && return
	PATH=$(dtrace_dir "$kind"):$PATH meson setup "$b" "$SRC" "${opts[@]}" \
		> "$WORK/setup-$kind.log" 2>&1 ||
		{ tail -n 20 "$WORK/setup-$kind.log"; fail "meson setup with $kind's dtrace"; }
	grep -q "Program dtrace found: YES ($(dtrace_dir "$kind")/dtrace)" "$WORK/setup-$kind.log" ||
		fail "meson did not find $kind's dtrace"
	meson compile -C "$b" "$@" > "$WORK/compile-$kind.log" 2>&1 ||
		{ grep -m5 -B2 -A8 'error' "$WORK/compile-$kind.log" || tail -n 30 "$WORK/compile-$kind.log"
		  fail "build with $kind's dtrace"; }
}

# "provider:probe nargs" of every note in a binary, sorted, unique.
notes_of() {
	readelf -nW "$1" | awk '
		/Provider:/ { p = $NF } /Name:/ { n = $2 }
		/Arguments:/ { sub(/^[ \t]*Arguments:[ \t]*/, ""); print p ":" n " " NF }' | sort -u
}

# "provider:probe nargs" declared in a provider file (probegen parses it).
declared_of() { # file.d
	"$PROBEGEN" -h -s "$1" -o "$WORK/declared.h" 2>/dev/null || fail "probegen cannot read $1"
	sed -n 's|^/\* probe \([^(]*\)(\(.*\)).*\*/$|\1 \2|p' "$WORK/declared.h" |
		awk '{ name = $1; $1 = ""; n = ($0 ~ /^ *$/) ? 0 : gsub(/,/, ",") + 1; print name " " n }' | sort -u
}

need_root_bpftrace() {
	command -v bpftrace >/dev/null || skip "bpftrace is not installed"
	[ "$(id -u)" = 0 ] || skip "bpftrace needs root"
	[ -e /sys/kernel/tracing/uprobe_events ] ||
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
	[ -e /sys/kernel/tracing/uprobe_events ] || skip "no tracefs"
}

# Every site's note as "provider:name SIZES" (signed sizes, operands
# dropped), sorted with repeats: two builds agree site by site.
sites_of() {
	readelf -nW "$1" | awk '
		/Provider:/ { p = $NF } /Name:/ { n = $2 }
		/Arguments:/ { sub(/^[ \t]*Arguments:[ \t]*/, ""); s = ""
			for (i = 1; i <= NF; i++) { a = $i; sub(/@.*/, "", a); s = s " " a }
			print p ":" n s }' | sort
}

# same_sites PROGRAM: the probegen build's and the SystemTap build's
# PROGRAM carry the same notes, site by site (sizes and signs).
same_sites() {
	sites_of "$WORK/build-probegen/$1" > "$WORK/sites"
	sites_of "$WORK/build-systemtap/$1" > "$WORK/sites-stap"
	[ -s "$WORK/sites" ] || fail "no probes in $1"
	diff -u "$WORK/sites-stap" "$WORK/sites" || fail "$1: sites differ from the SystemTap build"
}
