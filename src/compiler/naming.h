/*
 * compiler/naming.h - how a type is written in C, D and Rust (spell.c), and every
 * name probegen generates, worked out once per probe (names.c): what the
 * checker compares for collisions and the emitters write.
 */
#ifndef PROBEGEN_NAMING_H
#define PROBEGEN_NAMING_H

#include "model.h"

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
 * the .d, so `const_uint8_p` is recorded as `uint8_t const *`; then the
 * probe's @length and @enum tags, if it has any.  Returns the note's
 * type: DECL_NOTE_TYPE, or DECL_NOTE_TYPE_TAGGED with tags. */
int probe_declaration_recorded(struct buf *b, const struct program *prog,
			       const struct probe *pr);
/* The doc comment above a probe, its decoration and tags taken off. */
void probe_doc_text(struct buf *b, const struct probe *pr);

/* The declaration note: what -G, --rust and --header-only record in the
 * linked binary so that it describes its own probes (man probegen(1),
 * "DECLARATION NOTES").  One ELF note per probe in the non-allocated
 * section .note.probegen: owner "probegen", type DECL_NOTE_TYPE (the
 * format's version), descriptor probe_declaration() and a NUL. */
#include "header/decl_note.h"
#define DECL_NOTE_SECTION PROBEGEN_NOTE_SECTION
#define DECL_NOTE_OWNER PROBEGEN_NOTE_OWNER
#define DECL_NOTE_TYPE PROBEGEN_NOTE_TYPE
#define DECL_NOTE_TYPE_TAGGED PROBEGEN_NOTE_TYPE_TAGGED
_Static_assert(sizeof(DECL_NOTE_OWNER) == PROBEGEN_NOTE_NAMESZ,
	       "decl_note.h: PROBEGEN_NOTE_NAMESZ is the owner's size");

enum rust_kind { R_INT, R_BOOL, R_FLOAT, R_POINTER, R_STRING };
struct rust_type {
	enum rust_kind kind;
	const char *name; /* the Rust parameter type */
	int is_signed;	  /* for widening: i64 or u64 */
};
struct rust_type type_rust(const struct program *prog, const struct type *t,
			   const struct target *tg);

/* ---- names.c: every generated name, in one place ---- */

struct probe_names {
	char *macro;	 /* MYAPP_REQUEST_START */
	char *enabled;	 /* MYAPP_REQUEST_START_ENABLED */
	char *lazy;	 /* MYAPP_REQUEST_START_LAZY */
	char *typed;	 /* trace_myapp_request_start */
	char *semaphore; /* myapp_request__start_semaphore */
	size_t macro_len, enabled_len, lazy_len, typed_len, semaphore_len;
};
/* Work out every probe's names, once, after parsing: the checker and
 * the emitters read them from probe->names. */
void names_assign(struct program *prog);
char *name_guard(const char *output_path); /* _MYAPP_H */
/* request__start_semaphore: STAP_SDT_V1's name, without the provider. */
char *name_semaphore_v1(const struct probe *pr);
char *name_rust_fn(const struct probe *pr); /* request_start */
/* [A-Za-z_][A-Za-z0-9_]*: a name a .d file, bpftrace or C can spell.
 * A binary's provider and probe names may be anything else. */
int name_is_identifier(const char *s);
/* An argument's name in scripts, docs, listings and traces: as
 * declared, argN when unnamed, value_2 for a second "value". */
void arg_display_name(struct buf *b, const struct probe *pr, int index);
/* The native argument of pr named name (len bytes): its index, or -1. */
int probe_param_index(const struct probe *pr, const char *name, size_t len);
char *name_rust_semaphore(const struct probe *pr); /* REQUEST_START_SEMAPHORE */

#endif
