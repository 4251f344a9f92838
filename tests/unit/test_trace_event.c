/*
 * tests/unit/test_trace_event.c - the one decoder of a firing (event.c,
 * meant.c) and the printer of every argument kind, in text and JSON:
 * integers at their limits, strings with and without lengths, bytes
 * (reversed too), socket addresses of each family, enums, and values
 * cut or unreadable.  Each event is made here as the BPF side lays it
 * out (trace_abi.h): the registers' values in args, the bytes in slots.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "trace/decode/event.h"
#include "unit.h"

static struct traced t;
static struct trace_event e;

/* A probe of n arguments, each read as hows[i], size 8 and unsigned
 * unless set after. */
static void probe(int n, const enum arg_kind *hows)
{
	static char names[TRACE_MAX_ARGS][8];
	int i;

	memset(&t, 0, sizeof(t));
	memset(&e, 0, sizeof(e));
	e.slot_bytes = TRACE_STR_LEN;
	t.label = t.label_text = (char *)"p:n";
	t.provider = (char *)"p";
	t.name = (char *)"n";
	t.nargs = n;
	e.nargs = (unsigned)n;
	for (i = 0; i < n; i++) {
		/* A pointer's register holds an address; a slot its bytes. */
		e.args[i] = 0x7f0000001000ull + 0x100 * (unsigned)i;
		e.nstrings += hows[i] == ARG_STRING || hows[i] == ARG_TEXT ||
			      hows[i] == ARG_BYTES || hows[i] == ARG_SOCKADDR;
		snprintf(names[i], sizeof(names[i]), "a%d", i);
		t.arg_names[i] = names[i];
		t.read[i].kind = hows[i];
		t.read[i].size = 8;
		t.read[i].length_arg = -1;
	}
}

/* The arguments as printed: text, or JSON's members. */
static const char *printed(int json)
{
	static char line[EVENT_LINE_MAX];

	*event_put_args(line, &t, &e, json) = '\0';
	return line;
}

static void integers_at_their_limits(void)
{
	static const enum arg_kind hows[] = { ARG_INTEGER, ARG_INTEGER,
					      ARG_INTEGER, ARG_INTEGER,
					      ARG_INTEGER, ARG_POINTER };

	probe(6, hows);
	t.read[0].size = 1, t.read[0].is_signed = 1;
	t.read[1].size = 1;
	t.read[2].size = 8, t.read[2].is_signed = 1;
	t.read[3].size = 8;
	t.read[4].size = 4, t.read[4].is_signed = 1;
	/* Registers hold more than the argument's bytes: only its own are
	   read. */
	e.args[0] = 0xffffffffffffff80ull; /* -128 */
	e.args[1] = 0x12ffull;		   /* 255 */
	e.args[2] = 0x8000000000000000ull;
	e.args[3] = ~0ull;
	e.args[4] = 0xdeadbeef7fffffffull; /* INT_MAX */
	e.args[5] = 0x7ffc1234;
	CHECK_STR(printed(0), " a0=-128 a1=255 a2=-9223372036854775808 a3=18446744073709551615 a4=2147483647 a5=0x7ffc1234");
	CHECK_STR(printed(1), "\"a0\": -128, \"a1\": 255, \"a2\": -9223372036854775808, \"a3\": 18446744073709551615, \"a4\": 2147483647, \"a5\": \"0x7ffc1234\"");
}

static void strings_with_and_without_lengths(void)
{
	static const enum arg_kind hows[] = { ARG_STRING, ARG_TEXT,
					      ARG_INTEGER, ARG_STRING };

	probe(4, hows);
	t.read[1].length_from = LENGTH_ARG, t.read[1].length_arg = 2;
	t.read[2].size = 4;
	strcpy(TRACE_SLOT(&e, 0), "say \"hi\"\n");
	memcpy(TRACE_SLOT(&e, 1), "GETSECRET", 9); /* only 3 passed */
	e.args[2] = 3;
	e.fault_mask = 1u << 3; /* the last could not be read */
	CHECK_STR(printed(0), " a0=\"say \\\"hi\\\"\\n\" a1=\"GET\" a2=3 a3=0x7f0000001300(unreadable)");
	CHECK_STR(printed(1), "\"a0\": \"say \\\"hi\\\"\\n\", \"a1\": \"GET\", \"a2\": 3, \"a3\": {\"address\": \"0x7f0000001300\", \"unreadable\": true}");
	CHECK(!strstr(printed(1), "SECRET") && !strstr(printed(0), "SECRET"),
	      "bytes past the length: %s", printed(1));
}

