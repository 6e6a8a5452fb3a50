/*
 * csv_map.h - the column map of a bank's CSV statement export: which
 * column holds what, and how the bank writes its numbers and dates
 * (docs/design/0041-bank-csv-statements.md; the format of the file is in
 * clearing-load(1), "BANK CSV STATEMENTS").  Read once, when the command
 * line names it (--csv-map FILE); the statement reader (statement_csv.c)
 * reads every file of the command by it.  Fixed capacity, no allocation.
 *
 *   struct cl_csv_map m;
 *   if (cl_csv_map_load("ing-nl.map", &m, &err) != CL_OK)
 *       err: FILE:LINE, the key, what was expected and what was found
 */
#ifndef CL_CSV_MAP_H
#define CL_CSV_MAP_H

#include <stdbool.h>
#include <stddef.h>

#include "base/record.h"

#define CL_CSV_MAP_NAME_MAX 64  /* a header name, a mark, a fixed value */
#define CL_CSV_MAP_TEXTS 4      /* text = A + B + ...: columns joined */

/* A column: by its header name, or by its number (1-based); none when
 * both are unset. */
struct cl_csv_col {
	char name[CL_CSV_MAP_NAME_MAX];
	unsigned number;           /* 1-based; 0 when named or unset */
	unsigned line;             /* of the map, for messages */
};

enum cl_csv_encoding { CL_CSV_UTF8 = 0, CL_CSV_LATIN1, CL_CSV_CP1252 };

/* Where the direction comes from: the sign of one amount column, two
 * columns (debit, credit), or a column of marks beside an unsigned amount. */
enum cl_csv_amounts { CL_CSV_SIGNED = 0, CL_CSV_DEBIT_CREDIT, CL_CSV_MARK };

struct cl_csv_map {
	char path[256];            /* the map file, for messages */
	char bank[32];             /* bank = ID: a-z 0-9 . _ - (message type "csv:ID") */
	char delimiter;            /* default ',' */
	char quote;                /* default '"'; '\0': none */
	unsigned skip;             /* lines before the header (or the first row) */
	bool header;               /* default yes */
	enum cl_csv_encoding encoding;
	char decimal;              /* '.' or ',' (default '.') */
	char thousands;            /* '\0' none, ',', '.', '\'', ' ' */
	char date_format[16];      /* YYYY MM DD and separators: "DD.MM.YYYY" */
	bool newest_first;         /* order = newest-first (rows latest first) */
	enum cl_csv_amounts amounts;
	bool inverted;             /* sign = inverted: a debit written positive */
	char debit_mark[CL_CSV_MAP_NAME_MAX], credit_mark[CL_CSV_MAP_NAME_MAX];
	struct cl_csv_col booking_date, value_date;
	struct cl_csv_col amount, debit, credit, mark;
	struct cl_csv_col currency, account, balance;
	struct cl_csv_col end_to_end_id, bank_reference, customer_reference, code;
	struct cl_csv_col counterparty;
	struct cl_csv_col text[CL_CSV_MAP_TEXTS];
	unsigned ntext;
	char fixed_currency[4];    /* currency = "EUR" (quoted: a value, not a column) */
	char fixed_account[CL_ACCOUNT_MAX];
};

/* Read the map at `path` into *m.  CL_OK, CL_INVALID (err: the map's
 * FILE:LINE, what was expected, what was found, what to do) or CL_IO. */
enum cl_status cl_csv_map_load(const char *path, struct cl_csv_map *m,
			       struct cl_error *err) CL_MUST_CHECK;

/* The same from text in memory (`name` for messages): for the tests. */
enum cl_status cl_csv_map_parse(const char *name, const char *text, size_t len,
				struct cl_csv_map *m, struct cl_error *err) CL_MUST_CHECK;

/* The map file's key of one of m's columns ("booking_date"), for
 * messages. */
const char *cl_csv_map_key(const struct cl_csv_map *m, const struct cl_csv_col *col);

/* Does the map name a column by its header name (the header row must then
 * name it)? */
bool cl_csv_col_set(const struct cl_csv_col *c);

#endif
