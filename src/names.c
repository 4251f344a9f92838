/*
 * names.c - every name probegen generates, so the naming rules can be
 * read in one place.  For probe P:N (as written in the .d file):
 *
 *   macro      UPPER(P) "_" UPPER(N with "__" -> "_")   as SystemTap's dtrace
 *   semaphore  P "_" N "_semaphore"                     as SystemTap's dtrace
 *   typed      "trace_" lower(macro)                    probegen's typed call
 *   guard      "_" UPPER(output base name, non-alnum -> "_")   as illumos
 */
#include <ctype.h>
#include <string.h>

#include "probegen.h"

/* "__" becomes "_", scanning left to right like Python's str.replace. */
static void add_probe_part(struct buf *b, const char *name, int upper)
{
	const char *p;

	for (p = name; *p; p++) {
		char c = upper ? (char)toupper((unsigned char)*p)
			       : (char)tolower((unsigned char)*p);

		buf_add(b, &c, 1);
		if (p[0] == '_' && p[1] == '_')
			p++;
	}
}

static void add_case(struct buf *b, const char *s, int upper)
{
	for (; *s; s++) {
		char c = upper ? (char)toupper((unsigned char)*s)
			       : (char)tolower((unsigned char)*s);

		buf_add(b, &c, 1);
	}
}

char *name_macro(const struct probe *pr)
{
	struct buf b = { 0 };

	add_case(&b, pr->provider->name, 1);
	buf_puts(&b, "_");
	add_probe_part(&b, pr->name, 1);
	return b.data;
}

char *name_semaphore(const struct probe *pr)
{
	return xasprintf("%s_%s_semaphore", pr->provider->name, pr->name);
}

char *name_typed(const struct probe *pr)
{
	struct buf b = { 0 };

	buf_puts(&b, "trace_");
	add_case(&b, pr->provider->name, 0);
	buf_puts(&b, "_");
	add_probe_part(&b, pr->name, 0);
	return b.data;
}

char *name_guard(const char *output_path)
{
	const char *base = strrchr(output_path, '/');
	struct buf b = { 0 };

	base = base ? base + 1 : output_path;
	buf_puts(&b, "_");
	for (; *base; base++) {
		char c = isalnum((unsigned char)*base)
				 ? (char)toupper((unsigned char)*base)
				 : '_';

		buf_add(&b, &c, 1);
	}
	return b.data;
}

int name_is_identifier(const char *s)
{
	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (s++; *s; s++)
		if (!(isalnum((unsigned char)*s) || *s == '_'))
			return 0;
	return 1;
}
