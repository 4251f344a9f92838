/* tests/src/stack_lib.c - stack.c's leaf, in a shared library. */
#include "stack_probes.h"

__attribute__((noinline)) int leaf(int n)
{
	ST_DEEP(n);
	__asm__ __volatile__("" ::: "memory");
	return n + 1;
}
