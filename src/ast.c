/*
 * ast.c - the tree: types, parameters, probes, providers, typedefs.
 * The parser's actions are one-line calls into this file.  Parameters,
 * probes, providers and typedefs keep their source positions (messages
 * point at them; types carry none).  All nodes and strings live in the
 * program's arena: nothing is freed one by one, program_free() frees all.
 */
#include <stdlib.h>
#include <string.h>

#include "parse.h"

static struct type *type_new(struct parse_state *ps, enum type_kind kind)
{
	struct type *t = arena_alloc(&ps->prog->arena, sizeof(*t));

	t->kind = (unsigned char)kind;
	return t;
}

/* A deep copy, for a typedef's base shared by several declarators. */
static struct type *type_copy(struct parse_state *ps, const struct type *t)
{
	struct type *c;
	struct param *p, **tail;

	if (!t)
		return NULL;
	c = arena_alloc(&ps->prog->arena, sizeof(*c));
	*c = *t;
	c->inner = type_copy(ps, t->inner);
	c->params = NULL;
	tail = &c->params;
	for_each_param(t->params, p) {
		struct param *q = arena_alloc(&ps->prog->arena, sizeof(*q));

		q->type = type_copy(ps, p->type);
		q->name = p->name;
		q->loc = p->loc;
		*tail = q;
		tail = &q->next;
	}
	return c;
}

/* ---- declaration specifiers ---- */

/* The first keyword of a declaration: always a type on its own. */
struct specs specs_start(int kw)
{
	struct specs s = { { 0 }, 0 };

	s.count[kw] = 1;
	return s;
}

struct specs specs_keyword(struct parse_state *ps, struct specs prev, int kw,
			    struct loc loc)
{
	struct specs s = prev;
	const unsigned char *n = s.count;
	int types;

	if (s.count[kw] < 3)
		s.count[kw]++;
	types = n[K_VOID] + n[K_BOOL] + n[K_CHAR] + n[K_INT] + n[K_FLOAT] +
		n[K_DOUBLE];
	if (n[K_LONG] > 2)
		parse_error(ps, loc, "'long long long' is too long");
	else if (n[K_SIGNED] && n[K_UNSIGNED])
		parse_error(ps, loc, "both 'signed' and 'unsigned' in declaration specifiers");
	else if (types > 1 || n[K_SHORT] > 1 || n[K_SIGNED] > 1 ||
		 n[K_UNSIGNED] > 1)
		parse_error(ps, loc, "two or more data types in declaration specifiers");
	else if (n[K_SHORT] && n[K_LONG])
		parse_error(ps, loc, "both 'long' and 'short' in declaration specifiers");
	else if ((n[K_VOID] || n[K_BOOL] || n[K_FLOAT]) &&
		 (n[K_SHORT] || n[K_LONG] || n[K_SIGNED] || n[K_UNSIGNED]))
		parse_error(ps, loc, "invalid combination of type specifiers");
	else if ((n[K_CHAR] && (n[K_SHORT] || n[K_LONG])) ||
		 (n[K_DOUBLE] &&
		  (n[K_SHORT] || n[K_LONG] > 1 || n[K_SIGNED] || n[K_UNSIGNED])))
		parse_error(ps, loc, "invalid combination of type specifiers");
	else
		return s;
	/* Reported once: the type becomes plain int from here on. */
	memset(&s, 0, sizeof(s));
	s.count[K_INT] = 1;
	s.quals = prev.quals;
	return s;
}

struct specs specs_qualify(struct specs s, unsigned quals)
{
	s.quals |= (unsigned char)quals;
	return s;
}

/* The base type the keywords name: canonical whatever the spelling. */
struct type *type_from_keywords(struct parse_state *ps, struct specs s,
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
	t->base = (unsigned char)b;
	t->quals = (unsigned char)quals;
	if (!quals)
		ps->base_types[b] = t;
	return t;
}

