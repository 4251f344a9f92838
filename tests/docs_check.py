#!/usr/bin/env python3
"""tests/docs_check.py ROOT PROBEGEN WORKDIR - every code block of
README.md, of the guides in docs/ and of the man page's EXAMPLES,
checked as its marker says.

A marker is the line just before a block: in README.md an HTML comment
`<!-- docs: KIND ARGS -->` (Markdown shows nothing of it), in the man page
a roff comment `.\\" docs: KIND ARGS`.  Kinds:

  run SETUP         each command line runs in a scratch directory made by
                    SETUP and must exit 0
  transcript SETUP  `$ command` lines run there; what follows each, up
                    to the next `$`, is its output, compared line by line
                    once times, pids, addresses and span ids are masked
  in FILE...        every code line (comments and blanks dropped) is a
                    line of one of the files: a snippet "from" a file is
                    that file's text
  script SETUP      the whole block runs as one bash script (set -e) in
                    SETUP, as pasted into one shell: a `cd` holds for the
                    lines after it
  provider          a provider file: probegen -h and -G accept it
  skip REASON       cannot run here, and why: listed, never silent

A block with no marker fails.  Prints one line a block and a summary.
"""
import os
import re
import shutil
import subprocess
import sys

ROOT, PROBEGEN, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
BIN = os.path.join(WORK, "bin")


def sh(cmd, cwd, timeout=120):
    env = dict(os.environ, PATH=BIN + ":" + os.environ["PATH"])
    return subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, timeout=timeout,
                          stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, errors="replace")


# ---- the scratch directories the markers name ----

def setup_myapp(d):
    """examples/make built with probegen, as its README section says."""
    for f in ("Makefile", "main.c", "myapp.d", "tests.sh"):
        shutil.copy(os.path.join(ROOT, "examples/make", f), d)
    r = sh("make", d)
    assert r.returncode == 0, r.stdout


def setup_sdt_only(d):
    """examples/sdt-only: a C++ program whose sites are sys/sdt.h's, built
    without probegen, and the .d its tracer reads."""
    for f in ("Makefile", "node.cpp", "node.d", "tests.sh"):
        shutil.copy(os.path.join(ROOT, "examples/sdt-only", f), d)


def setup_http(d):
    """examples/http built with probegen, as its README section says."""
    for f in ("Makefile", "httpd.c", "httpd.d"):
        shutil.copy(os.path.join(ROOT, "examples/http", f), d)
    r = sh("make", d)
    assert r.returncode == 0, r.stdout


def setup_sites(d):
    """A probe fired with a literal 0 and with a long (README, --list)."""
    with open(os.path.join(d, "t.d"), "w") as f:
        f.write("provider t {\n\tprobe p(long x);\n};\n")
    with open(os.path.join(d, "t.c"), "w") as f:
        f.write('#include "t.h"\nlong v = 5;\nint main(void)\n{\n\tT_P(0);\n\tT_P(v);\n\treturn 0;\n}\n')
    r = sh("probegen -h -s t.d -o t.h && probegen -G -s t.d -o t_probes.o && "
           "gcc -g -O2 -o t t.c t_probes.o", d)
    assert r.returncode == 0, r.stdout


def setup_clone(d):
    """The top of a clone once the README's command 1 has run: the
    examples, the build helpers, the tests' cargo setup, and ./probegen
    built."""
    for t in ("examples", "build-systems"):
        shutil.copytree(os.path.join(ROOT, t), os.path.join(d, t),
                        ignore=shutil.ignore_patterns("target", "out"))
    os.makedirs(os.path.join(d, "tests"))
    shutil.copy(os.path.join(ROOT, "tests/cargo-debian.toml"), os.path.join(d, "tests"))
    os.symlink(PROBEGEN, os.path.join(d, "probegen"))


def build_from_tests_src(d, name, header, objects, cflags):
    """tests/src/NAME.c and NAME.d copied into d and built with probegen:
    its header as the source includes it, its object, then NAME."""
    for f in (name + ".c", name + ".d"):
        shutil.copy(os.path.join(ROOT, "tests/src", f), d)
    r = sh("probegen -h -s {n}.d -o {h} && probegen -G -s {n}.d -o {o} && "
           "gcc {c} -o {n} {n}.c {o}".format(n=name, h=header, o=objects, c=cflags), d)
    assert r.returncode == 0, r.stdout


def setup_pairs(d):
    """tests/src/pairs.c, whose start/done pairs the README summarises."""
    build_from_tests_src(d, "pairs", "pairs.h", "pairs_probes.o", "-O2 -pthread")


def setup_stack(d):
    """tests/src/stack.c, a probe three calls deep, built without frame
    pointers."""
    build_from_tests_src(d, "stack", "stack_probes.h", "probes.o", "-g -O2 -fomit-frame-pointer")


def setup_where(d):
    """tests/src/where.c, whose firings --where and --expect judge."""
    build_from_tests_src(d, "where", "where_probes.h", "probes.o", "-O2 -I.")


