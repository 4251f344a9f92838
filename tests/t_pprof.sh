# tests/t_pprof.sh - --pprof (issue "Profiles where people look"): the
# profile in pprof's format, read by its real consumers: go tool pprof
# (Debian's golang-go) and speedscope.

# Skips unless this probegen writes pprof (protobuf-c, zlib and pprof's
# .proto at build time) and python3 has its probes.
need_pprof() {
	need_trace
	"$PROBEGEN" --trace --pprof p.pb.gz -c true 2>&1 | grep -q 'built without' &&
		skip "probegen was built without --pprof (protobuf-c)"
	PY=$(readlink -f /usr/bin/python3 2> /dev/null)
	[ -x "$PY" ] || skip "no /usr/bin/python3"
	"$PROBEGEN" --list "$PY" | grep -q 'python:function__entry' || skip "$PY has no probes"
}

# busy.py's calls, with --summary --json and --pprof from the same run:
# go tool pprof -raw gives every function exactly the calls and the self
# time --summary counts, with its file and its first line (busy.py's
# "def fast" line), and labels each sample with the process and thread;
# -top and -list read it as a user would.
t_pprof_matches_summary() {
	need_pprof
	need go
	cp "$ROOT/examples/runtimes/busy.py" .
	timeout 120 "$PROBEGEN" --trace --summary --json --pprof p.pb.gz -s "$ROOT/examples/runtimes/python.d" \
		-n 'python:function__*' -n python:line -c "$PY busy.py" > sum.json 2> err || { cat err; fail "--pprof"; }
	[ "$(head -c 2 p.pb.gz | od -An -tx1 | tr -d ' ')" = 1f8b ] || fail "not gzipped"
	go tool pprof -raw p.pb.gz > raw.txt 2> raw.err || { cat raw.err; fail "go tool pprof -raw"; }
	python3 - sum.json raw.txt "$(grep -n '^def fast' busy.py | cut -d: -f1)" <<-'PY' || fail "pprof's file is not --summary's profile"
	import json, re, sys
	s = json.load(open(sys.argv[1]))
	fast_line = int(sys.argv[3])
	want = {}
	for p in s["pairs"]:
	    for n in p.get("names", []):
	        want[n["name"]] = (n["calls"], n["self_ns"])
	raw = open(sys.argv[2]).read()
	assert "PeriodType: calls count" in raw and "Period: 1" in raw, raw[:300]
	head, rest = raw.split("\nLocations\n")
	locs = rest.split("\nMappings\n")[0]
	# "  252: 0x0 M=1 fast /path/busy.py:7 s=7(fast (/path/busy.py))"
	names, where = {}, {}
	for m in re.finditer(r"^\s*(\d+): 0x0 M=1 (\S+) (.*):(\d+) s=(\d+)\((.*)\)$", locs, re.M):
	    names[int(m.group(1))] = m.group(6)
	    where[m.group(6)] = (m.group(2), m.group(3), int(m.group(4)), int(m.group(5)))
	got, pids = {}, set()
	for m in re.finditer(r"^\s+(\d+)\s+(\d+): ([\d ]+)\n\s+pid:\[(\d+)\] tid:\[(\d+)\]$", head, re.M):
	    leaf = names[int(m.group(3).split()[0])]
	    c, t = got.get(leaf, (0, 0))
	    got[leaf] = (c + int(m.group(1)), t + int(m.group(2)))
	    pids.add(int(m.group(4)))
	assert got == want, [(k, got.get(k), want.get(k)) for k in set(got) | set(want) if got.get(k) != want.get(k)][:5]
	fast = [k for k in want if k.startswith("fast (") and k.endswith("busy.py)")]
	assert len(fast) == 1 and want[fast[0]][0] == 200, want
	fn, path, line, start = where[fast[0]]
	assert fn == "fast" and path.endswith("busy.py") and line == start == fast_line, where[fast[0]]
	assert len(pids) == 1 and 0 not in pids, pids
	PY
	go tool pprof -top -sample_index=calls p.pb.gz 2> /dev/null | grep -q ' 200 .* fast$' ||
		{ go tool pprof -top -sample_index=calls p.pb.gz | head; fail "go tool pprof -top: fast's 200 calls"; }
	go tool pprof -list '^fast$' -sample_index=calls p.pb.gz 2> /dev/null | grep -q '200 .*def fast():' ||
		{ go tool pprof -list '^fast$' p.pb.gz; fail "go tool pprof -list: fast's source"; }
	ok
}

