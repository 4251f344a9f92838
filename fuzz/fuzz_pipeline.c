/*
 * fuzz/fuzz_pipeline.c - libFuzzer entry point over the whole pipeline:
 * scan, parse, check, then the header, the Rust module and the object,
 * written.  Any
 * crash, sanitizer report, leak or timeout is a finding; diagnostics are
 * expected and thrown away.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compiler/emit.h"
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Outputs go through the real output path, into a directory of their
 * own: on tmpfs when there is one, so that a run stays fast. */
static char header_path[256], object_path[256], rust_path[256];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t n;

	(void)argc;
	(void)argv;
	fuzz_setup(header_path, sizeof(header_path), "fuzz.h");
	n = strlen(header_path) - strlen("fuzz.h");
	snprintf(object_path, sizeof(object_path), "%.*sfuzz.o", (int)n,
		 header_path);
	snprintf(rust_path, sizeof(rust_path), "%.*sfuzz.rs", (int)n,
		 header_path);
	return 0;
}

/* Write prog in one format through the real output path. */
static void emit_to(const char *path, emit_fn *emit, const struct program *prog,
		    const struct emit_options *opt)
{
	struct output out;

	if (output_open(&out, path) != 0)
		abort();
	if (emit(&out, prog, opt) != 0 || output_commit(&out) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmalloc(size + 2);
	struct emit_options opt = { "fuzz.d", header_path, NULL, 0 };
	struct parse_options popt = { 0 };
	struct program *prog;
	struct stat st;

	memcpy(text, data, size);
	text[size] = text[size + 1] = '\0';
	/* Half the inputs are read as -C's cpp output would be. */
	popt.preprocessed = (int)((size >> 1) & 1);
	diag.errors = 0;
	diag_add_source("fuzz.d", text, size);
	prog = parse_text(NULL, "fuzz.d", text, size, &popt);
	program_complete(prog);
	check_program(prog, target_host(), 1);
	if (!diag.errors) {
		opt.header_only = (int)(size & 1);
		opt.target = target_host();
		emit_to(header_path, emit_header, prog, &opt);
		emit_to(rust_path, emit_rust, prog, &opt);
		opt.target = target_by_name("aarch64");
		emit_to(object_path, emit_object, prog, &opt);
		/* An object has at least an ELF header. */
		if (stat(object_path, &st) != 0 || st.st_size < 64)
			abort();
	}
	program_free(prog);
	diag_free();
	free(text);
	return 0;
}
