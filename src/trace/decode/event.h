/*
 * src/trace/decode/event.h - what becomes of a firing: the one decoder of its
 * arguments (event.c, with meant.c), the one matcher of starts to ends (calls.c), the
 * printer (printer.c) and the table of the consumers (sinks.c).
 * Included by the rooms that take firings (those, profile.c,
 * timeline.c, metrics.c), summary.c (its call depth), and trace.c,
 * which opens the consumers.
 */
#ifndef PROBEGEN_EVENT_H
#define PROBEGEN_EVENT_H

#include "trace/tracer.h"

/* ---- event.c: the one decoder of an event ---- */

/* Names printed of a probe or an argument, at most. */
#define NAME_PRINT_MAX 256
/* Room for one event's line: its head and every argument, escaped. */
#define EVENT_LINE_MAX \
	((2 + TRACE_MAX_SLOTS) * ESCAPED_MAX(NAME_PRINT_MAX) + \
	 TRACE_MAX_SLOTS * (ESCAPED_MAX(TRACE_STR_MAX) + 96) + 256)
/* Writers into a line of EVENT_LINE_MAX bytes: each returns the end of
 * what it wrote at p.  v in decimal, at least min_digits of it; s
 * escaped (JSON's rules or C's), at most max bytes of it; event e's
 * arguments (a firing of probe t), as " name=value" text or the members
 * of a JSON object. */
char *event_put_u64(char *p, unsigned long long v, int min_digits);
char *event_put_escaped(char *p, const char *s, size_t max, int json);
char *event_put_args(char *p, const struct traced *t,
		     const struct trace_event *e, int json);
/* JSON's: after an event's "args", a member ", \"cut\": {NAME: N}" for
 * its values cut short (N the bytes the program passed, or true where it
 * passed no length: a C string), nothing when none was; the values hold
 * only the program's bytes, never a "..." that a program's own value
 * could hold too. */
/* JSON's "functions": {"cb": "on_read_ready"}: each untagged pointer
 * argument that points into a function, by name (the number stays the
 * argument's value); nothing when none does. */
char *event_put_functions(char *p, const struct traced *t,
			  const struct trace_event *e);
char *event_put_cuts(char *p, const struct traced *t,
		     const struct trace_event *e);
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

/* ---- verdict.c: a compiled filter's verdict on an event ---- */

/* What a comparison reads for argument or show a (cond->arg): an
 * integer, or a string's bytes (text, len; as many as its slot holds
 * are compared, as in the kernel), or unreadable (a comparison on it is false, as in the
 * kernel). */
struct filter_operand {
	unsigned long long value;
	const char *text;
	unsigned len;
	int unreadable;
};
/* The verdict of filter f on a firing, by the steps the BPF side runs
 * (bpf/filter_eval.h), on operands[a] for each argument or show a. */
int filter_evaluate(const struct trace_filter *f,
		    const struct filter_operand operands[TRACE_MAX_SLOTS]);
/* Event e's operands, as the BPF side reads them at the firing. */
void event_operands(const struct traced *t, const struct trace_event *e,
		    struct filter_operand operands[TRACE_MAX_SLOTS]);

/* ---- meant.c: what an argument means, as text (for event.c) ---- */

/* What meant_text found besides text. */
enum {
	MEANT_NOTHING = -1,    /* nothing beyond its type: print the value */
	MEANT_UNREADABLE = -2, /* its bytes could not be read */
	MEANT_NEGATIVE = -3,   /* its length is negative (*total) */
	MEANT_ABSENT = -4,     /* a field its key=value text does not have */
};
/* The value of key in key=value text (n bytes; bpf/fields.h) into out
 * (n bytes at least): its length, or MEANT_ABSENT; *to_end when the
 * text ends inside it (a cut text cuts it). */
long meant_field(char *out, const char *text, size_t n, const char *key,
		 int *to_end);
/* Room meant_text needs: a slot in hex, or an address. */
#define MEANT_MAX (2 * TRACE_STR_MAX + 64)
/* How an ARG_CODE value is named: the function holding addr in process
 * pid, "name" or "name+0xN", into out (MEANT_MAX bytes): its length,
 * or MEANT_NOTHING when no function holds it (the address is shown).
 * stacks.c's symbolizer, set while it is open (the same that names
 * --stack's frames); none: addresses. */
typedef long meant_symbol_fn(void *ctx, unsigned pid, unsigned long long addr,
			     char *out);
