/*
 * src/trace/kernel/bpf/trace.bpf.c - the BPF program of probegen --trace, compiled
 * by clang -target bpf and embedded through bpftool's skeleton.  One
 * program is attached to every traced probe; the USDT cookie says which.
 * Each firing reads every argument (up to 12, as libbpf's USDT support
 * does) by the site's specs in usdt.bpf.h's map (arg_value, in
 * args.bpf.h), copies its strings, bytes, addresses and members
 * (slots.bpf.h, faulting their pages in where the program may sleep),
 * and sends one event through a ring buffer; a full ring counts a drop
 * instead of waiting.  pairs.bpf.h times the pairs in the kernel.
 */
#include <stdbool.h> /* bpf/usdt.bpf.h needs it first */
#include <linux/bpf.h>
#include <linux/ptrace.h> /* struct pt_regs, for the USDT helpers */
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "trace_abi.h"
#include TRACE_ARCH_H /* bpf/arch_*.h: the architecture's facts */

/* probegen fills libbpf's spec map itself (attach.c), as many as it
 * traces; each site's BPF cookie names its spec, so the map from
 * addresses (for kernels without cookies) is not used. */
#define BPF_USDT_MAX_SPEC_CNT TRACE_MAX_SPECS
#define BPF_USDT_MAX_IP_CNT 1
#include <bpf/usdt.bpf.h>

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, TRACE_RING_BYTES);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TRACE_MAX_PROBES);
	__type(key, __u32);
	__type(value, struct trace_probe_info);
} probes SEC(".maps");

/* The event is built here (it is too big for the BPF stack), in CPU
 * k's entry (load.c makes one a CPU): an array, not a per-CPU one,
 * whose values may not pass 32 KiB. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct trace_event);
} scratch SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} drops SEC(".maps");

/* Bytes this CPU has sent since it last woke the reader (WAKEUP_BYTES). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} unsignalled SEC(".maps");

/* -c and -p: only the processes of the tree are traced, each marked in
 * an array by its tgid (probegen sizes it to the kernel's pid_max): put
 * there by probegen (the command, -p's process) and by on_fork
 * (whatever they start, at any depth) before they run.  An array, not a
 * hash: its lookup is a load, and a hash's cost 50 ns a firing. */
const volatile int follow_tree = 0;
/* --summary while following: in how many processes each probe fired. */
const volatile int count_processes = 0;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u8);
} tree SEC(".maps");

static __always_inline int in_tree(__u32 tgid)
{
	__u8 *in = bpf_map_lookup_elem(&tree, &tgid);

	return in && *in;
}

/* Each probe's processes (struct trace_fired_key), while following. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TRACE_MAX_FIRED_IN);
	__type(key, struct trace_fired_key);
	__type(value, __u8);
} fired_in SEC(".maps");

/* The fields read of the kernel's task, placed by CO-RE. */
struct task_struct {
	int pid, tgid;
} __attribute__((preserve_access_index));

/* --summary: count and time in here; no event crosses to user space
 * but those of probes marked to stream (their pairs are timed there). */
const volatile int summary_only = 0;
/* Count each probe and time the pairs here (--summary, --expect-all:
 * what is read at the end); else the counts and pairs maps are a room
 * each, and nothing is counted. */
const volatile int tally = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TRACE_MAX_PROBES);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

#include "args.bpf.h"
#include "pairs.bpf.h"
#include "slots.bpf.h"
#include "filter_eval.h"
#include "fields.h"
#include "filter.bpf.h"
#include "stack.bpf.h"

/* Wake the reader once a CPU has sent this much, not at every event;
 * user space reads at least every 100 ms besides.  Counted here, per
 * CPU: asking the ring how much waits (bpf_ringbuf_query) reads the
 * reader's position from another CPU's cache, 100 ns a firing. */
#define WAKEUP_BYTES (256 << 10)

/* --summary, --expect-all, --metrics: count the firing (and, while
 * following, the process it was in) and time its pairs. */
static __always_inline void count_firing(const struct __bpf_usdt_spec *spec,
					 const struct firing_regs *regs,
					 struct trace_probe_info *info,
					 __u32 probe, __u64 id, __u64 now)
{
	__u64 *count = bpf_map_lookup_elem(&counts, &probe);

	if (count)
		*count += 1;
	if (count_processes) {
		struct trace_fired_key k = { probe, (__u32)(id >> 32) };
		__u8 one = 1;

		if (!bpf_map_lookup_elem(&fired_in, &k))
			bpf_map_update_elem(&fired_in, &k, &one, BPF_NOEXIST);
	}
	if (info->nstarts || info->nends)
		pair_firing(spec, regs, info, now);
}

