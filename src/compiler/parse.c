/*
 * compiler/parse.c - run the scanner and parser over one text, and handle the
 * '#' lines the scanner hands over: cpp line markers and '#line' move
 * the position; '#pragma D' and '#pragma ident' are accepted; other
 * directives need -C and are reported.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "parser.h"
#include "lexer.h"

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* `# 12 "file" 1 3` or `#line 12 "file"`: the next line is line 12. */
static void line_marker(struct parse_state *ps, const char *p, struct loc loc)
{
	char *end;
	long n = strtol(p, &end, 10);
	struct buf name = { 0 };

	if (end == p || n < 0 || n > 100000000) {
		parse_error(ps, loc, "invalid line marker");
		return;
	}
	p = skip_space(end);
	if (*p == '"') {
		for (p++; *p && *p != '"'; p++) {
			if (*p == '\\' && p[1])
				p++;
			buf_add(&name, p, 1);
		}
		if (*p != '"') {
			parse_error(ps, loc, "invalid line marker");
			buf_free(&name);
			return;
		}
		ps->file = diag_intern(name.data ? name.data : "");
		buf_free(&name);
		/* Flags follow: 3 marks a system header. */
		for (p++; *p; p++)
			if (*p == '3' && (p[-1] == ' ' || p[-1] == '\t') &&
			    (!p[1] || p[1] == ' ' || p[1] == '\t' ||
			     p[1] == '\n'))
				break;
		ps->system_header = *p == '3';
	}
	/* The scanner has not yet consumed the newline ending this line. */
	ps->line = (int)n - 1;
}

static int word_is(const char *p, const char *word)
{
	size_t n = strlen(word);

	return strncmp(p, word, n) == 0 &&
	       !(isalnum((unsigned char)p[n]) || p[n] == '_');
}

/* The next blank-separated word of p, in the tree's arena. */
static char *pragma_word(struct parse_state *ps, const char **p)
{
	size_t n = strcspn(*p, " \t\r\n");
	char *w = n ? arena_strndup(&ps->prog->arena, *p, n) : NULL;

	*p = skip_space(*p + n);
	return w;
}

/* "NAME/DATA/CLASS provider P WHAT": kept for --docs.  Other forms
 * (attributes of a module or function) say nothing about probes. */
static void stability_pragma(struct parse_state *ps, const char *p)
{
	struct stability *st, **tail;
	char *attrs = pragma_word(ps, &p), *kind = pragma_word(ps, &p);
	char *provider = pragma_word(ps, &p), *what = pragma_word(ps, &p);

	if (!attrs || !kind || strcmp(kind, "provider") != 0 || !provider ||
	    !what)
		return;
	st = arena_alloc(&ps->prog->arena, sizeof(*st));
	st->provider = provider;
	st->what = what;
	st->attributes = attrs;
	for (tail = &ps->prog->stabilities; *tail; tail = &(*tail)->next)
		;
	*tail = st;
}

static void pragma(struct parse_state *ps, const char *p, struct loc loc)
{
	static const char *const d_pragmas[] = {
		"attributes", "binding", "depends_on", "error",
		"ext",	      "line",	 "option",
	};
	size_t i;

	if (!word_is(p, "D"))
		return; /* ident, once, GCC ...: nothing for us */
	p = skip_space(p + 1);
	if (word_is(p, "attributes")) {
		stability_pragma(ps, skip_space(p + 10));
		return;
	}
	for (i = 0; i < sizeof(d_pragmas) / sizeof(d_pragmas[0]); i++)
		if (word_is(p, d_pragmas[i]))
			return;
	parse_warning(ps, loc, "ignoring unknown '#pragma D %.*s'",
		      (int)strcspn(p, " \t\r"), p);
}

/* A C preprocessor line, ignored without -C as SystemTap ignores it.
 * Only what changes the output is said (ast.c): a #define'd name used as
 * a type, a declaration inside an #if block.  An #include, a #define no
 * probe uses, #undef, #error and the rest change nothing written. */
