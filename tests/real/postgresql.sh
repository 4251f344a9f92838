#!/bin/bash
# tests/real/postgresql.sh - PostgreSQL's Debian source built with
# probegen as its dtrace (./configure --enable-dtrace: -C, #define'd types,
# hundreds of objects for -G, the sed over the header), its probes checked
# against probes.d and a SystemTap build, then a server started on a local
# socket and a query run through psql traced with bpftrace.
NAME=real_postgresql
. "$(dirname "$0")/lib.sh"
start=$(date +%s)
# REAL_KEEP=1 reuses the trees already built (when iterating on a script).
[ -n "${REAL_KEEP:-}" ] || rm -rf "$WORK"
mkdir -p "$WORK"
fetch_source postgresql-15

# The generated headers first: building src/backend in parallel alone
# races on them (probes.h is made twice at once).
build() { # probegen|systemtap
	build_tree "$1" . --enable-dtrace --without-readline --without-zlib \
		--without-icu --without-openssl --prefix="$WORK/inst-$1" -- \
		sh -c 'make -C src/backend generated-headers && make -j2 -C src/backend'
}
build probegen
build systemtap
bin=$WORK/build-probegen/src/backend/postgres
probes=$SRC/src/backend/utils/probes.d

# probes.d needs cpp (#define'd types); declared_of runs probegen without -C,
# so count from the header probegen wrote during the build.
grep -c '^#define TRACE_POSTGRESQL_.*_ENABLED()' "$WORK/build-probegen/src/backend/utils/probes.h" > "$WORK/declared-count"
notes_of "$bin" > "$WORK/notes"
[ "$(cut -d' ' -f1 "$WORK/notes" | sort -u | wc -l)" -eq "$(cat "$WORK/declared-count")" ] ||
	fail "$(cat "$WORK/declared-count") probes declared, $(cut -d' ' -f1 "$WORK/notes" | sort -u | wc -l) in the binary"
notes_of "$WORK/build-systemtap/src/backend/postgres" > "$WORK/notes-stap"
diff -u "$WORK/notes-stap" "$WORK/notes" || fail "notes differ from the SystemTap build"
"$PROBEGEN" --check -C -s "$probes" "$bin" > "$WORK/check" ||
	{ cat "$WORK/check"; fail "--check"; }
grep -v ': warning: ' "$WORK/check" && fail "--check printed an error"

need_root_bpftrace
(cd "$WORK/build-probegen" && make -j2 install > install.log 2>&1) || fail "make install"
inst=$WORK/inst-probegen
rm -rf "$WORK/data" "$WORK/sock"
mkdir -p "$WORK/data" "$WORK/sock"
chown -R nobody "$WORK/data" "$WORK/sock"
chmod 755 "$WORK" "$WORK/.." 2>/dev/null
runuser -u nobody -- "$inst/bin/initdb" -D "$WORK/data" > "$WORK/initdb.log" 2>&1 || fail "initdb"
runuser -u nobody -- "$inst/bin/pg_ctl" -D "$WORK/data" -o "-k $WORK/sock -c listen_addresses=''" \
	-l "$WORK/sock/server.log" -w start > /dev/null || { cat "$WORK/sock/server.log"; fail "server start"; }
trap 'runuser -u nobody -- "$inst/bin/pg_ctl" -D "$WORK/data" -m fast stop > /dev/null 2>&1' EXIT
timeout 60 bpftrace -e "
usdt:$inst/bin/postgres:postgresql:transaction__start { printf(\"transaction__start %d\\n\", arg0); }
usdt:$inst/bin/postgres:postgresql:query__start /@n < 5/ { @n++; printf(\"query__start %s\\n\", str(arg0)); }
END { clear(@n); }" > "$WORK/trace" 2>&1 &
bt=$!
sleep 5
for i in 1 2 3; do
	runuser -u nobody -- "$inst/bin/psql" -h "$WORK/sock" -d postgres -c "select 'probegen' as traced" > /dev/null 2>&1
	grep -q "query__start select 'probegen'" "$WORK/trace" && break
	sleep 1
done
sleep 1
kill -INT $bt 2>/dev/null; wait $bt
grep -q "^query__start select 'probegen' as traced$" "$WORK/trace" || { cat "$WORK/trace"; fail "query__start not traced"; }
grep -q '^transaction__start ' "$WORK/trace" || fail "transaction__start not traced"
# probegen --trace on the installed binary (every backend that runs it),
# argument types from the declarations its -G object recorded.
"$PROBEGEN" --trace -n 'postgresql:query__start' "$inst/bin/postgres" > "$WORK/ptrace" 2> "$WORK/ptrace.err" &
pt=$!
sleep 3
for i in 1 2 3; do
	runuser -u nobody -- "$inst/bin/psql" -h "$WORK/sock" -d postgres -c "select 'probegen' as traced" > /dev/null 2>&1
	sleep 1
	grep -q "query__start arg0=\"select 'probegen' as traced\"" "$WORK/ptrace" && break
done
kill -INT $pt 2>/dev/null; wait $pt
grep -q "postgresql:query__start arg0=\"select 'probegen' as traced\"$" "$WORK/ptrace" ||
	{ cat "$WORK/ptrace" "$WORK/ptrace.err"; fail "--trace: query__start"; }
# --summary over a few hundred queries in one session: the query pair's
# histogram, and the probes the server never fired.
"$PROBEGEN" --trace --summary "$inst/bin/postgres" > "$WORK/summary" 2> "$WORK/summary.err" &
pt=$!
sleep 3
for i in $(seq 300); do echo "select $i, pg_sleep(0.001);"; done |
	runuser -u nobody -- "$inst/bin/psql" -q -h "$WORK/sock" -d postgres > /dev/null 2>&1
sleep 1
kill -INT $pt 2>/dev/null; wait $pt
cat "$WORK/summary"
grep -Eq '^query \(postgresql:query__start, postgresql:query__done\): 3[0-9][0-9] timed' "$WORK/summary" ||
	{ cat "$WORK/summary.err"; fail "--summary: the query pair"; }
grep -q -- '------------- Distribution -------------' "$WORK/summary" || fail "--summary: histogram"
grep -q '^never fired:' "$WORK/summary" || fail "--summary: never fired"
ok "$VERSION, $(cut -d' ' -f1 "$WORK/notes" | sort -u | wc -l) probes, --summary '$(grep -m1 '^query (' "$WORK/summary")', $(grep -A1 '^query (' "$WORK/summary" | tail -n 1 | sed 's/^ *//'), traced '$(grep -m1 '^query__start' "$WORK/trace")', --trace '$(grep -m1 -o "postgresql:query__start.*" "$WORK/ptrace")', $(( $(date +%s) - start )) s"
