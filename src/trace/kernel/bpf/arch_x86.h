/*
 * src/trace/kernel/bpf/arch_x86.h - the BPF side's facts of x86 (the Makefile
 * picks bpf/arch_$(BPF_ARCH).h, else arch_none.h): a firing's registers
 * are copied whole, struct pt_regs being small enough for the BPF
 * stack, and --stack's copy starts at the stack pointer.  target.c's
 * x86 rows name the same words for probegen's side.
 */
#define FIRING_REGS struct pt_regs
#define FIRING_SP(copy) ((copy).rsp)
