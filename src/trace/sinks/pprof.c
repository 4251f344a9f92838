/*
 * src/trace/sinks/pprof.c - --pprof FILE: a profile as pprof's Profile
 * message, read by go tool pprof, Pyroscope, Grafana and speedscope.
 * Either the profile's call paths (a runtime's calls, a provider's
 * pairs: calls/count and self/nanoseconds, each name a Function and a
 * Location of its own, without addresses) or, with --stack, each
 * probe's firings by native stack (firings/count: the binaries as
 * Mappings with their build-ids, the frames' addresses as Locations,
 * each with its function and line, and the probe as the leaf).  A
 * traced profile samples nothing: its period type is what it counts,
 * its period 1.  The message is protobuf-c's, generated from pprof's
 * profile.proto at build time; zlib gzips it; output.c writes it
 * atomically.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "compiler/naming.h"
#include "inspect/inspect.h"
#include "trace/sinks/pprof.h"
#include "profile.pb-c.h"

/* The profile being made: its string table, and its mappings,
 * functions and locations by a key each (their id + 1). */
struct making {
	Perftools__Profiles__Profile prof;
	struct name_set strings; /* owner: 1 + index */
	struct name_set mappings, functions, locations;
	char **owned; /* the keys */
	size_t nowned;
	struct buf key;
};

/* s's index in the string table, entered there as UTF-8: protobuf's
 * decoders (Go's, which Pyroscope uses) refuse a profile whose string
 * is not, and a file or symbol name may be any bytes. */
static int64_t string_index(struct making *m, const char *s)
{
	struct buf text = { 0 };
	const void *found;
	char *copy;

	buf_utf8(&text, s, strlen(s));
	copy = text.data ? text.data : xstrdup("");
	found = name_set_find(&m->strings, copy);
	if (found) {
		free(copy);
		return (int64_t)(intptr_t)found - 1;
	}
	m->prof.string_table = xgrow(m->prof.string_table,
				     m->prof.n_string_table, sizeof(char *));
	m->prof.string_table[m->prof.n_string_table++] = copy;
	name_set_add(&m->strings, copy, strlen(copy),
		     (const void *)(intptr_t)m->prof.n_string_table);
	return (int64_t)m->prof.n_string_table - 1;
}

static Perftools__Profiles__ValueType *value_type(struct making *m,
						  const char *type,
						  const char *unit)
{
	Perftools__Profiles__ValueType *v = xcalloc(1, sizeof(*v));

	perftools__profiles__value_type__init(v);
	v->type = string_index(m, type);
	v->unit = string_index(m, unit);
	return v;
}

/* The id found under m->key in set, or 0; with add, the key kept for
 * the id given. */
static uint64_t keyed(struct making *m, struct name_set *set, uint64_t add)
{
	const void *found = name_set_find(set, m->key.data);

	if (found || !add)
		return found ? (uint64_t)(intptr_t)found : 0;
	m->owned = xgrow(m->owned, m->nowned, sizeof(char *));
	m->owned[m->nowned] = xstrdup(m->key.data);
	name_set_add(set, m->owned[m->nowned], m->key.len,
		     (const void *)(intptr_t)add);
	m->nowned++;
	return add;
}

/* The mapping of an object (file, its build-id in hex or NULL) mapped
 * from start to limit, made if new. */
static uint64_t mapping_id(struct making *m, const char *file,
			   const char *build_id, uint64_t start, uint64_t limit)
{
	Perftools__Profiles__Mapping *x;
	uint64_t id;

	m->key.len = 0;
	buf_printf(&m->key, "%llx %s", (unsigned long long)start, file);
	if ((id = keyed(m, &m->mappings, 0)))
		return id;
	x = xcalloc(1, sizeof(*x));
	perftools__profiles__mapping__init(x);
	x->id = id = m->prof.n_mapping + 1;
	x->memory_start = start;
	x->memory_limit = limit;
	x->filename = string_index(m, file);
	x->build_id = string_index(m, build_id ? build_id : "");
	/* Named here: go tool pprof need not look the binaries up. */
	x->has_functions = x->has_filenames = x->has_line_numbers = 1;
	m->prof.mapping = xgrow(m->prof.mapping, m->prof.n_mapping,
				sizeof(*m->prof.mapping));
	m->prof.mapping[m->prof.n_mapping++] = x;
	return keyed(m, &m->mappings, id);
}

