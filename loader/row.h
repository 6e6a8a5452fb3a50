/*
 * row.h - how a struct cl_record becomes a clearing_record row.
 *
 * The one place that lists clearing_record's columns in COPY order, and the
 * fields compared when a conflict is explained.  What is stored: the key,
 * its rule, the fingerprint, the economic fields and the references
 * (sql/002_record.sql); never names of people or companies, remittance or
 * addenda text.
 */
#ifndef CL_ROW_H
#define CL_ROW_H

#include <stdbool.h>
#include <stddef.h>

#include "db.h"
#include "record.h"

/* The columns cl_row_copy() writes, in order (for COPY ... (cols)). */
extern const char cl_row_columns[];

/* Write one full row.  `ordinal` is the record's 1-based index in the file
 * as the loader counted it (the same in every pass); load_id is decimal. */
void cl_row_copy(struct cl_copy_in *c, const struct cl_record *rec, unsigned long ordinal,
		 const char *tenant, const char *load_id);

/* Fields that make up a record's economics and identity, compared to name
 * what differs in a conflict. */
struct cl_row_field {
	const char *name;  /* clearing_record column */
	bool account;      /* an account number (masked in output) */
	unsigned since;    /* the schema version that added the column (0: from
	                      the start): records applied before have it empty,
	                      and "empty" there means "not known" */
};
extern const struct cl_row_field cl_row_compared[];
extern const unsigned cl_row_compared_count;

/* The value of compared field `i` of `rec` as PostgreSQL prints it ("" for
 * none); uses buf[32] for numbers. */
const char *cl_row_value(const struct cl_record *rec, unsigned i, char buf[32]);

/* Copy `key` into out[cap] with every occurrence of one of the record's
 * account numbers (receiving, debtor, creditor) masked: all but its last
 * four characters become '*'.  Returns true when something was masked.
 * The journal stores keys this way (a pain.001 key holds the debtor
 * account); output uses it unless --no-mask. */
bool cl_row_mask_key(const struct cl_record *rec, const char *key, char *out, size_t cap);

/* The same with the account numbers given (NULL entries are skipped). */
bool cl_mask_in_key(const char *key, const char *const *accounts, size_t n, char *out,
		    size_t cap);

#endif
