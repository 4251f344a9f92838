/*
 * tests/src/where.c - fires tests/src/where.d's probes with values at
 * the limits of their types, and writes its own record of each firing
 * (argv[1]), a line each: the probe and its arguments, which
 * tests/t_where.sh evaluates each filter on to know what must pass.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "where_probes.h"

static const char *const paths[] = { "/api/users", "/api/", "/index.html",
				     "/api/users/7/posts", "", "/apix" };

int main(int argc, char **argv)
{
	static const long long ids[] = { LLONG_MIN, -1, 0, 7, LLONG_MAX };
	static const unsigned long long bigs[] = { 0, 1, ULLONG_MAX / 2 + 1,
						   ULLONG_MAX };
	static const int negs[] = { INT_MIN, -5, 0, INT_MAX };
	const char buffer[] = "GET /api/users HTTP/1.1";
	FILE *rec = fopen(argc > 1 ? argv[1] : "/dev/null", "w");
	int i;

	if (!rec)
		return 1;
	for (i = 0; i < 40; i++) {
		long long id = ids[i % 5];
		unsigned char small = (unsigned char)(i * 37);
		unsigned long long big = bigs[i % 4];
		const char *path = paths[i % 6];
		int neg = negs[i % 4];

		W_REQ(id, small, big, path, neg);
		fprintf(rec, "req %lld %u %llu %s %d\n", id, small, big, path,
			neg);
	}
	/* "GET" and "/api/users" by their lengths, in a larger buffer. */
	W_TEXT(buffer, 3);
	fprintf(rec, "text GET\n");
	W_TEXT(buffer + 4, 10);
	fprintf(rec, "text /api/users\n");
	for (i = 0; i < 6; i++) {
		W_WORK_START(i);
		usleep(i % 2 ? 20000 : 1000);
		W_WORK_DONE(i, i % 2 ? 20000000 : 1000000);
		fprintf(rec, "work %d %d\n", i, i % 2 ? 20000000 : 1000000);
	}
	fclose(rec);
	return 0;
}
