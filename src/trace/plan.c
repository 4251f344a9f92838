/*
 * src/trace/plan.c - what a trace does, decided once from --trace's
 * options (which go together, option_table.c's rows say, and options.c
 * checks): where each firing goes in probegen (the sinks: printer,
 * timeline, profile, metrics), what the kernel keeps, and what is said
 * at the end, and what it traces and writes, as the options name it.
 * The plan keeps only what is decided here, and the request (the
 * options as given) for what is read as asked: a new option is its
 * row, its field in struct trace_options, its reader and its man page
 * line, and a decision made of it here if it needs one.
 */
#include "trace/tracer.h"

void plan_make(const struct trace_options *opt, struct trace_plan *plan)
{
	*plan = (struct trace_plan){ 0 };
	plan->request = opt;
	plan->following = opt->command || opt->pid;
	plan->timeline = opt->timeline != NULL;
	plan->stack_counts = opt->stack &&
			     (opt->summary || opt->folded || opt->pprof);
	/* --folded and --pprof with --stack weigh native stacks, not the
	   pairs' calls. */
	plan->profile = opt->summary ||
			((opt->folded || opt->pprof) && !opt->stack);
	/* Nested calls timed in probegen for a profile file. */
	plan->folded = (opt->folded || opt->pprof) && !opt->stack;
	plan->metrics = opt->metrics != NULL;
	/* A firing is printed unless something else is made of it. */
	plan->print = !opt->timeline && !opt->summary && !opt->folded &&
		      !opt->pprof && !opt->metrics;
	/* The kernel counts and times; only what a room in probegen
	   needs streams (the timeline needs every firing). */
	plan->kernel_counts = (opt->summary || opt->metrics) && !opt->timeline;
	/* Counts read at the end or at a scrape. */
	plan->tally = opt->summary || opt->expect_all || opt->metrics ||
		      plan->stack_counts; /* to say the stacks lost */
	/* The processes each probe fired in: --summary's, while following,
	   and --metrics's running processes. */
	plan->count_processes = (plan->following && opt->summary) ||
				plan->metrics;
	plan->top = opt->top ? opt->top : TRACE_TOP_DEFAULT;
	plan->stack_bytes = !opt->stack		? 0
			    : opt->stack_bytes ? (unsigned)opt->stack_bytes
					       : TRACE_STACK_BYTES_DEFAULT;
	plan->stack_frames = opt->stack_frames ? opt->stack_frames
					       : TRACE_STACK_FRAMES_DEFAULT;
	plan->string_bytes = opt->string_bytes ? (unsigned)opt->string_bytes
					       : TRACE_STRING_BYTES_DEFAULT;
	plan->expect = opt->expect_requests.n > 0;
	plan->folded_calls_path = opt->stack ? NULL : opt->folded;
	plan->folded_stacks_path = opt->stack ? opt->folded : NULL;
	plan->pprof_calls = opt->pprof && !opt->stack;
	/* --budget: asked, or -p's default (a running process is the
	   production case; a command probegen starts, a test suite, is
	   traced whole).  --expect counts every firing: it runs whole, and
	   trace.c says so (an asked budget does not go with it: options). */
	plan->budget = opt->budget > 0 ? opt->budget / 100 : 0;
	if (opt->budget == 0 && opt->pid) {
		plan->budget = TRACE_BUDGET_DEFAULT_PID / 100.0;
		plan->budget_default = 1;
	}
	if (plan->budget && (plan->expect || opt->expect_all)) {
		plan->budget_waived = plan->expect ? "--expect" : "--expect-all";
		plan->budget = 0;
	}
}
