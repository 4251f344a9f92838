/*
 * src/trace/trace.c - probegen --trace: attach the BPF program of
 * trace.bpf.c (through its bpftool skeleton and libbpf) to the USDT
 * probes of a command it starts (-c: its program and the shared libraries
 * ldd lists), a running process (-p: what it has mapped) or binaries
 * by path, and print one line per firing: a timestamp, pid/tid,
 * provider:name and each argument by name, formatted by its declared
 * type (the binary's recorded declarations, else -s FILE.d, else sized
 * integers from the note).  --json writes one object per line.  Events
 * the kernel dropped are counted and reported at the end.
 *
 * Built only where libbpf, clang's BPF target and bpftool are found
 * (Makefile); trace_none.c stands in elsewhere.
 */
#include <bpf/libbpf.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "probegen.h"
#include "trace.h"
#include "trace.skel.h"

/* One traced probe: its cookie is its index in struct tracer's array. */
struct traced {
	const char *binary;
	char *provider, *name;
	int nargs;
	char *arg_names[TRACE_MAX_ARGS];
	struct tracer_read read[TRACE_MAX_ARGS];
};

struct tracer {
	const struct trace_options *opt;
	struct traced *probes;
	int nprobes;
	struct binary *binaries;
	struct program **programs; /* each binary's declarations */
	int nbinaries;
	unsigned long long start_ns, events;
	FILE *out;
};

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

static int matches(const struct trace_options *opt, const char *provider,
		   const char *name)
{
	int i;

	if (!opt->nfilters)
		return 1;
	for (i = 0; i < opt->nfilters; i++) {
		const char *f = opt->filters[i], *colon = strchr(f, ':');
		char pv[256];

		if (!colon || (size_t)(colon - f) >= sizeof(pv))
			continue;
		memcpy(pv, f, (size_t)(colon - f));
		pv[colon - f] = '\0';
		if (fnmatch(pv, provider, 0) == 0 &&
		    fnmatch(colon + 1, name, 0) == 0)
			return 1;
	}
	return 0;
}

/* How to print each argument of a probe: from its declaration (the
 * binary's, else -s FILE.d's), else from the note's sizes and signs. */
static void describe(struct traced *t, const struct bin_probe *p,
		     const struct program *recorded,
		     const struct program *from_file)
{
	const struct probe *pr = binary_declared(p);
	const struct program *prog = recorded;
	const char *spec = p->sites->args;
	struct arg_spec a;
	const struct param *q;
	struct buf name = { 0 };
	int i = 0;

	if (!pr) {
		pr = program_probe(from_file, p->provider, p->name);
		prog = from_file;
	}
	if (pr && pr->nnative != spec_count(spec))
		pr = NULL; /* not the declaration of what the binary fires */
	q = pr ? pr->native : NULL;
	while ((spec = spec_next(spec, &a)) && i < TRACE_MAX_ARGS) {
		name.len = 0;
		if (pr)
			arg_display_name(&name, pr, i);
		else
			buf_printf(&name, "arg%d", i);
		t->arg_names[i] = xstrdup(name.data);
		if (q) {
			t->read[i] = type_tracer_read(prog, q->type, target_host());
			q = q->next;
		}
		/* No declaration, or a type of the user's headers: as the
		   note records it. */
		if (!pr || t->read[i].how == READ_AS_NOTED) {
			t->read[i].how = READ_INTEGER;
			t->read[i].size = a.size;
			t->read[i].is_signed = a.is_signed;
		}
		i++;
	}
	t->nargs = i;
	buf_free(&name);
}

static void add_probes(struct tracer *tr, int b, const struct program *from_file)
{
	const struct bin_probe *p;

	for (p = tr->binaries[b].probes; p; p = p->next) {
		struct traced *t;

		if (!p->sites || !matches(tr->opt, p->provider, p->name))
			continue;
		tr->probes = xrealloc(tr->probes, sizeof(*t) * ((size_t)tr->nprobes + 1));
		t = &tr->probes[tr->nprobes++];
		memset(t, 0, sizeof(*t));
		t->binary = tr->binaries[b].path;
		t->provider = p->provider;
		t->name = p->name;
		describe(t, p, tr->programs[b], from_file);
	}
}

