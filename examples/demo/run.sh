#!/bin/sh
# examples/demo/run.sh - `make demo`: build the demo with probegen, list
# its probes, then trace it live (bpftrace as root) or show them in gdb.
set -e
cd "$(dirname "$0")"
PROBEGEN=${PROBEGEN:-../../probegen}
SECONDS_TO_RUN=${DEMO_SECONDS:-4}
mkdir -p out

echo "== probegen -h and -G: header and object from demo.d"
"$PROBEGEN" -h -s demo.d -o out/demo.h
"$PROBEGEN" -G -s demo.d -o out/demo_probes.o
${CC:-cc} -O2 -Iout demo.c out/demo_probes.o -o out/demo

echo "== the probes in the binary (readelf -n)"
readelf -n out/demo | awk '/Provider:/ { p = $NF } /Name:/ { n = $2 }
	/Arguments:/ { sub(/^[ \t]*Arguments:[ \t]*/, ""); print "  " p ":" n "  args: " $0 }'

traced=no
if [ "$(id -u)" = 0 ] && command -v bpftrace >/dev/null 2>&1; then
	[ -e /sys/kernel/tracing/uprobe_events ] ||
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
	if [ -e /sys/kernel/tracing/uprobe_events ]; then
		echo "== bpftrace, live for $SECONDS_TO_RUN seconds"
		bpftrace -e '
		usdt:./out/demo:demo:request__start { @start[arg0] = nsecs;
			printf("start  id=%-3d path=%s\n", arg0, str(arg1)); }
		usdt:./out/demo:demo:request__done {
			printf("done   id=%-3d latency=%d us\n", arg0, arg1 / 1000); }
		END { clear(@start); }' -c "./out/demo $SECONDS_TO_RUN" 2>&1 |
			grep -v RLIMIT_MEMLOCK && traced=yes
	fi
fi
if [ $traced = no ]; then
	echo "== gdb (bpftrace needs root and tracefs): stop at demo:request__start"
	gdb -q -batch -nx -ex 'info probes stap' \
		-ex 'break -probe-stap demo:request__start' -ex 'run 1' \
		-ex 'printf "id=%d path=%s\n", $_probe_arg0, (char *)$_probe_arg1' \
		-ex continue -ex 'printf "id=%d path=%s\n", $_probe_arg0, (char *)$_probe_arg1' \
		-ex kill out/demo 2>&1 | grep -vE '^\[|libthread_db'
fi
