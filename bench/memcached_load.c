/*
 * bench/memcached_load.c - a steady load for memcached (bench/budget.sh):
 * RATE requests a second for SECONDS, as clients that send at their own
 * pace whatever the server's (memcaslap's --tps does not hold its rate
 * here), on one connection: 9 gets to a set, each answered before the
 * next is sent; a request whose time has passed goes at once (it
 * catches up after a slow stretch).  Prints the requests answered.
 *
 *     memcached_load PORT RATE SECONDS
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Read until the reply's end: "END\r\n" for a get, "STORED\r\n" for a set. */
static int answer(int fd, const char *end)
{
	char buf[4096];
	size_t have = 0, n = strlen(end);
	ssize_t r;

	for (;;) {
		r = read(fd, buf + have, sizeof(buf) - 1 - have);
		if (r <= 0)
			return -1;
		have += (size_t)r;
		buf[have] = '\0';
		if (have >= n && strcmp(buf + have - n, end) == 0)
			return 0;
		if (have >= sizeof(buf) - 1)
			have = 0; /* a long value: only its end matters */
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	double rate, start, end;
	long sent = 0;
	int fd, one = 1;
	char req[128];

	if (argc != 4) {
		fprintf(stderr, "usage: memcached_load PORT RATE SECONDS\n");
		return 2;
	}
	a.sin_port = htons((unsigned short)atoi(argv[1]));
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rate = atof(argv[2]);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		perror("memcached_load: connect");
		return 1;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	start = now();
	end = start + atof(argv[3]);
	while (now() < end) {
		double due = start + (double)sent / rate;

		while (now() < due)
			; /* the next request's time */
		if (sent % 10 == 0)
			snprintf(req, sizeof(req), "set k%ld 0 0 5\r\nvalue\r\n",
				 sent % 1000);
		else
			snprintf(req, sizeof(req), "get k%ld\r\n", sent % 1000);
		if (write(fd, req, strlen(req)) < 0 ||
		    answer(fd, sent % 10 == 0 ? "STORED\r\n" : "END\r\n") != 0) {
			perror("memcached_load");
			return 1;
		}
		sent++;
	}
	printf("%ld\n", sent);
	return 0;
}
