/*
 * src/trace/kernel/bpf/trace_abi.h - the ABI between the BPF program of --trace
 * (trace.bpf.c) and probegen's side of it (tracer.h's rooms): the event
 * one firing sends, what the BPF side knows of each probe, the maps'
 * keys and the latency buckets' layout.  Plain C for both compilers.
 */
#ifndef PROBEGEN_TRACE_ABI_H
#define PROBEGEN_TRACE_ABI_H

#include "../../../arg_read.h" /* enum arg_kind: how each value is read */

#define TRACE_MAX_ARGS 12 /* sys/sdt.h's and libbpf's limit */
/* A slot's bytes (--string-bytes; a multiple of 8): the most of a
 * string argument, NUL included, or read of a pointer with its length
 * or of a socket address (a slot each).  128 unless asked, 4096 at most
 * (the event is built in a map value: its slots and the largest stack
 * copy fit one value of an array map, 133 KiB a CPU).  --where and
 * --expect compare a slot's bytes too: what --trace shows. */
#define TRACE_STR_LEN 128
#define TRACE_STR_MAX 4096
#define TRACE_MAX_PROBES 16384
/* The ring buffer's bytes, more with --stack (load.c): a process's first
 * walk reads its binaries' DWARF, and its firings wait there meanwhile.
 * 32 MiB: a loop firing a million events (a string and 5 integers) as
 * fast as it can outran probegen's printing by 1-5% in 16 MiB, in 3 of
 * 5 runs, and in none of 5 with 32 (bench/trace.sh's lost column). */
#define TRACE_RING_BYTES (32 << 20)
#define TRACE_RING_BYTES_STACK (64 << 20)
/* --show's member expressions a probe reads at its firing, and the
 * pointers each follows past its argument, at most. */
#define TRACE_MAX_SHOWS 4
#define TRACE_MAX_STEPS 6
/* An event's slots: its arguments', then its shows'. */
#define TRACE_MAX_SLOTS (TRACE_MAX_ARGS + TRACE_MAX_SHOWS)
/* fault_mask's and cut_mask's bit for show k. */
#define TRACE_SHOW_BIT(k) (1u << (16 + (k)))
/* Argument specs held at once: one for each site whose specs differ
 * from its probe's site before (attach.c). */
#define TRACE_MAX_SPECS 32768

#define TRACE_MAX_PAIRS 64
/* Open starts a thread keeps per pair (recursion, nesting); deeper
 * ones are counted, not timed.  A power of two. */
#define TRACE_MAX_NEST 32
/* The keys and values of the pairs' maps, which probegen reads at the
 * end for the starts never ended: per thread and pair, the stack of
 * open starts' times; per argument value and pair, one start. */
struct trace_nest_key {
	unsigned int tid, pair;
};
struct trace_nest {
	unsigned int depth, pad;
	unsigned long long start_ns[TRACE_MAX_NEST];
};
struct trace_value_key {
	unsigned long long value;
	unsigned int pair, pad;
};

/* A pair's latencies: log-linear buckets, 8 to each power of two (so a
 * percentile read from them is within 12.5%), from 1 ns to 2^64 ns. */
#define TRACE_SUB_BITS 3
#define TRACE_LAT_BUCKETS (64 << TRACE_SUB_BITS)

/* The bucket of a latency (the BPF side counts it) and the lower bound
 * of a bucket (the summary reads it): the layout, in one place. */
static __inline__ __attribute__((always_inline)) unsigned int trace_bucket_of(
	unsigned long long ns)
{
	unsigned long long v = ns;
	unsigned int log = 0, b;

	if (v >> 32) {
		log += 32;
		v >>= 32;
	}
	if (v >> 16) {
		log += 16;
		v >>= 16;
	}
	if (v >> 8) {
		log += 8;
		v >>= 8;
	}
	if (v >> 4) {
		log += 4;
		v >>= 4;
	}
	if (v >> 2) {
		log += 2;
		v >>= 2;
	}
	if (v >> 1) {
		log += 1;
	}
	b = log << TRACE_SUB_BITS;
	if (log >= TRACE_SUB_BITS)
		b |= (ns >> (log - TRACE_SUB_BITS)) &
		     ((1 << TRACE_SUB_BITS) - 1);
	else
		b |= ns & ((1 << TRACE_SUB_BITS) - 1);
	return b < TRACE_LAT_BUCKETS ? b : TRACE_LAT_BUCKETS - 1;
}

