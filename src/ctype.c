/*
 * ctype.c - what a D type means in C: its size and sign on a target
 * (for checks and the note), and how to spell it in the generated header.
 * The file's typedefs are expanded; D's fixed-width names are spelled
 * with the compiler's predefined macros (__INT64_TYPE__ ...) so the
 * header needs no <stdint.h>.  Names from the user's C headers are
 * "unknown": the header can only use them when the user opts in.
 */
#include <stdlib.h>
#include <string.h>

#include "probegen.h"

/* D's predefined type names: spelling in C, size (0: pointer-sized,
 * -1: long-sized), sign. */
#define D_TYPE(name, c, size, is_signed) \
	{ name, sizeof(name) - 1, c, size, is_signed }
static const struct {
	const char *name;
	size_t len; /* of name: most lookups stop at it */
	const char *c;
	int size, is_signed;
} d_types[] = {
	D_TYPE("int8_t", "signed char", 1, 1),
	D_TYPE("int16_t", "short", 2, 1),
	D_TYPE("int32_t", "int", 4, 1),
	D_TYPE("int64_t", "__INT64_TYPE__", 8, 1),
	D_TYPE("uint8_t", "unsigned char", 1, 0),
	D_TYPE("uint16_t", "unsigned short", 2, 0),
	D_TYPE("uint32_t", "unsigned int", 4, 0),
	D_TYPE("uint64_t", "__UINT64_TYPE__", 8, 0),
	D_TYPE("intptr_t", "__INTPTR_TYPE__", 0, 1),
	D_TYPE("uintptr_t", "__UINTPTR_TYPE__", 0, 0),
	D_TYPE("ptrdiff_t", "__PTRDIFF_TYPE__", 0, 1),
	D_TYPE("size_t", "__SIZE_TYPE__", 0, 0),
	D_TYPE("ssize_t", "__PTRDIFF_TYPE__", 0, 1),
	D_TYPE("uchar_t", "unsigned char", 1, 0),
	D_TYPE("ushort_t", "unsigned short", 2, 0),
	D_TYPE("uint_t", "unsigned int", 4, 0),
	D_TYPE("ulong_t", "unsigned long", -1, 0),
	D_TYPE("longlong_t", "__INT64_TYPE__", 8, 1),
	D_TYPE("u_longlong_t", "__UINT64_TYPE__", 8, 0),
	D_TYPE("pid_t", "int", 4, 1),
	D_TYPE("uid_t", "unsigned int", 4, 0),
	D_TYPE("gid_t", "unsigned int", 4, 0),
	D_TYPE("bool", "PROBEGEN_BOOL", 1, 0),
};

int d_type_lookup(const char *name)
{
	size_t i, len = strlen(name);

	for (i = 0; i < sizeof(d_types) / sizeof(d_types[0]); i++)
		if (d_types[i].len == len &&
		    memcmp(d_types[i].name, name, len) == 0)
			return (int)i;
	return -1;
}

static const struct type *file_typedef(const struct program *prog,
				       const char *name)
{
	const struct typedef_decl *td;

	for (td = prog->typedefs; td; td = td->next)
		if (td->name && strcmp(td->name, name) == 0)
			return td->type;
	return NULL;
}

static int base_size(enum base b, int ptr)
{
	switch (b) {
	case B_BOOL: case B_CHAR: case B_SCHAR: case B_UCHAR: return 1;
	case B_SHORT: case B_USHORT: return 2;
	case B_INT: case B_UINT: case B_FLOAT: return 4;
	case B_LONG: case B_ULONG: return ptr;
	case B_LLONG: case B_ULLONG: case B_DOUBLE: return 8;
	case B_LDOUBLE: return ptr == 8 ? 16 : 12;
	default: return 0;
	}
}

static int base_signed(enum base b, const struct target *tg)
{
	switch (b) {
	case B_CHAR: return tg->char_signed;
	case B_SCHAR: case B_SHORT: case B_INT: case B_LONG: case B_LLONG:
	case B_FLOAT: case B_DOUBLE: case B_LDOUBLE:
		return 1;
	default: return 0;
	}
}

static int spellable(const struct program *prog, const struct type *t,
		     int depth);

/* Follow the file's own typedefs down to the type they name. */
static const struct type *resolve(const struct program *prog,
				  const struct type *t)
{
	const struct type *td;
	int depth = 0;

	while (t->kind == T_NAMED && t->d_type < 0 &&
	       (td = file_typedef(prog, t->name)) && depth++ < 64)
		t = td;
	return t;
}

static int params_spellable(const struct program *prog, const struct param *p,
			    int depth)
{
	for (; p; p = p->next)
		if (!spellable(prog, p->type, depth + 1))
			return 0;
	return 1;
}

/* Can the header spell this type without the user's own headers? */
static int spellable(const struct program *prog, const struct type *t,
		     int depth)
{
	const struct type *td;

	if (depth > 64)
		return 0; /* typedef loops and absurd nesting */
	switch (t->kind) {
	case T_BASE: case T_STRING: case T_ENUM:
		return 1;
	case T_NAMED:
		if (t->d_type >= 0)
			return 1;
		td = file_typedef(prog, t->name);
		return td && spellable(prog, td, depth + 1);
	case T_STRUCT: case T_UNION:
		return 0; /* by value: the definition is the user's */
	case T_POINTER: case T_ARRAY:
		td = resolve(prog, t->inner);
		if (td->kind == T_STRUCT || td->kind == T_UNION)
			return td->name != NULL; /* forward-declared */
		return spellable(prog, t->inner, depth + 1);
	case T_FUNC:
		return spellable(prog, t->inner, depth + 1) &&
		       params_spellable(prog, t->params, depth);
	}
	return 0;
}

