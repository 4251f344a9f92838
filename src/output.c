/*
 * output.c - write an output atomically: a temporary file beside the
 * destination, renamed over it only when complete; on any failure the
 * temporary is removed and the destination is untouched.  Paths that are
 * not regular files (/dev/null, /dev/stdout) are written in place.  Every
 * emitter writes the same way: output_open (main.c), then appends to the
 * buffer, then output_commit or output_abort.
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

/* Is the link at path (lstat'ed into *st) one the kernel's
 * fs.protected_symlinks would not follow: in a sticky world-writable
 * directory, owned neither by the directory's owner nor by us? */
static int link_planted(const char *path, const struct stat *st)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path))
			  : xstrdup(".");
	struct stat ds;
	int planted = 0;

	if (stat(dir, &ds) == 0 && (ds.st_mode & S_ISVTX) &&
	    (ds.st_mode & S_IWOTH))
		planted = st->st_uid != ds.st_uid && st->st_uid != geteuid();
	free(dir);
	return planted;
}

/* output_flush() writes pieces of this size: a long trace's timeline
 * never sits whole in memory.  The emitters gather their output whole:
 * writing their pieces as they went measured 1.08x on the 2,000-probe
 * file, under the 10% rule (BENCHMARKS.md). */
#define OUTPUT_CHUNK (64u * 1024)

static void output_failed(struct output *o, int err)
{
	if (!o->failed)
		error_plain("cannot write '%s': %s", o->path, strerror(err));
	o->failed = 1;
}

/* Write what buf holds and empty it; after a failure, only empty it. */
static void write_pending(struct output *o)
{
	if (!o->failed && o->buf.len &&
	    write_all(o->fd, o->buf.data, o->buf.len) != 0)
		output_failed(o, errno);
	o->buf.len = 0;
}

int output_open(struct output *o, const char *path)
{
	struct stat st;
	const char *dest = path;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->fd = -1;
	/* Not a symlink planted by another user in a sticky world-writable
	   directory (/tmp): the kernel's fs.protected_symlinks refuses to
	   follow one for open, and resolving it here would get around it. */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
	    link_planted(path, &st)) {
		error_plain("cannot write '%s': a symlink another user owns, in a sticky world-writable directory (not followed, as the kernel's protected_symlinks would not)",
			    path);
		return -1;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode)) {
			error_plain("cannot write '%s': it is a directory",
				    path);
			return -1;
		}
		o->fd = open(path, O_WRONLY | O_CLOEXEC);
		if (o->fd < 0) {
			error_plain("cannot write '%s': %s", path,
				    strerror(errno));
			return -1;
		}
		o->in_place = 1;
	} else {
		/* Write through a symlink to the file it names, as cc -o
		   does. */
		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
			o->real = realpath(path, NULL);
			if (!o->real)
				o->real = link_target(path);
			dest = o->real;
		}
		o->dest = dest;
		o->tmp = xasprintf("%s.tmp.XXXXXX", dest);
		o->fd = mkstemp(o->tmp);
		if (o->fd < 0) {
			error_plain("cannot create '%s': %s", path,
				    strerror(errno));
			free(o->tmp);
			free(o->real);
			o->tmp = o->real = NULL;
			return -1;
		}
	}
	/* Only once nothing can fail: there is no buffer to leak. */
	buf_reserve(&o->buf, OUTPUT_CHUNK + 4096);
	return 0;
}

void output_flush(struct output *o)
{
	if (o->buf.len >= OUTPUT_CHUNK)
		write_pending(o);
}

int output_copy_fd(struct output *o, int fd)
{
	off_t off = 0;
	struct stat st;
	ssize_t n;

	write_pending(o);
	if (fstat(fd, &st) != 0)
		output_failed(o, errno);
	while (!o->failed && off < st.st_size) {
		buf_reserve(&o->buf, OUTPUT_CHUNK);
		n = pread(fd, o->buf.data, OUTPUT_CHUNK, off);
		if (n <= 0) {
			output_failed(o, n < 0 ? errno : EIO);
			break;
		}
		if (write_all(o->fd, o->buf.data, (size_t)n) != 0)
			output_failed(o, errno);
		off += n;
	}
	return o->failed ? -1 : 0;
}

static void output_close(struct output *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	free(o->tmp);
	free(o->real);
	buf_free(&o->buf);
	o->tmp = o->real = NULL;
}

void output_abort(struct output *o)
{
	if (o->tmp && o->fd >= 0)
		unlink(o->tmp);
	output_close(o);
}

int output_commit(struct output *o)
{
	mode_t um;

	write_pending(o);
	if (!o->in_place && !o->failed) {
		/* mkstemp makes 0600; give the mode any created file would
		   have. */
		um = umask(0);
		umask(um);
		if (fchmod(o->fd, 0666 & ~um) != 0)
			output_failed(o, errno);
	}
	if (close(o->fd) != 0)
		output_failed(o,
			      errno); /* said only if nothing failed before */
	o->fd = -1;
	if (o->tmp) {
		if (!o->failed && rename(o->tmp, o->dest) != 0)
			output_failed(o, errno);
		if (o->failed)
			unlink(o->tmp);
	}
	output_close(o);
	return o->failed ? -1 : 0;
}
