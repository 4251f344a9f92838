# t_compat.sh - what the forms real builds pass to `dtrace` mean, against
# SystemTap's own dtrace on this machine: the STAP_SDT_V1/V2 switches
# (QEMU passes -DSTAP_SDT_V2), the other -D flags of -G, a provider in
# several blocks and files, and the typed name of any probe.
# serial_tests: t_compat_module_semaphore
# (gdb finds a dlopen'ed module through the loader's own probes in
# ld.so, where a tracer another test runs holds uprobes: under -j2 gdb
# once missed the module's probe)

need_systemtap() {
	have dtrace && head -n 1 "$(command -v dtrace)" | grep -q python ||
		skip "SystemTap's dtrace (systemtap-sdt-dev) is not installed"
}

# A provider whose V1 names collide across providers (one semaphore).
compat_provider() {
	cat > v.d <<-'D'
	provider vapp {
		probe request__start(int id, const char *path);
		probe tick();
	};
	provider other { probe tick(); };
	D
	cat > v.c <<-'C'
	#include "v.h"
	int main(int argc, char **argv)
	{
		if (VAPP_REQUEST_START_ENABLED())
			argc++;
		VAPP_REQUEST_START(argc, argv[0]);
		VAPP_TICK();
		OTHER_TICK();
		return 0;
	}
	C
}

# "NAME VISIBILITY" of every semaphore symbol in ELF file $1, sorted.
semaphore_symbols() {
	readelf -sW "$1" | awk '$8 ~ /_semaphore$/ { print $8, $6 }' | sort -u
}

# "provider:name SYMBOL" of every note of binary $1: the semaphore each
# site names, by symbol, sorted.
note_semaphores() {
	local addr sym
	readelf -nW "$1" | awk '/Provider:/ { p = $NF } /Name:/ { n = $2 }
		/Semaphore:/ { print p ":" n, $NF }' | sort -u |
	while read -r probe addr; do
		sym=$(readelf -sW "$1" | awk -v a="$(printf '%016x' $((addr)))" '$2 == a && $8 ~ /_semaphore$/ { print $8; exit }')
		echo "$probe ${sym:-none}"
	done
}

# -G under each version: the same symbols, visibility included, as
# SystemTap's; then a program built with each header mode and -G object
# names the same semaphores in its notes as one built with SystemTap's
# header and object.
t_compat_sdt_versions() {
	need_systemtap
	compat_provider
	local v mode
	for v in none STAP_SDT_V1 STAP_SDT_V2; do
		flag=; [ $v = none ] || flag=-D$v
		dtrace -G $flag -s v.d -o stap.o > /dev/null || fail "SystemTap -G $v"
		expect "$PROBEGEN" -G $flag -s v.d -o pg.o
		semaphore_symbols stap.o > want
		semaphore_symbols pg.o > got
		diff -u want got || fail "-G $v: semaphore symbols differ from SystemTap's"
		case $v in
		none) grep -q 'vapp_tick_semaphore HIDDEN' got ;;
		STAP_SDT_V1) grep -q '^tick_semaphore DEFAULT' got && ! grep -q vapp_ got ;;
		STAP_SDT_V2) grep -q 'vapp_tick_semaphore DEFAULT' got ;;
		esac || fail "-G $v: $(tr '\n' ' ' < got)"
		dtrace -h -s v.d -o v.h > /dev/null || fail "SystemTap -h"
		gcc $flag -O2 v.c stap.o -o stap-app || fail "SystemTap build, $v"
		note_semaphores stap-app > want
		grep -q ' none$' want && fail "SystemTap's build has a note without a semaphore"
		for mode in default --self-contained --header-only; do
			m=$mode; [ $m = default ] && m=
			expect "$PROBEGEN" -h $m -s v.d -o v.h
			obj=pg.o; [ "$mode" = --header-only ] && obj=
			gcc $flag -O2 v.c $obj -o pg-app || fail "build $v $mode"
			note_semaphores pg-app > got
			diff -u want got || fail "$v $mode: notes name other semaphores than SystemTap's"
			semaphore_symbols pg-app > got
			semaphore_symbols stap-app > want-syms
			diff -u want-syms got || fail "$v $mode: semaphore symbols in the program"
			./pg-app || fail "$v $mode: the program failed"
		done
	done
	ok
}

