/*
 * src/trace/kernel/trap_cost.c - what one uprobe costs the traced
 * program here, measured once at the start: a uprobe (through the
 * kernel's uprobe PMU, with no program of probegen's: the trap alone)
 * on a function of probegen's own, called a few thousand times with
 * and without it.  Every firing of a traced probe pays at least this
 * (its BPF program runs on top), so the rate a probe fires at, times
 * this, is a floor of what tracing it costs (trace.c says it of the hot
 * probes), and a pair timed near it is mostly the tracer's own time
 * (summary.c says so).  On a kernel without the PMU it is not known.
 */
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "trace/kernel/bpf_rooms.h"
#include "trace/kernel/session.h"

/* The calls timed, with and without the uprobe: a few milliseconds. */
#define TRAP_CALLS 4000
#define TRAP_RUNS 3

/* The function the uprobe traps, at a nop as a USDT site is (a probe
 * on another instruction is stepped out of line: a second trap), kept
 * out of line and called through a volatile pointer so that no call
 * is folded away. */
extern char probegen_trap_site[];
__attribute__((noinline, used)) static int trap_target(int x)
{
	__asm__ volatile(".globl probegen_trap_site\n"
			 "probegen_trap_site: nop"
			 : "+r"(x));
	return x + 1;
}

static int (*volatile target)(int) = trap_target;

/* The thread's CPU time, which holds the trap (the kernel runs it in
 * the thread) and not the time others ran: measured in a thread beside
 * the run's loop and a busy program on two CPUs, the wall clock said
 * 2.5 us where the trap costs 1.5. */
static unsigned long long thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull +
	       (unsigned long long)ts.tv_nsec;
}

/* One run of TRAP_CALLS calls, in ns. */
static unsigned long long time_calls(void)
{
	unsigned long long t = thread_cpu_ns();
	int i, x = 0;

	for (i = 0; i < TRAP_CALLS; i++)
		x = target(x);
	return thread_cpu_ns() - t;
}

/* Where trap_target is in probegen's file: its offset, from the
 * mapping of /proc/self/maps that holds it; 0 when not found. */
static unsigned long long file_offset(char *path, size_t size)
{
	unsigned long long addr = (unsigned long long)(uintptr_t)probegen_trap_site,
			   start, end, off, found = 0;
	char line[4096], perms[8];
	FILE *f = fopen("/proc/self/maps", "r");
	int n;

	while (f && !found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end,
			   perms, &off, &n) < 4 || addr < start || addr >= end)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (line[n] != '/' || strlen(line + n) >= size)
			break;
		strcpy(path, line + n);
		found = addr - start + off;
	}
	if (f)
		fclose(f);
	return found;
}

/* The calls timed without and with a uprobe on the trap site, the best
 * of TRAP_RUNS each, in turns: a machine under load slows both alike
 * (one after the other, it measured with <= without).  The uprobe is
 * made each turn by attach(ctx) (a perf event enabled by ioctl does not
 * trap), its fd closed after: the ns a call, or -1 when it cannot be
 * made. */
static long long in_turns(int (*attach)(void *ctx), void *ctx)
{
	unsigned long long without = ~0ull, with = ~0ull, t;
	int fd, run;

	for (run = 0; run < TRAP_RUNS; run++) {
		if ((t = time_calls()) < without)
			without = t;
		if ((fd = attach(ctx)) < 0)
			return -1;
		if ((t = time_calls()) < with)
			with = t;
		close(fd);
	}
	return with > without ? (long long)((with - without) / TRAP_CALLS) : 0;
}

/* A uprobe of the kernel's uprobe PMU, no program: the trap alone. */
static int perf_uprobe(void *attr)
{
	return (int)syscall(SYS_perf_event_open, attr, 0, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

static long long measure_trap(void)
{
	struct perf_event_attr attr;
	unsigned long long off;
	char path[4096];
	FILE *f = fopen("/sys/bus/event_source/devices/uprobe/type", "r");
	int type = -1;

	if (f && fscanf(f, "%d", &type) != 1)
		type = -1;
	if (f)
		fclose(f);
	if (type < 0 || !(off = file_offset(path, sizeof(path))))
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = (unsigned)type;
	attr.config1 = (unsigned long long)(uintptr_t)path; /* uprobe_path */
	attr.config2 = off;				    /* probe_offset */
	return in_turns(perf_uprobe, &attr);
}

/* Begun in a thread of its own: three uprobes made and closed take the
 * kernel a quarter of a second, in which the run's loop would not read
 * the ring (a million firings in 2 s lost 7% of their events). */
static pthread_t measuring;
static int begun, done;
static long long measured;

static void *measure_in_thread(void *unused)
{
	(void)unused;
	measured = measure_trap();
	return NULL;
}

void trap_cost_begin(void)
{
	sigset_t all, was;

	if (begun || done)
		return;
	/* Signals stay the run's loop's (its poll wakes on them). */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &was);
	begun = pthread_create(&measuring, NULL, measure_in_thread, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &was, NULL);
}

long long trap_cost_ns(void)
{
	if (begun) {
		pthread_join(measuring, NULL);
		begun = 0;
		done = 1;
	}
	if (!done) {
		measured = measure_trap();
		done = 1;
	}
	return measured;
}

/* The BPF program's multi-uprobe link on the trap site, in probegen. */
struct program_site {
	int prog_fd;
	char path[4096];
	unsigned long long off;
};

static int program_uprobe(void *ctx)
{
	struct program_site *p = ctx;
	/* A spec the map does not hold: the program leaves at once. */
	unsigned long long cookie = 0xffffffffull;

	return attach_uprobe_multi(p->prog_fd, p->path, &p->off, NULL, &cookie,
				   1, (int)getpid());
}

long long trap_cost_with_ns(int prog_fd)
{
	struct program_site site = { .prog_fd = prog_fd };

	if (!(site.off = file_offset(site.path, sizeof(site.path))))
		return -1;
	return in_turns(program_uprobe, &site);
}
