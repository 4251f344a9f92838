/*
 * src/trace/kernel/attach.c - the BPF program attached to every site of every
 * traced probe, from probegen's own reading of the notes (inspect/), not
 * libbpf's: libbpf 1.1 reads 64-bit binaries only ("Bad file
 * descriptor" on a 32-bit program), holds 256 argument specs and frees
 * a link twice when one attach fails.  Each site is a uprobe at its
 * place in the file, with the probe's semaphore as the uprobe's
 * reference counter (the kernel sets it while attached) and, as its BPF
 * cookie, the number of its argument specs in the map that libbpf's
 * usdt.bpf.h declares (trace.bpf.c reads it, as bpf_usdt_arg would,
 * and libbpf's own attach on other hosts fills it).  Sites of a probe
 * that share their specs share one entry.
 *
 * The specs are turned into that map's form on a host whose registers
 * target.c's rows give (x86: x86-64 and i386 programs, a 32-bit
 * process's registers sitting in the kernel's 64-bit pt_regs); other
 * hosts attach through libbpf's USDT support.
 *
 * One uprobe a site costs the kernel about a tenth of a second to
 * register (100 probes: 12 s).  Linux 6.6's multi-uprobe link attaches
 * every site of a file in one call: with a program loaded for it
 * (ATTACH_UPROBE_MULTI, session.c), the sites are gathered per file
 * and attached by attacher_commit(); else one uprobe a site, as before.
 * The constants and the layout of the call's arguments are the kernel's
 * UAPI (include/uapi/linux/bpf.h, 6.6), which Debian 12's headers
 * (6.1) do not have yet.
 */
#include <bpf/libbpf.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "compiler/naming.h"
#include "inspect/inspect.h"
#include "trace/kernel/bpf_rooms.h"

/* usdt.bpf.h's struct __bpf_usdt_spec, as the map holds it (its size is
 * checked against the map's at start). */
enum { USDT_CONST, USDT_REG, USDT_REG_DEREF };
struct usdt_arg {
	unsigned long long val_off;
	int type;
	short reg_off;
	_Bool is_signed;
	char bitshift;
};
struct usdt_spec {
	struct usdt_arg args[TRACE_MAX_ARGS];
	unsigned long long cookie;
	short nargs;
};

/* The sites of one file, for one multi-uprobe link: of one probe when
 * the link is the probe's own (--budget switches it on and off). */
struct file_sites {
	const char *path;
	int probe; /* -1: every probe's in the file */
	unsigned long long *offsets, *ref_ctr_offsets, *cookies;
	int n;
	int fd; /* the link, once made */
};

struct attacher {
	struct bpf_program *prog;
	struct bpf_map *specs;
	int pid, nspecs, multi, native;
	int per_probe; /* a link each probe: attacher_switch */
	/* Per probe, when its last link's closing began (its uprobes
	   gone), by its thread; 0 until then. */
	double *detached_at, *closed_at; /* ... and its closing ended */
	int closing; /* the windows' closing threads still running */
	struct bpf_link **links;
	int nlinks;
	struct file_sites *files;
	int nfiles;
};

/* A register by any of its names (rax, eax, ax, al), as its byte offset
 * in the host kernel's struct pt_regs (target.c's rows); -1 when there
 * is none. */
static int register_offset(const char *name, size_t len)
{
	int w = target_register(target_host(), name, len);

	return w < 0 ? -1 : w * 8;
}

/* An AT&T operand: $N, %REG, N(%REG) or (%REG).  0, or -1 for any
 * other (sym(%rip), an index register), which no spec can say. */
