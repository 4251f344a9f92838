/*
 * src/trace/find/filter.h - --where: a filter on a probe's arguments, parsed
 * once from the command line (filter_parse.c), then compiled for each
 * probe its glob matches into the small program the BPF side interprets
 * at the firing (filter.c; trace_abi.h's struct trace_filter,
 * bpf/filter.bpf.h).  Included by the rooms that use it, targets.c and
 * trace.c, and by its own two.
 */
#ifndef PROBEGEN_FILTER_H
#define PROBEGEN_FILTER_H

#include "trace/tracer.h"

/* ---- filter_parse.c ---- */

/* The ~ of a comparison: a glob match of a string. */
#define WHERE_GLOB 10

enum where_kind { WHERE_CMP, WHERE_AND, WHERE_OR, WHERE_NOT };

/* One node of a filter's expression. */
struct where_node {
	enum where_kind kind;
	struct where_node *l, *r; /* AND, OR: both; NOT: l */
	/* WHERE_CMP: operand (an argument's name or a member expression)
	   op (TRACE_EQ ... TRACE_GE, or WHERE_GLOB) constant */
	char *operand;
	int operand_col, operand_len; /* in the request, from 1 */
	int op;
	int is_string;
	int is_name; /* a name of the operand's values: text (mode == PERIODIC) */
	/* 0x hex: its digits in text, for bytes; hex_only: too long for a
	   number, or hex_prefix: bytes that start so (0x1f1e*) */
	int is_hex, hex_only, hex_prefix;
	char *text; /* a string constant, unescaped; or the name */
	size_t text_len;
	int negative;
	unsigned long long magnitude; /* an integer constant: its size */
	int const_col, const_len; /* and, or, not: the operator's */
};

/* The value of hex digit c, which isxdigit() has passed. */
static inline int where_hex_digit(char c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* The same comparison read from the other side: 5 < x is x > 5. */
static inline int where_flipped(int op)
{
	return op == TRACE_LT	? TRACE_GT
	       : op == TRACE_GT ? TRACE_LT
	       : op == TRACE_LE ? TRACE_GE
	       : op == TRACE_GE ? TRACE_LE
				: op;
}

/* One --where request, "PROVIDER:PROBE: EXPR", or --expect's,
 * "PROVIDER:PROBE[{COUNT}][: EXPR]". */
struct where_request {
	const char *spec, *option; /* option: "--where", "--expect" */
	char *probes; /* "PROVIDER:PROBE", globs as -n's */
	struct where_node *root; /* NULL: --expect's every firing */
	long long min, max;	 /* --expect's count; max -1: no most */
	int every; /* {all}: every firing passes, and at least one fired */
	int compiled; /* probes it was compiled for */
	/* Why the first probe it matched was left out, and where; the
	   probes left out at the start, said once the start is done. */
	struct buf left_out;
	char *left_out_why;
	int left_out_col, left_out_len;
};

/* Parse spec into r: 0, or -1 after saying why with a caret under the
 * word (an error of the input). */
int where_parse(const char *spec, struct where_request *r);
/* The same for option ("--where" or "--expect", which takes a count
 * and may have no expression). */
int where_parse_as(const char *option, const char *spec,
		   struct where_request *r);
void where_free(struct where_request *r);
void where_node_free(struct where_node *n);
/* Say an error about option's spec, then spec with a caret under its columns
 * col to col + len - 1 (from 1). */
void where_error(const char *option, const char *spec, int col, int len,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* ---- filter.c ---- */

/* FEATURE_WHERE's state: every --where, parsed. */
struct wheres {
	struct where_request *all;
	int n;
};
/* Parse every --where: the feature's state, or NULL (said). */
struct wheres *filters_parse(struct tracer *tr);
/* Compile the --where requests for the probes from index from on, each
 * into its filter (t->filter; NULL when none matches it): 0, or -1 when
 * one cannot be (said: an error at the start, else a warning and the
 * probe unfiltered). */
int filters_add(struct tracer *tr, int from, int at_start);
/* Once every probe at the start has been described: a request that
 * matched no probe, or was left out of every probe it matched, is an
 * error (said): 0, or -1.  Those left out of some are said. */
int filters_check(struct tracer *tr);
/* The requests (the probes' own filters go with them: probes_drop). */
void filters_free(struct wheres *w);
/* Compile request r for probe t alone into *f (zeroed first): 0, 1
 * when r leaves t out (why: in *why, to free), -1 when it cannot be
 * compiled (said).  What filters_add does for each probe; the unit
 * tests and fuzz_filter call it directly. */
int filter_compile(struct traced *t, struct where_request *r,
		   struct trace_filter *f, char **why);
/* At the end: for each filtered probe, the firings its filter rejected
 * in the kernel (rejected, per probe) and the events that reached
 * probegen. */
void filters_report(const struct tracer *tr,
		    const unsigned long long *rejected);

#endif
