/* key_sample.c - an evenly spaced sample of a file's natural keys
 * (key_sample.h). */
#include "loader/key_sample.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

void cl_key_sample_reset(struct cl_key_sample *s)
{
	s->n = 0;
	s->stride = 1;
	s->seen = 0;
	s->last.kind[0] = s->last.key[0] = '\0';
}

/* Called for every record of a file: a bounded copy, no formatting. */
static void copy(char *dst, size_t cap, const char *src)
{
	size_t n = strnlen(src, cap - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void put(struct cl_key_sample_key *k, const char *kind, const char *key,
		unsigned long ordinal)
{
	copy(k->kind, sizeof(k->kind), kind);
	copy(k->key, sizeof(k->key), key);
	k->ordinal = ordinal;
}

void cl_key_sample_add(struct cl_key_sample *s, const char *kind, const char *key,
		       unsigned long ordinal)
{
	unsigned long i = s->seen++;

	put(&s->last, kind, key, ordinal);
	if (i % s->stride)
		return;
	if (s->n == CL_KEY_SAMPLE_MAX) {
		/* keep keys 0, 2, 4 ...: the multiples of the doubled stride */
		for (size_t j = 0; 2 * j < s->n; j++)
			s->keys[j] = s->keys[2 * j];
		s->n = (s->n + 1) / 2;
		s->stride *= 2;
		if (i % s->stride)
			return;
	}
	if (!s->keys)
		s->keys = cl_xmalloc(CL_KEY_SAMPLE_MAX * sizeof(*s->keys));
	s->keys[s->n++] = s->last;
}

void cl_key_sample_arrays(const struct cl_key_sample *s, struct cl_text_array *kinds,
			  struct cl_text_array *keys)
{
	for (size_t j = 0; j < s->n; j++) {
		cl_text_array_add(kinds, s->keys[j].kind);
		cl_text_array_add(keys, s->keys[j].key);
	}
	if (s->seen) {
		cl_text_array_add(kinds, s->last.kind);
		cl_text_array_add(keys, s->last.key);
	}
}

void cl_key_sample_ordinals(const struct cl_key_sample *s, struct cl_text_array *ordinals)
{
	char n[24];

	for (size_t j = 0; j < s->n; j++) {
		snprintf(n, sizeof(n), "%lu", s->keys[j].ordinal);
		cl_text_array_add(ordinals, n);
	}
	if (s->seen) {
		snprintf(n, sizeof(n), "%lu", s->last.ordinal);
		cl_text_array_add(ordinals, n);
	}
}

void cl_key_sample_free(struct cl_key_sample *s)
{
	free(s->keys);
	s->keys = NULL;
	s->n = 0;
}
