/*
 * src/trace/decode/event.c - the one decoder of an event's arguments: each by
 * how its type is read (type_arg_read) as name=value text or a JSON
 * member, one as plain text (what labels a firing, --metrics), and the
 * name of the call a pair's start begins (call_name: --summary's
 * breakdown, --folded, --timeline).  Text from the traced program or a
 * binary is escaped (escape.c).  The sinks (sinks.c) and their
 * consumers call it; it calls none of them.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>

#include "trace/decode/event.h"
#include "trace/kernel/bpf/fields.h"

/* An event's text is built by hand, numbers and all, and written with
 * one fwrite (printer.c).  The reader must be faster than the probes or
 * the ring fills: with sprintf for the numbers it took 1 us an event,
 * more than a firing (0.7 us), and dropped 44,000 to 132,000 of
 * 3,000,000 events; by hand, 0.4 us and none (BENCHMARKS.md). */
struct line {
	char *p;
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

char *event_put_u64(char *p, unsigned long long v, int min_digits)
{
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v || (int)sizeof(tmp) - i < min_digits);
	memcpy(p, tmp + i, sizeof(tmp) - (size_t)i);
	return p + sizeof(tmp) - (size_t)i;
}

static void put_u64(struct line *l, unsigned long long v, int min_digits)
{
	l->p = event_put_u64(l->p, v, min_digits);
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
char *event_put_escaped(char *p, const char *s, size_t max, int json)
{
	return escape_to(p, s, strnlen(s, max), json);
}

static void put_escaped(struct line *l, const char *s, size_t max, int json)
{
	l->p = event_put_escaped(l->p, s, max, json);
}

static void put_value(struct line *l, const struct traced *t,
		      const struct trace_event *e, int i,
		      unsigned long long v, int json)
{
	const struct arg_read *r = &t->read[i];
	const char *why = arg_read_unreadable(r);
	char function[MEANT_MAX];
	long n;

	if (why) {
		put_str(l, json ? "\"(not readable: " : "(not readable: ");
		put_str(l, why);
		put_str(l, json ? ")\"" : ")");
	} else if (arg_kind_of(r)->hex) {
		if (json)
			*l->p++ = '"';
		put_hex(l, v);
		if (json)
			*l->p++ = '"';
		/* A pointer into a function (a callback as void *): named
		   beside the number in text, apart in JSON
		   (event_put_functions). */
		if (!json && r->kind == ARG_POINTER &&
		    (n = meant_pointer_function(e, v, function)) >= 0) {
			put_str(l, " (");
			l->p = escape_to(l->p, function, (size_t)n, 0);
			*l->p++ = ')';
		}
	} else if (r->is_signed) {
		long long s = meant_signed(r, v);

		if (s < 0) {
			*l->p++ = '-';
			put_u64(l, 0 - (unsigned long long)s, 1);
		} else {
			put_u64(l, (unsigned long long)s, 1);
		}
	} else {
		put_u64(l, meant_unsigned(r, v), 1);
	}
}

/* An argument by what it means (meant_text's n and total). */
static void put_meant(struct line *l, const struct traced *t,
		      const struct trace_event *e, int a, const char *text,
		      long n, long long total, int json)
{
	const struct arg_read *r = &t->read[a];
	int quote = json || arg_kind_of(r)->quoted;

	if (n == MEANT_UNREADABLE) {
		/* As a string that could not be read: its address, in a
		   shape no value the program passes can take. */
		put_str(l, json ? "{\"address\": \"" : "");
		put_hex(l, e->args[a]);
		put_str(l, json ? "\", \"unreadable\": true}" : "(unreadable)");
		return;
	}
	if (json && r->kind == ARG_SOCKADDR && e->args[a] == 0) {
		put_str(l, "null");
		return;
	}
	if (n == MEANT_NEGATIVE) {
		put_str(l, json ? "\"(not readable: length -" : "(not readable: length -");
		put_u64(l, 0 - (unsigned long long)total, 1);
		put_str(l, json ? ")\"" : ")");
		return;
	}
	if (quote)
		*l->p++ = '"';
	l->p = escape_to(l->p, text, (size_t)n, json);
	if (total > (meant_counted(r) ? TRACE_COUNTED_MAX(e->slot_bytes)
				      : e->slot_bytes)) {
		/* Cut: what the program passed, said (in JSON apart from
		   the value, by event_put_cuts: "abc..." may be a value). */
		if (json) {
			*l->p++ = '"';
			return;
		}
		put_str(l, quote ? "\"... (" : "... (");
		put_u64(l, (unsigned long long)total, 1);
		put_str(l, " bytes)");
		return;
	}
	if (quote)
		*l->p++ = '"';
}

/* Each show of e: " expr=value" (text) or ", \"expr\": value". */
/* key=value text (@fields) as a JSON object of its fields, each value
 * a string (bpf/fields.h's reading); a value the text's end cuts is
 * given as far as it goes (the event's "cut" says so). */
static void put_fields(struct line *l, const char *text)
{
	char key[TRACE_STR_MAX], value[TRACE_STR_MAX], v;
	size_t nk = 0, nv = 0, n = 0;
	__u32 phase = PHASE_KEY;
	int kind, in_value = 0;

	*l->p++ = '{';
	for (;; text++) {
		kind = *text ? field_byte(&phase, *text, &v) : FIELD_VALUE_END;
		if (kind == FIELD_KEY) {
			key[nk++] = v;
		} else if (kind == FIELD_KEY_END) {
			in_value = 1;
			nv = 0;
		} else if (kind == FIELD_VALUE && in_value) {
			value[nv++] = v;
		} else if (kind == FIELD_VALUE_END && in_value) {
			put_str(l, n++ ? ", \"" : "\"");
			l->p = escape_to(l->p, key, nk, 1);
			put_str(l, "\": \"");
			l->p = escape_to(l->p, value, nv, 1);
			*l->p++ = '"';
			in_value = 0;
			nk = 0;
		} else if (kind == FIELD_SKIP && phase == PHASE_KEY) {
			nk = 0; /* a word without its =, or the space after a value */
		}
		if (!*text)
			break;
	}
	*l->p++ = '}';
}

static void put_shows(struct line *l, const struct traced *t,
		      const struct trace_event *e, int json, int first)
{
	char text[MEANT_MAX];
	unsigned long long v;
	long long total;
	int k, cut, a;
	long n;

	for (k = 0; k < t->nshows; k++) {
		a = TRACE_MAX_ARGS + k;
		put_str(l, json ? (first && !k ? "\"" : ", \"") : " ");
		put_escaped(l, t->arg_names[a], NAME_PRINT_MAX, json);
		put_str(l, json ? "\": " : "=");
		n = meant_show_text(text, t, e, k, &v, &cut, &total);
		if (n == MEANT_UNREADABLE) {
			put_str(l, json ? "{\"unreadable\": true}" : "(unreadable)");
		} else if (n == MEANT_ABSENT) {
			put_str(l, json ? "null" : "(absent)");
		} else if (meant_counted(&t->read[a])) {
			put_meant(l, t, e, a, text, n, total, json);
		} else if (n == MEANT_NOTHING) {
			put_value(l, t, e, a, v, json);
		} else {
			int quote = json || arg_kind_of(&t->read[a])->quoted;

			if (quote)
				*l->p++ = '"';
			l->p = escape_to(l->p, text, (size_t)n, json);
			if (cut && !json)
				put_str(l, quote ? "\"..." : "...");
			if (quote && !(cut && !json))
				*l->p++ = '"';
		}
	}
}

int event_arg_text(const struct traced *t, const struct trace_event *e, int a,
		   struct buf *b)
{
	const struct arg_read *r = &t->read[a];
	int s = meant_slot_of(t, a);
	char text[MEANT_MAX];
	long long total;
	long n;

	if (a >= TRACE_MAX_ARGS) {
		unsigned long long v;
		int cut;

		n = meant_show_text(text, t, e, a - TRACE_MAX_ARGS, &v, &cut,
				    &total);
		if (n == MEANT_UNREADABLE || n == MEANT_NEGATIVE)
			return -1;
		if (n >= 0)
			buf_add(b, text, (size_t)n);
		else if (arg_kind_of(r)->hex)
			buf_printf(b, "0x%llx", v);
		else if (r->is_signed)
			buf_printf(b, "%lld", meant_signed(r, v));
		else
			buf_printf(b, "%llu", meant_unsigned(r, v));
		return 0;
	}
	if (a >= (int)e->nargs)
		return -1;
	n = meant_text(text, t, e, a, s, &total);
	if (n >= 0) {
		buf_add(b, text, (size_t)n);
		return 0;
	}
	if (n != MEANT_NOTHING)
		return -1;
	if (r->kind == ARG_STRING) {
		/* Slots follow the header in their arguments' order. */
		if ((e->fault_mask & (1u << a)) || s >= (int)e->nstrings)
			return -1;
		buf_add(b, TRACE_SLOT(e, s),
			strnlen(TRACE_SLOT(e, s), e->slot_bytes - 1));
	} else if (arg_kind_of(r)->hex) {
		/* As streaming shows it: in hex, a pointer with its function
		   (a code pointer no function holds: the address, as --stack
		   says one). */
		buf_printf(b, "0x%llx", e->args[a]);
		if (r->kind == ARG_POINTER &&
		    (n = meant_pointer_function(e, e->args[a], text)) >= 0) {
			buf_lit(b, " (");
			buf_add(b, text, (size_t)n);
			buf_lit(b, ")");
		}
	} else if (r->is_signed) {
		buf_printf(b, "%lld", meant_signed(r, e->args[a]));
	} else {
		buf_printf(b, "%llu", meant_unsigned(r, e->args[a]));
	}
	return 0;
}

/* Each argument: "name": value (JSON) or " name=value" (text). */
char *event_put_args(char *p, const struct traced *t,
		     const struct trace_event *e, int json)
{
	struct line line = { p }, *l = &line;
	char text[MEANT_MAX];
	long long total;
	int i, s = 0;
	long n;

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
		if ((n = meant_text(text, t, e, i, s, &total)) !=
		    MEANT_NOTHING) {
			put_meant(l, t, e, i, text, n, total, json);
			s += meant_has_slot(&t->read[i]);
		} else if (t->read[i].kind == ARG_STRING &&
			   (e->fault_mask & (1u << i))) {
			/* The page was not there to read: the address, in a
			 * shape no string the program passes can take (in
			 * text, unquoted; in JSON, an object). */
			s++;
			put_str(l, json ? "{\"address\": \"" : "");
			put_hex(l, e->args[i]);
			put_str(l, json ? "\", \"unreadable\": true}"
					: "(unreadable)");
		} else if (t->read[i].kind == ARG_STRING &&
			   s < (int)e->nstrings) {
			int cut = e->cut_mask & (1u << i);
			char str[TRACE_STR_MAX];

			/* Copied out: the ring's copy need not end in a NUL. */
			memcpy(str, TRACE_SLOT(e, s++), e->slot_bytes);
			str[e->slot_bytes - 1] = '\0';
			if (json && t->read[i].key_values) {
				put_fields(l, str);
				continue;
			}
			*l->p++ = '"';
			put_escaped(l, str, e->slot_bytes, json);
			/* A cut string ends in "..." after the quotes; in
			   JSON the cut is said apart (event_put_cuts). */
			put_str(l, cut && !json ? "\"..." : "\"");
		} else {
			put_value(l, t, e, i, e->args[i], json);
			s += meant_has_slot(&t->read[i]);
		}
	}
	put_shows(l, t, e, json, i == 0);
	return l->p;
}