# Two runs of a program, before and after a change (step calls helper
# 50 times, then 150): go tool pprof -base shows helper's 100 more calls,
# and no more calls of other or step themselves.
t_pprof_base_diff() {
	need_pprof
	need go
	cat > change.py <<-'PY'
	import sys
	def helper(i):
	    return i * 2
	def other(i):
	    return i + 1
	def step(n):
	    return sum(helper(i) for i in range(n)) + sum(other(i) for i in range(10))
	step(int(sys.argv[1]))
	PY
	local n
	for n in 50 150; do
		timeout 120 "$PROBEGEN" --trace --pprof run$n.pb.gz -s "$ROOT/examples/runtimes/python.d" \
			-n 'python:function__*' -n python:line -c "$PY change.py $n" > out 2> err ||
			{ cat err; fail "--pprof, run $n"; }
	done
	go tool pprof -top -sample_index=calls -base run50.pb.gz run150.pb.gz > diff.txt 2> diff.err ||
		{ cat diff.err; fail "go tool pprof -base"; }
	grep -q '^ *100 .* helper$' diff.txt || { cat diff.txt; fail "-base: helper's 100 more calls"; }
	# Their own calls (flat) unchanged: other's, step's (its callees'
	# are in its cumulative column only).
	awk '$NF == "other" || $NF == "step" { if ($1 != 0) bad = 1 } END { exit bad }' diff.txt ||
		{ cat diff.txt; fail "-base: a function whose calls did not change"; }
	ok
}

# speedscope (npm) opens the file in headless Chromium: its table by
# function has fast's 200 calls, as go tool pprof does.
t_pprof_speedscope() {
	need_pprof
	cp "$ROOT/examples/runtimes/busy.py" .
	timeout 120 "$PROBEGEN" --trace --pprof busy.pb.gz -s "$ROOT/examples/runtimes/python.d" \
		-n 'python:function__*' -n python:line -c "$PY busy.py" > out 2> err || { cat err; fail "--pprof"; }
	"$ROOT/tests/speedscope.sh" busy.pb.gz sandwich > view.out
	case $? in
	0) ;;
	77) skip "$(cat view.out)" ;;
	*) cat view.out; fail "speedscope did not open the pprof file" ;;
	esac
	awk -F'\t' '$3 == "fast" && $2 ~ /^200( |$)/' view.out | grep -q . ||
		{ head view.out; fail "speedscope: fast's 200 calls"; }
	ok
}

# The file's life, as -o's: one that cannot be written is said before
# the trace starts (the command never runs); a trace that fails leaves
# none; a trace stopped by SIGINT leaves the whole profile of what it
# saw (written at the end, renamed into place).
t_pprof_file() {
	need_pprof
	need go
	! "$PROBEGEN" --trace --pprof /nonexistent/dir/p.pb.gz -s "$ROOT/examples/runtimes/python.d" \
		-n 'python:function__*' -c "touch ran" > out 2> err || fail "an unwritable --pprof FILE: success"
	grep -q "/nonexistent/dir/p.pb.gz" err || { cat err; fail "the unwritable file is not named"; }
	[ ! -e ran ] || fail "the command ran though the file could not be written"
	! "$PROBEGEN" --trace --pprof never.pb.gz -n 'nope:nothing' -c "$PY -c pass" > out 2> err ||
		fail "a trace of no probe: success"
	[ ! -e never.pb.gz ] || fail "a trace that failed left a file"
	ls -A | grep -q 'never' && fail "a trace that failed left a temporary file"
	# Probes with no pair among them and no --stack: nothing to weigh,
	# refused before the command runs (h2o's and BIND's wrote a
	# 120-byte profile with no sample, and said nothing).
	values_program values.c values
	"$PROBEGEN" --trace --pprof empty.pb.gz -c ./values > out 2> err
	expect_eq $? 2 "--pprof with nothing to weigh"
	grep -q -- '--pprof has nothing to weigh: none of the 4 probes traced is a pair' err || { cat err; fail 'not said'; }
	[ ! -e empty.pb.gz ] || fail "a profile was written"
	grep -q 'enabled=' out && fail "the command ran"
	# It says when tick has returned 50 times, then ticks on.
	cat > forever.py <<-'PY'
	import sys, time
	def tick():
	    time.sleep(0.001)
	n = 0
	while True:
	    tick()
	    n += 1
	    if n == 50:
	        print("ticked", flush=True)
	PY
	"$PROBEGEN" --trace --pprof int.pb.gz -s "$ROOT/examples/runtimes/python.d" \
		-n 'python:function__*' -n python:line -c "$PY forever.py" > out 2> err &
	local pid=$! i
	for i in $(seq 300); do grep -q '^ticked$' out && break; sleep 0.1; done
	grep -q '^ticked$' out || { kill -INT $pid; cat err; fail "forever.py did not tick"; }
	kill -INT $pid
	wait $pid
	gzip -t int.pb.gz || fail "SIGINT: the file is not whole"
	go tool pprof -top -sample_index=calls -focus='^tick$' int.pb.gz 2> /dev/null |
		awk '$NF == "tick" && $1 >= 50 { found = 1 } END { exit !found }' ||
		{ cat err; go tool pprof -top -sample_index=calls int.pb.gz | head -20; fail "SIGINT: tick's 50 calls are not in the profile"; }
	ok
}

