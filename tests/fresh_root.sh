#!/bin/bash
# tests/fresh_root.sh - `make check-fresh`: the README as a new user
# meets it.  A clean Debian 12 root (mmdebstrap from the Debian archive)
# gets a copy of the tree; there, the README's command 1 runs exactly as
# the README writes it (read from README.md, never restated here), the
# demo must have traced its probes, and the quick start block runs as
# pasted.  Then probegen is built again with each optional library left
# out (libmicrohttpd-dev, libdw-dev, libbpf-dev, then all of them with
# clang and bpftool), and each build must say once what it left out and
# what to install, and still give a compiler that passes the compiler's
# tests.  CI runs it on every submission (.ci/run).
#   tests/fresh_root.sh          needs root, mmdebstrap and the archive
#   FRESH_KEEP=1                 leave the root in place (its path is said)
set -u
cd "$(dirname "$0")/.." || exit 2
TREE=$PWD
passed=0 failed=0 skipped=0 last=
ok() { passed=$((passed + 1)); echo "ok   fresh_$1"; }
fail() {
	failed=$((failed + 1))
	echo "FAIL fresh_$1: $2"
	# The output of the step that failed, or the one named.
	local f=${3:-$last}
	[ -f "$f" ] && { echo "     ${f##*/}:"; sed 's/^/     | /' "$f" | tail -n 30; }
}
summary() {
	echo "$passed passed, $failed failed, $skipped skipped"
	[ $failed -eq 0 ]
}
cannot() {
	# Under CI (PROBEGEN_STRICT_SKIPS) a root that cannot be made fails.
	if [ -n "${PROBEGEN_STRICT_SKIPS:-}" ]; then
		fail root "$1"
	else
		skipped=$((skipped + 1))
		echo "SKIP fresh_root: $1"
	fi
	summary
	exit
}

[ "$(id -u)" = 0 ] || cannot "needs root (chroot and mounts)"
command -v mmdebstrap > /dev/null || cannot "mmdebstrap is not installed (apt-get install mmdebstrap)"

