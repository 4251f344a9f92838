# t_build_systems.sh - probegen from CMake and Meson: the examples
# (examples/cmake, examples/meson: a program with two providers and a
# shared library with one) built against probegen installed into a
# temporary prefix, natively and cross-compiled for aarch64; notes
# checked, gdb stopping at probes and reading their arguments.

install_prefix() {
	make -s -C "$ROOT" install PREFIX="$PWD/prefix" SANITIZE= > install.log 2>&1 ||
		{ cat install.log; fail "make install"; }
}

# The probes of the example's program and library, by name and count.
example_notes() { # DIR
	expect_eq "$(probe_list $1/shop | sort | tr '\n' ' ')" \
		"audit:event 2 shop:request__done 2 shop:request__start 2 " "probes of shop"
	expect_eq "$(probe_list $1/libcache.so | tr '\n' ' ')" "cache:lookup 2 " "probes of libcache.so"
}

# gdb stops at a probe of the program and one of the library.
example_gdb() { # DIR
	need gdb
	(cd $1 && LD_LIBRARY_PATH=$PWD gdb -q -batch -nx \
		-ex 'set breakpoint pending on' \
		-ex 'break -probe-stap shop:request__start' -ex 'break -probe-stap cache:lookup' \
		-ex run -ex 'printf "start %d %s\n", $_probe_arg0, (char *)$_probe_arg1' \
		-ex continue -ex 'printf "lookup %s %d\n", (char *)$_probe_arg0, $_probe_arg1' \
		-ex kill ./shop) > gdb.out 2>&1
	grep -q '^start 0 /index.html$' gdb.out || { tail gdb.out; fail "gdb: shop:request__start"; }
	grep -q '^lookup greeting 1$' gdb.out || { tail gdb.out; fail "gdb: cache:lookup in the library"; }
}

