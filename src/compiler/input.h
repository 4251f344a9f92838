/*
 * src/compiler/input.h - what the compiler reads: a provider file, as it
 * is or through the C preprocessor (input.c), and what the -D and -U
 * flags of dtrace -G mean (defines.c).  struct cpp_options is the
 * command line's (options.h).
 */
#ifndef PROBEGEN_INPUT_H
#define PROBEGEN_INPUT_H

#include <stddef.h>

struct cpp_options;

/* ---- input.c: reading the provider file, optionally through cpp ---- */

/* Read the provider file: its text (malloc'd), *len bytes followed by
 * two NULs, or NULL after saying why (cpp's failure is an input error).
 * *regular: the text is the file's, which can be read again to quote it
 * in diagnostics. */
char *input_read(const char *path, const struct cpp_options *cpp, size_t *len,
		 int *regular);

/* ---- defines.c: what the -D and -U flags of dtrace -G mean ---- */

/* The STAP_SDT version the -D/-U flags (cpp.args, in order) leave
 * defined for -G: 1, 2, or 0 for neither.  With warn, names each flag
 * SystemTap's compiler would see differently and probegen ignores. */
int defines_sdt_version(const struct cpp_options *cpp, int warn);

#endif
