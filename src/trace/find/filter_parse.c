/*
 * src/trace/find/filter_parse.c - a --where request read: "PROVIDER:PROBE:
 * EXPR", where EXPR compares arguments (by name, or member expressions)
 * with constants and combines the comparisons:
 *
 *   expr   := and ( "||" and )*
 *   and    := unary ( "&&" unary )*
 *   unary  := "!" unary | "(" expr ")" | operand OP constant
 *             | constant OP operand
 *   OP     := == != < <= > >= ~
 *
 * An integer is decimal (no leading zero: C would read it as octal) or
 * 0x hex, with an optional minus; a string is
 * in double quotes, with \" \\ \n \t escapes.  Mistakes are said with a
 * caret under the word.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/find/find.h"
#include "trace/find/filter.h"

void where_error(const char *option, const char *spec, int col, int len,
		 const char *fmt, ...)
{
	FILE *out = diag.stream ? diag.stream : stderr;
	struct buf msg = { 0 };
	va_list ap;
	int i;

	va_start(ap, fmt);
	buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	error_input("%s '%s': %s", option, spec, msg.data);
	buf_free(&msg);
	fprintf(out, "  %s\n  ", spec);
	for (i = 1; i < col; i++)
		fputc(spec[i - 1] == '\t' ? '\t' : ' ', out);
	fputc('^', out);
	for (i = 1; i < len; i++)
		fputc('~', out);
	fputc('\n', out);
}

struct parser {
	const char *option, *spec, *p;
	int failed;
	/* The request's comparisons and steps so far, and how deep in
	   parentheses and !s the parser is: each bounded, so that a long
	   request is refused here, with a caret, and no input can take
	   the parser's stack. */
	int comparisons, steps, depth;
};


static void skip_space(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t')
		ps->p++;
}

static int col_of(const struct parser *ps, const char *at)
{
	return (int)(at - ps->spec) + 1;
}

/* Say a mistake at the next token (its length: n, or 1). */
static void fail_at(struct parser *ps, const char *at, int n, const char *what)
{
	if (!ps->failed)
		where_error(ps->option, ps->spec, col_of(ps, at), n > 0 ? n : 1, "%s",
			    what);
	ps->failed = 1;
}

/* A request can compile into no filter with more comparisons or steps
 * than the BPF side holds (trace_abi.h); parentheses add no step, and
 * are bounded on their own. */
#define WHERE_MAX_DEPTH 32

/* Count one more step at `at` (of n bytes), a comparison too when
 * comparison is set: 0, or -1 when the request is too long (said). */
static int count_step(struct parser *ps, const char *at, int n, int comparison)
{
	if (comparison && ++ps->comparisons > TRACE_MAX_CONDS) {
		fail_at(ps, at, n, "too long a filter for the BPF side: at most 8 comparisons a probe");
		return -1;
	}
	if (++ps->steps > TRACE_MAX_FILTER_OPS) {
		fail_at(ps, at, n, "too long a filter for the BPF side: at most 16 steps a probe (each comparison, &&, || and ! is one)");
		return -1;
	}
	return 0;
}

static int is_word(int c)
{
	return isalnum(c) || c == '_';
}

/* An operand at ps->p: NAME, then any of ->NAME and .NAME; its length,
 * or 0. */
static size_t operand_len(const char *p)
{
	const char *s = p;

	if (!(isalpha((unsigned char)*s) || *s == '_'))
		return 0;
	for (;;) {
		while (is_word((unsigned char)*s))
			s++;
		if (s[0] == '-' && s[1] == '>' && is_word((unsigned char)s[2]))
			s += 2;
		else if (s[0] == '.' && is_word((unsigned char)s[1]))
			s += 1;
		else
			return (size_t)(s - p);
	}
}

/* The comparison operator at ps->p (advanced past it), or -1. */
static int read_op(struct parser *ps)
{
	static const struct {
		const char *text;
		int op;
	} ops[] = { { "==", TRACE_EQ }, { "!=", TRACE_NE }, { "<=", TRACE_LE },
		    { ">=", TRACE_GE }, { "<", TRACE_LT },  { ">", TRACE_GT },
		    { "~", WHERE_GLOB } };
	size_t i;

	skip_space(ps);
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strncmp(ps->p, ops[i].text, strlen(ops[i].text)) == 0) {
			ps->p += strlen(ops[i].text);
			return ops[i].op;
		}
	return -1;
}

/* The escape at p (its backslash) as the byte it stands for, into *c:
 * its length, or 0 if it is none.  Every escape --trace prints reads
 * back (escape.c): \" \\ \n \t and \xNN; JSON's \u00NN too, for
 * a filter copied from --json. */
