/*
 * csv_records.h - records read back from a CSV export (`clearing-load parse
 * --format csv --no-mask`), through libcsv in strict mode.  (Not "csv.h":
 * with -Iparsers that name would hide libcsv's own <csv.h>.)
 *
 * The first row names the columns (order free, an optional UTF-8 BOM
 * before it); every further row is one record.  Columns are matched by
 * name: an unknown, duplicated or missing required column stops the file.
 * Each value goes into its struct cl_record field under the same limits
 * the other parsers keep (too long is a data error, never truncated), and
 * only in a form the parser of its format could have given: that parser's
 * trims and its own checks (IBAN, BIC, UUID, currency, SEC, transaction,
 * return and change codes, routing check digit, calendar dates) run on it,
 * or the row is an error naming line and column.
 * Messages never quote an account number, a name or free text.
 *
 * The natural key, key_rule and fingerprint are never taken from the
 * file: they are recomputed from the fields by the code the NACHA and
 * ISO 20022 parsers use (cl_ach_identity,
 * cl_iso20022_record_key_fingerprint).  When the natural_key, key_rule or
 * fingerprint columns are present they must agree with the recomputed
 * values.  Kinds whose fingerprint needs fields the export does not carry
 * (IAT entries and IAT NOCs, pacs.009) and positional pain.001 keys are
 * refused with a message saying so (clearing-load(1), CSV INPUT).
 *
 * A record's position is the line its row starts on, its ordinal the
 * row's index.  Memory is constant: one 64 KiB read buffer, one row
 * buffer of CL_CSV_MAX_COLUMNS fields of at most CL_CSV_FIELD_MAX bytes
 * (libcsv's own field buffer is capped there too).
 *
 * Files are read through parser.h (the format's entry is cl_format_csv,
 * format.h); of the options, ach_key and max_errors apply (positional_keys
 * cannot: see above).
 */
#ifndef CL_CSV_RECORDS_H
#define CL_CSV_RECORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/record.h"
#include "parsers/input.h"
#include "parsers/parser.h"

#define CL_CSV_FIELD_MAX 1024 /* bytes of one field, NUL included */
#define CL_CSV_MAX_COLUMNS 64 /* fields of the header row */

#endif
