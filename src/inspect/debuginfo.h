/*
 * src/inspect/debuginfo.h - libdwfl's find_debuginfo callback of
 * probegen's own (debuginfo.c): a binary's separate DWARF by build-id,
 * or by a .gnu_debuglink that is a plain name, in regular files of
 * bounded size only.  Every Dwfl_Callbacks of probegen's uses it.
 */
#ifndef PROBEGEN_DEBUGINFO_H
#define PROBEGEN_DEBUGINFO_H

#include <elfutils/libdwfl.h>

int debuginfo_find(Dwfl_Module *mod, void **userdata, const char *modname,
		   Dwarf_Addr base, const char *file_name,
		   const char *debuglink_file, GElf_Word debuglink_crc,
		   char **debuginfo_file_name);

#endif
