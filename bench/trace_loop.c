/* Fires bench:event N times (default 1,000,000) as fast as it can; with
 * "pairs" as its second argument, N bench:work__start/work__done pairs
 * instead; with "server", N firings shaped as a server's: N/10
 * requests, each its start, 8 headers and its end; with "paced RATE",
 * N firings of bench:event at RATE a second (a tracer's sustained rate:
 * what it takes with nothing lost); with "deep", N firings of
 * bench:event each 60 frames of 1 KiB down (what --stack's copy of a
 * deep stack costs).  Says on stderr how long the
 * firings took, a firing: what a tracer costs the program, without the
 * tracer's own start and end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace_loop.h"

/* A request as a server reads it: every string below points into it. */
static const char request[] =
	"GET /static/app.js HTTP/1.1\r\n"
	"Host: www.example.org\r\n"
	"User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Firefox/115.0\r\n"
	"Accept: */*\r\n"
	"Accept-Language: en-US,en;q=0.5\r\n"
	"Accept-Encoding: gzip, deflate, br\r\n"
	"Referer: https://www.example.org/\r\n"
	"Connection: keep-alive\r\n"
	"Cache-Control: max-age=0\r\n\r\n";

/* N/10 requests: their start, 8 headers (parsed from request) and end. */
static void serve(long n)
{
	const char *line, *colon, *eol;
	long r;

	for (r = 0; r < n / 10; r++) {
		trace_bench_request_start((int)r, request, 3, request + 4, 14);
		line = strstr(request, "\r\n") + 2;
		while ((eol = strstr(line, "\r\n")) != line) {
			colon = strchr(line, ':');
			trace_bench_header((int)r, line, (size_t)(colon - line),
					   colon + 2, (size_t)(eol - colon - 2));
			line = eol + 2;
		}
		trace_bench_request_done((int)r, 200, 5120 + r % 1000);
	}
}

/* bench:event under level more frames of about 1 KiB each. */
__attribute__((noinline)) static int descend(int level, long i)
{
	volatile char frame[1000];

	memset((char *)frame, level, sizeof(frame));
	if (level == 0)
		trace_bench_event("deep", (int)i, i, (unsigned int)i, 0, 0);
	else
		descend(level - 1, i);
	__asm__ __volatile__("" ::: "memory");
	return frame[level];
}

int main(int argc, char **argv)
{
	static const char name[] = "probegen";
	long i, n = argc > 1 ? atol(argv[1]) : 1000000;
	struct timespec t0, t1;
	/* A tracer reads the string from a page it cannot fault in. */
	volatile char touch = *(volatile const char *)name;

	(void)touch;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (argc > 2 && strcmp(argv[2], "server") == 0) {
		serve(n);
	} else if (argc > 3 && strcmp(argv[2], "paced") == 0) {
		double gap = 1e9 / atof(argv[3]), due = 0;
		struct timespec now;

		for (i = 0; i < n; i++, due += gap) {
			do
				clock_gettime(CLOCK_MONOTONIC, &now);
			while ((double)(now.tv_sec - t0.tv_sec) * 1e9 +
				       (double)(now.tv_nsec - t0.tv_nsec) <
			       due);
			trace_bench_event(name, (int)i, i * 2, (unsigned int)i,
					  (short)i, -i);
		}
	} else if (argc > 2 && strcmp(argv[2], "deep") == 0) {
		for (i = 0; i < n; i++)
			descend(60, i);
	} else if (argc > 2 && strcmp(argv[2], "pairs") == 0) {
		for (i = 0; i < n; i++) {
			trace_bench_work_start((int)i);
			trace_bench_work_done((int)i);
		}
	} else {
		for (i = 0; i < n; i++)
			trace_bench_event(name, (int)i, i * 2, (unsigned int)i,
					  (short)i, -i);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "loop: %.3f ns a firing\n",
		((double)(t1.tv_sec - t0.tv_sec) * 1e9 +
		 (double)(t1.tv_nsec - t0.tv_nsec)) / (double)(n ? n : 1));
	return 0;
}
