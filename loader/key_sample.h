/*
 * key_sample.h - an evenly spaced sample of a file's natural keys, taken
 * while the file is read, in memory bounded whatever the file's size.
 *
 * It answers one question cheaply (loader/load.c): is some key of this
 * file applied already?  When none of the sample is, the file is taken for
 * new and inserted at once; the unique index stays the arbiter (a key the
 * sample missed fails the insert and the file is classified in full), so
 * the sample decides only how fast a file loads, never what is applied.
 *
 * Every stride-th key is kept (the first, then every stride-th after it);
 * when CL_KEY_SAMPLE_MAX are kept, every other one is dropped and the
 * stride doubles.  The last key is always kept too: a corrected re-upload
 * adds its new records at the end.  A million keys: 1,954 sampled (stride
 * 512), so an overlap of one key in 500 or more is found almost surely.
 */
#ifndef CL_KEY_SAMPLE_H
#define CL_KEY_SAMPLE_H

#include <stddef.h>

#include "base/record.h"
#include "loader/db.h"

#define CL_KEY_SAMPLE_MAX 2048

struct cl_key_sample_key {
	char kind[16];
	char key[CL_KEY_MAX];
	unsigned long ordinal; /* its record's ordinal in the stage */
};

struct cl_key_sample {
	struct cl_key_sample_key *keys; /* CL_KEY_SAMPLE_MAX, allocated on first use */
	size_t n;
	unsigned long stride, seen;
	struct cl_key_sample_key last;
};

/* Forget every key (a new read of the file); keeps the allocation. */
void cl_key_sample_reset(struct cl_key_sample *s);
void cl_key_sample_add(struct cl_key_sample *s, const char *kind, const char *key,
		       unsigned long ordinal);
/* The sampled kinds and keys (the last among them), in file order, as
 * two text[] arrays of equal length. */
void cl_key_sample_arrays(const struct cl_key_sample *s, struct cl_text_array *kinds,
			  struct cl_text_array *keys);
/* The sampled records' ordinals in the stage (the last among them), in
 * file order, as a bigint[] array's text (Citus reads the sampled records
 * in the distributed stage: classify.sql, classify_sample_citus). */
void cl_key_sample_ordinals(const struct cl_key_sample *s, struct cl_text_array *ordinals);
void cl_key_sample_free(struct cl_key_sample *s);

#endif
