/*
 * probegen.h - what every part of probegen shares, sectioned by the file
 * that implements each part.  Data flows in one direction:
 *
 *   input.c (read, cpp) -> parse.c + grammar/ (AST) -> check.c (judge)
 *   -> emit_header.c, emit_object.c, emit_rust.c, emit_bpftrace.c,
 *      emit_docs.c (one format each, written through output.c)
 *
 * Two wings read binaries instead of .d files, each with its own header:
 * the inspector (src/inspect/inspect.h: --list, --check, and the reader
 * every other part uses) and the tracer (src/trace/tracer.h: --trace).
 */
#ifndef PROBEGEN_H
#define PROBEGEN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define PROBEGEN_VERSION "0.1.0"

/* The limits of sys/sdt.h, libbpf and DTrace. */
#define MAX_PROBE_ARGS 12
#define MAX_NAME_LEN 63
/* Debian 12's bpftrace 0.17 reads arg0..arg5 of a USDT probe on x86-64. */
#define BPFTRACE_MAX_ARGS 6
/* Pointers, arrays and functions within one argument's type. */
#define MAX_TYPE_DEPTH 32

/* Exit status, as listed in the man page. */
enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_SYSTEM = 2 };

/* ---- util.c: memory and strings; allocation never returns NULL ---- */

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
/* The number of elements of array a. */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void *xrealloc(void *p, size_t n);
/* Room for one more element past count (elements of size bytes) in an
 * array grown one at a time: doubled when needed, so that n appends copy
 * O(n) bytes, not O(n^2) (an array only xgrow sizes). */
