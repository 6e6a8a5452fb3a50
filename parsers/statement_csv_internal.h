/*
 * statement_csv_internal.h - the pieces of the bank CSV reader
 * (statement_internal.h): statement_csv.c reads the file and hands out its
 * statements; statement_csv_fields.c reads and checks one row by the map.
 * Not a public interface.
 */
#ifndef CL_STATEMENT_CSV_INTERNAL_H
#define CL_STATEMENT_CSV_INTERNAL_H

#include <csv.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parsers/csv_map.h"
#include "parsers/statement_internal.h"

#define CSV_MAX_BYTES (256u << 20) /* a month of an account is some MB */
#define CSV_MAX_COLS 128
#define CSV_ROW_BYTES (64u << 10)
#define CSV_MAX_GROUPS 64
#define CSV_NOTE "csv_deviation"

struct group {
	char account[CL_ACCOUNT_MAX];
	char ccy[4];
	int exp;
	char from[11], to[11];
	unsigned long first_line, last_line, n, n_cdt, n_dbt;
	int64_t sum_cdt, sum_dbt;
	bool balances;             /* every row has its running balance */
	int64_t first_bal, first_amt, last_bal, last_amt;
	unsigned long first_bal_line, last_bal_line;
	bool dates_against_order;
	bool overflow;
};

/* One row read and checked. */
struct row {
	unsigned long line;
	char account[CL_ACCOUNT_MAX];
	char ccy[4];
	char booking[11], value[11];
	enum cl_direction dir;
	int64_t amount;            /* unsigned minor units */
	bool has_balance;
	int64_t balance;           /* signed */
	char e2e[CL_ID_MAX], bank_ref[CL_ID_MAX], cust_ref[CL_ID_MAX];
	char code[CL_STMT_CODE_MAX];
	char text[CL_NAME_MAX];
};

struct cl_stmt_csv {
	const struct cl_csv_map *map;
	char *data;
	size_t len;
	bool read;                 /* the file is in data[] */
	bool scanned;              /* pass 1 done */
	struct csv_parser csv;
	bool csv_ready;
	/* the row being gathered by libcsv */
	char fields[CSV_ROW_BYTES];
	size_t used;
	size_t off[CSV_MAX_COLS];
	unsigned nf;
	bool row_over;
	unsigned long row_line, lineno;
	/* the map's columns resolved to 0-based indexes (-1: none) */
	bool resolved;
	int ix_booking, ix_value, ix_amount, ix_debit, ix_credit, ix_mark, ix_ccy, ix_account,
		ix_balance, ix_e2e, ix_bank, ix_cust, ix_code, ix_cp, ix_text[CL_CSV_MAP_TEXTS];
	int need;                  /* columns a row needs */
	/* pass 1 */
	struct group g[CSV_MAX_GROUPS];
	int ng;
	unsigned long rows, errors;
	bool noted_blank, noted_acct, noted_neg_debit, noted_trailing, noted_bom, noted_ref;
	/* pass 2 */
	int cur;                   /* group being handed out */
	bool given;                /* its statement item */
	size_t pos;                /* next byte of data[] to feed */
	unsigned long entry_index;
	unsigned long pass_line;
	struct cl_stmt_statement stmt;
	bool out_row;              /* a row of the current group was queued */
};

static inline struct cl_stmt_csv *C(struct cl_stmt_parser *p)
{
	return p->csv;
}

static inline const char *field(const struct cl_stmt_csv *c, int ix)
{
	return ix >= 0 && (unsigned)ix < c->nf ? c->fields + c->off[ix] : NULL;
}

/* ---- statement_csv_fields.c ---- */

/* s without blanks around it, into buf[cap] (cut to fit). */
const char *cl_csv_trimmed(const char *s, char *buf, size_t cap);
/* The row libcsv completed into r: 1, 0 when it is no row (blank), -1 when
 * it is refused (its errors queued in pass 1; pass 2 queues none). */
int cl_csv_row_of(struct cl_stmt_parser *p, struct row *r);
/* *a += b unless it overflows (false). */
bool cl_csv_add_ok(int64_t *a, int64_t b);

#endif
