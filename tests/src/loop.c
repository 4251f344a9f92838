/* Fires the probes of values.d every 20 ms until a tracer has enabled
 * vals:ints and seen it fire five times, or ten seconds pass.  Prints
 * what the program itself observed of the semaphore. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "values.h"

static char text[] = "hello probe";

int main(void)
{
	int i, enabled_firings = 0;
	volatile size_t touch = strlen(text); /* fault the page in early */

	(void)touch;
	for (i = 0; i < 500 && enabled_firings < 5; i++) {
		if (VALS_INTS_ENABLED())
			enabled_firings++;
		trace_vals_ints(65, 250, -300, 60000, -70000, 4000000000u,
				-5000000000L, 18000000000000000000ul,
				-9000000000000000000LL, 18446744073709551615ull);
		trace_vals_ptrs(text, &text[6], text);
		VALS_TWELVE_LAZY(1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12);
		usleep(20000);
	}
	printf("program saw the semaphore set: %s\n",
	       enabled_firings ? "yes" : "no");
	return 0;
}