static int operand_of(const struct arg_spec *a, struct usdt_arg *out)
{
	const char *p = a->operand, *end = a->operand + a->operand_len;
	char *num_end;
	long long n = 0;
	int reg;

	if (p < end && *p == '$') {
		out->type = USDT_CONST;
		out->val_off = (unsigned long long)strtoll(p + 1, &num_end, 0);
		return num_end == end ? 0 : -1;
	}
	if (p < end && (*p == '-' || (*p >= '0' && *p <= '9'))) {
		n = strtoll(p, &num_end, 0);
		p = num_end;
	}
	if (p < end && *p == '(') {
		if (end - p < 3 || end[-1] != ')' || p[1] != '%')
			return -1;
		reg = register_offset(p + 2, (size_t)(end - p - 3));
		out->type = USDT_REG_DEREF;
		out->val_off = (unsigned long long)n;
	} else if (p < end && *p == '%' && p == a->operand) {
		reg = register_offset(p + 1, (size_t)(end - p - 1));
		out->type = USDT_REG;
	} else {
		return -1;
	}
	if (reg < 0)
		return -1;
	out->reg_off = (short)reg;
	return 0;
}

/* A site's specs in the map's form; 0, or -1 naming the one in *bad. */
static int spec_of(const char *args, unsigned long long cookie,
		   struct usdt_spec *out, struct arg_spec *bad)
{
	struct arg_spec a;

	memset(out, 0, sizeof(*out));
	out->cookie = cookie;
	while ((args = spec_next(args, &a))) {
		struct usdt_arg *u;

		if (out->nargs >= TRACE_MAX_ARGS) {
			*bad = a;
			return -1;
		}
		u = &out->args[out->nargs++];
		if (operand_of(&a, u) != 0) {
			*bad = a;
			return -1;
		}
		/* A struct or class passed by value is in memory: its
		   first 8 bytes are read. */
		if (a.size > 8 && u->type == USDT_REG_DEREF)
			a.size = 8;
		if (a.size != 1 && a.size != 2 && a.size != 4 && a.size != 8) {
			*bad = a;
			return -1;
		}
		u->is_signed = a.is_signed;
		u->bitshift = (char)(64 - a.size * 8);
	}
	return 0;
}

/* Where addr is in b's file: the loadable segment that holds it. */
static int file_offset(const struct binary *b, unsigned long long addr,
		       unsigned long long *off)
{
	int i;

	for (i = 0; i < b->nsegments; i++) {
		const struct bin_segment *s = &b->segments[i];

		if (addr >= s->vaddr && addr - s->vaddr < s->filesz) {
			*off = addr - s->vaddr + s->offset;
			return 0;
		}
	}
	return -1;
}

struct attacher *attacher_new(struct bpf_program *prog, struct bpf_map *specs,
			      int pid, int multi)
{
	struct attacher *a = xcalloc(1, sizeof(*a));

	a->prog = prog;
	a->specs = specs;
	a->pid = pid;
	/* Specs read here on a host whose registers target.c knows (x86's
	   AT&T operands, operand_of), else by libbpf's USDT support. */
	a->native = target_host()->regs != NULL;
	a->multi = multi && a->native;
	if (a->native &&
	    bpf_map__value_size(specs) != sizeof(struct usdt_spec))
		die("internal error: libbpf's USDT spec is %u bytes, not %zu",
		    bpf_map__value_size(specs), sizeof(struct usdt_spec));
	return a;
}

static void keep_link(struct attacher *a, struct bpf_link *link)
{
	a->links = xgrow(a->links, (size_t)a->nlinks, sizeof(*a->links));
	a->links[a->nlinks++] = link;
}

static int multi_link(const struct attacher *a, const struct file_sites *f);

/* The file's sites, gathered for one link (the probe's own, when each
 * probe has one). */
static struct file_sites *file_of(struct attacher *a, const char *path,
				  int probe)
{
	int i;

	if (!a->per_probe)
		probe = -1;
	for (i = 0; i < a->nfiles; i++)
		if (a->files[i].path == path && a->files[i].probe == probe)
			return &a->files[i];
	a->files = xgrow(a->files, (size_t)a->nfiles, sizeof(*a->files));
	memset(&a->files[a->nfiles], 0, sizeof(*a->files));
	a->files[a->nfiles].path = path;
	a->files[a->nfiles].probe = probe;
	a->files[a->nfiles].fd = -1;
	return &a->files[a->nfiles++];
}

