/*
 * src/trace/trace.c - probegen --trace: find the probes (targets.c),
 * start the command stopped, load and attach the BPF program
 * (session.c), let the command run, and hand every firing to the sinks
 * (sinks.c)
 * until the command or process ends, --limit, or a signal.
 *
 * Built only where libbpf, clang's BPF target and bpftool are found
 * (Makefile); trace_none.c stands in elsewhere.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

#include "trace/find/find.h"
#include "trace/decode/event.h"
#include "trace/find/filter.h"
#include "trace/decode/stacks.h"
#include "trace/sinks/metrics.h"
#include "trace/follow.h"

/* The signal that stopped the trace (SIGINT, SIGTERM), or 0. */
static volatile sig_atomic_t stopped_by;

/* The first SIGINT or SIGTERM ends the trace at the next step of any
 * stage; a second one ends probegen at once, as the default would. */
static void on_signal(int sig)
{
	if (trace_stopping && stopped_by) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	stopped_by = sig;
	trace_stopping = 1;
}

/* From the start of the run: no SA_RESTART, so that a blocking call
 * returns (EINTR) to a caller that then sees trace_stopping. */
static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* Fork the command stopped on a pipe: it execs once the probes are
 * attached (*go written), or exits when *go is closed unwritten. */
static pid_t start_command(char *const *argv, int *go)
{
	int fds[2];
	pid_t pid;

	if (pipe(fds) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		char c;

		close(fds[1]);
		if (read(fds[0], &c, 1) != 1)
			_exit(127); /* probegen gave up */
		execvp(argv[0], argv);
		error_plain("cannot run '%s': %s", argv[0], strerror(errno));
		_exit(127);
	}
	close(fds[0]);
	if (pid < 0) {
		close(fds[1]);
		return -1;
	}
	*go = fds[1];
	return pid;
}

/* The command's end: released if it still waits; ended if probegen
 * stopped first (--limit, a signal). */
/* The command's own failure, as strace, time and perf stat give it:
 * its exit status, or 128 + N when signal N ended it; 0 when it
 * succeeded.  Said, since a killed command's signal is seen by no
 * shell. */
static int command_failure(int st)
{
	if (WIFEXITED(st) && WEXITSTATUS(st)) {
		info_plain("the command exited with status %d", WEXITSTATUS(st));
		return WEXITSTATUS(st);
	}
	if (WIFSIGNALED(st)) {
		info_plain("the command was ended by signal %d (%s)",
			   WTERMSIG(st), strsignal(WTERMSIG(st)));
		return 128 + WTERMSIG(st);
	}
	return 0;
}

/* The command's whole tree ended, when probegen stopped first
 * (--duration, --limit, a signal): SIGTERM, and SIGCONT for a process
 * stopped at its exec (the session's links stop it there); SIGKILL for
 * what still runs after END_GRACE_SECONDS.  Every one is waited for. */
#define END_GRACE_SECONDS 2.0
static void end_tree(double now)
{
	double kill_at = now + END_GRACE_SECONDS;
	pid_t pids[4096];
	int n, i, sig = SIGTERM;

	for (;;) {
		while (waitpid(-1, NULL, WNOHANG) > 0)
			; /* the ended, reaped: they are gone from /proc */
		if ((n = trace_descendants(pids, 4096)) == 0)
			return;
		if (sig == SIGTERM && now_seconds() >= kill_at)
			sig = SIGKILL;
		for (i = 0; i < n; i++) {
			kill(pids[i], sig);
			kill(pids[i], SIGCONT);
		}
		if (sig == SIGKILL && now_seconds() >= kill_at + END_GRACE_SECONDS)
			return; /* unkillable (in the kernel): left */
		usleep(10000);
	}
}

/* The command's end: released if it still waits on go; if probegen
 * stopped first, its tree ended. */
static void end_command(pid_t child, int go)
{
	if (go >= 0)
		close(go);
	if (child > 0)
		end_tree(now_seconds());
}

/* A descriptor that turns readable when process pid ends (Linux 5.3),
 * so that the trace ends with it, not at the next poll; or -1. */
