/*
 * src/inspect/fit.c - --bpftrace for binaries: a binary's recorded
 * declarations as a program (--bpftrace BINARY), or a .d file's program
 * cut to the probes the binaries carry (--bpftrace -s FILE.d BINARY...).
 * Reads binaries through notes.c; says what it leaves out.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/naming.h"
#include "inspect.h"

/* A binary's recorded declarations, unchecked: its names may be
 * anything, and what it holds never speaks as a compiler error. */
struct program *recorded_program(const char *path, int *is_library)
{
	struct program *prog;
	struct binary b;

	if (binary_read(path, &b) != 0)
		return NULL;
	*is_library = b.is_library;
	prog = binary_program(&b);
	binary_free(&b);
	return prog;
}

/* The probes the binaries carry at a site, as "provider:name". */
struct carried {
	struct name_set names;
	struct buf text;    /* every name, NUL-separated, owned here */
	struct buf dropped; /* those left out, for the warning */
	int ndropped;
};

static int is_carried(const struct probe *pr, void *ctx)
{
	struct carried *c = ctx;
	char *name = xasprintf("%s:%s", pr->provider->name, pr->name);
	int found = name_set_find(&c->names, name) != NULL;

	if (!found && c->ndropped++ < 10)
		buf_cat(&c->dropped, c->dropped.len ? ", " : "", name, NULL);
	free(name);
	return found;
}

int fit_to_binaries(struct program *prog, const char *what,
		    const char *const *paths, int n, struct target *tg,
		    char **names_out, int *all_libraries)
{
	struct carried c = { 0 };
	struct buf names = { 0 };
	int i, libraries = 0, dropped, status = 0;
	size_t at;

	name_set_init(&c.names, 64);
	for (i = 0; i < n; i++) {
		struct binary b;
		const struct bin_probe *p;

		if (binary_read(paths[i], &b) != 0) {
			status = -1;
			goto done;
		}
		if (i == 0)
			target_from_elf(paths[i], tg);
		libraries += b.is_library;
		for (p = b.probes; p; p = p->next) {
			if (!p->sites)
				continue;
			buf_cat(&c.text, p->provider, ":", p->name, NULL);
			buf_add(&c.text, "", 1);
		}
		buf_cat(&names, names.len ? ", " : "", path_base_name(paths[i]),
			NULL);
		binary_free(&b);
	}
	/* The names are in place now that the buffer has stopped moving. */
	for (at = 0; at < c.text.len; at += strlen(c.text.data + at) + 1)
		name_set_add(&c.names, c.text.data + at,
			     strlen(c.text.data + at), prog);
	dropped = program_keep_probes(prog, is_carried, &c);
	if (dropped && !prog->nprobes) {
		error_input("none of the probes of %s are in %s", what,
			    names.data);
		status = -1;
		goto done;
	}
	if (dropped)
		warning_plain("%d probe%s of %s left out, not in %s: %s%s",
			      dropped, dropped == 1 ? "" : "s", what,
			      names.data, c.dropped.data,
			      dropped > 10 ? ", ..." : "");
	*names_out = names.data; /* the caller's to free */
	*all_libraries = libraries == n;
	names = (struct buf){ 0 };
done:
	name_set_free(&c.names);
	buf_free(&c.text);
	buf_free(&c.dropped);
	buf_free(&names);
	return status;
}
