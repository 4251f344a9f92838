/*
 * tests/src/busy.c - a busy server's loop for --budget (t_budget.sh,
 * docs/production.md): for SECONDS, a request at a time, each a little
 * work, its start, 10 lookups and its end; a tick 20 times a second.
 * With RATE, the requests come at RATE a second, as a server's clients
 * send them whatever the server's speed (the loop waits for each one's
 * time; it catches up after a slow stretch); else as fast as it can.
 * Says on stderr what it fired.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "busy.h"
static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
int main(int argc, char **argv)
{
	double start = now(), end = start + atof(argv[1]), next_tick = start;
	double rate = argc > 2 ? atof(argv[2]) : 0, t;
	volatile unsigned long work = 0;
	long id = 0, ticks = 0, lookups = 0;

	while ((t = now()) < end) {
		if (rate > 0 && t < start + id / rate)
			continue; /* the next request has not come yet */
		for (int k = 0; k < 2000; k++)
			work += (unsigned long)k * k;
		BUSY_REQUEST_START(id);
		for (int i = 0; i < 10; i++, lookups++)
			BUSY_LOOKUP(id, i);
		BUSY_REQUEST_DONE(id);
		id++;
		if (t >= next_tick) {
			BUSY_TICK(ticks++);
			next_tick += 0.05;
		}
	}
	fprintf(stderr, "requests %ld lookups %ld ticks %ld\n", id, lookups, ticks);
	return 0;
}
