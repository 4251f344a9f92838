/*
 * src/compiler/header/self_site.h - the probe sites of every header: the
 * version-3 .note.stapsdt entry, .stapsdt.base and the argument specs
 * written here, with no sys/sdt.h.  The notes equal those sys/sdt.h's
 * own macros write for the same calls (tests/t_header.sh compares them
 * on every Debian cross target): the same operand template per
 * architecture, the same size, sign and float marker.  The operand
 * constraint is chosen here, for these sites only: a program's own
 * STAP_PROBE sites keep sys/sdt.h's.  Copied in after common.h;
 * compiled on its own by the tests.
 */
#ifndef PROBEGEN_SITE_1
#define PROBEGEN_SITE_1
#if defined(PROBEGEN_ELF)

#define PROBEGEN_STR_(x) #x
#define PROBEGEN_STR(x) PROBEGEN_STR_(x)

#if defined(__LP64__)
#define PROBEGEN_ADDR ".8byte "
#else
#define PROBEGEN_ADDR ".4byte "
#endif
#if defined(__s390__) || defined(__s390x__)
#define PROBEGEN_NOP "nop 0"
#else
#define PROBEGEN_NOP "nop"
#endif

/* Where the compiler may put an argument, and how the note names it. */
#if defined(STAP_SDT_ARG_CONSTRAINT)
#define PROBEGEN_WHERE PROBEGEN_STR(STAP_SDT_ARG_CONSTRAINT)
#elif defined(__x86_64__)
#define PROBEGEN_WHERE "nr" /* libbpf cannot read RIP-relative operands */
#define PROBEGEN_BY_ADDRESS 1
#elif defined(__powerpc__) || defined(__powerpc64__)
#define PROBEGEN_WHERE "nZr"
#elif defined(__arm__)
#define PROBEGEN_WHERE "g"
#else
#define PROBEGEN_WHERE "nor"
#endif
#if defined(__x86_64__)
#define PROBEGEN_OPERAND(i) "%q[a" #i "]" /* whole registers for gdb */
#elif defined(__i386__)
#define PROBEGEN_OPERAND(i) "%k[a" #i "]"
#elif defined(__powerpc__) || defined(__powerpc64__)
#define PROBEGEN_OPERAND(i) "%I[a" #i "]%[a" #i "]"
#else
#define PROBEGEN_OPERAND(i) "%[a" #i "]"
#endif

/* An argument's spec, as one constant:
   size * 8 + by address * 4 + signed * 2 + float.
   Arrays and pointers are pointer-sized and unsigned; signedness comes
   from the type (a template in C++, which has no __builtin_choose_expr). */
#define PROBEGEN_CLASS(x) __builtin_classify_type(x)
#define PROBEGEN_POINTERISH(x) (PROBEGEN_CLASS(x) == 14 || PROBEGEN_CLASS(x) == 5)
#ifdef __cplusplus
template <class T> struct probegen_signed { static const bool value = false; };
template <class T> struct probegen_signed<const T> : probegen_signed<T> {};
template <class T> struct probegen_signed<volatile T> : probegen_signed<T> {};
template <class T> struct probegen_signed<const volatile T> : probegen_signed<T> {};
template <> struct probegen_signed<char> { static const bool value = (char)-1 < 1; };
template <> struct probegen_signed<wchar_t> { static const bool value = (wchar_t)-1 < 1; };
template <> struct probegen_signed<signed char> { static const bool value = true; };
template <> struct probegen_signed<short> { static const bool value = true; };
template <> struct probegen_signed<int> { static const bool value = true; };
template <> struct probegen_signed<long> { static const bool value = true; };
template <> struct probegen_signed<long long> { static const bool value = true; };
#define PROBEGEN_SIGNED(x) probegen_signed<__typeof__(x)>::value
#define PROBEGEN_OBJECT(x) (__is_class(__typeof__(x)) || __is_union(__typeof__(x)))
#else
#define PROBEGEN_INTTYPE(x) __typeof__(__builtin_choose_expr( \
	((PROBEGEN_CLASS(x) + 3) & -4) == 4, (x), 0U))
