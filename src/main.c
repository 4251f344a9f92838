/*
 * main.c - the command line, compatible with SystemTap's and illumos'
 * dtrace: -h/-G, -s FILE or a positional file, -o FILE, -C with -I/-D/-U,
 * and the options real builds pass that mean nothing here.  What to do
 * is one row of the table of modes: an emitter (a .d file in, a file
 * out) or a command of its own.  Nothing is written unless every stage
 * succeeded.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "probegen.h"

struct options;

/* One thing probegen can do, chosen by its option. */
struct mode {
	const char *option;
	const char *extension;  /* of the default output name */
	emit_fn *emit;          /* compile a .d file into one output */
	int (*command)(const struct options *o); /* or run this instead */
	int several_d;          /* -s may name several files: one provider
				   may be split across them (QEMU) */
};

struct options {
	const struct mode *mode;
	const char *input, *output, *target;
	int bits; /* -32 / -64, 0 when not given */
	int header_only, self_contained;
	int json, strict, allow_missing;
	int input_named;  /* -s given: the operands are all objects */
	const char **more_inputs; /* the second -s file and on */
	int nmore_inputs;
	const char *trace_command;
	int trace_pid;
	long long limit;
	const char **filters;
	int nfilters;
	struct cpp_options cpp;
	const char **objects;
	int nobjects;
};

static int list_targets(const struct options *o);
static int list_probes(const struct options *o);
static int check_binaries(const struct options *o);
static int trace(const struct options *o);

static const struct mode modes[] = {
	{ "-h", "h", emit_header, NULL, 0 },
	{ "-G", "o", emit_object, NULL, 0 },
	{ "--rust", "rs", emit_rust, NULL, 0 },
	{ "--bpftrace", "bt", emit_bpftrace, NULL, 1 },
	{ "--docs", "md", emit_docs, NULL, 1 },
	{ "--list-targets", NULL, NULL, list_targets, 0 },
	{ "--list", NULL, NULL, list_probes, 0 },
	{ "--check", NULL, NULL, check_binaries, 1 },
	{ "--trace", NULL, NULL, trace, 1 },
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: probegen -h [options] [-s] FILE.d [-o FILE.h]\n"
		"       probegen -G [options] [-s] FILE.d [-o FILE.o] [OBJECT...]\n"
		"       probegen --rust [options] [-s] FILE.d [-o FILE.rs]\n"
		"       probegen --bpftrace [options] [-s] FILE.d|BINARY [-o FILE.bt]\n"
		"       probegen --docs [options] [-s] FILE.d [-o FILE.md]\n"
		"       probegen --list [--json] BINARY...\n"
		"       probegen --check [--strict] [--allow-missing] [-s FILE.d]... BINARY...\n"
		"       probegen --trace [-c CMD] [-p PID] [-n PROVIDER:NAME]... [--limit N]\n"
		"                        [--json] [-s FILE.d]... [BINARY...]\n"
		"\n"
		"Compile a D provider file into the C header a program calls (-h)\n"
		"or the object file its link needs (-G), for SystemTap SDT probes.\n"
		"\n"
		"  -h                 write a C header (default name: FILE.h)\n"
		"  -G                 write an ELF object (default name: FILE.o)\n"
		"  --rust             write a Rust module for build.rs (FILE.rs)\n"
		"  --bpftrace         write a bpftrace script printing every probe's\n"
		"                     arguments by name (FILE.bt); from a .d file or\n"
		"                     from the declarations a binary records\n"
		"  --docs             write a Markdown reference of the probes (FILE.md)\n"
		"  --list             list the probes binaries carry; --json for tools\n"
		"  --trace            print every firing of USDT probes, arguments by name\n"
		"                     and type: of the command -c runs (split on blanks,\n"
		"                     no shell), of process -p PID and its libraries, or\n"
		"                     of the BINARY operands; -n selects probes (globs:\n"
		"                     'myapp:*'); --limit N stops after N events; --json\n"
		"                     writes one object per line\n"
		"  --check            check binaries' probes against FILE.d: exit 1 and\n"
		"                     a line per problem when they differ; --strict\n"
		"                     makes size and sign warnings errors,\n"
		"                     --allow-missing makes missing probes warnings\n"
		"  -s FILE            the provider file (also the first operand); with\n"
		"                     --check, --docs, --bpftrace and --trace, once per\n"
		"                     file of a provider split across files\n"
		"  -o FILE            the output file\n"
		"  -C                 run the C preprocessor first ($CPP or cpp)\n"
		"  -I DIR, -D NAME[=VALUE], -U NAME\n"
		"                     passed to the preprocessor with -C; with -G,\n"
		"                     -DSTAP_SDT_V1/V2 as to SystemTap (man page)\n"
		"  --header-only      with -h: define the semaphores in the header,\n"
		"                     so that no -G object is needed\n"
		"  --self-contained   with -h: write the probe notes without sys/sdt.h\n"
		"  --target=ARCH      with -G: the target (see --list-targets);\n"
		"                     default: that of the OBJECTs, else the host\n"
		"  -32, -64           with -G: the 32- or 64-bit member of the family\n"
		"  --list-targets     print the targets -G supports\n"
		"  -x OPT, -k, -fpic, -fPIC, --types\n"
		"                     accepted for compatibility with dtrace; ignored\n"
		"  --help             print this help\n"
		"  --version          print the version\n"
		"\n"
		"Exit status: 0 success, 1 invalid input, 2 usage or system error.\n");
}

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