static void bytes_forward_and_reversed(void)
{
	static const enum arg_kind hows[] = { ARG_BYTES, ARG_BYTES };

	probe(2, hows);
	t.read[0].length_from = LENGTH_FIXED, t.read[0].length = 4;
	t.read[1].length_from = LENGTH_FIXED, t.read[1].length = 4,
	t.read[1].reversed = 1;
	memcpy(TRACE_SLOT(&e, 0), "\x01\x02\xab\xff\x55", 5);
	memcpy(TRACE_SLOT(&e, 1), "\x01\x02\xab\xff\x55", 5);
	CHECK_STR(printed(0), " a0=0102abff a1=ffab0201");
	CHECK_STR(printed(1), "\"a0\": \"0102abff\", \"a1\": \"ffab0201\"");
}

static void socket_addresses_of_each_family(void)
{
	static const enum arg_kind hows[] = { ARG_SOCKADDR, ARG_SOCKADDR,
					      ARG_SOCKADDR, ARG_SOCKADDR };
	struct sockaddr_in in = { .sin_family = AF_INET,
				  .sin_port = htons(8080) };
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6,
				    .sin6_port = htons(443) };
	struct sockaddr_un un = { .sun_family = AF_UNIX };

	probe(4, hows);
	inet_pton(AF_INET, "127.0.0.1", &in.sin_addr);
	inet_pton(AF_INET6, "::1", &in6.sin6_addr);
	strcpy(un.sun_path, "/run/app.sock");
	memcpy(TRACE_SLOT(&e, 0), &in, sizeof(in));
	memcpy(TRACE_SLOT(&e, 1), &in6, sizeof(in6));
	memcpy(TRACE_SLOT(&e, 2), &un, sizeof(un));
	TRACE_SLOT(&e, 3)[0] = 99; /* a family it does not know */
	CHECK_STR(printed(0), " a0=127.0.0.1:8080 a1=[::1]:443 a2=/run/app.sock a3=(family 99)");
	CHECK_STR(printed(1), "\"a0\": \"127.0.0.1:8080\", \"a1\": \"[::1]:443\", \"a2\": \"/run/app.sock\", \"a3\": \"(family 99)\"");
}

static void enums_by_name(void)
{
	static const enum arg_kind hows[] = { ARG_INTEGER, ARG_INTEGER };
	static const struct enum_value values[] = { { "NONE", 0 },
						    { "NEG", -2 } };

	probe(2, hows);
	t.read[0].size = 4, t.read[0].is_signed = 1;
	t.read[0].values = values, t.read[0].nvalues = 2;
	t.read[1] = t.read[0];
	e.args[0] = 0xfffffffe; /* -2 in 4 bytes */
	e.args[1] = 7;		/* no name */
	CHECK_STR(printed(0), " a0=NEG a1=7");
	CHECK_STR(printed(1), "\"a0\": \"NEG\", \"a1\": 7");
}

/* Cut values: in text "..." after the quotes (with the bytes passed
 * where the program passed a length); in JSON the value holds only the
 * program's bytes and the cut is said apart, so that a program's own
 * "abc..." is not taken for a cut one. */