# The README's picture: go tool pprof's call graph of busy.py's self
# time (graphviz draws it), focused on busy.py: work calls slow and
# fast.  Written to docs/pprof.png when PROBEGEN_DOCS_IMAGES is set.
t_pprof_graph_picture() {
	need_pprof
	need go
	need dot
	cp "$ROOT/examples/runtimes/busy.py" .
	timeout 120 "$PROBEGEN" --trace --pprof busy.pb.gz -s "$ROOT/examples/runtimes/python.d" \
		-n 'python:function__*' -n python:line -c "$PY busy.py" > out 2> err || { cat err; fail "--pprof"; }
	go tool pprof -dot -sample_index=self -focus=busy.py busy.pb.gz > graph.dot 2> /dev/null ||
		fail "go tool pprof -dot"
	python3 - graph.dot <<-'PY' || { cat graph.dot; fail "the graph: work does not call slow and fast"; }
	import re, sys
	dot = open(sys.argv[1]).read()
	node = {m.group(2): m.group(1) for m in re.finditer(r'^(N\d+) \[label="([^\\"]+)\\n', dot, re.M)}
	edges = set(re.findall(r'^(N\d+) -> (N\d+)', dot, re.M))
	assert (node["work"], node["slow"]) in edges and (node["work"], node["fast"]) in edges, (node, edges)
	PY
	go tool pprof -png -sample_index=self -focus=busy.py -output graph.png busy.pb.gz 2> /dev/null ||
		fail "go tool pprof -png"
	python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); assert d[:8] == b"\x89PNG\r\n\x1a\n" and len(d) > 10000' graph.png ||
		fail "no picture"
	[ -z "${PROBEGEN_DOCS_IMAGES:-}" ] || cp graph.png "$ROOT/docs/pprof.png"
	ok
}

# --pprof --stack: a probe's firings weighed by their native stacks, the
# binaries as mappings with their build-ids (readelf's), the frames'
# addresses as locations in them (leaf's at its symbol's offset from
# the mapping's start), each with its function and line, the probe as
# the leaf; go tool pprof -list shows leaf's source from them.
t_pprof_stack() {
	need_pprof
	need go
	stack_program
	timeout 60 "$PROBEGEN" --trace --stack --pprof st.pb.gz -c './stack 5' > out 2> err ||
		{ cat err; fail "--stack --pprof"; }
	[ ! -s out ] || fail "--pprof printed the firings"
	go tool pprof -raw st.pb.gz > raw.txt 2> raw.err || { cat raw.err; fail "go tool pprof -raw"; }
	local libc
	libc=$(ldd ./stack | sed -n 's/.*libc.so.6 => \([^ ]*\) .*/\1/p')
	python3 - raw.txt "$(readelf -n stack | sed -n 's/.*Build ID: //p')" \
		"$(nm stack | sed -n 's/^\([0-9a-f]*\) T leaf$/\1/p')" \
		"$(readlink -f "$libc")" "$(readelf -n "$(readlink -f "$libc")" | sed -n 's/.*Build ID: //p')" <<-'PY' ||
	import re, sys
	raw, build_id, leaf_at, libc, libc_id = sys.argv[1:]
	text = open(raw).read()
	assert "PeriodType: firings count" in text and "Period: 1" in text, text[:200]
	samples = re.findall(r"^\s+(\d+): ([\d ]+)$", text.split("\nLocations\n")[0], re.M)
	assert len(samples) == 1 and samples[0][0] == "5", samples
	locs = {}
	for m in re.finditer(r"^\s*(\d+): 0x([0-9a-f]+) (?:M=(\d+) )?(\S+) (\S*):(\d+) s=\d+$", text, re.M):
	    locs[m.group(1)] = (int(m.group(2), 16), m.group(3), m.group(4), m.group(5), int(m.group(6)))
	maps = {}
	for m in re.finditer(r"^(\d+): 0x([0-9a-f]+)/0x([0-9a-f]+)/0x([0-9a-f]+) (\S+) ([0-9a-f]*)", text, re.M):
	    maps[m.group(1)] = (int(m.group(2), 16), int(m.group(3), 16), m.group(5), m.group(6))
	chain = [locs[i] for i in samples[0][1].split()]
	assert [c[2] for c in chain[:5]] == ["st:deep", "leaf", "middle", "outer", "main"], chain
	assert chain[0][1] is None, chain[0]  # the probe: no mapping
	for addr, mid, fn, path, line in chain[1:5]:
	    start, limit, binary, bid = maps[mid]
	    assert binary.endswith("/stack") and bid == build_id, (fn, maps[mid], build_id)
	    assert start <= addr < limit, (fn, hex(addr), maps[mid])
	    assert path.endswith("stack.c") and line > 0, (fn, path, line)
	leaf = chain[1]
	assert leaf[0] - maps[leaf[1]][0] == int(leaf_at, 16), (hex(leaf[0]), maps[leaf[1]], leaf_at)
	assert any(b == libc and i == libc_id for _, _, b, i in maps.values()), (libc, libc_id, maps)
	PY
		{ cat raw.txt; fail "the mappings and addresses"; }
	go tool pprof -list '^leaf$' st.pb.gz 2> /dev/null | grep -q '^ *\. *5 .*ST_DEEP(n);' ||
		{ go tool pprof -list '^leaf$' st.pb.gz; fail "go tool pprof -list: leaf's source line"; }
	ok
}

