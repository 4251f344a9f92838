# tests/t_budget.sh - --budget: a busy program traced within a share of
# its CPU time; its hot probes sampled and said so, its rare probe
# counted exactly, its pairs never cut by a window, its stream's gaps
# said, and the tests that count every firing refused or run whole.
# What the budget saves the program is measured by make bench (a timed
# test would be flaky), not here.

# srv SECONDS: a server's loop, a request at a time: a little work, its
# start, 10 hot lookups, its end; a tick 20 times a second (rare).  Says
# on stderr what it fired.
budget_server() {
	cp "$ROOT/tests/src/busy.c" "$ROOT/tests/src/busy.d" . || fail "tests/src"
	"$PROBEGEN" -h -s busy.d -o busy.h && "$PROBEGEN" -G -s busy.d -o busy_probes.o || fail "probegen"
	cc -O2 -o srv busy.c busy_probes.o || fail "cc"
}

t_budget_samples_the_hot_and_counts_the_rare() {
	need_trace
	budget_server
	timeout 60 "$PROBEGEN" --trace --summary --json --budget 5% -c './srv 3' > out.json 2> err ||
		{ cat err; fail "--summary --budget"; }
	python3 - out.json err <<-'PY' || fail "the budget's summary"
	import json, re, sys
	s = json.load(open(sys.argv[1]))
	fired = dict(re.findall(r"(\w+) (\d+)", re.search(r"requests .*", open(sys.argv[2]).read()).group(0)))
	p = s["probes"]
	look = p["busy:lookup"]
	# The hot probe: sampled, its count scaled from what was counted.
	assert "sampled" in look, look
	share, counted = look["sampled"]["share"], look["sampled"]["counted"]
	assert 0 < share < 1, share
	assert abs(look["count"] - counted / share) <= 0.005 * look["count"], look  # share: 4 digits
	# The rare one: whole, and exact.
	assert "sampled" not in p["busy:tick"], p["busy:tick"]
	assert p["busy:tick"]["count"] == int(fired["ticks"]), (p["busy:tick"], fired)
	b = s["budget"]
	assert b["percent"] == 5 and not b["default"], b
	# The windows its estimate rests on (none where its share is the
	# least, one in 5 s), and (busy looks up in every request) it fired
	# in each.
	w = [x for x in b["sampled"] if x["probe"] == "busy:lookup"][0]
	assert w["windows"] >= 0 and w["windows_fired"] == w["windows"], w
	# The pair: sampled with its start, and never cut (a call is a few
	# microseconds; one timed across a closed window would be 50 ms).
	pair = [x for x in s["pairs"] if x["work"] == "request"][0]
	assert "sampled" in pair and pair["count"] > 0, pair
	assert pair["max_ns"] < 50_000_000, pair["max_ns"]
	print("lookup: %d counted, %.1f%% of the time, ~%d (the program fired %s); budget cost %.1f%%" % (
	    counted, 100 * share, look["count"], fired["lookups"], b["cost_percent"]))
	PY
	note "$(python3 -c '
import json,sys; s=json.load(open("out.json")); l=s["probes"]["busy:lookup"]
print("lookup: %.1f%% of its firings counted; the trace cost %.1f%% of the CPU (budget 5%%)" % (100*l["sampled"]["share"], s["budget"]["cost_percent"]))')"
	# The text says the same: a mark on the hot, the budget at the end.
	timeout 60 "$PROBEGEN" --trace --summary --budget 5% -c './srv 2' > out 2> err ||
		{ cat err; fail "--summary --budget (text)"; }
	grep -Eq '^  busy:lookup +~[0-9]+  [0-9]+/s  \(sampled: [0-9.]+% of its firings counted, scaled\)$' out ||
		{ cat out; fail "the hot probe not marked"; }
	grep -Eq '^  busy:tick +[0-9]+ ' out || { cat out; fail "the rare probe marked"; }
	grep -q '^budget: 5% of the traced processes. CPU time; the trace cost ' out ||
		{ cat out; fail "no budget at the summary's end"; }
	grep -Eq '^    busy:lookup +[0-9.]+% of its firings counted, in ([0-9]+ windows?|no window \(at the rate it had traced whole\))$' out || { cat out; fail "the sampled probe not named with its windows"; }
	ok
}

