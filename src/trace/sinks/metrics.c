/*
 * src/trace/sinks/metrics.c - --metrics: what the kernel counted and timed, in
 * the Prometheus text format (0.0.4), or OpenMetrics (1.0.0) when the
 * scraper asks for it: per probe its firings (a counter; by the values
 * of the arguments --by names, counted here from the probe's events),
 * per pair a histogram of its durations (buckets at the powers of two
 * of nanoseconds from 2^10, about 1 us, to 2^36, about 68.7 s: the
 * kernel's own bucket edges), the events lost, the processes traced and
 * probegen's version.  Series of one probe or pair in several binaries
 * are summed: the labels name the provider and the probe, not the file.
 * Label values come from the traced programs and their binaries: data,
 * escaped as the format says, and made valid UTF-8.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/decode/event.h"
#include "trace/sinks/metrics.h"
#include "version.h"

/* Argument values a probe's firings are counted by; past them, the
 * firings count under "_other", said once. */
#define METRICS_MAX_VALUES 1000
/* The histogram's edges: 2^LOW .. 2^HIGH nanoseconds. */
#define BUCKET_LOW 10
#define BUCKET_HIGH 36

/* One probe's firings with one set of argument values. */
struct labelled {
	char *key;	    /* "PROBE\tlabels": the set's key */
	const char *labels; /* in key: ,name="value"... rendered */
	int probe;
	unsigned long long count;
};

/* A probe counted by value: its label names, made once, and how many
 * values it has. */
struct labelled_probe {
	char *names[TRACE_MAX_ARGS];
	int values;	/* kept, up to METRICS_MAX_VALUES */
	int other_said; /* past them: said once */
};

struct metrics {
	const struct tracer *tr;
	struct name_set set; /* key -> index + 1 */
	struct labelled *counts;
	int ncounts;
	struct labelled_probe *probes; /* by probe index, made as seen */
	int nprobes_known;
	struct buf key, value, labels; /* made here for each event */
};

struct metrics *metrics_new(const struct tracer *tr)
{
	struct metrics *m = xcalloc(1, sizeof(*m));

	m->tr = tr;
	name_set_init(&m->set, 64);
	return m;
}

/* s as a label value: \, " and newline escaped, bytes that are not
 * UTF-8 replaced by U+FFFD. */
static void put_label_value(struct buf *b, const char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t len = 0;

		/* The run up to the next byte to escape (memchr: s may hold
		 * NULs, which strchr would take as the set's end). */
		while (i + len < n && !memchr("\\\"\n", s[i + len], 3))
			len++;
		buf_utf8(b, s + i, len);
		i += len;
		if (i < n) {
			buf_lit(b, "\\");
			buf_add(b, s[i] == '\n' ? "n" : s + i, 1);
			i++;
		}
	}
}

/* An argument's name as a label name: [a-zA-Z_][a-zA-Z0-9_]*, not one
 * Prometheus keeps (__*) nor one of the probe's own labels; a binary's
 * declaration may name its arguments anything (fuzz/fuzz_metrics.c). */
static void put_label_name(struct buf *b, const char *name)
{
	struct buf clean = { 0 };
	const char *c;

	/* Each byte not allowed becomes '_'; then the checks, on that. */
	for (c = name; *c; c++) {
		int ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			 (*c >= '0' && *c <= '9') || *c == '_';

		buf_add(&clean, ok ? c : "_", 1);
	}
	buf_add(&clean, "", 1);
	/* "arg" before a name that starts with '_' (Prometheus keeps "__"
	   names, and a suffix may follow: "_" and "_2" would make "__2"),
	   with a digit, or is empty or one of the probe's own labels. */
	if (!clean.data[0] || clean.data[0] == '_' ||
	    (clean.data[0] >= '0' && clean.data[0] <= '9') ||
	    strcmp(clean.data, "provider") == 0 ||
	    strcmp(clean.data, "probe") == 0 || strcmp(clean.data, "le") == 0)
		buf_puts(b, clean.data[0] == '_' ? "arg" : "arg_");
	buf_puts(b, clean.data);
	buf_free(&clean);
}

/* The label name of t's k-th --by argument: put_label_name's, and _K+1
 * after it when an earlier one has the same (path+path, a-b and a_b). */
