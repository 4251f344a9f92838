/*
 * src/trace/sinks/stack_counts.c - firings counted by probe and distinct
 * native stack (--stack with --summary or --folded): a probe becomes a
 * profiler of what leads to it.  The counts are firings, never time.
 * Each distinct stack keeps its first firing's places (addresses and
 * mappings) for --pprof (pprof.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/sinks/pprof.h"

struct counted {
	int probe;
	char *key; /* "probe\n" then the frames, innermost first, a line each */
	char **frames;
	struct frame_place *places; /* its strings: this entry's own */
	int nframes;
	int stopped; /* the walk stopped short of the outermost frame */
	char *why;   /* and why, as the first such walk said it */
	/* Not a stack: the probe's firings whose stacks never reached
	   probegen (stack_counts_lost), one frame STACKS_LOST. */
	int lost;
	unsigned long long count;
};

/* The frame --folded and --pprof show for firings whose stacks were
 * lost: a tower of their own in a flame graph, so that the others are
 * not read as all of the probe's firings. */
#define STACKS_LOST "[stacks lost]"

struct stack_counts {
	struct counted *all;
	size_t n;
	unsigned every; /* the most firings one walk stood for (stack.bpf.h) */
	struct name_set keys; /* owner: 1 + index in all */
	struct output folded; /* --folded's file, while folding */
	int folding;
};

struct stack_counts *stack_counts_new(const char *folded)
{
	struct stack_counts *c = xcalloc(1, sizeof(*c));

	/* Opened first: a file that cannot be written is said before the
	   trace, and nothing is left of it if the trace fails. */
	if (folded) {
		if (output_open(&c->folded, folded) != 0) {
			free(c);
			return NULL;
		}
		c->folding = 1;
	}
	name_set_init(&c->keys, 64);
	return c;
}

void stack_counts_add(struct stack_counts *c, int probe,
		      const struct stack_walk *w, unsigned every)
{
	struct buf key = { 0 };
	const void *found;
	struct counted *x;
	int i;

	if (every < 1)
		every = 1;
	if (every > c->every)
		c->every = every;
	buf_printf(&key, "%d\n", probe);
	for (i = 0; i < w->nframes; i++)
		buf_cat(&key, w->frames[i], "\n", NULL);
	if ((found = name_set_find(&c->keys, key.data))) {
		c->all[(size_t)(intptr_t)found - 1].count += every;
		buf_free(&key);
		return;
	}
	c->all = xgrow(c->all, c->n, sizeof(*c->all));
	x = &c->all[c->n++];
	x->probe = probe;
	x->key = key.data;
	x->nframes = w->nframes;
	x->frames = xcalloc((size_t)w->nframes + 1, sizeof(char *));
	x->places = xcalloc((size_t)w->nframes + 1, sizeof(*x->places));
	for (i = 0; i < w->nframes; i++) {
		x->frames[i] = xstrdup(w->frames[i]);
		x->places[i] = frame_place_copy(&w->places[i]);
	}
	x->stopped = w->stopped != NULL;
	x->why = w->stopped ? xstrdup(w->stopped) : NULL;
	x->lost = 0;
	x->count = every;
	name_set_add(&c->keys, x->key, key.len, (const void *)(intptr_t)c->n);
}

void stack_counts_lost(struct stack_counts *c, const struct tracer *tr,
		       const unsigned long long *firings)
{
	unsigned long long *walked = xcalloc((size_t)tr->nprobes + 1,
					     sizeof(*walked));
	size_t i;
	int probe;

	for (i = 0; i < c->n; i++)
		if (c->all[i].probe < tr->nprobes && !c->all[i].lost)
			walked[c->all[i].probe] += c->all[i].count;
	for (probe = 0; probe < tr->nprobes; probe++) {
		struct counted *x;

		/* Every Nth walked (the last of each N: a walk never stands
		   for more than came), the rest is said with the lost. */
		if (firings[probe] <= walked[probe])
			continue;
		c->all = xgrow(c->all, c->n, sizeof(*c->all));
		x = &c->all[c->n++];
		memset(x, 0, sizeof(*x));
		x->probe = probe;
		x->key = xasprintf("%d\n%s\n", probe, STACKS_LOST);
		x->nframes = 1;
		x->frames = xcalloc(2, sizeof(char *));
		x->frames[0] = xstrdup(STACKS_LOST);
		x->places = xcalloc(2, sizeof(*x->places));
		x->places[0].function = xstrdup(STACKS_LOST);
		x->lost = 1;
		x->stopped = 1;
		x->count = firings[probe] - walked[probe];
	}
	free(walked);
}

/* Most firings first; then by probe, then by key (a stable order). */
static int by_count(const void *a, const void *b)
{
	const struct counted *x = *(const struct counted *const *)a,
			     *y = *(const struct counted *const *)b;

	if (x->probe != y->probe)
		return x->probe < y->probe ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->key, y->key);
}

static const struct counted **sorted(const struct stack_counts *c)
{
	const struct counted **v = xcalloc(c->n + 1, sizeof(*v));
	size_t i;

	for (i = 0; i < c->n; i++)
		v[i] = &c->all[i];
	qsort(v, c->n, sizeof(*v), by_count);
	return v;
}

