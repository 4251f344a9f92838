# t_build.sh - the build as it is: install, the dtrace alias, the scanner,
# the rooms' calls and the tree's shape.  Builds of probegen itself
# (static, dist, configure) are t_rebuild.sh's (make check-build).

t_build_install() {
	make -s -C "$ROOT" install DESTDIR="$PWD/root" PREFIX=/usr > log 2>&1 || { cat log; fail "make install"; }
	[ -x root/usr/bin/probegen ] || fail "probegen not installed"
	for m in man1/probegen.1 man1/probegen-trace.1 man1/probegen-inspect.1 man5/probegen-provider.5; do
		[ -f root/usr/share/man/$m ] || fail "man page $m not installed"
	done
	make -s -C "$ROOT" install-dtrace-alias DESTDIR="$PWD/root" PREFIX=/usr > log 2>&1 || { cat log; fail "install-dtrace-alias"; }
	expect_eq "$(readlink root/usr/bin/dtrace)" probegen "dtrace alias"
	printf 'provider a { probe b(int c); };\n' > a.d
	root/usr/bin/dtrace -h -s a.d -o a.h || fail "probegen called as dtrace"
	expect_grep '#define A_B(...)' a.h
	# dtrace in a directory of its own, for PATH=/usr/lib/probegen/bin:$PATH.
	expect_eq "$(readlink root/usr/lib/probegen/bin/dtrace)" /usr/bin/probegen "/usr/lib/probegen/bin/dtrace"
	[ -f root/usr/share/bash-completion/completions/probegen ] || fail "bash completion not installed"
	# The runtimes' declarations, where the README says, usable by -s.
	local d
	for d in "$ROOT"/examples/runtimes/*.d; do
		cmp -s "$d" root/usr/share/probegen/runtimes/${d##*/} || fail "${d##*/} not installed in /usr/share/probegen/runtimes"
	done
	root/usr/bin/probegen --docs -s root/usr/share/probegen/runtimes/python.d -o python.md || fail "-s the installed python.d"
	grep -q '^ExecStart=/usr/bin/probegen --trace --metrics' root/usr/lib/systemd/system/probegen-metrics@.service ||
		fail "the systemd unit not installed, or not naming the installed probegen"
	grep -q "^Version: $(sed -n 's/^## \([0-9.]*\)$/\1/p' "$ROOT/NEWS.md" | head -n 1)\$" root/usr/share/pkgconfig/probegen.pc ||
		fail "probegen.pc's version is not NEWS.md's newest"
	ok
}

# The scanner never backs up (flex -b): with %option full that keeps its
# inner loop to one table lookup a byte.  A new rule that breaks this
# shows here rather than as a slower build tool.
t_build_lexer_no_backing_up() {
	need flex
	flex -b -o lexer.c "$ROOT/grammar/lexer.l" > log 2>&1 || { cat log; fail "flex"; }
	expect_eq "$(head -n 1 lex.backup)" "No backing up." "flex -b"
	ok
}

# Every room calls downward only: from the symbols each object of the
# build defines and uses (but the generated scanner and parser), no
# object reaches one that reaches it back, by any path; and of the
# tracer's rooms only the session's (session, load, attach, tally) call
# libbpf.  The session hands a firing up through the tracer's on_event
# and on_process, which are data, not calls.
t_build_rooms_downward() {
	need nm
	local b=$ROOT/build
	[ -z "${PROBEGEN_SANITIZED:-}" ] || b=$ROOT/build-san
	ls "$b"/trace/kernel/session.o > /dev/null 2>&1 || skip "probegen was built without --trace"
	python3 - "$b" "$ROOT/tests" > out 2>&1 <<-'PY'
	import glob, os, sys
	sys.path.insert(0, sys.argv[2])
	from object_symbols import symbols
	objs = [o for o in sorted(glob.glob(sys.argv[1] + "/**/*.o", recursive=True))
	        if not o.endswith(".bpf.o") and os.path.basename(o) not in ("parser.o", "lexer.o")]
	defs, uses = symbols(objs, sys.argv[1])
	bad = []
	calls = {r: {defs[s] for s in u if defs.get(s, r) != r} for r, u in uses.items()}
	def reaches(a, b, seen=()):
	    return b in calls[a] or any(reaches(c, b, seen + (a,)) for c in calls[a] if c not in seen)
	for a in calls:
	    for b in calls[a]:
	        if reaches(b, a):
	            bad.append("%s and %s call each other" % (a, b))
	    lib = sorted(s for s in uses[a] if s.startswith(("bpf_", "ring_buffer__", "libbpf_", "btf__")))
	    if lib and a.startswith("trace") and a not in ("trace/kernel/session", "trace/kernel/load", "trace/kernel/attach", "trace/kernel/tally"):
	        bad.append("%s calls libbpf: %s" % (a, ", ".join(lib)))
	print("%d rooms, %d calls between them" % (len(calls), sum(len(c) for c in calls.values())))
	print("\n".join(bad))
	sys.exit(1 if bad or len([r for r in calls if r.startswith("trace")]) < 15 or len(calls) < 45 else 0)
	PY
	local rc=$?
	note "$(head -1 out)"
	[ $rc = 0 ] || { cat out; fail "the rooms do not go downward"; }
	ok
}