def setup_busy(d):
    """tests/src/busy.c, a busy server's loop (docs/production.md)."""
    build_from_tests_src(d, "busy", "busy.h", "busy_probes.o", "-O2")


def setup_runtimes(d):
    """examples/runtimes (a Python script and CPython's declarations)."""
    shutil.copytree(os.path.join(ROOT, "examples/runtimes"), os.path.join(d, "examples/runtimes"))


def setup_rust_tracing(d):
    """examples/rust-tracing, built offline against Debian's crates."""
    home = os.path.join(d, "cargo-home")
    os.makedirs(home)
    shutil.copy(os.path.join(ROOT, "tests/cargo-debian.toml"), os.path.join(home, "config.toml"))
    shutil.copytree(os.path.join(ROOT, "examples/rust-tracing"), d, dirs_exist_ok=True)
    subprocess.run(["sed", "-i", 's|path = "../../build-systems|path = "%s/build-systems|' % ROOT,
                    os.path.join(d, "Cargo.toml")], check=True)
    r = sh("CARGO_HOME=%s PROBEGEN=%s cargo build --release -q" % (home, PROBEGEN), d, timeout=600)
    assert r.returncode == 0, r.stdout


def setup_rust_module(d):
    """The module probegen --rust writes for examples/rust/probes.d."""
    r = sh("probegen --rust -s %s/examples/rust/probes.d -o probes.rs" % ROOT, d)
    assert r.returncode == 0, r.stdout


SETUPS = {"rust-module": setup_rust_module, "myapp": setup_myapp, "sdt-only": setup_sdt_only, "http": setup_http, "clone": setup_clone, "sites": setup_sites, "pairs": setup_pairs, "stack": setup_stack, "where": setup_where, "runtimes": setup_runtimes, "busy": setup_busy,
          "rust-tracing": setup_rust_tracing}
made = {}


def scratch(setup):
    if setup not in made:
        d = os.path.join(WORK, setup)
        os.makedirs(d)
        SETUPS[setup](d)
        made[setup] = d
    return made[setup]


# ---- the blocks ----

def readme_blocks(path):
    name = os.path.relpath(path, ROOT)
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("```"):
            j = i + 1
            while not lines[j].startswith("```"):
                j += 1
            m = re.match(r"<!-- docs: (.*) -->$", lines[i - 1]) if i else None
            yield (name, i + 1, m.group(1) if m else None, lines[i + 1:j])
            i = j + 1
        else:
            i += 1


def man_blocks(path):
    """The EXAMPLES section's .nf ... .fi blocks, roff escapes undone."""
    lines = open(path).read().split("\n")
    if ".SH EXAMPLES" not in lines:
        return
    start = lines.index(".SH EXAMPLES")
    i, marker = start, None
    while i < len(lines) and not (i > start and lines[i].startswith(".SH ")):
        m = re.match(r'\.\\" docs: (.*)$', lines[i])
        if m:
            marker = m.group(1)
        if lines[i] == ".nf":
            j = lines.index(".fi", i)
            body = [l.replace("\\-", "-").replace("\\e", "\\") for l in lines[i + 1:j]]
            yield (os.path.relpath(path, ROOT), i + 1, marker, body)
            marker, i = None, j
        i += 1


def code_lines(body):
    """Lines of code: blanks and whole-line comments dropped, trailing
    comments and spacing taken off; a line that leaves a quote open goes
    on with the next (a shell command written over two lines)."""
    out, pending = [], ""
    for l in body:
        s = l.strip()
        if not pending and (not s or s.startswith(("#", "//", "/*"))):
            continue
        if not pending:
            s = re.sub(r"\s+(#|//)\s.*$", "", s)
        s = (pending + " " + s).strip() if pending else s
        if s.count("'") % 2:
            pending = s
            continue
        pending = ""
        out.append(re.sub(r"\s+", " ", s))
    return out


def check_in(args, body):
    """@SETUP/FILE names a file SETUP makes; "/* ... */" in a line stands
    for what the file has there."""
    texts = []
    for f in args.split():
        if f.startswith("@"):
            setup, _, name = f[1:].partition("/")
            f = os.path.join(scratch(setup), name)
        else:
            f = os.path.join(ROOT, f)
        texts += [re.sub(r"\s+", " ", l.strip()) for l in open(f)]
    wanted = [l.split("/* ... */")[0].strip() for l in code_lines(body)]
    missing = [l for l in wanted if not any(l in t for t in texts)]
    return "not in %s: %r" % (args, missing[0]) if missing else None


def check_provider(body):
    d = os.path.join(WORK, "provider")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "p.d"), "w") as f:
        f.write("\n".join(body) + "\n")
    r = sh("probegen -h -s p.d -o p.h && probegen -G -s p.d -o p.o", d)
    return None if r.returncode == 0 else r.stdout


