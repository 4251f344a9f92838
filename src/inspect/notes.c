/*
 * inspect/notes.c - the probes a binary carries, read in one place: the
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
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/naming.h"
#include "inspect/inspect.h"

/* An address of the note's class, in the file's byte order. */
static uint64_t read_addr(const unsigned char *p, int size, int big_endian)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[big_endian ? size - 1 - i : i] << (8 * i);
	return v;
}

/* The probes seen so far, by provider and name: a binary may hold
 * 100,000 of them, so not a list search. */
struct probe_table {
	struct bin_probe **slots;
	size_t cap, count;
	struct bin_probe **tail; /* the binary's list, in order first seen */
};

static size_t probe_hash(const char *provider, const char *name)
{
	return hash_bytes(provider, strlen(provider)) * 31 +
	       hash_bytes(name, strlen(name));
}

static void table_put(struct probe_table *t, struct bin_probe *p)
{
	size_t i = probe_hash(p->provider, p->name) & (t->cap - 1);

	while (t->slots[i])
		i = (i + 1) & (t->cap - 1);
	t->slots[i] = p;
	t->count++;
}

static struct bin_probe *probe_for(struct binary *b, struct probe_table *t,
				   const char *provider, const char *name)
{
	struct bin_probe *p, **old;
	size_t i, cap;

	if (2 * (t->count + 1) > t->cap) {
		old = t->slots;
		cap = t->cap;
		t->cap = cap ? 2 * cap : 64;
		t->slots = xcalloc(t->cap, sizeof(*t->slots));
		t->count = 0;
		for (i = 0; i < cap; i++)
			if (old[i])
				table_put(t, old[i]);
		free(old);
	}
	for (i = probe_hash(provider, name) & (t->cap - 1); (p = t->slots[i]);
	     i = (i + 1) & (t->cap - 1))
		if (strcmp(p->provider, provider) == 0 &&
		    strcmp(p->name, name) == 0)
			return p;
	p = xcalloc(1, sizeof(*p));
	p->provider = xstrdup(provider);
	p->name = xstrdup(name);
	p->site_tail = &p->sites;
	*t->tail = p;
	t->tail = &p->next;
	b->nprobes++;
	table_put(t, p);
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

/* An object's relocations of its notes: the value each address field
 * gets, by the field's offset in the section, and the section its
 * symbol is in (NULL: undefined, absolute). */
struct note_relocs {
	size_t n;
	struct note_reloc {
		size_t offset;
		uint64_t value;
		char *section; /* or the symbol's name when undefined */
		int undefined;
	} *r;
};

static int reloc_cmp(const void *pa, const void *pb)
{
	const struct note_reloc *a = pa, *b = pb;

	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* Sorted by note_relocations: an object may hold 100,000 sites. */
static const struct note_reloc *reloc_at(const struct note_relocs *rel,
					 size_t off)
{
	struct note_reloc key = { off, 0, NULL, 0 };

	if (!rel || !rel->n)
		return NULL;
	return bsearch(&key, rel->r, rel->n, sizeof(*rel->r), reloc_cmp);
}

/* The address field at off of a note's descriptor (desc, at desc_off
 * in its section), relocated in an object. */
static uint64_t note_addr(const struct binary *b, const char *desc,
			  size_t desc_off, int field,
			  const struct note_relocs *rel,
			  const struct note_reloc **how)
{
	int asz = b->elfclass == ELFCLASS64 ? 8 : 4;
	const struct note_reloc *r =
		reloc_at(rel, desc_off + (size_t)(field * asz));

	if (how)
		*how = r && r->section ? r : NULL;
	if (r)
		return r->value;
	return read_addr((const unsigned char *)desc + field * asz, asz,
			 b->data == ELFDATA2MSB);
}

static void stapsdt_note(struct binary *b, struct probe_table *t,
			 const char *desc, size_t size,
			 const struct note_relocs *rel, size_t desc_off)
{
	const struct note_reloc *at, *sem_at;
	int asz = b->elfclass == ELFCLASS64 ? 8 : 4;
	const char *p = desc + 3 * asz, *end = desc + size;
	const char *provider, *name, *args;
	struct bin_probe *pr;
	struct bin_site *s;

	if (size < (size_t)(3 * asz) || !(provider = next_string(&p, end)) ||
	    !(name = next_string(&p, end)) || !(args = next_string(&p, end)))
		return; /* not a note anyone could use */
	pr = probe_for(b, t, provider, name);
	s = xcalloc(1, sizeof(*s));
	s->pc = note_addr(b, desc, desc_off, 0, rel, &at);
	s->base = note_addr(b, desc, desc_off, 1, rel, NULL);
	s->semaphore = note_addr(b, desc, desc_off, 2, rel, &sem_at);
	s->args = xstrdup(args);
	s->section = at ? xstrdup(at->section) : NULL;
	*pr->site_tail = s;
	pr->site_tail = &s->next;
	pr->nsites++;
	if (!pr->semaphore)
		pr->semaphore = s->semaphore;
	if (!pr->semaphore_in && sem_at)
		pr->semaphore_in =
			sem_at->undefined
				? xstrdup(sem_at->section)
				: xasprintf("%s+0x%llx", sem_at->section,
					    (unsigned long long)s->semaphore);
}

static void declaration_note(struct binary *b, struct probe_table *t,
			     const char *desc, size_t size)
{
	const char *colon, *paren;
	struct buf provider = { 0 }, name = { 0 };
	struct bin_probe *pr;

	if (!memchr(desc, '\0', size) || !(colon = strchr(desc, ':')) ||
	    !(paren = strchr(colon, '(')))
		return;
	buf_add(&provider, desc, (size_t)(colon - desc));
	buf_add(&name, colon + 1, (size_t)(paren - colon - 1));
	pr = probe_for(b, t, provider.data ? provider.data : "",
		       name.data ? name.data : "");
	if (!pr->declaration)
		pr->declaration = xstrdup(desc); /* the first recorded wins */
	buf_free(&provider);
	buf_free(&name);
}

static void read_notes(struct binary *b, struct probe_table *t, Elf_Data *data,
		       int decls, const struct note_relocs *rel)
{
	GElf_Nhdr nh;
	size_t off = 0, next, name_off, desc_off;

	while ((next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) >
	       0) {
		const char *owner = (const char *)data->d_buf + name_off;
		const char *desc = (const char *)data->d_buf + desc_off;

		if (!decls && nh.n_type == STAPSDT_NOTE_TYPE &&
		    nh.n_namesz == sizeof(STAPSDT_NOTE_OWNER) &&
		    memcmp(owner, STAPSDT_NOTE_OWNER,
			   sizeof(STAPSDT_NOTE_OWNER)) == 0)
			stapsdt_note(b, t, desc, nh.n_descsz, rel, desc_off);
		else if (decls &&
			 (nh.n_type == DECL_NOTE_TYPE ||
			  nh.n_type == DECL_NOTE_TYPE_TAGGED) &&
			 nh.n_namesz == sizeof(DECL_NOTE_OWNER) &&
			 memcmp(owner, DECL_NOTE_OWNER,
				sizeof(DECL_NOTE_OWNER)) == 0)
			declaration_note(b, t, desc, nh.n_descsz);
		off = next;
	}
}

/* One relocation of an object's notes: the field at off gets its
 * symbol's value plus the addend (REL: plus what the field holds). */
static void add_reloc(Elf *elf, const struct binary *b, Elf_Data *data,
		      Elf_Data *syms, size_t strtab, size_t shstrndx,
		      size_t off, size_t symi, long long addend, int is_rela,
		      struct note_relocs *rel)
{
	int asz = b->elfclass == ELFCLASS64 ? 8 : 4;
	GElf_Sym sym;
	GElf_Shdr sh;
	Elf_Scn *scn;
	const char *name = NULL;
	struct note_reloc *r;

	if (off > data->d_size || data->d_size - off < (size_t)asz ||
	    !gelf_getsym(syms, (int)symi, &sym))
		return;
	if (sym.st_shndx != SHN_UNDEF && sym.st_shndx < SHN_LORESERVE &&
	    (scn = elf_getscn(elf, sym.st_shndx)) && gelf_getshdr(scn, &sh))
		name = elf_strptr(elf, shstrndx, sh.sh_name);
	else if (sym.st_shndx == SHN_UNDEF)
		name = elf_strptr(elf, strtab, sym.st_name); /* the -G object's */
	rel->r = xgrow(rel->r, rel->n, sizeof(*rel->r));
	r = &rel->r[rel->n++];
	r->offset = off;
	r->value = (uint64_t)sym.st_value + (uint64_t)addend +
		   (is_rela ? 0
			    : read_addr((const unsigned char *)data->d_buf + off,
					asz, b->data == ELFDATA2MSB));
	r->section = name ? xstrdup(name) : NULL;
	r->undefined = sym.st_shndx == SHN_UNDEF;
}

/* The relocations of section target (an object's notes, data). */
static void note_relocations(Elf *elf, const struct binary *b,
			     Elf_Scn *target, Elf_Data *data, size_t shstrndx,
			     struct note_relocs *rel)
{
	Elf_Scn *scn = NULL;
	size_t index = elf_ndxscn(target);

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh, ssh;
		Elf_Data *r, *syms;
		Elf_Scn *symscn;
		size_t i, n;
		int is_rela;

		if (!gelf_getshdr(scn, &sh) || sh.sh_info != index ||
		    (sh.sh_type != SHT_RELA && sh.sh_type != SHT_REL) ||
		    !sh.sh_entsize || !(r = elf_getdata(scn, NULL)) ||
		    !(symscn = elf_getscn(elf, sh.sh_link)) ||
		    !gelf_getshdr(symscn, &ssh) ||
		    !(syms = elf_getdata(symscn, NULL)))
			continue;
		is_rela = sh.sh_type == SHT_RELA;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			GElf_Rela a;
			GElf_Rel l;

			if (is_rela && gelf_getrela(r, (int)i, &a))
				add_reloc(elf, b, data, syms, ssh.sh_link,
					  shstrndx, a.r_offset, GELF_R_SYM(a.r_info),
					  a.r_addend, 1, rel);
			else if (!is_rela && gelf_getrel(r, (int)i, &l))
				add_reloc(elf, b, data, syms, ssh.sh_link,
					  shstrndx, l.r_offset, GELF_R_SYM(l.r_info), 0, 0,
					  rel);
		}
	}
	if (rel->n)
		qsort(rel->r, rel->n, sizeof(*rel->r), reloc_cmp);
}

