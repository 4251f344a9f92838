/*
 * compiler/spell.c - how a type is written: in C for the generated header (the
 * file's typedefs expanded, D's type names spelled with the compiler's
 * predefined macros so that the header needs no <stdint.h>), in D as the
 * .d file wrote it (comments and messages), and in Rust.  What a type
 * means (size, sign) comes from type.c.
 */
#include <stdlib.h>
#include <string.h>

#include "naming.h"

static void add_quals(struct buf *b, unsigned quals)
{
	if (quals & Q_CONST)
		buf_lit(b, " const");
	if (quals & Q_VOLATILE)
		buf_lit(b, " volatile");
	if (quals & Q_RESTRICT)
		buf_lit(b, " __restrict__");
}

struct printer {
	const struct program *prog;   /* C spelling; NULL: D, as written */
	const struct program *expand; /* whose typedefs are expanded, or NULL */
};

static void print_decl(struct buf *out, const struct printer *pp,
		       const struct type *t, const char *name, int depth);

static void print_params(struct buf *b, const struct printer *pp,
			 const struct type *fn, int depth)
{
	const struct param *p;

	if (!fn->params && !fn->varargs) {
		buf_lit(b, "void");
		return;
	}
	for_each_param(fn->params, p) {
		print_decl(b, pp, p->type, pp->prog || !p->name ? "" : p->name,
			   depth + 1);
		if (p->next || fn->varargs)
			buf_lit(b, ", ");
	}
	if (fn->varargs)
		buf_lit(b, "...");
}

/* The leaf of a declaration: a base, string, named or tagged type. */
static void print_leaf(struct buf *out, const struct printer *pp,
		       const struct type *t, unsigned quals, int more)
{
	switch (t->kind) {
	case T_NAMED:
		buf_puts(out, pp->prog && t->d_type >= 0 ? d_type_c(t->d_type)
							 : t->name);
		break;
	case T_BASE:
		buf_puts(out, pp->prog && t->base == B_BOOL
				      ? "PROBEGEN_BOOL"
				      : base_types[t->base].c_name);
		break;
	case T_STRING:
		if (pp->prog) {
			/* D's string is a C string the probe reads. */
			buf_lit(out, "char");
			add_quals(out, quals | Q_CONST);
			buf_lit(out, " *");
			return;
		}
		buf_lit(out, "string");
		break;
	case T_ENUM:
		if (pp->prog) {
			buf_lit(out, "int");
			break;
		}
		/* fall through */
	default:
		buf_puts(out, t->kind == T_STRUCT  ? "struct"
			      : t->kind == T_UNION ? "union"
						   : "enum");
		if (t->name) {
			buf_lit(out, " ");
			buf_puts(out, t->name);
		}
		break;
	}
	add_quals(out, quals);
	if (more)
		buf_lit(out, " ");
}

/* Declarations read inside out: `int (*name)[]` is a pointer to an array
 * of int.  The chain from the outermost node to the leaf is flattened
 * (the file's typedefs expanded when printing C), then written as the
 * leaf, the prefixes from the innermost node out ("*", "("), the name,
 * and the suffixes from the outermost in ("[]", "(params)", ")"). */
static int is_array_or_function(const struct type *t)
{
	return t->kind == T_ARRAY || t->kind == T_FUNC;
}

