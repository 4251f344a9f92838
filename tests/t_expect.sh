# tests/t_expect.sh - --expect (issue "Tracepoints as a tested API"): a
# tracepoint test in one command.  Each expectation's count is checked
# against tests/src/where.c's own record of what it fired, and the run's
# status against what the expectations and the command say.

# ./where from tests/src/where.{d,c}.
expect_program() {
	"$PROBEGEN" -h -s "$ROOT/tests/src/where.d" -o where_probes.h || fail "-h"
	"$PROBEGEN" -G -s "$ROOT/tests/src/where.d" -o probes.o || fail "-G"
	gcc -O2 -Wall -I. "$ROOT/tests/src/where.c" probes.o -o where || fail "build"
}

# How many of the record's firings of probe pass a Python predicate.
record_count() {
	python3 - "$1" "$2" record <<-'PY'
	import fnmatch, sys
	probe, py, record = sys.argv[1:]
	n = 0
	for line in open(record):
	    f = line.rstrip("\n").split(" ")
	    if f[0] == "req" and probe == "w:req":
	        env = dict(id=int(f[1]), small=int(f[2]), big=int(f[3]), path=f[4], neg=int(f[5]))
	    elif f[0] == "text" and probe == "w:text":
	        env = dict(name=f[1])
	    else:
	        continue
	    n += bool(eval(py, {}, env))
	print(n)
	PY
}

