# t_rust.sh - probegen --rust: the example crate builds offline, its
# notes are right and parseable, gdb reads its arguments, bpftrace traces
# it and sets its semaphore, and the lazy closure runs only while traced.
. "$ROOT/tests/libbpf_args.sh"

build_rust() { # debug|release
	need cargo
	cp -r "$ROOT/examples/rust" crate
	rm -rf crate/target
	# The build helper is a path dependency, relative to the tree.
	sed -i "s|path = \"../../build-systems|path = \"$ROOT/build-systems|" crate/Cargo.toml
	(cd crate && PROBEGEN=$PROBEGEN cargo build --offline -q $([ $1 = release ] && echo --release)) \
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

t_rust_bpftrace() {
	need_bpftrace
	build_rust release
	timeout 60 bpftrace -e "
	usdt:./$bin:rustapp:request__start /@n < 3/ { @n++; printf(\"start %d %s\\n\", arg0, str(arg1)); }
	usdt:./$bin:rustapp:described /@d < 3/ { @d++; printf(\"described %d %s\\n\", arg0, str(arg1)); }
	END { clear(@n); clear(@d); }" -c "./$bin 100" > out 2> err
	cat out
	grep -q '^semaphore seen: yes$' out || fail "the program did not see its semaphore set"
	calls=$(sed -n 's/^lazy closure calls: //p' out)
	[ "${calls:-0}" -gt 0 ] || fail "the lazy closure never ran while traced"
	grep -q '^start [0-9]* /index.html$' out || fail "request__start not traced"
	grep -qE '^described ([0-9]+) request number \1$' out || fail "lazy string not traced"
	ok
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
