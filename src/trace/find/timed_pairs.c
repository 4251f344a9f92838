/*
 * src/trace/find/timed_pairs.c - the pairs --trace times: those --pair names
 * and those the probes' names make (src/pairs.c reads both), each kept
 * once with its probes' roles, and the arguments that name its calls
 * when it is a runtime's function pair.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/naming.h"
#include "inspect/inspect.h"
#include "trace/find/find.h"
#include "trace/tracer.h"

/* The traced probe of binary b named like pr, or -1. */
static int traced_index(const struct tracer *tr, int b, const struct probe *pr)
{
	int i;

	for (i = 0; i < tr->nprobes; i++)
		if (tr->probes[i].binary == tr->binaries[b]->path &&
		    strcmp(tr->probes[i].provider, pr->provider->name) == 0 &&
		    strcmp(tr->probes[i].name, pr->name) == 0)
			return i;
	return -1;
}

/* Is the pair from s to e, matched by those arguments, kept already? */
static int kept_already(const struct tracer *tr, int s, int e,
			const struct pair *p)
{
	int i;

	for (i = 0; i < tr->npairs; i++)
		if (tr->pairs[i].start == s && tr->pairs[i].end == e &&
		    tr->pairs[i].start_arg == p->start_arg &&
		    tr->pairs[i].end_arg == p->end_arg)
			return 1;
	return 0;
}

/* The providers of the runtimes whose function pairs are profiled by
 * name unasked (their probes' argument names below); another
 * provider's pair with such arguments is too, and says so. */
static const char *const runtime_providers[] = { "python", "ruby", "php",
						 "perl",   "tcl",  "tracing",
						 NULL };

static int is_runtime(const char *provider)
{
	const char *const *r;

	for (r = runtime_providers; *r; r++)
		if (strcmp(provider, *r) == 0)
			return 1;
	return 0;
}

/* The integer argument of t named name; -1 if none. */
static int number_arg(const struct traced *t, const char *name)
{
	int a;

	for (a = 0; a < t->nargs; a++)
		if (arg_kind_of(&t->read[a])->integer &&
		    strcmp(t->arg_names[a], name) == 0)
			return a;
	return -1;
}

/* The arguments that name the calls of pair tp: a --by's for its start,
 * else, as the runtimes name them, the string argument that holds the
 * function's name (Python's funcname, Ruby's methodname, PHP's
 * function_name, Perl's subname, Tcl's and a span's name) after the one
 * that holds its class or package when the start has one
 * (Class::method, package::sub), else before the file's when it has
 * one (Python's: "main (site.py)", apart from a script's main). */
static void choose_names(struct tracer *tr, struct traced_pair *tp)
{
	static const char *const function_names[] = {
		"funcname", "methodname", "function_name",
		"subname",  "name",	  NULL
	};
	static const char *const class_names[] = { "classname", "class_name",
						   "class",	"packagename",
						   "package",	NULL };
	static const char *const file_names[] = { "filename", "file", NULL };
	struct traced *start = &tr->probes[tp->start];
	int f, c, file;

	tp->named_with_file = tp->named_unasked = 0;
	tp->line_arg = -1;
	tp->nname_args = probe_by_args(tr, start, tp->name_args);
	if (tp->nname_args)
		return;
	f = probe_string_arg(start, function_names);
	if (f < 0)
		return;
	c = probe_string_arg(start, class_names);
	file = c < 0 ? probe_string_arg(start, file_names) : -1;
	if (c >= 0)
		tp->name_args[tp->nname_args++] = c;
	tp->name_args[tp->nname_args++] = f;
	if (file >= 0) {
		tp->name_args[tp->nname_args++] = file;
		tp->named_with_file = 1;
	}
	/* The line a function's entry gives is its first (--pprof's). */
	tp->line_arg = number_arg(start, "lineno");
	tp->named_unasked = !is_runtime(start->provider);
}

/* A pair of a provider that is no runtime's, profiled by name because
 * its start's arguments look like a runtime's: said, once. */
static void say_named(const struct tracer *tr, const struct traced_pair *tp)
{
	const struct traced *start = &tr->probes[tp->start];
	struct buf args = { 0 };
	int i;

	for (i = 0; i < tp->nname_args; i++) {
		const char *a = start->arg_names[tp->name_args[i]];

		buf_puts(&args, i ? ", " : "");
		buf_escaped(&args, a, strlen(a), 0);
	}
	info_plain("%s, %s: each call timed by name too, by its %s, as a "
		   "runtime's are (--by %s:ARG chooses the arguments)",
		   start->label_text, tr->probes[tp->end].label_text, args.data,
		   start->label_text);
	buf_free(&args);
}

/* A pair matched by a member expression ("--pair ...,conn->id") reads
 * it at both probes, as --show does (and streaming shows it): m is p
 * with each probe's index of it.  0, or -1 when it cannot be laid out
 * or is not a number (said). */
