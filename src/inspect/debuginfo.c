/*
 * inspect/debuginfo.c - where a binary's separate DWARF is looked for,
 * in place of libdwfl's standard search: probegen runs as root on
 * binaries it did not build, and a hostile .gnu_debuglink
 * ("../../../../dev/zero", a FIFO, "../../etc/shadow") made that search
 * read a device for ever, block in open, or read any file.  Here:
 *   - by build-id: /usr/lib/debug/.build-id/xx/rest.debug;
 *   - by .gnu_debuglink, only a plain name (no '/'): beside the binary,
 *     in its .debug/, and under /usr/lib/debug/ + the binary's directory;
 * each opened O_NONBLOCK, kept only when it is a regular file of at most
 * DEBUGINFO_MAX_BYTES, and a debuglink's file only when its CRC (or its
 * build-id, when the binary has one) is the binary's.  Every read is of a
 * regular file of bounded size: no walk can hang on it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compiler/naming.h"
#include "inspect/inspect.h"

#ifdef HAVE_LIBDW
#include <elfutils/libdwelf.h>

#include "inspect/debuginfo.h"

#define DEBUG_DIR "/usr/lib/debug"
/* Larger than any debug file a real program ships (Chromium's is about
 * 4 GiB unsplit; a split one far less), small enough to read through. */
#define DEBUGINFO_MAX_BYTES (8ll << 30)

/* path opened for reading if it is a regular file of a sane size: its
 * descriptor, or -1.  O_NONBLOCK: a FIFO must not block the open. */
static int open_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > DEBUGINFO_MAX_BYTES) {
		close(fd);
		return -1;
	}
	/* Regular: reads will not block; back to plain reads. */
	fcntl(fd, F_SETFL, 0);
	return fd;
}

/* The CRC-32 .gnu_debuglink records (the common reflected 0xedb88320
 * one) of the regular file fd, from its start. */
static int file_crc(int fd, GElf_Word *crc)
{
	static unsigned table[256];
	unsigned char buf[65536];
	unsigned c = 0xffffffffu, k;
	ssize_t n, i;

	if (!table[1])
		for (k = 0; k < 256; k++) {
			unsigned v = k;
			int b;

			for (b = 0; b < 8; b++)
				v = v & 1 ? 0xedb88320u ^ (v >> 1) : v >> 1;
			table[k] = v;
		}
	if (lseek(fd, 0, SEEK_SET) != 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (i = 0; i < n; i++)
			c = table[(c ^ buf[i]) & 0xff] ^ (c >> 8);
	if (n < 0 || lseek(fd, 0, SEEK_SET) != 0)
		return -1;
	*crc = c ^ 0xffffffffu;
	return 0;
}

/* Does the candidate fd belong to the module: the same build-id when
 * both have one, else the debuglink's CRC? */
static int belongs(Dwfl_Module *mod, int fd, GElf_Word crc)
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
	return file_crc(fd, &got) == 0 && got == crc;
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
		if ((fd = open_regular(path)) >= 0) {
			if (belongs(mod, fd, 0))
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
		if ((fd = open_regular(path)) < 0)
			continue;
		if (belongs(mod, fd, debuglink_crc)) {
			free(dir);
			return found(fd, path, debuginfo_file_name);
		}
		close(fd);
	}
	free(dir);
	return -1;
}
#endif
