/*
 * src/trace/sinks/judge.c - --expect's sink: each firing of an expected
 * probe judged by the expectations that name it (their expressions as
 * --where compiled them, evaluated as the kernel would: decode/verdict.c),
 * and at the end each expectation said with its count, met or not.  An
 * expectation not met makes the run's status 1, as --expect-all does.
 */
#include <string.h>

#include "trace/sinks/sinks.h"
#include "trace/decode/event.h"

void expects_event(struct tracer *tr, const struct trace_event *e)
{
	struct filter_operand operands[TRACE_MAX_SLOTS];
	const struct traced *t = &tr->probes[e->probe];
	struct expectations *xs = feature_state(tr, FEATURE_EXPECT);
	int k, j, read = 0;

	if (!t->nexpected)
		return;
	for (k = 0; xs && k < xs->n; k++) {
		struct expectation *x = &xs->all[k];

		for (j = 0; j < x->ntargets; j++) {
			if (x->targets[j].probe != (int)e->probe)
				continue;
			x->fired++;
			if (x->targets[j].filter && !read) {
				event_operands(t, e, operands);
				read = 1;
			}
			if (!x->targets[j].filter ||
			    filter_evaluate(x->targets[j].filter, operands))
				x->passed++;
		}
	}
}

/* The spec is said as given: the user's own words (as --where's). */

/* What x wants, in words: "at least 1", "exactly 3", "never". */
static void wanted(struct buf *b, const struct expectation *r)
{
	if (r->every)
		buf_lit(b, "every firing, at least 1");
	else if (r->max == 0)
		buf_lit(b, "never");
	else if (r->max < 0)
		buf_printf(b, "at least %lld", r->min);
	else if (r->min == r->max)
		buf_printf(b, "exactly %lld", r->min);
	else
		buf_printf(b, "%lld to %lld", r->min, r->max);
}

int expects_report(struct tracer *tr, int status)
{
	struct expectations *xs = feature_state(tr, FEATURE_EXPECT);
	struct buf want = { 0 };
	int k;

	for (k = 0; xs && k < xs->n; k++) {
		const struct expectation *x = &xs->all[k], *r = x;
		int met = r->every ? x->fired && x->passed == x->fired
				   : x->passed >= (unsigned long long)r->min &&
					     (r->max < 0 ||
					      x->passed <= (unsigned long long)r->max);

		want.len = 0;
		wanted(&want, r);
		if (x->refused)
			; /* said when it was */
		else if (!x->ntargets)
			error_input("--expect '%s': no probe traced can meet it (wanted %s)",
				    r->spec, want.data);
		else if (met)
			info_plain("--expect '%s': met: %llu of %llu firing%s passed (wanted %s)",
				   r->spec, x->passed, x->fired,
				   x->fired == 1 ? "" : "s", want.data);
		else
			error_input("--expect '%s': not met: %llu of %llu firing%s passed (wanted %s)",
				    r->spec, x->passed, x->fired,
				    x->fired == 1 ? "" : "s", want.data);
		if (!met || !x->ntargets)
			status = status == EXIT_OK ? EXIT_INPUT : status;
	}
	buf_free(&want);
	return status;
}
