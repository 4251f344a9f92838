/*
 * util.c - allocation that never returns NULL, strings, growable buffers.
 * Running out of memory is an environment failure: die() with exit 2.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "probegen.h"

_Noreturn void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr,
		"%s: fatal: ", diag.progname ? diag.progname : "probegen");
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

/* A fast hash of n bytes, eight at a time; the result is mixed so that
 * its low bits, which index hash tables, depend on every byte. */
size_t hash_bytes(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0x9e3779b97f4a7c15u * (n + 1), w;

	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
		h ^= h >> 32;
	}
	if (n) {
		w = 0;
		memcpy(&w, s, n);
		h = (h ^ w) * 0xff51afd7ed558ccdu;
	}
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53u;
	h ^= h >> 33;
	return (size_t)h;
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
	size_t size; /* bytes for data */
	int mapped;  /* from map_huge(), else from malloc */
	max_align_t data[];
};

/* A small tree lives in one chunk from malloc, of the size expected.
 * A big one, or one that outgrows that, gets chunks of 2 MiB, aligned to
 * 2 MiB and offered to the kernel for a transparent huge page: one page
 * fault instead of 512.  Speed machinery that stays because it pays 10%
 * or more (bench/tricks.sh, medians of per-round ratios): with plain
 * 64 KiB chunks from malloc, -h takes 1.28x as long on the 2,000-probe
 * mixed file and 1.46x on a 20,000-probe one.  Where huge pages are off,
 * the same chunk is faulted in 4 KiB pages. */
#define ARENA_FIRST_CHUNK (64u * 1024)
#define HUGE_PAGE (2u << 20)

/* size bytes (a multiple of HUGE_PAGE) aligned to HUGE_PAGE, zeroed. */
static void *map_huge(size_t size)
{
	char *p = mmap(NULL, size + HUGE_PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *start;
	size_t head;

	if (p == MAP_FAILED)
		die("out of memory mapping %zu bytes", size);
	start = (char *)(((uintptr_t)p + HUGE_PAGE - 1) &
			 ~(uintptr_t)(HUGE_PAGE - 1));
	head = (size_t)(start - p);
	if (head)
		munmap(p, head);
	munmap(start + size, HUGE_PAGE - head);
	madvise(start, size, MADV_HUGEPAGE); /* a hint: failure is fine */
	return start;
}

void *arena_alloc(struct arena *a, size_t n)
{
	void *p;

	/* Every node holds pointers: 8-byte alignment is enough. */
	n = (n + 7) & ~(size_t)7;
	if ((size_t)(a->end - a->next) < n) {
		struct arena_chunk *c;
		size_t first = a->expect > ARENA_FIRST_CHUNK
				       ? a->expect
				       : ARENA_FIRST_CHUNK;

		if (!a->chunks && first < HUGE_PAGE / 2 &&
		    n + sizeof(*c) <= first) {
			c = xcalloc(1, first);
			c->size = first - sizeof(*c);
		} else {
			size_t size = (n + sizeof(*c) + HUGE_PAGE - 1) &
				      ~(size_t)(HUGE_PAGE - 1);

			c = map_huge(size);
			c->size = size - sizeof(*c);
			c->mapped = 1;
		}
		c->next = a->chunks;
		a->chunks = c;
		a->next = (char *)c->data;
		a->end = a->next + c->size;
	}
	p = a->next;
	a->next += n;
	return p;
}

void arena_expect(struct arena *a, size_t n)
{
	a->expect = n;
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
		if (c->mapped)
			munmap(c, c->size + sizeof(*c));
		else
			free(c);
	}
	a->chunks = NULL;
	a->next = a->end = NULL;
}

/* A set of names, to find duplicates and collisions in linear time:
 * open addressing, at most half full (it doubles when it would be
 * more). */
void name_set_init(struct name_set *set, size_t n)
{
	set->cap = 16;
	while (set->cap < 2 * n)
		set->cap *= 2;
	set->count = 0;
	set->slots = xcalloc(set->cap, sizeof(*set->slots));
}

void name_set_free(struct name_set *set)
{
	free(set->slots);
	set->slots = NULL;
}

static struct name_entry *name_slot(const struct name_set *set,
				    const char *name, size_t len)
{
	size_t i = hash_bytes(name, len) & (set->cap - 1);
	struct name_entry *e;

	for (; (e = &set->slots[i])->name; i = (i + 1) & (set->cap - 1))
		if (strcmp(e->name, name) == 0)
			break;
	return e;
}

