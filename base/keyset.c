/* keyset.c - an open-addressing hash set of natural keys (keyset.h). */
#include "base/keyset.h"

#include <stdlib.h>
#include <string.h>

#include "base/sha256.h"
#include "base/xmalloc.h"

#define KEYSET_MIN 1024 /* slots; a power of two */

struct cl_keyset {
	struct cl_keyset_entry *slot; /* cap entries */
	size_t cap;                   /* a power of two */
	size_t used;                  /* occupied slots */
	struct cl_sha256 *sha;        /* the SHA-256 of each key */
};

/* A table of cap free slots.  Written through before it is read: calloc's
 * fresh pages would first map the shared zero page and then be copied on
 * the first write, each copy a TLB flush on every CPU the process runs on
 * (the file hasher's thread, hasher.h) - most of the time a growing set
 * took. */
static struct cl_keyset_entry *new_table(size_t cap)
{
	struct cl_keyset_entry *slot = cl_xmalloc(cap * sizeof(*slot));

	memset(slot, 0, cap * sizeof(*slot));
	return slot;
}

struct cl_keyset *cl_keyset_new(void)
{
	struct cl_keyset *s = cl_xmalloc(sizeof(*s));

	s->cap = KEYSET_MIN;
	s->used = 0;
	s->slot = new_table(s->cap);
	s->sha = cl_sha256_new();
	return s;
}

void cl_keyset_free(struct cl_keyset *s)
{
	if (!s)
		return;
	cl_sha256_free(s->sha);
	free(s->slot);
	free(s);
}

static void key_hash(struct cl_keyset *s, const char *kind, const char *key, uint64_t h[2])
{
	unsigned char d[32];

	cl_sha256_begin(s->sha);
	cl_sha256_update(s->sha, kind, strlen(kind) + 1); /* with its NUL: a separator */
	cl_sha256_update(s->sha, key, strlen(key));
	cl_sha256_end(s->sha, d);
	memcpy(&h[0], d, 8);
	memcpy(&h[1], d + 8, 8);
	if (!h[0] && !h[1])
		h[1] = 1; /* all zero marks a free slot */
}

static bool used(const struct cl_keyset_entry *e)
{
	return e->hash[0] || e->hash[1];
}

/* The slot of h: its own, or the empty one where it belongs. */
static struct cl_keyset_entry *find(struct cl_keyset_entry *slot, size_t cap, const uint64_t h[2])
{
	size_t i = (size_t)h[0] & (cap - 1);

	while (used(&slot[i]) && (slot[i].hash[0] != h[0] || slot[i].hash[1] != h[1]))
		i = (i + 1) & (cap - 1);
	return &slot[i];
}

static void grow(struct cl_keyset *s)
{
	size_t cap = s->cap * 2;
	struct cl_keyset_entry *slot = new_table(cap);

	for (size_t i = 0; i < s->cap; i++)
		if (used(&s->slot[i]))
			*find(slot, cap, s->slot[i].hash) = s->slot[i];
	free(s->slot);
	s->slot = slot;
	s->cap = cap;
}

bool cl_keyset_add(struct cl_keyset *s, const char *kind, const char *key, unsigned long line,
		   struct cl_keyset_entry **e)
{
	uint64_t h[2];
	struct cl_keyset_entry *x;

	key_hash(s, kind, key, h);
	x = find(s->slot, s->cap, h);
	if (used(x)) {
		*e = x;
		return true;
	}
	if ((s->used + 1) * 4 > s->cap * 3) {
		grow(s);
		x = find(s->slot, s->cap, h);
	}
	x->hash[0] = h[0];
	x->hash[1] = h[1];
	x->first_line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
	x->tag = 0;
	s->used++;
	*e = x;
	return false;
}

void cl_keyset_duplicate_hint(struct cl_error *err, bool alt)
{
	if (alt)
		cl_error_hint(err, "the file holds one payment more than once (with and without "
				   "its UETR, or under other references): keep one copy and load "
				   "the file again");
	else
		cl_error_hint(err, "if the later record is a copy of the first, remove it and "
				   "load the file again; if they are two payments, the sender must "
				   "give them different references (clearing-load-keys(7) names "
				   "the key fields)");
}

unsigned long cl_keyset_count(const struct cl_keyset *s)
{
	return (unsigned long)s->used;
}
