/*
 * src/trace/session.h - the rooms of --trace that hold the BPF program
 * (tracer.h maps them all): attach.c puts it at the sites, load.c loads
 * it, session.c runs it from attaching to detaching, tally.c reads what
 * it counted.  trace.c is their one user outside.
 */
#ifndef PROBEGEN_SESSION_H
#define PROBEGEN_SESSION_H

#include "tracer.h"

/* ---- attach.c ---- */

struct attacher;
struct bpf_program;
struct bpf_map;
/* BPF_TRACE_UPROBE_MULTI (Linux 6.6): the attach type a program must be
 * loaded with for the multi-uprobe link. */
#define ATTACH_UPROBE_MULTI 48
/* An attacher of prog to sites, their specs kept in the map specs
 * (libbpf's __bpf_usdt_specs), in process pid (-1: every process);
 * with multi, prog was loaded for multi-uprobe links. */
struct attacher *attacher_new(struct bpf_program *prog, struct bpf_map *specs,
			      int pid, int multi);
/* Attach to every site of probe t, cookie its index: 0, or -1 and why
 * (allocated) with none of its sites attached.  With multi the sites
 * are only gathered: attacher_commit attaches them. */
int attacher_add(struct attacher *a, const struct traced *t, int cookie,
		 char **why);
/* One link a file for the sites gathered: 0, or -1 and why. */
int attacher_commit(struct attacher *a, char **why);
/* Detach every site (the kernel clears the semaphores). */
void attacher_free(struct attacher *a);
/* A multi-uprobe link of program prog_fd at n offsets of file path
 * (ref_ctr_offsets and cookies may be NULL), in process pid (0: every
 * process): its fd, or -1 and errno.  Linux 6.6. */
int attach_uprobe_multi(int prog_fd, const char *path,
			const unsigned long long *offsets,
			const unsigned long long *ref_ctr_offsets,
			const unsigned long long *cookies, int n, int pid);

/* ---- load.c ---- */

struct bpf_program;
struct trace_bpf; /* the skeleton, which load.c, session.c and tally.c see */
/* The sleepable program where the kernel loads it (strings are then
 * read whatever their page), else the plain one; *prog is the one.
 * With multi, loaded for multi-uprobe links (attach.c); with follow,
 * with the programs that follow a tree.  NULL and errno when neither loads
 * (the caller says why). */
struct trace_bpf *load_program(const struct tracer *tr,
			       struct bpf_program **prog, int summary_only,
			       int multi, int follow);

/* ---- session.c ---- */

struct session;
/* Load the BPF program and attach it to every probe, in process pid
 * (-1: every process).  NULL after saying why. */
struct session *session_start(struct tracer *tr, int pid);
/* Read and print what the ring holds, waiting at most timeout_ms for it
 * or for one of fds (at most SESSION_MAX_FDS; -1: none) to be readable.
 * Returns a bit for each of fds that is (bit i: fds[i]), or -1 after
 * saying why. */
#define SESSION_MAX_FDS 4
int session_poll(struct session *s, int timeout_ms, const int *fds, int nfds);
/* Describe and attach the probes from index from on, added since the
 * session started (what: a followed process's program or library): how
 * many were attached; 0 when they cannot be (a warning: the trace goes
 * on) or the trace has ended. */
int session_attach_new(struct session *s, int from, const char *what);
/* Stop the tree's processes that run the dynamic loader (a program's
 * PT_INTERP; NULL for a static program: nothing) where it has mapped a
 * library (on_loader), unless that loader is watched already: a library
 * dlopen'ed later is then found before it runs. */
void session_watch_loader(struct session *s, const char *loader);
/* The trace has ended: a process stopped since only goes on. */
int session_ending(const struct session *s);
/* Read the counts and pair times into t (tally_read). */
void session_tally(struct session *s, struct tally *t);
/* Detach (the kernel clears the semaphores), say what was dropped. */
void session_end(struct session *s);

/* ---- follow.c: the tree of a command or a process, above the
 * session ---- */

/* A process of the followed tree, stopped at its exec (exec) or in its
 * loader: what it brings is attached, then it goes on (the session's
 * on_process). */
void follow_process(struct tracer *tr, struct session *s, int pid, int exec);
/* Once the session has started: -p's process's loader watched. */
void follow_start(struct tracer *tr, struct session *s);

/* ---- tally.c ---- */

/* Read the counts and pair times the BPF side kept into t (allocated;
 * free with tally_free). */
void tally_read(const struct tracer *tr, struct trace_bpf *skel,
		struct tally *t);
void tally_free(struct tally *t);
/* The events the ring buffer had no room for. */
unsigned long long tally_dropped(struct trace_bpf *skel);

#endif