/* Whether the firing crosses to user space: with --summary, only for
 * a pair timed there or its stack (every Nth, when counted). */
static __always_inline bool streams(const struct trace_probe_info *info)
{
	if (!summary_only)
		return true;
	if (info->stream == TRACE_STREAM_STACK)
		return stack_turn();
	return info->stream != 0;
}

static __always_inline int on_firing(struct pt_regs *ctx, bool sleepable,
				     bool filtering)
{
	struct __bpf_usdt_spec *spec;
	__u32 zero = 0, probe, cpu = bpf_get_smp_processor_id();
	struct trace_probe_info *info;
	struct trace_event *e;
	__u64 id = bpf_get_current_pid_tgid(), size, flags = BPF_RB_NO_WAKEUP;
	__u64 *quiet, now;
	struct firing_regs regs;
	unsigned int n, nargs;

	/* Attached in every process while following: others leave first. */
	if (follow_tree && !in_tree((__u32)(id >> 32)))
		return -1;
	spec = spec_of(ctx);
	e = bpf_map_lookup_elem(&scratch, &cpu);
	if (!spec || !e)
		return -1;
	probe = (__u32)spec->usdt_cookie;
	info = bpf_map_lookup_elem(&probes, &probe);
	if (!info)
		return -1;
	registers_of(ctx, &regs);
	now = bpf_ktime_get_ns();
	/* --where: a rejected firing is counted as such, and matched in its
	   pairs (untimed: pairs.bpf.h); nothing else. */
	if (filtering && info->filter &&
	    !filter_passes(spec, &regs, info, sleepable)) {
		__u64 *r = bpf_map_lookup_elem(&rejected, &probe);

		if (r)
			*r += 1;
		if (tally && (info->nstarts || info->nends))
			pair_firing(spec, &regs, info, now & ~1ull);
		return (int)probe;
	}
	if (tally)
		count_firing(spec, &regs, info, probe, id, now | 1);
	if (!streams(info))
		return (int)probe;
	nargs = spec->arg_cnt < 0		 ? 0
		: spec->arg_cnt > TRACE_MAX_ARGS ? TRACE_MAX_ARGS
						 : (unsigned int)spec->arg_cnt;
	e->time_ns = now;
	e->pid = id >> 32;
	e->tid = (__u32)id;
	e->probe = probe;
	e->nargs = nargs;
	e->cut_mask = 0;
	e->fault_mask = 0;
	e->nstrings = 0;
	e->slot_bytes = slot_bytes;
	read_args(e, spec, &regs, info, nargs, sleepable);
	if (info->nshows)
		read_shows(e, info, sleepable);
	n = e->nstrings;
	if (n > TRACE_MAX_SLOTS)
		n = TRACE_MAX_SLOTS;
	size = TRACE_EVENT_HEADER + (__u64)n * slot_bytes;
	if (stack_bytes)
		size = TRACE_EVENT_HEADER + (__u64)TRACE_MAX_SLOTS * slot_bytes +
		       read_stack(e, &regs, sleepable);
	if (size > sizeof(*e))
		size = sizeof(*e);
	quiet = bpf_map_lookup_elem(&unsignalled, &zero);
	if (quiet && (*quiet += size) > WAKEUP_BYTES) {
		*quiet = 0;
		flags = BPF_RB_FORCE_WAKEUP;
	}
	if (bpf_ringbuf_output(&events, e, size, flags) != 0) {
		__u64 *d = bpf_map_lookup_elem(&drops, &zero);

		if (d)
			(*d)++;
	}
	return (int)probe;
}

/* --budget: each probe's firings and the program's time at them, in
 * ns (budget.c adds a trap's to it), whatever --where decides: what
 * tracing it costs the program.  Timed only under a budget (two clock
 * reads a firing). */
const volatile int measure_cost = 0;
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TRACE_MAX_PROBES);
	__type(key, __u32);
	__type(value, struct trace_cost);
} costs SEC(".maps");

static __always_inline int on_firing_timed(struct pt_regs *ctx,
					   bool sleepable, bool filtering)
{
	__u64 start = measure_cost ? bpf_ktime_get_ns() : 0;
	int probe = on_firing(ctx, sleepable, filtering);
	__u32 key = (__u32)probe;
	struct trace_cost *c;

	if (!measure_cost || probe < 0 ||
	    !(c = bpf_map_lookup_elem(&costs, &key)))
		return 0;
	c->firings++;
	c->ns += bpf_ktime_get_ns() - start;
	return 0;
}