t_budget_stream_says_its_gaps() {
	need_trace
	budget_server
	timeout 60 "$PROBEGEN" --trace --json --budget 2% -c './srv 2' > out.json 2> err ||
		{ cat err; fail "--trace --budget"; }
	python3 - out.json <<-'PY' || fail "the gaps"
	import json, sys
	gaps, times = [], []
	for line in open(sys.argv[1]):
	    o = json.loads(line)
	    if "gap" in o:
	        gaps.append(o["gap"])
	    elif o["probe"] == "busy:lookup":
	        times.append(o["time"])
	assert gaps, "no gap said"
	look = [g for g in gaps if g["probe"] == "busy:lookup"]
	assert look and all(g["from"] < g["to"] and g["why"] == "--budget" for g in look), look[:3]
	# No firing of a probe falls in its gap.
	inside = [t for t in times for g in look if g["from"] + 0.001 < t < g["to"] - 0.001]
	assert not inside, inside[:3]
	print("%d gaps, %d firings of busy:lookup" % (len(look), len(times)))
	PY
	timeout 60 "$PROBEGEN" --trace --budget 2% -c './srv 1' > out 2> err || { cat err; fail "text"; }
	grep -Eq '^# gap: busy:lookup not traced from [0-9.]+ to [0-9.]+ \(--budget\)$' out ||
		{ head out; fail "no gap line in the text"; }
	ok
}

t_budget_tests_count_every_firing() {
	need_trace
	budget_server
	# Asked together: refused.
	"$PROBEGEN" --trace --budget 5% --expect 'busy:tick' -c './srv 1' > out 2> err
	expect_eq $? 2 "--budget with --expect"
	expect_grep "does not go with --expect: an expectation counts every firing" err
	"$PROBEGEN" --trace --budget 5% --expect-all -c './srv 1' > out 2> err
	expect_eq $? 2 "--budget with --expect-all"
	for bad in 0 101 5x ''; do
		"$PROBEGEN" --trace --budget "$bad" -c true > out 2> err && fail "--budget '$bad' taken"
		expect_grep "takes a share of the traced processes' CPU time" err
	done
	# --budget none: every firing, as a test needs.
	timeout 60 "$PROBEGEN" --trace --budget none --expect 'busy:tick{1,}' -c './srv 1' > out 2> err ||
		{ cat err; fail "--budget none --expect"; }
	# -p's default budget, said; set aside by --expect, and said.
	./srv 4 2> srv.err &
	local pid=$!
	sleep 0.3
	timeout 60 "$PROBEGEN" --trace --summary --duration 1 -p $pid > out 2> err ||
		{ cat err; kill $pid; fail "-p"; }
	grep -q "tracing within a budget of 5% of the process's CPU time (-p's default)" err ||
		{ cat err; kill $pid; fail "-p's default budget not said"; }
	grep -q '^budget: 5% of the traced processes. CPU time (-p.s default)' out ||
		{ cat out; kill $pid; fail "-p's budget not in the summary"; }
	timeout 60 "$PROBEGEN" --trace --expect 'busy:tick' --duration 1 -p $pid > out 2> err ||
		{ cat err; kill $pid; fail "-p --expect"; }
	kill $pid 2> /dev/null
	wait $pid 2> /dev/null
	grep -q -- "--expect counts every firing: the trace runs whole, with no budget" err ||
		{ cat err; fail "--expect under -p: not said"; }
	ok
}