static int pid_ended_fd(pid_t pid)
{
#ifdef SYS_pidfd_open
	if (pid > 0)
		return (int)syscall(SYS_pidfd_open, pid, 0);
#endif
	(void)pid;
	return -1;
}

/* Until the command or the process ends, --duration, or trace_stopping;
 * serving --metrics's scrapes meanwhile: 0, or -1 after saying why the
 * ring cannot be read.  The command's wait status into *command_status
 * when it ended by itself (not when the trace ended it). */
/* Each second until said once: what the probes cost the program over
 * that second, said when it is a share of a CPU (rates.c), from the
 * kernel's counts or the events taken (load that starts late is seen).
 * prev holds each probe's count a second ago.  Under a budget the
 * budget acts on it instead, and says so at the end. */
static int say_rates(struct tracer *tr, unsigned long long **prev,
		     double seconds)
{
	struct tally t = { 0 };
	const unsigned long long *now = NULL;
	unsigned long long *delta;
	int i, said;

	if (!tr->trap_ns)
		tr->trap_ns = trap_cost_ns();
	if (tr->plan.tally) {
		tr->read_tally(tr, &t);
		now = t.counts;
	} else if (tr->received) {
		now = tr->received;
	}
	if (!now)
		return 1;
	delta = xcalloc((size_t)(tr->nprobes ? tr->nprobes : 1), sizeof(*delta));
	if (!*prev)
		*prev = xcalloc((size_t)TRACE_MAX_PROBES, sizeof(**prev));
	for (i = 0; i < tr->nprobes && i < TRACE_MAX_PROBES; i++) {
		delta[i] = now[i] - (*prev)[i];
		(*prev)[i] = now[i];
	}
	said = rates_say_hot(tr, delta, seconds);
	free(delta);
	tally_free(&t);
	return said;
}

/* --stack counted (--summary, --folded, --pprof): walking stacks is
 * probegen's own CPU, and a burst it cannot keep up with fills the
 * ring.  Each second the ring lost events, N grows so that what came
 * would have fit (never shrinks: a steady share; said as it grows): every Nth
 * firing's stack alone is copied and walked, and counted N times. */
#define STACK_EVERY_MAX 65536
static void steady_stacks(struct tracer *tr, struct session *s,
			  unsigned long long *events, unsigned long long *drops,
			  unsigned *every)
{
	unsigned long long d = session_dropped(s), got = tr->events - *events,
			   lost = d - *drops;
	double grow;

	*events = tr->events;
	*drops = d;
	if (!tr->plan.stack_counts || !lost || *every >= STACK_EVERY_MAX)
		return;
	grow = got ? (double)(got + lost) / (double)got : 2;
	*every = (unsigned)((double)*every * (grow < 2 ? 2 : grow) + 0.5);
	if (*every > STACK_EVERY_MAX)
		*every = STACK_EVERY_MAX;
	session_stack_every(s, *every);
	info_plain("--stack: the ring was full (%llu events lost in a second): from now on the stack of every %uth firing is walked, and counted %u times (said with the stacks)",
		   lost, *every, *every);
}

static int follow(struct tracer *tr, struct session *s, pid_t *child,
		  struct server *server, int *command_status)
{
	const struct trace_options *asked = tr->plan.request;
	double start = now_seconds(),
	       end = asked->duration > 0 ? start + asked->duration : 0;
	double rates_at = start, stacks_at = start;
	unsigned long long *rates_prev = NULL, stack_events = 0, stack_drops = 0;
	unsigned stack_every = 1;
	int st, ready = 0, rates_said = tr->plan.budget > 0,
		fds[2] = { pid_ended_fd(*child > 0 ? *child : asked->pid),
			   server ? server_fd(server) : -1 };

