/* Reports each change of vals:none's _ENABLED() while it fires the probe
 * every 10 ms for 4 s: "0" at the start, "1" while a tracer is attached,
 * "0" again once it has gone. */
#include <stdio.h>
#include <unistd.h>
#include "values.h"

int main(void)
{
	int i, last = -1;

	for (i = 0; i < 400; i++) {
		int now = VALS_NONE_ENABLED() != 0;

		if (now != last) {
			printf("%d\n", now);
			fflush(stdout);
			last = now;
		}
		VALS_NONE();
		usleep(10000);
	}
	return 0;
}