/* Loaded sleepable where the kernel allows it (uprobes: Linux 6.0), so
 * that strings are read whatever their page; else the plain one.  With
 * --where, the programs that filter: their filters' functions are
 * checked by the kernel only when they load (55 ms of every start). */
SEC("usdt")
int on_probe_sleepable(struct pt_regs *ctx)
{
	return on_firing_timed(ctx, true, false);
}

SEC("usdt")
int on_probe(struct pt_regs *ctx)
{
	return on_firing_timed(ctx, false, false);
}

SEC("usdt")
int on_probe_filtering_sleepable(struct pt_regs *ctx)
{
	return on_firing_timed(ctx, true, true);
}

SEC("usdt")
int on_probe_filtering(struct pt_regs *ctx)
{
	return on_firing_timed(ctx, false, true);
}

/* A process the tree starts (a new thread group, not a thread) joins it
 * before it runs. */
SEC("raw_tp/sched_process_fork")
int on_fork(struct bpf_raw_tracepoint_args *ctx)
{
	struct task_struct *child = (struct task_struct *)ctx->args[1];
	__u32 parent = (__u32)(bpf_get_current_pid_tgid() >> 32), pid;
	__u8 one = 1;

	if (!in_tree(parent))
		return 0;
	pid = (__u32)BPF_CORE_READ(child, pid);
	if (pid == (__u32)BPF_CORE_READ(child, tgid))
		bpf_map_update_elem(&tree, &pid, &one, BPF_ANY);
	return 0;
}

/* Stop the current process of the tree and tell probegen why (kind:
 * TRACE_EXEC_EVENT or TRACE_MAP_EVENT); it lets the process go on once
 * it has attached to what the process now runs. */
static __always_inline int stop_and_tell(__u32 kind)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = (__u32)(id >> 32);
	struct trace_event *e;

	if (!in_tree(tgid))
		return 0;
	e = bpf_ringbuf_reserve(&events, TRACE_EVENT_HEADER, 0);
	if (!e)
		return 0; /* counted as nothing: the process runs untraced */
	__builtin_memset(e, 0, TRACE_EVENT_HEADER);
	e->time_ns = bpf_ktime_get_ns();
	e->pid = tgid;
	e->tid = (__u32)id;
	e->probe = kind;
	bpf_send_signal(19 /* SIGSTOP */);
	bpf_ringbuf_submit(e, BPF_RB_FORCE_WAKEUP);
	return 0;
}

/* The calls of the loader's hook at a program's start that on_loader
 * lets pass: the first, before the libraries are mapped. */
#define LOADER_START_CALLS 1

/* A process of the tree has exec'd a program: it stops before the
 * program's first instruction, and probegen, told, attaches to the
 * program's probes (and its libraries') and lets it go on. */
SEC("raw_tp/sched_process_exec")
int on_exec(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 tgid = (__u32)(bpf_get_current_pid_tgid() >> 32);
	__u8 *in = bpf_map_lookup_elem(&tree, &tgid);

	(void)ctx;
	/* The loader's first call of its hook maps nothing yet: on_loader
	   lets it pass. */
	if (in && *in)
		*in = 1 + LOADER_START_CALLS;
	return stop_and_tell(TRACE_EXEC_EVENT);
}

/* A process of the tree is in its loader's _dl_debug_state(), the
 * debuggers' hook, called once objects are mapped or unmapped and
 * before they are relocated or their constructors run: it stops, and
 * probegen attaches to the probes of what it has mapped.  At a
 * program's start glibc's loader calls it twice: before mapping the
 * libraries (passed) and after (a stop: the program's own environment
 * may have chosen libraries, LD_LIBRARY_PATH in a wrapper script as
 * libtool's, or LD_PRELOAD, that the exec stop's LOADER --list, run in
 * probegen's environment, did not list). */
SEC("uprobe")
int on_loader(struct pt_regs *ctx)
{
	__u32 tgid = (__u32)(bpf_get_current_pid_tgid() >> 32);
	__u8 *in = bpf_map_lookup_elem(&tree, &tgid);

	(void)ctx;
	if (in && *in > 1) {
		*in -= 1; /* a call of the loader's start */
		return 0;
	}
	return stop_and_tell(TRACE_MAP_EVENT);
}

/* A process of the tree has ended: its tgid may be another's later. */
SEC("raw_tp/sched_process_exit")
int on_exit(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = (__u32)(id >> 32);
	__u8 *in = bpf_map_lookup_elem(&tree, &tgid);

	(void)ctx;
	if ((__u32)id == tgid && in)
		*in = 0;
	return 0;
}
