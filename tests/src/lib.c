/* A shared library with its own probes, for the bpftrace -p test. */
#include "values.h"

void lib_fire(int n);
void lib_fire(int n)
{
	trace_vals_twelve(n, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12);
}