static void put_label_of(struct buf *b, const struct traced *t, int k)
{
	struct buf mine = { 0 }, other = { 0 };
	int j, same = 0;

	put_label_name(&mine, t->arg_names[t->label_args[k]]);
	for (j = 0; j < k && !same; j++) {
		other.len = 0;
		put_label_name(&other, t->arg_names[t->label_args[j]]);
		same = other.len == mine.len &&
		       memcmp(other.data, mine.data, mine.len) == 0;
	}
	buf_add(b, mine.data, mine.len);
	if (same)
		buf_printf(b, "_%d", k + 1);
	buf_free(&mine);
	buf_free(&other);
}

/* What is known of probe (its label names made the first time). */
static struct labelled_probe *labelled_probe(struct metrics *m, int probe)
{
	const struct traced *t = &m->tr->probes[probe];
	struct labelled_probe *lp;
	struct buf name = { 0 };
	int k;

	if (probe >= m->nprobes_known) {
		int more = probe + 64;

		m->probes = xrealloc(m->probes, (size_t)more * sizeof(*lp));
		memset(m->probes + m->nprobes_known, 0,
		       (size_t)(more - m->nprobes_known) * sizeof(*lp));
		m->nprobes_known = more;
	}
	lp = &m->probes[probe];
	for (k = 0; k < t->nlabel_args && !lp->names[k]; k++) {
		name.len = 0;
		put_label_of(&name, t, k);
		lp->names[k] = xstrndup(name.data, name.len);
	}
	buf_free(&name);
	return lp;
}

/* ,name="value" for each argument probe t's firings are counted by. */
static void labels_of(struct metrics *m, const struct traced *t,
		      const struct labelled_probe *lp,
		      const struct trace_event *e, struct buf *out)
{
	int k;

	out->len = 0;
	for (k = 0; k < t->nlabel_args; k++) {
		int a = t->label_args[k];

		buf_cat(out, ",", lp->names[k], "=\"", NULL);
		m->value.len = 0;
		if (event_arg_text(t, e, a, &m->value) != 0 &&
		    t->read[a].kind == ARG_STRING)
			buf_lit(&m->value, "(unreadable)");
		put_label_value(out, m->value.data ? m->value.data : "",
				m->value.len);
		buf_lit(out, "\"");
	}
	buf_add(out, "", 1);
	out->len--;
}

/* The count of probe's firings with labels, made if new: past
 * METRICS_MAX_VALUES, the probe's "_other". */
static struct labelled *count_of(struct metrics *m, int probe,
				 struct labelled_probe *lp, const char *labels)
{
	const struct traced *t = &m->tr->probes[probe];
	const void *found;
	struct labelled *c;
	int k;

	m->key.len = 0;
	buf_printf(&m->key, "%d\t%s", probe, labels);
	found = name_set_find(&m->set, m->key.data);
	if (found)
		return &m->counts[(intptr_t)found - 1];
	if (lp->values >= METRICS_MAX_VALUES &&
	    !strstr(labels, "=\"_other\"")) {
		struct buf other = { 0 };

		if (!lp->other_said) {
			lp->other_said = 1;
			warning_plain(
				"--metrics: %s fired with more than %d values of its --by arguments; the rest are counted as _other",
				t->label_text, METRICS_MAX_VALUES);
		}
		for (k = 0; k < t->nlabel_args; k++)
			buf_cat(&other, ",", lp->names[k], "=\"_other\"", NULL);
		c = count_of(m, probe, lp, other.data);
		buf_free(&other);
		return c;
	}
	lp->values++;
	m->counts = xgrow(m->counts, (size_t)m->ncounts, sizeof(*c));
	c = &m->counts[m->ncounts];
	c->key = xstrdup(m->key.data);
	c->labels = strchr(c->key, '\t') + 1;
	c->probe = probe;
	c->count = 0;
	name_set_add(&m->set, c->key, strlen(c->key),
		     (const void *)(intptr_t)(m->ncounts + 1));
	m->ncounts++;
	return c;
}

void metrics_event(struct metrics *m, const struct trace_event *e)
{
	const struct traced *t = &m->tr->probes[e->probe];
	struct labelled_probe *lp;

	if (!t->nlabel_args)
		return;
	lp = labelled_probe(m, (int)e->probe);
	labels_of(m, t, lp, e, &m->labels);
	count_of(m, (int)e->probe, lp, m->labels.data)->count++;
}

