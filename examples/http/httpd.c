/*
 * examples/http/httpd.c - an HTTP-like server, small enough to read:
 * it "accepts" two connections and parses a request from each (canned
 * here, so that it runs anywhere), firing httpd.d's probes with
 * pointers into the request buffer and their lengths.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#include "httpd_probes.h"

static const char *const requests[] = {
	"GET /index.html HTTP/1.1\r\nHost: example.org\r\nAccept: */*\r\n\r\n",
	"POST /api/items HTTP/1.0\r\nHost: example.org\r\nContent-Length: 2\r\n\r\n{}",
};

/* The length of the line at p, to its \r\n. */
static size_t line_length(const char *p)
{
	return (size_t)(strstr(p, "\r\n") - p);
}

static int serve(int id, const char *req)
{
	const char *sp1 = strchr(req, ' '), *sp2 = strchr(sp1 + 1, ' ');
	const char *line = req + line_length(req) + 2;

	HTTP_REQUEST_START(id, req, (size_t)(sp1 - req), sp1 + 1,
			   (size_t)(sp2 - sp1 - 1), sp2[8] == '1' ? 11 : 10);
	while (line_length(line) > 0) {
		const char *colon = strchr(line, ':');
		size_t n = line_length(line);

		HTTP_HEADER(id, line, (size_t)(colon - line), colon + 2,
			    n - (size_t)(colon - line) - 2);
		line += n + 2;
	}
	HTTP_REQUEST_DONE(id, 200);
	return 200;
}

int main(void)
{
	struct sockaddr_in peer = { .sin_family = AF_INET };
	int id;

	inet_pton(AF_INET, "192.0.2.7", &peer.sin_addr);
	for (id = 1; id <= 2; id++) {
		peer.sin_port = htons((unsigned short)(50000 + id));
		HTTP_ACCEPTED(id, (struct sockaddr *)&peer);
		serve(id, requests[id - 1]);
	}
	return 0;
}
