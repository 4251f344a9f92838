/*
 * src/inspect/inspect.h - the inspector: the one reader of a binary's
 * probes (its notes, sites, semaphores and recorded declarations), the
 * one answer to how a binary's probe's arguments are read, and the
 * commands that report on binaries (--list, --check, --bpftrace BINARY).
 * Each room's part is under its name below; HACKING.md maps the tree.
 */
#ifndef PROBEGEN_INSPECT_H
#define PROBEGEN_INSPECT_H

#include "arg_read.h"
#include "probegen.h"

/* The compiler's, seen here by pointer only (compiler/model.h). */
struct program;
struct probe;

/* ---- notes.c: the probes a binary carries; binary_program.c: built
 * into a program ---- */

struct bin_site {
	struct bin_site *next;
	unsigned long long pc, semaphore; /* as recorded or relocated */
	unsigned long long base;	  /* .stapsdt.base, as recorded */
	char *args;			  /* "-4@%edi 8@%rsi" */
	char *section; /* in an object: what pc is an offset into */
};
struct bin_probe {
	struct bin_probe *next;
	char *provider, *name;	      /* verbatim: any byte but NUL */
	unsigned long long semaphore; /* the first site's; 0: none */
	char *semaphore_in; /* in an object: ".probes+0x2", or the symbol */
	struct bin_site *sites, **site_tail;
	int nsites;
	char *declaration; /* from .note.probegen, or NULL */
	/* Set by binary_program(): the probe in its program, and whether
	 * its arguments come from the recorded declaration. */
	struct probe *model;
	int args_recorded;
};
struct binary {
	const char *path;
	const char *arch; /* target name, "?" if unknown */
	int elfclass, data, machine, is_object;
	int is_library;	   /* a shared object with no interpreter */
	char *interpreter; /* a program's loader (PT_INTERP), or NULL */
	unsigned long long dev, ino; /* the file read, whatever its path */
	int has_base, has_probes_section;
	unsigned long long base_addr; /* .stapsdt.base's address */
	unsigned long long probes_addr, probes_size;
	/* The loadable segments, to find where an address is in the file
	 * (what a uprobe is attached by). */
	struct bin_segment {
		unsigned long long vaddr, filesz, offset;
		int writable, is_relro; /* PF_W; holds PT_GNU_RELRO */
	} * segments;
	int nsegments;
	struct bin_probe *probes; /* in the order first seen */
	int nprobes;
};
/* Read path; 0, or -1 after reporting why.  In an object (ET_REL) the
 * notes' relocations are applied: a site is an offset into its section
 * (.text+0x1188), a semaphore its symbol's. */
int binary_read(const char *path, struct binary *b);
/* Where site s is, as printed: "0x1188", or ".text+0x1188" in an
 * object. */
void site_address(struct buf *out, const struct bin_site *s);
/* The same for p's semaphore: "0x4010", ".probes+0x2", or in an object
 * the symbol it is relocated against when undefined there. */
void semaphore_address(struct buf *out, const struct bin_probe *p);
/* The same, but a file that is no ELF file (a script, a locale archive)
 * is not said: 1 then, with b's dev and ino set; nothing to free. */
int binary_try_read(const char *path, struct binary *b);
void binary_free(struct binary *b);
/* The probes a binary carries, built straight into a program (never
 * printed and parsed again): names verbatim, arguments from the recorded
 * declaration (its parameters parsed alone, silently; one that cannot be
 * read gives a warning naming the binary and the probe), else unnamed
 * sized integers from the first site's specs.  Not checked: its names
 * may be anything.  Free with program_free, before binary_free. */
struct program *binary_program(struct binary *b);
/* p's probe in binary_program's program when the binary records a
 * readable declaration for it; NULL when p's arguments are only the
 * notes' sizes. */
const struct probe *binary_recorded_probe(const struct bin_probe *p);
/* The declaration that describes p (in binary_program's program, else
 * in from_file, into *prog unless NULL): the binary's recorded one; else -s
 * FILE.d's, which is also taken when the recorded one names no
 * argument (Perl's perldtrace.d does not); NULL when neither, or when
 * its arguments are not as many as the binary's sites pass. */
const struct probe *binary_probe_decl(const struct bin_probe *p,
				      const struct program *from_file,
				      const struct program **prog);
/* Said, for -s FILE.d beside a binary: each probe the binary fires of a
 * provider the .d declares, under a name the .d does not declare (its
 * arguments are then arg0..argN), with the .d's near name when there is
 * one (D's inbound__message for a sys/sdt.h site's inbound_message).
 * How many were said. */
int binary_say_undeclared(const struct binary *b,
			  const struct program *from_file);
