/*
 * src/trace/sinks/server_none.c - --metrics where probegen was built without
 * libmicrohttpd: it says what to install.
 */
#include "trace/tracer.h"
#include "trace/sinks/metrics.h"

struct server *server_start(const char *addr, server_page_fn *page, void *ctx)
{
	(void)addr;
	(void)page;
	(void)ctx;
	error_plain(
		"--metrics: this probegen was built without libmicrohttpd (make static leaves it out; elsewhere, install libmicrohttpd-dev and build again)");
	return NULL;
}

int server_fd(const struct server *s)
{
	(void)s;
	return -1;
}

int server_timeout_ms(const struct server *s)
{
	(void)s;
	return -1;
}

void server_run(struct server *s)
{
	(void)s;
}

void server_stop(struct server *s)
{
	(void)s;
}

const char *server_address(const struct server *s)
{
	(void)s;
	return "";
}
