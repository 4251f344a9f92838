/*
 * compiler/meanings.c - what each argument of a probe means beyond its
 * type, decided here once for every consumer (reading.h):
 *   - a pointer with its length: said by `@length ARG LENARG`,
 *     `@length ARG N [reversed]` or `@length ARG none` in the probe's doc
 *     comment, else inferred when a later integer argument is named
 *     X_len, X_length, X_size or Xlen for a pointer X (a bare len, length
 *     or size is not enough: real providers pass sizes of other things);
 *   - the names of an integer's values: `@enum ARG NAME=VALUE...`;
 *   - a socket address: a pointer to struct sockaddr, sockaddr_in,
 *     sockaddr_in6, sockaddr_un or sockaddr_storage;
 *   - a function: `@function ARG` for a callback passed as a plain
 *     pointer (a function pointer's type says so itself: type.c);
 *   - key=value text: `@fields ARG` for a string of fields as
 *     probegen-tracing writes a span's or an event's.
 * A tag is a line of the doc comment that starts with @length, @enum,
 * @function or @fields; other @ words stay documentation.  Each tag is a
 * row of `tags`: its reader, what it makes of an argument's read, how
 * the declaration note says it back, and what --docs says of it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "naming.h"

static const struct param *param_at(const struct probe *pr, int i)
{
	const struct param *p = pr->native;

	while (p && i-- > 0)
		p = p->next;
	return p;
}

/* A pointer a length can measure: a C string or any other pointer. */
static int is_pointer(const struct program *prog, const struct type *t)
{
	return type_is_string(t) || type_resolve(prog, t)->kind == T_POINTER;
}

/* An integer, or a type of the user's headers the note will size. */
static int is_integer(const struct program *prog, const struct type *t)
{
	struct arg_read r = type_arg_read(prog, t, target_host());

	return arg_kind_of(&r)->integer;
}

static int is_sockaddr(const struct program *prog, const struct type *t)
{
	static const char *const names[] = { "sockaddr", "sockaddr_in",
					     "sockaddr_in6", "sockaddr_un",
					     "sockaddr_storage" };
	size_t i;

	t = type_resolve(prog, t);
	if (t->kind != T_POINTER)
		return 0;
	t = type_resolve(prog, t->inner);
	for (i = 0; t->kind == T_STRUCT && t->name && i < ARRAY_SIZE(names);
	     i++)
		if (strcmp(t->name, names[i]) == 0)
			return 1;
	return 0;
}

/* ---- the tags ---- */

struct tag_reader {
	struct program *prog;
	struct probe *pr;
	int quiet, errors;
	const char *line; /* the tag's line (its decoration taken off) */
	struct loc loc;	  /* where that line starts */
};

static void tag_error(struct tag_reader *r, const char *at, const char *fmt,
		      ...) __attribute__((format(printf, 3, 4)));
static void tag_error(struct tag_reader *r, const char *at, const char *fmt,
		      ...)
{
	struct loc loc = r->loc;
	va_list ap;

	r->errors++;
	if (r->quiet)
		return;
	loc.col += (int)(at - r->line);
	va_start(ap, fmt);
	verror_at(loc, fmt, ap);
	va_end(ap);
}

/* The next word of a tag's line: *len bytes at the return, or NULL. */
static const char *word(const char **p, const char *end, size_t *len)
{
	const char *w = *p;

	while (w < end && (*w == ' ' || *w == '\t'))
		w++;
	if (w == end)
		return NULL;
	*p = w;
	while (*p < end && **p != ' ' && **p != '\t')
		(*p)++;
	*len = (size_t)(*p - w);
	return w;
}

/* The argument a tag names, or -1 after saying so. */
static int tag_arg(struct tag_reader *r, const char *tag, const char *w,
		   size_t n)
{
	int i = w ? probe_param_index(r->pr, w, n) : -1;

	if (!w)
		tag_error(r, r->line, "'%s' needs an argument's name", tag);
	else if (i < 0)
		tag_error(r, w,
			  "'%s' names '%.*s', which is no argument of probe '%s'",
			  tag, (int)n, w, r->pr->name);
	return i;
}

