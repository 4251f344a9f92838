# t_examples.sh - the examples the README and the man page show work.

t_examples_make() {
	cp -r "$ROOT/examples/make" .
	make -C make PROBEGEN="$PROBEGEN" > log 2>&1 || { cat log; fail "make"; }
	expect_eq "$(make/myapp)" "done" "program output"
	expect_eq "$(probe_list make/myapp | sort | tr '\n' ' ')" \
		"myapp:request__done 2 myapp:request__start 2 " "probes"
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
