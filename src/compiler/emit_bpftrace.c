/*
 * compiler/emit_bpftrace.c - write a bpftrace script for --bpftrace: one block per
 * probe that prints its name and each argument by its declared name,
 * formatted by its declared type.  Attach points take the binary from
 * the script's first positional parameter (usdt:$1:P:N), so one script
 * serves a program (`bpftrace F.bt ./prog -c ./prog`) and a running
 * process or library (`bpftrace -p PID F.bt /path/to/lib.so`).
 *
 * Written for Debian 12's bpftrace 0.17, which reads arg0..arg5 only of
 * a USDT probe on x86-64: later arguments are named in a comment, never
 * dropped silently.  Arguments are the native ones, in native order, as
 * the probe notes record them.
 */
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "version.h"

/* An @enum's names are a chain of conditions, which bpftrace compiles
 * in time that grows faster than their number (5,000: 5.7 s here, and
 * minutes on a slower machine; 1,000: 0.4 s): past this many, the
 * number is printed, said in a comment. */
#define BPFTRACE_MAX_ENUM 1000

/* What bpftrace can show of argument i, read as r: a comment where it
 * shows less than --trace, NULL when it shows the same. */
static const char *bpftrace_falls_short(const struct arg_read *r)
{
	if (r->reversed)
		return "bpftrace cannot reverse bytes: they print first byte first";
	if (arg_kind_of(r)->bpftrace_short)
		return arg_kind_of(r)->bpftrace_short;
	if (r->nvalues > BPFTRACE_MAX_ENUM)
		return "its @enum has more names than bpftrace compiles quickly: it prints the number";
	if (r->nvalues)
		return "a value without a name prints as (unnamed)";
	if (r->length_from == LENGTH_ARG && r->length_arg >= BPFTRACE_MAX_ARGS)
		return "its length is past arg5, which bpftrace 0.17 cannot read: it prints its pointer";
	return NULL;
}


/* bpftrace 0.17 copies a buf() onto the BPF stack of 512 bytes, and
 * refuses the whole script when a probe's copies do not fit (one
 * buf(arg0, 450) does not; two of 256 do, four of 256 do not; measured
 * here).  The fixed-length bufs of a probe share BPFTRACE_BUF_BYTES:
 * each reads at most its share, and none more than bpftrace prints
 * (BPFTRACE_STRLEN, 64 unless set, at most 200), said in a comment
 * above the probe. */
#define BPFTRACE_BUF_BYTES 256
#define BPFTRACE_STRLEN_MAX 200
static int is_fixed_buf(const struct arg_read *r)
{
	return r->kind == ARG_BYTES && r->length_from == LENGTH_FIXED &&
	       !r->nvalues &&
	       !arg_read_unreadable(r);
}

/* The bytes each fixed-length buf() of pr may read. */
static unsigned bpftrace_buf_share(const struct program *prog,
				   const struct probe *pr,
				   const struct target *tg)
{
	const struct param *p;
	int i = 0, n = 0;

	for_each_param(pr->native, p) {
		struct arg_read r = decl_arg_read(prog, pr, i, tg);

		n += i < BPFTRACE_MAX_ARGS && is_fixed_buf(&r);
		i++;
	}
	return n > 1 ? BPFTRACE_BUF_BYTES / (unsigned)n : BPFTRACE_STRLEN_MAX;
}

void bpftrace_arg(struct buf *fmt, struct buf *expr,
		  const struct program *prog, const struct probe *pr, int i,
		  const struct target *tg)
{
	struct arg_read read = decl_arg_read(prog, pr, i, tg);
	const struct arg_read *r = &read;
	const struct arg_kind_row *row = arg_kind_of(r);
	const char *why = row->unreadable;
	int k, length = r->length_from == LENGTH_ARG &&
			r->length_arg < BPFTRACE_MAX_ARGS;

	if (why) {
		buf_printf(fmt, "(not readable: %s)", why);
		return;
	}
	if (r->nvalues && r->nvalues <= BPFTRACE_MAX_ENUM) {
		/* The names by a chain of conditions. */
		buf_lit(fmt, "%s");
		for (k = 0; k < r->nvalues; k++)
			buf_printf(expr, "arg%d == %lld ? \"%s\" : ", i,
				   r->values[k].value, r->values[k].name);
		buf_lit(expr, "\"(unnamed)\"");
	} else if (row->counted && (length || r->length_from == LENGTH_FIXED)) {
		buf_puts(fmt, row->bpftrace_format);
		buf_printf(expr, "%s(arg%d, ", row->bpftrace_read, i);
		/* A negative length reads nothing (bpftrace would read
		   to its limit). */
		if (length &&
		    decl_arg_read(prog, pr, r->length_arg, tg).is_signed)
			buf_printf(expr, "(int64)arg%d < 0 ? 0 : arg%d)",
				   r->length_arg, r->length_arg);
		else if (length)
			buf_printf(expr, "arg%d)", r->length_arg);
		else if (is_fixed_buf(r))
			buf_printf(expr, "%u)",
				   r->length < bpftrace_buf_share(prog, pr, tg)
					   ? r->length
					   : bpftrace_buf_share(prog, pr, tg));
		else
			buf_printf(expr, "%u)", r->length);
	} else if (row->counted) {
		/* No length bpftrace can read: its pointer. */
		buf_lit(fmt, "0x%lx");
		buf_printf(expr, "arg%d", i);
	} else if (row->bpftrace_format) {
		/* A string, a function by the process's symbols, a
		   pointer. */
		buf_puts(fmt, row->bpftrace_format);
		buf_printf(expr, row->bpftrace_read ? "%s(arg%d)" : "%sarg%d",
			   row->bpftrace_read ? row->bpftrace_read : "", i);
	} else {
		if (r->size == 8 || r->kind == ARG_AS_NOTED)
			buf_puts(fmt, r->is_signed || r->kind == ARG_AS_NOTED
					      ? "%ld"
					      : "%lu");
		else
			buf_puts(fmt, r->is_signed ? "%d" : "%u");
		buf_printf(expr, "arg%d", i);
	}
}