/* A tag's number: decimal or 0x hex, with an optional minus.  A
 * leading zero is refused (C reads 010 as octal, 8: who writes it may
 * mean ten).  0 when the whole word is not one. */
static int number(const char *w, size_t n, long long *v)
{
	char buf[32], *end;
	const char *digits = w + (n && *w == '-');

	if (n == 0 || n >= sizeof(buf) ||
	    !(isdigit((unsigned char)*w) || *w == '-') ||
	    (digits + 1 < w + n && digits[0] == '0' &&
	     isdigit((unsigned char)digits[1])))
		return 0;
	memcpy(buf, w, n);
	buf[n] = '\0';
	errno = 0;
	*v = strtoll(buf, &end, 0);
	return *end == '\0' && errno == 0;
}

/* @length ARG LENARG | @length ARG N [reversed] | @length ARG none */
static void tag_length(struct tag_reader *r, const char *p, const char *end)
{
	static const char form[] =
		"'@length' takes ARG LENARG, ARG N [reversed] or ARG none";
	struct arg_meaning *m;
	const char *w, *v, *rev;
	size_t n, vn, rn;
	long long fixed;
	int i, l;

	w = word(&p, end, &n);
	if ((i = tag_arg(r, "@length", w, n)) < 0)
		return;
	m = &r->pr->meanings[i];
	if (m->length_said)
		return tag_error(r, w, "'@length' said twice of '%.*s'", (int)n,
				 w);
	if (!(v = word(&p, end, &vn)))
		return tag_error(r, r->line, "%s", form);
	rev = word(&p, end, &rn);
	if (vn == 4 && strncmp(v, "none", 4) == 0 && !rev) {
		m->no_length = m->length_said = 1;
		return;
	}
	if (!is_pointer(r->prog, param_at(r->pr, i)->type))
		return tag_error(r, w, "'@length': '%.*s' is not a pointer",
				 (int)n, w);
	if (number(v, vn, &fixed)) {
		if (fixed < 1 || fixed > 0x7fffffff)
			return tag_error(
				r, v,
				"'@length': %.*s bytes is not a length (1 to 2147483647)",
				(int)vn, v);
		if (rev && !(rn == 8 && strncmp(rev, "reversed", 8) == 0))
			return tag_error(r, rev, "%s", form);
		m->length = (unsigned)fixed;
		m->reversed = rev != NULL;
	} else {
		if (isdigit((unsigned char)*v) || *v == '-')
			return tag_error(
				r, v,
				"'@length': %.*s is not a length (1 to 2147483647, in decimal or 0x hex, no leading zero)",
				(int)vn, v);
		if (rev)
			return tag_error(r, rev, "%s", form);
		if ((l = tag_arg(r, "@length", v, vn)) < 0)
			return;
		if (l == i || !is_integer(r->prog, param_at(r->pr, l)->type))
			return tag_error(
				r, v,
				"'@length': the length '%.*s' is not an integer argument",
				(int)vn, v);
		m->length_arg = l;
	}
	if (word(&p, end, &n))
		return tag_error(r, p - n, "%s", form);
	m->length_said = 1;
}

/* Is value e of argument i's @enum wrong: a name or a value given
 * before it (the tracer would show only one of the two), or a value the
 * argument's type cannot hold (never shown)?  Said at the word w. */
static int enum_value_bad(struct tag_reader *r, int i,
			  const struct arg_meaning *m,
			  const struct enum_value *e, const char *w,
			  const char *eq)
{
	struct arg_read t =
		type_arg_read(r->prog, param_at(r->pr, i)->type, target_host());
	const struct enum_value *before;
	int bits = t.size * 8;

	for (before = m->values; before < e; before++) {
		if (strcmp(before->name, e->name) == 0) {
			tag_error(r, w, "'@enum': the name '%s' is given twice",
				  e->name);
			return 1;
		}
		if (before->value == e->value) {
			tag_error(r, eq + 1,
				  "'@enum': the value %lld is given twice (%s and %s)",
				  e->value, before->name, e->name);
			return 1;
		}
	}
	if (t.kind != ARG_INTEGER || bits < 1 || bits >= 64)
		return 0; /* sized by the note, or any 64-bit value */
	if (t.is_signed ? e->value < -(1ll << (bits - 1)) ||
				  e->value >= 1ll << (bits - 1)
			: e->value < 0 || e->value >= 1ll << bits) {
		tag_error(r, eq + 1,
			  "'@enum': %lld is outside '%s' (%d bits, %s)",
			  e->value, param_at(r->pr, i)->name, bits,
			  t.is_signed ? "signed" : "unsigned");
		return 1;
	}
	return 0;
}

