/*
 * src/trace/find/targets.c - what --trace attaches to: the BINARY operands,
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

#include "compiler/naming.h"
#include "inspect/inspect.h"
#include "trace/find/find.h"
#include "trace/find/filter.h"

extern char **environ;

/* A file read and found to carry no probe, or to be no ELF file: known
 * by its id, whatever path names it again. */
struct probeless {
	unsigned long long dev, ino;
	char *interpreter; /* a program's loader, or NULL */
};

/* Whether the file st is one read before: a binary traced, or one
 * found to carry no probe or to be no ELF file; its loader (NULL: none)
 * into *loader. */
static int known_file(const struct tracer *tr, const struct stat *st,
		      const char **loader)
{
	unsigned long long dev = st->st_dev, ino = st->st_ino;
	int i;

	for (i = 0; i < tr->nbinaries; i++)
		if (tr->binaries[i]->dev == dev &&
		    tr->binaries[i]->ino == ino) {
			*loader = tr->binaries[i]->interpreter;
			return 1;
		}
	for (i = 0; i < tr->nprobeless; i++)
		if (tr->probeless[i].dev == dev &&
		    tr->probeless[i].ino == ino) {
			*loader = tr->probeless[i].interpreter;
			return 1;
		}
	return 0;
}

/* What reading a file found. */
enum found {
	FOUND_PROBES,  /* probes, traced now */
	FOUND_NONE,    /* an ELF file without probes */
	FOUND_NOT_ELF, /* a script, a locale archive */
	FOUND_KNOWN,   /* a file read before, under this path or another */
	FOUND_FAILED,  /* said why */
};

/* Read path (each file once, whatever path names it again): what it
 * holds, and a program's loader in *interp (to free; NULL for none)
 * when interp is not NULL.  FOUND_FAILED after saying why. */
static enum found add_binary(struct tracer *tr, const char *path, char **interp)
{
	const struct bin_probe *p;
	const char *loader;
	struct binary *b;
	struct stat st;
	int any = 0, r;

	if (interp)
		*interp = NULL;
	if (stat(path, &st) == 0 && known_file(tr, &st, &loader)) {
		if (interp && loader)
			*interp = xstrdup(loader);
		return FOUND_KNOWN;
	}
	tr->binaries = xgrow(tr->binaries, (size_t)tr->nbinaries,
			     sizeof(*tr->binaries));
	tr->programs = xgrow(tr->programs, (size_t)tr->nbinaries,
			     sizeof(*tr->programs));
	b = xcalloc(1, sizeof(*b));
	if ((r = binary_try_read(path, b)) < 0) {
		free(b);
		return FOUND_FAILED;
	}
	b->path = xstrdup(path); /* the caller's may not last */
	for (p = b->probes; p; p = p->next)
		any |= p->nsites > 0;
	if (interp && b->interpreter)
		*interp = xstrdup(b->interpreter);
	if (any) {
		/* -s FILE.d that names a probe otherwise: said, not traced
		   as arg0..argN in silence. */
		binary_say_undeclared(b, tr->plan.request->d_program);
		tr->programs[tr->nbinaries] = binary_program(b);
		tr->binaries[tr->nbinaries++] = b;
		return FOUND_PROBES;
	}
	/* Kept by its id alone: a followed tree's programs and libraries
	   are met again and again. */
	tr->probeless = xgrow(tr->probeless, (size_t)tr->nprobeless,
			      sizeof(*tr->probeless));
	tr->probeless[tr->nprobeless++] =
		(struct probeless){ b->dev, b->ino, b->interpreter };
	b->interpreter = NULL;
	free((char *)b->path);
	binary_free(b);
	free(b);
	return r == 0 ? FOUND_NONE : FOUND_NOT_ELF;
}

