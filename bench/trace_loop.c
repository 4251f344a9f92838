/* Fires bench:event N times (default 1,000,000) as fast as it can; with
 * "pairs" as its second argument, N bench:work__start/work__done pairs
 * instead.  Says on stderr how long the firings took, a firing: what a
 * tracer costs the program, without the tracer's own start and end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace_loop.h"

int main(int argc, char **argv)
{
	static const char name[] = "probegen";
	long i, n = argc > 1 ? atol(argv[1]) : 1000000;
	struct timespec t0, t1;
	/* A tracer reads the string from a page it cannot fault in. */
	volatile char touch = *(volatile const char *)name;

	(void)touch;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (argc > 2 && strcmp(argv[2], "pairs") == 0) {
		for (i = 0; i < n; i++) {
			trace_bench_work_start((int)i);
			trace_bench_work_done((int)i);
		}
	} else {
		for (i = 0; i < n; i++)
			trace_bench_event(name, (int)i, i * 2, (unsigned int)i,
					  (short)i, -i);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "loop: %.3f ns a firing\n",
		((double)(t1.tv_sec - t0.tv_sec) * 1e9 +
		 (double)(t1.tv_nsec - t0.tv_nsec)) / (double)(n ? n : 1));
	return 0;
}
