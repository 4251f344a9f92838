/*
 * src/trace/kernel/session.c - the BPF side's lifecycle for --trace: load the
 * program of trace.bpf.c (load.c), tell it which arguments are strings
 * and which pairs each probe is in, attach it to every site of every
 * probe (attach.c; the probe's index is its USDT cookie), the links
 * that follow the tree of -c's command or -p's process and watch its
 * loaders (follow.c decides what they attach), poll the ring buffer,
 * and detach.
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
#include <sys/resource.h>
#include <unistd.h>

#include "trace/kernel/bpf_rooms.h"
#include "compiler/naming.h"
#include "inspect/inspect.h"
#include "trace/kernel/session.h"
#include "trace.skel.h"

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_WARN && getenv("PROBEGEN_TRACE_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

struct session {
	struct tracer *tr;
	int attached; /* probes attached at the start */
	struct trace_bpf *skel;
	struct ring_buffer *rb;
	struct attacher *attacher;
	/* Following a tree: the links of on_fork, on_exec, on_exit. */
	struct bpf_link *tree_links[3];
	int multi; /* loaded for multi-uprobe links */
	/* on_loader's, one a dynamic loader the tree has run, by path: a
	   multi-uprobe link's fd, or a uprobe's link. */
	struct bpf_link **loader_links;
	int *loader_fds;
	char **loaders;
	int nloaders;
	int ending; /* the trace has ended: a stopped process only goes on */
	int switchable; /* a link each probe: session_switch */
	double consume_until; /* the current read of the ring ends then */
	unsigned long consumed;
	/* The last read ended before the ring was empty: the next poll
	   does not wait (no wakeup comes for what is left). */
	int left_in_ring;
};

/* Tell the BPF side what it does at each firing of probes
 * from..nprobes-1 (what find/ decided: struct traced's info), and their
 * filters. */
static void describe_probes(struct session *s, int from)
{
	int i;

	for (i = from; i < s->tr->nprobes; i++) {
		const struct traced *t = &s->tr->probes[i];
		unsigned int key = (unsigned int)i;

		if (t->filter) {
			unsigned int fk = (unsigned)t->filter_index;

			bpf_map__update_elem(s->skel->maps.filters, &fk,
					     sizeof(fk), t->filter,
					     sizeof(*t->filter), 0);
		}
		bpf_map__update_elem(s->skel->maps.probes, &key, sizeof(key),
				     &t->info, sizeof(t->info), 0);
	}
}

/* --where's ~ matches in the sleepable program alone (bpf_loop): 1
 * when a filter has one and the kernel loaded the plain one (said). */
static int globs_need_sleepable(const struct tracer *tr)
{
	int i;
	unsigned k;

	for (i = 0; i < tr->nprobes; i++)
		for (k = 0; tr->probes[i].filter &&
			    k < tr->probes[i].filter->nconds;
		     k++)
			if (tr->probes[i].filter->conds[k].op == TRACE_MATCH) {
				error_plain("--where: ~ needs Linux 6.0 (a sleepable uprobe program, with bpf_loop): use == or !=");
				return 1;
			} else if (tr->probes[i].filter->conds[k].field[0]) {
				error_plain("--where: a field (fields.KEY) needs Linux 6.0 (a sleepable uprobe program, with bpf_loop)");
				return 1;
			}
	return 0;
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

static void open_files_to_hard_limit(void)
{
	struct rlimit nofile;

	if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 &&
	    nofile.rlim_cur < nofile.rlim_max) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
}

/* Whether the kernel makes multi-uprobe links for prog (Linux 6.6),
 * asked when nothing was attached through one (a command whose
 * programs come at its exec): a link to probegen's own first byte,
 * in probegen only, closed at once.  Linux 6.1 says EINVAL. */
