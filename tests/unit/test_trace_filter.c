/*
 * tests/unit/test_filter.c - --where's parser and compiler, and the
 * compiled steps as the BPF side runs them (bpf/filter_eval.h, through
 * filter_evaluate), against filter_oracle.h's evaluation of the parsed
 * expression.
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <sys/un.h>
#include <stdio.h>
#include <stdlib.h>

#include "filter_oracle.h"
#include "unit.h"

/* Parse "t:p: expr" into r: 0, or -1 (said). */
static int parse(struct where_request *r, const char *expr)
{
	static char spec[200000];

	snprintf(spec, sizeof(spec), "t:p: %s", expr);
	unit_listen();
	return where_parse(spec, r);
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A random comparison of an argument with a constant near its limits. */
static void random_comparison(struct buf *b)
{
	static const char *const ops[] = { "==", "!=", "<", "<=", ">", ">=" };
	static const char *const words[] = { "", "x", "GET", "/api/users",
					     "a*b", "?" };
	static const char *const globs[] = { "*", "x*", "*s*s*", "/api/????s",
					     "?", "", "G?T", "**" };
	int a = (int)(next() % ORACLE_NARGS);
	int bits = 8 * oracle_args[a].size, sgn = oracle_args[a].is_signed &&
						   oracle_args[a].kind == ARG_INTEGER;
	unsigned long long k;

	if (oracle_args[a].kind == ARG_STRING) {
		if (next() % 2)
			buf_printf(b, "s %s \"%s\"", next() % 2 ? "==" : "!=",
				   words[next() % 6]);
		else
			buf_printf(b, "s ~ \"%s\"", globs[next() % 8]);
		return;
	}
	switch (next() % 4) {
	case 0: k = next() % 3; break;
	case 1: k = bits == 64 ? ~0ull >> sgn : (1ull << (bits - sgn)) - 1; break;
	case 2: k = next() % 300; break;
	default: k = next() >> (64 - bits + sgn); break;
	}
	if (sgn && next() % 2)
		buf_printf(b, "%s %s -%llu", oracle_args[a].name,
			   ops[next() % 6], k ? k : 1);
	else if (next() % 4 == 0)
		buf_printf(b, "%llu %s %s", k, ops[next() % 6],
			   oracle_args[a].name);
	else
		buf_printf(b, "%s %s 0x%llx", oracle_args[a].name,
			   ops[next() % 6], k);
}

/* A random expression of at most budget comparisons. */
static void random_expr(struct buf *b, int budget)
{
	int r = (int)(next() % 6);

	if (budget <= 1 || r < 2) {
		if (r == 0 && budget > 0) {
			buf_puts(b, "!");
			random_expr(b, budget);
			return;
		}
		random_comparison(b);
		return;
	}
	buf_puts(b, "(");
	random_expr(b, budget / 2);
	buf_puts(b, r % 2 ? " && " : " || ");
	random_expr(b, budget - budget / 2);
	buf_puts(b, ")");
}

/* Thousands of random filters, each compiled for the made-up probe and
 * evaluated on arguments at and around their constants and limits, by
 * the compiled steps and by the oracle. */
static void compiled_steps_agree_with_the_expression(void)
{
	static const char *const texts[] = { "", "x", "GET", "/api/users",
					     "ab", "GXT", "s s", "a*b" };
	unsigned long long raw[ORACLE_NARGS];
	int i, j, a, compiled = 0;

	for (i = 0; i < 4000; i++) {
		struct buf b = { 0 };
		struct where_request r;
		struct trace_filter f;
		struct traced t;
		char *why;

		random_expr(&b, 1 + (int)(next() % 8));
		if (parse(&r, b.data) != 0) {
			buf_free(&b);
			continue; /* too long: refused, as tested below */
		}
		oracle_probe(&t);
		if (filter_compile(&t, &r, &f, &why) != 0) {
			free(why);
			where_free(&r);
			buf_free(&b);
			continue; /* a constant out of range: said */
		}
		compiled++;
		for (j = 0; j < 40; j++) {
			const char *text = texts[next() % 8];

			for (a = 0; a < ORACLE_NARGS; a++)
				raw[a] = j < 8 ? (unsigned long long)(j - 4)
					       : next() >> (next() % 64);
			CHECK(oracle_compiled(&f, raw, text, strlen(text)) ==
				      oracle_eval(r.root, raw, text, strlen(text)),
			      "'%s' with a=%llu b=%llu c=%llu d=%llu e=%llu small=%llu id=%llu s=\"%s\": "
			      "the compiled steps say %d",
			      b.data, raw[0], raw[1], raw[2], raw[3], raw[4],
			      raw[5], raw[6], text,
			      oracle_compiled(&f, raw, text, strlen(text)));
		}
		where_free(&r);
		buf_free(&b);
	}
	CHECK(compiled > 2000, "only %d of 4000 filters compiled", compiled);
}

/* The reliability issue's case: six negated comparisons joined by &&
 * are 17 steps; they were accepted and passed 19 firings where 4
 * should have. */
static void too_many_steps_are_refused(void)
{
	struct where_request r;

	CHECK_INT(parse(&r, "!a==1 && !a==2 && !a==3 && !a==4 && !a==5 && !a==6"), -1);
	CHECK(strstr(unit_said(), "at most 16 steps"), "said: %s", unit_said());
	CHECK_INT(parse(&r, "!!!!!!!!!!!!!!!!!!!!a == 1"), -1);
	CHECK(strstr(unit_said(), "at most 16 steps"), "said: %s", unit_said());
	CHECK_INT(parse(&r, "a==1 || a==2 || a==3 || a==4 || a==5 || a==6 || a==7 || a==8 || a==9"), -1);
	CHECK(strstr(unit_said(), "at most 8 comparisons"), "said: %s", unit_said());
	/* The longest that fits: 8 comparisons, 7 &&, one ! */
	CHECK_INT(parse(&r, "!(a==1 && a==2 && a==3 && a==4 && a==5 && a==6 && a==7 && a==8)"), 0);
	where_free(&r);
}

/* The compiler checks every step it appends, not only the parser: a
 * tree of 17 steps made by hand (the parser refuses one) is refused and
 * writes nothing past the filter's steps. */
static void the_compiler_checks_every_step(void)
{
	struct where_node cmp = { .kind = WHERE_CMP, .operand = (char *)"a",
				  .op = TRACE_EQ, .magnitude = 1 };
	struct where_node nots[16];
	struct where_request r = { .spec = "t:p: by hand" };
	struct trace_filter f;
	struct traced t;
	char *why = NULL;
	int i;

	for (i = 0; i < 16; i++)
		nots[i] = (struct where_node){ .kind = WHERE_NOT,
					       .l = i ? &nots[i - 1] : &cmp };
	oracle_probe(&t);
	r.root = &nots[14]; /* 16 steps: fits */
	CHECK_INT(filter_compile(&t, &r, &f, &why), 0);
	CHECK_INT(f.nops, 16);
	r.root = &nots[15]; /* 17 */
	unit_listen();
	CHECK_INT(filter_compile(&t, &r, &f, &why), -1);
	CHECK(f.nops <= TRACE_MAX_FILTER_OPS, "%u steps", f.nops);
	CHECK(strstr(unit_said(), "at most 8 comparisons and 16 steps"), "said: %s", unit_said());
}

/* 40,000 nested parentheses crashed the parser (its stack); now a depth
 * limit says so, at the parenthesis too deep. */
static void deep_nesting_is_refused(void)
{
	static char expr[80010];
	struct where_request r;

	memset(expr, '(', 40000);
	strcpy(expr + 40000, "a == 1");
	memset(expr + 40006, ')', 40000);
	expr[80006] = 0;
	CHECK_INT(parse(&r, expr), -1);
	CHECK(strstr(unit_said(), "too deep: at most 32"), "said: %.200s", unit_said());
	CHECK(r.root == NULL && r.probes == NULL, "a failure left something");
	memset(expr, '(', 32);
	strcpy(expr + 32, "a == 1");
	memset(expr + 38, ')', 32);
	expr[70] = 0;
	CHECK_INT(parse(&r, expr), 0);
	where_free(&r);
}

/* A leading zero was read as octal (small == 0143 matched 99) while the
 * docs said decimal or 0x: refused, saying why. */
static void a_leading_zero_is_refused(void)
{
	struct where_request r;

	CHECK_INT(parse(&r, "small == 0143"), -1);
	CHECK(strstr(unit_said(), "a leading zero") && strstr(unit_said(), "octal is not read"),
	      "said: %s", unit_said());
	CHECK_INT(parse(&r, "-07 < small"), -1);
	CHECK_INT(parse(&r, "small == 0 && small != 0x0143 && small > -0"), 0);
	where_free(&r);
}

/* A failed parse leaves nothing to free (the probe list leaked). */
static void a_failed_parse_leaves_nothing(void)
{
	static const char *const bad[] = { "", "a ==", "(a == 1", "a == 1 )",
					   "a == \"x", "a == 99999999999999999999" };
	struct where_request r;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT(parse(&r, bad[i]), -1);
		CHECK(!r.root && !r.probes, "'%s' left something", bad[i]);
	}
}