void meant_set_symbolizer(meant_symbol_fn *fn, void *ctx);
/* The function an untagged pointer v of e's process points into (a
 * callback passed as void *), into out (MEANT_MAX bytes): its length,
 * or MEANT_NOTHING when it points into no function. */
long meant_pointer_function(const struct trace_event *e,
			    unsigned long long v, char *out);

/* Whether argument r takes a slot of the event (strings, lengths,
 * addresses), and argument a's slot: how many take one before it. */
int meant_has_slot(const struct arg_read *r);
int meant_slot_of(const struct traced *t, int a);
/* The slot of show k in event e (after its arguments' slots). */
int meant_show_slot(const struct traced *t, const struct trace_event *e,
		    int k);
/* Integer v read as r says: its size's bits, sign-extended when signed
 * (inline: the printer reads every integer argument through them). */
static inline long long meant_signed(const struct arg_read *r,
				     unsigned long long v)
{
	int bits = r->size >= 1 && r->size < 8 ? r->size * 8 : 64;

	return (long long)(v << (64 - bits)) >> (64 - bits);
}

static inline unsigned long long meant_unsigned(const struct arg_read *r,
						unsigned long long v)
{
	int bits = r->size >= 1 && r->size < 8 ? r->size * 8 : 64;

	return bits < 64 ? v & ((1ull << bits) - 1) : v;
}
/* What argument a of e (slot s) means, as plain text into out
 * (MEANT_MAX bytes): its length, and *total the bytes the program passed
 * (more than shown: cut), -1 when none; or a MEANT_ value below 0. */
long meant_text(char *out, const struct traced *t, const struct trace_event *e,
		int a, int s, long long *total);
/* The number argument a of e holds (a show's, from TRACE_MAX_ARGS on:
 * its value; 0 when unreadable): what a pair matches by. */
unsigned long long meant_value(const struct traced *t,
			       const struct trace_event *e, int a);
/* A --show member read with its length (a sibling member's), which
 * leads its slot. */
static inline int meant_counted(const struct arg_read *r)
{
	return r->length_from == LENGTH_SIBLING &&
	       arg_kind_of(r)->counted;
}
/* Show k of e: text into out as meant_text (*total too), or its number
 * into *v (MEANT_NOTHING); *cut when its string was cut. */
long meant_show_text(char *out, const struct traced *t,
		     const struct trace_event *e, int k, unsigned long long *v,
		     int *cut, long long *total);

/* ---- calls.c: starts matched to ends, in one place ---- */

struct calls;
/* A thread's open calls, at most: a start deeper is counted, not timed
 * (Python's default recursion limit is 1,000). */
#define CALLS_MAX_DEPTH 100000
/* A call: a start of a pair, open until its end. */
struct call {
	int pair;
	unsigned pid, tid;
	unsigned long long value; /* the matching argument's, by value */
	unsigned long long start_ns, end_ns;
	unsigned long long seq; /* the firing that opened it, counted */
	int ended;	   /* closed by its end; else with its caller, or at
			      the trace's end, unended */
	int thread, depth; /* its place on its thread's stack; -1: none */
	char *name;	   /* what the profile and the timeline call it
			      (call_name) */
	long long line;	   /* its start's line argument (line_arg), or 0 */
	char *start_args;  /* its start's arguments as a JSON object, when
			      the timeline draws them */
	int profile_name, profile_node; /* the profile's, once it opens */
	unsigned long long child_ns;	/* the profile's: of the calls
					   ended inside it */
};
struct call_ref {
	int thread, index; /* thread -1: an open call matched by value */
};
/* The calls of the pairs the consumers of tr's plan need matched: the
 * timeline's (every pair) and the profile's (those timed here). */
struct calls *calls_new(const struct tracer *tr);
/* Match event e's ends, then its starts. */
void calls_event(struct calls *c, const struct trace_event *e);
/* What the latest event (or calls_end) closed, innermost first (*n of
 * them), and the i-th call it opened (NULL past the last): valid until
 * the next event. */
const struct call *calls_closed(const struct calls *c, int *n);
struct call *calls_opened(struct calls *c, int i);
/* The call open just around x on its thread, or NULL. */
struct call *calls_below(struct calls *c, const struct call *x);
/* The times of the pairs timed here (in_user) into pairs, the calls
 * still open counted as unended. */
void calls_tally(const struct calls *c, struct trace_pair_stats *pairs);
/* The trace has ended: every call still open closes, unended, at the
 * latest event's time (calls_closed lists them). */
void calls_end(struct calls *c);
void calls_free(struct calls *c);

#endif
