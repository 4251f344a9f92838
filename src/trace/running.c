/*
 * src/trace/running.c - the processes that run a traced binary, from
 * /proc: tracing binaries (no -p, no -c), the processes whose CPU time
 * --budget is a share of.  A program's are those it is the executable
 * of; a library's, those that map it.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "inspect/inspect.h"
#include "trace/tracer.h"

static int is_traced(const struct tracer *tr, unsigned long long dev,
		     unsigned long long ino, int libraries)
{
	int i;

	for (i = 0; i < tr->nbinaries; i++)
		if (tr->binaries[i]->is_library == libraries &&
		    tr->binaries[i]->dev == dev && tr->binaries[i]->ino == ino)
			return 1;
	return 0;
}

/* Whether pid's mappings hold a traced library: by its device and
 * inode as the maps give them (the kernel bounds their lines). */
static int maps_a_library(const struct tracer *tr, const char *pid)
{
	char path[300], line[4096];
	unsigned maj, min;
	unsigned long long ino;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/maps", pid);
	if (!(f = fopen(path, "re")))
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %*s %*s %x:%x %llu", &maj, &min,
			       &ino) == 3 &&
			ino && is_traced(tr, makedev(maj, min), ino, 1);
	fclose(f);
	return found;
}

int trace_running(const struct tracer *tr, pid_t *pids, int max)
{
	int i, n = 0, programs = 0, libraries = 0;
	DIR *d;
	struct dirent *e;

	for (i = 0; i < tr->nbinaries; i++) {
		programs |= !tr->binaries[i]->is_library;
		libraries |= tr->binaries[i]->is_library;
	}
	if (!(d = opendir("/proc")))
		return 0;
	while (n < max && (e = readdir(d))) {
		char path[300];
		struct stat st;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/exe", e->d_name);
		if ((programs && stat(path, &st) == 0 &&
		     is_traced(tr, st.st_dev, st.st_ino, 0)) ||
		    (libraries && maps_a_library(tr, e->d_name)))
			pids[n++] = atoi(e->d_name);
	}
	closedir(d);
	return n;
}
