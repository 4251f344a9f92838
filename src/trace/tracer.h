/*
 * src/trace/tracer.h - what the rooms of probegen --trace share: the plan
 * (plan.c), a traced probe and pair, the tracer, the sinks' and the
 * per-probe features' tables, and the rooms' parts every stage calls.
 * The rooms stand in folders by stage (find/, kernel/, decode/, sinks/;
 * HACKING.md); the rule t_build_stages checks is on their includes
 * (no room includes another stage's header, but what tracer.h declares
 * every stage may call); the BPF side's view is
 * kernel/bpf/trace_abi.h, and trace_none.c replaces them all where
 * probegen is built without libbpf.
 *
 * Errors, in every room, as probegen.h says for the whole tree
 * (failure_status): a failing function says why where it knows and
 * returns -1, or NULL when it makes something; 0, a count or an index is
 * success.  A question answers 1 or 0, a lookup that finds nothing -1 or
 * NULL: no failure (event_arg_text).  trace_run alone turns a failure
 * into the exit status.  Two kinds leave the saying to their caller, as their comments say: the
 * wrappers of system calls (load_program, attach_uprobe_multi: NULL or
 * -1, and errno) and the attempts a caller may forgive with a warning
 * (attacher_add, attacher_commit: -1, and the reason in *why).
 */
#ifndef PROBEGEN_TRACER_H
#define PROBEGEN_TRACER_H

#include <signal.h>
#include <stdlib.h>
#include <sys/types.h>

#include "arg_read.h"
#include "trace/kernel/bpf/trace_abi.h"
#include "trace/trace_run.h"

/* The inspector's and the compiler's, seen here by pointer only: a room
 * that reads them includes inspect/inspect.h or compiler/naming.h. */
struct binary;
struct bin_probe;
struct program;
struct probe;
struct pair;

/* One limit for every layer: the BPF side reads this many arguments. */
_Static_assert(TRACE_MAX_ARGS == MAX_PROBE_ARGS,
	       "the BPF side and the compiler must agree on the argument limit");
_Static_assert(TRACE_STACK_MAX == TRACE_STACK_BYTES_MAX,
	       "--stack-bytes copies at most what an event holds");
_Static_assert(TRACE_STR_LEN == TRACE_STRING_BYTES_DEFAULT &&
		       TRACE_STR_MAX == TRACE_STRING_BYTES_MAX,
	       "--string-bytes fills at most a slot");
_Static_assert(TRACE_MAX_STEPS == ARG_MAX_STEPS,
	       "the BPF side follows as many pointers as members.c lays out");

/* One traced probe: its cookie is its index in struct tracer's array. */
struct traced {
	const char *binary;
	const struct binary *bin; /* its notes, sites and segments */
	const struct bin_probe *notes;
	char *provider, *name;
	char *label, *label_text; /* "P:N"; escaped for text output */
	int nargs;
	/* Its arguments, then from TRACE_MAX_ARGS on its shows (--show's
	   member expressions, and --by's), named as written. */
	char *arg_names[TRACE_MAX_SLOTS];
	struct arg_read read[TRACE_MAX_SLOTS];
	int nshows;
	/* Its declaration (and the program it is in), or NULL. */
	const struct probe *decl;
	const struct program *decl_program;
	/* The pairs it ends and starts (indexes into struct tracer's
	 * pairs), worked out once when the pairs are chosen. */
	int ends[TRACE_MAX_ROLES], starts[TRACE_MAX_ROLES];
	int nends, nstarts;
	/* --where: its filter, its text, its index in the BPF map. */
	struct trace_filter *filter;
	char *filter_text;
	int filter_index;
	/* --expect: how many expectations judge its firings. */
	int nexpected;
	/* What the BPF side does at its firing (features_describe's),
	   decided by find/ once its features are settled; the session
	   hands it to the kernel as it is. */
	struct trace_probe_info info;
	/* --metrics: the arguments --by labels its firings by. */
	int label_args[TRACE_MAX_ARGS];
	int nlabel_args;
	/* In the system's binaries (/usr, /lib, /bin; not /usr/local):
	   not expected by --expect-all unless -n selects it (a test suite
	   that compiles runs libstdc++'s). */
	int from_system;
};

/* A pair of traced probes (pairs.c's, by index into probes). */
struct traced_pair {
	int start, end;		/* indexes into struct tracer's probes */
	int start_arg, end_arg; /* the argument matching them, or -1 */
	char *label;		/* "P:START, P:END[, by ARG]" */
	char *stem;
	char *by; /* ARG, when matched by its value; or NULL */
	int by_name; /* found by the probes' names, not by --pair */
	/* The start's arguments that name each call (--by's, or a
	   runtime's function and class: call_name), in order; none: the
	   stem names them all. */
	int name_args[TRACE_MAX_ARGS];
	int nname_args, line_arg; /* line_arg: its first line's, or -1 */
	int named_with_file; /* the last names the function's file */
	int named_unasked;   /* by arguments like a runtime's, unasked */
	/* Timed here (calls.c, profile.c), not in the kernel: broken down
	   by name (--summary) or folded (--folded). */
	int in_user;
};

