/* tests/src/pairs.c - known work for --trace --summary: 5 queries of
 * 10 ms and 5 of 40 ms; a recursive function 5 deep, called 3 times
 * (15 matched entry/return pairs, nested); 4 requests begun on one
 * thread and finished on another 20 ms later (matched by req); 3 ticks;
 * work:never never fires. */
#include <pthread.h>
#include <time.h>
#include "pairs.h"

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int recurse(int depth)
{
	int r = 0;

	trace_work_function_entry(depth);
	if (depth < 5)
		r = recurse(depth + 1) + 1;
	trace_work_function_return(depth);
	return r;
}

static void *finisher(void *arg)
{
	long req;

	(void)arg;
	sleep_ms(20);
	for (req = 1; req <= 4; req++)
		trace_work_request_finished(req);
	return NULL;
}

int main(void)
{
	pthread_t t;
	long req;
	int i;

	sleep_ms(300); /* for the tracer to attach */
	for (i = 0; i < 10; i++) {
		trace_work_query_start(i, "select 1");
		sleep_ms(i < 5 ? 10 : 40);
		trace_work_query_done(i);
	}
	for (i = 0; i < 3; i++)
		recurse(1);
	for (req = 1; req <= 4; req++)
		trace_work_request_begin(req);
	pthread_create(&t, NULL, finisher, NULL);
	pthread_join(t, NULL);
	for (i = 0; i < 3; i++)
		WORK_TICK();
	return 0;
}
