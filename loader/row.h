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
#include <stdint.h>

#include "db.h"
#include "record.h"
#include "record_sql.h"

/* One row of the load's stage (loader/stage.c), in binary COPY: the
 * CL_SQL_RECORD_COLUMNS, then the key as the journal keeps it (accounts
 * masked; NULL: the key holds none).  `ordinal` is the record's 1-based
 * index in the file as the loader counted it. */
void cl_row_copy_staged(struct cl_copy_in *c, const struct cl_record *rec, unsigned long ordinal,
			const char *tenant, int64_t load_id, const char *journal_key);

#endif
