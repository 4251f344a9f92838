/*
 * src/trace/pprof.c - --pprof FILE: the profile's call paths (a
 * runtime's calls, a provider's pairs) as pprof's Profile message, read
 * by go tool pprof, Pyroscope, Grafana and speedscope.  Two sample
 * types, calls/count and self/nanoseconds; a traced profile samples
 * nothing, so its period type is calls, its period 1.  Each name is a
 * Function and a Location of its own (no addresses: the calls are a
 * runtime's, not code's).  The message is protobuf-c's, generated from
 * pprof's profile.proto at build time; zlib gzips it; output.c writes
 * it atomically.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

#include "pprof.h"
#include "profile.pb-c.h"

/* The profile being made: its string table and functions by name. */
struct making {
	Perftools__Profiles__Profile prof;
	struct name_set strings; /* owner: 1 + index */
	struct name_set functions; /* name -> 1 + id */
	char **owned;
	size_t nowned;
};

static int64_t string_index(struct making *m, const char *s)
{
	const void *found = name_set_find(&m->strings, s);
	char *copy;

	if (found)
		return (int64_t)(intptr_t)found - 1;
	copy = xstrdup(s);
	m->prof.string_table = xgrow(m->prof.string_table, m->prof.n_string_table,
				     sizeof(char *));
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

/* A call's name as the runtimes' are made ("main (site.py)": call_name)
 * into a function's name and file; else the whole is its name. */
static void name_and_file(struct making *m, const char *name,
			  Perftools__Profiles__Function *f)
{
	size_t n = strlen(name);
	const char *open = n > 3 && name[n - 1] == ')' ? strstr(name, " (") : NULL;
	char *fn, *file;

	f->system_name = string_index(m, name);
	if (!open || open == name) {
		f->name = f->system_name;
		return;
	}
	fn = xstrndup(name, (size_t)(open - name));
	file = xstrndup(open + 2, n - (size_t)(open - name) - 3);
	f->name = string_index(m, fn);
	f->filename = string_index(m, file);
	free(fn);
	free(file);
}

/* The id of name's function (and of its location, the same), made if
 * new: its file and first line where the probes give them. */
static uint64_t function_id(struct making *m, const struct profile_name *pn)
{
	const char *name = pn->name;
	const void *found = name_set_find(&m->functions, name);
	Perftools__Profiles__Function *f;
	Perftools__Profiles__Location *l;
	Perftools__Profiles__Line *line;
	uint64_t id;

	if (found)
		return (uint64_t)(intptr_t)found;
	id = m->prof.n_function + 1;
	f = xcalloc(1, sizeof(*f));
	perftools__profiles__function__init(f);
	f->id = id;
	name_and_file(m, name, f);
	f->start_line = (int64_t)pn->line;
	m->prof.function = xgrow(m->prof.function, m->prof.n_function,
				 sizeof(*m->prof.function));
	m->prof.function[m->prof.n_function++] = f;
	l = xcalloc(1, sizeof(*l));
	perftools__profiles__location__init(l);
	l->id = id;
	l->mapping_id = 1;
	line = xcalloc(1, sizeof(*line));
	perftools__profiles__line__init(line);
	line->function_id = id;
	line->line = (int64_t)pn->line;
	l->n_line = 1;
	l->line = xcalloc(1, sizeof(*l->line));
	l->line[0] = line;
	m->prof.location = xgrow(m->prof.location, m->prof.n_location,
				 sizeof(*m->prof.location));
	m->prof.location[m->prof.n_location++] = l;
	m->nowned++;
	m->owned = xgrow(m->owned, m->nowned - 1, sizeof(char *));
	m->owned[m->nowned - 1] = xstrdup(name);
	name_set_add(&m->functions, m->owned[m->nowned - 1], strlen(name),
		     (const void *)(intptr_t)id);
	return id;
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
	Perftools__Profiles__Sample *s = xcalloc(1, sizeof(*s));
	int i;

	perftools__profiles__sample__init(s);
	s->n_label = 2;
	s->label = xcalloc(2, sizeof(*s->label));
	s->label[0] = label(m, "pid", pid);
	s->label[1] = label(m, "tid", tid);
	s->n_location_id = (size_t)depth;
	s->location_id = xcalloc((size_t)depth + 1, sizeof(uint64_t));
	for (i = 0; i < depth; i++)
		s->location_id[i] = function_id(m, names[i]);
	s->n_value = 2;
	s->value = xcalloc(2, sizeof(int64_t));
	s->value[0] = (int64_t)calls;
	s->value[1] = (int64_t)self_ns;
	m->prof.sample = xgrow(m->prof.sample, m->prof.n_sample,
			       sizeof(*m->prof.sample));
	m->prof.sample[m->prof.n_sample++] = s;
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
	for (i = 0; i < m->prof.n_sample_type; i++)
		free(m->prof.sample_type[i]);
	free(m->prof.period_type);
	if (m->prof.n_mapping)
		free(m->prof.mapping[0]);
	free(m->prof.mapping);
	for (i = 0; i < m->prof.n_string_table; i++)
		free(m->prof.string_table[i]);
	for (i = 0; i < m->nowned; i++)
		free(m->owned[i]);
	free(m->owned);
	free(m->prof.sample);
	free(m->prof.location);
	free(m->prof.function);
	free(m->prof.sample_type);
	free(m->prof.string_table);
	name_set_free(&m->strings);
	name_set_free(&m->functions);
}

int pprof_check(void)
{
	return 0;
}

int pprof_write(const struct tracer *tr, const struct profile *p,
		struct output *out)
{
	struct making m;
	struct timespec now, mono;
	uint8_t *packed;
	size_t n;
	int rc;

	memset(&m, 0, sizeof(m));
	perftools__profiles__profile__init(&m.prof);
	name_set_init(&m.strings, 64);
	name_set_init(&m.functions, 64);
	string_index(&m, ""); /* the string table's entry 0 */
	m.prof.n_sample_type = 2;
	m.prof.sample_type = xcalloc(2, sizeof(*m.prof.sample_type));
	m.prof.sample_type[0] = value_type(&m, "calls", "count");
	m.prof.sample_type[1] = value_type(&m, "self", "nanoseconds");
	/* Traced, not sampled: every call is in it. */
	m.prof.period_type = value_type(&m, "calls", "count");
	m.prof.period = 1;
	m.prof.default_sample_type = m.prof.sample_type[0]->type;
	/* One mapping, the program traced, whose functions are named: go
	   tool pprof wants a main binary. */
	m.prof.n_mapping = 1;
	m.prof.mapping = xcalloc(1, sizeof(*m.prof.mapping));
	m.prof.mapping[0] = xcalloc(1, sizeof(**m.prof.mapping));
	perftools__profiles__mapping__init(m.prof.mapping[0]);
	m.prof.mapping[0]->id = 1;
	m.prof.mapping[0]->filename = string_index(
		&m, tr->exe ? tr->exe
			    : tr->nbinaries ? tr->binaries[0]->path : "");
	m.prof.mapping[0]->has_functions = 1;
	m.prof.mapping[0]->has_filenames = 1;
	profile_paths(p, add_path, &m);
	/* From the first event (CLOCK_MONOTONIC, as the kernel's) to now. */
	clock_gettime(CLOCK_REALTIME, &now);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	m.prof.duration_nanos =
		tr->start_ns ? (int64_t)mono.tv_sec * 1000000000 + mono.tv_nsec -
				       (int64_t)tr->start_ns
			     : 0;
	m.prof.time_nanos = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec -
			    m.prof.duration_nanos;
	n = perftools__profiles__profile__get_packed_size(&m.prof);
	packed = xmalloc(n + 1);
	perftools__profiles__profile__pack(&m.prof, packed);
	free_profile(&m);
	rc = gzip_into(&out->buf, packed, n);
	free(packed);
	if (rc != 0) {
		error_plain("--pprof: cannot compress the profile");
		output_abort(out);
		return -1;
	}
	return output_commit(out);
}
