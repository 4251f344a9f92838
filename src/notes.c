/*
 * notes.c - the probes a binary carries, read in one place: the
 * .note.stapsdt notes (one per probe site: pc, base, semaphore, provider,
 * name, argument specs), the .probes and .stapsdt.base sections, and the
 * declarations probegen recorded in .note.probegen.  --list, --check and
 * --bpftrace BINARY use only what binary_read() returns.  Sites of one
 * probe are gathered under it; declarations recorded several times (one
 * per object or per header-only site) read as one.  A -G object records
 * every probe of its file: a declaration with no site is kept (nsites 0)
 * for --check, and left out where only probes that exist matter.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probegen.h"

/* An address of the note's class, in the file's byte order. */
static uint64_t read_addr(const unsigned char *p, int size, int big_endian)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[big_endian ? size - 1 - i : i] << (8 * i);
	return v;
}

static struct bin_probe *probe_for(struct binary *b, const char *provider,
				   const char *name)
{
	struct bin_probe *p, **tail = &b->probes;

	for (p = b->probes; p; tail = &p->next, p = p->next)
		if (strcmp(p->provider, provider) == 0 &&
		    strcmp(p->name, name) == 0)
			return p;
	p = xcalloc(1, sizeof(*p));
	p->provider = xstrdup(provider);
	p->name = xstrdup(name);
	*tail = p;
	b->nprobes++;
	return p;
}

/* A string inside [p, end), or NULL if it runs off the end. */
static const char *next_string(const char **p, const char *end)
{
	const char *s = *p, *nul = memchr(s, '\0', (size_t)(end - s));

	if (!nul)
		return NULL;
	*p = nul + 1;
	return s;
}

static void stapsdt_note(struct binary *b, const char *desc, size_t size)
{
	int asz = b->elfclass == ELFCLASS64 ? 8 : 4, big = b->data == ELFDATA2MSB;
	const char *p = desc + 3 * asz, *end = desc + size;
	const char *provider, *name, *args;
	struct bin_probe *pr;
	struct bin_site *s, **tail;

	if (size < (size_t)(3 * asz) || !(provider = next_string(&p, end)) ||
	    !(name = next_string(&p, end)) || !(args = next_string(&p, end)))
		return; /* not a note anyone could use */
	pr = probe_for(b, provider, name);
	s = xcalloc(1, sizeof(*s));
	s->pc = read_addr((const unsigned char *)desc, asz, big);
	s->semaphore = read_addr((const unsigned char *)desc + 2 * asz, asz, big);
	s->args = xstrdup(args);
	for (tail = &pr->sites; *tail; tail = &(*tail)->next)
		;
	*tail = s;
	pr->nsites++;
	if (!pr->semaphore)
		pr->semaphore = s->semaphore;
}

static void declaration_note(struct binary *b, const char *desc, size_t size)
{
	const char *colon, *paren;
	struct buf provider = { 0 }, name = { 0 };
	struct bin_probe *pr;

	if (!memchr(desc, '\0', size) || !(colon = strchr(desc, ':')) ||
	    !(paren = strchr(colon, '(')))
		return;
	buf_add(&provider, desc, (size_t)(colon - desc));
	buf_add(&name, colon + 1, (size_t)(paren - colon - 1));
	pr = probe_for(b, provider.data, name.data);
	if (!pr->declaration)
		pr->declaration = xstrdup(desc); /* the first recorded wins */
	buf_free(&provider);
	buf_free(&name);
}

static void read_notes(struct binary *b, Elf_Data *data, int decls)
{
	GElf_Nhdr nh;
	size_t off = 0, next, name_off, desc_off;

	while ((next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *owner = (const char *)data->d_buf + name_off;
		const char *desc = (const char *)data->d_buf + desc_off;

		if (!decls && nh.n_type == 3 && nh.n_namesz == 8 &&
		    memcmp(owner, "stapsdt", 8) == 0)
			stapsdt_note(b, desc, nh.n_descsz);
		else if (decls && nh.n_type == DECL_NOTE_TYPE &&
			 nh.n_namesz == sizeof(DECL_NOTE_OWNER) &&
			 memcmp(owner, DECL_NOTE_OWNER, sizeof(DECL_NOTE_OWNER)) == 0)
			declaration_note(b, desc, nh.n_descsz);
		off = next;
	}
}

int binary_read(const char *path, struct binary *b)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	size_t shstrndx;
	const struct target *tg;

	memset(b, 0, sizeof(*b));
	b->path = path;
	if (fd < 0) {
		error_plain("cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0) {
		error_plain("'%s' is not an ELF file", path);
		elf_end(elf);
		close(fd);
		return -1;
	}
	b->elfclass = eh.e_ident[EI_CLASS];
	b->data = eh.e_ident[EI_DATA];
	b->machine = eh.e_machine;
	b->is_object = eh.e_type == ET_REL;
	tg = target_of_elf_header(b->elfclass, b->data, b->machine);
	b->arch = tg ? tg->name : "?";
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		if (strcmp(name, ".stapsdt.base") == 0)
			b->has_base = 1;
		if (strcmp(name, ".probes") == 0) {
			b->has_probes_section = 1;
			b->probes_addr = sh.sh_addr;
			b->probes_size = sh.sh_size;
		}
		if (sh.sh_type != SHT_NOTE || !(data = elf_getdata(scn, NULL)))
			continue;
		if (strcmp(name, ".note.stapsdt") == 0)
			read_notes(b, data, 0);
		else if (strcmp(name, DECL_NOTE_SECTION) == 0)
			read_notes(b, data, 1);
	}
	elf_end(elf);
	close(fd);
	return 0;
}

