/*
 * tests/unit/test_trace_kinds.c - each kind of argument from its read
 * to its print: the kinds' table (arg_read.c) whole and agreeing with
 * the BPF side, then a firing read by the BPF side's own code
 * (bpf/args.bpf.h, bpf/slots.bpf.h, compiled here by bpf_user.h) from
 * this process's memory, and the event it fills printed as --trace
 * prints it.  What a value becomes between the program and the page is
 * one source here, not two halves tested apart.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>

#include "trace/decode/event.h"
#include "unit.h"
#include "bpf_user.h"

static struct traced t;
static struct trace_event e;
static struct trace_probe_info info;
static struct __bpf_usdt_spec spec;
static unsigned long registers[32];

/* A probe of n arguments of the kinds given, each passed as the
 * constant value given (a spec's CONST: what the site's operand was). */
static void probe(int n, const enum arg_kind *kinds,
		  const unsigned long long *values)
{
	static char names[TRACE_MAX_ARGS][8];
	int i;

	memset(&t, 0, sizeof(t));
	memset(&e, 0, sizeof(e));
	memset(&info, 0, sizeof(info));
	memset(&spec, 0, sizeof(spec));
	t.label = t.label_text = (char *)"p:n";
	t.provider = (char *)"p";
	t.name = (char *)"n";
	t.nargs = n;
	e.nargs = (unsigned)n;
	e.slot_bytes = TRACE_STR_LEN;
	for (i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "a%d", i);
		t.arg_names[i] = names[i];
		t.read[i] = (struct arg_read){ .kind = kinds[i], .size = 8,
					       .length_arg = -1 };
		info.kind[i] = (unsigned char)kinds[i];
		info.length_arg[i] = -1;
		spec.args[i].arg_type = BPF_USDT_ARG_CONST;
		spec.args[i].val_off = values[i];
	}
	spec.arg_cnt = (short)n;
}

/* The firing: the BPF side reads it into e. */
static void fire(void)
{
	struct firing_regs regs = { (const struct pt_regs *)registers };

	read_args(&e, &spec, &regs, &info, e.nargs, false);
}

/* The arguments as printed: text, or JSON's members. */
static const char *printed(int json)
{
	static char line[EVENT_LINE_MAX];

	*event_put_args(line, &t, &e, json) = '\0';
	return line;
}

/* Every kind has its row, and the row holds together: a kind the
 * tracers cannot read compares with nothing and says why, a counted
 * kind has a slot and a meaning with its length, a bpftrace reader has
 * its format. */
static void kind_rows_are_whole(void)
{
	int k;

	for (k = 0; k < ARG_KINDS; k++) {
		const struct arg_kind_row *row = &arg_kinds[k];

		CHECK(row->name && row->compares, "kind %d has no row", k);
		CHECK(!row->unreadable || row->compare == COMPARE_NONE,
		      "%s: unreadable but compared", row->name);
		CHECK(!row->counted || row->slot, "%s: counted, no slot",
		      row->name);
		CHECK(!row->counted == !(row->meaning && strstr(row->meaning, "%s")),
		      "%s: a counted kind's meaning says its length", row->name);
		CHECK(!row->bpftrace_read || row->bpftrace_format,
		      "%s: a bpftrace reader without its format", row->name);
	}
	CHECK_STR(arg_read_unreadable(&(struct arg_read){ .kind = ARG_FLOAT }),
		  "floating");
	CHECK_STR(arg_read_unreadable(&(struct arg_read){ .kind = ARG_POINTER }),
		  NULL);
}

/* The BPF side has no table: its one test (ARG_KIND_HAS_SLOT, which
 * read_args asks) and the rows' .slot say the same of every kind. */
static void kind_rows_agree_with_the_bpf_side(void)
{
	int k;

	for (k = 0; k < ARG_KINDS; k++)
		CHECK_INT(arg_kinds[k].slot, ARG_KIND_HAS_SLOT(k));
}

/* Integers as the site's specs say: a constant, a register's low bytes
 * sign-extended or not, a word at a register plus an offset. */
static void integers_read_by_their_specs(void)
{
	static const enum arg_kind kinds[] = { ARG_INTEGER, ARG_INTEGER,
					       ARG_INTEGER, ARG_POINTER };
	static const unsigned long long values[] = { 42, 0, 0, 0x7ffc1234 };
	static long word[2] = { 0, -77 };

	probe(4, kinds, values);
	/* An int of -5 in a register whose upper half holds garbage. */
	registers[3] = 0xdeadbeef00000000ul | 0xfffffffbul;
	spec.args[1] = (struct __bpf_usdt_arg_spec){
		.arg_type = BPF_USDT_ARG_REG, .reg_off = 3 * 8,
		.arg_signed = true, .arg_bitshift = 32 };
	t.read[1].size = 4, t.read[1].is_signed = 1;
	/* -77 at 8(%reg). */
	registers[5] = (unsigned long)word;
	spec.args[2] = (struct __bpf_usdt_arg_spec){
		.arg_type = BPF_USDT_ARG_REG_DEREF, .reg_off = 5 * 8,
		.val_off = 8, .arg_signed = true };
	t.read[2].is_signed = 1;
	fire();
	CHECK_INT(e.nstrings, 0);
	CHECK_STR(printed(0), " a0=42 a1=-5 a2=-77 a3=0x7ffc1234");
	CHECK_STR(printed(1), "\"a0\": 42, \"a1\": -5, \"a2\": -77, \"a3\": \"0x7ffc1234\"");
}

