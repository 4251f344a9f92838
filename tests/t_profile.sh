# t_profile.sh - profiles of interpreted programs: the calls a runtime's
# function__entry/function__return probes make, broken down by name
# (--summary, --by, --top), folded (--folded), named on the timeline,
# at any depth; against a toy runtime of known calls and times, and
# Debian's Python against cProfile's and a bpftrace script's counts.
# serial_tests: t_profile_folded_and_timeline t_profile_breakdown
# (timing-bound: the toy's calls are timed within bounds (helper 10 to 30 ms): run alone)

# A toy runtime: App::run calls App::slow 3 times (20 ms each),
# App::fast 10 times (1 ms), helper 5 times (2 ms, no class), then
# Rec::down recurses 1,200 deep; with a number N, N functions f0.. once.
profile_toy() {
	cat > toy.d <<-'EOF'
	provider toy {
		probe function__entry(const char *classname, const char *funcname, int depth);
		probe function__return(const char *classname, const char *funcname, int depth);
	};
	EOF
	cat > toy.c <<-'EOF'
	#include <stdio.h>
	#include <stdlib.h>
	#include <time.h>
	#include "toy.h"
	static void spin_ms(int ms)
	{
		struct timespec t0, t;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do
			clock_gettime(CLOCK_MONOTONIC, &t);
		while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < ms * 1000000L);
	}
	static void call(const char *cls, const char *fn, int ms, int depth)
	{
		TOY_FUNCTION_ENTRY(cls, fn, depth);
		spin_ms(ms);
		TOY_FUNCTION_RETURN(cls, fn, depth);
	}
	static void down(int depth)
	{
		TOY_FUNCTION_ENTRY("Rec", "down", depth);
		if (depth > 1)
			down(depth - 1);
		TOY_FUNCTION_RETURN("Rec", "down", depth);
	}
	int main(int argc, char **argv)
	{
		int i, names = argc > 1 ? atoi(argv[1]) : 0;
		char fn[32];
		if (names) {
			for (i = 0; i < names; i++) {
				snprintf(fn, sizeof(fn), "f%d", i);
				call("", fn, 0, 1);
			}
			return 0;
		}
		TOY_FUNCTION_ENTRY("App", "run", 1);
		for (i = 0; i < 3; i++)
			call("App", "slow", 20, 2);
		for (i = 0; i < 10; i++)
			call("App", "fast", 1, 2);
		for (i = 0; i < 5; i++)
			call("", "helper", 2, 2);
		TOY_FUNCTION_RETURN("App", "run", 1);
		down(1200);
		return 0;
	}
	EOF
	expect "$PROBEGEN" -h -s toy.d -o toy.h
	expect "$PROBEGEN" -G -s toy.d -o toy_probes.o
	expect gcc -O2 toy.c toy_probes.o -o toy
}