#define PROBEGEN_SIGNED(x) ((PROBEGEN_INTTYPE(x))-1 < 1)
#define PROBEGEN_OBJECT(x) ((PROBEGEN_CLASS(x) | 1) == 13) /* 12 struct, 13 union */
#endif
#if defined(PROBEGEN_BY_ADDRESS)
#define PROBEGEN_ADDRESSED(x) PROBEGEN_OBJECT(x)
#else
#define PROBEGEN_ADDRESSED(x) 0
#endif
#define PROBEGEN_SPEC(x) \
	((PROBEGEN_POINTERISH(x) ? (int)sizeof(void *) : (int)sizeof(x)) * 8 + \
	 (PROBEGEN_ADDRESSED(x) ? 4 : 0) + \
	 (!PROBEGEN_POINTERISH(x) && PROBEGEN_SIGNED(x) ? 2 : 0) + \
	 (PROBEGEN_CLASS(x) == 8))

/* An argument's value as the operand takes it.  A struct, union or
   class cannot live in a register: where the operand must be one
   (x86-64), it passes its address and the note says "(%reg)", memory
   as SystemTap's notes have it.  x is evaluated once, and its bytes are
   in memory when the site runs: the site's asm does not say it reads
   them, so C copies the object (an rvalue has no address) into a
   volatile compound literal, whose type is an empty stand-in for
   anything else, and C++ takes the address with an operator that exists
   only for class and union types and reads the object in an empty asm
   first.  This costs bench/compile.sh's unit (three sites) 2% to 6% more
   instructions to compile. */
#if !defined(PROBEGEN_BY_ADDRESS)
#define PROBEGEN_VALUE(x) (x)
#elif defined(__cplusplus)
struct probegen_arg {};
template <bool> struct probegen_if {};
template <> struct probegen_if<true> { typedef void const *type; };
template <class T> struct probegen_object_of : probegen_if<__is_class(T) || __is_union(T)> {};
template <class T> inline __attribute__((__always_inline__)) typename probegen_object_of<T>::type
operator,(probegen_arg, const T &x)
{
	__asm__ __volatile__("" : : "m"(x));
	return __builtin_addressof(x);
}
#define PROBEGEN_VALUE(x) (probegen_arg(), x)
#else
__extension__ struct probegen_not_object { char c[0]; };
#define PROBEGEN_OBJECT_OR_NOT(x) \
	__builtin_choose_expr(PROBEGEN_OBJECT(x), (x), (struct probegen_not_object){})
#define PROBEGEN_VALUE(x) __builtin_choose_expr(PROBEGEN_OBJECT(x), \
	(void const *)(__extension__(volatile __typeof__(PROBEGEN_OBJECT_OR_NOT(x))[1]) \
		{ PROBEGEN_OBJECT_OR_NOT(x) }), (x))
#endif

/* The operands of argument i: its spec (printed negated by %n, so
   stored negated) and its value. */
