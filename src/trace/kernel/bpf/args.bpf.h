/*
 * src/trace/kernel/bpf/args.bpf.h - part of trace.bpf.c (included once, before its
 * programs): a firing's arguments read by its site's specs, as
 * usdt.bpf.h's bpf_usdt_arg() reads them, from registers copied once.
 */
/* The firing site's argument specs (usdt.bpf.h's map, which attach.c
 * fills): looked up once a firing, not once an argument. */
static __always_inline struct __bpf_usdt_spec *spec_of(struct pt_regs *ctx)
{
	int id = __bpf_usdt_spec_id(ctx);

	return id < 0 ? NULL : bpf_map_lookup_elem(&__bpf_usdt_specs, &id);
}

/* The firing's registers, copied once from the context to the stack
 * (the verifier lets a program index its stack, not its context):
 * reading each argument's register with bpf_probe_read_kernel() cost
 * about 55 ns, a third of a six-argument firing (BENCHMARKS.md; a copy
 * in a per-CPU map was 130 ns slower a firing).  On other architectures
 * (arm64's registers are too many for the stack) each register is read
 * with the helper, as usdt.bpf.h does. */
/* FIRING_REGS: bpf/arch_*.h's, when the registers are copied. */
struct firing_regs {
	const struct pt_regs *ctx;
#ifdef FIRING_REGS
	FIRING_REGS copy;
#endif
};

static __always_inline void registers_of(const struct pt_regs *ctx,
					 struct firing_regs *regs)
{
	regs->ctx = ctx;
#ifdef FIRING_REGS
	__builtin_memcpy(&regs->copy, ctx, sizeof(regs->copy));
#endif
}

/* The register at byte offset off of the context; 0, or -1. */
static __always_inline int register_at(const struct firing_regs *r,
				       unsigned int off, unsigned long *val)
{
#ifdef FIRING_REGS
	/* Registers are 8-byte words, indexed by a number the verifier
	   can bound (a bounded byte offset it cannot prove aligned). */
	unsigned int word = (off >> 3) & 63;

	if ((off & 7) || word >= sizeof(r->copy) / sizeof(*val))
		return -1;
	*val = ((const unsigned long *)&r->copy)[word];
	return 0;
#else
	return bpf_probe_read_kernel(val, sizeof(*val),
				     (const char *)r->ctx + off)
		       ? -1
		       : 0;
#endif
}

/* Index i, checked below the constant n, in a register the verifier
 * sees bounded: clang may keep a copy of an index from before its
 * check (spilled to the stack) and index with it, which Linux 6.1's
 * verifier (Debian 12's) refuses ("unbounded memory access") where
 * later ones link the copy to the check.  Out of range, 0.  (The unit
 * tests, which compile this in user space, bring their own.) */
#ifndef BOUNDED_INDEX
#define BOUNDED_INDEX(i, n)                                                  \
	({                                                                   \
		__u64 index_ = (i);                                          \
		asm volatile("if %0 < %1 goto +1; %0 = 0"                    \
			     : "+r"(index_)                                   \
			     : "i"(n));                                      \
		index_;                                                      \
	})
#endif

/* Argument i as usdt.bpf.h's bpf_usdt_arg() reads it: 0 when it cannot
 * be read. */
static __always_inline long arg_value(const struct __bpf_usdt_spec *spec,
				      const struct firing_regs *regs,
				      unsigned int i)
{
	const struct __bpf_usdt_arg_spec *a;
	unsigned long val;

	if (i >= BPF_USDT_MAX_ARG_CNT)
		return 0;
	a = &spec->args[BOUNDED_INDEX(i, BPF_USDT_MAX_ARG_CNT)];
	if (a->arg_type == BPF_USDT_ARG_CONST) {
		val = a->val_off;
	} else {
		if (register_at(regs, (unsigned short)a->reg_off, &val) != 0)
			return 0;
		if (a->arg_type == BPF_USDT_ARG_REG_DEREF) {
			if (bpf_probe_read_user(&val, sizeof(val),
						(const void *)(val +
							       a->val_off)))
				return 0;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
			val >>= a->arg_bitshift;
#endif
		} else if (a->arg_type != BPF_USDT_ARG_REG) {
			return 0;
		}
	}
	/* 1, 2 or 4 bytes widened to 8, by the argument's sign. */
	val <<= a->arg_bitshift;
	if (a->arg_signed)
		return (long)val >> a->arg_bitshift;
	return (long)(val >> a->arg_bitshift);
}

/* Where member expression sh (trace_abi.h) leads from its argument's
 * value base: the pointers on its way followed, into *addr; 0, or not
 * when one could not be read. */
static __always_inline long member_address(__u64 base,
					   const struct trace_show *sh,
					   __u64 *addr)
{
	unsigned int j;
	long rc = 0;

	*addr = base + sh->offset[0];
	for (j = 1; j < TRACE_MAX_STEPS && j < sh->nsteps && !rc; j++) {
		rc = bpf_probe_read_user(addr, sizeof(*addr),
					 (const void *)*addr);
		*addr += sh->offset[j];
	}
	return rc;
}

/* The bytes member expression sh reads as a number: its size, 1 to 8,
 * or a string member's pointer. */
static __always_inline __u32 member_size(const struct trace_show *sh)
{
	return sh->kind == ARG_STRING ? 8
	       : sh->size < 1		     ? 1
	       : sh->size > 8		     ? 8
					     : sh->size;
}

/* The number member expression sh holds at the firing, from its
 * argument's value base, into *v (zero-extended): 0, or not when it
 * could not be read (a --pair's match, a --where's operand). */
static __always_inline long member_value(__u64 base,
					 const struct trace_show *sh, __u64 *v)
{
	__u64 addr;

	*v = 0;
	if (member_address(base, sh, &addr))
		return -1;
	return bpf_probe_read_user(v, member_size(sh), (const void *)addr);
}
