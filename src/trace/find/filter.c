/*
 * src/trace/find/filter.c - --where compiled for each probe its glob matches:
 * each comparison resolved on the probe's arguments (by name, or a
 * member expression laid out as --show's) and checked against their
 * types, then the whole written in postfix for the BPF side
 * (trace_abi.h's struct trace_filter).  A probe whose arguments lack a
 * name the filter uses, or have another type, is left out and said; a
 * request left out of every probe it matches is an error.  Several
 * requests that match one probe must all hold.
 */
#include <arpa/inet.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "trace/find/find.h"
#include "trace/find/filter.h"

struct compiling {
	struct trace_filter *f;
	struct traced *t;
	struct where_request *r;
	int at_start;
	/* Set when the probe is left out: why, and where in the request. */
	struct buf why;
	int why_col, why_len;
};

/* The probe left out: why, at the node's operand. */
static int left_out(struct compiling *c, const struct where_node *n)
{
	c->why_col = n->operand_col;
	c->why_len = n->operand_len;
	return 1;
}

/* The index (in t's arguments and shows) of n's operand into *idx: 0;
 * 1 when t has no such argument (left out); -1 when a member of it
 * cannot be laid out (said). */
static int operand_index(struct compiling *c, const struct where_node *n,
			 int *idx)
{
	size_t base = strcspn(n->operand, "-.");
	int a;

	if ((a = probe_arg_index(c->t, n->operand, base)) < 0) {
		buf_printf(&c->why, "%s has no argument '%.*s' (its arguments:",
			   c->t->label_text, (int)base, n->operand);
		for (a = 0; a < c->t->nargs; a++)
			buf_cat(&c->why, a ? ", " : " ", c->t->arg_names[a],
				NULL);
		buf_puts(&c->why, c->t->nargs ? ")" : " none)");
		return left_out(c, n);
	}
	*idx = n->operand[base] ? probe_member(c->t, n->operand,
					       strlen(n->operand), c->at_start)
				: a;
	return *idx < 0 ? -1 : 0;
}

/* An error in the request, at the node's constant. */
static int constant_error(struct compiling *c, const struct where_node *n,
			  const char *what)
{
	if (c->at_start)
		where_error(c->r->option, c->r->spec, n->const_col, n->const_len, "%s", what);
	else
		warning_plain("--where '%s': %s: %s", c->r->spec,
			      c->t->label_text, what);
	return -1;
}

/* The probe left out: n's operand is not of the kind its constant is. */
static int wrong_kind(struct compiling *c, const struct where_node *n,
		      const struct arg_read *r)
{
	buf_printf(&c->why, "%s's '%s' is %s", c->t->label_text, n->operand,
		   arg_kind_of(r)->compares);
	return left_out(c, n);
}

/* A string comparison into cond: 0, 1 (left out), or -1 (said). */
static int string_cond(struct compiling *c, const struct where_node *n,
		       int idx, struct trace_cond *cond)
{
	const struct arg_read *r = &c->t->read[idx];

	if (arg_kind_of(r)->compare == COMPARE_FIELD) {
		/* fields.KEY: the argument's text, searched in the kernel
		   for the key's value (bpf/fields.h). */
		if (strlen(r->field) >= TRACE_FIELD_LEN)
			return constant_error(c, n, "a field's name holds at most 31 bytes");
		strcpy(cond->field, r->field);
		idx = r->arg;
		cond->arg = (unsigned)idx;
		r = &c->t->read[idx];
	}
	/* A --show member's text is read with its length: not compared. */
	if (arg_kind_of(r)->compare != COMPARE_STRING ||
	    (arg_kind_of(r)->counted && idx >= TRACE_MAX_ARGS))
		return wrong_kind(c, n, r);
	if (n->op != TRACE_EQ && n->op != TRACE_NE && n->op != WHERE_GLOB)
		return constant_error(c, n, "a string compares with ==, != or ~");
	if (n->text_len >= TRACE_PATTERN_LEN || memchr(n->text, 0, n->text_len))
		return constant_error(c, n, "a string to compare holds at most 63 bytes, none of them NUL");
	cond->kind = r->kind;
	cond->op = n->op == WHERE_GLOB ? TRACE_MATCH : (unsigned)n->op;
	cond->length_from = r->length_from;
	cond->length_arg = r->length_from == LENGTH_ARG ? r->length_arg : -1;
	cond->length = r->length_from == LENGTH_FIXED ? r->length : 0;
	memcpy(cond->pattern, n->text, n->text_len);
	cond->pattern_len = (unsigned)n->text_len;
	return 0;
}

