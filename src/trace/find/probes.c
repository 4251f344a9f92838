/*
 * src/trace/find/probes.c - each probe --trace follows, chosen by -n and
 * described for printing: its label, its arguments' names and how to
 * read each (the inspector's answer: inspect/binary_program.c), its
 * member expressions; and the arguments --by names.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/naming.h"
#include "inspect/inspect.h"
#include "trace/find/find.h"
#include "trace/tracer.h"

/* Whether -n chooses provider:name: a pattern chooses it, or only
 * patterns that leave out ("!libisc:rwlock_rd*") are given; and none
 * of those leaves it out.  Each pattern that matches is marked in used
 * (the end of the trace says those that matched none). */
static int matches(const struct trace_plan *plan, char *used,
		   const char *provider, const char *name)
{
	int i, choosers = 0, chosen = 0, out = 0;

	for (i = 0; i < plan->request->filters.n; i++) {
		const char *f = plan->request->filters.items[i], *colon;
		int leave_out = f[0] == '!';
		char pv[256];

		f += leave_out;
		choosers += !leave_out;
		colon = strchr(f, ':');
		if (!colon || (size_t)(colon - f) >= sizeof(pv))
			continue;
		memcpy(pv, f, (size_t)(colon - f));
		pv[colon - f] = '\0';
		if (fnmatch(pv, provider, 0) == 0 &&
		    fnmatch(colon + 1, name, 0) == 0) {
			used[i] = 1;
			if (leave_out)
				out = 1;
			else
				chosen = 1;
		}
	}
	return (chosen || !choosers) && !out;
}

_Static_assert(PROBE_MAX_ARGS == TRACE_MAX_ARGS, "one limit of arguments");

/* How to print each argument of a probe: the inspector's answer. */
static void describe(struct traced *t, const struct bin_probe *p,
		     const struct program *recorded,
		     const struct program *from_file, const struct target *tg)
{
	struct probe_args args;
	int i;

	binary_probe_args(p, recorded, from_file, tg, &args);
	for (i = 0; i < args.nargs; i++) {
		t->arg_names[i] = args.names[i];
		t->read[i] = args.read[i];
	}
	t->nargs = args.nargs;
	t->decl = args.decl;
	t->decl_program = args.program;
}

/* A member expression ("conn->local.id") rather than an argument's name. */
static int is_member_expr(const char *s, size_t n)
{
	return memchr(s, '.', n) || (n > 2 && memmem(s, n, "->", 2));
}

/* Whether expr is ARG.KEY of an argument of key=value text (@fields):
 * then r reads that field. */
static int field_of(const struct traced *t, const char *expr,
		    struct arg_read *r)
{
	const char *dot = strchr(expr, '.');
	int a = dot ? probe_arg_index(t, expr, (size_t)(dot - expr)) : -1;

	if (a < 0 || !t->read[a].key_values || !dot[1] ||
	    strpbrk(dot + 1, " =\"-"))
		return 0;
	*r = (struct arg_read){ .kind = ARG_FIELD, .arg = a,
				.length_arg = -1, .field = dot + 1 };
	return 1;
}

int probe_member(struct traced *t, const char *expr, size_t n, int at_start)
{
	void (*say)(const char *, ...) = at_start ? error_input : warning_plain;
	struct arg_read *r = &t->read[TRACE_MAX_ARGS + t->nshows];
	struct buf why = { 0 };
	char *e = xstrndup(expr, n);
	int k;

	for (k = 0; k < t->nshows; k++)
		if (strcmp(t->arg_names[TRACE_MAX_ARGS + k], e) == 0) {
			free(e);
			return TRACE_MAX_ARGS + k;
		}
	if (t->nshows == TRACE_MAX_SHOWS)
		buf_printf(&why, "at most %d member expressions a probe",
			   TRACE_MAX_SHOWS);
	else if (field_of(t, e, r)) {
		/* fields.KEY of key=value text (@fields): found in probegen
		   and by --where's kernel side, not read as a member. */
		t->arg_names[TRACE_MAX_ARGS + t->nshows] = e;
		return TRACE_MAX_ARGS + t->nshows++;
	}
	else if (!t->decl)
		buf_lit(&why, "its arguments have no names (give its declaration: -s FILE.d)");
	if (why.len || member_resolve(t->binary, t->decl_program, t->decl, e,
				      r, &why) != 0) {
		say("%s: '%s': %s", t->label_text, e, why.data);
		buf_free(&why);
		free(e);
		return -1;
	}
	t->arg_names[TRACE_MAX_ARGS + t->nshows] = e;
	buf_free(&why);
	return TRACE_MAX_ARGS + t->nshows++;
}

