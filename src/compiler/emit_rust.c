/*
 * compiler/emit_rust.c - write a Rust module for --rust: the same probes as the C
 * header, on stable Rust, with no crate dependencies.
 *
 * Each provider becomes `pub mod provider`, each probe P:N three functions:
 *   n(args)             fire the probe (a nop while not traced)
 *   n_enabled() -> bool whether a tracer is attached (the semaphore)
 *   n_lazy(|| args)     fire it, the closure called only while enabled
 * where n is the probe name lower-cased with "__" made "_" and the
 * arguments keep the .d's names (rust_param_name), and the .d's doc
 * comment above the probe becomes the functions' `///` docs.
 *
 * What probes share is written once at the top (machinery()), from the
 * Rust text of src/compiler/rust/machinery.rs: the site as the macro
 * probegen_site!, the string copy, the semaphore read.  Each
 * probe's functions are written out plainly: rustc pays for every
 * function and every macro expansion it is given, called or not, so the
 * cheapest module is the one with the fewest expansions (bench/rust.sh).
 *
 * The probe site is core::arch::asm! laid out as sys/sdt.h lays it out: a
 * nop, a .note.stapsdt entry (pc, _.stapsdt.base, semaphore, provider,
 * name, the native arguments in native order, as SystemTap's header
 * passes them) and the COMDAT _.stapsdt.base; the semaphore is a u16 in
 * .probes, which starts a page of its own (see machinery()).  Integer
 * operands are widened to 64-bit registers (the note's size field keeps
 * the declared size, as the C header does); &str arguments are copied to
 * a NUL-terminated buffer only while traced.  x86_64 and aarch64 get real
 * sites; other targets compile to no-ops.
 */
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "header/stapsdt_base.h"
#include "version.h"

/* src/compiler/rust/machinery.rs, as a string (build/header_text.c). */
extern const char rust_machinery[];

/* Each line of asm text as a Rust string argument of asm!, quotes
 * escaped. */
static void rust_asm_lines(struct buf *b, const char *text, const char *indent)
{
	while (*text) {
		size_t n = strcspn(text, "\n");

		buf_printf(b, "%s\"", indent);
		for (; n; n--, text++) {
			if (*text == '"' || *text == '\\')
				buf_lit(b, "\\");
			buf_add(b, text, 1);
		}
		buf_lit(b, "\",\n");
		if (*text == '\n')
			text++;
	}
}

/* One architecture's probe site in probegen_site!, its note's strings
 * (one .asciz line) in the macro variable note. */
static void site_asm(struct buf *b, const char *arch, const char *note)
{
	buf_printf(b, "\t\t#[cfg(target_arch = \"%s\")]\n", arch);
	buf_printf(b,
		   "\t\tunsafe {\n\t\t\t::core::arch::asm!(\n"
		   "\t\t\t\t\"990: nop\",\n"
		   "\t\t\t\t\".pushsection %s, \\\"\\\", \\\"note\\\"\",\n"
		   "\t\t\t\t\".balign 4\",\n"
		   "\t\t\t\t\".4byte 992f-991f, 994f-993f, %d\",\n"
		   "\t\t\t\t\"991: .asciz \\\"%s\\\"\",\n",
		   STAPSDT_NOTE_SECTION, STAPSDT_NOTE_TYPE, STAPSDT_NOTE_OWNER);
	buf_puts(b, "\t\t\t\t\"992: .balign 4\",\n"
		    "\t\t\t\t\"993: .8byte 990b\",\n"
		    "\t\t\t\t\".8byte _.stapsdt.base\",\n"
		    "\t\t\t\t\".8byte {sem}\",\n");
	buf_printf(b, "\t\t\t\t$%s,\n", note);
	buf_puts(b, "\t\t\t\t\"994: .balign 4\",\n"
		    "\t\t\t\t\".popsection\",\n");
	rust_asm_lines(b, PROBEGEN_STAPSDT_BASE("aGR"), "\t\t\t\t");
	buf_printf(b,
		   "\t\t\t\t$(in(reg) $string.0 as u64,)*\n"
		   "\t\t\t\t$(in(reg) $value,)*\n"
		   "\t\t\t\tsem = sym $semaphore,\n"
		   "\t\t\t\toptions(%sreadonly, nostack, preserves_flags),\n"
		   "\t\t\t);\n\t\t}\n",
		   target_by_name(arch)->rust_asm);
}

