/*
 * compiler/reading.h - how a tracer reads each argument of a probe: by
 * its type (type.c) and by what the probe says it means (meanings.c: a
 * pointer with its length, a socket address, the names of an enum's
 * values).  The one answer --trace, --bpftrace, --docs, --rust, --list
 * and --check all give.  model.h includes it; nothing else need.
 */
#ifndef PROBEGEN_READING_H
#define PROBEGEN_READING_H

#include "arg_read.h"

struct program;
struct probe;
struct type;
struct target;
struct buf;

/* By the type alone. */
struct arg_read type_arg_read(const struct program *prog,
				    const struct type *t,
				    const struct target *tg);
/* Native argument i of pr, by its type and its meaning. */
struct arg_read decl_arg_read(const struct program *prog,
				   const struct probe *pr, int i,
				   const struct target *tg);

/* ---- meanings.c ---- */

/* What an argument means beyond its type: said by the probe's doc
 * comment (@length, @enum) or inferred from the names (a pointer X
 * followed by an integer X_len, X_length, X_size or Xlen) and the type
 * (struct sockaddr and its kin). */
struct arg_meaning {
	int length_arg;	 /* the argument holding its length, or -1 */
	unsigned length; /* or a fixed length; 0: none */
	int reversed;
	int no_length;		   /* @length ARG none */
	int length_said;	   /* by @length, not inferred from the names */
	int sockaddr;		   /* a socket address, by its type */
	/* Bit k: tag row k of meanings.c, a tag of one argument alone,
	   said of it (@function: a pointer to code; @fields: key=value
	   text) */
	unsigned said_alone;
	struct enum_value *values; /* @enum */
	int nvalues;
};
/* Is name (X_len, X_length, X_size or Xlen) a name of x's length?  The
 * one rule, for arguments and for struct members alike. */
int names_length_of(const char *x, const char *name);
/* Read the @length and @enum tags of every probe's doc comment and
 * infer the rest: errors at their file, line and column (none when
 * quiet: a binary's recorded tags, which its reader warns of). */
void meanings_assign(struct program *prog, int quiet);
/* The word of tag row k (@length, ...), or NULL past the last. */
const char *meaning_tag_word(size_t k);
/* Is this line of a doc comment (its decoration taken off) a tag of
 * probegen's, which --docs and --rust show by its meaning? */
int meaning_tag_line(const char *line, size_t len);
/* Where a tag of pr's starts on the doc line p..end that does not start
 * with one: after text, as Doxygen allows ("A block. @length hash 32"),
 * when the word after @length or @enum names one of pr's arguments;
 * else end. */
const char *meaning_tag_after_text(const struct probe *pr, const char *p,
				   const char *end);
/* The tags said of pr, one per line, as a doc comment would say them
 * (the declaration note records them); nothing when none. */
void meanings_tags(struct buf *b, const struct probe *pr);
/* What argument i means beyond its type, and who said so: "a string of
 * value_len bytes (by its name)", "32 bytes in hex, last byte first
 * (said)"; 0 (nothing written) when only its type. */
int meaning_text(struct buf *b, const struct program *prog,
		 const struct probe *pr, int i);
/* Each argument that means more than its type, a line each:
 * "prefix`value`: a string of value_len bytes (by its name)\n". */
void meanings_describe(struct buf *b, const struct program *prog,
		       const struct probe *pr, const char *prefix);

#endif