/* A C string: copied to its NUL into its slot, quoted; a longer one
 * than a slot is cut, said after the quotes. */
static void strings_read_to_print(void)
{
	static const enum arg_kind kinds[] = { ARG_STRING, ARG_STRING };
	char lengthy[300];
	unsigned long long values[2] = { (unsigned long long)"GET /", 0 };
	char want[200];

	memset(lengthy, 'x', sizeof(lengthy) - 1);
	lengthy[sizeof(lengthy) - 1] = 0;
	values[1] = (unsigned long long)lengthy;
	probe(2, kinds, values);
	fire();
	CHECK_INT(e.nstrings, 2);
	CHECK_INT(e.cut_mask, 2);
	snprintf(want, sizeof(want), " a0=\"GET /\" a1=\"%.*s\"...",
		 TRACE_STR_LEN - 1, lengthy);
	CHECK_STR(printed(0), want);
}

/* A char pointer with its length (@length): its length's bytes, NULs
 * and all, quoted; the length is another argument. */
static void text_read_to_print(void)
{
	static const enum arg_kind kinds[] = { ARG_TEXT, ARG_INTEGER };
	unsigned long long values[2] = { (unsigned long long)"key=val;rest",
					 7 };

	probe(2, kinds, values);
	info.length_arg[0] = 1;
	t.read[0].length_from = LENGTH_ARG, t.read[0].length_arg = 1;
	fire();
	CHECK_STR(printed(0), " a0=\"key=val\" a1=7");
	CHECK_STR(printed(1), "\"a0\": \"key=val\", \"a1\": 7");
}

/* Bytes with a fixed length, in hex: first byte first, or reversed (a
 * hash as Bitcoin shows it). */
static void bytes_read_to_print(void)
{
	static const enum arg_kind kinds[] = { ARG_BYTES, ARG_BYTES };
	static const unsigned char hash[4] = { 0x01, 0x02, 0xab, 0xff };
	unsigned long long values[2] = { (unsigned long long)hash,
					 (unsigned long long)hash };
	int i;

	probe(2, kinds, values);
	for (i = 0; i < 2; i++) {
		info.length[i] = 4;
		t.read[i].length_from = LENGTH_FIXED, t.read[i].length = 4;
	}
	t.read[1].reversed = 1;
	fire();
	CHECK_STR(printed(0), " a0=0102abff a1=ffab0201");
}

/* A socket address: as many bytes as its family says, read at the
 * firing, printed as an address and port. */
static void socket_address_read_to_print(void)
{
	static const enum arg_kind kinds[] = { ARG_SOCKADDR };
	struct sockaddr_in in = { .sin_family = AF_INET,
				  .sin_port = htons(11211) };
	unsigned long long values[1] = { (unsigned long long)&in };

	inet_pton(AF_INET, "10.1.2.3", &in.sin_addr);
	probe(1, kinds, values);
	fire();
	CHECK_STR(printed(0), " a0=10.1.2.3:11211");
	/* NULL: no address, said so (in JSON: null). */
	probe(1, kinds, (const unsigned long long[]){ 0 });
	fire();
	CHECK_STR(printed(1), "\"a0\": null");
}

/* A symbolizer standing for the stacks': one function, "on_ready". */
static long one_function(void *ctx, unsigned pid, unsigned long long addr,
			 char *out)
{
	(void)ctx;
	(void)pid;
	return addr == 0x401000 ? sprintf(out, "on_ready") : MEANT_NOTHING;
}

/* A code pointer (@function): no slot, printed as its function's name
 * (its number when no function holds it). */
static void code_read_to_print(void)
{
	static const enum arg_kind kinds[] = { ARG_CODE, ARG_CODE };
	static const unsigned long long values[] = { 0x401000, 0x500000 };

	probe(2, kinds, values);
	fire();
	CHECK_INT(e.nstrings, 0);
	meant_set_symbolizer(one_function, NULL);
	CHECK_STR(printed(0), " a0=on_ready a1=0x500000");
	meant_set_symbolizer(NULL, NULL);
}

/* A pointer the BPF side cannot read (a page not mapped): its slot is
 * marked, and the print says so with the address, in a shape no string
 * takes. */
