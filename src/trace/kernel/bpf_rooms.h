/*
 * src/trace/kernel/bpf_rooms.h - the rooms below the session that hold the BPF
 * program, and the only ones besides it that call libbpf: attach.c puts
 * it at the sites, load.c loads it, tally.c reads what it counted.
 * Included by session.c and by these three alone.
 */
#ifndef PROBEGEN_BPF_ROOMS_H
#define PROBEGEN_BPF_ROOMS_H

#include "trace/tracer.h"

/* ---- trap_cost.c ---- */

/* What a firing costs a program here with the BPF program prog_fd
 * attached through a multi-uprobe link (the trap, the kernel's
 * dispatch to the program and its first steps, which leave: trap_cost_ns
 * counts the trap alone), in ns; -1 when it cannot be measured. */
long long trap_cost_with_ns(int prog_fd);

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
/* From now on, a multi-uprobe link each probe (added after), so that
 * attacher_switch can detach and attach it alone: 1, or 0 when there
 * are no such links here (one uprobe a site, or libbpf's USDT). */
int attacher_per_probe(struct attacher *a);
/* Attach (on) or detach probe's sites: 0, or -1 (errno) when a link
 * could not be made. */
int attacher_switch(struct attacher *a, int probe, int on);
/* When probe's last detaching began (its uprobes going: the closing of
 * its link then waits in a thread), or with closed when it ended (no
 * firing of it can come after); 0 while it has not yet. */
double attacher_detached_at(const struct attacher *a, int probe, int closed);
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

/* ---- tally.c ---- */

/* Read the counts and pair times the BPF side kept into t (allocated;
 * free with tally_free). */
void tally_read(const struct tracer *tr, struct trace_bpf *skel,
		struct tally *t);
/* The events the ring buffer had no room for. */
unsigned long long tally_dropped(struct trace_bpf *skel);
/* --budget: a probe's firings and the BPF program's time at them so
 * far, summed over CPUs. */
void tally_cost(struct trace_bpf *skel, int probe, struct trace_cost *out);
/* The starts of pair still waiting for their end, forgotten: a window
 * of --budget closed on them (their end would time the gap).  How many
 * threads' (or values') were. */
unsigned tally_forget_starts(const struct tracer *tr, struct trace_bpf *skel,
			     int pair);
#endif
