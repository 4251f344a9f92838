/*
 * fuzz/fuzz_filter.c - libFuzzer entry point over --where's compiler
 * and the compiled steps the BPF side runs (trace/find/filter.c,
 * bpf/filter_eval.h): the input is an expression on the made-up probe
 * of tests/unit/filter_oracle.h.  Each one that parses and compiles is
 * evaluated on arguments at, around and away from its constants, by
 * the compiled steps and by the oracle's reading of the parsed tree;
 * any difference is a finding, as are a crash, a sanitizer report and
 * a leak.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../tests/unit/filter_oracle.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

FUZZ_INITIALIZE_QUIETLY()

/* The constants of w, each with its neighbours, into values. */
static void constants(const struct where_node *w, unsigned long long *v,
		      int *n, int max)
{
	unsigned long long k;

	if (!w)
		return;
	if (w->kind != WHERE_CMP) {
		constants(w->l, v, n, max);
		constants(w->r, v, n, max);
		return;
	}
	if (w->is_string || *n + 3 > max)
		return;
	k = w->negative ? 0 - w->magnitude : w->magnitude;
	v[(*n)++] = k - 1;
	v[(*n)++] = k;
	v[(*n)++] = k + 1;
}

/* The strings an expression's string comparisons are tried on: its
 * own constants, and some near them. */
static void texts(const struct where_node *w, const char **t, size_t *len,
		  int *n, int max)
{
	if (!w)
		return;
	if (w->kind != WHERE_CMP) {
		texts(w->l, t, len, n, max);
		texts(w->r, t, len, n, max);
		return;
	}
	if (!w->is_string || *n + 2 > max)
		return;
	t[*n] = w->text;
	len[(*n)++] = w->text_len;
	t[*n] = w->text;
	len[(*n)++] = w->text_len ? w->text_len - 1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const fixed[] = { "", "x", "GET", "/api/users" };
	unsigned long long v[64], raw[ORACLE_NARGS];
	const char *t[20];
	size_t len[20];
	int nv = 0, nt = 0, i, j, a;
	struct where_request r;
	struct trace_filter f;
	struct traced probe;
	struct buf spec = { 0 };
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	char *why;

	buf_puts(&spec, "t:p: ");
	buf_add(&spec, data, size);
	if (memchr(data, 0, size) || where_parse(spec.data, &r) != 0) {
		buf_free(&spec);
		return 0;
	}
	oracle_probe(&probe);
	if (filter_compile(&probe, &r, &f, &why) != 0) {
		free(why);
		where_free(&r);
		buf_free(&spec);
		return 0;
	}
	if (f.nops > TRACE_MAX_FILTER_OPS || f.nconds > TRACE_MAX_CONDS)
		abort();
	constants(r.root, v, &nv, 60);
	v[nv++] = 0;
	v[nv++] = ~0ull;
	v[nv++] = 1ull << 63;
	v[nv++] = 0x7f;
	texts(r.root, t, len, &nt, 16);
	for (i = 0; i < 4; i++) {
		t[nt] = fixed[i];
		len[nt++] = strlen(fixed[i]);
	}
	for (i = 0; i < 200; i++) {
		for (a = 0; a < ORACLE_NARGS; a++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			raw[a] = v[(seed >> 33) % (uint64_t)nv];
		}
		j = (int)((seed >> 20) % (uint64_t)nt);
		if (oracle_compiled(&f, raw, t[j], len[j]) !=
		    oracle_eval(r.root, raw, t[j], len[j]))
			abort(); /* the compiled steps and the expression differ */
	}
	where_free(&r);
	buf_free(&spec);
	return 0;
}
