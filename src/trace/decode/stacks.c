/*
 * src/trace/decode/stacks.c - --stack's walks: a firing's registers and the top
 * of its user stack (copied by the BPF side) unwound with the CFI of
 * the binaries the process has mapped (.eh_frame, .debug_frame), through
 * libdwfl's thread callbacks, and each frame named by its symbol (the
 * symbol table, or .dynsym in a stripped binary) and, where there is
 * DWARF, its file and line.  Debian's binaries have no frame pointers:
 * the CFI is what walks them.  A process's mappings are read at its
 * first event, or earlier when it execs or maps objects while followed
 * (stacks_process), so that its events are named after it has ended.
 * Needs libdw (HAVE_LIBDW), and the registers of the program's
 * architecture in target.c's rows (x86-64 and i386: a 32-bit process's
 * registers sit in the low halves of the kernel's pt_regs).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/naming.h"
#include "inspect/inspect.h"
#include "trace/decode/event.h"
#include "trace/decode/stacks.h"

struct frame_place frame_place_copy(const struct frame_place *p)
{
	return (struct frame_place){ p->pc,
				     p->start,
				     p->limit,
				     p->binary ? xstrdup(p->binary) : NULL,
				     p->build_id ? xstrdup(p->build_id) : NULL,
				     p->function ? xstrdup(p->function) : NULL,
				     p->file ? xstrdup(p->file) : NULL,
				     p->line };
}

void frame_place_free(struct frame_place *p)
{
	free((char *)p->binary);
	free((char *)p->build_id);
	free((char *)p->function);
	free((char *)p->file);
}

#ifdef HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "inspect/debuginfo.h"

/* One process: its mappings as /proc/PID/maps said them, and the Dwfl
 * made of them, with the thread state of the event being walked. */
struct proc {
	int pid;
	char *maps;
	Dwfl *dwfl;
	int broken; /* its mappings could not be read: frames by address */
	/* Each frame's name by its address and whether it is an
	   activation ("1a2b3c+"): symbols and lines are looked up once. */
	struct name_set names;
	const struct trace_event *e; /* the event walked */
	char **keys;
	int nkeys;
	int told;		    /* next_thread has given its thread */
	int word;		    /* 8, or 4 for an i386 process */
	const struct target_regs *regs; /* its architecture's (target.c) */
	unsigned long long outside; /* an address read past the copy */
};

struct stacks {
	const struct tracer *tr;
	struct proc **procs; /* each where it stays: its Dwfl points at it */
	int nprocs;
	struct stack_walk walk;
};

static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = debuginfo_find,
};

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_arg)
{
	struct proc *p = arg;

	(void)dwfl;
	if (p->told)
		return 0;
	p->told = 1;
	*thread_arg = p;
	return (pid_t)p->e->tid;
}