# Per name: calls, total (a recursion's once), self, p50 and p99, most
# self time first, by the class and function the probe's arguments
# name; every call timed at 1,200 deep; the text table cut by --top.
t_profile_breakdown() {
	need_trace
	profile_toy
	"$PROBEGEN" --trace --summary --json -c ./toy > out.json 2> err || { cat err; fail "--summary --json"; }
	# toy is no runtime's provider: the breakdown by name is said.
	expect_eq "$(grep -c 'timed by name' err)" 1 "the breakdown said once"
	expect_grep '^probegen: toy:function__entry, toy:function__return: each call timed by name too, by its classname, funcname, as a runtime.s are (--by toy:function__entry:ARG chooses the arguments)$' err
	python3 - out.json <<-'PY' || fail "the breakdown"
	import json, sys
	p = json.load(open(sys.argv[1]))["pairs"][0]
	assert p["count"] == 1219 and p["too_deep_starts"] == 0 and p["unended_starts"] == 0, p
	assert p["unmatched_ends"] == 0, p
	assert p["named_by"] == ["classname", "funcname"], p["named_by"]
	n = {x["name"]: x for x in p["names"]}
	assert sorted(n) == ["App::fast", "App::run", "App::slow", "Rec::down", "helper"], sorted(n)
	calls = {k: v["calls"] for k, v in n.items()}
	assert calls == {"App::run": 1, "App::slow": 3, "App::fast": 10, "helper": 5, "Rec::down": 1200}, calls
	ms = lambda k, f: n[k][f] / 1e6
	# Spinning: at least the time asked, and not three times as much (a
	# busy machine preempts a call between its spin and its return).
	assert 60 <= ms("App::slow", "self_ns") < 180, n["App::slow"]
	assert 10 <= ms("App::fast", "self_ns") < 30, n["App::fast"]
	assert 10 <= ms("helper", "self_ns") < 30, n["helper"]
	assert 17.5 <= ms("App::slow", "p50_ns") <= 40, n["App::slow"]
	# App::run's total holds its calls'; its own time is small.
	assert ms("App::run", "total_ns") >= 80 and ms("App::run", "self_ns") < 5, n["App::run"]
	# A recursion's total is its outermost call's: no more than its self
	# time summed over every level.
	assert n["Rec::down"]["total_ns"] <= n["Rec::down"]["self_ns"] * 1.01 + 1000, n["Rec::down"]
	order = [x["name"] for x in p["names"]]
	assert order[0] == "App::slow" and order[-1] == "App::run", order
	PY
	"$PROBEGEN" --trace --summary --top 2 -c ./toy > out 2> err || { cat err; fail "--summary --top 2"; }
	grep -A4 'by name' out > table
	grep -Eq '^ +3 +[0-9]+\.[0-9]+ ms +[0-9]+\.[0-9]+ ms +[0-9]+\.[0-9]+ ms +[0-9]+\.[0-9]+ ms +App::slow$' table || { cat out; fail "the App::slow row"; }
	expect_grep '^  (and 3 more: --top N, or --json for all)$' table
	[ "$(grep -c '::\|helper' table)" = 2 ] || { cat table; fail "--top 2: two rows"; }
	ok
}

# The man page's --summary --json object, as man renders it, is valid
# in shape and names every key a real summary has (a pair by name, and
# processes: -c follows a tree), and no key it does not have.
t_profile_json_as_man() {
	need_trace
	need man
	profile_toy
	"$PROBEGEN" --trace --summary --json -c ./toy > out.json 2> err || { cat err; fail "--summary --json"; }
	MANWIDTH=1000 man -l "$ROOT/man/probegen-trace.1" 2> /dev/null > man.txt || fail "man -l"
	python3 - out.json man.txt <<-'PY' || fail "the man page's JSON and a real one differ"
	import json, re, sys
	def keys(v, out):
	    if isinstance(v, dict):
	        for k, x in v.items():
	            out.add(k if not re.match(r"^\w+:\w+$", k) else "P:N")
	            keys(x, out)
	    elif isinstance(v, list):
	        for x in v:
	            keys(x, out)
	    return out
	real = keys(json.load(open(sys.argv[1])), set())
	text = re.sub(r"\s*\n\s*", " ", open(sys.argv[2]).read())
	m = re.search(r'(\{"seconds": .*?"unfired": \["P:N"\]\})', text)
	assert m, "no --summary --json object in the rendered page"
	shown = set(re.findall(r'"([\w:]+)":', m.group(1)))
	assert shown == real, ("only in the man page", shown - real, "only in the output", real - shown)
	PY
	ok
}

