/*
 * src/trace/budget.h - --budget's state (budget.c keeps it through the
 * run; budget_said.c reads it for the sinks), private to the two.
 */
#ifndef PROBEGEN_BUDGET_H
#define PROBEGEN_BUDGET_H

#include "trace/tracer.h"

/* A window's length: the run's loop turns at least this often. */
#define BUDGET_SLOT_SECONDS 0.05
/* How long a pair's end outlives its start as a window closes: the
 * calls in flight end (a start still open then is forgotten). */
#define BUDGET_GRACE_SECONDS 0.005
/* How often costs are read and the shares decided, and the first
 * time (a busy server pays the whole trace until then). */
#define BUDGET_DECIDE_SECONDS 0.05
#define BUDGET_FIRST_DECIDE 0.02
/* The least share a sampled probe is given (its rate stays known):
 * past it the budget is exceeded, and said. */
#define BUDGET_MIN_SHARE 0.01
/* What a firing costs the program past the trap and the program that
 * are timed: its caches and TLB, which the kernel's entry and the BPF
 * program disturb.  Measured on memcached (its CPU a firing, traced
 * whole against untraced, over the timed cost): 1.3 at a steady 10,000
 * requests a second, 1.43 as fast as it answers; a budget is a most,
 * so the larger, rounded up.  The policy and the summary's cost both
 * count it. */
#define BUDGET_UNSEEN 1.45
/* A cost past the budget (a load's start, traced whole until the
 * first decision) is a debt, paid back by smaller shares over about
 * this long: the budget holds over the run, not only slot by slot.
 * A cost under it is not saved up for a later burst. */
#define BUDGET_REPAY_SECONDS 1.0
/* A group that was whole and is sampled stays sampled this long
 * before it may be whole again, and turns whole only where it fits in
 * this much of the room (budget_shares): groups whose cost was about
 * what was left flipped at every decision, each flip a link made or
 * closed (memcached: 73 flips in 6 s, for nothing sampled better). */
#define BUDGET_HOLD_SECONDS 1.0
#define BUDGET_ROOM 0.75
/* A probe (or pair) that fires less often than this, a second, is
 * always traced whole: a rare event is counted exactly.  Judged on its
 * firings in the last few seconds it was attached (the count halved
 * each time they pass BUDGET_RARE_SPAN), and on a second at least:
 * three firings in the first 20 ms are not 150 a second. */
#define BUDGET_RARE_RATE 100.0
#define BUDGET_RARE_SPAN 2.0

/* Tracing binaries, the processes that run them are looked for again
 * this often (each is a walk of /proc), and at most this many are
 * measured. */
#define BUDGET_RUNNING_SECONDS 1.0
#define BUDGET_MAX_PROCESSES 4096

struct budget_probe {
	int group;	  /* the probe whose windows it shares (a pair's) */
	int attached;	  /* its sites, now */
	double since;	  /* attached at, while attached */
	double attached_s; /* seconds attached so far */
	unsigned long long firings, ns; /* the costs map's, at the last slot */
	/* Its firings when last read (as its link was made, or at the
	   last slot), and when: a window's count and time. */
	unsigned long long firings_read;
	double read_at;
	/* Since the last decision: its firings, their ns, its seconds
	   attached. */
	unsigned long long span_firings, span_ns;
	double span_on;
	double rate;	/* firings a second while attached */
	double judged_firings, judged_on; /* budget_rare's evidence */
	double ns_each; /* the BPF program's ns a firing */
	double gap_from; /* detached at (a gap in the stream), or 0 */
	/* Its firings (the costs map's), and the whole trace's estimate of
	   them (budget.c's estimate). */
	unsigned long long raw;
	double estimated;
	/* The estimate's: from when its next window's firings stand, and
	   its last window's firings a second. */
	double represented_from, window_rate;
	/* The sampled windows the estimate rests on, and those of them
	   it fired in: said, so that a reader sees how rough it is. */
	unsigned windows, windows_fired;
};

struct budget_group { /* the probes that share one window */
	double share;	/* of the time its windows are open: 1 whole */
	int open;	/* now */
	int closing;	/* its starts detached; its ends until grace_until */
	int ends_detached; /* ... then its starts forgotten once closed */
	double grace_until;
	double least_share; /* the least it was given: 1, traced whole */
	double held_until;  /* sampled since, not whole again until */
};

struct budget {
	double share; /* plan.budget */
	struct budget_probe *p;
	struct budget_group *g;
	int n;
	double start, next_slot, next_decide, last_decide, end;
	double cpu_s, cost_s;	/* the processes' CPU and the trace's, so far */
	double span_cpu, span_cost; /* ... since the last decision */
	double last_measure;
	struct { int pid; double cpu; } *procs;
	int nprocs;
	pid_t running[BUDGET_MAX_PROCESSES]; /* tracing binaries: theirs */
	int nrunning;
	double running_at; /* when looked for */
	double credit; /* the sampled groups', toward their next window */
	int sampling;  /* some groups are sampled now */
	double own; /* the processes' own work, CPU seconds a second */
	double debt; /* CPU seconds the trace cost past the budget, owed */
	int unswitchable; /* said: this kernel cannot detach one probe */
	/* A decision past the budget by half again, by (said when the
	   run's cost passed it): */
	int exceeded_rare;  /* the rare probes, traced whole */
	int exceeded_least; /* the least shares of the hot */
	unsigned long long forgotten; /* starts a window closed on */
	double switch_s; /* probegen's seconds attaching and detaching */
	unsigned long long links_made; /* each probe's, each time */
};

static inline struct budget *budget_of(const struct tracer *tr)
{
	return feature_state(tr, FEATURE_BUDGET);
}

#endif
