/*
 * compiler/type.c - what a D type means on a target: its size and sign, whether
 * a tracer can read it, whether it is a C string, and whether the header
 * can name it without the user's own C headers.  How a type is written
 * (C, D, Rust) is spell.c's business; it asks here, never the reverse.
 * The file's typedefs are followed; names from the user's C headers have
 * no known size.
 */
#include <string.h>

#include "model.h"

/* D's predefined type names: size in bytes (0: pointer-sized, -1:
 * long-sized, which is the same on every target here), sign, and how C
 * spells them (the compiler's predefined macros where a width needs
 * one).  The one table of them: spell.c asks here. */
static const struct {
	const char *name;
	int size, is_signed;
	const char *c;
} d_types[] = {
	{ "int8_t", 1, 1, "signed char" },
	{ "int16_t", 2, 1, "short" },
	{ "int32_t", 4, 1, "int" },
	{ "int64_t", 8, 1, "__INT64_TYPE__" },
	{ "uint8_t", 1, 0, "unsigned char" },
	{ "uint16_t", 2, 0, "unsigned short" },
	{ "uint32_t", 4, 0, "unsigned int" },
	{ "uint64_t", 8, 0, "__UINT64_TYPE__" },
	{ "intptr_t", 0, 1, "__INTPTR_TYPE__" },
	{ "uintptr_t", 0, 0, "__UINTPTR_TYPE__" },
	{ "ptrdiff_t", 0, 1, "__PTRDIFF_TYPE__" },
	{ "size_t", 0, 0, "__SIZE_TYPE__" },
	{ "ssize_t", 0, 1, "__PTRDIFF_TYPE__" },
	{ "uchar_t", 1, 0, "unsigned char" },
	{ "ushort_t", 2, 0, "unsigned short" },
	{ "uint_t", 4, 0, "unsigned int" },
	{ "ulong_t", -1, 0, "unsigned long" },
	{ "longlong_t", 8, 1, "__INT64_TYPE__" },
	{ "u_longlong_t", 8, 0, "__UINT64_TYPE__" },
	{ "pid_t", 4, 1, "int" },
	{ "uid_t", 4, 0, "unsigned int" },
	{ "gid_t", 4, 0, "unsigned int" },
	{ "bool", 1, 0, "PROBEGEN_BOOL" },
};

const char *d_type_c(int index)
{
	return d_types[index].c;
}

int d_type_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(d_types); i++)
		if (strcmp(d_types[i].name, name) == 0)
			return (int)i;
	return -1;
}

const char *d_type_name(int index)
{
	return index >= 0 && (size_t)index < ARRAY_SIZE(d_types)
		       ? d_types[index].name
		       : NULL;
}

const char *d_type_sized(int size, int is_signed)
{
	size_t i;

	if (size != 1 && size != 2 && size != 4)
		size = 8;
	for (i = 0; i < ARRAY_SIZE(d_types); i++)
		if (d_types[i].size == size &&
		    d_types[i].is_signed == is_signed)
			return d_types[i].name;
	return NULL; /* not reached: the table has every width */
}

const struct type *named_typedef(const struct program *prog,
				 const struct type *t)
{
	if (!t->typedef_type)
		((struct type *)t)->typedef_type = file_typedef(prog, t->name);
	return t->typedef_type;
}

const struct type *file_typedef(const struct program *prog, const char *name)
{
	const struct typedef_decl *td =
		prog->typedef_names.slots
			? name_set_find(&prog->typedef_names, name)
			: NULL;

	return td ? td->type : NULL;
}

const struct type *type_resolve(const struct program *prog,
				const struct type *t)
{
	const struct type *td;
	int depth = 0;

	while (t->kind == T_NAMED && t->d_type < 0 &&
	       (td = named_typedef(prog, t)) && depth++ < MAX_TYPE_DEPTH)
		t = td;
	return t;
}