/* ---- plan.c ---- */

/* What a trace does, decided once from what the user asked (plan_make):
 * the decisions alone; what was asked as it was (the files, the
 * patterns, --limit, --json) is read from the request. */
struct trace_plan {
	const struct trace_options *request; /* the options, as given */
	int following; /* -c's command or -p's process, and what it starts */
	/* Where each firing goes in probegen (the sinks). */
	int print;    /* a line (or a JSON object) each, to tr->out */
	int timeline; /* --timeline */
	int profile;  /* --summary or --folded: nested pairs timed by name */
	int folded;   /* --folded */
	int metrics;  /* --metrics: --by's values counted, served */
	int stack_counts; /* --stack's walks counted (--summary, --folded) */
	/* What the kernel keeps. */
	int kernel_counts;   /* counts and pair times; only what a sink
				needs streams */
	int tally;	     /* counts read at the end or at a scrape */
	int count_processes; /* per probe, the processes it fired in */
	/* What is said at the end. */
	int expect; /* --expect: firings judged, said at the end */
	int top;	 /* the names a pair's breakdown prints */
	unsigned stack_bytes; /* of each firing's stack: --stack's, or 0 */
	int stack_frames; /* the most a walk keeps (--stack-frames) */
	unsigned string_bytes; /* of each string and byte value: a slot's */
	/* --folded's file, of the pairs' calls (the profile's) or of the
	   firings by stack (--stack's); NULL when not that one's. */
	const char *folded_calls_path, *folded_stacks_path;
	int pprof_calls; /* --pprof weighs the pairs' calls, not stacks */
	/* --budget: the most the trace may add to the traced processes'
	   CPU time, as a share of it (0.05), or 0: every firing traced. */
	double budget;
	int budget_default; /* -p's, not asked: said at the start */
	/* The option that set aside -p's default budget ("--expect"), or
	   NULL: said at the start. */
	const char *budget_waived;
};
/* The plan of opt (whose options go together: options.c checked), which
 * keeps opt as its request: opt must outlive the trace.  The decisions
 * are made here alone; a room reads them from the plan, and what the
 * user asked, as asked, from plan->request. */
void plan_make(const struct trace_options *opt, struct trace_plan *plan);

struct session;

/* ---- sinks.c: what probegen makes of the firings, a row each ---- */

/* The rows, in their order: a row reads the state of those above it. */
enum sink_id {
	SINK_NO_ID = -1, /* a row no other row reads (sinks.h) */
	SINK_STACKS,	   /* code pointers named; --stack's walks (stacks.c) */
	SINK_CALLS,	   /* starts matched to ends (calls.c) */
	SINK_PROFILE,	   /* the pairs' calls by name (profile.c) */
	SINK_STACK_COUNTS, /* ... counted (stack_counts.c) */
	SINK_PPROF,	   /* --pprof's file (pprof.c) */
	SINK_METRICS,	   /* --metrics: counted, served (metrics.h) */
	SINK_TIMELINE,	   /* --timeline (timeline.c) */
	SINK_PRINTER,	   /* a line each (printer.c) */
	SINK_SUMMARY,	   /* --summary, said at the end (summary.c) */
	SINK_EXPECT,	   /* --expect's firings judged (sinks/judge.c) */
	SINK_EXPECT_ALL,   /* --expect-all's probes that never fired */
	SINK_COUNT
};
#define SINK_MAX 32 /* the rows sinks.c's table may hold */
/* What a row's open returns when it failed (said). */
#define SINK_FAILED ((void *)-1)
struct tracer;
struct tally;

/* The per-probe features (find/features.c), one row each, in order; a
 * row's state is its own (feature_state), as a sink's is. */
enum feature_id {
	FEATURE_ARGUMENTS,
	FEATURE_SHOWS,
	FEATURE_LABELS, /* --by */
	FEATURE_WHERE,
	FEATURE_PAIRS,
	FEATURE_EXPECT,
	FEATURE_STACKS,
	FEATURE_BUDGET, /* --budget (budget.c) */
	FEATURE_COUNT
};