# --by names the arguments (an integer too); a name it cannot find is
# said; with 12,000 names a pair keeps 10,000 and counts the rest as
# (other), said once.
t_profile_by() {
	need_trace
	profile_toy
	"$PROBEGEN" --trace --summary --json --by 'toy:function__entry:funcname+depth' -c ./toy > out.json 2> err || { cat err; fail "--by"; }
	python3 - out.json <<-'PY' || fail "--by funcname+depth"
	import json, sys
	p = json.load(open(sys.argv[1]))["pairs"][0]
	assert p["named_by"] == ["funcname", "depth"], p["named_by"]
	n = {x["name"]: x["calls"] for x in p["names"]}
	assert n["slow::2"] == 3 and n["run::1"] == 1 and n["down::1200"] == 1 and n["down::1"] == 1, n
	assert len(n) == 4 + 1200, len(n)
	PY
	"$PROBEGEN" --trace --summary --by 'toy:function__entry:nope' -c ./toy > out 2> err || { cat err; fail "--by nope"; }
	expect_grep "^probegen: warning: --by toy:function__entry:nope: toy:function__entry has no argument 'nope'$" err
	grep -q 'App::slow' out || fail "an unknown --by argument: the names as if it were not given"
	"$PROBEGEN" --trace --summary --by 'toy:other:x' -c ./toy > out 2> err || fail "--by toy:other:x"
	expect_grep "^probegen: warning: --by toy:other:x: no pair traced starts with that probe$" err
	"$PROBEGEN" --trace --by 'toy:function__entry:funcname' -c ./toy > out 2> err
	expect_eq $? 2 "--by alone"
	expect_grep 'needs --summary, --timeline, --folded or --metrics' err
	"$PROBEGEN" --trace --summary --by 'toy:function__entry' -c ./toy > out 2> err
	expect_eq $? 2 "--by without arguments"
	expect_grep "takes PROVIDER:START:ARG" err
	"$PROBEGEN" --trace --summary --json -c './toy 12000' > many.json 2> err || { cat err; fail "12,000 names"; }
	[ "$(grep -c 'more than 10000 names' err)" = 1 ] || { cat err; fail "the names past 10,000 said once"; }
	python3 - many.json <<-'PY' || fail "12,000 names"
	import json, sys
	p = json.load(open(sys.argv[1]))["pairs"][0]
	n = {x["name"]: x["calls"] for x in p["names"]}
	assert len(n) == 10001 and n["(other)"] == 2000 and p["count"] == 12000, (len(n), n.get("(other)"))
	PY
	ok
}

# --folded: the call tree as folded stacks, weighed by self time, whose
# lines add up to the calls' time; a timeline's slices carry the names.
t_profile_folded_and_timeline() {
	need_trace
	profile_toy
	"$PROBEGEN" --trace --folded toy.folded --summary -c ./toy > sum 2> err || { cat err; fail "--folded"; }
	python3 - toy.folded <<-'PY' || { head -c 600 toy.folded; fail "the folded stacks"; }
	import sys
	w = {}
	for line in open(sys.argv[1]):
	    stack, weight = line.rstrip("\n").rsplit(" ", 1)
	    w[stack] = w.get(stack, 0) + int(weight)
	assert 60e6 <= w["App::run;App::slow"] < 180e6, w["App::run;App::slow"]
	assert 10e6 <= w["App::run;App::fast"] < 30e6
	assert 10e6 <= w["App::run;helper"] < 30e6
	assert w["App::run"] < 5e6
	deepest = max((s for s in w if s.startswith("Rec::down")), key=len)
	assert deepest.count(";") == 1199, deepest.count(";")
	assert all(";" not in f and "\n" not in f for s in w for f in s.split(";")), "a frame holds a separator"
	PY
	# Its weights add up to the outermost calls' time, as --summary has
	# it: App::run's and the outermost Rec::down's (whose total holds
	# its recursion: 2,400 firings, 19 ms where a uprobe hit costs 8 us).
	python3 - toy.folded sum <<-'PY' || fail "folded weights against the summary"
	import re, sys
	total = sum(int(l.rsplit(" ", 1)[1]) for l in open(sys.argv[1]))
	text = open(sys.argv[2]).read()
	def total_ms(name):
	    m = re.search(r"(\d+) +([\d.]+) (us|ms) +[\d.]+ (?:us|ms) .* %s$" % re.escape(name), text, re.M)
	    assert m, name
	    return float(m.group(2)) / (1000 if m.group(3) == "us" else 1)
	outer = total_ms("App::run") + total_ms("Rec::down")
	assert abs(total / 1e6 - outer) < outer * 0.1, (total, outer)
	PY
	# A folded file that cannot be written: said before the trace.
	"$PROBEGEN" --trace --folded /nonexistent/dir/x.folded -c ./toy > out 2> err
	expect_eq $? 2 "--folded into a missing directory"
	grep -q 'App' out && fail "traced though --folded cannot be written"
	"$PROBEGEN" --trace --timeline toy.json -c ./toy > /dev/null 2> err || { cat err; fail "--timeline"; }
	python3 - toy.json <<-'PY' || fail "the timeline's names"
	import collections, json, sys
	d = json.load(open(sys.argv[1]))
	c = collections.Counter(e["name"] for e in d["traceEvents"] if e["ph"] == "X")
	assert c == {"Rec::down": 1200, "App::fast": 10, "helper": 5, "App::slow": 3, "App::run": 1}, c
	PY
	ok
}