static int multi_links_work(struct bpf_program *prog)
{
	unsigned long long first = 0;
	int fd = attach_uprobe_multi(bpf_program__fd(prog), "/proc/self/exe",
				     &first, NULL, NULL, 1, (int)getpid());

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/* Load and attach: through multi-uprobe links where the kernel has them
 * (Linux 6.6), else one uprobe a site.  PROBEGEN_NO_UPROBE_MULTI forces
 * the second (the tests run both). */
static int load_and_attach(struct session *s, int pid)
{
	struct bpf_program *prog = NULL;
	int summary_only = s->tr->plan.kernel_counts;
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
		if (!(bpf_program__flags(prog) & BPF_F_SLEEPABLE) &&
		    globs_need_sleepable(s->tr))
			return -1;
		describe_probes(s, 0);
		/* A followed tree's processes are told apart in the BPF
		   program: the programs they start are attached in every
		   process, before they run. */
		/* One uprobe a site is a file descriptor a site: a
		   program of 5,000 probes passes the usual soft limit of
		   1,024 (Linux before 6.6). */
		if (!multi)
			open_files_to_hard_limit();
		s->attacher = attacher_new(prog, s->skel->maps.__bpf_usdt_specs,
					   pid > 0 ? -1 : pid, multi);
		s->multi = multi;
		/* --budget: what a firing costs besides the program's own
		   time (which it times), measured before any probe is
		   attached (a hundred milliseconds or so, which a busy
		   process would pay traced whole): the trap and the
		   kernel's dispatch to the program, else the bare trap. */
		if (s->tr->plan.budget > 0 && !s->tr->trap_ns)
			s->tr->trap_ns = multi ? trap_cost_with_ns(
							 bpf_program__fd(prog))
					       : trap_cost_ns();
		/* --budget: a link each probe, switched on and off. */
		s->switchable = s->tr->plan.budget > 0 &&
				attacher_per_probe(s->attacher);
		attached = attach_from(s, 0);
		if (attached == 0 && multi && !multi_links_work(prog))
			attached = -1;
		if (attached >= 0 || !multi)
			return attached;
		attacher_free(s->attacher);
		s->attacher = NULL;
		trace_bpf__destroy(s->skel);
		s->skel = NULL;
	}
}

/* The loader's function a process calls once it has mapped or
 * unmapped objects (glibc's r_debug.r_brk, where debuggers break; musl
 * has it too). */
#define LOADER_HOOK "_dl_debug_state"

void session_watch_loader(struct session *s, const char *loader)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .func_name = LOADER_HOOK);
	struct bpf_link *link = NULL;
	unsigned long long off;
	char *real = loader ? realpath(loader, NULL) : NULL;
	int i, fd = -1;

	if (!real)
		return; /* a static program: no loader */
	for (i = 0; i < s->nloaders; i++)
		if (strcmp(s->loaders[i], real) == 0) {
			free(real);
			return;
		}
	off = (unsigned long long)binary_function_offset(real, LOADER_HOOK);
	if (s->multi && off != (unsigned long long)-1)
		fd = attach_uprobe_multi(bpf_program__fd(
						 s->skel->progs.on_loader),
					 real, &off, NULL, NULL, 1, 0);
	else if (!s->multi)
		link = bpf_program__attach_uprobe_opts(s->skel->progs.on_loader,
						       -1, real, 0, &opts);
	if (fd < 0 && !link) {
		warning_plain("libraries a process loads with dlopen are not "
			      "traced: no %s in %s",
			      LOADER_HOOK, real);
		free(real);
		return;
	}
	s->loader_links = xgrow(s->loader_links, (size_t)s->nloaders,
				sizeof(*s->loader_links));
	s->loader_fds = xgrow(s->loader_fds, (size_t)s->nloaders,
			      sizeof(*s->loader_fds));
	s->loaders = xgrow(s->loaders, (size_t)s->nloaders, sizeof(char *));
	s->loader_links[s->nloaders] = link;
	s->loader_fds[s->nloaders] = fd;
	s->loaders[s->nloaders++] = real;
}

int session_attach_new(struct session *s, int from, const char *what)
{
	int attached;

	if (s->ending)
		return 0;
	describe_probes(s, from);
	if ((attached = attach_from(s, from)) < 0) {
		warning_plain("the probes of %s are not traced: "
			      "they cannot be attached",
			      what);
		return 0;
	}
	return attached;
}

int session_attached(const struct session *s)
{
	return s->attached;
}

