/*
 * inspect/list.c - --list [--json] BINARY...: every probe a binary
 * carries (executables, shared libraries, objects), read by notes.c:
 * provider:name, its semaphore, each site's address, argument specs and
 * source line (with debug info and libdw), and where the binary records
 * declarations (.note.probegen), each argument's name and type; an
 * argument whose sites record different sizes or signs lists each with
 * its sites (moving a call must not change what is shown).  Binaries built with SystemTap's dtrace list
 * too, without names.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/naming.h"
#include "inspect/inspect.h"

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
		buf_printf(&label, "%s:%s", p->start->provider->name,
			   p->start->name);
		fputs(", \"start\": ", f);
		json_string(f, t, label.data);
		label.len = 0;
		buf_printf(&label, "%s:%s", p->end->provider->name,
			   p->end->name);
		fputs(", \"end\": ", f);
		json_string(f, t, label.data);
		fputc('}', f);
	}
	fputc(']', f);
	buf_free(&label);
	pairs_free(pairs);
}

/* "signed, 8 bytes", "4 bytes, float", or "none" for a site that
 * records fewer arguments. */
static void spec_words(struct buf *b, const struct arg_spec *a)
{
	if (!a) {
		buf_lit(b, "none");
		return;
	}
	buf_printf(b, "%s%d bytes%s", a->is_signed ? "signed, " : "", a->size,
		   a->is_float ? ", float" : "");
}

/* An argument whose sites disagree: each size and sign with the sites
 * that record it, "signed, 8 bytes at 0x1139, 0x1150; 4 bytes at 0x1161". */
static void disagreeing_arg(FILE *f, const struct bin_probe *p, int i,
			    const char *what, int width)
{
	const struct bin_site *s, *r;
	struct buf line = { 0 }, kind = { 0 }, other = { 0 };
	struct arg_spec a, b;

	for (s = p->sites; s; s = s->next) {
		int have = spec_at(s->args, i, &a);

		/* Listed already with an earlier site of the same kind? */
		kind.len = 0;
		spec_words(&kind, have ? &a : NULL);
		for (r = p->sites; r != s; r = r->next) {
			other.len = 0;
			spec_words(&other, spec_at(r->args, i, &b) ? &b : NULL);
			if (strcmp(other.data, kind.data) == 0)
				break;
		}
		if (r != s)
			continue;
		buf_cat(&line, line.len ? "; " : "", kind.data, " at", NULL);
		for (r = s; r; r = r->next) {
			other.len = 0;
			spec_words(&other, spec_at(r->args, i, &b) ? &b : NULL);
			if (strcmp(other.data, kind.data) == 0) {
				buf_puts(&line, r == s ? " " : ", ");
				site_address(&line, r);
			}
		}
	}
	fprintf(f, "    %-*s sites disagree: %s\n", width, what, line.data);
	buf_free(&line);
	buf_free(&kind);
	buf_free(&other);
}

/* Argument i's left column: "argI  name: type", "argI: type" when the
 * declaration names none, "argI  (not declared)" with no declaration. */
static void arg_column(struct buf *t, const struct probe *pr,
		       const struct param *q, int i)
{
	t->len = 0;
	buf_printf(t, "arg%d", i);
	if (!pr) {
		buf_lit(t, "  (not declared)");
		return;
	}
	if (q && q->name) {
		buf_lit(t, "  ");
		arg_display_name(t, pr, i);
	}
	buf_lit(t, ": ");
	if (q)
		type_print_d(t, q->type, NULL);
}

/* A probe's arguments, one a line: the left column as wide as its
 * longest (at least 36, as it always was), then what the sites record. */
static void args_text(FILE *f, const struct program *prog,
		      const struct bin_probe *p, const struct probe *pr)
{
	const char *spec;
	const struct param *q;
	struct arg_spec a;
	struct buf t = { 0 }, kind = { 0 };
	int i, width = 36;

	for (q = pr ? pr->native : NULL, i = 0, spec = p->sites->args;
	     (spec = spec_next(spec, &a)); i++, q = q ? q->next : NULL) {
		arg_column(&t, pr, q, i);
		if ((int)t.len + 1 > width)
			width = (int)t.len + 1;
	}
	for (q = pr ? pr->native : NULL, i = 0, spec = p->sites->args;
	     (spec = spec_next(spec, &a)); i++, q = q ? q->next : NULL) {
		arg_column(&t, pr, q, i);
		if (specs_agree(p, i)) {
			kind.len = 0;
			spec_words(&kind, &a);
			if (pr && q) {
				size_t before = kind.len;

				buf_lit(&kind, "; ");
				if (!meaning_text(&kind, prog, pr, i))
					kind.data[kind.len = before] = '\0';
			}
			fprintf(f, "    %-*s %s\n", width, t.data, kind.data);
		} else {
			disagreeing_arg(f, p, i, t.data, width);
		}
	}
	buf_free(&t);
	buf_free(&kind);
}