# Each expectation: the count the end says is the record's, "met" or
# "not met" as its count wants, and the status 0 or 1 with it.
t_expect_counts_are_the_records() {
	need_trace
	expect_program
	./where record || fail "./where"
	local line spec py want n=0 got status
	while read -r line; do
		spec=${line%% @@ *} line=${line#* @@ }
		py=${line%% @@ *} want=${line#* @@ }
		n=$((n + 1))
		timeout 60 "$PROBEGEN" --trace --summary --expect "$spec" -c './where' > out.$n 2> err.$n
		status=$?
		got=$(sed -n "s/^probegen: \(error: \)\{0,1\}--expect '.*': \(not \)\{0,1\}met: \([0-9]*\) of .*/\3/p" err.$n)
		local probe=${spec%%[{:]*}
		probe=$probe:$(echo "${spec#*:}" | sed 's/[{:].*//')
		[ "$got" = "$(record_count "$probe" "$py")" ] ||
			{ case_fail "$spec" "counted '$got', the record says $(record_count "$probe" "$py"): $(cat err.$n)"; continue; }
		case $want in
		met) [ $status = 0 ] && grep -q "': met: " err.$n ;;
		unmet) [ $status = 1 ] && grep -q "': not met: " err.$n ;;
		esac || { case_fail "$spec" "wanted $want, status $status: $(cat err.$n)"; continue; }
		case_ok "$spec"
	done <<-'CASES'
	w:req: id == 7 @@ id == 7 @@ met
	w:req{8}: id == 7 @@ id == 7 @@ met
	w:req{9,}: id == 7 @@ id == 7 @@ unmet
	w:req{0}: id == 7 @@ id == 7 @@ unmet
	w:req{0}: id == 8 @@ id == 8 @@ met
	w:req{2,7}: path == "/api/users" @@ path == "/api/users" @@ met
	w:req{1,6}: path == "/api/users" @@ path == "/api/users" @@ unmet
	w:req{40} @@ True @@ met
	w:req: path ~ "/api/*" && neg < 0 @@ path.startswith("/api/") and neg < 0 @@ met
	w:text{1}: name == "GET" @@ name == "GET" @@ met
	w:text{0}: name == "/api/users" @@ name == "/api/users" @@ unmet
	w:req{all}: big >= 0 @@ big >= 0 @@ met
	w:req{all}: id == 7 @@ id == 7 @@ unmet
	w:req{all}: id == 7 || id != 7 @@ True @@ met
	CASES
	# {all} of a probe that never fired (--where passed none to it): not
	# met, so that a test of a value cannot pass on nothing traced.
	timeout 60 "$PROBEGEN" --trace --summary --where 'w:req: id == -12345' --expect 'w:req{all}: id == -12345' -c './where' > out 2> err
	expect_eq $? 1 "{all} of no firing"
	expect_grep "not met: 0 of 0 firings passed (wanted every firing, at least 1)" err
	cases_end
}

# The firings judged are those the trace takes: with every output,
# --where's filter first, --limit's first N, a BINARY operand.
t_expect_with_every_output() {
	need_trace
	expect_program
	local mode
	for mode in "" --json --summary "--timeline t.json" "--metrics 127.0.0.1:0"; do
		timeout 60 "$PROBEGEN" --trace $mode --expect 'w:req{8}: id == 7' -o o.txt -c './where' > /dev/null 2> err ||
			{ cat err; fail "--expect with '$mode'"; }
		expect_grep "--expect 'w:req{8}: id == 7': met: 8 of 40 firings passed (wanted exactly 8)" err
	done
	# --where's filter decides first: only the firings it passed are judged.
	timeout 60 "$PROBEGEN" --trace --where 'w:req: id >= 7' --expect 'w:req{8}: id == 7' -c './where' > /dev/null 2> err ||
		{ cat err; fail "--where and --expect"; }
	expect_grep "met: 8 of 16 firings passed" err
	# --limit: the firings up to it (the 4th firing is the first id 7).
	timeout 60 "$PROBEGEN" --trace --limit 5 --expect 'w:req{1}: id == 7' -c './where' > /dev/null 2> err ||
		{ cat err; fail "--limit"; }
	expect_grep "met: 1 of 5 firings passed" err
	# A BINARY operand: the program run apart, the trace ended by --duration.
	timeout 60 "$PROBEGEN" --trace --duration 3 --expect 'w:text{2}' ./where > /dev/null 2> err &
	local tracer=$!
	for i in $(seq 100); do grep -q 'tracing' err && break; sleep 0.1; done
	./where || fail "./where"
	wait $tracer || { cat err; fail "--expect on a BINARY operand"; }
	expect_grep "'w:text{2}': met: 2 of 2 firings passed" err
	# -p: a process that execs the program once the tracer is there.
	rm -f go
	sh -c 'while [ ! -e go ]; do sleep 0.05; done; exec ./where' &
	local pid=$!
	timeout 60 "$PROBEGEN" --trace --summary --expect 'w:req{8}: id == 7' -p $pid > /dev/null 2> err &
	tracer=$!
	# Following once its links are made (its own fds: other tests'
	# tracers may run beside it).
	for i in $(seq 300); do
		ls -l /proc/$tracer/fd 2> /dev/null | grep -q 'bpf_link' && break
		sleep 0.1
	done
	sleep 0.2
	touch go
	wait $tracer || { cat err; fail "--expect with -p"; }
	expect_grep "'w:req{8}: id == 7': met: 8 of 40 firings passed" err
	ok
}

# The status: 1 when an expectation is not met; the command's own
# failure wins (a test suite that failed), as without --expect.
t_expect_status() {
	need_trace
	expect_program
	printf '#!/bin/sh\n./where\nexit "$1"\n' > run.sh
	chmod +x run.sh
	timeout 60 "$PROBEGEN" --trace --summary --expect 'w:req{0}' -c './run.sh 0' > /dev/null 2> err
	expect_eq $? 1 "an expectation not met"
	timeout 60 "$PROBEGEN" --trace --summary --expect 'w:req' -c './run.sh 3' > /dev/null 2> err
	expect_eq $? 3 "the command's failure"
	timeout 60 "$PROBEGEN" --trace --summary --expect 'w:req' --expect 'w:text' -c './run.sh 0' > /dev/null 2> err
	expect_eq $? 0 "two expectations met"
	[ "$(grep -c "': met: " err)" = 2 ] || { cat err; fail "each expectation said"; }
	ok
}

# A malformed count or expression is an error with a caret under it,
# before anything runs; a probe no binary has is an error at the start
# (a command's program may exec another: then it is said at the end).
t_expect_errors() {
	need_trace
	expect_program
	! "$PROBEGEN" --trace --expect 'w:req{x}: id == 7' ./where > out 2> err || fail "{x} taken"
	expect_grep "error: --expect 'w:req{x}: id == 7': a count: {N} exactly, {N,} at least, {N,M} from N to M" err
	expect_grep '^       \^~~$' err
	! "$PROBEGEN" --trace --expect 'w:req{3,1}' ./where > out 2> err || fail "{3,1} taken"
	expect_grep "a count: " err
	! "$PROBEGEN" --trace --expect 'w:req: id ==' ./where > out 2> err || fail "a bad expression taken"
	! "$PROBEGEN" --trace --expect 'wreq' ./where > out 2> err || fail "no probe"
	expect_grep "--expect takes PROVIDER:PROBE\[{COUNT}\]\[: EXPR\]" err
	! "$PROBEGEN" --trace --expect 'w:nope' ./where > out 2> err || fail "a probe no binary has"
	expect_grep "error: --expect 'w:nope': no probe traced can meet it" err
	timeout 60 "$PROBEGEN" --trace --expect 'w:nope' -c ./where > out 2> err
	expect_eq $? 1 "-c: a probe never traced"
	expect_grep "--expect 'w:nope': no probe traced can meet it (wanted at least 1)" err
	ok
}

# Errors said before the command starts, with a caret (each was silent,
# or said only after the whole command had run): a count past 64 bits
# (clamped), an unclosed { (taken into the probe's name), an argument no
# probe it matches has (a warning, then a failure at the end); and a
# constant first is read as the man page says (PERIODIC == mode was
# refused), 0x with no digits said for what it is.
t_expect_errors_before_the_command() {
	local marker
	need_trace
	expect_program
	marker=ran.$$
	check_refused() { # SPEC WHAT-IT-SAYS CARET-LINE
		timeout 60 "$PROBEGEN" --trace --expect "$1" -c "sh -c 'touch $marker; ./where'" > out 2> err
		expect_eq $? 1 "--expect '$1'"
		[ ! -e "$marker" ] || fail "--expect '$1': the command ran before the error"
		grep -qF -- "$2" err || { cat err; fail "--expect '$1': not said: $2"; }
		grep -qxF -- "$3" err || { cat err; fail "--expect '$1': the caret"; }
	}
	check_refused 'w:req{99999999999999999999}' 'a count larger than a trace can count' \
		'  w:req{99999999999999999999}' 
	grep -qxF '       ^~~~~~~~~~~~~~~~~~~~~~' err || { cat err; fail "the count's caret"; }
	check_refused 'w:req{3,' "a count: {N} exactly, {N,} at least, {N,M} from N to M, {all} every firing, just before ':' or the end" '  w:req{3,'
	grep -qxF '       ^~~' err || { cat err; fail "the unclosed {'s caret"; }
	# The probes known at the start (the program itself).
	timeout 60 "$PROBEGEN" --trace --expect 'w:re*{2,}: feee > 1000' -c ./where > out 2> err
	expect_eq $? 1 "an argument no probe has"
	expect_grep "it can judge no probe it matches: w:req has no argument 'feee'" err
	grep -qxF '             ^~~~' err || { cat err; fail "the unknown argument's caret"; }
	! grep -q 'not met' err || fail "the command ran before the error"
	# A probe named exactly that a followed process brings: the trace
	# stops there, the command is not run to its end.
	SECONDS=0
	timeout 60 "$PROBEGEN" --trace --expect 'w:req{2,}: feee > 1000' -c 'sh -c "./where; sleep 30"' > out 2> err
	expect_eq $? 1 "an argument the followed probe lacks"
	[ $SECONDS -lt 20 ] || fail "the followed command ran to its end"
	expect_grep "it can judge no probe it matches: w:req has no argument 'feee'" err
	grep -qxF '             ^~~~' err || { cat err; fail "the followed probe's caret"; }
	check_refused 'w:req: big ~ 0x*' '0x with no hex digits after it' '  w:req: big ~ 0x*'
	"$PROBEGEN" --trace --expect 'w:req{1,}: 7 == id' --expect 'w:req{1,}: 200 > small' -c ./where > out 2> err ||
		{ cat err; fail "a constant first"; }
	ok
}