/* @enum ARG NAME=VALUE... */
static void tag_enum(struct tag_reader *r, const char *p, const char *end)
{
	struct arg_meaning *m;
	struct enum_value *e;
	const char *w, *eq, *q;
	size_t n;
	int i;

	w = word(&p, end, &n);
	if ((i = tag_arg(r, "@enum", w, n)) < 0)
		return;
	m = &r->pr->meanings[i];
	if (m->values)
		return tag_error(r, w, "'@enum' said twice of '%.*s'", (int)n,
				 w);
	if (!is_integer(r->prog, param_at(r->pr, i)->type))
		return tag_error(r, w, "'@enum': '%.*s' is not an integer",
				 (int)n, w);
	/* Counted first: the names live in the program's arena. */
	for (q = p; word(&q, end, &n);)
		m->nvalues++;
	m->values = arena_alloc(&r->prog->arena,
				(size_t)(m->nvalues + 1) * sizeof(*m->values));
	for (e = m->values; (w = word(&p, end, &n)); e++) {
		size_t k;

		eq = memchr(w, '=', n);
		for (k = 0; eq && k < (size_t)(eq - w); k++)
			if (!(isalnum((unsigned char)w[k]) || w[k] == '_') ||
			    (k == 0 && isdigit((unsigned char)w[k])))
				eq = NULL;
		if (!eq || eq == w) {
			m->nvalues = 0;
			m->values = NULL;
			return tag_error(
				r, w,
				"'@enum' takes ARG NAME=VALUE..., not '%.*s'",
				(int)n, w);
		}
		if (!number(eq + 1, (size_t)(w + n - eq - 1), &e->value)) {
			m->nvalues = 0;
			m->values = NULL;
			return tag_error(r, eq + 1,
					 "'@enum': '%.*s' is not a number (decimal, or hex with 0x; no leading zero)",
					 (int)(w + n - eq - 1), eq + 1);
		}
		e->name = arena_strndup(&r->prog->arena, w, (size_t)(eq - w));
		if (enum_value_bad(r, i, m, e, w, eq)) {
			m->nvalues = 0;
			m->values = NULL;
			return;
		}
	}
	if (!m->nvalues)
		tag_error(r, r->line, "'@enum' takes ARG NAME=VALUE...");
}

/* ---- each tag's row ---- */

/* The rows of tags[], by their order. */
enum tag_id { TAG_LENGTH, TAG_FUNCTION, TAG_FIELDS, TAG_ENUM, TAG_COUNT };
/* Was tag k, a tag of one argument alone, said of m? */
#define SAID(m, k) ((m)->said_alone >> (k) & 1u)
/* The tags, one row each: its word, its reader (of the words after it,
 * into the probe's meanings), what it makes of an argument's read, how
 * the declaration note says it back (in this order: the note's bytes),
 * and what --docs says of it where its kind's row (arg_read.c) does
 * not.  A read's kind is decided by the last row that decides it. */
struct tag {
	const char *word;
	void (*read)(struct tag_reader *r, const char *p, const char *end);
	void (*apply)(struct arg_read *r, const struct arg_meaning *m,
		      const struct type *t);
	void (*say)(struct buf *b, const struct probe *pr, int i);
	void (*describe)(struct buf *b, const struct arg_read *r);
	/* A tag of one argument alone (@TAG ARG), which has no read or
	   say of its own (tag_alone reads it, tag_alone_say says it): why
	   argument i cannot take it (after its name: "is not a
	   pointer"), or NULL. */
	const char *(*fits)(const struct tag_reader *r, int i);
};
static const struct tag tags[TAG_COUNT];

/* @TAG ARG, a tag of one argument alone (@function, @fields): the
 * argument, which the row's fits accepts, marked in its said_alone. */