struct type *type_named(struct parse_state *ps, char *name, unsigned quals,
			struct loc loc)
{
	struct type *t = type_new(ps, T_NAMED);
	const struct loc *macro = ps->macros.slots ?
		name_set_find(&ps->macros, name) : NULL;

	if (macro) {
		parse_warning(ps, loc, "'%s' is a macro, which is not expanded without -C", name);
		parse_note(ps, *macro, "'%s' is defined here", name);
	}

	t->name = name;
	t->quals = (unsigned char)quals;
	t->d_type = (short)d_type_lookup(name);
	return t;
}

struct type *type_string(struct parse_state *ps, unsigned quals)
{
	struct type *t = type_new(ps, T_STRING);

	t->quals = (unsigned char)quals;
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
	t->quals |= (unsigned char)quals;
	return t;
}

/* ---- declarators ---- */

/* The last node of a declarator's chain: its inner is the hole.  The
 * chain never grows past MAX_TYPE_DEPTH + 1 nodes (see chain_add), so
 * this walk is short however deep the input nests. */
static struct type *chain_end(struct type *t, int *length)
{
	int n = 1;

	while (t->inner) {
		t = t->inner;
		n++;
	}
	if (length)
		*length = n;
	return t;
}

/* Add a pointer, array or function node at the hole.  Past the depth
 * any type may have, nodes are dropped: the checker still sees a type
 * too deep and says so, and `int x[1][1]...` stays linear in time. */
static void chain_add(struct type **chain, struct type *node)
{
	struct type *end;
	int n;

	if (!*chain) {
		*chain = node;
		return;
	}
	end = chain_end(*chain, &n);
	if (n <= MAX_TYPE_DEPTH)
		end->inner = node;
}

static void declarator_insert(struct param *d, struct type *node)
{
	chain_add(&d->type, node);
}

struct type *pointer_new(struct parse_state *ps, struct type *rest,
			 unsigned quals)
{
	struct type *t = type_new(ps, T_POINTER);

	t->quals = (unsigned char)quals;
	chain_add(&rest, t);
	return rest;
}

static struct param *param_new(struct parse_state *ps, struct loc loc)
{
	struct param *p = arena_alloc(&ps->prog->arena, sizeof(*p));

	p->loc = loc;
	return p;
}

struct param *declarator_name(struct parse_state *ps, char *name,
			      struct loc loc)
{
	struct param *d = param_new(ps, loc);

	d->name = name;
	return d;
}

struct param *declarator_abstract(struct parse_state *ps, struct type *ptr,
				  struct loc loc)
{
	struct param *d = param_new(ps, loc);

	d->type = ptr;
	return d;
}

struct param *declarator_pointer(struct param *d, struct type *ptr,
				 struct loc ptr_loc)
{
	declarator_insert(d, ptr);
	if (!d->name)
		d->loc = ptr_loc;
	return d;
}

struct param *declarator_array(struct parse_state *ps, struct param *d,
			       struct loc loc)
{
	if (!d)
		d = param_new(ps, loc);
	declarator_insert(d, type_new(ps, T_ARRAY));
	return d;
}

/* The types of the params that stand for '...' in a list being read,
 * and for the `: (...)` around a mapping (which may be empty). */
static struct type varargs_mark, mapping_mark;

static int is_varargs(const struct param *p)
{
	return p && p->type == &varargs_mark;
}

/* Put a reversed list in order; count it, and drop the '...' marker,
 * which can only be first in the reversed list. */
static struct param *params_finish(struct param *rev, int *count,
				   struct loc *varargs_loc)
{
	struct param *list = NULL, *next;
	int n = 0;

	if (is_varargs(rev)) {
		if (varargs_loc)
			*varargs_loc = rev->loc;
		rev = rev->next;
	}
	for (; rev; rev = next) {
		next = rev->next;
		rev->next = list;
		list = rev;
		n++;
	}
	if (count)
		*count = n;
	return list;
}