/* A word of the stack as the firing left it: from the copy, or nothing
 * (the walk stops there: said). */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result,
			void *arg)
{
	struct proc *p = arg;
	const struct trace_event *e = p->e;
	unsigned long long sp = TRACE_STACK_OF(e)->regs[p->regs->sp];

	(void)dwfl;
	if (addr < sp || addr - sp + (unsigned)p->word > TRACE_STACK_OF(e)->stack_size) {
		p->outside = addr;
		return false;
	}
	/* An i386 word is 4 bytes: libdwfl takes it zero-extended. */
	*result = 0;
	memcpy(result, TRACE_STACK_OF(e)->stack + (addr - sp), (size_t)p->word);
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct proc *p = arg;
	Dwarf_Word regs[TRACE_MAX_REGS];
	int i, n = p->regs->ndwarf < TRACE_MAX_REGS ? p->regs->ndwarf
						    : TRACE_MAX_REGS;

	for (i = 0; i < n; i++)
		regs[i] = TRACE_STACK_OF(p->e)->regs[p->regs->dwarf[i] % TRACE_MAX_REGS] &
			  (p->word == 4 ? 0xffffffffu : ~0ull);
	return dwfl_thread_state_registers(thread, 0, (unsigned)n, regs);
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* /proc/PID/maps's text, or NULL when the process has ended. */
static char *read_maps(int pid)
{
	char path[64], chunk[4096];
	struct buf b = { 0 };
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	if (!(f = fopen(path, "r")))
		return NULL;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	return b.data;
}

static void proc_forget(struct proc *p);
struct frame_made;
static void frame_made_free(struct frame_made *f);
#define STACKS_OPEN 128

static struct proc *proc_of(struct stacks *s, int pid)
{
	int i;

	for (i = s->nprocs - 1; i >= 0; i--)
		if (s->procs[i]->pid == pid)
			return s->procs[i];
	/* A test suite starts thousands of processes: past STACKS_OPEN
	   the Dwfls (and the files they hold open) of those that have
	   ended are let go; their maps stay, to make one again. */
	if (s->nprocs && s->nprocs % STACKS_OPEN == 0)
		for (i = 0; i < s->nprocs; i++)
			if (s->procs[i]->dwfl &&
			    kill(s->procs[i]->pid, 0) != 0 && errno == ESRCH) {
				dwfl_end(s->procs[i]->dwfl);
				s->procs[i]->dwfl = NULL;
				proc_forget(s->procs[i]);
			}
	s->procs = xgrow(s->procs, (size_t)s->nprocs, sizeof(*s->procs));
	s->procs[s->nprocs] = xcalloc(1, sizeof(struct proc));
	s->procs[s->nprocs]->pid = pid;
	return s->procs[s->nprocs++];
}

/* p's Dwfl, made from its mappings (read now if not before). */
static Dwfl *dwfl_of(struct proc *p)
{
	FILE *f;

	if (p->dwfl || p->broken)
		return p->dwfl;
	if (!p->maps)
		p->maps = read_maps(p->pid);
	p->dwfl = dwfl_begin(&proc_callbacks);
	f = p->maps ? fmemopen(p->maps, strlen(p->maps), "r") : NULL;
	if (!p->dwfl || !f) {
		p->broken = 1;
	} else {
		dwfl_report_begin(p->dwfl);
		p->broken = dwfl_linux_proc_maps_report(p->dwfl, f) != 0;
		dwfl_report_end(p->dwfl, NULL, NULL);
		p->broken = p->broken ||
			    !dwfl_attach_state(p->dwfl, NULL, (pid_t)p->pid,
					       &thread_callbacks, p);
	}
	if (f)
		fclose(f);
	if (p->broken && p->dwfl) {
		dwfl_end(p->dwfl);
		p->dwfl = NULL;
	}
	return p->dwfl;
}

/* p's names and their keys forgotten (its mappings changed). */
static void proc_forget(struct proc *p)
{
	size_t i;
	int k;

	for (i = 0; i < p->names.cap; i++)
		if (p->names.slots[i].name)
			frame_made_free((struct frame_made *)p->names.slots[i].owner);
	name_set_free(&p->names);
	memset(&p->names, 0, sizeof(p->names));
	for (k = 0; k < p->nkeys; k++)
		free(p->keys[k]);
	free(p->keys);
	p->keys = NULL;
	p->nkeys = 0;
}

void stacks_process(struct stacks *s, int pid)
{
	struct proc *p = proc_of(s, pid);
	char *maps = read_maps(pid);

	if (!maps)
		return;
	/* A later mapping (a dlopen): made again at the next event. */
	free(p->maps);
	p->maps = maps;
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->dwfl = NULL;
	p->broken = 0;
	proc_forget(p);
}

/* A frame's name and place (its strings its own), made once for each
 * address of a process; where calls were inlined there, the frame of
 * the function inlined first, then each it was inlined into (caller),
 * as addr2line -i and perf --inline show them. */
struct frame_made {
	char *name;
	struct frame_place place;
	struct frame_made *caller;
};

static void frame_made_free(struct frame_made *f)
{
	while (f) {
		struct frame_made *caller = f->caller;

		free(f->name);
		frame_place_free(&f->place);
		free(f);
		f = caller;
	}
}

/* mod's build-id in hex, or NULL. */
static char *build_id_of(Dwfl_Module *mod)
{
	const unsigned char *bits;
	GElf_Addr at;
	int n = dwfl_module_build_id(mod, &bits, &at), i;
	char *hex;

	if (n <= 0)
		return NULL;
	hex = xmalloc((size_t)n * 2 + 1);
	for (i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", bits[i]);
	return hex;
}

/* The C++ runtime's demangler (libstdc++, which every C++ program
 * links, and probegen with --trace): the name perf and gdb show. */
char *__cxa_demangle(const char *mangled, char *out, size_t *len,
		     int *status);

/* Symbol sym's first n bytes as a frame names it: a C++ name demangled
 * (_ZN3net7receiveEi is net::receive(int)), any other as it is. */
static char *function_name(const char *sym, size_t n)
{
	char *raw = xstrndup(sym, n), *d;
	int status = -1;

	if (raw[0] == '_' && raw[1] == 'Z' &&
	    (d = __cxa_demangle(raw, NULL, NULL, &status)) && status == 0) {
		free(raw);
		return d;
	}
	return raw;
}

/* The name of an inlined call's function (its linkage name
 * demangled, or its name), from its abstract origin; NULL if none. */
static char *inlined_name(Dwarf_Die *die)
{
	Dwarf_Attribute at;
	const char *s = dwarf_formstring(
		dwarf_attr_integrate(die, DW_AT_linkage_name, &at));

	if (!s)
		s = dwarf_formstring(
			dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at));
	if (s)
		return function_name(s, strlen(s));
	return (s = dwarf_diename(die)) ? xstrdup(s) : NULL;
}

/* Where an inlined call was made: its DW_AT_call_file and _line (the
 * file's name in cu's table) into *file and *line; 0, or -1. */
static int call_site(Dwarf_Die *die, Dwarf_Die *cu, const char **file,
		     int *line)
{
	Dwarf_Attribute at;
	Dwarf_Word idx, l;
	Dwarf_Files *files;
	size_t nfiles;

	if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &at), &idx) != 0 ||
	    dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &at), &l) != 0 ||
	    dwarf_getsrcfiles(cu, &files, &nfiles) != 0 || idx >= nfiles ||
	    !(*file = dwarf_filesrc(files, idx, NULL, NULL)))
		return -1;
	*line = (int)l;
	return 0;
}