static __inline__ __attribute__((always_inline)) unsigned long long
trace_bucket_floor(unsigned int b)
{
	unsigned int log = b >> TRACE_SUB_BITS,
		     sub = b & ((1 << TRACE_SUB_BITS) - 1);

	if (log < TRACE_SUB_BITS)
		return (unsigned long long)sub | (log ? 1ull << log : 0);
	return (1ull << log) |
	       ((unsigned long long)sub << (log - TRACE_SUB_BITS));
}

/* The bytes of a socket address of family (read first): AF_INET's,
 * AF_INET6's, AF_UNIX's, else the family alone.  What the BPF side
 * copies into a slot (slots.bpf.h) and what --expect's judge compares
 * of it (decode/verdict.c). */
static __inline__ __attribute__((always_inline)) unsigned int
trace_sockaddr_bytes(unsigned short family)
{
	return family == 2 ? 16 : family == 10 ? 28 : family == 1 ? 110 : 2;
}

/* A probe may start or end several pairs (a name pair and a --pair by
 * argument, two --pairs sharing a start): at most this many of each. */
#define TRACE_MAX_ROLES 4

/* One pair a probe starts or ends. */
struct trace_role {
	unsigned int pair; /* its index */
	int match_arg;	   /* the argument matching it (from
			      TRACE_MAX_ARGS on: the probe's show k, a
			      member expression), or -1: per thread, nested */
};

/* A member chain (arg_read.h's layout, inspect/members.c fills it):
 * from argument arg's value plus offset[0], then through the pointer
 * there plus offset[1], ... (nsteps in all) to the member's place;
 * what is there is read into a slot as kind (enum arg_kind) says:
 * ARG_INTEGER, ARG_POINTER: size bytes (1 to 8), a number;
 * ARG_STRING: the string of the char pointer there;
 * ARG_TEXT with LENGTH_FIXED: size bytes (a char array) at the place;
 * ARG_SOCKADDR: the socket address at the place, by its family;
 * ARG_TEXT, ARG_BYTES with LENGTH_SIBLING: the pointer there, whose
 * length is the member length_delta bytes from it (length_size bytes,
 * signed or not): the slot holds that length (8 bytes), then at most
 * TRACE_COUNTED_MAX(slot) of the bytes. */
#define TRACE_COUNTED_MAX(slot_bytes) ((slot_bytes) - 8)
struct trace_show {
	unsigned int arg, kind, size, nsteps;
	unsigned int offset[TRACE_MAX_STEPS];
	unsigned int length_from;
	int length_delta;
	unsigned int length_size, length_signed;
};

/* A --where filter, compiled for one probe (trace/find/filter.c) and
 * interpreted at its firing (bpf/filter.bpf.h): its comparisons, each
 * of an argument (or of one of the probe's shows, from TRACE_MAX_ARGS
 * on) with a constant, then how their truths combine, in postfix: op k
 * below TRACE_MAX_CONDS is comparison k's truth, the others are
 * TRACE_FILTER_AND, _OR and _NOT. */
#define TRACE_MAX_CONDS 8
#define TRACE_MAX_FILTER_OPS (2 * TRACE_MAX_CONDS)
#define TRACE_PATTERN_LEN 64 /* a string constant's bytes, NUL included */
#define TRACE_FIELD_LEN 32 /* a field's key (fields.KEY), NUL included */
/* Probes filtered at once: each has its own compiled filter. */
#define TRACE_MAX_FILTERS 1024
/* A comparison's operand is read as its kind says (enum arg_kind):
 * ARG_INTEGER, ARG_POINTER: a number of size bytes (is_signed); ARG_STRING:
 * a C string; ARG_TEXT: the bytes its length says (length_from).
 * ARG_BYTES: the bytes its length says, compared with the pattern's
 * pattern_len bytes (any byte, NUL too).  TRACE_MATCH matches a string
 * against a glob (~); TRACE_PREFIX and TRACE_SUFFIX match bytes that
 * start or end with the pattern (~ 0x1f1e*, last first when reversed). */