int probe_shows(struct tracer *tr, struct traced *t, int at_start)
{
	const struct trace_plan *plan = &tr->plan;
	int i, rc = 0;

	for (i = 0; i < plan->request->show_requests.n; i++) {
		const char *req = plan->request->show_requests.items[i],
			   *expr = strrchr(req, ':') + 1;
		char *probe = xstrndup(req, (size_t)(expr - 1 - req));
		int ok = fnmatch(probe, t->label, 0) == 0;

		free(probe);
		if (ok && probe_member(t, expr, strlen(expr), at_start) < 0)
			rc = -1;
	}
	return rc;
}

/* A binary of the system's own (a package's, not the user's). */
static int is_system_path(const char *path)
{
	static const char *const dirs[] = { "/usr/", "/lib", "/bin/",
					    "/sbin/" };
	size_t i;

	if (strncmp(path, "/usr/local/", 11) == 0)
		return 0;
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (strncmp(path, dirs[i], strlen(dirs[i])) == 0)
			return 1;
	return 0;
}

int probe_arg_index(const struct traced *t, const char *name, size_t len)
{
	int a;

	for (a = 0; a < t->nargs; a++)
		if (strlen(t->arg_names[a]) == len &&
		    strncmp(t->arg_names[a], name, len) == 0)
			return a;
	return -1;
}

/* The first string argument of t named one of names; -1 if none. */
int probe_string_arg(const struct traced *t, const char *const *names)
{
	int a;

	for (; *names; names++)
		for (a = 0; a < t->nargs; a++)
			if (t->read[a].kind == ARG_STRING &&
			    strcmp(t->arg_names[a], *names) == 0)
				return a;
	return -1;
}

/* The arguments of probe t a --by request names (PROVIDER:NAME:ARG
 * [+ARG...], its probe a glob as -n's), into args: how many, or 0 when
 * no request names t, or the one that does names an argument t does not
 * have (said). */
int probe_by_args(struct tracer *tr, struct traced *t, int *args)
{
	const struct trace_plan *plan = &tr->plan;
	int i, n;

	for (i = 0; i < plan->request->by_requests.n; i++) {
		const char *req = plan->request->by_requests.items[i],
			   *names = strrchr(req, ':');
		char *probe = xstrndup(req, (size_t)(names - req));
		const char *part, *end;
		int ok = fnmatch(probe, t->label, 0) == 0;

		free(probe);
		if (!ok)
			continue;
		((struct labels *)feature_state(tr, FEATURE_LABELS))->used[i] = 1;
		n = 0;
		for (part = names + 1; *part; part = *end ? end + 1 : end) {
			int a;

			end = part + strcspn(part, "+");
			a = is_member_expr(part, (size_t)(end - part))
				    ? probe_member(t, part, (size_t)(end - part), 0)
				    : probe_arg_index(t, part, (size_t)(end - part));
			if (a < 0) {
				warning_plain("--by %s: %s has no argument '%.*s'",
					      req, t->label_text,
					      (int)(end - part), part);
				n = 0;
				break;
			}
			args[n++] = a;
		}
		if (n)
			return n;
	}
	return 0;
}

