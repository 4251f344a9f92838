# t_object.sh - the -G object: its layout, every target, determinism,
# and links with every linker in every mode.

three_probes() {
	printf 'provider o {\n\tprobe first(int a);\n\tprobe second(char *s, long n);\n\tprobe third();\n};\n' > o.d
}

t_object_layout() {
	three_probes
	expect "$PROBEGEN" -G -s o.d -o o.o
	readelf -hW o.o | grep -q 'REL (Relocatable file)' || fail "not ET_REL"
	read -r type flags align size addr < <(section_info o.o .probes)
	# o: SHF_GNU_RETAIN, shown as OS-specific by this readelf.
	expect_eq "$type $flags $align $size" "PROGBITS WAo 4096 000006" ".probes"
	readelf -SW o.o | grep -q '\.note\.GNU-stack *PROGBITS' || fail "no .note.GNU-stack"
	readelf -sW o.o | awk '$8 ~ /_semaphore$/ { print $2, $3, $4, $5, $6, $8 }' > syms
	cat > want <<-'W'
	0000000000000000 2 OBJECT GLOBAL HIDDEN o_first_semaphore
	0000000000000002 2 OBJECT GLOBAL HIDDEN o_second_semaphore
	0000000000000004 2 OBJECT GLOBAL HIDDEN o_third_semaphore
	W
	diff -u want syms || fail "semaphore symbols"
	if have eu-elflint; then
		elflint_clean o.o || fail "eu-elflint"
	else
		skip_part "eu-elflint is not installed (elfutils)"
	fi
	ok
}

# An empty provider, no provider at all, or CPython's `BEGIN{}` probe
# still give a valid object.
t_object_empty_inputs() {
	printf 'provider e {\n};\n' > a.d
	printf '/* nothing */\n' > b.d
	printf 'BEGIN{}\n' > c.d
	for f in a b c; do
		"$PROBEGEN" -G -s $f.d -o $f.o 2>/dev/null || fail "-G $f.d"
		have eu-elflint && { elflint_clean $f.o || fail "eu-elflint $f.o"; }
		printf 'int main(void) { return 0; }\n' > m.c
		gcc m.c $f.o -o m || fail "linking $f.o"
	done
	ok
}

# Same input, same bytes: whatever the directory, path spelling or time.
t_object_deterministic() {
	three_probes
	mkdir -p d1/deep d2
	cp o.d d1/deep/o.d
	expect "$PROBEGEN" -G -s o.d -o a.o
	(cd d2 && "$PROBEGEN" -G -s ../d1/deep/o.d -o ../b.o) || fail "-G from d2"
	expect "$PROBEGEN" -G -s "$PWD/d1/deep/./o.d" -o c.o
	cmp a.o b.o && cmp a.o c.o || fail "objects differ"
	expect "$PROBEGEN" -h -s o.d -o x.h
	(cd d2 && "$PROBEGEN" -h -s ../d1/deep/o.d -o ../y/x.h 2>/dev/null) ||
		{ mkdir y && (cd d2 && "$PROBEGEN" -h -s ../d1/deep/o.d -o ../y/x.h) || fail "-h from d2"; }
	cmp x.h y/x.h || fail "headers differ"
	grep -q "$PWD" x.h && fail "header holds an absolute path"
	grep -qi 'generated.*20[0-9][0-9]' x.h && fail "header holds a date"
	ok
}

# -G runs no other program and leaves nothing in the current directory.
t_object_no_exec_no_litter() {
	need strace
	three_probes
	mkdir out run
	# LeakSanitizer cannot work under ptrace; the rest of ASan can.
	(cd run && ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=execve,vfork,fork,clone,clone3 -o ../trace \
		"$PROBEGEN" -G -s ../o.d -o ../out/o.o) || fail "-G failed"
	expect_eq "$(grep -c execve trace)" 1 "programs executed"
	grep -qE 'clone|fork' trace && fail "probegen started a process"
	expect_eq "$(ls -A run)" "" "files left in the current directory"
	expect_eq "$(ls -A out)" "o.o" "files in the output directory"
	ok
}

