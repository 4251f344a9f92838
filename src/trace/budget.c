/*
 * src/trace/budget.c - --budget: what the trace may add to the traced
 * processes' CPU time, kept to through the run.  A feature row
 * (features.c's FEATURE_BUDGET) whose state is each probe's measured
 * cost and its windows.
 *
 * What is counted: each firing of a traced probe costs the program a
 * uprobe's trap (kernel/trap_cost.c, measured once at the start) and
 * the BPF program's run, with --stack's copy and --show's reads (timed
 * in the program itself: trace.bpf.c's costs map, under a budget
 * only).  Both are the program's own CPU time, in its threads, and
 * both are counted BUDGET_UNSEEN times (the caches they disturb).  The
 * budget is that cost as a share of the CPU time the processes spent
 * on their own work (their utime + stime from /proc, less the trace's
 * cost), so that a CPU-bound server under --budget 5% keeps at least
 * 1/1.05 = 95% of its throughput.
 *
 * The policy, every BUDGET_DECIDE_SECONDS: the probes (a pair's start
 * and end together) whose cost fits are traced whole, the cheapest
 * first, so that a rare probe is always counted exactly; the others
 * share what is left, attached together (one window, so that their
 * counts in it are of the same requests) for a fraction of the time,
 * in windows of BUDGET_SLOT_SECONDS (each probe's multi-uprobe link
 * made and closed: no trap at all while detached, for any USDT
 * program).  A sampled probe's firings are estimated (estimate: a
 * window's stand for the time since the last one), and budget_share
 * says what share of them was counted; a pair's window opens on its
 * end first and closes on the rest first, its end staying
 * BUDGET_GRACE_SECONDS longer, so that no call in flight is cut in two;
 * the starts still open then are forgotten.  A cost past the budget
 * (traced whole until a decision) is owed, and paid back by smaller
 * shares over BUDGET_REPAY_SECONDS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "trace/kernel/session.h"
#include "trace/sinks/sinks.h"

#include "trace/budget.h"

void *budget_start(struct tracer *tr)
{
	struct budget *b;

	if (!tr->plan.budget)
		return NULL;
	b = xcalloc(1, sizeof(*b));
	b->share = tr->plan.budget;
	return b;
}

void budget_free(void *state)
{
	struct budget *b = state;

	free(b->p);
	free(b->g);
	free(b->procs);
	free(b);
}

/* ---- the policy ---- */

int budget_rare(double firings, double seconds)
{
	return firings <= BUDGET_RARE_RATE * (seconds > 1 ? seconds : 1);
}

