/*
 * src/trace/kernel/bpf/filter_eval.h - the steps of a compiled --where filter
 * (trace_abi.h's struct trace_filter) that need no reading of the
 * traced process: a comparison's truth on an integer, a string's
 * equality and its glob's steps, and the postfix combination of the
 * truths.  One source for two compilers: the BPF side runs these at
 * each firing (filter.bpf.h), and user space runs the very same code in
 * filter_evaluate (trace/find/filter.c), which the unit tests and
 * fuzz_filter compare with an evaluation of the parsed expression.
 * Plain C; the caller includes trace_abi.h and the __u32 types first.
 */
#ifndef PROBEGEN_FILTER_EVAL_H
#define PROBEGEN_FILTER_EVAL_H

#define FILTER_EVAL static inline __attribute__((always_inline))

/* Whether c compares a string (equal, or matched by a glob: TRACE_MATCH)
 * rather than a number. */
FILTER_EVAL int filter_compares_string(const struct trace_cond *c)
{
	return c->kind == ARG_STRING || c->kind == ARG_TEXT ||
	       c->kind == ARG_BYTES;
}

/* v against c's constant, at c's size and sign. */
FILTER_EVAL int filter_integer_truth(const struct trace_cond *c, __u64 v)
{
	unsigned int shift = c->size >= 1 && c->size < 8 ? 64 - 8 * c->size : 0;
	__s64 sv = (__s64)(v << shift) >> shift, sc = (__s64)c->value;
	__u64 uv = (v << shift) >> shift, uc = c->value;

	if (c->is_signed)
		switch (c->op) {
		case TRACE_EQ: return sv == sc;
		case TRACE_NE: return sv != sc;
		case TRACE_LT: return sv < sc;
		case TRACE_LE: return sv <= sc;
		case TRACE_GT: return sv > sc;
		default: return sv >= sc;
		}
	switch (c->op) {
	case TRACE_EQ: return uv == uc;
	case TRACE_NE: return uv != uc;
	case TRACE_LT: return uv < uc;
	case TRACE_LE: return uv <= uc;
	case TRACE_GT: return uv > uc;
	default: return uv >= uc;
	}
}

/* A string's (or bytes') n bytes against c's pattern of m bytes: equal
 * (== or !=), or starting or ending with it (TRACE_PREFIX, _SUFFIX);
 * not a glob. */
FILTER_EVAL int filter_string_truth(const struct trace_cond *c,
				    const char *text, __u32 n, __u32 m)
{
	__u32 k, at = 0;
	int same;

	if (c->op == TRACE_PREFIX || c->op == TRACE_SUFFIX) {
		same = n >= m;
		if (same && c->op == TRACE_SUFFIX)
			at = n - m;
	} else {
		same = n == m;
	}
	for (k = 0; k < TRACE_PATTERN_LEN - 1 && same; k++) {
		if (k >= m)
			break;
		same = text[(at + k) & (TRACE_STR_MAX - 1)] == c->pattern[k];
	}
	return c->op == TRACE_NE ? !same : same;
}

/* The pattern's bytes, at most a pattern's room. */
FILTER_EVAL __u32 filter_pattern_len(const struct trace_cond *c)
{
	return c->pattern_len < TRACE_PATTERN_LEN - 1 ? c->pattern_len
						      : TRACE_PATTERN_LEN - 1;
}

/* One step of matching text (n bytes) against the glob pattern (m
 * bytes; * and ?), the classic way: on a mismatch, back to the last
 * star, which takes one more byte.  1 when done (result set), else 0;
 * at most FILTER_GLOB_STEPS steps. */
struct glob_state {
	__u32 s, p, star, mark;
	int result;
};
#define GLOB_NO_STAR 0xffffffffu
#define FILTER_GLOB_STEPS ((TRACE_STR_MAX + 1) * (TRACE_PATTERN_LEN + 1) + TRACE_PATTERN_LEN)

FILTER_EVAL int filter_glob_step(struct glob_state *g, const char *text,
				 __u32 n, const char *pattern, __u32 m)
{
	char pc, sc;

	pc = g->p < m ? pattern[g->p & (TRACE_PATTERN_LEN - 1)] : 0;
	if (g->s < n) {
		sc = text[g->s & (TRACE_STR_MAX - 1)];
		/* A star first: a '*' in the text is no reason to take the
		   glob's star as a literal (fuzz_filter found the glob
		   "a*?" failing to match the text "a*" that way). */
		if (g->p < m && pc == '*') {
			g->star = g->p++;
			g->mark = g->s;
		} else if (g->p < m && (pc == '?' || pc == sc)) {
			g->s++;
			g->p++;
		} else if (g->star != GLOB_NO_STAR) {
			g->p = g->star + 1;
			g->s = ++g->mark;
		} else {
			return 1; /* no match */
		}
		return 0;
	}
	/* The string is used up: what is left of the glob must be stars. */
	if (g->p < m && pc == '*') {
		g->p++;
		return 0;
	}
	g->result = g->p == m;
	return 1;
}

/* The filter's verdict from its comparisons' truths (bit k: comparison
 * k): its postfix ops over a stack of truths held in one integer's
 * bits. */
FILTER_EVAL int filter_combine(const struct trace_filter *f, __u32 truths)
{
	__u32 stack = 0, k, op;

	for (k = 0; k < TRACE_MAX_FILTER_OPS && k < f->nops; k++) {
		op = f->ops[k];
		if (op < TRACE_MAX_CONDS)
			stack = stack << 1 | ((truths >> op) & 1);
		else if (op == TRACE_FILTER_NOT)
			stack ^= 1;
		else if (op == TRACE_FILTER_AND)
			stack = (stack >> 1) & (stack | ~1u);
		else
			stack = (stack >> 1) | (stack & 1);
	}
	return stack & 1;
}

#endif
