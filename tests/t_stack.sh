# tests/t_stack.sh - --stack (issue "Questions in the command"): each
# firing's native stack, walked with the binaries' CFI on programs built
# without frame pointers, in every mode.

# The functions of a walk, innermost first, from --trace's text.
stack_functions() { sed -n 's/^    \([A-Za-z_][A-Za-z0-9_]*\)+0x.*/\1/p' "$1"; }

# Three calls deep without frame pointers: leaf, middle, outer and main,
# with their source lines; in text and JSON; in the program and through
# a shared library.
t_stack_three_deep() {
	need_trace
	local kind
	for kind in program lib; do
		stack_program $kind
		# No frame pointer is kept: none of the functions sets rbp
		# to its frame (rbp may hold anything).
		objdump -d stack | awk '/<(outer|middle|main)>:/,/ret/' | grep -q 'mov *%rsp,%rbp' &&
			fail "the program keeps frame pointers: the test proves nothing"
		timeout 60 "$PROBEGEN" --trace --stack -c './stack 2' > out 2> err || { cat err; fail "$kind: --stack"; }
		[ "$(stack_functions out | head -4 | tr '\n' ' ')" = "leaf middle outer main " ] ||
			{ cat out; fail "$kind: the walk is not leaf, middle, outer, main"; }
		[ "$(grep -c '^0\..* st:deep' out)" = 2 ] || { cat out; fail "$kind: two firings"; }
		grep -q '^    middle+0x[0-9a-f]* (stack.c:[0-9]*)$' out || { cat out; fail "$kind: middle's line"; }
		! grep -q 'the walk stopped' out || { cat out; fail "$kind: a walk stopped short"; }
	done
	grep -q '^    leaf+0x[0-9a-f]* (stack_lib.c:[0-9]*)$' out || { cat out; fail "the library's leaf"; }
	timeout 60 "$PROBEGEN" --trace --json --stack -c './stack 1' > json 2> err || { cat err; fail "--json --stack"; }
	python3 - json <<-'PY' || fail "--json --stack"
	import json, re, sys
	e = json.loads(open(sys.argv[1]).readline())
	names = [re.match(r"[A-Za-z_]\w*", f).group(0) for f in e["stack"]]
	assert names[:4] == ["leaf", "middle", "outer", "main"], e["stack"]
	assert "stack_stopped" not in e, e
	PY
	ok
}

# --summary --stack counts firings by distinct stack; --folded --stack
# writes them as folded stacks (functions, then the probe, and a count
# of firings).
t_stack_summary_and_folded() {
	need_trace
	stack_program
	timeout 60 "$PROBEGEN" --trace --summary --json --stack -c './stack 5' > sum.json 2> err ||
		{ cat err; fail "--summary --stack"; }
	python3 - sum.json <<-'PY' || fail "--summary --json --stack"
	import json, sys
	s = json.load(open(sys.argv[1]))
	st = s["stacks"]["st:deep"]
	assert len(st) == 1 and st[0]["count"] == 5 and st[0]["complete"], st
	assert [f.split("+")[0] for f in st[0]["frames"][:4]] == ["leaf", "middle", "outer", "main"], st
	PY
	timeout 60 "$PROBEGEN" --trace --summary --stack -c './stack 5' > sum.txt 2> err || { cat err; fail "--summary --stack, text"; }
	grep -q '^stacks of st:deep (1 distinct):$' sum.txt && grep -q '^  5 firings$' sum.txt ||
		{ cat sum.txt; fail "--summary --stack's text"; }
	timeout 60 "$PROBEGEN" --trace --stack --folded f.txt -c './stack 4' > out 2> err || { cat err; fail "--folded --stack"; }
	grep -q '^_start;.*;main;outer;middle;leaf;st:deep 4$' f.txt ||
		{ cat f.txt; fail "--folded --stack"; }
	ok
}

