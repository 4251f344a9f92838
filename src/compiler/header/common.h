/*
 * src/compiler/header/common.h - the fixed part of every header probegen -h
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

/* The typed call checks its arguments against a prototype of the same
   name, declared inside its expansion, in an unevaluated sizeof: no
   code, no evaluation, and wrong arity or incompatible types are
   diagnosed as for any call.  The macro's own name is not expanded again
   inside its expansion (C99 6.10.3.4). */
#define PROBEGEN_CHECK(call) ((void)sizeof((call), 0))

/* The same for arguments that not every type can be cast to (structs by
   value, functions) or whose types hold commas: casts is the list of the
   converted arguments, touches the statements that read the string
   literals among the arguments first (PROBEGEN_T; statements, not part
   of casts: a converted literal is a pointer, and a statement
   expression, which --header-only's m_ENABLED() is, cannot be in
   sys/sdt.h's C++ templates).  A probe site is never inside a macro
   argument (m casts, not m(casts)): arguments are expanded before the
   _Pragmas that quiet sys/sdt.h take effect. */
#define PROBEGEN_TYPED(f, types, args, m, touches, casts) \
	do { __extension__ void f types; PROBEGEN_CHECK(f args); touches m casts; } while (0)
#define PROBEGEN_T(m, a) PROBEGEN_TOUCH_LITERAL(m##_ENABLED(), a);

/* The typed call of a probe of n arguments of types t1..tn.  Its arity
   is its own macro's (trace_p_n(a1, a2)), which the compiler names in
   an arity error.  Where probes exist, each argument is converted once,
   as if assigned, to a local of its declared type, so one wrong argument
   is one diagnostic (a cast at each of its uses in sys/sdt.h's expansion
   gave one a use), and fired through the SystemTap macro m, so the note
   records the declared type; elsewhere it is checked against f's
   prototype, unevaluated (PROBEGEN_TYPED_LOCALS, below).  (__extension__:
   C90 has no long long and no _Bool.) */
#define PROBEGEN_V(t, v, a) __extension__ __typeof__(t) v = (a);
#define PROBEGEN_TYPED0(f, m) PROBEGEN_TYPED(f, (void), (), m, (void)0;, ())
#define PROBEGEN_TYPED1(f, m, t1, a1) \
	PROBEGEN_TYPED_LOCALS(f, (t1), (a1), m, PROBEGEN_V(t1, probegen_a1, a1), PROBEGEN_T(m, a1), (probegen_a1))
#define PROBEGEN_TYPED2(f, m, t1, t2, a1, a2) \
	PROBEGEN_TYPED_LOCALS(f, (t1, t2), (a1, a2), m, PROBEGEN_V(t1, probegen_a1, a1) PROBEGEN_V(t2, probegen_a2, a2), PROBEGEN_T(m, a1) PROBEGEN_T(m, a2), (probegen_a1, probegen_a2))
#define PROBEGEN_TYPED3(f, m, t1, t2, t3, a1, a2, a3) \
	PROBEGEN_TYPED_LOCALS(f, (t1, t2, t3), (a1, a2, a3), m, PROBEGEN_V(t1, probegen_a1, a1) PROBEGEN_V(t2, probegen_a2, a2) PROBEGEN_V(t3, probegen_a3, a3), PROBEGEN_T(m, a1) PROBEGEN_T(m, a2) PROBEGEN_T(m, a3), (probegen_a1, probegen_a2, probegen_a3))
#define PROBEGEN_TYPED4(f, m, t1, t2, t3, t4, a1, a2, a3, a4) \
	PROBEGEN_TYPED_LOCALS(f, (t1, t2, t3, t4), (a1, a2, a3, a4), m, PROBEGEN_V(t1, probegen_a1, a1) PROBEGEN_V(t2, probegen_a2, a2) PROBEGEN_V(t3, probegen_a3, a3) PROBEGEN_V(t4, probegen_a4, a4), PROBEGEN_T(m, a1) PROBEGEN_T(m, a2) PROBEGEN_T(m, a3) PROBEGEN_T(m, a4), (probegen_a1, probegen_a2, probegen_a3, probegen_a4))
