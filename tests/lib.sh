# tests/lib.sh - the harness a test calls (ok, fail, skip, its cases and
# assertions) and the helpers more than one test file uses.  tests/run.sh
# runs each test in a shell that sources this file and the test's own.
# A test must call ok, fail or skip exactly once: one that says nothing
# has failed.

ok() { echo ok > .result; exit 0; }
# A test of many cases reports each on its own line and goes on after
# one fails: case_ok NAME, case_fail NAME WHY; cases_end then ends the
# test (ok, or a failure counting the failed cases).
cases_failed=0 cases_run=0
case_ok() { cases_run=$((cases_run + 1)); echo "case ok   $1"; }
case_fail() {
	cases_run=$((cases_run + 1)) cases_failed=$((cases_failed + 1))
	echo "case FAIL $1: ${*:2}"
}
cases_end() {
	[ $cases_run -gt 0 ] || fail "no case ran"
	[ $cases_failed -eq 0 ] || fail "$cases_failed of $cases_run cases failed"
	note "$cases_run cases"
	ok
}
fail() { echo "fail $*" > .result; echo "FAIL: $*"; exit 1; }
# A test that cannot run here says why.  Where everything tests/packages
# names is installed (CI sets PROBEGEN_STRICT_SKIPS), that is a failure.
skip() {
	[ -z "${PROBEGEN_STRICT_SKIPS:-}" ] || fail "skipped with tests/packages installed: $*"
	echo "skip $*" > .result; exit 0
}
# A test this machine's kernel cannot run (it lacks what no package
# installs, such as running 32-bit x86 programs): SKIP with the reason,
# under PROBEGEN_STRICT_SKIPS too.
skip_kernel() { echo "skip (kernel) $*" > .result; exit 0; }
# note TEXT: a figure the test measured, printed under its line.
note() { echo "NOTE $*"; }
# A part of a test that cannot run here: said, never silent (run_test
# prints it under the test's line), and a failure under
# PROBEGEN_STRICT_SKIPS.
skip_part() {
	echo "SKIP (part): $*"
	[ -z "${PROBEGEN_STRICT_SKIPS:-}" ] || fail "part skipped with tests/packages installed: $*"
}

# Assertions that end the test on failure.
expect() { "$@" || fail "command failed: $*"; }
expect_eq() { [ "$1" = "$2" ] || fail "${3:-values differ}: expected '$2', got '$1'"; }
expect_grep() { grep -q -- "$1" "$2" || fail "'$1' not found in $2"; }

have() { command -v "$1" >/dev/null 2>&1; }
need() { have "$1" || skip "$1 is not installed"; }

# The probes of a binary as "provider:name nargs", one a line.
probe_list() {
	readelf -nW "$1" | awk '
		/Provider:/ { p = $NF }
		/Name:/ { n = $2 }
		/Arguments:/ { sub(/^[ \t]*Arguments:[ \t]*/, ""); c = NF; print p ":" n " " c }'
}

# Root, tracefs, a bpftrace that can attach: or skip with the reason.
need_bpftrace() {
	need bpftrace
	[ "$(id -u)" = 0 ] || skip "bpftrace needs root"
	if [ ! -e /sys/kernel/tracing/uprobe_events ]; then
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null ||
			skip "tracefs is not mounted and cannot be"
	fi
	[ -e /sys/kernel/tracing/uprobe_events ] || skip "kernel has no uprobes"
}

# "TYPE FLAGS ALIGN SIZE ADDR" of section $2 in ELF file $1.
section_info() {
	readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] *//p' |
		awk -v n="$2" '$1 == n { print $2, $7, $10, $5, $3 }'
}

# sys/sdt.h lives in the host's multiarch directory, which cross
# compilers do not search: give them a copy (it is target-neutral).
sdt_for_cross() {
	local h
	h=$(echo '#include <sys/sdt.h>' | gcc -M -x c - 2>/dev/null | tr ' ' '\n' | grep 'sys/sdt.h$')
	[ -n "$h" ] || return 1
	mkdir -p cross-include/sys
	cp "$h" "${h%sdt.h}sdt-config.h" cross-include/sys/ 2>/dev/null ||
		cp "$h" cross-include/sys/
}

