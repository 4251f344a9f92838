/*
 * tests/unit/test_trace_budget.c - --budget's policy (budget_shares):
 * which probes are traced whole and what share of the time the others
 * get, from each one's cost, whether it is rare (budget_rare) and what
 * the budget allows; and what it allows (budget_allowance), a debt paid
 * back; and the summary's end, which says what each estimate rests on.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/budget.h"
#include "trace/tracer.h"
#include "unit.h"

/* What the shares cost: each probe's cost whole times its share. */
static double spent(const double *cost, const double *share, int n)
{
	double sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += cost[i] * share[i];
	return sum;
}

static void everything_fits(void)
{
	double cost[3] = { 0.001, 0.002, 0.003 }, share[3];
	int rare[3] = { 0, 0, 0 };

	budget_shares(cost, rare, NULL, 3, 0.01, 0.01, share);
	for (int i = 0; i < 3; i++)
		CHECK(share[i] == 1, "probe %d: share %g, not whole", i, share[i]);
}

/* The cheapest fit whole; the hot share what is left alike, and the
 * whole cost is the allowance. */
static void the_hot_share_what_is_left(void)
{
	double cost[4] = { 0.5, 0.001, 0.2, 0.002 }, share[4];
	int rare[4] = { 0, 0, 0, 0 };

	budget_shares(cost, rare, NULL, 4, 0.05, 0.05, share);
	CHECK(share[1] == 1 && share[3] == 1, "cheap probes sampled: %g %g",
	      share[1], share[3]);
	CHECK(share[0] < 1 && share[0] == share[2], "hot shares %g %g", share[0],
	      share[2]);
	CHECK(fabs(spent(cost, share, 4) - 0.05) < 1e-9, "spent %g of 0.05",
	      spent(cost, share, 4));
}

/* A rare probe is whole even when it alone passes the allowance (its
 * count stays exact), and a share never falls below the least. */
static void rare_probes_stay_whole(void)
{
	double cost[2] = { 0.0004, 3.0 }, share[2];
	int rare[2] = { budget_rare(80, 1), budget_rare(600000, 1) };

	budget_shares(cost, rare, NULL, 2, 0.0001, 0.0001, share);
	CHECK(share[0] == 1, "a probe of 80 firings a second sampled: %g", share[0]);
	CHECK(share[1] > 0 && share[1] < 0.02, "the hot probe's share %g", share[1]);
}

/* Rare is under 100 firings a second, judged on a second at least: a
 * few firings close together at the start are not a rate (CI's -p
 * trace of a probe firing 98 times a second: 3 in its first 20 ms, 150
 * a second, sampled), while a busy probe passes 100 firings at once. */
static void rare_is_judged_on_a_second(void)
{
	CHECK(budget_rare(3, 0.02), "3 firings in 20 ms called hot");
	CHECK(budget_rare(99, 1.0), "99 firings in 1 s called hot");
	CHECK(budget_rare(150, 1.9), "150 firings in 1.9 s called hot");
	CHECK(!budget_rare(20000, 0.02), "20,000 firings in 20 ms called rare");
	CHECK(!budget_rare(101, 0.5), "101 firings in 0.5 s called rare");
	CHECK(!budget_rare(250, 2.0), "250 firings in 2 s called rare");
	CHECK(budget_rare(0, 0), "no firings called hot");
}

static void nothing_measured(void)
{
	double share[1];

	budget_shares(NULL, NULL, NULL, 0, 0.05, 0.05, share);
	CHECK(1, "no probes");
}

/* A load's start traced whole (0.08 CPU s past a 5% budget of one
 * CPU) is paid back: nothing more is allowed while it owes more than a
 * second's budget, the spans after it spend less, and once paid the
 * whole budget is back; an idle span saves nothing up. */
static void a_debt_is_paid_back(void)
{
	double debt = 0, a, before;
	int i;

	a = budget_allowance(0.05, 1.0, 0.05, 0.08, &debt);
	CHECK(fabs(debt - 0.0775) < 1e-9, "debt %g, not 0.0775", debt);
	CHECK(a == 0, "allowed %g while owing %g", a, debt);
	/* Each span spends what it is allowed: the debt falls by a
	   twentieth a span (a second's time constant). */
	for (i = 0; i < 100; i++) {
		before = debt;
		a = budget_allowance(0.05, 1.0, 0.05, a * 0.05, &debt);
		CHECK(debt < before, "span %d: debt %g grew from %g", i, debt,
		      before);
		if (i == 19)
			CHECK(debt < 0.0775 / 2, "after 1 s, owing %g", debt);
	}
	CHECK(debt < 0.0775 * 0.01, "still owing %g after 5 s", debt);
	/* An idle span pays what is left; the next is allowed it all. */
	budget_allowance(0.05, 1.0, 0.05, 0, &debt);
	a = budget_allowance(0.05, 1.0, 0.05, 0, &debt);
	CHECK(debt == 0 && fabs(a - 0.05) < 1e-9,
	      "an idle span: debt %g, allowed %g", debt, a);
}