static void add_cpp_arg(struct options *o, const char *flag, const char *val)
{
	o->cpp.args = xrealloc(o->cpp.args,
			       sizeof(char *) * ((size_t)o->cpp.nargs + 1));
	o->cpp.args[o->cpp.nargs++] = xasprintf("%s%s", flag, val);
}

static const struct mode *mode_by_option(const char *a)
{
	size_t i;

	for (i = 0; i < COUNT(modes); i++)
		if (strcmp(a, modes[i].option) == 0)
			return &modes[i];
	return NULL;
}

/* Options meaningful to other dtraces only. */
static int ignored_option(const char *a)
{
	static const char *const ignored[] = {
		"-k", "-fpic", "-fPIC", "--types", "-v", "-q",
	};
	size_t i;

	for (i = 0; i < COUNT(ignored); i++)
		if (strcmp(a, ignored[i]) == 0)
			return 1;
	return 0;
}

/* Returns -1 to go on, else the exit status (after --help, or after
 * reporting a usage error). */
static int parse_args(int argc, char **argv, struct options *o)
{
	const struct mode *m;
	const char *v;
	int i;

	o->objects = xcalloc((size_t)argc, sizeof(char *));
	o->filters = xcalloc((size_t)argc, sizeof(char *));
	o->more_inputs = xcalloc((size_t)argc, sizeof(char *));
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--help") == 0) {
			usage(stdout);
			return EXIT_OK;
		} else if (strcmp(a, "--version") == 0) {
			printf("probegen %s\n", PROBEGEN_VERSION);
			return EXIT_OK;
		} else if ((m = mode_by_option(a))) {
			if (o->mode && o->mode != m) {
				usage_error("'%s' and '%s' cannot be given together",
					    o->mode->option, m->option);
				return EXIT_SYSTEM;
			}
			o->mode = m;
		} else if (strcmp(a, "--header-only") == 0) {
			o->header_only = 1;
		} else if (strcmp(a, "--self-contained") == 0) {
			o->self_contained = 1;
		} else if (strcmp(a, "--json") == 0) {
			o->json = 1;
		} else if (strcmp(a, "--strict") == 0) {
			o->strict = 1;
		} else if (strcmp(a, "--allow-missing") == 0) {
			o->allow_missing = 1;
		} else if (strncmp(a, "--target=", 9) == 0) {
			o->target = a + 9;
		} else if (strcmp(a, "--target") == 0) {
			if (!(o->target = option_value(argc, argv, &i, strlen(a))))
				return EXIT_SYSTEM;
		} else if (strcmp(a, "-32") == 0 || strcmp(a, "-64") == 0) {
			o->bits = atoi(a + 1);
		} else if (strcmp(a, "-C") == 0) {
			o->cpp.enabled = 1;
		} else if (strcmp(a, "-c") == 0) {
			if (!(o->trace_command = option_value(argc, argv, &i, 2)))
				return EXIT_SYSTEM;
		} else if (strcmp(a, "-p") == 0) {
			if (!(v = option_value(argc, argv, &i, 2)))
				return EXIT_SYSTEM;
			o->trace_pid = atoi(v);
			if (o->trace_pid <= 0) {
				usage_error("-p takes a process ID, not '%s'", v);
				return EXIT_SYSTEM;
			}
		} else if (strcmp(a, "-n") == 0) {
			if (!(v = option_value(argc, argv, &i, 2)))
				return EXIT_SYSTEM;
			if (!strchr(v, ':')) {
				usage_error("-n takes PROVIDER:NAME, not '%s'", v);
				return EXIT_SYSTEM;
			}
			o->filters[o->nfilters++] = v;
		} else if (strcmp(a, "--limit") == 0) {
			if (!(v = option_value(argc, argv, &i, strlen(a))))
				return EXIT_SYSTEM;
			o->limit = atoll(v);
			if (o->limit <= 0) {
				usage_error("--limit takes a number of events, not '%s'", v);
				return EXIT_SYSTEM;
			}
		} else if (strncmp(a, "-s", 2) == 0) {
			if (!(v = option_value(argc, argv, &i, 2)))
				return EXIT_SYSTEM;
			if (o->input_named) {
				o->more_inputs[o->nmore_inputs++] = v;
				continue;
			}
			/* An operand before -s was an object, as to dtrace. */
			if (o->input)
				o->objects[o->nobjects++] = o->input;
			o->input = v;
			o->input_named = 1;
		} else if (strncmp(a, "-o", 2) == 0) {
			if (!(o->output = option_value(argc, argv, &i, 2)))
				return EXIT_SYSTEM;
		} else if (strncmp(a, "-I", 2) == 0 || strncmp(a, "-D", 2) == 0 ||
			   strncmp(a, "-U", 2) == 0) {
			char flag[3] = { '-', a[1], '\0' };

			if (!(v = option_value(argc, argv, &i, 2)))
				return EXIT_SYSTEM;
			add_cpp_arg(o, flag, v);
		} else if (strncmp(a, "-x", 2) == 0) {
			/* -xnolibs, -x opt */
			if (!option_value(argc, argv, &i, 2))
				return EXIT_SYSTEM;
		} else if (ignored_option(a)) {
			continue;
		} else if (a[0] == '-' && a[1] != '\0') {
			usage_error("unrecognised option '%s'", a);
			return EXIT_SYSTEM;
		} else if (!o->input) {
			o->input = a;
		} else {
			o->objects[o->nobjects++] = a;
		}
	}
	if (!o->mode) {
		usage_error("one of -h, -G or --rust is required");
		return EXIT_SYSTEM;
	}
	if (o->nmore_inputs && !o->mode->several_d) {
		usage_error("'%s' takes one provider file; '-s %s' is a second",
			    o->mode->option, o->more_inputs[0]);
		return EXIT_SYSTEM;
	}
	if ((o->trace_command || o->trace_pid || o->nfilters || o->limit) &&
	    o->mode->command != trace) {
		usage_error("-c, -p, -n and --limit go with --trace");
		return EXIT_SYSTEM;
	}
	if (o->mode->command == trace && !o->trace_command && !o->trace_pid &&
	    !o->nobjects && (!o->input || o->input_named)) {
		usage_error("--trace needs -c CMD, -p PID or a binary");
		return EXIT_SYSTEM;
	}
	if ((o->mode->emit || o->mode->command == check_binaries) && !o->input) {
		usage_error("no provider file given (use -s FILE)");
		return EXIT_SYSTEM;
	}
	if (o->mode->command == list_probes && !o->input) {
		usage_error("--list needs at least one binary");
		return EXIT_SYSTEM;
	}
	if (o->json && o->mode->command != list_probes && o->mode->command != trace) {
		usage_error("--json goes with --list or --trace");
		return EXIT_SYSTEM;
	}
	if ((o->strict || o->allow_missing) && o->mode->command != check_binaries) {
		usage_error("%s goes with --check",
			    o->strict ? "--strict" : "--allow-missing");
		return EXIT_SYSTEM;
	}
	if (o->header_only && o->mode->emit != emit_header) {
		usage_error("--header-only goes with -h");
		return EXIT_SYSTEM;
	}
	if (o->self_contained && o->mode->emit != emit_header) {
		usage_error("--self-contained goes with -h");
		return EXIT_SYSTEM;
	}
	return -1;
}