static int matched_by_member(struct traced *start, struct traced *end,
			     const struct pair *p, struct pair *m)
{
	struct traced *both[2] = { start, end };
	int *idx[2] = { &m->start_arg, &m->end_arg }, k;

	*m = *p;
	if (p->start_arg != PAIR_BY_MEMBER)
		return 0;
	for (k = 0; k < 2; k++) {
		*idx[k] = probe_member(both[k], p->arg, strlen(p->arg), 1);
		if (*idx[k] < 0)
			return -1;
		if (both[k]->read[*idx[k]].kind != ARG_INTEGER &&
		    both[k]->read[*idx[k]].kind != ARG_POINTER) {
			error_input("--pair: %s's '%s' is not a number or a pointer: pairs match by a value",
				    both[k]->label_text, p->arg);
			return -1;
		}
	}
	return 0;
}

/* Keep the pairs of list whose probes binary b traces, each once (a
 * --pair the probes' names already make is that pair), and give each
 * probe its roles: a probe may start or end several pairs.  Returns how
 * many of list's pairs binary b traces, kept now or before;
 * -1 when a member expression it matches by cannot be read (said). */
int pairs_keep(struct tracer *tr, int b, const struct pair *list)
{
	const struct pair *p;
	int traced = 0;

	for (p = list; p; p = p->next) {
		struct pair m;
		int s = traced_index(tr, b, p->start),
		    e = traced_index(tr, b, p->end);
		struct traced *start, *end;
		struct traced_pair *tp;

		if (s < 0 || e < 0)
			continue;
		traced++;
		start = &tr->probes[s];
		end = &tr->probes[e];
		if (matched_by_member(start, end, p, &m) != 0)
			return -1;
		if (kept_already(tr, s, e, &m))
			continue;
		if (tr->npairs >= TRACE_MAX_PAIRS ||
		    start->nstarts >= TRACE_MAX_ROLES ||
		    end->nends >= TRACE_MAX_ROLES) {
			warning_plain(
				"pair %s, %s not timed: at most %d pairs, and %d a probe",
				start->label_text, end->label_text,
				TRACE_MAX_PAIRS, TRACE_MAX_ROLES);
			continue;
		}
		start->starts[start->nstarts++] = tr->npairs;
		end->ends[end->nends++] = tr->npairs;
		tr->pairs = xgrow(tr->pairs, (size_t)tr->npairs, sizeof(*tp));
		tp = &tr->pairs[tr->npairs++];
		tp->start = s;
		tp->end = e;
		tp->start_arg = m.start_arg;
		tp->end_arg = m.end_arg;
		tp->stem = xstrdup(*p->stem ? p->stem : p->start->name);
		tp->by = p->arg ? xstrdup(p->arg) : NULL;
		tp->by_name = p->by_name;
		tp->label = xasprintf("%s, %s%s%s", start->label, end->label,
				      p->arg ? ", by " : "",
				      p->arg ? p->arg : "");
		choose_names(tr, tp);
		/* Only nested calls are timed as a profile: a pair matched
		   by value may start on one thread and end on another. */
		tp->in_user = tp->start_arg < 0 &&
			      (tr->plan.folded ||
			       (tr->plan.request->summary && tp->nname_args));
		if (tp->in_user && tp->named_unasked && tr->plan.request->summary)
			say_named(tr, tp);
	}
	return traced;
}

/* Those --pair names (found in the -s declarations, else in the first
 * binary that traces both probes), and those the names give. */
int pairs_find(struct tracer *tr)
{
	const struct trace_plan *plan = &tr->plan;
	int b, i;

	for (i = 0; i < plan->request->pair_requests.n; i++) {
		struct buf searched = { 0 };
		char *why = NULL;
		int found = 0;

		for (b = 0; b < tr->nbinaries && !found; b++) {
			const struct program *prog = plan->request->d_program
							     ? plan->request->d_program
							     : tr->programs[b];
			struct pair *p;

			free(why);
			why = pair_parse(prog, plan->request->pair_requests.items[i], &p);
			found = pairs_keep(tr, b, p);
			pairs_free(p);
			if (found < 0) {
				free(why);
				buf_free(&searched);
				return -1;
			}
			buf_cat(&searched, searched.len ? ", " : "",
				tr->binaries[b]->path, NULL);
		}
		if (!found) {
			/* Every binary traced was searched (the command's
			   libraries too): say which. */
			error_input("%s (searched: %s)",
				    why ? why
					: "--pair: its probes are not traced",
				    searched.data ? searched.data
						  : "no binary");
			free(why);
			buf_free(&searched);
			return -1;
		}
		free(why);
		buf_free(&searched);
	}
	for (b = 0; b < tr->nbinaries; b++) {
		struct pair *list = pairs_of(tr->programs[b]);

		pairs_keep(tr, b, list);
		pairs_free(list);
	}
	return 0;
}
