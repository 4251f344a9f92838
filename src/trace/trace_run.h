/*
 * src/trace/trace_run.h - the tracer as main.c calls it: --trace's
 * options and trace_run() (trace/trace.c, or trace/trace_none.c when
 * probegen is built without libbpf).
 */
#ifndef PROBEGEN_TRACE_RUN_H
#define PROBEGEN_TRACE_RUN_H

#include "probegen.h"

struct program;

/* --stack: the bytes of each firing's user stack copied, by default and
 * at most (--stack-bytes). */
#define TRACE_STACK_BYTES_DEFAULT 8192
#define TRACE_STACK_BYTES_MAX 65536
/* --stack: the frames a walk keeps, by default (perf's, the kernel's
 * perf_event_max_stack) and at most (--stack-frames). */
#define TRACE_STACK_FRAMES_DEFAULT 127
#define TRACE_STACK_FRAMES_MAX 1024
/* The most bytes of a string or a byte value each firing copies, by
 * default and at most (--string-bytes): trace_abi.h's slot. */
#define TRACE_STRING_BYTES_DEFAULT 128
#define TRACE_STRING_BYTES_MAX 4096

/* --budget's share of the traced processes' CPU time, in percent, when
 * attached to a running process (-p) and none is given: a server's
 * owner loses at most about 1/21 of its throughput (budget.c). */
#define TRACE_BUDGET_DEFAULT_PID 5
#define TRACE_BUDGET_NONE (-1.0) /* --budget none */

/* The names of a pair's breakdown --summary prints without --top. */
#define TRACE_TOP_DEFAULT 20

/* Filled by options.c as it reads the command line (main.c adds the
 * operands, the -s files' program, --json and --summary). */
struct trace_options {
	char **command;		     /* -c or -- CMD ARGS: its argv, or NULL */
	int pid;		     /* -p PID, or 0 */
	const char *const *binaries; /* BINARY operands */
	int nbinaries;
	struct string_list filters; /* -n PROVIDER:NAME patterns */
	const struct program *d_program; /* what the -s FILE.d declare, or NULL */
	long long limit;		 /* --limit N, or 0 */
	double duration;		 /* --duration SECONDS, or 0 */
	double budget; /* --budget PERCENT, TRACE_BUDGET_NONE, or 0: not given */
	int json;
	int summary; /* --summary: counts and pair latencies at the end */
	const char *output;   /* -o FILE: the events and summary, not stdout */
	int expect_all;	      /* --expect-all: exit 1 if a probe never fired */
	const char *timeline; /* --timeline FILE.json, or NULL */
	struct string_list pair_requests; /* --pair P:START,P:END[,ARG] */
	struct string_list by_requests;	  /* --by P:START:ARG[+ARG...] */
	struct string_list show_requests; /* --show P:N:EXPR */
	struct string_list where_requests; /* --where 'P:N: EXPR' */
	struct string_list expect_requests; /* --expect 'P:N{COUNT}: EXPR' */
	int stack;	 /* --stack: each firing's native stack */
	int stack_bytes; /* --stack-bytes N, or 0: the default */
	int stack_frames; /* --stack-frames N, or 0: the default */
	int string_bytes; /* --string-bytes N, or 0: the default */
	int top;	     /* --top N, or 0: TRACE_TOP_DEFAULT */
	const char *folded;  /* --folded FILE: folded stacks, or NULL */
	const char *pprof;   /* --pprof FILE: a pprof profile, or NULL */
	const char *metrics; /* --metrics ADDR: serve Prometheus, or NULL */
	const char *user;    /* --user NAME: whom to run as once attached */
};
/* Trace until the command or process ends, --limit, or a signal;
 * returns the exit status. */
int trace_run(const struct trace_options *opt);

#endif