int type_depth(const struct program *prog, const struct type *t)
{
	int depth = 0;

	for (; t && depth <= MAX_TYPE_DEPTH; t = t->inner) {
		t = type_resolve(prog, t);
		depth++;
	}
	return depth;
}

const struct base_type base_types[B_COUNT] = {
	/* B_NONE is no type yet (spelt int); void has no size. */
	[B_NONE] = { "int", 0, 0, 0, 0, 0 },
	[B_VOID] = { "void", 0, 0, 0, 0, 0 },
	[B_BOOL] = { "_Bool", 1, 1, 0, 0, 0 },
	[B_CHAR] = { "char", 1, 1, -1, 0, 1 },
	[B_SCHAR] = { "signed char", 1, 1, 1, 0, 1 },
	[B_UCHAR] = { "unsigned char", 1, 1, 0, 0, 1 },
	[B_SHORT] = { "short", 2, 2, 1, 0, 1 },
	[B_USHORT] = { "unsigned short", 2, 2, 0, 0, 1 },
	[B_INT] = { "int", 4, 4, 1, 0, 1 },
	[B_UINT] = { "unsigned int", 4, 4, 0, 0, 1 },
	[B_LONG] = { "long", 4, 8, 1, 0, 1 },
	[B_ULONG] = { "unsigned long", 4, 8, 0, 0, 1 },
	[B_LLONG] = { "long long", 8, 8, 1, 0, 1 },
	[B_ULLONG] = { "unsigned long long", 8, 8, 0, 0, 1 },
	[B_FLOAT] = { "float", 4, 4, 1, 1, 0 },
	[B_DOUBLE] = { "double", 8, 8, 1, 1, 0 },
	[B_LDOUBLE] = { "long double", 12, 16, 1, 1, 0 },
};

static int spellable(const struct program *prog, const struct type *t,
		     int depth);

static int params_spellable(const struct program *prog, const struct param *p,
			    int depth)
{
	for (; p; p = p->next)
		if (!spellable(prog, p->type, depth + 1))
			return 0;
	return 1;
}

static int spellable(const struct program *prog, const struct type *t,
		     int depth)
{
	const struct type *td;

	if (depth > MAX_TYPE_DEPTH)
		return 0; /* typedef loops */
	switch (t->kind) {
	case T_BASE:
	case T_STRING:
	case T_ENUM:
		return 1;
	case T_NAMED:
		if (t->d_type >= 0)
			return 1;
		td = named_typedef(prog, t);
		return td && spellable(prog, td, depth + 1);
	case T_STRUCT:
	case T_UNION:
		return 0; /* by value: the definition is the user's */
	case T_POINTER:
	case T_ARRAY:
		td = type_resolve(prog, t->inner);
		if (td->kind == T_STRUCT || td->kind == T_UNION)
			return td->name != NULL; /* forward-declared */
		return spellable(prog, t->inner, depth + 1);
	case T_FUNC:
		return spellable(prog, t->inner, depth + 1) &&
		       params_spellable(prog, t->params, depth);
	}
	return 0;
}

int type_spellable(const struct program *prog, const struct type *t)
{
	return spellable(prog, t, 0);
}

static struct type_info info_of(const struct program *prog,
				const struct type *t, const struct target *tg,
				int depth)
{
	struct type_info ti = { 0 };
	int ptr = tg->elfclass == 2 /* ELFCLASS64 */ ? 8 : 4;
	const struct type *td;
	int i;

	if (depth > MAX_TYPE_DEPTH)
		return ti;
	switch (t->kind) {
	case T_BASE:
		ti.size = ptr == 8 ? base_types[t->base].size64
				   : base_types[t->base].size32;
		ti.is_signed = base_types[t->base].sign < 0
				       ? tg->char_signed
				       : base_types[t->base].sign;
		ti.is_float = base_types[t->base].is_float;
		return ti;
	case T_ENUM:
		ti.size = 4;
		ti.is_signed = 1;
		return ti;
	case T_NAMED:
		i = t->d_type;
		if (i >= 0) {
			ti.size = d_types[i].size > 0 ? d_types[i].size : ptr;
			ti.is_signed = d_types[i].is_signed;
			return ti;
		}
		td = named_typedef(prog, t);
		if (td)
			return info_of(prog, td, tg, depth + 1);
		return ti; /* the user's: size unknown here */
	case T_STRUCT:
	case T_UNION:
		ti.is_struct = 1;
		return ti;
	case T_STRING:
	case T_POINTER:
	case T_ARRAY:
	case T_FUNC:
		ti.size = ptr;
		ti.is_pointer = 1;
		return ti;
	}
	return ti;
}

