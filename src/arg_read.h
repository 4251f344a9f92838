/*
 * src/arg_read.h - how a tracer reads one argument of a probe, or one
 * member a pointer argument leads to: the description the compiler
 * fills from a .d's types and tags (compiler/reading.h, meanings.c), the
 * inspector from a binary's DWARF (inspect/members.c), and the tracer
 * reads (src/trace/).  Plain C, with no other header: every wing
 * includes it, none includes another wing's header for it.
 */
#ifndef PROBEGEN_ARG_READ_H
#define PROBEGEN_ARG_READ_H

/* Tracers read integers and pointers of 1 to 8 bytes, C strings through
 * their pointers, and the bytes a pointer's length says. */
enum read_how {
	READ_INTEGER,  /* size bytes, is_signed */
	READ_POINTER,  /* an address */
	READ_STRING,   /* the bytes it points to, to a NUL */
	READ_AS_NOTED, /* a type of the user's headers: as the note records */
	READ_FLOAT,
	READ_BY_VALUE,
	READ_TOO_WIDE, /* not readable */
	READ_TEXT,     /* a char pointer to its length's bytes: a string */
	READ_BYTES,    /* another pointer to its length's bytes: hex */
	READ_SOCKADDR, /* a struct sockaddr pointer: the address */
};

/* One name of an @enum tag: NAME=VALUE. */
struct enum_value {
	const char *name;
	long long value;
};

struct tracer_read {
	enum read_how how;
	int size, is_signed;
	/* READ_TEXT, READ_BYTES: the argument holding the length, or -1
	   and length bytes (@length ARG N); reversed: shown last byte
	   first (@length ARG N reversed: a Bitcoin hash). */
	int length_arg;
	unsigned length;
	int reversed;
	/* length_arg READ_LENGTH_IN_SLOT: a --show member whose length is a
	   sibling member's, read into the first 8 bytes of its slot. */
#define READ_LENGTH_IN_SLOT (-2)
	/* @enum: the names of its values, or NULL. */
	const struct enum_value *values;
	int nvalues;
};

/* Why a tracer cannot read r ("floating", "passed by value", "wider
 * than 8 bytes"), or NULL when it can (compiler/type.c). */
const char *tracer_read_unreadable(const struct tracer_read *r);

/* Pointers a member expression follows, at most, after its argument. */
#define MEMBER_MAX_STEPS 6
enum member_kind {
	MEMBER_INTEGER, /* size bytes, is_signed; values: an enum's names */
	MEMBER_POINTER, /* an address */
	MEMBER_STRING,	/* a char pointer: the string it points to */
	MEMBER_CHARS,	/* a char array of size bytes */
	MEMBER_SOCKADDR, /* a socket address, at the place reached */
	MEMBER_TEXT,	/* a char pointer with a sibling X_len member */
	MEMBER_BYTES,	/* another pointer with one: its bytes */
};
/* Where a tracer finds the member: the argument's value plus offset[0];
 * then, for each later step, the pointer there plus offset[j]. */
struct member_path {
	int arg, nsteps;
	unsigned offset[MEMBER_MAX_STEPS];
	enum member_kind kind;
	int size, is_signed;
	struct enum_value *values; /* the enum's names, from DWARF */
	int nvalues;
	/* MEMBER_TEXT, MEMBER_BYTES: the length member's place from the
	   pointer's (bytes, either way), size and sign. */
	int length_delta, length_size, length_signed;
};

#endif
