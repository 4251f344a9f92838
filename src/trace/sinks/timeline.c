/*
 * src/trace/sinks/timeline.c - --trace --timeline FILE.json: the events in the
 * Chrome Trace Event Format, which Perfetto's UI, chrome://tracing and
 * speedscope open.  Each call calls.c closes becomes a slice ("X": its
 * start's time and its duration) on the thread that started it, nested
 * as it happened, with the start's and the end's arguments (a call that
 * never ended marked unfinished, to its caller's end or the last
 * firing's), named as
 * event.c's call_name names a call (Class::method from a runtime's
 * function probes, a `tracing` span's name, --by's arguments), else
 * after the pair's work (X of X__start); every other
 * firing an instant ("i") on its thread; each process and thread named
 * ("M") from /proc the first time it is seen.  Times are microseconds
 * from the first event.  Under --budget the calls are the windows'
 * and the file says so.  Written through output.c: all or nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/sinks/sinks.h"
#include "trace/decode/event.h"

struct timeline {
	struct output out;
	const struct tracer *tr;
	unsigned *seen; /* pids and tids named so far */
	size_t nseen;
	int events;
};

struct timeline *timeline_open(const struct tracer *tr, const char *path)
{
	struct timeline *tl = xcalloc(1, sizeof(*tl));

	tl->tr = tr;
	if (output_open(&tl->out, path) != 0) {
		free(tl);
		return NULL;
	}
	buf_lit(&tl->out.buf,
		"{\"displayTimeUnit\": \"ms\", \"traceEvents\": [");
	return tl;
}

static void comma(struct timeline *tl)
{
	buf_puts(&tl->out.buf, tl->events++ ? ",\n" : "\n");
}

/* Microseconds from the first event. */
static void put_us(struct buf *b, unsigned long long ns)
{
	buf_printf(b, "%llu.%03llu", ns / 1000, ns % 1000);
}

/* "process_name" or "thread_name" of id, from /proc, once each. */
static void name_once(struct timeline *tl, unsigned pid, unsigned tid,
		      int thread)
{
	unsigned id = thread ? tid : pid;
	char path[64], comm[64] = "?";
	size_t i;
	FILE *f;

	for (i = 0; i < tl->nseen; i++)
		if (tl->seen[i] == (id << 1 | (unsigned)thread))
			return;
	tl->seen = xrealloc(tl->seen, sizeof(*tl->seen) * (tl->nseen + 1));
	tl->seen[tl->nseen++] = id << 1 | (unsigned)thread;
	if (thread)
		snprintf(path, sizeof(path), "/proc/%u/task/%u/comm", pid, tid);
	else
		snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	if ((f = fopen(path, "r"))) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	comma(tl);
	buf_printf(&tl->out.buf,
		   "{\"name\": \"%s\", \"ph\": \"M\", \"pid\": %u, \"tid\": %u, \"args\": {\"name\": ",
		   thread ? "thread_name" : "process_name", pid, tid);
	buf_json_string(&tl->out.buf, comm);
	buf_lit(&tl->out.buf, "}}");
}

/* Call x as a slice; end_args: its end's arguments (a JSON object),
 * NULL when it never ended. */
static void slice(struct timeline *tl, const struct call *x,
		  const char *end_args)
{
	const struct traced_pair *p = &tl->tr->pairs[x->pair];
	struct buf *b = &tl->out.buf;

	comma(tl);
	buf_lit(b, "{\"name\": ");
	buf_json_string(b, x->name);
	buf_lit(b, ", \"cat\": ");
	buf_json_string(b, p->label);
	buf_lit(b, ", \"ph\": \"X\", \"ts\": ");
	put_us(b, x->start_ns - tl->tr->start_ns);
	buf_lit(b, ", \"dur\": ");
	put_us(b, x->end_ns - x->start_ns);
	buf_printf(b,
		   ", \"pid\": %u, \"tid\": %u, \"args\": {\"start\": %s, \"end\": %s}}",
		   x->pid, x->tid, x->start_args,
		   end_args ? end_args : "{\"unfinished\": true}");
}

/* The calls the latest event closed (tr->calls), as slices. */
static int slices(struct timeline *tl, const char *end_args)
{
	const struct call *closed;
	int i, n;

	closed = calls_closed(sink_state(tl->tr, SINK_CALLS), &n);
	for (i = 0; i < n; i++)
		slice(tl, &closed[i], closed[i].ended ? end_args : NULL);
	return n;
}

void timeline_event(struct timeline *tl, const struct trace_event *e)
{
	const struct tracer *tr = tl->tr;
	const struct traced *t = &tr->probes[e->probe];
	struct buf *b = &tl->out.buf;
	char args[EVENT_LINE_MAX], *p = args;
	int closed;

	name_once(tl, e->pid, e->pid, 0);
	name_once(tl, e->pid, e->tid, 1);
	calls_closed(sink_state(tr, SINK_CALLS), &closed);
	/* The calls it starts are drawn once they end (calls.c keeps their
	   arguments): only an end's or an instant's are written here. */
	if (!closed && t->nstarts)
		return;
	*p++ = '{';
	p = event_put_args(p, t, e, 1);
	*p++ = '}';
	*p = '\0';
	if (slices(tl, args))
		return;
	comma(tl);
	buf_lit(b, "{\"name\": ");
	buf_json_string(b, t->label);
	buf_lit(b, ", \"ph\": \"i\", \"s\": \"t\", \"ts\": ");
	put_us(b, e->time_ns - tr->start_ns);
	buf_printf(b, ", \"pid\": %u, \"tid\": %u, \"args\": %s}", e->pid,
		   e->tid, args);
	output_flush(&tl->out);
}

/* Under --budget, what was sampled: a global instant at the start,
 * which every viewer draws, and in the trace's metadata ("otherData",
 * chrome://tracing's) after the events. */
static void sampled_instant(struct timeline *tl, const char *sampled)
{
	struct buf *b = &tl->out.buf;

	comma(tl);
	buf_lit(b, "{\"name\": ");
	buf_json_string(b, sampled);
	buf_lit(b, ", \"ph\": \"i\", \"s\": \"g\", \"ts\": 0, \"pid\": 0, \"tid\": 0}");
}

int timeline_close(struct timeline *tl)
{
	char *sampled;
	int rc;

	if (!tl)
		return 0;
	/* Starts never ended (calls_end closed them): slices to the last
	   event, marked so. */
	slices(tl, NULL);
	if ((sampled = budget_sampled_text(tl->tr)))
		sampled_instant(tl, sampled);
	buf_lit(&tl->out.buf, "\n]");
	if (sampled) {
		buf_lit(&tl->out.buf, ", \"otherData\": {\"sampled\": ");
		buf_json_string(&tl->out.buf, sampled);
		buf_lit(&tl->out.buf, "}");
		free(sampled);
	}
	buf_lit(&tl->out.buf, "}\n");
	rc = output_commit(&tl->out);
	free(tl->seen);
	free(tl);
	return rc;
}

void timeline_abort(struct timeline *tl)
{
	if (!tl)
		return;
	output_abort(&tl->out);
	free(tl->seen);
	free(tl);
}
