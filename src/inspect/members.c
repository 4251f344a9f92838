/*
 * inspect/members.c - a member expression on a probe's arguments
 * ("conn->super.local.id", as C writes it) laid out from the binary's
 * DWARF: the offsets a tracer adds and the pointers it follows from the
 * argument's value, and how it reads what it reaches.  The DWARF is
 * found where gdb finds it: in the binary, or in a separate debug file
 * by build-id or .gnu_debuglink (libdwfl's standard search; Debian's
 * -dbgsym packages).  Needs libdw (HAVE_LIBDW).
 */
#include <stdlib.h>
#include <string.h>

#include "compiler/naming.h"
#include "inspect/inspect.h"

void arg_read_free(struct arg_read *m)
{
	int i;

	/* A member chain's names are its own (enum_read's). */
	for (i = 0; i < m->nvalues; i++)
		free((char *)m->values[i].name);
	free((struct enum_value *)m->values);
	m->values = NULL;
	m->nvalues = 0;
}

/* The argument of pr an expression starts with, and the rest: the
 * argument's index, or -1 after saying why in why. */
static int expr_argument(const struct probe *pr, const char *expr,
			 const char **rest, struct buf *why)
{
	size_t n = strcspn(expr, "-.");
	int i = probe_param_index(pr, expr, n);

	*rest = expr + n;
	if (i >= 0)
		return i;
	buf_printf(why, "probe %s:%s has no argument '%.*s'",
		   pr->provider->name, pr->name, (int)n, expr);
	return -1;
}

#ifdef HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdwfl.h>

#include "inspect/debuginfo.h"

static const Dwfl_Callbacks offline = {
	.find_debuginfo = debuginfo_find,
	.section_address = dwfl_offline_section_address,
};

/* The type a DIE's DW_AT_type names, typedefs and qualifiers gone: 0,
 * or -1 (void). */
static int type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute attr;
	Dwarf_Die t = *die;
	int depth = 0;

	do {
		if (!dwarf_attr_integrate(&t, DW_AT_type, &attr) ||
		    !dwarf_formref_die(&attr, out))
			return -1;
		t = *out;
	} while ((dwarf_tag(&t) == DW_TAG_typedef ||
		  dwarf_tag(&t) == DW_TAG_const_type ||
		  dwarf_tag(&t) == DW_TAG_volatile_type ||
		  dwarf_tag(&t) == DW_TAG_restrict_type ||
		  dwarf_tag(&t) == DW_TAG_atomic_type) &&
		 depth++ < 32);
	return 0;
}

/* The next sibling of *d into *d: 1, or 0 at the last; at most
 * MEMBER_MAX_SIBLINGS of one parent, counted in *n, since a hostile
 * binary's DW_AT_sibling can point back. */
#define MEMBER_MAX_SIBLINGS 100000
static int next_sibling(Dwarf_Die *d, int *n)
{
	return ++*n < MEMBER_MAX_SIBLINGS && dwarf_siblingof(d, d) == 0;
}

static int is_record(Dwarf_Die *d)
{
	return dwarf_tag(d) == DW_TAG_structure_type ||
	       dwarf_tag(d) == DW_TAG_union_type;
}

/* A struct (or union) or typedef named name, defined (not only
 * declared), in any unit of the module: 0, or -1. */
static int find_record(Dwfl_Module *mod, const char *name, int typedef_name,
		       Dwarf_Die *out)
{
	Dwarf_Die *cu = NULL, d;
	Dwarf_Addr bias;
	const char *n;
	int siblings;

	while ((cu = dwfl_module_nextcu(mod, cu, &bias))) {
		if (dwarf_child(cu, &d) != 0)
			continue;
		siblings = 0;
		do {
			if (!(n = dwarf_diename(&d)) || strcmp(n, name) != 0)
				continue;
			if (typedef_name && dwarf_tag(&d) == DW_TAG_typedef &&
			    type_of(&d, out) == 0 && is_record(out) &&
			    !dwarf_hasattr(out, DW_AT_declaration))
				return 0;
			if (!typedef_name && is_record(&d) &&
			    !dwarf_hasattr(&d, DW_AT_declaration)) {
				*out = d;
				return 0;
			}
		} while (next_sibling(&d, &siblings));
	}
	return -1;
}

/* Member name of record rec, at *offset past rec's start (anonymous
 * structs and unions looked into, at most MEMBER_MAX_NESTING deep: a
 * hostile binary's record can hold itself): 0 with its DIE, or -1. */