# Debian's own python3.11: stripped, no frame pointers, its CFI in
# .eh_frame; its exported functions name the frames (the debug file,
# python3.11-dbg, names the rest).
t_stack_debian_python() {
	need_trace
	[ -x /usr/bin/python3.11 ] || skip "no /usr/bin/python3.11"
	timeout 60 "$PROBEGEN" --trace --stack -n python:function__entry --limit 1 \
		-c '/usr/bin/python3.11 -c pass' > out 2> err || { cat err; fail "--stack on python3.11"; }
	stack_functions out > fns
	grep -qx '_PyEval_EvalFrameDefault' fns && grep -qx 'Py_BytesMain' fns ||
		{ cat out; fail "python3.11's walk lacks _PyEval_EvalFrameDefault or Py_BytesMain"; }
	[ "$(grep -n -x '_PyEval_EvalFrameDefault' fns | head -1 | cut -d: -f1)" -lt \
	  "$(grep -n -x 'Py_BytesMain' fns | cut -d: -f1)" ] || { cat out; fail "the order of the frames"; }
	ok
}

# Inlined calls are frames of their own, as addr2line -i and perf
# --inline show them: fire (inlined into check, inlined into outer) at
# the probe's line, check at fire's call, outer at check's call; in
# text, JSON and --folded (--pprof: t_pprof.sh).  _start, outside any
# function's DWARF, gets no line (it was given a neighbour's).
t_stack_inlined_frames() {
	need_trace
	"$PROBEGEN" -h -s "$ROOT/tests/src/stack.d" -o stack_probes.h || fail "-h"
	"$PROBEGEN" -G -s "$ROOT/tests/src/stack.d" -o probes.o || fail "-G"
	gcc -g -O2 -fomit-frame-pointer -I. "$ROOT/tests/src/inlined.c" probes.o -o inl || fail "build"
	local src=$ROOT/tests/src/inlined.c fire check outer
	fire=$(grep -n 'ST_DEEP(n);' "$src" | cut -d: -f1)
	check=$(grep -n 'fire(n \* 3);' "$src" | cut -d: -f1)
	outer=$(grep -n '	check(n);' "$src" | cut -d: -f1)
	timeout 60 "$PROBEGEN" --trace --stack -c ./inl > out 2> err || { cat err; fail "--stack"; }
	[ "$(sed -n 2,4p out)" = "    fire (inlined.c:$fire, inlined)
    check (inlined.c:$check, inlined)
    outer+0x${outer:+}$(sed -n 4p out | sed -n 's/^    outer+0x\([0-9a-f]*\) .*/\1/p') (inlined.c:$outer)" ] ||
		{ cat out; fail "the inlined frames and their lines"; }
	grep -q '^    _start+0x[0-9a-f]* (inl)$' out || { cat out; fail "_start given a line"; }
	timeout 60 "$PROBEGEN" --trace --json --stack -c ./inl > json 2> err || { cat err; fail "--json"; }
	python3 - json "$fire" "$check" <<-'PY' || fail "--json's inlined frames"
	import json, sys
	e = json.loads(open(sys.argv[1]).readline())
	assert e["stack"][:2] == ["fire (inlined.c:%s, inlined)" % sys.argv[2],
	                          "check (inlined.c:%s, inlined)" % sys.argv[3]], e["stack"]
	PY
	timeout 60 "$PROBEGEN" --trace --stack --folded f.txt -c ./inl > out 2> err || { cat err; fail "--folded"; }
	grep -q ';main;outer;check;fire;st:deep 1$' f.txt || { cat f.txt; fail "--folded's inlined frames"; }
	# The same chain built as C++: the real function demangled, the
	# inlined ones by their DWARF names.
	g++ -g -O2 -fomit-frame-pointer -I. -x c++ "$src" -x none probes.o -o inlxx || fail "build as C++"
	timeout 60 "$PROBEGEN" --trace --stack -c ./inlxx > out 2> err || { cat err; fail "--stack, C++"; }
	[ "$(sed -n 2,3p out)" = "    fire (inlined.c:$fire, inlined)
    check (inlined.c:$check, inlined)" ] && sed -n 4p out | grep -q "^    outer(int)+0x[0-9a-f]* (inlined.c:$outer)$" ||
		{ cat out; fail "C++: the inlined frames"; }
	ok
}

# A call chain 50 KB deep (50 frames of 1 KiB, as a server's under its
# event loop): the default 8 KiB copy stops short and says so; 65536
# bytes, what perf's --call-graph dwarf allows, reach main.
t_stack_64_kib_deep() {
	need_trace
	"$PROBEGEN" -h -s "$ROOT/tests/src/stack.d" -o stack_probes.h || fail "-h"
	"$PROBEGEN" -G -s "$ROOT/tests/src/stack.d" -o probes.o || fail "-G"
	gcc -g -O2 -fomit-frame-pointer -I. "$ROOT/tests/src/deep_stack.c" probes.o -o deep || fail "build"
	timeout 60 "$PROBEGEN" --trace --stack -c './deep 1' > short 2> err || { cat err; fail "--stack"; }
	grep -q "^    (the walk stopped: the stack's copy ends (8192 bytes; --stack-bytes))$" short ||
		{ cat short; fail "8 KiB: the walk's stop not said"; }
	# The summary says why too (it showed a bare "..."), and its JSON.
	timeout 60 "$PROBEGEN" --trace --stack --summary -c './deep 1' > sum 2> err || { cat err; fail "--stack --summary"; }
	grep -q "^    \.\.\. (the walk stopped: the stack's copy ends (8192 bytes; --stack-bytes))$" sum ||
		{ cat sum; fail "--summary: the walk's stop not said"; }
	timeout 60 "$PROBEGEN" --trace --stack --summary --json -c './deep 1' > sum.json 2> err || { cat err; fail "--stack --summary --json"; }
	grep -q '"complete": false, "stack_stopped": "the stack.s copy ends (8192 bytes; --stack-bytes)"' sum.json ||
		{ cat sum.json; fail "--summary --json: the walk's stop not said"; }
	timeout 60 "$PROBEGEN" --trace --stack --stack-bytes 65536 -c './deep 1' > out 2> err ||
		{ cat err; fail "--stack-bytes 65536"; }
	stack_functions out > fns
	[ "$(grep -c -x descend fns)" = 51 ] && grep -q -x main fns && ! grep -q 'the walk stopped' out ||
		{ cat out; fail "64 KiB: not 51 descend frames and main"; }
	timeout 60 "$PROBEGEN" --trace --json --stack --stack-bytes 65536 -c './deep 1' > json 2> err ||
		{ cat err; fail "--json"; }
	python3 - json <<-'PY' || fail "--json's walk"
	import json, sys
	e = json.loads(open(sys.argv[1]).readline())
	names = [f.split("+")[0] for f in e["stack"]]
	assert names.count("descend") == 51 and "main" in names and "stack_stopped" not in e, e
	PY
	ok
}

# A 190-frame recursion copied whole in 64 KiB: a walk keeps 127 frames
# by default (perf's; it kept 64, and never reached main) and says it
# stopped there; --stack-frames 300 reaches main; 0 and 1025 are
# refused.
t_stack_frames() {
	need_trace
	"$PROBEGEN" -h -s "$ROOT/tests/src/stack.d" -o stack_probes.h || fail "-h"
	"$PROBEGEN" -G -s "$ROOT/tests/src/stack.d" -o probes.o || fail "-G"
	cat > rec.c <<-'C'
	#include "stack_probes.h"
	__attribute__((noinline)) static int recurse(int level)
	{
		volatile char frame[200];
		int r;

		frame[0] = (char)level;
		if (level)
			r = recurse(level - 1);
		else {
			ST_DEEP(level);
			r = 0;
		}
		__asm__ __volatile__("" ::: "memory");
		return r + frame[0];
	}
	int main(void) { return recurse(190) == -1; }
	C
	expect gcc -g -O2 -fomit-frame-pointer -I. rec.c probes.o -o rec
	timeout 60 "$PROBEGEN" --trace --stack --stack-bytes 65536 -c ./rec > out 2> err || { cat err; fail "--stack"; }
	stack_functions out > fns
	expect_eq "$(grep -c -x recurse fns)" 127 "frames kept by default"
	expect_grep '^    (the walk stopped: at 127 frames, the most kept (--stack-frames))$' out
	timeout 60 "$PROBEGEN" --trace --stack --stack-bytes 65536 --stack-frames 300 -c ./rec > out 2> err ||
		{ cat err; fail "--stack-frames 300"; }
	stack_functions out > fns
	[ "$(grep -c -x recurse fns)" = 191 ] && grep -q -x main fns && ! grep -q 'the walk stopped' out ||
		{ cat out; fail "--stack-frames 300: not 191 recurse frames and main"; }
	for n in 0 1025 x; do
		! "$PROBEGEN" --trace --stack --stack-frames $n -c ./rec > out 2> err || fail "--stack-frames $n taken"
		expect_grep "--stack-frames takes a number of frames from 1 to 1024, not '$n'" err
	done
	ok
}

# A copy too small to reach main says where the walk stopped, and why;
# --stack-bytes takes 512 to 65536.
t_stack_short_copy() {
	need_trace
	stack_program
	timeout 60 "$PROBEGEN" --trace --stack --stack-bytes 512 -n python:function__entry --limit 1 \
		-c '/usr/bin/python3.11 -c pass' > out 2> err || { cat err; fail "--stack-bytes 512"; }
	grep -q "^    (the walk stopped: the stack's copy ends (512 bytes; --stack-bytes))$" out ||
		{ cat out; fail "a short copy: not said"; }
	! "$PROBEGEN" --trace --stack --stack-bytes 100000 -c ./stack 2> err &&
		grep -q -- "--stack-bytes takes a number of bytes from 512 to 65536" err || { cat err; fail "--stack-bytes 100000"; }
	ok
}

# A 32-bit program (i686, static, -O2 -fomit-frame-pointer): its
# registers sit in the low halves of the kernel's pt_regs and its stack
# words are 4 bytes; the walk reaches main as on x86-64.  Only a kernel
# with ia32 emulation runs it: this machine's has none, Debian 12's has
# (make check-kernel boots it).
t_stack_32bit() {
	need_trace
	need i686-linux-gnu-gcc
	"$PROBEGEN" -h --self-contained -s "$ROOT/tests/src/stack.d" -o stack_probes.h || fail "-h"
	"$PROBEGEN" -G --target=i386 -s "$ROOT/tests/src/stack.d" -o probes.o || fail "-G"
	i686-linux-gnu-gcc -static -g -O2 -fomit-frame-pointer -I. "$ROOT/tests/src/stack.c" probes.o \
		-o stack32 || fail "i686 build"
	./stack32 1 2> run.err ||
		{ grep -q 'Exec format error' run.err && skip_kernel "this kernel cannot run 32-bit x86 programs (ia32 emulation is off)"; }
	timeout 60 "$PROBEGEN" --trace --stack -c './stack32 2' > out 2> err || { cat err; fail "--stack of a 32-bit program"; }
	[ "$(stack_functions out | head -4 | tr '\n' ' ')" = "leaf middle outer main " ] ||
		{ cat out; fail "the 32-bit walk is not leaf, middle, outer, main"; }
	grep -q '^    middle+0x[0-9a-f]* (stack.c:[0-9]*)$' out || { cat out; fail "middle's line"; }
	grep -q 'the walk stopped' out && { cat out; fail "a 32-bit walk stopped short"; }
	ok
}

# A symbol whose name holds a terminal's escape sequence and a newline
# (the binary's .strtab and .debug_str rewritten: "middle" becomes
# "mid" ESC LF "e") is printed escaped in every output that shows
# stacks: --summary --stack printed it raw (a forged line, colours).
t_stack_names_escaped() {
	need_trace
	stack_program
	python3 - stack <<-'PY' || fail "rewrite the name"
	import sys
	p = sys.argv[1]
	d = open(p, "rb").read()
	assert d.count(b"\0middle\0") >= 1
	open(p, "wb").write(d.replace(b"\0middle\0", b"\0mid\x1b\ne\0"))
	PY
	nm stack | grep -q "mid.*" || fail "no such symbol"
	local mode
	for mode in "" "--summary" "--summary --json" "--json"; do
		timeout 60 "$PROBEGEN" --trace --stack $mode -c './stack 2' > out 2> err ||
			{ cat err; fail "--stack $mode"; }
		grep -q "$(printf '\033')" out && { cat -v out; fail "--stack $mode: an escape byte reached the output"; }
		grep -q '^e+0x\|^e (' out && { cat -v out; fail "--stack $mode: a forged line"; }
		grep -Eq 'mid\\(x1b|u001b|e|033)' out || { cat -v out; fail "--stack $mode: the name is not shown escaped"; }
	done
	timeout 60 "$PROBEGEN" --trace --stack --folded f.txt -c './stack 2' > out 2> err || { cat err; fail "--folded"; }
	grep -q "$(printf '\033')" f.txt && fail "--folded: an escape byte"
	[ "$(wc -l < f.txt)" -ge 1 ] && ! grep -qv ' [0-9]*$' f.txt || { cat -v f.txt; fail "--folded: a line that is not a stack"; }
	ok
}

# A firing whose stack pointer is in no mapping (a program that moves
# it to 0x10 around its probe site) says so, not that "the stack's copy
# ends (0 bytes, to its top; --stack-bytes)", which sent the user to a
# flag that cannot help.
t_stack_pointer_unmapped() {
	need_trace
	cat > bad.c <<-'C'
	#include <sys/sdt.h>
	__asm__(".text\n.globl fire_bad_sp\n.type fire_bad_sp, @function\nfire_bad_sp:\n"
		"\tmov %rsp, %rax\n\tmov $0x10, %rsp\n"
		STAP_PROBE_ASM(bad, sp, -8@%rax)
		"\tmov %rax, %rsp\n\tret\n.size fire_bad_sp, .-fire_bad_sp\n");
	void fire_bad_sp(void);
	int main(void) { fire_bad_sp(); return 0; }
	C
	expect gcc -O2 bad.c -o badsp
	timeout 60 "$PROBEGEN" --trace --stack -c ./badsp > out 2> err || { cat err; fail "--stack"; }
	grep -q '^    (the walk stopped: the stack pointer was not in a mapping (nothing to copy))$' out ||
		{ cat out; fail "not said"; }
	ok
}

# Stacks lost to a full ring are said where stacks are counted: a burst
# of 100,000 firings with 16 KiB copies overflows the 64 MiB ring while
# the first walk reads libc's DWARF.  The probe's count is the
# kernel's; its stacks plus the lost ones add up to it in --summary's
# text and JSON and in --folded (a "[stacks lost]" tower), where the
# stacks alone were given beside the count with nothing saying so.
t_stack_lost_said() {
	need_trace
	printf 'provider burst {\n\tprobe tick(int i);\n};\n' > b.d
	printf '#include <stdlib.h>\n#include "b.h"\n__attribute__((noinline)) static void fire(int i) { BURST_TICK(i); }\nint main(int c, char **v) { int i, n = atoi(v[1]); (void)c; for (i = 0; i < n; i++) fire(i); return 0; }\n' > b.c
	expect "$PROBEGEN" -h -s b.d -o b.h
	expect "$PROBEGEN" -G -s b.d -o bp.o
	expect gcc -g -O2 -I. b.c bp.o -o b
	timeout 120 "$PROBEGEN" --trace --stack --stack-bytes 16384 --summary -c './b 100000' > out 2> err ||
		{ cat err; fail "--summary --stack"; }
	expect_grep '^  burst:tick  *100000  [0-9.]*/s$' out
	walked=$(awk '/^  [0-9]+ firings$/ { s += $1 } END { print s + 0 }' out)
	if grep -q 'stacks lost: firings the kernel counted' out; then
		grep -Eq "^stacks of burst:tick \(1 distinct\)( \(sampled: a walk every [0-9]+ firings at most, each counted for the firings it stood for\))?: $walked of 100000 firings; $((100000 - walked)) stacks lost: firings the kernel counted whose events probegen never read \(dropped when the ring buffer was full, or fired after its last read as the trace ended\):$" out ||
			{ cat out; fail "the lost stacks: not said as counted"; }
	else
		expect_eq "$walked" 100000 "stacks shown, none said lost"
		note "no stack lost in this run (text)"
	fi
	timeout 120 "$PROBEGEN" --trace --stack --stack-bytes 16384 --summary --json -c './b 100000' > json 2> err ||
		{ cat err; fail "--summary --json --stack"; }
	python3 - json <<-'PY' || fail "JSON: the stacks do not add up to the count"
	import json, sys
	s = json.load(open(sys.argv[1]))
	st = s["stacks"]["burst:tick"]
	assert sum(x["count"] for x in st) == s["probes"]["burst:tick"]["count"] == 100000, st
	assert all(bool(x.get("lost")) == (x["frames"] == ["[stacks lost]"]) for x in st), st
	PY
	timeout 120 "$PROBEGEN" --trace --stack --stack-bytes 16384 --folded f.txt -c './b 100000' > out 2> err ||
		{ cat err; fail "--folded --stack"; }
	expect_eq "$(awk '{ s += $NF } END { print s }' f.txt)" 100000 "--folded's weights"
	grep -q '^\[stacks lost\];burst:tick [0-9]*$' f.txt || note "no stack lost in this run (--folded)"
	if have go; then
		timeout 120 "$PROBEGEN" --trace --stack --stack-bytes 16384 --pprof p.pb.gz -c './b 100000' > out 2> err ||
			{ cat err; fail "--pprof --stack"; }
		go tool pprof -raw p.pb.gz > raw.txt 2> /dev/null || fail "go tool pprof -raw"
		# Samples: "   COUNT: id id ..."; their sum is every firing.
		expect_eq "$(awk '/^Samples:/ { on = 1; next } /^Locations/ { on = 0 } on && /^ *[0-9]+:/ { s += $1 } END { print s }' raw.txt)" 100000 "--pprof's samples"
		grep -q "stacks lost" raw.txt || note "no stack lost in this run (--pprof)"
	else
		skip_part "go is not installed (golang-go)"
	fi
	ok
}

# C++ frames are named as perf and gdb name them, demangled
# (_ZN3net7receiveEi is net::receive(int)), in the stream, --summary and
# --folded (they printed mangled).
t_stack_cxx_demangled() {
	need_trace
	need g++
	printf 'provider cx {\n\tprobe a(int x);\n};\n' > cx.d
	cat > cxs.cc <<-'C'
	#include "cx.h"
	namespace net {
	__attribute__((noinline)) int receive(int n) { CX_A(n); asm volatile("" ::: "memory"); return n + 1; }
	}
	template <typename T> __attribute__((noinline)) T twice(T x) { return net::receive(static_cast<int>(x)) * 2; }
	int main(int c, char **) { return twice<long>(c) > 100; }
	C
	expect "$PROBEGEN" -h -s cx.d -o cx.h
	expect "$PROBEGEN" -G -s cx.d -o cxp.o
	expect g++ -g -O2 -I. cxs.cc cxp.o -o cxs
	nm cxs | grep -q '_ZN3net7receiveEi' || fail "not a mangled name to begin with"
	timeout 60 "$PROBEGEN" --trace --stack -n 'cx:*' -c ./cxs > out 2> err || { cat err; fail "--stack"; }
	grep -q '^    net::receive(int)+0x[0-9a-f]* (cxs.cc:3)$' out || { cat out; fail "net::receive(int) not named"; }
	grep -q '^    long twice<long>(long)+0x[0-9a-f]* (cxs.cc:[0-9]*)$' out || { cat out; fail "the template not named"; }
	grep -q '_Z' out && { cat out; fail "a mangled name"; }
	timeout 60 "$PROBEGEN" --trace --stack --summary -n 'cx:*' -c ./cxs > out 2> err || { cat err; fail "--summary --stack"; }
	expect_grep '^    net::receive(int)+0x' out
	timeout 60 "$PROBEGEN" --trace --stack --folded f.txt -n 'cx:*' -c ./cxs > out 2> err || { cat err; fail "--folded"; }
	expect_grep ';main;long twice<long>(long);net::receive(int);cx:a 1$' f.txt
	ok
}