	/* The trap's cost, for the rates said after a second and the
	   pairs' summary: measured meanwhile, the ring read. */
	if (!tr->trap_ns)
		trap_cost_begin();
	while (!trace_stopping && !tr->stop && !(ready & 1)) {
		int timeout = 100, t = server ? server_timeout_ms(server) : -1;
		double now = now_seconds();

		if (end && now >= end)
			break;
		budget_step(tr, now);
		if (now >= stacks_at + 1) {
			steady_stacks(tr, s, &stack_events, &stack_drops,
				      &stack_every);
			stacks_at = now;
		}
		if (!rates_said && now >= rates_at + 1) {
			rates_said = say_rates(tr, &rates_prev, now - rates_at);
			rates_at = now;
		}
		if (t >= 0 && t < timeout)
			timeout = t;
		if ((t = budget_wait_ms(tr, now)) >= 0 && t < timeout)
			timeout = t;
		ready = session_poll(s, timeout, fds, 2);
		if (ready < 0)
			break;
		if (server)
			server_run(server);
		if (*child > 0 &&
		    waitpid(*child, &st, (ready & 1) ? 0 : WNOHANG) == *child) {
			*child = 0;
			*command_status = st;
			break;
		}
		if (asked->pid && kill(asked->pid, 0) != 0 && errno == ESRCH)
			break;
	}
	if (fds[0] >= 0)
		close(fds[0]);
	free(rates_prev);
	budget_end(tr, now_seconds());
	tr->traced_seconds = now_seconds() - start;
	return ready < 0 ? -1 : 0;
}

/* What was counted and timed so far: the kernel's (the session's), and
 * the pairs timed in probegen. */
static void read_tally(struct tracer *tr, struct tally *t)
{
	struct calls *calls = sink_state(tr, SINK_CALLS);

	session_tally(tr->session, t);
	if (calls)
		calls_tally(calls, t->pairs);
}

/* Can this process load BPF programs and attach uprobes at all?  Said
 * before any work. */
/* Whether the process holds capability cap in its effective set. */
static int has_capability(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { 0 } };

	if (syscall(SYS_capget, &h, d) != 0)
		return 0;
	return (d[cap / 32].effective >> (cap % 32)) & 1;
}

static int check_system(void)
{
	/* CAP_BPF and CAP_PERFMON (Linux 5.8), or CAP_SYS_ADMIN before. */
	if (geteuid() != 0 &&
	    !(has_capability(39) && has_capability(38)) &&
	    !has_capability(CAP_SYS_ADMIN)) {
		error_plain(
			"--trace needs root, or the capabilities CAP_BPF and CAP_PERFMON");
		return -1;
	}
	/* The BPF program's types are the kernel's own, by its BTF. */
	if (access("/sys/kernel/btf/vmlinux", R_OK) != 0) {
		error_plain(
			"the kernel has no BTF (/sys/kernel/btf/vmlinux): --trace needs one built with CONFIG_DEBUG_INFO_BTF");
		return -1;
	}
		/* libbpf attaches through the uprobe PMU, else through tracefs. */
	if (access("/sys/bus/event_source/devices/uprobe/type", R_OK) != 0 &&
	    access("/sys/kernel/tracing/uprobe_events", W_OK) != 0 &&
	    access("/sys/kernel/debug/tracing/uprobe_events", W_OK) != 0) {
		error_plain(
			"no uprobes: the kernel has no uprobe PMU and tracefs is not mounted "
			"(mount -t tracefs nodev /sys/kernel/tracing)");
		return -1;
	}
	return 0;
}

/* The events' output (stdout, or -o's FILE): a stream whose writes go
 * through out_write, which keeps the first write's error, since stdio's
 * buffered writes lose errno before anyone asks. */
static struct {
	int fd, err;
} out_sink;

static ssize_t out_write(void *cookie, const char *buf, size_t n)
{
	size_t done = 0;
	ssize_t w;

	(void)cookie;
	/* All of it: stdio takes a short count as an error it does not
	   retry, and the next write says why (a file-size limit's EFBIG
	   comes after a short one). */
	while (done < n) {
		w = write(out_sink.fd, buf + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!out_sink.err)
				out_sink.err = w < 0 ? errno : EIO;
			break;
		}
		done += (size_t)w;
	}
	return (ssize_t)done; /* fopencookie: short is an error */
}

