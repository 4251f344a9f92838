/*
 * fuzz/fuzz_event.c - libFuzzer entry point over the one decoder of a
 * firing (src/trace/decode/event.c): the input says how each of up to 12
 * arguments and 4 shows is read (a number, a string, a string or bytes
 * with a length from another argument or fixed, reversed, a socket
 * address, an enum's names) and gives the event the kernel would send:
 * its values, masks and slots, any bytes.  Each event is written as
 * text and JSON, and every argument as label text; a line must fit
 * EVENT_LINE_MAX and hold no raw control byte.  A crash, sanitizer
 * report or leak is a finding too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/decode/event.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

FUZZ_INITIALIZE_QUIETLY()

static const enum arg_kind hows[] = { ARG_INTEGER, ARG_POINTER, ARG_STRING,
				      ARG_TEXT,    ARG_BYTES,	  ARG_SOCKADDR,
				      ARG_FLOAT };

static unsigned byte(const uint8_t **p, const uint8_t *end)
{
	return *p < end ? *(*p)++ : 0;
}

/* One read, from 4 bytes of the input. */
static void read_of(struct arg_read *r, const uint8_t **p,
		    const uint8_t *end, int nargs)
{
	unsigned a = byte(p, end), b = byte(p, end), c = byte(p, end),
		 d = byte(p, end);

	r->kind = hows[a % (sizeof(hows) / sizeof(hows[0]))];
	r->size = (int)(b % 9);
	r->is_signed = b >> 7;
	r->length_arg = (c & 0x80) || !nargs ? -1 : (int)(c % (unsigned)nargs);
	r->length_from = r->length_arg >= 0 ? LENGTH_ARG : LENGTH_FIXED;
	if (!nargs && (c & 0x40)) /* a show's: its length in its slot */
		r->length_from = LENGTH_SIBLING;
	r->length = d * 3;
	r->reversed = a >> 7;
	r->key_values = (a >> 6) & 1; /* a string's: @fields text */
}

static void check(const char *line, const char *end)
{
	const char *c;

	if (end - line >= EVENT_LINE_MAX)
		abort();
	for (c = line; c < end; c++)
		if ((unsigned char)*c < 0x20 && *c != '\n')
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct enum_value names[] = { { "ZERO", 0 },
						   { "TWO", 2 },
						   { "MINUS", -1 } };
	const uint8_t *p = data, *end = data + size;
	struct traced t = { 0 };
	struct trace_event *e = xcalloc(1, sizeof(*e));
	char *line = xmalloc(EVENT_LINE_MAX);
	struct buf b = { 0 };
	int i, json;

	t.nargs = (int)(byte(&p, end) % (TRACE_MAX_ARGS + 1));
	t.nshows = (int)(byte(&p, end) % (TRACE_MAX_SHOWS + 1));
	for (i = 0; i < t.nargs; i++) {
		t.arg_names[i] = "a";
		read_of(&t.read[i], &p, end, t.nargs);
		if (byte(&p, end) & 1) {
			t.read[i].values = names;
			t.read[i].nvalues = 3;
		}
	}
	for (i = 0; i < t.nshows; i++) {
		t.arg_names[TRACE_MAX_ARGS + i] = "c->m";
		read_of(&t.read[TRACE_MAX_ARGS + i], &p, end, 0);
		/* Some shows are fields of an argument's key=value text. */
		if (t.nargs && t.read[TRACE_MAX_ARGS + i].reversed) {
			t.read[TRACE_MAX_ARGS + i].kind = ARG_FIELD;
			t.read[TRACE_MAX_ARGS + i].arg = i % t.nargs;
			t.read[TRACE_MAX_ARGS + i].field = "a";
		}
	}
	/* The event: its header's fields, then whatever is left. */
	e->nargs = byte(&p, end) % (TRACE_MAX_ARGS + 2);
	e->nstrings = byte(&p, end) % (TRACE_MAX_SLOTS + 2);
	e->cut_mask = byte(&p, end) * 0x01010101u;
	e->fault_mask = byte(&p, end) * 0x00010001u;
	e->slot_bytes = TRACE_STR_LEN << (byte(&p, end) % 6); /* to the most */
	memcpy(e->args, p,
	       (size_t)(end - p) < sizeof(e->args) ? (size_t)(end - p)
						   : sizeof(e->args));
	p += (size_t)(end - p) < sizeof(e->args) ? (size_t)(end - p)
						 : sizeof(e->args);
	memcpy(e->slots, p,
	       (size_t)(end - p) < sizeof(e->slots) ? (size_t)(end - p)
						    : sizeof(e->slots));
	for (json = 0; json < 2; json++) {
		char *stop = event_put_args(line, &t, e, json);

		check(line, stop);
	}
	for (i = 0; i < t.nargs; i++)
		event_arg_text(&t, e, i, &b);
	for (i = 0; i < t.nshows; i++)
		event_arg_text(&t, e, TRACE_MAX_ARGS + i, &b);
	buf_free(&b);
	free(line);
	free(e);
	return 0;
}