static void cuts_said_apart_from_values(void)
{
	static const enum arg_kind hows[] = { ARG_STRING, ARG_BYTES,
					      ARG_INTEGER, ARG_STRING };
	char line[EVENT_LINE_MAX];

	probe(4, hows);
	t.read[1].length_from = LENGTH_ARG, t.read[1].length_arg = 2;
	t.read[2].size = 4;
	memset(TRACE_SLOT(&e, 0), 'x', TRACE_STR_LEN - 1);
	e.cut_mask = 1u << 0;
	memset(TRACE_SLOT(&e, 1), 0xab, TRACE_STR_LEN);
	e.args[2] = 600;
	strcpy(TRACE_SLOT(&e, 2), "abc...");
	CHECK(strstr(printed(0), "\"... a1=") && strstr(printed(0), "abab... (600 bytes) a2=600"),
	      "text: %s", printed(0));
	CHECK(strstr(printed(1), "xxx\", \"a1\": \"abab") &&
		      strstr(printed(1), "abab\", \"a2\": 600, \"a3\": \"abc...\""),
	      "JSON: %s", printed(1));
	*event_put_cuts(line, &t, &e) = '\0';
	CHECK_STR(line, ", \"cut\": {\"a0\": true, \"a1\": 600}");
	e.cut_mask = 0;
	e.args[2] = 128;
	*event_put_cuts(line, &t, &e) = '\0';
	CHECK_STR(line, "");
}

/* Key=value text (@fields, as probegen-tracing writes it): in JSON an
 * object of its fields, each value a string with its escapes decoded;
 * in text the string as passed; a field named by --show/--by/--expect
 * found in it (absent: said), cut when the text was cut inside it. */
static void fields_as_objects(void)
{
	static const enum arg_kind hows[] = { ARG_STRING };
	char out[MEANT_MAX];
	unsigned long long v;
	long long total;
	int cut, to_end;

	probe(1, hows);
	t.read[0].key_values = 1;
	strcpy(TRACE_SLOT(&e, 0),
	       "id=7 peer=\"12D3 \\\"x\\\"\" ok=true empty=\"\" path=\"/a=b\"");
	CHECK_STR(printed(1), "\"a0\": {\"id\": \"7\", \"peer\": \"12D3 \\\"x\\\"\", \"ok\": \"true\", \"empty\": \"\", \"path\": \"/a=b\"}");
	CHECK_STR(printed(0), " a0=\"id=7 peer=\\\"12D3 \\\\\\\"x\\\\\\\"\\\" ok=true empty=\\\"\\\" path=\\\"/a=b\\\"\"");
	CHECK_INT(meant_field(out, "a=1 b=\"x y\" c=3", 15, "b", &to_end), 3);
	CHECK(memcmp(out, "x y", 3) == 0 && !to_end, "b: %.3s", out);
	CHECK_INT(meant_field(out, "a=1 b=\"x y\" c=3", 15, "c", &to_end), 1);
	CHECK(out[0] == '3' && to_end, "c: %c", out[0]);
	CHECK_INT(meant_field(out, "a=1 ab=2", 8, "b", &to_end), MEANT_ABSENT);
	CHECK_INT(meant_field(out, "xyz b=2", 7, "b", &to_end), 1); /* after a word without = */
	CHECK_INT(meant_field(out, "a=1 b=\"long va", 14, "b", &to_end), 7);
	CHECK(to_end, "a value the text's end cuts");
	/* --show tracing:event:fields.peer: a field, no slot of its own. */
	t.nshows = 2;
	t.read[TRACE_MAX_ARGS] = (struct arg_read){ .kind = ARG_FIELD, .arg = 0,
						    .field = "peer" };
	t.read[TRACE_MAX_ARGS + 1] = (struct arg_read){ .kind = ARG_FIELD,
							.arg = 0,
							.field = "port" };
	t.arg_names[TRACE_MAX_ARGS] = (char *)"a0.peer";
	t.arg_names[TRACE_MAX_ARGS + 1] = (char *)"a0.port";
	CHECK_INT(meant_show_text(out, &t, &e, 0, &v, &cut, &total), 8);
	CHECK(memcmp(out, "12D3 \"x\"", 8) == 0 && !cut, "peer: %.8s", out);
	CHECK_INT(meant_show_text(out, &t, &e, 1, &v, &cut, &total), MEANT_ABSENT);
	CHECK(strstr(printed(0), " a0.peer=\"12D3 \\\"x\\\"\" a0.port=(absent)") != NULL,
	      "text: %s", printed(0));
	CHECK(strstr(printed(1), ", \"a0.peer\": \"12D3 \\\"x\\\"\", \"a0.port\": null") != NULL,
	      "JSON: %s", printed(1));
	/* The text cut inside peer's value: peer is cut too. */
	strcpy(TRACE_SLOT(&e, 0), "id=7 peer=\"12D3 abc");
	e.cut_mask = 1u << 0;
	CHECK_INT(meant_show_text(out, &t, &e, 0, &v, &cut, &total), 8);
	CHECK(cut, "peer cut with its text");
}

