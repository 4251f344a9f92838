/*
 * tests/unit/bpf_user.h - the BPF side's argument reads (bpf/args.bpf.h,
 * bpf/slots.bpf.h) compiled as one source with user space, as
 * filter_eval.h is: its helpers read this process's own memory, and a
 * firing's registers are an array the test fills.  What libbpf's
 * usdt.bpf.h declares is declared here as it declares it (only the
 * names and meanings matter: the test fills specs itself).
 */
#ifndef PROBEGEN_BPF_USER_H
#define PROBEGEN_BPF_USER_H

#include <stdbool.h>
#include <string.h>
#include <linux/types.h>

#include "trace/kernel/bpf/trace_abi.h"

#ifndef __always_inline /* glibc's sys/cdefs.h has it */
#define __always_inline inline __attribute__((always_inline))
#endif

/* A read of memory this test owns, or NULL: what the kernel's helper
 * answers for an address that is not mapped.  Addresses below 4096
 * stand for unmapped pages. */
static inline long unit_read_user(void *dst, __u32 size, const void *src)
{
	if ((unsigned long)src < 4096) {
		memset(dst, 0, size);
		return -14; /* -EFAULT */
	}
	memcpy(dst, src, size);
	return 0;
}
static inline long unit_read_user_str(void *dst, __u32 size, const void *src)
{
	size_t n;

	if ((unsigned long)src < 4096 || !size)
		return -14;
	n = strnlen(src, size - 1);
	memcpy(dst, src, n);
	((char *)dst)[n] = 0;
	return (long)n + 1;
}
#define bpf_probe_read_user unit_read_user
#define bpf_probe_read_kernel unit_read_user
#define bpf_copy_from_user unit_read_user
#define bpf_probe_read_user_str unit_read_user_str

/* usdt.bpf.h's argument specs. */
enum __bpf_usdt_arg_type {
	BPF_USDT_ARG_CONST,
	BPF_USDT_ARG_REG,
	BPF_USDT_ARG_REG_DEREF,
};
struct __bpf_usdt_arg_spec {
	__u64 val_off;
	enum __bpf_usdt_arg_type arg_type;
	short reg_off;
	bool arg_signed;
	char arg_bitshift;
};
#define BPF_USDT_MAX_ARG_CNT 12
struct __bpf_usdt_spec {
	struct __bpf_usdt_arg_spec args[BPF_USDT_MAX_ARG_CNT];
	__u64 usdt_cookie;
	short arg_cnt;
};
/* spec_of's map, which the tests do not use: they pass a spec. */
struct pt_regs;
static inline int __bpf_usdt_spec_id(struct pt_regs *ctx)
{
	(void)ctx;
	return -1;
}
static int __bpf_usdt_specs;
static inline void *bpf_map_lookup_elem(void *map, const void *key)
{
	(void)map, (void)key;
	return NULL;
}

/* The BPF side's asm, for its verifier: a bound on an index (checked
 * before it anyway) and a multiply, done in C. */
#define BOUNDED_INDEX(i, n) (i)
#define MULTIPLY_BY_SOURCE(off, bytes) ((off) *= (bytes))
/* The BPF side is built without -Wsign-compare (clang's -Wall). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#include "trace/kernel/bpf/args.bpf.h"
#include "trace/kernel/bpf/slots.bpf.h"
#pragma GCC diagnostic pop

#endif
