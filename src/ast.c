/*
 * ast.c - the tree: types, parameters, probes, providers, typedefs.
 * The parser's actions are one-line calls into this file.  Every node
 * keeps its source position.  All nodes and strings live in the
 * program's arena: nothing is freed one by one, program_free() frees all.
 */
#include <stdlib.h>
#include <string.h>

#include "probegen.h"

static struct type *type_new(struct parse_state *ps, enum type_kind kind,
			     struct loc loc)
{
	struct type *t = arena_alloc(&ps->prog->arena, sizeof(*t));

	t->kind = kind;
	t->loc = loc;
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

struct specs specs_keyword(const struct specs *prev, int kw, struct loc loc)
{
	struct specs s = { 0 };

	if (prev)
		s = *prev;
	else
		s.loc = loc;
	switch (kw) {
	case K_VOID: s.nvoid++; break;
	case K_BOOL: s.nbool++; break;
	case K_CHAR: s.nchar++; break;
	case K_SHORT: s.nshort++; break;
	case K_INT: s.nint++; break;
	case K_LONG: s.nlong++; break;
	case K_SIGNED: s.nsigned++; break;
	case K_UNSIGNED: s.nunsigned++; break;
	case K_FLOAT: s.nfloat++; break;
	case K_DOUBLE: s.ndouble++; break;
	}
	if (s.nlong > 2)
		error_at(loc, "'long long long' is too long");
	else if (s.nsigned && s.nunsigned)
		error_at(loc, "both 'signed' and 'unsigned' in declaration specifiers");
	else if (s.nvoid + s.nbool + s.nchar + s.nint + s.nfloat + s.ndouble > 1
		 || s.nshort > 1 || s.nsigned > 1 || s.nunsigned > 1)
		error_at(loc, "two or more data types in declaration specifiers");
	else if (s.nshort && s.nlong)
		error_at(loc, "both 'long' and 'short' in declaration specifiers");
	else if ((s.nvoid || s.nbool || s.nfloat) &&
		 (s.nshort || s.nlong || s.nsigned || s.nunsigned))
		error_at(loc, "invalid combination of type specifiers");
	else if ((s.nchar && (s.nshort || s.nlong)) ||
		 (s.ndouble && (s.nshort || s.nlong > 1 || s.nsigned ||
				s.nunsigned)))
		error_at(loc, "invalid combination of type specifiers");
	else
		return s;
	/* Reported once: the type becomes plain int from here on. */
	memset(&s, 0, sizeof(s));
	s.nint = 1;
	s.loc = loc;
	return s;
}

struct specs specs_from_type(struct type *t, unsigned quals)
{
	struct specs s = { 0 };

	s.type = t;
	s.quals = quals;
	s.loc = t->loc;
	return s;
}

/* The base type the specifiers name: canonical whatever the spelling. */
static struct type *specs_type(struct parse_state *ps, struct specs *s)
{
	struct type *t;
	enum base b;

	if (s->type) {
		t = s->type;
		s->type = NULL;
		t->quals |= s->quals;
		return t;
	}
	if (s->nvoid)
		b = B_VOID;
	else if (s->nbool)
		b = B_BOOL;
	else if (s->nfloat)
		b = B_FLOAT;
	else if (s->ndouble)
		b = s->nlong ? B_LDOUBLE : B_DOUBLE;
	else if (s->nchar)
		b = s->nunsigned ? B_UCHAR : s->nsigned ? B_SCHAR : B_CHAR;
	else if (s->nshort)
		b = s->nunsigned ? B_USHORT : B_SHORT;
	else if (s->nlong == 2)
		b = s->nunsigned ? B_ULLONG : B_LLONG;
	else if (s->nlong == 1)
		b = s->nunsigned ? B_ULONG : B_LONG;
	else
		b = s->nunsigned ? B_UINT : B_INT;
	t = type_new(ps, T_BASE, s->loc);
	t->base = b;
	t->quals = s->quals;
	return t;
}

struct type *type_named(struct parse_state *ps, char *name, unsigned quals,
			 struct loc loc)
{
	struct type *t = type_new(ps, T_NAMED, loc);

