/*
 * src/trace/decode/verdict.c - a compiled --where filter's verdict on an
 * event, in probegen: the operands read from the event as the BPF side
 * reads them at the firing (the slots hold the same bytes), then the very
 * steps of bpf/filter_eval.h.  --expect judges each firing this way; the
 * unit tests and fuzz_filter compare it with the parsed expression.
 */
#include <linux/types.h>
#include <string.h>

#include "trace/decode/event.h"
#include "trace/kernel/bpf/filter_eval.h"

/* One comparison's truth, as cond_truth (bpf/filter.bpf.h) finds it. */
static int cond_truth(const struct trace_cond *c,
		      const struct filter_operand *o)
{
	struct glob_state g = { 0, 0, GLOB_NO_STAR, 0, 0 };
	char value[TRACE_STR_MAX], key[TRACE_FIELD_LEN];
	const char *text = o->text;
	__u32 n, m, k;
	long len;
	int to_end;

	if (o->unreadable)
		return 0;
	if (!filter_compares_string(c))
		return filter_integer_truth(c, o->value);
	/* A piece of a socket address: its bytes from offset, as many as
	   the comparison reads. */
	if (c->offset > o->len)
		return 0;
	n = o->len - c->offset;
	if (c->length_from == LENGTH_FIXED && n > c->length)
		n = c->length;
	n = n > TRACE_STR_MAX ? TRACE_STR_MAX : n;
	text = o->text + c->offset;
	if (c->field[0]) {
		/* fields.KEY: its value, searched for in those bytes as the
		   kernel does; none: false. */
		memcpy(key, c->field, sizeof(key));
		key[sizeof(key) - 1] = '\0';
		if ((len = meant_field(value, text, n, key, &to_end)) < 0)
			return 0;
		text = value;
		n = (__u32)len;
	}
	m = filter_pattern_len(c);
	if (c->op != TRACE_MATCH)
		return filter_string_truth(c, text, n, m);
	for (k = 0; k < FILTER_GLOB_STEPS; k++)
		if (filter_glob_step(&g, text, n, c->pattern, m))
			break;
	return g.result;
}

int filter_evaluate(const struct trace_filter *f,
		    const struct filter_operand operands[TRACE_MAX_SLOTS])
{
	__u32 truths = 0, k;

	for (k = 0; k < TRACE_MAX_CONDS && k < f->nconds; k++)
		if (f->conds[k].arg < TRACE_MAX_SLOTS &&
		    cond_truth(&f->conds[k], &operands[f->conds[k].arg]))
			truths |= 1u << k;
	return filter_combine(f, truths);
}

/* The event's slot size as the checks of its record leave it: from
 * TRACE_STR_LEN to TRACE_STR_MAX. */
static unsigned slot_size(const struct trace_event *e)
{
	return e->slot_bytes < TRACE_STR_LEN	? TRACE_STR_LEN
	       : e->slot_bytes > TRACE_STR_MAX ? TRACE_STR_MAX
					       : e->slot_bytes;
}

/* Argument a's operand: its value, and a string's or a text's bytes
 * from its slot (a text's as many as its length says, which the BPF
 * side reads from the argument; a negative one reads nothing). */
static void arg_operand(const struct traced *t, const struct trace_event *e,
			int a, struct filter_operand *o)
{
	const struct arg_read *r = &t->read[a];
	int s = meant_slot_of(t, a);
	unsigned long long len;

	o->value = e->args[a];
	if (s < 0)
		return;
	if (s >= (int)e->nstrings || (e->fault_mask & (1u << a))) {
		o->unreadable = 1;
		return;
	}
	o->text = TRACE_SLOT(e, s);
	if (r->kind == ARG_SOCKADDR) {
		/* The bytes its family says, as slots.bpf.h read them. */
		unsigned short family;

		memcpy(&family, o->text, sizeof(family));
		o->len = trace_sockaddr_bytes(family);
		return;
	}
	if (!arg_kind_of(r)->counted) {
		o->len = (unsigned)strnlen(o->text, slot_size(e) - 1);
		return;
	}
	len = r->length_from == LENGTH_ARG && r->length_arg < (int)e->nargs
		      ? e->args[r->length_arg]
		      : r->length;
	if (r->length_from == LENGTH_ARG && (long long)len < 0)
		o->unreadable = 1;
	o->len = len > slot_size(e) ? slot_size(e) : (unsigned)len;
}

void event_operands(const struct traced *t, const struct trace_event *e,
		    struct filter_operand operands[TRACE_MAX_SLOTS])
{
	char text[MEANT_MAX];
	long long total;
	int a, k, cut;

	memset(operands, 0, TRACE_MAX_SLOTS * sizeof(*operands));
	for (a = 0; a < t->nargs && a < TRACE_MAX_ARGS; a++) {
		if (a >= (int)e->nargs)
			operands[a].unreadable = 1;
		else
			arg_operand(t, e, a, &operands[a]);
	}
	for (k = 0; k < t->nshows && k < TRACE_MAX_SHOWS; k++) {
		struct filter_operand *o = &operands[TRACE_MAX_ARGS + k];
		long n = meant_show_text(text, t, e, k, &o->value, &cut, &total);

		if (n == MEANT_UNREADABLE || n == MEANT_NEGATIVE)
			o->unreadable = 1;
		else if (n >= 0 && t->read[TRACE_MAX_ARGS + k].kind == ARG_STRING)
			/* The slot's own bytes: text is a copy. */
			o->text = TRACE_SLOT(e, meant_show_slot(t, e, k)),
			o->len = (unsigned)n;
	}
}
