/*
 * keyset.h - the natural keys of one file, without a database: finds a key
 * that occurs twice (the file cannot be deduplicated safely).
 * validate and parse check ISO 20022 keys with it as load and diff do with
 * the staged keys; the NACHA parser the keys of returns and
 * NOCs, which trace order cannot prove unique.
 *
 * Memory: one 24-byte slot per distinct key (a 128-bit SHA-256 prefix of
 * kind and key, the line of the first occurrence, a caller tag); the table
 * doubles when 3/4 full, so 32 to 64 bytes per record, plus the old table
 * while it grows: a 200,000-record pain.001 (86 MB of XML) adds 19 MB at
 * the peak (the worst case: just past a doubling).  Two different keys
 * share a slot only if their 128-bit hashes collide (never, in practice:
 * about 2^-64 for 2^32 keys; SHA-256, so a sender cannot make them collide
 * on purpose).
 */
#ifndef CL_KEYSET_H
#define CL_KEYSET_H

#include <stdbool.h>
#include <stdint.h>

#include "base/record.h"

struct cl_keyset; /* opaque */

struct cl_keyset_entry {
	uint64_t hash[2];          /* SHA-256 of kind NUL key, first 128 bits;
	                              never all zero (that marks a free slot) */
	uint32_t first_line;       /* where the key occurred first (lines past
	                              2^32-1 are kept as 2^32-1) */
	uint32_t tag;              /* the caller's: 0 until it sets one */
};

struct cl_keyset *cl_keyset_new(void);
void cl_keyset_free(struct cl_keyset *s); /* NULL is fine */

/* Look up `kind` + `key`; when new, add it with `line` and return false.
 * Either way *e points at its entry, valid until the next call (the table
 * may move when it grows).  Out of memory exits (cl_xmalloc). */
bool cl_keyset_add(struct cl_keyset *s, const char *kind, const char *key, unsigned long line,
		   struct cl_keyset_entry **e);

/* Distinct keys held. */
unsigned long cl_keyset_count(const struct cl_keyset *s);

/* Give an error about one payment key twice in a file (duplicate_key, or
 * duplicate_alt_key when `alt`) its hint: what the operator can do.  One
 * text for every place that finds such a key (parsers, validate, load). */
void cl_keyset_duplicate_hint(struct cl_error *err, bool alt);

#endif