	t->name = name;
	t->quals = quals;
	return t;
}

struct type *type_string(struct parse_state *ps, unsigned quals,
			  struct loc loc)
{
	struct type *t = type_new(ps, T_STRING, loc);

	t->quals = quals;
	return t;
}

struct type *type_tagged(struct parse_state *ps, int kind, char *tag,
			  struct loc loc)
{
	struct type *t = type_new(ps, (enum type_kind)kind, loc);

	t->name = tag;
	return t;
}

/* ---- declarators ---- */

static void declarator_insert(struct declarator *d, struct type *node)
{
	if (d->innermost)
		d->innermost->inner = node;
	else
		d->top = node;
	d->innermost = node;
}

struct declarator declarator_name(char *name, struct loc loc)
{
	struct declarator d = { NULL, NULL, name, loc };

	return d;
}

struct declarator declarator_star(struct parse_state *ps,
				  struct declarator *rest, unsigned quals,
				  struct loc loc)
{
	struct declarator d = { 0 };
	struct type *t = type_new(ps, T_POINTER, loc);

	t->quals = quals;
	if (rest)
		d = *rest;
	else
		d.loc = loc;
	/* A '*' further left is closer to the base type. */
	declarator_insert(&d, t);
	return d;
}

struct declarator declarator_pointer(struct declarator *d,
				     struct declarator *ptr)
{
	struct declarator r = *d;

	if (ptr->top) {
		if (r.innermost)
			r.innermost->inner = ptr->top;
		else
			r.top = ptr->top;
		r.innermost = ptr->innermost;
	}
	if (!r.name)
		r.loc = ptr->loc;
	return r;
}

struct declarator declarator_array(struct parse_state *ps,
				   struct declarator *d, struct loc loc)
{
	struct declarator r = { 0 };

	if (d)
		r = *d;
	else
		r.loc = loc;
	declarator_insert(&r, type_new(ps, T_ARRAY, loc));
	return r;
}

struct declarator declarator_function(struct parse_state *ps,
				      struct declarator *d,
				      struct param_list *params,
				      struct loc loc)
{
	struct declarator r = *d;
	struct type *t = type_new(ps, T_FUNC, loc);

	t->params = params->head;
	t->varargs = params->varargs;
	declarator_insert(&r, t);
	return r;
}

/* Put the base type into the declarator's hole. */
static struct type *declarator_apply(struct declarator *d, struct type *base)
{
	if (!d || !d->top)
		return base;
	d->innermost->inner = base;
	return d->top;
}

/* ---- parameters ---- */

struct param_list param_make(struct parse_state *ps, struct specs *s,
			     struct declarator *d, struct loc loc)
{
	struct param_list list = { 0 };
	struct param *p = arena_alloc(&ps->prog->arena, sizeof(*p));

	p->type = declarator_apply(d, specs_type(ps, s));
	p->loc = loc;
	if (d) {
		p->name = d->name;
		if (d->name)
			p->loc = d->loc;
	}
	list.head = list.last = p;
	list.count = 1;
	return list;
}

void params_append(struct param_list *list, struct param_list *more)
{
	if (!more->head)
		return;
	if (list->last)
		list->last->next = more->head;
	else
		list->head = more->head;
	list->last = more->last;
	list->count += more->count;
}

void params_varargs(struct param_list *list, struct loc loc)
{
	list->varargs = 1;
	list->varargs_loc = loc;
}

/* Typedef declarators carry no base yet: keep them as unnamed params
 * whose type has a hole, filled in typedef_add(). */
struct param_list params_from_declarator(struct parse_state *ps,
					 struct declarator *d)
{
	struct param_list list = { 0 };
	struct param *p = arena_alloc(&ps->prog->arena, sizeof(*p));

	p->name = d->name;
	p->loc = d->loc;
	p->type = d->top;
	/* Remember the hole: a T_ARRAY/T_POINTER/T_FUNC chain ends in NULL. */
	list.head = list.last = p;
	list.count = 1;
	return list;
}

void params_append_declarator(struct parse_state *ps, struct param_list *list,
			      struct declarator *d)
{
	struct param_list more = params_from_declarator(ps, d);

