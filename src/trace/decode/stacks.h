/*
 * src/trace/decode/stacks.h - --stack: the native stack of each firing, walked
 * in probegen from the registers and the top of the user stack the BPF
 * side copied (bpf/stack.bpf.h), with the binaries' CFI (libdwfl, as
 * perf's --call-graph dwarf does), and named with their symbols and
 * DWARF (stacks.c); counted by distinct stack for --summary and
 * --folded (stack_counts.c) and --pprof (pprof.c).  Included by sinks.c,
 * printer.c, summary.c, follow.c, pprof.h and its own rooms.
 */
#ifndef PROBEGEN_STACKS_H
#define PROBEGEN_STACKS_H

#include "trace/tracer.h"

/* Frames a walk can keep (--stack-frames says how many it does). */
#define STACK_MAX_FRAMES TRACE_STACK_FRAMES_MAX

/* Where a frame is (--pprof's): its address (a caller's: where its call
 * returns), the object mapped there from start to limit, with its
 * build-id in hex, and the frame's function, file and line; NULL and 0
 * where not known.  The strings last until the next walk. */
struct frame_place {
	unsigned long long pc, start, limit;
	const char *binary, *build_id, *function, *file;
	int line;
};

/* One walk: its frames, innermost first, each named
 * "function+0xoff (file.c:123)", or "0xADDR (binary)" without a symbol,
 * and placed; and, when it stopped short of the outermost frame, why. */
struct stack_walk {
	int nframes;
	char *frames[STACK_MAX_FRAMES];
	struct frame_place places[STACK_MAX_FRAMES];
	char *stopped; /* NULL: walked to its end */
};

/* ---- stacks.c ---- */

struct stacks;
/* The walker, and the symbolizer of code pointers (ARG_CODE), which
 * every trace has: NULL after saying why --stack cannot walk. */
struct stacks *stacks_new(const struct tracer *tr);
/* The function holding addr in process pid (meant_symbol_fn). */
long stacks_symbol(void *s, unsigned pid, unsigned long long addr, char *out);
/* Process pid has exec'd a program or mapped objects: its mappings
 * read now, for its events read after it has ended. */
void stacks_process(struct stacks *s, int pid);
/* Walk event e's stack into the current walk (stacks_current). */
void stacks_event(struct stacks *s, const struct trace_event *e);
const struct stack_walk *stacks_current(const struct stacks *s);
void stacks_free(struct stacks *s);

/* ---- stack_counts.c ---- */

struct stack_counts;
/* A place's strings copied, its own (to free with frame_place_free). */
struct frame_place frame_place_copy(const struct frame_place *p);
void frame_place_free(struct frame_place *p);
/* With folded (--folded's path, or NULL when not asked) opened: NULL
 * after saying why it cannot be written. */
struct stack_counts *stack_counts_new(const char *folded);
/* A firing of probe with the walk w, standing for every firings (only
 * every Nth firing's stack was copied: stack.bpf.h). */
void stack_counts_add(struct stack_counts *c, int probe,
		      const struct stack_walk *w, unsigned every);
/* The most firings one walk stood for (1: every firing walked). */
unsigned stack_counts_every(const struct stack_counts *c);
/* At the end, with each probe's firings as the kernel counted them: a
 * probe's firings whose stacks never reached probegen (a full ring)
 * are counted apart, as a stack of one frame "[stacks lost]" that
 * --folded and --pprof show, and --summary says beside the stacks. */
void stack_counts_lost(struct stack_counts *c, const struct tracer *tr,
		       const unsigned long long *firings);
/* --summary: each probe's top distinct stacks, text or JSON (a member
 * "stacks" of the summary's object: the caller writes its comma). */
void stack_counts_print(const struct stack_counts *c, const struct tracer *tr,
			FILE *out, int top, int json);
/* --folded: a line a distinct stack, its frames outermost first, each
 * by its function's name, then the probe, and its count of firings,
 * into the file stack_counts_new opened (nothing when none): 0, or -1
 * (said). */
int stack_counts_write_folded(struct stack_counts *c, const struct tracer *tr);
void stack_counts_free(struct stack_counts *c);

#endif
