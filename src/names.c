/*
 * names.c - every name probegen generates, so the naming rules can be
 * read in one place.  For probe P:N (as written in the .d file):
 *
 *   macro      UPPER(P) "_" UPPER(N with "__" -> "_")   as SystemTap's dtrace
 *   semaphore  P "_" N "_semaphore"                     as SystemTap's dtrace
 *   typed      "trace_" lower(macro)                    probegen's typed call
 *   guard      "_" UPPER(output base name, non-alnum -> "_")   as illumos
 *   Rust       fn lower(N with "__" -> "_"), static UPPER(that) "_SEMAPHORE"
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "probegen.h"

/* "__" becomes "_", scanning left to right like Python's str.replace. */
/* Append s in one case; with squeeze, each "__" becomes "_". */
static void add_cased(struct buf *b, const char *s, int upper, int squeeze)
{
	char *out;

	buf_reserve(b, strlen(s));
	out = b->data + b->len;
	for (; *s; s++) {
		*out++ = upper ? (char)toupper((unsigned char)*s)
			       : (char)tolower((unsigned char)*s);
		if (squeeze && s[0] == '_' && s[1] == '_')
			s++;
	}
	*out = '\0';
	b->len = (size_t)(out - b->data);
}

static void add_probe_part(struct buf *b, const char *name, int upper)
{
	add_cased(b, name, upper, 1);
}

static void add_case(struct buf *b, const char *s, int upper)
{
	add_cased(b, s, upper, 0);
}

/* A name built in a buffer, moved into the tree's arena. */
static char *keep(struct arena *a, struct buf *b)
{
	char *s = arena_strndup(a, b->data, b->len);

	b->len = 0;
	return s;
}

const struct probe_names *probe_names(struct program *prog, struct probe *pr)
{
	struct probe_names *n = pr->names;
	struct arena *a = &prog->arena;
	struct buf b = { 0 };

	if (n)
		return n;
	n = arena_alloc(a, sizeof(*n));
	add_case(&b, pr->provider->name, 1);
	buf_puts(&b, "_");
	add_probe_part(&b, pr->name, 1);
	n->macro = keep(a, &b);
	buf_cat(&b, n->macro, "_ENABLED", NULL);
	n->enabled = keep(a, &b);
	buf_cat(&b, n->macro, "_LAZY", NULL);
	n->lazy = keep(a, &b);
	buf_puts(&b, "trace_");
	add_case(&b, pr->provider->name, 0);
	buf_puts(&b, "_");
	add_probe_part(&b, pr->name, 0);
	n->typed = keep(a, &b);
	buf_cat(&b, pr->provider->name, "_", pr->name, "_semaphore", NULL);
	n->semaphore = keep(a, &b);
	buf_free(&b);
	pr->names = n;
	return n;
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

char *name_rust_fn(const struct probe *pr)
{
	struct buf b = { 0 };

	add_probe_part(&b, pr->name, 0);
	return b.data;
}

char *name_rust_semaphore(const struct probe *pr)
{
	struct buf b = { 0 };

	add_probe_part(&b, pr->name, 1);
	buf_puts(&b, "_SEMAPHORE");
	return b.data;
}
