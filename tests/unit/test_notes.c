/*
 * tests/unit/test_notes.c - the notes reader (inspect/notes.c) on
 * relocatable objects, where every address in a note is a relocation:
 * each site is its section plus the addend, each semaphore its symbol.
 * tests/unit/data/values_site_*.o are tests/src/values.c compiled -O2 -c
 * against probegen -h --self-contained's header of tests/src/values.d,
 * by gcc and aarch64-linux-gnu-gcc 12 (Debian 12); the addresses below
 * are what readelf -rW shows of their .rela.note.stapsdt.
 */
#include <stdlib.h>

#include "compiler/naming.h"
#include "inspect/inspect.h"
#include "unit.h"

static void read_object(struct binary *b, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/tests/unit/data/%s",
		 getenv("ROOT") ? getenv("ROOT") : ".", name);
	CHECK(binary_read(path, b) == 0, "cannot read %s", path);
}

static const struct bin_probe *probe_named(const struct binary *b,
					   const char *name)
{
	const struct bin_probe *p;

	for (p = b->probes; p; p = p->next)
		if (strcmp(p->name, name) == 0)
			return p;
	unit_fail(__FILE__, __LINE__, "no probe %s", name);
}

static void check_object(const char *file, const char *arch, const char *first,
			 const char *args)
{
	struct binary b;
	const struct bin_probe *p;
	struct buf where = { 0 };

	read_object(&b, file);
	CHECK_STR(b.arch, arch);
	CHECK(b.is_object, "%s is an object", file);
	CHECK_INT(b.nprobes, 4);
	p = probe_named(&b, "ints");
	CHECK_STR(p->provider, "vals");
	CHECK_INT(p->nsites, 3);
	site_address(&where, p->sites);
	CHECK_STR(where.data, first);
	CHECK_STR(p->sites->args, args);
	where.len = 0;
	semaphore_address(&where, p);
	CHECK_STR(where.data, "vals_ints_semaphore");
	CHECK_INT(probe_named(&b, "twelve")->nsites, 2);
	CHECK(probe_named(&b, "none")->sites->args[0] == '\0', "none: args");
	buf_free(&where);
	binary_free(&b);
}

static void x86_64_object(void)
{
	check_object("values_site_x86_64.o", "x86_64", ".text.startup+0xb4",
		     "-1@%r9 1@%rdi -2@%r10 2@%r11 -4@%rbx 4@%rbp -8@%rax 8@%rdx -8@%rcx 8@%rsi");
}

static void aarch64_object(void)
{
	check_object("values_site_aarch64.o", "aarch64", ".text.startup+0xc0",
		     "1@x8 1@x2 -2@x9 2@x10 -4@x11 4@x12 -8@x3 8@x4 -8@x5 8@x6");
}

/* A file that is not ELF is said and read as nothing. */
static void not_elf(void)
{
	struct binary b;
	char path[512];

	snprintf(path, sizeof(path), "%s/tests/unit/unit.h",
		 getenv("ROOT") ? getenv("ROOT") : ".");
	diag.stream = fopen("/dev/null", "w");
	CHECK(binary_read(path, &b) != 0, "a header read as ELF");
	CHECK_INT(binary_try_read(path, &b), 1);
}

UNIT_CASES(UNIT(x86_64_object), UNIT(aarch64_object), UNIT(not_elf))
