/*
 * tests/unit/test_meanings.c - what each argument means (meanings.c):
 * lengths inferred from names and said by tags, enums, socket addresses,
 * and the tags' errors at their file, line and column.
 */
#include "compile.h"
#include "compiler/emit.h"
#include "unit.h"

static void lengths_inferred_from_names(void)
{
	struct program *prog = compile(
		"provider p {\n"
		"\tprobe text(const char *name, size_t name_len);\n"
		"\tprobe bytes(const void *bytes, size_t bytes_len);\n"
		"\tprobe token(unsigned char *token, unsigned int tokenlen);\n"
		"\tprobe offset(unsigned long long off, size_t len);\n"
		"\tprobe bare(const char *p, size_t len);\n"
		"};\n");
	struct arg_read r;

	CHECK_INT(diag.errors, 0);
	r = read_of(prog, "text", 0);
	CHECK(r.kind == ARG_TEXT && r.length_from == LENGTH_ARG && r.length_arg == 1, "name: how %d, length_arg %d", r.kind, r.length_arg);
	r = read_of(prog, "bytes", 0);
	CHECK(r.kind == ARG_BYTES && r.length_arg == 1, "bytes: how %d, length_arg %d", r.kind, r.length_arg);
	r = read_of(prog, "token", 0);
	CHECK(r.length_arg == 1, "token: length_arg %d", r.length_arg);
	/* A size after a non-pointer, or a bare len: no length. */
	CHECK_INT(read_of(prog, "offset", 0).kind, ARG_INTEGER);
	CHECK_INT(read_of(prog, "bare", 0).kind, ARG_STRING);
	program_free(prog);
}

static void tags_say_what_names_cannot(void)
{
	struct program *prog = compile(
		"provider p {\n"
		"\t/** @length hash 32 reversed\n"
		"\t * @length msg size\n"
		"\t * @enum mode NONE=0 PERIODIC=2 ALWAYS=0x3\n"
		"\t * @length p none */\n"
		"\tprobe a(const void *hash, const char *msg, int size, int mode,\n"
		"\t        const char *p, size_t p_len, struct sockaddr *peer);\n"
		"};\n");
	struct arg_read r;

	CHECK(diag.errors == 0, "errors: %s", unit_said());
	r = read_of(prog, "a", 0);
	CHECK(r.kind == ARG_BYTES && r.length_from == LENGTH_FIXED && r.length == 32 && r.reversed,
	      "hash: how %d, length %u, reversed %d", r.kind, r.length, r.reversed);
	r = read_of(prog, "a", 1);
	CHECK(r.kind == ARG_TEXT && r.length_arg == 2, "msg: how %d, length_arg %d", r.kind, r.length_arg);
	r = read_of(prog, "a", 3);
	CHECK(r.nvalues == 3 && !strcmp(r.values[2].name, "ALWAYS") && r.values[2].value == 3,
	      "mode: %d values", r.nvalues);
	CHECK_INT(read_of(prog, "a", 4).kind, ARG_STRING); /* none: p_len is not its length */
	CHECK_INT(read_of(prog, "a", 6).kind, ARG_SOCKADDR);
	program_free(prog);
}

/* Each wrong tag is an error at its file, line and column. */
static void wrong_tags_are_errors_where_written(void)
{
	static const struct {
		const char *tag, *said;
	} cases[] = {
		{ "@length nosuch 4", "t.d:2:13: error: '@length' names 'nosuch', which is no argument of probe 'a'" },
		{ "@length n 4", "t.d:2:13: error: '@length': 'n' is not a pointer" },
		{ "@length k 0", "t.d:2:15: error: '@length': 0 bytes is not a length" },
		{ "@length k 99999999999999999999", "t.d:2:15: error: '@length': 99999999999999999999 is not a length" },
		{ "@enum k A=1", "t.d:2:11: error: '@enum': 'k' is not an integer" },
		{ "@enum n A=1 A=2", "t.d:2:17: error: '@enum': the name 'A' is given twice" },
		{ "@enum n A=1 B=1", "t.d:2:19: error: '@enum': the value 1 is given twice (A and B)" },
		{ "@enum n C=010", "t.d:2:15: error: '@enum': '010' is not a number" },
		{ "@enum u X=256", "t.d:2:15: error: '@enum': 256 is outside 'u' (8 bits, unsigned)" },
		{ "@enum n A", "t.d:2:13: error: '@enum' takes ARG NAME=VALUE..., not 'A'" },
	};
	char text[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct program *prog;

		snprintf(text, sizeof(text),
			 "provider p {\n\t/* %s */\n\tprobe a(char *k, int n, unsigned char u);\n};\n",
			 cases[i].tag);
		prog = compile(text);
		CHECK(diag.errors >= 1 && strstr(unit_said(), cases[i].said),
		      "'%s' said: %s", cases[i].tag, unit_said());
		program_free(prog);
	}
}

