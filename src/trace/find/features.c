/*
 * src/trace/find/features.c - what a trace does for each probe beyond
 * finding it, one row each with its whole life: starting (before any
 * binary is read), preparing the probes a binary brings (at the start,
 * or when a followed process execs or maps it), settling once the
 * starting probes are all known, describing a probe to the BPF side
 * (its struct trace_probe_info), reporting at the end, and freeing.
 * targets.c calls the rows for every binary, at the start and later
 * alike; session.c for every probe it tells the kernel of; trace.c at
 * the end.  A new per-probe feature is one room, one row here and what
 * it declares in tracer.h (the Makefile builds every file of the
 * folder).
 */
#include <stdlib.h>

#include "compiler/naming.h"
#include "trace/find/find.h"
#include "trace/find/filter.h"

/* How each argument is read (arg_read.h): the kinds whose bytes the
   BPF side copies into a slot, and where their lengths are. */
static void describe_arguments(const struct tracer *tr, const struct traced *t,
			       struct trace_probe_info *info)
{
	int a;

	(void)tr;
	for (a = 0; a < t->nargs; a++) {
		const struct arg_read *r = &t->read[a];

		info->kind[a] = (unsigned char)r->kind;
		info->length_arg[a] = (signed char)(
			r->length_from == LENGTH_ARG ? r->length_arg : -1);
		info->length[a] = r->length;
	}
}

/* --show's member expressions, laid out from the binary's DWARF. */
static int prepare_shows(struct tracer *tr, int b, int from, int at_start)
{
	int i, rc = 0;

	(void)b;
	for (i = from; i < tr->nprobes; i++)
		if (probe_shows(tr, &tr->probes[i], at_start) != 0)
			rc = at_start ? -1 : 0;
	return rc;
}

/* Each member chain as the BPF side follows it (trace_abi.h). */
static void describe_shows(const struct tracer *tr, const struct traced *t,
			   struct trace_probe_info *info)
{
	int k, j;

	(void)tr;
	for (k = 0; k < t->nshows; k++) {
		const struct arg_read *m = &t->read[TRACE_MAX_ARGS + k];
		struct trace_show *sh = &info->shows[info->nshows++];

		sh->arg = (unsigned)m->arg;
		sh->kind = (unsigned)m->kind;
		sh->size = (unsigned)m->size;
		sh->nsteps = (unsigned)m->nsteps;
		for (j = 0; j < m->nsteps && j < TRACE_MAX_STEPS; j++)
			sh->offset[j] = m->offset[j];
		sh->length_from = (unsigned)m->length_from;
		sh->length_delta = m->length_delta;
		sh->length_size = (unsigned)m->length_size;
		sh->length_signed = (unsigned)m->length_signed;
	}
}

/* --by: which requests named a probe (said at the end when none did);
   with --metrics, the arguments its firings are counted by. */
static void *start_labels(struct tracer *tr)
{
	struct labels *l = xcalloc(1, sizeof(*l));

	l->used = xcalloc((size_t)tr->plan.request->by_requests.n + 1, 1);
	return l;
}

static int prepare_labels(struct tracer *tr, int b, int from, int at_start)
{
	int i;

	(void)b;
	(void)at_start;
	for (i = from; tr->plan.metrics && i < tr->nprobes; i++)
		tr->probes[i].nlabel_args =
			probe_by_args(tr, &tr->probes[i], tr->probes[i].label_args);
	return 0;
}

/* --metrics counts a firing by its arguments in probegen: sent there. */
static void describe_labels(const struct tracer *tr, const struct traced *t,
			    struct trace_probe_info *info)
{
	(void)tr;
	if (t->nlabel_args > 0)
		info->stream = 1;
}

static void report_labels(struct tracer *tr, const struct tally *t)
{
	int i;

	(void)t;
	const struct labels *l = feature_state(tr, FEATURE_LABELS);

	for (i = 0; i < tr->plan.request->by_requests.n; i++)
		if (!l->used[i])
			warning_plain(
				tr->plan.metrics
					? "--by %s: no probe traced is that probe"
					: "--by %s: no pair traced starts with that probe",
				tr->plan.request->by_requests.items[i]);
}

static void free_labels(void *labels)
{
	struct labels *l = labels;

	free(l->used);
	free(l);
}

/* --where: parsed once, compiled for each probe its glob matches. */
static void *start_where(struct tracer *tr)
{
	struct wheres *w = filters_parse(tr);

	return w ? (void *)w : FEATURE_FAILED;
}

static int prepare_where(struct tracer *tr, int b, int from, int at_start)
{
	(void)b;
	return filters_add(tr, from, at_start);
}

static int settle_where(struct tracer *tr)
{
	return filters_check(tr);
}

/* Its filter's index in the filters map, plus one (session.c stores
   the filter there). */
static void describe_where(const struct tracer *tr, const struct traced *t,
			   struct trace_probe_info *info)
{
	(void)tr;
	if (t->filter)
		info->filter = (unsigned)t->filter_index + 1;
}

static void report_where(struct tracer *tr, const struct tally *t)
{
	if (t)
		filters_report(tr, t->rejected);
}

static void free_where(void *wheres)
{
	filters_free(wheres);
}

/* The pairs: at the start, --pair's and those the names make across
   the binaries (timed_pairs.c); a binary a followed process brings, the
   pairs its names make. */
static int prepare_pairs(struct tracer *tr, int b, int from, int at_start)
{
	struct pair *list;

	(void)from;
	if (at_start)
		return 0; /* settle_pairs: --pair's first, then the names' */
	list = pairs_of(tr->programs[b]);
	pairs_keep(tr, b, list);
	pairs_free(list);
	return 0;
}

