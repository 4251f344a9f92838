/*
 * options.c - the command line, compatible with SystemTap's and illumos'
 * dtrace: -h/-G, -s FILE or a positional file, -o FILE, -C with -I/-D/-U,
 * and the options real builds pass that mean nothing here.  Every option
 * belongs to a group (O_*); the mode's row says which groups it takes
 * and what it reads, and every usage message is made from that row.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "version.h"

char **split_words(const char *s, char **error)
{
	size_t n = strlen(s), count = 0;
	char **argv = xcalloc(n / 2 + 2, sizeof(char *));
	char *word = xmalloc(n + 1), *w = NULL;
	char quote = 0;

	*error = NULL;
	for (; *s; s++) {
		char c = *s;

		if (!quote && (c == ' ' || c == '\t' || c == '\n')) {
			if (w) {
				*w = '\0';
				argv[count++] = xstrdup(word);
				w = NULL;
			}
			continue;
		}
		/* \newline outside single quotes joins lines; alone
		 * between blanks it starts no word. */
		if (c == '\\' && s[1] == '\n' && quote != '\'') {
			s++;
			continue;
		}
		if (!w)
			w = word;
		if (quote == '\'') {
			if (c == '\'')
				quote = 0;
			else
				*w++ = c;
		} else if (c == '\\' && s[1] &&
			   (!quote || strchr("\"\\$`", s[1]))) {
			*w++ = s[1];
			s++;
		} else if (c == '"' && quote) {
			quote = 0;
		} else if ((c == '"' || c == '\'') && !quote) {
			quote = c;
		} else {
			*w++ = c;
		}
	}
	if (quote)
		*error = xasprintf("unterminated %s quote",
				   quote == '"' ? "double" : "single");
	else if (w) {
		*w = '\0';
		argv[count++] = xstrdup(word);
	}
	free(word);
	if (*error || !count) {
		if (!*error)
			*error = xstrdup("no command");
		words_free(argv);
		return NULL;
	}
	return argv;
}

