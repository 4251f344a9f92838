/*
 * inspect/binary_program.c - a binary's probes built into a program, as the
 * emitters and the tracer take one: names verbatim, arguments from the
 * declaration probegen recorded (its parameters parsed alone), else
 * unnamed sized integers from the first site's specs.
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/naming.h"
#include "inspect/inspect.h"

/* Unnamed sized integers, one per spec of the probe's first site. */
static void params_from_specs(struct program *prog, struct probe *pr,
			      const char *spec)
{
	struct param **tail = &pr->native;
	struct arg_spec a;

	while ((spec = spec_next(spec, &a))) {
		struct param *p = arena_alloc(&prog->arena, sizeof(*p));
		struct type *t = arena_alloc(&prog->arena, sizeof(*t));

		t->kind = T_NAMED;
		/* Named for the spec's size and sign. */
		t->name = (char *)d_type_sized(a.size, a.is_signed);
		t->d_type = d_type_lookup(t->name);
		p->type = t;
		*tail = p;
		tail = &p->next;
		pr->nnative++;
	}
}

/* The parameters of a recorded declaration, "provider:name(params)",
 * parsed alone (parse_params, which says nothing): the binary's provider
 * and name are never parsed (any byte may be in them).  Used when the
 * checker would accept them; returns 0 when the declaration is not one
 * probegen wrote.  Its @length and @enum tags, after the parameters,
 * become the probe's doc comment, one a line, for meanings_assign(). */
static int params_from_declaration(struct program *prog, struct probe *pr,
				   const struct bin_probe *p)
{
	size_t pv = strlen(p->provider), nm = strlen(p->name);
	const char *decl = p->declaration, *params = decl + pv + 1 + nm, *tags;
	const struct probe *got;
	char *line;
	struct buf text = { 0 };

	if (strncmp(decl, p->provider, pv) != 0 || decl[pv] != ':' ||
	    strncmp(decl + pv + 1, p->name, nm) != 0 || *params != '(')
		return 0;
	tags = strstr(params, " @");
	buf_add(&text, params, tags ? (size_t)(tags - params) : strlen(params));
	buf_add(&text, "\0\0", 2);
	got = parse_params(prog, text.data, text.len - 2);
	buf_free(&text);
	if (!got || !check_arguments_ok(prog, got))
		return 0;
	pr->native = got->native;
	pr->nnative = got->nnative;
	pr->doc = NULL;
	if (tags) {
		pr->doc = arena_strndup(&prog->arena, tags + 1,
					strlen(tags + 1));
		for (line = pr->doc; (line = strstr(line, " @")); line++)
			*line = '\n';
	}
	return 1;
}

/* The provider node of that name, made on first use (last: the one
 * found before, which the next probe most often shares). */
static struct provider *provider_node(struct program *prog,
				      struct name_set *providers,
				      struct provider ***tail,
				      struct provider *last, const char *name)
{
	struct provider *pv;

	if (last && strcmp(last->name, name) == 0)
		return last;
	pv = arena_alloc(&prog->arena, sizeof(*pv));
	pv->name = arena_strndup(&prog->arena, name, strlen(name));
	last = (struct provider *)name_set_add(providers, pv->name,
					       strlen(pv->name), pv);
	if (last)
		return last; /* the new node is left unused in the arena */
	**tail = pv;
	*tail = &pv->next;
	prog->nproviders++;
	return pv;
}

/* "provider:name" of p, escaped: the binary's names, for a message. */
static void probe_label(struct buf *b, const struct bin_probe *p)
{
	buf_escaped(b, p->provider, strlen(p->provider), 0);
	buf_lit(b, ":");
	buf_escaped(b, p->name, strlen(p->name), 0);
}

struct program *binary_program(struct binary *b)
{
	struct program *prog = xcalloc(1, sizeof(*prog));
	struct provider **tail = &prog->providers, *pv = NULL;
	struct name_set providers;
	struct bin_probe *p;

	name_set_init(&providers, (size_t)b->nprobes);
	/* The probes the binary carries (declared ones without a site are
	   left out: tracers cannot attach to them), with the names it
	   gives them, verbatim. */
	for (p = b->probes; p; p = p->next) {
		struct probe *pr, **link;

		if (!p->sites)
			continue;
		pv = provider_node(prog, &providers, &tail, pv, p->provider);
		pr = arena_alloc(&prog->arena, sizeof(*pr));
		pr->name =
			arena_strndup(&prog->arena, p->name, strlen(p->name));
		pr->provider = pv;
		pr->loc.file = diag_intern(b->path);
		p->model = pr;
		p->args_recorded = p->declaration &&
				   params_from_declaration(prog, pr, p);
		if (p->declaration && !p->args_recorded) {
			struct buf what = { 0 };

			probe_label(&what, p);
			warning_plain(
				"'%s': the recorded declaration of probe '%s' cannot be read; its argument sizes are used",
				b->path, what.data);
			buf_free(&what);
		}
		if (!pr->native)
			params_from_specs(prog, pr, p->sites->args);
		/* Appended through the last probe's link, which pv->last
		   keeps: one provider may hold every probe. */
		link = pv->probes ? &pv->last->next : &pv->probes;
		*link = pr;
		pv->last = pr;
		pv->nprobes++;
		prog->nprobes++;
	}
	name_set_free(&providers);
	names_assign(prog);
	meanings_assign(prog, 1); /* a bad tag is left out, unsaid */
	return prog;
}

