/*
 * src/trace/sinks/pprof.h - --pprof: the profile as pprof's profile.proto,
 * gzipped (pprof.c, with protobuf-c's code generated at build time from
 * pprof's own .proto), from the profile's call paths (profile.c).
 */
#ifndef PROBEGEN_PPROF_H
#define PROBEGEN_PPROF_H

#include "trace/decode/stacks.h"
#include "trace/sinks/sinks.h"

/* ---- profile.c: its call paths ---- */

/* One call path on one thread: its names, the leaf first (depth of
 * them), the calls that ended there and their self time. */
typedef void profile_path_fn(void *ctx,
			     const struct profile_name *const *names,
			     int depth, unsigned pid, unsigned tid,
			     unsigned long long calls,
			     unsigned long long self_ns);
void profile_paths(const struct profile *p, profile_path_fn *fn, void *ctx);

/* ---- stack_counts.c: its distinct stacks ---- */

/* One probe's (its label) firings with one stack: its frames' places,
 * the innermost first (n of them), and how many. */
typedef void stack_path_fn(void *ctx, const char *probe,
			   const struct frame_place *places, int n,
			   unsigned long long count);
void stack_counts_paths(const struct stack_counts *c, const struct tracer *tr,
			stack_path_fn *fn, void *ctx);

/* ---- pprof.c ---- */

/* 0 where probegen writes pprof; else -1, after saying what to
 * install (pprof_none.c). */
int pprof_check(void);
/* Write the firings by stack into out (opened before the trace),
 * gzipped, and commit it: 0, or -1 (said). */
int pprof_write_stacks(const struct tracer *tr, const struct stack_counts *c,
		       struct output *out);
/* Write the profile's paths into out (opened before the trace), gzipped,
 * and commit it: 0, or -1 (said). */
int pprof_write(const struct tracer *tr, const struct profile *p,
		struct output *out);

#endif