char *event_put_functions(char *p, const struct traced *t,
			  const struct trace_event *e)
{
	struct line line = { p }, *l = &line;
	char function[MEANT_MAX];
	int i, n = 0;
	long len;

	for (i = 0; i < t->nargs && i < (int)e->nargs && i < TRACE_MAX_ARGS; i++) {
		if (t->read[i].kind != ARG_POINTER ||
		    (len = meant_pointer_function(e, e->args[i], function)) < 0)
			continue;
		put_str(l, n++ ? ", \"" : ", \"functions\": {\"");
		put_escaped(l, t->arg_names[i], NAME_PRINT_MAX, 1);
		put_str(l, "\": \"");
		l->p = escape_to(l->p, function, (size_t)len, 1);
		*l->p++ = '"';
	}
	if (n)
		*l->p++ = '}';
	return l->p;
}

char *event_put_cuts(char *p, const struct traced *t,
		     const struct trace_event *e)
{
	struct line line = { p }, *l = &line;
	char text[MEANT_MAX];
	unsigned long long v;
	long long total;
	int i, s = 0, k, cut, n = 0;
	long len;

	for (i = 0; i < t->nargs && i < (int)e->nargs && i < TRACE_MAX_ARGS; i++) {
		const struct arg_read *r = &t->read[i];

		total = -1;
		cut = 0;
		if ((len = meant_text(text, t, e, i, s, &total)) != MEANT_NOTHING) {
			cut = len >= 0 && total > e->slot_bytes;
		} else if (r->kind == ARG_STRING) {
			cut = (e->cut_mask & (1u << i)) &&
			      !(e->fault_mask & (1u << i));
			total = -1; /* a C string: its length is not known */
		}
		s += meant_has_slot(r);
		if (!cut)
			continue;
		put_str(l, n++ ? ", \"" : ", \"cut\": {\"");
		put_escaped(l, t->arg_names[i], NAME_PRINT_MAX, 1);
		put_str(l, "\": ");
		if (total >= 0)
			put_u64(l, (unsigned long long)total, 1);
		else
			put_str(l, "true");
	}
	for (k = 0; k < t->nshows; k++) {
		len = meant_show_text(text, t, e, k, &v, &cut, &total);
		if (meant_counted(&t->read[TRACE_MAX_ARGS + k]))
			cut = len >= 0 && total > TRACE_COUNTED_MAX(e->slot_bytes);
		else
			total = -1;
		if (!cut || len == MEANT_UNREADABLE)
			continue;
		put_str(l, n++ ? ", \"" : ", \"cut\": {\"");
		put_escaped(l, t->arg_names[TRACE_MAX_ARGS + k], NAME_PRINT_MAX, 1);
		put_str(l, "\": ");
		if (total >= 0)
			put_u64(l, (unsigned long long)total, 1);
		else
			put_str(l, "true");
	}
	if (n)
		*l->p++ = '}';
	return l->p;
}

void call_name(const struct tracer *tr, int pair, const struct trace_event *e,
	       struct buf *b)
{
	const struct traced_pair *p = &tr->pairs[pair];
	const struct traced *t = &tr->probes[e->probe];
	int k;

	b->len = 0;
	for (k = 0; k < p->nname_args; k++) {
		int a = p->name_args[k];
		int file = p->named_with_file && k == p->nname_args - 1;
		size_t before = b->len, mark;

		/* Class::function, or function (file). */
		if (b->len)
			buf_puts(b, file ? " (" : "::");
		mark = b->len;
		if (event_arg_text(t, e, a, b) != 0) {
			if (t->read[a].kind == ARG_STRING)
				buf_lit(b, "?");
		} else if (b->len == mark) {
			/* An empty class: a plain function (PHP's). */
			b->len = before;
			continue;
		}
		if (file && before)
			buf_lit(b, ")");
	}
	if (!b->len)
		buf_puts(b, p->stem);
	buf_add(b, "", 1);
	b->len--;
}
