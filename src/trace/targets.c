/*
 * src/trace/targets.c - what --trace attaches to: the BINARY operands,
 * the executable and shared objects process -p has mapped, or the
 * command's program (found as execvp would) and the shared libraries
 * its loader lists for it, attached by path before they are loaded.  Each
 * probe selected by -n is described for printing: argument names and
 * how to read each, from the binary's recorded declarations, else -s
 * FILE.d's, else the note's sizes.
 */
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include "tracer.h"

extern char **environ;

static int matches(const struct trace_options *opt, const char *provider,
		   const char *name)
{
	int i;

	if (!opt->nfilters)
		return 1;
	for (i = 0; i < opt->nfilters; i++) {
		const char *f = opt->filters[i], *colon = strchr(f, ':');
		char pv[256];

		if (!colon || (size_t)(colon - f) >= sizeof(pv))
			continue;
		memcpy(pv, f, (size_t)(colon - f));
		pv[colon - f] = '\0';
		if (fnmatch(pv, provider, 0) == 0 &&
		    fnmatch(colon + 1, name, 0) == 0)
			return 1;
	}
	return 0;
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

/* How to print each argument of a probe: from its declaration (the
 * binary's, else -s FILE.d's; -s FILE.d's too when the binary's names
 * no argument, as Perl's perldtrace.d does not), else from the note's
 * sizes and signs. */
static void describe(struct traced *t, const struct bin_probe *p,
		     const struct program *recorded,
		     const struct program *from_file, const struct target *tg)
{
	const struct probe *pr = binary_recorded_probe(p), *named;
	const struct program *prog = recorded;
	const char *spec = p->sites->args;
	struct arg_spec a;
	const struct param *q;
	struct buf name = { 0 };
	int i = 0;

	named = program_probe(from_file, p->provider, p->name);
	if (!pr || (named && !has_names(pr) && has_names(named) &&
		    named->nnative == pr->nnative)) {
		pr = named;
		prog = from_file;
	}
	if (pr && pr->nnative != spec_count(spec))
		pr = NULL; /* not the declaration of what the binary fires */
	q = pr ? pr->native : NULL;
	while ((spec = spec_next(spec, &a)) && i < TRACE_MAX_ARGS) {
		name.len = 0;
		if (pr)
			arg_display_name(&name, pr, i);
		else
			buf_printf(&name, "arg%d", i);
		t->arg_names[i] = xstrdup(name.data);
		if (q) {
			t->read[i] = type_tracer_read(prog, q->type, tg);
			q = q->next;
		}
		/* No declaration, or a type of the user's headers: as the
		   note records it. */
		if (!pr || t->read[i].how == READ_AS_NOTED) {
			t->read[i].how = READ_INTEGER;
			t->read[i].size = a.size;
			t->read[i].is_signed = a.is_signed;
		}
		i++;
	}
	t->nargs = i;
	buf_free(&name);
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

/* Argument a of probe t by name; -1 when it has none so called. */
static int arg_named(const struct traced *t, const char *name, size_t len)
{
	int a;

	for (a = 0; a < t->nargs; a++)
		if (strlen(t->arg_names[a]) == len &&
		    strncmp(t->arg_names[a], name, len) == 0)
			return a;
	return -1;
}

/* The first string argument of t named one of names; -1 if none. */
static int string_arg_named(const struct traced *t, const char *const *names)
{
	int a;

	for (; *names; names++)
		for (a = 0; a < t->nargs; a++)
			if (t->read[a].how == READ_STRING &&
			    strcmp(t->arg_names[a], *names) == 0)
				return a;
	return -1;
}

/* The arguments of probe t a --by request names (PROVIDER:NAME:ARG
 * [+ARG...], its probe a glob as -n's), into args: how many, or 0 when
 * no request names t, or the one that does names an argument t does not
 * have (said). */
static int by_args(struct tracer *tr, const struct traced *t, int *args)
{
	const struct trace_options *opt = tr->opt;
	int i, n;

	for (i = 0; i < opt->nby_requests; i++) {
		const char *req = opt->by_requests[i], *names = strrchr(req, ':');
		char *probe = xstrndup(req, (size_t)(names - req));
		const char *part, *end;
		int ok = fnmatch(probe, t->label, 0) == 0;

		free(probe);
		if (!ok)
			continue;
		tr->by_used[i] = 1;
		n = 0;
		for (part = names + 1; *part; part = *end ? end + 1 : end) {
			int a;

			end = part + strcspn(part, "+");
			a = arg_named(t, part, (size_t)(end - part));
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

static void add_probes(struct tracer *tr, int b,
		       const struct program *from_file)
{
	const struct bin_probe *p;

	for (p = tr->binaries[b].probes; p; p = p->next) {
		const struct target *tg;
		struct traced *t;
		struct buf label = { 0 };

		if (!matches(tr->opt, p->provider, p->name))
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
		t->binary = tr->binaries[b].path;
		t->provider = p->provider;
		t->name = p->name;
		t->label = label.data;
		label = (struct buf){ 0 };
		buf_escaped(&label, t->label, strlen(t->label), 0);
		t->label_text = label.data;
		t->bin = &tr->binaries[b];
		t->notes = p;
		t->from_system = is_system_path(t->binary);
		/* Sizes are the binary's: a 32-bit program's long is 4. */
		tg = target_by_name(tr->binaries[b].arch);
		describe(t, p, tr->programs[b], from_file,
			 tg ? tg : target_host());
		/* --metrics: its firings counted by these arguments. */
		if (tr->opt->metrics)
			t->nlabel_args = by_args(tr, t, t->label_args);
	}
}

/* Whether paths a and b name one file (a BINARY operand, a library by
 * its symlink, a followed process's /proc/PID/exe). */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (strcmp(a, b) == 0)
		return 1;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Whether path is one of the binaries traced already. */
static int traced_already(const struct tracer *tr, const char *path)
{
	int i;

	for (i = 0; i < tr->nbinaries; i++)
		if (same_file(tr->binaries[i].path, path))
			return 1;
	return 0;
}

/* Read one binary: 1 if it carries probes (or is traced already), 0 if
 * not, -1 on error. */
static int add_binary(struct tracer *tr, const char *path)
{
	struct binary *b;
	const struct bin_probe *p;
	int any = 0;

	if (traced_already(tr, path))
		return 1;
	tr->binaries = xrealloc(tr->binaries,
				sizeof(*b) * ((size_t)tr->nbinaries + 1));
	tr->programs =
		xrealloc(tr->programs,
			 sizeof(*tr->programs) * ((size_t)tr->nbinaries + 1));
	b = &tr->binaries[tr->nbinaries];
	if (binary_read(path, b) != 0)
		return -1;
	b->path = xstrdup(path); /* the caller's may not last */
	for (p = b->probes; p; p = p->next)
		any |= p->nsites > 0;
	tr->programs[tr->nbinaries] = any ? binary_program(b) : NULL;
	if (!any) {
		free((char *)b->path);
		binary_free(b);
		return 0;
	}
	tr->nbinaries++;
	return 1;
}

/* The executable and the shared objects a process has mapped. */
static int add_process(struct tracer *tr, int pid)
{
	char path[64], line[PATH_MAX + 256], exe[PATH_MAX];
	FILE *maps;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	if (n < 0) {
		error_plain("no process with PID %d (%s)", pid,
			    strerror(errno));
		return -1;
	}
	exe[n] = '\0';
	if (add_binary(tr, exe) < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (!(maps = fopen(path, "r")))
		return 0;
	while (fgets(line, sizeof(line), maps)) {
		char *file = strchr(line, '/');
		struct target elf;
		struct stat st;

		if (!file)
			continue;
		file[strcspn(file, "\n")] = '\0';
		/* Shared libraries by absolute path, as libbpf needs them. */

		if (strstr(file, " (deleted)") || stat(file, &st) != 0 ||
		    !S_ISREG(st.st_mode) || target_from_elf(file, &elf) != 0)
			continue; /* locale archives, caches: not ELF */
		if (add_binary(tr, file) < 0)
			warning_plain("the probes of '%s' are not traced",
				      file);
	}
	fclose(maps);
	return 0;
}

/* The program's interpreter (PT_INTERP: the dynamic loader that maps
 * its libraries), or NULL for a static program. */
static char *interpreter_of(const char *exe)
{
	int fd = open(exe, O_RDONLY | O_CLOEXEC);
	char *interp = NULL;
	size_t i, n, size;
	const char *raw;
	GElf_Phdr ph;
	Elf *elf;

	if (fd < 0)
		return NULL;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	raw = elf ? elf_rawfile(elf, &size) : NULL;
	if (raw && elf_getphdrnum(elf, &n) == 0)
		for (i = 0; i < n && !interp; i++)
			if (gelf_getphdr(elf, (int)i, &ph) &&
			    ph.p_type == PT_INTERP && ph.p_offset < size &&
			    ph.p_filesz <= size - ph.p_offset && ph.p_filesz)
				interp = xstrndup(raw + ph.p_offset,
						  strnlen(raw + ph.p_offset,
							  ph.p_filesz));
	elf_end(elf);
	close(fd);
	return interp;
}

/* The shared libraries a program will load, as its own loader lists
 * them ("LOADER --list PROGRAM", what ldd runs after trying each loader
 * it knows: ldd took 12 ms, the loader alone 1 ms); none for a static
 * program.  Their probes are attached by path before they are loaded.
 * No shell. */
static void add_libraries(struct tracer *tr, const char *exe)
{
	char *interp = interpreter_of(exe), line[PATH_MAX + 128];
	char *argv[] = { interp, (char *)"--list", (char *)exe, NULL };
	posix_spawn_file_actions_t fa;
	int fds[2];
	pid_t pid;
	FILE *p;

	if (!interp || pipe(fds) != 0) {
		free(interp);
		return;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], STDOUT_FILENO);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null",
					 O_WRONLY, 0);
	if (posix_spawn(&pid, interp, &fa, NULL, argv, environ) != 0)
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	p = fdopen(fds[0], "r");
	while (p && fgets(line, sizeof(line), p)) {
		char *arrow = strstr(line, "=> /"), *end;
		struct target elf;

		if (!arrow)
			continue;
		end = arrow + 3 + strcspn(arrow + 3, " \n(");
		*end = '\0';
		if (target_from_elf(arrow + 3, &elf) == 0 &&
		    add_binary(tr, arrow + 3) < 0)
			warning_plain("the probes of '%s' are not traced",
				      arrow + 3);
	}
	if (p)
		fclose(p);
	else
		close(fds[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	free(interp);
}

/* The command's executable, found as execvp would. */
static char *command_path(const char *cmd)
{
	const char *path = getenv("PATH");
	char *dirs, *dir, *save = NULL, *found = NULL;

	if (strchr(cmd, '/'))
		return realpath(cmd, NULL);
	dirs = xstrdup(path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(dirs, ":", &save); dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		char *full = xasprintf("%s/%s", *dir ? dir : ".", cmd);

		if (access(full, X_OK) == 0)
			found = realpath(full, NULL);
		free(full);
	}
	free(dirs);
	return found;
}

static int is_elf(const char *path)
{
	struct target elf;

	return target_from_elf(path, &elf) == 0;
}

/* What opt names, in order: binaries, the process, the command. */
static int find_binaries(struct tracer *tr)
{
	const struct trace_options *opt = tr->opt;
	int i, r;

	for (i = 0; i < opt->nbinaries; i++) {
		r = add_binary(tr, opt->binaries[i]);
		if (r == 0)
			error_input("'%s' has no probes", opt->binaries[i]);
		if (r <= 0)
			return r < 0 ? EXIT_SYSTEM : EXIT_INPUT;
	}
	if (opt->pid) {
		if (kill(opt->pid, 0) != 0 && errno == ESRCH) {
			error_plain("no process with PID %d", opt->pid);
			return EXIT_SYSTEM;
		}
		if (add_process(tr, opt->pid) != 0)
			return EXIT_SYSTEM;
	}
	if (opt->command) {
		tr->exe = command_path(opt->command[0]);
		if (!tr->exe) {
			error_plain("cannot find the command '%s'",
				    opt->command[0]);
			return EXIT_SYSTEM;
		}
		/* A script's probes are its interpreter's, and the
		   programs it starts are found as it starts them
		   (targets_add_program). */
		if (!is_elf(tr->exe))
			return EXIT_OK;
		if (add_binary(tr, tr->exe) < 0)
			return EXIT_SYSTEM;
		add_libraries(tr, tr->exe);
	}
	return EXIT_OK;
}

/* The traced probe of binary b named like pr, or -1. */
static int traced_index(const struct tracer *tr, int b, const struct probe *pr)
{
	int i;

	for (i = 0; i < tr->nprobes; i++)
		if (tr->probes[i].binary == tr->binaries[b].path &&
		    strcmp(tr->probes[i].provider, pr->provider->name) == 0 &&
		    strcmp(tr->probes[i].name, pr->name) == 0)
			return i;
	return -1;
}

/* Is the pair from s to e, matched by those arguments, kept already? */
static int kept_already(const struct tracer *tr, int s, int e,
			const struct pair *p)
{
	int i;

	for (i = 0; i < tr->npairs; i++)
		if (tr->pairs[i].start == s && tr->pairs[i].end == e &&
		    tr->pairs[i].start_arg == p->start_arg &&
		    tr->pairs[i].end_arg == p->end_arg)
			return 1;
	return 0;
}

/* The arguments that name the calls of pair tp: a --by's for its start,
 * else, as the runtimes name them, the string argument that holds the
 * function's name (Python's funcname, Ruby's methodname, PHP's
 * function_name, Perl's subname, Tcl's and a span's name) after the one
 * that holds its class or package when the start has one
 * (Class::method, package::sub). */
static void choose_names(struct tracer *tr, struct traced_pair *tp)
{
	static const char *const function_names[] = {
		"funcname", "methodname", "function_name", "subname", "name",
		NULL
	};
	static const char *const class_names[] = { "classname", "class_name",
						    "class", "packagename",
						    "package", NULL };
	const struct traced *start = &tr->probes[tp->start];
	int f, c;

	tp->nname_args = by_args(tr, start, tp->name_args);
	if (tp->nname_args)
		return;
	f = string_arg_named(start, function_names);
	if (f < 0)
		return;
	c = string_arg_named(start, class_names);
	if (c >= 0)
		tp->name_args[tp->nname_args++] = c;
	tp->name_args[tp->nname_args++] = f;
}

/* Keep the pairs of list whose probes binary b traces, each once (a
 * --pair the probes' names already make is that pair), and give each
 * probe its roles: a probe may start or end several pairs.  Returns how
 * many of list's pairs binary b traces, kept now or before. */
static int keep_pairs(struct tracer *tr, int b, const struct pair *list)
{
	const struct pair *p;
	int traced = 0;

	for (p = list; p; p = p->next) {
		int s = traced_index(tr, b, p->start),
		    e = traced_index(tr, b, p->end);
		struct traced *start, *end;
		struct traced_pair *tp;

		if (s < 0 || e < 0)
			continue;
		traced++;
		if (kept_already(tr, s, e, p))
			continue;
		start = &tr->probes[s];
		end = &tr->probes[e];
		if (tr->npairs >= TRACE_MAX_PAIRS ||
		    start->nstarts >= TRACE_MAX_ROLES ||
		    end->nends >= TRACE_MAX_ROLES) {
			warning_plain(
				"pair %s, %s not timed: at most %d pairs, and %d a probe",
				start->label_text, end->label_text,
				TRACE_MAX_PAIRS, TRACE_MAX_ROLES);
			continue;
		}
		start->starts[start->nstarts++] = tr->npairs;
		end->ends[end->nends++] = tr->npairs;
		tr->pairs = xgrow(tr->pairs, (size_t)tr->npairs, sizeof(*tp));
		tp = &tr->pairs[tr->npairs++];
		tp->start = s;
		tp->end = e;
		tp->start_arg = p->start_arg;
		tp->end_arg = p->end_arg;
		tp->stem = xstrdup(*p->stem ? p->stem : p->start->name);
		tp->by = p->arg ? xstrdup(p->arg) : NULL;
		tp->label = xasprintf("%s, %s%s%s", start->label, end->label,
				      p->arg ? ", by " : "",
				      p->arg ? p->arg : "");
		choose_names(tr, tp);
		/* Only nested calls are timed as a profile: a pair matched
		   by value may start on one thread and end on another. */
		tp->in_user = tp->start_arg < 0 &&
			      (tr->opt->folded ||
			       (tr->opt->summary && tp->nname_args));
	}
	return traced;
}

/* Those --pair names (found in the -s declarations, else in the first
 * binary that traces both probes), and those the names give. */
static int find_pairs(struct tracer *tr)
{
	const struct trace_options *opt = tr->opt;
	int b, i;

	for (i = 0; i < opt->npair_requests; i++) {
		struct buf searched = { 0 };
		char *why = NULL;
		int found = 0;

		for (b = 0; b < tr->nbinaries && !found; b++) {
			const struct program *prog = opt->d_program
							     ? opt->d_program
							     : tr->programs[b];
			struct pair *p;

			free(why);
			why = pair_parse(prog, opt->pair_requests[i], &p);
			found = keep_pairs(tr, b, p);
			pairs_free(p);
			buf_cat(&searched, searched.len ? ", " : "",
				tr->binaries[b].path, NULL);
		}
		if (!found) {
			/* Every binary traced was searched (the command's
			   libraries too): say which. */
			error_input("%s (searched: %s)",
				    why ? why
					: "--pair: its probes are not traced",
				    searched.data ? searched.data
						  : "no binary");
			free(why);
			buf_free(&searched);
			return EXIT_INPUT;
		}
		free(why);
		buf_free(&searched);
	}
	for (b = 0; b < tr->nbinaries; b++) {
		struct pair *list = pairs_of(tr->programs[b]);

		keep_pairs(tr, b, list);
		pairs_free(list);
	}
	return EXIT_OK;
}

int targets_find(struct tracer *tr)
{
	const struct trace_options *opt = tr->opt;
	int i, status;

	tr->by_used = xcalloc((size_t)opt->nby_requests + 1, 1);
	status = find_binaries(tr);
	if (status != EXIT_OK)
		return status;
	for (i = 0; i < tr->nbinaries; i++)
		add_probes(tr, i, opt->d_program);
	/* A command or a process is followed: the programs it starts may
	   bring the probes (trace.c says if none ever did). */
	if (!tr->nprobes && !opt->nfilters && (opt->command || opt->pid))
		return EXIT_OK;
	if (!tr->nbinaries) {
		error_input("no probes in %s",
			    opt->command ? "the command"
			    : opt->pid	 ? "the process or its libraries"
					 : "the binaries");
		return EXIT_INPUT;
	}
	if (!tr->nprobes) {
		error_input("no probe matches %s%s", opt->filters[0],
			    opt->nfilters > 1 ? " or the other -n patterns"
					      : "");
		return EXIT_INPUT;
	}
	if (tr->nprobes > TRACE_MAX_PROBES) {
		error_input("%d probes: at most %d can be traced at once",
			    tr->nprobes, TRACE_MAX_PROBES);
		return EXIT_INPUT;
	}
	return find_pairs(tr);
}

/* Forget the probes from nprobes on and the pairs from npairs on. */
static void drop_probes(struct tracer *tr, int nprobes, int npairs)
{
	int i, a;

	for (i = nprobes; i < tr->nprobes; i++) {
		for (a = 0; a < tr->probes[i].nargs; a++)
			free(tr->probes[i].arg_names[a]);
		free(tr->probes[i].label);
		free(tr->probes[i].label_text);
	}
	tr->nprobes = nprobes;
	for (i = npairs; i < tr->npairs; i++) {
		free(tr->pairs[i].label);
		free(tr->pairs[i].stem);
		free(tr->pairs[i].by);
	}
	tr->npairs = npairs;
}

int targets_add_program(struct tracer *tr, const char *path)
{
	int b, i, first = tr->nbinaries, before = tr->nprobes,
		  pairs_before = tr->npairs;

	/* Traced already, in every process: no ldd run again. */
	if (traced_already(tr, path) || !is_elf(path))
		return 0;
	if (add_binary(tr, path) < 0)
		warning_plain("the probes of '%s' are not traced", path);
	add_libraries(tr, path);
	/* The binaries moved: each probe's points at its own again. */
	for (i = 0; i < before; i++)
		for (b = 0; b < first; b++)
			if (tr->probes[i].binary == tr->binaries[b].path)
				tr->probes[i].bin = &tr->binaries[b];
	for (b = first; b < tr->nbinaries; b++) {
		struct pair *list = pairs_of(tr->programs[b]);

		add_probes(tr, b, tr->opt->d_program);
		keep_pairs(tr, b, list);
		pairs_free(list);
	}
	if (tr->nprobes > TRACE_MAX_PROBES) {
		warning_plain(
			"the probes of '%s' are not traced: at most %d probes at once",
			path, TRACE_MAX_PROBES);
		/* Its pairs are among its own probes: they go with them. */
		drop_probes(tr, before, pairs_before);
	}
	return tr->nprobes - before;
}

void targets_free(struct tracer *tr)
{
	int i;

	drop_probes(tr, 0, 0);
	free(tr->probes);
	free(tr->pairs);
	free(tr->by_used);
	for (i = 0; i < tr->nsiteless; i++)
		free(tr->siteless[i]);
	free(tr->siteless);
	for (i = 0; i < tr->nbinaries; i++) {
		program_free(tr->programs[i]);
		free((char *)tr->binaries[i].path);
		binary_free(&tr->binaries[i]);
	}
	free(tr->binaries);
	free(tr->programs);
	free(tr->exe);
}
