/*
 * diag.c - diagnostics in GCC's form:
 *
 *   file:line:col: error: message
 *    line text
 *        ^
 *
 * Source text is looked up by file name and read from disk the first time
 * a message needs it (the main input, or a file named by a cpp line
 * marker); an input that cannot be read twice (a pipe) is registered by
 * the caller.
 */
#include <stdlib.h>
#include <string.h>

#include "probegen.h"

struct diag diag;

struct source {
	struct source *next;
	char *name;
	const char *text; /* NULL when the file could not be read */
	size_t len;
	int loaded, owned; /* owned: read here, freed here */
	/* Where the last quoted line starts: messages come mostly in
	 * order, so the next search starts here, not at line 1. */
	const char *mark;
	int mark_line;
};

/* Set when a message was left out: the notes under it go too. */
static int notes_left_out;

static struct source *sources;

static FILE *diag_stream(void)
{
	return diag.stream ? diag.stream : stderr;
}

static struct source *source_find(const char *name)
{
	struct source *s;

	for (s = sources; s; s = s->next)
		if (strcmp(s->name, name) == 0)
			return s;
	s = xcalloc(1, sizeof(*s));
	s->name = xstrdup(name);
	s->next = sources;
	sources = s;
	return s;
}

const char *diag_intern(const char *file)
{
	return source_find(file)->name;
}

void diag_add_source(const char *file, const char *text, size_t len)
{
	struct source *s = source_find(file);

	/* A copy: the scanner writes NULs into its text while it runs. */
	if (s->owned)
		free((char *)s->text);
	s->text = xstrndup(text, len);
	s->len = len;
	s->loaded = 1;
	s->owned = 1;
	s->mark = NULL;
}

static void source_load(struct source *s)
{
	FILE *f;
	struct buf b = { 0 };
	char chunk[4096];
	size_t n;

	s->loaded = 1;
	f = fopen(s->name, "rb");
	if (!f)
		return;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0 &&
	       b.len < (1u << 26))
		buf_add(&b, chunk, n);
	fclose(f);
	s->text = b.data ? b.data : xstrdup("");
	s->len = b.len;
	s->owned = 1;
}

/* Print the source line and a caret under column col. */
static void show_line(struct loc loc)
{
	FILE *out = diag_stream();
	struct source *s;
	const char *p, *end, *lim;
	int line, i;

	if (!loc.file || loc.line <= 0)
		return;
	s = source_find(loc.file);
	if (!s->loaded)
		source_load(s);
	if (!s->text)
		return;
	p = s->text;
	line = 1;
	if (s->mark && s->mark_line <= loc.line) {
		p = s->mark;
		line = s->mark_line;
	}
	lim = s->text + s->len;
	for (; line < loc.line && p < lim; p++)
		if (*p == '\n')
			line++;
	if (line != loc.line || p >= lim)
		return;
	s->mark = p;
	s->mark_line = line;
	for (end = p; end < lim && *end != '\n' && *end != '\r'; end++)
		;
	if (end - p > 500)
		return; /* a caret under a huge line helps nobody */
	fputc(' ', out);
	for (i = 0; p + i < end; i++)
		fputc(p[i] == '\0' ? ' ' : p[i], out);
	fputs("\n ", out);
	/* Keep tabs so the caret lines up whatever the tab width. */
	for (i = 0; i < loc.col - 1 && p + i < end; i++)
		fputc(p[i] == '\t' ? '\t' : ' ', out);
	fputs("^\n", out);
}

static void print_diagnostic(struct loc loc, const char *kind, const char *fmt,
			     va_list ap)
{
	FILE *out = diag_stream();

	if (loc.file)
		fprintf(out, "%s:%d:%d: %s: ", loc.file, loc.line, loc.col,
			kind);
	else
		fprintf(out, "%s: %s: ", PROGRAM_NAME, kind);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
	show_line(loc);
}

/* Past this many errors or warnings, count but stay quiet: a binary
 * file fed in by mistake, or a generated file with a slip repeated in
 * every probe, should not print a million lines. */
#define MAX_REPORTED 50

/* Count one message of a kind; 0 when it is one too many to print. */
static int reported(int *count, const char *kind)
{
	notes_left_out = ++*count > MAX_REPORTED;
	if (*count == MAX_REPORTED + 1)
		fprintf(diag_stream(),
			"%s: too many %s; the rest are not shown\n",
			PROGRAM_NAME, kind);
	return !notes_left_out;
}

void verror_at(struct loc loc, const char *fmt, va_list ap)
{
	if (reported(&diag.errors, "errors"))
		print_diagnostic(loc, "error", fmt, ap);
}

void error_at(struct loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_at(loc, fmt, ap);
	va_end(ap);
}

/* -w: warnings unsaid (their notes too); -Werror: each an error. */
static int warning_shown(void)
{
	if (diag.warnings_are_errors)
		return reported(&diag.errors, "errors");
	if (diag.no_warnings) {
		notes_left_out = 1;
		return 0;
	}
	return reported(&diag.warnings, "warnings");
}

void vwarning_at(struct loc loc, const char *fmt, va_list ap)
{
	if (warning_shown())
		print_diagnostic(loc,
				 diag.warnings_are_errors ? "error" : "warning",
				 fmt, ap);
}

void warning_at(struct loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarning_at(loc, fmt, ap);
	va_end(ap);
}

void vnote_at(struct loc loc, const char *fmt, va_list ap)
{
	if (!notes_left_out)
		print_diagnostic(loc, "note", fmt, ap);
}

void note_at(struct loc loc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote_at(loc, fmt, ap);
	va_end(ap);
}

void info_plain(const char *fmt, ...)
{
	va_list ap;
	FILE *out = diag_stream();

	fprintf(out, "%s: ", PROGRAM_NAME);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}

void warning_plain(const char *fmt, ...)
{
	va_list ap;
	struct loc none = { 0 };

	if (diag.no_warnings && !diag.warnings_are_errors)
		return;
	if (diag.warnings_are_errors)
		diag.errors++;
	va_start(ap, fmt);
	print_diagnostic(none, diag.warnings_are_errors ? "error" : "warning",
			 fmt, ap);
	va_end(ap);
}

void error_plain(const char *fmt, ...)
{
	va_list ap;
	struct loc none = { 0 };

	va_start(ap, fmt);
	print_diagnostic(none, "error", fmt, ap);
	va_end(ap);
}

void error_input(const char *fmt, ...)
{
	va_list ap;
	struct loc none = { 0 };

	diag.errors++;
	va_start(ap, fmt);
	print_diagnostic(none, "error", fmt, ap);
	va_end(ap);
}

void usage_error(const char *fmt, ...)
{
	va_list ap;
	struct loc none = { 0 };

	va_start(ap, fmt);
	print_diagnostic(none, "error", fmt, ap);
	va_end(ap);
	fprintf(diag_stream(), "Try '%s --help' for more information.\n",
		PROGRAM_NAME);
}

void diag_free(void)
{
	struct source *s, *next;

	for (s = sources; s; s = next) {
		next = s->next;
		free(s->name);
		if (s->owned)
			free((char *)s->text);
		free(s);
	}
	sources = NULL;
}

int failure_status(int errors_before)
{
	return diag.errors > errors_before ? EXIT_INPUT : EXIT_SYSTEM;
}
