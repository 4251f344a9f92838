/*
 * tests/src/meanings.c - fires tests/src/meanings.d's probes with
 * arguments the tracer must read as they are meant (tests/t_meanings.sh).
 * Every string with a length points into a buffer whose next bytes are
 * "SECRET": no output may show them.  ROUNDS firings of each (argv[1]),
 * 10 ms apart.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "meanings.h"

int main(int argc, char **argv)
{
	static char request[] = "GET /index.htmlSECRET HTTP/1.1\r\n"
				"Host: example.orgSECRET\r\n";
	unsigned char hash[32], msg[5] = { 'v', 'e', 'r', 's', 0 };
	unsigned char *big = malloc(2000);
	struct sockaddr_in v4 = { .sin_family = AF_INET,
				  .sin_port = htons(8080) };
	struct sockaddr_in6 v6 = { .sin6_family = AF_INET6,
				   .sin6_port = htons(443) };
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	int rounds = argc > 1 ? atoi(argv[1]) : 1, i, r;

	for (i = 0; i < 32; i++)
		hash[i] = (unsigned char)i;
	for (i = 0; i < 2000; i++)
		big[i] = (unsigned char)(i < 1200 ? 0xab : 'S');
	inet_pton(AF_INET, "127.0.0.1", &v4.sin_addr);
	inet_pton(AF_INET6, "::1", &v6.sin6_addr);
	strcpy(un.sun_path, "/run/meanings.sock");
	for (r = 0; r < rounds; r++) {
		HTTP_REQ_START(request + 4, 11);
		HTTP_HEADER(request + 32, 4, request + 38, 11);
		HTTP_BODY(NULL, 0);
		HTTP_BODY(big, 1);
		HTTP_BODY(big, 128);
		HTTP_BODY(big, 129);
		HTTP_BODY(big, 1200);
		HTTP_BODY(big, (size_t)1 << 40);
		HTTP_BODY(NULL, 5);
		HTTP_CHUNK(request, -5);
		HTTP_SIZED("plain", 99);
		HTTP_REQ_DONE(200, 1200);
		HTTP_ACCEPTED(3, (struct sockaddr *)&v4);
		HTTP_ACCEPTED(4, (struct sockaddr *)&v6);
		HTTP_ACCEPTED(5, (struct sockaddr *)&un);
		HTTP_ACCEPTED(6, NULL);
		BTC_BLOCK_CONNECTED(hash, 800000);
		BTC_INBOUND_MESSAGE(7, 4, msg);
		BTC_FLUSH(2, 100);
		BTC_FLUSH(9, 0);
		usleep(10000);
	}
	free(big);
	return 0;
}
