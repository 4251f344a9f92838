/*
 * src/arg_read.h - how a tracer reads one argument of a probe, or one
 * member a pointer argument leads to: one description, struct arg_read,
 * and what each kind of value means, one row a kind (arg_kinds, in
 * arg_read.c).  The compiler fills a read from a .d's types and tags
 * (compiler/type.c, meanings.c), the inspector from a binary's DWARF
 * (inspect/members.c) and answers which of them describes a binary's
 * probe (inspect/binary_program.c, binary_probe_args); the decoder and
 * printers, the filter compiler and the emitters ask the kind's row.
 * Only the BPF copier (bpf/slots.bpf.h) switches on the kind itself.
 *
 * Plain C with no other header, for both compilers: every wing includes
 * it, and the BPF side (bpf/trace_abi.h) takes enum arg_kind from it.
 */
#ifndef PROBEGEN_ARG_READ_H
#define PROBEGEN_ARG_READ_H

/* What an argument's (or a member's) value is, and so how it is read:
 * integers and pointers of 1 to 8 bytes, a C string through its
 * pointer, the bytes a length says through a pointer, a socket address.
 * The kinds from ARG_AS_NOTED on are decided but not read.  A new
 * kind is a name here, its row in arg_read.c, its decider (a tag's
 * parser, compiler/meanings.c) and, when its bytes are copied, its
 * copier (bpf/slots.bpf.h) and its text (trace/decode/meant.c). */
enum arg_kind {
	ARG_INTEGER,  /* size bytes, is_signed */
	ARG_POINTER,  /* an address */
	ARG_STRING,   /* a char pointer: the string, to its NUL */
	ARG_TEXT,     /* a char pointer to its length's bytes: a string */
	ARG_BYTES,    /* another pointer to its length's bytes: hex */
	ARG_SOCKADDR, /* a struct sockaddr pointer: the address */
	ARG_CODE,     /* a pointer to code: shown as its function's name */
	ARG_FIELD,    /* one field of an argument's key=value text (@fields):
			 found in probegen in that argument's slot, and in
			 the kernel by --where (bpf/fields.h); no slot */
	ARG_AS_NOTED, /* a type of the user's headers: as the note records */
	ARG_FLOAT,
	ARG_BY_VALUE,
	ARG_TOO_WIDE,
	ARG_KINDS /* how many: arg_kinds has a row each */
};
/* The kinds whose bytes are copied at the firing into a slot of the
 * event (bpf/trace_abi.h), not read from the argument's value alone:
 * for the BPF side, which has no table; each row's .slot says the same
 * (unit kind_rows_agree_with_the_bpf_side). */
#define ARG_KIND_HAS_SLOT(k) ((k) >= ARG_STRING && (k) <= ARG_SOCKADDR)

/* Where ARG_TEXT's and ARG_BYTES's length comes from. */
enum arg_length_from {
	LENGTH_NONE,
	LENGTH_ARG,	/* another argument's value: length_arg */
	LENGTH_FIXED,	/* length bytes (@length ARG N, a char array) */
	LENGTH_SIBLING, /* a member beside the pointer (name_len): at
			   length_delta bytes from its place, length_size
			   bytes, length_signed; read with the bytes */
};

/* Pointers a member chain follows, at most, after its argument. */
#define ARG_MAX_STEPS 6

/* One name of an @enum tag or a DWARF enum: NAME=VALUE. */
struct enum_value {
	const char *name;
	long long value;
};

struct arg_read {
	enum arg_kind kind;
	int size, is_signed;
	enum arg_length_from length_from;
	int length_arg;	 /* LENGTH_ARG */
	unsigned length; /* LENGTH_FIXED */
	int length_delta, length_size, length_signed; /* LENGTH_SIBLING */
	int reversed;	 /* the bytes shown last first (a Bitcoin hash) */
	/* ARG_STRING: key=value text, as probegen-tracing writes a span's
	   or event's fields (@fields): an object of them in JSON */
	int key_values;
	/* ARG_FIELD: the key whose value is read, of argument arg */
	const char *field;
	/* A member chain (nsteps > 0): from argument arg's value plus
	   offset[0], then through the pointer there plus offset[1], ...
	   to the member's place, which holds its value; a char array's or
	   a struct sockaddr's place is itself the value, as an array's
	   address is in C.  An argument has no steps. */
	int arg, nsteps;
	unsigned offset[ARG_MAX_STEPS];
	/* Its values' names (@enum, a DWARF enum), or NULL; a member
	   chain's are its own (arg_read_free). */
	const struct enum_value *values;
	int nvalues;
};

#ifndef __bpf__
/* How --where compares a kind's value (trace/find/filter.c). */
enum arg_compare {
	COMPARE_NONE,	  /* it cannot */
	COMPARE_NUMBER,	  /* with a number or an @enum name: == != < ... */
	COMPARE_STRING,	  /* with a "string": == != ~ */
	COMPARE_BYTES,	  /* with 0x hex as printed: == != 0xHEX, ~ 0xHEX* */
	COMPARE_SOCKADDR, /* with a "string" as printed: == != ~ */
	COMPARE_FIELD,	  /* a field's text, found in its argument's */
};

/* What a kind means, for every part that is not the BPF copier. */
struct arg_kind_row {
	const char *name;   /* in messages and the unit tests */
	unsigned slot : 1;  /* its bytes are copied into a slot */
	unsigned counted : 1;  /* the bytes a length says (@length) */
	unsigned quoted : 1;   /* text shows it in quotes */
	unsigned hex : 1;      /* a value shown as an address, in hex */
	unsigned symbols : 1;  /* may point into code: needs its symbols */
	unsigned integer : 1;  /* an integer, or one a note sizes */
	enum arg_compare compare;
	const char *compares;	/* what --where says it is */
	const char *unreadable; /* why no tracer reads it, or NULL */
	/* bpftrace (compiler/emit_bpftrace.c): the format and the function
	   that reads it (str, buf, usym), NULL when printed as a number;
	   a counted kind without a length bpftrace can read prints its
	   pointer. */
	const char *bpftrace_format, *bpftrace_read;
	const char *bpftrace_short; /* what bpftrace shows less, or NULL */
	/* --docs and --list: what it means, %s its length (counted
	   kinds); NULL when its type alone says. */
	const char *meaning;
};

extern const struct arg_kind_row arg_kinds[ARG_KINDS];

static inline const struct arg_kind_row *arg_kind_of(const struct arg_read *r)
{
	return &arg_kinds[r->kind];
}

/* Why a tracer cannot read r ("floating", "passed by value", "wider
 * than 8 bytes"), or NULL when it can. */
static inline const char *arg_read_unreadable(const struct arg_read *r)
{
	return arg_kind_of(r)->unreadable;
}
#endif

#endif