# --timeline, --folded and the summary's --stack under a budget take
# what the windows give, unscaled, and say so: the timeline in a global
# instant at its start and its metadata, the folded stacks on a first
# line that no stack can be, the stacks after the probe's name; a real
# viewer still opens both files.
t_budget_timeline_folded_say_sampled() {
	need_trace
	budget_server
	timeout 60 "$PROBEGEN" --trace --budget 5% --timeline tl.json --folded calls.folded -c './srv 2' > out 2> err ||
		{ cat err; fail "--timeline --folded --budget"; }
	python3 - tl.json calls.folded <<-'PY' || fail "the marks"
	import json, re, sys
	t = json.load(open(sys.argv[1]))
	said = t["otherData"]["sampled"]
	assert re.match(r"sampled by --budget 5% \(the share of each probe's firings counted\): .*busy:lookup [0-9.]+%", said), said
	marks = [e for e in t["traceEvents"] if e.get("ph") == "i" and e.get("s") == "g"]
	assert len(marks) == 1 and marks[0]["name"] == said and marks[0]["ts"] == 0, marks
	assert any(e.get("ph") == "X" for e in t["traceEvents"]), "no calls"
	lines = open(sys.argv[2]).read().splitlines()
	assert lines[0] == "# " + said + "; the calls timed in the windows, unscaled", lines[0]
	assert lines[1:] and all(re.match(r"^\S.* [0-9]+$", l) for l in lines[1:]), lines[:3]
	PY
	# The summary's stacks of a sampled probe: the windows', marked.
	timeout 60 "$PROBEGEN" --trace --summary --stack --budget 5% -n busy:lookup -c './srv 1' > out 2> err ||
		{ cat err; fail "--summary --stack --budget"; }
	grep -Eq '^stacks of busy:lookup \([0-9]+ distinct.*\) \(sampled by --budget: its firings in the windows, [0-9.]+% of them, unscaled\)(: .*)?:$' out ||
		{ cat out; fail "the sampled probe's stacks not marked"; }
	"$ROOT/tests/speedscope.sh" calls.folded sandwich > view.out
	case $? in
	0) grep -q 'request' view.out || { cat view.out; fail "speedscope: the folded calls"; } ;;
	77) skip_part "$(cat view.out)"; ok; return ;;
	*) cat view.out; fail "speedscope did not open the marked folded stacks" ;;
	esac
	"$ROOT/tests/speedscope.sh" tl.json > view.out ||
		{ cat view.out; fail "speedscope did not open the marked timeline"; }
	grep -q '^srv (pid [0-9]*), srv (tid [0-9]*)$' view.out || { cat view.out; fail "the viewer's thread"; }
	ok
}

# A mostly idle process (tests/src/semaphore.c: sleeps 10 ms between
# firings, under 100 a second): its probe is rare, so -p's default
# budget traces it whole, though it costs more than 5% of so little
# work; the summary says that, not that a hot probe's least share did.
# (Judged on 20 ms, its first three firings were 150 a second and CI
# saw the probe sampled.)
t_budget_idle_process_rare_probe() {
	need_trace
	values_program values.c values
	gcc -O2 -I. "$ROOT/tests/src/semaphore.c" values.o -o sem || fail "build sem"
	./sem 60 > sem.out & # long enough for three traces on a loaded machine; killed at the end
	local pid=$! i
	sleep 0.3
	for i in 1 2; do
		timeout 30 "$PROBEGEN" --trace --summary --json --duration 0.5 -p $pid -n 'vals:none' > out.json 2> err ||
			{ cat err; kill $pid; fail "-p, run $i"; }
		python3 - out.json <<-'PY' || { kill $pid; fail "run $i: the rare probe"; }
		import json, sys
		s = json.load(open(sys.argv[1]))
		p = s["probes"]["vals:none"]
		assert "sampled" not in p, p
		assert 30 <= p["count"] <= 55, p  # 0.5 s at 100 a second at most
		assert s["budget"]["sampled"] == [], s["budget"]
		print("%d firings whole; the trace cost %.1f%% of the process's CPU" % (p["count"], s["budget"]["cost_percent"]))
		PY
	done
	timeout 30 "$PROBEGEN" --trace --summary --duration 0.5 -p $pid -n 'vals:none' > out 2> err ||
		{ cat err; kill $pid; fail "-p, text"; }
	kill $pid 2> /dev/null
	wait $pid 2> /dev/null
	grep -q '^  every probe traced whole$' out || { cat out; fail "the rare probe not traced whole"; }
	grep -q 'least share' out && { cat out; fail "said a hot probe's least share exceeded the budget"; }
	# Its cost past the budget, by the rare probe alone: said so.
	local cost
	cost=$(sed -n 's/^budget: .*the trace cost \([0-9.]*\)%.*/\1/p' out)
	[ -n "$cost" ] || { cat out; fail "no cost in the summary"; }
	awk -v c="$cost" 'BEGIN { exit !(c > 10) }' ||
		grep -q '^  exceeded: the probes under 100 firings a second, always traced whole, cost more than the budget$' out ||
		{ cat out; fail "the rare probes' cost past the budget not said"; }
	ok
}