/* What every probe shares, written once: src/compiler/rust/machinery.rs
 * (the string copy, the semaphores' page, the semaphore read, the site
 * as the macro probegen_site!), its pages from target.c's table and its
 * sites from site_asm.  Each probe's function invokes probegen_site!
 * with its semaphore, its note's strings (one line of .asciz; two when
 * x86_64's and aarch64's differ), its string arguments, copied here, and
 * its other values as u64; the strings are the note's first operands,
 * {0}, {1}..., the values the next. */
static void machinery(struct buf *b)
{
	const char *line = rust_machinery, *end, *at;
	char arch[16], note[32];

	for (; *line; line = *end ? end + 1 : end) {
		end = line + strcspn(line, "\n");
		if (sscanf(line, "@SITE %15s %31[a-z0-9_]@", arch, note) == 2) {
			site_asm(b, arch, note);
			continue;
		}
		for (; (at = memchr(line, '@', (size_t)(end - line))); line = at) {
			buf_add(b, line, (size_t)(at - line));
			if (strncmp(at, "@X86_64_PAGE@", 13) == 0)
				buf_printf(b, "%u", target_by_name("x86_64")->page);
			else if (strncmp(at, "@LARGEST_PAGE@", 14) == 0)
				buf_printf(b, "%u", PAGE_LARGEST);
			else
				die("internal error: machinery.rs: %.20s", at);
			at = strchr(at + 1, '@') + 1;
		}
		buf_add(b, line, (size_t)(end - line));
		buf_lit(b, "\n");
	}
	buf_lit(b, "\n");
}

/* The note's strings for one target, as one line of assembly:
 * .asciz "provider", "name", "-4@{4} 8@{0}".  Arguments are read as
 * probegen_site! passes them: the strings first, then the rest. */
static void note_line(struct buf *b, const struct program *prog,
		      const struct probe *pr, const struct target *tg)
{
	const struct target *x86 = target_by_name("x86_64");
	const struct param *p;
	int i = 0, strings = 0, others = 0, nstrings = 0;

	for_each_param(pr->native, p)
		nstrings += type_rust(prog, p->type, x86).kind == R_STRING;
	buf_printf(b, "\".asciz \\\"%s\\\", \\\"%s\\\", \\\"",
		   pr->provider->name, pr->name);
	for_each_param(pr->native, p) {
		struct type_info ti = type_info(prog, p->type, tg);
		struct rust_type a = type_rust(prog, p->type, tg);
		int size = ti.size >= 1 && ti.size <= 8 ? ti.size : 8;
		int sign = a.kind == R_INT && a.is_signed;
		int operand = type_rust(prog, p->type, x86).kind == R_STRING
				      ? strings++
				      : nstrings + others++;

		if (a.kind == R_FLOAT)
			sign = 0; /* read as its bits: tracers want integers */
		buf_printf(b, "%s%s%d@{%d}", i++ ? " " : "", sign ? "-" : "",
			   size, operand);
	}
	buf_lit(b, "\\\"\"");
}

/* Rust's keywords, strict and reserved (2015 to 2024 editions): a
 * parameter so named is written as a raw identifier. */