/* The function name (its system name whole) in file, first at line
 * (0: not known), made if new. */
static uint64_t function_id(struct making *m, const char *name,
			    const char *system_name, const char *file,
			    int64_t line)
{
	Perftools__Profiles__Function *f;
	uint64_t id;

	m->key.len = 0;
	buf_printf(&m->key, "%s\t%s", system_name, file ? file : "");
	if ((id = keyed(m, &m->functions, 0)))
		return id;
	f = xcalloc(1, sizeof(*f));
	perftools__profiles__function__init(f);
	f->id = id = m->prof.n_function + 1;
	f->name = string_index(m, name);
	f->system_name = string_index(m, system_name);
	f->filename = string_index(m, file ? file : "");
	f->start_line = line;
	m->prof.function = xgrow(m->prof.function, m->prof.n_function,
				 sizeof(*m->prof.function));
	m->prof.function[m->prof.n_function++] = f;
	return keyed(m, &m->functions, id);
}

/* The location of address in mapping (0: none), in function at line
 * (function 0: no line known), made if new under key. */
static uint64_t location_id(struct making *m, uint64_t mapping,
			    uint64_t address, uint64_t function, int64_t line)
{
	Perftools__Profiles__Location *l;
	Perftools__Profiles__Line *ln;
	uint64_t id;

	m->key.len = 0;
	buf_printf(&m->key, "%llu %llx %llu", (unsigned long long)mapping,
		   (unsigned long long)address, (unsigned long long)function);
	if ((id = keyed(m, &m->locations, 0)))
		return id;
	l = xcalloc(1, sizeof(*l));
	perftools__profiles__location__init(l);
	l->id = id = m->prof.n_location + 1;
	l->mapping_id = mapping;
	l->address = address;
	if (function) {
		ln = xcalloc(1, sizeof(*ln));
		perftools__profiles__line__init(ln);
		ln->function_id = function;
		ln->line = line;
		l->n_line = 1;
		l->line = xcalloc(1, sizeof(*l->line));
		l->line[0] = ln;
	}
	m->prof.location = xgrow(m->prof.location, m->prof.n_location,
				 sizeof(*m->prof.location));
	m->prof.location[m->prof.n_location++] = l;
	return keyed(m, &m->locations, id);
}

/* A profile name's location: a call's name as the runtimes' are made
 * ("main (site.py)": call_name) split into its function's name and
 * file, at its first line; else the whole is its name. */
static uint64_t name_location(struct making *m, const struct profile_name *pn)
{
	const char *name = pn->name;
	size_t n = strlen(name);
	const char *open = n > 3 && name[n - 1] == ')' ? strstr(name, " (")
						       : NULL;
	char *fn, *file;
	uint64_t f;

	if (!open || open == name) {
		f = function_id(m, name, name, NULL, (int64_t)pn->line);
	} else {
		fn = xstrndup(name, (size_t)(open - name));
		file = xstrndup(open + 2, n - (size_t)(open - name) - 3);
		f = function_id(m, fn, name, file, (int64_t)pn->line);
		free(fn);
		free(file);
	}
	return location_id(m, 1, 0, f, (int64_t)pn->line);
}

/* A sample of the locations (n, the leaf first) and values (nv). */
static Perftools__Profiles__Sample *add_sample(struct making *m,
					       const uint64_t *locations,
					       int n, const int64_t *values,
					       int nv)
{
	Perftools__Profiles__Sample *s = xcalloc(1, sizeof(*s));

	perftools__profiles__sample__init(s);
	s->n_location_id = (size_t)n;
	s->location_id = xcalloc((size_t)n + 1, sizeof(uint64_t));
	memcpy(s->location_id, locations, (size_t)n * sizeof(uint64_t));
	s->n_value = (size_t)nv;
	s->value = xcalloc((size_t)nv, sizeof(int64_t));
	memcpy(s->value, values, (size_t)nv * sizeof(int64_t));
	m->prof.sample = xgrow(m->prof.sample, m->prof.n_sample,
			       sizeof(*m->prof.sample));
	m->prof.sample[m->prof.n_sample++] = s;
	return s;
}

