/*
 * src/trace/sinks/profile.c - the profiler of --trace: pairs that are calls of
 * a runtime's functions (Python's function__entry/return, Ruby's
 * method__entry/return, Perl's sub__entry/return, PHP's, Tcl's), timed
 * here from the calls calls.c matches as they nest on each thread.  Each
 * call is named by its start's arguments (event.c's call_name) and adds
 * to its name's
 * calls, inclusive time (a recursive call's is in its outermost call's,
 * as profilers count it), self time (less its nested calls') and
 * latency buckets, which --summary prints per name, and to a call tree whose
 * paths are the folded stacks --folded writes ("main;f;g 1234", weighed
 * by self time in nanoseconds: flamegraph.pl, inferno, speedscope), and
 * with --pprof each path's calls and self time per thread (pprof.c
 * writes them: sinks.c hands it the profile).
 * The kernel neither counts nor times these pairs: their starts and ends
 * stream here, --summary or not (session.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/sinks/sinks.h"
#include "trace/decode/event.h"
#include "trace/sinks/pprof.h"

/* A pair's names; the calls of any more are counted as "(other)". */
#define PROFILE_MAX_NAMES 10000
/* Call-tree nodes; past them a call's self time is its caller's. */
#define PROFILE_MAX_NODES 1000000

/* A node of the call tree: one name under one path of callers. */
struct node {
	int parent, first_child, next_sibling, name;
	int first_sample; /* --pprof's: its first thread's, or -1 */
	unsigned long long self_ns;
};

/* --pprof's: a node's calls and self time on one thread, which the file
 * labels with its pid and tid (a node's threads are few: a list). */
struct thread_sample {
	int next; /* the node's next thread's, or -1 */
	unsigned pid, tid;
	unsigned long long calls, self_ns;
};

/* Per thread (struct call's thread), each name's calls open on it: a
 * recursive call's time is in its outermost call's total already. */
struct thread_names {
	int *open;
	int nopen;
};

struct profile {
	const struct tracer *tr;
	struct name_set name_set; /* "PAIR\tNAME" -> index + 1 */
	struct profile_name **names;
	int nnames;
	int names_of_pair[TRACE_MAX_PAIRS];
	int other_of_pair[TRACE_MAX_PAIRS]; /* the (other) name + 1, or 0 */
	struct node *nodes;
	int nnodes, first_root;
	unsigned long long merged; /* calls past PROFILE_MAX_NODES */
	struct thread_names *threads;
	int nthreads;
	struct buf key;	      /* a name's key, made here */
	struct output folded; /* --folded's file, while folding */
	int folding;
	int pprofing; /* --pprof's samples kept, per thread */
	struct thread_sample *samples;
	int nsamples;
};

struct profile *profile_new(const struct tracer *tr)
{
	struct profile *p = xcalloc(1, sizeof(*p));

	/* Opened first: a file that cannot be written is said before the
	   trace, and nothing is left of it if the trace fails. */
	if (tr->plan.folded_calls_path) {
		if (output_open(&p->folded, tr->plan.folded_calls_path) != 0) {
			free(p);
			return NULL;
		}
		p->folding = 1;
	}
	p->pprofing = tr->plan.pprof_calls; /* the samples pprof.c writes */
	p->tr = tr;
	p->first_root = -1;
	name_set_init(&p->name_set, 64);
	return p;
}

/* The index of pair's name (the pair's "(other)" past its limit). */
static int name_index(struct profile *p, int pair, const char *name)
{
	struct buf *key = &p->key;
	const void *found;
	struct profile_name *n;

	key->len = 0;
	buf_printf(key, "%d\t%s", pair, name);
	found = name_set_find(&p->name_set, key->data);
	if (found)
		return (int)((intptr_t)found - 1);
	if (p->names_of_pair[pair] >= PROFILE_MAX_NAMES &&
	    strcmp(name, "(other)") != 0) {
		if (!p->other_of_pair[pair]) {
			const char *label = p->tr->pairs[pair].label;

			key->len = 0;
			buf_escaped(key, label, strlen(label), 0);
			warning_plain(
				"%s: more than %d names; the calls of the rest are counted as (other)",
				key->data, PROFILE_MAX_NAMES);
			p->other_of_pair[pair] =
				name_index(p, pair, "(other)") + 1;
		}
		return p->other_of_pair[pair] - 1;
	}
	n = xcalloc(1, sizeof(*n));
	n->key = xstrdup(key->data); /* the set keeps the pointer */
	n->name = strchr(n->key, '\t') + 1;
	n->pair = pair;
	p->names = xgrow(p->names, (size_t)p->nnames, sizeof(*p->names));
	p->names[p->nnames] = n;
	name_set_add(&p->name_set, n->key, strlen(n->key),
		     (const void *)(intptr_t)(p->nnames + 1));
	p->names_of_pair[pair]++;
	return p->nnames++;
}

