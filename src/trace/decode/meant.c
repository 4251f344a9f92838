/*
 * src/trace/decode/meant.c - what an argument of a firing means, as text, for
 * event.c's decoder: a string or bytes with their length (the length
 * argument's value, or a fixed one), a socket address by its family,
 * an enum's name, and the value of a --show member expression, each
 * from the event's slots (trace_abi.h).  Plain text, not escaped:
 * event.c quotes and escapes it for each output.
 */
#include <arpa/inet.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <linux/types.h>

#include "trace/decode/event.h"
#include "trace/kernel/bpf/fields.h"

/* Does argument i come with a slot of bytes (event.h's strings)? */
int meant_has_slot(const struct arg_read *r)
{
	return arg_kind_of(r)->slot;
}

/* The slot of argument a, or -1 when it has none. */
int meant_slot_of(const struct traced *t, int a)
{
	int i, s = 0;

	if (!meant_has_slot(&t->read[a]))
		return -1;
	for (i = 0; i < a; i++)
		s += meant_has_slot(&t->read[i]);
	return s;
}

int meant_show_slot(const struct traced *t, const struct trace_event *e,
		    int k)
{
	int i, s = 0;

	for (i = 0; i < t->nargs && i < (int)e->nargs; i++)
		s += meant_has_slot(&t->read[i]);
	for (i = 0; i < k; i++) /* a field has no slot of its own */
		s += t->read[TRACE_MAX_ARGS + i].kind != ARG_FIELD;
	return s;
}

long meant_field(char *out, const char *text, size_t n, const char *key,
		 int *to_end)
{
	struct field_find f = { .key_ok = 1 };
	size_t m = strlen(key);

	memcpy(out, text, n);
	while (!field_find_step(&f, out, (__u32)n, key, (__u32)m, ~0u))
		;
	*to_end = f.at >= n && f.found; /* the text ended in the value */
	return f.found ? (long)f.out : MEANT_ABSENT;
}

/* Show k, a field of an argument's key=value text: its value from the
 * argument's slot into out. */
static long field_text(char *out, const struct traced *t,
		       const struct trace_event *e, int k, int *cut)
{
	const struct arg_read *r = &t->read[TRACE_MAX_ARGS + k];
	int s = r->arg >= 0 && r->arg < TRACE_MAX_ARGS ? meant_slot_of(t, r->arg)
						       : -1;
	const char *slot;
	size_t n;
	long len;
	int to_end;

	if (s < 0 || s >= (int)e->nstrings || r->arg >= (int)e->nargs ||
	    (e->fault_mask & (1u << r->arg)))
		return MEANT_UNREADABLE;
	slot = TRACE_SLOT(e, s);
	n = strnlen(slot, e->slot_bytes - 1);
	len = meant_field(out, slot, n, r->field, &to_end);
	/* The text was cut inside this value: it is cut too. */
	*cut = len >= 0 && to_end && (e->cut_mask & (1u << r->arg));
	return len;
}

/* The name r's @enum (or DWARF) gives value v, copied into out: its
 * length, or MEANT_NOTHING for a value without a name. */
static long enum_name(char *out, const struct arg_read *r,
		      unsigned long long v)
{
	long long value = r->is_signed ? meant_signed(r, v)
				       : (long long)meant_unsigned(r, v);
	int k;

	for (k = 0; k < r->nvalues; k++)
		if (r->values[k].value == value)
			return (long)(stpcpy(out, r->values[k].name) - out);
	return MEANT_NOTHING;
}

/* The bytes argument a points to, as the program passed their length:
 * 0 with *total, or -1 when that length is negative (*total: it). */
static int bytes_total(const struct traced *t, const struct trace_event *e,
		       int a, long long *total)
{
	const struct arg_read *r = &t->read[a], *l;
	unsigned long long v;

	if (r->length_from != LENGTH_ARG) {
		*total = r->length;
		return 0;
	}
	if (r->length_arg >= (int)e->nargs)
		return *total = 0, 0;
	l = &t->read[r->length_arg];
	if (l->is_signed && meant_signed(l, e->args[r->length_arg]) < 0) {
		*total = meant_signed(l, e->args[r->length_arg]);
		return -1;
	}
	v = meant_unsigned(l, e->args[r->length_arg]);
	*total = v > LLONG_MAX ? LLONG_MAX : (long long)v;
	return 0;
}

/* A socket address (slot bytes, as read by its family) as text into
 * out: "127.0.0.1:8080", "[::1]:443", a Unix path ("@name" when
 * abstract), or "(family N)". */
static size_t sockaddr_text(char *out, const unsigned char *slot)
{
	unsigned short family, port;
	char addr[INET6_ADDRSTRLEN];
	size_t n;

	memcpy(&family, slot, sizeof(family));
	memcpy(&port, slot + 2, sizeof(port));
	port = ntohs(port);
	if (family == AF_INET &&
	    inet_ntop(AF_INET, slot + 4, addr, sizeof(addr)))
		return (size_t)sprintf(out, "%s:%u", addr, port);
	if (family == AF_INET6 &&
	    inet_ntop(AF_INET6, slot + 8, addr, sizeof(addr)))
		return (size_t)sprintf(out, "[%s]:%u", addr, port);
	if (family == AF_UNIX) {
		/* sun_path: NUL-terminated, or abstract (a NUL first). */
		const char *path = (const char *)slot + 2;
		int abstract = path[0] == '\0';

		n = strnlen(path + abstract, 108 - (size_t)abstract);
		out[0] = '@';
		memcpy(out + abstract, path + abstract, n);
		return n + (size_t)abstract;
	}
	return (size_t)sprintf(out, "(family %u)", family);
}

