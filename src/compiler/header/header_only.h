/*
 * src/compiler/header/header_only.h - what a header made with --header-only adds
 * after common.h: each site defines its probe's semaphore and records
 * its declaration itself, so that no -G object is needed.  Copied in
 * only with --header-only; compiled on its own by the tests.
 */
#ifndef PROBEGEN_HEADER_ONLY_1
#define PROBEGEN_HEADER_ONLY_1
#if defined(PROBEGEN_ELF)

/* The semaphore is defined where it is used, once per object file
   (.ifndef), as a weak hidden COMDAT member of .probes, so the linker
   keeps one per executable or shared object.  Under STAP_SDT_V1 or V2 it
   is not hidden, as SystemTap's -G makes it then, and its name is
   expanded first (V1 renames it). */
#if defined(STAP_SDT_V1) || defined(STAP_SDT_V2)
#define PROBEGEN_HIDDEN(s) ""
#else
#define PROBEGEN_HIDDEN(s) ".hidden " #s "\n"
#endif

/* The semaphores' section starts a page of its own, as in -G's object:
   lld and mold let the RELRO segment's last file page also hold the
   start of the next segment, and a kernel that sets a semaphore for a
   tracer that attached before the file was mapped (--trace -c,
   bpftrace -c, a library not yet loaded) sets it in the first writable
   mapping of its page: RELRO's copy, which the program never reads.  So
   each unit that defines a semaphore also defines an empty anchor of
   the largest page size its target's kernels use (PROBEGEN_PAGE, from
   probegen's table of targets) in .probes, a COMDAT group the link keeps
   once: the section, and so its first semaphore, then starts a page.
   It costs the binary up to a page of padding.  The anchor is retained
   under --gc-sections (SHF_GNU_RETAIN: binutils 2.36, LLVM 13; older
   toolchains lose it there, and probegen --check says so). */
#if (defined(__clang__) && __clang_major__ >= 13) || \
    (!defined(__clang__) && __GNUC__ >= 11)
#define PROBEGEN_ANCHOR_FLAGS "awGR"
#else
#define PROBEGEN_ANCHOR_FLAGS "awG"
#endif
#define PROBEGEN_PAGE_ANCHOR ".ifndef _.probegen.page\n" \
	".pushsection .probes, \"" PROBEGEN_ANCHOR_FLAGS "\", \"progbits\", _.probegen.page, comdat\n" \
	".balign " PROBEGEN_NOTE_STR(PROBEGEN_PAGE) "\n.weak _.probegen.page\n" \
	".hidden _.probegen.page\n_.probegen.page:\n.popsection\n.endif\n"
#define PROBEGEN_DEFINE(p, n) PROBEGEN_DEFINE_(p##_##n##_semaphore)
#define PROBEGEN_DEFINE_(s) PROBEGEN_DEFINE_AS(s)
#define PROBEGEN_DEFINE_AS(s) __asm__ __volatile__(PROBEGEN_PAGE_ANCHOR \
	".ifndef " #s "\n" \
	".pushsection .probes, \"awG\", \"progbits\", " #s ", comdat\n" \
	".weak " #s "\n" PROBEGEN_HIDDEN(s) ".type " #s ", \"object\"\n" \
	".size " #s ", 2\n.balign 2\n" #s ":\n.2byte 0\n" \
	".popsection\n.endif\n")

/* Each site also records its probe's declaration (man probegen(1),
   DECLARATION NOTES): decl, of len bytes with its NUL. */
#define PROBEGEN_NOTE_STR_(x) #x
#define PROBEGEN_NOTE_STR(x) PROBEGEN_NOTE_STR_(x)
#define PROBEGEN_DECLARE(decl, len) __asm__ __volatile__( \
	".pushsection " PROBEGEN_NOTE_SECTION ", \"?\", \"note\"\n.balign 4\n" \
	".4byte " PROBEGEN_NOTE_STR(PROBEGEN_NOTE_NAMESZ) ", " #len ", " \
	PROBEGEN_NOTE_STR(PROBEGEN_NOTE_TYPE) "\n.asciz \"" PROBEGEN_NOTE_OWNER \
	"\"\n.balign 4\n.asciz \"" decl "\"\n.balign 4\n.popsection\n")
#define PROBEGEN_ENABLED_HERE(p, n) (__extension__({ \
	PROBEGEN_DEFINE(p, n); __builtin_expect(PROBEGEN_SEMAPHORE(p, n), 0); }))

#else /* no probes */

#define PROBEGEN_DEFINE(p, n) ((void)0)
#define PROBEGEN_DECLARE(decl, len) ((void)0)
#define PROBEGEN_ENABLED_HERE(p, n) 0

#endif /* PROBEGEN_ELF */
#endif /* PROBEGEN_HEADER_ONLY_1 */

/* A probe with @length or @enum tags records them too, in a note of
   type 2 (a header of an older probegen may have set the guard above). */
#ifndef PROBEGEN_DECLARE_TAGGED
#if defined(PROBEGEN_ELF)
#define PROBEGEN_DECLARE_TAGGED(decl, len) __asm__ __volatile__( \
	".pushsection " PROBEGEN_NOTE_SECTION ", \"?\", \"note\"\n.balign 4\n" \
	".4byte " PROBEGEN_NOTE_STR(PROBEGEN_NOTE_NAMESZ) ", " #len ", 2\n" \
	".asciz \"" PROBEGEN_NOTE_OWNER "\"\n.balign 4\n.asciz \"" decl \
	"\"\n.balign 4\n.popsection\n")
#else
#define PROBEGEN_DECLARE_TAGGED(decl, len) ((void)0)
#endif
#endif