/* Closing a link detaches its uprobes at once, then waits for the
 * kernel's grace period (10 to 40 ms here, a sleepable program's): in
 * a thread of its own, so that neither the run's loop nor the next
 * link's closing waits for it.  The fd's number stays taken until
 * then: no open can reuse it meanwhile. */
struct closing {
	int fd;
	double *began; /* set to when the close began (its uprobes going) */
	double *ended; /* ... and when it ended (no firing of it can come) */
	int *pending;  /* the attacher's closes still running, or NULL */
};

static void *close_link(void *arg)
{
	struct closing *c = arg;

	if (c->began)
		*(volatile double *)c->began = now_seconds();
	close(c->fd);
	if (c->ended)
		*(volatile double *)c->ended = now_seconds();
	if (c->pending)
		__atomic_sub_fetch(c->pending, 1, __ATOMIC_SEQ_CST);
	free(c);
	return NULL;
}

static int close_in_thread(int fd, double *began, double *ended,
			   int *pending, pthread_t *thread)
{
	struct closing *c = xcalloc(1, sizeof(*c));

	c->fd = fd;
	c->began = began;
	c->ended = ended;
	c->pending = pending;
	if (pending)
		__atomic_add_fetch(pending, 1, __ATOMIC_SEQ_CST);
	if (pthread_create(thread, NULL, close_link, c) == 0)
		return 0;
	if (pending)
		__atomic_sub_fetch(pending, 1, __ATOMIC_SEQ_CST);
	free(c);
	if (began)
		*began = now_seconds();
	close(fd);
	if (ended)
		*ended = now_seconds();
	return -1;
}

int attacher_per_probe(struct attacher *a)
{
	a->per_probe = a->multi;
	/* Written by the closing threads: allocated once, never moved. */
	if (a->per_probe && !a->detached_at) {
		a->detached_at = xcalloc(TRACE_MAX_PROBES, sizeof(double));
		a->closed_at = xcalloc(TRACE_MAX_PROBES, sizeof(double));
	}
	return a->per_probe;
}

double attacher_detached_at(const struct attacher *a, int probe, int closed)
{
	if (!a->detached_at || probe < 0 || probe >= TRACE_MAX_PROBES)
		return 0;
	return *(volatile const double *)&(closed ? a->closed_at
						  : a->detached_at)[probe];
}

int attacher_switch(struct attacher *a, int probe, int on)
{
	int i, rc = 0;

	for (i = 0; a->per_probe && i < a->nfiles; i++) {
		struct file_sites *f = &a->files[i];

		if (f->probe != probe || !f->n || (f->fd >= 0) == on)
			continue;
		if (!on) {
			pthread_t t;

			int known = probe >= 0 && probe < TRACE_MAX_PROBES;

			if (known)
				a->detached_at[probe] = a->closed_at[probe] = 0;
			if (close_in_thread(f->fd,
					    known ? &a->detached_at[probe] : NULL,
					    known ? &a->closed_at[probe] : NULL,
					    &a->closing, &t) == 0)
				pthread_detach(t);
			f->fd = -1;
		} else if ((f->fd = multi_link(a, f)) < 0) {
			rc = -1;
		}
	}
	return rc;
}

static void gather(struct file_sites *f, unsigned long long off,
		   unsigned long long ref, unsigned long long cookie)
{
	f->offsets = xgrow(f->offsets, (size_t)f->n, sizeof(*f->offsets));
	f->ref_ctr_offsets = xgrow(f->ref_ctr_offsets, (size_t)f->n,
				   sizeof(*f->ref_ctr_offsets));
	f->cookies = xgrow(f->cookies, (size_t)f->n, sizeof(*f->cookies));
	f->offsets[f->n] = off;
	f->ref_ctr_offsets[f->n] = ref;
	f->cookies[f->n++] = cookie;
}