# Does every probe note of binary $1 name a semaphore inside .probes?
# Prints the first that does not.
semaphores_in_probes() {
	local type flags align size addr s
	read -r type flags align size addr < <(section_info "$1" .probes)
	[ -n "${addr:-}" ] || { echo "no .probes section"; return 1; }
	for s in $(readelf -nW "$1" | sed -n 's/.*Semaphore: 0x//p'); do
		(( 16#$s >= 16#$addr && 16#$s < 16#$addr + 16#$size )) ||
			{ echo "semaphore $s outside .probes"; return 1; }
	done
}

# Run a command where sys/sdt.h is an empty file: a private mount
# namespace with an empty file bind-mounted over it.
without_sdt() {
	local h
	h=$(echo '#include <sys/sdt.h>' | gcc -M -x c - 2>/dev/null | tr ' ' '\n' | grep 'sys/sdt.h$')
	[ -n "$h" ] || return 1
	: > empty-sdt.h
	unshare -m sh -c 'mount --bind "$0" "$1" && shift && exec "$@"' \
		"$PWD/empty-sdt.h" "$h" "$@"
}

# eu-elflint over an object: clean, except that it rejects every note
# type it does not know in an object (SystemTap's own stapsdt notes too),
# which our declaration notes are.
elflint_clean() {
	eu-elflint --gnu-ld "$1" > elflint.out 2>&1
	grep -v "'.note.probegen': unknown object file note type 1 with owner name 'probegen'" \
		elflint.out | grep -v '^No errors$' > elflint.rest
	[ ! -s elflint.rest ] || { cat elflint.rest; return 1; }
}

# tests/src/values.d's header and -G object, and a program of tests/src/
# built with them: values_program SOURCE.c OUTPUT
values_program() {
	"$PROBEGEN" -h -s "$ROOT/tests/src/values.d" -o values.h || fail "-h values.d"
	"$PROBEGEN" -G -s "$ROOT/tests/src/values.d" -o values.o || fail "-G values.d"
	gcc -O2 -I. "$ROOT/tests/src/$1" values.o -o "$2" || fail "building $2"
}

# libvals.so (tests/src/lib.c, which fires vals:twelve) and libmain,
# which loads it; libmain started in the background and ready to fire,
# its PID in $pid.
start_library_program() {
	"$PROBEGEN" -h -s "$ROOT/tests/src/values.d" -o values.h || fail "-h values.d"
	"$PROBEGEN" -G -s "$ROOT/tests/src/values.d" -o values.o || fail "-G values.d"
	gcc -O2 -fPIC -shared -I. "$ROOT/tests/src/lib.c" values.o -o libvals.so || fail "lib"
	gcc -O2 "$ROOT/tests/src/libmain.c" -L. -lvals -o libmain || fail "main"
	LD_LIBRARY_PATH=$PWD ./libmain > prog.out &
	pid=$!
	for i in $(seq 50); do grep -q ready prog.out && break; sleep 0.1; done
}

# tests/src/literals.c built with its header and -G object: ./literals
literals_program() {
	"$PROBEGEN" -h -s "$ROOT/tests/src/literals.d" -o literals.h || fail "-h literals.d"
	"$PROBEGEN" -G -s "$ROOT/tests/src/literals.d" -o literals_probes.o || fail "-G literals.d"
	gcc -O2 -I. "$ROOT/tests/src/literals.c" literals_probes.o -o literals || fail "building literals"
}

# tests/src/pairs.c built with its header and -G object: ./pairs
pairs_program() {
	"$PROBEGEN" -h -s "$ROOT/tests/src/pairs.d" -o pairs.h || fail "-h pairs.d"
	"$PROBEGEN" -G -s "$ROOT/tests/src/pairs.d" -o pairs_probes.o || fail "-G pairs.d"
	gcc -O2 -I. "$ROOT/tests/src/pairs.c" pairs_probes.o -o pairs -lpthread || fail "building pairs"
}

# Cargo offline against Debian's packaged crates: a CARGO_HOME of the
# test's own with tests/cargo-debian.toml as its config.  Sets CARGO_HOME.
cargo_debian_registry() { # CRATE... that must be there
	local c
	need cargo
	for c in "$@"; do
		ls -d /usr/share/cargo/registry/$c-[0-9]* > /dev/null 2>&1 ||
			skip "Debian's $c crate is not installed (apt-get install librust-$c-dev)"
	done
	mkdir -p cargo-home
	cp "$ROOT/tests/cargo-debian.toml" cargo-home/config.toml
	export CARGO_HOME=$PWD/cargo-home
}

# ---- the tracer's tests' helpers, used by more than one file ----

# Root and a probegen built with --trace, or skip with the reason.
# Whether --trace can run here (root, a build with it, a kernel with
# BTF): for a test that traces in one of its parts, skip_part otherwise.
can_trace() {
	[ "$(id -u)" = 0 ] && [ -e /sys/kernel/btf/vmlinux ] &&
		! "$PROBEGEN" --trace -c /bin/true 2>&1 | grep -q 'built without --trace'
}

need_trace() {
	[ "$(id -u)" = 0 ] || skip "--trace needs root"
	"$PROBEGEN" --trace -c /bin/true 2>&1 | grep -q 'built without --trace' &&
		skip "probegen was built without --trace (no libbpf-dev, clang or bpftool)"
	[ -e /sys/kernel/btf/vmlinux ] || skip "the kernel has no BTF"
	return 0
}

# The events a trace printed into file $1, without their time and
# pid/tid: what the program fired, in order.
firings() { sed -n 's/^[0-9.]* [0-9]*\/[0-9]* //p' "$1"; }

# ./mprog from tests/src/meanings.{d,c}: -G object ($1: g) or
# --header-only header ($1: ho).
meanings_program() {
	local d=$ROOT/tests/src/meanings.d
	if [ "${1:-g}" = ho ]; then
		"$PROBEGEN" -h --header-only -s "$d" -o meanings.h || fail "-h --header-only"
		gcc -O2 -Wall -I. "$ROOT/tests/src/meanings.c" -o mprog || fail "build"
	else
		"$PROBEGEN" -h -s "$d" -o meanings.h || fail "-h"
		"$PROBEGEN" -G -s "$d" -o probes.o || fail "-G"
		gcc -O2 -Wall -I. "$ROOT/tests/src/meanings.c" probes.o -o mprog || fail "build"
	fi
}

# ./members from tests/src/members.{d,c}, compiled with -g.
members_program() {
	"$PROBEGEN" -h -s "$ROOT/tests/src/members.d" -o members_probes.h || fail "-h"
	"$PROBEGEN" -G -s "$ROOT/tests/src/members.d" -o probes.o || fail "-G"
	gcc -g -O2 -Wall -I. "$ROOT/tests/src/members.c" probes.o -o members || fail "build"
}

# A loopback port no one listens on now.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Start probegen --trace --metrics on a free port with ARGS; sets PORT
# and MPID once it serves.
metrics_start() {
	local i
	PORT=$(free_port)
	"$PROBEGEN" --trace --metrics "127.0.0.1:$PORT" "$@" > metrics.out 2> metrics.err &
	MPID=$!
	# A test that fails leaves no server behind (the test is a subshell).
	trap 'kill ${MPID:-} ${PROM_PID:-} 2> /dev/null' EXIT
	for i in $(seq 100); do
		grep -q 'serving the metrics' metrics.err 2>/dev/null && return 0
		kill -0 $MPID 2>/dev/null || { cat metrics.err; fail "--metrics exited"; }
		sleep 0.1
	done
	cat metrics.err
	fail "--metrics did not start serving"
}

metrics_stop() {
	kill -TERM $MPID
	wait $MPID
	expect_eq $? 0 "--metrics's exit after SIGTERM"
	MPID=
}

# ./stack from tests/src/stack.{d,c}, -O2 -fomit-frame-pointer; with
# $1 = lib, leaf is in ./libstk.so.
stack_program() {
	"$PROBEGEN" -h -s "$ROOT/tests/src/stack.d" -o stack_probes.h || fail "-h"
	"$PROBEGEN" -G -s "$ROOT/tests/src/stack.d" -o probes.o || fail "-G"
	if [ "${1:-}" = lib ]; then
		gcc -g -O2 -fomit-frame-pointer -fPIC -shared -I. "$ROOT/tests/src/stack_lib.c" probes.o \
			-o libstk.so || fail "build the library"
		gcc -g -O2 -fomit-frame-pointer -DLEAF_IN_LIBRARY -I. "$ROOT/tests/src/stack.c" \
			-L. -lstk -Wl,-rpath,"$PWD" -o stack || fail "build"
	else
		gcc -g -O2 -fomit-frame-pointer -I. "$ROOT/tests/src/stack.c" probes.o -o stack || fail "build"
	fi
}
