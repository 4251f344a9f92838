/*
 * src/trace/decode/calls.c - starts matched to ends, the one place in probegen
 * that does it (the kernel's pairs.bpf.h does it for the pairs it times):
 * each firing's ends close calls and its starts open them, for the
 * timeline and the profile alike.  A pair matched by an argument's value
 * closes the latest open call of that value, on any thread.  The rest
 * nest on their thread: an end closes its pair's innermost open call
 * there, as the kernel's stack per thread and pair does, and the calls
 * opened inside that one which never ended close with it, unended, so
 * that what is drawn and timed nests.  The kernel agrees on every count
 * but one: a call that ends only after its caller has ended, which the
 * kernel times and this counts unended, its end unmatched.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/decode/event.h"

struct thread_calls {
	char *key; /* its tid, as the thread set's key */
	struct call *stack;
	int depth, cap;
	int overflow; /* starts past CALLS_MAX_DEPTH, still open */
};

struct calls {
	const struct tracer *tr;
	int keep_args; /* the timeline draws the starts' arguments */
	struct name_set thread_set; /* tid -> index + 1 */
	struct thread_calls *threads;
	int nthreads;
	struct call *by_value; /* open calls of pairs matched by value */
	int nby_value;
	struct trace_pair_stats stats[TRACE_MAX_PAIRS];
	unsigned long long last_ns; /* the latest event's time */
	unsigned long long seq;	    /* the events seen */
	/* What the latest event changed: its closed calls are copies, freed
	   at the next event. */
	struct call *closed;
	int nclosed, closed_cap;
	struct call_ref opened[TRACE_MAX_ROLES];
	int nopened;
	struct buf name;
};

struct calls *calls_new(const struct tracer *tr)
{
	struct calls *c = xcalloc(1, sizeof(*c));

	c->tr = tr;
	c->keep_args = tr->plan.timeline;
	name_set_init(&c->thread_set, 16);
	return c;
}

/* Pair is matched here: the timeline draws every pair, the profile
 * times those the kernel does not. */
static int tracked(const struct calls *c, int pair)
{
	return c->tr->plan.timeline || c->tr->pairs[pair].in_user;
}

static int thread_index(struct calls *c, unsigned tid)
{
	char key[16];
	const void *found;
	struct thread_calls *th;

	snprintf(key, sizeof(key), "%u", tid);
	if ((found = name_set_find(&c->thread_set, key)))
		return (int)((intptr_t)found - 1);
	c->threads = xgrow(c->threads, (size_t)c->nthreads, sizeof(*th));
	th = &c->threads[c->nthreads++];
	memset(th, 0, sizeof(*th));
	th->key = xstrdup(key);
	name_set_add(&c->thread_set, th->key, strlen(th->key),
		     (const void *)(intptr_t)c->nthreads);
	return c->nthreads - 1;
}

/* Call x closes at now (ended: by its end; else with its caller). */
static void close_call(struct calls *c, const struct call *x,
		       unsigned long long now, int ended)
{
	struct call *d;

	if (c->nclosed == c->closed_cap) {
		c->closed_cap = c->closed_cap ? 2 * c->closed_cap : 8;
		c->closed = xrealloc(c->closed, (size_t)c->closed_cap *
							sizeof(*c->closed));
	}
	d = &c->closed[c->nclosed++];
	*d = *x;
	d->end_ns = now;
	d->ended = ended;
	if (ended)
		trace_pair_record(&c->stats[x->pair],
				  now > x->start_ns ? now - x->start_ns : 0);
	else
		c->stats[x->pair].unended++;
}

/* An end of pair on thread tid: its pair's latest open call there
 * closes, and the calls opened inside it (by a later firing) that are
 * still open close with it, unended; those its own start opened (other
 * pairs of the same start) stay open. */
static void end_on_thread(struct calls *c, int pair, unsigned tid,
			  unsigned long long now)
{
	/* The index first: thread_index may move c->threads. */
	int t = thread_index(c, tid), k, j, kept;
	struct thread_calls *th = &c->threads[t];

	if (th->overflow) {
		th->overflow--;
		return;
	}
	for (k = th->depth - 1; k >= 0 && th->stack[k].pair != pair; k--)
		;
	if (k < 0) {
		c->stats[pair].unmatched++;
		return;
	}
	for (j = th->depth - 1; j > k; j--)
		if (th->stack[j].seq > th->stack[k].seq)
			close_call(c, &th->stack[j], now, 0);
	close_call(c, &th->stack[k], now, 1);
	for (kept = k, j = k + 1; j < th->depth; j++)
		if (th->stack[j].seq == th->stack[k].seq) {
			th->stack[kept] = th->stack[j];
			th->stack[kept].depth = kept;
			kept++;
		}
	th->depth = kept;
}

static void end_by_value(struct calls *c, int pair, unsigned long long value,
			 unsigned long long now)
{
	int k;

	for (k = c->nby_value - 1; k >= 0; k--)
		if (c->by_value[k].pair == pair &&
		    c->by_value[k].value == value)
			break;
	if (k < 0) {
		c->stats[pair].unmatched++;
		return;
	}
	close_call(c, &c->by_value[k], now, 1);
	memmove(&c->by_value[k], &c->by_value[k + 1],
		(size_t)(c->nby_value - k - 1) * sizeof(*c->by_value));
	c->nby_value--;
}

