/*
 * compiler/program.c - the program as a whole, once parsed: finding a provider
 * or probe, completing it (a probe declared again with the same types
 * is one probe, with a warning when both are in one file), and freeing
 * it.  The nodes are built by ast.c (from the grammar) or
 * inspect/binary_program.c (from a binary).
 */
#include <stdlib.h>
#include <string.h>

#include "naming.h"

const struct provider *program_provider(const struct program *prog,
					const char *name)
{
	const struct provider *pv;

	if (prog)
		for_each_provider(prog, pv)
			if (strcmp(pv->name, name) == 0)
				return pv;
	return NULL;
}

const struct probe *program_probe(const struct program *prog,
				  const char *provider, const char *name)
{
	const struct provider *pv = program_provider(prog, provider);
	const struct probe *pr;

	if (pv)
		for_each_probe(pv, pr)
			if (strcmp(pr->name, name) == 0)
				return pr;
	return NULL;
}

static int same_type(const struct program *prog, const struct type *a,
		     const struct type *b);

static int same_params(const struct program *prog, const struct param *a,
		       const struct param *b)
{
	for (; a && b; a = a->next, b = b->next)
		if (!same_type(prog, a->type, b->type))
			return 0;
	return !a && !b;
}

/* The same type, the file's typedefs followed; names of parameters and
 * spellings of base types do not count. */
static int same_type(const struct program *prog, const struct type *a,
		     const struct type *b)
{
	a = type_resolve(prog, a);
	b = type_resolve(prog, b);
	if (a == b)
		return 1;
	if (a->kind != b->kind || a->quals != b->quals || a->base != b->base ||
	    a->varargs != b->varargs || a->d_type != b->d_type ||
	    !a->name != !b->name || (a->name && strcmp(a->name, b->name)))
		return 0;
	if (!a->inner != !b->inner ||
	    (a->inner && !same_type(prog, a->inner, b->inner)))
		return 0;
	return same_params(prog, a->params, b->params);
}

int probe_same_types(const struct program *prog, const struct probe *a,
		     const struct probe *b)
{
	return a->nnative == b->nnative &&
	       same_params(prog, a->native, b->native) &&
	       a->has_mapping == b->has_mapping &&
	       same_params(prog, a->mapping, b->mapping);
}

void program_complete(struct program *prog)
{
	struct provider *pv;
	struct probe **link;

	for_each_provider(prog, pv) {
		struct name_set seen;

		name_set_init(&seen, (size_t)pv->nprobes);
		for (link = &pv->probes; *link;) {
			struct probe *pr = *link;
			const struct probe *first =
				name_set_add(&seen, pr->name, strlen(pr->name),
					     pr);

			if (first && probe_same_types(prog, first, pr)) {
				/* One probe, declared twice.  QEMU declares
				 * probes again in other files on purpose; in
				 * one file it is most likely a slip. */
				if (first->loc.file == pr->loc.file) {
					warning_at(pr->loc,
						   "probe '%s' declared again",
						   pr->name);
					note_at(first->loc,
						"previous declaration of '%s' was here",
						pr->name);
				}
				*link = pr->next;
				pv->nprobes--;
				prog->nprobes--;
				continue;
			}
			pv->last = pr;
			link = &pr->next;
		}
		name_set_free(&seen);
	}
	names_assign(prog);
	meanings_assign(prog, 0);
}

int program_keep_probes(struct program *prog,
			int (*keep)(const struct probe *pr, void *ctx),
			void *ctx)
{
	struct provider *pv;
	struct probe **link;
	int dropped = 0;

	for_each_provider(prog, pv) {
		pv->last = NULL;
		for (link = &pv->probes; *link;) {
			if (keep(*link, ctx)) {
				pv->last = *link;
				link = &(*link)->next;
				continue;
			}
			*link = (*link)->next;
			pv->nprobes--;
			prog->nprobes--;
			dropped++;
		}
	}
	return dropped;
}

void program_free(struct program *prog)
{
	if (!prog)
		return;
	arena_free(&prog->arena);
	name_set_free(&prog->typedef_names);
	free(prog);
}
