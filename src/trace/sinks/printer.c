/*
 * src/trace/sinks/printer.c - the printer, a sink: each firing as one line
 * (seconds since the first event, pid/tid, provider:name and its
 * arguments as event.c decodes them) or one JSON object a line, to
 * tr->out (stdout, or -o's FILE).
 */
#include <stdio.h>
#include <string.h>

#include "trace/sinks/sinks.h"
#include "trace/decode/event.h"
#include "trace/decode/stacks.h"

/* --stack: the walk's frames, innermost first (text: a line each, then
 * why it stopped short; JSON: "stack" and "stack_stopped"). */
static void put_stack(FILE *out, const struct stack_walk *w, int json)
{
	struct buf b = { 0 };
	int i;

	for (i = 0; i < w->nframes; i++) {
		b.len = 0;
		buf_escaped(&b, w->frames[i], strlen(w->frames[i]), json);
		fprintf(out, json ? "%s\"%s\"" : "\n    %s%s",
			json ? (i ? ", " : ", \"stack\": [") : "", b.data);
	}
	if (json && !w->nframes)
		fputs(", \"stack\": [", out);
	if (json)
		fputs("]", out);
	if (w->stopped) {
		b.len = 0;
		buf_escaped(&b, w->stopped, strlen(w->stopped), json);
		fprintf(out, json ? ", \"stack_stopped\": \"%s\"" : "\n    (the walk stopped: %s)",
			b.data);
	}
	buf_free(&b);
}

void printer_event(struct tracer *tr, const struct trace_event *e)
{
	const struct traced *t = &tr->probes[e->probe];
	struct stacks *stacks = tr->plan.request->stack ? sink_state(tr, SINK_STACKS)
					       : NULL;
	unsigned long long ns = e->time_ns - tr->start_ns;
	int json = tr->plan.request->json;
	char buf[EVENT_LINE_MAX], *p = buf;

#define PUT(s) (memcpy(p, s, sizeof(s) - 1), p += sizeof(s) - 1)
	if (json)
		PUT("{\"time\": ");
	p = event_put_u64(p, ns / 1000000000, 1);
	*p++ = '.';
	if (json)
		p = event_put_u64(p, ns % 1000000000, 9);
	else
		p = event_put_u64(p, ns % 1000000000 / 1000, 6);
	if (json)
		PUT(", \"pid\": ");
	else
		*p++ = ' ';
	p = event_put_u64(p, e->pid, 1);
	if (json)
		PUT(", \"tid\": ");
	else
		*p++ = '/';
	p = event_put_u64(p, e->tid, 1);
	if (json)
		PUT(", \"probe\": \"");
	else
		*p++ = ' ';
	p = event_put_escaped(p, t->provider, NAME_PRINT_MAX, json);
	*p++ = ':';
	p = event_put_escaped(p, t->name, NAME_PRINT_MAX, json);
	if (json)
		PUT("\", \"args\": {");
	p = event_put_args(p, t, e, json);
	if (json) {
		PUT("}");
		p = event_put_cuts(p, t, e);
		p = event_put_functions(p, t, e);
	}
	/* A firing without its stack: one write (the common case). */
	if (!stacks) {
		if (json)
			PUT("}\n");
		else
			*p++ = '\n';
	}
#undef PUT
	fwrite(buf, 1, (size_t)(p - buf), tr->out);
	if (stacks) {
		put_stack(tr->out, stacks_current(stacks), json);
		fputs(json ? "}\n" : "\n", tr->out);
	}
}

/* A line of its own that no firing's can be: text "# gap: P:N ...", JSON
 * {"gap": {...}}; its times as a firing's, from the first event. */
void printer_gap(struct tracer *tr, int probe, double from, double to)
{
	const struct traced *t = &tr->probes[probe];
	double start = (double)tr->start_ns / 1e9;
	int json = tr->plan.request->json;
	struct buf name = { 0 };

	if (from < start)
		from = start;
	if (to < from)
		to = from;
	if (json) {
		buf_json_string(&name, t->label);
		fprintf(tr->out, "{\"gap\": {\"probe\": %s, \"from\": %.9f, \"to\": %.9f, \"why\": \"--budget\"}}\n",
			name.data, from - start, to - start);
	} else {
		fprintf(tr->out, "# gap: %s not traced from %.6f to %.6f (--budget)\n",
			t->label_text, from - start, to - start);
	}
	buf_free(&name);
}