# QEMU's modules: mod.so fires a probe of provider qemu and does not
# link the -G object; the executable does, and exports its symbols.
# Under -DSTAP_SDT_V2 the module finds the semaphore there and loads,
# and gdb stops at its probe with the argument it passed; without it the
# semaphore is hidden and dlopen fails, as with SystemTap's dtrace.
t_compat_module_semaphore() {
	need gdb
	cat > q.d <<-'D'
	provider qemu { probe mod_event(int x); };
	D
	cat > mod.c <<-'C'
	#include "q.h"
	int mod_fire(int x)
	{
		if (QEMU_MOD_EVENT_ENABLED())
			x += 1000;
		QEMU_MOD_EVENT(x);
		return x;
	}
	C
	cat > app.c <<-'C'
	#include <dlfcn.h>
	#include <stdio.h>
	#include "q.h"
	int main(void)
	{
		void *h = dlopen("./mod.so", RTLD_NOW);
		int (*fire)(int);

		if (!h) {
			printf("dlopen: %s\n", dlerror());
			return 1;
		}
		fire = (int (*)(int))dlsym(h, "mod_fire");
		printf("fired %d enabled %d\n", fire(7), QEMU_MOD_EVENT_ENABLED() != 0);
		return 0;
	}
	C
	expect "$PROBEGEN" -h -s q.d -o q.h
	for v in "" -DSTAP_SDT_V2; do
		expect "$PROBEGEN" -G $v -s q.d -o q.o
		gcc $v -O2 -fPIC -shared mod.c -o mod.so || fail "mod.so $v"
		gcc $v -O2 -rdynamic app.c q.o -o app -ldl || fail "app $v"
		./app > out-"$v" 2>&1
	done
	grep -q 'undefined symbol: qemu_mod_event_semaphore' out- ||
		fail "without V2, expected dlopen to fail: $(cat out-)"
	expect_eq "$(cat out--DSTAP_SDT_V2)" "fired 7 enabled 0" "module under V2"
	gdb -batch -ex 'set breakpoint pending on' -ex 'break -probe-stap qemu:mod_event' \
		-ex run -ex 'print $_probe_arg0' ./app > gdb.out 2>&1
	grep -q 'in mod_fire () from ./mod.so' gdb.out && grep -q '^\$1 = 7$' gdb.out ||
		{ cat gdb.out; fail "gdb did not stop at the module's probe with 7"; }
	ok
}

# -D flags of -G without -C: V1 and V2 act, sys/sdt.h's site switches and
# a program's own macros pass silently, a name that would change how
# SystemTap's compiler reads its file is named in a warning.  -U undoes.
t_compat_define_flags() {
	printf 'provider d { probe p(int x); };\n' > d.d
	local flags
	for flags in "-DFOO=1 -DHAVE_CONFIG_H" "-D_SDT_HAS_SEMAPHORES -DSDT_USE_VARIADIC" \
		"-DSTAP_SDT_V2" "-DSTAP_SDT_V1 -USTAP_SDT_V1" "-C -D__LP64__=1"; do
		"$PROBEGEN" -G $flags -s d.d -o d.o 2> err || fail "-G $flags"
		[ -s err ] && { cat err; fail "-G $flags: warned"; }
	done
	expect_eq "$(semaphore_symbols d.o)" "d_p_semaphore HIDDEN" "-C -D__LP64__"
	"$PROBEGEN" -G -DSTAP_SDT_V1 -USTAP_SDT_V1 -s d.d -o d.o
	expect_eq "$(semaphore_symbols d.o)" "d_p_semaphore HIDDEN" "-DSTAP_SDT_V1 -USTAP_SDT_V1"
	"$PROBEGEN" -G -D__x86_64__ -Dunsigned=int -s d.d -o d.o 2> err || fail "-G with warnings"
	expect_eq "$(cat err)" "probegen: warning: '-D__x86_64__' ignored: probegen writes the -G object itself, where SystemTap's compiler would see it
probegen: warning: '-Dunsigned=int' ignored: probegen writes the -G object itself, where SystemTap's compiler would see it" "warnings"
	"$PROBEGEN" -h -D__x86_64__ -s d.d -o d.h 2> err || fail "-h"
	[ -s err ] && fail "-h warned about -D: $(cat err)"
	ok
}