# --stack counted: a burst the walks cannot keep up with (64 KiB copies
# as fast as a loop fires them) makes probegen walk every Nth firing's
# stack, said, and count each walk N times: the stacks still add up to
# the firings the kernel counted.
t_budget_stacks_every_nth() {
	need_trace
	"$PROBEGEN" -h -s "$ROOT/bench/trace_loop.d" -o trace_loop.h &&
		"$PROBEGEN" -G -s "$ROOT/bench/trace_loop.d" -o trace_loop_probes.o || fail "probegen"
	cc -O2 -I. -o loop "$ROOT/bench/trace_loop.c" trace_loop_probes.o || fail "cc"
	timeout 120 "$PROBEGEN" --trace --summary --json --stack --stack-bytes 65536 -n 'bench:event' \
		-c './loop 400000 deep' > out.json 2> err || { cat err; fail "--stack --summary"; }
	grep -q -- "--stack: the ring was full (.* events lost in a second): from now on the stack of every [0-9]*th firing is walked" err ||
		skip_part "the walks kept up here: every Nth not needed ($(grep -c . err) lines said)"
	python3 - out.json <<-'PY' || fail "the stacks' counts"
	import json, sys
	s = json.load(open(sys.argv[1]))
	n = s["probes"]["bench:event"]["count"]
	every = s["stack_every"]
	stacks = s["stacks"]["bench:event"]
	total = sum(x["count"] for x in stacks)
	assert n == 400000, n
	assert abs(total - n) <= every, (total, n, every)
	print("every %d: %d stacks (%d distinct) for %d firings" % (every, total, len(stacks), n))
	PY
	ok
}

# --metrics under a budget: the seconds each probe was traced, beside
# its firings counted then, give its rate (what a PromQL rate() of the
# two says), and the budget's ratio is served.
t_budget_metrics_traced_seconds() {
	need_trace
	need curl
	budget_server
	local port
	port=$(free_port)
	"$PROBEGEN" --trace --metrics "127.0.0.1:$port" --budget 5% -c './srv 4 5000' > out 2> err &
	local pg=$!
	for i in $(seq 100); do grep -q 'serving the metrics' err && break; sleep 0.1; done
	sleep 3
	curl -sf "http://127.0.0.1:$port/metrics" > scrape.txt || { kill $pg; fail "a scrape"; }
	wait $pg
	expect_grep '^probegen_budget_ratio 0.05$' scrape.txt
	python3 - scrape.txt <<-'PY' || { grep busy scrape.txt; fail "the rate from the traced seconds"; }
	import re, sys
	t = open(sys.argv[1]).read()
	def val(name):
	    return float(re.search(r'^%s\{provider="busy",probe="lookup"\} ([0-9.e+]+)$' % name, t, re.M).group(1))
	fired, seconds = val("probegen_probe_firings_total"), val("probegen_probe_traced_seconds_total")
	rate = fired / seconds
	# busy fires 10 lookups a request, 5,000 requests a second.
	assert 40000 < rate < 60000, (fired, seconds, rate)
	assert seconds < 2.5, seconds  # sampled: not traced all the 3 s
	print("lookup: %d firings in %.2f s traced: %.0f a second" % (fired, seconds, rate))
	PY
	ok
}

