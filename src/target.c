/*
 * target.c - the targets -G can write for: ELF class, byte order,
 * machine and header flags by name.  Never from the host's #ifdefs: the
 * host is found by name (uname), objects by reading their ELF header.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "probegen.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

/* Every fact of a target, one row each.  Flags are the ones Debian's
 * toolchains write: ARM EABI5 hard-float, RISC-V RVC with the
 * double-float ABI, ELFv2 for ppc64le, ELFv1 ppc64.  x86-64 and i386
 * share libbpf's x86 parser. */
#define X86_FORMS \
	"^-?[1248]@(\\$-?[0-9]+|%[a-z0-9]+|-?[0-9]*\\(%[a-z0-9]+\\)|-?[0-9]*\\(%[a-z0-9]+,%[a-z0-9]+,[1248]\\))$"
/* GNU_PROPERTY_X86_FEATURE_1_AND: IBT, SHSTK (aarch64's below:
 * GNU_PROPERTY_AARCH64_FEATURE_1_AND, BTI and PAC). */
#define X86_PROPERTY .property_type = 0xc0000002u, .property_features = 0x3
/* x86-64's struct pt_regs, word by word, with the names sys/sdt.h's
 * operands give each register (%rax, %eax, %ax, %al).  An i386
 * process's registers are its low halves, under an x86-64 kernel. */
static const char *const x86_pt_regs[] = {
	"r15 r15d r15w r15b", "r14 r14d r14w r14b", "r13 r13d r13w r13b",
	"r12 r12d r12w r12b", "rbp ebp bp bpl",	    "rbx ebx bx bl",
	"r11 r11d r11w r11b", "r10 r10d r10w r10b", "r9 r9d r9w r9b",
	"r8 r8d r8w r8b",     "rax eax ax al",	    "rcx ecx cx cl",
	"rdx edx dx dl",      "rsi esi si sil",	    "rdi edi di dil",
	"" /* orig_rax */,    "" /* rip */,	    "" /* cs */,
	"" /* eflags */,      "rsp esp sp spl",	    "" /* ss */,
};
/* DWARF's numbers: x86-64's rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip;
 * i386's eax ecx edx ebx esp ebp esi edi eip. */
static const signed char x86_64_dwarf[] = { 10, 12, 11, 5, 13, 14, 4, 19, 9,
					    8,	7,  6,	3, 2,  1,  0, 16 };
static const signed char i386_dwarf[] = { 10, 11, 12, 5, 19, 4, 13, 14, 16 };
static const struct target_regs x86_64_regs = {
	x86_pt_regs, ARRAY_SIZE(x86_pt_regs), x86_64_dwarf,
	ARRAY_SIZE(x86_64_dwarf), 19, 16
};
static const struct target_regs i386_regs = {
	x86_pt_regs, ARRAY_SIZE(x86_pt_regs), i386_dwarf,
	ARRAY_SIZE(i386_dwarf), 19, 16
};
/* Each row's .kernel_arch (the kernel's name of the architecture, its
 * arch/ directory and the BPF target's __TARGET_ARCH_) stays on the
 * line of its .name: the Makefile reads it there for the host's row,
 * as uname -m names it, to build the BPF side. */
