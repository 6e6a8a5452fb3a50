/*
 * ach_identity.h - what makes an ACH record the record it is: its natural
 * key and its fingerprint, pure functions of its fields (the encodings are
 * in ach_identity.c and clearing-load-keys(7); fixed for key rule v1).
 *
 *   struct cl_ach_fp *f = cl_ach_fp_new();
 *   for each batch:   cl_ach_fp_batch(f);
 *     for each record of it:  cl_ach_identity(f, rec, rule, iat_or_NULL);
 *   cl_ach_fp_free(f);
 *
 * The NACHA parser and the CSV reader both call cl_ach_identity, so a record
 * rebuilt from a CSV export gets the bytes its NACHA file gave.
 */
#ifndef CL_ACH_IDENTITY_H
#define CL_ACH_IDENTITY_H

#include "base/record.h"

enum cl_ach_key {
	CL_ACH_KEY_STRICT = 0, /* company id + trace + effective date (v1) */
	CL_ACH_KEY_BATCH,      /* + batch number (v1-batch, weaker) */
};

/* The IAT fields an IAT record's fingerprint adds (addenda 14 and the IAT
 * batch header), which are not record fields. */
struct cl_ach_iat {
	const char *rdfi_qual, *rdfi_id, *dest_country, *dest_currency;
};

/* The hasher, with the fingerprint prefix of the current batch cached.
 * Out of memory exits (cl_xmalloc). */
struct cl_ach_fp;
struct cl_ach_fp *cl_ach_fp_new(void);
void cl_ach_fp_free(struct cl_ach_fp *f); /* NULL is fine */

/* A new batch, or records whose batch fields (company_id, sec_code,
 * value_date) may differ from the last one's: forget the cached prefix. */
void cl_ach_fp_batch(struct cl_ach_fp *f);

/* r->natural_key, r->key_rule and r->fingerprint from r's fields (kind
 * ach.entry, ach.return or ach.noc; transaction_code 2 and receiving_dfi 9
 * characters); `iat` for an IAT record, else NULL.  Every part has a fixed
 * maximum width: the key always fits. */
void cl_ach_identity(struct cl_ach_fp *f, struct cl_record *r, enum cl_ach_key rule,
		     const struct cl_ach_iat *iat);

/* r->natural_key and r->key_rule as cl_ach_identity() writes them; the
 * fingerprint zero (for a reader that does not look at it). */
void cl_ach_natural_key(struct cl_record *r, enum cl_ach_key rule);

#endif
