/*
 * src/inspect/loader.c - what --trace needs of a program's dynamic
 * loader: which it is (the program's PT_INTERP).
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inspect.h"

static Elf *open_elf(const char *path, int *fd)
{
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	return elf_begin(*fd, ELF_C_READ_MMAP, NULL);
}

char *binary_interpreter(const char *path)
{
	int fd;
	Elf *elf = open_elf(path, &fd);
	char *interp = NULL;
	size_t i, n, size;
	const char *raw = elf ? elf_rawfile(elf, &size) : NULL;
	GElf_Phdr ph;

	if (raw && elf_getphdrnum(elf, &n) == 0)
		for (i = 0; i < n && !interp; i++)
			if (gelf_getphdr(elf, (int)i, &ph) &&
			    ph.p_type == PT_INTERP && ph.p_offset < size &&
			    ph.p_filesz <= size - ph.p_offset && ph.p_filesz)
				interp = xstrndup(raw + ph.p_offset,
						  strnlen(raw + ph.p_offset,
							  ph.p_filesz));
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	return interp;
}