# The tracer's rooms stand in a folder a stage (HACKING.md): find/
# (what to trace, and what each probe does), kernel/ (the BPF program,
# loaded, attached and read: the only rooms that call libbpf), decode/
# (an event's values, calls and stacks) and sinks/ (what is made of the
# events: the only rooms that speak HTTP or write pprof).  No file mixes
# two stages: a room includes its own stage's headers and those of the
# stages it reads (sinks read decode's), the tracer's shared headers
# (tracer.h, the BPF side's plain-C ABI in kernel/bpf/) and the other
# wings' (inspect/, compiler/); trace.c, follow.c and plan.c, which run
# the stages, may include any.
t_build_stages() {
	need python3
	python3 - "$ROOT" > out 2>&1 <<-'PY'
	import glob, os, re, sys
	root = sys.argv[1]
	reads = {"find": {"find"}, "kernel": {"kernel"}, "decode": {"decode"},
	         "sinks": {"sinks", "decode"}}
	libs = {"bpf/": "kernel", "microhttpd.h": "sinks", "zlib.h": "sinks",
	        "protobuf-c": "sinks"}
	bad, counted = [], {}
	for f in sorted(glob.glob(os.path.join(root, "src/trace/*/*.[ch]"))):
	    stage = os.path.relpath(f, os.path.join(root, "src/trace")).split(os.sep)[0]
	    counted[stage] = counted.get(stage, 0) + 1
	    text = open(f).read()
	    for inc in re.findall(r'^#include "trace/([a-z_]+/[^"]+)"', text, re.M):
	        if inc.split("/")[0] not in reads[stage] and not inc.startswith("kernel/bpf/"):
	            bad.append("%s (%s) includes %s" % (os.path.relpath(f, root), stage, inc))
	    for lib, owner in libs.items():
	        if re.search(r'^#include <%s' % re.escape(lib), text, re.M) and stage != owner:
	            bad.append("%s (%s) includes <%s>, %s's" % (os.path.relpath(f, root), stage, lib, owner))
	print("rooms by stage: " + ", ".join("%s %d" % kv for kv in sorted(counted.items())))
	for b in bad:
	    print(b)
	sys.exit(1 if bad or len(counted) != 4 else 0)
	PY
	local rc=$?
	note "$(head -1 out)"
	[ $rc = 0 ] || { cat out; fail "a room mixes two stages"; }
	ok
}

# The same rule on what the objects call, not only on what the files
# include (an include rule passed three leaks: decode/stacks.c called
# stack_counts.c's frame_place_free, kernel/session.c called find/'s
# features_describe and probes_say_tracing): from nm, no object of a
# stage uses a symbol that an object of a stage it does not read
# defines.  What every stage shares is defined by the run (trace.c,
# plan.c, follow.c, rates.c, privileges.c) or inline in tracer.h.
t_build_stages_by_symbols() {
	need nm
	local b=$ROOT/build
	[ -z "${PROBEGEN_SANITIZED:-}" ] || b=$ROOT/build-san
	ls "$b"/trace/kernel/session.o > /dev/null 2>&1 || skip "probegen was built without --trace"
	python3 - "$b" "$ROOT/tests" > out 2>&1 <<-'PY'
	import glob, os, sys
	sys.path.insert(0, sys.argv[2])
	from object_symbols import symbols
	b = sys.argv[1]
	reads = {"find": {"find"}, "kernel": {"kernel"}, "decode": {"decode"},
	         "sinks": {"sinks", "decode"}}
	defs, uses = symbols(sorted(glob.glob(os.path.join(b, "trace", "*", "*.o"))), b)
	stage = lambda room: room.split("/")[1]  # trace/STAGE/ROOM
	bad = ["%s (%s) calls %s of %s" % (room, stage(room), sym, defs[sym])
	       for room, used in sorted(uses.items())
	       for sym in sorted(used) if sym in defs and stage(defs[sym]) not in reads[stage(room)]]
	print("%d rooms in %d stages, %d calls across stages the rule forbids" % (
	    len(uses), len({stage(r) for r in uses}), len(bad)))
	print("\n".join(bad))
	sys.exit(1 if bad or len(uses) < 20 else 0)
	PY
	local rc=$?
	note "$(head -1 out)"
	[ $rc = 0 ] || { cat out; fail "a stage calls one it does not read"; }
	ok
}

