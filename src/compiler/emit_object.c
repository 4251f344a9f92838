/*
 * compiler/emit_object.c - write the -G object with libelf, running no compiler.
 *
 * The object holds what the header's semaphore declarations need: one
 * 2-byte zero semaphore per probe, in .d order, each a GLOBAL HIDDEN
 * (under STAP_SDT_V1/V2: DEFAULT) OBJECT in a writable PROGBITS .probes
 * section (file-backed: the kernel's reference counters refuse .bss),
 * aligned to the target's largest page so that it starts a file page of
 * its own: lld lets the RELRO segment's last page share a file page with
 * the next segment, and a kernel setting a semaphore for a tracer that
 * attached before the program ran then sets the copy in RELRO, which
 * the program never reads.  Plus an empty
 * .note.GNU-stack, and the probes' declaration notes in .note.probegen
 * (not allocated: they cost nothing at run time, and strip and eu-strip
 * keep them).  libelf computes the layout; nothing depends on time,
 * paths or the host, so the same input gives the same bytes.
 */
#include <errno.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit.h"

#ifndef SHF_GNU_RETAIN
#define SHF_GNU_RETAIN (1u << 21)
#endif

/* Section indexes, in the order they are created; .note.gnu.property
 * last, on the targets that have one. */
enum {
	SEC_PROBES = 1,
	SEC_GNU_STACK,
	SEC_DECLS,
	SEC_SYMTAB,
	SEC_STRTAB,
	SEC_SHSTRTAB,
	SEC_PROPERTY
};

static const char shstrtab[] =
	"\0.probes\0.note.GNU-stack\0" DECL_NOTE_SECTION
	"\0.symtab\0.strtab\0.shstrtab\0.note.gnu.property";

static size_t shstr_offset(const char *name)
{
	const char *p = shstrtab + 1;

	while (strcmp(p, name) != 0)
		p += strlen(p) + 1;
	return (size_t)(p - shstrtab);
}

static Elf_Scn *add_section(Elf *elf, const char *name, GElf_Word type,
			    GElf_Xword flags, GElf_Xword align,
			    const void *data, size_t size, Elf_Type dtype)
{
	Elf_Scn *scn = elf_newscn(elf);
	Elf_Data *d;
	GElf_Shdr sh;

	if (!scn || !(d = elf_newdata(scn)) || !gelf_getshdr(scn, &sh))
		return NULL;
	d->d_buf = (void *)data;
	d->d_size = size;
	d->d_type = dtype;
	d->d_align = align;
	d->d_version = EV_CURRENT;
	sh.sh_name = (GElf_Word)shstr_offset(name);
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_addralign = align;
	if (!gelf_update_shdr(scn, &sh))
		return NULL;
	return scn;
}

/* One declaration note per probe, in host order: libelf converts the
 * headers (ELF_T_NHDR) to the target's. */
static void declaration_notes(struct buf *notes, const struct program *prog)
{
	static const char zeros[4];
	const struct provider *pv;
	const struct probe *pr;
	struct buf decl = { 0 };

	for_each_provider(prog, pv) {
		for_each_probe(pv, pr) {
			Elf32_Nhdr nh;

			decl.len = 0;
			nh.n_type = (Elf32_Word)probe_declaration_recorded(
				&decl, prog, pr);
			nh.n_namesz = sizeof(DECL_NOTE_OWNER);
			nh.n_descsz = (Elf32_Word)decl.len + 1;
			buf_add(notes, &nh, sizeof(nh));
			buf_add(notes, DECL_NOTE_OWNER,
				sizeof(DECL_NOTE_OWNER));
			buf_add(notes, zeros,
				(4 - sizeof(DECL_NOTE_OWNER) % 4) % 4);
			buf_add(notes, decl.data, decl.len + 1);
			buf_add(notes, zeros, (4 - (decl.len + 1) % 4) % 4);
		}
	}
	buf_free(&decl);
}

/* The symbol table and its strings: a null symbol, the .probes section
 * symbol, then one global per semaphore. */
struct symbols {
	struct buf syms, strs;
	int count;
};

