/*
 * compiler/check.c - judge the parsed program.  Everything a user can get wrong
 * that the grammar cannot see is reported here, all of it in one run:
 * limits, duplicates, argument mappings, and generated names that would
 * collide.  Prints diagnostics; changes and writes nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "naming.h"

static void check_name_length(const char *what, const char *name,
			      struct loc loc)
{
	if (strlen(name) > MAX_NAME_LEN)
		error_at(loc, "%s name '%.20s...' is longer than %d characters",
			 what, name, MAX_NAME_LEN);
}

/* What is wrong with one argument's type, if anything. */
enum param_fault { FAULT_NONE, FAULT_TOO_DEEP, FAULT_VOID };

static enum param_fault param_fault(const struct program *prog,
				    const struct param *p)
{
	if (type_depth(prog, p->type) > MAX_TYPE_DEPTH)
		return FAULT_TOO_DEEP;
	if (p->type->kind == T_BASE && p->type->base == B_VOID)
		return FAULT_VOID;
	return FAULT_NONE;
}

int check_arguments_ok(const struct program *prog, const struct probe *pr)
{
	const struct param *p;

	if (pr->varargs || pr->has_mapping || pr->nnative > MAX_PROBE_ARGS)
		return 0;
	for_each_param(pr->native, p)
		if (param_fault(prog, p) != FAULT_NONE)
			return 0;
	return 1;
}

static void check_params(const struct program *prog, const struct probe *pr,
			 const struct param *list, int count, const char *which,
			 int unique_names)
{
	const struct param *p, *q;
	int i = 0;

	if (count > MAX_PROBE_ARGS) {
		/* Judging each of them would say nothing more, and the name
		 * check below is quadratic: hostile input stops here. */
		error_at(pr->loc,
			 "probe '%s' has %d %sarguments; at most %d are supported",
			 pr->name, count, which, MAX_PROBE_ARGS);
		return;
	}
	for_each_param(list, p) {
		i++;
		switch (param_fault(prog, p)) {
		case FAULT_TOO_DEEP:
			error_at(p->loc,
				 "type of argument %d of probe '%s' is nested more than %d levels deep",
				 i, pr->name, MAX_TYPE_DEPTH);
			break;
		case FAULT_VOID:
			error_at(p->loc,
				 "argument %d of probe '%s' has type 'void'", i,
				 pr->name);
			break;
		case FAULT_NONE:
			break;
		}
		if (!p->name || !unique_names)
			continue;
		/* At most 12 names: comparing each with those before is enough. */
		for (q = list; q != p; q = q->next) {
			/* SystemTap accepts these; the names reach no output. */
			if (q->name && strcmp(q->name, p->name) == 0) {
				warning_at(p->loc,
					   "duplicate argument name '%s' in probe '%s'",
					   p->name, pr->name);
				break;
			}
		}
	}
}

static const struct param *find_native(const struct probe *pr, const char *name)
{
	const struct param *p;

	for_each_param(pr->native, p)
		if (p->name && strcmp(p->name, name) == 0)
			return p;
	return NULL;
}

static void check_mapping(const struct probe *pr)
{
	const struct param *p;
	int i = 0;

	for_each_param(pr->mapping, p) {
		i++;
		if (!p->name)
			error_at(p->loc,
				 "translated argument %d of probe '%s' has no name",
				 i, pr->name);
		else if (!find_native(pr, p->name))
			error_at(p->loc,
				 "'%s' is not a native argument of probe '%s'",
				 p->name, pr->name);
	}
}

/* Tracers read integers and pointers of 1, 2, 4 or 8 bytes.  The sites
 * pass the native arguments (an argument mapping only shows in the
 * comment), so those are the ones judged. */
static void check_readable(const struct program *prog, const struct probe *pr,
			   const struct target *tg)
{
	const struct param *p;
	struct buf t = { 0 };
	int i = 0;

	for_each_param(pr->native, p) {
		struct arg_read r = type_arg_read(prog, p->type, tg);

		i++;
		if (!arg_read_unreadable(&r))
			continue;
		t.len = 0;
		type_print_d(&t, p->type, NULL);
		if (r.kind == ARG_FLOAT)
			warning_at(p->loc,
				   "argument %d of probe '%s' has floating type '%s', which bpftrace and bcc cannot read",
				   i, pr->name, t.data);
		else if (r.kind == ARG_BY_VALUE)
			warning_at(p->loc,
				   "argument %d of probe '%s' is a '%s' passed by value; tracers can read only integers and pointers",
				   i, pr->name, t.data);
		else
			warning_at(p->loc,
				   "argument %d of probe '%s' has type '%s' of %d bytes; tracers read at most 8",
				   i, pr->name, t.data, r.size);
	}
	buf_free(&t);
}

static void check_collisions(struct name_set *set, const struct probe *pr)
{
	const struct probe_names *n = pr->names;
	const char *names[] = { n->macro, n->enabled, n->lazy, n->typed,
				n->semaphore };
	size_t lens[] = { n->macro_len, n->enabled_len, n->lazy_len,
			  n->typed_len, n->semaphore_len };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct probe *other =
			name_set_add(set, names[i], lens[i], pr);

		if (other) {
			error_at(pr->loc,
				 "probes '%s:%s' and '%s:%s' both generate '%s'",
				 other->provider->name, other->name,
				 pr->provider->name, pr->name, names[i]);
			note_at(other->loc, "'%s:%s' declared here",
				other->provider->name, other->name);
			break;
		}
	}
}