static void ignored_directive(struct parse_state *ps, const char *p,
			      struct loc loc)
{
	/* A #define inside an #if block may be for another system (the X
	 * server's __APPLE__ block): only an unconditional one is named. */
	if (word_is(p, "define") && !ps->if_depth) {
		const char *name = skip_space(p + 6);
		size_t n = strspn(
			name,
			"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
		struct loc *at;

		if (!n)
			return;
		if (!ps->macros.slots)
			name_set_init(&ps->macros, 16);
		at = arena_alloc(&ps->prog->arena, sizeof(*at));
		*at = loc;
		name_set_add(&ps->macros,
			     arena_strndup(&ps->prog->arena, name, n), n, at);
	} else if (word_is(p, "if") || word_is(p, "ifdef") ||
		   word_is(p, "ifndef")) {
		if (!ps->if_depth++) {
			ps->if_loc = loc;
			ps->if_warned = 0;
		}
	} else if (word_is(p, "endif") && ps->if_depth > 0) {
		ps->if_depth--;
	}
}

void parse_directive(struct parse_state *ps, const char *text, struct loc loc)
{
	const char *p = skip_space(text);

	loc.col += (int)(p - text);
	p = skip_space(p + 1); /* past '#' */
	if (isdigit((unsigned char)*p)) {
		line_marker(ps, p, loc);
	} else if (word_is(p, "line")) {
		line_marker(ps, skip_space(p + 4), loc);
	} else if (word_is(p, "pragma")) {
		pragma(ps, skip_space(p + 6), loc);
	} else if (!ps->preprocessed) {
		ignored_directive(ps, p, loc);
	}
	/* Anything else after '#' is a comment line, as DTrace files use. */
}

/* A directive on the text's first line, which the scanner only knows
 * after a newline: handle it, and scan from the newline on. */
static void first_line_directive(struct parse_state *ps, char **text,
				 size_t *len)
{
	const char *p = skip_space(*text); /* the text ends in NULs */
	char *end = *text + *len, *eol, saved;
	struct loc loc = { ps->file, 1, 1 };

	if (*p != '#')
		return;
	eol = memchr(p, '\n', (size_t)(end - p));
	if (!eol)
		eol = end; /* already followed by a NUL */
	saved = *eol;
	*eol = '\0';
	parse_directive(ps, *text, loc);
	*eol = saved;
	ps->col += (int)(eol - *text);
	*len -= (size_t)(eol - *text);
	*text = eol;
}

void comment_seen(struct parse_state *ps, const char *text, size_t len,
		  int is_line)
{
	if (is_line && ps->comment_is_line && ps->comment.len &&
	    ps->comment_line == ps->line - 1) {
		buf_lit(&ps->comment, "\n");
	} else {
		ps->comment.len = 0;
		/* A line comment's text ends at the column scanned to. */
		ps->comment_loc = is_line ? (struct loc){ ps->file, ps->line,
							  ps->col - (int)len }
					  : ps->comment_start;
		if (!is_line)
			ps->comment_loc.col += 2;
	}
	buf_add(&ps->comment, text, len);
	ps->comment_line = ps->line;
	ps->comment_is_line = is_line;
}

void parse_error(struct parse_state *ps, struct loc loc, const char *fmt, ...)
{
	va_list ap;

	ps->errors++;
	if (ps->quiet)
		return;
	va_start(ap, fmt);
	verror_at(loc, fmt, ap);
	va_end(ap);
}

void parse_warning(struct parse_state *ps, struct loc loc, const char *fmt, ...)
{
	va_list ap;

	if (ps->quiet)
		return;
	va_start(ap, fmt);
	vwarning_at(loc, fmt, ap);
	va_end(ap);
}

void parse_note(struct parse_state *ps, struct loc loc, const char *fmt, ...)
{
	va_list ap;

	if (ps->quiet)
		return;
	va_start(ap, fmt);
	vnote_at(loc, fmt, ap);
	va_end(ap);
}

/* Follow the top-level item (a provider, a declaration, a clause) the
 * token belongs to: parse_syntax_error() judges its errors by it. */
static void track_item(struct parse_state *ps, int token,
		       const union YYSTYPE *lval, const struct loc *lloc)
{
	if (!ps->item_first && token != ';') {
		ps->item_first = token;
		ps->item_loc = *lloc;
		ps->item_head = token == IDENT ? lval->str : NULL;
		ps->item_ident = NULL;
		ps->item_depth = 0;
		ps->item_said = 0;
		ps->skipping = NULL;
	}
	if (token == IDENT)
		ps->item_ident = lval->str;
	else if (token == '{')
		ps->item_depth++;
	else if (token == '}' && ps->item_depth > 0 && --ps->item_depth == 0 &&
		 ps->item_first == PROVIDER)
		ps->item_first = 0;
	else if (token == ';' && ps->item_depth == 0 && ps->item_first) {
		if (ps->skipping) {
			ps->skipping->name = ps->item_ident;
			ps->skipping->ended = 1;
		}
		ps->item_first = 0;
	}
}

/* Tokens that start a C declaration (a typedef, a tag, a function or a
 * variable from a header). */
static int starts_declaration(int token)
{
	return token == TYPEDEF || token == STRUCT || token == UNION ||
	       token == ENUM || token == STORAGE || token == QUAL ||
	       token == BUILTIN;
}

int parse_syntax_error(struct parse_state *ps, struct loc loc, const char *what)
{
	struct skipped_decl *d;

	if (ps->start_token || !ps->item_first)
		return 0;
	if (ps->item_said)
		return 1;
	if (ps->item_first == IDENT && ps->item_head &&
	    likely_typo(ps->item_head, "provider")) {
		parse_error(ps, ps->item_loc,
			    "unknown keyword '%s' (did you mean 'provider'?)",
			    ps->item_head);
		ps->item_said = 1;
		return 1;
	}
	if (!starts_declaration(ps->item_first) || !ps->skipped_tail)
		return 0;
	d = arena_alloc(&ps->prog->arena, sizeof(*d));
	d->why = arena_strndup(&ps->prog->arena, what, strlen(what));
	d->loc = loc;
	d->system = ps->system_header;
	*ps->skipped_tail = d;
	ps->skipped_tail = &d->next;
	ps->skipping = d;
	ps->item_said = 1;
	return 1;
}

int lex_token(union YYSTYPE *lval, struct loc *lloc, void *scanner,
	      struct parse_state *ps)
{
	int token;