static void probe_block(struct buf *b, const struct program *prog,
			const struct probe *pr, const struct target *tg)
{
	struct buf fmt = { 0 }, exprs = { 0 }, later = { 0 }, name = { 0 };
	const struct param *p;
	int i = 0;

	buf_printf(b, "/* probe ");
	probe_declaration(b, pr);
	buf_lit(b, " */\n");
	for_each_param(pr->native, p) {
		struct arg_read r = decl_arg_read(prog, pr, i, tg);
		const char *short_of = bpftrace_falls_short(&r);

		name.len = 0;
		arg_display_name(&name, pr, i);
		if (i < BPFTRACE_MAX_ARGS) {
			size_t before = exprs.len;

			if (short_of)
				buf_printf(b, "/* %s: %s */\n", name.data,
					   short_of);
			if (is_fixed_buf(&r) &&
			    r.length > bpftrace_buf_share(prog, pr, tg))
				buf_printf(b,
					   "/* %s: %u bytes; bpftrace reads %u (%s) and prints at most BPFTRACE_STRLEN of them (64 unless set in the environment) */\n",
					   name.data, r.length,
					   bpftrace_buf_share(prog, pr, tg),
					   bpftrace_buf_share(prog, pr, tg) ==
							   BPFTRACE_STRLEN_MAX
						   ? "BPFTRACE_STRLEN's most"
						   : "its BPF stack holds 256 bytes of a probe's buffers");
			else if (is_fixed_buf(&r) && r.length > 64)
				buf_printf(b,
					   "/* %s: %u bytes; bpftrace prints at most BPFTRACE_STRLEN of them (64 unless set in the environment) */\n",
					   name.data, r.length);
			buf_printf(&fmt, " %s=", name.data);
			bpftrace_arg(&fmt, &exprs, prog, pr, i, tg);
			if (exprs.len > before)
				buf_lit(&exprs, ", ");
		} else {
			buf_printf(&later, "%s%s (", later.len ? ", " : "",
				   name.data);
			type_print_d(&later, p->type, NULL);
			buf_lit(&later, ")");
		}
		i++;
	}
	if (later.len)
		buf_printf(b,
			   "/* bpftrace 0.17 reads arg0..arg5 only; not printed: %s */\n",
			   later.data);
	buf_printf(b, "usdt:$1:%s:%s\n{\n\tprintf(\"%s:%s%s\\n\"",
		   pr->provider->name, pr->name, pr->provider->name, pr->name,
		   fmt.data ? fmt.data : "");
	if (exprs.len) {
		exprs.len -= 2; /* the last ", " */
		buf_printf(b, ", %.*s", (int)exprs.len, exprs.data);
	}
	buf_lit(b, ");\n}\n\n");
	buf_free(&fmt);
	buf_free(&exprs);
	buf_free(&later);
	buf_free(&name);
}

/* A binary's probe whose names an attach point cannot spell. */
static void skipped(const struct probe *pr)
{
	struct buf what = { 0 };

	buf_escaped(&what, pr->provider->name, strlen(pr->provider->name), 0);
	buf_lit(&what, ":");
	buf_escaped(&what, pr->name, strlen(pr->name), 0);
	warning_plain(
		"probe '%s' left out: bpftrace cannot name it in an attach point",
		what.data);
	buf_free(&what);
}

/* --summary: count() per probe, and per pair of the provider's names a
 * hist() of its latency, matched per thread and nested (a depth per
 * thread, so recursion comes out right); printed when bpftrace ends. */