void *xgrow(void *p, size_t count, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
_Noreturn void die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* A growable byte buffer. */
struct buf {
	char *data;
	size_t len, cap;
};
/* Make room for more bytes and the NUL that always follows the text. */
void buf_reserve(struct buf *b, size_t more);

/* Inline: emitters append a few bytes at a time, millions of times. */
/* Adding nothing is valid whatever p is (an empty buffer's data is
 * NULL, and callers pass one on), where memcpy's is not. */
static inline void buf_add(struct buf *b, const void *p, size_t n)
{
	if (b->len + n + 1 > b->cap)
		buf_reserve(b, n);
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

static inline void buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

/* A string literal, its length known at compile time. */
#define buf_lit(b, s) buf_add((b), "" s, sizeof(s) - 1)

void buf_vprintf(struct buf *b, const char *fmt, va_list ap);
void buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void buf_cat(struct buf *b, ...) __attribute__((sentinel));
void buf_free(struct buf *b);
size_t hash_bytes(const void *p, size_t n);

/* Text that came from outside (a binary's notes, a traced program's
 * memory), made safe to print: quotes and backslashes escaped, \n and
 * \t, other control bytes as \u00XX (JSON) or \xNN (text), valid UTF-8
 * kept, any other byte as \ufffd (JSON: the replacement character) or
 * \xNN (text).  The one escaper of every output.  escape_to writes at
 * most ESCAPED_MAX(n) bytes at out and returns their end; buf_escaped
 * appends to b. */
#define ESCAPED_MAX(n) (6 * (n))

/* s split into words as a POSIX shell splits them (blanks; single and
 * double quotes; backslash), with no expansion of any kind: a NULL-
 * terminated argv to free with words_free(), or NULL and *error (to
 * free) when a quote is left open or there is no word. */
char **split_words(const char *s, char **error);
void words_free(char **argv);
char *escape_to(char *out, const char *s, size_t n, int json);
void buf_escaped(struct buf *b, const char *s, size_t n, int json);
/* s, NUL-terminated, as a quoted JSON string. */
void buf_json_string(struct buf *b, const char *s);

/* A set of names, to find duplicates in linear time; each name has an
 * owner (the node that added it), and is kept by the caller while the
 * set lives. */
struct name_entry {
	const char *name; /* NULL: a free slot */
	const void *owner;
};
struct name_set {
	struct name_entry *slots;
	size_t cap, count;
};
/* Room for n names. */
void name_set_init(struct name_set *set, size_t n);
/* Add name of len bytes; return whoever already owns it, if anyone. */
const void *name_set_add(struct name_set *set, const char *name, size_t len,
			 const void *owner);
/* The owner of name, or NULL. */
const void *name_set_find(const struct name_set *set, const char *name);
void name_set_free(struct name_set *set);

/* Memory that lives as long as the tree: allocations are zeroed, and
 * all of it goes with arena_free(). */
struct arena_chunk;
struct arena {
	struct arena_chunk *chunks;
	char *next, *end;
	size_t expect; /* bytes it will likely hold: see arena_expect() */
};
void *arena_alloc(struct arena *a, size_t n);
/* Say how much the arena will likely hold, before the first allocation:
 * a small arena takes one malloc'd chunk, a big one huge pages. */
void arena_expect(struct arena *a, size_t n);
char *arena_strndup(struct arena *a, const char *s, size_t n);
void arena_free(struct arena *a);

/* ---- diag.c: file:line:col diagnostics with source line and caret ---- */

struct loc {
	const char *file; /* interned by diag_intern(); never freed early */
	int line, col;
};

struct diag {
	FILE *stream; /* where messages go; NULL: stderr */
	const char *progname;
	int errors; /* in the input: each makes the run fail with EXIT_INPUT */
	int warnings; /* in the input: past 50, counted and not shown */
	int no_warnings;     /* -w: none shown */
	int warnings_are_errors; /* -Werror: each is an error */
};
extern struct diag diag;

const char *diag_intern(const char *file);
/* Remember (a copy of) the main input so carets can quote it. */
void diag_add_source(const char *file, const char *text, size_t len);
void error_at(struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void warning_at(struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void note_at(struct loc loc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void verror_at(struct loc loc, const char *fmt, va_list ap);
void vwarning_at(struct loc loc, const char *fmt, va_list ap);
void vnote_at(struct loc loc, const char *fmt, va_list ap);
/* Errors without a source position: the environment (not counted in
 * diag.errors), or an input error found outside the source (counted). */
void error_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warning_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* What a command is doing ("probegen: tracing 3 probes"), on stderr. */
void info_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void error_input(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A command line probegen cannot run, with a pointer to --help. */
void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_free(void);

/* ---- ast.c: the tree built by the parser ---- */

enum qual { Q_CONST = 1, Q_VOLATILE = 2, Q_RESTRICT = 4 };

/* Arithmetic and void base types, canonicalised from any spelling. */
enum base {
	B_NONE, B_VOID, B_BOOL,
	B_CHAR, B_SCHAR, B_UCHAR, B_SHORT, B_USHORT, B_INT, B_UINT,
	B_LONG, B_ULONG, B_LLONG, B_ULLONG,
	B_FLOAT, B_DOUBLE, B_LDOUBLE,
};

enum type_kind {
	T_BASE,    /* base */
	T_STRING,  /* D's string: a NUL-terminated C string */
	T_NAMED,   /* a typedef name: from the file, D's, or the C side */
	T_STRUCT, T_UNION, T_ENUM, /* tag */
	T_POINTER, /* inner is the pointee */
	T_ARRAY,   /* inner is the element */
	T_FUNC,    /* inner is the return type; params */
};

struct param;

/* Small on purpose: a big file has one or two of these per argument.
 * Unqualified builtin types are shared, so a type is never changed
 * once the parser has finished building it. */
struct type {
	unsigned char kind;  /* enum type_kind */
	unsigned char quals; /* enum qual */
	unsigned char base;  /* enum base, for T_BASE */
	unsigned char varargs;
	short d_type;        /* T_NAMED: d_type_lookup(name) */
	char *name;          /* tag or typedef name */
	/* T_NAMED: the file's typedef of that name, once found (the first
	 * of a name never changes): a chain is walked without hashing. */
	const struct type *typedef_type;
	struct type *inner;
	struct param *params;
};

struct param {
	struct param *next;
	struct type *type;
	char *name; /* NULL when unnamed */
	struct loc loc;
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
	struct name_set typedef_names; /* the first of each name, for lookups */
	int nproviders, nprobes;
	int ntags; /* named struct and union types: forward-declared */
	/* check_program() has judged it.  A binary's program never is
	 * (binary_program): its names may be anything. */
	int checked;
};

#define for_each_provider(prog, pv) \
	for ((pv) = (prog)->providers; (pv); (pv) = (pv)->next)
#define for_each_probe(pv, pr) for ((pr) = (pv)->probes; (pr); (pr) = (pr)->next)
#define for_each_param(list, p) for ((p) = (list); (p); (p) = (p)->next)

/* ---- program.c: the program as a whole ---- */

/* After parsing: drop a probe declared again with the same argument
 * types (as SystemTap's dtrace makes one probe of it; one declared
 * again with other types stays, for the checker to report), then give
 * every probe its names (names_assign). */
void program_complete(struct program *prog);
/* Keep the probes keep() says yes to; the number dropped. */
int program_keep_probes(struct program *prog,
			int (*keep)(const struct probe *pr, void *ctx), void *ctx);
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
struct program *parse_text(struct program *into, const char *file,
			   char *text, size_t len,
			   const struct parse_options *opt);

/* ---- pairs.c: start/done pairs of probes ---- */

struct pair {
	struct pair *next;
	const struct probe *start, *end;
	char *stem;         /* the work: "query" of query__start/query__done */
	char *arg;          /* --pair's ARG: matched by value across threads */
	int start_arg, end_arg; /* its index in each probe; -1: per thread */
};
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
/* How C spells D's predefined type of that index. */
const char *d_type_c(int index);
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
/* char * of any sign or constness, or D's string: a C string. */
int type_is_string(const struct type *t);

/* How a tracer reads an argument of a type: the one answer --bpftrace,
 * --docs, --list, --check and --trace all give.  Tracers read integers
 * and pointers of 1 to 8 bytes, and C strings through their pointers. */
enum read_how {
	READ_INTEGER,  /* size bytes, is_signed */
	READ_POINTER,  /* an address */
	READ_STRING,   /* the bytes it points to, to a NUL */
	READ_AS_NOTED, /* a type of the user's headers: as the note records */
	READ_FLOAT, READ_BY_VALUE, READ_TOO_WIDE, /* not readable */
};
struct tracer_read {
	enum read_how how;
	int size, is_signed;
};
struct tracer_read type_tracer_read(const struct program *prog,
				    const struct type *t,
				    const struct target *tg);
/* Why a tracer cannot read it ("floating", "passed by value", "wider
 * than 8 bytes"), or NULL when it can. */
const char *tracer_read_unreadable(const struct tracer_read *r);

/* ---- spell.c: how a type is written (C, D, Rust) ---- */

/* Append the C declaration of `name` (may be "") with type t: with
 * const_pointee, pointees of one-level pointers gain const; the file's
 * typedefs are expanded; D types are spelled with the compiler's
 * predefined macros. */
void type_print_c(struct buf *b, const struct program *prog,
		  const struct type *t, const char *name, int const_pointee);
/* "struct foo;" for every tag the probes' arguments point to, so the
 * typed calls name the user's types, not parameter-scoped ones. */
void type_forward_declarations(struct buf *b, const struct program *prog);
/* The type as written in the .d file, for comments and messages. */
void type_print_d(struct buf *b, const struct type *t, const char *name);
/* "(int id, char const *path)": a parameter list as the .d declares it. */
void params_print_d(struct buf *b, const struct param *list);
/* "myapp:request__start(int id, char const *path)": the probe's native
 * declaration, as the .d spells it (comments, banners). */
void probe_declaration(struct buf *b, const struct probe *pr);
/* The same with the file's typedefs expanded, as the declaration note
 * records it (see DECL_NOTE_*): a binary's reader sees no typedef of
 * the .d, so `const_uint8_p` is recorded as `uint8_t const *`. */
void probe_declaration_recorded(struct buf *b, const struct program *prog,
				const struct probe *pr);
/* The doc comment above a probe, its decoration taken off. */
void probe_doc_text(struct buf *b, const char *doc);

/* The declaration note: what -G, --rust and --header-only record in the
 * linked binary so that it describes its own probes (man probegen(1),
 * "DECLARATION NOTES").  One ELF note per probe in the non-allocated
 * section .note.probegen: owner "probegen", type DECL_NOTE_TYPE (the
 * format's version), descriptor probe_declaration() and a NUL. */
#include "header/decl_note.h"
#define DECL_NOTE_SECTION PROBEGEN_NOTE_SECTION
#define DECL_NOTE_OWNER PROBEGEN_NOTE_OWNER
#define DECL_NOTE_TYPE PROBEGEN_NOTE_TYPE
_Static_assert(sizeof(DECL_NOTE_OWNER) == PROBEGEN_NOTE_NAMESZ,
	       "decl_note.h: PROBEGEN_NOTE_NAMESZ is the owner's size");

enum rust_kind { R_INT, R_BOOL, R_FLOAT, R_POINTER, R_STRING };
struct rust_type {
	enum rust_kind kind;
	const char *name; /* the Rust parameter type */
	int is_signed;    /* for widening: i64 or u64 */
};
struct rust_type type_rust(const struct program *prog, const struct type *t,
			   const struct target *tg);

/* ---- names.c: every generated name, in one place ---- */

struct probe_names {
	char *macro;     /* MYAPP_REQUEST_START */
	char *enabled;   /* MYAPP_REQUEST_START_ENABLED */
	char *lazy;      /* MYAPP_REQUEST_START_LAZY */
	char *typed;     /* trace_myapp_request_start */
	char *semaphore; /* myapp_request__start_semaphore */
	size_t macro_len, enabled_len, lazy_len, typed_len, semaphore_len;
};
/* Work out every probe's names, once, after parsing: the checker and
 * the emitters read them from probe->names. */
void names_assign(struct program *prog);
char *name_guard(const char *output_path);      /* _MYAPP_H */
/* request__start_semaphore: STAP_SDT_V1's name, without the provider. */
char *name_semaphore_v1(const struct probe *pr);
char *name_rust_fn(const struct probe *pr);     /* request_start */
/* [A-Za-z_][A-Za-z0-9_]*: a name a .d file, bpftrace or C can spell.
 * A binary's provider and probe names may be anything else. */
int name_is_identifier(const char *s);
/* An argument's name in scripts, docs, listings and traces: as
 * declared, argN when unnamed, value_2 for a second "value". */
void arg_display_name(struct buf *b, const struct probe *pr, int index);
char *name_rust_semaphore(const struct probe *pr); /* REQUEST_START_SEMAPHORE */

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

/* ---- target.c: ELF class, byte order, machine by target name ---- */

struct target {
	const char *name;    /* canonical: x86_64, aarch64, ... */
	int elfclass;        /* ELFCLASS32 / ELFCLASS64 */
	int data;            /* ELFDATA2LSB / ELFDATA2MSB */
	int machine;         /* EM_* */
	unsigned flags;      /* e_flags */
	int char_signed;
	unsigned page;       /* the largest page its kernels use (ld's max-page-size) */
};
const struct target *target_by_name(const char *name);
const struct target *target_host(void);
/* The other class of the same family (for -32/-64), or NULL. */
const struct target *target_with_class(const struct target *tg, int bits);
/* The target of an ELF header's class, data and machine, or NULL. */
const struct target *target_of_elf_header(int elfclass, int data, int machine);
/* Read class, data, machine and flags from an ELF file; 0 on success. */
int target_from_elf(const char *path, struct target *out);
void target_list(FILE *f);

/* The target of -G: by name, else that of the ELF objects among
 * objects (which must agree), else the one the compiler cc with cflags
 * builds for (SystemTap's -G runs $CC $CFLAGS; either may be NULL),
 * else the host's; then bits (32, 64, or 0 for either).  *chosen may
 * point into *scratch. */
enum target_error {
	TARGET_OK,
	TARGET_UNKNOWN,    /* no target of that name */
	TARGET_MIXED,      /* objects for two targets: culprits[0], [1] */
	TARGET_NO_VARIANT, /* the target has no member of that class */
};
enum target_error target_choose(const char *name, int bits,
				const char *const *objects, int nobjects,
				const char *cc, const char *cflags,
				struct target *scratch,
				const struct target **chosen,
				const char *culprits[2]);

/* ---- output.c: atomic output ---- */

/* A file being written: emitters append to buf and call output_flush(),
 * which writes it out once it is big. */
struct output {
	struct buf buf;
	const char *path, *dest;
	char *tmp, *real; /* the temporary; the symlink's target */
	int fd, in_place, failed;
};
/* Each returns 0, or prints the reason and returns -1. */
int output_open(struct output *o, const char *path);
void output_flush(struct output *o);
/* Append the whole content of file fd (read from its start). */
int output_copy_fd(struct output *o, int fd);
/* Write the rest and rename the temporary over the destination. */
int output_commit(struct output *o);
/* Give up: remove the temporary; the destination is untouched. */
void output_abort(struct output *o);

/* ---- input.c: reading the provider file, optionally through cpp ---- */

struct cpp_options {
	int enabled;
	char **args;  /* -I/-D/-U arguments to pass on */
	int nargs;
};
/* Read the provider file: *text is malloc'd, *len bytes followed by two
 * NULs.  *regular: the text is the file's, which can be read again to
 * quote it in diagnostics.  Returns EXIT_OK, or EXIT_INPUT / EXIT_SYSTEM
 * after reporting why. */
int input_read(const char *path, const struct cpp_options *cpp, char **text,
	       size_t *len, int *regular);

/* ---- defines.c: what the -D and -U flags of dtrace -G mean ---- */

/* The STAP_SDT version the -D/-U flags (cpp.args, in order) leave
 * defined for -G: 1, 2, or 0 for neither.  With warn, names each flag
 * SystemTap's compiler would see differently and probegen ignores. */
int defines_sdt_version(const struct cpp_options *cpp, int warn);

/* ---- emit_*.c: the output formats, one file each ---- */

/* What an emitter may need besides the checked program. */
struct emit_options {
	const char *input_name;  /* the .d file's base name, for banners */
	const char *output_name; /* the output's path, for the include guard */
	const struct target *target;
	int header_only;         /* -h: define the semaphores in the header */
	int self_contained;      /* -h: write the notes without sys/sdt.h */
	int summary;             /* --bpftrace: counts and pair latencies */
	/* --bpftrace: the script is for these binaries (their probes
	 * only), each a shared library when for_library; from -s files
	 * alone when NULL. */
	const char *for_binaries;
	int for_library;
	/* -G: STAP_SDT_V1 or STAP_SDT_V2 among the -D flags (1 or 2), else
	 * 0.  Either gives the semaphores default visibility, so that a
	 * module's probes can use its executable's; V1 also drops the
	 * provider from their names.  As SystemTap's dtrace -G does. */
	int sdt_version;
};
/* Write prog to out.  Returns 0, or -1 after reporting why (out is then
 * aborted by the caller). */
typedef int emit_fn(struct output *out, const struct program *prog,
		    const struct emit_options *opt);
emit_fn emit_header; /* -h: the C header */
emit_fn emit_object; /* -G: the ELF object with the semaphores */
emit_fn emit_rust;   /* --rust: the Rust module for build.rs */
emit_fn emit_bpftrace; /* --bpftrace: a bpftrace script */
emit_fn emit_docs;   /* --docs: a Markdown reference */


/* ---- options.c: the command line, checked against the table of modes
 * (main.c) ---- */

/* Groups of options, each taken by some modes. */
enum {
	O_OUTPUT = 1 << 0,  /* -o FILE */
	O_CPP = 1 << 1,     /* -C, -I, -D, -U */
	O_TARGET = 1 << 2,  /* --target, -32, -64 */
	O_HEADER = 1 << 3,  /* --header-only, --self-contained */
	O_JSON = 1 << 4,    /* --json */
	O_CHECK = 1 << 5,   /* --strict, --allow-missing */
	O_TRACE = 1 << 6,   /* -c, -p, -n, --limit, --duration, --pair,
			       --expect-all, -- CMD */
	O_FILES = 1 << 7,   /* -s given more than once */
	O_SUMMARY = 1 << 8, /* --summary */
	O_GROUPS = 9
};

/* What a mode reads besides its options. */
enum reads {
	READS_NOTHING,     /* --list-targets */
	READS_D,           /* a .d file (-s or the first operand); then, for
			      -G, objects that choose the target */
	READS_D_OR_BINARY, /* .d files, or one binary's recorded declarations */
	READS_D_BINARIES,  /* .d files, then binaries */
	READS_BINARIES,    /* binaries */
	READS_TRACEES,     /* binaries, -c or -p; -s files declare types */
};

struct options;

/* One thing probegen can do, chosen by its option. */
struct mode {
	const char *option;
	enum reads reads;
	unsigned takes;         /* O_* groups it accepts */
	const char *extension;  /* of the default output name */
	emit_fn *emit;          /* compile .d files into one output */
	int (*command)(const struct options *o); /* or run this instead */
};

struct options {
	const struct mode *mode;
	const char *option_of[O_GROUPS]; /* the first option given of each */
	unsigned given;
	const char **files;     /* -s FILE, in order */
	int nfiles;
	const char **operands;  /* the rest, in order */
	int noperands;
	const char *output, *target;
	int bits; /* -32 / -64, 0 when not given */
	int header_only, self_contained, json, strict, allow_missing, sites;
	int summary, expect_all;
	const char *timeline;
	double duration;
	const char **pair_specs;
	int npair_specs;
	char **command;         /* -c 'CMD ARGS' split, or -- CMD ARGS */
	int command_split;      /* command is ours to free */
	int trace_pid;
	long long limit;
	const char **filters;
	int nfilters;
	struct cpp_options cpp;
};

/* Parse argv against modes[nmodes]: -1 to go on with o->mode, else the
 * exit status (after --help or --version, or a usage error it reported).
 * Free o with options_free() either way. */
int options_parse(int argc, char **argv, const struct mode *modes,
		  size_t nmodes, struct options *o);
void options_free(struct options *o);
/* The .d files: the -s files, else the first operand; and the operands
 * after them: objects (-G) or binaries (--check). */
const char *const *options_d_files(const struct options *o, int *n);
const char *const *options_after_d_files(const struct options *o, int *n);

/* ---- trace/trace.c (or trace/trace_none.c): --trace ---- */

struct trace_options {
	char *const *command;             /* -c or -- CMD ARGS: its argv, or NULL */
	int pid;                          /* -p PID, or 0 */
	const char *const *binaries;      /* BINARY operands */
	int nbinaries;
	const char *const *filters;       /* -n PROVIDER:NAME patterns */
	int nfilters;
	const struct program *declarations; /* -s FILE.d, or NULL */
	long long limit;                  /* --limit N, or 0 */
	double duration;                  /* --duration SECONDS, or 0 */
	int json;
	int summary;      /* --summary: counts and pair latencies at the end */
	int expect_all;   /* --expect-all: exit 1 if a probe never fired */
	const char *timeline;             /* --timeline FILE.json, or NULL */
	const char *const *pair_specs;    /* --pair P:START,P:END[,ARG] */
	int npair_specs;
};
/* Trace until the command or process ends, --limit, or a signal;
 * returns the exit status. */
int trace_run(const struct trace_options *opt);

#endif