# One provider in several blocks: the same probes, notes and semaphores
# as SystemTap's dtrace, in -h and -G.
t_compat_multi_block() {
	need_systemtap
	cp "$ROOT/tests/good/multi_block.d" m.d
	cat > m.c <<-'C'
	#include "m.h"
	int main(int argc, char **argv)
	{
		SHOP_ORDER_PLACED(argc, argv[0]);
		SHOP_ORDER_SHIPPED(argc);
		AUDIT_LOGIN(argv[0]);
		return SHOP_ORDER_SHIPPED_ENABLED();
	}
	C
	dtrace -h -s m.d -o m.h > /dev/null && dtrace -G -s m.d -o m.o > /dev/null || fail "SystemTap"
	gcc -O2 m.c m.o -o stap-app 2> stap.err || fail "SystemTap build"
	expect "$PROBEGEN" -h -s m.d -o m.h
	expect "$PROBEGEN" -G -s m.d -o m.o
	gcc -Wall -Werror -O2 m.c m.o -o pg-app || fail "probegen build"
	probe_list stap-app > want
	probe_list pg-app > got
	diff -u want got || fail "notes differ from SystemTap's"
	expect_eq "$(wc -l < got)" 3 "probes"
	semaphore_symbols stap-app > want
	semaphore_symbols pg-app > got
	diff -u want got || fail "semaphores differ from SystemTap's"
	expect_eq "$(grep -c '^extern unsigned short' m.h)" 3 "semaphores declared, once each"
	ok
}

# A provider split across files (QEMU: 88 files for one binary): --check,
# --docs and --bpftrace take every -s file; -h and -G take one.
t_compat_multi_file() {
	printf 'provider qemu {\n\tprobe a__start(int id);\n};\n' > a.dtrace
	printf 'provider qemu {\n\tprobe b__done(int id, const char *what);\n};\n' > b.dtrace
	cat a.dtrace b.dtrace > all.d
	expect "$PROBEGEN" -h -s all.d -o all.h
	expect "$PROBEGEN" -G -s all.d -o all.o
	printf '#include "all.h"\nint main(int c, char **v) { QEMU_A_START(c); QEMU_B_DONE(c, v[0]); return 0; }\n' > m.c
	gcc -O2 m.c all.o -o app || fail "build"
	"$PROBEGEN" --check -s a.dtrace app > one.out 2>&1 && fail "--check with one of two files passed"
	grep -q "qemu:b__done" one.out || { cat one.out; fail "--check: b__done not named"; }
	"$PROBEGEN" --check -s a.dtrace -s b.dtrace app > both.out 2>&1 ||
		{ cat both.out; fail "--check with both files"; }
	expect "$PROBEGEN" --docs -s a.dtrace -s b.dtrace -o docs.md
	grep -q '^### qemu:a__start' docs.md && grep -q '^### qemu:b__done' docs.md || fail "--docs"
	grep -q 'a.dtrace and 1 more' docs.md || fail "--docs names the files"
	expect "$PROBEGEN" --bpftrace -s a.dtrace -s b.dtrace -o s.bt
	expect_eq "$(grep -c '^usdt:' s.bt)" 2 "--bpftrace probes"
	"$PROBEGEN" -G -s a.dtrace -s b.dtrace -o x.o 2> err && fail "-G took two files"
	[ ! -e x.o ] || fail "-G wrote x.o"
	ok
}

