/*
 * tests/unit/test_trace_budget.c - --budget's policy (budget_shares):
 * which probes are traced whole and what share of the time the others
 * get, from each one's cost and rate and what the budget allows.
 */
#include <math.h>

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
	double cost[3] = { 0.001, 0.002, 0.003 }, rate[3] = { 1000, 2000, 3000 },
	       share[3];

	budget_shares(cost, rate, 3, 0.01, share);
	for (int i = 0; i < 3; i++)
		CHECK(share[i] == 1, "probe %d: share %g, not whole", i, share[i]);
}

/* The cheapest fit whole; the hot share what is left alike, and the
 * whole cost is the allowance. */
static void the_hot_share_what_is_left(void)
{
	double cost[4] = { 0.5, 0.001, 0.2, 0.002 },
	       rate[4] = { 500000, 1000, 200000, 2000 }, share[4];

	budget_shares(cost, rate, 4, 0.05, share);
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
	double cost[2] = { 0.0004, 3.0 }, rate[2] = { 80, 600000 }, share[2];

	budget_shares(cost, rate, 2, 0.0001, share);
	CHECK(share[0] == 1, "a probe of 80 firings a second sampled: %g", share[0]);
	CHECK(share[1] > 0 && share[1] < 0.02, "the hot probe's share %g", share[1]);
}

static void nothing_measured(void)
{
	double share[1];

	budget_shares(NULL, NULL, 0, 0.05, share);
	CHECK(1, "no probes");
}

UNIT_CASES(UNIT(everything_fits), UNIT(the_hot_share_what_is_left),
	   UNIT(rare_probes_stay_whole), UNIT(nothing_measured))
