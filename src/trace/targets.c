/*
 * src/trace/targets.c - what --trace attaches to: the BINARY operands,
 * the executable and shared objects process -p has mapped, or the
 * command's program (found as execvp would) and the shared libraries
 * its loader lists for it, attached by path before they are loaded; and
 * each program a followed process execs.  probes.c describes their
 * probes, timed_pairs.c chooses the pairs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include "tracer.h"

extern char **environ;

/* Whether path is one of the binaries traced already. */
static int traced_already(const struct tracer *tr, const char *path)
{
	int i;

	for (i = 0; i < tr->nbinaries; i++)
		if (same_file(tr->binaries[i]->path, path))
			return 1;
	return 0;
}

/* Whether path is a file read before and found to carry no probes (a
 * followed tree's programs and libraries are met again and again). */
static int probeless_already(const struct tracer *tr, const struct stat *st)
{
	int i;

	for (i = 0; i < tr->nprobeless; i++)
		if (tr->probeless[i].dev == st->st_dev &&
		    tr->probeless[i].ino == st->st_ino)
			return 1;
	return 0;
}

/* Read one binary: 1 if it carries probes (or is traced already), 0 if
 * not, -1 on error. */
static int add_binary(struct tracer *tr, const char *path)
{
	struct binary *b;
	const struct bin_probe *p;
	struct stat st;
	int any = 0, known = stat(path, &st) == 0;

	if (traced_already(tr, path))
		return 1;
	if (known && probeless_already(tr, &st))
		return 0;
	tr->binaries = xgrow(tr->binaries, (size_t)tr->nbinaries,
			     sizeof(*tr->binaries));
	tr->programs = xgrow(tr->programs, (size_t)tr->nbinaries,
			     sizeof(*tr->programs));
	b = xcalloc(1, sizeof(*b));
	if (binary_read(path, b) != 0) {
		free(b);
		return -1;
	}
	b->path = xstrdup(path); /* the caller's may not last */
	for (p = b->probes; p; p = p->next)
		any |= p->nsites > 0;
	tr->programs[tr->nbinaries] = any ? binary_program(b) : NULL;
	if (!any) {
		free((char *)b->path);
		binary_free(b);
		free(b);
		if (!known)
			return 0;
		tr->probeless = xgrow(tr->probeless, (size_t)tr->nprobeless,
				      sizeof(*tr->probeless));
		tr->probeless[tr->nprobeless].dev = st.st_dev;
		tr->probeless[tr->nprobeless++].ino = st.st_ino;
		return 0;
	}
	tr->binaries[tr->nbinaries++] = b;
	return 1;
}

/* The ELF files process pid has mapped, by absolute path, each once
 * (a NULL-terminated list, each and the list to free), or NULL when its
 * maps cannot be read.  Shared libraries by absolute path, as libbpf
 * needs them; locale archives and caches are not ELF. */
static char **mapped_files(int pid)
{
	char path[64], line[PATH_MAX + 256];
	char **files = xcalloc(1, sizeof(*files));
	size_t n = 0;
	FILE *maps;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (!(maps = fopen(path, "r"))) {
		free(files);
		return NULL;
	}
	while (fgets(line, sizeof(line), maps)) {
		char *file = strchr(line, '/');
		struct target elf;
		struct stat st;

		if (!file)
			continue;
		file[strcspn(file, "\n")] = '\0';
		if ((n && strcmp(files[n - 1], file) == 0) ||
		    strstr(file, " (deleted)") || stat(file, &st) != 0 ||
		    !S_ISREG(st.st_mode) || target_from_elf(file, &elf) != 0)
			continue;
		files = xgrow(files, n + 1, sizeof(*files));
		files[n++] = xstrdup(file);
		files[n] = NULL;
	}
	fclose(maps);
	return files;
}

int targets_exe_of(int pid, char *exe)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/%d/exe", pid);
	n = readlink(link, exe, PATH_MAX - 1);
	if (n <= 0)
		return 0;
	exe[n] = '\0';
	return 1;
}

/* The executable and the shared objects a process has mapped. */
static int add_process(struct tracer *tr, int pid)
{
	char exe[PATH_MAX];
	char **files, **f;

	if (!targets_exe_of(pid, exe)) {
		error_plain("no process with PID %d (%s)", pid,
			    strerror(errno));
		return -1;
	}
	if (add_binary(tr, exe) < 0)
		return -1;
	if (!(files = mapped_files(pid)))
		return 0;
	for (f = files; *f; f++)
		if (add_binary(tr, *f) < 0)
			warning_plain("the probes of '%s' are not traced", *f);
	for (f = files; *f; f++)
		free(*f);
	free(files);
	return 0;
}

char **targets_new_mappings(const struct tracer *tr, int pid)
{
	char **files = mapped_files(pid);
	size_t i, kept = 0;

	for (i = 0; files && files[i]; i++) {
		struct stat st;

		if (traced_already(tr, files[i]) ||
		    (stat(files[i], &st) == 0 && probeless_already(tr, &st)))
			free(files[i]);
		else
			files[kept++] = files[i];
	}
	if (files)
		files[kept] = NULL;
	return files;
}

/* The shared libraries a program will load, as its own loader lists
 * them ("LOADER --list PROGRAM", what ldd runs after trying each loader
 * it knows: ldd took 12 ms, the loader alone 1 ms); none for a static
 * program.  Their probes are attached by path before they are loaded.
 * No shell. */