# The typed call's name, as the man page states it: "trace_", the
# provider, "_", the probe, all lower case, each "__" made "_"; digits
# and single "_" kept.  Mixed-case names (QEMU's
# file_FindEjectableOpticalMedia) are lower-cased too.
t_compat_typed_names() {
	cat > t.d <<-'D'
	provider qemu {
		probe file_FindEjectableOpticalMedia(const char *media);
		probe vhost__user2__read(int fd);
		probe a___b(int x);
	};
	D
	expect "$PROBEGEN" -h -s t.d -o t.h
	cat > t.c <<-'C'
	#include "t.h"
	int main(int argc, char **argv)
	{
		trace_qemu_file_findejectableopticalmedia(argv[0]);
		QEMU_FILE_FINDEJECTABLEOPTICALMEDIA(argv[0]);
		trace_qemu_vhost_user2_read(argc);
		QEMU_VHOST_USER2_READ(argc);
		trace_qemu_a__b(argc);
		QEMU_A__B(argc);
		return 0;
	}
	C
	gcc -Wall -Werror -O2 t.c -o t.o -c || fail "the stated names do not compile"
	grep -q 'trace_qemu_file_findejectableopticalmedia' "$ROOT"/man/*.[15] ||
		fail "the man page does not state the typed name of a mixed-case probe"
	ok
}

# -G with no objects builds for the target the build's $CC and $CFLAGS
# ask for, as SystemTap's (which runs them) does; --target and -32/-64
# win, and so do objects given after the file.
t_compat_cc_cflags_target() {
	printf 'provider c {\n\tprobe p(int x);\n};\n' > c.d
	local env want
	while IFS='|' read -r env want; do
		eval "$env \"\$PROBEGEN\" -G -s c.d -o c.o" || fail "$env: -G"
		got=$(readelf -h c.o | awk -F: '/Class:/ { c = $2 } /Machine:/ { m = $2 } END { gsub(/^ +/, "", c); gsub(/^ +/, "", m); print c "/" m }')
		expect_eq "$got" "$want" "$env"
	done <<-'E'
	CFLAGS=-m32|ELF32/Intel 80386
	CFLAGS=-mx32|ELF32/Advanced Micro Devices X86-64
	CFLAGS=-m64|ELF64/Advanced Micro Devices X86-64
	CFLAGS='-O2 -m32 -g -m64'|ELF64/Advanced Micro Devices X86-64
	CC=aarch64-linux-gnu-gcc|ELF64/AArch64
	CC=/usr/bin/arm-linux-gnueabihf-gcc CFLAGS=-O2|ELF32/ARM
	CC=clang CFLAGS=--target=riscv64-linux-gnu|ELF64/RISC-V
	CC=gcc CFLAGS=-O2|ELF64/Advanced Micro Devices X86-64
	E
	CC="ccache aarch64-linux-gnu-gcc" "$PROBEGEN" -G -s c.d -o c.o || fail "ccache"
	readelf -h c.o | grep -q AArch64 || fail "CC='ccache aarch64-linux-gnu-gcc'"
	CFLAGS=-m32 "$PROBEGEN" -G -64 -s c.d -o c.o || fail "-64"
	readelf -h c.o | grep -q ELF64 || fail "-64 must win over CFLAGS=-m32"
	CC=aarch64-linux-gnu-gcc "$PROBEGEN" -G --target=s390x -s c.d -o c.o || fail "--target"
	readelf -h c.o | grep -q 'IBM S/390' || fail "--target must win over CC"
	expect gcc -c -x c /dev/null -o host.o
	CFLAGS=-m32 "$PROBEGEN" -G -s c.d -o c.o host.o || fail "objects"
	readelf -h c.o | grep -q ELF64 || fail "the objects given must win over CFLAGS"
	# A 32-bit build links its object.
	if have i686-linux-gnu-gcc; then
		expect "$PROBEGEN" -h --self-contained -s c.d -o c.h
		printf '#include "c.h"\nint main(void) { C_P(1); return 0; }\n' > m.c
		CFLAGS=-m32 "$PROBEGEN" -G -s c.d -o c32.o || fail "-G"
		i686-linux-gnu-gcc -I. m.c c32.o -o m32 2> err || { cat err; fail "linking a 32-bit program"; }
	else
		skip_part "i686-linux-gnu-gcc is not installed"
	fi
	ok
}

# Every option SystemTap 4.8's dtrace takes is taken: honoured, or
# accepted and ignored (man page, COMPATIBILITY).
t_compat_systemtap_options() {
	printf 'provider o {\n\tprobe p(int x);\n};\n' > o.d
	local args
	for args in "--no-pyparsing" "--types" "-k" "-fpic" "-fPIC" "-x nolibs" "-32" "-64" "-C" "-I." "-DX=1" "-C -I . -D X"; do
		"$PROBEGEN" -h $args -s o.d -o o.h 2> err || { cat err; fail "-h $args"; }
		[ -s err ] && { cat err; fail "-h $args: said something"; }
		grep -q 'O_P(' o.h || fail "-h $args: no header"
	done
	"$PROBEGEN" -G --no-pyparsing -k -fPIC -s o.d -o o.o || fail "-G with ignored options"
	ok
}

# -C takes what cpp gives: a provider file that includes glibc's headers
# (SystemTap's own test files do) compiles, their declarations skipped
# without a word and their typedefs kept for the probes (register_t's
# mode attribute makes it a long); the program fires the probes with the
# sizes the types have.
t_compat_cpp_glibc_headers() {
	cat > g.d <<-'D'
	#include <sys/types.h>
	#include <stdint.h>
	#include <unistd.h>
	#include <stdio.h>
	#include <pthread.h>
	provider libc {
		probe ids(pid_t p, uid_t u, uint64_t big, register_t r, size_t n, off_t o);
		probe io(FILE *f, pthread_t t, int8_t small);
	};
	D
	"$PROBEGEN" -C -h -s g.d -o g.h 2> err || { cat err; fail "-C -h"; }
	[ -s err ] && { cat err; fail "-C -h said something"; }
	"$PROBEGEN" -C -G -s g.d -o g.o 2> err || { cat err; fail "-C -G"; }
	[ -s err ] && { cat err; fail "-C -G said something"; }
	cat > m.c <<-'C'
	#include <stdio.h>
	#include <pthread.h>
	#include <unistd.h>
	#include "g.h"
	int main(void)
	{
		trace_libc_ids(getpid(), getuid(), 1ULL << 40, -5, sizeof(int), 7);
		trace_libc_io(stdout, pthread_self(), -3);
		return 0;
	}
	C
	expect gcc -Wall -Werror -O2 m.c g.o -o m
	readelf -nW m | grep -A4 'Name: ids' | grep -q 'Arguments: -4@[^ ]* 4@[^ ]* 8@[^ ]* -8@[^ ]* 8@[^ ]* -8@[^ ]*$' ||
		{ readelf -nW m; fail "ids: the sizes of pid_t, uid_t, uint64_t, register_t, size_t, off_t"; }
	readelf -nW m | grep -A4 'Name: io' | grep -q 'Arguments: 8@[^ ]* 8@[^ ]* -1@[^ ]*$' ||
		{ readelf -nW m; fail "io: the sizes of FILE *, pthread_t, int8_t"; }
	"$PROBEGEN" -C --check -s g.d m > out || { cat out; fail "--check"; }
	# The user's own D clauses are still named.
	printf '#include <stdint.h>\nBEGIN { x = 1; }\nprovider q { probe a(uint32_t v); };\n' > clause.d
	"$PROBEGEN" -C -h -s clause.d -o clause.h 2> err || { cat err; fail "-C with a clause"; }
	expect_eq "$(grep -c 'warning' err)" 1 "warnings"
	expect_grep "ignoring D program clause 'BEGIN'" err
	ok
}