# --pprof under a budget: the profile's comments say what was sampled,
# with each share (go tool pprof -comments shows them).
t_budget_pprof_says_what_was_sampled() {
	need_trace
	need go
	"$PROBEGEN" --trace --pprof p.pb.gz -c true 2>&1 | grep -q 'built without' &&
		skip "probegen was built without --pprof (protobuf-c)"
	budget_server
	timeout 60 "$PROBEGEN" --trace --pprof p.pb.gz --budget 5% -c './srv 2 5000' > out 2> err ||
		{ cat err; fail "--pprof --budget"; }
	HOME=$PWD GOCACHE=$PWD/gocache go tool pprof -comments p.pb.gz > comments 2> comments.err ||
		{ cat comments.err; fail "go tool pprof -comments"; }
	grep -Eq '^sampled by --budget 5% \(the share of each probe.s firings counted\): .*busy:lookup [0-9.]+%' comments ||
		{ cat comments; fail "the profile does not say what was sampled"; }
	expect_grep "not scaled" comments
	ok
}

# Tracing a binary (no -p, no -c), the budget is a share of the CPU time
# of every process that runs it: two servers already running and one
# that starts during the trace (found by the next look at /proc), each
# measured; and the same for a library, by the processes that map it.
# A process that runs neither is not counted.
t_budget_every_process_of_a_binary() {
	need_trace
	budget_server
	sed 's/^int main(int argc, char \*\*argv)$/int busy_main(int argc, char **argv)/' busy.c > libbusy.c
	grep -q '^int busy_main' libbusy.c || fail "busy.c's main not found"
	printf 'int busy_main(int, char **);\nint main(int c, char **v) { return busy_main(c, v); }\n' > host.c
	cc -O2 -fPIC -shared -o libbusy.so libbusy.c busy_probes.o && cc -O2 -o host host.c -L. -lbusy -Wl,-rpath,'$ORIGIN' ||
		fail "cc (the library)"
	local kind target server pids
	for kind in program library; do
		# What is traced, and what runs it.
		[ $kind = program ] && target=./srv server=./srv || target=./libbusy.so server=./host
		pids=
		# At 20,000 requests a second each, not as fast as they can:
		# the other tests run beside this one.
		$server 4 20000 2> s1.err &
		pids="$pids $!"
		$server 4 20000 2> s2.err &
		pids="$pids $!"
		sleep 30 & # runs neither
		local bystander=$!
		sleep 0.3
		( sleep 0.6; exec $server 1.5 20000 2> s3.err ) &
		pids="$pids $!"
		timeout 30 "$PROBEGEN" --trace --summary --json --budget 5% --duration 2.5 $target > out.json 2> err
		local rc=$?
		kill $bystander; wait $pids 2> /dev/null
		[ $rc = 0 ] || { cat err; fail "$kind: --budget 5% on $target"; }
		python3 - out.json $kind <<-'PY' || fail "$kind: the budget of every process"
		import json, sys
		s = json.load(open(sys.argv[1]))
		b = s["budget"]
		# Three ran it; the bystander is not one.
		assert b["processes"] == 3, b
		assert any(x["probe"] == "busy:lookup" for x in b["sampled"]), b
		assert b["cpu_seconds"] > 0.05, b
		look = s["probes"]["busy:lookup"]
		assert "sampled" in look and look["count"] > 0, look
		print("%s: %d processes, %.2f CPU s, the trace cost %.1f%%" % (sys.argv[2], b["processes"], b["cpu_seconds"], b["cost_percent"]))
		PY
		note "$(python3 -c 'import json,sys; b=json.load(open("out.json"))["budget"]; print(sys.argv[1], b["processes"], "processes,", "%.2f CPU s, cost %.1f%%" % (b["cpu_seconds"], b["cost_percent"]))' $kind)"
	done
	# No budget given: a binary is traced whole, as before.
	./srv 1 2> /dev/null &
	timeout 30 "$PROBEGEN" --trace --summary --json --duration 0.5 ./srv > out.json 2> err || { cat err; fail "no --budget"; }
	wait
	python3 -c 'import json,sys; s=json.load(open("out.json")); assert "budget" not in s, s["budget"]' || fail "a binary traced under a budget it was not given"
	ok
}
