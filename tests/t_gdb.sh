# t_gdb.sh - programs built from the header and the -G object, checked
# with gdb: every probe listed, argument counts and values right, the
# semaphore set while a breakpoint exists; and notes libbpf can parse.
. "$ROOT/tests/libbpf_args.sh"

build_values() { # CC OPT [--self-contained]
	"$PROBEGEN" -h ${3:-} -s "$ROOT/tests/src/values.d" -o values.h || fail "-h"
	"$PROBEGEN" -G -s "$ROOT/tests/src/values.d" -o values.o || fail "-G"
	if [ -n "${3:-}" ]; then
		without_sdt $1 $2 -g -I. "$ROOT/tests/src/values.c" values.o -o values ||
			fail "$1 $2 $3 without sys/sdt.h"
	else
		$1 $2 -g -I. "$ROOT/tests/src/values.c" values.o -o values || fail "$1 $2"
	fi
}

INTS='65 250 -300 60000 -70000 4000000000 -5000000000 18000000000000000000 -9000000000000000000 18446744073709551615'
TWELVE='1 -2 3 -4 5 -6 7 -8 9 -10 11 -12'

# The gdb commands that print every firing of values.c's probes; $1 is
# how to start the program ("run", or "target remote :PORT").
values_gdb_script() {
	echo "$1"
	cat <<-'G'
	break -probe-stap vals:ints
	break -probe-stap vals:ptrs
	break -probe-stap vals:twelve
	break -probe-stap vals:none
	continue_or_run
	while $_probe_argc >= 0
	  if $_probe_argc == 10
	    printf "ints %d %u %d %u %d %u %ld %lu %lld %llu\n", $_probe_arg0, $_probe_arg1, $_probe_arg2, $_probe_arg3, $_probe_arg4, $_probe_arg5, $_probe_arg6, $_probe_arg7, $_probe_arg8, $_probe_arg9
	  end
	  if $_probe_argc == 3
	    printf "ptrs %s|%s|%s\n", (char *)$_probe_arg0, (char *)$_probe_arg1, (char *)$_probe_arg2
	  end
	  if $_probe_argc == 12
	    printf "twelve %d %d %d %d %d %d %d %d %d %d %d %d\n", $_probe_arg0, $_probe_arg1, $_probe_arg2, $_probe_arg3, $_probe_arg4, $_probe_arg5, $_probe_arg6, $_probe_arg7, $_probe_arg8, $_probe_arg9, $_probe_arg10, $_probe_arg11
	  end
	  if $_probe_argc == 0
	    printf "none\n"
	  end
	  continue
	end
	G
}

values_want() {
	for i in 1 2 3; do echo "ints $INTS"; done
	for i in 1 2; do echo "ptrs hello probe|probe|hello probe"; done
	for i in 1 2; do echo "twelve $TWELVE"; done
	echo none
	echo enabled=1
}

gdb_values() {
	values_gdb_script "define continue_or_run
	run
	end" > values.gdb
	gdb -q -batch -nx -x values.gdb ./values > gdb.out 2>&1
	grep -E '^(ints|ptrs|twelve|none|enabled=)' gdb.out
}

t_gdb_info_probes() {
	need gdb
	build_values gcc -O2
	gdb -q -batch -nx -ex 'info probes stap' ./values > info 2>&1
	for p in ints ptrs twelve none; do
		grep -qE "^stap +vals +$p " info || { cat info; fail "gdb does not list vals:$p"; }
	done
	expect_eq "$(probe_list values | sort -u | tr '\n' ' ')" \
		"vals:ints 10 vals:none 0 vals:ptrs 3 vals:twelve 12 " "notes"
	ok
}

t_gdb_values() {
	need gdb
	local cc opt mode n=0
	# --self-contained is built where sys/sdt.h is an empty file.
	for mode in "" --self-contained; do
		for cc in gcc clang; do
			have $cc || { skip_part "$cc is not installed"; continue; }
			for opt in -O0 -O2; do
				build_values $cc $opt $mode
				expect_eq "$(./values)" "enabled=0" "$cc $opt $mode untraced"
				gdb_values > got
				values_want > want
				diff -u want got || { cat gdb.out | tail -20; fail "$cc $opt $mode values"; }
				libbpf_check values x86_64 || fail "$cc $opt $mode: notes libbpf rejects"
				n=$((n + 1))
			done
		done
	done
	expect_eq $n 8 "builds checked"
	ok
}

# A cross-built aarch64 program under qemu-aarch64 -g, read by
# gdb-multiarch: the probes stop and their arguments read correctly.
t_gdb_aarch64_qemu() {
	need aarch64-linux-gnu-gcc
	need qemu-aarch64
	need gdb-multiarch
	sdt_for_cross || skip "sys/sdt.h not found"
	local mode
	for mode in "" --self-contained; do
	"$PROBEGEN" -h $mode -s "$ROOT/tests/src/values.d" -o values.h || fail "-h"
	"$PROBEGEN" -G --target=aarch64 -s "$ROOT/tests/src/values.d" -o values.o || fail "-G"
	# The self-contained header needs no sys/sdt.h: none is given.
	aarch64-linux-gnu-gcc -O2 -static $([ -z "$mode" ] && echo -Icross-include) -I. \
		"$ROOT/tests/src/values.c" values.o -o values || fail "cross build $mode"
	libbpf_check values aarch64 || fail "notes libbpf rejects"
	port=$((20000 + RANDOM % 20000))
	qemu-aarch64 -g $port ./values > prog.out 2>&1 &
	qpid=$!
	values_gdb_script "set architecture aarch64
	target remote :$port
	define continue_or_run
	continue
	end" > values.gdb
	timeout 120 gdb-multiarch -q -batch -nx -x values.gdb ./values > gdb.out 2>&1
	wait $qpid
	{ grep -E '^(ints|ptrs|twelve|none)' gdb.out; cat prog.out; } > got
	values_want > want
	diff -u want got || { tail -20 gdb.out; fail "aarch64 values $mode"; }
	done
	ok
}