static void tag_alone(struct tag_reader *r, const struct tag *tag,
		      const char *p, const char *end)
{
	const char *word_ = tag->word;
	unsigned k = (unsigned)(tag - tags);
	size_t n = 0;
	const char *w = word(&p, end, &n), *more, *why;
	int i;

	if ((i = tag_arg(r, word_, w, n)) < 0)
		return;
	if (SAID(&r->pr->meanings[i], k))
		return tag_error(r, w, "'%s' said twice of '%.*s'", word_,
				 (int)n, w);
	if ((why = tag->fits(r, i)))
		return tag_error(r, w, "'%s': '%.*s' %s", word_, (int)n, w, why);
	if ((more = word(&p, end, &n)))
		return tag_error(r, more, "'%s' takes one argument", word_);
	r->pr->meanings[i].said_alone |= 1u << k;
}

/* @function ARG: a pointer to code (a callback passed as void *). */
static const char *function_fits(const struct tag_reader *r, int i)
{
	const struct type *t = param_at(r->pr, i)->type;

	return !is_pointer(r->prog, t) || type_is_string(t) ? "is not a pointer"
							     : NULL;
}

/* @fields ARG: a string of key=value fields. */
static const char *fields_fits(const struct tag_reader *r, int i)
{
	return !type_is_string(param_at(r->pr, i)->type) ||
			       r->pr->meanings[i].length_said
		       ? "is not a string (a char pointer without a length)"
		       : NULL;
}

/* A read with no length: a tag that decides the kind otherwise. */
static void no_length(struct arg_read *r)
{
	r->length_from = LENGTH_NONE;
	r->length_arg = -1;
	r->length = 0;
	r->reversed = 0;
}

/* A pointer with its length, said or inferred: char, signed char or
 * D's string as text, unsigned char and the rest as bytes. */
static void length_apply(struct arg_read *r, const struct arg_meaning *m,
			 const struct type *t)
{
	if (m->no_length || (m->length_arg < 0 && !m->length))
		return;
	r->kind = type_char_kind(t) == CHARS_TEXT && !m->reversed ? ARG_TEXT
								  : ARG_BYTES;
	if (m->length_arg >= 0)
		r->length_from = LENGTH_ARG, r->length_arg = m->length_arg;
	else
		r->length_from = LENGTH_FIXED, r->length = m->length;
	r->reversed = m->reversed;
}

static void function_apply(struct arg_read *r, const struct arg_meaning *m,
			   const struct type *t)
{
	(void)t;
	if (!SAID(m, TAG_FUNCTION))
		return;
	r->kind = ARG_CODE;
	no_length(r);
}

static void fields_apply(struct arg_read *r, const struct arg_meaning *m,
			 const struct type *t)
{
	if (!SAID(m, TAG_FIELDS))
		return;
	r->kind = type_is_string(t) ? ARG_STRING : r->kind;
	r->key_values = r->kind == ARG_STRING;
	no_length(r);
}

static void enum_apply(struct arg_read *r, const struct arg_meaning *m,
		       const struct type *t)
{
	(void)t;
	r->values = m->values;
	r->nvalues = m->nvalues;
}

/* "@TAG NAME" on a line of its own into b: the argument by its name,
 * or argN when it has none (tags read it back so: probe_param_index). */
static void tag_line(struct buf *b, const char *tag, const struct probe *pr,
		     int i)
{
	buf_cat(b, b->len ? "\n" : "", tag, " ", NULL);
	arg_display_name(b, pr, i);
}

/* A tag of one argument alone: its line, when it was said of argument
 * i. */
static void tag_alone_say(struct buf *b, const struct tag *tag,
			  const struct probe *pr, int i)
{
	if (SAID(&pr->meanings[i], (unsigned)(tag - tags)))
		tag_line(b, tag->word, pr, i);
}

static void length_say(struct buf *b, const struct probe *pr, int i)
{
	const struct arg_meaning *m = &pr->meanings[i];

	if (!m->length_said)
		return;
	tag_line(b, "@length", pr, i);
	if (m->no_length) {
		buf_lit(b, " none");
	} else if (m->length_arg >= 0) {
		buf_lit(b, " ");
		arg_display_name(b, pr, m->length_arg);
	} else {
		buf_printf(b, " %u%s", m->length, m->reversed ? " reversed" : "");
	}
}

