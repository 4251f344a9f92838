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

# The figures of the README and the guides are the measurements: in a paragraph or table row
# that cites BENCHMARKS.md, every ratio (1.26x), time (0.118 s, 2 ms)
# and size (241 MB) must appear in BENCHMARKS.md as written (or as a
# table's cell, its unit in the column's head), so that a
# new `make bench` that moves a figure fails here until the README says
# the new one.
t_docs_figures() {
	need python3
	python3 - "$ROOT/BENCHMARKS.md" "$ROOT/README.md" "$ROOT"/docs/*.md > out 2>&1 <<-'PY'
	import re, sys
	# The README and the guides (docs/), each file's paragraphs apart.
	bench = open(sys.argv[1]).read()
	readme = "\n\n".join(open(p).read() for p in sys.argv[2:])
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

# Every limit the man page states is the constant the code uses: each
# read from its source file, and the man page's sentence made from it.
t_docs_limits_are_the_code() {
	python3 - "$ROOT" > out 2>&1 <<-'PY'
	import re, sys
	root = sys.argv[1]
	def const(path, name):
	    text = open(root + "/" + path).read()
	    m = re.search(r"#define %s \(?(\d+)(?: << (\d+))?\)?" % name, text)
	    assert m, "%s: no %s" % (path, name)
	    return int(m.group(1)) << int(m.group(2) or 0)
	import glob
	man = " ".join(open(p).read() for p in sorted(glob.glob(root + "/man/*.[15]"))).replace("\n", " ")
	man = re.sub(r"\s+", " ", man)
	c = lambda n: "{:,}".format(n)
	said = {
	    "PROFILE_MAX_NAMES": ("src/trace/sinks/profile.c", lambda n: "A pair keeps %s names" % c(n)),
	    "CALLS_MAX_DEPTH": ("src/trace/decode/event.h", lambda n: "at any depth up to %s a thread" % c(n)),
	    "TRACE_MAX_NEST": ("src/trace/kernel/bpf/trace_abi.h", lambda n: "deeper than the %d a thread keeps in the kernel (%s for a profile" % (n, c(const("src/trace/decode/event.h", "CALLS_MAX_DEPTH")))),
	    "TRACE_MAX_ROLES": ("src/trace/kernel/bpf/trace_abi.h", lambda n: "each is timed, up to %d a probe" % n),
	    "METRICS_MAX_VALUES": ("src/trace/sinks/metrics.c", lambda n: "at most %s a probe" % c(n)),
	    "BUCKET_LOW": ("src/trace/sinks/metrics.c", lambda n: "nanoseconds from 2^%d," % n),
	    "BUCKET_HIGH": ("src/trace/sinks/metrics.c", lambda n: "to 2^%d," % n),
	    "IDLE_SECONDS": ("src/trace/sinks/server.c", lambda n: r"a connection idle for %d\ s is closed" % n),
	    "MAX_CONNECTIONS": ("src/trace/sinks/server.c", lambda n: "up to %s are open at once" % c(n)),
	    "REQUEST_BYTES": ("src/trace/sinks/server.c", lambda n: r"headers are held to %d\ KiB" % (n >> 10)),
	    "TRACE_STR_LEN": ("src/trace/kernel/bpf/trace_abi.h", lambda n: "strings quoted, up to %d bytes" % (n - 1)),
	    "TRACE_TOP_DEFAULT": ("src/trace/trace_run.h", lambda n: r"first %d .RB ( \-\-top )" % n),
	}
	# A constant the man page states twice.
	also = [("TRACE_STR_LEN", "src/trace/kernel/bpf/trace_abi.h", lambda n: "At most %d bytes are read of each" % n),
	        ("ARG_MAX_STEPS", "src/arg_read.h", lambda n: "following at most %d pointers past the argument" % (n - 1)),
	        ("TRACE_MAX_SHOWS", "src/trace/kernel/bpf/trace_abi.h", lambda n: "up to %d expressions a probe" % n),
	        ("TRACE_MAX_CONDS", "src/trace/kernel/bpf/trace_abi.h", lambda n: "at most %d comparisons and %d steps a probe" % (n, 2 * n)),
	        ("WHERE_MAX_DEPTH", "src/trace/find/filter_parse.c", lambda n: "and at most %d parentheses" % n),
	        ("TRACE_PATTERN_LEN", "src/trace/kernel/bpf/trace_abi.h", lambda n: "at most %d bytes) and" % (n - 1)),
	        ("TRACE_STACK_BYTES_MAX", "src/trace/trace_run.h", lambda n: "from 512 to %d (default" % n),
	        ("TRACE_STRING_BYTES_MAX", "src/trace/trace_run.h", lambda n: "from 128 (the default) to %d, rounded" % n),
	        ("TRACE_STRING_BYTES_DEFAULT", "src/trace/trace_run.h", lambda n: "bytes of each string (its NUL among them) and of each pointer with its length, from %d (the default)" % n),
	        ("TRACE_STACK_BYTES_DEFAULT", "src/trace/trace_run.h", lambda n: "(default %d), a page" % n),
	        ("TRACE_RING_BYTES_STACK", "src/trace/kernel/bpf/trace_abi.h",
	         lambda n: r"The ring buffer holds %d MiB with .B \-\-stack (%d without)" % (n >> 20, const("src/trace/kernel/bpf/trace_abi.h", "TRACE_RING_BYTES") >> 20)),
	        # TRACE_COUNTED_MAX: a slot less the 8 bytes of its length.
	        ("TRACE_STR_LEN", "src/trace/kernel/bpf/trace_abi.h", lambda n: "so at most %d of them are shown" % (n - 8))]
	bad = []
	for name, (path, sentence) in list(said.items()) + [(n, (p, f)) for n, p, f in also]:
	    want = sentence(const(path, name))
	    if want not in man:
	        bad.append("%s (%s): the man page does not say '%s'" % (name, path, want))
	print("%d limits checked" % (len(said) + len(also)))
	print("\n".join(bad))
	sys.exit(1 if bad else 0)
	PY
	local rc=$?
	note "$(head -1 out)"
	[ $rc = 0 ] || { cat out; fail "a documented limit is not the code's"; }
	ok
}

# The README is read in minutes: at most 16 KB (what it does not say is
# in docs/, the man pages and HACKING.md, which it links).
t_docs_readme_short() {
	local size
	size=$(wc -c < "$ROOT/README.md")
	[ "$size" -le 16384 ] || fail "README.md is $size bytes: more than 16 KB"
	local f
	for f in docs/build-systems.md docs/tracing.md docs/testing.md docs/arguments.md docs/profiling.md docs/metrics.md docs/production.md HACKING.md; do
		grep -q "($f)" "$ROOT/README.md" || fail "the README does not link $f"
		[ -f "$ROOT/$f" ] || fail "$f: no such guide"
	done
	ok
}
