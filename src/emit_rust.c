/*
 * emit_rust.c - write a Rust module for --rust: the same probes as the C
 * header, on stable Rust, with no crate dependencies.
 *
 * Each provider becomes `pub mod provider`, each probe P:N three functions:
 *   n(args)             fire the probe (a nop while not traced)
 *   n_enabled() -> bool whether a tracer is attached (the semaphore)
 *   n_lazy(|| args)     fire it, the closure called only while enabled
 * where n is the probe name lower-cased with "__" made "_".
 *
 * The probe site is core::arch::asm! laid out as sys/sdt.h lays it out: a
 * nop, a .note.stapsdt entry (pc, _.stapsdt.base, semaphore, provider,
 * name, the native arguments in native order, as SystemTap's header
 * passes them) and the COMDAT _.stapsdt.base; the semaphore is an
 * AtomicU16 in .probes.  Integer operands are widened to 64-bit registers
 * (the note's size field keeps the declared size, as the C header does);
 * &str arguments are copied to a NUL-terminated buffer only while traced.
 * x86_64 and aarch64 get real sites; other targets compile to no-ops.
 */
#include <stdlib.h>
#include <string.h>

#include "probegen.h"
#include "header/stapsdt_base.h"

/* The note's argument string for one target: "-4@{a0} 8@{a1}". */
static void note_args(struct buf *b, const struct program *prog,
		      const struct probe *pr, const struct target *tg)
{
	const struct param *p;
	int i = 0;

	for_each_param(pr->native, p) {
		struct type_info ti = type_info(prog, p->type, tg);
		struct rust_type a = type_rust(prog, p->type, tg);
		int size = ti.size >= 1 && ti.size <= 8 ? ti.size : 8;
		int sign = a.kind == R_INT && a.is_signed;

		if (a.kind == R_FLOAT)
			sign = 0; /* read as its bits: tracers want integers */
		buf_printf(b, "%s%s%d@{a%d}", i ? " " : "", sign ? "-" : "",
			   size, i);
		i++;
	}
}

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

static void site_asm(struct buf *b, const struct program *prog,
		     const struct probe *pr, const struct target *tg,
		     const char *arch, const char *sem)
{
	int i, n = pr->nnative;

	buf_printf(b, "\t\t#[cfg(target_arch = \"%s\")]\n", arch);
	buf_puts(b, "\t\tunsafe {\n\t\t\t::core::arch::asm!(\n"
		    "\t\t\t\t\"990: nop\",\n"
		    "\t\t\t\t\".pushsection .note.stapsdt, \\\"\\\", \\\"note\\\"\",\n"
		    "\t\t\t\t\".balign 4\",\n"
		    "\t\t\t\t\".4byte 992f-991f, 994f-993f, 3\",\n"
		    "\t\t\t\t\"991: .asciz \\\"stapsdt\\\"\",\n"
		    "\t\t\t\t\"992: .balign 4\",\n"
		    "\t\t\t\t\"993: .8byte 990b\",\n"
		    "\t\t\t\t\".8byte _.stapsdt.base\",\n"
		    "\t\t\t\t\".8byte {sem}\",\n");
	buf_printf(b, "\t\t\t\t\".asciz \\\"%s\\\"\",\n", pr->provider->name);
	buf_printf(b, "\t\t\t\t\".asciz \\\"%s\\\"\",\n", pr->name);
	buf_puts(b, "\t\t\t\t\".asciz \\\"");
	note_args(b, prog, pr, tg);
	buf_puts(b, "\\\"\",\n"
		    "\t\t\t\t\"994: .balign 4\",\n"
		    "\t\t\t\t\".popsection\",\n");
	rust_asm_lines(b, PROBEGEN_STAPSDT_BASE("aGR"), "\t\t\t\t");
	buf_printf(b, "\t\t\t\tsem = sym %s,\n", sem);
	for (i = 0; i < n; i++)
		buf_printf(b, "\t\t\t\ta%d = in(reg) v%d,\n", i, i);
	buf_printf(b, "\t\t\t\toptions(%sreadonly, nostack, preserves_flags),\n"
		      "\t\t\t);\n\t\t}\n",
		   strcmp(arch, "x86_64") == 0 ? "att_syntax, " : "");
}

