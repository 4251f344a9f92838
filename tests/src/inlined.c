/*
 * tests/src/inlined.c - st:deep fired in fire, inlined into check,
 * inlined into outer (tests/t_stack.sh: --stack shows the inlined
 * frames, each at its line, and outer at the line of its call).
 */
#include <stdlib.h>
#include "stack_probes.h"

static inline __attribute__((always_inline)) void fire(int n)
{
	ST_DEEP(n);
}

static inline __attribute__((always_inline)) void check(int n)
{
	if (n >= 0)
		fire(n * 3);
}

__attribute__((noinline)) int outer(int n)
{
	check(n);
	__asm__ __volatile__("" ::: "memory");
	return n + 1;
}

int main(int argc, char **argv)
{
	return outer(argc) == 0;
}
