/*
 * src/trace/sinks/sinks.c - what probegen makes of the firings, one row each
 * with its whole life and its own state: whether the plan wants it,
 * opening it before anything is attached, each firing (the ring
 * buffer's callback), what it says once the kernel's counts are read,
 * its files kept or removed when the trace has ended, and freeing it.
 * trace.c only loops over the rows, so a new output is one room that
 * holds its row (struct sink, sinks.h) and its line in the table below
 * (the Makefile builds every file of the folder); it needs an id in
 * tracer.h's enum sink_id only when another row reads its state by it
 * (sink_state), which a row does only of a row above it.  --limit
 * counts the events taken here.
 */
#include <stdlib.h>

#include "trace/sinks/sinks.h"
#include "trace/decode/event.h"
#include "trace/sinks/metrics.h"
#include "trace/sinks/pprof.h"
#include "trace/decode/stacks.h"

volatile sig_atomic_t trace_stopping;

/* Starts matched to ends (calls.c), before the profile and the
   timeline read what it closed and opened. */
static int wants_calls(const struct trace_plan *p)
{
	return p->timeline || p->profile;
}

static void *open_calls(struct tracer *tr)
{
	return calls_new(tr);
}

static void to_calls(void *calls, struct tracer *tr,
		     const struct trace_event *e)
{
	(void)tr;
	calls_event(calls, e);
}

static void free_calls(void *calls)
{
	calls_free(calls);
}

static int wants_profile(const struct trace_plan *p)
{
	return p->profile;
}

static void *open_profile(struct tracer *tr)
{
	struct profile *p = profile_new(tr);

	return p ? (void *)p : SINK_FAILED;
}

static void to_profile(void *profile, struct tracer *tr,
		       const struct trace_event *e)
{
	(void)tr;
	profile_event(profile, e);
}

static int finish_profile(void *profile, struct tracer *tr, int ran)
{
	(void)tr;
	return ran ? profile_write_folded(profile) : 0;
}

static void free_profile(void *profile)
{
	profile_free(profile);
}

/* The symbolizer of code pointers, which every trace has (a function
   pointer's argument is named, not numbered), and with --stack each
   firing's stack walked, for the printer and the counts. */
static int wants_stacks(const struct trace_plan *p)
{
	(void)p;
	return 1;
}

static void *open_stacks(struct tracer *tr)
{
	struct stacks *s = stacks_new(tr);

	if (!s)
		return SINK_FAILED;
	meant_set_symbolizer(stacks_symbol, s);
	return s;
}

static void to_stacks(void *stacks, struct tracer *tr,
		      const struct trace_event *e)
{
	if (tr->plan.request->stack)
		stacks_event(stacks, e);
}

static void free_stacks(void *stacks)
{
	meant_set_symbolizer(NULL, NULL);
	stacks_free(stacks);
}

/* ... counted by stack (--summary, --folded, --pprof with --stack). */
static int wants_stack_counts(const struct trace_plan *p)
{
	return p->stack_counts;
}

static void *open_stack_counts(struct tracer *tr)
{
	struct stack_counts *c = stack_counts_new(tr->plan.folded_stacks_path);

	return c ? (void *)c : SINK_FAILED;
}

static void to_stack_counts(void *counts, struct tracer *tr,
			    const struct trace_event *e)
{
	stack_counts_add(counts, (int)e->probe,
			 stacks_current(sink_state(tr, SINK_STACKS)),
			 TRACE_STACK_OF(e)->every);
}

/* The firings the kernel counted that no walk did: "[stacks lost]". */
static int report_stack_counts(void *counts, struct tracer *tr,
			       const struct tally *t, int status)
{
	stack_counts_lost(counts, tr, t->counts);
	return status;
}

static int finish_stack_counts(void *counts, struct tracer *tr, int ran)
{
	/* Not written: stack_counts_free removes the file. */
	return ran ? stack_counts_write_folded(counts, tr) : 0;
}

