/*
 * tests/unit/test_target.c - target selection (target.c): by name, from
 * ELF objects (which must agree), of the other class; and the property
 * note -G writes for each (x86's IBT and SHSTK, aarch64's BTI and PAC),
 * read back from the object with libelf.
 */
#include <gelf.h>
#include <fcntl.h>
#include <stddef.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <asm/ptrace.h> /* the kernel's struct pt_regs, to check the rows */
#endif

#include "compile.h"
#include "compiler/emit.h"
#include "unit.h"

static char dir[] = "/tmp/probegen-unit.XXXXXX";

/* The objects made, removed at the end. */
static void remove_dir(void)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
}

/* The -G object of a one-probe file for target tg, at DIR/name. */
static const char *object_for(const struct target *tg, const char *name)
{
	static char path[4][256];
	static int k, made; /* made: dir, once (its name may hold an X) */
	struct program *prog = compile("provider p {\n\tprobe a(int x);\n};\n");
	struct emit_options opt = { "t.d", NULL, NULL, 0, 0, 0, NULL, 0, 0 };
	struct output out;
	char *p = path[k++ % 4];

	if (!made) {
		CHECK(mkdtemp(dir), "mkdtemp %s", dir);
		atexit(remove_dir);
		made = 1;
	}
	snprintf(p, 256, "%s/%s", dir, name);
	opt.target = tg;
	opt.output_name = p;
	CHECK(output_open(&out, p) == 0, "open %s", p);
	CHECK(emit_object(&out, prog, &opt) == 0 && output_commit(&out) == 0,
	      "-G for %s", tg->name);
	program_free(prog);
	return p;
}

/* The property note's type and features in the object at path: 0 and
 * 0 when it has none. */
static void property_of(const char *path, unsigned *type, unsigned *features)
{
	int fd = open(path, O_RDONLY);
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	*type = *features = 0;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	CHECK(elf && elf_getshdrstrndx(elf, &shstrndx) == 0, "%s: not ELF", path);
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;
		const char *n;

		if (!gelf_getshdr(scn, &sh) ||
		    !(n = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strcmp(n, ".note.gnu.property") != 0)
			continue;
		d = elf_getdata(scn, NULL);
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0)
			if (nh.n_type == NT_GNU_PROPERTY_TYPE_0 && nh.n_descsz >= 12) {
				const unsigned char *desc = (const unsigned char *)d->d_buf + desc_off;
				GElf_Word w[3];
				Elf_Data src = { .d_buf = (void *)desc, .d_type = ELF_T_WORD,
						 .d_size = 12, .d_version = EV_CURRENT };
				Elf_Data dst = { .d_buf = w, .d_size = 12, .d_version = EV_CURRENT };

				gelf_xlatetom(elf, &dst, &src, elf_getident(elf, NULL)[EI_DATA]);
				*type = w[0];
				*features = w[2];
			}
	}
	elf_end(elf);
	close(fd);
}

static void targets_by_name(void)
{
	static const char *const names[] = { "x86_64", "i386", "aarch64", "arm",
					     "riscv64", "ppc64le", "ppc64", "ppc",
					     "s390x", "s390", "x32" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct target *tg = target_by_name(names[i]);

		CHECK(tg && !strcmp(tg->name, names[i]), "no target %s", names[i]);
		CHECK(target_of_elf_header(tg->elfclass, tg->data, tg->machine) != NULL,
		      "%s: not found by its ELF header", names[i]);
	}
	CHECK(target_by_name("vax") == NULL, "a target that is not");
	CHECK_STR(target_with_class(target_by_name("x86_64"), 32)->name, "i386");
	CHECK_STR(target_with_class(target_by_name("i386"), 64)->name, "x86_64");
	CHECK_STR(target_with_class(target_by_name("s390x"), 32)->name, "s390");
}

/* Chosen from objects, a target is its whole row: the property note's
 * type and features were once left behind, and a hardened build's -G
 * object lost its note. */
static void targets_from_objects_are_whole_rows(void)
{
	static const char *const names[] = { "x86_64", "i386", "aarch64", "arm",
					     "riscv64", "s390x" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct target *tg = target_by_name(names[i]), *chosen;
		const char *objs[1], *source, *culprits[2];
		struct target scratch;

		objs[0] = object_for(tg, "a.o");
		CHECK_INT(target_choose(NULL, 0, objs, 1, NULL, NULL, &scratch,
					&chosen, &source, culprits),
			  TARGET_OK);
		CHECK_STR(source, "the objects");
		CHECK_STR(chosen->name, tg->name);
		CHECK(chosen->property_type == tg->property_type &&
			      chosen->property_features == tg->property_features &&
			      chosen->page == tg->page &&
			      chosen->char_signed == tg->char_signed,
		      "%s: the row chosen from an object differs from its own", tg->name);
	}
}