struct tracer {
	struct trace_plan plan;
	/* Set by a stage to end the trace at the run's next step (an
	   expectation refused when a followed process brought its probe):
	   data the run reads, as trace_stopping is for signals. */
	int stop;
	struct traced *probes;
	int nprobes;
	struct traced_pair *pairs;
	int npairs;
	char **siteless; /* "P:N" declared with no site: never fire */
	int nsiteless;
	/* Each binary read once, where it stays: its probes point at it. */
	struct binary **binaries;
	struct program **programs; /* each binary's declarations */
	int nbinaries;
	struct probeless *probeless; /* files read that carry no probe */
	int nprobeless;
	char *exe;		   /* the command's program, found in $PATH */
	char *loader;		   /* -p's program's loader, or NULL */
	/* Each sink's state (sinks.c's rows, by sink_id): read through
	   sink_state(); sinks_open[i], once row i is open. */
	void *sinks[SINK_MAX];
	char sinks_open[SINK_MAX];
	void *features[FEATURE_COUNT]; /* each feature's own state, or NULL */
	struct session *session; /* the BPF side, while it runs */
	/* One uprobe's trap here, in ns (trap_cost.c): 0 until measured,
	   -1 when it cannot be. */
	long long trap_ns;
	/* Seconds traced, from the probes attached to the trace's end:
	   --summary's rates. */
	double traced_seconds;
	char *filter_used;	 /* per -n pattern: it chose a probe */
	int nfiltered;		 /* the probes with a --where filter */
	unsigned long long *received; /* per probe, events: with --where */
	unsigned long long start_ns, events;
	FILE *out;
	/* -o FILE: written beside FILE and renamed over it at the end, only
	   when the trace ran (output.c); out writes to it. */
	struct output out_file;
	/* Where the session delivers each firing (sinks_event), and each
	   process of a followed tree it stopped (follow.c). */
	int (*on_event)(void *ctx, void *data, size_t size);
	void (*on_process)(struct tracer *tr, struct session *s, int pid,
			   int exec);
	/* What was counted and timed so far, for --metrics's scrapes: the
	   kernel's and the pairs timed in probegen (trace.c's; data, not a
	   call up).  Free with tally_free. */
	void (*read_tally)(struct tracer *tr, struct tally *t);
};

/* Row id's state: NULL when the plan does not want it, or it is not
 * open yet. */
static inline void *sink_state(const struct tracer *tr, enum sink_id id)
{
	return tr->sinks[id];
}

/* Feature id's state (features.c's rows make it at the start): NULL
 * when it keeps none, or before the start. */
static inline void *feature_state(const struct tracer *tr, enum feature_id id)
{
	return tr->features[id];
}
/* Open every sink the plan wants, before anything is attached: 0, or
 * -1 after saying why (the rest are not opened). */
int sinks_open(struct tracer *tr);
/* The ring buffer's callback: one event to every sink, in order. */
int sinks_event(void *ctx, void *data, size_t size);
/* What each sink says at the end, of the kernel's counts (t, NULL
 * unless the plan reads them: plan.tally): the status. */
int sinks_report(struct tracer *tr, const struct tally *t, int status);
/* Each open sink's files, kept when ran: 0, or -1 (said). */
int sinks_finish(struct tracer *tr, int ran);
void sinks_free(struct tracer *tr);
/* --metrics's server, once open, or NULL. */
struct server *sinks_server(const struct tracer *tr);

/* Set by a signal or --limit: the loop ends, the rest is not printed. */
extern volatile sig_atomic_t trace_stopping;

/* ---- privileges.c: the run's, once attached ---- */

/* Give up every capability but those attaching later needs (when it
 * will), and become user (if not NULL): 0, or -1 after saying why
 * (--metrics: a server that runs for months holds no more than it
 * uses). */
int drop_privileges(const char *user, int attaches_later);

/* ---- rates.c: the run's, each second until said ---- */

/* With each probe's firings over the last seconds: when they cost the
 * program a share of a CPU (tr->trap_ns each, or fire that often when
 * it is not known), name the hottest, with their rates, say what to
 * do, and return 1; else 0. */
int rates_say_hot(struct tracer *tr, const unsigned long long *firings,
		  double seconds);

/* ---- budget.c: --budget, a feature (FEATURE_BUDGET) ---- */

/* Its state, when the plan has a budget (NULL: none); its report (what
 * the budget did, to stderr unless --summary says it) and free. */
void *budget_start(struct tracer *tr);
void budget_report(struct tracer *tr, const struct tally *t);
void budget_free(void *state);
/* Each turn of the run's loop, at least every 100 ms: the costs read
 * and the shares decided, now and then; the windows opened and closed. */
void budget_step(struct tracer *tr, double now);
/* How long the run's loop may wait before budget_step is due (a
 * window's slot, a closing pair's grace), in ms; -1: no budget. */