#define PROBEGEN_IN(i, x) \
	[s##i] "n"(-PROBEGEN_SPEC(x)), [a##i] PROBEGEN_WHERE(PROBEGEN_VALUE(x))

/* The assembler turns a spec into "-4", "8" or "8f" and "@". */
#define PROBEGEN_SPEC_MACROS \
	".macro probegen_text s\n.ascii \"\\s\"\n.endm\n" \
	".macro probegen_spec e\n" \
	".if (\\e) & 2\n.ascii \"-\"\n.endif\n" \
	".altmacro\nprobegen_text %%((\\e) >> 3)\n.noaltmacro\n" \
	".if (\\e) & 1\n.ascii \"f\"\n.endif\n" \
	".ascii \"@\"\n.endm\n" \
	".macro probegen_operand e, op\n.if (\\e) & 4\n.ascii \"(\\op)\"\n" \
	".else\n.ascii \"\\op\"\n.endif\n.endm\n"
/* GCC's inliner weighs an asm statement by its lines: the empty lines
   here, two a site with arguments and two an argument (27 a site with
   none), make a site weigh what sys/sdt.h's does, so that GCC inlines a
   function as it would with SystemTap's header and a build gets the same
   sites (Ruby's string.o: 6 string__create sites without them, 5 with
   them and with SystemTap's). */
#define PROBEGEN_WEIGHT2 "\n\n"
#define PROBEGEN_WEIGHT27 "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
#define PROBEGEN_SPEC_PURGE \
	".purgem probegen_spec\n.purgem probegen_text\n.purgem probegen_operand\n" \
	PROBEGEN_WEIGHT2
#if defined(PROBEGEN_BY_ADDRESS)
/* The operand is a register or a constant (no comma for the macro to
   split at); an object's, holding its address, is read as memory. */
#define PROBEGEN_ARG(i) \
	"probegen_spec %n[s" #i "]\nprobegen_operand %n[s" #i "], " PROBEGEN_OPERAND(i) "\n" \
	PROBEGEN_WEIGHT2
#else
#define PROBEGEN_ARG(i) \
	"probegen_spec %n[s" #i "]\n.ascii \"" PROBEGEN_OPERAND(i) "\"\n" PROBEGEN_WEIGHT2
#endif
#define PROBEGEN_ARGS1 PROBEGEN_ARG(1)
#define PROBEGEN_ARGS2 PROBEGEN_ARGS1 ".ascii \" \"\n" PROBEGEN_ARG(2)
#define PROBEGEN_ARGS3 PROBEGEN_ARGS2 ".ascii \" \"\n" PROBEGEN_ARG(3)
#define PROBEGEN_ARGS4 PROBEGEN_ARGS3 ".ascii \" \"\n" PROBEGEN_ARG(4)
#define PROBEGEN_ARGS5 PROBEGEN_ARGS4 ".ascii \" \"\n" PROBEGEN_ARG(5)
#define PROBEGEN_ARGS6 PROBEGEN_ARGS5 ".ascii \" \"\n" PROBEGEN_ARG(6)
#define PROBEGEN_ARGS7 PROBEGEN_ARGS6 ".ascii \" \"\n" PROBEGEN_ARG(7)
#define PROBEGEN_ARGS8 PROBEGEN_ARGS7 ".ascii \" \"\n" PROBEGEN_ARG(8)
#define PROBEGEN_ARGS9 PROBEGEN_ARGS8 ".ascii \" \"\n" PROBEGEN_ARG(9)
#define PROBEGEN_ARGS10 PROBEGEN_ARGS9 ".ascii \" \"\n" PROBEGEN_ARG(10)
#define PROBEGEN_ARGS11 PROBEGEN_ARGS10 ".ascii \" \"\n" PROBEGEN_ARG(11)
#define PROBEGEN_ARGS12 PROBEGEN_ARGS11 ".ascii \" \"\n" PROBEGEN_ARG(12)

#ifdef _SDT_HAS_SEMAPHORES
#define PROBEGEN_NOTE_SEMAPHORE(p, n) \
	PROBEGEN_ADDR PROBEGEN_STR(p##_##n##_semaphore) "\n"
/* The semaphore is referenced from C too, so a static link keeps it. */
#define PROBEGEN_SEMAPHORE_USE(p, n) \
	__asm__ __volatile__("" : : "m"(p##_##n##_semaphore));
#else
#define PROBEGEN_NOTE_SEMAPHORE(p, n) PROBEGEN_ADDR "0\n"
#define PROBEGEN_SEMAPHORE_USE(p, n)
#endif

/* One note: pc, base, semaphore, provider, name, argument specs. */
#define PROBEGEN_NOTE(p, n, args) \
	"990: " PROBEGEN_NOP "\n" \
	".pushsection .note.stapsdt, \"?\", \"note\"\n" \
	".balign 4\n" \
	".4byte 992f-991f, 994f-993f, 3\n" \
	"991: .asciz \"stapsdt\"\n" \
	"992: .balign 4\n" \
	"993: " PROBEGEN_ADDR "990b\n" \
	PROBEGEN_ADDR "_.stapsdt.base\n" \
	PROBEGEN_NOTE_SEMAPHORE(p, n) \
	".asciz \"" #p "\"\n" \
	".asciz \"" #n "\"\n" \
	args ".ascii \"\\0\"\n" \
	"994: .balign 4\n" \
	".popsection\n" \
	PROBEGEN_STAPSDT_BASE("aG")

/* The note is one string, longer than C90's 509 characters. */
#if defined(__clang__)
#define PROBEGEN_LONG_BEGIN _Pragma("clang diagnostic push") \
	_Pragma("clang diagnostic ignored \"-Woverlength-strings\"")
#define PROBEGEN_LONG_END _Pragma("clang diagnostic pop")
#else
#define PROBEGEN_LONG_BEGIN
#define PROBEGEN_LONG_END
#endif

/* The start of a site's asm statement; each PROBEGEN_SITEn adds its
   operands and the closing parenthesis. */
#define PROBEGEN_ASM(p, n, args) \
	__asm__ __volatile__(PROBEGEN_NOTE(p, n, PROBEGEN_SPEC_MACROS args \
		PROBEGEN_SPEC_PURGE) : :

#define PROBEGEN_SITE0(p, n) \
	do { PROBEGEN_LONG_BEGIN PROBEGEN_SEMAPHORE_USE(p, n) \
		__asm__ __volatile__(PROBEGEN_NOTE(p, n, "") PROBEGEN_WEIGHT27 : :); \
		PROBEGEN_LONG_END } while (0)
#define PROBEGEN_SITE1(p, n, a1) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LONG_BEGIN PROBEGEN_SEMAPHORE_USE(p, n) PROBEGEN_ASM(p, n, PROBEGEN_ARGS1) \
		PROBEGEN_IN(1, a1)); PROBEGEN_LONG_END } while (0)
#define PROBEGEN_SITE2(p, n, a1, a2) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LONG_BEGIN PROBEGEN_SEMAPHORE_USE(p, n) PROBEGEN_ASM(p, n, PROBEGEN_ARGS2) \
		PROBEGEN_IN(1, a1), PROBEGEN_IN(2, a2)); PROBEGEN_LONG_END } while (0)
#define PROBEGEN_SITE3(p, n, a1, a2, a3) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LONG_BEGIN PROBEGEN_SEMAPHORE_USE(p, n) PROBEGEN_ASM(p, n, PROBEGEN_ARGS3) \
		PROBEGEN_IN(1, a1), PROBEGEN_IN(2, a2), PROBEGEN_IN(3, a3)); PROBEGEN_LONG_END } while (0)