static void summary_script(struct output *o, const struct program *prog)
{
	struct buf *b = &o->buf;
	const struct provider *pv;
	const struct probe *pr;
	struct pair *pairs = pairs_of(prog), *p;
	struct name_set works; /* the stems given a histogram so far */
	int i = 0;

	for_each_provider(prog, pv) {
		for_each_probe(pv, pr) {
			if (!name_is_identifier(pv->name) ||
			    !name_is_identifier(pr->name))
				continue;
			buf_printf(b,
				   "usdt:$1:%s:%s { @count[\"%s:%s\"] = count(); }\n",
				   pv->name, pr->name, pv->name, pr->name);
		}
	}
	name_set_init(&works, 64);
	for (p = pairs; p; p = p->next, i++) {
		const char *pv_name = p->start->provider->name;
		const char *hist = *p->stem ? p->stem : p->start->name;

		if (!name_is_identifier(pv_name) ||
		    !name_is_identifier(p->start->name) ||
		    !name_is_identifier(p->end->name))
			continue;
		/* X__start and X__begin both end at X__end: two pairs of
		   one work, each its own histogram, named by its start. */
		if (name_set_add(&works, p->stem, strlen(p->stem), p))
			hist = p->start->name;
		buf_printf(b,
			   "\n/* %s: %s:%s to %s:%s, per thread, nested */\n",
			   hist, pv_name, p->start->name, pv_name,
			   p->end->name);
		buf_printf(b,
			   "usdt:$1:%s:%s\n{\n\t@depth%d[tid]++;\n"
			   "\t@start%d[tid, @depth%d[tid]] = nsecs;\n}\n",
			   pv_name, p->start->name, i, i, i);
		buf_printf(b,
			   "usdt:$1:%s:%s\n/@depth%d[tid]/\n{\n"
			   "\t@%s_ns = hist(nsecs - @start%d[tid, @depth%d[tid]]);\n"
			   "\tdelete(@start%d[tid, @depth%d[tid]]);\n"
			   "\t@depth%d[tid]--;\n}\n",
			   pv_name, p->end->name, i, hist, i, i, i, i, i);
	}
	buf_lit(b, "\nEND\n{\n");
	for (p = pairs, i = 0; p; p = p->next, i++)
		buf_printf(b, "\tclear(@depth%d);\n\tclear(@start%d);\n", i, i);
	buf_lit(b, "}\n");
	name_set_free(&works);
	pairs_free(pairs);
}

/* How to run it.  bpftrace refuses a whole script when the binary it
 * is given lacks one of its probes, and bpftrace 0.17 finds no probe
 * of a shared library with -c ("Error finding location"): -p there. */
static void usage_lines(struct buf *b, const struct emit_options *opt)
{
	if (opt->for_binaries && opt->for_library) {
		buf_printf(
			b,
			" * For %s, a shared library: its probes are found in a process\n"
			" * that has loaded it (bpftrace's -c cannot find them).\n"
			" *   bpftrace -p PID THIS.bt /path/to/library.so\n */\n\n",
			opt->for_binaries);
		return;
	}
	if (opt->for_binaries)
		buf_printf(b, " * For %s: only the probes it carries.\n",
			   opt->for_binaries);
	else
		buf_lit(b,
			" * Every probe of the file must be in the binary given ($1), or\n"
			" * bpftrace refuses the whole script: probegen --bpftrace -s FILE.d\n"
			" * BINARY... writes only the probes the binaries carry.\n");
	buf_lit(b,
		" *   bpftrace THIS.bt ./prog -c ./prog      a program it starts\n"
		" *   bpftrace -p PID THIS.bt /path/to/bin   a running process (and a\n"
		" *                                          shared library's probes)\n"
		" */\n\n");
}

int emit_bpftrace(struct output *o, const struct program *prog,
		  const struct emit_options *opt)
{
	const struct provider *pv;
	const struct probe *pr;

	buf_printf(
		&o->buf,
		"#!/usr/bin/env bpftrace\n"
		"/*\n"
		" * Generated by probegen %s from %s.  Do not edit.\n"
		" * %s\n",
		PROBEGEN_RELEASE, opt->input_name,
		opt->summary
			? "Counts every probe and times its start/done pairs; prints both at the end."
			: "Prints every firing of its probes, each argument by name.");
	usage_lines(&o->buf, opt);
	if (opt->summary) {
		summary_script(o, prog);
		return 0;
	}
	for_each_provider(prog, pv) {
		for_each_probe(pv, pr) {
			if (!name_is_identifier(pv->name) ||
			    !name_is_identifier(pr->name)) {
				skipped(pr);
				continue;
			}
			probe_block(&o->buf, prog, pr, opt->target);
			output_flush(o);
		}
	}
	return 0;
}