static int read_escape(const char *p, char *c)
{
	const char *h;
	int i, v = 0, digits;

	switch (p[1]) {
	case '"': case '\\': *c = p[1]; return 2;
	case 'n': *c = '\n'; return 2;
	case 't': *c = '\t'; return 2;
	case 'x': digits = 2, h = p + 2; break;
	case 'u':
		if (p[2] != '0' || p[3] != '0')
			return 0;
		digits = 2, h = p + 4;
		break;
	default:
		return 0;
	}
	for (i = 0; i < digits; i++) {
		if (!isxdigit((unsigned char)h[i]))
			return 0;
		v = v * 16 + where_hex_digit(h[i]);
	}
	/* JSON writes \u00NN for a control byte alone: above 0x7f it is
	   a character, not a byte. */
	if (p[1] == 'u' && v > 0x7f)
		return 0;
	*c = (char)v;
	return (int)(h + digits - p);
}

/* A string constant at ps->p (its opening quote) into n: 0, or -1. */
static int read_string(struct parser *ps, struct where_node *n)
{
	const char *start = ps->p++;
	struct buf b = { 0 };

	for (; *ps->p && *ps->p != '"'; ps->p++) {
		char c = *ps->p;

		if (c == '\\') {
			int len = read_escape(ps->p, &c);

			if (!len) {
				buf_free(&b);
				fail_at(ps, ps->p, ps->p[1] ? 2 : 1,
					"not an escape --trace prints (\\\" \\\\ \\n \\t \\xNN)");
				return -1;
			}
			ps->p += len - 1;
		}
		buf_add(&b, &c, 1);
	}
	if (*ps->p != '"') {
		buf_free(&b);
		fail_at(ps, start, (int)(ps->p - start), "a string without its closing quote");
		return -1;
	}
	ps->p++;
	n->is_string = 1;
	n->text = b.data ? b.data : xstrdup("");
	n->text_len = b.len;
	n->const_col = col_of(ps, start);
	n->const_len = (int)(ps->p - start);
	return 0;
}

/* A hex constant at digits ("0x..."): its digits kept in n->text, for
 * bytes (hash == 0x1f1e...00, hash ~ 0x1f1e*).  One longer than 64 bits,
 * or with a star, is bytes alone (read here: 1, ps->failed when bad);
 * else 0, and it is read as a number too. */
static int read_hex(struct parser *ps, struct where_node *n,
		    const char *digits)
{
	const char *h = digits + 2, *e = h;

	while (isxdigit((unsigned char)*e))
		e++;
	if (e == h) {
		fail_at(ps, digits, 2 + (*e == '*'),
			"0x with no hex digits after it (0x1f1e... for bytes, 0x1f1e* for their start, 0x2a for a number)");
		return 1;
	}
	n->is_hex = 1;
	n->text = xstrndup(h, (size_t)(e - h));
	n->text_len = (size_t)(e - h);
	if (e - h <= 16 && *e != '*')
		return 0;
	n->hex_only = 1;
	if (*e == '*') {
		n->hex_prefix = 1;
		e++;
	}
	if (is_word((unsigned char)*e)) {
		fail_at(ps, digits, (int)(e - digits) + 1,
			"not hex bytes (0x and two hex digits a byte, * after a prefix)");
		return 1;
	}
	n->const_col = col_of(ps, digits);
	n->const_len = (int)(e - digits);
	ps->p = e;
	return 1;
}

/* A constant at ps->p into n: 0, or -1 (said). */
static int read_constant(struct parser *ps, struct where_node *n)
{
	const char *start, *digits;
	char *end;

	skip_space(ps);
	start = ps->p;
	if (*ps->p == '"')
		return read_string(ps, n);
	digits = start + (*start == '-');
	if (isalpha((unsigned char)*start) || *start == '_') {
		/* A name of the operand's values (@enum, a DWARF enum),
		   looked up when the filter is compiled for a probe. */
		while (is_word((unsigned char)*ps->p))
			ps->p++;
		n->is_name = 1;
		n->text = xstrndup(start, (size_t)(ps->p - start));
		n->text_len = (size_t)(ps->p - start);
		n->const_col = col_of(ps, start);
		n->const_len = (int)(ps->p - start);
		return 0;
	}
	if (!isdigit((unsigned char)*digits)) {
		fail_at(ps, start, (int)operand_len(start),
			"a number, a \"string\" or a value's name to compare with");
		return -1;
	}
	/* C reads 0143 as octal, 99; a user who writes it may mean 143:
	   neither is guessed. */
	if (digits[0] == '0' && isdigit((unsigned char)digits[1])) {
		fail_at(ps, start, (int)operand_len(start),
			"a leading zero: write a number in decimal without it, or in hex with 0x (octal is not read)");
		return -1;
	}
	n->negative = *start == '-';
	if (!n->negative && digits[0] == '0' &&
	    (digits[1] == 'x' || digits[1] == 'X') && read_hex(ps, n, digits))
		return ps->failed ? -1 : 0;
	errno = 0;
	n->magnitude = strtoull(digits, &end, 0);
	if (is_word((unsigned char)*end) || errno == ERANGE) {
		fail_at(ps, start, (int)(end - start) + 1,
			"not a number a filter holds (decimal or 0x hex, in 64 bits)");
		return -1;
	}
	ps->p = end;
	n->const_col = col_of(ps, start);
	n->const_len = (int)(end - start);
	return 0;
}

