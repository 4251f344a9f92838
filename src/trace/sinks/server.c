/*
 * src/trace/sinks/server.c - --metrics's HTTP side, spoken by libmicrohttpd (a
 * well-kept server library Debian ships; HTTP is not written here):
 * GET and HEAD of /metrics (the page metrics.c renders, OpenMetrics when
 * the scraper's Accept asks for it) and of / (a line linking it); 404
 * for any other path, 405 for any other method.  It runs in probegen's
 * own loop (epoll, no thread of its own), so a scrape reads the maps
 * while nothing else does.  Requests are held to 16 KiB with their
 * headers; a connection idle for 10 s is closed; up to 4,096 are open at
 * once, so that a thousand idle clients leave room for the scraper.
 */
#include <errno.h>
#include <fcntl.h>
#include <microhttpd.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "trace/tracer.h"
#include "trace/sinks/metrics.h"

#define MAX_CONNECTIONS 4096
#define IDLE_SECONDS 10
#define REQUEST_BYTES (16 << 10)

struct server {
	struct MHD_Daemon *daemon;
	int listen_fd;
	server_page_fn *page;
	void *ctx;
	struct buf body;
	char address[INET6_ADDRSTRLEN + 16]; /* as bound: HOST:PORT */
};

static const char index_page[] =
	"<!DOCTYPE html>\n<title>probegen</title>\n"
	"<p>probegen --trace --metrics: <a href=\"/metrics\">/metrics</a></p>\n";

static enum MHD_Result reply(struct MHD_Connection *c, unsigned status,
			     const char *type, const char *body, size_t len,
			     const char *allow)
{
	struct MHD_Response *r =
		MHD_create_response_from_buffer(len, (void *)body,
						MHD_RESPMEM_MUST_COPY);
	enum MHD_Result ok;

	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, "Content-Type", type);
	if (allow)
		MHD_add_response_header(r, "Allow", allow);
	ok = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ok;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c,
				  const char *url, const char *method,
				  const char *version, const char *upload,
				  size_t *upload_size, void **req)
{
	struct server *s = cls;
	const char *accept;
	int metrics = strcmp(url, "/metrics") == 0, om;
	static const char not_found[] = "not found: see /metrics\n",
			  not_allowed[] = "only GET and HEAD\n";

	(void)version;
	(void)upload;
	(void)req;
	if (!metrics && strcmp(url, "/") != 0)
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain", not_found,
			     sizeof(not_found) - 1, NULL);
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
		*upload_size = 0; /* a body is not read */
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain",
			     not_allowed, sizeof(not_allowed) - 1, "GET, HEAD");
	}
	if (!metrics)
		return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8",
			     index_page, sizeof(index_page) - 1, NULL);
	accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Accept");
	om = accept && strstr(accept, "application/openmetrics-text");
	s->body.len = 0;
	s->page(s->ctx, om, &s->body);
	return reply(c, MHD_HTTP_OK,
		     om ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
			: "text/plain; version=0.0.4; charset=utf-8",
		     s->body.data ? s->body.data : "", s->body.len, NULL);
}

/* A listening socket on addr, or -1 after saying why. */
static int listen_on(const char *addr)
{
	const char *colon = strrchr(addr, ':');
	char *host;
	struct addrinfo hints = { 0 }, *ai = NULL;
	int fd = -1, one = 1, rc;

	if (!colon || !colon[1] ||
	    strspn(colon + 1, "0123456789") != strlen(colon + 1)) {
		error_plain("--metrics takes HOST:PORT or :PORT, not '%s'",
			    addr);
		return -1;
	}
	/* getaddrinfo takes 99999 as 99999 mod 65536 (34463): a port out
	   of range would be served somewhere else, silently.  0 asks for a
	   free port, which the start says. */
	if (strlen(colon + 1) > 5 || atoi(colon + 1) > 65535) {
		error_plain("--metrics %s: no such port (0 to 65535; 0: any free one)",
			    addr);
		return -1;
	}
	/* ":PORT" is loopback: all interfaces only when written so. */
	host = colon == addr ? xstrdup("127.0.0.1")
	       : addr[0] == '[' && colon[-1] == ']'
		       ? xstrndup(addr + 1, (size_t)(colon - addr - 2))
		       : xstrndup(addr, (size_t)(colon - addr));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	rc = getaddrinfo(host, colon + 1, &hints, &ai);
	if (rc != 0) {
		error_plain("--metrics %s: %s", addr, gai_strerror(rc));
		free(host);
		return -1;
	}
	free(host);
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
		    0);
	if (fd >= 0)
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 ||
	    listen(fd, 128) != 0) {
		error_plain("cannot serve on %s: %s", addr, strerror(errno));
		if (fd >= 0)
			close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	return fd;
}