static void json_string(FILE *out, const char *s)
{
	struct buf b = { 0 };

	buf_json_string(&b, s);
	fputs(b.data, out);
	buf_free(&b);
}

/* A frame's name in text, escaped as streaming --stack escapes it: a
 * symbol or file name is the binary's, and may hold a newline (a forged
 * line) or a terminal's escape sequence. */
static void text_frame(FILE *out, const char *s)
{
	struct buf b = { 0 };

	buf_escaped(&b, s, strlen(s), 0);
	fprintf(out, "    %s\n", b.data ? b.data : "");
	buf_free(&b);
}

unsigned stack_counts_every(const struct stack_counts *c)
{
	return c->every ? c->every : 1;
}

void stack_counts_print(const struct stack_counts *c, const struct tracer *tr,
			FILE *out, int top, int json)
{
	const struct counted **v = sorted(c);
	size_t i, first;
	int shown = 0, k, probe = -1, distinct;
	unsigned long long lost, walked;
	double share;

	fputs(json ? "{" : "", out);
	for (i = 0; i < c->n; i++) {
		const struct counted *x = v[i];

		if (x->probe != probe) {
			probe = x->probe;
			shown = 0;
			for (first = i, distinct = 0, lost = walked = 0;
			     first < c->n && v[first]->probe == probe; first++) {
				if (v[first]->lost)
					lost += v[first]->count;
				else
					walked += v[first]->count, distinct++;
			}
			if (json) {
				fputs(i ? "], " : "", out);
				json_string(out, tr->probes[probe].label);
				fputs(": [", out);
			} else {
				fprintf(out, "\nstacks of %s (%d distinct%s)",
					tr->probes[probe].label_text, distinct,
					distinct > top ? ", the most frequent shown"
						       : "");
				if (c->every > 1)
					fprintf(out, " (sampled: a walk every %u firings at most, each counted for the firings it stood for)",
						c->every);
				if ((share = budget_share(tr, probe)) < 1)
					fprintf(out, " (sampled by --budget: its firings in the windows, %.1f%% of them, unscaled)",
						100 * share);
				/* A probe's count is the kernel's: the
				   stacks beside it may be fewer. */
				if (lost)
					fprintf(out,
						": %llu of %llu firings; %llu stacks lost: firings the kernel counted whose events probegen never read (dropped when the ring buffer was full, or fired after its last read as the trace ended)",
						walked, walked + lost, lost);
				fputs(":\n", out);
			}
		}
		if (!json && (shown >= top || x->lost))
			continue;
		if (json) {
			fprintf(out, "%s{\"count\": %llu, \"frames\": [",
				shown ? ", " : "", x->count);
			for (k = 0; k < x->nframes; k++) {
				fputs(k ? ", " : "", out);
				json_string(out, x->frames[k]);
			}
			fprintf(out, "], \"complete\": %s%s",
				x->stopped ? "false" : "true",
				x->lost ? ", \"lost\": true" : "");
			if (x->why) {
				fputs(", \"stack_stopped\": ", out);
				json_string(out, x->why);
			}
			fputc('}', out);
		} else {
			fprintf(out, "  %llu firings\n", x->count);
			for (k = 0; k < x->nframes; k++)
				text_frame(out, x->frames[k]);
			/* Why the walk stopped, as streaming says it. */
			if (x->why)
				fprintf(out, "    ... (the walk stopped: %s)\n",
					x->why);
			else if (x->stopped)
				fputs("    ...\n", out);
		}
		shown++;
	}
	fputs(json ? (c->n ? "]}" : "}") : "", out);
	free(v);
}

int stack_counts_write_folded(struct stack_counts *c, const struct tracer *tr)
{
	struct buf *out = &c->folded.buf;
	size_t i;
	int k;

	if (!c->folding)
		return 0;
	for (i = 0; i < c->n; i++) {
		const struct counted *x = &c->all[i];

		/* Outermost first, each by its function alone (a flame
		   graph merges its call sites; an inlined call's too). */
		for (k = x->nframes - 1; k >= 0; k--) {
			const char *p = x->places[k].function
						? x->places[k].function
						: x->frames[k],
				   *plus = strstr(p, "+0x");

			buf_folded_frame(out, p, plus ? (size_t)(plus - p)
						      : strlen(p));
			buf_lit(out, ";");
		}
		buf_printf(out, "%s %llu\n", tr->probes[x->probe].label,
			   x->count);
	}
	c->folding = 0;
	return output_commit(&c->folded);
}

void stack_counts_paths(const struct stack_counts *c, const struct tracer *tr,
			stack_path_fn *fn, void *ctx)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		fn(ctx, tr->probes[c->all[i].probe].label, c->all[i].places,
		   c->all[i].nframes, c->all[i].count);
}

void stack_counts_free(struct stack_counts *c)
{
	size_t i;
	int k;

	if (!c)
		return;
	if (c->folding)
		output_abort(&c->folded);
	for (i = 0; i < c->n; i++) {
		for (k = 0; k < c->all[i].nframes; k++) {
			free(c->all[i].frames[k]);
			frame_place_free(&c->all[i].places[k]);
		}
		free(c->all[i].frames);
		free(c->all[i].why);
		free(c->all[i].places);
		free(c->all[i].key);
	}
	free(c->all);
	name_set_free(&c->keys);
	free(c);
}
