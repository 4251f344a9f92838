/*
 * tests/src/members.c - a connection two pointers deep, fired with
 * tests/src/members.d's probes (tests/t_meanings.sh).  Right after each
 * firing the program overwrites what the probe's members held: a
 * tracer that read them later than the firing would print 99999, "gone",
 * "ex", "de" and IDLE.  Each request ends on a copy of the connection.
 * ROUNDS firings (argv[1]), 10 ms apart.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "members_probes.h"

enum state { IDLE, OPEN, CLOSING = 7 };
struct cid {
	unsigned long long master_id;
	char label[8];
};
struct local {
	struct cid cid_set;
	int port;
};
struct peer {
	const char *name;
	struct sockaddr_in addr;
	/* Pointers with their lengths: into a larger buffer, and bytes. */
	const char *host;
	int host_len;
	const void *token;
	unsigned char token_len;
};
struct st_conn {
	int id;
	struct local local;
	struct peer *peer;
	enum state state;
	short small;
};

/* The stores before a probe are made before it, those after it after:
   a probe site reads no memory, so the compiler may move them. */
#define BARRIER() __asm__ __volatile__("" ::: "memory")

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 3, i;
	struct peer *p = calloc(1, sizeof(*p));
	struct st_conn *c = calloc(1, sizeof(*c)), done;
	char name[16];
	static unsigned char big[200];

	c->peer = p;
	p->addr.sin_family = AF_INET;
	p->addr.sin_port = htons(4433);
	inet_pton(AF_INET, "10.0.0.2", &p->addr.sin_addr);
	p->host = "example.org:443/index.html";
	memset(big, 0xab, sizeof(big));
	for (i = 0; i < rounds; i++) {
		snprintf(name, sizeof(name), "peer-%d", i);
		p->name = name;
		c->id = i;
		c->local.cid_set.master_id = 1000 + (unsigned)i;
		strcpy(c->local.cid_set.label, "abc");
		c->state = i % 2 ? CLOSING : OPEN;
		c->small = (short)-i;
		p->host_len = i == 2 ? -3 : 11; /* "example.org", then -3 */
		/* 4 bytes, then 200: more than a member's slot holds. */
		p->token = i == 1 ? (const void *)big : "\xde\xad\xbe\xef\x01\x02";
		p->token_len = i == 1 ? 200 : 4;
		BARRIER();
		QUIC_REQUEST_START(c);
		QUIC_SEND(c, i);
		/* Ended on a copy: a pair matched by the pointer never
		   matches, one matched by conn->id does. */
		done = *c;
		QUIC_REQUEST_DONE(&done);
		BARRIER();
		c->local.cid_set.master_id = 99999;
		p->name = "gone";
		p->host_len = 2;
		p->token_len = 1;
		c->state = IDLE;
		BARRIER();
		usleep(10000);
	}
	free(c);
	free(p);
	return 0;
}
