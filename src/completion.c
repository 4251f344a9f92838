/*
 * completion.c - the bash completion of probegen's options, made from
 * option_table.c's rows (`probegen --bash-completion`, which make install
 * writes where bash-completion looks): the options (once a mode is
 * given, those it takes), then what each option's value completes to.  After -- the words are a
 * command and its arguments.
 */
#include <stdio.h>
#include <string.h>

#include "options.h"

/* The options whose value completes to what, as a case pattern:
 * "-o | --folded"; nothing when no option's does. */
static int print_pattern(FILE *f, enum completion what)
{
	size_t i;
	int n = 0;

	for (i = 0; i < noption_rows; i++) {
		const struct option_row *r = &option_rows[i];

		if (!r->value || r->complete != what)
			continue;
		fprintf(f, "%s%s", n++ ? " | " : "\t", r->name);
	}
	if (n)
		fprintf(f, ")\n");
	return n;
}

static void print_arm(FILE *f, enum completion what, const char *body)
{
	if (print_pattern(f, what))
		fprintf(f, "%s\t\treturn ;;\n", body);
}

/* Whether row r is offered once mode m is on the command line (NULL:
 * before any): every option before; then those m takes, -s where m
 * reads .d files, -w and -Werror; never another mode, nor what is
 * only for compatibility or ends the run (--help). */
static int offered(const struct option_row *r, const struct mode *m)
{
	if (strcmp(r->name, "--") == 0)
		return 0;
	if (!m)
		return 1;
	switch (r->action) {
	case ACT_MODE:
	case ACT_IGNORE:
	case ACT_HELP:
	case ACT_VERSION:
	case ACT_COMPLETION:
		return 0;
	case ACT_D_FILE:
		return m->reads != READS_NOTHING && m->reads != READS_BINARIES;
	default:
		return !r->group || (r->group & m->takes);
	}
}

/* "opts='-h -G ...'" after prefix, folded at 60 columns, the
 * continuation lines indented by indent. */
static void print_opts(FILE *f, const char *prefix, const char *indent,
		       const struct mode *m)
{
	size_t i, col = 0;

	fprintf(f, "%sopts='", prefix);
	for (i = 0; i < noption_rows; i++) {
		const char *name = option_rows[i].name;

		if (!offered(&option_rows[i], m))
			continue;
		if (col && col + strlen(name) > 60) {
			fprintf(f, "\n%s\t", indent);
			col = 0;
		} else if (col) {
			fputc(' ', f);
		}
		col += fprintf(f, "%s", name);
	}
	fprintf(f, "'");
}

void completion_bash(FILE *f)
{
	size_t i;

	fprintf(f, "# bash completion for probegen(1), made by `probegen "
		   "--bash-completion`\n"
		   "# from its table of options.\n"
		   "_probegen()\n"
		   "{\n"
		   "\tlocal cur=${COMP_WORDS[COMP_CWORD]} "
		   "prev=${COMP_WORDS[COMP_CWORD-1]} i\n");
	print_opts(f, "\tlocal ", "\t", NULL);
	fprintf(f, "\n\n"
		   "\t# After a mode, its options; after -- the rest is a "
		   "command and its\n\t# arguments.\n"
		   "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
		   "\t\tcase ${COMP_WORDS[i]} in\n");
	for (i = 0; i < noption_rows; i++) {
		const struct option_row *r = &option_rows[i];

		if (r->action != ACT_MODE || r->mode->command == COMMAND_NONE)
			continue;
		fprintf(f, "\t\t%s)\n", r->name);
		print_opts(f, "\t\t\t", "\t\t\t", r->mode);
		fprintf(f, " ;;\n");
	}
	fprintf(f, "\t\t--)\n"
		   "\t\t\t[[ $i -eq $((COMP_CWORD - 1)) ]] &&\n"
		   "\t\t\t\tCOMPREPLY=($(compgen -c -- \"$cur\")) ||\n"
		   "\t\t\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
		   "\t\t\treturn ;;\n"
		   "\t\tesac\n"
		   "\tdone\n"
		   "\tcase $prev in\n");
	print_arm(f, COMPLETE_D_FILE,
		  "\t\tCOMPREPLY=($(compgen -f -X '!*.d' -- \"$cur\") "
		  "$(compgen -d -S / -- \"$cur\"))\n"
		  "\t\tcompopt -o nospace -o filenames 2> /dev/null\n");
	print_arm(f, COMPLETE_FILE,
		  "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
		  "\t\tcompopt -o filenames 2> /dev/null\n");
	print_arm(f, COMPLETE_TARGET,
		  "\t\tCOMPREPLY=($(compgen -W \"$(probegen --list-targets "
		  "2> /dev/null | awk '{ print $1 }')\" -- \"$cur\"))\n");
	print_arm(f, COMPLETE_PID,
		  "\t\tCOMPREPLY=($(compgen -W \"$(ls /proc | grep '^[0-9]')\" "
		  "-- \"$cur\"))\n");
	print_arm(f, COMPLETE_COMMAND,
		  "\t\tCOMPREPLY=($(compgen -c -- \"$cur\"))\n");
	print_arm(f, COMPLETE_USER,
		  "\t\tCOMPREPLY=($(compgen -u -- \"$cur\"))\n");
	/* A value that is no file, no name bash knows: nothing offered. */
	print_arm(f, COMPLETE_NOTHING, "");
	fprintf(f, "\tesac\n"
		   "\tif [[ $cur == -* ]]; then\n"
		   "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
		   "\t\treturn\n"
		   "\tfi\n"
		   "\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
		   "\tcompopt -o filenames 2> /dev/null\n"
		   "}\n"
		   "complete -F _probegen probegen\n");
}