void probes_add(struct tracer *tr, int b, const struct program *from_file)
{
	const struct bin_probe *p;

	for (p = tr->binaries[b]->probes; p; p = p->next) {
		const struct target *tg;
		struct traced *t;
		struct buf label = { 0 };

		if (!matches(&tr->plan, tr->filter_used, p->provider, p->name))
			continue;
		buf_printf(&label, "%s:%s", p->provider, p->name);
		if (!p->sites) {
			/* Declared (a -G object records every probe) and
			   compiled nowhere: it can never fire. */
			tr->siteless = xgrow(tr->siteless,
					     (size_t)tr->nsiteless,
					     sizeof(char *));
			tr->siteless[tr->nsiteless++] = label.data;
			continue;
		}
		tr->probes = xgrow(tr->probes, (size_t)tr->nprobes, sizeof(*t));
		t = &tr->probes[tr->nprobes++];
		memset(t, 0, sizeof(*t));
		t->binary = tr->binaries[b]->path;
		t->provider = p->provider;
		t->name = p->name;
		t->label = label.data;
		label = (struct buf){ 0 };
		buf_escaped(&label, t->label, strlen(t->label), 0);
		t->label_text = label.data;
		t->bin = tr->binaries[b];
		t->notes = p;
		t->from_system = is_system_path(t->binary);
		/* Sizes are the binary's: a 32-bit program's long is 4. */
		tg = target_by_name(tr->binaries[b]->arch);
		describe(t, p, tr->programs[b], from_file,
			 tg ? tg : target_host());
	}
}

/* Probe i's own allocations freed. */
static void probe_free(struct traced *t)
{
	int a;

	for (a = 0; a < t->nargs; a++)
		free(t->arg_names[a]);
	for (a = 0; a < t->nshows; a++) {
		free(t->arg_names[TRACE_MAX_ARGS + a]);
		arg_read_free(&t->read[TRACE_MAX_ARGS + a]);
	}
	free(t->label);
	free(t->label_text);
	free(t->filter);
	free(t->filter_text);
}

void probes_remove(struct tracer *tr, int i)
{
	probe_free(&tr->probes[i]);
	memmove(&tr->probes[i], &tr->probes[i + 1],
		(size_t)(tr->nprobes - i - 1) * sizeof(*tr->probes));
	tr->nprobes--;
}

/* Forget the probes from nprobes on and the pairs from npairs on. */
void probes_drop(struct tracer *tr, int nprobes, int npairs)
{
	struct expectations *xs = feature_state(tr, FEATURE_EXPECT);
	int i;

	for (i = nprobes; i < tr->nprobes; i++)
		probe_free(&tr->probes[i]);
	tr->nprobes = nprobes;
	/* --expect's targets among them go with them. */
	for (i = 0; xs && i < xs->n; i++) {
		struct expectation *x = &xs->all[i];

		while (x->ntargets && x->targets[x->ntargets - 1].probe >= nprobes)
			free(x->targets[--x->ntargets].filter);
	}
	for (i = npairs; i < tr->npairs; i++) {
		free(tr->pairs[i].label);
		free(tr->pairs[i].stem);
		free(tr->pairs[i].by);
	}
	tr->npairs = npairs;
}

void probes_say_tracing(const struct tracer *tr, int from, int attached,
			const char *path)
{
	int i, from_system = 0;

	for (i = from; i < tr->nprobes; i++)
		from_system += tr->probes[i].from_system;
	/* A C++ program's count holds libstdc++'s probes: said apart. */
	if (from_system > 0 && from_system < attached)
		info_plain("tracing %d probes%s%s (%d the program's own, %d of system libraries)",
			   attached, path ? " of " : "", path ? path : "",
			   attached - from_system, from_system);
	else
		info_plain("tracing %d probe%s%s%s", attached,
			   attached == 1 ? "" : "s", path ? " of " : "",
			   path ? path : "");
}