/* One series of a family, summed with the others of its labels. */
struct series {
	char *labels;
	unsigned long long count, sum_ns;
	unsigned long long le[BUCKET_HIGH - BUCKET_LOW + 1];
};

struct family {
	struct name_set set;
	struct series *all;
	int n;
};

static struct series *series_of(struct family *f, struct buf *labels)
{
	const void *found = name_set_find(&f->set, labels->data);
	struct series *s;

	if (found)
		return &f->all[(intptr_t)found - 1];
	f->all = xgrow(f->all, (size_t)f->n, sizeof(*s));
	s = &f->all[f->n];
	memset(s, 0, sizeof(*s));
	s->labels = xstrdup(labels->data);
	name_set_add(&f->set, s->labels, strlen(s->labels),
		     (const void *)(intptr_t)(f->n + 1));
	f->n++;
	return s;
}

static void family_free(struct family *f)
{
	int i;

	for (i = 0; i < f->n; i++)
		free(f->all[i].labels);
	free(f->all);
	name_set_free(&f->set);
}

/* provider="...",probe="..." (name: the second label's). */
static void base_labels(struct buf *b, const char *provider,
			const char *name_label, const char *name)
{
	b->len = 0;
	buf_lit(b, "provider=\"");
	put_label_value(b, provider, strlen(provider));
	buf_printf(b, "\",%s=\"", name_label);
	put_label_value(b, name, strlen(name));
	buf_lit(b, "\"");
}

static void head(struct buf *out, const char *name, const char *type,
		 const char *help, int openmetrics)
{
	/* OpenMetrics names a counter family without its _total. */
	size_t n = strlen(name);

	if (openmetrics && strcmp(type, "counter") == 0 && n > 6 &&
	    strcmp(name + n - 6, "_total") == 0)
		n -= 6;
	buf_printf(out, "# HELP %.*s %s\n# TYPE %.*s %s\n", (int)n, name, help,
		   (int)n, name, type);
}

static void probe_counters(const struct metrics *m, const struct tally *t,
			   struct buf *out, int openmetrics)
{
	const struct tracer *tr = m->tr;
	struct family f = { 0 };
	struct buf labels = { 0 };
	int i;

	name_set_init(&f.set, 64);
	for (i = 0; i < tr->nprobes; i++) {
		const struct traced *p = &tr->probes[i];

		/* A probe counted by values: those series, below. */
		if (p->nlabel_args)
			continue;
		base_labels(&labels, p->provider, "probe", p->name);
		series_of(&f, &labels)->count += t->counts[i];
	}
	for (i = 0; i < m->ncounts; i++) {
		const struct traced *p = &tr->probes[m->counts[i].probe];

		base_labels(&labels, p->provider, "probe", p->name);
		buf_puts(&labels, m->counts[i].labels);
		series_of(&f, &labels)->count += m->counts[i].count;
	}
	head(out, "probegen_probe_firings_total", "counter",
	     "Firings of the probe, in every process traced.", openmetrics);
	for (i = 0; i < f.n; i++)
		buf_printf(out, "probegen_probe_firings_total{%s} %llu\n",
			   f.all[i].labels, f.all[i].count);
	buf_free(&labels);
	family_free(&f);
}

static void pair_histograms(const struct metrics *m, const struct tally *t,
			    struct buf *out)
{
	const struct tracer *tr = m->tr;
	struct family f = { 0 };
	struct buf labels = { 0 }, name = { 0 };
	unsigned long long octaves[64], below;
	int i, k;