int budget_wait_ms(const struct tracer *tr, double now);
/* The trace has ended (now_seconds()): the windows' time counted. */
void budget_end(struct tracer *tr, double now);
/* The share of the traced time probe's (or pair's start's) sites were
 * attached: 1 when traced whole; a count of it is scaled by 1/share
 * (budget_scaled) and marked. */
double budget_share(const struct tracer *tr, int probe);
double budget_pair_share(const struct tracer *tr, int pair);
/* The seconds probe's sites were attached so far (--metrics). */
double budget_traced_seconds(const struct tracer *tr, int probe);
unsigned long long budget_scaled(unsigned long long n, double share);
/* Whether a probe that fired firings times in seconds attached is
 * rare (traced whole whatever it costs): under BUDGET_RARE_RATE a
 * second, judged on a second at least, so that a few firings close
 * together at the start are not a rate. */
int budget_rare(double firings, double seconds);
/* A group's standing at a decision (budget_shares): traced whole
 * now, sampled, or sampled since too lately to turn whole again
 * (BUDGET_HOLD_SECONDS). */
enum budget_standing { BUDGET_SAMPLED, BUDGET_WHOLE, BUDGET_HELD };
/* The policy: each of n groups' cost whole (CPU seconds a second),
 * whether it is rare, its standing (NULL: each may turn whole), the
 * budget's room (CPU seconds a second) and what it allows now (the
 * room less a debt: budget_allowance), into each one's share of the
 * time (1: whole).  The rare are whole; then those whole now while
 * they fit the room, then the cheapest that fit it with some to spare
 * (not those held); the rest share alike what the allowance leaves.
 * Which are whole is judged on the room, not the allowance: a
 * window's cost comes at once and its debt is paid back by the
 * sampled, not by flipping the whole ones (each flip a link made or
 * closed). */
void budget_shares(const double *cost, const int *rare,
		   const enum budget_standing *standing, int n, double room,
		   double allowance, double *share);
/* What the trace may spend next, CPU seconds a second: the budget's
 * share of the processes' own work (own, a second), less what the past
 * owes.  *debt (CPU seconds) takes a span's cost past its budget and
 * gives back what it spent under, never below 0: the budget holds over
 * the run, and a cost under it is not saved up for a burst. */
double budget_allowance(double budget, double own, double span,
			double cost, double *debt);
/* Said at the start: -p's default budget, or the option that set it
 * aside. */
void budget_say_start(const struct tracer *tr);
/* "sampled by --budget 5% (...): P:N 8.8%, ..." (allocated), or NULL
 * when no probe was sampled: a profile's comment. */
char *budget_sampled_text(const struct tracer *tr);
/* What the budget did: text (--summary's end) or a JSON object. */
void budget_say(const struct tracer *tr, FILE *f, int json);

/* The processes below probegen's own (descendants.c, from /proc): how
 * many, at most max, into pids. */
int trace_descendants(pid_t *pids, int max);
/* The processes that run a traced binary (running.c, from /proc: a
 * program's executable, a library's mappings): how many, at most max,
 * into pids. */
int trace_running(const struct tracer *tr, pid_t *pids, int max);

/* ---- find/expect.c, sinks/judge.c: --expect ---- */

/* One probe an expectation judges, and its expression compiled for it
 * (NULL: every firing passes). */
struct expect_target {
	int probe;
	struct trace_filter *filter;
};
/* One --expect 'PROVIDER:PROBE[{COUNT}][: EXPR]': the firings of the
 * probes it names, and how many passed its expression. */
struct expectation {
	const char *spec;	       /* as given */
	long long min, max;	       /* its count; max -1: no most */
	int every;		       /* {all}: every firing passes (one at least) */
	struct where_request *request; /* filter.h's, parsed */
	struct expect_target *targets;
	int ntargets;
	unsigned long long fired, passed;
	/* Said, and the trace stopped: a probe it names exactly came with
	   a followed process, and it cannot judge it. */
	int refused;
};
/* FEATURE_EXPECT's state: every --expect, parsed. */
struct expectations {
	struct expectation *all;
	int n;
};
/* ---- summary.c ---- */

/* The counts (per probe) and pair times the BPF side kept. */
struct tally {
	unsigned long long *counts;	/* tr->nprobes */
	unsigned long long *rejected;	/* ... by --where's filters */
	struct trace_pair_stats *pairs; /* tr->npairs */
	/* Per probe, the processes it fired in; NULL unless a command's or
	   a process's tree was followed. */
	unsigned *processes;
	unsigned long long dropped; /* events the ring had no room for */
	unsigned live_processes;    /* --metrics: running, and fired */
};
/* What tally.c allocated: freed by whichever stage read the tally. */
static inline void tally_free(struct tally *t)
{
	free(t->counts);
	free(t->rejected);
	free(t->pairs);
	free(t->processes);
}

#endif
