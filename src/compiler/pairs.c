/*
 * compiler/pairs.c - the provider's own start/done pairs, worked out once in the
 * model, where --list, --bpftrace and --trace find them.  Within a
 * provider, X__start goes with X__done, X__end, X__finish or X__stop
 * (the first of those declared), X__begin with X__end, X__entry with
 * X__return and X__enter with X__exit; X, the pair's work, may be empty
 * (start/done).  The separator may also be one underscore (log_start,
 * log_done), the end's the same as the start's.  By default a pair is matched per thread, nested.  An
 * explicit --pair P:START,P:END[,ARG] names one; with ARG, a parameter
 * both probes declare, starts and ends are matched by its value across
 * threads.
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "naming.h"

/* Start suffix, and its end suffixes in order of preference. */
static const struct {
	const char *start;
	const char *ends[4];
} pair_rules[] = {
	{ "start", { "done", "end", "finish", "stop" } },
	{ "begin", { "end" } },
	{ "entry", { "return" } },
	{ "enter", { "exit" } },
};

/* The probe of pv (its names in set) named stem + sep + suffix, or
 * suffix alone when the stem is empty; NULL when there is none. */
static const struct probe *probe_with(const struct name_set *set,
				      struct buf *name, const char *stem,
				      size_t stem_len, size_t sep,
				      const char *suffix)
{
	name->len = 0;
	if (stem_len) {
		buf_add(name, stem, stem_len);
		buf_add(name, "__", sep);
	}
	buf_puts(name, suffix);
	return name_set_find(set, name->data);
}

/* The stem of a start probe by rule r ("query" of "query__start" or of
 * "query_start"), with its separator's length in *sep, or -1 when its
 * name does not end so. */
static long start_stem(const char *name, size_t r, size_t *sep)
{
	size_t n = strlen(name), k = strlen(pair_rules[r].start);

	*sep = 0;
	if (n == k && strcmp(name, pair_rules[r].start) == 0)
		return 0;
	if (n < k + 2 || strcmp(name + n - k, pair_rules[r].start) != 0 ||
	    name[n - k - 1] != '_')
		return -1;
	*sep = n > k + 2 && name[n - k - 2] == '_' ? 2 : 1;
	return (long)(n - k - *sep);
}

static struct pair *pair_new(const struct probe *start, const struct probe *end,
			     const char *stem, size_t stem_len)
{
	struct pair *p = xcalloc(1, sizeof(*p));

	p->start = start;
	p->end = end;
	p->stem = xstrndup(stem, stem_len);
	p->start_arg = p->end_arg = -1;
	return p;
}

struct pair *pairs_of(const struct program *prog)
{
	struct pair *list = NULL, **tail = &list;
	const struct provider *pv;
	const struct probe *pr, *end;
	struct buf name = { 0 };
	size_t r, e, sep;
	long stem;

	if (!prog)
		return NULL;
	for_each_provider(prog, pv) {
		struct name_set set; /* the provider's probes by name */

		name_set_init(&set, (size_t)pv->nprobes);
		for_each_probe(pv, pr) /* the first of a name stays */
			name_set_add(&set, pr->name, strlen(pr->name), pr);
		for_each_probe(pv, pr) {
			for (r = 0; r < ARRAY_SIZE(pair_rules); r++) {
				if ((stem = start_stem(pr->name, r, &sep)) < 0)
					continue;
				end = NULL;
				for (e = 0;
				     !end && e < 4 && pair_rules[r].ends[e];
				     e++)
					end = probe_with(&set, &name, pr->name,
							 (size_t)stem, sep,
							 pair_rules[r].ends[e]);
				if (!end)
					continue;
				*tail = pair_new(pr, end, pr->name,
						 (size_t)stem);
				(*tail)->by_name = 1;
				tail = &(*tail)->next;
				break;
			}
		}
		name_set_free(&set);
	}
	buf_free(&name);
	return list;
}

/* The index of the parameter named name in pr's native ones, or -1;
 * argN names the N-th whether the declaration names it or not (gjs's
 * .d names none), as everywhere a name is shown. */
static int param_index(const struct probe *pr, const char *name)
{
	const struct param *p;
	int i = 0;
	char *end;
	long n;

	for_each_param(pr->native, p) {
		if (p->name && strcmp(p->name, name) == 0)
			return i;
		i++;
	}
	if (strncmp(name, "arg", 3) == 0 && name[3] >= '0' && name[3] <= '9') {
		n = strtol(name + 3, &end, 10);
		if (!*end && n < pr->nnative)
			return (int)n;
	}
	return -1;
}

/* "P:N" (len bytes at spec) of prog, or NULL. */
static const struct probe *named_probe(const struct program *prog,
				       const char *spec, size_t len)
{
	char *s = xstrndup(spec, len), *colon = strchr(s, ':');
	const struct probe *pr = NULL;

	if (colon) {
		*colon = '\0';
		pr = program_probe(prog, s, colon + 1);
	}
	free(s);
	return pr;
}

char *pair_parse(const struct program *prog, const char *spec,
		 struct pair **out)
{
	const char *comma1 = strchr(spec, ','), *comma2, *end_spec;
	const struct probe *start, *end;
	size_t end_len, r;
	struct pair *p;

	*out = NULL;
	if (!comma1)
		return xasprintf("--pair takes P:START,P:END[,ARG], not '%s'",
				 spec);
	comma2 = strchr(comma1 + 1, ',');
	end_spec = comma1 + 1;
	end_len = comma2 ? (size_t)(comma2 - end_spec) : strlen(end_spec);
	start = named_probe(prog, spec, (size_t)(comma1 - spec));
	end = named_probe(prog, end_spec, end_len);
	if (!start || !end)
		return xasprintf("--pair %s: no probe '%.*s'", spec,
				 start ? (int)end_len : (int)(comma1 - spec),
				 start ? end_spec : spec);
	p = pair_new(start, end, start->name, strlen(start->name));
	for (r = 0; r < ARRAY_SIZE(pair_rules); r++) {
		size_t sep;
		long stem = start_stem(start->name, r, &sep);

		if (stem > 0) {
			free(p->stem);
			p->stem = xstrndup(start->name, (size_t)stem);
			break;
		}
	}
	if (comma2) {
		size_t base = strcspn(comma2 + 1, "-.");

		p->arg = xstrdup(comma2 + 1);
		p->start_arg = param_index(start, p->arg);
		p->end_arg = param_index(end, p->arg);
		if (p->arg[base] && base &&
		    probe_param_index(start, p->arg, base) >= 0 &&
		    probe_param_index(end, p->arg, base) >= 0)
			p->start_arg = p->end_arg = PAIR_BY_MEMBER;
		if (p->start_arg == -1 || p->end_arg == -1) {
			pairs_free(p);
			return xasprintf(
				"--pair %s: '%s' is not an argument of both probes (a name, arg0, arg1..., or a member expression on one: ARG->MEMBER)",
				spec, comma2 + 1);
		}
	}
	*out = p;
	return NULL;
}

void pairs_free(struct pair *list)
{
	struct pair *next;

	for (; list; list = next) {
		next = list->next;
		free(list->stem);
		free(list->arg);
		free(list);
	}
}