static void symbols_add(struct symbols *s, Elf *elf, const char *name,
			GElf_Addr value, GElf_Xword size, unsigned char info,
			unsigned char other, GElf_Section shndx)
{
	GElf_Word st_name = 0;

	if (name) {
		st_name = (GElf_Word)s->strs.len;
		buf_add(&s->strs, name, strlen(name) + 1);
	}
	/* In the class's memory layout; libelf converts the byte order. */
	if (gelf_getclass(elf) == ELFCLASS64) {
		Elf64_Sym e = { st_name, info, other, shndx, value, size };

		buf_add(&s->syms, &e, sizeof(e));
	} else {
		Elf32_Sym e = { st_name,
				(Elf32_Addr)value,
				(Elf32_Word)size,
				info,
				other,
				shndx };

		buf_add(&s->syms, &e, sizeof(e));
	}
	s->count++;
}

static void put32(struct buf *b, unsigned v, int big_endian)
{
	unsigned char c[4];
	int i;

	for (i = 0; i < 4; i++)
		c[big_endian ? 3 - i : i] = (unsigned char)(v >> (8 * i));
	buf_add(b, c, 4);
}

/* The .note.gnu.property note: one NT_GNU_PROPERTY_TYPE_0 note of owner
 * "GNU" holding one property, padded to the class's alignment.  Written
 * as bytes in the target's order (libelf converts only note headers). */
static void property_note(struct buf *note, const struct target *tg,
			  unsigned type, unsigned features)
{
	int big = tg->data == ELFDATA2MSB, wide = tg->elfclass == ELFCLASS64;

	put32(note, 4, big);		  /* namesz: "GNU" */
	put32(note, wide ? 16 : 12, big); /* descsz */
	put32(note, 5, big);		  /* NT_GNU_PROPERTY_TYPE_0 */
	buf_add(note, "GNU", 4);
	put32(note, type, big);
	put32(note, 4, big); /* the property's data size */
	put32(note, features, big);
	if (wide)
		put32(note, 0, big); /* to 8 bytes */
}

static int libelf_error(const char *what)
{
	error_plain("cannot write the object: %s: %s", what, elf_errmsg(-1));
	return -1;
}

/* One global per semaphore, in .d order: hidden, so that each
 * executable and shared object has its own; under STAP_SDT_V1 or V2 of
 * default visibility, so that a module's probes use its executable's.
 * V1 names drop the provider, so two providers' probes of one name
 * share one semaphore, as SystemTap's tentative definitions do. */
static void semaphore_symbols(struct symbols *syms, Elf *elf,
			      const struct program *prog, int sdt_version)
{
	unsigned char other = sdt_version ? STV_DEFAULT : STV_HIDDEN;
	const struct provider *pv;
	const struct probe *pr;
	struct name_set seen;
	char **v1 = NULL;
	size_t i = 0, n = 0;

	if (sdt_version == 1) {
		v1 = xcalloc((size_t)prog->nprobes + 1, sizeof(*v1));
		name_set_init(&seen, (size_t)prog->nprobes);
	}
	for_each_provider(prog, pv) {
		for_each_probe(pv, pr) {
			const char *name = pr->names->semaphore;

			if (v1) {
				name = v1[n++] = name_semaphore_v1(pr);
				if (name_set_add(&seen, name, strlen(name), pr))
					continue;
			}
			symbols_add(syms, elf, name, 2 * i++, 2,
				    GELF_ST_INFO(STB_GLOBAL, STT_OBJECT), other,
				    SEC_PROBES);
		}
	}
	if (v1) {
		name_set_free(&seen);
		while (n)
			free(v1[--n]);
		free(v1);
	}
}

static int object_build(Elf *elf, const struct program *prog,
			const struct emit_options *opt, struct symbols *syms,
			unsigned char **zeros, struct buf *notes,
			struct buf *property)
{
	const struct target *tg = opt->target;
	int sdt_version = opt->sdt_version;
	/* The hardening an object with no code keeps (the target's row):
	   the linker keeps a feature only when every input has it, so an
	   object that says nothing turns CET or BTI off for the program. */
	unsigned type = tg->property_type, features = tg->property_features;
	GElf_Ehdr eh;
	Elf_Scn *scn;
	GElf_Shdr sh;
	size_t nsem = (size_t)prog->nprobes;