#define PROBEGEN_TYPED5(f, m, t1, t2, t3, t4, t5, a1, a2, a3, a4, a5) \
	PROBEGEN_TYPED_LOCALS(f, (t1, t2, t3, t4, t5), (a1, a2, a3, a4, a5), m, PROBEGEN_V(t1, probegen_a1, a1) PROBEGEN_V(t2, probegen_a2, a2) PROBEGEN_V(t3, probegen_a3, a3) PROBEGEN_V(t4, probegen_a4, a4) PROBEGEN_V(t5, probegen_a5, a5), PROBEGEN_T(m, a1) PROBEGEN_T(m, a2) PROBEGEN_T(m, a3) PROBEGEN_T(m, a4) PROBEGEN_T(m, a5), (probegen_a1, probegen_a2, probegen_a3, probegen_a4, probegen_a5))
#define PROBEGEN_TYPED6(f, m, t1, t2, t3, t4, t5, t6, a1, a2, a3, a4, a5, a6) \
	PROBEGEN_TYPED_LOCALS(f, (t1, t2, t3, t4, t5, t6), (a1, a2, a3, a4, a5, a6), m, PROBEGEN_V(t1, probegen_a1, a1) PROBEGEN_V(t2, probegen_a2, a2) PROBEGEN_V(t3, probegen_a3, a3) PROBEGEN_V(t4, probegen_a4, a4) PROBEGEN_V(t5, probegen_a5, a5) PROBEGEN_V(t6, probegen_a6, a6), PROBEGEN_T(m, a1) PROBEGEN_T(m, a2) PROBEGEN_T(m, a3) PROBEGEN_T(m, a4) PROBEGEN_T(m, a5) PROBEGEN_T(m, a6), (probegen_a1, probegen_a2, probegen_a3, probegen_a4, probegen_a5, probegen_a6))
#define PROBEGEN_TYPED7(f, m, t1, t2, t3, t4, t5, t6, t7, a1, a2, a3, a4, a5, a6, a7) \
	PROBEGEN_TYPED_LOCALS(f, (t1, t2, t3, t4, t5, t6, t7), (a1, a2, a3, a4, a5, a6, a7), m, PROBEGEN_V(t1, probegen_a1, a1) PROBEGEN_V(t2, probegen_a2, a2) PROBEGEN_V(t3, probegen_a3, a3) PROBEGEN_V(t4, probegen_a4, a4) PROBEGEN_V(t5, probegen_a5, a5) PROBEGEN_V(t6, probegen_a6, a6) PROBEGEN_V(t7, probegen_a7, a7), PROBEGEN_T(m, a1) PROBEGEN_T(m, a2) PROBEGEN_T(m, a3) PROBEGEN_T(m, a4) PROBEGEN_T(m, a5) PROBEGEN_T(m, a6) PROBEGEN_T(m, a7), (probegen_a1, probegen_a2, probegen_a3, probegen_a4, probegen_a5, probegen_a6, probegen_a7))
#define PROBEGEN_TYPED8(f, m, t1, t2, t3, t4, t5, t6, t7, t8, a1, a2, a3, a4, a5, a6, a7, a8) \
	PROBEGEN_TYPED_LOCALS(f, (t1, t2, t3, t4, t5, t6, t7, t8), (a1, a2, a3, a4, a5, a6, a7, a8), m, PROBEGEN_V(t1, probegen_a1, a1) PROBEGEN_V(t2, probegen_a2, a2) PROBEGEN_V(t3, probegen_a3, a3) PROBEGEN_V(t4, probegen_a4, a4) PROBEGEN_V(t5, probegen_a5, a5) PROBEGEN_V(t6, probegen_a6, a6) PROBEGEN_V(t7, probegen_a7, a7) PROBEGEN_V(t8, probegen_a8, a8), PROBEGEN_T(m, a1) PROBEGEN_T(m, a2) PROBEGEN_T(m, a3) PROBEGEN_T(m, a4) PROBEGEN_T(m, a5) PROBEGEN_T(m, a6) PROBEGEN_T(m, a7) PROBEGEN_T(m, a8), (probegen_a1, probegen_a2, probegen_a3, probegen_a4, probegen_a5, probegen_a6, probegen_a7, probegen_a8))
