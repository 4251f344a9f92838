/*
 * src/trace/budget_said.c - what --budget did, as the sinks read it: each
 * probe's share of its firings counted, counts scaled by it,
 * and the budget said at the start and at the end (budget.c keeps the
 * state; this side calls nothing of the kernel's, so that the sinks'
 * fuzzers link without it).
 */
#include <stdio.h>
#include <string.h>

#include "trace/budget.h"

double budget_share(const struct tracer *tr, int probe)
{
	const struct budget *b = budget_of(tr);
	double traced;

	if (!b || probe < 0 || probe >= b->n || b->unswitchable)
		return 1;
	traced = (b->end ? b->end : now_seconds()) - b->start;
	if (b->g[b->p[probe].group].least_share >= 1 || traced <= 0)
		return 1;
	/* What was counted over what it stands for: each sampled
	   window's firings weighed by 1/its share, whole slots by 1
	   (load that comes and goes is not averaged over the trace). */
	if (b->p[probe].estimated <= 0 || b->p[probe].raw == 0)
		return b->p[probe].attached_s < traced
			       ? b->p[probe].attached_s / traced
			       : 1;
	return (double)b->p[probe].raw < b->p[probe].estimated
		       ? (double)b->p[probe].raw / b->p[probe].estimated
		       : 1;
}

double budget_traced_seconds(const struct tracer *tr, int probe)
{
	const struct budget *b = budget_of(tr);
	double now = b && b->end ? b->end : now_seconds();

	if (!b || !b->start || probe >= b->n)
		return b && b->start ? now - b->start : 0;
	return b->p[probe].attached_s +
	       (b->p[probe].attached ? now - b->p[probe].since : 0);
}

double budget_pair_share(const struct tracer *tr, int pair)
{
	return budget_share(tr, tr->pairs[pair].start);
}

unsigned long long budget_scaled(unsigned long long n, double share)
{
	return share >= 1 || share <= 0 ? n
					: (unsigned long long)((double)n / share + 0.5);
}

/* ---- said ---- */

void budget_say_start(const struct tracer *tr)
{
	const struct trace_plan *p = &tr->plan;

	if (p->budget_waived)
		info_plain("%s counts every firing: the trace runs whole, with no budget (-p's default is %d%%)",
			   p->budget_waived, TRACE_BUDGET_DEFAULT_PID);
	else if (p->budget_default)
		info_plain("tracing within a budget of %g%% of the process's CPU time (-p's default): hot probes are sampled, and said; --budget none traces every firing",
			   p->budget * 100);
}

/* A sampled probe's line at the summary's end: its share, and the
 * windows its estimate rests on. */
static void say_sampled(FILE *f, const char *label, double share,
			const struct budget_probe *p)
{
	fprintf(f, "    %-40s %.1f%% of its firings counted, ", label,
		100 * share);
	/* No window opened while it was sampled (the least share is one
	   in 5 s): its gaps stand at the rate it had traced whole,
	   before or after. */
	if (!p->windows)
		fputs("in no window (at the rate it had traced whole)\n", f);
	else if (p->windows_fired < p->windows)
		fprintf(f, "in %u windows (it fired in %u)\n", p->windows,
			p->windows_fired);
	else
		fprintf(f, "in %u window%s\n", p->windows,
			p->windows == 1 ? "" : "s");
}

void budget_say(const struct tracer *tr, FILE *f, int json)
{
	const struct budget *b = budget_of(tr);
	struct buf names = { 0 };
	int i, nsampled = 0, over;
	double used;

	if (!b)
		return;
	used = b->cpu_s > b->cost_s ? 100 * b->cost_s / (b->cpu_s - b->cost_s)
				     : 0;
	/* Exceeded is the run's cost, not one decision's (a load's start
	   passes it until paid back); the decisions say why. */
	over = used > b->share * 100;
	if (json) {
		fprintf(f, "{\"percent\": %g, \"default\": %s, \"cost_percent\": %.2f, \"cpu_seconds\": %.3f, \"cost_seconds\": %.3f, \"processes\": %d, \"exceeded\": %s, \"forgotten_starts\": %llu, \"sampled\": [",
			b->share * 100, tr->plan.budget_default ? "true" : "false",
			used, b->cpu_s, b->cost_s, b->nprocs,
			over ? "true" : "false", b->forgotten);
		for (i = 0; i < b->n; i++) {
			double s = budget_share(tr, i);

			if (s >= 1)
				continue;
			buf_json_string(&names, tr->probes[i].label);
			fprintf(f, "%s{\"probe\": %s, \"share\": %.4f, \"windows\": %u, \"windows_fired\": %u}",
				nsampled++ ? ", " : "", names.data, s,
				b->p[i].windows, b->p[i].windows_fired);
			names.len = 0;
		}
		fputs("]}", f);
		buf_free(&names);
		return;
	}
	fprintf(f, "\nbudget: %g%% of the traced processes' CPU time%s; the trace cost %.1f%% (%.3f s of %.3f s, in %d process%s)\n",
		b->share * 100,
		tr->plan.budget_default ? " (-p's default)" : "", used,
		b->cost_s, b->cpu_s > b->cost_s ? b->cpu_s - b->cost_s : 0,
		b->nprocs, b->nprocs == 1 ? "" : "es");
	if (b->unswitchable) {
		fputs("  every firing traced: this kernel cannot detach one probe\n",
		      f);
		return;
	}
	for (i = 0; i < b->n; i++) {
		double s = budget_share(tr, i);

		if (s >= 1)
			continue;
		if (!nsampled++)
			fprintf(f, "  sampled (traced together, in windows of %.0f ms; counts scaled by the share counted):\n",
				BUDGET_SLOT_SECONDS * 1000);
		say_sampled(f, tr->probes[i].label_text, s, &b->p[i]);
	}
	if (!nsampled)
		fputs("  every probe traced whole\n", f);
	else if (nsampled < b->n)
		fprintf(f, "  traced whole: the other %d probe%s\n",
			b->n - nsampled, b->n - nsampled == 1 ? "" : "s");
	if (b->forgotten)
		fprintf(f, "  %llu starts still open as their window closed were forgotten (their calls not timed)\n",
			b->forgotten);
	if (over && b->exceeded_rare)
		fprintf(f, "  exceeded: the probes under %.0f firings a second, always traced whole, cost more than the budget\n",
			BUDGET_RARE_RATE);
	if (over && b->exceeded_least)
		fprintf(f, "  exceeded: the least share (%.0f%%) of the hot probes cost more than the budget\n",
			BUDGET_MIN_SHARE * 100);
	if (over && !b->exceeded_rare && !b->exceeded_least)
		fputs("  exceeded: the stretch traced whole before a decision (a load's start) was not paid back by the end\n",
		      f);
}


char *budget_sampled_text(const struct tracer *tr)
{
	const struct budget *b = budget_of(tr);
	struct buf t = { 0 };
	char *text;
	int i, n = 0;

	for (i = 0; b && i < b->n; i++) {
		double share = budget_share(tr, i);

		if (share >= 1)
			continue;
		buf_printf(&t, "%s%s %.1f%%", n++ ? ", " : "",
			   tr->probes[i].label, 100 * share);
	}
	if (!n)
		return NULL;
	text = xasprintf("sampled by --budget %g%% (the share of each probe's firings counted): %s",
			 b->share * 100, t.data);
	buf_free(&t);
	return text;
}
