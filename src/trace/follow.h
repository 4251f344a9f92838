/*
 * src/trace/follow.h - following a command's or a process's tree
 * (follow.c), above the session: what a process brings when it execs or
 * maps a library is attached.  Included by trace.c, its one user, and
 * follow.c.
 */
#ifndef PROBEGEN_FOLLOW_H
#define PROBEGEN_FOLLOW_H

#include "trace/kernel/session.h"

/* A process of the followed tree, stopped at its exec (exec) or in its
 * loader: what it brings is attached, then it goes on (the session's
 * on_process). */
void follow_process(struct tracer *tr, struct session *s, int pid, int exec);
/* Once the session has started: -p's process's loader watched. */
void follow_start(struct tracer *tr, struct session *s);

#endif
