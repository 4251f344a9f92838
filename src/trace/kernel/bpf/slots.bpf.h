/*
 * src/trace/kernel/bpf/slots.bpf.h - part of trace.bpf.c (included once, before
 * on_firing): a firing's arguments into its event, and its slots (a
 * slot of slot_bytes each, trace_abi.h): C strings, the bytes of
 * pointers with their lengths, socket addresses, and --show's member
 * expressions, each copied at the firing.
 */

/* Each slot's bytes (--string-bytes: TRACE_STR_LEN to TRACE_STR_MAX, a
 * multiple of 8), known to the verifier: slot n is at n * slot_bytes. */
const volatile __u32 slot_bytes = TRACE_STR_LEN;

/* off *= bytes, with bytes as the source: 6.1's verifier bounds a
 * product only then, and clang puts it either way.  (The unit tests,
 * which compile this in user space, bring their own.) */
#ifndef MULTIPLY_BY_SOURCE
#define MULTIPLY_BY_SOURCE(off, bytes)                                       \
	__asm__ __volatile__("%[off] *= %[bytes]"                            \
			     : [off] "+r"(off)                                \
			     : [bytes] "r"(bytes))
#endif

/* Slot n of e (n at most TRACE_MAX_SLOTS, the callers' bound: the
 * stack part's place).  For 6.1's verifier: masked, not compared (it
 * follows a compare's way that its bounds rule out, and refuses the
 * pointer made there), and multiplied as MULTIPLY_BY_SOURCE says. */
static __always_inline char *slot_of(struct trace_event *e, __u64 n)
{
	__u64 bytes = slot_bytes <= TRACE_STR_MAX ? slot_bytes : TRACE_STR_MAX,
	      off = n & (2 * TRACE_MAX_SLOTS - 1);

	MULTIPLY_BY_SOURCE(off, bytes);
	return e->slots + off;
}

/* A string's page may not be in memory yet: a literal in .rodata that
 * the program never read itself.  A sleepable program may fault it in
 * (bpf_copy_from_user, the first byte and the next page's, which the
 * string may reach) and read again. */
static __always_inline long read_string(char *dst, __u32 size,
					const void *src, bool sleepable)
{
	long len = bpf_probe_read_user_str(dst, size, src);
	char byte;

	if (len < 0 && sleepable && bpf_copy_from_user(&byte, 1, src) == 0) {
		bpf_copy_from_user(&byte, 1,
				   (const void *)(((__u64)src | 4095) + 1));
		len = bpf_probe_read_user_str(dst, size, src);
	}
	/* The empty string is 1 (its NUL): Linux 6.1 (Debian 12's) says 0,
	   later kernels 1. */
	if (len == 0) {
		dst[0] = 0;
		len = 1;
	}
	return len;
}

/* Whether a string read into size bytes (len, with its NUL) was cut:
 * one that fills them may be one byte shorter than they are, whole
 * (127 characters in 128); its own byte at their end says (a NUL:
 * whole).  Read only for a string that fills them. */
static __always_inline bool string_cut(const void *src, __u32 size, long len)
{
	char last = 1;

	if (len != size)
		return false;
	bpf_probe_read_user(&last, 1, (const char *)src + size - 1);
	return last != 0;
}

/* The bytes of the socket address at src, by its family (read first):
 * AF_INET's, AF_INET6's, AF_UNIX's, else the family alone; -1 when it
 * cannot be read. */
static __always_inline long sockaddr_length(const void *src)
{
	unsigned short family;

	if (bpf_probe_read_user(&family, sizeof(family), src))
		return -1;
	return trace_sockaddr_bytes(family);
}

/* How many bytes to read into argument i's slot (at most a slot): its
 * length's, or a socket address's by its family (read first); -1 when
 * the address cannot be read. */
static __always_inline long slot_length(const struct trace_event *e,
					const struct trace_probe_info *info,
					unsigned int i, const void *src)
{
	unsigned long long len;
	int l;

	if (i >= TRACE_MAX_ARGS)
		return -1;
	if (info->kind[i] == ARG_SOCKADDR)
		return sockaddr_length(src);
	l = info->length_arg[i];
	len = l >= 0 && l < TRACE_MAX_ARGS ? e->args[l] : info->length[i];
	return len > slot_bytes ? (long)slot_bytes : (long)len;
}

/* A slot's bytes: n of them (no more than a slot), faulted in where the
 * program may sleep; 0, or below 0 when unreadable. */
static __always_inline long read_bytes(char *dst, const void *src, long n,
				       bool sleepable)
{
	long rc;

	if (n <= 0)
		return n; /* nothing to read: empty, not an error */
	if (n > slot_bytes)
		n = slot_bytes;
	rc = bpf_probe_read_user(dst, (__u32)n, src);
	if (rc && sleepable)
		rc = bpf_copy_from_user(dst, (__u32)n, src);
	return rc;
}

/* The firing's nargs arguments into event e, then its slots: strings,
 * pointers with a length (which may come after them) and socket
 * addresses copied. */