/* A window's cost comes at once: its debt (the allowance down to
 * 0.005 of a room of 0.045) is paid by the hot's share, while a probe
 * whole now stays whole.  Each flip is a link made or closed
 * (memcached: 73 in 6 s before). */
static void a_whole_probe_outlasts_a_windows_debt(void)
{
	double cost[2] = { 0.015, 0.5 }, share[2];
	int rare[2] = { 0, 0 };
	enum budget_standing was[2] = { BUDGET_WHOLE, BUDGET_SAMPLED };

	budget_shares(cost, rare, was, 2, 0.045, 0.005, share);
	CHECK(share[0] == 1, "the whole probe sampled for a debt: %g", share[0]);
	CHECK(share[1] > 0 && share[1] < 0.02, "the hot's share %g, not the least",
	      share[1]);
	/* Past the room it is sampled, debt or not. */
	budget_shares(cost, rare, was, 2, 0.012, 0.012, share);
	CHECK(share[0] < 1, "whole past the room: %g", share[0]);
}

/* At the edge of the room a probe keeps its standing: whole stays
 * whole, sampled stays sampled until it fits with some to spare, and
 * one just sampled waits (held) however much room there is. */
static void a_probe_at_the_edge_keeps_its_standing(void)
{
	double cost[2] = { 0.015, 0.5 }, share[2];
	int rare[2] = { 0, 0 };
	enum budget_standing was[2] = { BUDGET_WHOLE, BUDGET_SAMPLED };

	budget_shares(cost, rare, was, 2, 0.021, 0.021, share);
	CHECK(share[0] == 1, "whole now, sampled at the edge: %g", share[0]);
	was[0] = BUDGET_SAMPLED;
	budget_shares(cost, rare, was, 2, 0.021, 0.021, share);
	CHECK(share[0] < 1, "sampled now, whole at the edge: %g", share[0]);
	budget_shares(cost, rare, was, 2, 0.05, 0.05, share);
	CHECK(share[0] == 1, "sampled with room to spare: %g", share[0]);
	was[0] = BUDGET_HELD;
	budget_shares(cost, rare, was, 2, 0.05, 0.05, share);
	CHECK(share[0] < 1, "held, yet whole: %g", share[0]);
}

/* The summary's end names each sampled probe with the windows its
 * estimate rests on: how many, how many it fired in, or none (sampled,
 * then whole again before a window: its gap at its rate whole). */
static void the_end_says_what_each_estimate_rests_on(void)
{
	char steady[] = "p:steady", bursty[] = "p:bursty", back[] = "p:back",
	     whole[] = "p:whole";
	struct traced probes[4] = { { .label_text = steady },
				    { .label_text = bursty },
				    { .label_text = back },
				    { .label_text = whole } };
	struct budget_probe bp[4] = {
		{ .group = 0, .raw = 50, .estimated = 1000, .windows = 3,
		  .windows_fired = 3 },
		{ .group = 1, .raw = 5, .estimated = 100, .windows = 3,
		  .windows_fired = 1 },
		{ .group = 2, .raw = 80, .estimated = 100 },
		{ .group = 3, .raw = 10, .estimated = 10 },
	};
	struct budget_group g[4] = { { .least_share = 0.05 },
				     { .least_share = 0.05 },
				     { .least_share = 0.5 },
				     { .least_share = 1 } };
	struct budget b = { .share = 0.05, .p = bp, .g = g, .n = 4,
			    .start = 1, .end = 7, .cpu_s = 1.05,
			    .cost_s = 0.05 };
	struct tracer tr = { .probes = probes };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	tr.features[FEATURE_BUDGET] = &b;
	budget_say(&tr, f, 0);
	fclose(f);
	CHECK(strstr(text, "p:steady                                 5.0% of its firings counted, in 3 windows\n") != NULL,
	      "steady: %s", text);
	CHECK(strstr(text, "p:bursty                                 5.0% of its firings counted, in 3 windows (it fired in 1)\n") != NULL,
	      "bursty: %s", text);
	CHECK(strstr(text, "p:back                                   80.0% of its firings counted, in no window (at the rate it had traced whole)\n") != NULL,
	      "back: %s", text);
	CHECK(strstr(text, "p:whole ") == NULL, "a whole probe named: %s", text);
	CHECK(strstr(text, "traced whole: the other 1 probe\n") != NULL,
	      "whole: %s", text);
	free(text);
}

UNIT_CASES(UNIT(everything_fits), UNIT(the_hot_share_what_is_left),
	   UNIT(rare_probes_stay_whole), UNIT(rare_is_judged_on_a_second),
	   UNIT(nothing_measured),
	   UNIT(a_debt_is_paid_back),
	   UNIT(a_whole_probe_outlasts_a_windows_debt),
	   UNIT(a_probe_at_the_edge_keeps_its_standing),
	   UNIT(the_end_says_what_each_estimate_rests_on))
