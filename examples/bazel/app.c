/* examples/bazel/app.c: fires app.d's probes; prints whether a tracer
 * was attached. */
#include <stdio.h>

#include "app.h"

int main(void)
{
	int id, seen = 0;

	for (id = 0; id < 3; id++) {
		if (APP_REQUEST_START_ENABLED())
			seen++;
		APP_REQUEST_START(id, "/index.html");
		APP_REQUEST_DONE(id, 200);
	}
	printf("traced: %s\n", seen ? "yes" : "no");
	return 0;
}
