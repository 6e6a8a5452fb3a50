/*
 * row.h - how a struct cl_record becomes a clearing_record row.
 *
 * The columns are the STORED fields of base/record_fields.def, between
 * the tenant and the load (gen/record_sql.h CL_SQL_RECORD_COLUMNS, the list
 * COPY and INSERT name).  What is stored: the key, its rule, the
 * fingerprint, the economic fields and the references; never names of
 * people or companies, remittance or addenda text.
 */
#ifndef CL_ROW_H
#define CL_ROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/record.h"
#include "gen/record_sql.h"
#include "loader/db.h"
#include "rules/near.h"

/* One stored field's value of a record, as the database gets it (COPY
 * for the stage, the parameter arrays of diff's batches): one definition
 * of which values are NULL and in which form the others travel. */
struct cl_row_value {
	enum { CL_RV_NULL, CL_RV_TEXT, CL_RV_HASH, CL_RV_INT8, CL_RV_INT4, CL_RV_DATE } kind;
	const char *s;             /* TEXT: the text; HASH: its len bytes; DATE:
	                              YYYY-MM-DD; valid while the record and
	                              this value are */
	size_t len;                /* HASH: 32 (a fingerprint) or
	                              CL_NEAR_HASH_LEN (the near identity) */
	int64_t i;                 /* INT8, INT4 */
	long days;                 /* DATE: days since 1970-01-01 */
	unsigned char buf[CL_NEAR_HASH_LEN]; /* a derived hash */
};

void cl_row_value(const struct cl_field *f, const struct cl_record *r, struct cl_row_value *v);

/* The i-th STORED field, in CL_SQL_RECORD_COLUMNS order; NULL past the
 * last. */
const struct cl_field *cl_row_stored(size_t i);

/* One row of the load's stage (loader/stage.c), in binary COPY: the
 * CL_SQL_RECORD_COLUMNS, then the key as the journal keeps it (accounts
 * masked; NULL: the key holds none), then, when `nonce` is not NULL, the
 * attempt's nonce (Citus's shared stage: migration 043).  `ordinal` is the
 * record's 1-based index in the file as the loader counted it. */
void cl_row_copy_staged(struct cl_copy_in *c, const struct cl_record *rec, unsigned long ordinal,
			const char *tenant, int64_t load_id, const char *journal_key,
			const int64_t *nonce);
/* The same row without the journal key: clearing_record's own columns, for
 * a new file COPYed straight into it (stage.c, cl_stage_copy_records). */
void cl_row_copy_record(struct cl_copy_in *c, const struct cl_record *rec, unsigned long ordinal,
			const char *tenant, int64_t load_id);
/* What the near-duplicate probe reads of a record (its tenant, kind, key,
 * shard, near identity and date, each as in clearing_record): a row of the
 * second connection's table (loader/near_side.c). */
void cl_row_copy_near(struct cl_copy_in *c, const struct cl_record *rec, const char *tenant);

/* Records as a text array of clearing_record (diff, sql/loader/plan.sql):
 * each record a composite value of the table's columns in the order
 * cl_row_array_columns names them (its tenant, stored fields and ordinal;
 * NULL for any other column), and beside it a text array of the records'
 * journal keys.  Growable buffers; zeroed is empty. */
struct cl_row_array {
	int *cols;                 /* per column: a cl_row_stored() index or
	                              one of the CL_ROW_COL_ below */
	size_t ncols;
	char *rows, *keys, *one;   /* the arrays; the record being written */
	size_t rows_len, rows_cap, keys_len, keys_cap, one_len, one_cap;
	unsigned long n;           /* records added */
};

#define CL_ROW_COL_NULL (-1)
#define CL_ROW_COL_TENANT (-2)
#define CL_ROW_COL_ORDINAL (-3)

/* The table's columns, in order (names[0..n)). */
void cl_row_array_columns(struct cl_row_array *a, const char *const *names, size_t n);
/* Add one record (journal_key NULL: the key holds no account). */
void cl_row_array_add(struct cl_row_array *a, const struct cl_record *rec, unsigned long ordinal,
		      const char *tenant, const char *journal_key);
/* The arrays so far as text ("{}" when empty); valid until the next call. */
const char *cl_row_array_rows(struct cl_row_array *a);
const char *cl_row_array_keys(struct cl_row_array *a);
/* Empty again (buffers and columns kept); free everything. */
void cl_row_array_reset(struct cl_row_array *a);
void cl_row_array_release(struct cl_row_array *a);

#endif
