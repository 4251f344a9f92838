/*
 * tests/src/stack.c - main calls outer, outer middle, middle leaf, and
 * leaf fires st:deep (tests/t_stack.sh builds it -O2
 * -fomit-frame-pointer: only the CFI walks it).  With -DLEAF_IN_LIBRARY
 * leaf is a shared library's (stack_lib.c).
 */
#include <stdlib.h>

#include "stack_probes.h"

#ifdef LEAF_IN_LIBRARY
int leaf(int n);
#else
__attribute__((noinline)) int leaf(int n)
{
	ST_DEEP(n);
	__asm__ __volatile__("" ::: "memory");
	return n + 1;
}
#endif

__attribute__((noinline)) int middle(int n)
{
	int r = leaf(n * 2);

	__asm__ __volatile__("" ::: "memory");
	return r + 1;
}

__attribute__((noinline)) int outer(int n)
{
	int r = middle(n + 1);

	__asm__ __volatile__("" ::: "memory");
	return r + 1;
}

int main(int argc, char **argv)
{
	int i, sum = 0, rounds = argc > 1 ? atoi(argv[1]) : 3;

	for (i = 0; i < rounds; i++)
		sum += outer(i);
	return sum < 0;
}
