/*
 * name_set.c - sets of names, to find duplicates and collisions in
 * linear time, and the one hash they use (also the arena-free lookups
 * of the typedef index).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probegen.h"

/* FNV-1a, a byte at a time.  (Eight bytes at a time was tried and
 * measured: 0.94x-0.99x on the 2,000- and 20,000-probe files, under the
 * 10% rule, BENCHMARKS.md.) */
size_t hash_bytes(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = 0xcbf29ce484222325u;

	for (; n; n--)
		h = (h ^ *s++) * 0x100000001b3u;
	return (size_t)(h ^ h >> 32);
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