int session_ending(const struct session *s)
{
	return s->ending;
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

/* The ring buffer's callback: a followed process stopped at an exec or
 * in its loader, to the tracer's on_process; a firing, to on_event. */
/* The longest one read of the ring takes before the run's loop turns
 * (its windows, its scrapes, --duration), and what on_record returns
 * to end it (no error). */
#define CONSUME_SECONDS 0.05
#define CONSUME_ENOUGH (-ECANCELED)

static int on_record(void *ctx, void *data, size_t size)
{
	struct session *s = ctx;
	const struct trace_event *e = data;
	int rc;

	if (size >= sizeof(e->probe) + offsetof(struct trace_event, probe) &&
	    (e->probe == TRACE_EXEC_EVENT || e->probe == TRACE_MAP_EVENT)) {
		s->tr->on_process(s->tr, s, (int)e->pid,
				  e->probe == TRACE_EXEC_EVENT);
		return 0;
	}
	rc = s->tr->on_event(s->tr, data, size);
	/* A ring that fills as fast as it is read would hold the run's loop
	   in one read (libbpf reads until it is empty): back to the loop
	   every CONSUME_SECONDS, its record read. */
	if (rc >= 0 && ++s->consumed % 64 == 0 &&
	    now_seconds() >= s->consume_until)
		return CONSUME_ENOUGH;
	return rc;
}

struct session *session_start(struct tracer *tr, int pid)
{
	struct session *s = xcalloc(1, sizeof(*s));
	int attached;

	s->tr = tr;
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
	s->attached = attached;
	return s;
fail:
	session_end(s);
	return NULL;
}

int session_poll(struct session *s, int timeout_ms, const int *fds, int nfds)
{
	/* Events are sent without a wakeup until 256 KiB wait (see
	   trace.bpf.c): read what is there at least every timeout_ms. */
	struct pollfd p[1 + SESSION_MAX_FDS] = { { ring_buffer__epoll_fd(s->rb),
						   POLLIN, 0 } };
	int i, r, ready = 0;

	for (i = 0; i < nfds && i < SESSION_MAX_FDS; i++)
		p[1 + i] = (struct pollfd){ fds[i], POLLIN, 0 };
	r = poll(p, (nfds_t)(1 + i), s->left_in_ring ? 0 : timeout_ms);
	if (r < 0 && errno != EINTR) {
		error_plain("cannot wait for the ring buffer: %s",
			    strerror(errno));
		return -1;
	}
	/* Read even when stopping: a followed process stopped at its exec
	   waits for its record to be read (the sinks take no more). */
	/* timeout_ms 0 with no fds: what the ring holds, all of it (the
	   trace's end). */
	s->consume_until = timeout_ms == 0 && nfds == 0
				   ? 1e300
				   : now_seconds() + CONSUME_SECONDS;
	r = ring_buffer__consume(s->rb);
	s->left_in_ring = r == CONSUME_ENOUGH;
	if (r == CONSUME_ENOUGH)
		r = 0;
	if (r < 0 && r != -EINTR) {
		error_plain("cannot read the ring buffer: %s", strerror(-r));
		return -1;
	}
	for (i = 0; i < nfds && i < SESSION_MAX_FDS; i++)
		if (fds[i] >= 0 && (p[1 + i].revents & (POLLIN | POLLHUP)))
			ready |= 1 << i;
	return ready;
}

void session_tally(struct session *s, struct tally *t)
{
	tally_read(s->tr, s->skel, t);
}

int session_switchable(const struct session *s)
{
	return s->switchable;
}

int session_switch(struct session *s, int probe, int on)
{
	if (!s->switchable || s->ending)
		return -1;
	return attacher_switch(s->attacher, probe, on);
}

double session_detached_at(const struct session *s, int probe, int closed)
{
	return s->attacher ? attacher_detached_at(s->attacher, probe, closed)
			   : 0;
}

void session_cost(struct session *s, int probe, struct trace_cost *out)
{
	tally_cost(s->skel, probe, out);
}

unsigned long long session_dropped(struct session *s)
{
	return tally_dropped(s->skel);
}

void session_stack_every(struct session *s, unsigned n)
{
	if (s->skel->data)
		s->skel->data->stack_every = n;
}

unsigned session_forget_starts(struct session *s, int pair)
{
	return s->tr->plan.tally ? tally_forget_starts(s->tr, s->skel, pair)
				 : 0;
}

/* Follow no more: from now on no process of the tree stops (a link's
 * release waits for the BPF programs running it, so each stop made is
 * in the ring by then). */
static void stop_following(struct session *s)
{
	int i;

	for (i = 0; i < 3; i++) {
		bpf_link__destroy(s->tree_links[i]);
		s->tree_links[i] = NULL;
	}
	for (i = 0; i < s->nloaders; i++) {
		bpf_link__destroy(s->loader_links[i]);
		if (s->loader_fds[i] >= 0)
			close(s->loader_fds[i]);
		free(s->loaders[i]);
	}
	free(s->loader_links);
	free(s->loader_fds);
	free(s->loaders);
	s->loader_links = NULL;
	s->loader_fds = NULL;
	s->loaders = NULL;
	s->nloaders = 0;
	s->ending = 1;
}

void session_end(struct session *s)
{
	if (!s)
		return;
	stop_following(s);
	/* What an ended process left, and the processes stopped at an exec
	   or a mapping since the last poll: they go on. */
	s->consume_until = 1e300; /* all of it */
	if (s->rb)
		ring_buffer__consume(s->rb);
	fflush(s->tr->out);
	if (s->skel) {
		unsigned long long d = tally_dropped(s->skel);

		if (d)
			info_plain("%llu event%s dropped: the ring buffer was full",
				   d, d == 1 ? "" : "s");
	}
	ring_buffer__free(s->rb);
	attacher_free(s->attacher);
	trace_bpf__destroy(s->skel);
	free(s);
}