/* The first shown bytes of slot, as r reads them, into out: as they
 * are (text), or in hex (last byte first when reversed); its length. */
static long bytes_text(char *out, const struct arg_read *r,
		       const unsigned char *slot, long long shown)
{
	long long k;

	if (r->kind == ARG_TEXT) {
		memcpy(out, slot, (size_t)shown);
		return (long)shown;
	}
	for (k = 0; k < shown; k++) {
		unsigned char byte = slot[r->reversed ? shown - 1 - k : k];

		out[2 * k] = "0123456789abcdef"[byte >> 4];
		out[2 * k + 1] = "0123456789abcdef"[byte & 15];
	}
	return (long)(2 * shown);
}

static meant_symbol_fn *symbolize;
static void *symbolize_ctx;

void meant_set_symbolizer(meant_symbol_fn *fn, void *ctx)
{
	symbolize = fn;
	symbolize_ctx = ctx;
}

long meant_pointer_function(const struct trace_event *e,
			   unsigned long long v, char *out)
{
	return symbolize && v ? symbolize(symbolize_ctx, e->pid, v, out)
			      : MEANT_NOTHING;
}

/* What argument a means, as plain text into out (MEANT_MAX bytes, not
 * escaped): the bytes of a string with its length, a pointer's bytes
 * in hex, a socket address, an enum's name, a function's name.  Returns its length and
 * sets *total to the bytes the program passed (more than shown: cut),
 * -1 when none; or a MEANT_ value below 0. */
long meant_text(char *out, const struct traced *t, const struct trace_event *e,
		int a, int s, long long *total)
{
	const struct arg_read *r = &t->read[a];
	const unsigned char *slot;

	*total = -1;
	if (r->nvalues)
		return enum_name(out, r, e->args[a]);
	if (r->kind == ARG_CODE)
		return symbolize && e->args[a]
			       ? symbolize(symbolize_ctx, e->pid, e->args[a], out)
			       : MEANT_NOTHING;
	if (!arg_kind_of(r)->counted && r->kind != ARG_SOCKADDR)
		return MEANT_NOTHING;
	if (r->kind == ARG_SOCKADDR && e->args[a] == 0)
		return (long)(stpcpy(out, "(null)") - out);
	if (r->kind != ARG_SOCKADDR && bytes_total(t, e, a, total) != 0)
		return MEANT_NEGATIVE;
	if (*total == 0)
		return 0; /* empty: nothing was read, NULL or not */
	if (s < 0 || s >= (int)e->nstrings || s >= TRACE_MAX_ARGS ||
	    (e->fault_mask & (1u << a)))
		return MEANT_UNREADABLE;
	slot = (const unsigned char *)TRACE_SLOT(e, s);
	if (r->kind == ARG_SOCKADDR)
		return (long)sockaddr_text(out, slot);
	return bytes_text(out, r, slot,
			  *total < e->slot_bytes ? *total : e->slot_bytes);
}

unsigned long long meant_value(const struct traced *t,
			       const struct trace_event *e, int a)
{
	char text[MEANT_MAX];
	unsigned long long v = 0;
	long long total;
	int cut;

	if (a < TRACE_MAX_ARGS)
		return a < (int)e->nargs ? e->args[a] : 0;
	meant_show_text(text, t, e, a - TRACE_MAX_ARGS, &v, &cut, &total);
	return v;
}

/* Show k of event e (a firing of t): its slot's value as text into out
 * (MEANT_MAX bytes, not escaped) when it is a string, bytes or an
 * address, or a value into *v (returns MEANT_NOTHING; an enum's name
 * is text); *cut when a string was cut; *total as meant_text's for a
 * pointer with its length (MEANT_NEGATIVE when below 0);
 * MEANT_UNREADABLE when it could not be read. */
long meant_show_text(char *out, const struct traced *t,
		     const struct trace_event *e, int k, unsigned long long *v,
		     int *cut, long long *total)
{
	const struct arg_read *r = &t->read[TRACE_MAX_ARGS + k];
	int s = meant_show_slot(t, e, k), n;

	*total = -1;
	*cut = (e->cut_mask & TRACE_SHOW_BIT(k)) != 0;
	if (r->kind == ARG_FIELD)
		return field_text(out, t, e, k, cut);
	if (s >= (int)e->nstrings || s >= TRACE_MAX_SLOTS ||
	    (e->fault_mask & TRACE_SHOW_BIT(k)))
		return MEANT_UNREADABLE;
	if (r->kind == ARG_SOCKADDR)
		return (long)sockaddr_text(out, (const unsigned char *)
							TRACE_SLOT(e, s));
	if (meant_counted(r)) {
		/* Its length, then its bytes (trace_abi.h's COUNTED). */
		memcpy(total, TRACE_SLOT(e, s), sizeof(*total));
		if (*total < 0)
			return MEANT_NEGATIVE;
		return bytes_text(out, r,
				  (const unsigned char *)TRACE_SLOT(e, s) + 8,
				  *total < TRACE_COUNTED_MAX(e->slot_bytes)
					  ? *total
					  : TRACE_COUNTED_MAX(e->slot_bytes));
	}
	if (r->kind == ARG_STRING || r->kind == ARG_TEXT) {
		n = r->kind == ARG_TEXT && r->length < e->slot_bytes
			    ? (int)r->length
			    : (int)e->slot_bytes - (r->kind == ARG_STRING);
		n = (int)strnlen(TRACE_SLOT(e, s), (size_t)n);
		memcpy(out, TRACE_SLOT(e, s), (size_t)n);
		return n;
	}
	*v = 0;
	memcpy(v, TRACE_SLOT(e, s),
	       r->size >= 1 && r->size <= 8 ? (size_t)r->size : 8);
	return enum_name(out, r, *v);
}