static void free_stack_counts(void *counts)
{
	stack_counts_free(counts);
}

/* --pprof: the pairs' calls (the profile's), or with --stack the
   firings by stack; opened before the trace, written at its end. */
static int wants_pprof(const struct trace_plan *p)
{
	return p->request->pprof != NULL;
}

static void *open_pprof(struct tracer *tr)
{
	struct output *out = xcalloc(1, sizeof(*out));

	/* A probegen without protobuf-c says so before any file is made. */
	if (pprof_check() != 0 || output_open(out, tr->plan.request->pprof) != 0) {
		free(out);
		return SINK_FAILED;
	}
	return out;
}

static int finish_pprof(void *out, struct tracer *tr, int ran)
{
	struct output *o = out;
	int rc;

	if (!ran)
		return 0; /* removed by free_pprof */
	/* The writer commits the file, or removes it. */
	rc = tr->plan.request->stack ? pprof_write_stacks(tr, sink_state(tr, SINK_STACK_COUNTS), o)
			    : pprof_write(tr, sink_state(tr, SINK_PROFILE), o);
	return rc;
}

static void free_pprof(void *out)
{
	struct output *o = out;

	if (o->fd >= 0)
		output_abort(o);
	free(o);
}

/* --metrics: the firings counted by --by's arguments, and the server
   of its page, listening before anything is attached. */
struct metrics_sink {
	struct metrics *metrics;
	struct server *server;
};

static int wants_metrics(const struct trace_plan *p)
{
	return p->metrics;
}

/* The page, of the counts and times read at the scrape. */
static void scrape_page(void *ctx, int openmetrics, struct buf *out)
{
	struct tracer *tr = ctx;
	struct metrics_sink *m = sink_state(tr, SINK_METRICS);
	struct tally t;

	tr->read_tally(tr, &t);
	metrics_render(m->metrics, &t, openmetrics, out);
	tally_free(&t);
}

static void *open_metrics(struct tracer *tr)
{
	struct metrics_sink *m = xcalloc(1, sizeof(*m));

	m->metrics = metrics_new(tr);
	if (!(m->server = server_start(tr->plan.request->metrics, scrape_page,
				       tr))) {
		metrics_free(m->metrics);
		free(m);
		return SINK_FAILED;
	}
	return m;
}

static void to_metrics(void *m, struct tracer *tr, const struct trace_event *e)
{
	(void)tr;
	metrics_event(((struct metrics_sink *)m)->metrics, e);
}

static void free_metrics(void *m)
{
	server_stop(((struct metrics_sink *)m)->server);
	metrics_free(((struct metrics_sink *)m)->metrics);
	free(m);
}

static int wants_timeline(const struct trace_plan *p)
{
	return p->timeline;
}

static void *open_timeline(struct tracer *tr)
{
	struct timeline *tl = timeline_open(tr, tr->plan.request->timeline);

	return tl ? (void *)tl : SINK_FAILED;
}

static void to_timeline(void *tl, struct tracer *tr,
			const struct trace_event *e)
{
	(void)tr;
	timeline_event(tl, e);
}

/* Kept when the trace ran, its unended calls closed with the calls
   around them; removed when it did not. */
static int finish_timeline(void *tl, struct tracer *tr, int ran)
{
	if (!ran) {
		timeline_abort(tl);
		return 0;
	}
	calls_end(sink_state(tr, SINK_CALLS));
	return timeline_close(tl);
}

static int wants_printer(const struct trace_plan *p)
{
	return p->print;
}

static void to_printer(void *state, struct tracer *tr,
		       const struct trace_event *e)
{
	(void)state;
	printer_event(tr, e);
}

/* --summary: the counts, the pairs' times, the profile's names and the
   stacks, said at the end. */
static int wants_summary(const struct trace_plan *p)
{
	return p->request->summary;
}

