/*
 * compiler/model.h - the front end and the model: the tree the parser
 * builds, the program as a whole, what a type means on a target, and
 * the checker that judges it.
 */
#ifndef PROBEGEN_MODEL_H
#define PROBEGEN_MODEL_H

#include "probegen.h"
#include "reading.h"

/* ---- ast.c: the tree built by the parser ---- */

enum qual { Q_CONST = 1, Q_VOLATILE = 2, Q_RESTRICT = 4 };

/* Arithmetic and void base types, canonicalised from any spelling. */
enum base {
	B_NONE,
	B_VOID,
	B_BOOL,
	B_CHAR,
	B_SCHAR,
	B_UCHAR,
	B_SHORT,
	B_USHORT,
	B_INT,
	B_UINT,
	B_LONG,
	B_ULONG,
	B_LLONG,
	B_ULLONG,
	B_FLOAT,
	B_DOUBLE,
	B_LDOUBLE,
	B_COUNT
};
/* What each base type is, a row each (type.c); none from the order. */
struct base_type {
	const char *c_name; /* in C (the header spells _Bool PROBEGEN_BOOL) */
	int size32, size64; /* bytes on 32- and 64-bit targets; 0: none */
	int sign;	    /* 1 signed, 0 unsigned, -1 as the target's char */
	int is_float, is_integer; /* integer: a mode attribute resizes it */
};
extern const struct base_type base_types[B_COUNT];

enum type_kind {
	T_BASE,	  /* base */
	T_STRING, /* D's string: a NUL-terminated C string */
	T_NAMED,  /* a typedef name: from the file, D's, or the C side */
	T_STRUCT,
	T_UNION,
	T_ENUM,	   /* tag */
	T_POINTER, /* inner is the pointee */
	T_ARRAY,   /* inner is the element */
	T_FUNC,	   /* inner is the return type; params */
};

struct param;

/* Small on purpose: a big file has one or two of these per argument.
 * Unqualified builtin types are shared, so a type is never changed
 * once the parser has finished building it. */
struct type {
	enum type_kind kind;
	unsigned quals; /* enum qual, or'd */
	enum base base; /* T_BASE */
	int varargs;
	int d_type; /* T_NAMED: d_type_lookup(name) */
	char *name; /* tag or typedef name */
	/* T_NAMED: the file's typedef of that name, once found (the first
	 * of a name never changes): a chain is walked without hashing. */
	const struct type *typedef_type;
	struct type *inner;
	struct param *params;
};

struct param {
	struct param *next;
	struct type *type;
	char *name;	     /* NULL when unnamed */
	struct loc loc;	     /* its name's, else its type's */
	struct loc type_loc; /* where its type is written */
};

struct probe {
	struct probe *next;
	char *name;
	struct loc loc;
	char *doc; /* the comment right above it, as written; or NULL */
	struct param *native;
	int nnative;
	/* The argument mapping (`: (...)`): the native arguments, by name, in
	 * the order DTrace's args[] shows them; NULL when the probe has none. */
	struct param *mapping;
	int has_mapping, nmapping;
	int varargs; /* '...' seen: an error the checker reports */
	/* Generated names, made once by names_assign() (names.c), and the
	 * probe's place in the file (0, 1, ...). */
	const struct probe_names *names;
	int index;
	struct loc varargs_loc;
	struct provider *provider;
	struct loc doc_loc; /* where the doc comment's text starts */
	int doc_in_lines;   /* it is a run of // comments */
	/* What each native argument means beyond its type (meanings.c), an
	   entry each; NULL until meanings_assign(). */
	struct arg_meaning *meanings;
};

struct provider {
	struct provider *next;
	char *name;
	struct loc loc;
	struct probe *probes, *last; /* last: where the next block's go */
	int nprobes;
};

/* A typedef from the file: name -> type. */
struct typedef_decl {
	struct typedef_decl *next;
	char *name;
	struct type *type;
	struct loc loc;
};

/* A C declaration outside any provider that the parser could not read
 * (`typedef const static unsigned short x;`): skipped, as SystemTap's
 * fallback parser skips it, unless a probe uses the name it declares
 * (check.c says which). */
struct skipped_decl {
	struct skipped_decl *next;
	const char *name; /* the last identifier before its ';', or NULL */
	const char *why;  /* the parser's message */
	int ended;	  /* its ';' was reached: it can be skipped */
	int system;	  /* in a system header (-C): skipped unsaid */
	struct loc loc;	  /* where the parser stopped */
};

/* `#pragma D attributes NAME/DATA/CLASS provider P WHAT`: the stability
 * the file declares for one part (WHAT: provider, module, function,
 * name or args) of provider P. */
struct stability {
	struct stability *next;
	char *provider, *what, *attributes;
};

struct program {
	struct arena arena; /* owns every node and string of the tree */
	struct provider *providers;
	struct stability *stabilities; /* in file order */
	struct typedef_decl *typedefs;
	struct skipped_decl *skipped;  /* in file order */
	struct name_set typedef_names; /* the first of each name, for lookups */
	int nproviders, nprobes;
	int ntags; /* named struct and union types: forward-declared */
	/* check_program() has judged it.  A binary's program never is
	 * (binary_program): its names may be anything. */
	int checked;
};

#define for_each_provider(prog, pv) \
	for ((pv) = (prog)->providers; (pv); (pv) = (pv)->next)
#define for_each_probe(pv, pr) \
	for ((pr) = (pv)->probes; (pr); (pr) = (pr)->next)
#define for_each_param(list, p) for ((p) = (list); (p); (p) = (p)->next)

/* ---- program.c: the program as a whole ---- */

/* After parsing: drop a probe declared again with the same argument
 * types (as SystemTap's dtrace makes one probe of it; one declared
 * again with other types stays, for the checker to report), then give
 * every probe its names (names_assign). */