struct param *declarator_function(struct parse_state *ps, struct param *d,
				  struct param *params)
{
	struct type *t = type_new(ps, T_FUNC);

	t->varargs = (unsigned char)is_varargs(params);
	t->params = params_finish(params, NULL, NULL);
	declarator_insert(d, t);
	return d;
}

/* ---- parameters ---- */

struct param *param_make(struct parse_state *ps, struct type *base,
			 struct param *d, struct loc loc)
{
	if (!d)
		d = param_new(ps, loc);
	else if (!d->name)
		d->loc = loc;
	if (d->type)
		chain_end(d->type, NULL)->inner = base; /* always: no hole left */
	else
		d->type = base;
	return d;
}

struct param *params_push(struct param *list, struct param *p)
{
	p->next = list;
	return p;
}

static struct param *push_mark(struct parse_state *ps, struct param *list,
				struct type *mark, struct loc loc)
{
	struct param *p = param_new(ps, loc);

	p->type = mark;
	return params_push(list, p);
}

struct param *params_varargs(struct parse_state *ps, struct param *list,
			     struct loc loc)
{
	return push_mark(ps, list, &varargs_mark, loc);
}

struct param *params_mapping(struct parse_state *ps, struct param *list,
			     struct loc loc)
{
	return push_mark(ps, list, &mapping_mark, loc);
}

/* ---- probes and providers ---- */

static int is_plain_void(const struct param *p)
{
	return p && !p->next && !p->name && p->type->kind == T_BASE &&
	       p->type->base == B_VOID && !p->type->quals;
}

/* A declaration inside an #if block that, without -C, is not read. */
static void inside_if(struct parse_state *ps)
{
	if (!ps->if_depth || ps->if_warned)
		return;
	ps->if_warned = 1;
	parse_warning(ps, ps->if_loc, "'#if' block ignored without -C: the declarations inside it are compiled whatever it says");
}

struct probe *probe_new(struct parse_state *ps, char *name, struct loc loc,
			struct param *native, struct param *mapping)
{
	struct probe *pr = arena_alloc(&ps->prog->arena, sizeof(*pr));
	int has_mapping = mapping != NULL;

	inside_if(ps);
	if (mapping)
		mapping = mapping->next; /* the mapping's mark */

	pr->name = name;
	pr->loc = loc;
	pr->doc = ps->probe_doc;
	ps->probe_doc = NULL;
	/* The first '...' is the one reported. */
	if (is_varargs(mapping) || is_varargs(native))
		pr->varargs = 1;
	pr->mapping = params_finish(mapping, &pr->nmapping, &pr->varargs_loc);
	pr->native = params_finish(native, &pr->nnative, &pr->varargs_loc);
	pr->has_mapping = has_mapping;
	/* `(void)` declares no arguments, as in C. */
	if (is_plain_void(pr->native)) {
		pr->native = NULL;
		pr->nnative = 0;
	}
	if (is_plain_void(pr->mapping)) {
		pr->mapping = NULL;
		pr->nmapping = 0;
	}
	return pr;
}

struct probe *probes_push(struct probe *list, struct probe *pr)
{
	pr->next = list;
	return pr;
}

/* A provider may be declared in several blocks, in one file or several
 * (QEMU splits provider qemu over 127 files): the first block makes it,
 * later ones add their probes after its own. */
void provider_add(struct parse_state *ps, char *name, struct loc loc,
		  struct probe *probes)
{
	struct provider *pv;
	struct probe *pr, *next, *list = NULL, **tail;
	int n = 0;