void site_address(struct buf *out, const struct bin_site *s)
{
	if (s->section)
		buf_printf(out, "%s+0x%llx", s->section, s->pc);
	else
		buf_printf(out, "0x%llx", s->pc);
}

void semaphore_address(struct buf *out, const struct bin_probe *p)
{
	if (p->semaphore_in)
		buf_puts(out, p->semaphore_in);
	else
		buf_printf(out, "0x%llx", p->semaphore);
}

/* The program headers: whether there is an interpreter (a program,
 * not a shared library), which (the loader's path), and the loadable
 * segments. */
static int read_segments(Elf *elf, struct binary *b)
{
	size_t n, i;
	GElf_Phdr ph;
	int interp = 0;
	Elf_Data *d;
	unsigned long long relro = (unsigned long long)-1, *memsz;

	if (elf_getphdrnum(elf, &n) != 0)
		return 0;
	b->segments = xcalloc(n + 1, sizeof(*b->segments));
	memsz = xcalloc(n + 1, sizeof(*memsz));
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph))
			continue;
		interp |= ph.p_type == PT_INTERP;
		if (ph.p_type == PT_INTERP && !b->interpreter && ph.p_filesz &&
		    (d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset,
					      ph.p_filesz, ELF_T_BYTE)) &&
		    d->d_buf)
			b->interpreter = xstrndup(d->d_buf,
						  strnlen(d->d_buf, d->d_size));
		if (ph.p_type == PT_GNU_RELRO)
			relro = ph.p_vaddr;
		if (ph.p_type != PT_LOAD)
			continue;
		b->segments[b->nsegments].vaddr = ph.p_vaddr;
		b->segments[b->nsegments].filesz = ph.p_filesz;
		b->segments[b->nsegments].offset = ph.p_offset;
		b->segments[b->nsegments].writable = (ph.p_flags & PF_W) != 0;
		memsz[b->nsegments] = ph.p_memsz;
		b->nsegments++;
	}
	for (i = 0; relro != (unsigned long long)-1 && i < (size_t)b->nsegments;
	     i++)
		b->segments[i].is_relro = relro >= b->segments[i].vaddr &&
					  relro - b->segments[i].vaddr < memsz[i];
	free(memsz);
	return interp;
}