/* Where fd listens, for people: 127.0.0.1:9100, [::1]:9100. */
static void bound_address(int fd, char *out, size_t size)
{
	struct sockaddr_storage sa;
	socklen_t len = sizeof(sa);
	char host[INET6_ADDRSTRLEN] = "?";
	unsigned port = 0;

	if (getsockname(fd, (struct sockaddr *)&sa, &len) == 0) {
		if (sa.ss_family == AF_INET6) {
			struct sockaddr_in6 *a = (struct sockaddr_in6 *)&sa;

			inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof(host));
			port = ntohs(a->sin6_port);
			snprintf(out, size, "[%s]:%u", host, port);
			return;
		}
		inet_ntop(AF_INET, &((struct sockaddr_in *)&sa)->sin_addr, host,
			  sizeof(host));
		port = ntohs(((struct sockaddr_in *)&sa)->sin_port);
	}
	snprintf(out, size, "%s:%u", host, port);
}

const char *server_address(const struct server *s)
{
	return s->address;
}

struct server *server_start(const char *addr, server_page_fn *page, void *ctx)
{
	struct server *s;
	struct rlimit nofile;
	int fd = listen_on(addr);

	if (fd < 0)
		return NULL;
	/* Room for the connections, if the hard limit allows. */
	if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 &&
	    nofile.rlim_cur < MAX_CONNECTIONS + 64) {
		nofile.rlim_cur = nofile.rlim_max < MAX_CONNECTIONS + 64
					  ? nofile.rlim_max
					  : MAX_CONNECTIONS + 64;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
	s = xcalloc(1, sizeof(*s));
	s->listen_fd = fd;
	bound_address(fd, s->address, sizeof(s->address));
	s->page = page;
	s->ctx = ctx;
	s->daemon = MHD_start_daemon(MHD_USE_EPOLL, 0, NULL, NULL, on_request,
				     s, MHD_OPTION_LISTEN_SOCKET,
				     (MHD_socket)fd,
				     MHD_OPTION_CONNECTION_LIMIT,
				     (unsigned int)MAX_CONNECTIONS,
				     MHD_OPTION_CONNECTION_TIMEOUT,
				     (unsigned int)IDLE_SECONDS,
				     MHD_OPTION_CONNECTION_MEMORY_LIMIT,
				     (size_t)REQUEST_BYTES, MHD_OPTION_END);
	if (!s->daemon) {
		error_plain("cannot serve on %s: libmicrohttpd would not start",
			    addr);
		close(fd);
		free(s);
		return NULL;
	}
	return s;
}

int server_fd(const struct server *s)
{
	const union MHD_DaemonInfo *i =
		MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_EPOLL_FD);

	return i ? i->epoll_fd : -1;
}

int server_timeout_ms(const struct server *s)
{
	MHD_UNSIGNED_LONG_LONG ms;

	if (MHD_get_timeout(s->daemon, &ms) != MHD_YES)
		return -1;
	return ms > 60000 ? 60000 : (int)ms;
}

void server_run(struct server *s)
{
	MHD_run(s->daemon);
}

void server_stop(struct server *s)
{
	if (!s)
		return;
	MHD_stop_daemon(s->daemon);
	close(s->listen_fd);
	buf_free(&s->body);
	free(s);
}