static int report_summary(void *state, struct tracer *tr,
			  const struct tally *t, int status)
{
	(void)state;
	summary_print(tr, t);
	return status;
}

/* --expect: each firing of an expected probe judged; said at the end. */
static int wants_expect(const struct trace_plan *p)
{
	return p->expect;
}

static void to_expect(void *state, struct tracer *tr,
		      const struct trace_event *e)
{
	(void)state;
	expects_event(tr, e);
}

static int report_expect(void *state, struct tracer *tr,
			 const struct tally *t, int status)
{
	(void)state;
	(void)t;
	return expects_report(tr, status);
}

/* --expect-all: a probe that never fired fails the run. */
static int wants_expect_all(const struct trace_plan *p)
{
	return p->request->expect_all;
}

static int report_expect_all(void *state, struct tracer *tr,
			     const struct tally *t, int status)
{
	(void)state;
	return summary_unfired(tr, t) ? EXIT_INPUT : status;
}

/* The rows that live here; a room may hold its own (the table names
 * it below). */
static const struct sink stacks_sink = {
	SINK_STACKS, wants_stacks, open_stacks, to_stacks, NULL, NULL,
	free_stacks
};
static const struct sink calls_sink = {
	SINK_CALLS, wants_calls, open_calls, to_calls, NULL, NULL,
	free_calls
};
static const struct sink profile_sink = {
	SINK_PROFILE, wants_profile, open_profile, to_profile, NULL,
	finish_profile, free_profile
};
static const struct sink stack_counts_sink = {
	SINK_STACK_COUNTS, wants_stack_counts, open_stack_counts,
	to_stack_counts, report_stack_counts, finish_stack_counts,
	free_stack_counts
};
static const struct sink pprof_sink = {
	SINK_PPROF, wants_pprof, open_pprof, NULL, NULL, finish_pprof,
	free_pprof
};
static const struct sink metrics_sink = {
	SINK_METRICS, wants_metrics, open_metrics, to_metrics, NULL,
	NULL, free_metrics
};
static const struct sink timeline_sink = {
	SINK_TIMELINE, wants_timeline, open_timeline, to_timeline, NULL,
	finish_timeline, NULL
};
static const struct sink printer_sink = {
	SINK_PRINTER, wants_printer, NULL, to_printer, NULL, NULL, NULL
};
static const struct sink summary_sink = {
	SINK_SUMMARY, wants_summary, NULL, NULL, report_summary, NULL,
	NULL
};
static const struct sink expect_sink = {
	SINK_EXPECT, wants_expect, NULL, to_expect, report_expect, NULL,
	NULL
};
static const struct sink expect_all_sink = {
	SINK_EXPECT_ALL, wants_expect_all, NULL, NULL,
	report_expect_all, NULL, NULL
};

/* In order, each row after those whose state it reads: first the rows
 * others read, in sink_id's order, then the rest (SINK_NO_ID). */
static const struct sink *const sinks[] = {
	/* A row a line, so that a new row is a line. */
	/* clang-format off */
	&stacks_sink,
	&calls_sink,
	&profile_sink,
	&stack_counts_sink,
	&pprof_sink,
	&metrics_sink,
	&timeline_sink,
	&printer_sink,
	&summary_sink,
	&expect_sink,
	&expect_all_sink,
	/* clang-format on */
};
_Static_assert(ARRAY_SIZE(sinks) <= SINK_MAX, "SINK_MAX holds every row");

struct server *sinks_server(const struct tracer *tr)
{
	const struct metrics_sink *m = sink_state(tr, SINK_METRICS);

	return m ? m->server : NULL;
}