enum trace_cond_op {
	TRACE_EQ, TRACE_NE, TRACE_LT, TRACE_LE, TRACE_GT, TRACE_GE, TRACE_MATCH,
	TRACE_PREFIX, TRACE_SUFFIX
};
#define TRACE_FILTER_AND 100
#define TRACE_FILTER_OR 101
#define TRACE_FILTER_NOT 102
struct trace_cond {
	unsigned int kind, op, arg, size, is_signed;
	/* ARG_TEXT: its length's source (arg_read.h), LENGTH_ARG's
	   argument or LENGTH_FIXED's bytes */
	unsigned int length_from;
	int length_arg;
	unsigned int length;
	/* The first byte compared of the operand's (a socket address's
	   port or address: filter.c compares one in pieces) */
	unsigned int offset;
	unsigned long long value; /* the integer compared with */
	unsigned int pattern_len; /* the pattern's bytes */
	/* Not empty: the operand is key=value text (@fields), and what is
	   compared is this key's value (bpf/fields.h); none: false */
	char field[TRACE_FIELD_LEN];
	char pattern[TRACE_PATTERN_LEN]; /* the string, the glob, the bytes */
};
struct trace_filter {
	unsigned int nconds, nops;
	unsigned char ops[TRACE_MAX_FILTER_OPS];
	struct trace_cond conds[TRACE_MAX_CONDS];
};

/* struct trace_probe_info's stream: for its stack alone (counted), so
 * every Nth firing (stack.bpf.h's stack_every). */
#define TRACE_STREAM_STACK 2
/* What the BPF side knows of probe number i (the USDT cookie). */
struct trace_probe_info {
	/* How argument n is read (enum arg_kind): those of a kind
	   ARG_KIND_HAS_SLOT says have their bytes copied into a slot;
	   ARG_TEXT's and ARG_BYTES's length is argument length_arg[n]'s
	   when that is 0 or more, else length[n] */
	unsigned char kind[TRACE_MAX_ARGS];
	signed char length_arg[TRACE_MAX_ARGS];
	unsigned int length[TRACE_MAX_ARGS];
	unsigned int nshows;
	struct trace_show shows[TRACE_MAX_SHOWS];
	/* --where: 1 + its filter's index in the filters map, or 0 */
	unsigned int filter;
	/* Sent even with --summary: it starts or ends a pair timed in user
	   space (profile.c), or TRACE_STREAM_STACK. */
	unsigned int stream;
	unsigned int nends, nstarts;
	struct trace_role ends[TRACE_MAX_ROLES]; /* done first */
	struct trace_role starts[TRACE_MAX_ROLES];
};

/* One pair's times, per CPU (summed by probegen). */
struct trace_pair_stats {
	unsigned long long count, unmatched, min_ns, max_ns;
	unsigned long long sum_ns; /* of every timed duration */
	unsigned long long
		too_deep; /* starts past the nesting stack: not timed */
	unsigned long long unended; /* filled by probegen: starts never ended */
	unsigned long long buckets[TRACE_LAT_BUCKETS];
};

/* One timed duration into a pair's (or a profiled name's) times: the
 * BPF side's and profile.c's one way of counting it. */
static __inline__ __attribute__((always_inline)) void trace_pair_record(
	struct trace_pair_stats *st, unsigned long long ns)
{
	if (!st->count || ns < st->min_ns)
		st->min_ns = ns;
	if (ns > st->max_ns)
		st->max_ns = ns;
	st->sum_ns += ns;
	st->count++;
	st->buckets[trace_bucket_of(ns)]++;
}

/* A pair's timings by power of two: counts[k] for [2^k, 2^(k+1)) ns
 * (the summary's histogram, --metrics's buckets).  probegen's side. */
