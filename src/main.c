/*
 * main.c - the command line, compatible with SystemTap's and illumos'
 * dtrace: -h/-G, -s FILE or a positional file, -o FILE, -C with -I/-D/-U,
 * and the options real builds pass that mean nothing here.  Runs the
 * stages in order and writes nothing unless every stage succeeded.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "probegen.h"

enum mode { MODE_NONE, MODE_HEADER, MODE_OBJECT, MODE_RUST };

struct options {
	enum mode mode;
	const char *input, *output, *target;
	int bits; /* -32 / -64, 0 when not given */
	int header_only;
	struct cpp_options cpp;
	const char **objects;
	int nobjects;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: probegen -h [options] [-s] FILE.d [-o FILE.h]\n"
		"       probegen -G [options] [-s] FILE.d [-o FILE.o] [OBJECT...]\n"
		"       probegen --rust [options] [-s] FILE.d [-o FILE.rs]\n"
		"\n"
		"Compile a D provider file into the C header a program calls (-h)\n"
		"or the object file its link needs (-G), for SystemTap SDT probes.\n"
		"\n"
		"  -h                 write a C header (default name: FILE.h)\n"
		"  -G                 write an ELF object (default name: FILE.o)\n"
		"  --rust             write a Rust module for build.rs (FILE.rs)\n"
		"  -s FILE            the provider file (also the first operand)\n"
		"  -o FILE            the output file\n"
		"  -C                 run the C preprocessor first ($CPP or cpp)\n"
		"  -I DIR, -D NAME[=VALUE], -U NAME\n"
		"                     passed to the preprocessor with -C\n"
		"  --header-only      with -h: define the semaphores in the header,\n"
		"                     so that no -G object is needed\n"
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

static _Noreturn void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "probegen: error: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'probegen --help' for more information.\n");
	exit(EXIT_SYSTEM);
}

/* An option that takes a value: "-oFILE" or "-o FILE". */
static const char *option_value(int argc, char **argv, int *i, size_t len)
{
	if (argv[*i][len])
		return argv[*i] + len;
	if (*i + 1 >= argc)
		usage_error("option '%s' requires a value", argv[*i]);
	return argv[++*i];
}

static void add_cpp_arg(struct options *o, const char *flag, const char *val)
{
	o->cpp.args = xrealloc(o->cpp.args,
			       sizeof(char *) * ((size_t)o->cpp.nargs + 1));
	o->cpp.args[o->cpp.nargs++] = xasprintf("%s%s", flag, val);
}

static void parse_args(int argc, char **argv, struct options *o)
{
	int i;

	o->objects = xcalloc((size_t)argc, sizeof(char *));
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--help") == 0) {
			usage(stdout);
			exit(EXIT_OK);
		} else if (strcmp(a, "--version") == 0) {
			printf("probegen %s\n", PROBEGEN_VERSION);
			exit(EXIT_OK);
		} else if (strcmp(a, "--list-targets") == 0) {
			target_list(stdout);
			exit(EXIT_OK);
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "-G") == 0 ||
			   strcmp(a, "--rust") == 0) {
			enum mode m = a[1] == 'h' ? MODE_HEADER
				      : a[1] == 'G' ? MODE_OBJECT : MODE_RUST;

			if (o->mode != MODE_NONE && o->mode != m)
				usage_error("%s", "only one of -h, -G and --rust can be given");
			o->mode = m;
		} else if (strcmp(a, "--header-only") == 0) {
			o->header_only = 1;
		} else if (strncmp(a, "--target=", 9) == 0) {
			o->target = a + 9;
		} else if (strcmp(a, "--target") == 0) {
			o->target = option_value(argc, argv, &i, strlen(a));
		} else if (strcmp(a, "-32") == 0 || strcmp(a, "-64") == 0) {
			o->bits = atoi(a + 1);
		} else if (strcmp(a, "-C") == 0) {
			o->cpp.enabled = 1;
		} else if (strncmp(a, "-s", 2) == 0) {
			if (o->input)
				usage_error("%s", "more than one provider file given");
			o->input = option_value(argc, argv, &i, 2);
		} else if (strncmp(a, "-o", 2) == 0) {
			o->output = option_value(argc, argv, &i, 2);
		} else if (strncmp(a, "-I", 2) == 0 || strncmp(a, "-D", 2) == 0 ||
			   strncmp(a, "-U", 2) == 0) {
			char flag[3] = { '-', a[1], '\0' };

			add_cpp_arg(o, flag, option_value(argc, argv, &i, 2));
		} else if (strncmp(a, "-x", 2) == 0) {
			option_value(argc, argv, &i, 2); /* -xnolibs, -x opt */
		} else if (strcmp(a, "-k") == 0 || strcmp(a, "-fpic") == 0 ||
			   strcmp(a, "-fPIC") == 0 || strcmp(a, "--types") == 0 ||
			   strcmp(a, "-v") == 0 || strcmp(a, "-q") == 0) {
			/* meaningful to other dtraces only */
		} else if (a[0] == '-' && a[1] != '\0') {
			usage_error("unrecognised option '%s'", a);
		} else if (!o->input) {
			o->input = a;
		} else {
			o->objects[o->nobjects++] = a;
		}
	}
	if (o->mode == MODE_NONE)
		usage_error("%s", "one of -h, -G or --rust is required");
	if (!o->input)
		usage_error("%s", "no provider file given (use -s FILE)");
	if (o->header_only && o->mode != MODE_HEADER)
		usage_error("%s", "--header-only goes with -h");
}

