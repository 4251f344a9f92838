/* Fires bench:event N times (default 1,000,000) as fast as it can; with
 * "pairs" as its second argument, N bench:work__start/work__done pairs
 * instead. */
#include <stdlib.h>
#include <string.h>

#include "trace_loop.h"

int main(int argc, char **argv)
{
	static const char name[] = "probegen";
	long i, n = argc > 1 ? atol(argv[1]) : 1000000;
	/* A tracer reads the string from a page it cannot fault in. */
	volatile char touch = *(volatile const char *)name;

	(void)touch;
	if (argc > 2 && strcmp(argv[2], "pairs") == 0) {
		for (i = 0; i < n; i++) {
			trace_bench_work_start((int)i);
			trace_bench_work_done((int)i);
		}
		return 0;
	}
	for (i = 0; i < n; i++)
		trace_bench_event(name, (int)i, i * 2, (unsigned int)i, (short)i, -i);
	return 0;
}
