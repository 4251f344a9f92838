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
	install_prefix
	cp -r "$ROOT/examples/cmake" src
	# As the README shows: nothing but the toolchain file (the cross
	# compiler has no sys/sdt.h; the headers made are self-contained).
	cmake -S src -B build -DCMAKE_TOOLCHAIN_FILE="$PWD/src/aarch64-linux-gnu.cmake" \
		-DCMAKE_PREFIX_PATH="$PWD/prefix" > cmake.log 2>&1 ||
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
	PKG_CONFIG_PATH="$PWD/prefix/share/pkgconfig" meson setup build src > meson.log 2>&1 ||
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
	install_prefix
	cp -r "$ROOT/examples/meson" src
	# As the README shows: nothing but the cross file.
	meson setup build src --cross-file src/aarch64-linux-gnu.ini \
		-Dbuild.pkg_config_path="$PWD/prefix/share/pkgconfig" \
		> meson.log 2>&1 || { cat meson.log; fail "meson setup"; }
	ninja -C build > build.log 2>&1 || { cat build.log; fail "build"; }
	example_qemu build
	ok
}

# bazel_build CHECKOUT ROOT [ARGS...]: examples/bazel built sandboxed,
# with the strict action environment and the offline stand-ins for
# rules_cc and rules_java (tests/bazel), then the server stopped.
bazel_build() {
	local checkout=$1 root=$2
	shift 2
	(cd "$checkout/examples/bazel" &&
	 bazel --output_user_root="$root" build --spawn_strategy=sandboxed \
		--incompatible_strict_action_env \
		--override_repository=rules_cc="$checkout/tests/bazel/rules_cc" \
		--override_repository=rules_java="$checkout/tests/bazel/rules_java" \
		"$@" //:app //:app_header_only //:app_v2) > bazel.log 2>&1
	local rc=$?
	(cd "$checkout/examples/bazel" && bazel --output_user_root="$root" shutdown) > /dev/null 2>&1
	[ $rc = 0 ] || { tail -n 30 bazel.log; fail "bazel build in $checkout"; }
}

# The checkout's files Bazel reads, copied to DIR.
bazel_checkout() {
	mkdir -p "$1"
	(cd "$ROOT" && tar -cf - src grammar NEWS.md build-systems/bazel examples/bazel/WORKSPACE \
		examples/bazel/BUILD.bazel examples/bazel/app.d examples/bazel/app.c tests/bazel) |
		tar -xf - -C "$1"
}

# examples/bazel with probegen's rules (build-systems/bazel): the probes
# are in the binary and gdb stops at one; header_only and defines work;
# a second build from another checkout directory and a fresh output base
# makes byte-identical header and object, and with --disk_cache every
# probegen action of it is a cache hit.
t_build_systems_bazel() {
	need bazel
	need gdb
	bazel_checkout a
	bazel_checkout b
	bazel_build "$PWD/a" "$PWD/root-a" --disk_cache="$PWD/cache"
	local bin=a/examples/bazel/bazel-bin
	expect_eq "$(probe_list $bin/app | sort | tr '\n' ' ')" "app:request__done 2 app:request__start 2 " "probes of //:app"
	expect_eq "$(probe_list $bin/app_header_only | sort | tr '\n' ' ')" "app:request__done 2 app:request__start 2 " "probes of //:app_header_only"
	[ ! -e $bin/app_probes_header_only_probes.o ] || fail "header_only made an object"
	readelf -sW $bin/app | grep -q 'LOCAL  HIDDEN .* app_request__start_semaphore$' || fail "//:app: semaphore not hidden"
	readelf -sW $bin/app_v2 | grep -q 'GLOBAL DEFAULT .* app_request__start_semaphore$' ||
		fail "defines = [\"STAP_SDT_V2\"]: semaphore not visible"
	gdb -q -batch -nx -ex 'break -probe-stap app:request__start' -ex run \
		-ex 'printf "id %d path %s\n", $_probe_arg0, (char *)$_probe_arg1' $bin/app > gdb.out 2>&1
	grep -q '^id 0 path /index.html$' gdb.out || { cat gdb.out; fail "gdb at app:request__start"; }
	bazel_build "$PWD/b" "$PWD/root-b" --disk_cache="$PWD/cache" --execution_log_json_file="$PWD/exec.json"
	local f
	for f in app.h app_probes_probes.o header_only/app.h v2/app.h app_probes_v2_probes.o; do
		[ "$(sha256sum < a/examples/bazel/bazel-bin/$f)" = "$(sha256sum < b/examples/bazel/bazel-bin/$f)" ] ||
			fail "$f differs between the two checkouts"
	done
	python3 - exec.json <<-'PY' > hits || fail "cache hits"
	import json, sys
	text, dec, i, spawns = open(sys.argv[1]).read(), json.JSONDecoder(), 0, []
	while True:
	    while i < len(text) and text[i].isspace():
	        i += 1
	    if i >= len(text):
	        break
	    obj, i = dec.raw_decode(text, i)
	    spawns.append(obj)
	ours = [s for s in spawns if s.get("mnemonic", "").startswith("Probegen")]
	assert len(ours) == 5, [s.get("mnemonic") for s in spawns]
	missed = [s["mnemonic"] for s in ours if not s.get("remoteCacheHit")]
	assert not missed, missed
	print("%d of %d probegen actions from the disk cache" % (len(ours), len(ours)))
	PY
	cat hits
	# Bazel's output bases are large and read-only.
	chmod -R u+w root-a root-b cache 2> /dev/null
	rm -rf root-a root-b cache a b
	ok
}

# cache_stats ccache|sccache -> "HITS MISSES" since the last zeroing.
cache_stats() {
	if [ $1 = ccache ]; then
		ccache --print-stats | awk '
			/^(direct|preprocessed)_cache_hit\t/ { h += $2 } /^cache_miss\t/ { m += $2 }
			END { print h + 0, m + 0 }'
	else
		sccache --show-stats --stats-format json | python3 -c '
import json, sys
s = json.load(sys.stdin)["stats"]
print(sum(s["cache_hits"]["counts"].values()), sum(s["cache_misses"]["counts"].values()))'
	fi
}

# The Make and CMake examples, built twice from clean directories at
# different paths under ccache and sccache: the second build takes every
# unit that includes a generated header from the cache.  (ccache's
# base_dir makes CMake's absolute paths relative, as users set it.)
t_build_systems_compiler_caches() {
	need ccache
	need sccache
	need cmake
	install_prefix
	export CCACHE_DIR=$PWD/ccache CCACHE_BASEDIR=$PWD SCCACHE_DIR=$PWD/sccache
	local tool d
	for tool in ccache sccache; do
		for d in one two; do
			cp -r "$ROOT/examples/make" make-$tool-$d
			[ $d = two ] && $tool -z > /dev/null
			make -C make-$tool-$d CC="$tool gcc" PROBEGEN="$PROBEGEN" > build.log 2>&1 ||
				{ cat build.log; fail "make under $tool ($d)"; }
		done
		expect_eq "$(cache_stats $tool)" "1 0" "$tool: Make example's second build (hits, misses)"
		for d in one two; do
			cp -r "$ROOT/examples/cmake" cmake-$tool-$d
			[ $d = two ] && $tool -z > /dev/null
			cmake -S cmake-$tool-$d -B cmake-$tool-$d/build -DCMAKE_PREFIX_PATH="$PWD/prefix" \
				-DCMAKE_C_COMPILER_LAUNCHER=$tool > build.log 2>&1 &&
				cmake --build cmake-$tool-$d/build >> build.log 2>&1 ||
				{ cat build.log; fail "cmake under $tool ($d)"; }
		done
		expect_eq "$(cache_stats $tool)" "2 0" "$tool: CMake example's second build (hits, misses)"
		echo "$tool: second builds from the cache, Make 1 of 1 unit, CMake 2 of 2"
	done
	sccache --stop-server > /dev/null 2>&1
	ok
}

# What probegen writes carries no path, time or host name: each output
# made from an absolute path in two directories, a second apart, on two
# host names, is the same bytes, and names neither directory nor host.
t_build_systems_reproducible_outputs() {
	need unshare
	printf 'provider r {\n\tprobe p(int x, const char *s);\n};\n' > r.d
	local d flags
	for d in one two; do
		mkdir -p $d && cp r.d $d/
		[ $d = two ] && sleep 1.1
		unshare --uts sh -c "hostname probegen-host-$d && cd $d &&
			'$PROBEGEN' -h -s \$PWD/r.d -o r.h &&
			'$PROBEGEN' -h --header-only -s \$PWD/r.d -o r-ho.h &&
			'$PROBEGEN' -h --self-contained -s \$PWD/r.d -o r-sc.h &&
			'$PROBEGEN' -G -s \$PWD/r.d -o r.o &&
			'$PROBEGEN' --rust -s \$PWD/r.d -o r.rs" || fail "probegen in $d"
	done
	for f in r.h r-ho.h r-sc.h r.o r.rs; do
		cmp -s one/$f two/$f || fail "$f differs between the two directories"
		! grep -aqF -e "$PWD" -e probegen-host one/$f || fail "$f names its directory or host"
	done
	ok
}