#define PROBEGEN_TYPED9(f, m, t1, t2, t3, t4, t5, t6, t7, t8, t9, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
	PROBEGEN_TYPED_LOCALS(f, (t1, t2, t3, t4, t5, t6, t7, t8, t9), (a1, a2, a3, a4, a5, a6, a7, a8, a9), m, PROBEGEN_V(t1, probegen_a1, a1) PROBEGEN_V(t2, probegen_a2, a2) PROBEGEN_V(t3, probegen_a3, a3) PROBEGEN_V(t4, probegen_a4, a4) PROBEGEN_V(t5, probegen_a5, a5) PROBEGEN_V(t6, probegen_a6, a6) PROBEGEN_V(t7, probegen_a7, a7) PROBEGEN_V(t8, probegen_a8, a8) PROBEGEN_V(t9, probegen_a9, a9), PROBEGEN_T(m, a1) PROBEGEN_T(m, a2) PROBEGEN_T(m, a3) PROBEGEN_T(m, a4) PROBEGEN_T(m, a5) PROBEGEN_T(m, a6) PROBEGEN_T(m, a7) PROBEGEN_T(m, a8) PROBEGEN_T(m, a9), (probegen_a1, probegen_a2, probegen_a3, probegen_a4, probegen_a5, probegen_a6, probegen_a7, probegen_a8, probegen_a9))
#define PROBEGEN_TYPED10(f, m, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	PROBEGEN_TYPED_LOCALS(f, (t1, t2, t3, t4, t5, t6, t7, t8, t9, t10), (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10), m, PROBEGEN_V(t1, probegen_a1, a1) PROBEGEN_V(t2, probegen_a2, a2) PROBEGEN_V(t3, probegen_a3, a3) PROBEGEN_V(t4, probegen_a4, a4) PROBEGEN_V(t5, probegen_a5, a5) PROBEGEN_V(t6, probegen_a6, a6) PROBEGEN_V(t7, probegen_a7, a7) PROBEGEN_V(t8, probegen_a8, a8) PROBEGEN_V(t9, probegen_a9, a9) PROBEGEN_V(t10, probegen_a10, a10), PROBEGEN_T(m, a1) PROBEGEN_T(m, a2) PROBEGEN_T(m, a3) PROBEGEN_T(m, a4) PROBEGEN_T(m, a5) PROBEGEN_T(m, a6) PROBEGEN_T(m, a7) PROBEGEN_T(m, a8) PROBEGEN_T(m, a9) PROBEGEN_T(m, a10), (probegen_a1, probegen_a2, probegen_a3, probegen_a4, probegen_a5, probegen_a6, probegen_a7, probegen_a8, probegen_a9, probegen_a10))
#define PROBEGEN_TYPED11(f, m, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
	PROBEGEN_TYPED_LOCALS(f, (t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11), (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11), m, PROBEGEN_V(t1, probegen_a1, a1) PROBEGEN_V(t2, probegen_a2, a2) PROBEGEN_V(t3, probegen_a3, a3) PROBEGEN_V(t4, probegen_a4, a4) PROBEGEN_V(t5, probegen_a5, a5) PROBEGEN_V(t6, probegen_a6, a6) PROBEGEN_V(t7, probegen_a7, a7) PROBEGEN_V(t8, probegen_a8, a8) PROBEGEN_V(t9, probegen_a9, a9) PROBEGEN_V(t10, probegen_a10, a10) PROBEGEN_V(t11, probegen_a11, a11), PROBEGEN_T(m, a1) PROBEGEN_T(m, a2) PROBEGEN_T(m, a3) PROBEGEN_T(m, a4) PROBEGEN_T(m, a5) PROBEGEN_T(m, a6) PROBEGEN_T(m, a7) PROBEGEN_T(m, a8) PROBEGEN_T(m, a9) PROBEGEN_T(m, a10) PROBEGEN_T(m, a11), (probegen_a1, probegen_a2, probegen_a3, probegen_a4, probegen_a5, probegen_a6, probegen_a7, probegen_a8, probegen_a9, probegen_a10, probegen_a11))