/* A frame's text: "function+0xoff (file.c:12)" (inlined: "function
 * (file.c:12, inlined)"), without a line when there is none. */
static char *frame_text(const char *function, int inlined,
			unsigned long long off, const char *file, int line,
			const char *bin)
{
	const char *slash = file ? strrchr(file, '/') : NULL;

	if (slash)
		file = slash + 1;
	if (inlined)
		return file ? xasprintf("%s (%s:%d, inlined)", function, file, line)
			    : xasprintf("%s (inlined)", function);
	if (file)
		return xasprintf("%s+0x%llx (%s:%d)", function, off, file, line);
	return xasprintf("%s+0x%llx (%s)", function, off, bin ? bin : "?");
}

/* A place's strings copied, at another function and line. */
static struct frame_place place_at(const struct frame_place *p,
				   char *function, const char *file, int line)
{
	struct frame_place q = *p;

	q.binary = p->binary ? xstrdup(p->binary) : NULL;
	q.build_id = p->build_id ? xstrdup(p->build_id) : NULL;
	q.function = function;
	q.file = file ? xstrdup(file) : NULL;
	q.line = file ? line : 0;
	return q;
}

/* The frames of the calls inlined at look in mod, innermost first (the
 * line table's line), each then at the site of the call inlined in it,
 * before the function's own frame f, which gets the outermost call's
 * site: f alone when none is.  A place no function's DWARF scope holds
 * (_start, from crt1.o) gets no line: the line table's would be a
 * neighbour's. */