/* Read one binary: 1 if it carries probes, 0 if not, -1 on error. */
static int add_binary(struct tracer *tr, const char *path)
{
	struct binary *b;
	const struct bin_probe *p;
	int i, any = 0;

	for (i = 0; i < tr->nbinaries; i++)
		if (strcmp(tr->binaries[i].path, path) == 0)
			return 1;
	tr->binaries = xrealloc(tr->binaries, sizeof(*b) * ((size_t)tr->nbinaries + 1));
	tr->programs = xrealloc(tr->programs, sizeof(*tr->programs) * ((size_t)tr->nbinaries + 1));
	b = &tr->binaries[tr->nbinaries];
	if (binary_read(path, b) != 0)
		return -1;
	b->path = xstrdup(path); /* the caller's may not last */
	for (p = b->probes; p; p = p->next)
		any |= p->nsites > 0;
	tr->programs[tr->nbinaries] = any ? binary_program(b) : NULL;
	if (!any) {
		free((char *)b->path);
		binary_free(b);
		return 0;
	}
	tr->nbinaries++;
	return 1;
}

/* The executable and the shared objects a process has mapped. */
static int add_process(struct tracer *tr, int pid)
{
	char path[64], line[PATH_MAX + 256], exe[PATH_MAX];
	FILE *maps;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	if (n < 0) {
		error_plain("no process with PID %d (%s)", pid, strerror(errno));
		return -1;
	}
	exe[n] = '\0';
	add_binary(tr, exe);
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (!(maps = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), maps)) {
		char *file = strchr(line, '/');
		struct target elf;
		struct stat st;

		if (!file)
			continue;
		file[strcspn(file, "\n")] = '\0';
		/* Shared libraries by absolute path, as libbpf needs them. */

		if (strstr(file, " (deleted)") || stat(file, &st) != 0 ||
		    !S_ISREG(st.st_mode) || target_from_elf(file, &elf) != 0)
			continue; /* locale archives, caches: not ELF */
		add_binary(tr, file);
	}
	fclose(maps);
	return 0;
}

/* The shared libraries a program will load, as ldd lists them (none for
 * a static program): their probes are attached by path before they are
 * loaded. */
static void add_libraries(struct tracer *tr, const char *exe)
{
	char *cmd = xasprintf("ldd '%s' 2>/dev/null", exe), line[PATH_MAX + 128];
	FILE *p;

	if (strchr(exe, '\'') || !(p = popen(cmd, "r"))) {
		free(cmd);
		return;
	}
	while (fgets(line, sizeof(line), p)) {
		char *arrow = strstr(line, "=> /"), *end;
		struct target elf;

		if (!arrow)
			continue;
		end = arrow + 3 + strcspn(arrow + 3, " \n(");
		*end = '\0';
		if (target_from_elf(arrow + 3, &elf) == 0)
			add_binary(tr, arrow + 3);
	}
	pclose(p);
	free(cmd);
}

/* The command's executable, found as execvp would. */
static char *command_path(const char *cmd)
{
	const char *path = getenv("PATH");
	char *dirs, *dir, *save = NULL, *found = NULL;

	if (strchr(cmd, '/'))
		return realpath(cmd, NULL);
	dirs = xstrdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(dirs, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *full = xasprintf("%s/%s", *dir ? dir : ".", cmd);

		if (access(full, X_OK) == 0)
			found = realpath(full, NULL);
		free(full);
	}
	free(dirs);
	return found;
}

/* One event's line, built here and written with one fwrite: a million
 * events a second leave no room for a printf per field (measured: 3 us
 * an event with fprintf, which made the tracer slower than the probes). */