static struct type_info info_of(const struct program *prog,
				const struct type *t, const struct target *tg,
				int depth)
{
	struct type_info ti = { 0 };
	int ptr = tg->elfclass == 2 /* ELFCLASS64 */ ? 8 : 4;
	const struct type *td;
	int i;

	if (depth > 64)
		return ti;
	switch (t->kind) {
	case T_BASE:
		ti.size = base_size(t->base, ptr);
		ti.is_signed = base_signed(t->base, tg);
		ti.is_float = t->base >= B_FLOAT;
		ti.known = 1;
		if (t->base == B_VOID)
			ti.size = 0;
		return ti;
	case T_ENUM:
		ti.size = 4;
		ti.is_signed = 1;
		ti.known = 1;
		return ti;
	case T_NAMED:
		i = t->d_type;
		if (i >= 0) {
			ti.size = d_types[i].size > 0 ? d_types[i].size : ptr;
			ti.is_signed = d_types[i].is_signed;
			ti.known = 1;
			return ti;
		}
		td = file_typedef(prog, t->name);
		if (td)
			return info_of(prog, td, tg, depth + 1);
		return ti; /* the user's: size unknown here */
	case T_STRUCT: case T_UNION:
		ti.is_struct = 1;
		return ti;
	case T_STRING: case T_POINTER: case T_ARRAY: case T_FUNC:
		ti.size = ptr;
		ti.known = spellable(prog, t, depth);
		return ti;
	}
	return ti;
}

struct type_info type_info(const struct program *prog, const struct type *t,
			   const struct target *tg)
{
	return info_of(prog, t, tg, 0);
}

int type_known(const struct program *prog, const struct type *t)
{
	return spellable(prog, t, 0); /* info_of() works out sizes too */
}

static const char *base_name(enum base b)
{
	static const char *const names[] = {
		[B_NONE] = "int", [B_VOID] = "void", [B_BOOL] = "_Bool",
		/* in C mode (pp->prog set) _Bool is spelt PROBEGEN_BOOL */
		[B_CHAR] = "char", [B_SCHAR] = "signed char",
		[B_UCHAR] = "unsigned char", [B_SHORT] = "short",
		[B_USHORT] = "unsigned short", [B_INT] = "int",
		[B_UINT] = "unsigned int", [B_LONG] = "long",
		[B_ULONG] = "unsigned long", [B_LLONG] = "long long",
		[B_ULLONG] = "unsigned long long", [B_FLOAT] = "float",
		[B_DOUBLE] = "double", [B_LDOUBLE] = "long double",
	};

	return names[b];
}

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
	const struct program *prog; /* NULL: print as written in the .d */
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
		buf_puts(out, pp->prog && t->d_type >= 0 ? d_types[t->d_type].c
							: t->name);
		break;
	case T_BASE:
		buf_puts(out, pp->prog && t->base == B_BOOL ? "PROBEGEN_BOOL"
							    : base_name(t->base));
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
		buf_puts(out, t->kind == T_STRUCT ? "struct" :
			      t->kind == T_UNION ? "union" : "enum");
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
#define MAX_PRINT_DEPTH 64

static int is_array_or_function(const struct type *t)
{
	return t->kind == T_ARRAY || t->kind == T_FUNC;
}

static void print_decl(struct buf *out, const struct printer *pp,
		       const struct type *t, const char *name, int depth)
{
	const struct type *chain[MAX_PRINT_DEPTH + 1];
	unsigned quals[MAX_PRINT_DEPTH + 1], extra = 0;
	const struct type *td;
	int k = 0, i, steps = 0;

	for (;;) {
		if (++steps > MAX_PRINT_DEPTH || depth > MAX_PRINT_DEPTH) {
			buf_lit(out, "int");
			return;
		}
		quals[k] = t->quals | extra;
		if (t->kind == T_NAMED && pp->prog && t->d_type < 0 &&
		    (td = file_typedef(pp->prog, t->name))) {
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
		}
	}
}

static void print_c(struct buf *b, const struct program *prog,
		    const struct type *t, const char *name, int const_pointee)
{
	struct printer pp = { prog };
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

void type_print_c(struct buf *b, const struct program *prog,
		  const struct type *t, const char *name, int const_pointee)
{
	print_c(b, prog, t, name, const_pointee);
}

void type_print_d(struct buf *b, const struct type *t, const char *name)
{
	struct printer pp = { NULL };

	print_decl(b, &pp, t, name ? name : "", 0);
}

void params_print_d(struct buf *b, const struct param *list)
{
	const struct param *p;

	buf_lit(b, "(");
	for_each_param(list, p) {
		type_print_d(b, p->type, p->name);
		if (p->next)
			buf_lit(b, ", ");
	}
	buf_lit(b, ")");
}

static int tag_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect_tags(const struct program *prog, const struct type *t,
			 char ***tags, size_t *n, int depth)
{
	const struct param *p;

	for (; t && depth < 64; t = t->inner, depth++) {
		t = resolve(prog, t);
		if ((t->kind == T_STRUCT || t->kind == T_UNION) && t->name) {
			*tags = xrealloc(*tags, sizeof(char *) * (*n + 1));
			(*tags)[(*n)++] = xasprintf("%s %s",
				t->kind == T_STRUCT ? "struct" : "union",
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