/* A sample's label key = number. */
static Perftools__Profiles__Label *label(struct making *m, const char *key,
					 unsigned value)
{
	Perftools__Profiles__Label *l = xcalloc(1, sizeof(*l));

	perftools__profiles__label__init(l);
	l->key = string_index(m, key);
	l->num = value;
	return l;
}

static void add_path(void *ctx, const struct profile_name *const *names,
		     int depth, unsigned pid, unsigned tid,
		     unsigned long long calls, unsigned long long self_ns)
{
	struct making *m = ctx;
	uint64_t *loc = xcalloc((size_t)depth + 1, sizeof(uint64_t));
	int64_t values[2] = { (int64_t)calls, (int64_t)self_ns };
	Perftools__Profiles__Sample *s;
	int i;

	for (i = 0; i < depth; i++)
		loc[i] = name_location(m, names[i]);
	s = add_sample(m, loc, depth, values, 2);
	free(loc);
	s->n_label = 2;
	s->label = xcalloc(2, sizeof(*s->label));
	s->label[0] = label(m, "pid", pid);
	s->label[1] = label(m, "tid", tid);
}

/* One distinct stack of a probe's firings: its frames' locations (with
 * their mappings and functions), then the probe's own as the leaf. */
static void add_stack(void *ctx, const char *probe,
		      const struct frame_place *places, int n,
		      unsigned long long count)
{
	struct making *m = ctx;
	uint64_t *loc = xcalloc((size_t)n + 2, sizeof(uint64_t));
	int64_t value = (int64_t)count;
	uint64_t map, fn;
	int i;

	loc[0] = location_id(m, 0, 0, function_id(m, probe, probe, NULL, 0),
			     0);
	for (i = 0; i < n; i++) {
		const struct frame_place *p = &places[i];

		map = p->binary ? mapping_id(m, p->binary, p->build_id,
					     p->start, p->limit)
				: 0;
		fn = p->function ? function_id(m, p->function, p->function,
					       p->file, 0)
				 : 0;
		loc[i + 1] = location_id(m, map, p->pc, fn, p->line);
	}
	add_sample(m, loc, n + 1, &value, 1);
	free(loc);
}

/* data (n bytes) gzipped into out. */
static int gzip_into(struct buf *out, const uint8_t *data, size_t n)
{
	z_stream z;
	int rc;

	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	buf_reserve(out, deflateBound(&z, (uLong)n) + 32);
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)n;
	z.next_out = (Bytef *)out->data + out->len;
	z.avail_out = (uInt)(out->cap - out->len - 1);
	rc = deflate(&z, Z_FINISH);
	out->len += z.total_out;
	deflateEnd(&z);
	return rc == Z_STREAM_END ? 0 : -1;
}

static void free_profile(struct making *m)
{
	size_t i, j;

	for (i = 0; i < m->prof.n_sample; i++) {
		free(m->prof.sample[i]->location_id);
		for (j = 0; j < m->prof.sample[i]->n_label; j++)
			free(m->prof.sample[i]->label[j]);
		free(m->prof.sample[i]->label);
		free(m->prof.sample[i]->value);
		free(m->prof.sample[i]);
	}
	for (i = 0; i < m->prof.n_location; i++) {
		for (j = 0; j < m->prof.location[i]->n_line; j++)
			free(m->prof.location[i]->line[j]);
		free(m->prof.location[i]->line);
		free(m->prof.location[i]);
	}
	for (i = 0; i < m->prof.n_function; i++)
		free(m->prof.function[i]);
	for (i = 0; i < m->prof.n_mapping; i++)
		free(m->prof.mapping[i]);
	for (i = 0; i < m->prof.n_sample_type; i++)
		free(m->prof.sample_type[i]);
	free(m->prof.period_type);
	for (i = 0; i < m->prof.n_string_table; i++)
		free(m->prof.string_table[i]);
	free(m->prof.comment);
	for (i = 0; i < m->nowned; i++)
		free(m->owned[i]);
	free(m->owned);
	free(m->prof.sample);
	free(m->prof.location);
	free(m->prof.function);
	free(m->prof.mapping);
	free(m->prof.sample_type);
	free(m->prof.string_table);
	name_set_free(&m->strings);
	name_set_free(&m->mappings);
	name_set_free(&m->functions);
	name_set_free(&m->locations);
	buf_free(&m->key);
}

