/*
 * main.c - what probegen does: the commands the modes run (each mode
 * is its option's row in option_table.c): .d files compiled into one
 * file by the mode's emitter, --list-targets, --list, --check and
 * --trace.  Nothing is written unless every stage succeeded.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/emit.h"
#include "inspect/inspect.h"
#include "compiler/input.h"
#include "options.h"
#include "trace/trace_run.h"

/* FILE.d -> FILE.h in the current directory, as both dtraces do. */
static char *default_output(const char *input, const char *extension)
{
	const char *base = path_base_name(input);
	size_t n = strlen(base);

	if (n > 2 && strcmp(base + n - 2, ".d") == 0)
		n -= 2;
	return xasprintf("%.*s.%s", (int)n, base, extension);
}

/* The target of -G, or NULL after saying why. */
static const struct target *target_for(const struct options *o,
				       struct target *scratch)
{
	const struct target *tg = NULL;
	const char *culprits[2];
	const char *const *objects;
	const char *source;
	struct target a, b;
	int nobjects, i;

	objects = options_after_d_files(o, &nobjects);
	/* SystemTap ignores OBJECT operands, and real builds rely on it
	   (PHP names objects not built yet): a missing one is said, not
	   an error. */
	for (i = 0; i < nobjects; i++)
		if (access(objects[i], F_OK) != 0)
			warning_plain("OBJECT '%s' does not exist", objects[i]);
	/* SystemTap's -G compiles with $CC $CFLAGS: with no objects to
	   follow, their target is the one the build asked for. */
	switch (target_choose(o->target, o->bits, objects, nobjects,
			      getenv("CC"), getenv("CFLAGS"), scratch, &tg,
			      &source, culprits)) {
	case TARGET_OK:
		/* A typo or a failed compile must not choose the target
		   unsaid (a cross build got the host's object). */
		if (nobjects && !o->target && strcmp(source, "the objects") != 0)
			warning_plain("no OBJECT could be read as ELF: writing for %s, "
				      "chosen by %s (--target=ARCH to choose)",
				      tg->name, source);
		return tg;
	case TARGET_UNKNOWN:
		usage_error("unknown target '%s' (see --list-targets)",
			    o->target);
		return NULL;
	case TARGET_NO_VARIANT:
		usage_error("no %d-bit variant of target '%s'", o->bits,
			    tg->name);
		return NULL;
	case TARGET_MIXED:
		target_from_elf(culprits[0], &a);
		target_from_elf(culprits[1], &b);
		error_input("'%s' (%s, %d-bit) and '%s' (%s, %d-bit) are for different targets",
			    culprits[0], a.name, a.elfclass == 2 ? 64 : 32,
			    culprits[1], b.name, b.elfclass == 2 ? 64 : 32);
		return NULL;
	}
	return NULL;
}

/* The .d files read, parsed into one program and checked; NULL after
 * saying why. */
static struct program *read_program(const struct options *o,
				    const struct target *tg,
				    struct emit_options *eopt)
{
	struct parse_options popt = { o->cpp.enabled,
				      !!(o->mode->depends & M_NO_TYPES) };
	const char *const *paths;
	struct program *prog = NULL;
	/* The binary's target outlives this call: eopt points to it. */
	static struct target elf;
	size_t len;
	char *text;
	int regular, i, n;

	paths = options_d_files(o, &n);
	if (o->mode->reads == READS_D_OR_BINARY && n == 1 &&
	    target_from_elf(paths[0], &elf) == 0) {
		/* A script for the binary: its target, its probes.  A
		   machine no row names still has its ELF header's class and
		   byte order (target_from_elf), as --list and --check read it. */
		eopt->target = &elf;
		eopt->for_binaries = path_base_name(paths[0]);
		return recorded_program(paths[0], &eopt->for_library);
	}
	for (i = 0; i < n; i++) {
		if (!(text = input_read(paths[i], &o->cpp, &len, &regular))) {
			program_free(prog);
			return NULL;
		}
		/* Diagnostics quote a regular file from disk, only if they
		   need to; other inputs (pipes) can be read once: keep a copy. */
		if (!o->cpp.enabled && !regular)
			diag_add_source(paths[i], text, len);
		prog = parse_text(prog, paths[i], text, len, &popt);
		free(text);
	}
	program_complete(prog);
	/* Check even after syntax errors: report everything in one run. */
	check_program(prog, tg, o->mode->depends & M_TYPES);
	if (diag.errors) {
		program_free(prog);
		return NULL;
	}
	return prog;
}

