# t_metrics.sh - --trace --metrics: probes and pairs served to a real
# Prometheus (Debian's prometheus, started here on loopback), which gets
# the exact counts and a p50 in the bucket of the known latency; the
# program restarted and counted on; bad clients; --by's values bounded
# and escaped; detaching on SIGTERM; --user.
# serial_tests: t_metrics_prometheus_graph t_metrics_bad_clients
# (timing-bound: a p99 of 3 ms requests, and 1,000 slow clients against their deadlines: run alone)

# A server-like program: N requests of US microseconds each, their
# paths taken in turn from a list (with "many", N distinct ones and
# hostile bytes); "enabled" prints whether request__start is traced.
metrics_app() {
	printf 'provider app {\n\tprobe request__start(int id, const char *path);\n\tprobe request__done(int id, int status);\n};\n' > app.d
	cat > app.c <<-'EOF'
	#include <stdio.h>
	#include <stdlib.h>
	#include <string.h>
	#include <unistd.h>
	#include "app.h"
	int main(int argc, char **argv)
	{
		int n = argc > 1 ? atoi(argv[1]) : 10, us = argc > 2 ? atoi(argv[2]) : 1000, i;
		int many = argc > 3 && strcmp(argv[3], "many") == 0;
		static const char *const paths[] = { "/index.html", "/api", "/q\"uo\\te\nnl" };
		char path[64];
		if (argc > 1 && strcmp(argv[1], "enabled") == 0) {
			printf("%d\n", APP_REQUEST_START_ENABLED() ? 1 : 0);
			return 0;
		}
		for (i = 0; i < n; i++) {
			if (many)
				snprintf(path, sizeof(path), i % 2 ? "/p%d" : "/\xff\xfe%d\xc3", i);
			else
				snprintf(path, sizeof(path), "%s", paths[i % 3]);
			APP_REQUEST_START(i, path);
			if (us)
				usleep(us);
			APP_REQUEST_DONE(i, 200);
		}
		return 0;
	}
	EOF
	expect "$PROBEGEN" -h -s app.d -o app.h
	expect "$PROBEGEN" -G -s app.d -o app_probes.o
	expect gcc -O2 app.c app_probes.o -o app
}

# Prometheus itself: it scrapes probegen every second.
prometheus_start() {
	local i
	need prometheus
	PROM_PORT=$(free_port)
	cat > prometheus.yml <<-EOF
	global:
	  scrape_interval: 1s
	scrape_configs:
	  - job_name: probegen
	    static_configs:
	      - targets: ["127.0.0.1:$PORT"]
	EOF
	prometheus --config.file=prometheus.yml --storage.tsdb.path=tsdb \
		--web.listen-address="127.0.0.1:$PROM_PORT" > prometheus.log 2>&1 &
	PROM_PID=$!
	trap 'kill ${MPID:-} ${PROM_PID:-} 2> /dev/null' EXIT
	for i in $(seq 150); do
		curl -sf "http://127.0.0.1:$PROM_PORT/-/ready" > /dev/null 2>&1 && return 0
		sleep 0.2
	done
	tail prometheus.log
	fail "prometheus did not start"
}

# promql QUERY: the first result's value, once Prometheus has it.
promql() {
	curl -sf --get "http://127.0.0.1:$PROM_PORT/api/v1/query" --data-urlencode "query=$1" |
		python3 -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "none")'
}

# wait_for QUERY VALUE: until Prometheus answers VALUE (10 s at most).
wait_for() {
	local i got
	for i in $(seq 50); do
		got=$(promql "$1")
		[ "$got" = "$2" ] && return 0
		sleep 0.2
	done
	fail "Prometheus: $1 is $got, not $2"
}

