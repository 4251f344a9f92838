/*
 * src/trace/session.c - the BPF side's lifecycle for --trace: load the
 * program of trace.bpf.c through its bpftool skeleton (sleepable where
 * the kernel allows, so that strings are read whatever their page),
 * tell it which arguments are strings and which pairs each probe is in,
 * attach it to every site of every probe (attach.c; the probe's index
 * is its USDT cookie), poll the ring buffer, and detach.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracer.h"
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
	int tally = tr->opt->summary || tr->opt->expect_all || tr->opt->metrics;
	unsigned nprobes = tr->nprobes > 0 ? (unsigned)tr->nprobes : 1;
	unsigned npairs = tr->npairs > 0 ? (unsigned)tr->npairs : 1;

	if (!skel)
		return NULL;
	skel->rodata->summary_only = summary_only;
	skel->rodata->tally = tally;
	skel->rodata->follow_tree = follow;
	/* The processes each probe fired in: --summary's, while following,
	   and --metrics's running processes. */
	skel->rodata->count_processes =
		(follow && tr->opt->summary) || tr->opt->metrics;
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
		bpf_map__set_max_entries(skel->maps.tree, 1);
	}
	bpf_map__set_max_entries(skel->maps.probes, nprobes);
	bpf_map__set_max_entries(skel->maps.counts, tally ? nprobes : 1);
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
static struct trace_bpf *load_program(const struct tracer *tr,
				      struct bpf_program **prog,
				      int summary_only, int multi, int follow)
{
	struct trace_bpf *skel = open_program(tr, summary_only, follow);

	if (!skel)
		return NULL;
	/* --summary reads strings only for the pairs timed in user space
	   (profile.c), which may come with any program a followed process
	   starts: the sleepable program as for every trace (it costs a
	   firing what the plain one does). */
	bpf_program__set_autoload(skel->progs.on_probe, false);
	bpf_program__set_flags(skel->progs.on_probe_sleepable, BPF_F_SLEEPABLE);
	if (multi)
		bpf_program__set_expected_attach_type(
			skel->progs.on_probe_sleepable,
			(enum bpf_attach_type)ATTACH_UPROBE_MULTI);
	if (trace_bpf__load(skel) == 0) {
		*prog = skel->progs.on_probe_sleepable;
		return skel;
	}
	trace_bpf__destroy(skel);
	skel = open_program(tr, summary_only, follow);
	if (!skel)
		return NULL;
	bpf_program__set_autoload(skel->progs.on_probe_sleepable, false);
	if (multi)
		bpf_program__set_expected_attach_type(skel->progs.on_probe,
						      (enum bpf_attach_type)
							      ATTACH_UPROBE_MULTI);
	if (trace_bpf__load(skel) != 0) {
		trace_bpf__destroy(skel);
		return NULL;
	}
	*prog = skel->progs.on_probe;
	return skel;
}

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

