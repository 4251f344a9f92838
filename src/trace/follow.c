/*
 * src/trace/follow.c - following the tree of -c's command or -p's
 * process, above the session: a process of the tree stopped at an exec
 * (its program and libraries found, its loader watched) or in its
 * loader (the libraries it has mapped found), then let go on; the
 * session's links stopped it, and attach what is found here.
 */
#include <limits.h>
#include <signal.h>
#include <stdlib.h>

#include "trace/find/find.h"
#include "trace/follow.h"
#include "trace/decode/stacks.h"

/* Attach to the probes of path, a program exec'd (with its libraries)
 * or a library mapped, unless they are traced already; a program's
 * loader into *interp (NULL: none) when interp is not NULL. */
static void attach_program(struct tracer *tr, struct session *s,
			   const char *path, int with_libraries, char **interp)
{
	int before = tr->nprobes, attached;

	if (targets_add_program(tr, path, with_libraries, interp) <= 0)
		return;
	attached = session_attach_new(s, before, path);
	if (attached > 0)
		probes_say_tracing(tr, before, attached, path);
}

/* Whether a process's mappings are read when it execs or maps objects,
 * for its events decoded after it has ended: its stacks' (--stack), and
 * its code pointers' functions. */
static int names_code(const struct tracer *tr)
{
	int i, a;

	if (tr->plan.request->stack)
		return 1;
	for (i = 0; i < tr->nprobes; i++)
		for (a = 0; a < tr->probes[i].nargs; a++)
			if (arg_kind_of(&tr->probes[i].read[a])->symbols)
				return 1;
	return 0;
}

void follow_process(struct tracer *tr, struct session *s, int pid, int exec)
{
	struct stacks *stacks = sink_state(tr, SINK_STACKS);
	char exe[PATH_MAX];

	if (session_ending(s)) {
		/* The trace has ended: the process only goes on. */
	} else if (exec) {
		/* Its first instruction runs after: its probes, its
		   libraries' and its loader's hook are in place by then. */
		if (targets_exe_of(pid, exe)) {
			char *loader;

			attach_program(tr, s, exe, 1, &loader);
			if (stacks && names_code(tr))
				stacks_process(stacks, pid);
			session_watch_loader(s, loader);
			free(loader);
		}
	} else {
		/* Mapped, not yet relocated: its constructors run after. */
		if (stacks && names_code(tr))
			stacks_process(stacks, pid);
		char **files = targets_new_mappings(tr, pid), **f;

		for (f = files; f && *f; f++) {
			attach_program(tr, s, *f, 0, NULL);
			free(*f);
		}
		free(files);
	}
	kill(pid, SIGCONT);
}

void follow_start(struct tracer *tr, struct session *s)
{
	/* -p's process runs already (a command's is watched at its exec). */
	if (tr->plan.request->pid)
		session_watch_loader(s, tr->loader);
}
