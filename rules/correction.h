/*
 * correction.h - the natural key of a correction (clearing-load resolve
 * --accept; clearing-load-keys(7), "Corrections").
 *
 * A correction is a new record: the accepted new version of a record
 * whose key is already applied.  It cannot take that key (the unique
 * index holds it for ever, and the record it corrects is never changed),
 * so it takes the corrected record's key followed by "#corr" and its
 * number among that record's corrections: KEY#corr1, KEY#corr2, ...  A
 * file's key ends so only if its last field does (an ISO 20022 identifier
 * may hold "#"); then the unique index refuses whichever comes second (a
 * resolve fails, or the file's record is classified against the
 * correction): one key is never applied twice.
 */
#ifndef CL_CORRECTION_H
#define CL_CORRECTION_H

#include <stdbool.h>
#include <stddef.h>

/* The key of correction number n (1 for a record's first) of the record
 * under `key`, into out[cap].  False when it does not fit (out is then
 * ""), or n is 0. */
bool cl_correction_key(const char *key, unsigned long n, char *out, size_t cap);

#endif
