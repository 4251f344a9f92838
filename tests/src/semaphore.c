/* Reports each change of vals:none's _ENABLED() while it fires the probe
 * every 10 ms for SECONDS (4 by default): "0" at the start, "1" while a
 * tracer is attached, "0" again once it has gone. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "values.h"

int main(int argc, char **argv)
{
	int i, last = -1, n = 100 * (argc > 1 ? atoi(argv[1]) : 4);

	for (i = 0; i < n; i++) {
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