static void print_decl(struct buf *out, const struct printer *pp,
		       const struct type *t, const char *name, int depth)
{
	const struct type *chain[MAX_TYPE_DEPTH + 1];
	unsigned quals[MAX_TYPE_DEPTH + 1], extra = 0;
	const struct type *td;
	int k = 0, i, steps = 0;

	for (;;) {
		if (++steps > MAX_TYPE_DEPTH || depth > MAX_TYPE_DEPTH) {
			buf_lit(out, "int");
			return;
		}
		quals[k] = t->quals | extra;
		if (t->kind == T_NAMED && pp->expand && t->d_type < 0 &&
		    (td = named_typedef(pp->expand, t))) {
			extra = quals[k];
			t = td;
			continue;
		}
		chain[k] = t;
		if (t->kind != T_POINTER && !is_array_or_function(t))
			break;
		/* An array's qualifiers are its elements'. */
		extra = t->kind == T_ARRAY ? quals[k] : 0;
		t = t->inner;
		k++;
	}
	/* chain[k] is the leaf; something follows it unless k == 0 and the
	   declaration is unnamed.  A pointer to an array or a function is
	   written in parentheses: (*name)[]. */
	print_leaf(out, pp, chain[k], quals[k], k > 0 || *name);
	for (i = k - 1; i >= 0; i--) {
		if (chain[i]->kind != T_POINTER)
			continue;
		if (is_array_or_function(chain[i + 1]))
			buf_lit(out, "(");
		buf_lit(out, "*");
		add_quals(out, quals[i]);
		if (quals[i] && (i > 0 || *name))
			buf_lit(out, " ");
	}
	buf_puts(out, name);
	for (i = 0; i < k; i++) {
		switch (chain[i]->kind) {
		case T_POINTER:
			if (is_array_or_function(chain[i + 1]))
				buf_lit(out, ")");
			break;
		case T_ARRAY:
			buf_lit(out, "[]");
			break;
		case T_FUNC:
			buf_lit(out, "(");
			print_params(out, pp, chain[i], depth + steps);
			buf_lit(out, ")");
			break;
		default: /* the innermost type, printed before the name */
			break;
		}
	}
}

void type_print_c(struct buf *b, const struct program *prog,
		  const struct type *t, const char *name, int const_pointee)
{
	struct printer pp = { prog, prog };
	struct type copy;

	/* Parameters of array type are pointers in C. */
	if (t->kind == T_ARRAY) {
		copy = *t;
		copy.kind = T_POINTER;
		copy.quals = 0;
		t = &copy;
	}
	/* A pointer argument is only read: accept pointers to const. */
	if (const_pointee && t->kind == T_POINTER &&
	    t->inner->kind != T_POINTER && t->inner->kind != T_FUNC) {
		struct type ptr = *t, pointee = *t->inner;

		pointee.quals |= Q_CONST;
		ptr.inner = &pointee;
		print_decl(b, &pp, &ptr, name, 0);
		return;
	}
	print_decl(b, &pp, t, name, 0);
}

void type_print_d(struct buf *b, const struct type *t, const char *name)
{
	struct printer pp = { NULL, NULL };

	print_decl(b, &pp, t, name ? name : "", 0);
}

static void params_print(struct buf *b, const struct printer *pp,
			 const struct param *list)
{
	const struct param *p;

	buf_lit(b, "(");
	for_each_param(list, p) {
		print_decl(b, pp, p->type, p->name ? p->name : "", 0);
		if (p->next)
			buf_lit(b, ", ");
	}
	buf_lit(b, ")");
}

void params_print_d(struct buf *b, const struct param *list)
{
	struct printer pp = { NULL, NULL };

	params_print(b, &pp, list);
}

void probe_declaration(struct buf *b, const struct probe *pr)
{
	buf_puts(b, pr->provider->name);
	buf_lit(b, ":");
	buf_puts(b, pr->name);
	params_print_d(b, pr->native);
}

int probe_declaration_recorded(struct buf *b, const struct program *prog,
			       const struct probe *pr)
{
	struct printer pp = { NULL, prog };
	struct buf tags = { 0 };
	size_t i;

	buf_puts(b, pr->provider->name);
	buf_lit(b, ":");
	buf_puts(b, pr->name);
	params_print(b, &pp, pr->native);
	meanings_tags(&tags, pr);
	if (!tags.len)
		return DECL_NOTE_TYPE;
	/* The tags on the same line: " @length hash 32 @enum mode A=0". */
	for (i = 0; i < tags.len; i++)
		if (tags.data[i] == '\n')
			tags.data[i] = ' ';
	buf_lit(b, " ");
	buf_add(b, tags.data, tags.len);
	buf_free(&tags);
	return DECL_NOTE_TYPE_TAGGED;
}