/* A comparison of bytes (an argument with its length) with 0x hex, as
 * --trace prints them (last byte first when reversed), into cond: 0, 1
 * (left out), or -1 (said). */
static int bytes_cond(struct compiling *c, const struct where_node *n,
		      int idx, struct trace_cond *cond)
{
	const struct arg_read *r = &c->t->read[idx];
	size_t k, nbytes = n->text_len / 2;
	int prefix = n->op == WHERE_GLOB;

	if (idx >= TRACE_MAX_ARGS)
		return wrong_kind(c, n, r);
	if (prefix != n->hex_prefix ||
	    (n->op != TRACE_EQ && n->op != TRACE_NE && !prefix))
		return constant_error(c, n, "bytes compare with == or != 0xHEX, or ~ 0xHEX* (bytes that start so)");
	if (n->text_len % 2)
		return constant_error(c, n, "an odd number of hex digits: a byte is two");
	if (!nbytes || nbytes >= TRACE_PATTERN_LEN)
		return constant_error(c, n, "bytes to compare are 1 to 63 (2 to 126 hex digits)");
	for (k = 0; k < nbytes; k++)
		cond->pattern[r->reversed ? nbytes - 1 - k : k] =
			(char)(where_hex_digit(n->text[2 * k]) << 4 |
			       where_hex_digit(n->text[2 * k + 1]));
	cond->pattern_len = (unsigned)nbytes;
	cond->kind = ARG_BYTES;
	/* What --trace prints first is, reversed, the bytes' end. */
	cond->op = !prefix ? (unsigned)n->op
		   : r->reversed ? TRACE_SUFFIX
				 : TRACE_PREFIX;
	cond->length_from = r->length_from;
	cond->length_arg = r->length_from == LENGTH_ARG ? r->length_arg : -1;
	cond->length = r->length_from == LENGTH_FIXED ? r->length : 0;
	return 0;
}

/* The value named n->text among r's names into *v: 0, or -1 (said). */
static int named_value(struct compiling *c, const struct where_node *n,
		       const struct arg_read *r, long long *v)
{
	struct buf msg = { 0 };
	int k, rc;

	for (k = 0; k < r->nvalues; k++)
		if (strcmp(r->values[k].name, n->text) == 0) {
			*v = r->values[k].value;
			return 0;
		}
	if (!r->nvalues)
		buf_printf(&msg, "'%s' has no named values (@enum): compare it with a number",
			   n->operand);
	else
		buf_printf(&msg, "no value of '%s' is named so (", n->operand);
	for (k = 0; k < r->nvalues && k < 16; k++)
		buf_printf(&msg, "%s%s", k ? ", " : "", r->values[k].name);
	if (r->nvalues)
		buf_puts(&msg, r->nvalues > 16 ? ", ...)" : ")");
	rc = constant_error(c, n, msg.data);
	buf_free(&msg);
	return rc;
}

/* An integer comparison into cond: 0, 1 (left out), or -1 (said). */
static int integer_cond(struct compiling *c, const struct where_node *n,
			int idx, struct trace_cond *cond)
{
	const struct arg_read *r = &c->t->read[idx];
	int bits, is_signed = r->is_signed && arg_kind_of(r)->integer;
	unsigned long long max, magnitude = n->magnitude;
	int negative = n->negative;
	struct buf msg = { 0 };
	long long named = 0;
	int rc;

	if (arg_kind_of(r)->compare != COMPARE_NUMBER)
		return wrong_kind(c, n, r);
	if (n->op == WHERE_GLOB)
		return constant_error(c, n, "~ matches strings: compare a number with == != < <= > >=");
	if (n->hex_only)
		return constant_error(c, n, "not a number a filter holds (decimal or 0x hex, in 64 bits)");
	if (n->is_name) {
		if ((rc = named_value(c, n, r, &named)) != 0)
			return rc;
		negative = named < 0;
		magnitude = negative ? 0 - (unsigned long long)named
				     : (unsigned long long)named;
	}
	bits = r->size >= 1 && r->size < 8 ? 8 * r->size : 64;
	max = bits == 64 ? ~0ull : (1ull << bits) - 1;
	if (is_signed)
		max >>= 1;
	if ((negative && (!is_signed || magnitude > max + 1)) ||
	    (!negative && magnitude > max)) {
		buf_printf(&msg, "out of the range of '%s' (%d bits, %s)",
			   n->operand, bits, is_signed ? "signed" : "unsigned");
		rc = constant_error(c, n, msg.data);
		buf_free(&msg);
		return rc;
	}
	cond->kind = r->kind;
	cond->is_signed = (unsigned)is_signed;
	cond->op = (unsigned)n->op;
	cond->size = (unsigned)(bits / 8);
	cond->value = negative ? 0 - magnitude : magnitude;
	return 0;
}