/* The probes' declaration notes (man probegen(1), DECLARATION NOTES),
 * in a non-allocated section the linker keeps. */
static void declaration_notes(struct buf *b, const struct provider *pv)
{
	const struct probe *pr;
	struct buf decl = { 0 };

	buf_puts(b, "\t#[cfg(any(target_arch = \"x86_64\", target_arch = \"aarch64\"))]\n"
		    "\t::core::arch::global_asm!(\n"
		    "\t\t\".pushsection .note.probegen, \\\"\\\", \\\"note\\\"\",\n");
	for_each_probe(pv, pr) {
		decl.len = 0;
		probe_declaration(&decl, pr);
		buf_printf(b, "\t\t\".balign 4\", \".4byte %zu, %zu, %d\", \".asciz \\\"%s\\\"\",\n"
			      "\t\t\".balign 4\", \".asciz \\\"%s\\\"\",\n",
			   sizeof(DECL_NOTE_OWNER), decl.len + 1, DECL_NOTE_TYPE,
			   DECL_NOTE_OWNER, decl.data);
	}
	buf_puts(b, "\t\t\".balign 4\", \".popsection\",\n\t);\n\n");
	buf_free(&decl);
}

/* Each argument as a 64-bit integer v0, v1, ... for the site. */
static void argument_values(struct buf *b, const struct program *prog,
			    const struct probe *pr, const struct target *tg)
{
	const struct param *p;
	int i = 0;

	for_each_param(pr->native, p) {
		struct rust_type a = type_rust(prog, p->type, tg);

		switch (a.kind) {
		case R_STRING:
			buf_printf(b, "\t\tlet s%d = super::probegen_cstring(a%d);\n"
				      "\t\tlet v%d = s%d.as_ptr() as usize as u64;\n",
				   i, i, i, i);
			break;
		case R_POINTER:
			buf_printf(b, "\t\tlet v%d = a%d as usize as u64;\n", i, i);
			break;
		case R_BOOL:
			buf_printf(b, "\t\tlet v%d = a%d as u64;\n", i, i);
			break;
		case R_FLOAT:
			buf_printf(b, "\t\tlet v%d = a%d.to_bits() as u64;\n", i, i);
			break;
		case R_INT:
			buf_printf(b, "\t\tlet v%d = a%d as %s;\n", i, i,
				   a.is_signed ? "i64" : "u64");
			break;
		}
		i++;
	}
}

/* The lazy form: the closure computes the arguments (a tuple of the
 * types in tuple, bound as call) only while enabled. */
static void lazy_function(struct buf *b, const struct program *prog,
			  const struct probe *pr, const char *fn,
			  const char *tuple, const char *call, int strings)
{
	const struct target *x86 = target_by_name("x86_64");
	const struct param *p;
	struct buf bind = { 0 };
	int i, n = pr->nnative;

	/* Lazy: the closure computes the arguments only while enabled. */
	buf_printf(b, "\t/// Fire `%s:%s` with the arguments `f` computes, calling `f` only\n"
		      "\t/// while a tracer is attached.\n"
		      "\t#[inline(always)]\n"
		      "\tpub fn %s_lazy",
		   pr->provider->name, pr->name, fn);
	if (strings) {
		buf_puts(b, "<");
		for (i = 0; i < strings; i++)
			buf_printf(b, "%sS%d: AsRef<str>", i ? ", " : "", i);
		buf_puts(b, ">");
	}
	if (n == 0)
		buf_puts(b, "(f: impl FnOnce()) {\n");
	else if (n == 1)
		buf_printf(b, "(f: impl FnOnce() -> %s) {\n", tuple);
	else
		buf_printf(b, "(f: impl FnOnce() -> (%s)) {\n", tuple);
	buf_printf(b, "\t\tif %s_enabled() {\n", fn);
	if (n == 0) {
		buf_printf(b, "\t\t\tf();\n\t\t\t%s();\n", fn);
	} else {
		i = 0;
		for_each_param(pr->native, p) {
			struct rust_type a = type_rust(prog, p->type, x86);

			buf_printf(&bind, "%sa%d%s", i ? ", " : "", i,
				   a.kind == R_STRING ? ".as_ref()" : "");
			i++;
		}
		buf_printf(b, "\t\t\tlet %s%s%s = f();\n", n > 1 ? "(" : "",
			   call, n > 1 ? ")" : "");
		buf_printf(b, "\t\t\t%s(%s);\n", fn, bind.data);
	}
	buf_puts(b, "\t\t}\n\t}\n\n");
	buf_free(&bind);
}