static void mixed_objects_are_refused(void)
{
	const char *objs[2], *source, *culprits[2] = { NULL, NULL };
	const struct target *chosen;
	struct target scratch;

	objs[0] = object_for(target_by_name("x86_64"), "x.o");
	objs[1] = object_for(target_by_name("aarch64"), "y.o");
	CHECK_INT(target_choose(NULL, 0, objs, 2, NULL, NULL, &scratch, &chosen,
				&source, culprits),
		  TARGET_MIXED);
	CHECK(culprits[0] == objs[0] && culprits[1] == objs[1], "the culprits");
	CHECK_INT(target_choose("vax", 0, NULL, 0, NULL, NULL, &scratch, &chosen,
				&source, culprits),
		  TARGET_UNKNOWN);
}

/* -G's object says what the target's property note says: IBT and SHSTK
 * on x86, BTI and PAC on aarch64, none elsewhere. */
static void property_notes_by_target(void)
{
	static const struct {
		const char *name;
		unsigned type, features;
	} cases[] = {
		{ "x86_64", 0xc0000002, 3 }, { "i386", 0xc0000002, 3 },
		{ "aarch64", 0xc0000000, 3 }, { "riscv64", 0, 0 }, { "s390x", 0, 0 },
	};
	unsigned type, features;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		property_of(object_for(target_by_name(cases[i].name), "n.o"), &type,
			    &features);
		CHECK(type == cases[i].type && features == cases[i].features,
		      "%s: property 0x%x features %u", cases[i].name, type, features);
	}
}

/* The tracer's register facts in the rows (target.c) against the
 * kernel's own struct pt_regs: a spec's %eax is read from rax's word,
 * the unwinder's DWARF 7 (x86-64's rsp) from rsp's. */
static void registers_are_the_kernels(void)
{
#if defined(__x86_64__)
	static const struct {
		const char *name;
		size_t offset;
	} regs[] = {
		{ "rax", offsetof(struct pt_regs, rax) },
		{ "eax", offsetof(struct pt_regs, rax) },
		{ "al", offsetof(struct pt_regs, rax) },
		{ "rdi", offsetof(struct pt_regs, rdi) },
		{ "sil", offsetof(struct pt_regs, rsi) },
		{ "rbp", offsetof(struct pt_regs, rbp) },
		{ "esp", offsetof(struct pt_regs, rsp) },
		{ "r8d", offsetof(struct pt_regs, r8) },
		{ "r15b", offsetof(struct pt_regs, r15) },
		{ "r12w", offsetof(struct pt_regs, r12) },
	};
	const struct target *x86 = target_by_name("x86_64"),
			    *i386 = target_by_name("i386");
	size_t i;

	for (i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		CHECK_INT(target_register(x86, regs[i].name,
					  strlen(regs[i].name)) * 8,
			  (int)regs[i].offset);
	CHECK_INT(target_register(x86, "ra", 2), -1);
	CHECK_INT(target_register(x86, "rip", 3), -1); /* no spec reads it */
	CHECK_INT(x86->regs->sp * 8, (int)offsetof(struct pt_regs, rsp));
	CHECK_INT(x86->regs->ip * 8, (int)offsetof(struct pt_regs, rip));
	CHECK_INT(x86->regs->dwarf[7] * 8, (int)offsetof(struct pt_regs, rsp));
	CHECK_INT(x86->regs->dwarf[16] * 8, (int)offsetof(struct pt_regs, rip));
	CHECK_INT(i386->regs->dwarf[4] * 8, (int)offsetof(struct pt_regs, rsp));
	CHECK_INT(i386->regs->dwarf[1] * 8, (int)offsetof(struct pt_regs, rcx));
	CHECK_INT(x86->regs->nwords * 8, (int)sizeof(struct pt_regs));
	CHECK(!target_by_name("aarch64")->regs, "aarch64 has no registers yet");
#else
	unit_skip("not an x86-64 host: its struct pt_regs is another");
#endif
}

/* Every row names its architecture as the kernel does (the BPF side's
 * __TARGET_ARCH_, which the Makefile reads from the row of the host);
 * a row whose registers --trace reads has the BPF side's facts for it,
 * bpf/arch_KERNEL_ARCH.h. */
static void kernel_arch_names_the_bpf_facts(void)
{
	static const char *const names[] = { "x86_64", "i386", "aarch64", "arm",
					     "riscv64", "ppc64le", "ppc64", "ppc",
					     "s390x", "s390", "x32" };
	char path[512];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct target *tg = target_by_name(names[i]);

		CHECK(tg && tg->kernel_arch && *tg->kernel_arch, "%s: no kernel_arch", names[i]);
		if (!tg || !tg->regs)
			continue;
		snprintf(path, sizeof(path), "%s/src/trace/kernel/bpf/arch_%s.h",
			 getenv("ROOT") ? getenv("ROOT") : ".", tg->kernel_arch);
		CHECK(access(path, R_OK) == 0, "%s reads registers, but %s is missing", names[i], path);
	}
	CHECK_STR(target_by_name("x86_64")->kernel_arch, "x86");
	CHECK_STR(target_by_name("aarch64")->kernel_arch, "arm64");
}

UNIT_CASES(UNIT(registers_are_the_kernels), UNIT(targets_by_name), UNIT(targets_from_objects_are_whole_rows),
	   UNIT(mixed_objects_are_refused), UNIT(property_notes_by_target),
	   UNIT(kernel_arch_names_the_bpf_facts))
