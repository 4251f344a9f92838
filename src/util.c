/*
 * util.c - allocation that never returns NULL, strings, growable buffers,
 * and the arena the tree lives in.
 * Running out of memory is an environment failure: die() with exit 2.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "probegen.h"

_Noreturn void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, PROGRAM_NAME ": fatal: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_SYSTEM);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory allocating %zu bytes", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory allocating %zu objects", n);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory allocating %zu bytes", n);
	return p;
}

void *xgrow(void *p, size_t count, size_t size)
{
	/* The capacity is the power of two at or above count: grow only
	   when count reaches one. */
	if (count >= 8 && (count & (count - 1)))
		return p;
	return xrealloc(p, size * (count < 8 ? 8 : 2 * count));
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	struct buf b = { 0 };
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("formatting failed");
	b.data = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(b.data, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return b.data;
}

void buf_reserve(struct buf *b, size_t more)
{
	if (b->len + more + 1 <= b->cap)
		return;
	while (b->len + more + 1 > b->cap)
		b->cap = b->cap ? b->cap * 2 : 256;
	b->data = xrealloc(b->data, b->cap);
}

/* One formatting pass when the text fits, which is nearly always. */
void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	buf_reserve(b, 64);
	va_copy(again, ap);
	n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
	if (n < 0)
		die("formatting failed");
	if ((size_t)n >= b->cap - b->len) {
		buf_reserve(b, (size_t)n);
		vsnprintf(b->data + b->len, (size_t)n + 1, fmt, again);
	}
	va_end(again);
	b->len += (size_t)n;
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

/* Append the strings given, up to a NULL. */
void buf_cat(struct buf *b, ...)
{
	va_list ap;
	const char *s;

	va_start(ap, b);
	while ((s = va_arg(ap, const char *)))
		buf_add(b, s, strlen(s));
	va_end(ap);
}

void buf_free(struct buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

/* ---- arena: the tree's memory, freed all at once ---- */

struct arena_chunk {
	struct arena_chunk *next;
	max_align_t data[];
};

/* Chunks of 64 KiB from malloc, or one of a node's size if bigger.
 * (A huge-page arena sized by the text's length was tried and measured:
 * 1.08x on the 2,000-probe file, under the 10% rule, BENCHMARKS.md.) */
#define ARENA_CHUNK (64u * 1024)

void *arena_alloc(struct arena *a, size_t n)
{
	void *p;

	/* Every node holds pointers: 8-byte alignment is enough. */
	n = (n + 7) & ~(size_t)7;
	if ((size_t)(a->end - a->next) < n) {
		size_t size = n > ARENA_CHUNK ? n : ARENA_CHUNK;
		struct arena_chunk *c = xcalloc(1, sizeof(*c) + size);

		c->next = a->chunks;
		a->chunks = c;
		a->next = (char *)c->data;
		a->end = a->next + size;
	}
	p = a->next;
	a->next += n;
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void arena_free(struct arena *a)
{
	struct arena_chunk *c, *next;

	for (c = a->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	a->chunks = NULL;
	a->next = a->end = NULL;
}

/* ---- files ---- */

const char *path_base_name(const char *path)
{
	const char *base = strrchr(path, '/');

	return base ? base + 1 : path;
}

int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (strcmp(a, b) == 0)
		return 1;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* ---- typos: "did you mean" ---- */

/* Optimal string alignment distance (insert, delete, change, swap of
 * neighbours) between a and b, or max + 1 once it must exceed max.
 * Names are short: the rows are on the stack, longer ones never close. */
static int edit_distance(const char *a, const char *b, int max)
{
	size_t n = strlen(a), m = strlen(b), i, j;
	int rows[3][65], *prev2 = rows[0], *prev = rows[1], *cur = rows[2];

	if (n > 64 || m > 64 || (n > m ? n - m : m - n) > (size_t)max)
		return max + 1;
	for (j = 0; j <= m; j++)
		prev[j] = (int)j;
	for (i = 1; i <= n; i++) {
		int best = cur[0] = (int)i, *t;

		for (j = 1; j <= m; j++) {
			int d = prev[j - 1] + (a[i - 1] != b[j - 1]);

			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
			if (d < best)
				best = d;
		}
		if (best > max)
			return max + 1;
		t = prev2, prev2 = prev, prev = cur, cur = t;
	}
	return prev[m];
}

int likely_typo(const char *s, const char *word)
{
	int max = strlen(word) <= 4 ? 1 : 2, d = edit_distance(s, word, max);

	return d > 0 && d <= max;
}

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