/* A symbolizer standing for the stacks' (stacks_symbol): one function
 * at 0x401000 to 0x401100, "on_ready". */
static long one_function(void *ctx, unsigned pid, unsigned long long addr,
			 char *out)
{
	(void)ctx;
	(void)pid;
	if (addr < 0x401000 || addr >= 0x401100)
		return MEANT_NOTHING;
	return addr == 0x401000 ? sprintf(out, "on_ready")
				: sprintf(out, "on_ready+0x%llx", addr - 0x401000);
}

/* A code pointer (@function, or a function pointer's type) prints as
 * its function; an untagged pointer as its number, with the function
 * it points into beside it in text and apart in JSON ("functions"), so
 * that the number stays the value; a pointer into no function, or
 * NULL, as its number alone. */
static void pointers_and_their_functions(void)
{
	static const enum arg_kind hows[] = { ARG_CODE, ARG_POINTER, ARG_POINTER,
					      ARG_POINTER };
	char line[EVENT_LINE_MAX];
	struct buf b = { 0 };

	probe(4, hows);
	e.args[0] = 0x401000;
	e.args[1] = 0x401010;
	e.args[2] = 0x7f0000002000ull; /* data */
	e.args[3] = 0;
	meant_set_symbolizer(one_function, NULL);
	CHECK_STR(printed(0), " a0=on_ready a1=0x401010 (on_ready+0x10) a2=0x7f0000002000 a3=0x0");
	CHECK_STR(printed(1), "\"a0\": \"on_ready\", \"a1\": \"0x401010\", \"a2\": \"0x7f0000002000\", \"a3\": \"0x0\"");
	*event_put_functions(line, &t, &e) = '\0';
	CHECK_STR(line, ", \"functions\": {\"a1\": \"on_ready+0x10\"}");
	/* --by's label: as streaming shows it (it was in decimal). */
	CHECK_INT(event_arg_text(&t, &e, 1, &b), 0);
	CHECK_STR(b.data, "0x401010 (on_ready+0x10)");
	b.len = 0;
	CHECK_INT(event_arg_text(&t, &e, 2, &b), 0);
	CHECK_STR(b.data, "0x7f0000002000");
	buf_free(&b);
	meant_set_symbolizer(NULL, NULL);
	CHECK_STR(printed(0), " a0=0x401000 a1=0x401010 a2=0x7f0000002000 a3=0x0");
	*event_put_functions(line, &t, &e) = '\0';
	CHECK_STR(line, "");
}

/* --expect judges what the event carries, whole: a string's end past
 * the first 128 bytes of a 512-byte slot (it compared the first 128). */
static void verdicts_read_the_whole_slot(void)
{
	static const enum arg_kind hows[] = { ARG_STRING };
	struct filter_operand ops[TRACE_MAX_SLOTS];

	probe(1, hows);
	e.slot_bytes = 512;
	memset(TRACE_SLOT(&e, 0), 'a', 300);
	memcpy(TRACE_SLOT(&e, 0) + 290, "the-end-xy", 10);
	TRACE_SLOT(&e, 0)[300] = '\0';
	event_operands(&t, &e, ops);
	CHECK_INT((int)ops[0].len, 300);
	CHECK(memcmp(ops[0].text + 290, "the-end-xy", 10) == 0, "the operand's end");
}

UNIT_CASES(UNIT(integers_at_their_limits),
	   UNIT(strings_with_and_without_lengths),
	   UNIT(bytes_forward_and_reversed),
	   UNIT(socket_addresses_of_each_family), UNIT(enums_by_name),
	   UNIT(cuts_said_apart_from_values), UNIT(fields_as_objects),
	   UNIT(pointers_and_their_functions),
	   UNIT(verdicts_read_the_whole_slot))