static struct frame_made *inlined_frames(Dwfl_Module *mod, Dwarf_Addr look,
					 struct frame_made *f,
					 unsigned long long off, const char *bin)
{
	Dwarf_Addr bias = 0;
	Dwarf_Die *cu = mod ? dwfl_module_addrdie(mod, look, &bias) : NULL,
		  *scopes = NULL;
	int n = cu ? dwarf_getscopes(cu, look - bias, &scopes) : 0, k,
	    in_function = 0, line = f->place.line;
	struct frame_made *first = NULL, **link = &first, *made;
	const char *file = f->place.file;
	char *name, *at_file = NULL;
	Dwarf_Die innermost;

	/* The innermost scope's concrete chain out to its function, as
	   eu-addr2line -i finds it: dwarf_getscopes alone climbs an
	   inlined call's abstract origin instead. */
	if (n > 0 && dwarf_offdie(dwarf_cu_getdwarf(scopes[0].cu),
				  dwarf_dieoffset(&scopes[0]), &innermost)) {
		free(scopes);
		scopes = NULL;
		n = dwarf_getscopes_die(&innermost, &scopes);
	}
	for (k = 0; k < n; k++)
		in_function |= dwarf_tag(&scopes[k]) == DW_TAG_subprogram;
	for (k = 0; in_function && k < n; k++) {
		if (dwarf_tag(&scopes[k]) == DW_TAG_subprogram)
			break; /* the function's own: f */
		if (dwarf_tag(&scopes[k]) != DW_TAG_inlined_subroutine ||
		    !(name = inlined_name(&scopes[k])))
			continue;
		made = xcalloc(1, sizeof(*made));
		made->place = place_at(&f->place, name, file, line);
		made->name = frame_text(name, 1, 0, file, line, bin);
		*link = made;
		link = &made->caller;
		if (call_site(&scopes[k], cu, &file, &line) != 0)
			file = NULL;
		free(at_file);
		at_file = file ? xstrdup(file) : NULL;
		file = at_file;
	}
	if (!in_function)
		file = NULL;
	if (file != f->place.file) {
		/* The function's own frame, at the outermost call's site. */
		char *where = file ? xstrdup(file) : NULL;

		free((char *)f->place.file);
		f->place.file = where;
		f->place.line = where ? line : 0;
		free(f->name);
		f->name = frame_text(f->place.function, 0, off, where, line, bin);
	}
	free(at_file);
	free(scopes);
	*link = f;
	return first;
}

/* The name and place of frame pc (its caller's call when not an
 * activation: one byte back, inside the call). */
static struct frame_made *frame_name(Dwfl *dwfl, Dwarf_Addr pc,
				     int activation)
{
	Dwarf_Addr look = activation ? pc : pc - 1, start = 0, end = 0;
	Dwfl_Module *mod = dwfl ? dwfl_addrmodule(dwfl, look) : NULL;
	const char *sym = NULL, *file = NULL, *path = NULL, *bin, *slash;
	char *function = NULL, *build_id = NULL;
	struct frame_made *f = xcalloc(1, sizeof(*f));
	GElf_Off off = 0;
	GElf_Sym s;
	Dwfl_Line *line;
	int lineno = 0;

	if (mod) {
		sym = dwfl_module_addrinfo(mod, look, &off, &s, NULL, NULL,
					   NULL);
		if ((line = dwfl_module_getsrc(mod, look)))
			file = dwfl_lineinfo(line, NULL, &lineno, NULL, NULL,
					     NULL);
		path = dwfl_module_info(mod, NULL, &start, &end, NULL, NULL,
					NULL, NULL);
		build_id = build_id_of(mod);
	}
	off += pc - look;
	/* A versioned name (__libc_start_main@@GLIBC_2.34): its name. */
	if (sym)
		function = function_name(sym, strcspn(sym, "@"));
	f->place = (struct frame_place){ pc,
					 start,
					 end,
					 path ? xstrdup(path) : NULL,
					 build_id,
					 function,
					 file ? xstrdup(file) : NULL,
					 file ? lineno : 0 };
	if (file && (slash = strrchr(file, '/')))
		file = slash + 1;
	bin = path && (slash = strrchr(path, '/')) ? slash + 1 : path;
	if (sym && file)
		f->name = xasprintf("%s+0x%llx (%s:%d)", function,
				    (unsigned long long)off, file, lineno);
	else if (sym)
		f->name = xasprintf("%s+0x%llx (%s)", function,
				    (unsigned long long)off, bin ? bin : "?");
	else
		f->name = xasprintf("0x%llx (%s)", (unsigned long long)pc,
				    bin ? bin : "no mapping known");
	return sym ? inlined_frames(mod, look, f, (unsigned long long)off, bin)
		   : f;
}