static void probe_functions(struct buf *b, const struct program *prog,
			    const struct probe *pr)
{
	const struct target *x86 = target_by_name("x86_64");
	const struct target *arm = target_by_name("aarch64");
	char *fn = name_rust_fn(pr);
	char *sem = name_rust_semaphore(pr);
	const struct param *p;
	struct buf params = { 0 }, call = { 0 }, tuple = { 0 };
	int i = 0, strings = 0;

	for_each_param(pr->native, p) {
		struct rust_type a = type_rust(prog, p->type, x86);

		buf_printf(&params, "%sa%d: %s", i ? ", " : "", i,
			   a.name);
		buf_printf(&call, "%sa%d", i ? ", " : "", i);
		if (a.kind == R_STRING)
			buf_printf(&tuple, "%sS%d", i ? ", " : "", strings++);
		else
			buf_printf(&tuple, "%s%s", i ? ", " : "", a.name);
		i++;
	}

	buf_cat(b, "\t/// `probe ", pr->name, NULL);
	params_print_d(b, pr->native);
	buf_puts(b, "`\n");
	buf_printf(b, "\t#[link_section = \".probes\"]\n"
		      "\tstatic %s: ::core::sync::atomic::AtomicU16 = ::core::sync::atomic::AtomicU16::new(0);\n\n",
		   sem);
	buf_printf(b, "\t/// Whether a tracer is attached to `%s:%s`.\n"
		      "\t#[inline(always)]\n"
		      "\tpub fn %s_enabled() -> bool {\n"
		      "\t\t%s.load(::core::sync::atomic::Ordering::Relaxed) != 0\n"
		      "\t}\n\n",
		   pr->provider->name, pr->name, fn, sem);

	/* The site, with every argument as a 64-bit integer v0, v1, ... */
	buf_printf(b, "\t/// Fire `%s:%s`%s.\n"
		      "\t#[inline(always)]\n"
		      "\t#[allow(named_asm_labels, unused_variables, clippy::too_many_arguments)]\n"
		      "\tpub fn %s(%s) {\n",
		   pr->provider->name, pr->name,
		   strings ? " (its strings are copied only while traced)" : "",
		   fn, params.data ? params.data : "");
	if (strings)
		buf_printf(b, "\t\tif !%s_enabled() {\n\t\t\treturn;\n\t\t}\n",
			   fn);
	argument_values(b, prog, pr, x86);
	site_asm(b, prog, pr, x86, "x86_64", sem);
	site_asm(b, prog, pr, arm, "aarch64", sem);
	buf_puts(b, "\t}\n\n");

	lazy_function(b, prog, pr, fn, tuple.data, call.data, strings);
	buf_free(&params);
	buf_free(&call);
	buf_free(&tuple);
	free(fn);
	free(sem);
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
		   PROBEGEN_VERSION, opt->input_name);
	buf_puts(out,
		 "/// A NUL-terminated copy of `s` (up to its first NUL), made only\n"
		 "/// while a probe that takes it is traced.\n"
		 "#[allow(dead_code)]\n"
		 "fn probegen_cstring(s: &str) -> ::std::ffi::CString {\n"
		 "\tlet bytes = s.as_bytes();\n"
		 "\tlet end = bytes.iter().position(|&c| c == 0).unwrap_or(bytes.len());\n"
		 "\t::std::ffi::CString::new(&bytes[..end]).unwrap_or_default()\n"
		 "}\n\n");
	for_each_provider(prog, pv) {
		buf_printf(out,
			   "/// Probes of provider `%s`.\n"
			   "#[allow(dead_code, non_snake_case)]\n"
			   "pub mod %s {\n",
			   pv->name, pv->name);
		declaration_notes(out, pv);
		for_each_probe(pv, pr) {
			probe_functions(out, prog, pr);
			output_flush(o);
		}
		buf_puts(out, "}\n\n");
	}
	return 0;
}