int pprof_check(void)
{
	return 0;
}

/* A profile whose samples count what (a unit of unit), the first of
 * n types: it samples nothing, so its period is 1 of it. */
static void begin(struct making *m, const char *what, const char *unit)
{
	memset(m, 0, sizeof(*m));
	perftools__profiles__profile__init(&m->prof);
	name_set_init(&m->strings, 64);
	name_set_init(&m->mappings, 16);
	name_set_init(&m->functions, 64);
	name_set_init(&m->locations, 64);
	string_index(m, ""); /* the string table's entry 0 */
	m->prof.sample_type = xcalloc(2, sizeof(*m->prof.sample_type));
	m->prof.sample_type[m->prof.n_sample_type++] = value_type(m, what, unit);
	m->prof.period_type = value_type(m, what, unit);
	m->prof.period = 1;
	m->prof.default_sample_type = m->prof.sample_type[0]->type;
}

/* A line of the profile's comments (go tool pprof -comments). */
static void comment(struct making *m, const char *text)
{
	m->prof.comment = xgrow(m->prof.comment, m->prof.n_comment,
				sizeof(*m->prof.comment));
	m->prof.comment[m->prof.n_comment++] = string_index(m, text);
}

/* Its times, then packed, gzipped and committed into out: 0, or -1. */
static int finish(struct making *m, const struct tracer *tr,
		  struct output *out)
{
	struct timespec now, mono;
	char *sampled;
	uint8_t *packed;
	size_t n;
	int rc;

	if ((sampled = budget_sampled_text(tr))) {
		comment(m, sampled);
		comment(m, "a pair's calls and times are as counted in its windows, not scaled");
		free(sampled);
	}
	/* From the first event (CLOCK_MONOTONIC, as the kernel's) to now. */
	clock_gettime(CLOCK_REALTIME, &now);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	m->prof.duration_nanos =
		tr->start_ns ? (int64_t)mono.tv_sec * 1000000000 + mono.tv_nsec -
				       (int64_t)tr->start_ns
			     : 0;
	m->prof.time_nanos = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec -
			     m->prof.duration_nanos;
	n = perftools__profiles__profile__get_packed_size(&m->prof);
	packed = xmalloc(n + 1);
	perftools__profiles__profile__pack(&m->prof, packed);
	free_profile(m);
	rc = gzip_into(&out->buf, packed, n);
	free(packed);
	if (rc != 0) {
		error_plain("--pprof: cannot compress the profile");
		output_abort(out);
		return -1;
	}
	return output_commit(out);
}

int pprof_write(const struct tracer *tr, const struct profile *p,
		struct output *out)
{
	struct making m;

	begin(&m, "calls", "count");
	m.prof.sample_type[m.prof.n_sample_type++] =
		value_type(&m, "self", "nanoseconds");
	/* One mapping, the program traced, whose functions are named: go
	   tool pprof wants a main binary. */
	mapping_id(&m, tr->exe ? tr->exe
			       : tr->nbinaries ? tr->binaries[0]->path : "",
		   NULL, 0, 0);
	profile_paths(p, add_path, &m);
	return finish(&m, tr, out);
}

int pprof_write_stacks(const struct tracer *tr, const struct stack_counts *c,
		       struct output *out)
{
	struct making m;

	begin(&m, "firings", "count");
	stack_counts_paths(c, tr, add_stack, &m);
	if (stack_counts_every(c) > 1) {
		char *text = xasprintf("--stack: the ring was full, so at most every %uth firing's stack was walked, each counted for the firings it stood for",
				       stack_counts_every(c));

		comment(&m, text);
		free(text);
	}
	return finish(&m, tr, out);
}
