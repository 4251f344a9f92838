/*
 * output.c - write an output atomically: a temporary file beside the
 * destination, renamed over it only when complete; on any failure the
 * temporary is removed and the destination is untouched.  Paths that are
 * not regular files (/dev/null, /dev/stdout) are written in place.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probegen.h"

static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Where a dangling symlink points, relative to the link's directory. */
static char *link_target(const char *link)
{
	char target[PATH_MAX];
	const char *slash = strrchr(link, '/');
	ssize_t n = readlink(link, target, sizeof(target) - 1);

	if (n < 0)
		return xstrdup(link);
	target[n] = '\0';
	if (target[0] == '/' || !slash)
		return xstrdup(target);
	return xasprintf("%.*s/%s", (int)(slash - link), link, target);
}

int output_write(const char *path, const void *data, size_t len)
{
	struct stat st;
	char *real = NULL, *tmp;
	const char *dest = path;
	int fd, err;
	mode_t um;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			error_plain("cannot write '%s': it is a directory", path);
			return -1;
		}
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write_all(fd, data, len) != 0 ||
		    close(fd) != 0) {
			error_plain("cannot write '%s': %s", path,
				    strerror(errno));
			return -1;
		}
		return 0;
	}
	/* Write through a symlink to the file it names, as cc -o does. */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		real = realpath(path, NULL);
		if (!real)
			real = link_target(path);
		dest = real;
	}
	tmp = xasprintf("%s.tmp.XXXXXX", dest);
	fd = mkstemp(tmp);
	if (fd < 0) {
		error_plain("cannot create '%s': %s", path, strerror(errno));
		free(tmp);
		free(real);
		return -1;
	}
	um = umask(0);
	umask(um);
	/* mkstemp makes 0600; give the mode any created file would have. */
	if (write_all(fd, data, len) != 0 || fchmod(fd, 0666 & ~um) != 0 ||
	    close(fd) != 0) {
		err = errno;
		close(fd);
		unlink(tmp);
		error_plain("cannot write '%s': %s", path, strerror(err));
		free(tmp);
		free(real);
		return -1;
	}
	if (rename(tmp, dest) != 0) {
		err = errno;
		unlink(tmp);
		error_plain("cannot write '%s': %s", path, strerror(err));
		free(tmp);
		free(real);
		return -1;
	}
	free(tmp);
	free(real);
	return 0;
}