#define PROBEGEN_SITE4(p, n, a1, a2, a3, a4) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LONG_BEGIN PROBEGEN_SEMAPHORE_USE(p, n) PROBEGEN_ASM(p, n, PROBEGEN_ARGS4) \
		PROBEGEN_IN(1, a1), PROBEGEN_IN(2, a2), PROBEGEN_IN(3, a3), PROBEGEN_IN(4, a4)); PROBEGEN_LONG_END } while (0)
#define PROBEGEN_SITE5(p, n, a1, a2, a3, a4, a5) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LITERAL(p, n, a5); PROBEGEN_LONG_BEGIN PROBEGEN_SEMAPHORE_USE(p, n) PROBEGEN_ASM(p, n, PROBEGEN_ARGS5) \
		PROBEGEN_IN(1, a1), PROBEGEN_IN(2, a2), PROBEGEN_IN(3, a3), PROBEGEN_IN(4, a4), PROBEGEN_IN(5, a5)); PROBEGEN_LONG_END } while (0)
#define PROBEGEN_SITE6(p, n, a1, a2, a3, a4, a5, a6) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LITERAL(p, n, a5); PROBEGEN_LITERAL(p, n, a6); PROBEGEN_LONG_BEGIN PROBEGEN_SEMAPHORE_USE(p, n) PROBEGEN_ASM(p, n, PROBEGEN_ARGS6) \
		PROBEGEN_IN(1, a1), PROBEGEN_IN(2, a2), PROBEGEN_IN(3, a3), PROBEGEN_IN(4, a4), PROBEGEN_IN(5, a5), PROBEGEN_IN(6, a6)); PROBEGEN_LONG_END } while (0)
#define PROBEGEN_SITE7(p, n, a1, a2, a3, a4, a5, a6, a7) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LITERAL(p, n, a5); PROBEGEN_LITERAL(p, n, a6); PROBEGEN_LITERAL(p, n, a7); PROBEGEN_LONG_BEGIN PROBEGEN_SEMAPHORE_USE(p, n) PROBEGEN_ASM(p, n, PROBEGEN_ARGS7) \
		PROBEGEN_IN(1, a1), PROBEGEN_IN(2, a2), PROBEGEN_IN(3, a3), PROBEGEN_IN(4, a4), PROBEGEN_IN(5, a5), PROBEGEN_IN(6, a6), PROBEGEN_IN(7, a7)); PROBEGEN_LONG_END } while (0)
#define PROBEGEN_SITE8(p, n, a1, a2, a3, a4, a5, a6, a7, a8) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LITERAL(p, n, a5); PROBEGEN_LITERAL(p, n, a6); PROBEGEN_LITERAL(p, n, a7); PROBEGEN_LITERAL(p, n, a8); PROBEGEN_LONG_BEGIN PROBEGEN_SEMAPHORE_USE(p, n) PROBEGEN_ASM(p, n, PROBEGEN_ARGS8) \
		PROBEGEN_IN(1, a1), PROBEGEN_IN(2, a2), PROBEGEN_IN(3, a3), PROBEGEN_IN(4, a4), PROBEGEN_IN(5, a5), PROBEGEN_IN(6, a6), PROBEGEN_IN(7, a7), PROBEGEN_IN(8, a8)); PROBEGEN_LONG_END } while (0)