struct walking {
	struct stacks *s;
	struct proc *p;
};

/* Frame pc's name and place in p, made once (kept with p). */
static const struct frame_made *cached_frame(struct proc *p, Dwarf_Addr pc,
					     int activation)
{
	char key[32];
	const struct frame_made *found;
	struct frame_made *made;
	char *k;

	snprintf(key, sizeof(key), "%llx%c", (unsigned long long)pc,
		 activation ? '+' : '-');
	if (!p->names.cap)
		name_set_init(&p->names, 256);
	if ((found = name_set_find(&p->names, key)))
		return found;
	made = frame_name(p->dwfl, pc, activation);
	k = xstrdup(key);
	name_set_add(&p->names, k, strlen(k), made);
	/* The key lives with the frame: one allocation apart, freed with
	   the set (proc_forget). */
	p->keys = xgrow(p->keys, (size_t)p->nkeys, sizeof(*p->keys));
	p->keys[p->nkeys++] = k;
	return made;
}

static int on_frame(Dwfl_Frame *frame, void *arg)
{
	struct walking *w = arg;
	struct stack_walk *walk = &w->s->walk;
	Dwarf_Addr pc;
	bool activation;

	const struct frame_made *f;

	if (!dwfl_frame_pc(frame, &pc, &activation))
		return -1;
	for (f = cached_frame(w->p, pc, activation); f; f = f->caller) {
		if (walk->nframes >= w->s->tr->plan.stack_frames)
			return DWARF_CB_ABORT;
		walk->places[walk->nframes] = f->place;
		walk->frames[walk->nframes++] = xstrdup(f->name);
	}
	return walk->nframes < w->s->tr->plan.stack_frames ? DWARF_CB_OK
							   : DWARF_CB_ABORT;
}

static void clear_walk(struct stack_walk *w)
{
	int i;

	for (i = 0; i < w->nframes; i++)
		free(w->frames[i]);
	free(w->stopped);
	memset(w, 0, sizeof(*w));
}

void stacks_event(struct stacks *s, const struct trace_event *e)
{
	struct proc *p = proc_of(s, (int)e->pid);
	Dwfl *dwfl = dwfl_of(p);
	const char *arch = s->tr->probes[e->probe].bin->arch;
	const struct target *tg = target_by_name(arch);
	struct walking w = { s, p };
	int rc;

	clear_walk(&s->walk);
	if (TRACE_STACK_OF(e)->stack_end == TRACE_STACK_NO_REGS || !tg || !tg->regs) {
		s->walk.stopped = xasprintf(
			"a %s program's stack is not walked (x86 only)",
			arch);
		return;
	}
	p->word = tg->elfclass == ELFCLASS32 ? 4 : 8;
	p->regs = tg->regs;
	if (!dwfl) {
		/* The process had ended, unread: its firing's address. */
		struct frame_made *f = frame_name(
			NULL,
			TRACE_STACK_OF(e)->regs[p->regs->ip] & (p->word == 4 ? 0xffffffffu : ~0ull),
			1);

		s->walk.places[0] = (struct frame_place){ .pc = f->place.pc };
		s->walk.frames[s->walk.nframes++] = f->name;
		f->name = NULL;
		frame_made_free(f);
		s->walk.stopped = xstrdup(
			"its process ended before its mappings were read");
		return;
	}
	p->e = e;
	p->told = 0;
	p->outside = 0;
	rc = dwfl_getthread_frames(dwfl, (pid_t)e->tid, on_frame, &w);
	if (rc == DWARF_CB_ABORT)
		s->walk.stopped = xasprintf("at %d frames, the most kept (--stack-frames)",
					    s->tr->plan.stack_frames);
	else if (p->outside && TRACE_STACK_OF(e)->stack_size == 0)
		/* Not one byte at the stack pointer could be read. */
		s->walk.stopped = xstrdup(
			"the stack pointer was not in a mapping (nothing to copy)");
	else if (p->outside)
		s->walk.stopped = xasprintf(
			"the stack's copy ends (%u bytes%s; --stack-bytes)",
			TRACE_STACK_OF(e)->stack_size,
			TRACE_STACK_OF(e)->stack_end == TRACE_STACK_TOP ? ", to its top" : "");
	else if (rc != 0 && !s->walk.nframes)
		s->walk.stopped = xstrdup(dwfl_errmsg(-1));
	/* Else an error past the outermost frame: some systems end so
	   (libdwfl.h says), and _start's CFI ends the walk. */
	p->e = NULL;
}

