/*
 * near.h - the ACH near-duplicate rule, once: which records it applies to,
 * their near identity, and when two dates are near (clearing-load-keys(7),
 * "Near duplicates").
 *
 * A near duplicate is one payment (or return) under two natural keys: an
 * entry re-dated, re-batched (--ach-key=batch) or re-generated.  Two ACH
 * records are near duplicates when they have the same kind, the same near
 * identity (cl_near_key), other natural keys and near dates
 * (cl_near_dates).  The identity is text, computed here for every record
 * the loader writes; clearing_record.near_key stores the shard and the
 * text's hash (cl_near_hash: 16 bytes, not 50 to 60; migration 034), so
 * the database finds copies by an index probe; sql/010_near_key.sql
 * computes the same text for records applied before (clearing_near_key)
 * and sql/034_near_hash.sql the same hash (clearing_near_hash), and
 * tests/db/test_near_vectors.sh holds both to the same answers.
 *
 * The identity, with each field escaped ('\' and '|' get a '\' before
 * them) and amounts in minor units, in decimal:
 *
 *   ach.entry   E|company_id|trace_number|account|receiving_dfi|amount
 *               account: the receiving account without its leading blanks
 *               and zeros and its trailing blanks (tools left- or
 *               right-justify the 17-character field, blank- or
 *               zero-filled)
 *   ach.return  R|original_trace|class|original_rdfi|amount
 *               class: "plain" for every plain return code (an entry is
 *               returned once), else the dishonored or contested code
 *               itself (R61-R77)
 *   ach.noc     N|original_trace|change_code|original_rdfi|amount
 *
 * An empty field is part of the identity as an empty text.  The first
 * letter names the kind, so the identity alone tells kinds apart.  Every
 * function here is pure: no allocation, no state.
 */
#ifndef CL_NEAR_H
#define CL_NEAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/record.h"
#include "base/sha256.h"

/* Room for the longest identity: every field escaped (doubled). */
#define CL_NEAR_KEY_MAX (2 * (sizeof(((struct cl_record *)0)->original_trace) + \
			      sizeof(((struct cl_record *)0)->reason_code) +        \
			      sizeof(((struct cl_record *)0)->company_id) +         \
			      sizeof(((struct cl_record *)0)->trace_number) +       \
			      sizeof(((struct cl_record *)0)->receiving_account) +  \
			      sizeof(((struct cl_record *)0)->receiving_dfi)) + 64)

/* The banking days within which two dates are near (inclusive). */
#define CL_NEAR_BANKING_DAYS 5

/* Is the rule about records of this kind (ach.entry, ach.return, ach.noc)? */
bool cl_near_applies(const char *kind);

/* Is `code` a plain return code: anything but R61-R69 and R70-R77, the
 * dishonored and contested returns, which keep their own code? */
bool cl_near_plain_return(const char *code);

/* The record's near identity into out[cap] (cap >= CL_NEAR_KEY_MAX never
 * truncates).  Returns false, with out[0] = '\0', for a record the rule is
 * not about. */
bool cl_near_key(const struct cl_record *rec, char *out, size_t cap);

/* The bytes of the stored identity: the record's shard (8 bytes,
 * big-endian), then the first 8 bytes of the identity's SHA-256. */
#define CL_NEAR_HASH_LEN 16

/* The record's stored near identity into out: `shard` (rules/shard.h
 * cl_shard of the record: for ACH records their trace, which a near
 * duplicate shares) big-endian, then the first 8 bytes of the SHA-256 of
 * cl_near_key's text (h: a context of base/sha256.h, reused).  The shard
 * first keeps a file's inserts into the index together, as the text's
 * originator and trace did (a hash alone sends each to a random page).
 * Returns false, out untouched, for a record the rule is not about.  A
 * near duplicate also needs the same kind and a near date: two payments of
 * one trace within 5 banking days share the 8 bytes with a chance of
 * 2^-64 a pair. */
bool cl_near_hash(struct cl_sha256 *h, const struct cl_record *rec, int64_t shard,
		  unsigned char out[CL_NEAR_HASH_LEN]);

/* Are two effective dates ("YYYY-MM-DD", or "" for none) near: within
 * CL_NEAR_BANKING_DAYS banking days (banking_days.h), or either absent or
 * not a date (a return's date may be blank: it meets every copy)? */
bool cl_near_dates(const char *a, const char *b);

/* The same for day numbers (cl_date_days): have_a false means a has no
 * date. */
bool cl_near_days(bool have_a, long a, bool have_b, long b);

/* The error for two records of one file that are one payment (or return):
 * `first` and `last` are their lines in file order, date_first and
 * date_last their effective dates ("" for none).  load, diff and validate
 * all report a pair with this message (code near_duplicate_in_file, at
 * line `last`, other_line `first`). */
void cl_near_in_file_error(struct cl_error *e, const char *file, const char *kind,
			   unsigned long first, const char *date_first, unsigned long last,
			   const char *date_last);

#endif