# Debian's Python: per function, the calls --summary counts are those
# cProfile counts (Python's own deterministic profiler) and those a
# hand-written bpftrace script counts, recursion 900 deep included.
# Python 3.11 fires function__entry only while its line probe is
# attached (CPython issue 98894): the line probe is traced too.
t_profile_python() {
	need_trace
	need_bpftrace
	local py
	py=$(readlink -f /usr/bin/python3 2>/dev/null)
	[ -x "$py" ] || skip "no /usr/bin/python3"
	"$PROBEGEN" --list "$py" | grep -q 'python:function__entry' || skip "$py has no probes"
	cat > script.py <<-'EOF'
	def leaf(n):
	    return n + 1

	def middle(n):
	    t = 0
	    for i in range(n):
	        t += leaf(i)
	    return t

	def rec(n):
	    return 0 if n == 0 else 1 + rec(n - 1)

	class Shape:
	    def area(self):
	        return 1

	def run_all():
	    for _ in range(7):
	        middle(13)
	    rec(900)
	    s = Shape()
	    for _ in range(11):
	        s.area()

	def main():
	    run_all()

	main()
	EOF
	"$PROBEGEN" --trace --summary --json -s "$ROOT/examples/runtimes/python.d" \
		-n 'python:function__*' -n python:line -c "$py script.py" > py.json 2> err || { cat err; fail "--summary of python"; }
	# A runtime's provider: broken down by name unasked, and unsaid.
	grep -q 'timed by name' err && fail "python's breakdown by name was said"
	"$py" -c "import cProfile; cProfile.run(open('script.py').read(), 'prof.out')" > /dev/null
	"$py" - <<-'PY' > cprofile.txt
	import pstats
	for (f, line, name), (cc, nc, tt, ct, callers) in pstats.Stats("prof.out").stats.items():
	    if f == "<string>" and name != "<module>":
	        print(name, nc)
	PY
	timeout 60 bpftrace -e "usdt:$py:python:function__entry { @[str(arg1)] = count(); } usdt:$py:python:line { }" \
		-c "$py script.py" > bt.txt 2> bt.err || { cat bt.err; fail "bpftrace"; }
	python3 - py.json cprofile.txt bt.txt <<-'PY' || fail "the counts differ"
	import json, re, sys
	p = [x for x in json.load(open(sys.argv[1]))["pairs"] if x["start"] == "python:function__entry"][0]
	names = {x["name"]: x["calls"] for x in p["names"]}
	# Rows key on function and file: the script's main is not site.py's.
	ours = {k.split(" (")[0]: v for k, v in names.items() if k.endswith("/script.py)")}
	site = [k for k in names if k in ("main (<frozen site>)", "main (/usr/lib/python3.11/site.py)")]
	assert len(site) == 1 and names[site[0]] == 1, sorted(names)[:20]
	cprof = dict((l.split()[0], int(l.split()[1])) for l in open(sys.argv[2]))
	bt = {m.group(1): int(m.group(2)) for m in re.finditer(r"^@\[(.*?)\]: (\d+)$", open(sys.argv[3]).read(), re.M)}
	assert cprof == {"leaf": 91, "middle": 7, "rec": 901, "Shape": 1, "area": 11, "run_all": 1, "main": 1}, cprof
	for name, n in cprof.items():
	    assert ours.get(name) == n, (name, ours.get(name), n)
	    # bpftrace counts by function name alone: site.py's main too.
	    assert bt.get(name) == n + (name == "main"), (name, bt.get(name), n)
	assert p["too_deep_starts"] == 0 and p["unmatched_ends"] == 0, p
	print("\n".join("%s %d" % kv for kv in sorted(cprof.items())))
	PY
	note "python: $(python3 -c 'import json,sys; p=[x for x in json.load(open(sys.argv[1]))["pairs"] if x["start"]=="python:function__entry"][0]; print(p["count"], "calls,", len(p["names"]), "names")' py.json)"
	ok
}

