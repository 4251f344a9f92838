/*
 * src/trace/kernel/tally.c - what the BPF side counted and timed, read from its
 * maps (summed over CPUs): each probe's firings, each pair's times and
 * the starts left open, in how many processes each probe fired, and
 * the events the ring buffer dropped.  --summary and --expect-all read
 * it at the end, --metrics at each scrape.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "trace/kernel/bpf_rooms.h"
#include "trace.skel.h"

/* Each CPU's value of a per-CPU map at key, size bytes each (*ncpus of
 * them); NULL when they cannot be read. */
static void *per_cpu_values(struct bpf_map *map, unsigned key, size_t size,
			    int *ncpus)
{
	void *all;

	*ncpus = libbpf_num_possible_cpus();
	if (*ncpus <= 0)
		return NULL;
	all = xcalloc((size_t)*ncpus, size);
	if (bpf_map__lookup_elem(map, &key, sizeof(key), all,
				 size * (size_t)*ncpus, 0) != 0) {
		free(all);
		return NULL;
	}
	return all;
}

/* The sum over CPUs of a per-CPU counter. */
static unsigned long long per_cpu_sum(struct bpf_map *map, unsigned key)
{
	int ncpus, c;
	unsigned long long *v = per_cpu_values(map, key, sizeof(*v), &ncpus),
			   sum = 0;

	for (c = 0; v && c < ncpus; c++)
		sum += v[c];
	free(v);
	return sum;
}

unsigned long long tally_dropped(struct trace_bpf *skel)
{
	return per_cpu_sum(skel->maps.drops, 0);
}

/* The starts still open at the end: each thread's nesting depth and
 * each start waiting for its value (trace_abi.h's keys). */
static void count_unended(const struct tracer *tr, struct trace_bpf *skel,
			  struct tally *t)
{
	struct trace_nest_key nk, *prev = NULL;
	struct trace_value_key vk, *vprev = NULL;
	struct trace_nest n;
	struct bpf_map *nests = skel->maps.nests,
		       *opened = skel->maps.opened_by_value;
	unsigned npairs = (unsigned)tr->npairs;

	while (bpf_map__get_next_key(nests, prev, &nk, sizeof(nk)) == 0) {
		prev = &nk;
		if (nk.pair < npairs &&
		    bpf_map__lookup_elem(nests, &nk, sizeof(nk), &n, sizeof(n),
					 0) == 0)
			t->pairs[nk.pair].unended += n.depth;
	}
	while (bpf_map__get_next_key(opened, vprev, &vk, sizeof(vk)) == 0) {
		vprev = &vk;
		if (vk.pair < npairs)
			t->pairs[vk.pair].unended++;
	}
}

/* One pair's times over every CPU: sums, and the least min and most
 * max of the CPUs that timed it. */
static void pair_tally(struct bpf_map *map, unsigned key,
		       struct trace_pair_stats *sum)
{
	int ncpus, c, b;
	struct trace_pair_stats *v =
		per_cpu_values(map, key, sizeof(*v), &ncpus);

	for (c = 0; v && c < ncpus; c++) {
		if (!v[c].count && !v[c].unmatched && !v[c].too_deep)
			continue;
		if (v[c].count && (!sum->count || v[c].min_ns < sum->min_ns))
			sum->min_ns = v[c].min_ns;
		if (v[c].max_ns > sum->max_ns)
			sum->max_ns = v[c].max_ns;
		sum->count += v[c].count;
		sum->sum_ns += v[c].sum_ns;
		sum->unmatched += v[c].unmatched;
		sum->too_deep += v[c].too_deep;
		for (b = 0; b < TRACE_LAT_BUCKETS; b++)
			sum->buckets[b] += v[c].buckets[b];
	}
	free(v);
}

/* In how many processes each probe fired, while following a tree
 * (--summary says it; --metrics counts the live ones alone). */
static void count_processes(const struct tracer *tr, struct trace_bpf *skel,
			    struct tally *t)
{
	struct trace_fired_key k, *prev = NULL;

	if (!tr->plan.count_processes || !tr->plan.request->summary)
		return;
	t->processes = xcalloc((size_t)tr->nprobes + 1, sizeof(*t->processes));
	while (bpf_map__get_next_key(skel->maps.fired_in, prev, &k,
				     sizeof(k)) == 0) {
		prev = &k;
		if (k.probe < (unsigned)tr->nprobes)
			t->processes[k.probe]++;
	}
}