/* One site: its spec (the previous site's when equal), then the uprobe,
 * or its place among its file's for the multi-uprobe link. */
static int attach_site(struct attacher *a, const struct traced *t,
		       const struct bin_site *s, int cookie, char **why,
		       const char **last_args, int *last_spec)
{
	const struct binary *b = t->bin;
	unsigned long long pc = s->pc, off, sem_off = 0;
	struct bpf_link *link;
	struct usdt_spec spec;
	struct arg_spec bad;
	struct buf text = { 0 };

	/* A prelinked binary moved .stapsdt.base: the sites moved with it. */
	if (b->has_base && s->base)
		pc += b->base_addr - s->base;
	if (file_offset(b, pc, &off) != 0) {
		*why = xasprintf("site 0x%llx is in no loadable segment",
				 s->pc);
		return -1;
	}
	if (s->semaphore && file_offset(b, s->semaphore, &sem_off) != 0) {
		*why = xasprintf("semaphore 0x%llx is in no loadable segment",
				 s->semaphore);
		return -1;
	}
	if (!*last_args || strcmp(*last_args, s->args) != 0) {
		if (spec_of(s->args, (unsigned long long)cookie, &spec, &bad) !=
		    0) {
			buf_escaped(&text, bad.text, bad.text_len, 0);
			*why = xasprintf("site 0x%llx: argument '%s' cannot be read",
					 s->pc, text.data);
			buf_free(&text);
			return -1;
		}
		if (a->nspecs >= TRACE_MAX_SPECS) {
			*why = xasprintf("more than %d kinds of site traced at once",
					 TRACE_MAX_SPECS);
			return -1;
		}
		if (bpf_map__update_elem(a->specs, &a->nspecs,
					 sizeof(a->nspecs), &spec, sizeof(spec),
					 0) != 0) {
			*why = xasprintf("cannot store its argument specs: %s",
					 strerror(errno));
			return -1;
		}
		*last_spec = a->nspecs++;
		*last_args = s->args;
	}
	if (a->multi) {
		gather(file_of(a, t->binary, cookie), off, sem_off,
		       (unsigned long long)*last_spec);
		return 0;
	}
	{
		LIBBPF_OPTS(bpf_uprobe_opts, uo,
			    .ref_ctr_offset = (size_t)sem_off,
			    .bpf_cookie = (unsigned long long)*last_spec);
		/* libbpf looks a name without a slash up in $PATH (and
		   LD_LIBRARY_PATH): "app" in the working directory is
		   "./app" to it. */
		char *path = strchr(t->binary, '/')
				     ? xstrdup(t->binary)
				     : xasprintf("./%s", t->binary);

		link = bpf_program__attach_uprobe_opts(a->prog, a->pid, path,
						       (size_t)off, &uo);
		free(path);
	}
	if (!link) {
		*why = xstrdup(strerror(errno));
		return -1;
	}
	keep_link(a, link);
	return 0;
}

/* BPF_LINK_CREATE for the sites of one file: union bpf_attr's
 * link_create with its uprobe_multi member, as Linux 6.6 lays it out. */
static int multi_link(const struct attacher *a, const struct file_sites *f)
{
	return attach_uprobe_multi(bpf_program__fd(a->prog), f->path,
				   f->offsets, f->ref_ctr_offsets, f->cookies,
				   f->n, a->pid > 0 ? a->pid : 0);
}