static int tag_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect_tags(const struct program *prog, const struct type *t,
			 char ***tags, size_t *n, int depth)
{
	const struct param *p;

	for (; t && depth < MAX_TYPE_DEPTH; t = t->inner, depth++) {
		t = type_resolve(prog, t);
		if ((t->kind == T_STRUCT || t->kind == T_UNION) && t->name) {
			*tags = xgrow(*tags, *n, sizeof(char *));
			(*tags)[(*n)++] = xasprintf("%s %s",
						    t->kind == T_STRUCT
							    ? "struct"
							    : "union",
						    t->name);
		}
		for_each_param(t->params, p)
			collect_tags(prog, p->type, tags, n, depth + 1);
	}
}

void type_forward_declarations(struct buf *b, const struct program *prog)
{
	const struct provider *pv;
	const struct probe *pr;
	const struct param *p;
	char **tags = NULL;
	size_t n = 0, i;

	if (!prog->ntags)
		return;
	for_each_provider(prog, pv)
		for_each_probe(pv, pr)
			for_each_param(pr->native, p)
				collect_tags(prog, p->type, &tags, &n, 0);
	if (n > 1)
		qsort(tags, n, sizeof(char *), tag_cmp);
	for (i = 0; i < n; i++) {
		if (i == 0 || strcmp(tags[i], tags[i - 1]) != 0)
			buf_printf(b, "%s;\n", tags[i]);
	}
	if (n)
		buf_puts(b, "\n");
	for (i = 0; i < n; i++)
		free(tags[i]);
	free(tags);
}

/* A doc comment's text without its decoration: the leading blanks and
 * "*" of each line of a block comment, the third "/" of a "///" line,
 * and blank first and last lines;
 * nothing when only decoration.  --docs and --rust show it. */
void probe_doc_text(struct buf *b, const struct probe *pr)
{
	const char *doc = pr->doc;
	struct buf out = { 0 };
	const char *line = doc;

	while (*line) {
		const char *end = line + strcspn(line, "\n");
		const char *p = line, *tag;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p < end && *p == '*' && (p + 1 == end || p[1] != '*'))
			p++;
		/* "/// text" arrives as "/ text". */
		else if (p < end && *p == '/' && (p + 1 == end || p[1] == ' '))
			p++;
		if (p < end && *p == ' ')
			p++;
		if (meaning_tag_line(p, (size_t)(end - p))) {
			/* probegen's tags: shown by what they mean. */
			line = *end ? end + 1 : end;
			continue;
		}
		tag = meaning_tag_after_text(pr, p, end);
		while (tag > p && (tag[-1] == ' ' || tag[-1] == '\t'))
			tag--;
		if (out.len || p < tag) {
			buf_add(&out, p, (size_t)(tag - p));
			buf_lit(&out, "\n");
		}
		line = *end ? end + 1 : end;
	}
	while (out.len &&
	       (out.data[out.len - 1] == '\n' || out.data[out.len - 1] == ' '))
		out.len--;
	buf_add(b, out.data, out.len);
	buf_free(&out);
}

/* ---- Rust ---- */

struct rust_type type_rust(const struct program *prog, const struct type *t,
			   const struct target *tg)
{
	static const char *const ints[2][9] = {
		{ "", "u8", "u16", "", "u32", "", "", "", "u64" },
		{ "", "i8", "i16", "", "i32", "", "", "", "i64" },
	};
	struct rust_type r = { R_INT, "u64", 0 };
	struct type_info ti = type_info(prog, t, tg);

	if (type_is_string(t)) {
		r.kind = R_STRING;
		r.name = "&str";
	} else if (t->kind == T_POINTER || t->kind == T_ARRAY ||
		   t->kind == T_FUNC) {
		r.kind = R_POINTER;
		r.name = "*const ::core::ffi::c_void";
	} else if (t->kind == T_BASE && t->base == B_BOOL) {
		r.kind = R_BOOL;
		r.name = "bool";
	} else if (ti.is_float) {
		r.kind = R_FLOAT;
		r.name = ti.size == 4 ? "f32" : "f64";
	} else if (ti.size == 1 || ti.size == 2 || ti.size == 4 ||
		   ti.size == 8) {
		r.is_signed = ti.is_signed;
		r.name = ints[ti.is_signed ? 1 : 0][ti.size];
	}
	/* Names only the user's C headers know: passed as a u64. */
	return r;
}