static int out_open(struct tracer *tr, int fd)
{
	static const cookie_io_functions_t io = { .write = out_write };
	/* Fully buffered unless a person watches: a line each is slow. */
	static char outbuf[1 << 20];

	out_sink.fd = fd;
	out_sink.err = 0;
	if (!(tr->out = fopencookie(NULL, "w", io))) {
		error_plain("cannot write '%s': %s",
			    tr->plan.request->output ? tr->plan.request->output : "standard output",
			    strerror(errno));
		tr->out = stdout;
		return -1;
	}
	setvbuf(tr->out, isatty(fd) ? NULL : outbuf,
		isatty(fd) ? _IOLBF : _IOFBF, sizeof(outbuf));
	return 0;
}

/* What comes before attaching: the targets, the command (started,
 * waiting on go), and the outputs a failure should be said of first.
 * 0, or -1 after saying why. */
static int prepare(struct tracer *tr, pid_t *child, int *go)
{
	const struct trace_options *asked = tr->plan.request;

	if (targets_find(tr) != 0)
		return -1;
	/* --pprof weighs the pairs' calls, or with --stack the firings:
	   probes with no pair among them give an empty profile. */
	if (asked->pprof && !asked->stack && tr->nprobes && !tr->npairs) {
		error_plain("--pprof has nothing to weigh: none of the %d probe%s traced is a pair of a start and an end (--stack weighs each firing by its stack; --pair START,END names a pair)",
			    tr->nprobes, tr->nprobes == 1 ? "" : "s");
		return -1;
	}
	if (asked->command && (*child = start_command(asked->command, go)) < 0) {
		error_plain("cannot start '%s': %s", asked->command[0],
			    strerror(errno));
		return -1;
	}
	/* The outputs, and the port, before anything is attached: one that
	   cannot be written, or a port in use, is said first. */
	if (sinks_open(tr) != 0)
		return -1;
	/* -o FILE: probegen's own output apart from the command's, written
	   beside FILE: a trace that fails leaves the old FILE as it was. */
	if (asked->output && output_open(&tr->out_file, asked->output) != 0)
		return -1;
	return out_open(tr, asked->output ? tr->out_file.fd : STDOUT_FILENO);
}

/* Once the trace has ended: what was asked of it, read and said. */
static int report(struct tracer *tr, int status)
{
	const struct trace_options *asked = tr->plan.request;

	/* The events first, then what is said of them (a pipe to both). */
	fflush(tr->out);
	/* Stopped by a signal before the command (or the process) ran a
	   program with probes: nothing is known to be missing. */
	if (!tr->nprobes && stopped_by)
		info_plain("stopped before %s ran a program with probes",
			   asked->command ? "the command" : "the process");
	else if (!tr->nprobes && status == EXIT_OK) {
		if (asked->filters.n)
			error_input("no probe matches %s%s in %s or the programs it started",
				    asked->filters.items[0],
				    asked->filters.n > 1
					    ? " or the other -n patterns"
					    : "",
				    asked->command ? "the command"
						 : "the process");
		else
			error_input("no probes in %s or the programs it started",
				    asked->command ? "the command"
						 : "the process");
		status = EXIT_INPUT;
	}
	/* With probes traced, a pattern that chose none is a typo or a
	   probe the build left out: said, as --expect-all says a probe
	   that never fired, and the status stays. */
	for (int i = 0; tr->nprobes && i < asked->filters.n; i++)
		if (!tr->filter_used[i])
			warning_plain("-n %s: no probe in %s matches it",
				      asked->filters.items[i],
				      asked->command ? "the command or the programs it started"
				      : asked->pid   ? "the process or the programs it started"
						   : "the binaries");
	/* A pair timed near a uprobe's trap is mostly the tracer's time:
	   the summary says so (measured here once, a few milliseconds). */
	if (asked->summary && tr->npairs && !tr->trap_ns)
		tr->trap_ns = trap_cost_ns();
	/* The kernel's counts, read when a row says something of them. */
	if (tr->plan.tally || tr->nfiltered) {
		struct tally t;

		read_tally(tr, &t);
		status = sinks_report(tr, &t, status);
		features_report(tr, &t);
		tally_free(&t);
	} else {
		status = sinks_report(tr, NULL, status);
		features_report(tr, NULL);
	}
	return status;
}

