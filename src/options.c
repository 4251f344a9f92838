/*
 * options.c - the command line, compatible with SystemTap's and illumos'
 * dtrace: -h/-G, -s FILE or a positional file, -o FILE, -C with -I/-D/-U,
 * and the options real builds pass that mean nothing here.  Every option
 * belongs to a group (O_*); the mode's row says which groups it takes
 * and what it reads, and every usage message is made from that row.
 * The options themselves are option_table.c's rows.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "version.h"

/* The row of argument a, and where its value is joined to it ("-oFILE",
 * "--target=ARCH"; *joined NULL when it is not): NULL when none. */
static const struct option_row *row_of(const char *a, const char **joined)
{
	size_t i, n;

	*joined = NULL;
	for (i = 0; i < noption_rows; i++)
		if (strcmp(a, option_rows[i].name) == 0)
			return &option_rows[i];
	for (i = 0; i < noption_rows; i++) {
		const struct option_row *r = &option_rows[i];

		n = strlen(r->name);
		if (!r->value || strncmp(a, r->name, n) != 0)
			continue;
		if (n == 2 && a[2]) {
			*joined = a + 2;
			return r;
		}
		if (n > 2 && a[n] == '=') {
			*joined = a + n + 1;
			return r;
		}
	}
	return NULL;
}

static void add_cpp_arg(struct options *o, char flag, const char *val)
{
	o->cpp.args = xrealloc(o->cpp.args,
			       sizeof(char *) * ((size_t)o->cpp.nargs + 1));
	o->cpp.args[o->cpp.nargs++] = xasprintf("-%c%s", flag, val);
}

/* Note that an option of group g was given (as a, the first time). */
static void given(struct options *o, unsigned g, const char *a)
{
	int i = 0;

	while (!(g & (1u << i)))
		i++;
	if (!(o->given & g))
		o->option_of[i] = a;
	o->given |= g;
}

/* What row r's option with value v (NULL if it takes none) does: 1 to
 * go on, -1 after a usage error. */
static int apply_value(struct options *o, const struct option_row *r,
		       const char *v)
{
	switch (r->action) {
	case ACT_FLAG:
		*(int *)((char *)o + r->offset) = 1;
		break;
	case ACT_STRING:
		*(const char **)((char *)o + r->offset) = v;
		break;
	case ACT_LIST: {
		struct string_list *l =
			(struct string_list *)((char *)o + r->offset);

		if (r->check && !r->check(v)) {
			usage_error("%s, not '%s'", r->usage, v);
			return -1;
		}
		l->items = xgrow(l->items, (size_t)l->n, sizeof(*l->items));
		l->items[l->n++] = v;
		break;
	}
	case ACT_D_FILE:
		if (o->nfiles)
			given(o, O_FILES, r->name);
		o->files[o->nfiles++] = v;
		break;
	case ACT_CPP:
		add_cpp_arg(o, r->name[1], v);
		break;
	case ACT_TRACE:
		if (!r->parse) /* option_table.c names one for each */
			die("internal error: no reader for %s", r->name);
		return r->parse(o, v);
	case ACT_BITS:
		o->bits = atoi(r->name + 1);
		break;
	case ACT_NO_WARNINGS:
		diag.no_warnings = 1;
		break;
	case ACT_WERROR:
		diag.warnings_are_errors = 1;
		break;
	default: /* ACT_IGNORE; the others are parse_one's */
		break;
	}
	return 1;
}

/* The rest of argv is the command to trace, exactly as given (--). */
static int rest_is_command(struct options *o, int argc, char **argv, int *i)
{
	if (*i + 1 >= argc) {
		usage_error("'--' must be followed by a command");
		return -1;
	}
	if (o->trace.command && o->command_split)
		words_free(o->trace.command);
	o->trace.command = argv + *i + 1;
	o->command_split = 0;
	*i = argc;
	return 1;
}

/* One argument (and its value): 1 to go on, 0 when the run is done
 * (--help, --version, --bash-completion printed), -1 after a usage
 * error. */
