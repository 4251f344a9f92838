/*
 * inspect/debuginfo.c - where a binary's separate DWARF is looked for,
 * in place of libdwfl's standard search: probegen runs as root on
 * binaries it did not build, and a hostile .gnu_debuglink
 * ("../../../../dev/zero", a FIFO, "../../etc/shadow", a link to
 * /proc/kmsg) made that search read a device for ever, block in open or
 * in read, or read any file.  Here:
 *   - by build-id: /usr/lib/debug/.build-id/xx/rest.debug;
 *   - by .gnu_debuglink, only a plain name (no '/'): beside the binary,
 *     in its .debug/, and under /usr/lib/debug/ + the binary's directory;
 * each opened O_NONBLOCK and kept so, and kept only when it is a regular
 * file on a file system of files (not procfs, sysfs and their kin,
 * whose sizes are not their contents), starts as an ELF file does, and
 * is mostly data (not a sparse hole); a debuglink's file only when its
 * CRC (or its build-id, when the binary has one) is the binary's, and
 * its CRC is read within DEBUGINFO_CRC_SECONDS.  A candidate passed over
 * for its size, its holes or its time is said.  No read can block or
 * run long.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "compiler/naming.h"
#include "inspect/inspect.h"

#ifdef HAVE_LIBDW
#include <elfutils/libdwelf.h>

#include "inspect/debuginfo.h"

#define DEBUG_DIR "/usr/lib/debug"
/* Larger than any debug file a real program ships (Chromium's is about
 * 4 GiB unsplit; a split one far less). */
#define DEBUGINFO_MAX_BYTES (8ll << 30)
/* A debuglink's CRC is read at a few hundred MB a second: a second
 * checks any debug file a build-id would not have found first, and a
 * hostile 8 GiB one costs a second, not twenty. */
#define DEBUGINFO_CRC_SECONDS 1.0

/* Said of a candidate passed over: its path escaped (the debuglink's
 * name is the binary's). */
static void passed_over(const char *path, const char *why)
{
	struct buf b = { 0 };

	buf_escaped(&b, path, strlen(path), 0);
	warning_plain("'%s' is not read for debugging information: %s",
		      b.data, why);
	buf_free(&b);
}

/* File systems whose "regular files" are the kernel's, not files:
 * their sizes are not their contents and their reads may block
 * (/proc/kmsg) or act. */
static int kernel_file_system(int fd)
{
	static const long kinds[] = { PROC_SUPER_MAGIC, SYSFS_MAGIC,
				      DEBUGFS_MAGIC,	TRACEFS_MAGIC,
				      SECURITYFS_MAGIC, CGROUP_SUPER_MAGIC,
				      CGROUP2_SUPER_MAGIC, BPF_FS_MAGIC,
				      EFIVARFS_MAGIC,	PSTOREFS_MAGIC };
	struct statfs fs;
	size_t i;

	if (fstatfs(fd, &fs) != 0)
		return 1;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if ((long)fs.f_type == kinds[i])
			return 1;
	return 0;
}

/* path opened for reading if it may be a debug file: a regular file of
 * a sane size on a file system of files, mostly data, that starts as an
 * ELF file does; its descriptor, or -1.  O_NONBLOCK stays: a FIFO does
 * not block the open, nor a file of the kernel's a read. */
static int open_candidate(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	unsigned char magic[4];
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    kernel_file_system(fd) ||
	    pread(fd, magic, sizeof(magic), 0) != (ssize_t)sizeof(magic) ||
	    memcmp(magic, "\177ELF", 4) != 0) {
		close(fd);
		return -1;
	}
	if (st.st_size > DEBUGINFO_MAX_BYTES ||
	    (long long)st.st_blocks * 512 < st.st_size / 2) {
		passed_over(path, st.st_size > DEBUGINFO_MAX_BYTES
					  ? "larger than 8 GiB"
					  : "mostly a hole (a sparse file)");
		close(fd);
		return -1;
	}
	return fd;
}

/* The CRC-32 .gnu_debuglink records (the common reflected 0xedb88320
 * one) of the regular file fd, from its start: 0, or -1 when it cannot
 * be read within DEBUGINFO_CRC_SECONDS (said). */
