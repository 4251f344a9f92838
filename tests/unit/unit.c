/*
 * tests/unit/unit.c - the unit layer's harness (unit.h): runs each case
 * in turn; a failed CHECK jumps back here, so the next case still runs.
 * Diagnostics probegen's parts print go to stderr, as in probegen; a
 * case that expects one reads it from diag's stream (a memory file).
 */
#include <stdarg.h>
#include <stdlib.h>

#include "probegen.h"
#include "unit.h"

jmp_buf unit_failed;
static char unit_why[1024];

void unit_skip(const char *why)
{
	snprintf(unit_why, sizeof(unit_why), "%s", why);
	longjmp(unit_failed, 2);
}

void unit_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(unit_why, sizeof(unit_why), "%s:%d: ", file, line);

	va_start(ap, fmt);
	vsnprintf(unit_why + n, sizeof(unit_why) - (size_t)n, fmt, ap);
	va_end(ap);
	longjmp(unit_failed, 1);
}

static char *said;
static size_t said_len;
static FILE *said_stream;

void unit_listen(void)
{
	if (said_stream)
		fclose(said_stream);
	free(said);
	said = NULL;
	said_stream = open_memstream(&said, &said_len);
	diag.stream = said_stream;
}

const char *unit_said(void)
{
	if (said_stream)
		fflush(said_stream);
	return said ? said : "";
}

static int wanted(int argc, char **argv, const char *name)
{
	int i;

	if (argc < 2)
		return 1;
	for (i = 1; i < argc; i++)
		if (strstr(name, argv[i]))
			return 1;
	return 0;
}

int unit_main(int argc, char **argv, const struct unit_case *cases,
	      size_t ncases)
{
	/* Kept across the longjmp of a failed case. */
	static int passed, failed, skipped;
	static size_t i;
	int how;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < ncases; i++) {
		if (!wanted(argc, argv, cases[i].name))
			continue;
		if ((how = setjmp(unit_failed)) == 0) {
			cases[i].run();
			passed++;
			printf("ok   %s\n", cases[i].name);
		} else if (how == 2) {
			skipped++;
			printf("SKIP %s: %s\n", cases[i].name, unit_why);
		} else {
			failed++;
			printf("FAIL %s: %s\n", cases[i].name, unit_why);
		}
	}
	printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