# Every target in the table: class, byte order, machine; eu-elflint.
t_object_targets() {
	three_probes
	local t want n=0
	while read -r t want; do
		"$PROBEGEN" -G --target=$t -s o.d -o $t.o || fail "--target=$t"
		got=$(readelf -hW $t.o | awk -F: '
			/Class:/ { c = $2 } /Data:/ { d = $2 } /Machine:/ { m = $2 }
			END { gsub(/^ +/, "", c); gsub(/^ +/, "", m); sub(/,.*/, "", d); gsub(/^ +/, "", d); print c "|" d "|" m }')
		expect_eq "$got" "$want" "$t header"
		have eu-elflint && { elflint_clean $t.o || fail "eu-elflint $t"; }
		n=$((n + 1))
	done <<-'T'
	x86_64 ELF64|2's complement|Advanced Micro Devices X86-64
	i386 ELF32|2's complement|Intel 80386
	aarch64 ELF64|2's complement|AArch64
	arm ELF32|2's complement|ARM
	riscv64 ELF64|2's complement|RISC-V
	ppc64le ELF64|2's complement|PowerPC64
	ppc64 ELF64|2's complement|PowerPC64
	s390x ELF64|2's complement|IBM S/390
	T
	readelf -hW ppc64.o | grep -q 'big endian' || fail "ppc64 is not big-endian"
	readelf -hW s390x.o | grep -q 'big endian' || fail "s390x is not big-endian"
	readelf -hW ppc64le.o | grep -q 'little endian' || fail "ppc64le is not little-endian"
	expect "$PROBEGEN" -G --target=aarch64-linux-gnu -s o.d -o triplet.o
	cmp triplet.o aarch64.o || fail "triplet and name differ"
	! "$PROBEGEN" -G --target=vax -s o.d -o v.o 2> err || fail "unknown target accepted"
	expect_grep "unknown target 'vax'" err
	expect_eq $n 8 "targets checked"
	ok
}

# Without --target the objects after the .d decide; they must agree.
t_object_target_from_objects() {
	three_probes
	expect "$PROBEGEN" -G --target=aarch64 -s o.d -o a64.o
	expect "$PROBEGEN" -G --target=arm -s o.d -o a32.o
	expect "$PROBEGEN" -G -s o.d -o out.o a64.o not-an-object.txt
	readelf -hW out.o | grep -q AArch64 || fail "target not taken from a64.o"
	! "$PROBEGEN" -G -s o.d -o mixed.o a64.o a32.o 2> err || fail "mixed targets accepted"
	expect_grep "'a64.o' (aarch64, 64-bit) and 'a32.o' (arm, 32-bit) are for different targets" err
	[ ! -e mixed.o ] || fail "wrote an object after the error"
	expect "$PROBEGEN" -G -32 --target=x86_64 -s o.d -o i.o
	readelf -hW i.o | grep -q 'Intel 80386' || fail "-32 did not pick i386"
	expect "$PROBEGEN" -G -64 --target=i386 -s o.d -o x.o
	readelf -hW x.o | grep -q 'X86-64' || fail "-64 did not pick x86_64"
	ok
}

# Link a program with the Debian cross toolchain of each target.
t_object_cross_link() {
	three_probes
	expect "$PROBEGEN" -h -s o.d -o o.h
	printf '#include "o.h"\nint main(int c, char **v) { trace_o_first(c); O_SECOND(v[0], c); if (O_THIRD_ENABLED()) O_THIRD(); return 0; }\n' > m.c
	sdt_for_cross || skip "sys/sdt.h not found"
	local t cc n=0
	for t in aarch64:aarch64-linux-gnu arm:arm-linux-gnueabihf \
		 riscv64:riscv64-linux-gnu ppc64le:powerpc64le-linux-gnu \
		 ppc64:powerpc64-linux-gnu s390x:s390x-linux-gnu i386:i686-linux-gnu; do
		cc=${t#*:}-gcc t=${t%%:*}
		have $cc || { skip_part "$cc is not installed"; continue; }
		"$PROBEGEN" -G --target=$t -s o.d -o $t.o || fail "-G $t"
		$cc -O2 -Icross-include m.c $t.o -o m.$t || fail "$cc link"
		expect_eq "$(probe_list m.$t | sort | tr '\n' ' ')" "o:first 1 o:second 2 o:third 0 " "$t probes"
		semaphores_in_probes m.$t || fail "$t: semaphores"

		n=$((n + 1))
	done
	[ $n -gt 0 ] || skip "no cross compiler installed (gcc-aarch64-linux-gnu ...)"
	echo "linked for $n targets"
	ok
}

# ld.bfd, gold and lld; PIE, non-PIE, shared, static, ld -r,
# --gc-sections, LTO.  Two objects using one probe share its semaphore.
t_object_linkers() {
	three_probes
	expect "$PROBEGEN" -h -s o.d -o o.h
	expect "$PROBEGEN" -G -s o.d -o probes.o
	printf '#include "o.h"\nvoid f(int);\nvoid f(int n) { O_FIRST(n); trace_o_third(); }\n' > f.c
	printf '#include "o.h"\nvoid f(int);\nint main(int c, char **v) { f(c); O_FIRST(c + 1); if (O_SECOND_ENABLED()) O_SECOND(v[0], 1); return 0; }\n' > m.c
	printf '#include "o.h"\nint lib(int);\nint lib(int n) { O_FIRST(n); return n; }\n' > lib.c
	local ld mode n=0
	for ld in bfd gold lld; do
		gcc -fuse-ld=$ld -x c /dev/null -o /dev/null -nostdlib -Wl,-e,0 2>/dev/null ||
			{ echo "no ld.$ld"; continue; }
		for mode in pie no-pie shared static relocatable gc-sections lto; do
			flags= out=prog.$ld.$mode
			case $mode in
			pie) flags="-fPIE -pie" ;;
			no-pie) flags="-fno-PIE -no-pie" ;;
			static) flags="-static" ;;
			gc-sections) flags="-ffunction-sections -fdata-sections -Wl,--gc-sections" ;;
			lto) flags="-flto" ;;
			esac
			cc=gcc
			# GCC's LTO needs its linker plugin, which lld lacks.
			[ $mode = lto ] && [ $ld = lld ] && cc=clang
			case $mode in
			shared)
				gcc -fuse-ld=$ld -fPIC -shared lib.c probes.o -o lib$ld.so || fail "$ld shared"
				out=lib$ld.so ;;
			relocatable)
				gcc -c f.c m.c || fail "compile"
				ld.$ld -r f.o m.o probes.o -o partial.o 2>/dev/null ||
					ld -r f.o m.o probes.o -o partial.o || fail "$ld -r"
				gcc -fuse-ld=$ld partial.o -o $out || fail "$ld link of ld -r output" ;;
			*)
				$cc -fuse-ld=$ld -O2 $flags f.c m.c probes.o -o $out 2> err ||
					{ cat err; fail "$ld $mode"; } ;;
			esac
			[ $mode = shared ] || ./$out || fail "$ld $mode: program failed"
			# Without .stapsdt.base gdb ignores every probe.
			readelf -SW $out | grep -q '\.stapsdt\.base' ||
				fail "$ld $mode: .stapsdt.base dropped"
			# Each note's semaphore lies in .probes: except with gold
			# and --gc-sections, which ignores SHF_GNU_RETAIN and drops
			# semaphores that only notes use (see the README).
			if ! { [ $ld = gold ] && [ $mode = gc-sections ]; }; then
				semaphores_in_probes $out || fail "$ld $mode: semaphores"
			fi
			sems=$(readelf -nW $out | sed -n 's/.*Semaphore: //p' | sort -u | wc -l)
			nfirst=$(readelf -nW $out | grep -c 'Name: first')
			[ $mode = shared ] && { expect_eq "$sems" 1 "$ld $mode semaphores"; continue; }
			expect_eq "$sems" 3 "$ld $mode: distinct semaphores (3 probes)"
			expect_eq "$nfirst" 2 "$ld $mode: sites of o:first"
			n=$((n + 1))
		done
	done
	[ $n -ge 6 ] || fail "only $n links checked"
	echo "checked $n links"
	ok
}