/* A known type name that the unknown name looks like a typo of. */
static const char *type_suggestion(const struct program *prog, const char *name)
{
	static const char *const keywords[] = { "char",	  "short",  "int",
						"long",	  "signed", "unsigned",
						"float",  "double", "void",
						"string", "_Bool" };
	const struct typedef_decl *td;
	const char *d;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keywords); i++)
		if (likely_typo(name, keywords[i]))
			return keywords[i];
	for (i = 0; (d = d_type_name((int)i)); i++)
		if (likely_typo(name, d))
			return d;
	for (td = prog->typedefs; td; td = td->next)
		if (likely_typo(name, td->name))
			return td->name;
	return NULL;
}

/* A type name neither D nor the file declares is the program's own (as
 * SystemTap takes it), unless it looks like a typo of one that is. */
static void check_type_names(const struct program *prog, const struct probe *pr,
			     int *noted)
{
	const struct param *p;
	const struct type *t;

	for_each_param(pr->native, p) {
		for (t = p->type; t; t = t->inner) {
			const char *like;

			if (t->kind != T_NAMED || t->d_type >= 0 ||
			    named_typedef(prog, t))
				continue;
			like = type_suggestion(prog, t->name);
			if (!like)
				continue;
			warning_at(p->type_loc,
				   "unknown type '%s' (did you mean '%s'?)",
				   t->name, like);
			/* Once a run: the same for every such name. */
			if (!(*noted)++)
				note_at(p->type_loc,
					"a type of the program's own needs no declaration here: typed calls check it with PROBEGEN_USER_TYPES defined");
		}
	}
}

/* Does type t, or what it points to, returns or holds, name n? */
static int type_uses(const struct type *t, const char *n, int depth)
{
	const struct param *p;

	for (; t && depth < MAX_TYPE_DEPTH; t = t->inner, depth++) {
		if (t->name && strcmp(t->name, n) == 0)
			return 1;
		for_each_param(t->params, p)
			if (type_uses(p->type, n, depth + 1))
				return 1;
	}
	return 0;
}

static const struct probe *probe_using(const struct program *prog,
				       const char *name)
{
	const struct provider *pv;
	const struct probe *pr;
	const struct param *p;

	for_each_provider(prog, pv)
		for_each_probe(pv, pr)
			for_each_param(pr->native, p)
				if (type_uses(p->type, name, 0))
					return pr;
	return NULL;
}

/* A declaration the parser could not read is skipped, as SystemTap's
 * fallback parser skips it, unless a probe needs what it declares. */
static void check_skipped(const struct program *prog)
{
	const struct skipped_decl *d;

	for (d = prog->skipped; d; d = d->next) {
		const struct probe *pr = d->name ? probe_using(prog, d->name)
						 : NULL;

		if (!d->ended)
			/* Unfinished at the end of its file: not skipped. */
			error_at(d->loc, "%s", d->why);
		else if (pr)
			error_at(d->loc,
				 "%s, in the declaration of '%s', which probe '%s' uses",
				 d->why, d->name, pr->name);
		else if (d->system)
			continue;
		else if (d->name)
			warning_at(d->loc,
				   "%s: the declaration of '%s' is skipped (no probe uses it)",
				   d->why, d->name);
		else
			warning_at(d->loc, "%s: a declaration is skipped",
				   d->why);
	}
}

void check_program(struct program *prog, const struct target *tg,
		   int readability)
{
	struct name_set names;
	const struct provider *pv;
	const struct probe *pr;
	int noted = 0;

	name_set_init(&names, 5 * (size_t)prog->nprobes);
	for_each_provider(prog, pv) {
		struct name_set probes;
		const struct probe *first;

		check_name_length("provider", pv->name, pv->loc);
		name_set_init(&probes, (size_t)pv->nprobes);
		for_each_probe(pv, pr) {
			check_name_length("probe", pr->name, pr->loc);
			first = name_set_add(&probes, pr->name,
					     strlen(pr->name), pr);
			/* program_complete() kept only those declared again
			   with other types. */
			if (first) {
				error_at(pr->loc,
					 "probe '%s:%s' declared again with other argument types",
					 pv->name, pr->name);
				note_at(first->loc,
					"previous declaration of '%s' was here",
					pr->name);
				continue;
			}
			if (pr->varargs)
				error_at(pr->varargs_loc,
					 "probe '%s' cannot take a variable number of arguments",
					 pr->name);
			check_params(prog, pr, pr->native, pr->nnative, "", 1);
			if (pr->has_mapping) {
				/* (i, j) : (j, i, i, j) may repeat names. */
				check_params(prog, pr, pr->mapping,
					     pr->nmapping, "translated ", 0);
				/* Quadratic: only within the limit. */
				if (pr->nmapping <= MAX_PROBE_ARGS &&
				    pr->nnative <= MAX_PROBE_ARGS)
					check_mapping(pr);
			}
			if (readability) {
				check_readable(prog, pr, tg);
				check_type_names(prog, pr, &noted);
			}
			check_collisions(&names, pr);
		}
		name_set_free(&probes);
	}
	name_set_free(&names);
	check_skipped(prog);
	prog->checked = 1;
}
