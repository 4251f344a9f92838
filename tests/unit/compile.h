/*
 * tests/unit/compile.h - a provider file compiled from a string, as
 * probegen -h compiles one (parse, complete, check), with what it said
 * kept (unit_said); and one probe's argument found by name.  For the unit tests of
 * the compiler's parts.
 */
#ifndef PROBEGEN_UNIT_COMPILE_H
#define PROBEGEN_UNIT_COMPILE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/naming.h"
#include "unit.h"

/* text, as file "t.d", compiled for the host: the program (free it),
 * with diag.errors counting its errors. */
static inline struct program *compile(const char *text)
{
	size_t n = strlen(text);
	char *copy = malloc(n + 2);
	struct parse_options popt = { 0 };
	struct program *prog;

	memcpy(copy, text, n);
	copy[n] = copy[n + 1] = '\0';
	unit_listen();
	diag.errors = 0;
	diag_add_source("t.d", copy, n);
	prog = parse_text(NULL, "t.d", copy, n, &popt);
	program_complete(prog);
	check_program(prog, target_host(), 1);
	free(copy);
	return prog;
}

/* Probe name of prog (it must have it). */
static inline const struct probe *probe_of(const struct program *prog,
					   const char *name)
{
	const struct provider *pv;
	const struct probe *pr;

	for_each_provider(prog, pv)
		for_each_probe(pv, pr)
			if (strcmp(pr->name, name) == 0)
				return pr;
	abort();
}

/* Probe name's argument i, read as the tracers read it. */
static inline struct arg_read read_of(const struct program *prog,
				      const char *name, int i)
{
	return decl_arg_read(prog, probe_of(prog, name), i, target_host());
}

#endif