static __inline__ void trace_powers_of_two(const struct trace_pair_stats *st,
					   unsigned long long counts[64])
{
	int b;

	for (b = 0; b < 64; b++)
		counts[b] = 0;
	for (b = 0; b < TRACE_LAT_BUCKETS; b++)
		counts[b >> TRACE_SUB_BITS] += st->buckets[b];
}

/* --stack: the most bytes of a user stack a firing copies (--stack-bytes
 * chooses up to it), read a page at most at a time, so that a stack
 * near the top of its mapping is read to that top and no further. */
#define TRACE_STACK_MAX 65536 /* trace_run.h's TRACE_STACK_BYTES_MAX */
#define TRACE_STACK_PIECE 4096
#define TRACE_MAX_REGS 24 /* x86-64's pt_regs: 21 */
/* Why a stack's copy ends short of the bytes asked. */
enum trace_stack_end {
	TRACE_STACK_FULL,   /* the bytes asked, all copied */
	TRACE_STACK_TOP,    /* the top of the stack's mapping */
	TRACE_STACK_NO_REGS, /* an architecture whose registers are not copied */
};

/* --stack's part of an event: the registers at the firing (the
 * kernel's struct pt_regs, as the architecture lays it out) and the top
 * of the user stack, from its pointer up (size bytes). */
struct trace_stack {
	unsigned long long regs[TRACE_MAX_REGS];
	unsigned int stack_size, stack_end; /* stack_end: why it ends */
	/* Counted: only every Nth firing's stack was copied (the ring was
	   full; kernel/session.c sets N), and this one stands for N. */
	unsigned int every, pad;
	unsigned char stack[TRACE_STACK_MAX + TRACE_STACK_PIECE];
};

/* One firing.  Strings, the bytes of pointers with a length and socket
 * addresses follow the header in the order of their arguments, a slot
 * of slot_bytes each, then each show's value (a number in its slot's
 * first 8 bytes); with --stack, its part follows all TRACE_MAX_SLOTS
 * slots, filled or not (a place the verifier of 6.1 takes).  The event
 * is only as long as what it fills. */
/* --budget: a probe's firings and the BPF program's time at them, per
 * CPU (trace.bpf.c's costs map; budget.c reads it). */
struct trace_cost {
	unsigned long long firings, ns;
};

struct trace_event {
	unsigned long long time_ns; /* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
	unsigned int pid, tid;
	unsigned int probe; /* the cookie */
	unsigned int nargs;
	unsigned int cut_mask;	 /* bit n: string argument n was cut */
	unsigned int fault_mask; /* bit n: argument n's slot unreadable */
	unsigned int nstrings;
	unsigned int slot_bytes; /* each slot's: --string-bytes */
	unsigned long long args[TRACE_MAX_ARGS];
	char slots[TRACE_MAX_SLOTS * TRACE_STR_MAX + sizeof(struct trace_stack)];
};
/* The event's bytes before its slots. */
#define TRACE_EVENT_HEADER __builtin_offsetof(struct trace_event, slots)
/* Slot s of event e, and its --stack part (after every slot): probegen's
 * side, which has checked slot_bytes and nstrings against the record's
 * size (sinks.c). */
#define TRACE_SLOT(e, s) ((e)->slots + (unsigned long)(s) * (e)->slot_bytes)
#define TRACE_STACK_OF(e) \
	((const struct trace_stack *)TRACE_SLOT(e, TRACE_MAX_SLOTS))

/* The event's probe when a followed process has just exec'd a program
 * (-c, -p): it is stopped until probegen has attached to the program's
 * probes, and only its pid is set. */
#define TRACE_EXEC_EVENT 0xffffffffu
/* ... or when its dynamic loader has just mapped or unmapped objects
 * (dlopen, dlclose, its start): stopped until probegen has attached to
 * the probes of what it mapped. */
#define TRACE_MAP_EVENT 0xfffffffeu
/* Probe-and-process pairs --summary counts while following. */
#define TRACE_MAX_FIRED_IN 65536

/* A probe that fired in a process (a followed tree's): --summary says
 * in how many processes each probe fired. */
struct trace_fired_key {
	unsigned int probe, tgid;
};

#endif
