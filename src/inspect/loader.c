/*
 * src/inspect/loader.c - what --trace needs of a program's dynamic
 * loader (which it is, the program's PT_INTERP, notes.c reads): where in
 * its file a function of its own is (the debuggers' hook,
 * _dl_debug_state).
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compiler/naming.h"
#include "inspect.h"

static Elf *open_elf(const char *path, int *fd)
{
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	return elf_begin(*fd, ELF_C_READ_MMAP, NULL);
}

/* The address of the function name in elf's dynamic symbols; 0 if none. */
static unsigned long long dynamic_function(Elf *elf, const char *name)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Sym sym;
	size_t i;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM ||
		    !sh.sh_entsize || !(d = elf_getdata(scn, NULL)))
			continue;
		for (i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			const char *s;

			if (!gelf_getsym(d, (int)i, &sym) ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    !sym.st_value)
				continue;
			s = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (s && strcmp(s, name) == 0)
				return sym.st_value;
		}
	}
	return 0;
}

long long binary_function_offset(const char *path, const char *name)
{
	int fd;
	Elf *elf = open_elf(path, &fd);
	unsigned long long addr = elf ? dynamic_function(elf, name) : 0;
	long long off = -1;
	size_t i, n;
	GElf_Phdr ph;

	/* The loadable segment that holds it says where it is in the file. */
	if (addr && elf_getphdrnum(elf, &n) == 0)
		for (i = 0; i < n && off < 0; i++)
			if (gelf_getphdr(elf, (int)i, &ph) &&
			    ph.p_type == PT_LOAD && addr >= ph.p_vaddr &&
			    addr - ph.p_vaddr < ph.p_filesz &&
			    ph.p_offset <= (unsigned long long)INT64_MAX -
						   (addr - ph.p_vaddr))
				off = (long long)(ph.p_offset +
						  (addr - ph.p_vaddr));
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	return off;
}