#define TOO_LONG "too long a filter for the BPF side: at most 8 comparisons and 16 steps a probe"

/* Append step op to c's filter, at n: 0, or -1 when the filter is
 * full (said).  Every step goes through here: a check made only when a
 * node is entered let a "!" after its operand's last step write past
 * the steps. */
static int append_step(struct compiling *c, const struct where_node *n,
		       unsigned char op)
{
	if (c->f->nops >= TRACE_MAX_FILTER_OPS)
		return constant_error(c, n, TOO_LONG);
	c->f->ops[c->f->nops++] = op;
	return 0;
}

/* How a socket address is written, in a message. */
#define SOCKADDR_FORMS \
	"a socket address compares with \"127.0.0.1:8080\", \"[::1]:8080\", " \
	"\"/path\" or \"@name\" as --trace prints it; ~ with any port " \
	"(\"127.0.0.1:*\"), any address (\"*:8080\") or a path's start (\"/run/*\")"

/* A socket address's bytes at offset compared with bytes (len of them),
 * as one comparison of c's (a pointer with a fixed length there). */
struct sockaddr_piece {
	unsigned offset, len;
	unsigned char bytes[TRACE_PATTERN_LEN];
};

static void piece_family(struct sockaddr_piece *p, unsigned short family)
{
	p->offset = 0;
	p->len = sizeof(family);
	memcpy(p->bytes, &family, sizeof(family)); /* as the program's */
}

/* The port in s (to its end), in network order into *port: 0, or -1. */
static int parse_port(const char *s, unsigned short *port)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -1;
	v = strtoul(s, &end, 10);
	if (*end || v > 65535)
		return -1;
	*port = htons((unsigned short)v);
	return 0;
}

/* Text (as --trace prints a socket address, '*' for any port or
 * address, or a path's rest with ~) into pieces, all of which must
 * hold; *either_family: pieces 0 and 1 are families, one of which must.
 * The number of pieces, or 0 when text is no such form. */
static int sockaddr_pieces(const char *text, int glob,
			   struct sockaddr_piece p[3], int *either_family)
{
	size_t len = strlen(text);
	const char *colon = strrchr(text, ':');
	unsigned short port = 0;
	unsigned char addr[16];
	char host[INET6_ADDRSTRLEN + 2];
	int any_port, star = strchr(text, '*') != NULL;