/* The files written at the end (--folded, --timeline, --pprof): kept
 * when the trace ran with probes (fired or not), removed when it failed
 * or found none to trace (said as an error: there is no profile). */
static int finish_files(struct tracer *tr, int traced, int status)
{
	int ran = traced && tr->nprobes &&
		  (status == EXIT_OK || status == EXIT_INPUT);

	return sinks_finish(tr, ran) != 0 ? EXIT_SYSTEM : status;
}

/* Every write to the events' output checked (a full disk, /dev/full, a
 * file-size limit): said, and the status EXIT_SYSTEM.  -o's FILE
 * replaces the old one only when the trace ran (as finish_files). */
static int finish_output(struct tracer *tr, int traced, int status)
{
	const struct trace_options *asked = tr->plan.request;
	const char *name = asked->output ? asked->output : "standard output";
	int ran = traced && tr->nprobes &&
		  (status == EXIT_OK || status == EXIT_INPUT), err;
	int failed = ferror(tr->out);

	failed = fclose(tr->out) != 0 || failed || out_sink.err;
	err = out_sink.err ? out_sink.err : EIO;

	tr->out = stdout;
	if (failed) {
		error_plain("cannot write '%s': %s", name, strerror(err));
		status = EXIT_SYSTEM;
	}
	if (!asked->output)
		return status;
	if (failed || !ran)
		output_abort(&tr->out_file);
	else if (output_commit(&tr->out_file) != 0)
		status = EXIT_SYSTEM;
	return status;
}

int trace_run(const struct trace_options *opt)
{
	struct tracer tr = { 0 };
	struct session *s = NULL;
	pid_t child = 0;
	int go = -1, status = EXIT_OK, errors = diag.errors, command_status = 0,
	    failure;
	struct server *server;

	tr.out = stdout;
	tr.on_event = sinks_event;
	tr.on_process = follow_process;
	tr.read_tally = read_tally;
	plan_make(opt, &tr.plan);
	if (check_system() != 0)
		return EXIT_SYSTEM;
	/* SIGINT and SIGTERM end the trace from here on, at every stage;
	   the command's orphans stay probegen's, to be ended with it. */
	catch_signals();
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (prepare(&tr, &child, &go) != 0 || trace_stopping ||
	    !(s = session_start(&tr, child > 0	? child
				     : opt->pid ? opt->pid
						: -1)))
		status = stopped_by ? 128 + stopped_by : failure_status(errors);
	tr.session = s;
	if (s && session_attached(s))
		probes_say_tracing(&tr, 0, session_attached(s), NULL);
	if (s)
		budget_say_start(&tr);
	server = sinks_server(&tr);
	if (s)
		follow_start(&tr, s);
	if (s && tr.plan.metrics &&
	    drop_privileges(opt->user, child > 0 || opt->pid) != 0) {
		status = EXIT_SYSTEM;
		session_end(s);
		tr.session = s = NULL;
	}
	if (s && tr.plan.metrics)
		info_plain("serving the metrics on http://%s/metrics",
			   server_address(server));
	if (s) {
		/* A file-size limit fails a write (said at the end), not
		   probegen; set after the command started with its own. */
		signal(SIGXFSZ, SIG_IGN);
		if (stopped_by) /* before the command started: nothing ran */
			status = 128 + stopped_by;
		else if (go >= 0 && write(go, "g", 1) != 1)
			trace_stopping = 1;
		if (follow(&tr, s, &child, server, &command_status) != 0)
			status = EXIT_SYSTEM;
	}
	end_command(child, go);
	if (s) {
		/* What the ring still holds, before the counts are read. */
		if (session_poll(s, 0, NULL, 0) < 0)
			status = EXIT_SYSTEM;
		status = report(&tr, status);
	}
	session_end(s);
	tr.session = NULL;
	status = finish_output(&tr, s != NULL, finish_files(&tr, s != NULL, status));
	/* The command's failure is the run's (a test suite that failed
	   under --expect-all fails the CI step); probegen's own stands when
	   the command succeeded. */
	if ((failure = command_failure(command_status)) != 0)
		status = failure;
	sinks_free(&tr);
	targets_free(&tr);
	return status;
}
