/*
 * tests/unit/filter_oracle.h - a probe made up for --where's compiler
 * (its arguments named and typed as a program's would be), and an
 * evaluation of a parsed --where expression written apart from
 * filter.c and bpf/filter_eval.h: integers compared as mathematical
 * values (a 128-bit integer holds every operand and constant), strings
 * by memcmp, globs by a table of prefixes.  Where the compiled steps and
 * this oracle differ, one of them is wrong.  Shared by
 * tests/unit/test_trace_filter.c and fuzz/fuzz_filter.c.
 */
#ifndef PROBEGEN_FILTER_ORACLE_H
#define PROBEGEN_FILTER_ORACLE_H

#include <stdlib.h>
#include <string.h>

#include "trace/decode/event.h"
#include "trace/find/filter.h"

/* The made-up probe "t:p"'s arguments: name, how read, size, sign. */
static const struct {
	const char *name;
	enum arg_kind kind;
	int size, is_signed;
} oracle_args[] = {
	{ "a", ARG_INTEGER, 1, 1 },  { "b", ARG_INTEGER, 2, 0 },
	{ "c", ARG_INTEGER, 4, 1 },  { "d", ARG_INTEGER, 8, 0 },
	{ "e", ARG_INTEGER, 8, 1 },  { "small", ARG_INTEGER, 4, 1 },
	{ "id", ARG_INTEGER, 4, 0 }, { "s", ARG_STRING, 8, 0 },
	{ "p", ARG_POINTER, 8, 0 },
};
#define ORACLE_NARGS ((int)(sizeof(oracle_args) / sizeof(oracle_args[0])))

static inline void oracle_probe(struct traced *t)
{
	int a;

	memset(t, 0, sizeof(*t));
	t->label = (char *)"t:p";
	t->label_text = (char *)"t:p";
	t->nargs = ORACLE_NARGS;
	for (a = 0; a < ORACLE_NARGS; a++) {
		t->arg_names[a] = (char *)oracle_args[a].name;
		t->read[a].kind = oracle_args[a].kind;
		t->read[a].size = oracle_args[a].size;
		t->read[a].is_signed = oracle_args[a].is_signed;
		t->read[a].length_arg = -1;
	}
}

/* An argument's raw 64 bits as the number the program passed. */
static inline __int128 oracle_number(int a, unsigned long long raw)
{
	int bits = 8 * oracle_args[a].size;

	if (bits < 64)
		raw &= (1ull << bits) - 1;
	if (oracle_args[a].kind == ARG_INTEGER && oracle_args[a].is_signed &&
	    bits <= 64 && (raw >> (bits - 1)) & 1)
		return (__int128)raw - ((__int128)1 << bits);
	return (__int128)raw;
}

/* Does glob (* and ?) match all of text?  By the table of which
 * prefixes of the glob match which prefixes of the text. */
static inline int oracle_glob(const char *glob, size_t m, const char *text,
			      size_t n)
{
	unsigned char *ok = calloc((m + 1) * (n + 1), 1);
	size_t i, j;
	int r;

	ok[0] = 1;
	for (i = 1; i <= m; i++)
		for (j = 0; j <= n; j++) {
			unsigned char *here = &ok[i * (n + 1) + j];

			if (glob[i - 1] == '*')
				*here = ok[(i - 1) * (n + 1) + j] ||
					(j && ok[i * (n + 1) + j - 1]);
			else if (j && (glob[i - 1] == '?' ||
				       glob[i - 1] == text[j - 1]))
				*here = ok[(i - 1) * (n + 1) + j - 1];
		}
	r = ok[m * (n + 1) + n];
	free(ok);
	return r;
}

/* The expression's truth for arguments raw[] (the string s's bytes are
 * text, n of them). */
static inline int oracle_eval(const struct where_node *w,
			      const unsigned long long *raw, const char *text,
			      size_t n)
{
	__int128 v, k;
	int a;

	switch (w->kind) {
	case WHERE_AND:
		return oracle_eval(w->l, raw, text, n) &&
		       oracle_eval(w->r, raw, text, n);
	case WHERE_OR:
		return oracle_eval(w->l, raw, text, n) ||
		       oracle_eval(w->r, raw, text, n);
	case WHERE_NOT:
		return !oracle_eval(w->l, raw, text, n);
	case WHERE_CMP:
		break;
	}
	for (a = 0; a < ORACLE_NARGS; a++)
		if (!strcmp(oracle_args[a].name, w->operand))
			break;
	if (a == ORACLE_NARGS)
		abort(); /* the compiler left such a probe out */
	if (w->is_string) {
		if (w->op == WHERE_GLOB)
			return oracle_glob(w->text, w->text_len, text, n);
		return (w->text_len == n && !memcmp(w->text, text, n)) ==
		       (w->op == TRACE_EQ);
	}
	v = oracle_number(a, raw[a]);
	k = w->negative ? -(__int128)w->magnitude : (__int128)w->magnitude;
	switch (w->op) {
	case TRACE_EQ: return v == k;
	case TRACE_NE: return v != k;
	case TRACE_LT: return v < k;
	case TRACE_LE: return v <= k;
	case TRACE_GT: return v > k;
	default: return v >= k;
	}
}

/* The compiled filter's verdict for the same arguments. */
static inline int oracle_compiled(const struct trace_filter *f,
				  const unsigned long long *raw,
				  const char *text, size_t n)
{
	struct filter_operand ops[TRACE_MAX_SLOTS];
	int a;

	memset(ops, 0, sizeof(ops));
	for (a = 0; a < ORACLE_NARGS; a++) {
		ops[a].value = raw[a];
		if (oracle_args[a].kind == ARG_STRING) {
			ops[a].text = text;
			ops[a].len = (unsigned)n;
		}
	}
	return filter_evaluate(f, ops);
}

#endif
