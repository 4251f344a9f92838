# t_rust.sh - probegen --rust: the example crate builds offline, its
# notes are right and parseable, gdb reads its arguments, bpftrace traces
# it and sets its semaphore, and the lazy closure runs only while traced.
. "$ROOT/tests/libbpf_args.sh"

# build_rust debug|release [gnu-ld]: the example as a user builds it,
# linked by Rust's default linker (rust-lld), or by GNU ld.
build_rust() {
	need cargo
	rm -rf crate
	cp -r "$ROOT/examples/rust" crate
	rm -rf crate/target
	# The build helper is a path dependency, relative to the tree.
	sed -i "s|path = \"../../build-systems|path = \"$ROOT/build-systems|" crate/Cargo.toml
	(cd crate && PROBEGEN=$PROBEGEN RUSTFLAGS="${2:+-C linker-features=-lld}" \
		cargo build --offline -q $([ $1 = release ] && echo --release)) \
		> cargo.log 2>&1 || { cat cargo.log; fail "cargo build --$1"; }
	bin=crate/target/$1/rustapp
}

t_rust_build_and_notes() {
	local mode
	for mode in debug release; do
		build_rust $mode
		[ ! -s cargo.log ] || { cat cargo.log; fail "cargo printed warnings ($mode)"; }
		expect_eq "$(probe_list $bin | sort -u | tr '\n' ' ')" \
			"rustapp:described 2 rustapp:request__done 3 rustapp:request__start 2 rustapp:tick 0 rustapp:values 12 " \
			"$mode notes"
		readelf -nW $bin | grep -q 'Base: 0x0*[1-9a-f]' || fail "$mode: no .stapsdt.base"
		libbpf_check $bin x86_64 || fail "$mode: libbpf cannot parse the notes"
		semaphores_in_probes $bin || fail "$mode: semaphores"
		# The module records the declarations: --list names the arguments.
		"$PROBEGEN" --list $bin > list || fail "$mode: --list"
		grep -q 'arg1  path: char const \*' list || { cat list; fail "$mode: declarations"; }
		expect_eq "$(./$bin 1 | tr '\n' ' ')" "semaphore seen: no lazy closure calls: 0 " "$mode untraced run"
		rm -rf crate
	done
	ok
}

t_rust_gdb() {
	need gdb
	build_rust release
	cat > r.gdb <<-'G'
	break -probe-stap rustapp:values
	break -probe-stap rustapp:request__start
	run 1
	printf "start %d %s\n", $_probe_arg0, (char *)$_probe_arg1
	continue
	printf "values %d %u %d %u %d %u %ld %lu %lld %llu %d\n", $_probe_arg0, $_probe_arg1, $_probe_arg2, $_probe_arg3, $_probe_arg4, $_probe_arg5, $_probe_arg6, $_probe_arg7, $_probe_arg8, $_probe_arg9, $_probe_arg11
	printf "pointer %d\n", $_probe_arg10 != 0
	continue
	G
	gdb -q -batch -nx -x r.gdb ./$bin > gdb.out 2>&1
	grep -E '^(start|values|pointer|semaphore|lazy)' gdb.out > got
	cat > want <<-'W'
	start 0 /index.html
	values -5 250 -300 60000 -70000 4000000000 -5000000000 18000000000000000000 -9000000000000000000 18446744073709551615 0
	pointer 1
	semaphore seen: yes
	lazy closure calls: 0
	W
	diff -u want got || { tail gdb.out; fail "gdb values"; }
	ok
}

# bpftrace 0.17 reads the probes and sets the semaphores of a build
# linked by rust-lld (Rust's default) as of one linked by GNU ld: both.
t_rust_bpftrace() {
	need_bpftrace
	local linker
	for linker in rust-lld gnu-ld; do
		bpftrace_rustapp $linker
	done
	ok
}

