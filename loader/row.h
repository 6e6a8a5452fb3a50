/*
 * row.h - how a struct cl_record becomes a clearing_record row.
 *
 * The columns are the STORED fields of parsers/record_fields.def, between
 * the tenant and the load (gen/record_sql.h CL_SQL_RECORD_COLUMNS, the list
 * COPY and INSERT name).  What is stored: the key, its rule, the
 * fingerprint, the economic fields and the references; never names of
 * people or companies, remittance or addenda text.
 */
#ifndef CL_ROW_H
#define CL_ROW_H

#include <stdbool.h>
#include <stddef.h>

#include "db.h"
#include "record.h"
#include "record_sql.h"

/* Write one full row in CL_SQL_RECORD_COLUMNS order.  `ordinal` is the
 * record's 1-based index in the file as the loader counted it (the same in
 * every pass); load_id is decimal. */
void cl_row_copy(struct cl_copy_in *c, const struct cl_record *rec, unsigned long ordinal,
		 const char *tenant, const char *load_id);

/* The same followed by the key as the journal keeps it (accounts masked;
 * NULL: the key holds none): a row of the load's stage (loader/stage.c). */
void cl_row_copy_staged(struct cl_copy_in *c, const struct cl_record *rec, unsigned long ordinal,
			const char *tenant, const char *load_id, const char *journal_key);

/* One field's value into a COPY row (a tab first), NULL for none. */
void cl_row_copy_field(struct cl_copy_in *c, const struct cl_field *f, const struct cl_record *rec);

#endif
