/*
 * src/trace/kernel/bpf/filter.bpf.h - part of trace.bpf.c (included once, after
 * slots.bpf.h): --where's filters, interpreted at the firing before
 * anything is counted, timed or sent (trace_abi.h's struct
 * trace_filter, which trace/find/filter.c compiles): each comparison's truth
 * (integers by their size and sign; strings read as the event reads
 * them, a slot's bytes: what --trace shows), then the postfix ops over them.
 * The steps that read nothing are filter_eval.h's, which user space runs
 * too.  A value that cannot be read makes its comparison false.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, TRACE_MAX_FILTERS);
	__type(key, __u32);
	__type(value, struct trace_filter);
} filters SEC(".maps");

/* Per probe, the firings its filter rejected. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TRACE_MAX_PROBES);
	__type(key, __u32);
	__type(value, __u64);
} rejected SEC(".maps");

/* A string compared: its bytes (n of them) and the glob it is matched
 * against, copied here so that a glob's steps find both. */
struct filter_text {
	char text[TRACE_STR_MAX];
	char pattern[TRACE_PATTERN_LEN];
	char key[TRACE_FIELD_LEN]; /* fields.KEY's */
	__u32 n, m, key_len;
	/* The search for its value: here, not on the stack, where the
	   verifier would follow each phase's constant through bpf_loop's
	   steps (a million instructions) instead of one unknown. */
	struct field_find find;
};
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct filter_text);
} filter_texts SEC(".maps");

/* The operand of comparison c: an argument's value, or a show's (a
 * member: its bytes, or the pointer a string member holds): 0, or not
 * when it cannot be read. */
static __always_inline long cond_operand(const struct __bpf_usdt_spec *spec,
					 const struct firing_regs *regs,
					 const struct trace_probe_info *info,
					 const struct trace_cond *c, __u64 *v)
{
	unsigned int k = c->arg - TRACE_MAX_ARGS;
	const struct trace_show *sh;

	*v = 0;
	if (c->arg < TRACE_MAX_ARGS) {
		*v = arg_value(spec, regs, c->arg);
		return 0;
	}
	if (k >= TRACE_MAX_SHOWS)
		return -1;
	sh = &info->shows[k];
	return member_value(arg_value(spec, regs, sh->arg), sh, v);
}

/* One step of the glob's match (filter_eval.h's), for bpf_loop. */
static long glob_step(__u32 i, void *ctx)
{
	struct glob_state *g = ctx;
	__u32 zero = 0;
	struct filter_text *ft = bpf_map_lookup_elem(&filter_texts, &zero);

	(void)i;
	if (!ft)
		return 1;
	return filter_glob_step(g, ft->text, ft->n, ft->pattern, ft->m);
}

/* One byte of the search for a field's value (fields.h's), for
 * bpf_loop: the text and the key are the map's. */
static long field_step(__u32 i, void *ctx)
{
	__u32 zero = 0;
	struct filter_text *ft = bpf_map_lookup_elem(&filter_texts, &zero);

	(void)i;
	(void)ctx;
	if (!ft)
		return 1;
	return field_find_step(&ft->find, ft->text, ft->n, ft->key,
			       ft->key_len, TRACE_STR_MAX - 1);
}

/* The string operand at src (its length's bytes, or to its NUL) against
 * c's pattern: equal, or matched by the glob. */