/* Globs as the BPF side matches them, on texts that hold the glob's
 * own characters: a star in the text once made the glob's star literal
 * (fuzz_filter's first finding: "a*?" did not match "a*"). */
static void globs_match_texts_with_stars(void)
{
	static const struct {
		const char *glob, *text;
		int match;
	} cases[] = {
		{ "/api/*?", "/api/*", 1 }, { "a*?", "a*", 1 },
		{ "*", "*", 1 },	    { "**", "", 1 },
		{ "?*", "", 0 },	    { "a*b", "a*b*c", 0 },
		{ "*x", "x*x", 1 },	    { "?", "*", 1 },
		{ "a?c", "a*c", 1 },	    { "*?*?", "?", 0 },
	};
	struct where_request r;
	struct trace_filter f;
	struct traced t;
	unsigned long long raw[ORACLE_NARGS] = { 0 };
	struct buf b = { 0 };
	char *why;
	size_t i;

	oracle_probe(&t);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		b.len = 0;
		buf_printf(&b, "s ~ \"%s\"", cases[i].glob);
		CHECK_INT(parse(&r, b.data), 0);
		CHECK_INT(filter_compile(&t, &r, &f, &why), 0);
		CHECK(oracle_compiled(&f, raw, cases[i].text, strlen(cases[i].text)) ==
			      cases[i].match,
		      "glob \"%s\" on \"%s\": expected %d", cases[i].glob,
		      cases[i].text, cases[i].match);
		CHECK_INT(oracle_eval(r.root, raw, cases[i].text, strlen(cases[i].text)),
			  cases[i].match);
		where_free(&r);
	}
	buf_free(&b);
}