bpftrace_rustapp() {
	build_rust release ${1#rust-lld}
	linked_by $1
	timeout 60 bpftrace -e "
	usdt:./$bin:rustapp:request__start /@n < 3/ { @n++; printf(\"start %d %s\\n\", arg0, str(arg1)); }
	usdt:./$bin:rustapp:described /@d < 3/ { @d++; printf(\"described %d %s\\n\", arg0, str(arg1)); }
	END { clear(@n); clear(@d); }" -c "./$bin 100" > out 2> err
	cat out
	grep -q '^semaphore seen: yes$' out || fail "the program did not see its semaphore set"
	calls=$(sed -n 's/^lazy closure calls: //p' out)
	[ "${calls:-0}" -gt 0 ] || fail "the lazy closure never ran while traced"
	grep -q '^start [0-9]* /index.html$' out || fail "request__start not traced"
	grep -qE '^described ([0-9]+) request number \1$' out || fail "$1: lazy string not traced"
	case_ok "bpftrace on a build linked by $1"
}

# The cargo helper (build-systems/cargo/probegen-build): a missing
# probegen is a panic that says how to get one; a changed .d file makes
# the build script run again.
t_rust_build_helper() {
	need cargo
	cp -r "$ROOT/examples/rust" crate
	rm -rf crate/target
	sed -i "s|path = \"../../build-systems|path = \"$ROOT/build-systems|" crate/Cargo.toml
	(cd crate && PROBEGEN=/nonexistent/probegen cargo build --offline -q) > cargo.log 2>&1 &&
		fail "built without probegen"
	grep -q "cannot run '/nonexistent/probegen'" cargo.log || { cat cargo.log; fail "no reason given"; }
	grep -q 'Install probegen' cargo.log || fail "no advice given"
	(cd crate && PROBEGEN=$PROBEGEN cargo build --offline -q) > cargo.log 2>&1 || { cat cargo.log; fail "build"; }
	printf '\nprovider added { probe later(int x); };\n' >> crate/probes.d
	(cd crate && PROBEGEN=$PROBEGEN cargo build --offline -q) > cargo.log 2>&1 || { cat cargo.log; fail "rebuild"; }
	grep -q 'pub mod added' crate/target/debug/build/rustapp-*/out/probes.rs ||
		fail "the module was not made again after probes.d changed"
	ok
}

# The module keeps the .d's names and docs: keywords made raw
# identifiers, names no identifier can take given a suffix, repeats and
# unnamed arguments as the other outputs name them; it compiles without
# a warning in editions 2018, 2021 and 2024, rustdoc shows the docs, and
# a code block in them is never run as a doctest.
t_rust_names_and_docs() {
	need rustc
	"$PROBEGEN" --rust -s "$ROOT/tests/src/rust_names.d" -o names.rs 2> /dev/null || fail "--rust"
	grep -F 'pub fn keywords(r#type: i32, r#fn: &str, self_: i64, Self_: i32, None_: i32)' names.rs &&
	grep -F 'pub fn repeats(value: i32, value_2: i32, arg2: i32, arg3: &str)' names.rs &&
	grep -F 'pub fn statics(KEYWORDS_SEMAPHORE_: i32, __: f64, f: f32)' names.rs > /dev/null ||
		{ grep 'pub fn' names.rs; fail "signatures"; }
	echo 'include!("names.rs");' > lib.rs
	for edition in 2018 2021 2024; do
		rustc --edition $edition --crate-type lib --crate-name names -D warnings lib.rs > rustc.log 2>&1 ||
			{ cat rustc.log; fail "edition $edition"; }
	done
	rustdoc --edition 2021 --crate-name names lib.rs -o doc > rustdoc.log 2>&1 || { cat rustdoc.log; fail rustdoc; }
	html=doc/names/names/fn.keywords.html
	grep -q 'A request arrived.' $html || fail "the doc comment is not in $html"
	grep -q '(type: <a class="primitive" href="[^"]*">i32</a>' $html || fail "no named argument in $html"
	grep -q 'Repeated and unnamed arguments.' doc/names/names/fn.repeats.html ||
		fail "the /// comment is not in fn.repeats.html"
	rustdoc --edition 2021 --crate-name names --test lib.rs > doctest.log 2>&1 || { cat doctest.log; fail "doctests"; }
	grep -q 'running 0 tests' doctest.log || { cat doctest.log; fail "the docs' code block ran as a doctest"; }
	ok
}

# `cargo doc` on the example shows each probe with the .d's argument
# names and its doc comment.
t_rust_cargo_doc() {
	need cargo
	cp -r "$ROOT/examples/rust" crate
	rm -rf crate/target
	sed -i "s|path = \"../../build-systems|path = \"$ROOT/build-systems|" crate/Cargo.toml
	(cd crate && PROBEGEN=$PROBEGEN cargo doc --offline -q --document-private-items) > cargo.log 2>&1 ||
		{ cat cargo.log; fail "cargo doc"; }
	html=crate/target/doc/rustapp/rustapp/fn.request_start.html
	[ -f $html ] || fail "no $html"
	grep -q 'A request arrived: its number and the path asked for.' $html || fail "doc comment missing"
	grep -q 'id: <a class="primitive"[^>]*>i32</a>, path: &amp;<a class="primitive"[^>]*>str</a>' $html ||
		{ grep -o 'pub fn request_start[^<]*<[^;]*' $html | head -3; fail "argument names missing"; }
	ok
}

# Rust's default linker, rust-lld, lets the RELRO segment's last page
# share a file page with .data; the kernel then set semaphores there,
# where the program never looks, when a tracer attached before the
# program ran.  The module starts .probes on a page of its own: a
# default-linked release build fires its gated probes under --trace -c,
# -p and a BINARY operand.
t_rust_lld_semaphores() {
	need_bpftrace
	build_rust release
	readelf -p .comment $bin | grep -q 'Linker: LLD' || fail "not linked by rust-lld: $(readelf -p .comment $bin)"
	# The layout that broke them: the RELRO segment's last file page is
	# where the next segment starts.
	local relro loads o shared=0
	relro=$(readelf -lW $bin | awk '/GNU_RELRO/ { print $2, $5 }')
	[ -n "$relro" ] || fail "no GNU_RELRO segment"
	set -- $relro
	for o in $(readelf -lW $bin | awk '/LOAD/ { print $2 }'); do
		[ $((o)) -gt $(($1)) ] && [ $((o / 4096)) = $((($1 + $2 - 1) / 4096)) ] && shared=1
	done
	[ $shared = 1 ] || echo "note: this build's RELRO segment shares no page with the next"
	o=$(readelf -SW $bin | awk '$2 == ".probes" { print $5 }')
	[ -n "$o" ] && [ $((0x$o % 4096)) = 0 ] || fail ".probes does not start a file page (offset ${o:-none})"
	timeout 60 "$PROBEGEN" --trace -c "./$bin 5" > out 2>&1 || { cat out; fail "--trace -c"; }
	grep -q 'rustapp:request__start id=0 path="/index.html"' out || { cat out; fail "--trace -c: no request__start"; }
	grep -q 'rustapp:described id=1 text="request number 1"' out || fail "--trace -c: no described"
	grep -q '^semaphore seen: yes' out || fail "--trace -c: semaphore not seen"
	./$bin 150 > run.out &
	pid=$!
	sleep 0.3
	timeout 60 "$PROBEGEN" --trace -p $pid --duration 1 > out-p 2>&1
	wait $pid
	grep -q 'rustapp:request__start' out-p || { cat out-p; fail "--trace -p: no request__start"; }
	./$bin 150 > run.out &
	pid=$!
	timeout 60 "$PROBEGEN" --trace $bin --duration 1 > out-b 2>&1
	wait $pid
	grep -q 'rustapp:request__start' out-b || { cat out-b; fail "--trace BINARY: no request__start"; }
	ok
}

# build_tracing_example [gnu-ld]: examples/rust-tracing, a release
# build offline against Debian's tracing crates; sets bin.
build_tracing_example() {
	cargo_debian_registry tracing tracing-subscriber
	rm -rf tcrate
	cp -r "$ROOT/examples/rust-tracing" tcrate
	rm -rf tcrate/target
	sed -i "s|path = \"../../build-systems|path = \"$ROOT/build-systems|" tcrate/Cargo.toml
	(cd tcrate && PROBEGEN=$PROBEGEN RUSTFLAGS="${1:+-C linker-features=-lld}" cargo build --release -q) \
		> cargo.log 2>&1 || { cat cargo.log; fail "cargo build (examples/rust-tracing)"; }
	[ ! -s cargo.log ] || { cat cargo.log; fail "cargo printed warnings"; }
	bin=tcrate/target/release/rust-tracing
}

# UsdtLayer: the example's #[instrument]ed spans and its events, under
# --trace with the values the program passed; its spans as timeline
# slices named after them, nested as they ran; nothing printed untraced.
t_rust_tracing_layer() {
	build_tracing_example
	[ -z "$(./$bin 3)" ] || fail "the example printed something untraced"
	timeout 60 "$PROBEGEN" --trace -c "./$bin 4" > out 2>&1 || { cat out; fail "--trace -c"; }
	local id path
	for id in 0 1 2 3; do
		path=/index.html
		[ $id = 3 ] && path=/missing
		grep -q "tracing:span__enter id=[0-9]* name=\"handle\" target=\"rust_tracing\" fields=\"id=$id path=\\\\\"$path\\\\\"\"" out ||
			{ cat out; fail "no span__enter of handle($id, $path)"; }
		grep -q "tracing:span__exit id=[0-9]* name=\"lookup\" target=\"rust_tracing\" fields=\"path=\\\\\"$path\\\\\"\"" out ||
			fail "no span__exit of lookup($path)"
	done
	grep -q 'tracing:event level="INFO" target="rust_tracing" message="served /index.html" fields="id=2 bytes=1024"' out ||
		fail "no INFO event for id 2"
	grep -q 'tracing:event level="WARN" target="rust_tracing" message="not found: /missing" fields="id=3"' out ||
		fail "no WARN event for id 3"
	[ "$(grep -c 'tracing:span__enter' out)" = 8 ] || fail "expected 8 span entries"
	timeout 60 "$PROBEGEN" --trace --timeline t.json -c "./$bin 4" > /dev/null 2>&1 || fail "--timeline"
	python3 - t.json <<-'PY' || fail "timeline"
	import json, sys
	ev = json.load(open(sys.argv[1]))["traceEvents"]
	x = [e for e in ev if e["ph"] == "X"]
	handle = [e for e in x if e["name"] == "handle"]
	lookup = [e for e in x if e["name"] == "lookup"]
	assert len(handle) == 4 and len(lookup) == 4, [e["name"] for e in x]
	for h, l in zip(sorted(handle, key=lambda e: e["ts"]), sorted(lookup, key=lambda e: e["ts"])):
	    assert h["ts"] <= l["ts"] and l["ts"] + l["dur"] <= h["ts"] + h["dur"], (h, l)
	    assert l["dur"] >= 2000, l  # lookup sleeps 2 ms
	assert sum(1 for e in ev if e["ph"] == "i" and e["name"] == "tracing:event") == 4
	PY
	# The fields (tracing.d's @fields): an object in JSON; one named by
	# --where (in the kernel), --expect, --show and --by.
	timeout 60 "$PROBEGEN" --trace --json -n tracing:event -c "./$bin 4" 2> err | grep '^{' > ev.json || { cat err; fail "--json"; }
	python3 - ev.json <<-'PY' || fail "the fields as JSON objects"
	import json, sys
	ev = [json.loads(l) for l in open(sys.argv[1])]
	assert [e["args"]["fields"] for e in ev] == [{"id": "0", "bytes": "1024"}, {"id": "1", "bytes": "1024"},
	                                             {"id": "2", "bytes": "1024"}, {"id": "3"}], ev
	PY
	timeout 60 "$PROBEGEN" --trace -n tracing:span__enter --where 'tracing:span__enter: fields.path == "/missing"' \
		-c "./$bin 4" > out 2> err || { cat err; fail "--where fields.path"; }
	expect_eq "$(firings out | sed 's/ id=[0-9]*//')" 'tracing:span__enter name="handle" target="rust_tracing" fields="id=3 path=\"/missing\"" fields.path="/missing"
tracing:span__enter name="lookup" target="rust_tracing" fields="path=\"/missing\"" fields.path="/missing"' "--where fields.path"
	timeout 60 "$PROBEGEN" --trace --summary -n tracing:event --expect 'tracing:event{1}: fields.id == "3" && !(fields.bytes ~ "*")' \
		--expect 'tracing:event{3}: fields.bytes == "1024"' -c "./$bin 4" > out 2> err || { cat err; fail "--expect on fields"; }
	expect_grep "'tracing:event{3}: fields.bytes == \"1024\"': met: 3 of 4" err
	timeout 60 "$PROBEGEN" --trace -n tracing:event --show tracing:event:fields.bytes -c "./$bin 4" > out 2> err ||
		{ cat err; fail "--show fields.bytes"; }
	[ "$(grep -c ' fields.bytes="1024"$' out) $(grep -c ' fields.bytes=(absent)$' out)" = "3 1" ] || { cat out; fail "--show fields.bytes"; }
	timeout 60 "$PROBEGEN" --trace --summary --by 'tracing:span__enter:name+fields.path' -c "./$bin 4" > out 2> err ||
		{ cat err; fail "--by fields.path"; }
	grep -q ' 3 .*  handle::/index.html$' out && grep -q ' 1 .*  lookup::/missing$' out || { cat out; fail "--by fields.path"; }
	ok
}

# The same probes under bpftrace, linked by rust-lld (docs/build-systems.md's
# transcript) and by GNU ld.
t_rust_tracing_bpftrace() {
	need_bpftrace
	local linker
	for linker in rust-lld gnu-ld; do
		bpftrace_tracing_example $linker
	done
	ok
}

bpftrace_tracing_example() {
	build_tracing_example ${1#rust-lld}
	linked_by $1
	timeout 60 bpftrace -e "
	usdt:./$bin:tracing:event { printf(\"event %s %s %s\\n\", str(arg0), str(arg2), str(arg3)); }
	usdt:./$bin:tracing:span__enter { printf(\"enter %s %s\\n\", str(arg1), str(arg3)); }" \
		-c "./$bin 4" > out 2> err
	grep -qx 'event WARN not found: /missing id=3' out || { cat out err; fail "$1: no WARN event"; }
	grep -qx 'enter handle id=1 path="/index.html"' out || { cat out; fail "$1: no span entry of handle(1)"; }
	case_ok "bpftrace on a build linked by $1"
}

# linked_by rust-lld|gnu-ld: $bin was linked so.
linked_by() {
	local lld=no
	readelf -p .comment $bin | grep -q 'Linker: LLD' && lld=yes
	[ $lld = $([ $1 = rust-lld ] && echo yes || echo no) ] || fail "$bin: not linked by $1"
}

# Both crates declare the Rust they need, the one the module --rust
# writes needs (#[unsafe(link_section)] and &raw const: 1.82), so that
# an older cargo says so instead of failing on the generated code
# (Debian 12's cargo 1.65 printed 23 errors about `unsafe` and raw
# addresses).  The toolchain here builds them, so it is at least that.
t_rust_declares_its_version() {
	need cargo
	local c v
	for c in probegen-build probegen-tracing; do
		v=$(sed -n 's/^rust-version = "\(.*\)"$/\1/p' "$ROOT/build-systems/cargo/$c/Cargo.toml")
		expect_eq "$v" 1.82 "$c's rust-version"
	done
	v=$(rustc --version | sed -n 's/^rustc \([0-9]*\.[0-9]*\).*/\1/p')
	printf '%s\n%s\n' 1.82 "$v" | sort -C -V || fail "rustc $v here is older than the 1.82 declared, yet the Rust tests build"
	grep -q 'requires rustc 1.82 or newer' "$ROOT/docs/build-systems.md" || fail "docs/build-systems.md does not say what an older cargo says"
	note "rustc $v"
	ok
}
