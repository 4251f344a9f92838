/*
 * help.c - the text of --help: the synopsis of each mode, then every
 * option of option_table.c, as the man pages (man/probegen*.1) describe
 * them at length.
 */
#include <stdio.h>
#include <string.h>

#include "options.h"

/* One word of a synopsis, wrapped under the mode's first word at 79
 * columns; *col is where the line stands. */
static void synopsis_word(FILE *f, const char *word, size_t *col)
{
	enum { INDENT = 24 };

	if (*col + 1 + strlen(word) > 79) {
		fprintf(f, "\n%*s", INDENT, "");
		*col = INDENT;
	} else {
		fputc(' ', f);
		(*col)++;
	}
	fputs(word, f);
	*col += strlen(word);
}

/* --trace's lines, made from the table's rows of its options (every one
 * there, in the table's order: none can be left out, as one was), then
 * what every mode takes and its operands. */
static void trace_synopsis(FILE *f)
{
	static const char *const tail[] = { "[--json]", "[-o FILE]",
					    "[-s FILE.d]...", "[BINARY...]",
					    "[-c 'CMD ARGS' | -- CMD ARGS]" };
	char word[128];
	size_t i, col;

	col = (size_t)fprintf(f, "       probegen --trace");
	for (i = 0; i < noption_rows; i++) {
		const struct option_row *r = &option_rows[i];

		if (!(r->group & (O_TRACE | O_SUMMARY)) ||
		    r->action == ACT_COMMAND || strcmp(r->name, "-c") == 0)
			continue;
		snprintf(word, sizeof(word), "[%s%s%s]%s", r->name,
			 r->value ? " " : "", r->value ? r->value : "",
			 r->action == ACT_LIST ? "..." : "");
		synopsis_word(f, word, &col);
	}
	for (i = 0; i < sizeof(tail) / sizeof(tail[0]); i++)
		synopsis_word(f, tail[i], &col);
	fputc('\n', f);
}

/* The synopsis: a line for each mode. */
static void usage_synopsis(FILE *f)
{
	fprintf(f,
		"Usage: probegen -h [options] [-s] FILE.d [-o FILE.h]\n"
		"       probegen -G [options] [-s] FILE.d [-o FILE.o] [OBJECT...]\n"
		"       probegen --rust [options] [-s] FILE.d [-o FILE.rs]\n"
		"       probegen --bpftrace [options] [-s FILE.d]...|BINARY [-o FILE.bt]\n"
		"       probegen --docs [options] [-s FILE.d]... [-o FILE.md]\n"
		"       probegen --list [--json] [-s FILE.d]... BINARY...\n"
		"       probegen --check [--strict] [--allow-missing] [--sites] [-s FILE.d]... BINARY...\n");
	trace_synopsis(f);
	fprintf(f, "       probegen --list-targets\n"
		   "\n");
}

/* A row's first column: its label, else "NAME VALUE". */
static void row_label(const struct option_row *r, char *out, size_t size)
{
	if (r->label)
		snprintf(out, size, "%s", r->label);
	else
		snprintf(out, size, "%s%s%s", r->name, r->value ? " " : "",
			 r->value ? r->value : "");
}

/* The rows, each "  LABEL  first line" and its other lines under the
 * first; a label too wide for the column has a line of its own. */
static void usage_rows(FILE *f)
{
	enum { COLUMN = 18 };
	char label[96];
	const char *line, *end;
	size_t i;

	for (i = 0; i < noption_rows; i++) {
		const struct option_row *r = &option_rows[i];

		if (!r->help)
			continue; /* said by the row above */
		row_label(r, label, sizeof(label));
		if (strlen(label) > COLUMN)
			fprintf(f, "  %s\n%*s", label, COLUMN + 3, "");
		else
			fprintf(f, "  %-*s ", COLUMN, label);
		for (line = r->help;; line = end + 1) {
			end = strchr(line, '\n');
			if (line != r->help)
				fprintf(f, "%*s", COLUMN + 3, "");
			fprintf(f, "%.*s\n",
				end ? (int)(end - line) : (int)strlen(line),
				line);
			if (!end)
				break;
		}
	}
}

void options_usage(FILE *f)
{
	usage_synopsis(f);
	fprintf(f,
		"Compile a D provider file into the C header a program calls (-h)\n"
		"or the object file its link needs (-G), for SystemTap SDT probes.\n"
		"\n");
	usage_rows(f);
	fprintf(f,
		"\n"
		"Exit status: 0 success, 1 invalid input (a provider file, or what\n"
		"--check and --trace find in binaries), 2 usage or system error.\n");
}