t_metrics_prometheus() {
	need_trace
	need curl
	need promtool
	metrics_app
	metrics_start ./app
	prometheus_start
	expect_eq "$(./app enabled)" 1 "the semaphore while served"
	./app 200 3000
	wait_for 'probegen_probe_firings_total{provider="app",probe="request__done"}' 200
	wait_for 'probegen_pair_duration_seconds_count{pair="request"}' 200
	wait_for 'up{job="probegen"}' 1
	# Each request sleeps 3 ms: its p50 falls in the bucket from 2^21 ns
	# (2.1 ms) to 2^22 (4.2 ms), whatever the sleep overshoots by up to
	# 1.2 ms (a 2 ms sleep fell below 2^21 on an idle machine).
	q=$(promql 'histogram_quantile(0.5, probegen_pair_duration_seconds_bucket{pair="request"})')
	python3 -c "import sys; q = float('$q'); sys.exit(not 0.002097152 <= q <= 0.004194304)" ||
		fail "p50 of 3 ms requests: $q"
	s=$(promql 'probegen_pair_duration_seconds_sum{pair="request"}')
	python3 -c "import sys; s = float('$s'); sys.exit(not 0.4 <= s <= 2.0)" || fail "the sum of 200 requests of 3 ms: $s"
	# The program ends and starts again: counted on.
	./app 100 0
	wait_for 'probegen_probe_firings_total{provider="app",probe="request__done"}' 300
	wait_for 'probegen_build_info{version!=""}' 1
	# What it serves, as promtool checks it, in both formats.
	curl -sf "http://127.0.0.1:$PORT/metrics" > scrape.txt || fail "a scrape"
	promtool check metrics < scrape.txt > lint 2>&1 || { cat lint; fail "promtool check metrics"; }
	curl -sf -H 'Accept: application/openmetrics-text;version=1.0.0' -D headers "http://127.0.0.1:$PORT/metrics" > om.txt
	grep -qi '^content-type: application/openmetrics-text; version=1.0.0' headers || { cat headers; fail "OpenMetrics' content type"; }
	expect_eq "$(tail -n 1 om.txt)" "# EOF" "OpenMetrics ends with # EOF"
	expect_grep '^# TYPE probegen_probe_firings counter$' om.txt
	expect_grep '^probegen_pair_duration_seconds_bucket{provider="app",pair="request",le="+Inf"} 300$' scrape.txt
	kill $PROM_PID; wait $PROM_PID 2>/dev/null; PROM_PID=
	metrics_stop
	expect_eq "$(./app enabled)" 0 "the semaphore after SIGTERM"
	ok
}