#define PROBEGEN_SITE9(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LITERAL(p, n, a5); PROBEGEN_LITERAL(p, n, a6); PROBEGEN_LITERAL(p, n, a7); PROBEGEN_LITERAL(p, n, a8); PROBEGEN_LITERAL(p, n, a9); PROBEGEN_LONG_BEGIN PROBEGEN_SEMAPHORE_USE(p, n) PROBEGEN_ASM(p, n, PROBEGEN_ARGS9) \
		PROBEGEN_IN(1, a1), PROBEGEN_IN(2, a2), PROBEGEN_IN(3, a3), PROBEGEN_IN(4, a4), PROBEGEN_IN(5, a5), PROBEGEN_IN(6, a6), PROBEGEN_IN(7, a7), PROBEGEN_IN(8, a8), PROBEGEN_IN(9, a9)); PROBEGEN_LONG_END } while (0)
#define PROBEGEN_SITE10(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LITERAL(p, n, a5); PROBEGEN_LITERAL(p, n, a6); PROBEGEN_LITERAL(p, n, a7); PROBEGEN_LITERAL(p, n, a8); PROBEGEN_LITERAL(p, n, a9); PROBEGEN_LITERAL(p, n, a10); PROBEGEN_LONG_BEGIN PROBEGEN_SEMAPHORE_USE(p, n) PROBEGEN_ASM(p, n, PROBEGEN_ARGS10) \
		PROBEGEN_IN(1, a1), PROBEGEN_IN(2, a2), PROBEGEN_IN(3, a3), PROBEGEN_IN(4, a4), PROBEGEN_IN(5, a5), PROBEGEN_IN(6, a6), PROBEGEN_IN(7, a7), PROBEGEN_IN(8, a8), PROBEGEN_IN(9, a9), PROBEGEN_IN(10, a10)); PROBEGEN_LONG_END } while (0)
#define PROBEGEN_SITE11(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LITERAL(p, n, a5); PROBEGEN_LITERAL(p, n, a6); PROBEGEN_LITERAL(p, n, a7); PROBEGEN_LITERAL(p, n, a8); PROBEGEN_LITERAL(p, n, a9); PROBEGEN_LITERAL(p, n, a10); PROBEGEN_LITERAL(p, n, a11); PROBEGEN_LONG_BEGIN PROBEGEN_SEMAPHORE_USE(p, n) PROBEGEN_ASM(p, n, PROBEGEN_ARGS11) \
		PROBEGEN_IN(1, a1), PROBEGEN_IN(2, a2), PROBEGEN_IN(3, a3), PROBEGEN_IN(4, a4), PROBEGEN_IN(5, a5), PROBEGEN_IN(6, a6), PROBEGEN_IN(7, a7), PROBEGEN_IN(8, a8), PROBEGEN_IN(9, a9), PROBEGEN_IN(10, a10), PROBEGEN_IN(11, a11)); PROBEGEN_LONG_END } while (0)
#define PROBEGEN_SITE12(p, n, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
	do { PROBEGEN_LITERAL(p, n, a1); PROBEGEN_LITERAL(p, n, a2); PROBEGEN_LITERAL(p, n, a3); PROBEGEN_LITERAL(p, n, a4); PROBEGEN_LITERAL(p, n, a5); PROBEGEN_LITERAL(p, n, a6); PROBEGEN_LITERAL(p, n, a7); PROBEGEN_LITERAL(p, n, a8); PROBEGEN_LITERAL(p, n, a9); PROBEGEN_LITERAL(p, n, a10); PROBEGEN_LITERAL(p, n, a11); PROBEGEN_LITERAL(p, n, a12); PROBEGEN_LONG_BEGIN PROBEGEN_SEMAPHORE_USE(p, n) PROBEGEN_ASM(p, n, PROBEGEN_ARGS12) \
		PROBEGEN_IN(1, a1), PROBEGEN_IN(2, a2), PROBEGEN_IN(3, a3), PROBEGEN_IN(4, a4), PROBEGEN_IN(5, a5), PROBEGEN_IN(6, a6), PROBEGEN_IN(7, a7), PROBEGEN_IN(8, a8), PROBEGEN_IN(9, a9), PROBEGEN_IN(10, a10), PROBEGEN_IN(11, a11), PROBEGEN_IN(12, a12)); PROBEGEN_LONG_END } while (0)

#endif /* PROBEGEN_ELF */
#endif /* PROBEGEN_SITE_1 */
