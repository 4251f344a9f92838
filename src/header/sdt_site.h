/*
 * src/header/sdt_site.h - the probe sites of the default header:
 * sys/sdt.h's DTRACE_PROBEn, so that the notes are SystemTap's own.
 * Copied in after common.h; compiled on its own by the tests.
 */
#ifndef PROBEGEN_SITE_1
#define PROBEGEN_SITE_1
#if defined(PROBEGEN_ELF)

/* Registers and constants only on x86-64: libbpf cannot read
   RIP-relative operands, which "nor" lets the compiler pick. */
#if defined(__x86_64__) && !defined(STAP_SDT_ARG_CONSTRAINT)
#define STAP_SDT_ARG_CONSTRAINT nr
#endif
#include <sys/sdt.h>
/* gdb cannot parse byte registers such as %r9b (sourceware PR24541,
   which sys/sdt.h works around on i386 only): name the whole register;
   the note's size field still gives the argument's size. */
#if defined(__x86_64__)
#undef _SDT_ARGTMPL
#define _SDT_ARGTMPL(id) %q[id]
#endif

/* sys/sdt.h's variadic macros trip clang's -pedantic where they expand,
   under a name that changed: clang 14 says
   -Wgnu-zero-variadic-macro-arguments, clang 19 -Wc23-extensions (C)
   and -Wc++20-extensions (C++); each clang ignores the names it does
   not know. */
#if defined(__clang__)
#define PROBEGEN_QUIET_BEGIN _Pragma("clang diagnostic push") \
	_Pragma("clang diagnostic ignored \"-Wunknown-warning-option\"") \
	_Pragma("clang diagnostic ignored \"-Wgnu-zero-variadic-macro-arguments\"") \
	_Pragma("clang diagnostic ignored \"-Wc23-extensions\"") \
	_Pragma("clang diagnostic ignored \"-Wc++20-extensions\"") \
	_Pragma("clang diagnostic ignored \"-Woverlength-strings\"")
#define PROBEGEN_QUIET_END _Pragma("clang diagnostic pop")
#else
#define PROBEGEN_QUIET_BEGIN
#define PROBEGEN_QUIET_END
#endif

/* A site: sys/sdt.h's macro m applied to args only inside the quieted
   region (m args, not m(args): an argument is expanded before the
   _Pragmas take effect), after its string literals are touched
   (common.h). */
#define PROBEGEN_SDT(m, args) \
	do { PROBEGEN_QUIET_BEGIN m args; PROBEGEN_QUIET_END } while (0)
#define PROBEGEN_SITE0(p, n) PROBEGEN_SDT(DTRACE_PROBE, (p, n))
#define PROBEGEN_SITE1(p, n, a1) \
	do { PROBEGEN_LITERAL(p, n, a1); \
		PROBEGEN_SDT(DTRACE_PROBE1, (p, n, a1)); } while (0)
#define PROBEGEN_SITE2(p, n, a1, a2) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); \
		PROBEGEN_SDT(DTRACE_PROBE2, (p, n, a1, a2)); } while (0)
#define PROBEGEN_SITE3(p, n, a1, a2, a3) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); \
		PROBEGEN_SDT(DTRACE_PROBE3, (p, n, a1, a2, a3)); } while (0)
#define PROBEGEN_SITE4(p, n, a1, a2, a3, a4) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); \
		PROBEGEN_SDT(DTRACE_PROBE4, (p, n, a1, a2, a3, a4)); } while (0)
#define PROBEGEN_SITE5(p, n, a1, a2, a3, a4, a5) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LITERAL(p, n, a5); \
		PROBEGEN_SDT(DTRACE_PROBE5, (p, n, a1, a2, a3, a4, a5)); } while (0)
#define PROBEGEN_SITE6(p, n, a1, a2, a3, a4, a5, a6) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LITERAL(p, n, a5); PROBEGEN_LITERAL(p, n, a6); \
		PROBEGEN_SDT(DTRACE_PROBE6, (p, n, a1, a2, a3, a4, a5, a6)); } while (0)
#define PROBEGEN_SITE7(p, n, a1, a2, a3, a4, a5, a6, a7) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LITERAL(p, n, a5); PROBEGEN_LITERAL(p, n, a6); PROBEGEN_LITERAL(p, n, a7); \
		PROBEGEN_SDT(DTRACE_PROBE7, (p, n, a1, a2, a3, a4, a5, a6, a7)); } while (0)
#define PROBEGEN_SITE8(p, n, a1, a2, a3, a4, a5, a6, a7, a8) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LITERAL(p, n, a5); PROBEGEN_LITERAL(p, n, a6); PROBEGEN_LITERAL(p, n, a7); PROBEGEN_LITERAL(p, n, a8); \
		PROBEGEN_SDT(DTRACE_PROBE8, (p, n, a1, a2, a3, a4, a5, a6, a7, a8)); } while (0)
#define PROBEGEN_SITE9(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LITERAL(p, n, a5); PROBEGEN_LITERAL(p, n, a6); PROBEGEN_LITERAL(p, n, a7); PROBEGEN_LITERAL(p, n, a8); PROBEGEN_LITERAL(p, n, a9); \
		PROBEGEN_SDT(DTRACE_PROBE9, (p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9)); } while (0)
#define PROBEGEN_SITE10(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LITERAL(p, n, a5); PROBEGEN_LITERAL(p, n, a6); PROBEGEN_LITERAL(p, n, a7); PROBEGEN_LITERAL(p, n, a8); PROBEGEN_LITERAL(p, n, a9); PROBEGEN_LITERAL(p, n, a10); \
		PROBEGEN_SDT(DTRACE_PROBE10, (p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)); } while (0)
#define PROBEGEN_SITE11(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LITERAL(p, n, a5); PROBEGEN_LITERAL(p, n, a6); PROBEGEN_LITERAL(p, n, a7); PROBEGEN_LITERAL(p, n, a8); PROBEGEN_LITERAL(p, n, a9); PROBEGEN_LITERAL(p, n, a10); PROBEGEN_LITERAL(p, n, a11); \
		PROBEGEN_SDT(DTRACE_PROBE11, (p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)); } while (0)
#define PROBEGEN_SITE12(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LITERAL(p, n, a5); PROBEGEN_LITERAL(p, n, a6); PROBEGEN_LITERAL(p, n, a7); PROBEGEN_LITERAL(p, n, a8); PROBEGEN_LITERAL(p, n, a9); PROBEGEN_LITERAL(p, n, a10); PROBEGEN_LITERAL(p, n, a11); PROBEGEN_LITERAL(p, n, a12); \
		PROBEGEN_SDT(DTRACE_PROBE12, (p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)); } while (0)

#endif /* PROBEGEN_ELF */
#endif /* PROBEGEN_SITE_1 */