# A binary whose name is not UTF-8 (a file name may be any bytes): the
# profile's strings are all UTF-8, the byte as U+FFFD, as protobuf's
# strict decoders (Go's, in Pyroscope) require; read here by protobuf's
# wire format itself, field 6 of the Profile being its string table.
t_pprof_strings_are_utf8() {
	need_pprof
	stack_program
	mv stack "st$(printf '\377')ack"
	timeout 60 "$PROBEGEN" --trace --stack --pprof u.pb.gz -c "./st$(printf '\377')ack 2" > out 2> err ||
		{ cat err; fail "--stack --pprof"; }
	python3 - u.pb.gz <<-'PY' || fail "a string of the profile is not UTF-8"
	import gzip, sys
	data = gzip.open(sys.argv[1]).read()
	def varint(i):
	    v = shift = 0
	    while True:
	        b = data[i]; i += 1
	        v |= (b & 0x7f) << shift; shift += 7
	        if b < 0x80:
	            return v, i
	strings, i = [], 0
	while i < len(data):
	    key, i = varint(i)
	    wire = key & 7
	    if wire == 0:
	        i = varint(i)[1]
	    elif wire in (1, 5):
	        i += 8 if wire == 1 else 4
	    else:
	        assert wire == 2, wire
	        n, i = varint(i)
	        if key >> 3 == 6:
	            strings.append(data[i:i + n])
	        i += n
	text = [s.decode("utf-8") for s in strings]  # strict: raises on a stray byte
	assert any(t.endswith("st\ufffdack") for t in text), [t for t in text if "ack" in t]
	PY
	ok
}

# Inlined frames are pprof's too, each with its line: fire inlined into
# check inlined into outer (tests/src/inlined.c), as go tool pprof reads
# them.
t_pprof_inlined_frames() {
	need_pprof
	need go
	"$PROBEGEN" -h -s "$ROOT/tests/src/stack.d" -o stack_probes.h || fail "-h"
	"$PROBEGEN" -G -s "$ROOT/tests/src/stack.d" -o probes.o || fail "-G"
	gcc -g -O2 -fomit-frame-pointer -I. "$ROOT/tests/src/inlined.c" probes.o -o inl || fail "build"
	timeout 60 "$PROBEGEN" --trace --stack --pprof p.pb.gz -c ./inl > out 2> err || { cat err; fail "--pprof"; }
	go tool pprof -traces p.pb.gz > traces 2> err || { cat err; fail "go tool pprof -traces"; }
	local fire
	fire=$(grep -n 'ST_DEEP(n);' "$ROOT/tests/src/inlined.c" | cut -d: -f1)
	grep -q ' fire$' traces && grep -q ' check$' traces && grep -q ' outer$' traces ||
		{ cat traces; fail "--pprof's inlined frames"; }
	go tool pprof -lines -traces p.pb.gz > lines 2> err || { cat err; fail "go tool pprof -lines"; }
	grep -q " fire .*inlined.c:$fire\$" lines || { cat lines; fail "--pprof: fire's line"; }
	ok
}
