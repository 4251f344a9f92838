/*
 * src/trace/kernel/bpf/arch_none.h - the BPF side on an architecture with no
 * bpf/arch_*.h: each register is read with a helper (arm64's are too
 * many for the BPF stack), and --stack copies no stack (the event says
 * TRACE_STACK_NO_REGS).
 */