def check_run(setup, body):
    d = scratch(setup)
    for cmd in code_lines(body):
        r = sh(cmd, d)
        if r.returncode != 0:
            return "%s: exit %d: %s" % (cmd, r.returncode, r.stdout[-400:])
    return None


def check_script(setup, body):
    d = scratch(setup)
    r = sh("set -e\n" + "\n".join(body), d, timeout=600)
    return None if r.returncode == 0 else "exit %d: %s" % (r.returncode, r.stdout[-400:])


def mask(s):
    # This machine's bpftrace cannot raise RLIMIT_MEMLOCK, and says so.
    if "couldn't set RLIMIT_MEMLOCK" in s:
        return None
    s = re.sub(r"/[^ ()]*/([^/ ()]+:\d+)", r"\1", s)        # source paths
    s = re.sub(r"\(/[^ ()]*/([^/ ()]+)\)", r"(\1)", s)       # a function's file
    s = re.sub(r"\b\d+\.\d+\b", "T", s)                      # times, ms
    s = re.sub(r"\b(T|\d+) (ns|us|ms|s)\b", "T", s)           # and their units
    s = re.sub(r"\b\d+/\d+\b", "PID/TID", s)                 # pid/tid
    s = re.sub(r'"(pid|tid)": \d+', r'"\1": P', s)
    s = re.sub(r"0x[0-9a-f]+", "0xA", s)                     # addresses
    s = re.sub(r"\bid=\d{6,}", "id=SPAN", s)                 # span ids
    s = re.sub(r"@+", "@", s)                                # histogram bars
    s = re.sub(r"\|\s+@?\s*\d+$", "| N", s)                  # histogram counts
    return re.sub(r"\s+", " ", s).strip()


def check_transcript(setup, body):
    d = scratch(setup)
    steps, cur = [], None
    for l in body:
        if l.startswith("$ "):
            cur = (l[2:], [])
            steps.append(cur)
        elif cur is not None:
            cur[1].append(l)
    for cmd, want in steps:
        # A histogram of real sleeps moves a bucket on a loaded machine
        # (make check beside it): a step gets three tries, and fails if
        # none shows what the docs show.
        for attempt in range(3):
            why = transcript_step(cmd, want, d)
            if not why:
                break
        if why:
            return why
    return None


def transcript_step(cmd, want, d):
    r = sh(cmd, d)
    got = [m for m in (mask(l) for l in r.stdout.rstrip("\n").split("\n")) if m is not None]
    if want == [] and r.returncode != 0:
        return "%s: exit %d: %s" % (cmd, r.returncode, r.stdout[-400:])
    # "..." in the docs stands for any number of lines.
    k, gap = 0, False
    for w in want:
        if w == "...":
            gap = True
            continue
        w = mask(w)
        while gap and k < len(got) and got[k] != w:
            k += 1
        if k >= len(got) or got[k] != w:
            return "%s: docs show %r, it printed %r" % (
                cmd, w, got[k] if k < len(got) else "(nothing more)")
        k, gap = k + 1, False
    return None


def main():
    os.makedirs(BIN, exist_ok=True)
    os.symlink(PROBEGEN, os.path.join(BIN, "probegen"))
    guides = sorted(os.path.join(ROOT, "docs", f) for f in os.listdir(os.path.join(ROOT, "docs"))
                    if f.endswith(".md"))
    blocks = [b for path in [os.path.join(ROOT, "README.md")] + guides
              for b in readme_blocks(path)] + \
        [b for page in sorted(os.listdir(os.path.join(ROOT, "man")))
         for b in man_blocks(os.path.join(ROOT, "man", page))]
    ran = matched = 0
    skipped, failed = [], []
    for doc, line, marker, body in blocks:
        where = "%s:%d" % (doc, line)
        if marker is None:
            failed.append((where, "no docs: marker before the block"))
            continue
        kind, _, args = marker.partition(" ")
        if kind == "skip":
            skipped.append((where, args))
            print("skip %s: %s" % (where, args))
            continue
        ran += 1
        try:
            why = {"in": lambda: check_in(args, body),
                   "provider": lambda: check_provider(body),
                   "run": lambda: check_run(args, body),
                   "script": lambda: check_script(args, body),
                   "transcript": lambda: check_transcript(args, body)}[kind]()
        except KeyError:
            why = "unknown marker kind %r" % kind
        except (AssertionError, subprocess.TimeoutExpired) as e:
            why = "could not run: %s" % e
        if why:
            failed.append((where, why))
            print("FAIL %s (%s): %s" % (where, marker, why))
        else:
            matched += 1
            print("ok   %s (%s)" % (where, marker))
    print("docs: %d blocks, %d ran, %d matched, %d marked not runnable here, %d failed"
          % (len(blocks), ran, matched, len(skipped), len(failed)))
    for where, why in failed:
        if why.startswith("no docs"):
            print("FAIL %s: %s" % (where, why))
    return 1 if failed else 0


sys.exit(main())