static struct where_node *parse_or(struct parser *ps);

/* operand OP constant, or constant OP operand. */
static struct where_node *parse_comparison(struct parser *ps)
{
	struct where_node *n = xcalloc(1, sizeof(*n));
	const char *start = ps->p, *op_at;
	size_t len = operand_len(ps->p);
	int left = len > 0;

	if (left) {
		ps->p += len;
	} else if (*ps->p != '"' && *ps->p != '-' &&
		   !isdigit((unsigned char)*ps->p)) {
		fail_at(ps, ps->p, 1, "an argument's name to compare");
		return free(n->text), free(n), NULL;
	} else if (read_constant(ps, n) != 0)
		return free(n->text), free(n), NULL;
	skip_space(ps);
	op_at = ps->p;
	if ((n->op = read_op(ps)) < 0) {
		fail_at(ps, op_at, 1,
			left ? "a comparison after the argument: == != < <= > >= or ~"
			     : "a comparison after the constant: == != < <= > >= or ~");
		return free(n->text), free(n), NULL;
	}
	if (left && read_constant(ps, n) != 0)
		return free(n->text), free(n), NULL;
	if (!left) {
		n->op = where_flipped(n->op);
		skip_space(ps);
		start = ps->p;
		if (!(len = operand_len(ps->p))) {
			fail_at(ps, start, 1, "an argument's name to compare");
			return free(n->text), free(n), NULL;
		}
		ps->p += len;
	}
	n->kind = WHERE_CMP;
	if (count_step(ps, left ? start : op_at, (int)len, 1) != 0)
		return free(n->text), free(n), NULL;
	n->operand = xstrndup(start, len);
	n->operand_col = col_of(ps, start);
	n->operand_len = (int)len;
	return n;
}

static struct where_node *parse_unary(struct parser *ps)
{
	struct where_node *n;

	skip_space(ps);
	if ((*ps->p == '!' && ps->p[1] != '=') || *ps->p == '(') {
		if (++ps->depth > WHERE_MAX_DEPTH) {
			fail_at(ps, ps->p, 1, "too deep: at most 32 parentheses and !s inside each other");
			return NULL;
		}
	}
	if (*ps->p == '!' && ps->p[1] != '=') {
		if (count_step(ps, ps->p, 1, 0) != 0)
			return NULL;
		n = xcalloc(1, sizeof(*n));
		n->kind = WHERE_NOT;
		n->const_col = col_of(ps, ps->p++);
		n->const_len = 1;
		if (!(n->l = parse_unary(ps)))
			return free(n), NULL;
		ps->depth--;
		return n;
	}
	if (*ps->p == '(') {
		const char *open = ps->p++;

		if (!(n = parse_or(ps)))
			return NULL;
		ps->depth--;
		skip_space(ps);
		if (*ps->p != ')') {
			fail_at(ps, *ps->p ? ps->p : open, 1,
				*ps->p ? "a ) or && or ||" : "this ( is never closed");
			where_node_free(n);
			return NULL;
		}
		ps->p++;
		return n;
	}
	return parse_comparison(ps);
}

/* kind's chain of operands (&&: unary, ||: and) joined left to right. */
static struct where_node *parse_chain(struct parser *ps, enum where_kind kind,
				      const char *token,
				      struct where_node *(*operand)(struct parser *))
{
	struct where_node *l = operand(ps), *n;

	while (l) {
		skip_space(ps);
		if (strncmp(ps->p, token, 2) != 0)
			return l;
		if (count_step(ps, ps->p, 2, 0) != 0) {
			where_node_free(l);
			return NULL;
		}
		n = xcalloc(1, sizeof(*n));
		n->kind = kind;
		n->const_col = col_of(ps, ps->p);
		n->const_len = 2;
		ps->p += 2;
		n->l = l;
		if (!(n->r = operand(ps))) {
			where_node_free(n);
			return NULL;
		}
		l = n;
	}
	return NULL;
}

