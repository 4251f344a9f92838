/*
 * inspect/check_binaries.c - --check FILE.d BINARY...: do the binaries' probes of
 * the file's providers match its declarations?  One line per problem,
 * "BINARY: provider:name: what", on stdout; exit 1 if any is an error.
 *
 * Errors: an argument count that differs from the declaration, a probe
 * the file does not declare, a semaphore outside .probes, no
 * .stapsdt.base, a semaphore the kernel cannot set for a tracer that
 * starts first, an argument spec libbpf's parser for the binary's
 * architecture rejects, a declared probe in none of the binaries (a
 * warning with --allow-missing; its line names them all, and where the
 * probe is declared).  Warnings: sizes or signs that differ
 * from the declared types (SystemTap's macro records the size of the
 * expression passed), errors with --strict.
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/naming.h"
#include "inspect/inspect.h"

/* One problem, kept until the binary is judged: problems that say the
 * same thing of many probes or sites are printed as one line. */
struct finding {
	char *binary, *probe, *site, *message; /* probe, site: NULL if none */
	int is_error;
};

struct checker {
	int strict, errors, sites, json;
	struct finding *found;
	int nfound;
};

static void problem_at(struct checker *c, int is_error, const char *where,
		       const struct bin_probe *p, const char *site,
		       const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Kept with the binary's bytes escaped (names, specs). */
static void problem_at(struct checker *c, int is_error, const char *where,
		       const struct bin_probe *p, const char *site,
		       const char *fmt, ...)
{
	struct finding *f;
	struct buf name = { 0 }, msg = { 0 };
	va_list ap;

	if (p) {
		buf_escaped(&name, p->provider, strlen(p->provider), 0);
		buf_lit(&name, ":");
		buf_escaped(&name, p->name, strlen(p->name), 0);
	}
	va_start(ap, fmt);
	buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	c->found = xgrow(c->found, (size_t)c->nfound, sizeof(*c->found));
	f = &c->found[c->nfound++];
	f->binary = xstrdup(where);
	f->probe = name.data;
	f->site = site ? xstrdup(site) : NULL;
	f->message = msg.data;
	f->is_error = is_error;
	c->errors += is_error;
}

#define problem(c, is_error, where, p, ...) \
	problem_at(c, is_error, where, p, NULL, __VA_ARGS__)

/* Digits compared as numbers: user_trace__n9 before user_trace__n10. */
static int natural_cmp(const void *pa, const void *pb)
{
	const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;

	while (*a && *b) {
		if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
			size_t la = strspn(a, "0123456789"),
			       lb = strspn(b, "0123456789");
			int d;

			if (la != lb)
				return la < lb ? -1 : 1;
			if ((d = strncmp(a, b, la)) != 0)
				return d;
			a += la;
			b += lb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++, b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static void finding_line(FILE *f, const struct finding *x)
{
	fprintf(f, "%s: ", x->binary);
	if (x->probe)
		fprintf(f, "%s: ", x->probe);
	fprintf(f, "%s%s%s%s\n",
		x->is_error ? "" : "warning: ", x->site ? x->site : "",
		x->site ? ": " : "", x->message);
}

/* Do findings a and b say the same thing of the same binary? */
static int same_group(const struct finding *a, const struct finding *b)
{
	return a->is_error == b->is_error && !a->probe == !b->probe &&
	       strcmp(a->binary, b->binary) == 0 &&
	       strcmp(a->message, b->message) == 0;
}

/* A probe's sites past this many, or one thing said of several probes,
 * make one line. */
#define GROUP_SITES 8
/* A probe in none of the binaries names them up to this many. */
#define MISSING_NAMES 3

/* The findings in order; those that say the same thing of several
 * probes (or of many sites) as one line,
 * "BINARY: P:first .. last (N probes, M sites): warning: what", and
 * each on its own with --sites. */
static void print_text(struct checker *c)
{
	char *done = xcalloc((size_t)c->nfound + 1, 1), **names;
	int i, k, n;

	names = xcalloc((size_t)c->nfound + 1, sizeof(*names));
	for (i = 0; i < c->nfound; i++) {
		const struct finding *x = &c->found[i];
		int nsites = 0, nprobes = 0;

		if (done[i])
			continue;
		for (k = i; k < c->nfound; k++) {
			if (done[k] || !same_group(&c->found[k], x))
				continue;
			nsites++;
			if (c->found[k].probe)
				names[nprobes++] = c->found[k].probe;
		}
		qsort(names, (size_t)nprobes, sizeof(*names), natural_cmp);
		for (k = 1, n = 0; k < nprobes; k++) /* each probe once */
			if (strcmp(names[k], names[n]) != 0)
				names[++n] = names[k];
		nprobes = nprobes ? n + 1 : 0;
		if (c->sites || !x->probe ||
		    (nprobes == 1 && nsites <= GROUP_SITES)) {
			for (k = i; k < c->nfound; k++) {
				if (done[k] || !same_group(&c->found[k], x))
					continue;
				done[k] = 1;
				finding_line(stdout, &c->found[k]);
			}
			continue;
		}
		for (k = i; k < c->nfound; k++)
			if (!done[k] && same_group(&c->found[k], x))
				done[k] = 1;
		printf("%s: %s", x->binary, names[0]);
		if (nprobes == 2)
			printf(", %s", names[1]);
		else if (nprobes >
			 2) /* a family: first .. last, the provider once */
			printf(" .. %s",
			       strchr(names[nprobes - 1], ':')
				       ? strchr(names[nprobes - 1], ':') + 1
				       : names[nprobes - 1]);
		printf(" (%d probe%s, %d sites): %s%s\n", nprobes,
		       nprobes == 1 ? "" : "s", nsites,
		       x->is_error ? "" : "warning: ", x->message);
	}
	free(names);
	free(done);
}

/* Every finding, one object each, for tools. */
static void print_json(struct checker *c)
{
	struct buf b = { 0 };
	int i;

	buf_lit(&b, "{\"problems\": [");
	for (i = 0; i < c->nfound; i++) {
		const struct finding *x = &c->found[i];

		buf_puts(&b, i ? ",\n  {\"binary\": " : "\n  {\"binary\": ");
		buf_json_string(&b, x->binary);
		buf_lit(&b, ", \"probe\": ");
		if (x->probe)
			buf_json_string(&b, x->probe);
		else
			buf_lit(&b, "null");
		buf_lit(&b, ", \"site\": ");
		if (x->site)
			buf_json_string(&b, x->site);
		else
			buf_lit(&b, "null");
		buf_printf(&b, ", \"error\": %s, \"message\": ",
			   x->is_error ? "true" : "false");
		buf_json_string(&b, x->message);
		buf_lit(&b, "}");
	}
	buf_printf(&b, "\n], \"errors\": %d}\n", c->errors);
	fputs(b.data, stdout);
	buf_free(&b);
}

static void site_name(struct buf *out, struct srclines *lines,
		      const struct bin_site *s)
{
	struct buf line = { 0 };

	out->len = 0;
	buf_puts(out, "site ");
	site_address(out, s);
	if (srclines_find(lines, s, &line) == 0)
		buf_cat(out, " (", line.data, ")", NULL);
	buf_free(&line);
}

/* One site's argument count, sizes and signs against the declaration:
 * every site is judged, so that moving a call cannot change the
 * verdict. */
static void check_site(struct checker *c, const struct binary *b,
		       const struct program *prog, const struct probe *pr,
		       const struct bin_probe *p, const struct bin_site *s,
		       const char *where, const struct target *tg)
{
	const struct param *q = pr->native;
	const char *spec = s->args;
	struct arg_spec a;
	int i = 0, nargs = spec_count(s->args);

	if (nargs != pr->nnative) {
		problem_at(c, 1, b->path, p, where,
			   "the note has %d argument%s, the declaration %d",
			   nargs, nargs == 1 ? "" : "s", pr->nnative);
		return;
	}
	for (; tg && q && (spec = spec_next(spec, &a)); q = q->next, i++) {
		struct arg_read r = type_arg_read(prog, q->type, tg);

		/* Nothing to compare: the user's types, or ones no tracer
		   reads (the checker warned of those). */
		if (r.kind == ARG_AS_NOTED || arg_read_unreadable(&r))
			continue;
		if (r.size == a.size &&
		    (!arg_kind_of(&r)->integer || r.is_signed == a.is_signed))
			continue;
		problem_at(c, c->strict, b->path, p, where,
			   "argument %d is recorded as %d bytes %s, declared %d bytes %s",
			   i, a.size, a.is_signed ? "signed" : "unsigned",
			   r.size, r.is_signed ? "signed" : "unsigned");
	}
}

/* What libbpf can read of a site. */
static void check_specs(struct checker *c, const struct binary *b,
			const struct bin_probe *p, const struct bin_site *s,
			const char *where, const regex_t *re)
{
	const char *spec = s->args;
	struct arg_spec a;
	struct buf one = { 0 }, shown = { 0 };
	int i;

	if (spec_count(spec) > MAX_PROBE_ARGS)
		problem_at(c, 1, b->path, p, where,
			   "%d arguments; libbpf reads at most %d",
			   spec_count(spec), MAX_PROBE_ARGS);
	for (i = 0; re && (spec = spec_next(spec, &a)); i++) {
		one.len = 0;
		buf_add(&one, a.text, a.text_len);
		if (regexec(re, one.data, 0, NULL, 0) == 0)
			continue;
		/* A struct or class passed by value: in memory, wider than
		   libbpf reads (SystemTap's header records the same). */
		one.len = 0;
		buf_printf(&one, "8@%.*s", (int)a.operand_len, a.operand);
		if (a.size > 8 && regexec(re, one.data, 0, NULL, 0) == 0 &&
		    memchr(a.operand, '(', a.operand_len)) {
			problem_at(c, c->strict, b->path, p, where,
				   "argument %d is a %d-byte object: libbpf (bpftrace) cannot "
				   "attach here; probegen --trace shows its first 8 bytes",
				   i, a.size);
			continue;
		}
		shown.len = 0;
		buf_escaped(&shown, a.text, a.text_len, 0);
		problem_at(c, 1, b->path, p, where,
			   "libbpf cannot parse argument '%s' (%s)", shown.data,
			   b->arch);
	}
	buf_free(&one);
	buf_free(&shown);
}

/* The @length and @enum tags p's recorded declaration carries against
 * those pr's doc comment says: a binary built from another version of
 * the .d prints its arguments as that version meant them. */
static void check_tags(struct checker *c, const struct binary *b,
		       const struct bin_probe *p, const struct probe *pr)
{
	const char *recorded = p->declaration ? strstr(p->declaration, " @")
					      : NULL;
	struct buf said = { 0 };
	size_t i;

	if (!p->declaration)
		return; /* not probegen's: nothing recorded */
	meanings_tags(&said, pr);
	for (i = 0; i < said.len; i++)
		if (said.data[i] == '\n')
			said.data[i] = ' ';
	recorded = recorded ? recorded + 1 : "";
	if (strcmp(recorded, said.data ? said.data : "") != 0)
		problem(c, c->strict, b->path, p,
			"the binary records the tags '%s', %s says '%s'",
			recorded, pr->loc.file, said.data ? said.data : "");
	buf_free(&said);
}

/* The argument forms libbpf reads on arch (its target's row), compiled
 * into re: 1, or 0 when probegen knows none for arch.  They are
 * probegen's own text, so one that does not compile is a bug to stop
 * at, never a check to skip in silence. */
static int libbpf_form(const char *arch, regex_t *re)
{
	const struct target *tg = target_by_name(arch);
	int err;
	char why[128];

	if (!tg || !tg->libbpf_form)
		return 0;
	err = regcomp(re, tg->libbpf_form, REG_EXTENDED | REG_NOSUB);
	if (err) {
		regerror(err, re, why, sizeof(why));
		die("internal error: libbpf's argument forms for %s do not compile: %s",
		    arch, why);
	}
	return 1;
}

static void check_binary(struct checker *c, const struct binary *b,
			 const struct program *prog, char *found)
{
	const struct bin_probe *p;
	const struct bin_site *s;
	const struct target *tg = target_by_name(b->arch);
	struct srclines *lines = srclines_open(b);
	struct buf where = { 0 }, why = { 0 };
	regex_t re;
	int have_re = libbpf_form(b->arch, &re), mine = 0;

	for (p = b->probes; p; p = p->next) {
		const struct probe *pr =
			program_probe(prog, p->provider, p->name);

		if (!program_provider(prog, p->provider) || !p->sites)
			continue; /* another provider's, or only declared */
		mine++;
		if (!pr) {
			problem(c, 1, b->path, p, "not declared in %s",
				prog->providers->loc.file);
			continue;
		}
		found[pr->index] = 1;
		check_tags(c, b, p, pr);
		for (s = p->sites; s; s = s->next) {
			site_name(&where, lines, s);
			check_site(c, b, prog, pr, p, s, where.data, tg);
			check_specs(c, b, p, s, where.data,
				    have_re ? &re : NULL);
		}
		if (p->semaphore && !b->is_object &&
		    (!b->has_probes_section || p->semaphore < b->probes_addr ||
		     p->semaphore >= b->probes_addr + b->probes_size))
			problem(c, 1, b->path, p,
				"semaphore 0x%llx is outside .probes",
				p->semaphore);
		why.len = 0;
		if (p->semaphore &&
		    binary_semaphore_trapped(b, p->semaphore, &why))
			problem(c, 1, b->path, p,
				"semaphore cannot flip for a tracer that starts first "
				"(--trace -c, bpftrace -c, a library not yet loaded): %s; "
				"link probegen's -G object or use probegen -h --header-only, "
				"or link with ld.bfd or gold (-p on a running process works)",
				why.data);
	}
	if (mine && !b->has_base && !b->is_object)
		problem(c, 1, b->path, NULL,
			"no .stapsdt.base section: gdb ignores every probe");
	if (have_re)
		regfree(&re);
	buf_free(&where);
	buf_free(&why);
	srclines_close(lines);
}

int inspect_check(const struct program *prog, const char *const *files,
		  int nfiles, const struct check_options *opt)
{
	struct checker c = { opt->strict, 0, opt->sites, opt->json, NULL, 0 };
	const struct provider *pv;
	const struct probe *pr;
	char *found = xcalloc((size_t)prog->nprobes + 1, 1);
	struct buf binaries = { 0 };
	int i, status = EXIT_OK;

	for (i = 0; i < nfiles; i++) {
		struct binary b;

		if (binary_read(files[i], &b) != 0) {
			status = EXIT_SYSTEM;
			continue;
		}
		check_binary(&c, &b, prog, found);
		binary_free(&b);
	}
	/* "BINARY: provider:name: what", as every other line: the
	   binaries, joined, are where the probe is missing; past a few
	   (a build checks hundreds of objects), their count. */
	if (nfiles > MISSING_NAMES)
		buf_printf(&binaries, "%d binaries", nfiles);
	for (i = 0; nfiles <= MISSING_NAMES && i < nfiles; i++)
		buf_cat(&binaries, i ? ", " : "", files[i], NULL);
	for_each_provider(prog, pv) {
		for_each_probe(pv, pr) {
			if (found[pr->index])
				continue;
			struct bin_probe named = { 0 };

			named.provider = pv->name;
			named.name = pr->name;
			problem(&c, !opt->allow_missing,
				binaries.data ? binaries.data : "", &named,
				"in none of the binaries (declared at %s:%d)",
				pr->loc.file, pr->loc.line);
		}
	}
	if (c.json)
		print_json(&c);
	else
		print_text(&c);
	for (i = 0; i < c.nfound; i++) {
		free(c.found[i].binary);
		free(c.found[i].probe);
		free(c.found[i].site);
		free(c.found[i].message);
	}
	free(c.found);
	buf_free(&binaries);
	free(found);
	if (status != EXIT_OK)
		return status;
	return c.errors ? EXIT_INPUT : EXIT_OK;
}