static const struct target targets[] = {
	{ .name = "x86_64", .kernel_arch = "x86",
	  .elfclass = ELFCLASS64, .data = ELFDATA2LSB,
	  .machine = EM_X86_64, .char_signed = 1, .page = 4096,
	  .cpp = "__x86_64__", .partner = "i386", X86_PROPERTY,
	  .libbpf_form = X86_FORMS, .rust_asm = "att_syntax, ",
	  .regs = &x86_64_regs },
	{ .name = "i386", .kernel_arch = "x86",
	  .elfclass = ELFCLASS32, .data = ELFDATA2LSB,
	  .machine = EM_386, .char_signed = 1, .page = 4096,
	  .cpp = "__i386__", .partner = "x86_64", X86_PROPERTY,
	  .libbpf_form = X86_FORMS, .regs = &i386_regs },
	{ .name = "aarch64", .kernel_arch = "arm64",
	  .elfclass = ELFCLASS64, .data = ELFDATA2LSB,
	  .machine = EM_AARCH64, .page = 65536, .cpp = "__aarch64__",
	  .partner = "arm", .property_type = 0xc0000000u,
	  .property_features = 0x3, /* BTI, PAC */
	  .libbpf_form =
		  "^-?[1248]@(\\[[a-z0-9]+, *-?[0-9]+\\]|\\[[a-z0-9]+\\]|-?[0-9]+|[a-z][a-z0-9]*)$",
	  .rust_asm = "" },
	{ .name = "arm", .kernel_arch = "arm",
	  .elfclass = ELFCLASS32, .data = ELFDATA2LSB,
	  .machine = EM_ARM, .flags = 0x05000400, .page = 65536,
	  .cpp = "__arm__", .partner = "aarch64",
	  .libbpf_form =
		  "^-?[1248]@(\\[[a-z0-9]+, *#-?[0-9]+\\]|\\[[a-z0-9]+\\]|#-?[0-9]+|[a-z][a-z0-9]*)$" },
	{ .name = "riscv64", .kernel_arch = "riscv",
	  .elfclass = ELFCLASS64, .data = ELFDATA2LSB,
	  .machine = EM_RISCV, .flags = 0x5, .page = 4096, .cpp = "__riscv",
	  .libbpf_form =
		  "^-?[1248]@(-?[0-9]+\\([a-z0-9]+\\)|-?[0-9]+|[a-z][a-z0-9]*)$" },
	{ .name = "ppc64le", .kernel_arch = "powerpc",
	  .elfclass = ELFCLASS64, .data = ELFDATA2LSB,
	  .machine = EM_PPC64, .flags = 0x2, .page = 65536,
	  .cpp = "__powerpc64__" },
	{ .name = "ppc64", .kernel_arch = "powerpc",
	  .elfclass = ELFCLASS64, .data = ELFDATA2MSB,
	  .machine = EM_PPC64, .flags = 0x1, .page = 65536,
	  .cpp = "__powerpc64__", .partner = "ppc" },
	{ .name = "ppc", .kernel_arch = "powerpc",
	  .elfclass = ELFCLASS32, .data = ELFDATA2MSB,
	  .machine = EM_PPC, .page = 65536, .cpp = "__powerpc__",
	  .partner = "ppc64" },
	{ .name = "s390x", .kernel_arch = "s390",
	  .elfclass = ELFCLASS64, .data = ELFDATA2MSB,
	  .machine = EM_S390, .page = 4096, .cpp = "__s390x__",
	  .partner = "s390",
	  .libbpf_form = "^-?[1248]@(-?[0-9]+\\(%r[0-9]+\\)|%r[0-9]+|-?[0-9]+)$" },
	{ .name = "s390", .kernel_arch = "s390",
	  .elfclass = ELFCLASS32, .data = ELFDATA2MSB,
	  .machine = EM_S390, .page = 4096, .cpp = "__s390__",
	  .partner = "s390x" },
	{ .name = "x32", .kernel_arch = "x86",
	  .elfclass = ELFCLASS32, .data = ELFDATA2LSB,
	  .machine = EM_X86_64, .char_signed = 1, .page = 4096,
	  .cpp = "__x86_64__", X86_PROPERTY },
};

/* Other spellings: GNU triplet prefixes and uname -m names. */
static const struct {
	const char *alias, *name;
} aliases[] = {
	{ "amd64", "x86_64" },	  { "x86-64", "x86_64" },
	{ "i486", "i386" },	  { "i586", "i386" },
	{ "i686", "i386" },	  { "x86", "i386" },
	{ "arm64", "aarch64" },	  { "armhf", "arm" },
	{ "armel", "arm" },	  { "armv7l", "arm" },
	{ "armv7", "arm" },	  { "powerpc64le", "ppc64le" },
	{ "powerpc64", "ppc64" }, { "powerpc", "ppc" },
	{ "ppc64el", "ppc64le" },
};

