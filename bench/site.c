/* bench/site.c - the cost of a disabled probe site.  Built once per
 * form (-DFORM=...) and per string argument (-DLITERAL=1: a string
 * literal, else one the program passes in): the loop is the same, only
 * the probe differs.
 * callgrind counts the instructions; nobody traces, so every probe is
 * disabled. */
#include <stdio.h>
#include "site.h"

#define N 1000000

static volatile unsigned sink;

/* An argument that costs something to compute: the lazy form must not. */
__attribute__((noinline)) static unsigned expensive(unsigned i)
{
	unsigned h = i, k;

	for (k = 0; k < 50; k++)
		h = h * 2654435761u + k;
	return h;
}

#if LITERAL
#define S "probe"
#else
#define S s
#endif

__attribute__((noinline)) void run_loop(const char *s);
__attribute__((noinline)) void run_loop(const char *s)
{
	unsigned i;

	(void)s;
	for (i = 0; i < N; i++) {
		sink = i;
#if FORM == 1
		SITE_HIT(i, S);
#elif FORM == 2
		trace_site_hit(i, S);
#elif FORM == 3
		SITE_HIT_LAZY(expensive(i), S);
#endif
	}
}

int main(void)
{
	run_loop("probe");
	printf("%u\n", sink + (unsigned)(expensive(1) & 0));
	return 0;
}
