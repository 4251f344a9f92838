# t_examples.sh - the examples the README and the man page show work.

t_examples_make() {
	cp -r "$ROOT/examples/make" .
	make -C make PROBEGEN="$PROBEGEN" > log 2>&1 || { cat log; fail "make"; }
	expect_eq "$(make/myapp)" "done" "program output"
	expect_eq "$(probe_list make/myapp | sort | tr '\n' ' ')" \
		"myapp:request__done 2 myapp:request__start 2 " "probes"
	# The README shows --check on this program silent: main.c passes
	# what myapp.d declares.
	expect_eq "$("$PROBEGEN" --check -s make/myapp.d make/myapp 2>&1)" "" "--check on the README's program"
	# The README's tracing examples on this program print what it shows.
	if [ "$(id -u)" != 0 ] || "$PROBEGEN" --trace -c /bin/true 2>&1 | grep -q 'built without'; then
		skip_part "--trace and bpftrace need root and libbpf"
		ok
	fi
	(cd make && "$PROBEGEN" --trace -c ./myapp) > trace.out 2> /dev/null || fail "--trace"
	grep -Eq '^0\.[0-9]{6} [0-9]+/[0-9]+ myapp:request__start id=0 path="/index.html"$' trace.out ||
		{ cat trace.out; fail "README: --trace line"; }
	(cd make && "$PROBEGEN" --trace --json -c ./myapp) > trace.json 2> /dev/null || fail "--trace --json"
	grep -Eq '^\{"time": 0\.[0-9]{9}, "pid": [0-9]+, "tid": [0-9]+, "probe": "myapp:request__start", "args": \{"id": 0, "path": "/index.html"\}\}$' trace.json ||
		{ cat trace.json; fail "README: --trace --json line"; }
	if have bpftrace; then
		(cd make && timeout 60 bpftrace -e 'usdt:./myapp:myapp:request__start { printf("%d %s\n", arg0, str(arg1)); }' -c ./myapp) > bt.out 2>&1
		grep -q '^0 /index.html$' bt.out || { cat bt.out; fail "README: the bpftrace one-liner"; }
	else
		skip_part "bpftrace is not installed"
	fi
	ok
}

t_examples_demo() {
	need gdb
	cp -r "$ROOT/examples/demo" .
	DEMO_SECONDS=1 PROBEGEN="$PROBEGEN" demo/run.sh > log 2>&1 || { cat log; fail "demo"; }
	cat log
	expect_grep 'demo:request__start  args: -4@' log
	expect_grep 'demo:tick  args:' log
	# probegen --trace as root, else gdb.
	grep -qE '( demo:request__start id=0 path="/index.html"|^id=0 path=/index.html)$' log ||
		fail "the demo traced nothing"
	ok
}
