/*
 * src/compiler/header/stapsdt_base.h - the one text of _.stapsdt.base, the
 * symbol every probe note records (gdb ignores every probe of a binary
 * without it): a weak hidden byte in the COMDAT section .stapsdt.base,
 * defined once per object (.ifndef).  Copied first into every header
 * (common.h and self_site.h use it) and included by emit_rust.c, which
 * writes it as the Rust module's asm lines.  Compiled on its own by the
 * tests.
 */
#ifndef PROBEGEN_STAPSDT_BASE_1
#define PROBEGEN_STAPSDT_BASE_1

/* flags: "aG", or "aGR" to keep it under --gc-sections (SHF_GNU_RETAIN:
   binutils 2.36, LLVM 13). */
#define PROBEGEN_STAPSDT_BASE(flags) \
	".ifndef _.stapsdt.base\n" \
	".pushsection .stapsdt.base, \"" flags "\", \"progbits\", .stapsdt.base, comdat\n" \
	".weak _.stapsdt.base\n" \
	".hidden _.stapsdt.base\n" \
	"_.stapsdt.base: .space 1\n" \
	".size _.stapsdt.base, 1\n" \
	".popsection\n" \
	".endif\n"

#endif /* PROBEGEN_STAPSDT_BASE_1 */