/* The node for name under parent (-1: a root), made if new; -1 past
 * PROFILE_MAX_NODES (the call's self time is then its caller's). */
static int node_of(struct profile *p, int parent, int name)
{
	int *link = parent < 0 ? &p->first_root : &p->nodes[parent].first_child;
	int n;

	for (n = *link; n >= 0; n = p->nodes[n].next_sibling)
		if (p->nodes[n].name == name)
			return n;
	if (p->nnodes >= PROFILE_MAX_NODES) {
		p->merged++;
		return parent;
	}
	p->nodes = xgrow(p->nodes, (size_t)p->nnodes, sizeof(*p->nodes));
	n = p->nnodes++;
	p->nodes[n].parent = parent;
	p->nodes[n].first_child = -1;
	p->nodes[n].name = name;
	p->nodes[n].self_ns = 0;
	p->nodes[n].first_sample = -1;
	/* Re-read: the array may have moved. */
	link = parent < 0 ? &p->first_root : &p->nodes[parent].first_child;
	p->nodes[n].next_sibling = *link;
	*link = n;
	return n;
}

/* Name's calls open on thread t, made room for. */
static int *open_calls(struct profile *p, int t, int name)
{
	struct thread_names *th;

	if (t >= p->nthreads) {
		p->threads = xrealloc(p->threads,
				      (size_t)(t + 1) * sizeof(*p->threads));
		memset(p->threads + p->nthreads, 0,
		       (size_t)(t + 1 - p->nthreads) * sizeof(*p->threads));
		p->nthreads = t + 1;
	}
	th = &p->threads[t];
	if (name >= th->nopen) {
		int more = name + 64;

		th->open = xrealloc(th->open, (size_t)more * sizeof(int));
		memset(th->open + th->nopen, 0,
		       (size_t)(more - th->nopen) * sizeof(int));
		th->nopen = more;
	}
	return &th->open[name];
}

/* The call the profile sees x inside: the nearest open around it of a
 * pair timed here (the timeline's other pairs may be between). */
static struct call *profiled_caller(const struct profile *p, struct calls *c,
				    const struct call *x)
{
	struct call *up;

	for (up = calls_below(c, x); up; up = calls_below(c, up))
		if (p->tr->pairs[up->pair].in_user)
			return up;
	return NULL;
}

/* Call x's self time on its node and thread, for --pprof. */
static void add_sample(struct profile *p, const struct call *x,
		       unsigned long long self)
{
	struct node *n = &p->nodes[x->profile_node];
	int i;

	for (i = n->first_sample; i >= 0; i = p->samples[i].next)
		if (p->samples[i].tid == x->tid && p->samples[i].pid == x->pid)
			break;
	if (i < 0) {
		p->samples = xgrow(p->samples, (size_t)p->nsamples,
				   sizeof(*p->samples));
		i = p->nsamples++;
		p->samples[i] = (struct thread_sample){ n->first_sample,
							x->pid, x->tid, 0, 0 };
		n->first_sample = i;
	}
	p->samples[i].calls++;
	p->samples[i].self_ns += self;
}

/* Call x has ended: its name's calls and times, its node's self time,
 * and its caller's time in calls. */
static void ended(struct profile *p, struct calls *c, const struct call *x)
{
	struct profile_name *n = p->names[x->profile_name];
	unsigned long long total = x->end_ns > x->start_ns
					   ? x->end_ns - x->start_ns
					   : 0,
			   self = total > x->child_ns ? total - x->child_ns : 0;
	struct call *caller = profiled_caller(p, c, x);

	n->calls++;
	if (--*open_calls(p, x->thread, x->profile_name) == 0)
		n->total_ns += total;
	n->self_ns += self;
	if (!n->times)
		n->times = xcalloc(1, sizeof(*n->times));
	trace_pair_record(n->times, total);
	if (x->profile_node >= 0) {
		p->nodes[x->profile_node].self_ns += self;
		if (p->pprofing)
			add_sample(p, x, self);
	}
	if (caller)
		caller->child_ns += total;
}

/* Call x has opened: its name, and its node under its caller's. */
static void opened(struct profile *p, struct calls *c, struct call *x)
{
	struct call *caller = profiled_caller(p, c, x);

	x->profile_name = name_index(p, x->pair, x->name);
	if (!p->names[x->profile_name]->line && x->line > 0)
		p->names[x->profile_name]->line = (unsigned long long)x->line;
	++*open_calls(p, x->thread, x->profile_name);
	/* Under a caller past the tree's limit: counted, in no node. */
	if (caller && caller->profile_node < 0) {
		p->merged++;
		x->profile_node = -1;
	} else {
		x->profile_node = node_of(p, caller ? caller->profile_node : -1,
					  x->profile_name);
	}
}