static __always_inline int string_truth(const struct __bpf_usdt_spec *spec,
					const struct firing_regs *regs,
					const struct trace_cond *c,
					const void *src, bool sleepable)
{
	struct glob_state g = { 0, 0, GLOB_NO_STAR, 0, 0 };
	__u32 zero = 0;
	struct filter_text *ft = bpf_map_lookup_elem(&filter_texts, &zero);
	__u64 len;
	long n;

	if (!ft)
		return 0;
	if (c->length_from == LENGTH_ARG || c->length_from == LENGTH_FIXED) {
		len = c->length_from == LENGTH_ARG
			      ? arg_value(spec, regs, (unsigned int)c->length_arg & 15)
			      : c->length;
		if ((__s64)len < 0)
			return 0;
		n = len > slot_bytes ? slot_bytes : (long)len;
		if (read_bytes(ft->text, (const char *)src + c->offset, n,
			       sleepable))
			return 0;
	} else {
		n = read_string(ft->text, slot_bytes, src, sleepable);
		if (n <= 0)
			return 0;
		n--; /* its NUL */
	}
	ft->n = (__u32)n;
	if (c->field[0]) {
		/* fields.KEY: the key's value, found over the text (bpf_loop:
		   the sleepable program's alone, as for a glob). */
		if (!sleepable)
			return 0;
		__builtin_memcpy(ft->key, c->field, TRACE_FIELD_LEN);
		ft->key_len = 0;
		while (ft->key_len < TRACE_FIELD_LEN - 1 && ft->key[ft->key_len])
			ft->key_len++;
		__builtin_memset(&ft->find, 0, sizeof(ft->find));
		ft->find.key_ok = 1;
		bpf_loop(TRACE_STR_MAX + 1, field_step, NULL, 0);
		if (!ft->find.found)
			return 0;
		ft->n = ft->find.out < TRACE_STR_MAX ? ft->find.out
						     : TRACE_STR_MAX;
	}
	ft->m = filter_pattern_len(c);
	if (c->op == TRACE_MATCH) {
		/* bpf_loop: Linux 5.17, where sleepable uprobe programs are
		   (6.0); the plain program matches no glob (filter.c says
		   so before the trace). */
		if (!sleepable)
			return 0;
		__builtin_memcpy(ft->pattern, c->pattern, TRACE_PATTERN_LEN);
		bpf_loop(FILTER_GLOB_STEPS, glob_step, &g, 0);
		return g.result;
	}
	return filter_string_truth(c, ft->text, ft->n, ft->m);
}

/* The truth of comparison k of info's filter.  A global function (two:
 * the sleepable program may fault a string's page in, the plain one
 * may not), so that the kernel checks it once, not once for every
 * combination of the comparisons before it. */
static __always_inline int cond_truth(const struct __bpf_usdt_spec *spec,
				      const struct firing_regs *regs,
				      const struct trace_probe_info *info,
				      unsigned int k, bool sleepable)
{
	__u32 key = info->filter - 1;
	const struct trace_filter *f = bpf_map_lookup_elem(&filters, &key);
	const struct trace_cond *c;
	__u64 v, i = k & (TRACE_MAX_CONDS - 1); /* a power of two */

	if (!f || k >= TRACE_MAX_CONDS)
		return 0;
	/* The register bounded is the one used: not a copy. */
	barrier_var(i);
	if (i >= TRACE_MAX_CONDS)
		return 0;
	c = &f->conds[i];
	if (cond_operand(spec, regs, info, c, &v))
		return 0; /* unreadable: false */
	if (filter_compares_string(c))
		return string_truth(spec, regs, c, (const void *)v, sleepable);
	return filter_integer_truth(c, v);
}

__noinline int cond_truth_sleepable(const struct __bpf_usdt_spec *spec,
				    const struct firing_regs *regs,
				    const struct trace_probe_info *info,
				    unsigned int k)
{
	if (!spec || !regs || !info)
		return 0;
	return cond_truth(spec, regs, info, k, true);
}

__noinline int cond_truth_plain(const struct __bpf_usdt_spec *spec,
				const struct firing_regs *regs,
				const struct trace_probe_info *info,
				unsigned int k)
{
	if (!spec || !regs || !info)
		return 0;
	return cond_truth(spec, regs, info, k, false);
}

/* Does this firing pass probe info's filter?  Comparisons first, each a
 * bit; then the ops, on a stack of bits. */
static __always_inline int filter_passes(const struct __bpf_usdt_spec *spec,
					 const struct firing_regs *regs,
					 const struct trace_probe_info *info,
					 bool sleepable)
{
	__u32 key = info->filter - 1, truths = 0, k;
	const struct trace_filter *f = bpf_map_lookup_elem(&filters, &key);
	int t;

	if (!f)
		return 1;
	for (k = 0; k < TRACE_MAX_CONDS && k < f->nconds; k++) {
		t = sleepable ? cond_truth_sleepable(spec, regs, info, k)
			      : cond_truth_plain(spec, regs, info, k);
		truths |= (__u32)(t != 0) << k;
	}
	return filter_combine(f, truths);
}