/* Tags name an unnamed argument argN, as every output names it (BIND's
 * .d names none; '@function arg1' was refused by -h and dropped from
 * the recorded tags); a named argument is not argN, nor past the last;
 * the tags written back for the declaration note read back the same. */
static void tags_name_unnamed_arguments_argN(void)
{
	struct program *prog = compile(
		"provider p {\n"
		"\t/** @function arg1\n"
		"\t * @length arg2 arg3 */\n"
		"\tprobe a(void *, void *, const char *, int);\n"
		"};\n");
	struct buf tags = { 0 };
	struct arg_read r;

	CHECK(diag.errors == 0, "errors: %s", unit_said());
	CHECK_INT(read_of(prog, "a", 1).kind, ARG_CODE);
	r = read_of(prog, "a", 2);
	CHECK(r.kind == ARG_TEXT && r.length_arg == 3, "arg2: how %d, length_arg %d", r.kind, r.length_arg);
	meanings_tags(&tags, prog->providers->probes);
	CHECK(!strcmp(tags.data, "@function arg1\n@length arg2 arg3"), "tags: %s", tags.data);
	buf_free(&tags);
	program_free(prog);
	prog = compile("provider p {\n\t/* @function arg0 */\n\tprobe a(void *cb, void *);\n};\n");
	CHECK(diag.errors >= 1 && strstr(unit_said(), "'@function' names 'arg0', which is no argument"),
	      "a named argument as arg0: %s", unit_said());
	program_free(prog);
	prog = compile("provider p {\n\t/* @function arg2 */\n\tprobe a(void *, void *);\n};\n");
	CHECK(diag.errors >= 1, "arg2 of two taken");
	program_free(prog);
}


/* One use of each tag: its doc line, the probe's arguments, and what
 * --docs says of the tagged one (its first).  A tag row without a use
 * here fails tag_rows_round_trip. */
static const struct {
	const char *line, *params, *said;
} tag_uses[] = {
	{ "@length key 16 reversed", "const void *key",
	  "16 bytes in hex, last byte first (said)" },
	{ "@function cb", "void *cb, size_t cb_len",
	  "a function, shown by its name (said)" },
	{ "@fields attrs", "const char *attrs",
	  "key=value fields, an object of them in JSON (said)" },
	{ "@enum state IDLE=0 BUSY=1", "int state",
	  "named values IDLE=0, BUSY=1 (said)" },
};

/* Every tag row: read from a doc comment, said back by the declaration
 * note as written, and described by --docs. */
static void tag_rows_round_trip(void)
{
	size_t k, u;

	for (k = 0; meaning_tag_word(k); k++) {
		const char *word = meaning_tag_word(k);
		char text[512];
		struct program *prog;
		struct buf b = { 0 };

		for (u = 0; u < ARRAY_SIZE(tag_uses); u++)
			if (strncmp(tag_uses[u].line, word, strlen(word)) == 0 &&
			    tag_uses[u].line[strlen(word)] == ' ')
				break;
		CHECK(u < ARRAY_SIZE(tag_uses), "no use of tag %s here", word);
		snprintf(text, sizeof(text),
			 "provider p {\n\t/** %s */\n\tprobe a(%s);\n};\n",
			 tag_uses[u].line, tag_uses[u].params);
		prog = compile(text);
		CHECK(diag.errors == 0, "%s: %s", word, unit_said());
		meanings_tags(&b, probe_of(prog, "a"));
		CHECK_STR(b.data, tag_uses[u].line);
		b.len = 0;
		CHECK(meaning_text(&b, prog, probe_of(prog, "a"), 0), "%s: not described", word);
		CHECK_STR(b.data, tag_uses[u].said);
		buf_free(&b);
		program_free(prog);
	}
	CHECK_INT(k, ARRAY_SIZE(tag_uses));
}