	if (ps->start_token) {
		token = ps->start_token;
		ps->start_token = 0;
		*lloc = (struct loc){ ps->file, ps->line, ps->col };
		return token;
	}
	token = (yylex)(lval, lloc, scanner);
	track_item(ps, token, lval, lloc);

	/* A comment ending on the line above the probe, or on its line. */
	if (token == PROBE && ps->comment.len &&
	    (ps->comment_line == lloc->line - 1 ||
	     ps->comment_line == lloc->line))
	{
		ps->probe_doc = arena_strndup(&ps->prog->arena,
					      ps->comment.data,
					      ps->comment.len);
		ps->probe_doc_loc = ps->comment_loc;
		ps->probe_doc_in_lines = ps->comment_is_line;
	}
	ps->comment.len = 0;
	return token;
}

/* Scan and parse text (len bytes and two NULs) with ps set up. */
static void run_parser(struct parse_state *ps, const char *file, char *text,
		       size_t len)
{
	yyscan_t scanner;
	YY_BUFFER_STATE buffer;

	if (yylex_init_extra(ps, &scanner))
		die("cannot initialise the scanner");
	if (len > (size_t)INT32_MAX - 2)
		die("%s is too large to scan", file);
	buffer = yy_scan_buffer(text, len + 2, scanner);
	if (!buffer)
		die("cannot set up the scanner's buffer");
	/* 2: bison's stack is exhausted (absurd nesting); yyerror has
	   reported it at the spot, so it counts as an input error. */
	yyparse(scanner, ps);
	yy_delete_buffer(buffer, scanner);
	yylex_destroy(scanner);
	buf_free(&ps->comment);
	name_set_free(&ps->providers);
	name_set_free(&ps->macros);
}

struct program *parse_text(struct program *into, const char *file, char *text,
			   size_t len, const struct parse_options *opt)
{
	struct parse_state ps = { 0 };

	ps.file = diag_intern(file);
	ps.line = 1;
	ps.col = 1;
	ps.preprocessed = opt && opt->preprocessed;
	ps.types_unused = opt && opt->types_unused;
	ps.prog = into;
	if (!into)
		ps.prog = xcalloc(1, sizeof(*ps.prog));
	for (ps.skipped_tail = &ps.prog->skipped; *ps.skipped_tail;
	     ps.skipped_tail = &(*ps.skipped_tail)->next)
		;
	/* A later file's declarations go after the earlier ones'. */
	name_set_init(&ps.providers, (size_t)ps.prog->nproviders);
	for (ps.provider_tail = &ps.prog->providers; *ps.provider_tail;
	     ps.provider_tail = &(*ps.provider_tail)->next)
		name_set_add(&ps.providers, (*ps.provider_tail)->name,
			     strlen((*ps.provider_tail)->name),
			     *ps.provider_tail);
	for (ps.typedef_tail = &ps.prog->typedefs; *ps.typedef_tail;
	     ps.typedef_tail = &(*ps.typedef_tail)->next)
		;

	/* A UTF-8 byte order mark is not part of the program. */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;
		len -= 3;
	}
	first_line_directive(&ps, &text, &len);
	run_parser(&ps, file, text, len);
	return ps.prog;
}

const struct probe *parse_params(struct program *prog, char *text, size_t len)
{
	struct parse_state ps = { 0 };

	ps.file = "(parameters)";
	ps.line = 1;
	ps.col = 1;
	ps.prog = prog;
	ps.quiet = 1;
	ps.start_token = START_PARAMS;
	/* No provider_tail or typedef_tail: the grammar reads a parameter
	   list alone, which declares neither. */
	run_parser(&ps, ps.file, text, len);
	return ps.errors ? NULL : ps.params;
}