static const char *const rust_keywords[] = {
	"abstract", "as",     "async",	  "await",  "become", "box",
	"break",    "const",  "continue", "do",	    "dyn",    "else",
	"enum",	    "extern", "false",	  "final",  "fn",     "for",
	"gen",	    "if",     "impl",	  "in",	    "let",    "loop",
	"macro",    "match",  "mod",	  "move",   "mut",    "override",
	"priv",	    "pub",    "ref",	  "return", "static", "struct",
	"trait",    "true",   "try",	  "type",   "typeof", "unsafe",
	"unsized",  "use",    "virtual",  "where",  "while",  "yield",
};

/* Names no parameter can take even raw (keywords of paths, the
 * wildcard), and the prelude's variants, which a parameter pattern
 * would match instead of binding: given a "_" suffix, as is a name
 * ending in _SEMAPHORE, which could be one of the module's statics. */
static const char *const rust_unbindable[] = {
	"self", "Self", "super", "crate", "_", "None", "Some", "Ok", "Err",
};

/* The .d's name of argument i as a Rust parameter: as displayed
 * elsewhere (argN when unnamed, value_2 for a repeated value), raw
 * (r#type) when a keyword, with a suffix when not even that can be. */
static void rust_param_name(struct buf *b, const struct probe *pr, int i)
{
	struct buf name = { 0 };
	size_t k;

	arg_display_name(&name, pr, i);
	for (k = 0; k < sizeof(rust_keywords) / sizeof(*rust_keywords); k++)
		if (strcmp(name.data, rust_keywords[k]) == 0)
			buf_lit(b, "r#");
	buf_puts(b, name.data);
	for (k = 0; k < sizeof(rust_unbindable) / sizeof(*rust_unbindable); k++)
		if (strcmp(name.data, rust_unbindable[k]) == 0)
			buf_lit(b, "_");
	if (name.len >= 10 &&
	    strcmp(name.data + name.len - 10, "_SEMAPHORE") == 0)
		buf_lit(b, "_");
	buf_free(&name);
}

/* The .d's doc comment as `///` lines; a code fence is made a `text`
 * one, so that rustdoc never runs it as a doctest. */
static void doc_lines(struct buf *b, const struct program *prog,
		      const struct probe *pr)
{
	struct buf text = { 0 };
	const char *line;
	size_t mark;
	int in_code = 0;

	buf_cat(b, "\t/// `probe ", pr->name, NULL);
	params_print_d(b, pr->native);
	buf_puts(b, "`\n");
	/* The doc comment, then what its arguments mean. */
	if (pr->doc)
		probe_doc_text(&text, pr);
	mark = text.len;
	if (text.len)
		buf_lit(&text, "\n\n");
	meanings_describe(&text, prog, pr, "- ");
	if (text.len == mark + 2)
		text.len = mark;
	if (!text.len) {
		buf_free(&text);
		return;
	}
	buf_puts(b, "\t///\n");
	for (line = text.data; line && *line;) {
		size_t n = strcspn(line, "\n");
		int fence = n >= 3 && strncmp(line, "```", 3) == 0;

		buf_puts(b, "\t///");
		if (n)
			buf_lit(b, " ");
		buf_add(b, line, n);
		if (fence && !in_code && n == 3)
			buf_lit(b, "text");
		in_code ^= fence;
		buf_lit(b, "\n");
		line += n + (line[n] == '\n');
	}
	buf_free(&text);
}

/* The three functions of a probe and its semaphore. */
/* A probe's arguments, spelled the ways its three functions need. */
struct rust_args {
	struct buf params;   /* "a: i32, s: &str" */
	struct buf names;    /* "a, s" */
	struct buf pass;     /* "a, s.as_ref()" */
	struct buf tuple;    /* the closure's result: "i32, S0" */
	struct buf generics; /* "S0: AsRef<str>" */
	struct buf hold;     /* strings the site keeps alive: "s" */
	struct buf values;   /* integers as the site reads them: " a as u64" */
	int strings;
};

