/*
 * src/compiler/header/sdt_site.h - what the default header adds after the sites
 * (self_site.h, probegen's own, whose notes are the ones sys/sdt.h
 * writes for the same calls: tests/t_header.sh compares them with
 * sys/sdt.h's own macros on every Debian cross target): sys/sdt.h
 * itself, as SystemTap's header includes it, for a program that uses its
 * macros too.  Its STAP_SDT_ARG_CONSTRAINT and operand templates are left
 * as they are: the program's own STAP_PROBE sites are recorded exactly
 * as without this header.  Copied in after self_site.h.
 */
#ifndef PROBEGEN_SDT_1
#define PROBEGEN_SDT_1
#if defined(PROBEGEN_ELF)
#include <sys/sdt.h>
#endif
#endif