/* Write prog through emit into output, atomically. */
static int emit_to(const struct options *o, const char *output,
		   const struct program *prog, const struct emit_options *eopt)
{
	struct output out;

	if (output_open(&out, output) != 0)
		return EXIT_SYSTEM;
	if (o->mode->emit(&out, prog, eopt) != 0) {
		output_abort(&out);
		return EXIT_SYSTEM;
	}
	return output_commit(&out) != 0 ? EXIT_SYSTEM : EXIT_OK;
}

/* Read, parse, check and emit; write the output only if all succeed. */
static int compile(const struct options *o)
{
	struct emit_options eopt = { 0 };
	const char *const *paths;
	struct target scratch;
	struct program *prog;
	char *output, *name, *for_binaries = NULL;
	int status = EXIT_OK, n, errors = diag.errors;

	paths = options_d_files(o, &n);
	output = o->output ? xstrdup(o->output)
			   : default_output(paths[0], o->mode->extension);
	if (same_file(paths[0], output)) {
		error_plain("'%s' is both the input and the output", output);
		free(output);
		return EXIT_SYSTEM;
	}
	/* Banners name the file; "a.d and 87 more" when split across many. */
	name = n > 1 ? xasprintf("%s and %d more", path_base_name(paths[0]),
				 n - 1)
		     : xstrdup(path_base_name(paths[0]));
	eopt.input_name = name;
	eopt.output_name = output;
	eopt.header_only = o->header_only;
	eopt.self_contained = o->self_contained;
	eopt.summary = o->summary;
	eopt.target = o->mode->takes & O_TARGET
			      ? target_for(o, &scratch)
			      : target_host();
	/* SystemTap hands -D to the compiler of -G, -C or not; for -h
	   without -C it reads none, and the header decides at compile time. */
	if (eopt.target && o->mode->depends & M_SDT_DEFINES)
		eopt.sdt_version =
			defines_sdt_version(&o->cpp, !o->cpp.enabled);
	prog = eopt.target ? read_program(o, eopt.target, &eopt) : NULL;
	if (!prog)
		status = failure_status(errors);
	options_after_d_files(o, &n);
	if (prog && o->mode->reads == READS_D_OR_BINARY && n > 0 &&
	    !eopt.for_binaries) {
		const char *const *binaries = options_after_d_files(o, &n);

		status = fit_to_binaries(prog, eopt.input_name, binaries, n,
					 &scratch, &for_binaries,
					 &eopt.for_library) != 0
				 ? failure_status(errors)
				 : EXIT_OK;
		if (status == EXIT_OK) {
			eopt.target = &scratch;
			eopt.for_binaries = for_binaries;
		}
	}
	if (prog && status == EXIT_OK)
		status = emit_to(o, output, prog, &eopt);
	program_free(prog);
	free(for_binaries);
	free(name);
	free(output);
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
	struct program *decls = NULL;
	int status, errors = diag.errors;

	if (o->nfiles && !(decls = read_program(o, target_host(), NULL)))
		return failure_status(errors);
	status = inspect_list(o->operands, o->noperands, o->json, decls);
	program_free(decls);
	return status;
}

/* --trace: -s files declare types; every operand is a binary. */
static int trace(const struct options *o)
{
	struct trace_options t = o->trace;
	struct program *decls = NULL;
	int status, errors = diag.errors;

	if (o->nfiles && !(decls = read_program(o, target_host(), NULL)))
		return failure_status(errors);
	/* What --trace shares with other modes, and its operands. */
	t.binaries = o->operands;
	t.nbinaries = o->noperands;
	t.d_program = decls;
	t.json = o->json;
	t.summary = o->summary;
	t.output = o->output;
	status = trace_run(&t);
	program_free(decls);
	return status;
}

/* --check FILE.d... BINARY... */
static int check_binaries(const struct options *o)
{
	const char *const *binaries;
	struct program *prog;
	int status, n, errors = diag.errors;

	prog = read_program(o, target_host(), NULL);
	if (!prog)
		return failure_status(errors);
	binaries = options_after_d_files(o, &n);
	{
		struct check_options copt = { o->strict, o->allow_missing,
					      o->sites, o->json };

		status = inspect_check(prog, binaries, n, &copt);
	}
	program_free(prog);
	return status;
}

/* What each mode runs (option_table.c's modes name it). */
static int (*const commands[COMMAND_COUNT])(const struct options *o) = {
	[COMMAND_COMPILE] = compile,
	[COMMAND_LIST_TARGETS] = list_targets,
	[COMMAND_LIST] = list_probes,
	[COMMAND_CHECK] = check_binaries,
	[COMMAND_TRACE] = trace,
};

int main(int argc, char **argv)
{
	struct options o = { 0 };
	int status;
	status = options_parse(argc, argv, &o);
	status = status < 0   ? EXIT_SYSTEM
		 : status > 0 ? commands[o.mode->command](&o)
			      : EXIT_OK;
	options_free(&o);
	diag_free();
	return status;
}