static unsigned long long dropped(struct trace_bpf *skel)
{
	return per_cpu_sum(skel->maps.drops, 0);
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_WARN && getenv("PROBEGEN_TRACE_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

struct session {
	struct tracer *tr;
	struct trace_bpf *skel;
	struct ring_buffer *rb;
	struct attacher *attacher;
	/* Following a tree: the links of on_fork, on_exec, on_exit. */
	struct bpf_link *tree_links[3];
};

/* Tell the BPF side which arguments of probes from..nprobes-1 are C
 * strings, and the pairs they end and start. */
static void describe_probes(struct session *s, int from)
{
	int i, a;

	for (i = from; i < s->tr->nprobes; i++) {
		const struct traced *t = &s->tr->probes[i];
		struct trace_probe_info info = { 0 };
		unsigned int key = (unsigned int)i;

		for (a = 0; a < t->nargs; a++)
			if (t->read[a].how == READ_STRING)
				info.string_mask |= 1u << a;
		/* --metrics counts its firings by --by's arguments in
		   user space: sent there. */
		info.stream = t->nlabel_args > 0;
		/* A pair timed in user space is not timed here: its
		   probes' events are sent to it. */
		for (a = 0; a < t->nends; a++) {
			const struct traced_pair *p = &s->tr->pairs[t->ends[a]];

			if (p->in_user) {
				info.stream = 1;
				continue;
			}
			info.ends[info.nends].pair = (unsigned)t->ends[a];
			info.ends[info.nends++].match_arg = p->end_arg;
		}
		for (a = 0; a < t->nstarts; a++) {
			const struct traced_pair *p =
				&s->tr->pairs[t->starts[a]];

			if (p->in_user) {
				info.stream = 1;
				continue;
			}
			info.starts[info.nstarts].pair = (unsigned)t->starts[a];
			info.starts[info.nstarts++].match_arg = p->start_arg;
		}
		bpf_map__update_elem(s->skel->maps.probes, &key, sizeof(key),
				     &info, sizeof(info), 0);
	}
}

/* Attach to probes from..nprobes-1; the number attached, or -1 when the
 * multi-uprobe links could not be made (the caller goes per site). */
static int attach_from(struct session *s, int from)
{
	struct tracer *tr = s->tr;
	int i, attached = 0;
	char *why;

	for (i = from; i < tr->nprobes; i++) {
		const struct traced *t = &tr->probes[i];

		if (attacher_add(s->attacher, t, i, &why) == 0) {
			attached++;
			continue;
		}
		warning_plain("cannot attach to %s in %s: %s", t->label_text,
			      t->binary, why);
		free(why);
	}
	if (attacher_commit(s->attacher, &why) != 0) {
		if (getenv("PROBEGEN_TRACE_DEBUG"))
			fprintf(stderr,
				"probegen: %s; one uprobe a site instead\n",
				why);
		free(why);
		return -1;
	}
	return attached;
}

/* Load and attach: through multi-uprobe links where the kernel has them
 * (Linux 6.6), else one uprobe a site.  PROBEGEN_NO_UPROBE_MULTI forces
 * the second (the tests run both). */
static int load_and_attach(struct session *s, int pid)
{
	struct bpf_program *prog = NULL;
	int summary_only = (s->tr->opt->summary || s->tr->opt->metrics) &&
			   !s->tr->opt->timeline;
	int multi = !getenv("PROBEGEN_NO_UPROBE_MULTI"), attached;

	for (;; multi = 0) {
		s->skel = load_program(s->tr, &prog, summary_only, multi,
				       pid > 0);
		if (!s->skel) {
			if (multi)
				continue;
			error_plain("cannot load the BPF program: %s%s",
				    strerror(errno),
				    errno == EPERM
					    ? " (needs root, or CAP_BPF and CAP_PERFMON)"
					    : "");
			return -1;
		}
		describe_probes(s, 0);
		/* A followed tree's processes are told apart in the BPF
		   program: the programs they start are attached in every
		   process, before they run. */
		s->attacher = attacher_new(prog, s->skel->maps.__bpf_usdt_specs,
					   pid > 0 ? -1 : pid, multi);
		attached = attach_from(s, 0);
		if (attached >= 0 || !multi)
			return attached;
		attacher_free(s->attacher);
		s->attacher = NULL;
		trace_bpf__destroy(s->skel);
		s->skel = NULL;
	}
}

/* Follow process pid and every process it starts: pid joins the tree,
 * and the programs that grow it are attached. */
static int follow_tree(struct session *s, int pid)
{
	struct bpf_program *progs[3] = { s->skel->progs.on_fork,
					 s->skel->progs.on_exec,
					 s->skel->progs.on_exit };
	unsigned key = (unsigned)pid;
	unsigned char one = 1;
	int i;

	for (i = 0; i < 3; i++) {
		s->tree_links[i] = bpf_program__attach(progs[i]);
		if (!s->tree_links[i]) {
			error_plain("cannot follow the processes started: %s",
				    strerror(errno));
			return -1;
		}
	}
	if (bpf_map__update_elem(s->skel->maps.tree, &key, sizeof(key), &one,
				 sizeof(one), 0) != 0) {
		error_plain("cannot follow process %d: %s", pid,
			    strerror(errno));
		return -1;
	}
	return 0;
}

/* A followed process (stopped) has exec'd a program: attach to its
 * probes and its libraries' unless they are traced already, then let it
 * go on.  Its first instruction runs after. */
static void exec_seen(struct session *s, int pid)
{
	struct tracer *tr = s->tr;
	char link[64], exe[PATH_MAX];
	ssize_t n;
	int before = tr->nprobes, attached;

	snprintf(link, sizeof(link), "/proc/%d/exe", pid);
	n = readlink(link, exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		if (targets_add_program(tr, exe) > 0) {
			describe_probes(s, before);
			attached = attach_from(s, before);
			if (attached < 0)
				warning_plain("the probes of %s are not traced: "
					      "they cannot be attached",
					      exe);
			else if (attached > 0)
				info_plain("tracing %d probe%s of %s", attached,
					   attached == 1 ? "" : "s", exe);
		}
	}
	kill(pid, SIGCONT);
}

/* The ring buffer's callback: a followed process's exec, or an event. */
static int on_record(void *ctx, void *data, size_t size)
{
	struct session *s = ctx;
	const struct trace_event *e = data;

	if (size >= sizeof(e->probe) + offsetof(struct trace_event, probe) &&
	    e->probe == TRACE_EXEC_EVENT) {
		exec_seen(s, (int)e->pid);
		return 0;
	}
	return events_print(s->tr, data, size);
}

struct session *session_start(struct tracer *tr, int pid, int *status)
{
	struct session *s = xcalloc(1, sizeof(*s));
	int attached;

	s->tr = tr;
	*status = EXIT_SYSTEM;
	libbpf_set_print(libbpf_quiet);
	attached = load_and_attach(s, pid);
	if (attached < 0)
		goto fail;
	if (!attached && (pid <= 0 || tr->nprobes)) {
		error_plain("no probe could be attached");
		goto fail;
	}
	if (pid > 0 && follow_tree(s, pid) != 0)
		goto fail;
	s->rb = ring_buffer__new(bpf_map__fd(s->skel->maps.events), on_record,
				 s, NULL);
	if (!s->rb) {
		error_plain("cannot read the ring buffer: %s", strerror(errno));
		goto fail;
	}
	if (attached)
		info_plain("tracing %d probe%s", attached,
			   attached == 1 ? "" : "s");
	*status = EXIT_OK;
	return s;
fail:
	session_end(s);
	return NULL;
}

int session_poll(struct session *s, int timeout_ms, const int *fds, int nfds)
{
	/* Events are sent without a wakeup until 256 KiB wait (see
	   trace.bpf.c): read what is there at least every timeout_ms. */
	struct pollfd p[1 + SESSION_MAX_FDS] = {
		{ ring_buffer__epoll_fd(s->rb), POLLIN, 0 }
	};
	int i, r, ready = 0;

	for (i = 0; i < nfds && i < SESSION_MAX_FDS; i++)
		p[1 + i] = (struct pollfd){ fds[i], POLLIN, 0 };
	r = poll(p, (nfds_t)(1 + i), timeout_ms);
	if (r < 0 && errno != EINTR)
		return -errno;
	/* Read even when stopping: a followed process stopped at its exec
	   waits for its record to be read (events_print prints no more). */
	r = ring_buffer__consume(s->rb);
	if (r < 0 && r != -EINTR)
		return r;
	for (i = 0; i < nfds && i < SESSION_MAX_FDS; i++)
		if (fds[i] >= 0 && (p[1 + i].revents & (POLLIN | POLLHUP)))
			ready |= 1 << i;
	return ready;
}

/* The starts still open at the end: each thread's nesting depth and
 * each start waiting for its value (trace.h's keys). */
static void count_unended(struct session *s, struct tally *t)
{
	struct trace_nest_key nk, *prev = NULL;
	struct trace_value_key vk, *vprev = NULL;
	struct trace_nest n;
	struct bpf_map *nests = s->skel->maps.nests,
		       *opened = s->skel->maps.opened_by_value;
	unsigned npairs = (unsigned)s->tr->npairs;

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
static void count_processes(struct session *s, struct tally *t)
{
	struct trace_fired_key k, *prev = NULL;

	if (!s->skel->rodata->count_processes || !s->tr->opt->summary)
		return;
	t->processes =
		xcalloc((size_t)s->tr->nprobes + 1, sizeof(*t->processes));
	while (bpf_map__get_next_key(s->skel->maps.fired_in, prev, &k,
				     sizeof(k)) == 0) {
		prev = &k;
		if (k.probe < (unsigned)s->tr->nprobes)
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
static void count_live_processes(struct session *s, struct tally *t)
{
	struct bpf_map *map = s->skel->maps.fired_in;
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

void session_tally(struct session *s, struct tally *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	t->counts = xcalloc((size_t)s->tr->nprobes + 1, sizeof(*t->counts));
	t->pairs = xcalloc((size_t)s->tr->npairs + 1, sizeof(*t->pairs));
	for (i = 0; i < s->tr->nprobes; i++)
		t->counts[i] = per_cpu_sum(s->skel->maps.counts, (unsigned)i);
	for (i = 0; i < s->tr->npairs; i++)
		if (!s->tr->pairs[i].in_user)
			pair_tally(s->skel->maps.pair_stats, (unsigned)i, &t->pairs[i]);
	count_unended(s, t);
	if (s->tr->profile)
		profile_tally(s->tr->profile, t->pairs);
	count_processes(s, t);
	t->dropped = dropped(s->skel);
	if (s->tr->opt->metrics)
		count_live_processes(s, t);
}

void tally_free(struct tally *t)
{
	free(t->counts);
	free(t->pairs);
	free(t->processes);
}

void session_end(struct session *s)
{
	if (!s)
		return;
	if (s->rb)
		ring_buffer__consume(s->rb); /* what an ended process left */
	fflush(stdout);
	if (s->skel) {
		unsigned long long d = dropped(s->skel);

		if (d)
			info_plain("%llu event%s dropped: the ring buffer was full",
				   d, d == 1 ? "" : "s");
	}
	ring_buffer__free(s->rb);
	for (int i = 0; i < 3; i++)
		bpf_link__destroy(s->tree_links[i]);
	attacher_free(s->attacher);
	trace_bpf__destroy(s->skel);
	free(s);
}
