/*
 * src/arg_read.c - what each kind of argument means: one row a kind of
 * enum arg_kind (arg_read.h), asked by the decoder and printers, the
 * filter compiler, the emitters and the docs.  A kind whose row is left
 * out fails unit kind_rows_are_whole (every row has its name and what
 * --where says of it).
 */
#include <stddef.h>

#include "arg_read.h"

#define NUMBER_COMPARES "a number: compare it with a number (== != < <= > >=)"
#define STRING_COMPARES "a string: compare it with a \"string\" (== != ~)"

const struct arg_kind_row arg_kinds[ARG_KINDS] = {
	[ARG_INTEGER] = { .name = "integer", .integer = 1,
			  .compare = COMPARE_NUMBER,
			  .compares = NUMBER_COMPARES },
	[ARG_POINTER] = { .name = "pointer", .hex = 1, .symbols = 1,
			  .compare = COMPARE_NUMBER,
			  .compares = NUMBER_COMPARES,
			  .bpftrace_format = "0x%lx" },
	[ARG_STRING] = { .name = "string", .slot = 1, .quoted = 1, .hex = 1,
			 .compare = COMPARE_STRING,
			 .compares = STRING_COMPARES,
			 .bpftrace_format = "\\\"%s\\\"",
			 .bpftrace_read = "str" },
	[ARG_TEXT] = { .name = "text", .slot = 1, .counted = 1, .quoted = 1,
		       .compare = COMPARE_STRING,
		       .compares = STRING_COMPARES,
		       .bpftrace_format = "\\\"%s\\\"", .bpftrace_read = "str",
		       .meaning = "a string of %s bytes" },
	[ARG_BYTES] = { .name = "bytes", .slot = 1, .counted = 1,
			.compare = COMPARE_BYTES,
			.compares = "bytes (a pointer with its length): compare them with 0x hex as --trace prints them (== != 0xHEX, ~ 0xHEX*)",
			.bpftrace_format = "%r", .bpftrace_read = "buf",
			.meaning = "%s bytes in hex" },
	[ARG_SOCKADDR] = { .name = "socket address", .slot = 1,
			   .compare = COMPARE_SOCKADDR,
			   .compares = "a socket address: compare it with a \"string\" as --trace prints it (== != ~)",
			   .bpftrace_format = "0x%lx",
			   .bpftrace_short = "a socket address: bpftrace prints its pointer",
			   .meaning = "a socket address" },
	[ARG_CODE] = { .name = "function", .hex = 1, .symbols = 1,
		       .compare = COMPARE_NUMBER,
		       .compares = NUMBER_COMPARES,
		       .bpftrace_format = "%s", .bpftrace_read = "usym",
		       .meaning = "a function, shown by its name" },
	[ARG_FIELD] = { .name = "field", .quoted = 1,
			.compare = COMPARE_FIELD,
			.compares = "a field of key=value text, whose values are text: compare it with a \"string\" (== != ~)" },
	/* Sized by the binary's note before a tracer reads it: a number
	   then (inspect/binary_program.c). */
	[ARG_AS_NOTED] = { .name = "as noted", .integer = 1,
			   .compares = NUMBER_COMPARES },
	[ARG_FLOAT] = { .name = "floating",
			.compares = "a floating-point number, which the tracers cannot read",
			.unreadable = "floating" },
	[ARG_BY_VALUE] = { .name = "by value",
			   .compares = "an object passed by value, which --where cannot compare",
			   .unreadable = "passed by value" },
	[ARG_TOO_WIDE] = { .name = "too wide",
			   .compares = "wider than 8 bytes, which the tracers cannot read",
			   .unreadable = "wider than 8 bytes" },
};