#define PROBEGEN_TYPED12(f, m, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
	PROBEGEN_TYPED_LOCALS(f, (t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12), (a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12), m, PROBEGEN_V(t1, probegen_a1, a1) PROBEGEN_V(t2, probegen_a2, a2) PROBEGEN_V(t3, probegen_a3, a3) PROBEGEN_V(t4, probegen_a4, a4) PROBEGEN_V(t5, probegen_a5, a5) PROBEGEN_V(t6, probegen_a6, a6) PROBEGEN_V(t7, probegen_a7, a7) PROBEGEN_V(t8, probegen_a8, a8) PROBEGEN_V(t9, probegen_a9, a9) PROBEGEN_V(t10, probegen_a10, a10) PROBEGEN_V(t11, probegen_a11, a11) PROBEGEN_V(t12, probegen_a12, a12), PROBEGEN_T(m, a1) PROBEGEN_T(m, a2) PROBEGEN_T(m, a3) PROBEGEN_T(m, a4) PROBEGEN_T(m, a5) PROBEGEN_T(m, a6) PROBEGEN_T(m, a7) PROBEGEN_T(m, a8) PROBEGEN_T(m, a9) PROBEGEN_T(m, a10) PROBEGEN_T(m, a11) PROBEGEN_T(m, a12), (probegen_a1, probegen_a2, probegen_a3, probegen_a4, probegen_a5, probegen_a6, probegen_a7, probegen_a8, probegen_a9, probegen_a10, probegen_a11, probegen_a12))

/* The typed call converts each argument to its declared type; a site
   of any form reads the bytes of its string literals (PROBEGEN_LITERAL,
   below). */
#define PROBEGEN_CAST(m, t, a) __extension__ (t)(a)

/* The lazy form: f, and so its arguments, only while m_ENABLED() (the
   probe's own, which --header-only defines at the site).  f and its
   arguments come apart and meet in the expansion (f args): see
   PROBEGEN_TYPED for why. */
#define PROBEGEN_LAZY(m, f, args) do { if (m##_ENABLED()) f args; } while (0)


#if defined(PROBEGEN_ELF)

/* The semaphores are declared plainly: the -G object (or the header
   itself with --header-only) defines them in .probes.  SystemTap's
   header also gives each declaration unused and section(".probes"),
   which change nothing for a declaration and cost a 2,000-probe unit a
   sixth of its compile time, under gcc and clang alike.  A tracer sets
   the semaphore behind the compiler's back, so it is read as volatile:
   a loop tests it at every turn (gcc hoisted a plain read out of a loop
   of lazy probes, which then fired on after gdb had left). */
#define PROBEGEN_SEMAPHORE(p, n) (*(unsigned short const volatile *)&p##_##n##_semaphore)
#define PROBEGEN_ENABLED(p, n) __builtin_expect(PROBEGEN_SEMAPHORE(p, n), 0)

/* Read a string's bytes, up to its NUL or 256 of them (more than
   bpftrace's 64 or --trace's 128), so that their pages are in memory
   when the tracer reads them. */
static __inline__ void const *probegen_touch(void const *s)
{
	char const volatile *p = (char const volatile *)s;
	int i;

	for (i = 0; p && i < 256 && p[i]; i++)
		;
	return s;
}

/* A string literal among a probe's arguments, while a tracer is
   attached (on: the semaphore is set): its bytes are read first.
   bpftrace, bcc and perf read strings without faulting pages in, and a
   literal's .rodata page may be one the program never touched, so it
   would read as empty; a string the program computed is in a page it has
   touched.  A literal is told at compile time (gcc and clang, -O0 and
   -O2, C and C++): a constant (__builtin_constant_p) that is an array of
   char.  For any other argument the test is 0 before anything runs, so
   its site costs the nop alone and the argument is evaluated once, by
   the site itself; a constant address such as (char *)0x18 (PHP passes
   one) is a pointer, never read.  A build that turns the semaphores off
   (GLib's) has none to test: nothing is read there.  The typed call
   reads its arguments' literals before converting them (PROBEGEN_T),
   which makes them pointers. */