/* A comparison on an argument the filter cannot compare says what the
 * argument is and what it compares with (it said "not a string:
 * compare it with a number", then "not a number", of a byte buffer). */
static void what_an_operand_is_is_said(void)
{
	static const struct {
		enum arg_kind kind;
		const char *expr, *said;
	} cases[] = {
		{ ARG_BYTES, "x == \"ab\"", "'x' is bytes (a pointer with its length)" },
		{ ARG_BYTES, "x == 5", "'x' is bytes (a pointer with its length)" },
		{ ARG_SOCKADDR, "x == 80", "'x' is a socket address: compare it with a \"string\"" },
		{ ARG_FLOAT, "x < 1", "'x' is a floating-point number" },
		{ ARG_BY_VALUE, "x == 1", "'x' is an object passed by value" },
		{ ARG_INTEGER, "x == \"1\"", "'x' is a number: compare it with a number" },
		{ ARG_STRING, "x == 1", "'x' is a string: compare it with a \"string\"" },
	};
	struct where_request r;
	struct trace_filter f;
	struct traced t;
	char *why;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&t, 0, sizeof(t));
		t.label = t.label_text = (char *)"t:p";
		t.nargs = 1;
		t.arg_names[0] = (char *)"x";
		t.read[0].kind = cases[i].kind;
		t.read[0].size = 8;
		t.read[0].length_arg = -1;
		CHECK_INT(parse(&r, cases[i].expr), 0);
		CHECK_INT(filter_compile(&t, &r, &f, &why), 1);
		CHECK(why && strstr(why, cases[i].said), "'%s': said '%s'",
		      cases[i].expr, why ? why : "");
		free(why);
		where_free(&r);
	}
}

/* A socket address compares with its printed form, in pieces of its
 * bytes (family, port, address): judged on each family's bytes as the
 * slot holds them; a NULL one passes neither == nor !=. */
