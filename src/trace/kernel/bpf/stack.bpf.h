/*
 * src/trace/kernel/bpf/stack.bpf.h - part of trace.bpf.c (included once, before
 * on_firing): --stack's copy of a firing's registers and of the top of
 * its user stack, which probegen unwinds with the binaries' CFI
 * (trace/decode/stacks.c, as perf's --call-graph dwarf does).
 */

/* --stack: the bytes of the user stack each firing copies, or 0. */
const volatile __u32 stack_bytes = 0;
/* --stack counted (--summary, --folded, --pprof): only every Nth
 * firing's stack is copied and sent, N set from user space once the
 * ring was full (a steady share, not bursts lost). */
__u32 stack_every = 1;
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} stack_turns SEC(".maps");

/* Whether this firing's stack is one of every stack_every's. */
static __always_inline bool stack_turn(void)
{
	__u32 zero = 0, every = stack_every;
	__u64 *turn;

	if (every <= 1)
		return true;
	turn = bpf_map_lookup_elem(&stack_turns, &zero);
	if (!turn)
		return true;
	return ++*turn % every == 0;
}

/* The registers, then the stack from its pointer up, a piece at a time
 * (each within one page): a piece past the top of the stack's mapping
 * fails, and the copy ends there, whole up to it.  Into the event's
 * stack part, after its slots: the part's bytes. */
static __always_inline __u64 read_stack(struct trace_event *e,
					const struct firing_regs *regs,
					bool sleepable)
{
	/* After every slot, at a place the verifier knows (one after the
	   last filled made 6.1's refuse it). */
	struct trace_stack *st =
		(struct trace_stack *)slot_of(e, TRACE_MAX_SLOTS);
#ifdef FIRING_REGS
	__u64 sp = FIRING_SP(regs->copy), off = 0, n;
	unsigned int k;
	long rc;

	__builtin_memcpy(st->regs, &regs->copy, sizeof(regs->copy));
	st->stack_end = TRACE_STACK_FULL;
	st->every = stack_every > 1 ? stack_every : 1;
	for (k = 0; k < TRACE_STACK_MAX / TRACE_STACK_PIECE + 1; k++) {
		if (off >= stack_bytes || off >= TRACE_STACK_MAX)
			break;
		n = TRACE_STACK_PIECE - ((sp + off) & (TRACE_STACK_PIECE - 1));
		if (n > stack_bytes - off)
			n = stack_bytes - off;
		if (n > TRACE_STACK_PIECE || n == 0)
			break;
		off &= TRACE_STACK_MAX - 1; /* below it: for the verifier */
		rc = sleepable ? bpf_copy_from_user(st->stack + off, (__u32)n,
						    (const void *)(sp + off))
			       : bpf_probe_read_user(st->stack + off, (__u32)n,
						     (const void *)(sp + off));
		if (rc) {
			st->stack_end = TRACE_STACK_TOP;
			break;
		}
		off += n;
	}
	st->stack_size = (unsigned int)off;
#else
	st->stack_size = 0;
	st->stack_end = TRACE_STACK_NO_REGS;
	st->every = 1;
#endif
	return __builtin_offsetof(struct trace_stack, stack) + st->stack_size;
}