void budget_shares(const double *cost, const int *rare,
		   const enum budget_standing *standing, int n, double room,
		   double allowance, double *share)
{
	int *order = xcalloc((size_t)(n ? n : 1), sizeof(*order));
	double used = 0, hot = 0, f;
	int i, j, k, pass;

	/* Cheapest first: insertion sort (a trace's probes, once a
	   decision).  The least the sampled may take is kept from the
	   room: at it, the debt is paid back. */
	for (i = 0; i < n; i++) {
		for (j = i; j > 0 && cost[order[j - 1]] > cost[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
		share[i] = 0; /* decided below */
		if (!rare[i])
			room -= BUDGET_MIN_SHARE * cost[i];
	}
	/* The rare, then the whole now while they fit the room, then the
	   sampled that may turn whole where they fit it with some to
	   spare. */
	for (pass = 0; pass < 3; pass++)
		for (k = 0; k < n; k++) {
			enum budget_standing st;

			i = order[k];
			st = standing ? standing[i] : BUDGET_SAMPLED;
			if (share[i] || (pass == 0 && !rare[i]) ||
			    (pass == 1 && st != BUDGET_WHOLE) ||
			    (pass == 2 && st == BUDGET_HELD) ||
			    (pass == 1 && used + cost[i] > room) ||
			    (pass == 2 && used + cost[i] > BUDGET_ROOM * room))
				continue;
			share[i] = 1;
			used += cost[i];
		}
	for (i = 0; i < n; i++)
		if (!share[i])
			hot += cost[i];
	/* What the allowance leaves, shared alike by the hot. */
	f = hot > 0 && allowance > used ? (allowance - used) / hot : 0;
	if (f > 1)
		f = 1;
	if (f < BUDGET_MIN_SHARE)
		f = BUDGET_MIN_SHARE;
	for (i = 0; i < n; i++)
		if (share[i] == 0)
			share[i] = f;
	free(order);
}

double budget_allowance(double budget, double own, double span,
			double cost, double *debt)
{
	double allowance;

	*debt += cost - budget * own * span;
	if (*debt < 0)
		*debt = 0;
	allowance = budget * own - *debt / BUDGET_REPAY_SECONDS;
	return allowance > 0 ? allowance : 0;
}

/* ---- the processes' CPU time ---- */

/* Process pid's CPU time (every thread's, the kernel's own count to
 * the nanosecond; /proc's utime + stime are in ticks of 10 ms, a fifth
 * of a slot), in seconds; -1 when it is gone. */
static double process_cpu(int pid)
{
	struct timespec ts;
	clockid_t clock;

	if (clock_getcpuclockid(pid, &clock) != 0 ||
	    clock_gettime(clock, &ts) != 0)
		return -1;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The processes that run the traced binaries (no -p, no -c), looked
 * for again each BUDGET_RUNNING_SECONDS (between, the last look's): a
 * process that starts between counts from its start when found. */
static int running(struct budget *b, const struct tracer *tr)
{
	double now = now_seconds();

	if (!b->running_at || now - b->running_at >= BUDGET_RUNNING_SECONDS) {
		b->nrunning = trace_running(tr, b->running, BUDGET_MAX_PROCESSES);
		b->running_at = now;
	}
	return b->nrunning;
}

/* The CPU seconds the traced processes spent since the last call:
 * -p's process, -c's tree (probegen's descendants), or those that run
 * the binaries; each process known by its last reading, a new one from
 * its start. */
static double processes_cpu(struct budget *b, const struct tracer *tr,
			    int at_start)
{
	pid_t found[BUDGET_MAX_PROCESSES];
	const pid_t *pids = found;
	int n, i, k;
	double sum = 0, c;

	if (tr->plan.request->pid) {
		found[0] = tr->plan.request->pid;
		n = 1;
	} else if (tr->plan.request->command) {
		n = trace_descendants(found, BUDGET_MAX_PROCESSES);
	} else {
		n = running(b, tr);
		pids = b->running;
	}
	for (i = 0; i < n; i++) {
		if ((c = process_cpu(pids[i])) < 0)
			continue;
		for (k = 0; k < b->nprocs && b->procs[k].pid != pids[i]; k++)
			;
		if (k == b->nprocs) {
			b->procs = xgrow(b->procs, (size_t)b->nprocs,
					 sizeof(*b->procs));
			b->procs[b->nprocs].pid = pids[i];
			/* -p's process (or a binary's) ran before the
			   trace: from now. */
			b->procs[b->nprocs++].cpu = at_start ? c : 0;
		}
		if (c > b->procs[k].cpu)
			sum += c - b->procs[k].cpu;
		b->procs[k].cpu = c;
	}
	return sum;
}

/* ---- the windows ---- */

static int starts_a_pair(const struct traced *t)
{
	return t->nstarts > 0;
}

static int ends_a_pair(const struct traced *t)
{
	return t->nends > 0;
}

/* Where probe i's gap began: when its uprobes went (its link's closing
 * began, in its thread), else when it was asked. */
static double gap_start(struct tracer *tr, int i, double asked)
{
	double at = session_detached_at(tr->session, i, 0);

	return at >= asked ? at : asked;
}

/* Probe i's firings so far, and when they were read (the middle of the
 * read): a window's rate is its count over its time, each probe's read
 * together, so that probegen's wait for a CPU between a slot's time and
 * a probe's read is not window time. */
static double read_firings(struct tracer *tr, int i,
			   struct trace_cost *c)
{
	double t0 = now_seconds();

	session_cost(tr->session, i, c);
	return (t0 + now_seconds()) / 2;
}

static void attach(struct tracer *tr, struct budget *b, int i, double now)
{
	struct budget_probe *p = &b->p[i];
	struct trace_cost made;

	if (p->attached)
		return;
	/* The gap ends before the link is made: a firing may follow. */
	now = now_seconds();
	if (session_switch(tr->session, i, 1) != 0) {
		warning_plain("--budget: cannot attach %s again: it is no longer traced",
			      tr->probes[i].label_text);
		return;
	}
	p->attached = 1;
	b->links_made++;
	/* Its window is timed, and its firings counted, from the link
	   made: making it takes 1 to 7 ms on memcached (the last window's
	   links, closing, hold the kernel's lock), and timed from before
	   item__remove's estimates were 13% low (the median of 6 runs
	   against a second probegen's exact count; 4% after). */
	p->since = p->read_at = read_firings(tr, i, &made);
	p->firings_read = made.firings;
	if (p->gap_from && tr->plan.print)
		printer_gap(tr, i, gap_start(tr, i, p->gap_from), now);
	p->gap_from = 0;
}

static void detach(struct tracer *tr, struct budget *b, int i, double now)
{
	struct budget_probe *p = &b->p[i];

	if (!p->attached)
		return;
	now = now_seconds();
	session_switch(tr->session, i, 0);
	p->attached = 0;
	p->attached_s += now - p->since;
	p->gap_from = now;
}

/* Whether every start of group g has its link closed since it was
 * detached. */
static int starts_closed(struct tracer *tr, struct budget *b, int g)
{
	int i;

	for (i = 0; i < b->n; i++)
		if (b->p[i].group == g && starts_a_pair(&tr->probes[i]) &&
		    session_detached_at(tr->session, i, 1) < b->p[i].gap_from)
			return 0;
	return 1;
}

/* Group g's closing, done once its starts' links are closed (no start
 * can come now): those left open are forgotten, else the next window's
 * end would time the gap.  1 when done; 0 while it stays closing. */
static int close_done(struct tracer *tr, struct budget *b, int g)
{
	int i;

	if (!starts_closed(tr, b, g))
		return 0;
	for (i = 0; i < tr->npairs; i++)
		if (b->p[tr->pairs[i].start].group == g)
			b->forgotten += session_forget_starts(tr->session, i);
	b->g[g].closing = 0;
	return 1;
}

/* Group g's window: open (ends first), closing (starts first; the ends
 * BUDGET_GRACE_SECONDS later, and the starts left open forgotten) or
 * closed. */
static void set_window(struct tracer *tr, struct budget *b, int g, int open,
		       double now)
{
	struct budget_group *w = &b->g[g];
	int i, k;

	/* Its starts' links still closing: the next slot opens it (a
	   start of this window must not join those forgotten). */
	if (open && w->closing && !close_done(tr, b, g))
		return;
	if (open) {
		for (k = 0; k < 2; k++) /* ends, then starts */
			for (i = 0; i < b->n; i++)
				if (b->p[i].group == g &&
				    starts_a_pair(&tr->probes[i]) == k)
					attach(tr, b, i, now);
		w->open = 1;
		w->closing = 0;
		return;
	}
	if (w->open) {
		for (i = 0; i < b->n; i++)
			if (b->p[i].group == g && !ends_a_pair(&tr->probes[i]))
				detach(tr, b, i, now);
		w->open = 0;
		w->closing = 1;
		w->ends_detached = 0;
		w->grace_until = now_seconds() + BUDGET_GRACE_SECONDS;
		return;
	}
	if (w->closing && !w->ends_detached) {
		for (i = 0; i < b->n; i++)
			if (b->p[i].group == g)
				detach(tr, b, i, now);
		w->ends_detached = 1;
	}
	if (w->closing)
		close_done(tr, b, g);
}

/* The probes known so far (a followed process brings more): each its
 * own group, a pair's two in one. */
static void grow(struct tracer *tr, struct budget *b, double now)
{
	int i, from = b->n;

	if (tr->nprobes <= b->n)
		return;
	b->p = realloc(b->p, (size_t)tr->nprobes * sizeof(*b->p));
	b->g = realloc(b->g, (size_t)tr->nprobes * sizeof(*b->g));
	if (!b->p || !b->g)
		die("out of memory");
	for (i = from; i < tr->nprobes; i++) {
		b->p[i] = (struct budget_probe){ .group = i, .attached = 1,
						 .since = now,
						 .read_at = now };
		b->g[i] = (struct budget_group){ .share = 1, .open = 1,
						 .least_share = 1 };
	}
	b->n = tr->nprobes;
	for (i = 0; i < tr->npairs; i++) {
		int s = b->p[tr->pairs[i].start].group,
		    e = b->p[tr->pairs[i].end].group, k;

		if (s == e)
			continue;
		for (k = 0; k < b->n; k++)
			if (b->p[k].group == e)
				b->p[k].group = s;
	}
}

/* ---- each turn ---- */

/* The CPU seconds the program pays for ns timed (trap and program):
 * BUDGET_UNSEEN's rule, for the cost counted and the cost planned. */
static double charged(double ns)
{
	return ns * BUDGET_UNSEEN / 1e9;
}

/* The whole trace's estimate of probe p's firings: df came in the on
 * seconds it was attached up to now.  Traced whole, they are what they
 * are; in a sampled window, they stand for the time since the last
 * window (a weight of 1/share would favour the windows a large share
 * opened, and a window opens late by its links' making). */
static void estimate(struct budget *b, struct budget_probe *p,
		     unsigned long long df, double on, double now)
{
	if (b->g[p->group].share >= 1 || p->represented_from <= 0 ||
	    now - p->represented_from <= on) {
		/* Whole again after a window: the time since it, at its
		   rate, then what came. */
		if (p->represented_from > 0 && now - on > p->represented_from)
			p->estimated += p->window_rate *
					(now - on - p->represented_from);
		p->estimated += (double)df;
	} else {
		p->estimated += (double)df * (now - p->represented_from) / on;
		p->windows++;
		p->windows_fired += df > 0;
	}
	p->window_rate = (double)df / on;
	p->represented_from = now;
}

/* Each slot, before its windows change: what the probes cost since
 * the last, the processes' CPU, and each probe's seconds attached. */
static void measure(struct tracer *tr, struct budget *b, double now)
{
	double trap = tr->trap_ns > 0 ? (double)tr->trap_ns : 0, cost = 0,
	       cpu;
	int i;

	for (i = 0; i < b->n; i++) {
		struct budget_probe *p = &b->p[i];
		struct trace_cost c;
		double at = read_firings(tr, i, &c);
		unsigned long long df = c.firings - p->firings,
				   dns = c.ns - p->ns;

		cost += charged((double)df * trap + (double)dns);
		p->raw += df;
		p->span_firings += df;
		p->span_ns += dns;
		p->firings = c.firings;
		p->ns = c.ns;
		/* Attached since its last read: what came in the time
		   between (detached, its firings were none: the last ones
		   before its link closed are left out). */
		if (p->attached && at > p->read_at &&
		    c.firings >= p->firings_read) {
			p->span_on += at - p->read_at;
			estimate(b, p, c.firings - p->firings_read,
				 at - p->read_at, at);
		}
		p->read_at = at;
		p->firings_read = c.firings;
	}
	cpu = processes_cpu(b, tr, 0);
	b->cpu_s += cpu;
	b->cost_s += cost;
	b->span_cpu += cpu;
	b->span_cost += cost;
	b->last_measure = now;
}

/* What n groups cost at their shares, CPU seconds a second. */
static double spent(const double *cost, const double *share, int n)
{
	double sum = 0;

	for (int k = 0; k < n; k++)
		sum += cost[k] * share[k];
	return sum;
}

/* Each group's cost whole (gcost, CPU seconds a second) and whether it
 * is rare (grare), from each probe's firings since the last decision;
 * the span's counts start again.  Its firings in all. */
static unsigned long long group_costs(const struct tracer *tr,
				      struct budget *b, double *gcost,
				      int *grare)
{
	double trap = tr->trap_ns > 0 ? (double)tr->trap_ns : 0;
	unsigned long long fired = 0;
	int i;

	for (i = 0; i < b->n; i++)
		grare[i] = 1;
	for (i = 0; i < b->n; i++) {
		struct budget_probe *p = &b->p[i];

		if (p->span_on >= BUDGET_FIRST_DECIDE / 2)
			p->rate = (double)p->span_firings / p->span_on;
		if (p->span_firings)
			p->ns_each = (double)p->span_ns / (double)p->span_firings;
		gcost[p->group] += p->rate * charged(trap + p->ns_each);
		p->judged_firings += (double)p->span_firings;
		p->judged_on += p->span_on;
		if (p->judged_on > BUDGET_RARE_SPAN) {
			p->judged_firings /= 2;
			p->judged_on /= 2;
		}
		if (!budget_rare(p->judged_firings, p->judged_on))
			grare[p->group] = 0;
		fired += p->span_firings;
		p->span_firings = p->span_ns = 0;
		p->span_on = 0;
	}
	return fired;
}

/* Each group's share and standing, from its cost whole (gcost, at the
 * group's first probe), whether it is rare, the processes' own work a
 * second and what the budget allows now; and whether a decision passed
 * the budget, and by what. */
static void set_shares(struct budget *b, const double *gcost,
		       const int *grare, double own, double allowance,
		       double now)
{
	/* The groups alone (a probe in another's group costs 0). */
	double *gc = xcalloc((size_t)b->n, sizeof(double)),
	       *share = xcalloc((size_t)b->n, sizeof(double));
	int *gi = xcalloc((size_t)b->n, sizeof(int)),
	    *gr = xcalloc((size_t)b->n, sizeof(int)), ng = 0, i, k;
	enum budget_standing *gs = xcalloc((size_t)b->n, sizeof(*gs));

	for (i = 0; i < b->n; i++)
		if (b->p[i].group == i) {
			const struct budget_group *g = &b->g[i];

			gi[ng] = i;
			gr[ng] = grare[i];
			gs[ng] = g->share >= 1	      ? BUDGET_WHOLE
				 : now < g->held_until ? BUDGET_HELD
						       : BUDGET_SAMPLED;
			gc[ng++] = gcost[i];
		}
	budget_shares(gc, gr, gs, ng, b->share * own, allowance, share);
	for (k = 0; k < ng; k++) {
		struct budget_group *g = &b->g[gi[k]];

		if (g->share >= 1 && share[k] < 1)
			g->held_until = now + BUDGET_HOLD_SECONDS;
		g->share = share[k];
		if (share[k] < g->least_share)
			g->least_share = share[k];
	}
	/* Past what it allows by half again: by the rare alone,
	   or with the least shares of the hot. */
	if (own > 0 && spent(gc, share, ng) > 1.5 * b->share * own) {
		double rare = 0;

		for (k = 0; k < ng; k++)
			rare += gr[k] ? gc[k] : 0;
		if (rare > 1.5 * b->share * own)
			b->exceeded_rare = 1;
		else
			b->exceeded_least = 1;
	}
	free(gc);
	free(gr);
	free(gi);
	free(gs);
	free(share);
}

/* Each group's share, from what was measured since the last time. */
static void decide(struct tracer *tr, struct budget *b, double now)
{
	double *gcost = xcalloc((size_t)b->n, sizeof(double));
	int *grare = xcalloc((size_t)b->n, sizeof(int));
	double span = now - b->last_decide, cpu = b->span_cpu,
	       cost = b->span_cost, own, allowance;
	unsigned long long fired = group_costs(tr, b, gcost, grare);
	int i;

	b->span_cpu = b->span_cost = 0;
	/* Their own work, a second: what the budget is a share of. */
	own = span > 0 ? (cpu - cost) / span : 0;
	if (own < 0)
		own = 0;
	/* Smoothed over a quarter of a second or so (a span's work
	   follows the load's bursts), for the shares and the debt: a
	   burst's noise is not a debt. */
	b->own = b->own ? 0.8 * b->own + 0.2 * own : own;
	own = b->own;
	allowance = budget_allowance(b->share, own, span, cost, &b->debt);
	set_shares(b, gcost, grare, own, allowance, now);
	/* PROBEGEN_BUDGET_DEBUG: each decision, on stderr. */
	if (getenv("PROBEGEN_BUDGET_DEBUG")) {
		fprintf(stderr, "budget %.3f: cpu %.3f cost %.3f own %.3f/s debt %.4f allow %.4f/s switching %.3f s links made %llu fired %llu trap %lld:", now - b->start, cpu, cost, own, b->debt, allowance, b->switch_s, b->links_made, fired, tr->trap_ns);
		for (i = 0; i < b->n; i++)
			if (b->p[i].group == i && gcost[i] > 0)
				fprintf(stderr, " %s rate %.0f ns %.0f cost %.4f share %.3f;", tr->probes[i].label_text, b->p[i].rate, b->p[i].ns_each, gcost[i], b->g[i].share);
		fputc('\n', stderr);
	}
	b->last_decide = now;
	free(gcost);
	free(grare);
}

void budget_step(struct tracer *tr, double now)
{
	struct budget *b = budget_of(tr);
	double hot_share = 1;
	int g, hot_open = 1;

	if (!b || !tr->session)
		return;
	if (!b->start) {
		b->start = b->last_decide = b->last_measure = now;
		/* The first decision soon: until it, a busy server pays
		   the whole trace. */
		b->next_slot = b->next_decide = now + BUDGET_FIRST_DECIDE;
		processes_cpu(b, tr, 1);
		if (!session_switchable(tr->session)) {
			warning_plain("--budget: this kernel cannot detach one probe (multi-uprobe links: Linux 6.6): every firing is traced");
			b->unswitchable = 1;
		}
	}
	grow(tr, b, now);
	if (b->unswitchable)
		return;
	for (g = 0; g < b->n; g++)
		if (b->p[g].group == g && b->g[g].closing &&
		    now >= b->g[g].grace_until)
			set_window(tr, b, g, 0, now);
	if (now < b->next_slot)
		return;
	b->next_slot = now + BUDGET_SLOT_SECONDS;
	measure(tr, b, now);
	if (now >= b->next_decide) {
		decide(tr, b, now);
		b->next_decide = now + BUDGET_DECIDE_SECONDS;
	}
	/* The sampled groups share one window, so that their counts in it
	   are of the same requests (a probe's firings a request are then
	   exact): open while the common credit comes to a slot. */
	for (g = 0; g < b->n; g++)
		if (b->p[g].group == g && b->g[g].share < 1 &&
		    (hot_share == 1 || b->g[g].share < hot_share))
			hot_share = b->g[g].share;
	/* Sampling starts after the stretch traced whole, which stands as
	   its first window (budget_end extends its rate to the end). */
	if (hot_share < 1 && !b->sampling)
		b->credit = 0;
	b->sampling = hot_share < 1;
	if (hot_share < 1) {
		b->credit += hot_share;
		hot_open = b->credit >= 1;
		if (hot_open)
			b->credit -= 1;
	}
	for (g = 0; g < b->n; g++) {
		struct budget_group *w = &b->g[g];
		int open = w->share >= 1 ? 1 : hot_open;

		if (b->p[g].group != g)
			continue;
		if (open != w->open || w->closing) {
			double t0 = now_seconds();

			set_window(tr, b, g, open, now);
			b->switch_s += now_seconds() - t0;
		}
	}
}

int budget_wait_ms(const struct tracer *tr, double now)
{
	const struct budget *b = budget_of(tr);
	double until;
	int g;

	if (!b || !b->start || b->unswitchable)
		return -1;
	until = b->next_slot;
	for (g = 0; g < b->n; g++)
		if (b->g[g].closing)
		{
			/* Past its grace, its starts' links closing: soon. */
			double at = b->g[g].grace_until > now
					    ? b->g[g].grace_until
					    : now + 0.002;

			if (at < until)
				until = at;
		}
	return until <= now ? 0 : (int)((until - now) * 1000) + 1;
}

void budget_end(struct tracer *tr, double now)
{
	struct budget *b = budget_of(tr);
	int i;

	if (!b || !b->start)
		return;
	if (!b->unswitchable)
		measure(tr, b, now);
	for (i = 0; i < b->n; i++) {
		/* Since its last window: at that window's rate. */
		if (b->g[b->p[i].group].share < 1 && b->p[i].represented_from > 0 &&
		    !b->p[i].attached)
			b->p[i].estimated += b->p[i].window_rate *
					     (now - b->p[i].represented_from);
		if (b->p[i].attached) {
			b->p[i].attached_s += now - b->p[i].since;
			b->p[i].attached = 0;
		}
		/* A gap the trace ended in: said to its end. */
		if (b->p[i].gap_from && tr->plan.print)
			printer_gap(tr, i, gap_start(tr, i, b->p[i].gap_from),
				    now);
		b->p[i].gap_from = 0;
	}
	b->end = now;
}

void budget_report(struct tracer *tr, const struct tally *t)
{
	FILE *mem;
	char *text = NULL;
	size_t len = 0;

	(void)t;
	/* --summary says it at its end; else, to stderr. */
	if (!budget_of(tr) || tr->plan.request->summary)
		return;
	if (!(mem = open_memstream(&text, &len)))
		return;
	budget_say(tr, mem, 0);
	fclose(mem);
	/* Each line a note of probegen's, as stderr's lines are. */
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
		info_plain("%s", line);
	free(text);
}
