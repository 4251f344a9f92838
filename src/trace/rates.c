/*
 * src/trace/rates.c - what tracing costs the traced program, judged
 * each second of a trace with no budget (--budget none, or -c with
 * none given) and said once: each firing of a traced probe
 * traps into the kernel (a uprobe; kernel/trap_cost.c measures one
 * here), so a probe that fires hundreds of thousands of times a second
 * costs the program most of a CPU, whichever tracer runs and whatever
 * --where rejects.  The hottest probes are named with their rates and
 * what they add, so that a user who attached everything to a server
 * under load knows why it slowed, and what -n to give.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/decode/event.h"

/* Say it when the probes cost the program at least this share of a
 * CPU (10 ms a second), or, with no trap measured, fire this often. */
#define RATES_SAY_COST 0.01
#define RATES_SAY_FIRINGS 10000.0
/* The probes named, the hottest first. */
#define RATES_NAMED 5

struct rate {
	int probe;
	double per_second;
};

static int hotter(const void *a, const void *b)
{
	const struct rate *x = a, *y = b;

	return x->per_second < y->per_second ? 1
	       : x->per_second > y->per_second ? -1
					       : 0;
}

/* The option that leaves out the hottest probes, as many (of the
 * RATES_NAMED hottest) as make RATES_LEFT_OUT of the firings, into b:
 * "-n '!libisc:rwlock_rdlock' -n '!...' leaves out 97% of the
 * firings".  A name a shell's single quotes cannot hold is not given. */
#define RATES_LEFT_OUT 0.9
static void leave_out(struct buf *b, const struct tracer *tr,
		      const struct rate *r, int n, double all)
{
	double sum = 0;
	int i;

	for (i = 0; i < n && i < RATES_NAMED && sum < RATES_LEFT_OUT * all; i++) {
		const char *label = tr->probes[r[i].probe].label;

		/* Its escaped form differs: a byte a shell would mangle. */
		if (strchr(label, '\'') ||
		    strcmp(label, tr->probes[r[i].probe].label_text) != 0)
			break;
		buf_printf(b, "%s-n '!%s'", i ? " " : "", label);
		sum += r[i].per_second;
	}
	if (i)
		buf_printf(b, " leaves out %.0f%% of the firings", 100 * sum / all);
	else
		buf_lit(b, "trace fewer with -n");
}

int rates_say_hot(struct tracer *tr, const unsigned long long *firings,
		  double seconds)
{
	struct rate *r;
	struct buf names = { 0 }, option = { 0 };
	double all = 0, cost;
	int i, n = 0;

	if (seconds <= 0 || !tr->nprobes)
		return 0;
	r = xcalloc((size_t)tr->nprobes, sizeof(*r));
	for (i = 0; i < tr->nprobes; i++) {
		r[n].probe = i;
		r[n].per_second = (double)firings[i] / seconds;
		all += r[n++].per_second;
	}
	qsort(r, (size_t)n, sizeof(*r), hotter);
	cost = tr->trap_ns > 0 ? all * (double)tr->trap_ns / 1e9 : -1;
	if ((cost >= 0 && cost < RATES_SAY_COST) ||
	    (cost < 0 && all < RATES_SAY_FIRINGS)) {
		free(r);
		return 0;
	}
	for (i = 0; i < n && i < RATES_NAMED && r[i].per_second >= 1; i++)
		buf_printf(&names, "%s%s %.0f a second", i ? ", " : "",
			   tr->probes[r[i].probe].label_text, r[i].per_second);
	leave_out(&option, tr, r, n, all);
	if (cost >= 0)
		warning_plain("the probes fire %.0f times a second (%s), each a uprobe's trap into the kernel, about %lld ns here: up to %.2f s of the program's CPU a second, over its threads; %s, or trace within a budget: --budget 5%% (--where does not lower a trap's cost)",
			      all, names.data, tr->trap_ns, cost, option.data);
	else
		warning_plain("the probes fire %.0f times a second (%s), each a uprobe's trap into the kernel; %s (--where does not lower a trap's cost)",
			      all, names.data, option.data);
	buf_free(&names);
	buf_free(&option);
	free(r);
	return 1;
}