static int file_crc(int fd, const char *path, GElf_Word *crc)
{
	static unsigned table[256];
	unsigned char buf[65536];
	unsigned c = 0xffffffffu, k;
	double end = now_seconds() + DEBUGINFO_CRC_SECONDS;
	off_t at = 0;
	ssize_t n, i;

	if (!table[1])
		for (k = 0; k < 256; k++) {
			unsigned v = k;
			int b;

			for (b = 0; b < 8; b++)
				v = v & 1 ? 0xedb88320u ^ (v >> 1) : v >> 1;
			table[k] = v;
		}
	while ((n = pread(fd, buf, sizeof(buf), at)) > 0) {
		for (i = 0; i < n; i++)
			c = table[(c ^ buf[i]) & 0xff] ^ (c >> 8);
		at += n;
		if (!(at & ((64 << 20) - 1)) && now_seconds() > end) {
			passed_over(path, "its CRC takes more than a second to check");
			return -1;
		}
	}
	if (n < 0)
		return -1;
	*crc = c ^ 0xffffffffu;
	return 0;
}

/* Does the candidate fd belong to the module: the same build-id when
 * both have one, else the debuglink's CRC? */
static int belongs(Dwfl_Module *mod, int fd, const char *path,
		   GElf_Word crc)
{
	const unsigned char *id;
	const void *cid;
	GElf_Addr vaddr;
	GElf_Word got;
	Elf *elf;
	int n, cn, same = -1;

	n = dwfl_module_build_id(mod, &id, &vaddr);
	if (n > 0 && (elf = elf_begin(fd, ELF_C_READ_MMAP, NULL))) {
		cn = (int)dwelf_elf_gnu_build_id(elf, &cid);
		same = cn == n && memcmp(cid, id, (size_t)n) == 0;
		elf_end(elf);
	}
	if (same >= 0)
		return same;
	return file_crc(fd, path, &got) == 0 && got == crc;
}

/* Keep fd, found at path: its name for libdwfl. */
static int found(int fd, const char *path, char **name)
{
	*name = xstrdup(path);
	return fd;
}

int debuginfo_find(Dwfl_Module *mod, void **userdata, const char *modname,
		   Dwarf_Addr base, const char *file_name,
		   const char *debuglink_file, GElf_Word debuglink_crc,
		   char **debuginfo_file_name)
{
	const unsigned char *id;
	GElf_Addr vaddr;
	char *dir, *slash, path[4096];
	const char *const places[] = { "%s/%s", "%s/.debug/%s",
				       DEBUG_DIR "%s/%s" };
	int n, i, fd;

	(void)userdata;
	(void)base;
	*debuginfo_file_name = NULL;
	n = dwfl_module_build_id(mod, &id, &vaddr);
	if (n > 1) {
		int k = snprintf(path, sizeof(path), DEBUG_DIR "/.build-id/%02x/",
				 id[0]);

		for (i = 1; i < n && k < (int)sizeof(path) - 8; i++)
			k += snprintf(path + k, sizeof(path) - (size_t)k, "%02x",
				      id[i]);
		snprintf(path + k, sizeof(path) - (size_t)k, ".debug");
		if ((fd = open_candidate(path)) >= 0) {
			if (belongs(mod, fd, path, 0))
				return found(fd, path, debuginfo_file_name);
			close(fd);
		}
	}
	if (!debuglink_file || !*debuglink_file ||
	    strchr(debuglink_file, '/') || !strcmp(debuglink_file, ".") ||
	    !strcmp(debuglink_file, ".."))
		return -1; /* only a plain name, next to the binary */
	dir = xstrdup(file_name ? file_name : modname ? modname : "");
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	for (i = 0; i < 3; i++) {
		/* /usr/lib/debug holds absolute directories only. */
		if (i == 2 && dir[0] != '/')
			continue;
		if (snprintf(path, sizeof(path), places[i], dir,
			     debuglink_file) >= (int)sizeof(path))
			continue;
		/* Not the binary itself (a debuglink naming its own file). */
		if (file_name && strcmp(path, file_name) == 0)
			continue;
		if ((fd = open_candidate(path)) < 0)
			continue;
		if (belongs(mod, fd, path, debuglink_crc)) {
			free(dir);
			return found(fd, path, debuginfo_file_name);
		}
		close(fd);
	}
	free(dir);
	return -1;
}
#endif