struct type_info type_info(const struct program *prog, const struct type *t,
			   const struct target *tg)
{
	return info_of(prog, t, tg, 0);
}

/* As written: a typedef of char * is not followed (it may be a buffer). */
enum char_kind type_char_kind(const struct type *t)
{
	if (t->kind == T_STRING)
		return CHARS_TEXT;
	if ((t->kind != T_POINTER && t->kind != T_ARRAY) ||
	    t->inner->kind != T_BASE)
		return CHARS_NONE;
	return t->inner->base == B_CHAR || t->inner->base == B_SCHAR ? CHARS_TEXT
	       : t->inner->base == B_UCHAR			     ? CHARS_BYTES
								     : CHARS_NONE;
}

int type_is_string(const struct type *t)
{
	return type_char_kind(t) != CHARS_NONE;
}

/* A pointer to a function: void (*)(void *). */
static int type_is_function_pointer(const struct program *prog,
				    const struct type *t)
{
	t = type_resolve(prog, t);
	return t->kind == T_POINTER && type_resolve(prog, t->inner)->kind == T_FUNC;
}

struct arg_read type_arg_read(const struct program *prog,
				    const struct type *t,
				    const struct target *tg)
{
	struct type_info ti = type_info(prog, t, tg);
	struct arg_read r = { .kind = ARG_INTEGER,
				 .size = ti.size,
				 .is_signed = ti.is_signed,
				 .length_arg = -1 };

	if (type_is_string(t))
		r.kind = ARG_STRING;
	else if (type_is_function_pointer(prog, t))
		r.kind = ARG_CODE;
	else if (ti.is_pointer)
		r.kind = ARG_POINTER;
	else if (ti.is_float)
		r.kind = ARG_FLOAT;
	else if (ti.is_struct)
		r.kind = ARG_BY_VALUE;
	else if (ti.size == 0)
		r.kind = ARG_AS_NOTED;
	else if (ti.size > 8)
		r.kind = ARG_TOO_WIDE;
	return r;
}

/* Does t, as the header spells it (the file's typedefs expanded), hold
 * a type C90 lacks: long long or _Bool?  A cast to it then needs
 * __extension__. */
int type_needs_extension(const struct program *prog, const struct type *t)
{
	const struct param *p;

	for (; t; t = t->inner) {
		t = type_resolve(prog, t);
		if ((t->kind == T_BASE &&
		     (t->base == B_LLONG || t->base == B_ULLONG ||
		      t->base == B_BOOL)) ||
		    (t->kind == T_NAMED && t->d_type >= 0 &&
		     strcmp(d_types[t->d_type].name, "bool") == 0))
			return 1;
		for_each_param(t->params, p)
			if (type_needs_extension(prog, p->type))
				return 1;
	}
	return 0;
}

/* Is a comma part of t's spelling (a function type of several
 * parameters, anywhere in it)?  Such a type cannot be a macro argument. */
int type_spelled_with_comma(const struct program *prog, const struct type *t)
{
	const struct param *p;

	for (; t; t = t->inner) {
		t = type_resolve(prog, t);
		if (t->params && t->params->next)
			return 1;
		if (t->kind == T_FUNC && t->varargs && t->params)
			return 1;
		for_each_param(t->params, p)
			if (type_spelled_with_comma(prog, p->type))
				return 1;
	}
	return 0;
}