static int by_number(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* --metrics: the processes running now in which a probe has fired; the
 * keys of those that have ended are deleted, so that the map does not
 * fill over a long run. */
static void count_live_processes(struct trace_bpf *skel, struct tally *t)
{
	struct bpf_map *map = skel->maps.fired_in;
	struct trace_fired_key k, next;
	unsigned *tgids = NULL;
	size_t n = 0, i;
	int more = bpf_map__get_next_key(map, NULL, &next, sizeof(next)) == 0;

	while (more) {
		k = next;
		more = bpf_map__get_next_key(map, &k, &next, sizeof(next)) == 0;
		if (kill((pid_t)k.tgid, 0) != 0 && errno == ESRCH) {
			bpf_map__delete_elem(map, &k, sizeof(k), 0);
			continue;
		}
		tgids = xgrow(tgids, n, sizeof(*tgids));
		tgids[n++] = k.tgid;
	}
	if (n)
		qsort(tgids, n, sizeof(*tgids), by_number);
	t->live_processes = 0;
	for (i = 0; i < n; i++)
		t->live_processes += !i || tgids[i] != tgids[i - 1];
	free(tgids);
}

void tally_read(const struct tracer *tr, struct trace_bpf *skel,
		struct tally *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	t->counts = xcalloc((size_t)tr->nprobes + 1, sizeof(*t->counts));
	t->pairs = xcalloc((size_t)tr->npairs + 1, sizeof(*t->pairs));
	t->rejected = xcalloc((size_t)tr->nprobes + 1, sizeof(*t->rejected));
	for (i = 0; i < tr->nprobes; i++) {
		if (tr->plan.tally)
			t->counts[i] = per_cpu_sum(skel->maps.counts,
						   (unsigned)i);
		if (tr->probes[i].filter)
			t->rejected[i] = per_cpu_sum(skel->maps.rejected,
						     (unsigned)i);
	}
	/* Without the counts (--where alone), only the rejected. */
	if (!tr->plan.tally)
		return;
	for (i = 0; i < tr->npairs; i++)
		if (!tr->pairs[i].in_user)
			pair_tally(skel->maps.pair_stats, (unsigned)i,
				   &t->pairs[i]);
	count_unended(tr, skel, t);
	count_processes(tr, skel, t);
	t->dropped = tally_dropped(skel);
	if (tr->plan.metrics)
		count_live_processes(skel, t);
}


void tally_cost(struct trace_bpf *skel, int probe, struct trace_cost *out)
{
	int ncpus, c;
	struct trace_cost *v = per_cpu_values(skel->maps.costs,
					      (unsigned)probe, sizeof(*v),
					      &ncpus);

	*out = (struct trace_cost){ 0, 0 };
	for (c = 0; v && c < ncpus; c++) {
		out->firings += v[c].firings;
		out->ns += v[c].ns;
	}
	free(v);
}


unsigned tally_forget_starts(const struct tracer *tr, struct trace_bpf *skel,
			     int pair)
{
	unsigned forgotten = 0;
	struct trace_nest_key nk, next;
	struct trace_value_key vk, vnext;
	struct trace_nest n;
	struct bpf_map *nests = skel->maps.nests,
		       *opened = skel->maps.opened_by_value;
	int more;

	(void)tr;
	/* The next key is taken before one is deleted: a hash map's walk
	   restarts from the first when its key is gone. */
	more = bpf_map__get_next_key(nests, NULL, &nk, sizeof(nk)) == 0;
	while (more) {
		more = bpf_map__get_next_key(nests, &nk, &next, sizeof(next)) == 0;
		/* A thread's entry stays at depth 0 between its calls. */
		if ((int)nk.pair == pair &&
		    bpf_map__lookup_elem(nests, &nk, sizeof(nk), &n, sizeof(n),
					 0) == 0 &&
		    n.depth) {
			forgotten += n.depth;
			n.depth = 0;
			bpf_map__update_elem(nests, &nk, sizeof(nk), &n, sizeof(n),
					     BPF_EXIST);
		}
		nk = next;
	}
	more = bpf_map__get_next_key(opened, NULL, &vk, sizeof(vk)) == 0;
	while (more) {
		more = bpf_map__get_next_key(opened, &vk, &vnext, sizeof(vnext)) == 0;
		if ((int)vk.pair == pair &&
		    bpf_map__delete_elem(opened, &vk, sizeof(vk), 0) == 0)
			forgotten++;
		vk = vnext;
	}
	return forgotten;
}