const struct target *target_by_name(const char *name)
{
	char arch[64];
	size_t i, n = strcspn(name, "-");

	/* aarch64-linux-gnu, x86_64-pc-linux-gnu: the first field is it,
	 * except for x86-64 spelt with a dash. */
	if (strncmp(name, "x86-64", 6) == 0)
		n = 6;
	if (n == 0 || n >= sizeof(arch))
		return NULL;
	memcpy(arch, name, n);
	arch[n] = '\0';
	for (i = 0; i < ARRAY_SIZE(aliases); i++)
		if (strcmp(arch, aliases[i].alias) == 0)
			return target_by_name(aliases[i].name);
	for (i = 0; i < ARRAY_SIZE(targets); i++)
		if (strcmp(arch, targets[i].name) == 0)
			return &targets[i];
	return NULL;
}

int target_register(const struct target *tg, const char *name, size_t len)
{
	int w;

	for (w = 0; tg->regs && len && w < tg->regs->nwords; w++) {
		const char *n = tg->regs->words[w];

		while (*n) {
			size_t k = strcspn(n, " ");

			if (k == len && memcmp(n, name, len) == 0)
				return w;
			n += k + (n[k] == ' ');
		}
	}
	return -1;
}

const struct target *target_host(void)
{
	struct utsname u;
	const struct target *tg;

	if (uname(&u) == 0 && (tg = target_by_name(u.machine)))
		return tg;
	return &targets[0];
}

const struct target *target_with_class(const struct target *tg, int bits)
{
	if ((bits == 64) == (tg->elfclass == ELFCLASS64))
		return tg;
	return tg->partner ? target_by_name(tg->partner) : NULL;
}

const struct target *target_of_elf_header(int elfclass, int data, int machine)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(targets); i++)
		if (targets[i].machine == machine &&
		    targets[i].elfclass == elfclass && targets[i].data == data)
			return &targets[i];
	return NULL;
}

int target_from_elf(const char *path, struct target *out)
{
	const struct target *known;
	unsigned char ident[EI_NIDENT];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	GElf_Ehdr eh;
	int ok = -1;

	if (fd < 0)
		return -1;
	if (read(fd, ident, sizeof(ident)) != (ssize_t)sizeof(ident) ||
	    memcmp(ident, ELFMAG, SELFMAG) != 0) {
		close(fd);
		return -1;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && gelf_getehdr(elf, &eh)) {
		memset(out, 0, sizeof(*out));
		out->name = "?";
		out->page = PAGE_LARGEST; /* an unknown machine */
		out->elfclass = eh.e_ident[EI_CLASS];
		out->data = eh.e_ident[EI_DATA];
		out->machine = eh.e_machine;
		out->flags = eh.e_flags;
		known = target_of_elf_header(out->elfclass, out->data,
					     out->machine);
		/* The whole row, not some of its fields: a field left out
		   (the property note's type once was) silently changes the
		   object -G writes beside these objects. */
		if (known) {
			*out = *known;
			out->flags = eh.e_flags;
		}
		ok = 0;
	}
	elf_end(elf);
	close(fd);
	return ok;
}

/* The page size of the target a header is compiled for, chosen by its
 * compiler's macros: "#if defined(__x86_64__) || ...\n#define MACRO
 * 4096\n#else\n#define MACRO 65536\n#endif\n", from the table, the
 * largest where the target is none of its rows. */
void target_page_choice(struct buf *b, const char *macro)
{
	struct buf test = { 0 }, one = { 0 };
	size_t i, k;
	const char *word = "#if ";

	for (i = 0; i < ARRAY_SIZE(targets); i++) {
		unsigned page = targets[i].page;

		for (k = 0; k < i; k++) /* each page size once */
			if (targets[k].page == page)
				break;
		if (k < i || page == PAGE_LARGEST)
			continue;
		test.len = 0;
		for (k = i; k < ARRAY_SIZE(targets); k++) {
			one.len = 0;
			buf_cat(&one, "defined(", targets[k].cpp, ")", NULL);
			if (targets[k].page != page ||
			    (test.len && strstr(test.data, one.data)))
				continue; /* x32's macro is x86_64's */
			buf_cat(&test, test.len ? " || " : "", one.data, NULL);
		}
		buf_printf(b, "%s%s\n#define %s %u\n", word, test.data, macro,
			   page);
		word = "#elif ";
	}
	if (*word == '#' && word[1] == 'i') /* every row's is the largest */
		buf_printf(b, "#define %s %u\n", macro, PAGE_LARGEST);
	else
		buf_printf(b, "#else\n#define %s %u\n#endif\n", macro,
			   PAGE_LARGEST);
	buf_free(&test);
	buf_free(&one);
}