# The tree's shape, kept: no function over 80 lines (a function's lines
# from its signature to its closing brace at the line's start, the
# code's style), so that each reads whole; and the include rule that
# keeps the wings apart: a wing's header (src/compiler/, src/inspect/,
# src/trace/) includes only its own wing's headers and the shared ones
# at the top of src/ (probegen.h, arg_read.h).  A room (.c) may include
# any header: the wiring is in the rooms, never in a header, so that a
# header says only its own room and what it needs.  (Files had a line
# budget, and code was moved to fit it; the budget stood for this.)
t_build_shape() {
	need python3
	python3 - "$ROOT" > out 2>&1 <<-'PY'
	import glob, os, re, sys
	root = sys.argv[1]
	files = [f for pat in ("src/**/*.[ch]", "grammar/*.[yl]")
	         for f in glob.glob(os.path.join(root, pat), recursive=True)]
	bad, longest = [], []
	def wing(path):
	    parts = os.path.relpath(path, os.path.join(root, "src")).split(os.sep)
	    return parts[0] if len(parts) > 1 else "top"
	for f in files:
	    lines = open(f, errors="replace").read().split("\n")
	    name = os.path.relpath(f, root)
	    if f.endswith(".h") and "/header/" not in f and wing(f) != "top":
	        for inc in re.findall(r'^#include "([^"]+)"', "\n".join(lines), re.M):
	            here = os.path.normpath(os.path.join(os.path.dirname(f), inc))
	            target = here if os.path.exists(here) else os.path.join(root, "src", inc)
	            if wing(target) not in (wing(f), "top"):
	                bad.append("%s includes %s, %s's header" % (name, inc, wing(target)))
	    i = 0
	    while i < len(lines):
	        if lines[i] == "{":
	            j = i - 1
	            while j >= 0 and "(" not in lines[j]:
	                j -= 1
	            m = re.search(r"(\w+)\s*\(", lines[j]) if j >= 0 else None
	            k = i + 1
	            while k < len(lines) and not lines[k].startswith("}"):
	                k += 1
	            n = k - j + 1
	            longest.append((n, "%s in %s" % (m.group(1) if m else "?", name)))
	            if n > 80:
	                bad.append("too long: %s: %d lines" % (longest[-1][1], n))
	            i = k
	        i += 1
	longest.sort(reverse=True)
	print("%d files, %d functions; longest: %s" % (len(files), len(longest), ", ".join("%s %d" % (w, n) for n, w in longest[:3])))
	for b in bad:
	    print(b)
	sys.exit(1 if bad or len(longest) < 300 else 0)
	PY
	local rc=$?
	note "$(head -1 out)"
	[ $rc = 0 ] || { cat out; fail "a function over 80 lines, or a wing header including another wing's"; }
	ok
}

# The runner's --except: the named test is left out (CI's sanitized
# pass leaves the timeline's viewer to make check), and a name that
# names no test fails the run rather than leaving nothing out unseen.
t_build_runner_except() {
	TEST_OUT=$PWD/runs "$ROOT/tests/run.sh" -j 1 --except t_build_shape t_build_shape t_build_stages_by > out 2>&1 ||
		{ cat out; fail "a run with --except failed"; }
	expect_grep '^ok   t_build_stages_by_symbols ' out
	grep -q 't_build_shape ' out && { cat out; fail "--except ran the test it left out"; }
	expect_grep '^1 passed, 0 failed, 0 skipped$' out
	TEST_OUT=$PWD/runs "$ROOT/tests/run.sh" -j 1 --except t_build_nope t_build_shape > out 2>&1 &&
		{ cat out; fail "--except of no test passed"; }
	expect_grep '^FAIL --except t_build_nope: no such test$' out
	expect_grep '^1 passed, 1 failed, 0 skipped$' out
	ok
}