void binary_free(struct binary *b)
{
	struct bin_probe *p, *pn;
	struct bin_site *s, *sn;

	for (p = b->probes; p; p = pn) {
		pn = p->next;
		for (s = p->sites; s; s = sn) {
			sn = s->next;
			free(s->args);
			free(s);
		}
		free(p->provider);
		free(p->name);
		free(p->declaration);
		free(p);
	}
	b->probes = NULL;
}

const char *spec_next(const char *args, struct arg_spec *out)
{
	const char *at, *end;
	char *num_end;
	long size;

	args += strspn(args, " ");
	if (!*args)
		return NULL;
	end = args + strcspn(args, " ");
	/* aarch64 and arm memory operands hold a blank: "[sp, 16]". */
	if ((at = memchr(args, '[', (size_t)(end - args))) && !memchr(at, ']', (size_t)(end - at))) {
		const char *close = strchr(end, ']');

		if (close)
			end = close + 1;
	}
	memset(out, 0, sizeof(*out));
	size = strtol(args, &num_end, 10);
	out->is_signed = size < 0;
	out->size = (int)(size < 0 ? -size : size);
	out->is_float = *num_end == 'f';
	at = memchr(args, '@', (size_t)(end - args));
	out->operand = at ? at + 1 : end;
	out->operand_len = (size_t)(end - out->operand);
	out->text = args;
	out->text_len = (size_t)(end - args);
	return end;
}

int spec_count(const char *args)
{
	struct arg_spec a;
	int n = 0;

	while ((args = spec_next(args, &a)))
		n++;
	return n;
}

/* A D type of the spec's size and sign, for probes with no declaration. */
static const char *spec_type(const struct arg_spec *a)
{
	switch (a->size) {
	case 1: return a->is_signed ? "int8_t" : "uint8_t";
	case 2: return a->is_signed ? "int16_t" : "uint16_t";
	case 4: return a->is_signed ? "int32_t" : "uint32_t";
	default: return a->is_signed ? "int64_t" : "uint64_t";
	}
}

struct program *binary_program(const struct binary *b)
{
	const struct bin_probe *p, *q;
	struct buf text = { 0 }, file = { 0 };
	struct program *prog;

	/* The probes the binary carries (declared ones without a site are
	   left out: tracers cannot attach to them), as the .d file would
	   declare them; probes recorded without one take sized integers. */
	for (p = b->probes; p; p = p->next) {
		if (!p->sites)
			continue;
		for (q = b->probes; q != p; q = q->next)
			if (q->sites && strcmp(q->provider, p->provider) == 0)
				break;
		if (q != p)
			continue; /* provider done */
		buf_printf(&text, "provider %s {\n", p->provider);
		for (q = p; q; q = q->next) {
			if (!q->sites || strcmp(q->provider, p->provider) != 0)
				continue;
			if (q->declaration) {
				buf_printf(&text, "\tprobe %s;\n",
					   strchr(q->declaration, ':') + 1);
			} else {
				const char *spec = q->sites->args;
				struct arg_spec a;
				int i = 0;

				buf_printf(&text, "\tprobe %s(", q->name);
				while ((spec = spec_next(spec, &a)))
					buf_printf(&text, "%s%s", i++ ? ", " : "",
						   spec_type(&a));
				buf_puts(&text, ");\n");
			}
		}
		buf_puts(&text, "};\n");
	}
	buf_add(&text, "\0\0", 2);
	/* Not a file on disk: messages name it, and quote nothing. */
	buf_printf(&file, "%s (recorded declarations)", b->path);
	prog = parse_text(file.data, text.data, text.len - 2, NULL);
	names_assign(prog);
	buf_free(&text);
	buf_free(&file);
	return prog;
}

const struct probe *binary_declared(const struct program *recorded,
				    const struct bin_probe *p)
{
	return p->declaration ? program_probe(recorded, p->provider, p->name)
			      : NULL;
}