# Hardened builds keep their hardening: the -G object has no code, so it
# says it is compatible with x86's IBT and SHSTK (x86-64 and i386) and
# aarch64's BTI and PAC; linked with a unit built with -fcf-protection
# (or -mbranch-protection=standard) the result keeps the features, by
# ld -r and by a full link; with a unit that has none, none appear.
t_object_property_notes() {
	printf 'int f(int x) { return x + 1; }\n' > a.c
	expect "$PROBEGEN" -G -s "$ROOT/tests/src/values.d" -o p.o
	expect gcc -c -fcf-protection a.c -o a.o
	expect ld -r a.o p.o -o r.o
	readelf -n r.o | grep -q 'x86 feature: IBT, SHSTK' || { readelf -n r.o; fail "ld -r lost IBT and SHSTK"; }
	expect ld -e f a.o p.o -o exe
	readelf -n exe | grep -q 'x86 feature: IBT, SHSTK' || { readelf -n exe; fail "a full link lost IBT and SHSTK"; }
	expect gcc -c a.c -fcf-protection=none -o plain.o
	expect ld -r plain.o p.o -o r2.o
	readelf -n r2.o | grep -q 'x86 feature' && fail "features claimed for a unit without them"
	if have i686-linux-gnu-gcc; then
		expect "$PROBEGEN" -G --target=i386 -s "$ROOT/tests/src/values.d" -o p32.o
		expect i686-linux-gnu-gcc -c -fcf-protection a.c -o a32.o
		expect i686-linux-gnu-ld -r a32.o p32.o -o r32.o
		readelf -n r32.o | grep -q 'x86 feature: IBT, SHSTK' || fail "i386: ld -r lost IBT and SHSTK"
	else
		skip_part "i686-linux-gnu-gcc is not installed"
	fi
	if have aarch64-linux-gnu-gcc; then
		expect "$PROBEGEN" -G --target=aarch64 -s "$ROOT/tests/src/values.d" -o p64.o
		expect aarch64-linux-gnu-gcc -c -mbranch-protection=standard a.c -o a64.o
		expect aarch64-linux-gnu-ld -r a64.o p64.o -o r64.o
		readelf -n r64.o | grep -q 'AArch64 feature: BTI, PAC' || { readelf -n r64.o; fail "aarch64: ld -r lost BTI and PAC"; }
	else
		skip_part "aarch64-linux-gnu-gcc is not installed"
	fi
	# The header-only header's semaphores are the unit's own: the
	# compiler marks that unit, as any other.
	printf 'provider h {\n\tprobe p(int x);\n};\n' > h.d
	expect "$PROBEGEN" -h --header-only -s h.d -o h.h
	printf '#include "h.h"\nint g(int x) { H_P(x); return x; }\n' > ho.c
	expect gcc -c -fcf-protection ho.c -o ho.o
	expect ld -r ho.o a.o -o r3.o
	readelf -n r3.o | grep -q 'x86 feature: IBT, SHSTK' || fail "--header-only lost IBT and SHSTK"
	ok
}