void target_list(FILE *f)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(targets); i++)
		fprintf(f, "%s\n", targets[i].name);
}

/* The target the compiler SystemTap's -G would run builds for: a cross
 * compiler's triplet (aarch64-linux-gnu-gcc, also after ccache),
 * clang's --target, and -m32, -mx32 or -m64 among its words or the
 * flags, the last one winning, as the compiler reads them.  NULL when
 * they name none. */
static const struct target *target_of_compiler(const char *cc,
					       const char *cflags)
{
	const struct target *tg = NULL, *named;
	const char *sources[2] = { cc, cflags };
	int bits = 0, x32 = 0, k;

	for (k = 0; k < 2; k++) {
		char *words = xstrdup(sources[k] ? sources[k] : ""),
		     *save = NULL, *w;
		int take_target = 0;

		for (w = strtok_r(words, " \t", &save); w;
		     w = strtok_r(NULL, " \t", &save)) {
			const char *base = strrchr(w, '/') ? strrchr(w, '/') + 1
							   : w;
			const char *dash = strrchr(base, '-');

			if (take_target || strncmp(w, "--target=", 9) == 0) {
				named = target_by_name(take_target ? w : w + 9);
				tg = named ? named : tg;
				take_target = 0;
			} else if (strcmp(w, "-target") == 0) {
				take_target = 1;
			} else if (strcmp(w, "-m32") == 0 ||
				   strcmp(w, "-m64") == 0) {
				bits = w[2] == '3' ? 32 : 64;
				x32 = 0;
			} else if (strcmp(w, "-mx32") == 0) {
				x32 = 1;
				bits = 0;
			} else if (k == 0 && *w != '-' && dash &&
				   dash != base &&
				   (named = target_by_name(base))) {
				tg = named; /* aarch64-linux-gnu-gcc, after ccache */
			}
		}
		free(words);
	}
	if (!tg && !bits && !x32)
		return NULL;
	if (!tg)
		tg = target_host();
	if (x32)
		return tg->machine == EM_X86_64 || tg->machine == EM_386
			       ? target_by_name("x32")
			       : tg;
	if (bits) {
		named = target_with_class(tg->machine == EM_X86_64 &&
							  tg->elfclass ==
								  ELFCLASS32
						  ? target_by_name("x86_64")
						  : tg,
					  bits);
		return named ? named : tg;
	}
	return tg;
}

enum target_error target_choose(const char *name, int bits,
				const char *const *objects, int nobjects,
				const char *cc, const char *cflags,
				struct target *scratch,
				const struct target **chosen,
				const char **source, const char *culprits[2])
{
	const struct target *tg = NULL;
	const char *first = NULL;
	int i;

	*source = "--target";
	if (name) {
		tg = target_by_name(name);
		if (!tg)
			return TARGET_UNKNOWN;
	} else {
		for (i = 0; i < nobjects; i++) {
			struct target t;

			if (target_from_elf(objects[i], &t) != 0)
				continue; /* archives, scripts: not ours */
			if (!first) {
				*scratch = t;
				first = objects[i];
			} else if (t.elfclass != scratch->elfclass ||
				   t.data != scratch->data ||
				   t.machine != scratch->machine) {
				culprits[0] = first;
				culprits[1] = objects[i];
				return TARGET_MIXED;
			}
		}
		if (!first)
			tg = target_of_compiler(cc, cflags);
		*source = first ? "the objects" : tg ? "$CC $CFLAGS" : "the host";
		tg = first ? scratch : tg ? tg : target_host();
	}
	*chosen = tg;
	if (bits) {
		*chosen = target_with_class(tg, bits);
		if (!*chosen) {
			*chosen = tg;
			return TARGET_NO_VARIANT;
		}
	}
	return TARGET_OK;
}
