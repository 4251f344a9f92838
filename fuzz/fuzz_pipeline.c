/*
 * fuzz/fuzz_pipeline.c - libFuzzer entry point over the whole pipeline:
 * scan, parse, check, then the header and the object in memory.  Any
 * crash, sanitizer report, leak or timeout is a finding; diagnostics are
 * expected and thrown away.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probegen.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* Diagnostics are the point of bad inputs; keep the log readable. */
	if (!getenv("FUZZ_SHOW_DIAGNOSTICS"))
		diag.stream = fopen("/dev/null", "w");
	diag.progname = "probegen";
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xmalloc(size + 2);
	struct header_options hopt = { "fuzz.h", "fuzz.d", (int)(size & 1) };
	struct parse_options popt = { 0 };
	struct program *prog;
	struct buf out = { 0 };

	memcpy(text, data, size);
	text[size] = text[size + 1] = '\0';
	diag.errors = diag.warnings = 0;
	diag_add_source("fuzz.d", text, size);
	prog = parse_text("fuzz.d", text, size, &popt);
	check_program(prog, target_host());
	if (!diag.errors) {
		emit_header(&out, prog, &hopt);
		buf_free(&out);
		if (emit_object(&out, prog, target_by_name("aarch64")) == 0 &&
		    out.len < 64)
			abort(); /* an object has at least an ELF header */
		buf_free(&out);
	}
	program_free(prog);
	diag_free();
	free(text);
	return 0;
}
