#!/bin/bash
# tests/real/memcached.sh - memcached's Debian source built with
# probegen as its dtrace (./configure --enable-dtrace), its probes checked
# against the provider file and against a build with SystemTap's dtrace,
# then the server run on loopback and traced with bpftrace.
NAME=real_memcached
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
# REAL_KEEP=1 reuses the trees already built (when iterating on a script).
[ -n "${REAL_KEEP:-}" ] || rm -rf "$WORK"
mkdir -p "$WORK"
dpkg -s libevent-dev > /dev/null 2>&1 || skip "libevent-dev is not installed"
fetch_source memcached

build() { # probegen|systemtap -> $WORK/build-$1/memcached
	build_tree "$1" . --enable-dtrace -- make -j2
}
build probegen
build systemtap
bin=$WORK/build-probegen/memcached

declared_of "$SRC/memcached_dtrace.d" > "$WORK/declared"
notes_of "$bin" > "$WORK/notes"
diff -u "$WORK/declared" "$WORK/notes" | grep '^[-+][^-+]' | grep '^-' &&
	fail "probes declared but not in the binary"
notes_of "$WORK/build-systemtap/memcached" > "$WORK/notes-stap"
diff -u "$WORK/notes-stap" "$WORK/notes" || fail "notes differ from the SystemTap build"
# --check: every probe matches; memcached passes some narrower values
# (a uint8_t for an int): warnings, not errors.
"$PROBEGEN" --check -s "$SRC/memcached_dtrace.d" "$bin" > "$WORK/check" ||
	{ cat "$WORK/check"; fail "--check"; }
grep -v ': warning: ' "$WORK/check" && fail "--check printed an error"
checked="--check: $(grep -c ': warning: ' "$WORK/check") size warnings"

need_root_bpftrace
port=$((21000 + RANDOM % 20000))
"$bin" -u root -l 127.0.0.1 -p $port -U 0 > "$WORK/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
for i in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null && break; sleep 0.1; done
bpftrace -p $pid -e "usdt:$bin:memcached:command__set {
	printf(\"set %s %d\\n\", str(arg1, arg2), arg3); exit(); }" > "$WORK/trace" 2>&1 &
bt=$!
sleep 3
for i in 1 2 3 4 5; do
	exec 3<>/dev/tcp/127.0.0.1/$port
	printf 'set probegen_key 0 0 5\r\nhello\r\n' >&3
	timeout 2 head -c 8 <&3 > /dev/null
	exec 3<&-
	grep -q '^set ' "$WORK/trace" && break
	sleep 1
done
wait $bt
# memcached's size counts the value's trailing CRLF: 5 + 2.
grep -q '^set probegen_key 7$' "$WORK/trace" || { cat "$WORK/trace"; fail "no command__set traced"; }
# probegen --trace, names and types from the declarations the binary
# records; the key is not NUL-terminated, so its text runs on.
"$PROBEGEN" --trace -p $pid -n 'memcached:command__set' --limit 1 > "$WORK/ptrace" 2> "$WORK/ptrace.err" &
pt=$!
sleep 2
for i in 1 2 3 4 5; do
	exec 3<>/dev/tcp/127.0.0.1/$port
	printf 'set probegen_key 0 0 5\r\nhello\r\n' >&3
	timeout 2 head -c 8 <&3 > /dev/null
	exec 3<&-
	grep -q 'command__set' "$WORK/ptrace" && break
	sleep 1
done
wait $pt
grep -Eq ' memcached:command__set [a-z_0-9]+=[0-9]+ [a-z_0-9]+="probegen_key.* [a-z_0-9]+=12 [a-z_0-9]+=7 ' "$WORK/ptrace" ||
	{ cat "$WORK/ptrace" "$WORK/ptrace.err"; fail "--trace: command__set"; }
ok "$VERSION, $(wc -l < "$WORK/notes") probes, $checked, traced '$(grep '^set ' "$WORK/trace")', --trace '$(grep -o "memcached:command__set [a-z_0-9]*=[0-9]* [a-z_0-9]*=\"[a-z_]*" "$WORK/ptrace")', $(( $(date +%s) - start )) s"
