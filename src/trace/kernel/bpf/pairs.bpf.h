/*
 * src/trace/kernel/bpf/pairs.bpf.h - part of trace.bpf.c (included once, after
 * args.bpf.h): the pairs timed in the kernel, nested per thread or
 * matched by an argument's value, into per-CPU latency histograms
 * (trace_abi.h's trace_pair_stats, which tally.c reads).
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, TRACE_MAX_PAIRS);
	__type(key, __u32);
	__type(value, struct trace_pair_stats);
} pair_stats SEC(".maps");

/* Per thread and pair, the open starts' times, a stack (recursion and
 * nesting come right): one lookup a firing.  Deeper than TRACE_MAX_NEST, a
 * start is counted but not timed. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, struct trace_nest_key);
	__type(value, struct trace_nest);
} nests SEC(".maps");

/* The zeroed stack a thread's first start of a pair copies. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct trace_nest);
} empty_nest SEC(".maps");

/* Starts of pairs matched by an argument's value, across threads. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, struct trace_value_key);
	__type(value, __u64);
} opened_by_value SEC(".maps");

static __always_inline void record(__u32 pair, __u64 ns)
{
	struct trace_pair_stats *st = bpf_map_lookup_elem(&pair_stats, &pair);

	if (st)
		trace_pair_record(st, ns);
}

static __always_inline void unmatched(__u32 pair)
{
	struct trace_pair_stats *st = bpf_map_lookup_elem(&pair_stats, &pair);

	if (st)
		st->unmatched++;
}

/* The key of a pair matched by the value of argument match_arg, or,
 * from TRACE_MAX_ARGS on, of one of info's shows (a --pair's member
 * expression, "conn->id"): 0, or not when the member could not be
 * read. */
static __always_inline long value_key_of(const struct __bpf_usdt_spec *spec,
					 const struct firing_regs *regs,
					 const struct trace_probe_info *info,
					 __u32 pair, int match_arg,
					 struct trace_value_key *k)
{
	const struct trace_show *sh;
	unsigned int show = (unsigned int)match_arg - TRACE_MAX_ARGS;

	k->pair = pair;
	k->pad = 0;
	k->value = 0;
	if (match_arg < TRACE_MAX_ARGS) {
		k->value = arg_value(spec, regs, (unsigned int)match_arg);
		return 0;
	}
	if (show >= TRACE_MAX_SHOWS)
		return -1;
	sh = &info->shows[show];
	return member_value(arg_value(spec, regs, sh->arg), sh, &k->value);
}

/* A time's lowest bit says whether its firing passed its probe's
 * --where filter (trace.bpf.c sets it): a call is timed when its start
 * and its end both did.  Every firing is matched all the same, so that
 * a rejected end still closes its start and nesting stays right. */

/* pair_end() and pair_start() are global functions, not inlined: the
 * kernel checks each once, not once for every role of every argument's
 * path (the program took 77 ms to verify inlined, 8 ms so; a call costs
 * a few nanoseconds).  Their pointers may be NULL, the kernel says: they
 * are checked. */

/* The end of a pair, at time now: timed against its start. */
__noinline int pair_end(const struct __bpf_usdt_spec *spec,
			const struct firing_regs *regs,
			struct trace_probe_info *info, unsigned int r,
			__u64 now)
{
	const struct trace_role *role;
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u32 pair;
	int match_arg;

	if (!spec || !regs || !info || r >= TRACE_MAX_ROLES)
		return 0;
	role = &info->ends[r];
	if (role->pair >= TRACE_MAX_PAIRS)
		return 0;
	pair = role->pair;
	match_arg = role->match_arg;
	if (match_arg >= 0) {
		struct trace_value_key k;
		__u64 *t = NULL;

		if (value_key_of(spec, regs, info, pair, match_arg, &k) == 0)
			t = bpf_map_lookup_elem(&opened_by_value, &k);
		if (t) {
			if (*t & now & 1)
				record(pair, now - *t);
			bpf_map_delete_elem(&opened_by_value, &k);
		} else {
			unmatched(pair);
		}
	} else {
		struct trace_nest_key nk = { tid, pair };
		struct trace_nest *n = bpf_map_lookup_elem(&nests, &nk);

		if (n && n->depth) {
			__u32 d = --n->depth;

			__u64 start = n->start_ns[d & (TRACE_MAX_NEST - 1)];

			if (d < TRACE_MAX_NEST && (start & now & 1))
				record(pair, now - start);
		} else {
			unmatched(pair);
		}
	}
	return 0;
}

/* The start of a pair, at time now. */
__noinline int pair_start(const struct __bpf_usdt_spec *spec,
			  const struct firing_regs *regs,
			  struct trace_probe_info *info, unsigned int r,
			  __u64 now)
{
	const struct trace_role *role;
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u32 pair;
	int match_arg;

	if (!spec || !regs || !info || r >= TRACE_MAX_ROLES)
		return 0;
	role = &info->starts[r];
	if (role->pair >= TRACE_MAX_PAIRS)
		return 0;
	pair = role->pair;
	match_arg = role->match_arg;
	if (match_arg >= 0) {
		struct trace_value_key k;

		/* A member that cannot be read opens nothing: its end is
		   counted unmatched. */
		if (value_key_of(spec, regs, info, pair, match_arg, &k) == 0)
			bpf_map_update_elem(&opened_by_value, &k, &now,
					    BPF_ANY);
	} else {
		struct trace_nest_key nk = { tid, pair };
		struct trace_nest *n = bpf_map_lookup_elem(&nests, &nk);
		__u32 zero = 0;

		if (!n) {
			struct trace_nest *e =
				bpf_map_lookup_elem(&empty_nest, &zero);

			if (e)
				bpf_map_update_elem(&nests, &nk, e,
						    BPF_NOEXIST);
			n = bpf_map_lookup_elem(&nests, &nk);
		}
		if (n) {
			if (n->depth < TRACE_MAX_NEST) {
				n->start_ns[n->depth & (TRACE_MAX_NEST - 1)] =
					now;
			} else {
				struct trace_pair_stats *st =
					bpf_map_lookup_elem(&pair_stats, &pair);

				if (st)
					st->too_deep++;
			}
			n->depth++;
		}
	}
	return 0;
}

/* Every pair probe info ends, then every pair it starts. */
static __always_inline void pair_firing(const struct __bpf_usdt_spec *spec,
					const struct firing_regs *regs,
					struct trace_probe_info *info,
					__u64 now)
{
	int r;

	for (r = 0; r < TRACE_MAX_ROLES; r++) {
		if (r >= info->nends)
			break;
		pair_end(spec, regs, info, (unsigned int)r, now);
	}
	for (r = 0; r < TRACE_MAX_ROLES; r++) {
		if (r >= info->nstarts)
			break;
		pair_start(spec, regs, info, (unsigned int)r, now);
	}
}