# The README's flame chart: examples/runtimes/busy.py folded, loaded into
# speedscope in headless Chromium; its table by function (the sandwich
# view) has slow and fast on top with the self times of the folded file,
# and the left-heavy view is the README's screenshot (written to
# docs/profile.png when PROBEGEN_DOCS_IMAGES is set).
t_profile_flame_chart() {
	need_trace
	local py
	py=$(readlink -f /usr/bin/python3 2>/dev/null)
	[ -x "$py" ] || skip "no /usr/bin/python3"
	"$PROBEGEN" --list "$py" | grep -q 'python:function__entry' || skip "$py has no probes"
	cp "$ROOT/examples/runtimes/busy.py" .
	"$PROBEGEN" --trace --folded busy.folded -s "$ROOT/examples/runtimes/python.d" \
		-n 'python:function__*' -n python:line -c "$py busy.py" > out 2> err || { cat err; fail "--folded"; }
	[ ! -s out ] || fail "--folded printed the firings"
	"$ROOT/tests/speedscope.sh" busy.folded sandwich > view.out
	case $? in
	0) ;;
	77) skip "$(cat view.out)" ;;
	*) cat view.out; fail "speedscope did not show the folded stacks" ;;
	esac
	python3 - busy.folded view.out <<-'PY' || { cat view.out | head; fail "speedscope's table"; }
	import sys
	self = {}
	for line in open(sys.argv[1]):
	    stack, w = line.rstrip("\n").rsplit(" ", 1)
	    leaf = stack.split(";")[-1]
	    self[leaf] = self.get(leaf, 0) + int(w)
	rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2])]
	# slow heads the table; fast heads busy.py's other rows (a start-up
	# function of Python's own can pass it when the machine is loaded:
	# CI's sanitizer pass once showed importlib's <listcomp> 6 us above).
	mine = [r for r in rows if r[2].endswith("/busy.py)")]
	assert rows[0] == mine[0], rows[:3]
	assert [r[2].split(" (")[0] for r in mine[:2]] == ["slow", "fast"], mine[:3]
	for total, own, name in mine[:2]:
	    assert int(own.split()[0].replace(",", "")) == self[name], (name, own, self[name])
	PY
	"$ROOT/tests/speedscope.sh" busy.folded left-heavy busy.png > /dev/null || fail "the flame chart's screenshot"
	python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); assert d[:8] == b"\x89PNG\r\n\x1a\n" and len(d) > 10000' busy.png ||
		fail "no screenshot"
	[ -z "${PROBEGEN_DOCS_IMAGES:-}" ] || cp busy.png "$ROOT/docs/profile.png"
	ok
}
