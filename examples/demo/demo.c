/* A toy server that fires the probes of demo.d: one request every
 * 100 ms, for the number of seconds given (default 5). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "demo.h"

static const char *const paths[] = { "/index.html", "/api/users", "/health" };

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Only computed while a tracer is attached, thanks to the lazy form. */
static const char *describe(int id)
{
	static char text[64];

	snprintf(text, sizeof(text), "%s#%d", paths[id % 3], id);
	return text;
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 5, id;
	volatile int touched = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	/* Fault the strings' page in: a tracer reading a string at the
	   first firing finds nothing while the page is not mapped yet. */
	for (id = 0; id < 3; id++)
		touched += *(const volatile char *)paths[id];

	for (id = 0; id < seconds * 10; id++) {
		long long start = now_ns();

		/* SystemTap-compatible macro and typed call. */
		DEMO_REQUEST_START(id, paths[id % 3]);
		usleep(1000 + (id % 7) * 500);
		trace_demo_request_done(id, now_ns() - start);
		/* Lazy: describe() runs only while someone traces. */
		DEMO_TICK_LAZY();
		if (DEMO_REQUEST_START_ENABLED() && id % 10 == 0)
			printf("demo: traced, request %s\n", describe(id));
		usleep(100000);
	}
	return 0;
}
