/*
 * compiler/emit.h - the emitters, one output format a file, all of one shape
 * (emit_fn).  How they spell types and name things is naming.h's.
 */
#ifndef PROBEGEN_EMIT_H
#define PROBEGEN_EMIT_H

#include "naming.h"

/* ---- emit_*.c: the output formats, one file each ---- */

/* What an emitter may need besides the checked program. */
struct emit_options {
	const char *input_name;	 /* the .d file's base name, for banners */
	const char *output_name; /* the output's path, for the include guard */
	const struct target *target;
	int header_only;    /* -h: define the semaphores in the header */
	int self_contained; /* -h: write the notes without sys/sdt.h */
	int summary;	    /* --bpftrace: counts and pair latencies */
	/* --bpftrace: the script is for these binaries (their probes
	 * only), each a shared library when for_library; from -s files
	 * alone when NULL. */
	const char *for_binaries;
	int for_library;
	/* -G: STAP_SDT_V1 or STAP_SDT_V2 among the -D flags (1 or 2), else
	 * 0.  Either gives the semaphores default visibility, so that a
	 * module's probes can use its executable's; V1 also drops the
	 * provider from their names.  As SystemTap's dtrace -G does. */
	int sdt_version;
};
/* Write prog to out.  Returns 0, or -1 after reporting why (out is then
 * aborted by the caller). */
typedef int emit_fn(struct output *out, const struct program *prog,
		    const struct emit_options *opt);
emit_fn emit_header;   /* -h: the C header */
emit_fn emit_object;   /* -G: the ELF object with the semaphores */
emit_fn emit_rust;     /* --rust: the Rust module for build.rs */
emit_fn emit_bpftrace; /* --bpftrace: a bpftrace script */
emit_fn emit_docs;     /* --docs: a Markdown reference */

/* How a bpftrace script prints argument i of pr: the printf
 * conversion into fmt ("%s"), the expression into expr (str(arg1));
 * the reason in fmt and no expression when no tracer reads it.
 * --bpftrace's script and --docs's table say the same. */
void bpftrace_arg(struct buf *fmt, struct buf *expr,
		  const struct program *prog, const struct probe *pr, int i,
		  const struct target *tg);

#endif