static void list_text(FILE *f, const struct binary *b,
		      const struct program *prog, const struct program *decls)
{
	struct srclines *lines = srclines_open(b);
	const struct bin_probe *p;
	const struct bin_site *s;
	struct buf t = { 0 }, kind = { 0 };
	int n = 0;

	for (p = b->probes; p; p = p->next)
		n += p->nsites > 0;
	text_string(f, &t, b->path);
	fprintf(f, ": %d probe%s%s\n", n, n == 1 ? "" : "s",
		n && !b->has_base && !b->is_object
			? " (no .stapsdt.base: gdb ignores them)"
			: "");
	for (p = b->probes; p; p = p->next) {
		if (!p->sites)
			continue; /* declared by the -G object, never fired */
		fputs("  ", f);
		text_string(f, &t, p->provider);
		fputc(':', f);
		text_string(f, &t, p->name);
		t.len = 0;
		if (p->semaphore || p->semaphore_in) {
			semaphore_address(&t, p);
			fprintf(f, "  semaphore %s", t.data);
		}
		t.len = 0;
		if (p->semaphore &&
		    binary_semaphore_trapped(b, p->semaphore, &t))
			fprintf(f, " (cannot flip for a tracer that starts first: %s)",
				t.data);
		fputc('\n', f);
		for (s = p->sites; s; s = s->next) {
			t.len = 0;
			site_address(&t, s);
			fprintf(f, "    site %s  ", t.data);
			text_string(f, &t, s->args);
			t.len = 0;
			if (srclines_find(lines, s, &t) == 0)
				fprintf(f, "  (%s)", t.data);
			fputc('\n', f);
		}
		{
			const struct program *from = prog;
			const struct probe *d = binary_probe_decl(p, decls, &from);

			args_text(f, from, p, d);
		}
	}
	pairs_text(f, &t, prog);
	buf_free(&t);
	buf_free(&kind);
	srclines_close(lines);
}

/* One site of a probe as JSON: address, specs, source line. */
static void site_json(FILE *f, struct buf *t, struct buf *src,
		      struct srclines *lines, const struct bin_site *s,
		      int first)
{
	const char *sp = s->args;
	struct arg_spec a;
	int k = 0;

	src->len = 0;
	site_address(src, s);
	fprintf(f, "%s{\"address\": ", first ? "" : ", ");
	json_string(f, t, src->data);
	fputs(", \"args\": ", f);
	json_string(f, t, s->args);
	src->len = 0;
	if (srclines_find(lines, s, src) == 0) {
		fputs(", \"source\": ", f);
		json_string(f, t, src->data);
	}
	fputs(", \"arguments\": [", f);
	while ((sp = spec_next(sp, &a)))
		fprintf(f, "%s{\"size\": %d, \"signed\": %s, \"float\": %s}",
			k++ ? ", " : "", a.size, a.is_signed ? "true" : "false",
			a.is_float ? "true" : "false");
	fputs("]}", f);
}

/* A probe's arguments as JSON: the first site's specs, and the names and
 * types of its recorded declaration when there is one. */
static void arguments_json(FILE *f, struct buf *t,
			   const struct program *prog,
			   const struct program *decls,
			   const struct bin_probe *p)
{
	const struct probe *pr = binary_probe_decl(p, decls, &prog);
	const struct param *q = pr ? pr->native : NULL;
	const char *spec = p->sites->args;
	struct arg_spec a;
	int i = 0;

	while ((spec = spec_next(spec, &a))) {
		fprintf(f,
			"%s{\"index\": %d, \"size\": %d, \"signed\": %s, \"sites_agree\": %s",
			i ? ", " : "", i, a.size,
			a.is_signed ? "true" : "false",
			specs_agree(p, i) ? "true" : "false");
		if (pr && q) {
			struct buf v = { 0 };

			arg_display_name(&v, pr, i);
			fputs(", \"name\": ", f);
			json_string(f, t, v.data);
			v.len = 0;
			type_print_d(&v, q->type, NULL);
			fputs(", \"type\": ", f);
			json_string(f, t, v.data);
			v.len = 0;
			if (meaning_text(&v, prog, pr, i)) {
				fputs(", \"meaning\": ", f);
				json_string(f, t, v.data);
			}
			buf_free(&v);
			q = q->next;
		}
		fputc('}', f);
		i++;
	}
}

static void list_json(FILE *f, const struct binary *b,
		      const struct program *prog, const struct program *decls)
{
	const struct bin_probe *p;
	const struct bin_site *s;
	struct buf t = { 0 }, src = { 0 };
	struct srclines *lines = srclines_open(b);
	int first = 1;

	fputs("{\"binary\": ", f);
	json_string(f, &t, b->path);
	fprintf(f, ", \"arch\": \"%s\", \"stapsdt_base\": %s, \"probes\": [",
		b->arch, b->has_base ? "true" : "false");
	for (p = b->probes; p; p = p->next) {
		if (!p->sites)
			continue;
		fprintf(f, "%s\n  {\"provider\": ", first ? "" : ",");
		json_string(f, &t, p->provider);
		fputs(", \"name\": ", f);
		json_string(f, &t, p->name);
		src.len = 0;
		semaphore_address(&src, p);
		fputs(", \"semaphore\": ", f);
		json_string(f, &t, src.data);
		fputs(", ", f);
		t.len = 0;
		if (p->semaphore)
			fprintf(f, "\"semaphore_flips\": %s, ",
				binary_semaphore_trapped(b, p->semaphore, &t)
					? "false"
					: "true");
		fputs("\"sites\": [", f);
		first = 0;
		for (s = p->sites; s; s = s->next)
			site_json(f, &t, &src, lines, s, s == p->sites);
		fputs("], \"arguments\": [", f);
		arguments_json(f, &t, prog, decls, p);
		fputs("]}", f);
	}
	fputc(']', f);
	pairs_json(f, &t, prog);
	fputc('}', f);
	buf_free(&t);
	buf_free(&src);
	srclines_close(lines);
}

int inspect_list(const char *const *files, int nfiles, int json,
		 const struct program *decls)
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
		binary_say_undeclared(&b, decls);
		prog = binary_program(&b);
		if (json) {
			fputs(i ? ",\n" : "\n", stdout);
			list_json(stdout, &b, prog, decls);
		} else {
			list_text(stdout, &b, prog, decls);
		}
		program_free(prog);
		binary_free(&b);
	}
	if (json)
		fputs("\n]\n", stdout);
	return status;
}
