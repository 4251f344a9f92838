/*
 * src/trace/sinks/metrics.h - --metrics: its page (metrics.c), the server that
 * serves it (server.c, or server_none.c without libmicrohttpd).
 * Included by those, by sinks.c (the page counts firings) and by
 * trace.c (which serves).
 */
#ifndef PROBEGEN_METRICS_H
#define PROBEGEN_METRICS_H

#include "trace/tracer.h"

/* ---- metrics.c ---- */

struct metrics;
struct metrics *metrics_new(const struct tracer *tr);
/* An event of a probe --by counts by its arguments' values. */
void metrics_event(struct metrics *m, const struct trace_event *e);
/* The text a scrape gets: Prometheus text format 0.0.4, or OpenMetrics
 * 1.0.0; appended to out. */
void metrics_render(const struct metrics *m, const struct tally *t,
		    int openmetrics, struct buf *out);
void metrics_free(struct metrics *m);

/* ---- server.c ---- */

struct server;
/* What a scrape of /metrics gets, appended to out. */
typedef void server_page_fn(void *ctx, int openmetrics, struct buf *out);
/* Serve GET and HEAD of /metrics (page) and / on addr (HOST:PORT, :PORT
 * for 127.0.0.1, [V6]:PORT), from the caller's loop: NULL after saying
 * why. */
struct server *server_start(const char *addr, server_page_fn *page, void *ctx);
/* Where it listens: HOST:PORT as bound. */
const char *server_address(const struct server *s);
/* The descriptor to wait on, and how long at most (ms, -1: no limit). */
int server_fd(const struct server *s);
int server_timeout_ms(const struct server *s);
/* Serve whatever is ready; never blocks. */
void server_run(struct server *s);
void server_stop(struct server *s);

#endif
