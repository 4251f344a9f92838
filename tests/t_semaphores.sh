# tests/t_semaphores.sh - semaphores flip under every linker, and
# --check names those that cannot (issue: lld and mold put the RELRO
# segment's end in the semaphores' file page).

# gated_build MODE CC LD KIND FLAGS...: ./prog (and ./libgated.so for
# KIND lib) from tests/src/gated.c, its semaphore defined by MODE: ho
# (probegen -h --header-only), g (probegen's -G object), stap
# (SystemTap's -G object).  Prints the binary that holds the semaphore.
gated_build() {
	local mode=$1 cc=$2 ld=$3 kind=$4 objs=
	shift 4
	rm -f gated.h probes.o prog libgated.so
	case $mode in
	ho) "$PROBEGEN" -h --header-only -s "$ROOT/tests/src/gated.d" -o gated.h ;;
	g) "$PROBEGEN" -h -s "$ROOT/tests/src/gated.d" -o gated.h &&
	   "$PROBEGEN" -G -s "$ROOT/tests/src/gated.d" -o probes.o && objs=probes.o ;;
	stap) dtrace -h -s "$ROOT/tests/src/gated.d" -o gated.h >/dev/null &&
	      dtrace -G -s "$ROOT/tests/src/gated.d" -o probes.o >/dev/null && objs=probes.o ;;
	esac || return 1
	if [ $kind = exe ]; then
		$cc -fuse-ld=$ld -O2 "$@" -I. "$ROOT/tests/src/gated.c" $objs -o prog || return 1
		echo prog
	else
		$cc -fuse-ld=$ld -O2 -fPIC -shared "$@" -I. -DLIB_ONLY "$ROOT/tests/src/gated.c" $objs -o libgated.so &&
			gcc -O2 -I. -DMAIN_ONLY "$ROOT/tests/src/gated.c" -L. -lgated -Wl,-rpath,"$PWD" -o prog || return 1
		echo libgated.so
	fi
}

# Every cell of bfd, gold, lld and mold; gcc and clang; PIE and not,
# --gc-sections, -flto (gcc's LTO plugin does not run under lld: clang
# there); programs and libraries: traced with --trace -c, its
# _ENABLED() count read from the program, and --check run on it.  A
# semaphore from probegen (--header-only or -G) flips in every cell;
# --check exits 1 exactly where the count stays 0 (SystemTap's object
# under lld and mold).
t_semaphores_every_linker() {
	need_trace
	have dtrace || skip "systemtap-sdt-dev is not installed"
	local ld mode kind variant cc flags bin got st cells=0 stuck=0
	for ld in bfd gold lld mold; do
		gcc -fuse-ld=$ld -x c /dev/null -o /dev/null -nostdlib -Wl,-e,0 2>/dev/null ||
			{ skip_part "no ld.$ld"; continue; }
		for kind in exe lib; do
			for mode in ho g stap; do
				for variant in gcc-pie clang-no-pie gc-sections lto; do
					# SystemTap's object is compiled by $CC alone.
					[ $mode = stap ] && [ $variant != gcc-pie ] && continue
					cc=gcc flags=
					case $variant in
					clang-no-pie) cc=clang flags="-fno-PIE -no-pie" ;;
					gc-sections) flags="-ffunction-sections -fdata-sections -Wl,--gc-sections" ;;
					lto) flags=-flto; [ $ld = lld ] && cc=clang ;;
					esac
					[ $kind = lib ] && [ "$flags" = "-fno-PIE -no-pie" ] && flags=
					bin=$(gated_build $mode $cc $ld $kind $flags 2> err) ||
						{ cat err; case_fail "$mode $kind $ld $variant" "build"; continue; }
					got=$("$PROBEGEN" --trace -n 'gated:*' -o /dev/null -c ./prog 2> err | sed -n 's/^enabled //p')
					"$PROBEGEN" --check "$ROOT/tests/src/gated.d" $bin > check.out 2>&1
					st=$?
					cells=$((cells + 1))
					if [ "$got" = 0 ]; then
						stuck=$((stuck + 1))
						[ $mode = stap ] || { case_fail "$mode $kind $ld $variant" "probegen's semaphore never flipped"; continue; }
					elif [ "$got" != 20 ]; then
						cat err; case_fail "$mode $kind $ld $variant" "enabled '$got' times of 20"; continue
					fi
					if [ "$got" = 0 ] && [ $st != 1 ]; then
						case_fail "$mode $kind $ld $variant" "never flipped, yet --check exited $st"
					elif [ "$got" = 20 ] && [ $st != 0 ]; then
						cat check.out; case_fail "$mode $kind $ld $variant" "flipped, yet --check exited $st"
					elif [ "$got" = 0 ] && ! grep -q 'semaphore cannot flip .*RELRO segment' check.out; then
						cat check.out; case_fail "$mode $kind $ld $variant" "--check does not say why"
					else
						case_ok "$mode $kind $ld $variant: enabled $got, --check $st"
					fi
				done
			done
		done
	done
	# SystemTap's object does not flip under lld and mold: the test
	# would prove nothing if no cell could fail.
	[ $stuck -ge 4 ] || case_fail "cells stuck" "expected SystemTap's object stuck under lld and mold, $stuck cells were"
	note "$cells cells, $stuck stuck (SystemTap's object under lld and mold)"
	cases_end
}

# The header-only semaphores under bpftrace -c, and under --trace -p
# on a running program, with lld and mold.
t_semaphores_bpftrace_and_pid() {
	need_trace
	need_bpftrace
	local ld got
	for ld in lld mold; do
		gcc -fuse-ld=$ld -x c /dev/null -o /dev/null -nostdlib -Wl,-e,0 2>/dev/null ||
			{ skip_part "no ld.$ld"; continue; }
		gated_build ho gcc $ld exe > /dev/null || fail "build with $ld"
		got=$(bpftrace -e 'usdt:./prog:gated:fire { @n = count(); }' -c ./prog 2>&1 | sed -n 's/^enabled //p')
		expect_eq "$got" 20 "bpftrace -c, $ld: enabled"
		./prog long > out &
		local pid=$!
		sleep 0.3
		timeout 1 "$PROBEGEN" --trace -n 'gated:*' -o /dev/null -p $pid 2> err
		wait $pid
		got=$(sed -n 's/^enabled //p' out)
		[ "$got" -gt 0 ] && [ "$got" -lt 1000 ] || { cat err; fail "--trace -p, $ld: enabled '$got' times"; }
		note "$ld: bpftrace -c 20 of 20, --trace -p $got of 1000 while attached"
	done
	ok
}