	params_append(list, &more);
}

/* ---- probes and providers ---- */

static int is_plain_void(const struct type *t)
{
	return t->kind == T_BASE && t->base == B_VOID && !t->quals;
}

struct probe *probe_new(struct parse_state *ps, char *name, struct loc loc,
			struct param_list *native, struct param_list *xlated)
{
	struct probe *pr = arena_alloc(&ps->prog->arena, sizeof(*pr));

	pr->name = name;
	pr->loc = loc;
	/* `(void)` declares no arguments, as in C. */
	if (native->count == 1 && !native->head->name &&
	    is_plain_void(native->head->type)) {
		native->head = NULL;
		native->count = 0;
	}
	if (xlated->count == 1 && !xlated->head->name &&
	    is_plain_void(xlated->head->type)) {
		xlated->head = NULL;
		xlated->count = 0;
	}
	pr->native = native->head;
	pr->nnative = native->count;
	pr->xlated = xlated->head;
	pr->nxlated = xlated->count;
	pr->has_xlated = xlated->present;
	if (native->varargs || xlated->varargs) {
		pr->varargs = 1;
		pr->varargs_loc = native->varargs ? native->varargs_loc
						  : xlated->varargs_loc;
	}
	return pr;
}

void probe_list_add(struct probe_list *list, struct probe *pr)
{
	if (list->last)
		list->last->next = pr;
	else
		list->head = pr;
	list->last = pr;
	list->count++;
}

void provider_add(struct parse_state *ps, char *name, struct loc loc,
		  struct probe_list *probes)
{
	struct provider *pv = arena_alloc(&ps->prog->arena, sizeof(*pv));
	struct probe *pr;

	pv->name = name;
	pv->loc = loc;
	pv->probes = probes->head;
	pv->nprobes = probes->count;
	for_each_probe(pv, pr)
		pr->provider = pv;
	*ps->provider_tail = pv;
	ps->provider_tail = &pv->next;
	ps->prog->nproviders++;
	ps->prog->nprobes += pv->nprobes;
}

void provider_unnamed(struct loc loc)
{
	error_at(loc, "expected provider name before '{'");
}

void probe_outside(struct parse_state *ps, struct probe *pr)
{
	(void)ps;
	error_at(pr->loc, "probe '%s' declared outside a provider", pr->name);
}

/* CPython's configure runs -G on `BEGIN{}` and wants an object. */
void clause_ignored(const char *name, struct loc loc)
{
	warning_at(loc, "ignoring D program clause '%s': probegen compiles provider definitions only",
		   name);
}

void typedef_add(struct parse_state *ps, struct specs *s,
		 struct param_list *decls)
{
	struct type *base = specs_type(ps, s);
	struct param *p;

	for (p = decls->head; p; p = p->next) {
		struct typedef_decl *td = arena_alloc(&ps->prog->arena,
						      sizeof(*td));
		struct type *t = p->type, *hole;

		if (t) {
			for (hole = t; hole->inner; hole = hole->inner)
				;
			hole->inner = type_copy(ps, base);
		} else {
			t = type_copy(ps, base);
		}
		td->name = p->name;
		td->type = t;
		td->loc = p->loc;
		*ps->typedef_tail = td;
		ps->typedef_tail = &td->next;
	}
}

struct param *probe_args(const struct probe *pr)
{
	return pr->has_xlated ? pr->xlated : pr->native;
}

int probe_nargs(const struct probe *pr)
{
	return pr->has_xlated ? pr->nxlated : pr->nnative;
}

int probe_arg_source(const struct probe *pr, int i)
{
	const struct param *x, *n;
	int j;

	if (!pr->has_xlated)
		return i;
	for (x = pr->xlated, j = 0; x && j < i; x = x->next)
		j++;
	for (n = pr->native, j = 0; n && x; n = n->next, j++)
		if (n->name && x->name && strcmp(n->name, x->name) == 0)
			return j;
	return 0; /* the checker has reported the unknown name */
}

void program_free(struct program *prog)
{
	if (!prog)
		return;
	arena_free(&prog->arena);
	free(prog);
}