/* The regular files process pid has mapped, by absolute path, each once
 * (a NULL-terminated list, each and the list to free), or NULL when its
 * maps cannot be read.  Shared libraries by absolute path, as libbpf
 * needs them; locale archives and caches, no ELF files, are found so
 * when read (add_binary), once. */
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
		struct stat st;

		if (!file)
			continue;
		file[strcspn(file, "\n")] = '\0';
		if ((n && strcmp(files[n - 1], file) == 0) ||
		    strstr(file, " (deleted)") || stat(file, &st) != 0 ||
		    !S_ISREG(st.st_mode))
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
		/* The process exists: what is missing is the right to read
		   its mappings (a ptrace access check). */
		if (errno == EACCES || errno == EPERM)
			error_plain("cannot read process %d's program and mappings (/proc/%d/exe: %s): -p of another user's process needs root or CAP_SYS_PTRACE beside CAP_BPF and CAP_PERFMON",
				    pid, pid, strerror(errno));
		else
			error_plain("no process with PID %d (%s)", pid,
				    strerror(errno));
		return -1;
	}
	if (add_binary(tr, exe, &tr->loader) == FOUND_FAILED)
		return -1;
	if (!(files = mapped_files(pid)))
		return 0;
	for (f = files; *f; f++)
		if (add_binary(tr, *f, NULL) == FOUND_FAILED)
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
		const char *loader;
		struct stat st;

		if (stat(files[i], &st) == 0 && known_file(tr, &st, &loader))
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
static void add_libraries(struct tracer *tr, const char *exe,
			  const char *interp)
{
	char line[PATH_MAX + 128];
	char *argv[] = { (char *)interp, (char *)"--list", (char *)exe, NULL };
	posix_spawn_file_actions_t fa;
	int fds[2];
	pid_t pid;
	FILE *p;

	if (!interp || pipe(fds) != 0)
		return;
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

		if (!arrow)
			continue;
		end = arrow + 3 + strcspn(arrow + 3, " \n(");
		*end = '\0';
		if (add_binary(tr, arrow + 3, NULL) == FOUND_FAILED)
			warning_plain("the probes of '%s' are not traced",
				      arrow + 3);
	}
	if (p)
		fclose(p);
	else
		close(fds[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
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

/* What opt names, in order: binaries, the process, the command. */
static int find_binaries(struct tracer *tr)
{
	const struct trace_options *asked = tr->plan.request;
	int i;

	for (i = 0; i < asked->nbinaries; i++) {
		enum found f = add_binary(tr, asked->binaries[i], NULL);

		if (f == FOUND_NONE)
			error_input("'%s' has no probes", asked->binaries[i]);
		else if (f == FOUND_NOT_ELF)
			error_plain("'%s' is not an ELF file",
				    asked->binaries[i]);
		if (f != FOUND_PROBES && f != FOUND_KNOWN)
			return -1;
	}
	if (asked->pid) {
		if (kill(asked->pid, 0) != 0 && errno == ESRCH) {
			error_plain("no process with PID %d", asked->pid);
			return -1;
		}
		if (add_process(tr, asked->pid) != 0)
			return -1;
	}
	if (asked->command) {
		tr->exe = command_path(asked->command[0]);
		if (!tr->exe) {
			error_plain("cannot find the command '%s'",
				    asked->command[0]);
			return -1;
		}
		/* A script's probes are its interpreter's, and the
		   programs it starts are found as it starts them
		   (targets_add_program). */
		char *loader;
		enum found f = add_binary(tr, tr->exe, &loader);

		/* Its loader is watched at its exec (follow.c). */
		if (f != FOUND_FAILED && f != FOUND_NOT_ELF)
			add_libraries(tr, tr->exe, loader);
		free(loader);
		if (f == FOUND_FAILED)
			return -1;
	}
	return 0;
}

/* Binary b's probes that -n chooses, each with what the features do
 * for it (features.c): the one way probes are set up, at the start and
 * when a followed process brings them.  0, or -1 (said) at_start. */
/* What the BPF side does at each firing of probes from on, once their
 * features are settled: decided here, handed over by the session. */
static void describe_probes(struct tracer *tr, int from)
{
	int i;

	for (i = from; i < tr->nprobes; i++) {
		memset(&tr->probes[i].info, 0, sizeof(tr->probes[i].info));
		features_describe(tr, &tr->probes[i], &tr->probes[i].info);
	}
}

static int add_probes(struct tracer *tr, int b, int at_start)
{
	int from = tr->nprobes;

	probes_add(tr, b, tr->plan.request->d_program);
	return features_prepare(tr, b, from, at_start);
}

int targets_find(struct tracer *tr)
{
	const struct trace_options *asked = tr->plan.request;
	int i;

	tr->filter_used = xcalloc((size_t)asked->filters.n + 1, 1);
	if (features_start(tr) != 0 || find_binaries(tr) != 0)
		return -1;
	for (i = 0; i < tr->nbinaries; i++)
		if (add_probes(tr, i, 1) != 0)
			return -1;
	/* A command or a process is followed: the programs it starts may
	   bring the probes, or those -n chooses when it carries none
	   (trace.c says if none ever did). */
	if (!tr->nprobes && (!asked->filters.n || !tr->nbinaries) &&
	    (asked->command || asked->pid))
		return 0;
	/* --where's globs may have left none to trace: said by it. */
	if (!tr->nprobes && asked->where_requests.n && filters_check(tr) != 0)
		return -1;
	if (!tr->nbinaries) {
		error_input("no probes in %s",
			    asked->command ? "the command"
			    : asked->pid	 ? "the process or its libraries"
					 : "the binaries");
		return -1;
	}
	if (!tr->nprobes) {
		error_input("no probe matches %s%s", asked->filters.items[0],
			    asked->filters.n > 1 ? " or the other -n patterns"
					      : "");
		return -1;
	}
	if (tr->nprobes > TRACE_MAX_PROBES) {
		error_input("%d probes: at most %d can be traced at once",
			    tr->nprobes, TRACE_MAX_PROBES);
		return -1;
	}
	if (features_settle(tr) != 0)
		return -1;
	describe_probes(tr, 0);
	return 0;
}

int targets_add_program(struct tracer *tr, const char *path, int with_libraries,
			char **interp)
{
	int b, first = tr->nbinaries, before = tr->nprobes,
	       pairs_before = tr->npairs;

	/* Read before (its libraries were listed then), or no ELF file (a
	   script: its interpreter is exec'd next): nothing new. */
	switch (add_binary(tr, path, interp)) {
	case FOUND_KNOWN:
	case FOUND_NOT_ELF:
		return 0;
	case FOUND_FAILED:
		warning_plain("the probes of '%s' are not traced", path);
		return 0;
	default:
		if (with_libraries)
			add_libraries(tr, path, interp ? *interp : NULL);
	}
	for (b = first; b < tr->nbinaries; b++)
		add_probes(tr, b, 0);
	if (tr->nprobes > TRACE_MAX_PROBES) {
		warning_plain(
			"the probes of '%s' are not traced: at most %d probes at once",
			path, TRACE_MAX_PROBES);
		/* Its pairs are among its own probes: they go with them. */
		probes_drop(tr, before, pairs_before);
	}
	describe_probes(tr, before);
	return tr->nprobes - before;
}

void targets_free(struct tracer *tr)
{
	int i;

	probes_drop(tr, 0, 0);
	features_free(tr);
	free(tr->probes);
	free(tr->pairs);
	free(tr->filter_used);
	free(tr->received); /* --where's counts, written by sinks.c too */
	for (i = 0; i < tr->nsiteless; i++)
		free(tr->siteless[i]);
	free(tr->siteless);
	for (i = 0; i < tr->nprobeless; i++)
		free(tr->probeless[i].interpreter);
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
	free(tr->loader);
}