	if (!gelf_newehdr(elf, tg->elfclass) || !gelf_getehdr(elf, &eh))
		return libelf_error("ELF header");
	eh.e_ident[EI_DATA] = (unsigned char)tg->data;
	eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh.e_type = ET_REL;
	eh.e_machine = (GElf_Half)tg->machine;
	eh.e_version = EV_CURRENT;
	eh.e_flags = tg->flags;
	eh.e_shstrndx = SEC_SHSTRTAB;
	if (!gelf_update_ehdr(elf, &eh))
		return libelf_error("ELF header");

	*zeros = xcalloc(nsem ? nsem * 2 : 1, 1);
	/* Retained: the notes are the semaphores' only users when no code
	   calls _ENABLED(), and notes do not keep sections from --gc-sections.
	   Page-aligned: on a page no other segment maps (see the top). */
	if (!add_section(elf, ".probes", SHT_PROGBITS,
			 SHF_WRITE | SHF_ALLOC | SHF_GNU_RETAIN, tg->page,
			 *zeros, nsem * 2, ELF_T_BYTE) ||
	    !add_section(elf, ".note.GNU-stack", SHT_PROGBITS, 0, 1, "", 0,
			 ELF_T_BYTE))
		return libelf_error("sections");
	declaration_notes(notes, prog);
	if (!add_section(elf, DECL_NOTE_SECTION, SHT_NOTE, 0, 4,
			 notes->data ? notes->data : "", notes->len,
			 ELF_T_NHDR))
		return libelf_error("declaration notes");

	symbols_add(syms, elf, NULL, 0, 0, 0, 0, SHN_UNDEF);
	symbols_add(syms, elf, NULL, 0, 0, GELF_ST_INFO(STB_LOCAL, STT_SECTION),
		    0, SEC_PROBES);
	semaphore_symbols(syms, elf, prog, sdt_version);
	scn = add_section(elf, ".symtab", SHT_SYMTAB, 0,
			  tg->elfclass == ELFCLASS64 ? 8 : 4, syms->syms.data,
			  syms->syms.len, ELF_T_SYM);
	if (!scn || !gelf_getshdr(scn, &sh))
		return libelf_error("symbol table");
	sh.sh_link = SEC_STRTAB;
	sh.sh_info = 2; /* the first global symbol */
	sh.sh_entsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	if (!gelf_update_shdr(scn, &sh))
		return libelf_error("symbol table");
	if (!add_section(elf, ".strtab", SHT_STRTAB, 0, 1, syms->strs.data,
			 syms->strs.len, ELF_T_BYTE) ||
	    !add_section(elf, ".shstrtab", SHT_STRTAB, 0, 1, shstrtab,
			 sizeof(shstrtab), ELF_T_BYTE))
		return libelf_error("string tables");
	if (features) {
		property_note(property, tg, type, features);
		if (!add_section(elf, ".note.gnu.property", SHT_NOTE, SHF_ALLOC,
				 tg->elfclass == ELFCLASS64 ? 8 : 4,
				 property->data, property->len, ELF_T_BYTE))
			return libelf_error("property note");
	}
	if (elf_update(elf, ELF_C_WRITE) < 0)
		return libelf_error("layout");
	return 0;
}

int emit_object(struct output *out, const struct program *prog,
		const struct emit_options *opt)
{
	struct symbols syms = { 0 };
	struct buf notes = { 0 }, property = { 0 };
	unsigned char *zeros = NULL;
	Elf *elf;
	FILE *tmp;
	int fd, rc;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return libelf_error("libelf is out of date");
	/* libelf writes to a seekable file, copied to the output (which
	   may be a pipe).  A memory file and sendfile saved nothing here
	   (0.97x and 0.98x, BENCHMARKS.md). */
	tmp = tmpfile();
	if (!tmp) {
		error_plain("cannot create a temporary file: %s",
			    strerror(errno));
		return -1;
	}
	fd = fileno(tmp);
	elf = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!elf) {
		fclose(tmp);
		return libelf_error("ELF descriptor");
	}
	/* The symbol and string buffers start with their first entries. */
	buf_add(&syms.strs, "", 1);
	rc = object_build(elf, prog, opt, &syms, &zeros, &notes, &property);
	elf_end(elf);
	if (rc == 0)
		rc = output_copy_fd(out, fd);
	fclose(tmp);
	buf_free(&syms.syms);
	buf_free(&syms.strs);
	buf_free(&notes);
	buf_free(&property);
	free(zeros);
	return rc;
}
