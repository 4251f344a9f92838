/* Fires gated:fire, guarded by its _ENABLED(), 20 times 2 ms apart (1000
 * with an argument), and prints how often the guard was on: each time
 * when the tracer set the semaphore before the program started, never
 * when the kernel set another copy of its page.  -DLIB_ONLY builds
 * gated_fire() alone, for a library; -DMAIN_ONLY the program that calls
 * it. */
#include <stdio.h>
#include <unistd.h>
#include "gated.h"

int gated_fire(int i);

#ifndef MAIN_ONLY
int gated_fire(int i)
{
	if (GATED_FIRE_ENABLED()) {
		GATED_FIRE(i);
		return 1;
	}
	return 0;
}
#endif

#ifndef LIB_ONLY
int main(int argc, char **argv)
{
	int i, on = 0, n = argc > 1 ? 1000 : 20;

	(void)argv;
	for (i = 0; i < n; i++) {
		on += gated_fire(i);
		usleep(2000);
	}
	printf("enabled %d\n", on);
	return 0;
}
#endif
