/*
 * fuzz/fuzz_metrics.c - libFuzzer entry point over --metrics's page
 * (src/trace/sinks/metrics.c): the input is cut at NUL bytes into a probe's
 * provider, its name, two arguments' names (a binary's notes and
 * declarations give them) and the values a traced program passes in
 * them, which --by counts the firings by.  The page is rendered in both formats and
 * must be what a scraper can parse whatever the bytes: valid UTF-8, one
 * sample or comment a line, every label value quoted with its quotes,
 * backslashes and newlines escaped.  A crash, sanitizer report or leak
 * is a finding too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/sinks/metrics.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

FUZZ_INITIALIZE_QUIETLY()

/* The next part of the input, up to a NUL byte (or its end). */
static char *part(const uint8_t **p, const uint8_t *end)
{
	const uint8_t *nul = memchr(*p, 0, (size_t)(end - *p));
	size_t n = (size_t)((nul ? nul : end) - *p);
	char *s = xstrndup((const char *)*p, n);

	*p += n + (nul != NULL);
	return s;
}

/* Is s valid UTF-8? */
static int utf8(const unsigned char *s, size_t n)
{
	size_t i = 0, k, len;

	while (i < n) {
		unsigned c = s[i];

		len = c < 0x80	       ? 1
		      : (c >> 5) == 6  ? 2
		      : (c >> 4) == 14 ? 3
		      : (c >> 3) == 30 ? 4
				       : 0;
		if (!len || i + len > n)
			return 0;
		for (k = 1; k < len; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
		i += len;
	}
	return 1;
}

/* A label name Prometheus takes, not one it keeps for itself. */
static int label_name(const char *s, size_t n)
{
	size_t i;

	if (!n || (s[0] >= '0' && s[0] <= '9') ||
	    (n >= 2 && s[0] == '_' && s[1] == '_'))
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return 0;
	return 1;
}

/* Every line a comment or NAME{LABELS} VALUE: each label a valid name,
 * once, and a quoted value whose quotes, backslashes and newlines are
 * escaped. */
static void check(const struct buf *b)
{
	const char *line = b->data, *end = b->data + b->len;

	if (!utf8((const unsigned char *)b->data, b->len))
		abort();
	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line)), *p;
		const char *names[8];
		size_t lens[8];
		int n = 0, j;

		if (!nl)
			abort(); /* every line ends */
		p = memchr(line, '{', (size_t)(nl - line));
		if (*line != '#' && p) {
			while (*p == '{' || *p == ',') {
				const char *eq = ++p;

				while (eq < nl && *eq != '=')
					eq++;
				if (eq >= nl || eq[1] != '"' ||
				    !label_name(p, (size_t)(eq - p)))
					abort();
				for (j = 0; j < n; j++)
					if (lens[j] == (size_t)(eq - p) &&
					    !memcmp(names[j], p, lens[j]))
						abort();
				if (n < 8) {
					names[n] = p;
					lens[n++] = (size_t)(eq - p);
				}
				for (p = eq + 2; p < nl && *p != '"'; p++)
					if (*p == '\\' &&
					    (++p >= nl ||
					     (*p != '\\' && *p != '"' &&
					      *p != 'n')))
						abort();
				if (p >= nl)
					abort();
				p++;
			}
			if (*p != '}' || p[1] != ' ')
				abort();
		}
		line = nl + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data, *end = data + size;
	struct trace_options opt = { 0 };
	struct tracer tr = { 0 };
	struct traced t = { 0 };
	struct tally tally = { 0 };
	struct metrics *m;
	struct buf out = { 0 };
	unsigned long long count = 3;
	struct trace_event *e = xcalloc(1, sizeof(*e));
	int i;

	opt.metrics = "127.0.0.1:0";
	plan_make(&opt, &tr.plan);
	t.provider = part(&p, end);
	t.name = part(&p, end);
	t.label = xasprintf("%s:%s", t.provider, t.name);
	t.label_text = xstrdup("probe");
	t.nargs = 2;
	t.arg_names[0] = part(&p, end);
	t.arg_names[1] = part(&p, end);
	t.read[0].kind = ARG_STRING;
	t.read[1].kind = ARG_STRING;
	t.label_args[0] = 0;
	t.label_args[1] = 1;
	t.nlabel_args = 2;
	tr.probes = &t;
	tr.nprobes = 1;
	tally.counts = &count;
	m = metrics_new(&tr);
	/* Each further two parts: a firing with those strings. */
	for (i = 0; p < end && i < 2000; i++) {
		char *v = part(&p, end), *w = part(&p, end);

		memset(e, 0, sizeof(*e));
		e->slot_bytes = TRACE_STR_LEN;
		e->nargs = 2;
		e->nstrings = 2;
		strncpy(TRACE_SLOT(e, 0), v, TRACE_STR_LEN);
		strncpy(TRACE_SLOT(e, 1), w, TRACE_STR_LEN);
		metrics_event(m, e);
		free(v);
		free(w);
	}
	metrics_render(m, &tally, 0, &out);
	check(&out);
	out.len = 0;
	metrics_render(m, &tally, 1, &out);
	check(&out);
	buf_free(&out);
	metrics_free(m);
	free(t.provider);
	free(t.name);
	free(t.label);
	free(t.label_text);
	free(t.arg_names[0]);
	free(t.arg_names[1]);
	free(e);
	return 0;
}