static void add_libraries(struct tracer *tr, const char *exe)
{
	char *interp = binary_interpreter(exe), line[PATH_MAX + 128];
	char *argv[] = { interp, (char *)"--list", (char *)exe, NULL };
	posix_spawn_file_actions_t fa;
	int fds[2];
	pid_t pid;
	FILE *p;

	if (!interp || pipe(fds) != 0) {
		free(interp);
		return;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null",
					 O_WRONLY, 0);
	if (posix_spawn(&pid, interp, &fa, NULL, argv, environ) != 0)
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	p = fdopen(fds[0], "r");
	while (p && fgets(line, sizeof(line), p)) {
		char *arrow = strstr(line, "=> /"), *end;
		struct target elf;

		if (!arrow)
			continue;
		end = arrow + 3 + strcspn(arrow + 3, " \n(");
		*end = '\0';
		if (target_from_elf(arrow + 3, &elf) == 0 &&
		    add_binary(tr, arrow + 3) < 0)
			warning_plain("the probes of '%s' are not traced",
				      arrow + 3);
	}
	if (p)
		fclose(p);
	else
		close(fds[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	free(interp);
}

/* The command's executable, found as execvp would. */
static char *command_path(const char *cmd)
{
	const char *path = getenv("PATH");
	char *dirs, *dir, *save = NULL, *found = NULL;

	if (strchr(cmd, '/'))
		return realpath(cmd, NULL);
	dirs = xstrdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(dirs, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *full = xasprintf("%s/%s", *dir ? dir : ".", cmd);

		if (access(full, X_OK) == 0)
			found = realpath(full, NULL);
		free(full);
	}
	free(dirs);
	return found;
}

static int is_elf(const char *path)
{
	struct target elf;

	return target_from_elf(path, &elf) == 0;
}

/* What opt names, in order: binaries, the process, the command. */
static int find_binaries(struct tracer *tr)
{
	const struct trace_options *opt = tr->opt;
	int i, r;

	for (i = 0; i < opt->nbinaries; i++) {
		r = add_binary(tr, opt->binaries[i]);
		if (r == 0)
			error_input("'%s' has no probes", opt->binaries[i]);
		if (r <= 0)
			return -1;
	}
	if (opt->pid) {
		if (kill(opt->pid, 0) != 0 && errno == ESRCH) {
			error_plain("no process with PID %d", opt->pid);
			return -1;
		}
		if (add_process(tr, opt->pid) != 0)
			return -1;
	}
	if (opt->command) {
		tr->exe = command_path(opt->command[0]);
		if (!tr->exe) {
			error_plain("cannot find the command '%s'",
				    opt->command[0]);
			return -1;
		}
		/* A script's probes are its interpreter's, and the
		   programs it starts are found as it starts them
		   (targets_add_program). */
		if (!is_elf(tr->exe))
			return 0;
		if (add_binary(tr, tr->exe) < 0)
			return -1;
		add_libraries(tr, tr->exe);
	}
	return 0;
}

int targets_find(struct tracer *tr)
{
	const struct trace_options *opt = tr->opt;
	int i;

	tr->by_used = xcalloc((size_t)opt->nby_requests + 1, 1);
	if (find_binaries(tr) != 0)
		return -1;
	for (i = 0; i < tr->nbinaries; i++)
		probes_add(tr, i, opt->d_program);
	/* A command or a process is followed: the programs it starts may
	   bring the probes, or those -n chooses when it carries none
	   (trace.c says if none ever did). */
	if (!tr->nprobes && (!opt->nfilters || !tr->nbinaries) &&
	    (opt->command || opt->pid))
		return 0;
	if (!tr->nbinaries) {
		error_input("no probes in %s",
			    opt->command ? "the command"
			    : opt->pid	 ? "the process or its libraries"
					 : "the binaries");
		return -1;
	}
	if (!tr->nprobes) {
		error_input("no probe matches %s%s", opt->filters[0],
			    opt->nfilters > 1 ? " or the other -n patterns"
					      : "");
		return -1;
	}
	if (tr->nprobes > TRACE_MAX_PROBES) {
		error_input("%d probes: at most %d can be traced at once",
			    tr->nprobes, TRACE_MAX_PROBES);
		return -1;
	}
	return pairs_find(tr);
}

int targets_add_program(struct tracer *tr, const char *path, int with_libraries)
{
	int b, first = tr->nbinaries, before = tr->nprobes,
	       pairs_before = tr->npairs;
	struct stat st;

	/* Traced already, in every process, or read before and found to
	   carry no probe: its libraries were listed then. */
	if (traced_already(tr, path) ||
	    (stat(path, &st) == 0 && probeless_already(tr, &st)) ||
	    !is_elf(path))
		return 0;
	if (add_binary(tr, path) < 0)
		warning_plain("the probes of '%s' are not traced", path);
	if (with_libraries)
		add_libraries(tr, path);
	for (b = first; b < tr->nbinaries; b++) {
		struct pair *list = pairs_of(tr->programs[b]);

		probes_add(tr, b, tr->opt->d_program);
		pairs_keep(tr, b, list);
		pairs_free(list);
	}
	if (tr->nprobes > TRACE_MAX_PROBES) {
		warning_plain(
			"the probes of '%s' are not traced: at most %d probes at once",
			path, TRACE_MAX_PROBES);
		/* Its pairs are among its own probes: they go with them. */
		probes_drop(tr, before, pairs_before);
	}
	return tr->nprobes - before;
}

void targets_free(struct tracer *tr)
{
	int i;

	probes_drop(tr, 0, 0);
	free(tr->probes);
	free(tr->pairs);
	free(tr->by_used);
	for (i = 0; i < tr->nsiteless; i++)
		free(tr->siteless[i]);
	free(tr->siteless);
	free(tr->probeless);
	for (i = 0; i < tr->nbinaries; i++) {
		program_free(tr->programs[i]);
		free((char *)tr->binaries[i]->path);
		binary_free(tr->binaries[i]);
		free(tr->binaries[i]);
	}
	free(tr->binaries);
	free(tr->programs);
	free(tr->exe);
}