# OBJECT operands after the .d are ignored as SystemTap ignores them
# (exit 0), but a missing one is said, and when none can be read as ELF
# the target chosen, and by what, is said: a typo must not silently
# give a cross build the host's object.
t_object_missing_operands() {
	three_probes
	"$PROBEGEN" -G -s o.d -o p.o nosuch.o 2> err || fail "a missing OBJECT failed -G"
	expect_eq "$(cat err)" "probegen: warning: OBJECT 'nosuch.o' does not exist
probegen: warning: no OBJECT could be read as ELF: writing for $(uname -m), chosen by the host (--target=ARCH to choose)" "missing OBJECT"
	echo "# libtool object" > a.lo
	CC=aarch64-linux-gnu-gcc "$PROBEGEN" -G -s o.d -o p.o a.lo 2> err || fail "-G with a .lo"
	expect_eq "$(cat err)" "probegen: warning: no OBJECT could be read as ELF: writing for aarch64, chosen by \$CC \$CFLAGS (--target=ARCH to choose)" "no ELF OBJECT"
	readelf -h p.o | grep -q AArch64 || fail "not written for \$CC's target"
	# An ELF object chooses, and a missing one beside it is still said.
	gcc -c -x c /dev/null -o real.o
	"$PROBEGEN" -G -s o.d -o p.o real.o gone.o 2> err || fail "-G with objects"
	expect_eq "$(cat err)" "probegen: warning: OBJECT 'gone.o' does not exist" "one missing of two"
	# No OBJECT at all: nothing said (Tcl's exec fails on any stderr).
	"$PROBEGEN" -G -s o.d -o p.o 2> err || fail "-G alone"
	expect_eq "$(cat err)" "" "-G alone"
	ok
}