/* FILE.d -> FILE.h in the current directory, as both dtraces do. */
static char *default_output(const char *input, enum mode mode)
{
	const char *base = strrchr(input, '/');
	size_t n;

	base = base ? base + 1 : input;
	n = strlen(base);
	if (n > 2 && strcmp(base + n - 2, ".d") == 0)
		n -= 2;
	return xasprintf("%.*s.%s", (int)n, base,
			 mode == MODE_HEADER ? "h" : mode == MODE_RUST ? "rs" : "o");
}

static const char *base_name(const char *path)
{
	const char *base = strrchr(path, '/');

	return base ? base + 1 : path;
}

/* The target of -G: --target, else the objects' (all alike), else the
 * host's; then -32/-64. */
static const struct target *choose_target(const struct options *o,
					  struct target *from_objects)
{
	const struct target *tg = NULL;
	const char *first = NULL;
	int i;

	if (o->target) {
		tg = target_by_name(o->target);
		if (!tg)
			usage_error("unknown target '%s' (see --list-targets)",
				    o->target);
	} else {
		for (i = 0; i < o->nobjects; i++) {
			struct target t;

			if (target_from_elf(o->objects[i], &t) != 0)
				continue; /* archives, scripts: not ours */
			if (!first) {
				*from_objects = t;
				first = o->objects[i];
				continue;
			}
			if (t.elfclass != from_objects->elfclass ||
			    t.data != from_objects->data ||
			    t.machine != from_objects->machine) {
				error_plain("'%s' (%s, %d-bit) and '%s' (%s, %d-bit) are for different targets",
					    first, from_objects->name,
					    from_objects->elfclass == 2 ? 64 : 32,
					    o->objects[i], t.name,
					    t.elfclass == 2 ? 64 : 32);
				exit(EXIT_INPUT);
			}
		}
		tg = first ? from_objects : target_host();
	}
	if (o->bits) {
		const struct target *other = target_with_class(tg, o->bits);

		if (!other) {
			fprintf(stderr,
				"probegen: error: no %d-bit variant of target '%s'\n",
				o->bits, tg->name);
			exit(EXIT_SYSTEM);
		}
		tg = other;
	}
	return tg;
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };
	struct parse_options popt = { 0 };
	struct program *prog;
	struct buf out = { 0 };
	struct target from_objects;
	const struct target *tg;
	char *output, *text = NULL;
	size_t len;
	int i, regular, status = EXIT_OK;

	diag.progname = "probegen";
	parse_args(argc, argv, &o);
	output = o.output ? xstrdup(o.output) : default_output(o.input, o.mode);
	if (same_file(o.input, output)) {
		fprintf(stderr,
			"probegen: error: '%s' is both the input and the output\n",
			output);
		exit(EXIT_SYSTEM);
	}
	tg = o.mode == MODE_OBJECT ? choose_target(&o, &from_objects)
				   : target_host();

	text = input_read(o.input, &o.cpp, &len, &regular);
	if (!text) {
		status = diag.errors ? EXIT_INPUT : EXIT_SYSTEM;
		goto done;
	}
	popt.preprocessed = o.cpp.enabled;
	/* Diagnostics quote a regular file from disk, only if they need to;
	   other inputs (pipes) can be read once only: keep a copy. */
	if (!o.cpp.enabled && !regular)
		diag_add_source(o.input, text, len);
	prog = parse_text(o.input, text, len, &popt);
	/* Check even after syntax errors: report everything in one run. */
	check_program(prog, tg);
	if (diag.errors) {
		status = EXIT_INPUT;
	} else if (o.mode == MODE_HEADER) {
		struct header_options hopt = { output, base_name(o.input),
					       o.header_only };

		struct output header;

		if (output_open(&header, output) != 0) {
			status = EXIT_SYSTEM;
		} else {
			emit_header(&header, prog, &hopt);
			if (output_commit(&header) != 0)
				status = EXIT_SYSTEM;
		}
	} else if (o.mode == MODE_RUST) {
		emit_rust(&out, prog, base_name(o.input));
		if (output_write(output, out.data, out.len) != 0)
			status = EXIT_SYSTEM;
	} else {
		struct output object;

		if (output_open(&object, output) != 0) {
			status = EXIT_SYSTEM;
		} else if (emit_object(&object, prog, tg) != 0) {
			output_abort(&object);
			status = EXIT_SYSTEM;
		} else if (output_commit(&object) != 0) {
			status = EXIT_SYSTEM;
		}
	}
	program_free(prog);
	free(text);
done:
	buf_free(&out);
	free(output);
	for (i = 0; i < o.cpp.nargs; i++)
		free(o.cpp.args[i]);
	free(o.cpp.args);
	free(o.objects);
	diag_free();
	return status;
}