int binary_read(const char *path, struct binary *b)
{
	int r = binary_try_read(path, b);

	if (r > 0)
		error_plain("'%s' is not an ELF file", path);
	return r ? -1 : 0;
}

int binary_try_read(const char *path, struct binary *b)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	Elf *elf;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	size_t shstrndx;
	const struct target *tg;
	struct probe_table table = { 0 };

	memset(b, 0, sizeof(*b));
	b->path = path;
	table.tail = &b->probes;
	if (fd < 0) {
		error_plain("cannot open '%s': %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == 0) {
		b->dev = (unsigned long long)st.st_dev;
		b->ino = (unsigned long long)st.st_ino;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0) {
		elf_end(elf);
		close(fd);
		return 1;
	}
	b->elfclass = eh.e_ident[EI_CLASS];
	b->data = eh.e_ident[EI_DATA];
	b->machine = eh.e_machine;
	b->is_object = eh.e_type == ET_REL;
	b->is_library = read_segments(elf, b) == 0 && eh.e_type == ET_DYN;
	tg = target_of_elf_header(b->elfclass, b->data, b->machine);
	b->arch = tg ? tg->name : "?";
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		if (strcmp(name, ".stapsdt.base") == 0) {
			b->has_base = 1;
			b->base_addr = sh.sh_addr;
		}
		if (strcmp(name, ".probes") == 0) {
			b->has_probes_section = 1;
			b->probes_addr = sh.sh_addr;
			b->probes_size = sh.sh_size;
		}
		if (sh.sh_type != SHT_NOTE || !(data = elf_getdata(scn, NULL)))
			continue;
		if (strcmp(name, STAPSDT_NOTE_SECTION) == 0) {
			struct note_relocs rel = { 0, NULL };
			size_t i;

			if (b->is_object && data->d_buf)
				note_relocations(elf, b, scn, data, shstrndx,
						 &rel);
			read_notes(b, &table, data, 0, &rel);
			for (i = 0; i < rel.n; i++)
				free(rel.r[i].section);
			free(rel.r);
		} else if (strcmp(name, DECL_NOTE_SECTION) == 0) {
			read_notes(b, &table, data, 1, NULL);
		}
	}
	free(table.slots);
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
			free(s->section);
			free(s);
		}
		free(p->provider);
		free(p->name);
		free(p->declaration);
		free(p->semaphore_in);
		free(p);
	}
	b->probes = NULL;
	free(b->segments);
	b->segments = NULL;
	free(b->interpreter);
	b->interpreter = NULL;
}
