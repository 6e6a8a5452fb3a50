/*
 * statement_mt940_internal.h - the pieces of the MT940/MT942 reader
 * (statement_internal.h): statement_mt940.c reads the lines, gathers a
 * message and hands it out; statement_mt940_fields.c reads the values of its
 * fields.  Not a public interface.
 */
#ifndef CL_STATEMENT_MT940_INTERNAL_H
#define CL_STATEMENT_MT940_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "parsers/statement_internal.h"

#define MT_MAX_LINE 4096
#define MT_MAX_MESSAGE (16u << 20) /* bytes of one message's text */
#define MT_MAX_FIELDS 1000000     /* fields of one message */
#define MT_NOTE "mt940_deviation"

struct mt_field {
	char tag[4];          /* "61", "60F", upper case */
	unsigned long line;
	size_t off, len;      /* its text in text[], continuation lines after '\n' */
};

struct cl_stmt_mt940 {
	unsigned char buf[CL_INPUT_BUFSIZE];
	size_t len, pos;
	bool eof;
	char line[MT_MAX_LINE + 1];
	size_t line_len;
	unsigned long lineno;
	bool line_over;
	/* a line that starts the next message, read while the one before is
	   handed out */
	bool pending;
	char pending_line[MT_MAX_LINE + 1];
	size_t pending_len;
	unsigned long pending_lineno;
	/* the message being gathered */
	bool open;              /* a message has begun */
	bool complete;          /* gathered whole: being handed out */
	bool ended;             /* by "-" (else by what followed it) */
	unsigned long msg_line;
	int hint_type;          /* 940 or 942 from block 2, else 0 */
	char *text;
	size_t text_len, text_cap;
	struct mt_field *f;
	size_t nf, f_cap;
	bool over;              /* longer than MT_MAX_MESSAGE: refused */
	/* handing out */
	bool given;             /* the statement item */
	bool broken;            /* the message's fields are refused: no items */
	size_t cur;             /* next field to look at */
	struct cl_stmt_statement stmt;
	int exp;
	unsigned long entries, n_cdt, n_dbt;
	int64_t sum_cdt, sum_dbt;
	bool overflow;
	int i60, i62, i90d, i90c;
	/* the file */
	unsigned long messages;
	bool noted_end, noted_lower, noted_pad, noted_type, noted_header, noted_ref, noted_dash;
	bool dash;              /* a line "-" read, the next line says what it was */
	bool closed;            /* the message has its :62F:/:62M: */
	unsigned long dash_line;
};

/* ---- statement_mt940_fields.c: each false (or 0) with its error queued ---- */

/* The first line of a field into out[cap] (cut to fit). */
void cl_mt940_first_line(const struct cl_stmt_mt940 *m, const struct mt_field *f, char *out,
			 size_t cap);
/* An MT amount ("1234,5") in minor units of exponent e: the characters read,
 * 0 when there is none (why[cap] says why). */
size_t cl_mt940_mt_amount(const char *s, int e, int64_t *out, char *why, size_t cap);
bool cl_mt940_ccy_ok(const char *s);
/* :60F: :60M: :62F: :62M: :64: :65: */
bool cl_mt940_balance(struct cl_stmt_parser *p, const struct mt_field *f,
		      struct cl_stmt_balance *b);
void cl_mt940_account(struct cl_stmt_parser *p, const struct mt_field *f);          /* :25: */
void cl_mt940_statement_number(struct cl_stmt_parser *p, const struct mt_field *f); /* :28C: */
void cl_mt940_date_time(struct cl_stmt_parser *p, const struct mt_field *f);        /* :13D: */
void cl_mt940_floor_limit(struct cl_stmt_parser *p, const struct mt_field *f);      /* :34F: */
/* :86: -> the transaction's references and the entry's text */
void cl_mt940_information(struct cl_stmt_parser *p, const struct mt_field *f,
			  struct cl_stmt_entry *e, struct cl_stmt_tx *tx);
/* :61: -> the entry and its transaction's end-to-end id */
bool cl_mt940_statement_line(struct cl_stmt_parser *p, const struct mt_field *f,
			     struct cl_stmt_entry *e, struct cl_stmt_tx *tx);

#endif