static void unmapped_pointers_are_said(void)
{
	static const enum arg_kind kinds[] = { ARG_STRING, ARG_TEXT };
	static const unsigned long long values[] = { 16, 32 };

	probe(2, kinds, values);
	info.length[1] = 4;
	t.read[1].length_from = LENGTH_FIXED, t.read[1].length = 4;
	fire();
	CHECK_INT(e.fault_mask, 3);
	CHECK_STR(printed(0), " a0=0x10(unreadable) a1=0x20(unreadable)");
}

/* The kinds no tracer reads: nothing copied, and why printed. */
static void unreadable_kinds_say_why(void)
{
	static const enum arg_kind kinds[] = { ARG_FLOAT, ARG_BY_VALUE,
					       ARG_TOO_WIDE };
	static const unsigned long long values[] = { 1, 2, 3 };

	probe(3, kinds, values);
	fire();
	CHECK_INT(e.nstrings, 0);
	CHECK_STR(printed(0), " a0=(not readable: floating) a1=(not readable: passed by value) a2=(not readable: wider than 8 bytes)");
}

/* --show's members, followed at the firing: an integer two pointers
 * away, a string member, and bytes counted by a sibling member. */
struct inner {
	int pad, status;
};
struct request {
	long id;
	struct inner *inner;
	const char *path;
	const unsigned char *body;
	unsigned short body_len;
};

static void members_read_to_print(void)
{
	static const enum arg_kind kinds[] = { ARG_POINTER };
	static const unsigned char body[] = { 0xca, 0xfe, 0x00, 0x01 };
	struct inner in = { 0, -404 };
	struct request req = { 9, &in, "/index", body, sizeof(body) };
	unsigned long long values[1] = { (unsigned long long)&req };
	struct trace_show *sh = info.shows;
	static char show_names[3][16] = { "status", "path", "body" };
	char want[128];
	int k;

	probe(1, kinds, values);
	info.nshows = 3;
	t.nshows = 3;
	/* inner->status: the pointer at its offset, then the member. */
	sh[0] = (struct trace_show){ .kind = ARG_INTEGER, .size = 4,
				     .nsteps = 2,
				     .offset = { offsetof(struct request, inner),
						 offsetof(struct inner, status) } };
	sh[1] = (struct trace_show){ .kind = ARG_STRING, .nsteps = 1,
				     .offset = { offsetof(struct request, path) } };
	sh[2] = (struct trace_show){
		.kind = ARG_BYTES, .nsteps = 1,
		.offset = { offsetof(struct request, body) },
		.length_from = LENGTH_SIBLING,
		.length_delta = offsetof(struct request, body_len) -
				offsetof(struct request, body),
		.length_size = 2 };
	for (k = 0; k < 3; k++) {
		struct arg_read *r = &t.read[TRACE_MAX_ARGS + k];

		*r = (struct arg_read){ .kind = sh[k].kind, .size = 8,
					.length_arg = -1,
					.length_from = sh[k].length_from,
					.nsteps = (int)sh[k].nsteps };
		t.arg_names[TRACE_MAX_ARGS + k] = show_names[k];
	}
	t.read[TRACE_MAX_ARGS].size = 4, t.read[TRACE_MAX_ARGS].is_signed = 1;
	fire();
	read_shows(&e, &info, false);
	CHECK_INT(e.nstrings, 3);
	CHECK_INT(e.fault_mask, 0);
	snprintf(want, sizeof(want),
		 " a0=0x%llx status=-404 path=\"/index\" body=cafe0001",
		 values[0]);
	CHECK_STR(printed(0), want);
}

/* A length below 0 (a signed length the program got wrong): the BPF
 * side reads at most a slot, and the print says the length, not the
 * bytes. */
static void a_negative_length_is_said(void)
{
	static const enum arg_kind kinds[] = { ARG_TEXT, ARG_INTEGER };
	/* A slot's bytes: what the BPF side reads for a length it cannot
	   use (the kernel's read would stop at an unmapped page). */
	static const char text[TRACE_STR_LEN] = "abc";
	unsigned long long values[2] = { (unsigned long long)text,
					 (unsigned long long)-1ll };

	probe(2, kinds, values);
	info.length_arg[0] = 1;
	t.read[0].length_from = LENGTH_ARG, t.read[0].length_arg = 1;
	t.read[1].is_signed = 1;
	fire();
	CHECK_STR(printed(0), " a0=(not readable: length -1) a1=-1");
}

UNIT_CASES(UNIT(a_negative_length_is_said),
	   UNIT(kind_rows_are_whole), UNIT(kind_rows_agree_with_the_bpf_side),
	   UNIT(integers_read_by_their_specs), UNIT(strings_read_to_print),
	   UNIT(text_read_to_print), UNIT(bytes_read_to_print),
	   UNIT(socket_address_read_to_print), UNIT(code_read_to_print),
	   UNIT(unmapped_pointers_are_said), UNIT(unreadable_kinds_say_why),
	   UNIT(members_read_to_print))