#ifndef _SDT_HAS_SEMAPHORES
#define PROBEGEN_TOUCH_LITERAL(on, a) ((void)0)
#elif defined(__cplusplus)
template <class T> inline void probegen_touch_literal(T const &) {}
template <unsigned long N> inline void probegen_touch_literal(char const (&s)[N])
{ probegen_touch(s); }
#define PROBEGEN_TOUCH_LITERAL(on, a) \
	(__builtin_constant_p(a) && (on) ? probegen_touch_literal(a) : (void)0)
#else
/* An array of char: it becomes a char * in a conditional, and is not
   one itself. */
#define PROBEGEN_CHARS(a) __builtin_types_compatible_p(__typeof__(0 ? (a) : (a)), char *)
#define PROBEGEN_CHAR_ARRAY(a) (PROBEGEN_CHARS(a) && \
	!__builtin_types_compatible_p(__typeof__(a), char *))
#define PROBEGEN_TOUCH_LITERAL(on, a) \
	(PROBEGEN_CHAR_ARRAY(a) && __builtin_constant_p(a) && (on) ? \
	 (void)probegen_touch(__builtin_choose_expr(PROBEGEN_CHARS(a), (a), (char const *)0)) : \
	 (void)0)
#endif
#define PROBEGEN_LITERAL(p, n, a) PROBEGEN_TOUCH_LITERAL(PROBEGEN_ENABLED(p, n), a)
#define PROBEGEN_TYPED_LOCALS(f, types, args, m, locals, touches, values) \
	do { locals touches m values; } while (0)

/* gdb ignores every probe of a binary without _.stapsdt.base, which
   gold and lld drop under --gc-sections: define it first, retained
   (SHF_GNU_RETAIN needs binutils 2.36 or LLVM 13); the sites reuse it. */
#if (defined(__clang__) && __clang_major__ >= 13) || \
    (!defined(__clang__) && __GNUC__ >= 11)
__asm__(PROBEGEN_STAPSDT_BASE("aGR"));
#endif

#else /* no probes: arguments count as used, nothing is evaluated */

/* The arguments of a site go to a function that is never defined nor
   called (sizeof does not evaluate): they count as used, in one
   expression whatever their number. */
int probegen_use(int, ...);
void const *probegen_touch(void const *);
#define PROBEGEN_USE(...) (void)sizeof(probegen_use(0, __VA_ARGS__))
/* The typed call's arguments are checked, never evaluated. */
#define PROBEGEN_TYPED_LOCALS(f, types, args, m, locals, touches, values) \
	do { __extension__ void f types; PROBEGEN_CHECK(f args); } while (0)
#define PROBEGEN_TOUCH_LITERAL(on, a) ((void)0)
#define PROBEGEN_ENABLED(p, n) 0
#define PROBEGEN_SITE0(p, n) do { } while (0)
#define PROBEGEN_SITE1(p, n, ...) PROBEGEN_USE(__VA_ARGS__)
#define PROBEGEN_SITE2(p, n, ...) PROBEGEN_USE(__VA_ARGS__)
#define PROBEGEN_SITE3(p, n, ...) PROBEGEN_USE(__VA_ARGS__)
#define PROBEGEN_SITE4(p, n, ...) PROBEGEN_USE(__VA_ARGS__)
#define PROBEGEN_SITE5(p, n, ...) PROBEGEN_USE(__VA_ARGS__)
#define PROBEGEN_SITE6(p, n, ...) PROBEGEN_USE(__VA_ARGS__)
#define PROBEGEN_SITE7(p, n, ...) PROBEGEN_USE(__VA_ARGS__)
#define PROBEGEN_SITE8(p, n, ...) PROBEGEN_USE(__VA_ARGS__)
#define PROBEGEN_SITE9(p, n, ...) PROBEGEN_USE(__VA_ARGS__)
#define PROBEGEN_SITE10(p, n, ...) PROBEGEN_USE(__VA_ARGS__)
#define PROBEGEN_SITE11(p, n, ...) PROBEGEN_USE(__VA_ARGS__)
#define PROBEGEN_SITE12(p, n, ...) PROBEGEN_USE(__VA_ARGS__)

#endif /* PROBEGEN_ELF */
#endif /* PROBEGEN_COMMON_1 */