static __always_inline void read_args(struct trace_event *e,
				      const struct __bpf_usdt_spec *spec,
				      const struct firing_regs *regs,
				      const struct trace_probe_info *info,
				      unsigned int nargs, bool sleepable)
{
	unsigned int n, kind;
	int i;

	for (i = 0; i < TRACE_MAX_ARGS; i++) {
		if (i >= nargs)
			break;
		e->args[i] = arg_value(spec, regs, (unsigned int)i);
	}
	for (i = 0; i < TRACE_MAX_ARGS; i++) {
		const void *src = (const void *)e->args[i];
		long len;

		if (i >= nargs)
			break;
		/* The count of slots so far is read from the record, not
		   kept in a register: the verifier then sees one unknown
		   count, not each path's own, and checks the loop in half
		   the steps. */
		n = *(volatile unsigned int *)&e->nstrings;
		kind = info->kind[i];
		if (!ARG_KIND_HAS_SLOT(kind) || n >= TRACE_MAX_SLOTS)
			continue;
		if (kind == ARG_STRING) {
			len = read_string(slot_of(e, n), slot_bytes, src, sleepable);
			if (string_cut(src, slot_bytes, len))
				e->cut_mask |= 1u << i;
		} else {
			len = slot_length(e, info, (unsigned int)i, src);
			if (len >= 0)
				len = read_bytes(slot_of(e, n), src, len,
						 sleepable);
		}
		if (len < 0) /* a page not yet faulted in, or a bad pointer */
			e->fault_mask |= 1u << i;
		e->nstrings = n + 1;
	}
}

/* A member pointer with its length in a sibling member (at addr and
 * addr + sh->length_delta) into slot dst: the length, sign-extended,
 * then the bytes it counts, at most TRACE_COUNTED_MAX (none when it is
 * not above 0); 0, or not when unreadable. */
static __always_inline long read_counted(char *dst,
					 const struct trace_show *sh,
					 __u64 addr, bool sleepable)
{
	__u32 size = sh->length_size < 1   ? 1
		     : sh->length_size > 8 ? 8
					   : sh->length_size;
	__u64 ptr, len = 0;
	long rc;

	rc = bpf_probe_read_user(&ptr, sizeof(ptr), (const void *)addr);
	if (!rc)
		rc = bpf_probe_read_user(&len, size,
					 (const void *)(addr +
							(__s64)sh->length_delta));
	if (rc)
		return rc;
	if (sh->length_signed && size < 8)
		len = (__u64)((__s64)(len << (64 - 8 * size)) >>
			      (64 - 8 * size));
	*(__u64 *)dst = len;
	if ((__s64)len <= 0)
		return 0;
	return read_bytes(dst + 8, (const void *)ptr,
			  len > TRACE_COUNTED_MAX(slot_bytes)
				  ? (long)TRACE_COUNTED_MAX(slot_bytes)
				  : (long)len,
			  sleepable);
}

/* --show: each member expression followed from its argument, at the
 * firing (an object freed after it is gone by the time probegen reads
 * the event), into the next slot. */
static __always_inline void read_shows(struct trace_event *e,
				       const struct trace_probe_info *info,
				       bool sleepable)
{
	unsigned int k, n;

	for (k = 0; k < TRACE_MAX_SHOWS; k++) {
		const struct trace_show *sh = &info->shows[k];
		__u64 addr;
		long rc = 0, len;
		char *dst;

		if (k >= info->nshows)
			break;
		if (sh->kind == ARG_FIELD)
			continue; /* found in probegen, in its argument's slot */
		n = *(volatile unsigned int *)&e->nstrings;
		/* Its argument, masked where it is used: clang may load it
		   again after the check, and the verifier bound only that. */
		if (n >= TRACE_MAX_SLOTS || sh->arg >= TRACE_MAX_ARGS)
			break;
		dst = slot_of(e, n);
		rc = member_address(e->args[sh->arg & 15], sh, &addr);
		if (!rc && (sh->kind == ARG_INTEGER || sh->kind == ARG_POINTER)) {
			*(__u64 *)dst = 0;
			rc = bpf_probe_read_user(dst, member_size(sh),
						 (const void *)addr);
		} else if (!rc && sh->kind == ARG_STRING) {
			rc = bpf_probe_read_user(&addr, sizeof(addr),
						 (const void *)addr);
			len = rc ? -1 : read_string(dst, slot_bytes, (const void *)addr,
						   sleepable);
			if (string_cut((const void *)addr, slot_bytes, len))
				e->cut_mask |= TRACE_SHOW_BIT(k);
			rc = len < 0;
		} else if (!rc && sh->length_from == LENGTH_SIBLING) {
			rc = read_counted(dst, sh, addr, sleepable);
		} else if (!rc) {
			/* A char array or a socket address: at the place. */
			len = sh->kind == ARG_SOCKADDR
				      ? sockaddr_length((const void *)addr)
				      : sh->size;
			rc = len < 0 ? -1 : read_bytes(dst, (const void *)addr, len, sleepable);
		}
		if (rc)
			e->fault_mask |= TRACE_SHOW_BIT(k);
		e->nstrings = n + 1;
	}
}