int sinks_open(struct tracer *tr)
{
	size_t i;

	/* Each probe's events taken: --where's report, the rates. */
	if (!tr->received)
		tr->received = xcalloc(TRACE_MAX_PROBES, sizeof(*tr->received));
	for (i = 0; i < ARRAY_SIZE(sinks); i++) {
		void *state;

		if (i < SINK_COUNT ? sinks[i]->id != (enum sink_id)i
				   : sinks[i]->id != SINK_NO_ID)
			die("internal error: sinks[%zu] is not its id's row", i);
		if (!sinks[i]->wanted(&tr->plan) || !sinks[i]->open)
			continue;
		if ((state = sinks[i]->open(tr)) == SINK_FAILED)
			return -1;
		tr->sinks[i] = state;
		tr->sinks_open[i] = 1;
	}
	return 0;
}

/* Whether a record holds the event it says: its slots (slot_bytes as
 * --string-bytes made them) and, with --stack, its stack part; every
 * room reads the event through TRACE_SLOT and TRACE_STACK_OF unchecked. */
static int event_whole(const struct tracer *tr, const struct trace_event *e,
		       size_t size)
{
	size_t end;

	if (size < TRACE_EVENT_HEADER || e->slot_bytes != tr->plan.string_bytes ||
	    e->nstrings > TRACE_MAX_SLOTS)
		return 0;
	end = TRACE_EVENT_HEADER +
	      (size_t)(tr->plan.stack_bytes ? TRACE_MAX_SLOTS : e->nstrings) *
		      e->slot_bytes;
	if (tr->plan.stack_bytes)
		end += offsetof(struct trace_stack, stack) +
		       (size >= end + offsetof(struct trace_stack, stack)
				? TRACE_STACK_OF(e)->stack_size
				: 0);
	return size >= end &&
	       (!tr->plan.stack_bytes || TRACE_STACK_OF(e)->stack_size <=
						  tr->plan.stack_bytes);
}

int sinks_event(void *ctx, void *data, size_t size)
{
	struct tracer *tr = ctx;
	const struct trace_event *e = data;
	size_t i;

	/* Past --limit, nothing more; after SIGINT or SIGTERM, what the
	   ring holds still is taken (the firings before the stop: up to
	   256 KiB wait there unwoken, trace.bpf.c). */
	if (e->probe >= (unsigned)tr->nprobes || !event_whole(tr, e, size) ||
	    (tr->plan.request->limit && tr->events >= (unsigned long long)tr->plan.request->limit))
		return 0;
	if (!tr->start_ns)
		tr->start_ns = e->time_ns;
	for (i = 0; i < ARRAY_SIZE(sinks); i++)
		if (sinks[i]->event && sinks[i]->wanted(&tr->plan))
			sinks[i]->event(tr->sinks[i], tr, e);
	tr->events++;
	if (tr->received)
		tr->received[e->probe]++;
	if (tr->plan.request->limit && tr->events >= (unsigned long long)tr->plan.request->limit)
		trace_stopping = 1;
	return 0;
}

int sinks_report(struct tracer *tr, const struct tally *t, int status)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sinks); i++)
		if (sinks[i]->report && sinks[i]->wanted(&tr->plan))
			status = sinks[i]->report(tr->sinks[i], tr, t, status);
	return status;
}

int sinks_finish(struct tracer *tr, int ran)
{
	size_t i;
	int rc = 0;

	/* A row never opened (the trace failed before it) has no file. */
	for (i = 0; i < ARRAY_SIZE(sinks); i++)
		if (sinks[i]->finish && (tr->sinks_open[i] || !sinks[i]->open) &&
		    sinks[i]->wanted(&tr->plan) &&
		    sinks[i]->finish(tr->sinks[i], tr, ran) != 0)
			rc = -1;
	return rc;
}

void sinks_free(struct tracer *tr)
{
	size_t i;

	for (i = ARRAY_SIZE(sinks); i-- > 0;) {
		if (sinks[i]->free && tr->sinks_open[i])
			sinks[i]->free(tr->sinks[i]);
		tr->sinks[i] = NULL;
		tr->sinks_open[i] = 0;
	}
}
