/*
 * src/trace/trace.bpf.c - the BPF program of probegen --trace, compiled
 * by clang -target bpf and embedded through bpftool's skeleton.  One
 * program is attached to every traced probe; the USDT cookie says which.
 * Each firing reads every argument (up to 12, as libbpf's USDT support
 * does), copies its string arguments (faulting their pages in where the
 * program may sleep), and sends one event through a ring buffer; a full
 * ring counts a drop instead of waiting.
 */
#include <stdbool.h> /* bpf/usdt.bpf.h needs it first */
#include <linux/bpf.h>
#include <linux/ptrace.h> /* struct pt_regs, for the USDT helpers */
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>

#include "trace.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TRACE_MAX_PROBES);
	__type(key, __u32);
	__type(value, struct trace_probe_info);
} probes SEC(".maps");

/* The event is built here (it is too big for the BPF stack). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
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

/* Wake the reader once this much is waiting, not at every event. */
#define WAKEUP_BYTES (256 << 10)

/* A string's page may not be in memory yet: a literal in .rodata that
 * the program never read itself.  A sleepable program may fault it in
 * (bpf_copy_from_user, the first byte and the next page's, which the
 * string may reach) and read again. */
static __always_inline long read_string(char *dst, const void *src,
					bool sleepable)
{
	long len = bpf_probe_read_user_str(dst, TRACE_STR_LEN, src);
	char byte;

	if (len >= 0 || !sleepable)
		return len;
	if (bpf_copy_from_user(&byte, 1, src) != 0)
		return len; /* a bad pointer */
	bpf_copy_from_user(&byte, 1, (const void *)(((__u64)src | 4095) + 1));
	return bpf_probe_read_user_str(dst, TRACE_STR_LEN, src);
}

static __always_inline int on_firing(struct pt_regs *ctx, bool sleepable)
{
	__u32 zero = 0, probe = (__u32)bpf_usdt_cookie(ctx);
	struct trace_probe_info *info = bpf_map_lookup_elem(&probes, &probe);
	struct trace_event *e = bpf_map_lookup_elem(&scratch, &zero);
	__u64 id = bpf_get_current_pid_tgid(), size, flags = BPF_RB_NO_WAKEUP;
	unsigned int n = 0;
	long cnt = bpf_usdt_arg_cnt(ctx);
	int i;

	if (!info || !e)
		return 0;
	e->time_ns = bpf_ktime_get_ns();
	e->pid = id >> 32;
	e->tid = (__u32)id;
	e->probe = probe;
	e->nargs = cnt < 0 ? 0 : cnt > TRACE_MAX_ARGS ? TRACE_MAX_ARGS : (unsigned int)cnt;
	e->cut_mask = 0;
	e->fault_mask = 0;
	for (i = 0; i < TRACE_MAX_ARGS; i++) {
		long v = 0, len;

		if (i >= e->nargs)
			break;
		bpf_usdt_arg(ctx, i, &v);
		e->args[i] = v;
		if (!(info->string_mask & (1u << i)) || n >= TRACE_MAX_ARGS)
			continue;
		len = read_string(e->strings[n], (const void *)v, sleepable);
		if (len == TRACE_STR_LEN)
			e->cut_mask |= 1u << i;
		else if (len < 0) /* a page not yet faulted in, or a bad pointer */
			e->fault_mask |= 1u << i;
		n++;
	}
	e->nstrings = n;
	size = sizeof(*e) - sizeof(e->strings) + (__u64)n * TRACE_STR_LEN;
	if (size > sizeof(*e))
		size = sizeof(*e);
	if (bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA) > WAKEUP_BYTES)
		flags = BPF_RB_FORCE_WAKEUP;
	if (bpf_ringbuf_output(&events, e, size, flags) != 0) {
		__u64 *d = bpf_map_lookup_elem(&drops, &zero);

		if (d)
			(*d)++;
	}
	return 0;
}

/* Loaded sleepable where the kernel allows it (uprobes: Linux 6.0), so
 * that strings are read whatever their page; else the plain one. */
SEC("usdt")
int on_probe_sleepable(struct pt_regs *ctx)
{
	return on_firing(ctx, true);
}

SEC("usdt")
int on_probe(struct pt_regs *ctx)
{
	return on_firing(ctx, false);
}