int attach_uprobe_multi(int prog_fd, const char *path,
			const unsigned long long *offsets,
			const unsigned long long *ref_ctr_offsets,
			const unsigned long long *cookies, int n, int pid)
{
	unsigned char attr[sizeof(union bpf_attr)];
	uint32_t u32;
	uint64_t u64;

	memset(attr, 0, sizeof(attr));
#define PUT(off, v) (memcpy(attr + (off), &(v), sizeof(v)))
	u32 = (uint32_t)prog_fd;
	PUT(0, u32); /* prog_fd */
	u32 = ATTACH_UPROBE_MULTI;
	PUT(8, u32); /* attach_type */
	u64 = (uint64_t)(uintptr_t)path;
	PUT(16, u64); /* uprobe_multi.path */
	u64 = (uint64_t)(uintptr_t)offsets;
	PUT(24, u64);
	u64 = (uint64_t)(uintptr_t)ref_ctr_offsets;
	PUT(32, u64);
	u64 = (uint64_t)(uintptr_t)cookies;
	PUT(40, u64);
	u32 = (uint32_t)n;
	PUT(48, u32); /* cnt; flags 0: not return probes */
	u32 = (uint32_t)pid;
	PUT(56, u32); /* pid: 0 for every process */
#undef PUT
	return (int)syscall(__NR_bpf, BPF_LINK_CREATE, attr, sizeof(attr));
}

int attacher_commit(struct attacher *a, char **why)
{
	int i;

	*why = NULL;
	for (i = 0; a->multi && i < a->nfiles; i++) {
		struct file_sites *f = &a->files[i];

		if (!f->n || f->fd >= 0)
			continue;
		f->fd = multi_link(a, f);
		if (f->fd < 0) {
			*why = xasprintf("cannot attach to the %d sites in %s: %s",
					 f->n, f->path, strerror(errno));
			return -1;
		}
	}
	return 0;
}

int attacher_add(struct attacher *a, const struct traced *t, int cookie,
		 char **why)
{
	*why = NULL;
	if (a->native) {
		const struct bin_site *s;
		const char *last_args = NULL;
		int last_spec = -1, before = a->nlinks, gathered = -1;
		struct file_sites *f = a->multi ? file_of(a, t->binary, cookie)
						: NULL;

		if (f)
			gathered = f->n;
		for (s = t->notes->sites; s; s = s->next) {
			if (attach_site(a, t, s, cookie, why, &last_args,
					&last_spec) == 0)
				continue;
			/* A probe is traced at all its sites or none. */
			while (a->nlinks > before)
				bpf_link__destroy(a->links[--a->nlinks]);
			if (f)
				f->n = gathered;
			return -1;
		}
		return 0;
	} else {
		LIBBPF_OPTS(bpf_usdt_opts, uo,
			    .usdt_cookie = (unsigned long long)cookie);
		struct bpf_link *link =
			bpf_program__attach_usdt(a->prog, a->pid, t->binary,
						 t->provider, t->name, &uo);

		if (!link) {
			*why = xstrdup(strerror(errno));
			return -1;
		}
		keep_link(a, link);
		return 0;
	}
}

void attacher_free(struct attacher *a)
{
	pthread_t *threads;
	int i, nthreads = 0;

	if (!a)
		return;
	/* Detached here: the kernel clears the semaphores. */
	for (i = 0; i < a->nlinks; i++)
		bpf_link__destroy(a->links[i]);
	/* A link each probe (--budget): closed together, each in its
	   thread, then waited for. */
	threads = xcalloc((size_t)a->nfiles + 1, sizeof(*threads));
	for (i = 0; i < a->nfiles; i++)
		if (a->files[i].fd >= 0 &&
		    close_in_thread(a->files[i].fd, NULL, NULL, NULL,
				    &threads[nthreads]) == 0)
			nthreads++;
	for (i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	for (i = 0; i < a->nfiles; i++) {
		free(a->files[i].offsets);
		free(a->files[i].ref_ctr_offsets);
		free(a->files[i].cookies);
	}
	free(a->files);
	free(a->links);
	/* The windows' closing threads write to it: done first. */
	while (__atomic_load_n(&a->closing, __ATOMIC_SEQ_CST) > 0)
		usleep(1000);
	free(a->detached_at);
	free(a->closed_at);
	free(a);
}