static void socket_addresses_compare_as_printed(void)
{
	static const struct {
		const char *expr;
		int v4, v6, un, unreadable;
	} cases[] = {
		{ "x == \"10.1.2.3:8080\"", 1, 0, 0, 0 },
		{ "x == \"10.1.2.3:8081\"", 0, 0, 0, 0 },
		{ "x != \"10.1.2.3:8080\"", 0, 1, 1, 0 },
		{ "x ~ \"10.1.2.3:*\"", 1, 0, 0, 0 },
		{ "x ~ \"*:8080\"", 1, 1, 0, 0 },
		{ "x == \"[2001:db8::7]:8080\"", 0, 1, 0, 0 },
		{ "x ~ \"[2001:db8::7]:*\"", 0, 1, 0, 0 },
		{ "x == \"[2001:db8::8]:8080\"", 0, 0, 0, 0 },
		{ "x == \"/run/a.sock\"", 0, 0, 1, 0 },
		{ "x == \"/run/a\"", 0, 0, 0, 0 },
		{ "x ~ \"/run/*\"", 0, 0, 1, 0 },
		{ "!(x ~ \"/run/*\")", 1, 1, 0, 1 },
	};
	struct sockaddr_in v4 = { .sin_family = AF_INET, .sin_port = htons(8080) };
	struct sockaddr_in6 v6 = { .sin6_family = AF_INET6,
				   .sin6_port = htons(8080) };
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	const void *addrs[3] = { &v4, &v6, &un };
	const unsigned lens[3] = { sizeof(v4), sizeof(v6), 110 };
	struct filter_operand o[TRACE_MAX_SLOTS];
	struct where_request r;
	struct trace_filter f;
	struct traced t;
	char *why;
	size_t i, a;

	inet_pton(AF_INET, "10.1.2.3", &v4.sin_addr);
	inet_pton(AF_INET6, "2001:db8::7", &v6.sin6_addr);
	strcpy(un.sun_path, "/run/a.sock");
	memset(&t, 0, sizeof(t));
	t.label = t.label_text = (char *)"t:p";
	t.nargs = 1;
	t.arg_names[0] = (char *)"x";
	t.read[0].kind = ARG_SOCKADDR;
	t.read[0].length_arg = -1;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int want[4] = { cases[i].v4, cases[i].v6, cases[i].un,
				cases[i].unreadable };

		CHECK_INT(parse(&r, cases[i].expr), 0);
		CHECK_INT(filter_compile(&t, &r, &f, &why), 0);
		for (a = 0; a < 4; a++) {
			memset(o, 0, sizeof(o));
			o[0].unreadable = a == 3;
			o[0].text = a < 3 ? addrs[a] : NULL;
			o[0].len = a < 3 ? lens[a] : 0;
			CHECK(filter_evaluate(&f, o) == want[a],
			      "'%s' on address %zu: %d", cases[i].expr, a,
			      filter_evaluate(&f, o));
		}
		where_free(&r);
	}
	CHECK_INT(parse(&r, "x == \"10.1.2.3\""), 0);
	CHECK_INT(filter_compile(&t, &r, &f, &why), -1);
	where_free(&r);
}

/* Every byte as --trace prints it inside a string (escape.c's text
 * form), and as --json does, reads back through a filter's string as
 * that byte; an escape --trace never prints is refused with a caret
 * ("\\x07" matched the text "x07", "\\q" the text "q"). */
static void printed_escapes_read_back(void)
{
	static const char *const bad[] = { "\\q", "\\x7", "\\xg0", "\\u0080",
					   "\\u1234", "\\0" };
	struct where_request r;
	struct buf b = { 0 };
	char esc[16], *end;
	int c, json;
	size_t i;

	for (json = 0; json < 2; json++)
		for (c = 0; c < 256; c++) {
			char byte = (char)c;

			end = escape_to(esc, &byte, 1, json);
			*end = '\0';
			/* JSON says a byte that is no UTF-8 as U+FFFD, lost. */
			if (json && c >= 0x80)
				continue;
			b.len = 0;
			buf_printf(&b, "s == \"%s\"", esc);
			CHECK_INT(parse(&r, b.data), 0);
			CHECK(r.root && r.root->is_string && r.root->text_len == 1 &&
				      (unsigned char)r.root->text[0] == c,
			      "byte %d printed as %s read back wrong", c, esc);
			where_free(&r);
		}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		b.len = 0;
		buf_printf(&b, "s == \"a%s\"", bad[i]);
		CHECK_INT(parse(&r, b.data), -1);
		CHECK(strstr(unit_said(), "not an escape --trace prints") &&
			      strchr(unit_said(), '^'),
		      "%s said: %s", bad[i], unit_said());
	}
	buf_free(&b);
}

/* --expect's counts, said before anything runs: {all}; a count past 64
 * bits (it was clamped); an unclosed { or text after the } (it went
 * into the probe's name); 0x with no digits, said for what it is. */