static const char *path_base_name(const char *path)
{
	const char *base = strrchr(path, '/');

	return base ? base + 1 : path;
}

/* FILE.d -> FILE.h in the current directory, as both dtraces do. */
static char *default_output(const char *input, const char *extension)
{
	const char *base = path_base_name(input);
	size_t n = strlen(base);

	if (n > 2 && strcmp(base + n - 2, ".d") == 0)
		n -= 2;
	return xasprintf("%.*s.%s", (int)n, base, extension);
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The target of -G, or NULL after reporting why (*status set). */
static const struct target *target_for(const struct options *o,
				       struct target *scratch, int *status)
{
	const struct target *tg = NULL;
	const char *culprits[2];
	struct target a, b;

	switch (target_choose(o->target, o->bits, o->objects, o->nobjects,
			      scratch, &tg, culprits)) {
	case TARGET_OK:
		return tg;
	case TARGET_UNKNOWN:
		usage_error("unknown target '%s' (see --list-targets)",
			    o->target);
		*status = EXIT_SYSTEM;
		return NULL;
	case TARGET_NO_VARIANT:
		usage_error("no %d-bit variant of target '%s'", o->bits,
			    tg->name);
		*status = EXIT_SYSTEM;
		return NULL;
	case TARGET_MIXED:
		target_from_elf(culprits[0], &a);
		target_from_elf(culprits[1], &b);
		error_input("'%s' (%s, %d-bit) and '%s' (%s, %d-bit) are for different targets",
			    culprits[0], a.name, a.elfclass == 2 ? 64 : 32,
			    culprits[1], b.name, b.elfclass == 2 ? 64 : 32);
		*status = EXIT_INPUT;
		return NULL;
	}
	return NULL;
}

/* The checked program: a .d file read, parsed and checked, or for
 * --bpftrace a binary's recorded declarations.  NULL with *status set. */
static struct program *load_program(const struct options *o,
				    const struct target *tg, int *status)
{
	struct parse_options popt = { 0 };
	struct program *prog;
	struct binary b;
	char *text;
	size_t len;
	int regular, i;
	struct target elf;

	if (o->mode->emit == emit_bpftrace && target_from_elf(o->input, &elf) == 0) {
		if (binary_read(o->input, &b) != 0) {
			*status = EXIT_SYSTEM;
			return NULL;
		}
		/* Not checked: a binary's names may be anything, and what it
		   holds never speaks as a compiler error. */
		prog = binary_program(&b);
		binary_free(&b);
		*status = EXIT_OK;
		return prog;
	} else {
		prog = NULL;
		for (i = -1; i < o->nmore_inputs; i++) {
			const char *path = i < 0 ? o->input : o->more_inputs[i];

			*status = input_read(path, &o->cpp, &text, &len, &regular);
			if (*status != EXIT_OK) {
				program_free(prog);
				return NULL;
			}
			popt.preprocessed = o->cpp.enabled;
			/* Diagnostics quote a regular file from disk, only if
			   they need to; other inputs (pipes) can be read once:
			   keep a copy. */
			if (!o->cpp.enabled && !regular)
				diag_add_source(path, text, len);
			prog = parse_text(prog, path, text, len, &popt);
			free(text);
		}
		program_complete(prog);
	}
	/* Check even after syntax errors: report everything in one run. */
	check_program(prog, tg);
	if (diag.errors) {
		*status = EXIT_INPUT;
		program_free(prog);
		return NULL;
	}
	*status = EXIT_OK;
	return prog;
}

/* Read, parse, check and emit; write the output only if all succeed. */
static int compile(const struct options *o, const char *output)
{
	struct emit_options eopt = { 0 };
	char *input_name;
	struct target scratch;
	struct program *prog;
	struct output out;
	int status = EXIT_OK;

	/* Banners name the file; "a.d and 87 more" when split across many. */
	input_name = o->nmore_inputs
			     ? xasprintf("%s and %d more", path_base_name(o->input),
					 o->nmore_inputs)
			     : xstrdup(path_base_name(o->input));
	eopt.input_name = input_name;
	eopt.output_name = output;
	eopt.header_only = o->header_only;
	eopt.self_contained = o->self_contained;
	eopt.target = o->mode->emit == emit_object
			      ? target_for(o, &scratch, &status)
			      : target_host();
	/* SystemTap hands -D to the compiler of -G, -C or not; for -h
	   without -C it reads none, and the header decides at compile time. */
	if (eopt.target && o->mode->emit == emit_object)
		eopt.sdt_version = defines_sdt_version(&o->cpp, !o->cpp.enabled);
	prog = eopt.target ? load_program(o, eopt.target, &status) : NULL;
	if (!prog) {
		free(input_name);
		return status;
	}
	if (output_open(&out, output) != 0) {
		status = EXIT_SYSTEM;
	} else if (o->mode->emit(&out, prog, &eopt) != 0) {
		output_abort(&out);
		status = EXIT_SYSTEM;
	} else if (output_commit(&out) != 0) {
		status = EXIT_SYSTEM;
	}
	program_free(prog);
	free(input_name);
	return status;
}

static int list_targets(const struct options *o)
{
	(void)o;
	target_list(stdout);
	return EXIT_OK;
}

/* --list: every operand is a binary. */
static int list_probes(const struct options *o)
{
	const char **files = xcalloc((size_t)o->nobjects + 1, sizeof(char *));
	int i, status;

	files[0] = o->input;
	for (i = 0; i < o->nobjects; i++)
		files[i + 1] = o->objects[i];
	status = inspect_list(files, o->nobjects + 1, o->json);
	free(files);
	return status;
}

/* --trace: -s FILE.d is declarations; every other operand a binary. */
static int trace(const struct options *o)
{
	struct trace_options t = { 0 };
	struct program *decls = NULL;
	const char **bins = xcalloc((size_t)o->nobjects + 1, sizeof(char *));
	int i, n = 0, status;

	if (o->input && !o->input_named)
		bins[n++] = o->input;
	for (i = 0; i < o->nobjects; i++)
		bins[n++] = o->objects[i];
	if (o->input && o->input_named) {
		decls = load_program(o, target_host(), &status);
		if (!decls) {
			free(bins);
			return status;
		}
	}
	t.command = o->trace_command;
	t.pid = o->trace_pid;
	t.binaries = bins;
	t.nbinaries = n;
	t.filters = o->filters;
	t.nfilters = o->nfilters;
	t.declarations = decls;
	t.limit = o->limit;
	t.json = o->json;
	status = trace_run(&t);
	program_free(decls);
	free(bins);
	return status;
}

/* --check FILE.d BINARY... */
static int check_binaries(const struct options *o)
{
	struct program *prog;
	int status;

	if (o->nobjects == 0) {
		usage_error("--check needs a provider file and at least one binary");
		return EXIT_SYSTEM;
	}
	prog = load_program(o, target_host(), &status);
	if (!prog)
		return status;
	status = inspect_check(prog, o->objects, o->nobjects, o->strict,
			       o->allow_missing);
	program_free(prog);
	return status;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	char *output = NULL;
	int i, status;

	diag.progname = "probegen";
	status = parse_args(argc, argv, &o);
	if (status >= 0)
		goto done;
	if (o.mode->command) {
		status = o.mode->command(&o);
		goto done;
	}
	output = o.output ? xstrdup(o.output)
			  : default_output(o.input, o.mode->extension);
	if (same_file(o.input, output)) {
		error_plain("'%s' is both the input and the output", output);
		status = EXIT_SYSTEM;
		goto done;
	}
	status = compile(&o, output);
done:
	free(output);
	for (i = 0; i < o.cpp.nargs; i++)
		free(o.cpp.args[i]);
	free(o.cpp.args);
	free(o.objects);
	free(o.filters);
	free(o.more_inputs);
	diag_free();
	return status;
}