static int settle_pairs(struct tracer *tr)
{
	return pairs_find(tr);
}

/* The pairs it ends and starts that the kernel times; one timed in
   probegen is sent its events instead. */
static void describe_pairs(const struct tracer *tr, const struct traced *t,
			   struct trace_probe_info *info)
{
	int a;

	for (a = 0; a < t->nends; a++) {
		const struct traced_pair *p = &tr->pairs[t->ends[a]];

		if (p->in_user) {
			info->stream = 1;
			continue;
		}
		info->ends[info->nends].pair = (unsigned)t->ends[a];
		info->ends[info->nends++].match_arg = p->end_arg;
	}
	for (a = 0; a < t->nstarts; a++) {
		const struct traced_pair *p = &tr->pairs[t->starts[a]];

		if (p->in_user) {
			info->stream = 1;
			continue;
		}
		info->starts[info->nstarts].pair = (unsigned)t->starts[a];
		info->starts[info->nstarts++].match_arg = p->start_arg;
	}
}

/* --expect: each probe an expectation names, its firings judged in
   probegen (sinks/judge.c): sent there. */
static void *start_expect(struct tracer *tr)
{
	return expects_parse(tr);
}

static int prepare_expect(struct tracer *tr, int b, int from, int at_start)
{
	(void)b;
	return expects_add(tr, from, at_start);
}

static int settle_expect(struct tracer *tr)
{
	return expects_check(tr);
}

static void describe_expect(const struct tracer *tr, const struct traced *t,
			    struct trace_probe_info *info)
{
	(void)tr;
	if (t->nexpected)
		info->stream = 1;
}

static void free_expect(void *expectations)
{
	expects_free(expectations);
}

/* --stack's counts are made in probegen: every firing is sent. */
static void describe_stacks(const struct tracer *tr, const struct traced *t,
			    struct trace_probe_info *info)
{
	(void)t;
	/* For its stack alone, unless a row above streams it (every Nth
	   then: a pair timed here needs every firing). */
	if (tr->plan.stack_counts && !info->stream)
		info->stream = TRACE_STREAM_STACK;
}

/* In order: a row's prepare may lay out member expressions, which take
 * the probe's next show slots (--show's first, then --by's, --where's
 * and --pair's).  Each step may be NULL. */
static const struct feature {
	enum feature_id id;
	/* Before any binary is read: the feature's own state (NULL: it
	   keeps none), or FEATURE_FAILED after saying why. */
	void *(*start)(struct tracer *tr);
	/* Probes from..nprobes-1, binary b's: at_start, a failure fails
	   the trace (-1, said); later, it is a warning and 0. */
	int (*prepare)(struct tracer *tr, int b, int from, int at_start);
	/* The starting probes all known: 0, or -1 after saying why. */
	int (*settle)(struct tracer *tr);
	void (*describe)(const struct tracer *tr, const struct traced *t,
			 struct trace_probe_info *info);
	/* At the end; t: the kernel's counts, or NULL when not read. */
	void (*report)(struct tracer *tr, const struct tally *t);
	/* Its state, once the trace has ended. */
	void (*free)(void *state);
} features[] = {
	{ FEATURE_ARGUMENTS, NULL, NULL, NULL, describe_arguments, NULL, NULL },
	{ FEATURE_SHOWS, NULL, prepare_shows, NULL, describe_shows, NULL, NULL },
	{ FEATURE_LABELS, start_labels, prepare_labels, NULL, describe_labels,
	  report_labels, free_labels },
	{ FEATURE_WHERE, start_where, prepare_where, settle_where,
	  describe_where, report_where, free_where },
	{ FEATURE_PAIRS, NULL, prepare_pairs, settle_pairs, describe_pairs, NULL,
	  NULL },
	{ FEATURE_EXPECT, start_expect, prepare_expect, settle_expect,
	  describe_expect, NULL, free_expect },
	{ FEATURE_STACKS, NULL, NULL, NULL, describe_stacks, NULL, NULL },
	{ FEATURE_BUDGET, budget_start, NULL, NULL, NULL, budget_report,
	  budget_free },
};
_Static_assert(ARRAY_SIZE(features) == FEATURE_COUNT,
	       "a row for every feature_id");

int features_start(struct tracer *tr)
{
	size_t i;
	void *state;

	for (i = 0; i < ARRAY_SIZE(features); i++) {
		if (features[i].id != (enum feature_id)i)
			die("internal error: features[%zu] is not its id's row", i);
		if (!features[i].start)
			continue;
		if ((state = features[i].start(tr)) == FEATURE_FAILED)
			return -1;
		tr->features[i] = state;
	}
	return 0;
}

int features_prepare(struct tracer *tr, int b, int from, int at_start)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < ARRAY_SIZE(features); i++)
		if (features[i].prepare &&
		    features[i].prepare(tr, b, from, at_start) != 0)
			rc = -1;
	return rc;
}

int features_settle(struct tracer *tr)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(features); i++)
		if (features[i].settle && features[i].settle(tr) != 0)
			return -1;
	return 0;
}

void features_describe(const struct tracer *tr, const struct traced *t,
		       struct trace_probe_info *info)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(features); i++)
		if (features[i].describe)
			features[i].describe(tr, t, info);
}

void features_report(struct tracer *tr, const struct tally *t)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(features); i++)
		if (features[i].report)
			features[i].report(tr, t);
}

void features_free(struct tracer *tr)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(features); i++) {
		if (features[i].free && tr->features[i])
			features[i].free(tr->features[i]);
		tr->features[i] = NULL;
	}
}
