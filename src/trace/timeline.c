/*
 * src/trace/timeline.c - --trace --timeline FILE.json: the events in the
 * Chrome Trace Event Format, which Perfetto's UI, chrome://tracing and
 * speedscope open.  Each matched pair becomes a slice ("X": its start's
 * time and its duration) on the thread that started it, nested as it
 * happened, with the start's and the end's arguments, named as
 * event.c's call_name names a call (Class::method from a runtime's
 * function probes, a `tracing` span's name, --by's arguments), else
 * after the pair's work (X of X__start); every other
 * firing an instant ("i") on its thread; each process and thread named
 * ("M") from /proc the first time it is seen.  Times are microseconds
 * from the first event.  Written through output.c: all or nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracer.h"

/* A start waiting for its end. */
struct open_slice {
	struct open_slice *next;
	int pair;
	unsigned pid, tid;
	unsigned long long value; /* the matching argument's, or 0 */
	unsigned long long start_ns;
	char *args; /* the start's arguments, a JSON object */
	char *name; /* the slice's name (call_name) */
};

struct timeline {
	struct output out;
	const struct tracer *tr;
	struct open_slice *open; /* the latest first */
	unsigned *seen;		 /* pids and tids named so far */
	size_t nseen;
	unsigned long long last_ns;
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

static void slice(struct timeline *tl, const struct open_slice *o,
		  unsigned long long end_ns, const char *end_args)
{
	const struct traced_pair *p = &tl->tr->pairs[o->pair];
	struct buf *b = &tl->out.buf;

	comma(tl);
	buf_lit(b, "{\"name\": ");
	buf_json_string(b, o->name);
	buf_lit(b, ", \"cat\": ");
	buf_json_string(b, p->label);
	buf_lit(b, ", \"ph\": \"X\", \"ts\": ");
	put_us(b, o->start_ns - tl->tr->start_ns);
	buf_lit(b, ", \"dur\": ");
	put_us(b, end_ns - o->start_ns);
	buf_printf(b,
		   ", \"pid\": %u, \"tid\": %u, \"args\": {\"start\": %s, \"end\": %s}}",
		   o->pid, o->tid, o->args, end_args ? end_args : "null");
}

/* The open start an end of pair matches: the latest on its thread, or
 * the latest with its argument's value. */
static struct open_slice **matching(struct timeline *tl, int pair, unsigned tid,
				    int by_value, unsigned long long value)
{
	struct open_slice **o;

	for (o = &tl->open; *o; o = &(*o)->next)
		if ((*o)->pair == pair &&
		    (by_value ? (*o)->value == value : (*o)->tid == tid))
			return o;
	return NULL;
}

void timeline_event(struct timeline *tl, const struct trace_event *e)
{
	const struct tracer *tr = tl->tr;
	const struct traced *t = &tr->probes[e->probe];
	int r, drawn = 0;
	struct buf *b = &tl->out.buf, name = { 0 };
	char args[EVENT_LINE_MAX], *p = args;

	*p++ = '{';
	p = event_put_args(p, t, e, 1);
	*p++ = '}';
	*p = '\0';

	tl->last_ns = e->time_ns;
	name_once(tl, e->pid, e->pid, 0);
	name_once(tl, e->pid, e->tid, 1);
	/* The pairs it ends are drawn, then those it starts opened. */
	for (r = 0; r < t->nends; r++) {
		int pair = t->ends[r], arg = tr->pairs[pair].end_arg;
		struct open_slice **o = matching(tl, pair, e->tid, arg >= 0,
						 arg >= 0 ? e->args[arg] : 0),
				  *done;

		if (!o)
			continue;
		done = *o;
		*o = done->next;
		slice(tl, done, e->time_ns, args);
		free(done->args);
		free(done->name);
		free(done);
		drawn = 1;
	}
	for (r = 0; r < t->nstarts; r++) {
		struct open_slice *o = xcalloc(1, sizeof(*o));
		int arg = tr->pairs[t->starts[r]].start_arg;

		o->pair = t->starts[r];
		o->pid = e->pid;
		o->tid = e->tid;
		o->value = arg >= 0 ? e->args[arg] : 0;
		o->start_ns = e->time_ns;
		o->args = xstrdup(args);
		call_name(tr, o->pair, e, &name);
		o->name = xstrdup(name.data);
		o->next = tl->open;
		tl->open = o;
		drawn = 1;
	}
	buf_free(&name);
	if (drawn)
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

int timeline_close(struct timeline *tl)
{
	struct open_slice *o, *next;
	int rc;

	if (!tl)
		return 0;
	/* Starts never ended: slices to the last event, marked so. */
	for (o = tl->open; o; o = next) {
		next = o->next;
		slice(tl, o, tl->last_ns, "{\"unfinished\": true}");
		free(o->args);
		free(o->name);
		free(o);
	}
	buf_lit(&tl->out.buf, "\n]}\n");
	rc = output_commit(&tl->out);
	free(tl->seen);
	free(tl);
	return rc;
}

void timeline_abort(struct timeline *tl)
{
	struct open_slice *o, *next;

	if (!tl)
		return;
	for (o = tl->open; o; o = next) {
		next = o->next;
		free(o->args);
		free(o->name);
		free(o);
	}
	output_abort(&tl->out);
	free(tl->seen);
	free(tl);
}
