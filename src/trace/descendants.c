/*
 * src/trace/descendants.c - the processes below probegen's own, read
 * from /proc: the command's tree, which trace.c ends with the trace
 * and budget.c measures the CPU time of.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/tracer.h"

/* The processes below probegen's own, from /proc (a process whose
 * parent ended is probegen's again: it is their subreaper). */
int trace_descendants(pid_t *pids, int max)
{
	struct {
		pid_t pid, parent;
	} *all = NULL;
	size_t n = 0, i;
	int found = 0, grew = 1;
	DIR *d = opendir("/proc");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char path[300], line[512], *p;
		FILE *f;
		int parent;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if (!(f = fopen(path, "re")))
			continue;
		p = fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
		fclose(f);
		if (!p || sscanf(p, ") %*c %d", &parent) != 1)
			continue;
		all = xgrow(all, n, sizeof(*all));
		all[n].pid = atoi(e->d_name);
		all[n++].parent = parent;
	}
	if (d)
		closedir(d);
	/* Each pass takes the children of those found: a tree's depth
	   passes at most. */
	while (grew && found < max) {
		grew = 0;
		for (i = 0; i < n && found < max; i++) {
			int j, ours = all[i].parent == getpid(), seen = 0;

			for (j = 0; j < found; j++) {
				seen |= pids[j] == all[i].pid;
				ours |= pids[j] == all[i].parent;
			}
			if (ours && !seen) {
				pids[found++] = all[i].pid;
				grew = 1;
			}
		}
	}
	free(all);
	return found;
}
