#!/bin/sh
# examples/demo/run.sh - `make demo`: build the demo with probegen, list
# its probes, then trace it live (probegen --trace, as root) or show them
# in gdb.
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

echo "== probegen --list: what the binary says of itself"
"$PROBEGEN" --list out/demo

traced=no
if [ "$(id -u)" = 0 ] && "$PROBEGEN" --trace -c /bin/true 2>&1 | grep -qv 'built without --trace'; then
	echo "== probegen --trace, live for $SECONDS_TO_RUN seconds: every probe, by name and type"
	"$PROBEGEN" --trace -c "./out/demo $SECONDS_TO_RUN" && traced=yes
fi
if [ $traced = no ]; then
	echo "== gdb (--trace needs root and libbpf): stop at demo:request__start"
	gdb -q -batch -nx -ex 'info probes stap' \
		-ex 'break -probe-stap demo:request__start' -ex 'run 1' \
		-ex 'printf "id=%d path=%s\n", $_probe_arg0, (char *)$_probe_arg1' \
		-ex continue -ex 'printf "id=%d path=%s\n", $_probe_arg0, (char *)$_probe_arg1' \
		-ex kill out/demo 2>&1 | grep -vE '^\[|libthread_db'
fi