/* Names printed of a probe or an argument, at most. */
#define NAME_PRINT_MAX 256
struct line {
	char *p, buf[(2 + TRACE_MAX_ARGS) * ESCAPED_MAX(NAME_PRINT_MAX) +
		     TRACE_MAX_ARGS * (ESCAPED_MAX(TRACE_STR_LEN) + 96) + 256];
};

static void put(struct line *l, const char *s, size_t n)
{
	memcpy(l->p, s, n);
	l->p += n;
}

static void put_str(struct line *l, const char *s)
{
	put(l, s, strlen(s));
}

static void put_u64(struct line *l, unsigned long long v, int min_digits)
{
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v || (int)sizeof(tmp) - i < min_digits);
	put(l, tmp + i, sizeof(tmp) - (size_t)i);
}

static void put_hex(struct line *l, unsigned long long v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[16];
	int i = sizeof(tmp);

	do {
		tmp[--i] = digits[v & 15];
		v >>= 4;
	} while (v);
	put(l, "0x", 2);
	put(l, tmp + i, sizeof(tmp) - (size_t)i);
}

/* Escaped for a quoted string: JSON's rules, or C's for text. */
/* Text from the traced program or a binary's notes: escaped, and at
 * most max bytes of it (names in a hostile binary may be any length;
 * the line has room for ESCAPED_MAX of each part). */
static void put_escaped(struct line *l, const char *s, size_t max, int json)
{
	size_t n = strnlen(s, max);

	l->p = escape_to(l->p, s, n, json);
}

static void put_value(struct line *l, const struct traced *t, int i,
		      unsigned long long v, int json)
{
	const struct tracer_read *r = &t->read[i];
	int bits = r->size >= 1 && r->size < 8 ? r->size * 8 : 64;
	const char *why = tracer_read_unreadable(r);

	if (why) {
		put_str(l, json ? "\"(not readable: " : "(not readable: ");
		put_str(l, why);
		put_str(l, json ? ")\"" : ")");
	} else if (r->how == READ_POINTER || r->how == READ_STRING) {
		if (json)
			*l->p++ = '"';
		put_hex(l, v);
		if (json)
			*l->p++ = '"';
	} else if (r->is_signed) {
		long long s = (long long)(v << (64 - bits)) >> (64 - bits);

		if (s < 0) {
			*l->p++ = '-';
			put_u64(l, 0 - (unsigned long long)s, 1);
		} else {
			put_u64(l, (unsigned long long)s, 1);
		}
	} else {
		put_u64(l, bits < 64 ? v & ((1ull << bits) - 1) : v, 1);
	}
}

/* The sleepable program where the kernel loads it (strings are then
 * read whatever their page), else the plain one; *prog is the one. */
static struct trace_bpf *load_program(struct bpf_program **prog)
{
	struct trace_bpf *skel = trace_bpf__open();

	if (!skel)
		return NULL;
	bpf_program__set_autoload(skel->progs.on_probe, false);
	bpf_program__set_flags(skel->progs.on_probe_sleepable, BPF_F_SLEEPABLE);
	if (trace_bpf__load(skel) == 0) {
		*prog = skel->progs.on_probe_sleepable;
		return skel;
	}
	trace_bpf__destroy(skel);
	skel = trace_bpf__open();
	if (!skel)
		return NULL;
	bpf_program__set_autoload(skel->progs.on_probe_sleepable, false);
	if (trace_bpf__load(skel) != 0) {
		trace_bpf__destroy(skel);
		return NULL;
	}
	*prog = skel->progs.on_probe;
	return skel;
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct tracer *tr = ctx;
	const struct trace_event *e = data;
	const struct traced *t;
	struct line l;
	unsigned long long ns;
	int i, s = 0, json = tr->opt->json;