void words_free(char **argv)
{
	char **p;

	for (p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

/* How each group is written in messages. */
/* O_GROUPS counts the groups: the last is 1 << (O_GROUPS - 1). */
_Static_assert(O_SUMMARY == 1 << (O_GROUPS - 1),
	       "options.h: O_GROUPS is the number of groups");
static const char *const group_names[O_GROUPS] = {
	"-o",
	"-C, -I, -D, -U",
	"--target, -32, -64",
	"--header-only, --self-contained",
	"--json",
	"--strict, --allow-missing, --sites",
	"-c, -p, -n, --limit, --duration, --pair, --by, --top, --folded, --metrics, --user, --expect-all, --timeline, --",
	"-s more than once",
	"--summary",
};

/* An option that takes a value: "-oFILE" or "-o FILE"; NULL if missing. */
static const char *option_value(int argc, char **argv, int *i, size_t len)
{
	if (argv[*i][len])
		return argv[*i] + len;
	if (*i + 1 >= argc) {
		usage_error("option '%s' requires a value", argv[*i]);
		return NULL;
	}
	return argv[++*i];
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

/* Options with no value: a flag in struct options, in a group. */
static int flag_option(struct options *o, const char *a)
{
	static const struct {
		const char *name;
		unsigned group;
		size_t offset;
	} flags[] = {
		{ "--header-only", O_HEADER,
		  offsetof(struct options, header_only) },
		{ "--self-contained", O_HEADER,
		  offsetof(struct options, self_contained) },
		{ "--json", O_JSON, offsetof(struct options, json) },
		{ "--strict", O_CHECK, offsetof(struct options, strict) },
		{ "--allow-missing", O_CHECK,
		  offsetof(struct options, allow_missing) },
		{ "--sites", O_CHECK, offsetof(struct options, sites) },
		{ "-C", O_CPP, offsetof(struct options, cpp.enabled) },
		{ "--summary", O_SUMMARY, offsetof(struct options, summary) },
		{ "--expect-all", O_TRACE,
		  offsetof(struct options, trace.expect_all) },
	};
	/* Meaningful to other dtraces only: SystemTap ignores these too
	 * (-k keeps its temporary files, of which probegen makes none;
	 * --no-pyparsing picks its fallback parser: probegen has one). */
	static const char *const ignored[] = { "-k", "-fpic", "-fPIC",
					       "--types", "--no-pyparsing" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		if (strcmp(a, flags[i].name) == 0) {
			*(int *)((char *)o + flags[i].offset) = 1;
			given(o, flags[i].group, a);
			return 1;
		}
	}
	for (i = 0; i < ARRAY_SIZE(ignored); i++)
		if (strcmp(a, ignored[i]) == 0)
			return 1;
	/* gcc's names: no warnings, or warnings as errors (for CI). */
	if (strcmp(a, "-w") == 0) {
		diag.no_warnings = 1;
		return 1;
	}
	if (strcmp(a, "-Werror") == 0) {
		diag.warnings_are_errors = 1;
		return 1;
	}
	/* SystemTap takes them with -h too, and ignores them everywhere:
	 * here they choose -G's target, and mean nothing elsewhere. */
	if (strcmp(a, "-32") == 0 || strcmp(a, "-64") == 0) {
		o->bits = atoi(a + 1);
		return 1;
	}
	return 0;
}

/* One of --trace's options that take a value (options_trace.c reads
 * it): 1 if a was one, -1 on a usage error. */
static int trace_option(struct options *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;

	if (!trace_option_takes_value(a))
		return 0;
	given(o, O_TRACE, a);
	if (!(v = option_value(argc, argv, i, strlen(a))))
		return -1;
	return trace_option_value(o, a, v);
}

/* Options that take a value, other than --trace's: 1 if a was one, -1
 * on a usage error. */
static int value_option(struct options *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v;

	if (strncmp(a, "--target=", 9) == 0) {
		o->target = a + 9;
		given(o, O_TARGET, "--target");
		return 1;
	}
	if (strcmp(a, "--target") == 0) {
		given(o, O_TARGET, a);
		return (o->target = option_value(argc, argv, i, strlen(a)))
			       ? 1
			       : -1;
	}
	if (a[0] != '-' || !strchr("soIDUx", a[1]))
		return 0;
	if (!(v = option_value(argc, argv, i, 2)))
		return -1;
	switch (a[1]) {
	case 's':
		if (o->nfiles)
			given(o, O_FILES, "-s");
		o->files[o->nfiles++] = v;
		break;
	case 'o':
		given(o, O_OUTPUT, "-o");
		o->output = v;
		break;
	case 'x':
		break; /* -xnolibs, -x opt: other dtraces' */
	default:
		given(o, O_CPP, a[1] == 'I' ? "-I" : a[1] == 'D' ? "-D" : "-U");
		add_cpp_arg(o, a[1], v);
	}
	return 1;
}

static const struct mode *mode_by_option(const struct mode *modes,
					 size_t nmodes, const char *a)
{
	size_t i;

	for (i = 0; i < nmodes; i++)
		if (strcmp(a, modes[i].option) == 0)
			return &modes[i];
	return NULL;
}

/* One argument (and its value); 1 to go on, else the exit status. */
static int parse_one(struct options *o, const struct mode *modes, size_t nmodes,
		     int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	const struct mode *m;
	int r;

	if ((m = mode_by_option(modes, nmodes, a))) {
		if (o->mode && o->mode != m) {
			usage_error("'%s' and '%s' cannot be given together",
				    o->mode->option, m->option);
			return EXIT_SYSTEM;
		}
		o->mode = m;
	} else if (strcmp(a, "--") == 0) {
		/* The rest is the command to trace, exactly as given. */
		given(o, O_TRACE, a);
		if (*i + 1 >= argc) {
			usage_error("'--' must be followed by a command");
			return EXIT_SYSTEM;
		}
		if (o->trace.command && o->command_split)
			words_free(o->trace.command);
		o->trace.command = argv + *i + 1;
		o->command_split = 0;
		*i = argc;
	} else if ((r = value_option(o, argc, argv, i)) ||
		   (r = trace_option(o, argc, argv, i))) {
		if (r < 0)
			return EXIT_SYSTEM;
	} else if (flag_option(o, a)) {
		;
	} else if (a[0] == '-' && a[1] != '\0') {
		usage_error("unrecognised option '%s'", a);
		return EXIT_SYSTEM;
	} else {
		o->operands[o->noperands++] = a;
	}
	return 1;
}

/* The options a mode takes, for messages: "-o, -C, -I, -D, -U". */
static char *takes_list(const struct mode *m)
{
	struct buf b = { 0 };
	int i;

	for (i = 0; i < O_GROUPS; i++)
		if (m->takes & (1u << i))
			buf_printf(&b, "%s%s", b.len ? ", " : "",
				   group_names[i]);
	return b.data ? b.data : xstrdup("no options");
}

/* What the mode reads is there; 0, or EXIT_SYSTEM after saying why. */
static int check_inputs(const struct options *o)
{
	const char *what = NULL;
	int ds = o->nfiles + (o->nfiles ? 0 : o->noperands > 0);

	switch (o->mode->reads) {
	case READS_NOTHING:
		if (o->noperands) {
			usage_error("unexpected operand '%s': %s reads none",
				    o->operands[0], o->mode->option);
			return EXIT_SYSTEM;
		}
		break;
	case READS_D:
		if (ds && o->noperands > (o->nfiles ? 0 : 1)) {
			usage_error("unexpected operand '%s': %s reads %s",
				    o->operands[o->nfiles ? 0 : 1],
				    o->mode->option,
				    o->nfiles ? "the -s files alone"
					      : "one provider file");
			return EXIT_SYSTEM;
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
		break;
	}
	if (what) {
		usage_error("%s", what);
		return EXIT_SYSTEM;
	}
	return 0;
}

/* Returns -1 to go on, else the exit status (after --help, or after
 * reporting a usage error). */
int options_parse(int argc, char **argv, const struct mode *modes,
		  size_t nmodes, struct options *o)
{
	unsigned extra;
	int i, r, g;

	o->files = xcalloc((size_t)argc, sizeof(char *));
	o->operands = xcalloc((size_t)argc, sizeof(char *));
	o->trace.filters = xcalloc((size_t)argc, sizeof(char *));
	o->trace.pair_requests = xcalloc((size_t)argc, sizeof(char *));
	o->trace.by_requests = xcalloc((size_t)argc, sizeof(char *));
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0) {
			options_usage(stdout);
			return EXIT_OK;
		}
		if (strcmp(argv[i], "--version") == 0) {
			printf("probegen %s\n", PROBEGEN_VERSION);
			return EXIT_OK;
		}
		if ((r = parse_one(o, modes, nmodes, argc, argv, &i)) != 1)
			return r;
	}
	if (!o->mode) {
		usage_error(
			"no mode given: -h, -G, --rust, --bpftrace, --docs, --list, --check, --trace or --list-targets");
		return EXIT_SYSTEM;
	}
	extra = o->given & ~o->mode->takes;
	if (extra & O_FILES) {
		usage_error("'%s' takes one provider file; '-s %s' is a second",
			    o->mode->option, o->files[1]);
		return EXIT_SYSTEM;
	}
	if (extra) {
		char *takes = takes_list(o->mode);

		for (g = 0; !(extra & (1u << g)); g++)
			;
		usage_error("'%s' does not go with '%s' (which takes %s)",
			    o->option_of[g], o->mode->option, takes);
		free(takes);
		return EXIT_SYSTEM;
	}
	return check_inputs(o) ? EXIT_SYSTEM : -1;
}

void options_free(struct options *o)
{
	int i;

	for (i = 0; i < o->cpp.nargs; i++)
		free(o->cpp.args[i]);
	free(o->cpp.args);
	if (o->command_split)
		words_free(o->trace.command);
	free(o->files);
	free(o->operands);
	free(o->trace.filters);
	free(o->trace.pair_requests);
	free(o->trace.by_requests);
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
