/*
 * src/trace/event.h - what becomes of a firing (tracer.h includes it):
 * the one decoder of its arguments (event.c), the printer (printer.c)
 * and the fan-out to the consumers (sinks.c).
 */
#ifndef PROBEGEN_EVENT_H
#define PROBEGEN_EVENT_H

struct tracer;
struct traced;

/* ---- event.c: the one decoder of an event ---- */

/* Names printed of a probe or an argument, at most. */
#define NAME_PRINT_MAX 256
/* Room for one event's line: its head and every argument, escaped. */
#define EVENT_LINE_MAX \
	((2 + TRACE_MAX_ARGS) * ESCAPED_MAX(NAME_PRINT_MAX) + \
	 TRACE_MAX_ARGS * (ESCAPED_MAX(TRACE_STR_LEN) + 96) + 256)
/* Writers into a line of EVENT_LINE_MAX bytes: each returns the end of
 * what it wrote at p.  v in decimal, at least min_digits of it; s
 * escaped (JSON's rules or C's), at most max bytes of it; event e's
 * arguments (a firing of probe t), as " name=value" text or the members
 * of a JSON object. */
char *event_put_u64(char *p, unsigned long long v, int min_digits);
char *event_put_escaped(char *p, const char *s, size_t max, int json);
char *event_put_args(char *p, const struct traced *t,
		     const struct trace_event *e, int json);
/* Argument a of event e (a firing of probe t) as text, appended to b: a
 * string's bytes as the program passed them (not escaped), a number in
 * decimal by its size and sign.  -1, nothing appended, when the event
 * has no argument a or its string could not be read.  What labels a
 * firing (metrics.c). */
int event_arg_text(const struct traced *t, const struct trace_event *e, int a,
		   struct buf *b);
/* The name of a call of pair from its start event e: the values of the
 * pair's name_args, Class::function or function (file) (an empty one
 * left out), else its stem; into b, NUL-terminated.  What the profile
 * and the timeline call it. */
void call_name(const struct tracer *tr, int pair, const struct trace_event *e,
	       struct buf *b);

/* ---- printer.c ---- */

/* A sink: the event as one line of text or JSON, to tr->out. */
void printer_event(struct tracer *tr, const struct trace_event *e);

/* ---- sinks.c ---- */

/* The ring buffer's callback for a firing (ctx: the tracer): to each
 * consumer the plan runs (profile, metrics, timeline, printer). */
int sinks_event(void *ctx, void *data, size_t size);

#endif
