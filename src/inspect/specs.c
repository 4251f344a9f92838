/*
 * inspect/specs.c - a note's argument specs, "SIZE@OPERAND" separated by
 * spaces ("-4@%edi 8@8(%rbx)"): the signed size, the float marker and the
 * operand text, read one at a time; never parsed into more than that, so
 * that every reader (--list, --check, --trace) sees one reading.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/naming.h"
#include "inspect/inspect.h"

const char *spec_next(const char *args, struct arg_spec *out)
{
	const char *at, *end;
	char *num_end;
	long size;

	args += strspn(args, " ");
	if (!*args)
		return NULL;
	end = args + strcspn(args, " ");
	/* aarch64 and arm memory operands hold a blank: "[sp, 16]". */
	if ((at = memchr(args, '[', (size_t)(end - args))) &&
	    !memchr(at, ']', (size_t)(end - at))) {
		const char *close = strchr(end, ']');

		if (close)
			end = close + 1;
	}
	memset(out, 0, sizeof(*out));
	size = strtol(args, &num_end, 10);
	out->is_signed = size < 0;
	/* A size no argument has ("-9223372036854775808@%rdi", written by
	   no compiler) reads as 0, the size of no argument, not a negation
	   that overflows. */
	out->size = size > -1024 && size < 1024 ? (int)labs(size) : 0;
	out->is_float = *num_end == 'f';
	at = memchr(args, '@', (size_t)(end - args));
	out->operand = at ? at + 1 : end;
	out->operand_len = (size_t)(end - out->operand);
	out->text = args;
	out->text_len = (size_t)(end - args);
	return end;
}

int spec_count(const char *args)
{
	struct arg_spec a;
	int n = 0;

	while ((args = spec_next(args, &a)))
		n++;
	return n;
}

int spec_at(const char *args, int i, struct arg_spec *out)
{
	while ((args = spec_next(args, out)))
		if (i-- == 0)
			return 1;
	return 0;
}

int specs_agree(const struct bin_probe *p, int i)
{
	const struct bin_site *s;
	struct arg_spec first, a;
	int have = p->sites && spec_at(p->sites->args, i, &first);

	for (s = p->sites; s; s = s->next) {
		int here = spec_at(s->args, i, &a);

		if (here != have || (here && (a.size != first.size ||
					      a.is_signed != first.is_signed ||
					      a.is_float != first.is_float)))
			return 0;
	}
	return 1;
}
