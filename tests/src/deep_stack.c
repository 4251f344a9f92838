/*
 * tests/src/deep_stack.c - st:deep fired under 50 frames of about 1 KiB
 * each (tests/t_stack.sh: a walk to main needs a copy of more than the
 * 16 KiB --stack-bytes once allowed, as a server's deep call chain
 * does).  ./deep_stack N fires N times at the bottom.
 */
#include <stdlib.h>
#include <string.h>

#include "stack_probes.h"

#define LEVELS 50

__attribute__((noinline)) static int descend(int level, int n)
{
	volatile char frame[1000]; /* the frame's bytes, kept */
	int r;

	memset((char *)frame, level, sizeof(frame));
	if (level == 0) {
		ST_DEEP(n);
		r = 0;
	} else {
		r = descend(level - 1, n);
	}
	__asm__ __volatile__("" ::: "memory");
	return r + frame[level];
}

int main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 1, r = 0;

	for (i = 0; i < n; i++)
		r += descend(LEVELS, i);
	return r == -1;
}
