/*
 * inspect_list.c - --list [--json] BINARY...: every probe a binary
 * carries (executables, shared libraries, objects), read by notes.c:
 * provider:name, its semaphore, each site's address and argument specs,
 * and where the binary records declarations (.note.probegen), each
 * argument's name and type.  Binaries built with SystemTap's dtrace list
 * too, without names.
 */
#include <stdlib.h>
#include <string.h>

#include "probegen.h"

/* s as a JSON string, quoted and escaped: a binary's strings may hold
 * any byte. */
static void json_string(FILE *f, struct buf *scratch, const char *s)
{
	scratch->len = 0;
	buf_json_string(scratch, s);
	fwrite(scratch->data, 1, scratch->len, f);
}

/* s escaped for a terminal. */
static void text_string(FILE *f, struct buf *scratch, const char *s)
{
	scratch->len = 0;
	buf_escaped(scratch, s, strlen(s), 0);
	fwrite(scratch->data, 1, scratch->len, f);
}

/* The pairs the binary's probe names give (pairs.c). */
static void pairs_text(FILE *f, struct buf *t, const struct program *prog)
{
	struct pair *pairs = pairs_of(prog), *p;

	for (p = pairs; p; p = p->next) {
		fputs(p == pairs ? "  pairs:\n" : "", f);
		fputs("    ", f);
		text_string(f, t, *p->stem ? p->stem : p->start->name);
		fputs(": ", f);
		text_string(f, t, p->start->name);
		fputs(" -> ", f);
		text_string(f, t, p->end->name);
		fputs(", per thread\n", f);
	}
	pairs_free(pairs);
}

static void pairs_json(FILE *f, struct buf *t, const struct program *prog)
{
	struct pair *pairs = pairs_of(prog), *p;
	struct buf label = { 0 };

	fputs(", \"pairs\": [", f);
	for (p = pairs; p; p = p->next) {
		fputs(p == pairs ? "{\"work\": " : ", {\"work\": ", f);
		json_string(f, t, *p->stem ? p->stem : p->start->name);
		label.len = 0;
		buf_printf(&label, "%s:%s", p->start->provider->name, p->start->name);
		fputs(", \"start\": ", f);
		json_string(f, t, label.data);
		label.len = 0;
		buf_printf(&label, "%s:%s", p->end->provider->name, p->end->name);
		fputs(", \"end\": ", f);
		json_string(f, t, label.data);
		fputc('}', f);
	}
	fputc(']', f);
	buf_free(&label);
	pairs_free(pairs);
}

static void list_text(FILE *f, const struct binary *b,
		      const struct program *prog)
{
	const struct bin_probe *p;
	const struct bin_site *s;
	struct buf t = { 0 };
	int n = 0;

	for (p = b->probes; p; p = p->next)
		n += p->nsites > 0;
	text_string(f, &t, b->path);
	fprintf(f, ": %d probe%s%s\n", n, n == 1 ? "" : "s",
		b->nprobes && !b->has_base && !b->is_object
			? " (no .stapsdt.base: gdb ignores them)" : "");
	for (p = b->probes; p; p = p->next) {
		const struct probe *pr = binary_declared(p);
		const struct param *q;
		const char *spec;
		struct arg_spec a;
		int i = 0;

		if (!p->sites)
			continue; /* declared by the -G object, never fired */
		spec = p->sites->args;

		fputs("  ", f);
		text_string(f, &t, p->provider);
		fputc(':', f);
		text_string(f, &t, p->name);
		if (p->semaphore)
			fprintf(f, "  semaphore 0x%llx", p->semaphore);
		fputc('\n', f);
		for (s = p->sites; s; s = s->next) {
			fprintf(f, "    site 0x%llx  ", s->pc);
			text_string(f, &t, s->args);
			fputc('\n', f);
		}
		q = pr ? pr->native : NULL;
		while ((spec = spec_next(spec, &a))) {
			t.len = 0;
			if (pr) {
				arg_display_name(&t, pr, i);
				buf_lit(&t, ": ");
				if (q)
					type_print_d(&t, q->type, NULL);
			}
			fprintf(f, "    arg%d  %-30s %s%d bytes%s\n", i,
				pr ? t.data : "(not declared)",
				a.is_signed ? "signed, " : "", a.size,
				a.is_float ? ", float" : "");
			if (q)
				q = q->next;
			i++;
		}
	}
	pairs_text(f, &t, prog);
	buf_free(&t);
}

static void list_json(FILE *f, const struct binary *b,
		      const struct program *prog)
{
	const struct bin_probe *p;
	const struct bin_site *s;
	struct buf t = { 0 };
	int first = 1;

	fputs("{\"binary\": ", f);
	json_string(f, &t, b->path);
	fprintf(f, ", \"arch\": \"%s\", \"stapsdt_base\": %s, \"probes\": [",
		b->arch, b->has_base ? "true" : "false");
	for (p = b->probes; p; p = p->next) {
		const struct probe *pr = binary_declared(p);
		const struct param *q = pr ? pr->native : NULL;
		const char *spec = p->sites ? p->sites->args : "";
		struct arg_spec a;
		int i = 0;

		if (!p->sites)
			continue;
		fprintf(f, "%s\n  {\"provider\": ", first ? "" : ",");
		json_string(f, &t, p->provider);
		fputs(", \"name\": ", f);
		json_string(f, &t, p->name);
		fprintf(f, ", \"semaphore\": \"0x%llx\", \"sites\": [", p->semaphore);
		first = 0;
		for (s = p->sites; s; s = s->next) {
			fprintf(f, "%s{\"address\": \"0x%llx\", \"args\": ",
				s == p->sites ? "" : ", ", s->pc);
			json_string(f, &t, s->args);
			fputc('}', f);
		}
		fputs("], \"arguments\": [", f);
		while ((spec = spec_next(spec, &a))) {
			fprintf(f, "%s{\"index\": %d, \"size\": %d, \"signed\": %s",
				i ? ", " : "", i, a.size,
				a.is_signed ? "true" : "false");
			if (pr && q) {
				struct buf v = { 0 };

				arg_display_name(&v, pr, i);
				fputs(", \"name\": ", f);
				json_string(f, &t, v.data);
				v.len = 0;
				type_print_d(&v, q->type, NULL);
				fputs(", \"type\": ", f);
				json_string(f, &t, v.data);
				buf_free(&v);
				q = q->next;
			}
			fputc('}', f);
			i++;
		}
		fputs("]}", f);
	}
	fputc(']', f);
	pairs_json(f, &t, prog);
	fputc('}', f);
	buf_free(&t);
}

int inspect_list(const char *const *files, int nfiles, int json)
{
	int i, status = EXIT_OK;

	if (json)
		fputs("[", stdout);
	for (i = 0; i < nfiles; i++) {
		struct binary b;
		struct program *prog;

		if (binary_read(files[i], &b) != 0) {
			status = EXIT_SYSTEM;
			continue;
		}
		prog = binary_program(&b);
		if (json) {
			fputs(i ? ",\n" : "\n", stdout);
			list_json(stdout, &b, prog);
		} else {
			list_text(stdout, &b, prog);
		}
		program_free(prog);
		binary_free(&b);
	}
	if (json)
		fputs("\n]\n", stdout);
	return status;
}