#define MEMBER_MAX_NESTING 16
static int find_member_in(Dwarf_Die *rec, const char *name, size_t len,
			  Dwarf_Word *offset, Dwarf_Die *out, int depth)
{
	Dwarf_Die m, inner;
	Dwarf_Attribute attr;
	Dwarf_Word off;
	const char *n;
	int siblings = 0;

	if (depth > MEMBER_MAX_NESTING || dwarf_child(rec, &m) != 0)
		return -1;
	do {
		if (dwarf_tag(&m) != DW_TAG_member)
			continue;
		off = 0;
		if (dwarf_attr_integrate(&m, DW_AT_data_member_location,
					 &attr) &&
		    dwarf_formudata(&attr, &off) != 0)
			continue; /* a location expression: not laid out here */
		n = dwarf_diename(&m);
		if (n && strlen(n) == len && strncmp(n, name, len) == 0) {
			*offset += off;
			*out = m;
			return 0;
		}
		if (!n && type_of(&m, &inner) == 0 && is_record(&inner) &&
		    find_member_in(&inner, name, len, &off, out, depth + 1) == 0) {
			*offset += off;
			return 0;
		}
	} while (next_sibling(&m, &siblings));
	return -1;
}

static int find_member(Dwarf_Die *rec, const char *name, size_t len,
		       Dwarf_Word *offset, Dwarf_Die *out)
{
	return find_member_in(rec, name, len, offset, out, 0);
}

/* "its members: a, b, c": the nearest to name first (a likely typo). */
static void say_members(struct buf *why, Dwarf_Die *rec, const char *name)
{
	Dwarf_Die m;
	const char *n;
	int k = 0, pass, siblings;

	if (dwarf_child(rec, &m) != 0)
		return;
	for (pass = 0; pass < 2; pass++) {
		Dwarf_Die it = m;

		siblings = 0;
		do {
			if (dwarf_tag(&it) != DW_TAG_member ||
			    !(n = dwarf_diename(&it)) ||
			    (likely_typo(name, n) != 0) != (pass == 0) ||
			    k >= 12)
				continue;
			buf_cat(why, k++ ? ", " : " (its members: ", n, NULL);
		} while (next_sibling(&it, &siblings));
	}
	if (k)
		buf_puts(why, k >= 12 ? ", ...)" : ")");
}

static int is_char(Dwarf_Die *t)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;

	return dwarf_tag(t) == DW_TAG_base_type && dwarf_bytesize(t) == 1 &&
	       dwarf_attr_integrate(t, DW_AT_encoding, &attr) &&
	       dwarf_formudata(&attr, &enc) == 0 &&
	       (enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char);
}

static int is_sockaddr(Dwarf_Die *t)
{
	const char *n = dwarf_diename(t);

	return dwarf_tag(t) == DW_TAG_structure_type && n &&
	       strncmp(n, "sockaddr", 8) == 0;
}

/* An enum: an integer of its size and sign, with its values' names. */
static int enum_read(Dwarf_Die *t, struct arg_read *m)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	Dwarf_Sword v;
	Dwarf_Die in, e;
	struct enum_value *values = NULL;
	int siblings = 0;

	m->kind = ARG_INTEGER;
	m->is_signed = type_of(t, &in) == 0 &&
		       dwarf_attr_integrate(&in, DW_AT_encoding, &attr) &&
		       dwarf_formudata(&attr, &enc) == 0 &&
		       enc == DW_ATE_signed;
	if (dwarf_child(t, &e) == 0)
		do {
			if (dwarf_tag(&e) != DW_TAG_enumerator ||
			    !dwarf_attr_integrate(&e, DW_AT_const_value,
						  &attr) ||
			    dwarf_formsdata(&attr, &v) != 0)
				continue;
			values = xrealloc(values, (size_t)(m->nvalues + 1) *
							  sizeof(*values));
			values[m->nvalues].name = xstrdup(
				dwarf_diename(&e) ? dwarf_diename(&e) : "?");
			values[m->nvalues++].value = v;
		} while (next_sibling(&e, &siblings));
	m->values = values;
	return m->size >= 1 && m->size <= 8 ? 0 : -1;
}

