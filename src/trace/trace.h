/*
 * src/trace/trace.h - what the BPF program of --trace (trace.bpf.c) and
 * probegen's side of it (trace.c) share: the event one firing sends, and
 * what the BPF side knows of each probe.  Plain C for both compilers.
 */
#ifndef PROBEGEN_TRACE_H
#define PROBEGEN_TRACE_H

#define TRACE_MAX_ARGS 12   /* sys/sdt.h's and libbpf's limit */
#define TRACE_STR_LEN 128   /* bytes of a string argument, NUL included */
#define TRACE_MAX_PROBES 4096

/* What the BPF side knows of probe number i (the USDT cookie). */
struct trace_probe_info {
	unsigned int string_mask; /* bit n: argument n is a C string */
};

/* One firing.  Strings follow the header in the order of their
 * arguments, TRACE_STR_LEN bytes each; the event is only as long as the
 * strings it carries. */
struct trace_event {
	unsigned long long time_ns; /* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
	unsigned int pid, tid;
	unsigned int probe;         /* the cookie */
	unsigned int nargs;
	unsigned int cut_mask;      /* bit n: string argument n was cut */
	unsigned int fault_mask;    /* bit n: string argument n unreadable */
	unsigned int nstrings;
	unsigned long long args[TRACE_MAX_ARGS];
	char strings[TRACE_MAX_ARGS][TRACE_STR_LEN];
};

#endif