	pv = (struct provider *)name_set_find(&ps->providers, name);
	if (!pv) {
		pv = arena_alloc(&ps->prog->arena, sizeof(*pv));
		pv->name = name;
		name_set_add(&ps->providers, name, strlen(name), pv);
		pv->loc = loc;
		*ps->provider_tail = pv;
		ps->provider_tail = &pv->next;
		ps->prog->nproviders++;
	}
	for (pr = probes; pr; pr = next) {
		next = pr->next;
		pr->next = list;
		pr->provider = pv;
		list = pr;
		n++;
	}
	if (list) {
		tail = pv->probes ? &pv->last->next : &pv->probes;
		*tail = list;
		for (pr = list; pr->next; pr = pr->next)
			;
		pv->last = pr;
	}
	pv->nprobes += n;
	ps->prog->nprobes += n;
}

void provider_unnamed(struct parse_state *ps, struct loc loc)
{
	parse_error(ps, loc, "expected provider name before '{'");
}

void probe_outside(struct parse_state *ps, struct probe *pr)
{
	(void)ps;
	parse_error(ps, pr->loc, "probe '%s' declared outside a provider", pr->name);
}

/* CPython's configure runs -G on `BEGIN{}` and wants an object. */
void clause_ignored(struct parse_state *ps, const char *name, struct loc loc)
{
	/* A system header's inline functions are not the user's clauses. */
	if (!ps->system_header)
		parse_warning(ps, loc, "ignoring D program clause '%s': probegen compiles provider definitions only",
			   name);
}

int attribute_mode(const char *m)
{
	static const struct {
		const char *name;
		int size;
	} modes[] = {
		{ "QI", 1 }, { "HI", 2 }, { "SI", 4 }, { "DI", 8 },
		{ "word", MODE_WORD }, { "pointer", MODE_WORD },
	};
	size_t i, n;

	m += strspn(m, "_");
	n = strcspn(m, "_");
	for (i = 0; i < ARRAY_SIZE(modes); i++)
		if (strlen(modes[i].name) == n && strncmp(m, modes[i].name, n) == 0)
			return modes[i].size;
	return MODE_UNKNOWN;
}

struct type *type_mode(struct parse_state *ps, struct type *base,
		       struct loc loc)
{
	static const enum base by_size[][2] = {
		[1] = { B_SCHAR, B_UCHAR }, [2] = { B_SHORT, B_USHORT },
		[4] = { B_INT, B_UINT }, [8] = { B_LLONG, B_ULLONG },
	};
	int uns, mode = ps->mode;
	struct type *t;

	ps->mode = 0;
	if (!mode)
		return base;
	if (mode == MODE_UNKNOWN || base->kind != T_BASE ||
	    base->base < B_CHAR || base->base > B_ULLONG) {
		parse_warning(ps, loc, "mode attribute ignored: it names no integer size probegen knows");
		return base;
	}
	uns = base->base == B_UCHAR || base->base == B_USHORT || base->base == B_UINT ||
	      base->base == B_ULONG || base->base == B_ULLONG;
	t = type_new(ps, T_BASE);
	t->quals = base->quals;
	/* A word is a long on every target probegen knows. */
	if (mode == MODE_WORD)
		t->base = (unsigned char)(uns ? B_ULONG : B_LONG);
	else
		t->base = (unsigned char)by_size[mode][uns];
	return t;
}

void typedef_add(struct parse_state *ps, struct type *base,
		 struct param *decls)
{
	struct param *p;

	inside_if(ps);
	for (p = params_finish(decls, NULL, NULL); p; p = p->next) {
		struct typedef_decl *td = arena_alloc(&ps->prog->arena,
						      sizeof(*td));

		if (p->type)
			chain_end(p->type, NULL)->inner = type_copy(ps, base);
		else
			p->type = type_copy(ps, base);
		td->name = p->name;
		td->type = p->type;
		td->loc = p->loc;
		*ps->typedef_tail = td;
		ps->typedef_tail = &td->next;
		if (!ps->prog->typedef_names.slots)
			name_set_init(&ps->prog->typedef_names, 16);
		if (td->name) /* the first of a name is the one used */
			name_set_add(&ps->prog->typedef_names, td->name,
				     strlen(td->name), td);
	}
}