const struct stack_walk *stacks_current(const struct stacks *s)
{
	return &s->walk;
}

struct stacks *stacks_new(const struct tracer *tr)
{
	struct stacks *s = xcalloc(1, sizeof(*s));

	s->tr = tr;
	return s;
}

long stacks_symbol(void *ctx, unsigned pid, unsigned long long addr,
		   char *out)
{
	struct stacks *s = ctx;
	Dwfl *dwfl = dwfl_of(proc_of(s, (int)pid));
	Dwfl_Module *mod = dwfl ? dwfl_addrmodule(dwfl, addr) : NULL;
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name = mod ? dwfl_module_addrinfo(mod, addr, &off, &sym,
						      NULL, NULL, NULL)
			       : NULL;
	char *function;
	int n;

	/* A function's, not a variable's: else the address is shown. */
	if (!name || (GELF_ST_TYPE(sym.st_info) != STT_FUNC &&
		      GELF_ST_TYPE(sym.st_info) != STT_GNU_IFUNC))
		return MEANT_NOTHING;
	function = function_name(name, strcspn(name, "@"));
	n = off ? snprintf(out, MEANT_MAX, "%s+0x%llx", function,
			   (unsigned long long)off)
		: snprintf(out, MEANT_MAX, "%s", function);
	free(function);
	return n < 0 ? MEANT_NOTHING : n >= MEANT_MAX ? MEANT_MAX - 1 : n;
}

void stacks_free(struct stacks *s)
{
	int i;

	if (!s)
		return;
	clear_walk(&s->walk);
	for (i = 0; i < s->nprocs; i++) {
		if (s->procs[i]->dwfl)
			dwfl_end(s->procs[i]->dwfl);
		free(s->procs[i]->maps);
		proc_forget(s->procs[i]);
		free(s->procs[i]);
	}
	free(s->procs);
	free(s);
}

#else

struct stacks {
	struct stack_walk walk;
};

/* Without libdw: no walks (--stack says so), and code pointers are
 * shown as addresses. */
struct stacks *stacks_new(const struct tracer *tr)
{
	if (!tr->plan.request->stack)
		return xcalloc(1, sizeof(struct stacks));
	error_plain(
		"--stack needs libdw: apt-get install libdw-dev, then make again");
	return NULL;
}

long stacks_symbol(void *ctx, unsigned pid, unsigned long long addr,
		   char *out)
{
	(void)ctx;
	(void)pid;
	(void)addr;
	(void)out;
	return MEANT_NOTHING;
}

void stacks_process(struct stacks *s, int pid)
{
	(void)s;
	(void)pid;
}

void stacks_event(struct stacks *s, const struct trace_event *e)
{
	(void)s;
	(void)e;
}

const struct stack_walk *stacks_current(const struct stacks *s)
{
	return &s->walk;
}

void stacks_free(struct stacks *s)
{
	free(s);
}

#endif
