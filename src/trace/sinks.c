/*
 * src/trace/sinks.c - the fan-out: the ring buffer's callback for every
 * firing, and the table of the consumers that take it (the plan says
 * which run).  Each consumer gets the event and the tracer, decodes
 * what it needs through event.c, and never calls another; --limit
 * counts the events taken here.
 */
#include "tracer.h"

volatile sig_atomic_t trace_stopping;

static int wants_profile(const struct tracer *tr)
{
	return tr->profile != NULL;
}

static int wants_metrics(const struct tracer *tr)
{
	return tr->metrics != NULL;
}

static int wants_timeline(const struct tracer *tr)
{
	return tr->timeline != NULL;
}

static int wants_printer(const struct tracer *tr)
{
	return tr->plan.print;
}

static void to_profile(struct tracer *tr, const struct trace_event *e)
{
	profile_event(tr->profile, e);
}

static void to_metrics(struct tracer *tr, const struct trace_event *e)
{
	metrics_event(tr->metrics, e);
}

static void to_timeline(struct tracer *tr, const struct trace_event *e)
{
	timeline_event(tr->timeline, e);
}

/* In order: the profile and the metrics count what the timeline and the
 * printer show. */
static const struct sink {
	int (*wants)(const struct tracer *tr);
	void (*event)(struct tracer *tr, const struct trace_event *e);
} sinks[] = {
	{ wants_profile, to_profile },
	{ wants_metrics, to_metrics },
	{ wants_timeline, to_timeline },
	{ wants_printer, printer_event },
};

int sinks_event(void *ctx, void *data, size_t size)
{
	struct tracer *tr = ctx;
	const struct trace_event *e = data;
	size_t i;

	(void)size;
	if (e->probe >= (unsigned)tr->nprobes || trace_stopping)
		return 0;
	if (!tr->start_ns)
		tr->start_ns = e->time_ns;
	/* Starts matched to ends first: the profile and the timeline read
	   the calls closed and opened. */
	if (tr->calls)
		calls_event(tr->calls, e);
	for (i = 0; i < ARRAY_SIZE(sinks); i++)
		if (sinks[i].wants(tr))
			sinks[i].event(tr, e);
	tr->events++;
	if (tr->plan.limit && tr->events >= (unsigned long long)tr->plan.limit)
		trace_stopping = 1;
	return 0;
}