static void rust_args_build(struct rust_args *r, const struct program *prog,
			    const struct probe *pr, const struct target *x86)
{
	const struct param *p;
	int i = 0;

	for_each_param(pr->native, p) {
		struct rust_type a = type_rust(prog, p->type, x86);
		const char *sep = i ? ", " : "";
		struct buf name = { 0 };

		rust_param_name(&name, pr, i);
		buf_cat(&r->params, sep, name.data, ": ", a.name, NULL);
		buf_cat(&r->names, sep, name.data, NULL);
		buf_cat(&r->pass, sep, name.data,
			a.kind == R_STRING ? ".as_ref()" : "", NULL);
		if (a.kind == R_STRING) {
			buf_printf(&r->tuple, "%sS%d", sep, r->strings);
			buf_printf(&r->generics, "%sS%d: AsRef<str>",
				   r->strings ? ", " : "", r->strings);
			r->strings++;
			buf_cat(&r->hold, r->hold.len ? ", " : "", name.data,
				NULL);
		} else {
			buf_cat(&r->tuple, sep, a.name, NULL);
			buf_cat(&r->values, r->values.len ? ", " : " ",
				name.data,
				a.kind == R_FLOAT ? ".to_bits() as u64"
						  : " as u64",
				NULL);
		}
		buf_free(&name);
		i++;
	}
}

static void rust_args_free(struct rust_args *r)
{
	buf_free(&r->params);
	buf_free(&r->names);
	buf_free(&r->pass);
	buf_free(&r->tuple);
	buf_free(&r->generics);
	buf_free(&r->hold);
	buf_free(&r->values);
}

/* n(args): the site; strings copied only while enabled. */
static void site_function(struct buf *b, const struct program *prog,
			  const struct probe *pr, const struct rust_args *r,
			  const char *fn, const char *sem)
{
	struct buf x86_note = { 0 }, arm_note = { 0 };

	doc_lines(b, prog, pr);
	buf_cat(b, "\t#[inline(always)]\n\tpub fn ", fn, "(",
		r->params.data ? r->params.data : "", ") {\n", NULL);
	if (r->strings)
		buf_cat(b, "\t\tif !self::", fn,
			"_enabled() {\n\t\t\treturn;\n\t\t}\n", NULL);
	buf_cat(b, "\t\tprobegen_site!(", sem, " ", NULL);
	note_line(&x86_note, prog, pr, target_by_name("x86_64"));
	note_line(&arm_note, prog, pr, target_by_name("aarch64"));
	buf_puts(b, x86_note.data);
	if (strcmp(x86_note.data, arm_note.data) != 0)
		buf_cat(b, " ", arm_note.data, NULL);
	buf_cat(b, " [", r->hold.data ? r->hold.data : "", "]",
		r->values.data ? r->values.data : "", ");\n\t}\n\n", NULL);
	buf_free(&x86_note);
	buf_free(&arm_note);
}

/* n_lazy(|| args): the closure is called only while enabled; it returns
 * nothing, the value, or a tuple, by the probe's arity. */
static void lazy_function(struct buf *b, const struct probe *pr,
			  const struct rust_args *r, const char *fn)
{
	int n = pr->nnative;

	buf_printf(b,
		   "\t/// Fire `%s:%s` with the arguments `f` computes, calling `f` only\n"
		   "\t/// while a tracer is attached.\n",
		   pr->provider->name, pr->name);
	buf_cat(b, "\t#[inline(always)]\n\tpub fn ", fn, "_lazy", NULL);
	if (r->strings)
		buf_cat(b, "<", r->generics.data, ">", NULL);
	buf_puts(b, "(f: impl FnOnce()");
	if (n == 1)
		buf_cat(b, " -> ", r->tuple.data, NULL);
	else if (n > 1)
		buf_cat(b, " -> (", r->tuple.data, ")", NULL);
	buf_cat(b, ") {\n\t\tif self::", fn, "_enabled() {\n", NULL);
	if (n == 0)
		buf_puts(b, "\t\t\tf();\n");
	else
		buf_cat(b, "\t\t\tlet ", n > 1 ? "(" : "", r->names.data,
			n > 1 ? ")" : "", " = f();\n", NULL);
	buf_cat(b, "\t\t\tself::", fn, "(", r->pass.data ? r->pass.data : "",
		");\n\t\t}\n\t}\n\n", NULL);
}

