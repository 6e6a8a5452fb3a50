/*
 * csv_internal.h - what the CSV reader's files share (csv*.c only).
 *
 *   csv_records.c  handle, byte feed into libcsv, line numbers, events
 *   csv_columns.c  the column table, the header, one row into a record
 */
#ifndef CL_CSV_INTERNAL_H
#define CL_CSV_INTERNAL_H

#include <csv.h>
#include <stdbool.h>
#include <stddef.h>

#include "parsers/csv_records.h"
#include "rules/fingerprint.h"

/* How a column's value is read. */
enum csv_col_type {
	COL_TEXT = 0,    /* a char array of struct cl_record */
	COL_IGNORED,     /* file, position: read, not used */
	COL_SCHEME,
	COL_KIND,
	COL_NATURAL_KEY, /* checked against the recomputed key */
	COL_KEY_RULE,    /* checked against the recomputed rule */
	COL_FINGERPRINT, /* checked against the recomputed fingerprint */
	COL_AMOUNT,
	COL_DIRECTION,
	COL_ADDENDA_COUNT,
	COL_NONE,        /* a field that is not a CSV column */
};

/* A row: field i is at buf + off[i], len[i] bytes, NUL-terminated. */
struct csv_row {
	char buf[CL_CSV_MAX_COLUMNS * CL_CSV_FIELD_MAX];
	size_t off[CL_CSV_MAX_COLUMNS], len[CL_CSV_MAX_COLUMNS];
	size_t used;
	unsigned long nfields;  /* fields seen (more than stored: too many) */
	bool overflow;          /* a field did not fit into buf */
	unsigned long line;     /* line the row starts on */
};

struct cl_csv {
	struct cl_input *in;
	const char *name;
	struct cl_parse_opts opts;
	struct cl_file_info info;
	struct csv_parser csv;
	bool csv_ready;          /* csv_init done: csv_free owed */
	struct cl_fp *fp;         /* ISO fingerprints */
	struct cl_ach_fp *afp;    /* NACHA keys and fingerprints */

	/* reader */
	unsigned char buf[CL_INPUT_BUFSIZE];
	size_t pos, len;
	size_t bom_skip;         /* BOM bytes still to drop */
	bool eof, finished, stopped;
	unsigned long line;      /* line of the next byte fed */
	bool prev_cr;            /* the last byte fed was CR */
	bool row_open;           /* bytes of a row fed, its end not seen */

	/* header: column i of the file is table entry col[i] */
	bool have_header;
	unsigned long ncols;
	int col[CL_CSV_MAX_COLUMNS];
	bool present[64];        /* by table entry */

	struct csv_row row;

	/* at most one event waits: a row is turned into one at its end, and
	 * feeding stops as soon as one waits */
	bool pending;
	enum cl_status pending_st;
	struct cl_error pending_err;
	struct cl_record rec;
	unsigned long ordinals;
};

/* csv_columns.c */
/* The header row: fills ncols, col[], present[].  CL_OK, or CL_INVALID
 * with err filled (unknown, duplicated or missing column). */
enum cl_status csv_header(struct cl_csv *p, struct cl_error *err);
/* A data row into p->rec.  CL_OK, or CL_INVALID with err filled. */
enum cl_status csv_row_record(struct cl_csv *p, struct cl_error *err);
/* Quote a value for a message: printable ASCII kept, other bytes \xHH,
 * cut with "..." past `max` bytes. */
const char *csv_show(char *buf, size_t cap, const char *s, size_t max);

#endif