# -G given OBJECT operands writes what --target of their machine writes,
# byte for byte, on every target (the property note among the bytes):
# every real build passes its objects, and a field of the target's row
# left behind once dropped x86's IBT/SHSTK and aarch64's BTI/PAC note.
# The operand is the -G object of that target itself, so no cross
# compiler is needed; the x86-64 result is kept as a golden.
t_object_targets_from_objects() {
	local t n=0
	expect "$PROBEGEN" -G -s "$ROOT/tests/src/values.d" -o host.o
	for t in $("$PROBEGEN" --list-targets); do
		expect "$PROBEGEN" -G --target=$t -s "$ROOT/tests/src/values.d" -o named-$t.o
		"$PROBEGEN" -G -s "$ROOT/tests/src/values.d" -o from-$t.o named-$t.o 2> err ||
			fail "$t: -G with an object failed: $(cat err)"
		cmp -s named-$t.o from-$t.o || {
			readelf -nW named-$t.o from-$t.o | grep -i feature
			fail "$t: -G with its object differs from --target=$t"
		}
		n=$((n + 1))
	done
	readelf -nW from-x86_64.o | grep -q 'x86 feature: IBT, SHSTK' || fail "x86_64: no IBT/SHSTK note with objects"
	readelf -nW from-i386.o | grep -q 'x86 feature: IBT, SHSTK' || fail "i386: no IBT/SHSTK note with objects"
	readelf -nW from-aarch64.o | grep -q 'AArch64 feature: BTI, PAC' || fail "aarch64: no BTI/PAC note with objects"
	# A real unit built -fcf-protection, as builds pass them.
	printf 'int f(int x) { return x + 1; }\n' > a.c
	expect gcc -c -fcf-protection a.c -o a.o
	expect "$PROBEGEN" -G -s "$ROOT/tests/src/values.d" -o p.o a.o
	expect ld -r a.o p.o -o r.o
	readelf -n r.o | grep -q 'x86 feature: IBT, SHSTK' || fail "ld -r with -G given a.o lost IBT and SHSTK"
	cmp -s p.o "$ROOT/tests/golden/values-with-objects.o" ||
		fail "-G with objects differs from tests/golden/values-with-objects.o"
	note "$n targets"
	ok
}
