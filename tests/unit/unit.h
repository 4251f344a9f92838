/*
 * tests/unit/unit.h - the unit layer's harness: C tests that link
 * probegen's parts directly (every object but main.o) and need no root,
 * kernel or compiler.  A test file is a list of cases; each case calls
 * CHECK as often as it likes and fails at its first false one, saying
 * the file, line and what was expected, or unit_skip when it cannot run
 * here.  unit_main runs the cases named on the command line (all when
 * none) and ends with the suite's line, "N passed, N failed, N
 * skipped"; tests/unit/run.sh adds the files' lines up.
 */
#ifndef PROBEGEN_UNIT_H
#define PROBEGEN_UNIT_H

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

struct unit_case {
	const char *name;
	void (*run)(void);
};

extern jmp_buf unit_failed;
void unit_fail(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
/* The case cannot run here: it ends, said as SKIP with why. */
void unit_skip(const char *why) __attribute__((noreturn));
int unit_main(int argc, char **argv, const struct unit_case *cases,
	      size_t ncases);
/* From now on, what probegen's parts say (diag's stream) is kept, and
 * unit_said() returns it (what was said since the last unit_listen). */
void unit_listen(void);
const char *unit_said(void);

#define CHECK(cond, ...)                                                      \
	do {                                                                  \
		if (!(cond))                                                  \
			unit_fail(__FILE__, __LINE__, __VA_ARGS__);           \
	} while (0)
/* Two strings equal (either may be NULL). */
#define CHECK_STR(got, want)                                                  \
	do {                                                                  \
		const char *g_ = (got), *w_ = (want);                         \
		if (!g_ || !w_ ? g_ != w_ : strcmp(g_, w_) != 0)              \
			unit_fail(__FILE__, __LINE__,                         \
				  "expected \"%s\", got \"%s\"", w_ ? w_ : "(null)", \
				  g_ ? g_ : "(null)");                        \
	} while (0)
#define CHECK_INT(got, want)                                                  \
	do {                                                                  \
		long long g_ = (long long)(got), w_ = (long long)(want);      \
		if (g_ != w_)                                                 \
			unit_fail(__FILE__, __LINE__,                         \
				  "%s: expected %lld, got %lld", #got, w_, g_); \
	} while (0)

#define UNIT_CASES(...)                                                       \
	int main(int argc, char **argv)                                       \
	{                                                                     \
		static const struct unit_case cases[] = { __VA_ARGS__ };      \
		return unit_main(argc, argv, cases,                           \
				 sizeof(cases) / sizeof(cases[0]));           \
	}
#define UNIT(fn) { #fn, fn }

#endif
