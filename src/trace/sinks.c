/*
 * src/trace/sinks.c - the consumers of firings, one row each with its
 * whole life: whether the plan wants it, opening it before anything is
 * attached, each firing (the ring buffer's callback), finishing it when
 * the trace has ended, and freeing it.  trace.c only loops over the rows,
 * so a new output is one room and one row here.  Each consumer gets the
 * event and the tracer, decodes what it needs through event.c, and never
 * calls another; --limit counts the events taken here.
 */
#include "event.h"
#include "metrics.h"
#include "pprof.h"
#include "stacks.h"

volatile sig_atomic_t trace_stopping;

/* Starts matched to ends (calls.c), before the profile and the
   timeline read what it closed and opened. */
static int wants_calls(const struct trace_plan *p)
{
	return p->timeline || p->profile;
}

static int open_calls(struct tracer *tr)
{
	tr->calls = calls_new(tr);
	return 0;
}

static void to_calls(struct tracer *tr, const struct trace_event *e)
{
	calls_event(tr->calls, e);
}

static void free_calls(struct tracer *tr)
{
	calls_free(tr->calls);
}

static int wants_profile(const struct trace_plan *p)
{
	return p->profile;
}

static int open_profile(struct tracer *tr)
{
	return (tr->profile = profile_new(tr)) ? 0 : -1;
}

static void to_profile(struct tracer *tr, const struct trace_event *e)
{
	profile_event(tr->profile, e);
}

static int finish_profile(struct tracer *tr, int ran)
{
	struct output *pprof;

	if (!ran || !tr->profile)
		return 0;
	if ((pprof = profile_pprof_output(tr->profile)) &&
	    pprof_write(tr, tr->profile, pprof) != 0)
		return -1;
	return profile_write_folded(tr->profile);
}

static void free_profile(struct tracer *tr)
{
	profile_free(tr->profile);
}

static int wants_metrics(const struct trace_plan *p)
{
	return p->metrics;
}

static int open_metrics(struct tracer *tr)
{
	tr->metrics = metrics_new(tr);
	return 0;
}

static void to_metrics(struct tracer *tr, const struct trace_event *e)
{
	metrics_event(tr->metrics, e);
}

static void free_metrics(struct tracer *tr)
{
	metrics_free(tr->metrics);
}

static int wants_timeline(const struct trace_plan *p)
{
	return p->timeline;
}

static int open_timeline(struct tracer *tr)
{
	return (tr->timeline = timeline_open(tr, tr->opt->timeline)) ? 0 : -1;
}

static void to_timeline(struct tracer *tr, const struct trace_event *e)
{
	timeline_event(tr->timeline, e);
}

/* Kept when the trace ran, its unended calls closed with the calls
   around them; removed when it did not. */
static int finish_timeline(struct tracer *tr, int ran)
{
	if (!tr->timeline)
		return 0; /* never opened: the trace failed before */
	if (!ran) {
		timeline_abort(tr->timeline);
		return 0;
	}
	calls_end(tr->calls);
	return timeline_close(tr->timeline);
}

/* --stack: each firing's stack walked, for the printer, then counted. */
static int wants_stacks(const struct trace_plan *p)
{
	return p->stack;
}

static int open_stacks(struct tracer *tr)
{
	if (tr->plan.stack_counts &&
	    !(tr->stack_counts =
		      stack_counts_new(tr->opt->folded, tr->opt->pprof)))
		return -1;
	return (tr->stacks = stacks_new(tr)) ? 0 : -1;
}

static void to_stacks(struct tracer *tr, const struct trace_event *e)
{
	stacks_event(tr->stacks, e);
	if (tr->stack_counts)
		stack_counts_add(tr->stack_counts, (int)e->probe,
				 stacks_current(tr->stacks));
}

static int finish_stacks(struct tracer *tr, int ran)
{
	struct output *pprof;

	if (!ran || !tr->stack_counts)
		return 0; /* not written: stack_counts_free removes them */
	if ((pprof = stack_counts_pprof_output(tr->stack_counts)) &&
	    pprof_write_stacks(tr, tr->stack_counts, pprof) != 0)
		return -1;
	return stack_counts_write_folded(tr->stack_counts, tr);
}

static void free_stacks(struct tracer *tr)
{
	stacks_free(tr->stacks);
	stack_counts_free(tr->stack_counts);
}

static int wants_printer(const struct trace_plan *p)
{
	return p->print;
}

/* In order: the calls first; the profile and the metrics count what
 * the timeline and the printer show.  Each step may be NULL. */
static const struct sink {
	int (*wanted)(const struct trace_plan *p);
	/* Before anything is attached: 0, or -1 after saying why. */
	int (*open)(struct tracer *tr);
	void (*event)(struct tracer *tr, const struct trace_event *e);
	/* Once the trace has ended (ran: it traced, and did not fail):
	   0, or -1 after saying why. */
	int (*finish)(struct tracer *tr, int ran);
	void (*free)(struct tracer *tr);
} sinks[] = {
	{ wants_calls, open_calls, to_calls, NULL, free_calls },
	{ wants_profile, open_profile, to_profile, finish_profile,
	  free_profile },
	{ wants_metrics, open_metrics, to_metrics, NULL, free_metrics },
	{ wants_timeline, open_timeline, to_timeline, finish_timeline, NULL },
	{ wants_stacks, open_stacks, to_stacks, finish_stacks, free_stacks },
	{ wants_printer, NULL, printer_event, NULL, NULL },
};

int sinks_open(struct tracer *tr)
{
	size_t i;

	/* --pprof's file is the profile's or the stack counts': whichever
	   row writes it, a probegen without protobuf-c says so first. */
	if (tr->opt->pprof && pprof_check() != 0)
		return -1;
	for (i = 0; i < ARRAY_SIZE(sinks); i++)
		if (sinks[i].wanted(&tr->plan) && sinks[i].open &&
		    sinks[i].open(tr) != 0)
			return -1;
	return 0;
}

int sinks_event(void *ctx, void *data, size_t size)
{
	struct tracer *tr = ctx;
	const struct trace_event *e = data;
	size_t i;

	(void)size;
	/* Past --limit, nothing more; after SIGINT or SIGTERM, what the
	   ring holds still is taken (the firings before the stop: up to
	   256 KiB wait there unwoken, trace.bpf.c). */
	if (e->probe >= (unsigned)tr->nprobes ||
	    (tr->plan.limit && tr->events >= (unsigned long long)tr->plan.limit))
		return 0;
	if (!tr->start_ns)
		tr->start_ns = e->time_ns;
	for (i = 0; i < ARRAY_SIZE(sinks); i++)
		if (sinks[i].wanted(&tr->plan))
			sinks[i].event(tr, e);
	tr->events++;
	if (tr->received)
		tr->received[e->probe]++;
	if (tr->plan.limit && tr->events >= (unsigned long long)tr->plan.limit)
		trace_stopping = 1;
	return 0;
}

int sinks_finish(struct tracer *tr, int ran)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < ARRAY_SIZE(sinks); i++)
		if (sinks[i].wanted(&tr->plan) && sinks[i].finish &&
		    sinks[i].finish(tr, ran) != 0)
			rc = -1;
	return rc;
}

void sinks_free(struct tracer *tr)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sinks); i++)
		if (sinks[i].wanted(&tr->plan) && sinks[i].free)
			sinks[i].free(tr);
}