const void *name_set_find(const struct name_set *set, const char *name)
{
	return name_slot(set, name, strlen(name))->owner;
}

static void name_set_grow(struct name_set *set)
{
	struct name_set bigger;
	size_t i;

	name_set_init(&bigger, set->cap);
	for (i = 0; i < set->cap; i++)
		if (set->slots[i].name)
			*name_slot(&bigger, set->slots[i].name,
				   strlen(set->slots[i].name)) = set->slots[i];
	bigger.count = set->count;
	free(set->slots);
	*set = bigger;
}

const void *name_set_add(struct name_set *set, const char *name, size_t len,
			 const void *owner)
{
	struct name_entry *e = name_slot(set, name, len);

	if (e->name)
		return e->owner;
	e->name = name;
	e->owner = owner;
	if (++set->count * 2 > set->cap)
		name_set_grow(set);
	return NULL;
}

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_length(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned min, cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, min = 0x80, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, min = 0x800, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, min = 0x10000, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* Overlong forms, UTF-16 surrogates and past U+10FFFF are not UTF-8. */
	if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

char *escape_to(char *out, const char *s, size_t n, int json)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		size_t len = utf8_length(p, (size_t)(end - p));
		unsigned char c = *p;

		if (c == '"' || c == '\\') {
			*out++ = '\\';
			*out++ = (char)c;
		} else if (c == '\n' || c == '\t') {
			*out++ = '\\';
			*out++ = c == '\n' ? 'n' : 't';
		} else if (len == 1 && c >= 0x20 && c != 0x7f) {
			*out++ = (char)c;
		} else if (len > 1) {
			memcpy(out, p, len);
			out += len;
			p += len;
			continue;
		} else if (json && c >= 0x80) {
			memcpy(out, "\\ufffd", 6);
			out += 6;
		} else {
			memcpy(out, json ? "\\u00" : "\\x", json ? 4 : 2);
			out += json ? 4 : 2;
			*out++ = hex[c >> 4];
			*out++ = hex[c & 15];
		}
		p++;
	}
	return out;
}

void buf_escaped(struct buf *b, const char *s, size_t n, int json)
{
	char *end;

	buf_reserve(b, ESCAPED_MAX(n));
	end = escape_to(b->data + b->len, s, n, json);
	b->len = (size_t)(end - b->data);
	b->data[b->len] = '\0';
}

char **split_words(const char *s, char **error)
{
	size_t n = strlen(s), count = 0;
	char **argv = xcalloc(n / 2 + 2, sizeof(char *));
	char *word = xmalloc(n + 1), *w = NULL;
	char quote = 0;

	*error = NULL;
	for (; *s; s++) {
		char c = *s;

		if (!quote && (c == ' ' || c == '\t' || c == '\n')) {
			if (w) {
				*w = '\0';
				argv[count++] = xstrdup(word);
				w = NULL;
			}
			continue;
		}
		/* \newline outside single quotes joins lines; alone
		 * between blanks it starts no word. */
		if (c == '\\' && s[1] == '\n' && quote != '\'') {
			s++;
			continue;
		}
		if (!w)
			w = word;
		if (quote == '\'') {
			if (c == '\'')
				quote = 0;
			else
				*w++ = c;
		} else if (c == '\\' && s[1] &&
			   (!quote || strchr("\"\\$`", s[1]))) {
			*w++ = s[1];
			s++;
		} else if (c == '"' && quote) {
			quote = 0;
		} else if ((c == '"' || c == '\'') && !quote) {
			quote = c;
		} else {
			*w++ = c;
		}
	}
	if (quote)
		*error = xasprintf("unterminated %s quote",
				   quote == '"' ? "double" : "single");
	else if (w) {
		*w = '\0';
		argv[count++] = xstrdup(word);
	}
	free(word);
	if (*error || !count) {
		if (!*error)
			*error = xstrdup("no command");
		words_free(argv);
		return NULL;
	}
	return argv;
}

void words_free(char **argv)
{
	char **p;

	for (p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

void buf_json_string(struct buf *b, const char *s)
{
	buf_lit(b, "\"");
	buf_escaped(b, s, strlen(s), 1);
	buf_lit(b, "\"");
}