# The aarch64 program under qemu-aarch64 -g, read by gdb-multiarch.
example_qemu() { # DIR
	need qemu-aarch64
	need gdb-multiarch
	local port=$((20000 + RANDOM % 20000))
	file $1/shop | grep -q 'ARM aarch64' || fail "not an aarch64 program"
	readelf -h $1/*probes*.o $1/probegen/shop/*.o 2>/dev/null | grep -q AArch64 ||
		fail "the probes object is not for aarch64"
	qemu-aarch64 -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH=$1 -g $port $1/shop > qemu.out 2>&1 &
	local qpid=$!
	timeout 120 gdb-multiarch -q -batch -nx -ex 'set architecture aarch64' \
		-ex 'set sysroot /usr/aarch64-linux-gnu' -ex "file $1/shop" \
		-ex "target remote :$port" -ex 'break -probe-stap shop:request__start' \
		-ex continue -ex 'printf "start %d %s\n", $_probe_arg0, (char *)$_probe_arg1' \
		-ex kill > gdbx.out 2>&1
	kill $qpid 2>/dev/null
	wait $qpid 2>/dev/null
	grep -q '^start 0 /index.html$' gdbx.out || { tail gdbx.out; fail "gdb-multiarch under qemu"; }
}

t_build_systems_cmake() {
	need cmake
	install_prefix
	cp -r "$ROOT/examples/cmake" src
	local gen n=0
	for gen in Ninja "Unix Makefiles"; do
		[ "$gen" = Ninja ] && ! have ninja && continue
		rm -rf build
		cmake -S src -B build -G "$gen" -DCMAKE_PREFIX_PATH="$PWD/prefix" > cmake.log 2>&1 ||
			{ cat cmake.log; fail "cmake ($gen)"; }
		cmake --build build > build.log 2>&1 || { cat build.log; fail "build ($gen)"; }
		expect_eq "$(cd build && LD_LIBRARY_PATH=$PWD ./shop)" "3 requests, 3 cache hits" "run ($gen)"
		example_notes build
		n=$((n + 1))
	done
	[ $n -ge 1 ] || fail "no generator"
	example_gdb build
	# The .d file changed: the header and the object are made again.
	sed -i 's/probe request__done(int id, unsigned short status);/&\n\tprobe request__late(int id);/' src/shop.d
	cmake --build build > build.log 2>&1 || { cat build.log; fail "rebuild"; }
	grep -q SHOP_REQUEST_LATE build/probegen/shop/shop.h || fail "header not made again"
	readelf -sW build/shop | grep -q shop_request__late_semaphore || fail "object not made again"
	ok
}

# find_package(probegen) without REQUIRED makes tracing optional; with
# REQUIRED, a missing probegen is a clear error.
t_build_systems_cmake_not_found() {
	need cmake
	mkdir opt req
	printf 'cmake_minimum_required(VERSION 3.16)\nproject(o C)\nfind_package(probegen)\nif(probegen_FOUND)\n  message(STATUS "tracing on")\nelse()\n  message(STATUS "tracing off")\nendif()\n' > opt/CMakeLists.txt
	printf 'cmake_minimum_required(VERSION 3.16)\nproject(r C)\nfind_package(probegen REQUIRED)\n' > req/CMakeLists.txt
	PATH=/usr/bin:/bin cmake -S opt -B opt/b > opt.log 2>&1 || { cat opt.log; fail "optional"; }
	expect_grep 'tracing off' opt.log
	install_prefix
	PATH=/usr/bin:/bin cmake -S opt -B opt/b2 -DCMAKE_PREFIX_PATH="$PWD/prefix" > opt2.log 2>&1
	expect_grep 'tracing on' opt2.log
	# Found, but the program gone: the package says what to do.
	mv prefix/bin/probegen prefix/bin/probegen.away
	PATH=/usr/bin:/bin cmake -S req -B req/b -DCMAKE_PREFIX_PATH="$PWD/prefix" > req.log 2>&1 &&
		fail "configured without probegen"
	expect_grep 'the probegen program is not in' req.log
	ok
}

t_build_systems_cmake_cross() {
	need cmake
	need aarch64-linux-gnu-gcc
	sdt_for_cross || skip "sys/sdt.h not found"
	install_prefix
	cp -r "$ROOT/examples/cmake" src
	cmake -S src -B build -DCMAKE_TOOLCHAIN_FILE="$PWD/src/aarch64-linux-gnu.cmake" \
		-DCMAKE_PREFIX_PATH="$PWD/prefix" -DCMAKE_C_FLAGS="-I$PWD/cross-include" > cmake.log 2>&1 ||
		{ cat cmake.log; fail "cmake"; }
	cmake --build build > build.log 2>&1 || { cat build.log; fail "build"; }
	readelf -h build/probegen/shop/shop_probes.o | grep -q AArch64 || fail "probes object not for aarch64"
	example_qemu build
	ok
}

t_build_systems_meson() {
	need meson
	need ninja
	install_prefix
	cp -r "$ROOT/examples/meson" src
	PKG_CONFIG_PATH="$PWD/prefix/lib/pkgconfig" meson setup build src > meson.log 2>&1 ||
		{ cat meson.log; fail "meson setup"; }
	grep -q 'Build-time dependency probegen found: YES' meson.log || fail "pkg-config did not find probegen"
	ninja -C build > build.log 2>&1 || { cat build.log; fail "build"; }
	expect_eq "$(cd build && LD_LIBRARY_PATH=$PWD ./shop)" "3 requests, 3 cache hits" "run"
	example_notes build
	example_gdb build
	ok
}

t_build_systems_meson_cross() {
	need meson
	need ninja
	need aarch64-linux-gnu-gcc
	sdt_for_cross || skip "sys/sdt.h not found"
	install_prefix
	cp -r "$ROOT/examples/meson" src
	meson setup build src --cross-file src/aarch64-linux-gnu.ini \
		-Dbuild.pkg_config_path="$PWD/prefix/lib/pkgconfig" -Dc_args="-I$PWD/cross-include" \
		> meson.log 2>&1 || { cat meson.log; fail "meson setup"; }
	ninja -C build > build.log 2>&1 || { cat build.log; fail "build"; }
	example_qemu build
	ok
}