/* How the member of type t is read, into m: 0, or -1 after saying why. */
static int final_read(Dwarf_Die *t, struct arg_read *m, struct buf *why)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0, count = 0;
	Dwarf_Die in, e;
	int tag = dwarf_tag(t);

	m->size = dwarf_bytesize(t);
	if (tag == DW_TAG_base_type) {
		dwarf_attr_integrate(t, DW_AT_encoding, &attr);
		dwarf_formudata(&attr, &enc);
		if (enc == DW_ATE_float || m->size < 1 || m->size > 8) {
			buf_lit(why,
				"not readable: floating, or wider than 8 bytes");
			return -1;
		}
		m->kind = ARG_INTEGER;
		m->is_signed = enc == DW_ATE_signed ||
			       enc == DW_ATE_signed_char;
		return 0;
	}
	if (tag == DW_TAG_enumeration_type)
		return enum_read(t, m);
	if (tag == DW_TAG_pointer_type) {
		m->size = 8;
		if (type_of(t, &in) == 0 && is_char(&in)) {
			m->kind = ARG_STRING;
		} else if (type_of(t, &in) == 0 && is_sockaddr(&in) &&
			   m->nsteps < ARG_MAX_STEPS) {
			m->kind = ARG_SOCKADDR;
			m->offset[m->nsteps++] = 0; /* followed */
		} else {
			m->kind = ARG_POINTER;
		}
		return 0;
	}
	if (tag == DW_TAG_array_type && type_of(t, &in) == 0 && is_char(&in) &&
	    dwarf_child(t, &e) == 0) {
		if (dwarf_attr_integrate(&e, DW_AT_count, &attr))
			dwarf_formudata(&attr, &count);
		else if (dwarf_attr_integrate(&e, DW_AT_upper_bound, &attr) &&
			 dwarf_formudata(&attr, &count) == 0)
			count++;
		/* Its place is its value, as an array's is in C. */
		m->kind = ARG_TEXT;
		m->length_from = LENGTH_FIXED;
		m->size = (int)count;
		m->length = (unsigned)count;
		return count ? 0 : -1;
	}
	if (is_sockaddr(t)) {
		m->kind = ARG_SOCKADDR;
		return 0;
	}
	if (is_record(t)) {
		buf_lit(why, "a struct or union: show one of its members");
		say_members(why, t, "");
	} else {
		buf_lit(why, "a type no tracer reads");
	}
	return -1;
}

/* A plain char (text), not unsigned char (bytes), as the .d's types. */
static int is_text_char(Dwarf_Die *t)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;

	return is_char(t) && dwarf_attr_integrate(t, DW_AT_encoding, &attr) &&
	       dwarf_formudata(&attr, &enc) == 0 && enc == DW_ATE_signed_char;
}

/* The pointer member name of rec, ending expr, has a sibling member of
 * integer type that the names make its length (name_len, name_length,
 * name_size, namelen, the rule of the .d's arguments): m reads the
 * pointer's bytes as that member says, as text when they are chars. */
static void sibling_length(Dwarf_Die *rec, const char *name, Dwarf_Die *t,
			   struct arg_read *m)
{
	Dwarf_Word off = 0, loff;
	Dwarf_Die member, it, lt, in;
	Dwarf_Attribute attr;
	Dwarf_Word enc = 0;
	const char *n;
	int siblings = 0;

	if (find_member(rec, name, strlen(name), &off, &member) != 0 ||
	    dwarf_child(rec, &it) != 0)
		return;
	do {
		if (dwarf_tag(&it) != DW_TAG_member || !(n = dwarf_diename(&it)) ||
		    !names_length_of(name, n) || type_of(&it, &lt) != 0 ||
		    dwarf_tag(&lt) != DW_TAG_base_type ||
		    dwarf_bytesize(&lt) < 1 || dwarf_bytesize(&lt) > 8 ||
		    dwarf_hasattr(&it, DW_AT_bit_size))
			continue;
		loff = 0;
		if (dwarf_attr_integrate(&it, DW_AT_data_member_location,
					 &attr) &&
		    dwarf_formudata(&attr, &loff) != 0)
			continue;
		dwarf_attr_integrate(&lt, DW_AT_encoding, &attr);
		dwarf_formudata(&attr, &enc);
		m->kind = type_of(t, &in) == 0 && is_text_char(&in)
				  ? ARG_TEXT
				  : ARG_BYTES;
		m->length_from = LENGTH_SIBLING;
		m->length_delta = (int)((long long)loff - (long long)off);
		m->length_size = dwarf_bytesize(&lt);
		m->length_signed = enc == DW_ATE_signed ||
				   enc == DW_ATE_signed_char;
		return;
	} while (next_sibling(&it, &siblings));
}

/* The record an argument's declared type points to: its name (a tag,
 * or a typedef's name: *typedef_name), or NULL. */
static const char *pointee_name(const struct program *prog,
				const struct type *t, int *typedef_name)
{
	t = type_resolve(prog, t);
	if (t->kind != T_POINTER)
		return NULL;
	t = t->inner;
	*typedef_name = t->kind == T_NAMED;
	if (t->kind == T_NAMED || t->kind == T_STRUCT || t->kind == T_UNION)
		return t->name;
	return NULL;
}

/* One step of an expression: "->name" or ".name" at *rest, from the
 * record *rec (first: the argument's own) or the member type *t so far;
 * *t becomes the member's type.  0, or -1 after saying why. */
static int walk_one(const char *expr, const char **rest, int first,
		    Dwarf_Die *rec, Dwarf_Die *t, struct arg_read *m,
		    struct buf *why)
{
	int arrow = strncmp(*rest, "->", 2) == 0;
	const char *name = *rest + (arrow ? 2 : 1);
	Dwarf_Word off = 0;
	Dwarf_Die member;
	char *want;