/* How each argument of p is read, and its name: the one answer, which
 * --trace and --list take.  By binary_probe_decl's declaration (its
 * types and meanings, for target tg: a 32-bit program's long is 4),
 * else, and for a type of the user's headers, as the note's sizes and
 * signs say ("argN" when unnamed).  Free with probe_args_free. */
#define PROBE_MAX_ARGS 12 /* sys/sdt.h's */
struct probe_args {
	const struct probe *decl; /* or NULL */
	const struct program *program; /* decl's */
	int nargs;
	char *names[PROBE_MAX_ARGS];
	struct arg_read read[PROBE_MAX_ARGS];
};
int binary_probe_args(const struct bin_probe *p,
		      const struct program *recorded,
		      const struct program *from_file,
		      const struct target *tg, struct probe_args *out);

/* ---- semaphores.c ---- */

/* Whether the kernel can set the semaphore at sem for a tracer that
 * attaches before the file is mapped (--trace -c, bpftrace -c, a library
 * not yet loaded): it sets the first writable mapping of the
 * semaphore's file page, in the order segments are mapped.  1 when an
 * earlier writable segment maps that page too (lld and mold put the
 * RELRO segment's end there), with why said in *why; else 0. */
int binary_semaphore_trapped(const struct binary *b, unsigned long long sem,
			     struct buf *why);

/* ---- loader.c: a program's dynamic loader ---- */

/* Where function name (a dynamic symbol) is in the file path: its file
 * offset, or -1 when it has none. */
long long binary_function_offset(const char *path, const char *name);

/* ---- specs.c: a note's argument specs ---- */

/* One argument spec of a note: "-4@%edi". */
struct arg_spec {
	int size, is_signed, is_float;
	const char *operand, *text; /* into the spec string */
	size_t operand_len, text_len;
};
/* Read the spec at args into out; returns where the next starts, or
 * NULL when there is none. */
const char *spec_next(const char *args, struct arg_spec *out);
int spec_count(const char *args);
/* The i-th spec of args into out; 0 when it has fewer. */
int spec_at(const char *args, int i, struct arg_spec *out);
/* Whether every site of p records argument i with one size and sign. */
int specs_agree(const struct bin_probe *p, int i);

/* ---- members.c: a member expression through the binary's DWARF ---- */

/* Lay out expr ("conn->super.local.id") on pr's arguments from the
 * DWARF of the binary at path (pr and prog: its declaration): 0, or -1
 * with why (no such argument or member, with the struct's nearest
 * members; no DWARF, and how to get it). */
int member_resolve(const char *path, const struct program *prog,
		   const struct probe *pr, const char *expr,
		   struct arg_read *m, struct buf *why);
void arg_read_free(struct arg_read *m);

/* ---- srclines.c: a site's source line (libdw, when built with it) ---- */

struct srclines;
/* The binary's line table, or NULL: no debug info, no libdw. */
struct srclines *srclines_open(const struct binary *b);
/* Append "file.c:12" for site; 0, or -1 when unknown (s may be NULL). */
int srclines_find(struct srclines *s, const struct bin_site *site,
		  struct buf *out);
void srclines_close(struct srclines *s);

/* ---- fit.c: --bpftrace for binaries ---- */

/* A binary's recorded declarations, unchecked: its names may be
 * anything, and what it holds never speaks as a compiler error.  NULL
 * after saying why; *is_library set. */
struct program *recorded_program(const char *path, int *is_library);
/* Keep the probes of prog (the .d files what names) that the binaries
 * paths[n] carry (bpftrace refuses a whole script when one is missing),
 * saying what is left out; *tg is the first binary's target, *names
 * their base names (to free), *all_libraries whether each is a library.
 * 0, or -1 after saying why. */
int fit_to_binaries(struct program *prog, const char *what,
		    const char *const *paths, int n, struct target *tg,
		    char **names, int *all_libraries);

/* ---- list.c, check_binaries.c: --list and --check ---- */

/* --list [--json] BINARY...; returns the exit status. */
/* --list: each binary's probes, their arguments named and typed by the
 * binary's recorded declarations, else by decls (-s FILE.d; may be
 * NULL). */
int inspect_list(const char *const *files, int nfiles, int json,
		 const struct program *decls);
/* --check FILE.d BINARY...; returns the exit status. */
struct check_options {
	int strict;	   /* size and sign warnings are errors */
	int allow_missing; /* a probe in none of the binaries: a warning */
	int sites;	   /* --sites: every site on its own line */
	int json;
};
int inspect_check(const struct program *prog, const char *const *files,
		  int nfiles, const struct check_options *opt);

#endif
