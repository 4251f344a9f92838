/*
 * src/trace/kernel/session.h - the session (session.c): the BPF program loaded,
 * attached, polled and detached, and the links that follow a tree.
 * Included by its users above it, trace.c and follow.c, and by
 * session.c; the rooms below it that hold the BPF program are
 * bpf_rooms.h's.
 */
#ifndef PROBEGEN_SESSION_H
#define PROBEGEN_SESSION_H

#include "trace/tracer.h"

/* ---- session.c ---- */

struct session;
/* Load the BPF program and attach it to every probe, in process pid
 * (-1: every process).  NULL after saying why. */
struct session *session_start(struct tracer *tr, int pid);
/* The probes session_start attached. */
int session_attached(const struct session *s);
/* Read and print what the ring holds, waiting at most timeout_ms for it
 * or for one of fds (at most SESSION_MAX_FDS; -1: none) to be readable
 * (a ring that fills as fast as it is read: what 50 ms read; with
 * timeout_ms 0 and no fds, all of it).
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
/* --budget's: whether each probe can be detached and attached alone
 * (a multi-uprobe link each: Linux 6.6); then session_switch does it
 * (0, or -1 when the probe's link cannot be made again). */
int session_switchable(const struct session *s);
int session_switch(struct session *s, int probe, int on);
/* When probe's last session_switch off began to take its uprobes away
 * (now_seconds()'s clock), or with closed when it was done (no firing
 * of it can come after); 0 while it has not yet. */
double session_detached_at(const struct session *s, int probe, int closed);
/* A probe's firings and the BPF program's time at them so far. */
void session_cost(struct session *s, int probe, struct trace_cost *out);
/* The events the ring had no room for, so far. */
unsigned long long session_dropped(struct session *s);
/* --stack counted: from now on every nth firing's stack alone is copied
 * (1: each). */
void session_stack_every(struct session *s, unsigned n);
/* Pair's starts left open when its window closed, forgotten: how many
 * threads' (or values'). */
unsigned session_forget_starts(struct session *s, int pair);
/* Detach (the kernel clears the semaphores), say what was dropped. */
void session_end(struct session *s);

/* ---- trap_cost.c ---- */

/* What one uprobe's trap costs a program here, in ns, measured on a
 * function of probegen's own (once); -1 when it cannot be (no uprobe
 * PMU).  Begun in a thread by trap_cost_begin, it waits for it. */
long long trap_cost_ns(void);
void trap_cost_begin(void);


#endif
