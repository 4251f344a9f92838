/*
 * src/trace/find/find.h - the find/ stage: what is traced, and what each
 * probe does beyond that.  The binaries (targets.c), the probes -n
 * chooses (probes.c), the features a row each (features.c), --expect's
 * expectations (expect.c) and the pairs (timed_pairs.c).  Included by
 * the rooms of find/ and by the run (trace.c, follow.c); no other stage
 * calls find/ (t_build_stages_by_symbols).  --where's parser and
 * compiler are filter.h's.
 */
#ifndef PROBEGEN_FIND_H
#define PROBEGEN_FIND_H

#include "trace/tracer.h"

/* What a feature's start returns when it failed (said). */
#define FEATURE_FAILED ((void *)-1)

/* FEATURE_LABELS's state: per --by request, whether it named a probe
 * (said at the end when one named none). */
struct labels {
	char *used;
};

/* ---- targets.c ---- */

/* Find what opt names (binaries, -p's process, the command's program
 * and libraries) and every probe to trace, described for printing: 0,
 * or -1 after saying why. */
int targets_find(struct tracer *tr);
/* A program a followed process has exec'd, or a library it has mapped
 * (path): its probes (with_libraries: its loader's list's too), unless
 * read already.  The number of probes added; the program's loader in
 * *interp (to free; NULL: none) if interp is not NULL. */
int targets_add_program(struct tracer *tr, const char *path, int with_libraries,
			char **interp);
/* The ELF files process pid has mapped that are neither traced nor
 * known to carry no probe: a NULL-terminated list (each and the list
 * to free), or NULL. */
char **targets_new_mappings(const struct tracer *tr, int pid);
/* The program process pid runs, into exe (PATH_MAX bytes): 1, or 0 when
 * it has ended. */
int targets_exe_of(int pid, char *exe);

void targets_free(struct tracer *tr);

/* ---- probes.c ---- */

/* "tracing N probes [of PATH]" for the probes attached from index from
 * on, saying how many are of system libraries (libstdc++'s) when some
 * are: --expect-all and --summary's "never fired" leave those out. */
void probes_say_tracing(const struct tracer *tr, int from, int attached,
			const char *path);
/* The probes of binary b that -n chooses, appended, each described:
 * its label, its arguments' names and how each is read (the
 * inspector's answer: the recorded declaration, else from_file's, else
 * the note). */
void probes_add(struct tracer *tr, int b, const struct program *from_file);
/* --show's requests that name probe t, laid out: 0, or -1 when one
 * cannot be (said: an error at_start, else a warning). */
int probe_shows(struct tracer *tr, struct traced *t, int at_start);
/* Forget the probes from nprobes on and the pairs from npairs on. */
void probes_drop(struct tracer *tr, int nprobes, int npairs);
/* Forget probe i, not yet attached, paired or expected (--where's, as
 * it sets probes up): those after it move down one. */
void probes_remove(struct tracer *tr, int i);
/* The arguments of probe t a --by request names, into args: how many;
 * 0 when none names t, or it names an argument t lacks (said). */
int probe_by_args(struct tracer *tr, struct traced *t, int *args);
/* Member expression expr (n bytes) read at probe t's firings, laid out
 * once: its index in t's arguments (TRACE_MAX_ARGS + k), or -1 after
 * saying why (an error at the start, else a warning). */
int probe_member(struct traced *t, const char *expr, size_t n, int at_start);
/* Probe t's argument named name (len bytes), or -1. */
int probe_arg_index(const struct traced *t, const char *name, size_t len);
/* The first string argument of t named one of names; -1 if none. */
int probe_string_arg(const struct traced *t, const char *const *names);

/* ---- features.c: what a trace does per probe, a row each ---- */

/* Before any binary is read (--where parsed): 0, or -1 (said). */
int features_start(struct tracer *tr);
/* Probes from..nprobes-1, binary b's, prepared by every row (member
 * expressions, --metrics's labels, filters, pairs): 0, or -1 (said)
 * when one fails at_start; later, failures are warnings. */
int features_prepare(struct tracer *tr, int b, int from, int at_start);
/* The starting probes all known (filters checked, pairs found): 0, or
 * -1 (said). */
int features_settle(struct tracer *tr);
/* What the BPF side knows of probe t, from every row. */
void features_describe(const struct tracer *tr, const struct traced *t,
		       struct trace_probe_info *info);
/* What each row says at the end; t: the kernel's counts, or NULL. */
void features_report(struct tracer *tr, const struct tally *t);
void features_free(struct tracer *tr);

/* ---- expect.c: --expect, judged by sinks/judge.c ---- */

/* Every --expect parsed: the feature's state (struct expectations), or
 * FEATURE_FAILED (said). */
void *expects_parse(struct tracer *tr);
/* Compile them for the probes from index from on: 0, or -1 when one
 * cannot be (said: an error at the start, else a warning). */
int expects_add(struct tracer *tr, int from, int at_start);
/* Once the starting probes are known: an expectation that names none,
 * unless a followed process may bring it, is an error: 0, or -1. */
int expects_check(struct tracer *tr);
void expects_free(void *expectations);

/* ---- timed_pairs.c ---- */

/* Keep the pairs of list whose probes binary b traces, each once, and
 * give each probe its roles.  How many of list's pairs b traces;
 * -1 when a --pair's member expression cannot be read (said). */
int pairs_keep(struct tracer *tr, int b, const struct pair *list);
/* The --pair requests and the pairs the probes' names make: 0, or -1
 * when a --pair's probes are traced by no binary (said). */
int pairs_find(struct tracer *tr);

#endif
