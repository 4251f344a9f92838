/*
 * fuzz/fuzz_where.c - libFuzzer entry point over --where's and --expect's
 * parser (src/trace/find/filter_parse.c): the input is the option's
 * text, read as both.  A request either parses into a tree whose every
 * comparison has an operand, an operator and a constant (--expect: or
 * none, and a count from 0 with its most no less), or is said (with its
 * caret) and leaves nothing.  A crash, sanitizer report or leak is a finding too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/find/filter.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

FUZZ_INITIALIZE_QUIETLY()

/* Every node whole: a comparison has its parts, the others theirs. */
static void check(const struct where_node *n, const char *spec)
{
	size_t len = strlen(spec);

	if (!n)
		abort();
	switch (n->kind) {
	case WHERE_CMP:
		if (!n->operand || n->operand_col < 1 ||
		    (size_t)(n->operand_col + n->operand_len - 1) > len ||
		    (n->is_string && !n->text) || n->const_col < 1 ||
		    (size_t)(n->const_col + n->const_len - 1) > len)
			abort();
		break;
	case WHERE_NOT:
		check(n->l, spec);
		break;
	default:
		check(n->l, spec);
		check(n->r, spec);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *spec = xstrndup((const char *)data, size);
	struct where_request r;

	if (where_parse(spec, &r) == 0)
		check(r.root, spec);
	else if (r.root || r.probes)
		abort(); /* a failure leaves nothing */
	where_free(&r);
	if (where_parse_as("--expect", spec, &r) == 0) {
		if (r.root)
			check(r.root, spec);
		if (!r.probes || r.min < 0 || (r.max >= 0 && r.max < r.min))
			abort();
	} else if (r.root || r.probes) {
		abort();
	}
	where_free(&r);
	free(spec);
	return 0;
}
