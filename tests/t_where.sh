# tests/t_where.sh - --where (issue "Questions in the command"): filters
# on a probe's arguments, decided in the kernel, in every mode; checked
# against tests/src/where.c's own record of what it fired.

# ./where from tests/src/where.{d,c}.
where_program() {
	"$PROBEGEN" -h -s "$ROOT/tests/src/where.d" -o where_probes.h || fail "-h"
	"$PROBEGEN" -G -s "$ROOT/tests/src/where.d" -o probes.o || fail "-G"
	gcc -O2 -Wall -I. "$ROOT/tests/src/where.c" probes.o -o where || fail "build"
}

# Each filter against the same predicate written in Python over the
# program's record: the events --json printed are exactly those, and
# the end says how many were rejected in the kernel and how many
# reached probegen (a filter run in user space would have had all 40
# reach it).
t_where_filters_match_the_record() {
	need_trace
	where_program
	local filter py n=0
	while read -r line; do
		filter=${line%% @@ *} py=${line#* @@ }
		n=$((n + 1))
		timeout 60 "$PROBEGEN" --trace --json -n 'w:req' -n 'w:text' --where "$filter" \
			-c './where record' > out.$n 2> err.$n ||
			{ case_fail "$filter" "exit $?: $(head -3 err.$n)"; continue; }
		if python3 - "$filter" "$py" record out.$n err.$n <<-'PY'
		import fnmatch, json, re, sys
		filt, py, record, out, err = sys.argv[1:]
		glob = ":".join(filt.split(":")[:2])
		want = []
		for line in open(record):
		    f = line.rstrip("\n").split(" ")
		    if f[0] == "req":
		        env = dict(id=int(f[1]), small=int(f[2]), big=int(f[3]),
		                   path=f[4], neg=int(f[5]), glob=fnmatch.fnmatchcase)
		        probe = "w:req"
		    elif f[0] == "text":
		        env = dict(name=f[1], glob=fnmatch.fnmatchcase)
		        probe = "w:text"
		    else:
		        continue
		    # A probe the glob does not match, or left out (it has no
		    # such argument), passes unfiltered.
		    try:
		        keep = not fnmatch.fnmatchcase(probe, glob) or eval(py, {}, env)
		    except NameError:
		        keep = True
		    if keep:
		        want.append((probe, {k: v for k, v in env.items() if k != "glob"}))
		got = []
		for line in open(out):
		    e = json.loads(line)
		    got.append((e["probe"], {k: v for k, v in e["args"].items() if k != "name_len"}))
		assert got == want, "got %d events, want %d:\n%s\n%s" % (len(got), len(want), got[:3], want[:3])
		# The end's count: of w:req, 40 fired, what passed reached us.
		m = re.search(r"w:req where .*: (\d+) firings rejected in the kernel, (\d+) events reached probegen", open(err).read())
		if m:
		    passed = sum(1 for p, _ in want if p == "w:req")
		    assert (int(m.group(1)), int(m.group(2))) == (40 - passed, passed), m.group(0)
		PY
		then
			case_ok "$filter"
		else
			case_fail "$filter" "not what the record says"
		fi
	done <<-'CASES'
	w:req: id == 7 @@ id == 7
	w:req: id == -9223372036854775808 || id == 9223372036854775807 @@ id in (-2**63, 2**63 - 1)
	w:req: id < 0 && neg >= -5 @@ id < 0 and neg >= -5
	w:req: neg == -2147483648 @@ neg == -2**31
	w:req: big > 9223372036854775807 @@ big > 2**63 - 1
	w:req: big == 0xffffffffffffffff @@ big == 2**64 - 1
	w:req: small >= 200 || small == 0 @@ small >= 200 or small == 0
	w:req: !(small <= 100) && !(id != 7) @@ not small <= 100 and not id != 7
	w:req: 100 < small @@ 100 < small
	w:req: path ~ "/api/*" @@ glob(path, "/api/*")
	w:req: path ~ "*s*s*" @@ glob(path, "*s*s*")
	w:req: path ~ "/api/????s" @@ glob(path, "/api/????s")
	w:req: path == "" @@ path == ""
	w:req: path != "/apix" && (neg < 0 || small > 128) @@ path != "/apix" and (neg < 0 or small > 128)
	w:*: name == "GET" @@ name == "GET"
	w:text: name ~ "/api/*" @@ glob(name, "/api/*")
	CASES
	cases_end
}

# Every mode honours a filter: --summary's counts and its pairs (a call
# is timed when its start and its end both pass), --expect-all (a probe
# that fired and never passed is said), --metrics, --timeline.
t_where_in_every_mode() {
	need_trace
	where_program
	timeout 60 "$PROBEGEN" --trace --summary --json --where 'w:req: id == 7' \
		--where 'w:work__done: latency_ns > 10000000' -c './where' > sum.json 2> err ||
		{ cat err; fail "--summary --where"; }
	python3 - sum.json <<-'PY' || fail "--summary's counts and pairs under --where"
	import json, sys
	s = json.load(open(sys.argv[1]))
	assert s["probes"]["w:req"]["count"] == 8, s["probes"]["w:req"]
	assert s["probes"]["w:work__done"]["count"] == 3, s["probes"]["w:work__done"]
	work = [p for p in s["pairs"] if p["start"] == "w:work__start"][0]
	# Only the three slow calls (20 ms) are timed.
	assert work["count"] == 3 and work["min_ns"] > 15000000, work
	assert work["unmatched_ends"] == 0 and work["unended_starts"] == 0, work
	PY
	grep -q "w:req where id == 7: 32 firings rejected in the kernel, 0 events reached probegen" err ||
		{ cat err; fail "--summary: the end's count"; }
	! timeout 60 "$PROBEGEN" --trace --expect-all -n 'w:req' -n 'w:text' --where 'w:req: id == 12345' \
		-c './where' > out 2> err || fail "--expect-all passed a probe that never passed its filter"
	grep -q "probe w:req fired 40 times, and never passed its --where (id == 12345)" err ||
		{ cat err; fail "--expect-all: what it said"; }
	timeout 60 "$PROBEGEN" --trace --timeline tl.json --where 'w:work__start: id >= 4' -c './where' > out 2> err ||
		{ cat err; fail "--timeline --where"; }
	python3 - tl.json <<-'PY' || fail "--timeline under --where"
	import json, sys
	ev = json.load(open(sys.argv[1]))
	ev = ev["traceEvents"] if isinstance(ev, dict) else ev
	ids = sorted(e["args"]["start"]["id"] for e in ev if e.get("ph") == "X" and e["name"] == "work")
	assert ids == [4, 5], ids
	PY
	# --by's names and --folded's stacks, from the events that pass.
	timeout 60 "$PROBEGEN" --trace --summary --json --by 'w:work__start:id' --folded f.txt \
		--where 'w:work__*: id >= 4' -c './where' > by.json 2> err || { cat err; fail "--by --folded --where"; }
	python3 - by.json <<-'PY' || fail "--summary --by under --where"
	import json, sys
	s = json.load(open(sys.argv[1]))
	names = sorted(n["name"] for p in s["pairs"] for n in p.get("names", []))
	assert names == ["4", "5"], names
	PY
	[ "$(cut -d' ' -f1 f.txt | sort | tr '\n' ' ')" = "4 5 " ] || { cat f.txt; fail "--folded under --where"; }
	need curl
	metrics_start --where 'w:req: small > 200' ./where
	./where
	curl -s "http://127.0.0.1:$PORT/metrics" > page
	metrics_stop
	local want
	want=$(python3 -c 'print(sum(1 for i in range(40) if (i * 37) % 256 > 200))')
	grep -q "^probegen_probe_firings_total{provider=\"w\",probe=\"req\"} $want\$" page ||
		{ grep 'probe="req"' page; fail "--metrics: not $want firings"; }
	ok
}

# Mistakes say what and where, with a caret under the word; nothing is
# traced.
t_where_errors() {
	need_trace
	where_program
	local filter want n=0
	while read -r line; do
		filter=${line%% @@ *} want=${line#* @@ }
		n=$((n + 1))
		timeout 30 "$PROBEGEN" --trace --where "$filter" -c './where' > out 2> err
		local rc=$?
		if [ $rc != 1 ]; then
			case_fail "$filter" "exit $rc, not 1"
		elif ! grep -qF -- "$want" err; then
			case_fail "$filter" "not said: $want; said: $(head -1 err)"
		elif ! grep -q '^ *\^~*$' err; then
			case_fail "$filter" "no caret: $(cat err)"
		elif [ -s out ]; then
			case_fail "$filter" "traced anyway"
		else
			case_ok "$filter"
		fi
	done <<-'CASES'
	w:req: idd == 7 @@ w:req has no argument 'idd' (its arguments: id, small, big, path, neg)
	w:req: path == 7 @@ w:req's 'path' is a string: compare it with a "string" (== != ~)
	w:req: id == "7" @@ w:req's 'id' is a number: compare it with a number (== != < <= > >=)
	w:req: small > 256 @@ out of the range of 'small' (8 bits, unsigned)
	w:req: big == -1 @@ out of the range of 'big' (64 bits, unsigned)
	w:req: path < "b" @@ a string compares with ==, != or ~
	w:req: id ~ "7*" @@ w:req's 'id' is a number: compare it with a number
	w:req: small == 0143 @@ a leading zero: write a number in decimal without it, or in hex with 0x (octal is not read)
	w:req: !id==1 && !id==2 && !id==3 && !id==4 && !id==5 && !id==6 @@ too long a filter for the BPF side: at most 16 steps a probe
	w:req: id == 7 && @@ an argument's name to compare
	w:req: (id == 7 @@ this ( is never closed
	w:req: id = 7 @@ a comparison after the argument
	w:req: path == "open @@ a string without its closing quote
	w:req: id == 7 id @@ &&, || or the end of the expression
	w:req: id == 99999999999999999999 @@ not a number a filter holds
	w:nope: id == 7 @@ no probe traced matches w:nope
	w:req id == 7 @@ --where takes PROVIDER:PROBE: EXPR
	CASES
	# A glob leaves out the probes without the argument, says so, and
	# does not trace them (issue "Real servers, round two", item 3: a
	# user reads "leaves out" as "not traced")...
	timeout 30 "$PROBEGEN" --trace -n 'w:*' --where 'w:*: latency_ns > 0' -c './where' > out 2> err ||
		{ cat err; fail "a glob over probes with and without the argument"; }
	grep -q "^  w:req has no argument 'latency_ns'" err || { cat err; fail "left out: not said"; }
	grep -q "they are not traced, unless -n or a --where of their own names them" err ||
		{ cat err; fail "left out: 'not traced' not said"; }
	[ "$(grep -c ' w:work__done ' out)" = 6 ] && [ "$(grep -c ' w:req ' out)" = 0 ] ||
		{ cat out; fail "a probe a glob's filter cannot judge must not be traced"; }
	grep -q '^probegen: tracing 1 probe$' err || { cat err; fail "the probes left out counted as traced"; }
	# ... unless -n names it apart: then unfiltered.
	timeout 30 "$PROBEGEN" --trace -n 'w:*' -n w:req --where 'w:*: latency_ns > 0' -c './where' > out 2> err ||
		{ cat err; fail "-n w:req apart"; }
	[ "$(grep -c ' w:work__done ' out)" = 6 ] && [ "$(grep -c ' w:req ' out)" = 40 ] ||
		{ cat out; fail "a probe -n names apart must be traced unfiltered"; }
	# ... or a --where of its own.
	timeout 30 "$PROBEGEN" --trace -n 'w:*' --where 'w:*: latency_ns > 0' --where 'w:req: id == 7' -c './where' > out 2> err ||
		{ cat err; fail "a --where of its own"; }
	[ "$(grep -c ' w:req ' out)" = 8 ] || { cat out; fail "a probe with a --where of its own"; }
	cases_end
}

# A filter on member expressions, read in the kernel at the firing
# (members.c overwrites them right after): a number two pointers deep, a
# string member.
t_where_members() {
	need_trace
	members_program
	timeout 60 "$PROBEGEN" --trace -n quic:send --where 'quic:send: conn->local.cid_set.master_id >= 1001 && conn->peer->name != "peer-2"' \
		-c './members 3' > out 2> err || { cat err; fail "--where on members"; }
	firings out | sed 's/conn=0x[0-9a-f]*/conn=ADDR/' > got
	cat > want <<-'W'
	quic:send conn=ADDR n=1 conn->local.cid_set.master_id=1001 conn->peer->name="peer-1"
	W
	diff -u want got || fail "--where on members: not what passed"
	grep -q "quic:send where .*: 2 firings rejected in the kernel, 1 event reached probegen" err ||
		{ cat err; fail "the end's count"; }
	ok
}