	*either_family = 0;
	memset(p, 0, 3 * sizeof(*p));
	if (star && !glob)
		return 0;
	if (text[0] == '/' || text[0] == '@') {
		/* sun_path: the path and its NUL, or (abstract) a NUL and
		   the name; with ~ "...*", its start. */
		int prefix = star && text[len - 1] == '*';

		if ((star && (!prefix || strchr(text, '*') != text + len - 1)) ||
		    2 + len + !prefix > TRACE_PATTERN_LEN - 1)
			return 0;
		piece_family(&p[0], AF_UNIX);
		memcpy(p[0].bytes + 2, text, len - (size_t)prefix);
		if (text[0] == '@')
			p[0].bytes[2] = '\0';
		p[0].len = (unsigned)(2 + len - (size_t)prefix + !prefix);
		return 1;
	}
	if (!colon || (size_t)(colon - text) >= sizeof(host))
		return 0;
	any_port = strcmp(colon + 1, "*") == 0;
	if (!any_port && parse_port(colon + 1, &port) != 0)
		return 0;
	memcpy(host, text, (size_t)(colon - text));
	host[colon - text] = '\0';
	if (strcmp(host, "*") == 0) {
		if (any_port)
			return 0;
		/* Any address, of either family: the port at 2 in both. */
		piece_family(&p[0], AF_INET);
		piece_family(&p[1], AF_INET6);
		p[2].offset = 2, p[2].len = 2;
		memcpy(p[2].bytes, &port, 2);
		*either_family = 1;
		return 3;
	}
	if (strchr(host, '*'))
		return 0;
	if (inet_pton(AF_INET, host, addr) == 1) {
		/* sockaddr_in: family, port, address. */
		piece_family(&p[0], AF_INET);
		if (any_port) {
			p[1].offset = 4, p[1].len = 4;
			memcpy(p[1].bytes, addr, 4);
			return 2;
		}
		memcpy(p[0].bytes + 2, &port, 2);
		memcpy(p[0].bytes + 4, addr, 4);
		p[0].len = 8;
		return 1;
	}
	if (host[0] != '[' || host[strlen(host) - 1] != ']')
		return 0;
	host[strlen(host) - 1] = '\0';
	if (inet_pton(AF_INET6, host + 1, addr) != 1)
		return 0;
	/* sockaddr_in6: family, port, flow information, address. */
	piece_family(&p[0], AF_INET6);
	if (!any_port) {
		memcpy(p[0].bytes + 2, &port, 2);
		p[0].len = 4;
	}
	p[1].offset = 8, p[1].len = 16;
	memcpy(p[1].bytes, addr, 16);
	return 2;
}

/* A socket address compared with its printed form, as the comparisons
 * of its pieces and the steps that join them: 0, 1 (left out), or -1
 * (said).  != is each piece's != with AND and OR swapped, not NOT of
 * ==: an address that cannot be read passes neither, as for the rest. */
static int sockaddr_conds(struct compiling *c, const struct where_node *n,
			  int idx)
{
	const struct arg_read *r = &c->t->read[idx];
	struct sockaddr_piece p[3];
	int k, npieces, either, rc, ne = n->op == TRACE_NE;
	unsigned char and = ne ? TRACE_FILTER_OR : TRACE_FILTER_AND,
		      or = ne ? TRACE_FILTER_AND : TRACE_FILTER_OR;

	if (idx >= TRACE_MAX_ARGS || !n->is_string)
		return wrong_kind(c, n, r);
	if (n->op != TRACE_EQ && n->op != TRACE_NE && n->op != WHERE_GLOB)
		return constant_error(c, n, SOCKADDR_FORMS);
	npieces = sockaddr_pieces(n->text, n->op == WHERE_GLOB, p, &either);
	if (!npieces || memchr(n->text, 0, n->text_len))
		return constant_error(c, n, SOCKADDR_FORMS);
	if (c->f->nconds + (unsigned)npieces > TRACE_MAX_CONDS)
		return constant_error(c, n, TOO_LONG);
	for (k = 0; k < npieces; k++) {
		struct trace_cond *cond = &c->f->conds[c->f->nconds];

		memset(cond, 0, sizeof(*cond));
		cond->arg = (unsigned)idx;
		cond->kind = ARG_BYTES;
		cond->op = ne ? TRACE_NE : TRACE_EQ;
		cond->length_from = LENGTH_FIXED;
		cond->length = p[k].len;
		cond->offset = p[k].offset;
		cond->length_arg = -1;
		memcpy(cond->pattern, p[k].bytes, p[k].len);
		cond->pattern_len = p[k].len;
		if ((rc = append_step(c, n, (unsigned char)c->f->nconds)) != 0)
			return rc;
		c->f->nconds++;
		if (k && (rc = append_step(c, n, either && k == 1 ? or : and)) != 0)
			return rc;
	}
	return 0;
}