static void enum_say(struct buf *b, const struct probe *pr, int i)
{
	const struct arg_meaning *m = &pr->meanings[i];
	int k;

	if (!m->nvalues)
		return;
	tag_line(b, "@enum", pr, i);
	for (k = 0; k < m->nvalues; k++)
		buf_printf(b, " %s=%lld", m->values[k].name, m->values[k].value);
}

static void fields_describe(struct buf *b, const struct arg_read *r)
{
	if (r->key_values)
		buf_lit(b, "key=value fields, an object of them in JSON");
}

static void enum_describe(struct buf *b, const struct arg_read *r)
{
	int k;

	for (k = 0; k < r->nvalues; k++)
		buf_printf(b, "%s%s=%lld", k ? ", " : "named values ",
			   r->values[k].name, r->values[k].value);
}

static const struct tag tags[TAG_COUNT] = {
	[TAG_LENGTH] = { "@length", tag_length, length_apply, length_say },
	[TAG_FUNCTION] = { "@function", .apply = function_apply,
			   .fits = function_fits },
	[TAG_FIELDS] = { "@fields", .apply = fields_apply,
			 .describe = fields_describe, .fits = fields_fits },
	[TAG_ENUM] = { "@enum", tag_enum, enum_apply, enum_say, enum_describe },
};
static const size_t ntags = TAG_COUNT;

const char *meaning_tag_word(size_t k)
{
	return k < ntags ? tags[k].word : NULL;
}

/* The tag line starts with, or NULL. */
static const struct tag *tag_of(const char *line, size_t len)
{
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(tags); i++) {
		n = strlen(tags[i].word);
		if (len >= n && strncmp(line, tags[i].word, n) == 0 &&
		    (len == n || line[n] == ' ' || line[n] == '\t'))
			return &tags[i];
	}
	return NULL;
}

int meaning_tag_line(const char *line, size_t len)
{
	return tag_of(line, len) != NULL;
}

/* Prose rarely names an argument right after the word ("a mention of
 * @length" stays prose). */
const char *meaning_tag_after_text(const struct probe *pr, const char *p,
				   const char *end)
{
	const char *at, *w;
	size_t n;

	for (at = p; at < end; at++) {
		if (*at != '@' || at == p || !(at[-1] == ' ' || at[-1] == '\t') ||
		    !meaning_tag_line(at, (size_t)(end - at)))
			continue;
		w = at + strlen(tag_of(at, (size_t)(end - at))->word);
		if ((w = word(&w, end, &n)) && probe_param_index(pr, w, n) >= 0)
			return at;
	}
	return end;
}

/* Each line of pr's doc comment that is a tag.  The columns of a line
 * after the first are counted from the line's start in a block comment,
 * from the first line's comment start in a run of // lines. */
static void read_tags(struct tag_reader *r)
{
	const char *line = r->pr->doc;
	int k = 0;

	while (*line) {
		const char *end = line + strcspn(line, "\n"), *p = line;

		while (p < end &&
		       (*p == ' ' || *p == '\t' || *p == '*' || *p == '/'))
			p++;
		if (!meaning_tag_line(p, (size_t)(end - p)))
			p = meaning_tag_after_text(r->pr, p, end);
		if (meaning_tag_line(p, (size_t)(end - p))) {
			r->line = p;
			r->loc = r->pr->doc_loc;
			r->loc.line += k;
			r->loc.col =
				(k && !r->pr->doc_in_lines ? 1 : r->loc.col) +
				(int)(p - line);
			const struct tag *tag = tag_of(p, (size_t)(end - p));

			if (tag->fits)
				tag_alone(r, tag, p + strlen(tag->word), end);
			else
				tag->read(r, p + strlen(tag->word), end);
		}
		line = *end ? end + 1 : end;
		k++;
	}
}

/* ---- inferred from the names and types ---- */

