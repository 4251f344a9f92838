/*
 * inspect/srclines.c - the source line of a probe site, for --list and --check:
 * "file.c:12" from the binary's DWARF line table, through libdw when
 * probegen was built with it (HAVE_LIBDW; the Makefile finds it), else
 * never.  Executables and shared libraries only: an object's sites are
 * not yet placed.
 */
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect.h"

#ifdef HAVE_LIBDW
#include <elfutils/libdwfl.h>

struct srclines {
	Dwfl *dwfl;
	Dwfl_Module *module;
	Dwarf_Addr bias; /* where the module sits against the file's addresses */
};

static const Dwfl_Callbacks offline = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

struct srclines *srclines_open(const struct binary *b)
{
	struct srclines *s;

	if (b->is_object)
		return NULL;
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

int srclines_find(struct srclines *s, unsigned long long pc, struct buf *out)
{
	Dwfl_Line *line;
	const char *file;
	int lineno = 0;

	if (!s)
		return -1;
	line = dwfl_module_getsrc(s->module, pc + s->bias);
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

int srclines_find(struct srclines *s, unsigned long long pc, struct buf *out)
{
	(void)s;
	(void)pc;
	(void)out;
	return -1;
}

void srclines_close(struct srclines *s)
{
	(void)s;
}

#endif
