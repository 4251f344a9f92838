/*
 * src/trace/kernel/load.c - the program of trace.bpf.c, opened through its
 * bpftool skeleton, its maps sized to what is traced and its rodata
 * set for the run, then loaded: sleepable where the kernel allows (so
 * that strings are read whatever their page), else the plain one.
 */
#include <bpf/libbpf.h>
#include <stdio.h>

#include "trace/kernel/bpf_rooms.h"
#include "trace.skel.h"

/* The kernel's largest process ID and one, the size of the tree's
 * array (4194304 on 64-bit kernels, unless set otherwise). */
static unsigned pid_max(void)
{
	FILE *f = fopen("/proc/sys/kernel/pid_max", "r");
	unsigned n = 0;

	if (f) {
		if (fscanf(f, "%u", &n) != 1)
			n = 0;
		fclose(f);
	}
	return n ? n + 1 : 4194304 + 1;
}

/* The skeleton, opened for tr: the maps by probe and by pair as big as
 * what is traced (or may be: a followed tree's programs bring theirs as
 * they start), and the open starts' maps a room each when no pair is (at
 * their largest they take 17 MiB, made while loading: 15 ms of every
 * trace's start).  Counts and pairs are kept in the kernel only when
 * they are read at the end (--summary, --expect-all): else those maps
 * are a room each too (following, 14 ms of the start).  The programs
 * that follow the tree load only for it. */
static struct trace_bpf *open_program(const struct tracer *tr, int summary_only,
				      int follow)
{
	struct trace_bpf *skel = trace_bpf__open();
	int tally = tr->plan.tally;
	unsigned nprobes = tr->nprobes > 0 ? (unsigned)tr->nprobes : 1;
	unsigned npairs = tr->npairs > 0 ? (unsigned)tr->npairs : 1;

	if (!skel)
		return NULL;
	skel->rodata->summary_only = summary_only;
	skel->rodata->slot_bytes = tr->plan.string_bytes;
	/* The event's scratch: an entry a CPU (trace.bpf.c). */
	if (libbpf_num_possible_cpus() > 0)
		bpf_map__set_max_entries(skel->maps.scratch,
					 (unsigned)libbpf_num_possible_cpus());
	skel->rodata->stack_bytes =
		tr->plan.request->stack ? (tr->plan.stack_bytes)
			       : 0;
	/* --stack: room for about 7,900 firings of 8 KiB copies, not
	   1,900.  A process's first walk reads its binaries' DWARF
	   (170 ms with libc6-dbg's), while the ring fills: at 25,000
	   firings a second, 16 MiB lost a burst of each process's. */
	if (tr->plan.request->stack)
		bpf_map__set_max_entries(skel->maps.events,
					 TRACE_RING_BYTES_STACK);
	skel->rodata->tally = tally;
	skel->rodata->follow_tree = follow;
	/* The processes each probe fired in: --summary's, while following,
	   and --metrics's running processes. */
	skel->rodata->count_processes = tr->plan.count_processes;
	if (!skel->rodata->count_processes)
		bpf_map__set_max_entries(skel->maps.fired_in, 1);
	if (follow) {
		nprobes = TRACE_MAX_PROBES;
		npairs = TRACE_MAX_PAIRS;
		bpf_map__set_max_entries(skel->maps.tree, pid_max());
	} else {
		bpf_program__set_autoload(skel->progs.on_fork, false);
		bpf_program__set_autoload(skel->progs.on_exec, false);
		bpf_program__set_autoload(skel->progs.on_exit, false);
		bpf_program__set_autoload(skel->progs.on_loader, false);
		bpf_map__set_max_entries(skel->maps.tree, 1);
	}
	bpf_map__set_max_entries(skel->maps.probes, nprobes);
	/* --where: each filtered probe's filter, and what it rejected. */
	bpf_map__set_max_entries(skel->maps.filters,
				 follow ? TRACE_MAX_FILTERS
				 : tr->nfiltered ? (unsigned)tr->nfiltered
						 : 1);
	bpf_map__set_max_entries(skel->maps.rejected,
				 tr->nfiltered || follow ? nprobes : 1);
	bpf_map__set_max_entries(skel->maps.counts, tally ? nprobes : 1);
	/* --budget: each probe's firings and time, whatever it streams. */
	skel->rodata->measure_cost = tr->plan.budget > 0;
	bpf_map__set_max_entries(skel->maps.costs,
				 tr->plan.budget > 0 ? nprobes : 1);
	bpf_map__set_max_entries(skel->maps.pair_stats, tally ? npairs : 1);
	if (!tally || (!tr->npairs && !follow)) {
		bpf_map__set_max_entries(skel->maps.nests, 1);
		bpf_map__set_max_entries(skel->maps.opened_by_value, 1);
	}
	return skel;
}

/* The sleepable program where the kernel loads it (strings are then
 * read whatever their page), else the plain one; *prog is the one.
 * With multi, loaded for multi-uprobe links (attach.c). */
struct trace_bpf *load_program(const struct tracer *tr,
			       struct bpf_program **prog, int summary_only,
			       int multi, int follow)
{
	struct trace_bpf *skel;
	struct bpf_program *chosen, *progs[4];
	int tries, i;

	for (tries = 0; tries < 2; tries++) {
		if (!(skel = open_program(tr, summary_only, follow)))
			return NULL;
		/* --where's filters in the programs that filter (whose
		   functions the kernel then checks); one of the four. */
		progs[0] = skel->progs.on_probe_sleepable;
		progs[1] = skel->progs.on_probe;
		progs[2] = skel->progs.on_probe_filtering_sleepable;
		progs[3] = skel->progs.on_probe_filtering;
		chosen = progs[(tr->plan.request->where_requests.n ? 2 : 0) + tries];
		for (i = 0; i < 4; i++)
			bpf_program__set_autoload(progs[i], progs[i] == chosen);
		/* --summary reads strings only for the pairs timed in user
		   space (profile.c), which may come with any program a
		   followed process starts: the sleepable program as for
		   every trace (it costs a firing what the plain one does). */
		if (tries == 0)
			bpf_program__set_flags(chosen, BPF_F_SLEEPABLE);
		if (multi)
			bpf_program__set_expected_attach_type(
				chosen,
				(enum bpf_attach_type)ATTACH_UPROBE_MULTI);
		/* The loader's hook through a multi-uprobe link too: the
		   kernel releases one in 20-30 ms, a uprobe's perf event in
		   110 ms. */
		if (multi)
			bpf_program__set_expected_attach_type(
				skel->progs.on_loader,
				(enum bpf_attach_type)ATTACH_UPROBE_MULTI);
		if (trace_bpf__load(skel) == 0) {
			*prog = chosen;
			return skel;
		}
		trace_bpf__destroy(skel);
	}
	return NULL;
}
