/*
 * src/trace/sinks/sinks.h - what the sink rooms offer the table in
 * sinks.c, and each other: the printer, the summary, the timeline, the
 * profile and --expect's judge.  The table itself (enum sink_id,
 * sink_state, sinks_*) is tracer.h's, since the run drives it; the
 * rooms with headers of their own are metrics.h's, pprof.h's and
 * server's.  Included by the rooms of sinks/ only.
 */
#ifndef PROBEGEN_SINKS_H
#define PROBEGEN_SINKS_H

#include "trace/tracer.h"

/* A row of sinks.c's table: what the plan wants, and each step of its
 * life.  wanted is every row's; each other step may be NULL.  A room
 * may hold its own row (sinks.c's table names it). */
struct sink {
	enum sink_id id; /* SINK_NO_ID: a row no other row reads */
	int (*wanted)(const struct trace_plan *p);
	/* Before anything is attached: its state (NULL: it keeps none),
	   or SINK_FAILED after saying why. */
	void *(*open)(struct tracer *tr);
	void (*event)(void *state, struct tracer *tr,
		      const struct trace_event *e);
	/* Once the trace has ended, with the kernel's counts (NULL when
	   the plan reads none: plan.tally): what it says, and the run's
	   status (given status). */
	int (*report)(void *state, struct tracer *tr, const struct tally *t,
		      int status);
	/* Its files kept when the trace ran (ran: it traced, and did not
	   fail), else removed: 0, or -1 after saying why. */
	int (*finish)(void *state, struct tracer *tr, int ran);
	void (*free)(void *state);
};

/* ---- printer.c ---- */

/* A sink: the event as one line of text or JSON, to tr->out. */
void printer_event(struct tracer *tr, const struct trace_event *e);
/* --budget: probe was not traced from from to to (now_seconds()'s
 * clock, the events' own), said in the stream where the gap is. */
void printer_gap(struct tracer *tr, int probe, double from, double to);

/* ---- summary.c ---- */

/* Print them: text, or one JSON object with --json. */
void summary_print(const struct tracer *tr, const struct tally *t);
/* With --expect-all: name each probe that never fired; 1 if any. */
int summary_unfired(const struct tracer *tr, const struct tally *t);

/* ---- timeline.c ---- */

struct timeline;
/* --timeline FILE.json, written only if the trace succeeds; NULL after
 * saying why. */
struct timeline *timeline_open(const struct tracer *tr, const char *path);
/* A sink: the event, a slice's start or end or an instant. */
void timeline_event(struct timeline *tl, const struct trace_event *e);
/* Write the file: 0, or -1 after saying why. */
int timeline_close(struct timeline *tl);
void timeline_abort(struct timeline *tl);

/* ---- profile.c ---- */

struct profile;
/* A name's calls: how many, their inclusive time (a recursive call's
 * counted once, in the outermost's) and self time (less nested calls'),
 * and each call's inclusive time in buckets. */
struct profile_name {
	char *key;	  /* "PAIR\tNAME" */
	const char *name; /* in key */
	int pair;
	unsigned long long calls, total_ns, self_ns, line; /* line: 0, none */
	struct trace_pair_stats *times;
};
/* The profile of tr's pairs timed in user space, and --folded's file
 * opened (written only by profile_write_folded); NULL after saying why
 * the file cannot be written. */
struct profile *profile_new(const struct tracer *tr);
/* A sink: the calls event e closed and opened (tr->calls), of the
 * pairs timed here. */
void profile_event(struct profile *p, const struct trace_event *e);
/* Pair's names with calls, most self time first: *n of them, in an
 * array to free (the names are the profile's). */
struct profile_name **profile_names(const struct profile *p, int pair, int *n);
/* Write --folded's file, if asked: 0, or -1 after saying why. */
int profile_write_folded(struct profile *p);
void profile_free(struct profile *p);

/* ---- judge.c ---- */

/* A sink: each firing judged by the expectations of its probe. */
void expects_event(struct tracer *tr, const struct trace_event *e);
/* Say each expectation's count, and whether it is met: status, or
 * EXIT_INPUT when one is not. */
int expects_report(struct tracer *tr, int status);

#endif
