/*
 * inspect/srclines.c - the source line of a probe site, for --list and --check:
 * "file.c:12" from the binary's DWARF line table, through libdw when
 * probegen was built with it (HAVE_LIBDW; the Makefile finds it), else
 * never.  In an object (ET_REL), libdwfl places its sections and
 * relocates its DWARF; a site is its section's place plus its offset.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/naming.h"
#include "inspect/inspect.h"

#ifdef HAVE_LIBDW
#include <elfutils/libdwfl.h>

#include "inspect/debuginfo.h"

struct srclines {
	Dwfl *dwfl;
	Dwfl_Module *module;
	Dwarf_Addr bias; /* where the module sits against the file's addresses */
};

static const Dwfl_Callbacks offline = {
	.find_debuginfo = debuginfo_find,
	.section_address = dwfl_offline_section_address,
};

struct srclines *srclines_open(const struct binary *b)
{
	struct srclines *s;

	s = xcalloc(1, sizeof(*s));
	s->dwfl = dwfl_begin(&offline);
	if (s->dwfl)
		s->module = dwfl_report_offline(s->dwfl, "", b->path, -1);
	if (s->module)
		dwfl_report_end(s->dwfl, NULL, NULL);
	/* No DWARF, no lines: nothing to look up later. */
	if (!s->module || !dwfl_module_getdwarf(s->module, &s->bias)) {
		srclines_close(s);
		return NULL;
	}
	return s;
}

/* Where libdwfl placed section name of an object: 0, or -1. */
static int section_place(struct srclines *s, const char *name,
			 Dwarf_Addr *addr)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(s->module, &bias);
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;
	const char *n;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0)
		return -1;
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) &&
		    (n = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    strcmp(n, name) == 0) {
			*addr = sh.sh_addr + bias;
			return 0;
		}
	return -1;
}

int srclines_find(struct srclines *s, const struct bin_site *site,
		  struct buf *out)
{
	Dwfl_Line *line;
	const char *file;
	int lineno = 0;
	Dwarf_Addr at = site->pc + (s ? s->bias : 0);

	if (!s || (site->section && section_place(s, site->section, &at) != 0))
		return -1;
	if (site->section)
		at += site->pc;
	line = dwfl_module_getsrc(s->module, at);
	file = line ? dwfl_lineinfo(line, NULL, &lineno, NULL, NULL, NULL)
		    : NULL;
	if (!file || lineno <= 0)
		return -1;
	buf_escaped(out, file, strlen(file), 0);
	buf_printf(out, ":%d", lineno);
	return 0;
}

void srclines_close(struct srclines *s)
{
	if (!s)
		return;
	if (s->dwfl)
		dwfl_end(s->dwfl);
	free(s);
}

#else

struct srclines *srclines_open(const struct binary *b)
{
	(void)b;
	return NULL;
}

int srclines_find(struct srclines *s, const struct bin_site *site,
		  struct buf *out)
{
	(void)s;
	(void)site;
	(void)out;
	return -1;
}

void srclines_close(struct srclines *s)
{
	(void)s;
}

#endif