static void expect_counts_and_their_errors(void)
{
	static const struct {
		const char *spec, *said;
	} bad[] = {
		{ "t:p{99999999999999999999}", "a count larger than a trace can count" },
		{ "t:p{3,99999999999999999999}", "a count larger than a trace can count" },
		{ "t:p{3,", "{all} every firing, just before ':' or the end" },
		{ "t:p{3}x: s == \"a\"", "{all} every firing, just before ':' or the end" },
		{ "t:p{al}", "{N} exactly, {N,} at least" },
		{ "t:p: big ~ 0x*", "0x with no hex digits after it" },
	};
	struct where_request r;
	size_t i;

	unit_listen();
	CHECK_INT(where_parse_as("--expect", "t:p{all}: s == \"a\"", &r), 0);
	CHECK(r.every && r.root && !strcmp(r.probes, "t:p"), "{all}: every %d, probes %s", r.every, r.probes);
	where_free(&r);
	CHECK_INT(where_parse_as("--expect", "t:p{2,5}", &r), 0);
	CHECK(!r.every && r.min == 2 && r.max == 5, "{2,5}: %lld %lld", r.min, r.max);
	where_free(&r);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unit_listen();
		CHECK_INT(where_parse_as("--expect", bad[i].spec, &r), -1);
		CHECK(strstr(unit_said(), bad[i].said) && strchr(unit_said(), '^'),
		      "%s said: %s", bad[i].spec, unit_said());
		CHECK(!r.probes && !r.root, "%s left something", bad[i].spec);
	}
}

/* A constant may come first, a value's name too (PERIODIC == mode):
 * a word on each side, the probe says which is its argument; 5 < x is
 * x > 5. */
static void a_constant_first_is_read_as_written(void)
{
	struct where_request r;
	struct trace_filter f;
	struct traced t;
	char *why;

	oracle_probe(&t);
	CHECK_INT(parse(&r, "NAME == small"), 0);
	CHECK_INT(filter_compile(&t, &r, &f, &why), -1);
	CHECK(strstr(unit_said(), "'small' has no named values"), "said: %s", unit_said());
	where_free(&r);
	CHECK_INT(parse(&r, "200 > small"), 0);
	CHECK(r.root->op == TRACE_LT && !strcmp(r.root->operand, "small"),
	      "200 > small: op %d on %s", r.root->op, r.root->operand);
	CHECK_INT(filter_compile(&t, &r, &f, &why), 0);
	where_free(&r);
}

/* Each kind compares as its row says (arg_read.c): the constants its
 * row takes are compiled, the others leave the probe out, saying what
 * the row says the operand is. */
static void each_kind_compares_by_its_row(void)
{
	static const char *const constants[] = { "x == 7", "x == \"127.0.0.1:80\"",
						  "x == 0xab" };
	/* Which constant each way of comparing takes. */
	static const int takes[][3] = {
		[COMPARE_NONE] = { 0, 0, 0 },	  [COMPARE_NUMBER] = { 1, 0, 1 },
		[COMPARE_STRING] = { 0, 1, 0 },	  [COMPARE_BYTES] = { 0, 0, 1 },
		[COMPARE_SOCKADDR] = { 0, 1, 0 },
	};
	struct where_request r;
	struct trace_filter f;
	struct traced t;
	char *why;
	int k, c, rc;

	for (k = 0; k < ARG_KINDS; k++) {
		const struct arg_kind_row *row = &arg_kinds[k];

		if (row->compare == COMPARE_FIELD)
			continue; /* a field of an argument (t_trace_compare_the_whole_slot) */
		for (c = 0; c < 3; c++) {
			memset(&t, 0, sizeof(t));
			t.label = t.label_text = (char *)"t:p";
			t.nargs = 1;
			t.arg_names[0] = (char *)"x";
			t.read[0] = (struct arg_read){ .kind = (enum arg_kind)k,
						       .size = 8, .length_arg = -1 };
			if (row->counted)
				t.read[0].length_from = LENGTH_FIXED,
				t.read[0].length = 4;
			CHECK_INT(parse(&r, constants[c]), 0);
			why = NULL;
			rc = filter_compile(&t, &r, &f, &why);
			if (takes[row->compare][c])
				CHECK(rc == 0, "%s: '%s' refused: %s", row->name,
				      constants[c], why ? why : "");
			else
				CHECK(rc == 1 && why && strstr(why, row->compares),
				      "%s: '%s' gave %d, said '%s'", row->name,
				      constants[c], rc, why ? why : "");
			free(why);
			where_free(&r);
		}
	}
}

UNIT_CASES(UNIT(each_kind_compares_by_its_row),
	   UNIT(compiled_steps_agree_with_the_expression),
	   UNIT(too_many_steps_are_refused),
	   UNIT(the_compiler_checks_every_step), UNIT(deep_nesting_is_refused),
	   UNIT(a_leading_zero_is_refused), UNIT(a_failed_parse_leaves_nothing),
	   UNIT(globs_match_texts_with_stars), UNIT(what_an_operand_is_is_said),
	   UNIT(socket_addresses_compare_as_printed),
	   UNIT(printed_escapes_read_back),
	   UNIT(expect_counts_and_their_errors),
	   UNIT(a_constant_first_is_read_as_written))
