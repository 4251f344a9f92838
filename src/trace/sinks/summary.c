/*
 * src/trace/sinks/summary.c - what --trace --summary prints at the end, from
 * what the BPF side counted and timed (no event crossed to user space,
 * but a profiled pair's: profile.c times those):
 * per probe its count; per pair its count, min, p50, p90, p99 and max,
 * and a power-of-two histogram drawn as DTrace's quantize() draws it;
 * a pair timed as a profile (profile.c) has its calls by name, most
 * self time first; then the declared probes that never fired.  --json:
 * one object.
 * Percentiles come from log-linear buckets, 8 to a power of two: each is
 * the lower bound of its bucket, within 12.5% below the true value.
 */
#include <stdlib.h>
#include <string.h>

#include "trace/sinks/sinks.h"
#include "trace/decode/event.h"
#include "trace/decode/stacks.h"

/* Which pairs the probes' names made (not --pair's): one line. */
/* Is probe i one whose never firing is worth saying: the program's own,
 * or one -n chose?  A system library's probes (libstdc++'s catch, throw,
 * rethrow in every C++ program) are not, as --expect-all does not
 * expect them. */
static int expected(const struct tracer *tr, int i)
{
	return !(tr->probes[i].from_system && !tr->plan.request->filters.n);
}

/* A pair found by its probes' names whose starts far outnumber its ends,
 * or the reverse, is likely not one operation's start and end (BIND's
 * xfrin_recv_start fires per message, xfrin_recv_done per transfer):
 * said, with how to name the right pair. */
static void doubtful_pairing(FILE *f, const struct trace_pair_stats *st)
{
	unsigned long long starts = st->count + st->unended + st->too_deep,
			   ends = st->count + st->unmatched;

	if ((starts > 2 * ends && starts >= 4) || (ends > 2 * starts && ends >= 4))
		fprintf(f,
			"  doubtful: paired by their names, with %llu start%s and %llu end%s; if they are not one operation's start and end, name the pair: --pair START,END\n",
			starts, starts == 1 ? "" : "s", ends, ends == 1 ? "" : "s");
}

static void paired_by_name(FILE *f, const struct tracer *tr)
{
	struct buf names = { 0 };
	int i;

	for (i = 0; i < tr->npairs; i++)
		if (tr->pairs[i].by_name) {
			buf_puts(&names,
				 names.len ? ", " : "\npaired by their names: ");
			buf_escaped(&names, tr->pairs[i].stem,
				    strlen(tr->pairs[i].stem), 0);
		}
	if (names.len)
		fprintf(f, "%s (--pair START,END times others)\n", names.data);
	buf_free(&names);
}

/* The value at fraction q of the pair's timed firings. */
static unsigned long long percentile(const struct trace_pair_stats *st,
				     double q)
{
	unsigned long long want = (unsigned long long)(q * (double)st->count +
						       0.999999),
			   seen = 0;
	int b;

	if (!want)
		want = 1;
	for (b = 0; b < TRACE_LAT_BUCKETS; b++) {
		seen += st->buckets[b];
		if (seen >= want) {
			unsigned long long v = trace_bucket_floor((unsigned)b);

			/* Never outside what was seen. */
			return v < st->min_ns	? st->min_ns
			       : v > st->max_ns ? st->max_ns
						: v;
		}
	}
	return st->max_ns;
}

