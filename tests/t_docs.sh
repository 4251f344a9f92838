# t_docs.sh - the docs as a new user runs them: every code block of
# README.md and of the man page's EXAMPLES, by the marker before it
# (tests/docs_check.py says what each kind means).  A block that cannot
# run here is marked so with the reason, and listed under the test's
# line; one that fails fails the test.

t_docs_blocks() {
	need python3
	need bpftrace
	need gdb
	need cargo
	[ "$(id -u)" = 0 ] || skip "the docs' tracing examples need root"
	python3 "$ROOT/tests/docs_check.py" "$ROOT" "$PROBEGEN" "$PWD/work" > out 2>&1
	local rc=$?
	grep -E '^(FAIL|docs:)' out
	[ $rc = 0 ] || fail "a block of the docs does not run as shown"
	grep '^docs:' out | sed 's/^/NOTE /'
	grep '^skip ' out | sed 's/^skip /NOTE not runnable here: /'
	ok
}

# The README's figures are the measurements: in a paragraph or table row
# that cites BENCHMARKS.md, every ratio (1.26x), time (0.118 s, 2 ms)
# and size (241 MB) must appear in BENCHMARKS.md as written (or as a
# table's cell, its unit in the column's head), so that a
# new `make bench` that moves a figure fails here until the README says
# the new one.
t_docs_figures() {
	need python3
	python3 - "$ROOT/README.md" "$ROOT/BENCHMARKS.md" > out 2>&1 <<-'PY'
	import re, sys
	readme, bench = open(sys.argv[1]).read(), open(sys.argv[2]).read()
	figure = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?:x\b| (?:s|ms|us|ns|MB|KB|KiB)\b)")
	prose, fenced = [], False
	for line in readme.split("\n"):
	    if line.startswith("```"):
	        fenced = not fenced
	    elif not fenced:
	        prose.append(line)
	# Paragraphs, and each table row on its own.
	parts, cur = [], []
	for line in prose:
	    if line.startswith("|"):
	        parts.append(line)
	    elif line.strip():
	        cur.append(line)
	    else:
	        parts.append(" ".join(cur)); cur = []
	parts.append(" ".join(cur))
	checked, missing = 0, []
	for p in parts:
	    if "BENCHMARKS.md" not in p:
	        continue
	    for f in figure.findall(p):
	        checked += 1
	        # A table's cell holds the number alone, its unit in the head.
	        cell = re.escape(f.split()[0].rstrip("x"))
	        if f not in bench and not re.search(r"\|\s*" + cell + r"\s*\|", bench):
	            missing.append((f, p[:100]))
	print("%d figures checked" % checked)
	for f, p in missing:
	    print("not in BENCHMARKS.md: %s (in: %s...)" % (f, p))
	sys.exit(1 if missing or checked < 10 else 0)
	PY
	local rc=$?
	note "$(head -1 out)"
	[ $rc = 0 ] || { cat out; fail "a README figure is not BENCHMARKS.md's"; }
	ok
}
