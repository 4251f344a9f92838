/*
 * compiler/ast_types.c - the type a declaration's specifiers name: builtin
 * keywords in any order, a typedef's or macro's name, `string`, tagged
 * types, qualifiers, and a typedef's __mode__ attribute.  Grammar
 * actions, as in ast.c, whose nodes these are.
 */
#include <stdlib.h>
#include <string.h>

#include "parse.h"

/* ---- declaration specifiers ---- */

/* The first keyword of a declaration: always a type on its own. */
struct keywords keywords_start(int kw)
{
	struct keywords s = { { 0 }, 0 };

	s.count[kw] = 1;
	return s;
}

struct keywords keywords_add(struct parse_state *ps, struct keywords prev,
			     int kw, struct loc loc)
{
	struct keywords s = prev;
	const unsigned char *n = s.count;
	int types;

	if (s.count[kw] < 3)
		s.count[kw]++;
	types = n[K_VOID] + n[K_BOOL] + n[K_CHAR] + n[K_INT] + n[K_FLOAT] +
		n[K_DOUBLE];
	if (n[K_LONG] > 2)
		parse_error(ps, loc, "'long long long' is too long");
	else if (n[K_SIGNED] && n[K_UNSIGNED])
		parse_error(
			ps, loc,
			"both 'signed' and 'unsigned' in declaration specifiers");
	else if (types > 1 || n[K_SHORT] > 1 || n[K_SIGNED] > 1 ||
		 n[K_UNSIGNED] > 1)
		parse_error(ps, loc,
			    "two or more data types in declaration specifiers");
	else if (n[K_SHORT] && n[K_LONG])
		parse_error(ps, loc,
			    "both 'long' and 'short' in declaration specifiers");
	else if ((n[K_VOID] || n[K_BOOL] || n[K_FLOAT]) &&
		 (n[K_SHORT] || n[K_LONG] || n[K_SIGNED] || n[K_UNSIGNED]))
		parse_error(ps, loc, "invalid combination of type specifiers");
	else if ((n[K_CHAR] && (n[K_SHORT] || n[K_LONG])) ||
		 (n[K_DOUBLE] && (n[K_SHORT] || n[K_LONG] > 1 || n[K_SIGNED] ||
				  n[K_UNSIGNED])))
		parse_error(ps, loc, "invalid combination of type specifiers");
	else
		return s;
	/* Reported once: the type becomes plain int from here on. */
	memset(&s, 0, sizeof(s));
	s.count[K_INT] = 1;
	s.quals = prev.quals;
	return s;
}

struct keywords keywords_qualify(struct keywords s, unsigned quals)
{
	s.quals |= quals;
	return s;
}

/* The base type the keywords name: canonical whatever the spelling. */
struct type *type_from_keywords(struct parse_state *ps, struct keywords s,
				unsigned quals)
{
	const unsigned char *n = s.count;
	int uns = n[K_UNSIGNED];
	struct type *t;
	enum base b;

	quals |= s.quals;
	if (n[K_VOID])
		b = B_VOID;
	else if (n[K_BOOL])
		b = B_BOOL;
	else if (n[K_FLOAT])
		b = B_FLOAT;
	else if (n[K_DOUBLE])
		b = n[K_LONG] ? B_LDOUBLE : B_DOUBLE;
	else if (n[K_CHAR])
		b = uns ? B_UCHAR : n[K_SIGNED] ? B_SCHAR : B_CHAR;
	else if (n[K_SHORT])
		b = uns ? B_USHORT : B_SHORT;
	else if (n[K_LONG] == 2)
		b = uns ? B_ULLONG : B_LLONG;
	else if (n[K_LONG] == 1)
		b = uns ? B_ULONG : B_LONG;
	else
		b = uns ? B_UINT : B_INT;
	if (!quals && ps->base_types[b])
		return ps->base_types[b];
	t = type_new(ps, T_BASE);
	t->base = b;
	t->quals = quals;
	if (!quals)
		ps->base_types[b] = t;
	return t;
}

struct type *type_named(struct parse_state *ps, char *name, unsigned quals,
			struct loc loc)
{
	struct type *t = type_new(ps, T_NAMED);
	const struct loc *macro =
		ps->macros.slots ? name_set_find(&ps->macros, name) : NULL;

	if (macro && !ps->types_unused) {
		parse_warning(ps, loc,
			      "'%s' is a macro, which is not expanded without -C",
			      name);
		parse_note(ps, *macro, "'%s' is defined here", name);
	}

	t->name = name;
	t->quals = quals;
	t->d_type = d_type_lookup(name);
	return t;
}

struct type *type_string(struct parse_state *ps, unsigned quals)
{
	struct type *t = type_new(ps, T_STRING);

	t->quals = quals;
	return t;
}

struct type *type_tagged(struct parse_state *ps, int kind, char *tag)
{
	struct type *t = type_new(ps, (enum type_kind)kind);

	t->name = tag;
	if (tag && kind != T_ENUM)
		ps->prog->ntags++;
	return t;
}

/* Only for nodes the grammar has just made, never shared ones. */
struct type *type_qualify(struct type *t, unsigned quals)
{
	t->quals |= quals;
	return t;
}

/* ---- a typedef's mode attribute ---- */

int attribute_mode(const char *m)
{
	static const struct {
		const char *name;
		int size;
	} modes[] = {
		{ "QI", 1 }, { "HI", 2 },	    { "SI", 4 },
		{ "DI", 8 }, { "word", MODE_WORD }, { "pointer", MODE_WORD },
	};
	size_t i, n;

	m += strspn(m, "_");
	n = strcspn(m, "_");
	for (i = 0; i < ARRAY_SIZE(modes); i++)
		if (strlen(modes[i].name) == n &&
		    strncmp(m, modes[i].name, n) == 0)
			return modes[i].size;
	return MODE_UNKNOWN;
}

struct type *type_mode(struct parse_state *ps, struct type *base,
		       struct loc loc)
{
	static const enum base by_size[][2] = {
		[1] = { B_SCHAR, B_UCHAR },
		[2] = { B_SHORT, B_USHORT },
		[4] = { B_INT, B_UINT },
		[8] = { B_LLONG, B_ULLONG },
	};
	int uns, mode = ps->mode;
	struct type *t;

	ps->mode = 0;
	if (!mode)
		return base;
	if (mode == MODE_UNKNOWN || base->kind != T_BASE ||
	    !base_types[base->base].is_integer) {
		parse_warning(
			ps, loc,
			"mode attribute ignored: it names no integer size probegen knows");
		return base;
	}
	uns = base_types[base->base].sign == 0;
	t = type_new(ps, T_BASE);
	t->quals = base->quals;
	/* A word is a long on every target probegen knows. */
	if (mode == MODE_WORD)
		t->base = uns ? B_ULONG : B_LONG;
	else
		t->base = by_size[mode][uns];
	return t;
}