static int compile_comparison(struct compiling *c, const struct where_node *n)
{
	struct trace_filter *f = c->f;
	struct trace_cond *cond;
	struct where_node swapped;
	enum arg_compare compare;
	int idx = -1, rc;

	/* A constant may come first: a value's name first (PERIODIC ==
	   mode) reads as a word on each side, and the probe says which
	   is its argument. */
	if (n->is_name &&
	    probe_arg_index(c->t, n->operand, strcspn(n->operand, "-.")) < 0 &&
	    probe_arg_index(c->t, n->text, n->text_len) >= 0) {
		swapped = *n;
		swapped.operand = n->text;
		swapped.operand_col = n->const_col;
		swapped.operand_len = n->const_len;
		swapped.text = n->operand;
		swapped.text_len = strlen(n->operand);
		swapped.const_col = n->operand_col;
		swapped.const_len = n->operand_len;
		swapped.op = where_flipped(n->op);
		n = &swapped;
	}
	if ((rc = operand_index(c, n, &idx)) != 0)
		return rc;
	compare = arg_kind_of(&c->t->read[idx])->compare;
	if (compare == COMPARE_SOCKADDR)
		return sockaddr_conds(c, n, idx);
	if (f->nconds >= TRACE_MAX_CONDS)
		return constant_error(c, n, TOO_LONG);
	cond = &f->conds[f->nconds];
	memset(cond, 0, sizeof(*cond));
	cond->arg = (unsigned)idx;
	rc = n->is_string ? string_cond(c, n, idx, cond)
	     : n->is_hex && compare == COMPARE_BYTES
		     ? bytes_cond(c, n, idx, cond)
		     : integer_cond(c, n, idx, cond);
	if (rc == 0 && (rc = append_step(c, n, (unsigned char)f->nconds)) == 0)
		f->nconds++;
	return rc;
}

/* n in postfix into c's filter: 0, 1 (left out), or -1 (said). */
static int compile_node(struct compiling *c, const struct where_node *n)
{
	int rc;

	if (n->kind == WHERE_CMP)
		return compile_comparison(c, n);
	if ((rc = compile_node(c, n->l)) != 0 ||
	    (n->r && (rc = compile_node(c, n->r)) != 0))
		return rc;
	return append_step(c, n,
			   n->kind == WHERE_AND	  ? TRACE_FILTER_AND
			   : n->kind == WHERE_OR ? TRACE_FILTER_OR
						 : TRACE_FILTER_NOT);
}

/* Request r into filter f for probe t (and with what f holds). */
/* A request for the probes a glob names (w:*), not for one. */
static int has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* The first probe r left out, and where in r: kept for the error that
 * r can judge none of those it matches (filters_check, expects_check). */
static void keep_first_left_out(struct where_request *r,
				const struct compiling *c)
{
	if (r->left_out_why)
		return;
	r->left_out_why = xstrdup(c->why.data);
	r->left_out_col = c->why_col;
	r->left_out_len = c->why_len;
}

static int compile_request(struct tracer *tr, struct traced *t,
			   struct where_request *r, struct trace_filter *f,
			   int at_start)
{
	struct compiling c = { f, t, r, at_start, { 0 }, 0, 0 };
	struct trace_filter before = *f;
	int rc = compile_node(&c, r->root);

	(void)tr;
	if (rc == 0 && before.nops)
		rc = append_step(&c, r->root, TRACE_FILTER_AND);
	if (rc != 0)
		*f = before;
	if (rc == 1 && !at_start)
		info_plain("--where '%s': %s left out%s: %s", r->spec,
			   t->label_text,
			   has_glob(r->probes) ? " (not traced)" : "", c.why.data);
	if (rc == 1 && at_start)
		buf_cat(&r->left_out, "\n  ", c.why.data, NULL);
	if (rc == 1)
		keep_first_left_out(r, &c);
	buf_free(&c.why);
	return rc;
}

int filter_compile(struct traced *t, struct where_request *r,
		   struct trace_filter *f, char **why)
{
	struct compiling c = { f, t, r, 1, { 0 }, 0, 0 };
	int rc;

	memset(f, 0, sizeof(*f));
	rc = compile_node(&c, r->root);
	*why = rc == 1 ? c.why.data : NULL;
	if (rc == 1)
		keep_first_left_out(r, &c);
	if (rc != 1)
		buf_free(&c.why);
	return rc;
}

struct wheres *filters_parse(struct tracer *tr)
{
	const struct trace_plan *plan = &tr->plan;
	struct wheres *w = xcalloc(1, sizeof(*w));
	int i;

	w->all = xcalloc((size_t)plan->request->where_requests.n + 1, sizeof(*w->all));
	for (i = 0; i < plan->request->where_requests.n; i++) {
		if (where_parse(plan->request->where_requests.items[i], &w->all[i]) != 0) {
			filters_free(w);
			return NULL;
		}
		w->n++;
	}
	return w;
}

/* Compile the requests that match probe t into t->filter (NULL when
 * none does): 0, or -1 when one cannot be (said: an error at the
 * start, else a warning and the probe unfiltered). */
