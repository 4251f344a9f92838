/*
 * fuzz/fuzz_common.h - what both libFuzzer harnesses set up once: a
 * scratch directory for the outputs they write (on tmpfs when there is
 * one, so that a run stays fast), and diagnostics thrown away unless
 * FUZZ_SHOW_DIAGNOSTICS is set (bad inputs are the point).
 */
#include <stdio.h>
#include <stdlib.h>

#include "probegen.h"

/* path: DIR/name in a new scratch directory. */
static void fuzz_setup(char *path, size_t size, const char *name)
{
	char dir[] = "/dev/shm/probegen-fuzz.XXXXXX";
	char alt[] = "/tmp/probegen-fuzz.XXXXXX";
	const char *d = mkdtemp(dir);

	if (!d)
		d = mkdtemp(alt);
	if (!d)
		abort();
	snprintf(path, size, "%s/%s", d, name);
	if (!getenv("FUZZ_SHOW_DIAGNOSTICS"))
		diag.stream = fopen("/dev/null", "w");
}

/* The LLVMFuzzerInitialize of a harness that writes no file of its own:
 * a scratch directory all the same, and diagnostics to /dev/null. */
#define FUZZ_INITIALIZE_QUIETLY()                                              \
	int LLVMFuzzerInitialize(int *argc, char ***argv);                     \
	int LLVMFuzzerInitialize(int *argc, char ***argv)                      \
	{                                                                      \
		char scratch[256];                                             \
									       \
		(void)argc;                                                    \
		(void)argv;                                                    \
		fuzz_setup(scratch, sizeof(scratch), "unused");                \
		return 0;                                                      \
	}