	(void)size;
	if (e->probe >= (unsigned)tr->nprobes || stopping)
		return 0;
	t = &tr->probes[e->probe];
	if (!tr->start_ns)
		tr->start_ns = e->time_ns;
	ns = e->time_ns - tr->start_ns;
	l.p = l.buf;
	put_str(&l, json ? "{\"time\": " : "");
	put_u64(&l, ns / 1000000000, 1);
	*l.p++ = '.';
	if (json)
		put_u64(&l, ns % 1000000000, 9);
	else
		put_u64(&l, ns % 1000000000 / 1000, 6);
	put_str(&l, json ? ", \"pid\": " : " ");
	put_u64(&l, e->pid, 1);
	put_str(&l, json ? ", \"tid\": " : "/");
	put_u64(&l, e->tid, 1);
	put_str(&l, json ? ", \"probe\": \"" : " ");
	put_escaped(&l, t->provider, NAME_PRINT_MAX, json);
	*l.p++ = ':';
	put_escaped(&l, t->name, NAME_PRINT_MAX, json);
	if (json)
		put_str(&l, "\", \"args\": {");
	for (i = 0; i < t->nargs && i < (int)e->nargs; i++) {
		if (json) {
			put_str(&l, i ? ", \"" : "\"");
			put_escaped(&l, t->arg_names[i], NAME_PRINT_MAX, json);
			put_str(&l, "\": ");
		} else {
			*l.p++ = ' ';
			put_escaped(&l, t->arg_names[i], NAME_PRINT_MAX, json);
			*l.p++ = '=';
		}
		if (t->read[i].how == READ_STRING && (e->fault_mask & (1u << i))) {
			/* The page was not there to read: the address. */
			s++;
			if (json)
				*l.p++ = '"';
			put_hex(&l, e->args[i]);
			put_str(&l, json ? " (unreadable)\"" : "(unreadable)");
		} else if (t->read[i].how == READ_STRING && s < (int)e->nstrings) {
			int cut = e->cut_mask & (1u << i);
			char str[TRACE_STR_LEN];

			/* Copied out: the ring's copy need not end in a NUL. */
			memcpy(str, e->strings[s++], sizeof(str));
			str[sizeof(str) - 1] = '\0';
			*l.p++ = '"';
			put_escaped(&l, str, sizeof(str), json);
			/* A cut string ends in "..." (inside JSON's quotes). */
			put_str(&l, cut ? (json ? "...\"" : "\"...") : "\"");
		} else {
			put_value(&l, t, i, e->args[i], json);
		}
	}
	put_str(&l, json ? "}}\n" : "\n");
	fwrite(l.buf, 1, (size_t)(l.p - l.buf), tr->out);
	tr->events++;
	if (tr->opt->limit && tr->events >= (unsigned long long)tr->opt->limit)
		stopping = 1;
	return 0;
}

/* Split CMD on blanks (no shell), fork it stopped on a pipe; it execs
 * once the probes are attached. */