static int parse_one(struct options *o,
		     int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v = NULL;
	const struct option_row *r = row_of(a, &v);
	const struct mode *m;

	if (!r) {
		if (a[0] == '-' && a[1] != '\0') {
			usage_error("unrecognised option '%s'", a);
			return -1;
		}
		o->operands[o->noperands++] = a;
		return 1;
	}
	o->row_given[r - option_rows] = 1;
	/* -s's group is for a second one; -32 and -64 go with any mode. */
	if (r->group && r->action != ACT_D_FILE && r->action != ACT_BITS)
		given(o, r->group, r->name);
	if (r->value && !v) {
		if (*i + 1 >= argc) {
			usage_error("option '%s' requires a value", a);
			return -1;
		}
		v = argv[++*i];
	}
	switch (r->action) {
	case ACT_HELP:
		options_usage(stdout);
		return 0;
	case ACT_VERSION:
		printf("probegen %s\n", PROBEGEN_VERSION);
		return 0;
	case ACT_COMPLETION:
		completion_bash(stdout);
		return 0;
	case ACT_COMMAND:
		return rest_is_command(o, argc, argv, i);
	case ACT_MODE:
		m = r->mode;
		if (m->command == COMMAND_NONE) {
			/* A mode with nothing to run: t_cli runs every
			 * mode. */
			usage_error("'%s' is not built into this probegen", a);
			return -1;
		}
		if (o->mode && o->mode != m) {
			usage_error("'%s' and '%s' cannot be given together",
				    o->mode_option, r->name);
			return -1;
		}
		o->mode = m;
		o->mode_option = r->name;
		return 1;
	default:
		return apply_value(o, r, v);
	}
}

/* O_GROUPS counts the groups: the last is 1 << (O_GROUPS - 1). */
_Static_assert(O_SUMMARY == 1 << (O_GROUPS - 1),
	       "options.h: O_GROUPS is the number of groups");

/* How group g is written in messages: its options, in the table's
 * order ("-C, -I, -D, -U"); -s's is a second -s. */
static void group_name(struct buf *b, unsigned g)
{
	size_t i;
	int first = 1;

	for (i = 0; i < noption_rows; i++) {
		const struct option_row *r = &option_rows[i];

		if (r->group != g)
			continue;
		buf_printf(b, "%s%s%s", first ? "" : ", ", r->name,
			   r->action == ACT_D_FILE ? " more than once" : "");
		first = 0;
	}
}

/* The options a mode takes, for messages: "-o, -C, -I, -D, -U". */
static char *takes_list(const struct mode *m)
{
	struct buf b = { 0 };
	int i;

	for (i = 0; i < O_GROUPS; i++)
		if (m->takes & (1u << i)) {
			if (b.len)
				buf_printf(&b, ", ");
			group_name(&b, 1u << i);
		}
	return b.data ? b.data : xstrdup("no options");
}

/* What the mode reads is there: 0, or -1 after a usage error. */
static int check_inputs(const struct options *o)
{
	const char *what = NULL;
	int ds = o->nfiles + (o->nfiles ? 0 : o->noperands > 0);

	switch (o->mode->reads) {
	case READS_NOTHING:
		if (o->noperands) {
			usage_error("unexpected operand '%s': %s reads none",
				    o->operands[0], o->mode_option);
			return -1;
		}
		break;
	case READS_D:
		if (ds && o->noperands > (o->nfiles ? 0 : 1)) {
			usage_error("unexpected operand '%s': %s reads %s",
				    o->operands[o->nfiles ? 0 : 1],
				    o->mode_option,
				    o->nfiles ? "the -s files alone"
					      : "one provider file");
			return -1;
		}
		/* fall through */
	case READS_D_OBJECTS:
	case READS_D_OR_BINARY:
		if (!ds)
			what = "no provider file given (use -s FILE)";
		break;
	case READS_D_BINARIES:
		if (!ds || o->noperands < (o->nfiles ? 1 : 2))
			what = "--check needs a provider file and at least one binary";
		break;
	case READS_BINARIES:
		if (!o->noperands)
			what = "--list needs at least one binary";
		break;
	case READS_TRACEES:
		if (!o->trace.command && !o->trace.pid && !o->noperands)
			what = "--trace needs -c CMD, -- CMD, -p PID or a binary";
		/* A sampled count judged is a test that passes by chance. */
		else if (o->trace.budget > 0 &&
			 (o->trace.expect_requests.n || o->trace.expect_all))
			what = o->trace.expect_requests.n
				       ? "--budget does not go with --expect: an expectation counts every firing (--budget none)"
				       : "--budget does not go with --expect-all: it counts every firing (--budget none)";
		break;
	}
	if (what) {
		usage_error("%s", what);
		return -1;
	}
	return 0;
}