int names_length_of(const char *x, const char *name)
{
	static const char *const suffixes[] = { "_len", "_length", "_size",
						"len" };
	size_t n = strlen(x), i;

	if (strncmp(name, x, n) != 0)
		return 0;
	for (i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (strcmp(name + n, suffixes[i]) == 0)
			return 1;
	return 0;
}

static void infer(struct program *prog, struct probe *pr)
{
	const struct param *p, *q;
	int i = 0, j;

	for_each_param(pr->native, p) {
		struct arg_meaning *m = &pr->meanings[i];

		m->sockaddr = is_sockaddr(prog, p->type);
		if (!m->length_said && !m->sockaddr && p->name &&
		    is_pointer(prog, p->type))
			for (q = p->next, j = i + 1; q; q = q->next, j++)
				if (q->name &&
				    names_length_of(p->name, q->name) &&
				    is_integer(prog, q->type)) {
					m->length_arg = j;
					break;
				}
		i++;
	}
}

void meanings_assign(struct program *prog, int quiet)
{
	struct provider *pv;
	struct probe *pr;
	int i;

	for_each_provider(prog, pv)
		for_each_probe(pv, pr) {
			struct tag_reader r = {
				prog, pr, quiet, 0, NULL, { 0 }
			};

			pr->meanings =
				arena_alloc(&prog->arena,
					    (size_t)(pr->nnative + 1) *
						    sizeof(*pr->meanings));
			for (i = 0; i < pr->nnative; i++)
				pr->meanings[i].length_arg = -1;
			if (pr->doc)
				read_tags(&r);
			infer(prog, pr);
		}
}

/* ---- what the consumers read ---- */

struct arg_read decl_arg_read(const struct program *prog,
			      const struct probe *pr, int i,
			      const struct target *tg)
{
	const struct param *p = param_at(pr, i);
	struct arg_read r = type_arg_read(prog, p->type, tg);
	const struct arg_meaning *m = pr->meanings ? &pr->meanings[i] : NULL;
	size_t k;

	if (m && m->sockaddr) /* by its type, whatever a tag says */
		r.kind = ARG_SOCKADDR;
	else
		for (k = 0; m && k < ntags; k++)
			tags[k].apply(&r, m, p->type);
	return r;
}

void meanings_tags(struct buf *b, const struct probe *pr)
{
	size_t k;
	int i;

	for (i = 0; pr->meanings && i < pr->nnative; i++)
		for (k = 0; k < ntags; k++)
			if (tags[k].fits)
				tag_alone_say(b, &tags[k], pr, i);
			else
				tags[k].say(b, pr, i);
}

int meaning_text(struct buf *b, const struct program *prog,
		 const struct probe *pr, int i)
{
	struct arg_read r = decl_arg_read(prog, pr, i, target_host());
	const struct arg_meaning *m = &pr->meanings[i];
	const char *meaning = arg_kind_of(&r)->meaning;
	const char *length = meaning ? strstr(meaning, "%s") : NULL;
	size_t before = b->len, k;

	if (length) {
		/* A counted kind's: its length, an argument or bytes. */
		buf_add(b, meaning, (size_t)(length - meaning));
		if (r.length_from == LENGTH_ARG)
			arg_display_name(b, pr, r.length_arg);
		else
			buf_printf(b, "%u", r.length);
		buf_puts(b, length + 2);
		buf_puts(b, r.reversed ? ", last byte first" : "");
	} else if (meaning) {
		buf_puts(b, meaning);
	}
	for (k = 0; k < ntags; k++)
		if (tags[k].describe)
			tags[k].describe(b, &r);
	if (b->len == before)
		return 0;
	if (m->sockaddr || (r.kind == ARG_CODE && !SAID(m, TAG_FUNCTION)))
		buf_lit(b, " (by its type)");
	else if (r.length_from == LENGTH_ARG && !m->length_said)
		buf_lit(b, " (by its name)");
	else
		buf_lit(b, " (said)");
	return 1;
}

void meanings_describe(struct buf *b, const struct program *prog,
		       const struct probe *pr, const char *prefix)
{
	struct buf text = { 0 };
	int i;

	for (i = 0; pr->meanings && i < pr->nnative; i++) {
		text.len = 0;
		if (!meaning_text(&text, prog, pr, i))
			continue;
		buf_cat(b, prefix, "`", NULL);
		arg_display_name(b, pr, i);
		buf_cat(b, "`: ", text.data, "\n", NULL);
	}
	buf_free(&text);
}