const struct probe *binary_recorded_probe(const struct bin_probe *p)
{
	return p->args_recorded ? p->model : NULL;
}

/* Whether any of the probe's parameters has a name. */
static int has_names(const struct probe *pr)
{
	const struct param *q;

	for (q = pr->native; q; q = q->next)
		if (q->name)
			return 1;
	return 0;
}

/* The probe of provider pv whose name is name with each '_' read as
 * "__" or the reverse (D writes inbound__message; a site that
 * sys/sdt.h's macros write names it inbound_message), or NULL. */
static const struct probe *near_name(const struct provider *pv,
				     const char *name)
{
	const struct probe *pr;

	for_each_probe(pv, pr) {
		const char *a = pr->name, *b = name;

		while (*a && *b) {
			if (*a == '_' && *b == '_') {
				a += a[1] == '_' ? 2 : 1;
				b += b[1] == '_' ? 2 : 1;
			} else if (*a++ != *b++) {
				break;
			}
		}
		if (!*a && !*b)
			return pr;
	}
	return NULL;
}

int binary_say_undeclared(const struct binary *b,
			  const struct program *from_file)
{
	const struct bin_probe *p;
	const struct provider *pv;
	const struct probe *near;
	struct buf what = { 0 }, file = { 0 }, path = { 0 };
	int n = 0;

	if (!from_file || !from_file->providers)
		return 0;
	buf_escaped(&file, from_file->providers->loc.file,
		    strlen(from_file->providers->loc.file), 0);
	buf_escaped(&path, b->path, strlen(b->path), 0);
	for (p = b->probes; p; p = p->next) {
		if (!p->sites || !(pv = program_provider(from_file, p->provider)) ||
		    program_probe(from_file, p->provider, p->name))
			continue;
		what.len = 0;
		probe_label(&what, p);
		near = near_name(pv, p->name);
		warning_plain("'%s': probe '%s' is not declared in %s: its arguments are shown as arg0, arg1, ...%s%s%s%s%s",
			      path.data, what.data, file.data,
			      near ? " (" : "", near ? file.data : "",
			      near ? " declares '" : "", near ? near->name : "",
			      near ? "': the binary's sites name it otherwise)" : "");
		n++;
	}
	buf_free(&what);
	buf_free(&file);
	buf_free(&path);
	return n;
}

const struct probe *binary_probe_decl(const struct bin_probe *p,
				      const struct program *from_file,
				      const struct program **prog)
{
	const struct probe *pr = binary_recorded_probe(p), *named;

	named = from_file ? program_probe(from_file, p->provider, p->name)
			  : NULL;
	if (!pr || (named && !has_names(pr) && has_names(named) &&
		    named->nnative == pr->nnative)) {
		pr = named;
		if (prog)
			*prog = from_file;
	}
	if (pr && p->sites && pr->nnative != spec_count(p->sites->args))
		return NULL; /* not the declaration of what the binary fires */
	return pr;
}

int binary_probe_args(const struct bin_probe *p,
		      const struct program *recorded,
		      const struct program *from_file,
		      const struct target *tg, struct probe_args *out)
{
	const char *spec = p->sites ? p->sites->args : "";
	struct arg_spec a;
	struct buf name = { 0 };
	int i = 0;

	memset(out, 0, sizeof(*out));
	out->program = recorded;
	out->decl = binary_probe_decl(p, from_file, &out->program);
	while ((spec = spec_next(spec, &a)) && i < PROBE_MAX_ARGS) {
		struct arg_read *r = &out->read[i];

		name.len = 0;
		if (out->decl)
			arg_display_name(&name, out->decl, i);
		else
			buf_printf(&name, "arg%d", i);
		out->names[i] = xstrdup(name.data);
		if (out->decl)
			*r = decl_arg_read(out->program, out->decl, i, tg);
		/* No declaration, or a type of the user's headers: as the
		   note records it. */
		if (!out->decl || r->kind == ARG_AS_NOTED)
			*r = (struct arg_read){ .kind = ARG_INTEGER,
						.size = a.size,
						.is_signed = a.is_signed,
						.length_arg = -1 };
		i++;
	}
	out->nargs = i;
	buf_free(&name);
	return i;
}