/* A duration for people: 850 ns, 12.3 us, 4.56 ms, 1.20 s. */
static const char *duration_text(char out[32], unsigned long long ns)
{
	if (ns < 1000)
		snprintf(out, 32, "%llu ns", ns);
	else if (ns < 1000000)
		snprintf(out, 32, "%.1f us", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(out, 32, "%.2f ms", (double)ns / 1e6);
	else
		snprintf(out, 32, "%.2f s", (double)ns / 1e9);
	return out;
}

static void put_duration(FILE *f, unsigned long long ns)
{
	char text[32];

	fputs(duration_text(text, ns), f);
}

/* A pair timed as a profile: its calls by name, most self time first,
 * the first --top (TRACE_TOP_DEFAULT) of them. */
static void names_text(FILE *f, const struct tracer *tr, int pair)
{
	int i, n, top = tr->plan.top;
	struct profile_name **names = profile_names(sink_state(tr, SINK_PROFILE), pair, &n);
	struct buf name = { 0 };
	char a[32], b[32], c[32], d[32];

	if (n) {
		fprintf(f,
			"\n  by name (self: less the calls made inside it):\n");
		/* Its windows' calls: counted, not scaled (a name's total
		   is the windows' time). */
		if (budget_pair_share(tr, pair) < 1)
			fprintf(f, "  (sampled: the calls in --budget's windows, %.1f%% of the starts, as counted)\n",
				100 * budget_pair_share(tr, pair));
		fprintf(f, "  %10s  %10s  %10s  %10s  %10s  %s\n", "calls",
			"total", "self", "p50", "p99", "name");
	}
	for (i = 0; i < n && i < top; i++) {
		name.len = 0;
		buf_escaped(&name, names[i]->name, strlen(names[i]->name), 0);
		fprintf(f, "  %10llu  %10s  %10s  %10s  %10s  %s\n",
			names[i]->calls, duration_text(a, names[i]->total_ns),
			duration_text(b, names[i]->self_ns),
			duration_text(c, percentile(names[i]->times, 0.50)),
			duration_text(d, percentile(names[i]->times, 0.99)),
			name.data);
	}
	if (n > top)
		fprintf(f, "  (and %d more: --top N, or --json for all)\n",
			n - top);
	buf_free(&name);
	free(names);
}

/* As DTrace's quantize(): value, a bar of '@' scaled to 40 columns,
 * count; from a row of 0 below the first to one of 0 above the last. */
static void quantize(FILE *f, const struct trace_pair_stats *st)
{
	unsigned long long counts[64];
	int k, lo = 63, hi = 0, bar;

	trace_powers_of_two(st, counts);
	for (k = 0; k < 64; k++) {
		if (!counts[k])
			continue;
		lo = k < lo ? k : lo;
		hi = k;
	}
	if (lo > hi)
		return;
	fprintf(f, "  %16s  ------------- Distribution ------------- count\n",
		"value (ns)");
	for (k = lo > 0 ? lo - 1 : 0; k <= hi + 1 && k < 64; k++) {
		bar = (int)((counts[k] * 40 + st->count / 2) /
			    (st->count ? st->count : 1));
		fprintf(f, "  %16llu |%-40.*s %llu\n", k ? 1ull << k : 0ull,
			bar, "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@",
			counts[k]);
	}
}

/* A pair's min, percentiles and max on a line; and, when its median is
 * near a uprobe's trap (the end's firing pays one before it is timed),
 * that its times are mostly the tracer's own. */
static void percentiles_text(FILE *f, const struct tracer *tr,
			     const struct trace_pair_stats *st)
{
	fputs("  min ", f);
	put_duration(f, st->min_ns);
	fputs("  p50 ", f);
	put_duration(f, percentile(st, 0.50));
	fputs("  p90 ", f);
	put_duration(f, percentile(st, 0.90));
	fputs("  p99 ", f);
	put_duration(f, percentile(st, 0.99));
	fputs("  max ", f);
	put_duration(f, st->max_ns);
	fputc('\n', f);
	if (tr->trap_ns > 0 &&
	    percentile(st, 0.50) < 4 * (unsigned long long)tr->trap_ns) {
		fputs("  (a uprobe's trap costs about ", f);
		put_duration(f, (unsigned long long)tr->trap_ns);
		fputs(" here: times near it are mostly the tracer's own)\n", f);
	}
	fputc('\n', f);
}

/* A probe's firings a second over the trace, after its count: what it
 * costs the program is that times a uprobe's trap (the hot probes' line
 * after the first second says it). */
static void put_rate(FILE *f, const struct tracer *tr, unsigned long long n)
{
	double rate;

	if (tr->traced_seconds <= 0)
		return;
	rate = (double)n / tr->traced_seconds;
	fprintf(f, rate >= 100 ? "  %.0f/s" : rate >= 1 ? "  %.1f/s" : "  %.3f/s",
		rate);
}

/* Each probe that fired: its count and rate, marked where sampled. */
static void probes_text(FILE *f, const struct tracer *tr, const struct tally *t)
{
	double share;
	int i;

	/* Nothing fired: said in words, not as an empty list. */
	for (i = 0; i < tr->nprobes && !t->counts[i]; i++)
		;
	fprintf(f, i < tr->nprobes ? "probes:\n" : "probes: none fired\n");
	for (i = 0; i < tr->nprobes; i++) {
		if (!t->counts[i])
			continue;
		share = budget_share(tr, i);
		fprintf(f, "  %-40s %s%llu", tr->probes[i].label_text,
			share < 1 ? "~" : "", t->counts[i]);
		put_rate(f, tr, t->counts[i]);
		/* One process needs no saying. */
		if (t->processes && t->processes[i] > 1)
			fprintf(f, " in %u processes", t->processes[i]);
		if (share < 1)
			fprintf(f, "  (sampled: %.1f%% of its firings counted, scaled)",
				100 * share);
		fputc('\n', f);
	}
}

static void print_text(FILE *f, const struct tracer *tr, const struct tally *t)
{
	struct buf name = { 0 };
	int i, unfired = 0;
	double share;

	probes_text(f, tr, t);
	paired_by_name(f, tr);
	for (i = 0; i < tr->npairs; i++) {
		const struct trace_pair_stats *st = &t->pairs[i];

		/* A binary's names: escaped. */
		name.len = 0;
		buf_escaped(&name, tr->pairs[i].stem, strlen(tr->pairs[i].stem),
			    0);
		buf_lit(&name, " (");
		buf_escaped(&name, tr->pairs[i].label,
			    strlen(tr->pairs[i].label), 0);
		share = budget_pair_share(tr, i);
		fprintf(f, "\n%s): %s%llu timed", name.data,
			share < 1 ? "~" : "", st->count);
		if (share < 1)
			fprintf(f, " (sampled: %.1f%% of its starts counted; counts scaled, latencies as timed)",
				100 * share);
		if (st->unmatched)
			fprintf(f, ", %llu ends without a start",
				st->unmatched);
		if (st->too_deep)
			fprintf(f,
				", %llu starts nested deeper than the stack of %d (not timed)",
				st->too_deep,
				tr->pairs[i].in_user ? CALLS_MAX_DEPTH
						     : TRACE_MAX_NEST);
		if (st->unended)
			fprintf(f, ", %llu starts never ended", st->unended);
		/* Starts that are not nested calls (objects made, then
		   freed) pair by an argument that names each. */
		if ((st->too_deep || st->unended) && !tr->pairs[i].by)
			fprintf(f,
				" (not nested calls? match them by an argument: --pair START,END,ARG)");
		fputc('\n', f);
		if (tr->pairs[i].by_name)
			doubtful_pairing(f, st);
		if (!st->count)
			continue;
		percentiles_text(f, tr, st);
		quantize(f, st);
		if (tr->pairs[i].in_user && tr->pairs[i].nname_args)
			names_text(f, tr, i);
	}
	for (i = 0; i < tr->nprobes; i++)
		if (!t->counts[i] && expected(tr, i))
			fprintf(f, "%s  %s\n",
				unfired++ ? "" : "\nnever fired:\n",
				tr->probes[i].label_text);
	for (i = 0; i < tr->nsiteless; i++) {
		name.len = 0;
		buf_escaped(&name, tr->siteless[i], strlen(tr->siteless[i]), 0);
		fprintf(f, "%s  %s (declared, no site)\n",
			unfired++ ? "" : "\nnever fired:\n", name.data);
	}
	buf_free(&name);
}

static void json_name(FILE *f, const char *s)
{
	struct buf b = { 0 };

	buf_json_string(&b, s);
	fwrite(b.data, 1, b.len, f);
	buf_free(&b);
}

/* A profiled pair's calls by name, all of them, and the start's
 * arguments that name them. */
static void names_json(FILE *f, const struct tracer *tr, int pair)
{
	const struct traced_pair *p = &tr->pairs[pair];
	int i, n;
	struct profile_name **names = profile_names(sink_state(tr, SINK_PROFILE), pair, &n);

	fputs(", \"named_by\": [", f);
	for (i = 0; i < p->nname_args; i++) {
		fputs(i ? ", " : "", f);
		json_name(f, tr->probes[p->start].arg_names[p->name_args[i]]);
	}
	fputs("], ", f);
	if (budget_pair_share(tr, pair) < 1)
		fprintf(f, "\"names_sampled\": {\"share\": %.4f, \"scaled\": false}, ",
			budget_pair_share(tr, pair));
	fputs("\"names\": [", f);
	for (i = 0; i < n; i++) {
		fputs(i ? ", {\"name\": " : "{\"name\": ", f);
		json_name(f, names[i]->name);
		fprintf(f,
			", \"calls\": %llu, \"total_ns\": %llu, \"self_ns\": %llu, \"p50_ns\": %llu, \"p99_ns\": %llu}",
			names[i]->calls, names[i]->total_ns, names[i]->self_ns,
			percentile(names[i]->times, 0.50),
			percentile(names[i]->times, 0.99));
	}
	fputs("]", f);
	free(names);
}

/* A count scaled from a sample: what it was scaled from (--budget). */
static void sampled_json(FILE *f, double share, unsigned long long counted)
{
	if (share < 1)
		fprintf(f, ", \"sampled\": {\"share\": %.4f, \"counted\": %llu}",
			share, counted);
}

/* Each probe that fired, a member of "probes" (t scaled where sampled;
 * counted as counted). */
static void probes_json(FILE *f, const struct tracer *tr, const struct tally *t,
			const struct tally *counted)
{
	int i, n = 0;

	for (i = 0; i < tr->nprobes; i++) {
		if (!t->counts[i])
			continue;
		fputs(n++ ? ", " : "", f);
		json_name(f, tr->probes[i].label);
		fprintf(f, ": {\"count\": %llu", t->counts[i]);
		if (tr->traced_seconds > 0)
			fprintf(f, ", \"rate\": %.3f",
				(double)t->counts[i] / tr->traced_seconds);
		if (t->processes)
			fprintf(f, ", \"processes\": %u", t->processes[i]);
		sampled_json(f, budget_share(tr, i), counted->counts[i]);
		fputc('}', f);
	}
}

/* t: scaled where sampled; counted: as counted. */
static void print_json(FILE *f, const struct tracer *tr, const struct tally *t,
		       const struct tally *counted)
{
	unsigned long long counts[64];
	int i, k, n = 0;

	fprintf(f, "{\"seconds\": %.6f, \"probes\": {", tr->traced_seconds);
	probes_json(f, tr, t, counted);
	fputs("}, \"pairs\": [", f);
	for (i = 0; i < tr->npairs; i++) {
		const struct trace_pair_stats *st = &t->pairs[i];

		fputs(i ? ", {\"start\": " : "{\"start\": ", f);
		json_name(f, tr->probes[tr->pairs[i].start].label);
		fputs(", \"end\": ", f);
		json_name(f, tr->probes[tr->pairs[i].end].label);
		fputs(", \"work\": ", f);
		json_name(f, tr->pairs[i].stem);
		fputs(", \"by\": ", f);
		if (tr->pairs[i].by)
			json_name(f, tr->pairs[i].by);
		else
			fputs("null", f);
		fprintf(f, ", \"by_name\": %s",
			tr->pairs[i].by_name ? "true" : "false");
		fprintf(f,
			", \"count\": %llu, \"unmatched_ends\": %llu, \"too_deep_starts\": %llu, \"unended_starts\": %llu",
			st->count, st->unmatched, st->too_deep, st->unended);
		sampled_json(f, budget_pair_share(tr, i), counted->pairs[i].count);
		if (st->count)
			fprintf(f,
				", \"min_ns\": %llu, \"p50_ns\": %llu, \"p90_ns\": %llu, \"p99_ns\": %llu, \"max_ns\": %llu",
				st->min_ns, percentile(st, 0.50),
				percentile(st, 0.90), percentile(st, 0.99),
				st->max_ns);
		fputs(", \"histogram\": [", f);
		trace_powers_of_two(st, counts);
		for (k = 0, n = 0; k < 64; k++)
			if (counts[k])
				fprintf(f, "%s[%llu, %llu]", n++ ? ", " : "",
					k ? 1ull << k : 0ull, counts[k]);
		fputs("]", f);
		if (tr->pairs[i].in_user && tr->pairs[i].nname_args)
			names_json(f, tr, i);
		fputs("}", f);
	}
	fputs("], \"unfired\": [", f);
	for (i = 0, n = 0; i < tr->nprobes; i++) {
		if (t->counts[i] || !expected(tr, i))
			continue;
		fputs(n++ ? ", " : "", f);
		json_name(f, tr->probes[i].label);
	}
	for (i = 0; i < tr->nsiteless; i++) {
		fputs(n++ ? ", " : "", f);
		json_name(f, tr->siteless[i]);
	}
	fputs("]", f);
	if (sink_state(tr, SINK_STACK_COUNTS)) {
		fprintf(f, ", \"stack_every\": %u, \"stacks\": ",
			stack_counts_every(sink_state(tr, SINK_STACK_COUNTS)));
		stack_counts_print(sink_state(tr, SINK_STACK_COUNTS), tr, f, tr->plan.top, 1);
	}
	if (tr->plan.budget > 0) {
		fputs(", \"budget\": ", f);
		budget_say(tr, f, 1);
	}
	fputs("}\n", f);
}

/* Under --budget, t's counts as the whole trace's estimate: each
 * sampled probe's and pair's scaled by the share of the time it was
 * traced (latencies are as timed: the distribution is the windows'). */
static void scale_tally(const struct tracer *tr, const struct tally *t,
			struct tally *out)
{
	int i, b;

	*out = *t;
	out->counts = xcalloc((size_t)(tr->nprobes + 1), sizeof(*out->counts));
	out->pairs = xcalloc((size_t)(tr->npairs + 1), sizeof(*out->pairs));
	for (i = 0; i < tr->nprobes; i++)
		out->counts[i] = budget_scaled(t->counts[i], budget_share(tr, i));
	for (i = 0; i < tr->npairs; i++) {
		double share = budget_pair_share(tr, i);
		struct trace_pair_stats *p = &out->pairs[i];

		*p = t->pairs[i];
		p->count = budget_scaled(p->count, share);
		/* A window's end outlives its start by a slot, so that no
		   call is cut: the ends seen then have no start. */
		if (share < 1)
			p->unmatched = 0;
		p->too_deep = budget_scaled(p->too_deep, share);
		p->unended = budget_scaled(p->unended, share);
		p->sum_ns = budget_scaled(p->sum_ns, share);
		for (b = 0; b < TRACE_LAT_BUCKETS; b++)
			p->buckets[b] = budget_scaled(p->buckets[b], share);
	}
}

void summary_print(const struct tracer *tr, const struct tally *counted)
{
	struct tally scaled;
	const struct tally *t = counted;

	if (tr->plan.budget > 0) {
		scale_tally(tr, counted, &scaled);
		t = &scaled;
	}
	if (tr->plan.request->json)
		print_json(tr->out, tr, t, counted);
	else
		print_text(tr->out, tr, t);
	if (!tr->plan.request->json && sink_state(tr, SINK_STACK_COUNTS))
		stack_counts_print(sink_state(tr, SINK_STACK_COUNTS), tr, tr->out, tr->plan.top,
				   0);
	if (!tr->plan.request->json)
		budget_say(tr, tr->out, 0);
	if (t != counted) {
		free(scaled.counts);
		free(scaled.pairs);
	}
	fflush(tr->out);
}

int summary_unfired(const struct tracer *tr, const struct tally *t)
{
	struct buf name = { 0 };
	int i, n = 0;

	for (i = 0; i < tr->nprobes; i++)
		if (!t->counts[i] && t->rejected && t->rejected[i]) {
			error_input("probe %s fired %llu times, and never passed its --where (%s)",
				    tr->probes[i].label_text, t->rejected[i],
				    tr->probes[i].filter_text);
			n++;
		} else if (!t->counts[i] && expected(tr, i)) {
			error_input("probe %s never fired",
				    tr->probes[i].label_text);
			n++;
		}
	for (i = 0; i < tr->nsiteless; i++) {
		name.len = 0;
		buf_escaped(&name, tr->siteless[i], strlen(tr->siteless[i]), 0);
		error_input("probe %s never fired (it has no site)", name.data);
		n++;
	}
	buf_free(&name);
	return n > 0;
}