static void probe_functions(struct buf *b, const struct program *prog,
			    const struct probe *pr)
{
	char *fn = name_rust_fn(pr);
	char *sem = name_rust_semaphore(pr);
	struct rust_args r = { 0 };

	rust_args_build(&r, prog, pr, target_by_name("x86_64"));
	site_function(b, prog, pr, &r, fn, sem);

	/* Its semaphore, which tracers increment, and n_enabled. */
	buf_cat(b, "\t#[unsafe(link_section = \".probes\")]\n\tstatic mut ",
		sem, ": u16 = 0;\n\n", NULL);
	buf_printf(b, "\t/// Whether a tracer is attached to `%s:%s`.\n",
		   pr->provider->name, pr->name);
	buf_cat(b, "\t#[inline(always)]\n\tpub fn ", fn,
		"_enabled() -> bool {\n"
		"\t\tsuper::probegen_enabled(&raw const ",
		sem, ")\n\t}\n\n", NULL);

	lazy_function(b, pr, &r, fn);
	rust_args_free(&r);
	free(fn);
	free(sem);
}

/* The probes' declaration notes (man probegen(1), DECLARATION NOTES),
 * in a non-allocated section the linker keeps. */
static void declaration_notes(struct buf *b, const struct program *prog,
			      const struct provider *pv)
{
	const struct probe *pr;
	struct buf decl = { 0 };
	int type;

	buf_puts(b,
		 "\t#[cfg(any(target_arch = \"x86_64\", target_arch = \"aarch64\"))]\n"
		 "\t::core::arch::global_asm!(\n"
		 "\t\t\".pushsection " DECL_NOTE_SECTION
		 ", \\\"\\\", \\\"note\\\"\",\n");
	for_each_probe(pv, pr) {
		decl.len = 0;
		type = probe_declaration_recorded(&decl, prog, pr);
		buf_printf(b,
			   "\t\t\".balign 4\", \".4byte %zu, %zu, %d\", \".asciz \\\"%s\\\"\",\n"
			   "\t\t\".balign 4\", \".asciz \\\"%s\\\"\",\n",
			   sizeof(DECL_NOTE_OWNER), decl.len + 1, type,
			   DECL_NOTE_OWNER, decl.data);
	}
	buf_puts(b, "\t\t\".balign 4\", \".popsection\",\n\t);\n\n");
	buf_free(&decl);
}

int emit_rust(struct output *o, const struct program *prog,
	      const struct emit_options *opt)
{
	struct buf *out = &o->buf;
	const struct provider *pv;
	const struct probe *pr;

	buf_printf(out,
		   "// Generated by probegen %s from %s.  Do not edit.\n"
		   "// Include it with include!(concat!(env!(\"OUT_DIR\"), \"/...\")).\n"
		   "// USDT probe sites on x86_64 and aarch64; no-ops elsewhere.\n\n",
		   PROBEGEN_RELEASE, opt->input_name);
	machinery(out);
	for_each_provider(prog, pv) {
		buf_printf(out,
			   "/// Probes of provider `%s`.\n"
			   "#[allow(dead_code, non_snake_case)]\n"
			   "pub mod %s {\n",
			   pv->name, pv->name);
		declaration_notes(out, prog, pv);
		/* Written out as it grows: a module can be tens of MB. */
		for_each_probe(pv, pr) {
			probe_functions(out, prog, pr);
			output_flush(o);
		}
		buf_puts(out, "}\n\n");
	}
	return 0;
}