static pid_t start_command(const char *cmd, int *go)
{
	char *words = xstrdup(cmd), *w, *save = NULL, **argv;
	int n = 0, fds[2];
	pid_t pid;

	argv = xcalloc(strlen(cmd) + 2, sizeof(char *));
	for (w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		argv[n++] = w;
	if (!n || pipe(fds) != 0) {
		free(argv);
		free(words);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		char c;

		close(fds[1]);
		if (read(fds[0], &c, 1) != 1)
			_exit(127); /* probegen gave up */
		execvp(argv[0], argv);
		fprintf(stderr, "probegen: cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[0]);
	*go = fds[1];
	free(argv);
	free(words);
	return pid;
}

static unsigned long long dropped(struct trace_bpf *skel)
{
	int ncpus = libbpf_num_possible_cpus(), i;
	unsigned long long *per_cpu, sum = 0;
	unsigned int zero = 0;

	if (ncpus <= 0)
		return 0;
	per_cpu = xcalloc((size_t)ncpus, sizeof(*per_cpu));
	if (bpf_map__lookup_elem(skel->maps.drops, &zero, sizeof(zero), per_cpu,
				 sizeof(*per_cpu) * (size_t)ncpus, 0) == 0)
		for (i = 0; i < ncpus; i++)
			sum += per_cpu[i];
	free(per_cpu);
	return sum;
}

static int libbpf_quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_WARN && getenv("PROBEGEN_TRACE_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	return 0;
}

/* Can this process load BPF programs and attach uprobes at all?  Said
 * before any work. */
static int check_system(void)
{
	if (geteuid() != 0) {
		error_plain("--trace needs root, or the capabilities CAP_BPF and CAP_PERFMON");
		return -1;
	}
	/* libbpf attaches through the uprobe PMU, else through tracefs. */
	if (access("/sys/bus/event_source/devices/uprobe/type", R_OK) != 0 &&
	    access("/sys/kernel/tracing/uprobe_events", W_OK) != 0 &&
	    access("/sys/kernel/debug/tracing/uprobe_events", W_OK) != 0) {
		error_plain("no uprobes: the kernel has no uprobe PMU and tracefs is not mounted "
			    "(mount -t tracefs nodev /sys/kernel/tracing)");
		return -1;
	}
	return 0;
}

int trace_run(const struct trace_options *opt)
{
	struct tracer tr = { opt, NULL, 0, NULL, NULL, 0, 0, 0, stdout };
	struct trace_bpf *skel = NULL;
	struct bpf_program *prog = NULL;
	struct ring_buffer *rb = NULL;
	struct bpf_link **links = NULL;
	pid_t child = 0, target = -1;
	int i, go = -1, attached = 0, status = EXIT_OK, r;
	char *exe = NULL;
	static char outbuf[1 << 20];

	if (check_system() != 0)
		return EXIT_SYSTEM;
	libbpf_set_print(libbpf_quiet);
	for (i = 0; i < opt->nbinaries; i++) {
		r = add_binary(&tr, opt->binaries[i]);
		if (r <= 0) {
			if (r == 0)
				error_input("'%s' has no probes", opt->binaries[i]);
			status = r < 0 ? EXIT_SYSTEM : EXIT_INPUT;
			goto out;
		}
	}
	if (opt->pid) {
		if (kill(opt->pid, 0) != 0 && errno == ESRCH) {
			error_plain("no process with PID %d", opt->pid);
			status = EXIT_SYSTEM;
			goto out;
		}
		if (add_process(&tr, opt->pid) != 0) {
			status = EXIT_SYSTEM;
			goto out;
		}
		target = opt->pid;
	}
	if (opt->command) {
		char first[PATH_MAX];

		snprintf(first, sizeof(first), "%.*s", (int)strcspn(opt->command, " \t"),
			 opt->command);
		exe = command_path(first);
		if (!exe) {
			error_plain("cannot find the command '%s'", first);
			status = EXIT_SYSTEM;
			goto out;
		}
		add_binary(&tr, exe);
		add_libraries(&tr, exe);
	}
	for (i = 0; i < tr.nbinaries; i++)
		add_probes(&tr, i, opt->declarations);
	status = EXIT_INPUT;
	if (!tr.nbinaries) {
		error_input("no probes in %s", opt->command ? "the command" :
			    opt->pid ? "the process or its libraries" : "the binaries");
		goto out;
	}
	if (!tr.nprobes) {
		error_input("no probe matches %s%s", opt->filters[0],
			    opt->nfilters > 1 ? " or the other -n patterns" : "");
		goto out;
	}
	if (tr.nprobes > TRACE_MAX_PROBES) {
		error_input("%d probes: at most %d can be traced at once", tr.nprobes,
			    TRACE_MAX_PROBES);
		goto out;
	}
	status = EXIT_OK;

	skel = load_program(&prog);
	if (!skel) {
		error_plain("cannot load the BPF program: %s%s", strerror(errno),
			    errno == EPERM ? " (needs root, or CAP_BPF and CAP_PERFMON)" : "");
		status = EXIT_SYSTEM;
		goto out;
	}
	for (i = 0; i < tr.nprobes; i++) {
		struct trace_probe_info info = { 0 };
		unsigned int key = (unsigned int)i;
		int a;

		for (a = 0; a < tr.probes[i].nargs; a++)
			if (tr.probes[i].read[a].how == READ_STRING)
				info.string_mask |= 1u << a;
		bpf_map__update_elem(skel->maps.probes, &key, sizeof(key), &info,
				     sizeof(info), 0);
	}
	if (opt->command) {
		child = start_command(opt->command, &go);
		if (child < 0) {
			error_plain("cannot start '%s'", opt->command);
			status = EXIT_SYSTEM;
			goto out;
		}
		target = child;
	}
	links = xcalloc((size_t)tr.nprobes, sizeof(*links));
	for (i = 0; i < tr.nprobes; i++) {
		LIBBPF_OPTS(bpf_usdt_opts, uo, .usdt_cookie = (unsigned long long)i);
		struct bpf_link *link = bpf_program__attach_usdt(
			prog, target, tr.probes[i].binary,
			tr.probes[i].provider, tr.probes[i].name, &uo);

		links[i] = link;
		if (!link) {
			fprintf(stderr, "probegen: warning: cannot attach to %s:%s in %s: %s\n",
				tr.probes[i].provider, tr.probes[i].name,
				tr.probes[i].binary, strerror(errno));
			continue;
		}
		attached++;
	}
	if (!attached) {
		error_plain("no probe could be attached");
		status = EXIT_SYSTEM;
		goto out;
	}
	rb = ring_buffer__new(bpf_map__fd(skel->maps.events), on_event, &tr, NULL);
	if (!rb) {
		error_plain("cannot read the ring buffer: %s", strerror(errno));
		status = EXIT_SYSTEM;
		goto out;
	}
	/* Fully buffered unless a person watches: a line each is slow. */
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (go >= 0) {
		if (write(go, "g", 1) != 1)
			stopping = 1;
		close(go);
		go = -1;
	}
	fprintf(stderr, "probegen: tracing %d probe%s\n", attached, attached == 1 ? "" : "s");
	while (!stopping) {
		int st;

		/* Events are sent without a wakeup until 256 KiB wait (see
		   trace.bpf.c): read what is there at least every 100 ms. */
		r = ring_buffer__poll(rb, 100);
		if (r >= 0 && !stopping)
			r = ring_buffer__consume(rb);
		if (r < 0 && r != -EINTR)
			break;
		if (child > 0 && waitpid(child, &st, WNOHANG) == child) {
			child = 0;
			break;
		}
		if (opt->pid && kill(opt->pid, 0) != 0 && errno == ESRCH)
			break;
	}
	if (!stopping)
		ring_buffer__consume(rb); /* what the ended process left */
out:
	if (go >= 0)
		close(go); /* the child, still waiting, exits */
	if (child > 0) {
		/* probegen stopped first (--limit, a signal): end its command. */
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
	}
	fflush(stdout);
	if (skel) {
		unsigned long long d = dropped(skel);

		if (d)
			fprintf(stderr, "probegen: %llu event%s dropped: the ring buffer was full\n",
				d, d == 1 ? "" : "s");
	}
	ring_buffer__free(rb);
	/* Detached here: the kernel clears the semaphores. */
	for (i = 0; links && i < tr.nprobes; i++)
		bpf_link__destroy(links[i]);
	free(links);
	trace_bpf__destroy(skel);
	for (i = 0; i < tr.nprobes; i++) {
		int a;

		for (a = 0; a < tr.probes[i].nargs; a++)
			free(tr.probes[i].arg_names[a]);
	}
	free(tr.probes);
	for (i = 0; i < tr.nbinaries; i++) {
		program_free(tr.programs[i]);
		free((char *)tr.binaries[i].path);
		binary_free(&tr.binaries[i]);
	}
	free(tr.binaries);
	free(tr.programs);
	free(exe);
	return status;
}
