/*
 * answer_out.h - a bank's answer item (a statement, an entry, a status:
 * one row of rules/statement_fields.def) as `parse` prints it: a JSON
 * object of type "statement_item" or a CSV row, every column of the field
 * table the row has (the loader's own columns left out), accounts masked
 * in the account and in the keys unless --no-mask.
 */
#ifndef CL_ANSWER_OUT_H
#define CL_ANSWER_OUT_H

#include <stdio.h>

#include "rules/statement_identity.h"

void cl_json_answer(FILE *f, const char *file, const struct cl_stmt_row *row);

/* One line for a person: FILE:LINE item key amount currency direction
 * booking-date status ("-" for none), every value made safe. */
void cl_text_answer(FILE *f, const char *file_text, const struct cl_stmt_row *row);

/* The CSV header row (file, then the columns) and a row under it. */
void cl_csv_answer_header(FILE *f);
void cl_csv_answer(FILE *f, const char *file, const struct cl_stmt_row *row);

#endif
