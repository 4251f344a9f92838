/*
 * src/trace/events.c - what --trace does with an event: one line, a
 * timestamp, pid/tid, provider:name and each argument as name=value by
 * how its type is read (type_tracer_read), or one JSON object a line;
 * or to the timeline, or to the profile alone.
 * Text from the traced program or a binary is escaped (util.c).
 */
#include <stdlib.h>
#include <string.h>

#include "tracer.h"

volatile sig_atomic_t trace_stopping;

/* One event's line, built here, numbers and all, and written with one
 * fwrite.  The reader must be faster than the probes or the ring fills:
 * with sprintf for the numbers it took 1 us an event, more than a
 * firing (0.7 us), and dropped 44,000 to 132,000 of 3,000,000 events;
 * by hand, 0.4 us and none (BENCHMARKS.md). */
/* Names printed of a probe or an argument, at most. */
#define NAME_PRINT_MAX 256
struct line {
	char *p, buf[(2 + TRACE_MAX_ARGS) * ESCAPED_MAX(NAME_PRINT_MAX) +
		     TRACE_MAX_ARGS * (ESCAPED_MAX(TRACE_STR_LEN) + 96) + 256];
};

static void put(struct line *l, const char *s, size_t n)
{
	memcpy(l->p, s, n);
	l->p += n;
}

static void put_str(struct line *l, const char *s)
{
	put(l, s, strlen(s));
}

static void put_u64(struct line *l, unsigned long long v, int min_digits)
{
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v || (int)sizeof(tmp) - i < min_digits);
	put(l, tmp + i, sizeof(tmp) - (size_t)i);
}

static void put_hex(struct line *l, unsigned long long v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int i = sizeof(tmp);

	do {
		tmp[--i] = digits[v & 15];
		v >>= 4;
	} while (v);
	put(l, "0x", 2);
	put(l, tmp + i, sizeof(tmp) - (size_t)i);
}

/* Escaped for a quoted string: JSON's rules, or C's for text. */
/* Text from the traced program or a binary's notes: escaped, and at
 * most max bytes of it (names in a hostile binary may be any length;
 * the line has room for ESCAPED_MAX of each part). */
static void put_escaped(struct line *l, const char *s, size_t max, int json)
{
	size_t n = strnlen(s, max);

	l->p = escape_to(l->p, s, n, json);
}

static void put_value(struct line *l, const struct traced *t, int i,
		      unsigned long long v, int json)
{
	const struct tracer_read *r = &t->read[i];
	int bits = r->size >= 1 && r->size < 8 ? r->size * 8 : 64;
	const char *why = tracer_read_unreadable(r);

	if (why) {
		put_str(l, json ? "\"(not readable: " : "(not readable: ");
		put_str(l, why);
		put_str(l, json ? ")\"" : ")");
	} else if (r->how == READ_POINTER || r->how == READ_STRING) {
		if (json)
			*l->p++ = '"';
		put_hex(l, v);
		if (json)
			*l->p++ = '"';
	} else if (r->is_signed) {
		long long s = (long long)(v << (64 - bits)) >> (64 - bits);

		if (s < 0) {
			*l->p++ = '-';
			put_u64(l, 0 - (unsigned long long)s, 1);
		} else {
			put_u64(l, (unsigned long long)s, 1);
		}
	} else {
		put_u64(l, bits < 64 ? v & ((1ull << bits) - 1) : v, 1);
	}
}

static void put_args(struct line *l, const struct traced *t,
		     const struct trace_event *e, int json);

int event_arg_text(const struct traced *t, const struct trace_event *e, int a,
		   struct buf *b)
{
	const struct tracer_read *r = &t->read[a];
	int i, s = 0;

	if (a >= (int)e->nargs)
		return -1;
	if (r->how == READ_STRING) {
		/* Strings follow the header in their arguments' order. */
		for (i = 0; i < a; i++)
			s += t->read[i].how == READ_STRING;
		if ((e->fault_mask & (1u << a)) || s >= (int)e->nstrings)
			return -1;
		buf_add(b, e->strings[s],
			strnlen(e->strings[s], TRACE_STR_LEN - 1));
	} else {
		int bits = r->size >= 1 && r->size < 8 ? r->size * 8 : 64;
		unsigned long long v = e->args[a];

		if (r->is_signed)
			buf_printf(b, "%lld",
				   (long long)(v << (64 - bits)) >>
					   (64 - bits));
		else
			buf_printf(b, "%llu",
				   bits < 64 ? v & ((1ull << bits) - 1) : v);
	}
	return 0;
}