	*rest = name + strcspn(name, "-.");
	if (arrow && !first) {
		/* The member so far is a pointer: follow it. */
		if (dwarf_tag(t) != DW_TAG_pointer_type ||
		    type_of(t, rec) != 0 || !is_record(rec)) {
			buf_printf(why, "'%.*s' is not a pointer to a struct",
				   (int)(name - 2 - expr), expr);
			return -1;
		}
		if (m->nsteps == ARG_MAX_STEPS) {
			buf_printf(why, "more than %d pointers to follow",
				   ARG_MAX_STEPS - 1);
			return -1;
		}
		m->offset[m->nsteps++] = 0;
	} else if (!arrow) {
		if (!is_record(t)) {
			buf_printf(why,
				   "'%.*s' is not a struct: write -> for a pointer",
				   (int)(name - 1 - expr), expr);
			return -1;
		}
		*rec = *t;
	}
	if (*rest == name || find_member(rec, name, (size_t)(*rest - name),
					 &off, &member) != 0) {
		const char *rn = dwarf_diename(rec);

		want = xstrndup(name, (size_t)(*rest - name));
		buf_printf(why, "%s%s has no member '%s'",
			   rn ? "struct " : "an unnamed struct", rn ? rn : "",
			   want);
		say_members(why, rec, want);
		free(want);
		return -1;
	}
	if (dwarf_hasattr(&member, DW_AT_bit_size)) {
		buf_printf(why, "'%.*s' is a bit-field: not read by itself",
			   (int)(*rest - name), name);
		return -1;
	}
	m->offset[m->nsteps - 1] += (unsigned)off;
	if (type_of(&member, t) != 0) {
		buf_lit(why, "a member of no type");
		return -1;
	}
	return 0;
}

/* The DWARF of the binary at path, and in it the record rec_name: 0, or
 * -1 after saying why (and how to get it). */
static int open_record(Dwfl *dwfl, const char *path, const char *rec_name,
		       int typedef_name, Dwarf_Die *rec, struct buf *why)
{
	Dwfl_Module *mod = dwfl ? dwfl_report_offline(dwfl, "", path, -1)
				: NULL;
	Dwarf_Addr bias;

	if (mod)
		dwfl_report_end(dwfl, NULL, NULL);
	if (!mod || !dwfl_module_getdwarf(mod, &bias)) {
		buf_printf(why,
			   "%s has no DWARF: build it with -g, or install its debug file (a -dbgsym package)",
			   path);
		return -1;
	}
	if (find_record(mod, rec_name, typedef_name, rec) != 0) {
		buf_printf(why,
			   "%s's DWARF does not describe %s%s: build it with -g, or install its debug file",
			   path, typedef_name ? "" : "struct ", rec_name);
		return -1;
	}
	return 0;
}

int member_resolve(const char *path, const struct program *prog,
		   const struct probe *pr, const char *expr,
		   struct arg_read *m, struct buf *why)
{
	Dwfl *dwfl = dwfl_begin(&offline);
	const struct param *p;
	const char *rest, *rec_name, *last;
	Dwarf_Die rec, t;
	int typedef_name = 0, rc = -1, i;

	*m = (struct arg_read){ .length_arg = -1 };
	if ((m->arg = expr_argument(pr, expr, &rest, why)) < 0)
		goto out;
	for (p = pr->native, i = 0; i < m->arg; i++)
		p = p->next;
	if (!(rec_name = pointee_name(prog, p->type, &typedef_name)) ||
	    strncmp(rest, "->", 2) != 0) {
		buf_printf(why,
			   "'%.*s' is not a pointer to a struct: write ARG->MEMBER",
			   (int)(rest - expr), expr);
		goto out;
	}
	if (open_record(dwfl, path, rec_name, typedef_name, &rec, why) != 0)
		goto out;
	m->nsteps = 1;
	for (i = 1; *rest; i = 0)
		if (walk_one(expr, &rest, i, &rec, &t, m, why) != 0)
			goto out;
	rc = final_read(&t, m, why);
	last = expr + strlen(expr);
	while (last > expr && last[-1] != '.' && last[-1] != '>')
		last--;
	if (rc == 0 && (m->kind == ARG_STRING || m->kind == ARG_POINTER))
		sibling_length(&rec, last, &t, m);
out:
	if (dwfl)
		dwfl_end(dwfl);
	if (rc != 0)
		arg_read_free(m);
	return rc;
}

#else

int member_resolve(const char *path, const struct program *prog,
		   const struct probe *pr, const char *expr,
		   struct arg_read *m, struct buf *why)
{
	(void)path;
	(void)prog;
	memset(m, 0, sizeof(*m));
	if (expr_argument(pr, expr, &expr, why) >= 0)
		buf_lit(why,
			"probegen was built without libdw: apt-get install libdw-dev, then make again");
	return -1;
}

#endif