/* Whether an -n pattern names t apart: its label, with no glob. */
static int named_apart(const struct tracer *tr, const struct traced *t)
{
	int i;

	for (i = 0; i < tr->plan.request->filters.n; i++)
		if (strcmp(tr->plan.request->filters.items[i], t->label) == 0)
			return 1;
	return 0;
}

/* Probe t's filter, of every request that matches it: 0, 1 when t is
 * not to be traced (a glob's request cannot judge it, and nothing
 * names it apart), or -1 (said). */
static int filter_probe(struct tracer *tr, struct traced *t, int at_start)
{
	const struct wheres *w = feature_state(tr, FEATURE_WHERE);
	struct trace_filter f = { 0 };
	struct buf text = { 0 };
	int i, rc, unjudged = 0;

	for (i = 0; i < w->n; i++) {
		struct where_request *r = &w->all[i];
		const char *expr = strchr(strchr(r->spec, ':') + 1, ':') + 1;

		if (fnmatch(r->probes, t->label, 0) != 0)
			continue;
		rc = compile_request(tr, t, r, &f, at_start);
		if (rc < 0) {
			buf_free(&text);
			return at_start ? -1 : 0;
		}
		if (rc > 0) {
			unjudged |= has_glob(r->probes);
			continue;
		}
		r->compiled++;
		expr += strspn(expr, " \t");
		buf_cat(&text, text.len ? " && " : "", expr, NULL);
	}
	/* A glob's filter that cannot judge a probe does not let all its
	   firings through: the probe is not traced, unless a filter of its
	   own or -n names it apart. */
	if (!f.nops)
		return unjudged && !named_apart(tr, t) ? 1 : 0;
	if (tr->nfiltered == TRACE_MAX_FILTERS) {
		warning_plain("%s is not filtered: at most %d probes are",
			      t->label_text, TRACE_MAX_FILTERS);
		buf_free(&text);
		return 0;
	}
	t->filter = xmalloc(sizeof(f));
	*t->filter = f;
	t->filter_text = text.data;
	t->filter_index = tr->nfiltered++;
	if (!tr->received)
		tr->received = xcalloc(TRACE_MAX_PROBES, sizeof(*tr->received));
	return 0;
}

int filters_add(struct tracer *tr, int from, int at_start)
{
	int i, rc;

	for (i = from; i < tr->nprobes;) {
		rc = filter_probe(tr, &tr->probes[i], at_start);
		if (rc < 0)
			return -1;
		if (rc > 0)
			probes_remove(tr, i); /* its successors move down */
		else
			i++;
	}
	return 0;
}

int filters_check(struct tracer *tr)
{
	const struct wheres *w = feature_state(tr, FEATURE_WHERE);
	int i;

	for (i = 0; i < w->n; i++) {
		struct where_request *r = &w->all[i];

		if (r->compiled && r->left_out.len)
			info_plain("--where '%s' leaves out the probes it matches "
				   "that lack its arguments, or have other types; "
				   "they are not traced, unless -n or a --where of "
				   "their own names them:%s",
				   r->spec, r->left_out.data);
		if (r->compiled)
			continue;
		if (r->left_out_why)
			where_error(r->option, r->spec, r->left_out_col, r->left_out_len,
				    "it leaves out every probe it matches: %s",
				    r->left_out_why);
		else
			where_error(r->option, r->spec, 1, (int)strlen(r->probes),
				    "no probe traced matches %s", r->probes);
		return -1;
	}
	return 0;
}

void filters_report(const struct tracer *tr, const unsigned long long *rejected)
{
	int i;

	for (i = 0; i < tr->nprobes; i++) {
		const struct traced *t = &tr->probes[i];

		if (!t->filter)
			continue;
		unsigned long long n = rejected ? rejected[i] : 0;

		info_plain("%s where %s: %llu firing%s rejected in the kernel, "
			   "%llu event%s reached probegen",
			   t->label_text, t->filter_text, n, n == 1 ? "" : "s",
			   tr->received[i], tr->received[i] == 1 ? "" : "s");
	}
}

void filters_free(struct wheres *w)
{
	int i;

	if (!w)
		return;
	for (i = 0; i < w->n; i++)
		where_free(&w->all[i]);
	free(w->all);
	free(w);
}