# The README's two commands are the lines under its "# 1." and "# 2."
# comments in its first block.
readme_command() {
	awk -v n="$1" '/^```/ { if (inblock) exit; inblock = 1; next }
		inblock && $0 ~ "^# " n "\\. " { getline; print; exit }' README.md
}
# A block of the README by its docs marker (tests/docs_check.py's form).
readme_block() {
	awk -v m="<!-- docs: $1 -->" '$0 == m { getline; inblock = 1; next }
		inblock && /^```/ { exit } inblock { print }' README.md
}
command1=$(readme_command 1)
quickstart=$(readme_block "script clone")
[ -n "$command1" ] || { fail readme "no command under '# 1.' in README.md's first block"; summary; exit; }
[ -n "$quickstart" ] || { fail readme "no 'docs: script clone' block (the quick start) in README.md"; summary; exit; }

WORK=$(mktemp -d /var/tmp/probegen-fresh.XXXXXX)
R=$WORK/root
LOG=$WORK/logs
mkdir -p "$LOG"
unmount() {
	for m in sys/kernel/tracing sys proc dev/pts dev; do
		mountpoint -q "$R/$m" && umount -l "$R/$m"
	done
}
cleanup() {
	unmount
	if [ -n "${FRESH_KEEP:-}" ]; then echo "NOTE the root is kept in $R"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

start=$SECONDS
if ! mmdebstrap --variant=apt bookworm "$R" > "$LOG/mmdebstrap" 2>&1; then
	cannot "mmdebstrap could not make a Debian 12 root: $(tail -n 1 "$LOG/mmdebstrap")"
fi
echo "NOTE a clean Debian 12 root in $((SECONDS - start)) s"
cp /etc/resolv.conf "$R/etc/resolv.conf"
mount -t proc proc "$R/proc"
mount -t sysfs sysfs "$R/sys"
mount -t tracefs tracefs "$R/sys/kernel/tracing"
mount --bind /dev "$R/dev"
mount --bind /dev/pts "$R/dev/pts"

# The tree as a clone has it: the files git knows (and new ones not
# ignored), none of this checkout's build outputs.
mkdir -p "$R/root/probegen"
if [ -d .git ]; then
	git ls-files -co --exclude-standard -z | tar --null -T - -cf - | tar -C "$R/root/probegen" -xf -
else
	tar --exclude=./build --exclude=./build-san --exclude=./tests/out -cf - . | tar -C "$R/root/probegen" -xf -
fi

# in_root LOGNAME COMMAND: COMMAND in the tree's copy inside the root, as
# a new root user's login shell would run it; its output in $LOG/LOGNAME.
in_root() {
	last=$LOG/$1
	chroot "$R" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive \
		bash -c "cd /root/probegen && $2" < /dev/null > "$LOG/$1" 2>&1
}
# notes LOGNAME: the "left out" lines a build said.
notes() { grep -E '^  NOTE +.*left out' "$LOG/$1" | sed 's/^  NOTE *//'; }

# What a build without libmicrohttpd-dev and protobuf-c says it left out.
OPTIONAL_NOTES=$(printf '%s\n' '--trace --metrics left out: apt-get install libmicrohttpd-dev, then make again' \
	'--trace --pprof left out: apt-get install libprotobuf-c-dev protobuf-c-compiler golang-github-google-pprof-dev zlib1g-dev, then make again')

# 1. The README's command 1, as written.
start=$SECONDS
if in_root command1 "$command1"; then
	echo "NOTE command 1 in $((SECONDS - start)) s: $command1"
	# The demo traced its probes live (not gdb's fallback), with values.
	if grep -q '^== probegen --trace, live' "$LOG/command1" &&
		grep -qE ' demo:request__start id=[0-9]+ path="/' "$LOG/command1" &&
		grep -qE ' demo:request__done id=[0-9]+ latency_ns=[0-9]+' "$LOG/command1"; then
		ok command1_demo_traced
	else
		fail command1_demo_traced "the demo ran but --trace did not show its probes" "$LOG/command1"
	fi
	# Command 1 installs no libmicrohttpd-dev and no protobuf-c: the
	# build said so once for each, and each option says what to install
	# (--pprof before the command runs).
	if [ "$(notes command1)" = "$OPTIONAL_NOTES" ] &&
		in_root metrics_none "! ./probegen --trace --metrics 127.0.0.1:0 -c /bin/true && ./probegen --trace --metrics 127.0.0.1:0 -c /bin/true 2>&1 | grep -q 'install libmicrohttpd-dev'"; then
		ok without_libmicrohttpd
	else
		fail without_libmicrohttpd "the build did not say once that --metrics was left out, or --metrics did not say what to install" "$LOG/command1"
	fi
	if in_root pprof_none "! ./probegen --trace --pprof p.pb.gz -c 'touch ran' 2> err && grep -q 'install libprotobuf-c-dev' err && [ ! -e ran ] && [ ! -e p.pb.gz ]"; then
		ok without_protobuf_c
	else
		fail without_protobuf_c "--pprof did not say what to install before the trace" "$LOG/command1"
	fi
else
	fail command1 "README's command 1 failed: $command1" "$LOG/command1"
	summary
	exit
fi

# 2. The quick start, pasted into a shell at the top of the tree.
if in_root quickstart "set -e; $quickstart
./myapp && test \"\$(probegen --check -s myapp.d ./myapp 2>&1)\" = '' &&
probegen --list ./myapp | grep -q 'myapp:request__done'"; then
	ok quickstart
else
	fail quickstart "the README's quick start did not run as pasted (or --check was not silent)" "$LOG/quickstart"
fi

# rebuild LOGNAME PACKAGES...: remove PACKAGES, then `make` as a user
# would (no make clean: a part removed or installed is noticed).
rebuild() {
	local name=$1
	shift
	in_root "$name" "apt-get remove -y $* > /dev/null && apt-get autoremove -y > /dev/null && make"
}

# 3. Without libdw-dev: the compiler and --trace, no source lines.
if rebuild without_libdw libdw-dev &&
	[ "$(notes without_libdw)" = "$(printf '%s\n' "$OPTIONAL_NOTES" \
		'source lines of probe sites (--list, --check) left out: apt-get install libdw-dev, then make again')" ] &&
	in_root without_libdw_run "! ldd probegen | grep -q libdw && ./probegen --list examples/demo/out/demo | grep -q demo:tick"; then
	ok without_libdw
else
	fail without_libdw "make without libdw-dev"
fi

# 4. Without libbpf-dev (clang and bpftool still there).
if rebuild without_libbpf libbpf-dev &&
	notes without_libbpf | grep -qx -- '--trace left out: apt-get install libbpf-dev, then make again' &&
	in_root without_libbpf_run "./probegen --trace -c /bin/true 2>&1 | grep -q 'apt-get install libbpf-dev'"; then
	ok without_libbpf
else
	fail without_libbpf "make without libbpf-dev"
fi

# 5. The compiler alone: build-essential, flex, bison, libelf-dev and
# systemtap-sdt-dev, nothing else; its tests pass.
COMPILER_TESTS="t_cli_help_version t_cli_usage_errors t_cli_default_output t_cli_atomic_output t_errors_golden t_errors_all_reported t_errors_no_hang t_errors_warnings t_header_golden t_header_all_good_inputs t_object_layout t_object_deterministic t_object_empty_inputs t_compat_multi_block t_compat_multi_file t_compat_define_flags"
if rebuild minimal clang bpftool gdb &&
	in_root minimal_apt "! dpkg -l libbpf-dev libdw-dev libmicrohttpd-dev clang bpftool 2> /dev/null | grep '^ii'" &&
	notes minimal | grep -qx -- '--trace left out: apt-get install libbpf-dev bpftool clang, then make again' &&
	in_root minimal_tests "tests/run.sh $COMPILER_TESTS"; then
	ok compiler_alone
	grep -E '^[0-9]+ passed' "$LOG/minimal_tests" | sed 's/^/     NOTE the compiler tests: /'
else
	fail compiler_alone "the compiler alone did not build, say what it left out, or pass its tests"
fi

# 6. Everything back, libmicrohttpd-dev and protobuf-c too: nothing
# left out.
if in_root full "apt-get install -y libbpf-dev libdw-dev libmicrohttpd-dev libprotobuf-c-dev protobuf-c-compiler golang-github-google-pprof-dev zlib1g-dev clang bpftool > /dev/null && make" &&
	[ -z "$(notes full)" ] &&
	in_root full_run "ldd probegen | grep -q libmicrohttpd && ldd probegen | grep -q libprotobuf-c && ldd probegen | grep -q libdw && ./probegen --trace -c './examples/demo/out/demo 1' 2>&1 | grep -q 'demo:tick'"; then
	ok everything
else
	fail everything "make with every part installed"
fi
summary