/* A new call of pair from its start e, in place at x. */
static void fill(struct calls *c, struct call *x, int pair,
		 const struct trace_event *e, const char *args)
{
	int arg = c->tr->pairs[pair].start_arg;

	memset(x, 0, sizeof(*x));
	x->pair = pair;
	x->pid = e->pid;
	x->tid = e->tid;
	x->value = arg >= 0 ? meant_value(c->tr->probes + e->probe, e, arg) : 0;
	x->start_ns = e->time_ns;
	x->seq = c->seq;
	call_name(c->tr, pair, e, &c->name);
	x->name = xstrdup(c->name.data);
	if (c->tr->pairs[pair].line_arg >= 0)
		x->line = meant_value(c->tr->probes + e->probe, e,
				      c->tr->pairs[pair].line_arg);
	x->start_args = args ? xstrdup(args) : NULL;
	x->thread = -1; /* by value: on no thread's stack */
	x->profile_name = x->profile_node = -1;
}

static void start(struct calls *c, int pair, const struct trace_event *e,
		  const char *args)
{
	struct thread_calls *th;
	int t;

	if (c->tr->pairs[pair].start_arg >= 0) {
		c->by_value = xgrow(c->by_value, (size_t)c->nby_value,
				    sizeof(*c->by_value));
		fill(c, &c->by_value[c->nby_value], pair, e, args);
		c->opened[c->nopened++] =
			(struct call_ref){ -1, c->nby_value++ };
		return;
	}
	t = thread_index(c, e->tid);
	th = &c->threads[t];
	if (th->depth >= CALLS_MAX_DEPTH) {
		th->overflow++;
		c->stats[pair].too_deep++;
		return;
	}
	if (th->depth == th->cap) {
		th->cap = th->cap ? 2 * th->cap : 16;
		th->stack = xrealloc(th->stack,
				     (size_t)th->cap * sizeof(*th->stack));
	}
	fill(c, &th->stack[th->depth], pair, e, args);
	th->stack[th->depth].thread = t;
	th->stack[th->depth].depth = th->depth;
	c->opened[c->nopened++] = (struct call_ref){ t, th->depth++ };
}

/* What a call holds of its own. */
static void call_free(struct call *x)
{
	free(x->name);
	free(x->start_args);
}

static void forget_closed(struct calls *c)
{
	int i;

	for (i = 0; i < c->nclosed; i++)
		call_free(&c->closed[i]);
	c->nclosed = c->nopened = 0;
}

void calls_event(struct calls *c, const struct trace_event *e)
{
	const struct tracer *tr = c->tr;
	const struct traced *t = &tr->probes[e->probe];
	char args[EVENT_LINE_MAX], *p = args;
	int r;

	forget_closed(c);
	c->last_ns = e->time_ns;
	c->seq++;
	for (r = 0; r < t->nends; r++) {
		int pair = t->ends[r], arg = tr->pairs[pair].end_arg;

		if (!tracked(c, pair))
			continue;
		if (arg >= 0)
			end_by_value(c, pair, meant_value(t, e, arg), e->time_ns);
		else
			end_on_thread(c, pair, e->tid, e->time_ns);
	}
	if (c->keep_args && t->nstarts) {
		*p++ = '{';
		p = event_put_args(p, t, e, 1);
		*p++ = '}';
		*p = '\0';
	}
	for (r = 0; r < t->nstarts; r++)
		if (tracked(c, t->starts[r]))
			start(c, t->starts[r], e, c->keep_args ? args : NULL);
}

const struct call *calls_closed(const struct calls *c, int *n)
{
	*n = c->nclosed;
	return c->closed;
}

struct call *calls_opened(struct calls *c, int i)
{
	struct call_ref r;

	if (i >= c->nopened)
		return NULL;
	r = c->opened[i];
	return r.thread < 0 ? &c->by_value[r.index]
			    : &c->threads[r.thread].stack[r.index];
}

struct call *calls_below(struct calls *c, const struct call *x)
{
	if (x->thread < 0 || x->depth == 0)
		return NULL;
	return &c->threads[x->thread].stack[x->depth - 1];
}

void calls_tally(const struct calls *c, struct trace_pair_stats *pairs)
{
	const struct tracer *tr = c->tr;
	int i, k;

	for (i = 0; i < tr->npairs && i < TRACE_MAX_PAIRS; i++)
		if (tr->pairs[i].in_user)
			pairs[i] = c->stats[i];
	/* The calls still open: unended, so far. */
	for (i = 0; i < c->nthreads; i++)
		for (k = 0; k < c->threads[i].depth; k++)
			if (tr->pairs[c->threads[i].stack[k].pair].in_user)
				pairs[c->threads[i].stack[k].pair].unended++;
}

void calls_end(struct calls *c)
{
	int i;

	forget_closed(c);
	for (i = 0; i < c->nthreads; i++) {
		struct thread_calls *th = &c->threads[i];

		while (th->depth)
			close_call(c, &th->stack[--th->depth], c->last_ns, 0);
	}
	while (c->nby_value)
		close_call(c, &c->by_value[--c->nby_value], c->last_ns, 0);
}

void calls_free(struct calls *c)
{
	int i, k;

	if (!c)
		return;
	forget_closed(c);
	for (i = 0; i < c->nthreads; i++) {
		for (k = 0; k < c->threads[i].depth; k++)
			call_free(&c->threads[i].stack[k]);
		free(c->threads[i].key);
		free(c->threads[i].stack);
	}
	for (k = 0; k < c->nby_value; k++)
		call_free(&c->by_value[k]);
	name_set_free(&c->thread_set);
	buf_free(&c->name);
	free(c->threads);
	free(c->by_value);
	free(c->closed);
	free(c);
}
