/*
 * compiler/defines.c - what the -D and -U flags real builds pass to dtrace -G
 * mean.  SystemTap's -G compiles a C file of semaphore definitions that
 * includes <sys/sdt.h>, with these flags; probegen writes that object
 * itself, so it reads from them only what could change it:
 *
 *   STAP_SDT_V1   semaphores NAME_semaphore (no provider), default visibility
 *   STAP_SDT_V2   semaphores PROVIDER_NAME_semaphore, default visibility
 *   neither       semaphores PROVIDER_NAME_semaphore, hidden
 *
 * The other macros of sys/sdt.h change probe sites only, of which the
 * object has none; a program's own macros (-DHAVE_X, -DNDEBUG) reach no
 * line of that C file.  What is left could change how the compiler
 * reads the file itself: a reserved name (__x, _X) or a word of the
 * file (unsigned, short, section...).  Those are named in a warning,
 * since SystemTap's object could differ from probegen's.
 */
#include <string.h>

#include "compiler/input.h"
#include "options.h"

/* The words SystemTap's generated C file for -G is written with. */
static const char *const source_words[] = {
	"unsigned", "short",	  "static",   "void",	"extern",
	"section",  "visibility", "hidden",   "unused", "asm",
	"inline",   "const",	  "volatile", "int",	"char",
	"long",	    "signed",	  "typedef",  "struct",
};

/* sys/sdt.h's own switches that only change probe sites. */
static const char *const site_only[] = {
	"_SDT_HAS_SEMAPHORES",
	"STAP_HAS_SEMAPHORES",
	"SDT_USE_VARIADIC",
	"STAP_SDT_ARG_CONSTRAINT",
	"_SDT_ASM_SECTION_AUTOGROUP_SUPPORT",
};

static int in_list(const char *name, size_t n, const char *const *list,
		   size_t count)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (strlen(list[i]) == n && strncmp(name, list[i], n) == 0)
			return 1;
	return 0;
}

/* Could defining this name change how a compiler reads SystemTap's
 * semaphore file? */
static int changes_compiler(const char *name, size_t n)
{
	if (in_list(name, n, site_only, ARRAY_SIZE(site_only)))
		return 0;
	if (name[0] == '_' &&
	    (name[1] == '_' || (name[1] >= 'A' && name[1] <= 'Z')))
		return 1;
	return in_list(name, n, source_words, ARRAY_SIZE(source_words));
}

int defines_sdt_version(const struct cpp_options *cpp, int warn)
{
	int v1 = 0, v2 = 0, i;

	for (i = 0; i < cpp->nargs; i++) {
		const char *a = cpp->args[i], *name = a + 2;
		size_t n = strcspn(name, "=(");
		int defined = a[1] == 'D';

		if (a[1] != 'D' && a[1] != 'U')
			continue; /* -I: nothing to the object */
		if (n == 11 && strncmp(name, "STAP_SDT_V1", 11) == 0)
			v1 = defined;
		else if (n == 11 && strncmp(name, "STAP_SDT_V2", 11) == 0)
			v2 = defined;
		else if (warn && defined && changes_compiler(name, n))
			warning_plain(
				"'%s' ignored: probegen writes the -G object itself, where SystemTap's compiler would see it",
				a);
	}
	return v1 ? 1 : v2 ? 2 : 0;
}