/* One more event; --limit stops the trace. */
static void counted(struct tracer *tr)
{
	tr->events++;
	if (tr->plan.limit && tr->events >= (unsigned long long)tr->plan.limit)
		trace_stopping = 1;
}

/* --timeline: the event goes to the timeline, its arguments as JSON. */
static void to_timeline(struct tracer *tr, const struct trace_event *e)
{
	struct line l;

	l.p = l.buf;
	*l.p++ = '{';
	put_args(&l, &tr->probes[e->probe], e, 1);
	*l.p++ = '}';
	*l.p = '\0';
	timeline_event(tr->timeline, e, l.buf);
	counted(tr);
}

int events_print(void *ctx, void *data, size_t size)
{
	struct tracer *tr = ctx;
	const struct trace_event *e = data;
	const struct traced *t;
	struct line l;
	unsigned long long ns;
	int json = tr->plan.json;

	(void)size;
	if (e->probe >= (unsigned)tr->nprobes || trace_stopping)
		return 0;
	t = &tr->probes[e->probe];
	if (!tr->start_ns)
		tr->start_ns = e->time_ns;
	if (tr->profile)
		profile_event(tr->profile, e);
	if (tr->metrics)
		metrics_event(tr->metrics, e);
	if (tr->timeline) {
		to_timeline(tr, e);
		return 0;
	}
	/* Sent for the profile or the metrics alone: --summary, --folded
	   and --metrics print no event. */
	if (!tr->plan.print) {
		counted(tr);
		return 0;
	}
	ns = e->time_ns - tr->start_ns;
	l.p = l.buf;
	put_str(&l, json ? "{\"time\": " : "");
	put_u64(&l, ns / 1000000000, 1);
	*l.p++ = '.';
	if (json)
		put_u64(&l, ns % 1000000000, 9);
	else
		put_u64(&l, ns % 1000000000 / 1000, 6);
	put_str(&l, json ? ", \"pid\": " : " ");
	put_u64(&l, e->pid, 1);
	put_str(&l, json ? ", \"tid\": " : "/");
	put_u64(&l, e->tid, 1);
	put_str(&l, json ? ", \"probe\": \"" : " ");
	put_escaped(&l, t->provider, NAME_PRINT_MAX, json);
	*l.p++ = ':';
	put_escaped(&l, t->name, NAME_PRINT_MAX, json);
	if (json)
		put_str(&l, "\", \"args\": {");
	put_args(&l, t, e, json);
	put_str(&l, json ? "}}\n" : "\n");
	fwrite(l.buf, 1, (size_t)(l.p - l.buf), tr->out);
	counted(tr);
	return 0;
}

/* Each argument: "name": value (JSON) or " name=value" (text). */
static void put_args(struct line *l, const struct traced *t,
		     const struct trace_event *e, int json)
{
	int i, s = 0;

	for (i = 0; i < t->nargs && i < (int)e->nargs; i++) {
		if (json) {
			put_str(l, i ? ", \"" : "\"");
			put_escaped(l, t->arg_names[i], NAME_PRINT_MAX, json);
			put_str(l, "\": ");
		} else {
			*l->p++ = ' ';
			put_escaped(l, t->arg_names[i], NAME_PRINT_MAX, json);
			*l->p++ = '=';
		}
		if (t->read[i].how == READ_STRING &&
		    (e->fault_mask & (1u << i))) {
			/* The page was not there to read: the address, in a
			 * shape no string the program passes can take (in
			 * text, unquoted; in JSON, an object). */
			s++;
			put_str(l, json ? "{\"address\": \"" : "");
			put_hex(l, e->args[i]);
			put_str(l, json ? "\", \"unreadable\": true}"
					: "(unreadable)");
		} else if (t->read[i].how == READ_STRING &&
			   s < (int)e->nstrings) {
			int cut = e->cut_mask & (1u << i);
			char str[TRACE_STR_LEN];

			/* Copied out: the ring's copy need not end in a NUL. */
			memcpy(str, e->strings[s++], sizeof(str));
			str[sizeof(str) - 1] = '\0';
			*l->p++ = '"';
			put_escaped(l, str, sizeof(str), json);
			/* A cut string ends in "..." (inside JSON's quotes). */
			put_str(l, cut ? (json ? "...\"" : "\"...") : "\"");
		} else {
			put_value(l, t, i, e->args[i], json);
		}
	}
}