/* The modes, for the message that none was given: "-h, ... or -x". */
static char *mode_list(void)
{
	struct buf b = { 0 };
	size_t i, last = 0;

	for (i = 0; i < noption_rows; i++)
		if (option_rows[i].action == ACT_MODE)
			last = i;
	for (i = 0; i < noption_rows; i++)
		if (option_rows[i].action == ACT_MODE)
			buf_printf(&b, "%s%s",
				   !b.len      ? ""
				   : i == last ? " or "
					       : ", ",
				   option_rows[i].name);
	return b.data;
}

/* Whether an option of names (blank-separated) was given. */
static int any_given(const struct options *o, const char *names)
{
	size_t i, n;
	const char *w;

	for (i = 0; i < noption_rows; i++) {
		n = strlen(option_rows[i].name);
		for (w = names; o->row_given[i] && (w = strstr(w, option_rows[i].name));
		     w += n)
			if ((w == names || w[-1] == ' ') && (!w[n] || w[n] == ' '))
				return 1;
	}
	return 0;
}

/* names (blank-separated) as "A, B or C". */
static char *name_list(const char *names)
{
	struct buf b = { 0 };
	const char *w = names, *end;

	while (*w) {
		end = w + strcspn(w, " ");
		buf_puts(&b, !b.len ? "" : *end ? ", " : " or ");
		buf_add(&b, w, (size_t)(end - w));
		w = *end ? end + 1 : end;
	}
	return b.data ? b.data : xstrdup("");
}

/* The rows' needs and excludes, in the table's order: 0, or -1 after
 * the usage error. */
static int check_together(const struct options *o)
{
	size_t i;
	char *list;

	for (i = 0; i < noption_rows; i++) {
		const struct option_row *r = &option_rows[i];
		int bad_needs = r->needs && !any_given(o, r->needs),
		    bad_excludes = r->excludes && any_given(o, r->excludes);

		if (!o->row_given[i] || (!bad_needs && !bad_excludes))
			continue;
		list = name_list(bad_needs ? r->needs : r->excludes);
		usage_error(bad_needs ? "%s needs %s" : "%s does not go with %s",
			    r->name, list);
		free(list);
		return -1;
	}
	return 0;
}

/* 1 to go on with o->mode, 0 when the run is done, -1 after a usage
 * error (options.h). */
int options_parse(int argc, char **argv,
		  struct options *o)
{
	unsigned extra;
	int i, r, g;

	o->files = xcalloc((size_t)argc, sizeof(char *));
	o->operands = xcalloc((size_t)argc, sizeof(char *));
	o->row_given = xcalloc(noption_rows, 1);
	for (i = 1; i < argc; i++)
		if ((r = parse_one(o, argc, argv, &i)) != 1)
			return r;
	if (!o->mode) {
		char *modes_list = mode_list();

		usage_error("no mode given: %s", modes_list);
		free(modes_list);
		return -1;
	}
	extra = o->given & ~o->mode->takes;
	if (extra & O_FILES) {
		usage_error("'%s' takes one provider file; '-s %s' is a second",
			    o->mode_option, o->files[1]);
		return -1;
	}
	if (extra) {
		char *takes = takes_list(o->mode);

		for (g = 0; !(extra & (1u << g)); g++)
			;
		usage_error("'%s' does not go with '%s' (which takes %s)",
			    o->option_of[g], o->mode_option, takes);
		free(takes);
		return -1;
	}
	if (check_together(o) != 0)
		return -1;
	return check_inputs(o) ? -1 : 1;
}

void options_free(struct options *o)
{
	size_t k;
	int i;

	for (i = 0; i < o->cpp.nargs; i++)
		free(o->cpp.args[i]);
	free(o->cpp.args);
	if (o->command_split)
		words_free(o->trace.command);
	free(o->files);
	free(o->operands);
	free(o->row_given);
	for (k = 0; k < noption_rows; k++)
		if (option_rows[k].action == ACT_LIST)
			free(((struct string_list *)((char *)o +
						     option_rows[k].offset))
				     ->items);
}

const char *const *options_d_files(const struct options *o, int *n)
{
	*n = o->nfiles ? o->nfiles : o->noperands > 0;
	return o->nfiles ? o->files : o->operands;
}

const char *const *options_after_d_files(const struct options *o, int *n)
{
	int skip = o->nfiles ? 0 : 1;

	*n = o->noperands - skip;
	return o->operands + skip;
}