/* Which tag decides the kind: @function over a length its names give,
 * @fields over one too; a socket address by its type over any tag. */
static void tags_decide_the_kind_in_order(void)
{
	struct program *prog = compile(
		"provider p {\n"
		"\t/** @function cb\n"
		"\t * @fields msg */\n"
		"\tprobe a(void *cb, size_t cb_len, const char *msg, int msg_len);\n"
		"\t/** @length peer 16 */\n"
		"\tprobe b(struct sockaddr *peer);\n"
		"};\n");
	struct arg_read r;

	CHECK(diag.errors == 0, "errors: %s", unit_said());
	r = read_of(prog, "a", 0);
	CHECK(r.kind == ARG_CODE && r.length_from == LENGTH_NONE,
	      "cb: kind %d, length from %d", r.kind, r.length_from);
	r = read_of(prog, "a", 2);
	CHECK(r.kind == ARG_STRING && r.key_values && r.length_from == LENGTH_NONE,
	      "msg: kind %d, key_values %d", r.kind, r.key_values);
	r = read_of(prog, "b", 0);
	CHECK(r.kind == ARG_SOCKADDR && r.length_from == LENGTH_NONE,
	      "peer: kind %d", r.kind);
	program_free(prog);
}

/* bpftrace's spelling of each kind, from its row: the format and the
 * expression that reads it. */
static void bpftrace_spells_each_kind(void)
{
	static const struct {
		int arg;
		const char *fmt, *expr;
	} want[] = {
		{ 0, "%d", "arg0" },
		{ 1, "%lu", "arg1" },
		{ 2, "0x%lx", "arg2" },
		{ 3, "\\\"%s\\\"", "str(arg3)" },
		{ 4, "\\\"%s\\\"", "str(arg4, (int64)arg5 < 0 ? 0 : arg5)" },
		{ 6, "%r", "buf(arg6, 8)" },
		{ 7, "0x%lx", "arg7" },
		{ 8, "%s", "usym(arg8)" },
		{ 9, "(not readable: floating)", "" },
	};
	struct program *prog = compile(
		"provider p {\n"
		"\t/** @length key 8\n"
		"\t * @function cb */\n"
		"\tprobe a(int i, unsigned long u, void *p, const char *s,\n"
		"\t        const char *t, int t_len, const void *key,\n"
		"\t        struct sockaddr *peer, void *cb, double d);\n"
		"};\n");
	const struct probe *pr = probe_of(prog, "a");
	struct buf fmt = { 0 }, expr = { 0 };
	size_t k;

	CHECK(diag.errors == 0, "errors: %s", unit_said());
	for (k = 0; k < ARRAY_SIZE(want); k++) {
		fmt.len = expr.len = 0;
		buf_add(&fmt, "", 1), fmt.len = 0;
		buf_add(&expr, "", 1), expr.len = 0;
		bpftrace_arg(&fmt, &expr, prog, pr, want[k].arg, target_host());
		CHECK_STR(fmt.data, want[k].fmt);
		CHECK_STR(expr.data, want[k].expr);
	}
	buf_free(&fmt);
	buf_free(&expr);
	program_free(prog);
}

UNIT_CASES(UNIT(lengths_inferred_from_names),
	   UNIT(bpftrace_spells_each_kind),
	   UNIT(tag_rows_round_trip), UNIT(tags_decide_the_kind_in_order), UNIT(tags_say_what_names_cannot),
	   UNIT(wrong_tags_are_errors_where_written),
	   UNIT(tags_name_unnamed_arguments_argN))
