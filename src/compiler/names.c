/*
 * compiler/names.c - every name probegen generates, so the naming rules can be
 * read in one place.  For probe P:N (as written in the .d file):
 *
 *   macro      UPPER(P) "_" UPPER(N with "__" -> "_")   as SystemTap's dtrace
 *   semaphore  P "_" N "_semaphore"                     as SystemTap's dtrace
 *              N "_semaphore" under STAP_SDT_V1           as SystemTap's dtrace
 *   typed      "trace_" lower(macro)                    probegen's typed call
 *   guard      "_" UPPER(output base name, non-alnum -> "_")   as illumos
 *   Rust       fn lower(N with "__" -> "_"), static UPPER(that) "_SEMAPHORE"
 *   argument   as declared, argN when unnamed, NAME_2 for a repeat
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "naming.h"

/* Identifiers are ASCII: no locale, no function call a character. */
static char ascii_upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

static char ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Copy s in one case; with squeeze, each "__" becomes "_" (scanning
 * left to right like Python's str.replace).  Returns the end of the
 * copy, which is at most strlen(s) bytes. */
static char *copy_cased(char *out, const char *s, int upper, int squeeze)
{
	for (; *s; s++) {
		*out++ = upper ? ascii_upper(*s) : ascii_lower(*s);
		if (squeeze && s[0] == '_' && s[1] == '_')
			s++;
	}
	return out;
}

static void add_cased(struct buf *b, const char *s, int upper, int squeeze);

/* b's text kept in the tree's arena; b emptied for the next name. */
static char *kept(struct program *prog, struct buf *b, size_t *len)
{
	char *s = arena_strndup(&prog->arena, b->data, b->len);

	*len = b->len;
	b->len = 0;
	return s;
}

/* All five names of a probe.  (Packing them into one block of the arena
 * saved nothing: 1.00x and 1.01x, BENCHMARKS.md.) */
static const struct probe_names *probe_names(struct program *prog,
					     const struct probe *pr)
{
	struct probe_names *n = arena_alloc(&prog->arena, sizeof(*n));
	struct buf b = { 0 };

	add_cased(&b, pr->provider->name, 1, 0);
	buf_lit(&b, "_");
	add_cased(&b, pr->name, 1, 1);
	n->macro = kept(prog, &b, &n->macro_len);
	buf_printf(&b, "%s_ENABLED", n->macro);
	n->enabled = kept(prog, &b, &n->enabled_len);
	buf_printf(&b, "%s_LAZY", n->macro);
	n->lazy = kept(prog, &b, &n->lazy_len);
	buf_lit(&b, "trace_");
	add_cased(&b, n->macro, 0, 0); /* the macro holds no lower case */
	n->typed = kept(prog, &b, &n->typed_len);
	buf_printf(&b, "%s_%s_semaphore", pr->provider->name, pr->name);
	n->semaphore = kept(prog, &b, &n->semaphore_len);
	buf_free(&b);
	return n;
}

void names_assign(struct program *prog)
{
	struct provider *pv;
	struct probe *pr;
	int i = 0;

	for_each_provider(prog, pv) {
		for_each_probe(pv, pr) {
			pr->names = probe_names(prog, pr);
			pr->index = i++;
		}
	}
}

static void add_cased(struct buf *b, const char *s, int upper, int squeeze)
{
	char *end;

	buf_reserve(b, strlen(s));
	end = copy_cased(b->data + b->len, s, upper, squeeze);
	b->len = (size_t)(end - b->data);
	b->data[b->len] = '\0';
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

char *name_semaphore_v1(const struct probe *pr)
{
	return xasprintf("%s_semaphore", pr->name);
}

char *name_rust_fn(const struct probe *pr)
{
	struct buf b = { 0 };

	add_cased(&b, pr->name, 0, 1);
	return b.data;
}

char *name_rust_semaphore(const struct probe *pr)
{
	struct buf b = { 0 };

	add_cased(&b, pr->name, 1, 1);
	buf_puts(&b, "_SEMAPHORE");
	return b.data;
}

int name_is_identifier(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
	      *s == '_'))
		return 0;
	for (s++; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

/* The argument's name in output: as declared, argN when unnamed, and
 * made unique (value, value_2) when the declaration repeats a name. */
void arg_display_name(struct buf *b, const struct probe *pr, int index)
{
	const struct param *p, *q;
	int i = 0, seen = 0;

	for (p = pr->native; p && i < index; p = p->next)
		i++;
	if (!p || !p->name) {
		buf_printf(b, "arg%d", index);
		return;
	}
	for (q = pr->native; q != p; q = q->next)
		if (q->name && strcmp(q->name, p->name) == 0)
			seen++;
	buf_puts(b, p->name);
	if (seen)
		buf_printf(b, "_%d", seen + 1);
}

int probe_param_index(const struct probe *pr, const char *name, size_t len)
{
	const struct param *p;
	int i = 0;

	size_t k;
	int n = 0;

	for_each_param(pr->native, p) {
		if (p->name && strlen(p->name) == len &&
		    strncmp(p->name, name, len) == 0)
			return i;
		i++;
	}
	/* An unnamed parameter is argN, as every output names it (BIND's
	   .d names none of its probes' arguments). */
	if (len < 4 || len > 6 || strncmp(name, "arg", 3) != 0 ||
	    (name[3] == '0' && len > 4))
		return -1;
	for (k = 3; k < len; k++) {
		if (!isdigit((unsigned char)name[k]))
			return -1;
		n = n * 10 + (name[k] - '0');
	}
	i = 0;
	for_each_param(pr->native, p) {
		if (i++ == n)
			return p->name ? -1 : n;
	}
	return -1;
}