void program_complete(struct program *prog);
/* Keep the probes keep() says yes to; the number dropped. */
int program_keep_probes(struct program *prog,
			int (*keep)(const struct probe *pr, void *ctx),
			void *ctx);
/* Do probes a and b declare the same argument types? */
int probe_same_types(const struct program *prog, const struct probe *a,
		     const struct probe *b);
void program_free(struct program *prog);
/* The provider of that name, and the probe provider:name; NULL when the
 * program (which may be NULL) has none. */
const struct provider *program_provider(const struct program *prog,
					const char *name);
const struct probe *program_probe(const struct program *prog,
				  const char *provider, const char *name);

/* ---- parse.c: the scanner and parser driver (grammar side: parse.h) ---- */

struct parse_options {
	int preprocessed; /* input came from cpp: '#' lines are its markers */
	/* What is written spells no argument type (-G): a macro read as
	   a type name without -C changes nothing, and is not said. */
	int types_unused;
};
/* Parse a parameter list alone, "(int a, char *b)" (len bytes and two
 * NULs, as parse_text takes), into prog's arena, saying nothing: a probe
 * with no name holding the parameters, or NULL when the text is not one.
 * Nothing else of prog changes.  For the declarations binaries record. */
const struct probe *parse_params(struct program *prog, char *text, size_t len);
/* Parse text of len bytes, which must be followed by two NUL bytes
 * (input_read() leaves them): the scanner reads it in place.  Its
 * declarations join those of into, or of a new program when into is
 * NULL; a provider declared again gains the new block's probes.  Returns
 * the program, never NULL; errors are counted in diag.  Once every file
 * is parsed, program_complete() makes it ready for the checker. */
struct program *parse_text(struct program *into, const char *file, char *text,
			   size_t len, const struct parse_options *opt);

/* ---- pairs.c: start/done pairs of probes ---- */

struct pair {
	struct pair *next;
	const struct probe *start, *end;
	char *stem; /* the work: "query" of query__start/query__done */
	char *arg;  /* --pair's ARG: matched by value across threads */
	/* its index in each probe; -1: per thread; PAIR_BY_MEMBER: ARG is
	   a member expression on an argument of both ("conn->id"), which
	   the tracer lays out from the binary's DWARF */
	int start_arg, end_arg;
	int by_name;		/* found by pairs_of, not named by --pair */
};
#define PAIR_BY_MEMBER (-2)
/* The pairs prog's probe names give (NULL-safe); free with pairs_free. */
struct pair *pairs_of(const struct program *prog);
/* --pair P:START,P:END[,ARG] against prog: NULL and *out, or a message
 * (to free) saying what is wrong. */
char *pair_parse(const struct program *prog, const char *spec,
		 struct pair **out);
void pairs_free(struct pair *list);

/* ---- type.c: what a type means on a target ---- */

struct target;
/* What a tracer can read of a value of this type. */
struct type_info {
	int size; /* bytes on the target; 0 when not a scalar or unknown */
	int is_signed, is_float, is_struct, is_pointer;
};
/* D's predefined type names (int64_t; string is a keyword): an index
 * for struct type's d_type, or -1. */
int d_type_lookup(const char *name);
/* The name of D's type index, or NULL past the last: for suggestions. */
const char *d_type_name(int index);
/* How C spells D's predefined type of that index. */
const char *d_type_c(int index);
/* D's fixed-width integer of size bytes (8 for any other size) and that
 * sign: "int32_t". */
const char *d_type_sized(int size, int is_signed);
/* Does t hold long long or _Bool (a cast to it needs __extension__ in
 * C90)?  Is a comma part of its spelling (several parameters of a
 * function type)? */
int type_needs_extension(const struct program *prog, const struct type *t);
int type_spelled_with_comma(const struct program *prog, const struct type *t);
/* The file's typedef of that name, or NULL. */
const struct type *file_typedef(const struct program *prog, const char *name);
/* The same for the name T_NAMED t gives, remembered in t. */
const struct type *named_typedef(const struct program *prog,
				 const struct type *t);
/* Follow the file's own typedefs down to the type they name. */
const struct type *type_resolve(const struct program *prog,
				const struct type *t);
struct type_info type_info(const struct program *prog, const struct type *t,
			   const struct target *tg);
/* Pointers, arrays and functions in t, typedefs followed; counted up
 * to MAX_TYPE_DEPTH + 1. */
int type_depth(const struct program *prog, const struct type *t);
/* Can the header spell t without the user's own headers? */
int type_spellable(const struct program *prog, const struct type *t);
/* What the chars t points to are, the one rule: char and signed char
 * (and D's string) are text; unsigned char (uint8_t) holds bytes, shown
 * in hex when a length is given (a token, a hash), though without one
 * it is still read to its NUL, as a C string. */
enum char_kind { CHARS_NONE, CHARS_TEXT, CHARS_BYTES };
enum char_kind type_char_kind(const struct type *t);
/* char * of any sign or constness, or D's string: a C string
 * (type_char_kind's text or bytes). */
int type_is_string(const struct type *t);

/* ---- check.c: judge the program; prints diagnostics, writes nothing ---- */

/* readability: warn of arguments no tracer reads (where the sites are
 * written or read: -h, --rust, --docs, --bpftrace; not -G, whose object
 * holds no site, so that a build hears it once). */
void check_program(struct program *prog, const struct target *tg,
		   int readability);
/* The checker's verdict on one probe's arguments, without a word: their
 * count, each type's depth, no void, no '...', no mapping.  A binary's
 * recorded declaration is used only when this accepts it. */
int check_arguments_ok(const struct program *prog, const struct probe *pr);

#endif
