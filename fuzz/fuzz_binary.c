/*
 * fuzz/fuzz_binary.c - libFuzzer entry point over the reader of
 * binaries: the input is an ELF file (seeded with real binaries), read
 * by notes.c, built into a program, then listed as text and JSON,
 * checked against what it records (--check's site rules), and written as
 * a bpftrace script, as --list, --check and --bpftrace BINARY do.  A
 * crash, sanitizer report, leak or timeout is a finding; warnings are
 * expected and thrown away.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "compiler/emit.h"
#include "inspect/inspect.h"
#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char script_path[256];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_setup(script_path, sizeof(script_path), "fuzz.bt");
	/* --list writes to stdout: away with it. */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-binary", 0);
	char path[64];
	const char *files[1] = { path };
	struct emit_options opt = { "fuzz", script_path, NULL, 0, 0, 0 };
	struct binary b;
	struct target tg;
	struct program *prog;
	struct output out;

	if (fd < 0)
		abort();
	if (write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	inspect_list(files, 1, 0, NULL);
	inspect_list(files, 1, 1, NULL);
	/* --trace's reading of a program's loader. */
	(void)binary_function_offset(path, "_dl_debug_state");
	if (binary_read(path, &b) == 0) {
		struct check_options copt = { 0 };

		prog = binary_program(&b);
		/* --check of the binary against what it records itself:
		   every site's specs, grouped findings, text or JSON. */
		copt.json = (int)(size & 1);
		copt.sites = (int)((size >> 1) & 1);
		inspect_check(prog, files, 1, &copt);
		/* The binary's own target, as --bpftrace BINARY takes it:
		   any machine and class the input names (an unknown machine
		   once reached type.c as NULL). */
		if (target_from_elf(path, &tg) != 0)
			abort(); /* binary_read took it as ELF */
		opt.target = &tg;
		if (output_open(&out, script_path) != 0)
			abort();
		if (emit_bpftrace(&out, prog, &opt) != 0 ||
		    output_commit(&out) != 0)
			abort();
		program_free(prog);
		binary_free(&b);
	}
	close(fd);
	return 0;
}