static struct where_node *parse_and(struct parser *ps)
{
	return parse_chain(ps, WHERE_AND, "&&", parse_unary);
}

static struct where_node *parse_or(struct parser *ps)
{
	return parse_chain(ps, WHERE_OR, "||", parse_and);
}

/* What a count may be, as its errors say it. */
#define COUNT_FORMS \
	"a count: {N} exactly, {N,} at least, {N,M} from N to M, {all} every firing"

/* An --expect's count after its probe, {N}, {N,} or {N,M}, into r
 * (min, max; -1: no most): 0, or -1 (said). */
static int parse_count(struct parser *ps, const char *open, const char *end,
		       struct where_request *r)
{
	char *stop;
	long long n, m;

	if (end - open == 5 && strncmp(open, "{all}", 5) == 0) {
		r->every = 1;
		return 0;
	}
	errno = 0;
	n = strtoll(open + 1, &stop, 10);
	if (stop == open + 1 || n < 0 || (*stop != '}' && *stop != ','))
		goto bad;
	if (errno == ERANGE)
		goto too_large;
	m = n;
	if (*stop == ',') {
		const char *from = stop + 1;

		m = *from == '}' ? -1 : strtoll(from, &stop, 10);
		if (m >= 0 && errno == ERANGE)
			goto too_large;
		if (m >= 0 && (stop == from || m < n || *stop != '}'))
			goto bad;
		if (m < 0)
			stop = (char *)from;
	}
	if (stop + 1 != end)
		goto bad;
	r->min = n;
	r->max = m;
	return 0;
bad:
	fail_at(ps, open, (int)(end - open),
		COUNT_FORMS);
	return -1;
too_large:
	fail_at(ps, open, (int)(end - open),
		"a count larger than a trace can count (at most 9223372036854775807)");
	return -1;
}

int where_parse_as(const char *option, const char *spec,
		   struct where_request *r)
{
	int expect = strcmp(option, "--expect") == 0;
	const char *colon = strchr(spec, ':'),
		   *second = colon ? strchr(colon + 1, ':') : NULL,
		   *end = second ? second : spec + strlen(spec), *open;
	struct parser ps = { option, spec, NULL, 0, 0, 0, 0 };

	memset(r, 0, sizeof(*r));
	r->spec = spec;
	r->option = option;
	r->min = 1;
	r->max = -1;
	if (!colon || colon == spec || end == colon + 1 ||
	    (!expect && !second)) {
		where_error(option, spec, 1, (int)strlen(spec),
			    expect ? "--expect takes PROVIDER:PROBE[{COUNT}][: EXPR] (globs in PROVIDER and PROBE)"
				   : "--where takes PROVIDER:PROBE: EXPR (globs in PROVIDER and PROBE)");
		return -1;
	}
	open = expect && end[-1] == '}' ? memchr(colon, '{', (size_t)(end - colon))
				       : NULL;
	if (open && parse_count(&ps, open, end, r) != 0)
		return -1;
	r->probes = xstrndup(spec, (size_t)((open ? open : end) - spec));
	/* No probe's name holds a brace: one here is a count gone wrong
	   (an unclosed {, or text after its }). */
	if (strpbrk(r->probes, "{}")) {
		const char *brace = spec + strcspn(spec, "{}");

		fail_at(&ps, brace, (int)(end - brace),
			expect ? COUNT_FORMS ", just before ':' or the end"
			       : "a brace in a probe's name: a count is --expect's");
		free(r->probes);
		r->probes = NULL;
		return -1;
	}
	if (expect && !second)
		return 0; /* every firing passes */
	ps.p = second + 1;
	skip_space(&ps);
	if (!*ps.p)
		fail_at(&ps, ps.p - 1, 1, "an expression after the probe");
	else
		r->root = parse_or(&ps);
	if (r->root) {
		skip_space(&ps);
		if (*ps.p) {
			fail_at(&ps, ps.p, (int)strlen(ps.p),
				"&&, || or the end of the expression");
			where_node_free(r->root);
			r->root = NULL;
		}
	}
	if (r->root)
		return 0;
	free(r->probes); /* a failure leaves nothing */
	r->probes = NULL;
	return -1;
}

int where_parse(const char *spec, struct where_request *r)
{
	return where_parse_as("--where", spec, r);
}

void where_node_free(struct where_node *n)
{
	if (!n)
		return;
	where_node_free(n->l);
	where_node_free(n->r);
	free(n->operand);
	free(n->text);
	free(n);
}

void where_free(struct where_request *r)
{
	where_node_free(r->root);
	free(r->probes);
	free(r->left_out_why);
	buf_free(&r->left_out);
}
