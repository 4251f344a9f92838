/*
 * compiler/input.c - read the provider file, either as it is or through the C
 * preprocessor (-C).  cpp is run directly, without a shell: $CPP split
 * on blanks (so CPP="gcc -E" works), else "cpp".  Inputs that are not
 * regular files, or absurdly large, are refused with a reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compiler/input.h"
#include "options.h"

/* Larger inputs are refused: 100,000 probes take about 6 MiB. */
#define MAX_INPUT (256u << 20)

extern char **environ;

/* Read to the end.  A regular file's size (size_hint) lets it be read
 * in one buffer of the right size; other inputs grow as they come.  The
 * text is followed by the scanner's two end-of-buffer NULs. */
static char *read_fd(int fd, const char *name, size_t size_hint, size_t *len)
{
	struct buf b = { 0 };
	size_t room;

	buf_reserve(&b,
		    (size_hint && size_hint <= MAX_INPUT ? size_hint : 65536) +
			    3);
	for (;;) {
		ssize_t n;

		/* Keep 2 bytes for the NULs (and 1 for buf's own). */
		room = b.cap - b.len - 3;
		if (room == 0) {
			buf_reserve(&b, b.cap);
			continue;
		}
		n = read(fd, b.data + b.len, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error_plain("cannot read '%s': %s", name,
				    strerror(errno));
			buf_free(&b);
			return NULL;
		}
		if (n == 0)
			break;
		b.len += (size_t)n;
		if (b.len > MAX_INPUT) {
			error_plain("'%s' is larger than %u MiB", name,
				    MAX_INPUT >> 20);
			buf_free(&b);
			return NULL;
		}
	}
	*len = b.len;
	b.data[b.len] = b.data[b.len + 1] = '\0';
	return b.data;
}

static char *read_plain(const char *path, size_t *len, int *regular)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	const char *refused = NULL;
	char *text = NULL;

	if (fd < 0) {
		error_plain("cannot open '%s': %s", path, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0)
		error_plain("cannot read '%s': %s", path, strerror(errno));
	else if (S_ISDIR(st.st_mode))
		refused = "it is a directory";
	else if (S_ISCHR(st.st_mode))
		refused = "it is a device";
	else
		text = read_fd(fd, path,
			       S_ISREG(st.st_mode) ? (size_t)st.st_size : 0,
			       len);
	if (refused)
		error_plain("cannot read '%s': %s", path, refused);
	*regular = text && S_ISREG(st.st_mode);
	close(fd);
	return text;
}

/* Returns the preprocessed text, or NULL after saying why. */
static char *run_cpp(const char *path, const struct cpp_options *cpp,
		     size_t *len)
{
	const char *cmd = getenv("CPP");
	char *words = xstrdup(cmd && *cmd ? cmd : "cpp");
	/* At most one word for every two bytes of $CPP, then ours. */
	char **argv = xcalloc(strlen(words) / 2 + 1 + (size_t)cpp->nargs + 5,
			      sizeof(char *));
	int argc = 0, pipefd[2], status, i;
	posix_spawn_file_actions_t fa;
	char *w, *save = NULL, *text;
	struct stat st;
	pid_t pid;

	if (stat(path, &st) != 0) {
		error_plain("cannot open '%s': %s", path, strerror(errno));
		free(words);
		free(argv);
		return NULL;
	}
	for (w = strtok_r(words, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save))
		argv[argc++] = w;
	argv[argc++] = (char *)"-x";
	argv[argc++] = (char *)"c";
	argv[argc++] = (char *)"-C"; /* keep comments: probes' docs */
	for (i = 0; i < cpp->nargs; i++)
		argv[argc++] = cpp->args[i];
	argv[argc++] = (char *)path;
	argv[argc] = NULL;

	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		error_plain("cannot create a pipe: %s", strerror(errno));
		free(words);
		free(argv);
		return NULL;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], STDOUT_FILENO);
	errno = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	if (errno != 0) {
		error_plain("cannot run the C preprocessor '%s': %s", argv[0],
			    strerror(errno));
		close(pipefd[0]);
		free(words);
		free(argv);
		return NULL;
	}
	text = read_fd(pipefd[0], argv[0], 0, len);
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (text && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
		/* cpp has said why on stderr; its errors are the input's. */
		error_input("the C preprocessor '%s' failed on '%s'", argv[0],
			    path);
		free(text);
		text = NULL;
	}
	free(words);
	free(argv);
	return text;
}

char *input_read(const char *path, const struct cpp_options *cpp, size_t *len,
		 int *regular)
{
	*regular = 0;
	if (cpp && cpp->enabled)
		return run_cpp(path, cpp, len);
	return read_plain(path, len, regular);
}