# Bad clients: malformed request lines, a 1 MB header, 1,000 idle
# connections and a reader of a byte a second; through all of it a
# scrape is served whole within a second, and memory stays bounded.
t_metrics_bad_clients() {
	need_trace
	need curl
	metrics_app
	metrics_start ./app
	./app 30 0
	rss0=$(awk '/VmRSS/ { print $2 }' /proc/$MPID/status)
	python3 - "$PORT" > clients.out 2>&1 <<-'PY' &
	import socket, sys, time
	port = int(sys.argv[1])
	def conn():
	    s = socket.create_connection(("127.0.0.1", port))
	    s.settimeout(5)
	    return s
	def status(req):
	    s = conn()
	    try:
	        s.sendall(req)
	        return s.recv(64).split(b"\r\n")[0].decode(errors="replace") or "closed"
	    except (ConnectionResetError, BrokenPipeError, socket.timeout) as e:
	        return "closed (%s)" % type(e).__name__
	    finally:
	        s.close()
	print("garbage:", status(b"\x00\xff GARBAGE \r\n\r\n"))
	print("no version:", status(b"GET /metrics\r\n\r\n"))
	print("huge header:", status(b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (1 << 20) + b"\r\n\r\n"))
	print("post:", status(b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"))
	print("other path:", status(b"GET /admin HTTP/1.1\r\nHost: x\r\n\r\n"))
	idle = [conn() for _ in range(1000)]
	slow = conn()
	slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
	slow.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
	print("idle:", len(idle), flush=True)
	for _ in range(8):
	    slow.recv(1)
	    time.sleep(1)
	print("done", flush=True)
	PY
	clients=$!
	# Garbage waits out the client's 5 s timeout, and the 1,000
	# connections take 2 s more here: 30 s before giving up.
	for i in $(seq 300); do grep -q '^idle: 1000' clients.out && break; sleep 0.1; done
	grep -q '^idle: 1000' clients.out || { cat clients.out; fail "the bad clients"; }
	# A scrape while they hold on: whole, within a second.
	for try in 1 2 3; do
		start=$(date +%s%N)
		curl -sf -m 5 "http://127.0.0.1:$PORT/metrics" > scrape.txt
		ms=$(( ($(date +%s%N) - start) / 1000000 ))
		[ $ms -lt 1000 ] && break
	done
	[ $ms -lt 1000 ] || fail "a scrape took $ms ms beside the bad clients"
	expect_grep '^probegen_probe_firings_total{provider="app",probe="request__done"} 30$' scrape.txt
	rss1=$(awk '/VmRSS/ { print $2 }' /proc/$MPID/status)
	wait $clients
	cat clients.out
	grep -Eq '^garbage: (HTTP/1.1 400|closed)' clients.out || fail "garbage was answered"
	grep -Eq '^huge header: (HTTP/1.1 4(13|31)|closed)' clients.out || fail "a 1 MB header was taken"
	expect_grep '^post: HTTP/1.1 405' clients.out
	expect_grep '^other path: HTTP/1.1 404' clients.out
	expect_grep '^done' clients.out
	note "a scrape beside 1,000 idle connections and a slow reader: $ms ms; resident memory $rss0 KiB -> $rss1 KiB"
	[ $((rss1 - rss0)) -lt 65536 ] || fail "resident memory grew by $((rss1 - rss0)) KiB"
	# Still serving once they are gone.
	curl -sf -m 5 "http://127.0.0.1:$PORT/metrics" > /dev/null || fail "no scrape after the bad clients"
	metrics_stop
	ok
}

# --by with 5,000 distinct values: 1,000 kept, the rest _other (said
# once), hostile bytes escaped, made UTF-8, and promtool accepts it all.
t_metrics_by_values() {
	need_trace
	need curl
	need promtool
	metrics_app
	metrics_start --by 'app:request__start:path' ./app
	./app 5000 0 many
	./app 3 0
	curl -sf "http://127.0.0.1:$PORT/metrics" > scrape.txt || fail "a scrape"
	metrics_stop
	promtool check metrics < scrape.txt > lint 2>&1 || { cat lint; fail "promtool check metrics"; }
	n=$(grep -c '^probegen_probe_firings_total{provider="app",probe="request__start",path=' scrape.txt)
	expect_eq "$n" 1001 "series of request__start: 1,000 values and _other"
	grep -q '^probegen_probe_firings_total{provider="app",probe="request__start",path="_other"} 4003$' scrape.txt ||
		{ grep '_other' scrape.txt; fail "_other's count"; }
	[ "$(grep -c 'more than 1000 values' metrics.err)" = 1 ] || { cat metrics.err; fail "said once"; }
	python3 - scrape.txt <<-'PY' || fail "the values"
	import sys
	text = open(sys.argv[1], "rb").read()
	text.decode("utf-8")  # raises if not UTF-8
	assert b'path="/\xef\xbf\xbd\xef\xbf\xbd0\xef\xbf\xbd"} 1' in text, "invalid bytes as U+FFFD"
	assert b'path="/p1"} 1' in text
	PY
	ok
}

# Mistakes said before anything is attached; --user drops root.
t_metrics_errors_and_user() {
	need_trace
	need curl
	metrics_app
	"$PROBEGEN" --trace --metrics :9 --summary ./app > out 2> err
	expect_eq $? 2 "--metrics with --summary"
	expect_grep 'does not go with --summary' err
	"$PROBEGEN" --trace --metrics 'nope' ./app > out 2> err
	expect_eq $? 2 "--metrics without a port"
	expect_grep "takes HOST:PORT or :PORT, not 'nope'" err
	# A port past 65535 was served on another (99999 on 34463).
	for p in 99999 65536 000000065; do
		"$PROBEGEN" --trace --metrics ":$p" ./app > out 2> err
		expect_eq $? 2 "--metrics :$p"
		expect_grep "no such port (0 to 65535" err
		grep -q 'serving' err && fail "--metrics :$p served"
	done
	"$PROBEGEN" --trace --user nobody ./app > out 2> err
	expect_eq $? 2 "--user without --metrics"
	metrics_start --user nobody ./app
	"$PROBEGEN" --trace --metrics "127.0.0.1:$PORT" ./app > out 2> err
	expect_eq $? 2 "a port in use"
	expect_grep "cannot serve on 127.0.0.1:$PORT: Address already in use" err
	grep -q 'tracing' err && fail "attached though the port is taken"
	uid=$(awk '/^Uid:/ { print $2 }' /proc/$MPID/status)
	capeff=$(awk '/^CapEff:/ { print $2 }' /proc/$MPID/status)
	expect_eq "$uid" "$(id -u nobody)" "--user nobody"
	expect_eq "$capeff" 0000000000000000 "capabilities kept with no process followed"
	./app 7 0
	curl -sf "http://127.0.0.1:$PORT/metrics" > scrape.txt || fail "a scrape as nobody"
	expect_grep '^probegen_probe_firings_total{provider="app",probe="request__done"} 7$' scrape.txt
	metrics_stop
	expect_eq "$(./app enabled)" 0 "the semaphore after SIGTERM, as nobody"
	ok
}

# build-systems/systemd's unit: systemd-analyze verifies it (with the
# built probegen in ExecStart), and probegen runs and serves within its
# capability bounding set and no_new_privs, as the unit starts it.
t_metrics_systemd_unit() {
	need_trace
	need curl
	need systemd-analyze
	need setpriv
	local unit=$ROOT/build-systems/systemd/probegen-metrics@.service caps
	sed "s|/usr/bin/probegen|$PROBEGEN|" "$unit" > probegen-metrics@test.service
	systemd-analyze verify --man=no ./probegen-metrics@test.service > verify 2>&1 ||
		{ cat verify; fail "systemd-analyze verify"; }
	[ ! -s verify ] || { cat verify; fail "systemd-analyze said something"; }
	caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$unit" | tr 'A-Z' 'a-z' | sed 's/cap_/+/g; s/ /,/g')
	expect grep -q '^NoNewPrivileges=yes$' "$unit"
	metrics_app
	PORT=$(free_port)
	setpriv --bounding-set=-all,$caps --inh-caps=-all --no-new-privs \
		"$PROBEGEN" --trace --metrics "127.0.0.1:$PORT" --user nobody ./app > metrics.out 2> metrics.err &
	MPID=$!
	for i in $(seq 100); do grep -q 'serving the metrics' metrics.err && break; sleep 0.1; done
	grep -q 'serving the metrics' metrics.err || { cat metrics.err; fail "probegen within the unit's capabilities"; }
	./app 5 0
	curl -sf "http://127.0.0.1:$PORT/metrics" > scrape.txt || fail "a scrape"
	expect_grep '^probegen_probe_firings_total{provider="app",probe="request__done"} 5$' scrape.txt
	metrics_stop
	ok
}

# The README's picture: Prometheus's own graph page, in headless
# Chromium, drawing a pair's p99 over the run (written to
# docs/prometheus.png when PROBEGEN_DOCS_IMAGES is set).
t_metrics_prometheus_graph() {
	need_trace
	need curl
	need chromium
	metrics_app
	metrics_start ./app
	prometheus_start
	# Requests of 1 ms, then 3 ms, then 1 ms again: about 20 s.
	./app 5000 1000
	./app 2000 3000
	./app 5000 1000
	wait_for 'probegen_probe_firings_total{provider="app",probe="request__done"}' 12000
	sleep 2
	local q='histogram_quantile(0.99, sum by (pair, le) (rate(probegen_pair_duration_seconds_bucket[5s])))'
	local url="http://127.0.0.1:$PROM_PORT/graph?g0.expr=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$q")&g0.tab=0&g0.range_input=30s"
	timeout 90 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$PWD/browser" --virtual-time-budget=15000 --window-size=1280,960 \
		--screenshot="$PWD/prometheus.png" "$url" > /dev/null 2>&1
	python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); assert d[:8] == b"\x89PNG\r\n\x1a\n" and len(d) > 20000, len(d)' prometheus.png ||
		fail "no screenshot of Prometheus's graph"
	# What the picture draws, asked of Prometheus itself over the run:
	# the 3 ms requests' p99 in their bucket, above 2^21 ns.
	p99=$(curl -sf --get "http://127.0.0.1:$PROM_PORT/api/v1/query" --data-urlencode "query=max_over_time(($q)[1m:1s])" |
		python3 -c 'import json, sys; r = json.load(sys.stdin)["data"]["result"]; print(r[0]["value"][1] if r else "none")')
	python3 -c "import sys; sys.exit(not 0.002097152 <= float('$p99') <= 0.008388608)" 2>/dev/null ||
		fail "the p99 of 3 ms requests over the run: $p99"
	note "p99 of the 3 ms requests: $p99 s"
	[ -z "${PROBEGEN_DOCS_IMAGES:-}" ] || cp prometheus.png "$ROOT/docs/prometheus.png"
	kill $PROM_PID; wait $PROM_PID 2>/dev/null; PROM_PID=
	metrics_stop
	ok
}