void profile_event(struct profile *p, const struct trace_event *e)
{
	const struct tracer *tr = p->tr;
	struct calls *c = sink_state(tr, SINK_CALLS);
	const struct call *closed;
	struct call *x;
	int i, n;

	(void)e;
	closed = calls_closed(c, &n);
	for (i = 0; i < n; i++) {
		const struct call *y = &closed[i];

		if (!tr->pairs[y->pair].in_user || y->profile_name < 0)
			continue;
		if (y->ended)
			ended(p, c, y);
		else
			--*open_calls(p, y->thread, y->profile_name);
	}
	for (i = 0; (x = calls_opened(c, i)); i++)
		if (tr->pairs[x->pair].in_user)
			opened(p, c, x);
}

static int by_self_time(const void *a, const void *b)
{
	const struct profile_name *x = *(const struct profile_name *const *)a,
				  *y = *(const struct profile_name *const *)b;

	if (x->self_ns != y->self_ns)
		return x->self_ns < y->self_ns ? 1 : -1;
	return strcmp(x->name, y->name);
}

struct profile_name **profile_names(const struct profile *p, int pair, int *n)
{
	struct profile_name **list =
		xcalloc((size_t)p->nnames + 1, sizeof(*list));
	int i;

	*n = 0;
	for (i = 0; i < p->nnames; i++)
		if (p->names[i]->pair == pair && p->names[i]->calls)
			list[(*n)++] = p->names[i];
	qsort(list, (size_t)*n, sizeof(*list), by_self_time);
	return list;
}

int profile_write_folded(struct profile *p)
{
	struct buf *out = &p->folded.buf;
	int *path_nodes = NULL, i, depth, cap = 0, n;

	if (!p->folding)
		return 0;
	/* Under --budget, said on a line no stack can be (viewers skip
	   it: speedscope and flamegraph.pl take "FRAMES COUNT" lines). */
	{
		char *sampled = budget_sampled_text(p->tr);

		if (sampled)
			buf_printf(out, "# %s; the calls timed in the windows, unscaled\n",
				   sampled);
		free(sampled);
	}
	for (i = 0; i < p->nnodes; i++) {
		if (!p->nodes[i].self_ns)
			continue;
		for (depth = 0, n = i; n >= 0; n = p->nodes[n].parent) {
			if (depth == cap) {
				cap = cap ? 2 * cap : 64;
				path_nodes =
					xrealloc(path_nodes,
						 (size_t)cap * sizeof(int));
			}
			path_nodes[depth++] = n;
		}
		while (depth--) {
			const char *name =
				p->names[p->nodes[path_nodes[depth]].name]->name;

			buf_folded_frame(out, name, strlen(name));
			if (depth)
				buf_lit(out, ";");
		}
		buf_printf(out, " %llu\n", p->nodes[i].self_ns);
	}
	free(path_nodes);
	if (p->merged)
		info_plain("--folded: %llu calls past %d stacks are counted in their callers'",
			   p->merged, PROFILE_MAX_NODES);
	p->folding = 0;
	return output_commit(&p->folded);
}

void profile_paths(const struct profile *p, profile_path_fn *fn, void *ctx)
{
	const struct profile_name **names = NULL;
	int i, k, depth, cap = 0, n;

	for (i = 0; i < p->nnodes; i++) {
		if (p->nodes[i].first_sample < 0)
			continue;
		for (depth = 0, n = i; n >= 0; n = p->nodes[n].parent) {
			if (depth == cap) {
				cap = cap ? 2 * cap : 64;
				names = xrealloc(names,
						 (size_t)cap * sizeof(*names));
			}
			names[depth++] = p->names[p->nodes[n].name];
		}
		for (k = p->nodes[i].first_sample; k >= 0; k = p->samples[k].next)
			fn(ctx, names, depth, p->samples[k].pid,
			   p->samples[k].tid, p->samples[k].calls,
			   p->samples[k].self_ns);
	}
	free(names);
}

void profile_free(struct profile *p)
{
	int i;

	if (!p)
		return;
	if (p->folding)
		output_abort(&p->folded);
	for (i = 0; i < p->nnames; i++) {
		free(p->names[i]->key);
		free(p->names[i]->times);
		free(p->names[i]);
	}
	for (i = 0; i < p->nthreads; i++)
		free(p->threads[i].open);
	name_set_free(&p->name_set);
	buf_free(&p->key);
	free(p->names);
	free(p->nodes);
	free(p->samples);
	free(p->threads);
	free(p);
}
