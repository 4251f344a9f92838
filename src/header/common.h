/*
 * src/header/common.h - the fixed part of every header probegen -h
 * writes, copied in after the include guard and the _SDT_HAS_SEMAPHORES
 * lines.  It is C, compiled on its own by the tests; emit_header.c
 * embeds it at build time (Makefile: build/header_text.c).
 *
 * Every macro here is defined once per translation unit, however many
 * generated headers it includes.  Nothing here expands unless a probe
 * is fired: a header of 2,000 probes costs the compiler about what
 * SystemTap's costs.
 */
#ifndef PROBEGEN_COMMON_1
#define PROBEGEN_COMMON_1

/* Probes exist where GNU C meets ELF; elsewhere (macOS, Windows, other
   compilers) every probe compiles to nothing and _ENABLED() is 0. */
#if defined(__GNUC__) && defined(__ELF__) && !defined(PROBEGEN_NO_PROBES)
#define PROBEGEN_ELF 1
#endif

#ifdef __cplusplus
#define PROBEGEN_BOOL bool
#else
#define PROBEGEN_BOOL _Bool
#endif

/* An argument passed as it is (a struct by value has no cast). */
#define PROBEGEN_ASIS(x) (x)

/* The typed call checks its arguments against the prototype of the same
   name in an unevaluated sizeof: no code, no evaluation, and wrong arity
   or incompatible types are diagnosed as for any call.  The macro's own
   name is not expanded again inside its expansion (C99 6.10.3.4). */
#define PROBEGEN_CHECK(call) ((void)sizeof((call), 0))

#if defined(PROBEGEN_ELF)

/* One semaphore per probe in .probes, defined by the -G object (or by
   the header itself with --header-only). */
#define PROBEGEN_SEMAPHORE(s) __extension__ extern unsigned short s \
	__attribute__((unused)) __attribute__((section(".probes"))) \
	__attribute__((visibility("hidden")))
#define PROBEGEN_ENABLED(s) __builtin_expect(s, 0)

/* --header-only: the semaphore is defined where it is used, once per
   object file (.ifndef), as a weak hidden COMDAT member of .probes, so
   the linker keeps one per executable or shared object. */
#define PROBEGEN_DEFINE(s) __asm__ __volatile__(".ifndef " #s "\n" \
	".pushsection .probes, \"awG\", \"progbits\", " #s ", comdat\n" \
	".weak " #s "\n.hidden " #s "\n.type " #s ", \"object\"\n" \
	".size " #s ", 2\n.balign 2\n" #s ":\n.2byte 0\n" \
	".popsection\n.endif\n")
#define PROBEGEN_ENABLED_HERE(s) \
	(__extension__({ PROBEGEN_DEFINE(s); __builtin_expect(s, 0); }))

/* gdb ignores every probe of a binary without _.stapsdt.base, which
   gold and lld drop under --gc-sections: define it first, retained
   (SHF_GNU_RETAIN needs binutils 2.36 or LLVM 13); the sites reuse it. */
#if (defined(__clang__) && __clang_major__ >= 13) || \
    (!defined(__clang__) && __GNUC__ >= 11)
__asm__(".ifndef _.stapsdt.base\n"
	".pushsection .stapsdt.base, \"aGR\", \"progbits\", .stapsdt.base, comdat\n"
	".weak _.stapsdt.base\n"
	".hidden _.stapsdt.base\n"
	"_.stapsdt.base: .space 1\n"
	".size _.stapsdt.base, 1\n"
	".popsection\n"
	".endif");
#endif

#else /* no probes: arguments count as used, nothing is evaluated */

#define PROBEGEN_SEMAPHORE(s) extern unsigned short s
#define PROBEGEN_ENABLED(s) 0
#define PROBEGEN_DEFINE(s) ((void)0)
#define PROBEGEN_ENABLED_HERE(s) 0
#define PROBEGEN_USE(x) (void)sizeof((void)(x), 0)
#define PROBEGEN_SITE0(p, n) do { } while (0)
#define PROBEGEN_SITE1(p, n, a1) do { PROBEGEN_USE(a1); } while (0)
#define PROBEGEN_SITE2(p, n, a1, a2) \
	do { PROBEGEN_USE(a1); PROBEGEN_USE(a2); } while (0)
#define PROBEGEN_SITE3(p, n, a1, a2, a3) \
	do { PROBEGEN_SITE2(p, n, a1, a2); PROBEGEN_USE(a3); } while (0)
#define PROBEGEN_SITE4(p, n, a1, a2, a3, a4) \
	do { PROBEGEN_SITE3(p, n, a1, a2, a3); PROBEGEN_USE(a4); } while (0)
#define PROBEGEN_SITE5(p, n, a1, a2, a3, a4, a5) \
	do { PROBEGEN_SITE4(p, n, a1, a2, a3, a4); PROBEGEN_USE(a5); } while (0)
#define PROBEGEN_SITE6(p, n, a1, a2, a3, a4, a5, a6) \
	do { PROBEGEN_SITE5(p, n, a1, a2, a3, a4, a5); PROBEGEN_USE(a6); } while (0)
#define PROBEGEN_SITE7(p, n, a1, a2, a3, a4, a5, a6, a7) \
	do { PROBEGEN_SITE6(p, n, a1, a2, a3, a4, a5, a6); PROBEGEN_USE(a7); } while (0)
#define PROBEGEN_SITE8(p, n, a1, a2, a3, a4, a5, a6, a7, a8) \
	do { PROBEGEN_SITE7(p, n, a1, a2, a3, a4, a5, a6, a7); PROBEGEN_USE(a8); } while (0)
#define PROBEGEN_SITE9(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
	do { PROBEGEN_SITE8(p, n, a1, a2, a3, a4, a5, a6, a7, a8); PROBEGEN_USE(a9); } while (0)
#define PROBEGEN_SITE10(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	do { PROBEGEN_SITE9(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9); PROBEGEN_USE(a10); } while (0)
#define PROBEGEN_SITE11(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
	do { PROBEGEN_SITE10(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10); PROBEGEN_USE(a11); } while (0)
#define PROBEGEN_SITE12(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
	do { PROBEGEN_SITE11(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11); PROBEGEN_USE(a12); } while (0)

#endif /* PROBEGEN_ELF */
#endif /* PROBEGEN_COMMON_1 */
