/*
 * mask.h - account numbers masked for output and for the journal.
 *
 * A masked value keeps its last four characters and shows '*' for the
 * rest, so an operator can still tell two accounts apart.  These functions
 * always mask; whether output is masked at all (--no-mask) is the
 * program's choice (cmd/cli.h cl_out_account, cl_out_key).  Which fields
 * are accounts is said once, by the ACCOUNT flag of record_fields.def.
 */
#ifndef CL_MASK_H
#define CL_MASK_H

#include <stdbool.h>
#include <stddef.h>

#include "base/record.h"

/* `acct` masked into out[cap] (cut to cap - 1 bytes); "" stays "". */
void cl_mask_account(const char *acct, char *out, size_t cap);

/* Copy `key` into out[cap] with every occurrence of one of `accounts` (n
 * entries, NULL and those under 5 characters skipped) masked.  Returns true
 * when something was masked. */
bool cl_mask_in_key(const char *key, const char *const *accounts, size_t n, char *out,
		    size_t cap);

/* The same with the accounts a natural key can contain: the record's
 * receiving, debtor and creditor accounts (a pain.001 key holds the debtor
 * account).  The journal stores keys this way. */
bool cl_mask_record_key(const struct cl_record *rec, const char *key, char *out, size_t cap);

#endif
