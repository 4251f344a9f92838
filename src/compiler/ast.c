/*
 * compiler/ast.c - the tree: declarators, parameters, probes, providers,
 * typedefs (the types their specifiers name: ast_types.c).  The parser's
 * actions are one-line calls into these two files.  Parameters,
 * probes, providers and typedefs keep their source positions (messages
 * point at them; types carry none).  All nodes and strings live in the
 * program's arena: nothing is freed one by one, program_free() frees all.
 */
#include <stdlib.h>
#include <string.h>

#include "parse.h"

struct type *type_new(struct parse_state *ps, enum type_kind kind)
{
	struct type *t = arena_alloc(&ps->prog->arena, sizeof(*t));

	t->kind = kind;
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

	t->quals = quals;
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

	t->varargs = is_varargs(params);
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
	d->type_loc = loc;
	if (d->type)
		chain_end(d->type, NULL)->inner =
			base; /* always: no hole left */
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
	parse_warning(
		ps, ps->if_loc,
		"'#if' block ignored without -C: the declarations inside it are compiled whatever it says");
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
	pr->doc_loc = ps->probe_doc_loc;
	pr->doc_in_lines = ps->probe_doc_in_lines;
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
	parse_error(ps, pr->loc, "probe '%s' declared outside a provider",
		    pr->name);
}

/* CPython's configure runs -G on `BEGIN{}` and wants an object. */
void clause_ignored(struct parse_state *ps, const char *name, struct loc loc)
{
	/* A system header's inline functions are not the user's clauses. */
	if (!ps->system_header)
		parse_warning(
			ps, loc,
			"ignoring D program clause '%s': probegen compiles provider definitions only",
			name);
}

void typedef_add(struct parse_state *ps, struct type *base, struct param *decls)
{
	struct param *p;

	inside_if(ps);
	for (p = params_finish(decls, NULL, NULL); p; p = p->next) {
		struct typedef_decl *td =
			arena_alloc(&ps->prog->arena, sizeof(*td));

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
