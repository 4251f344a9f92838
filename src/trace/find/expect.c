/*
 * src/trace/find/expect.c - --expect 'PROVIDER:PROBE[{COUNT}][: EXPR]':
 * each expectation parsed once (filter_parse.c, as --where's), then
 * compiled for every probe it names, at the start and when a followed
 * process brings one, by --where's compiler (filter.c).  Its firings
 * are judged in probegen (sinks/judge.c), not in the kernel: every
 * firing of an expected probe is sent there, and --where's filters, if
 * any, have passed it first.
 */
#include <fnmatch.h>
#include <stdlib.h>

#include "trace/find/find.h"
#include "trace/find/filter.h"

void *expects_parse(struct tracer *tr)
{
	struct expectations *xs = xcalloc(1, sizeof(*xs));
	int i;

	xs->all = xcalloc((size_t)tr->plan.request->expect_requests.n + 1, sizeof(*xs->all));
	for (i = 0; i < tr->plan.request->expect_requests.n; i++) {
		struct where_request *r = xcalloc(1, sizeof(*r));

		if (where_parse_as("--expect", tr->plan.request->expect_requests.items[i], r) != 0) {
			free(r);
			expects_free(xs);
			return FEATURE_FAILED;
		}
		xs->all[xs->n].spec = r->spec;
		xs->all[xs->n].min = r->min;
		xs->all[xs->n].max = r->max;
		xs->all[xs->n].every = r->every;
		xs->all[xs->n++].request = r;
	}
	return xs;
}

/* Expectation x compiled for probe t (index i): 0, or -1 (said). */
static int expect_probe(struct expectation *x, struct traced *t, int i,
			int at_start)
{
	struct where_request *r = x->request;
	struct trace_filter f;
	char *why = NULL;
	int rc = 0;

	if (fnmatch(r->probes, t->label, 0) != 0)
		return 0;
	if (r->root && (rc = filter_compile(t, r, &f, &why)) != 0) {
		/* A probe a glob names that the expression cannot judge is
		   not judged: said, as --where says it. */
		if (rc == 1)
			warning_plain("--expect '%s': %s: not judged", r->spec, why);
		free(why);
		return rc == 1 || !at_start ? 0 : -1;
	}
	x->targets = xgrow(x->targets, (size_t)x->ntargets, sizeof(*x->targets));
	x->targets[x->ntargets].probe = i;
	x->targets[x->ntargets].filter = NULL;
	if (r->root) {
		x->targets[x->ntargets].filter = xmalloc(sizeof(f));
		*x->targets[x->ntargets].filter = f;
	}
	x->ntargets++;
	t->nexpected++;
	return 0;
}

/* Whether x matched probes and can judge none of them (an argument's
 * name mistyped): said, with its caret at the first one's reason. */
static int judges_none(const struct expectation *x)
{
	const struct where_request *r = x->request;

	if (x->ntargets || !r->left_out_why)
		return 0;
	where_error("--expect", r->spec, r->left_out_col, r->left_out_len,
		    "it can judge no probe it matches: %s", r->left_out_why);
	return 1;
}

/* An expectation that names one probe, no glob, which came with a
 * followed process and which it cannot judge: said, and the trace
 * stopped, rather than the whole command run first. */
static void refuse_now(struct expectation *x, int *stop)
{
	if (x->refused || strpbrk(x->request->probes, "*?[") ||
	    !judges_none(x))
		return;
	x->refused = 1;
	*stop = 1;
}

int expects_add(struct tracer *tr, int from, int at_start)
{
	struct expectations *xs = feature_state(tr, FEATURE_EXPECT);
	int i, k;

	for (i = from; i < tr->nprobes; i++)
		for (k = 0; k < xs->n; k++)
			if (expect_probe(&xs->all[k], &tr->probes[i], i,
					 at_start) != 0)
				return -1;
	for (k = 0; !at_start && k < xs->n; k++)
		refuse_now(&xs->all[k], &tr->stop);
	return 0;
}

int expects_check(struct tracer *tr)
{
	struct expectations *xs = feature_state(tr, FEATURE_EXPECT);
	int k;

	/* Probes it matched, none of which it can judge (an argument's
	   name mistyped): said now, not after the whole command ran. */
	for (k = 0; k < xs->n; k++)
		if (judges_none(&xs->all[k]))
			return -1;
	/* A followed command may yet exec the program that has it. */
	if (tr->plan.following)
		return 0;
	for (k = 0; k < xs->n; k++)
		if (!xs->all[k].ntargets) {
			where_error("--expect", xs->all[k].request->spec, 1,
				    (int)strlen(xs->all[k].request->probes),
				    "no probe traced can meet it");
			return -1;
		}
	return 0;
}

void expects_free(void *expectations)
{
	struct expectations *xs = expectations;
	int k, j;

	if (!xs)
		return;
	for (k = 0; k < xs->n; k++) {
		for (j = 0; j < xs->all[k].ntargets; j++)
			free(xs->all[k].targets[j].filter);
		free(xs->all[k].targets);
		where_free(xs->all[k].request);
		free(xs->all[k].request);
	}
	free(xs->all);
	free(xs);
}