	if (!tr->npairs)
		return;
	name_set_init(&f.set, 16);
	for (i = 0; i < tr->npairs; i++) {
		const struct traced_pair *p = &tr->pairs[i];
		const struct trace_pair_stats *st = &t->pairs[i];
		struct series *s;

		name.len = 0;
		buf_puts(&name, p->stem);
		if (p->by)
			buf_cat(&name, "_by_", p->by, NULL);
		base_labels(&labels, tr->probes[p->start].provider, "pair",
			    name.data);
		s = series_of(&f, &labels);
		s->count += st->count;
		s->sum_ns += st->sum_ns;
		/* Below 2^k ns: every power of two below it. */
		trace_powers_of_two(st, octaves);
		for (k = 0, below = 0; k <= BUCKET_HIGH; k++) {
			if (k >= BUCKET_LOW)
				s->le[k - BUCKET_LOW] += below;
			below += octaves[k];
		}
	}
	head(out, "probegen_pair_duration_seconds", "histogram",
	     "Time from a pair's start to its end.", 0);
	for (i = 0; i < f.n; i++) {
		const struct series *s = &f.all[i];

		for (k = BUCKET_LOW; k <= BUCKET_HIGH; k++)
			buf_printf(out,
				   "probegen_pair_duration_seconds_bucket{%s,le=\"%.12g\"} %llu\n",
				   s->labels, (double)(1ull << k) / 1e9,
				   s->le[k - BUCKET_LOW]);
		buf_printf(out,
			   "probegen_pair_duration_seconds_bucket{%s,le=\"+Inf\"} %llu\n"
			   "probegen_pair_duration_seconds_sum{%s} %llu.%09llu\n"
			   "probegen_pair_duration_seconds_count{%s} %llu\n",
			   s->labels, s->count, s->labels,
			   s->sum_ns / 1000000000, s->sum_ns % 1000000000,
			   s->labels, s->count);
	}
	buf_free(&labels);
	buf_free(&name);
	family_free(&f);
}

/* --budget: the seconds each probe was traced.  A sampled probe's
 * firings are counted while it is traced: its rate is
 * rate(probegen_probe_firings_total) / rate(this), whatever the shares
 * were (both counters stay monotonic). */
static void traced_seconds(const struct metrics *m, struct buf *out,
			   int openmetrics)
{
	const struct tracer *tr = m->tr;
	struct buf labels = { 0 };
	int i;

	head(out, "probegen_probe_traced_seconds_total", "counter",
	     "Seconds the probe was traced (--budget samples hot probes: their firings were counted only then; divide the rates).",
	     openmetrics);
	for (i = 0; i < tr->nprobes; i++) {
		base_labels(&labels, tr->probes[i].provider, "probe",
			    tr->probes[i].name);
		buf_printf(out, "probegen_probe_traced_seconds_total{%s} %.3f\n",
			   labels.data, budget_traced_seconds(tr, i));
	}
	head(out, "probegen_budget_ratio", "gauge",
	     "The most the trace may add to the traced processes' CPU time (--budget), as a ratio.",
	     0);
	buf_printf(out, "probegen_budget_ratio %g\n", tr->plan.budget);
	buf_free(&labels);
}

void metrics_render(const struct metrics *m, const struct tally *t,
		    int openmetrics, struct buf *out)
{
	probe_counters(m, t, out, openmetrics);
	if (m->tr->plan.budget > 0)
		traced_seconds(m, out, openmetrics);
	pair_histograms(m, t, out);
	head(out, "probegen_events_lost_total", "counter",
	     "Events the ring buffer had no room for (--by's counts miss them).",
	     openmetrics);
	buf_printf(out, "probegen_events_lost_total %llu\n", t->dropped);
	head(out, "probegen_traced_processes", "gauge",
	     "Processes running now in which a traced probe has fired.", 0);
	buf_printf(out, "probegen_traced_processes %u\n", t->live_processes);
	/* OpenMetrics has a type for it; the text format, a gauge. */
	if (openmetrics)
		head(out, "probegen_build", "info", "probegen's version.", 0);
	else
		head(out, "probegen_build_info", "gauge", "probegen's version.",
		     0);
	buf_printf(out, "probegen_build_info{version=\"%s\"} 1\n",
		   PROBEGEN_VERSION);
	if (openmetrics)
		buf_lit(out, "# EOF\n");
}

void metrics_free(struct metrics *m)
{
	int i, k;

	if (!m)
		return;
	for (i = 0; i < m->ncounts; i++)
		free(m->counts[i].key);
	free(m->counts);
	for (i = 0; i < m->nprobes_known; i++)
		for (k = 0; k < TRACE_MAX_ARGS; k++)
			free(m->probes[i].names[k]);
	free(m->probes);
	name_set_free(&m->set);
	buf_free(&m->key);
	buf_free(&m->value);
	buf_free(&m->labels);
	free(m);
}
