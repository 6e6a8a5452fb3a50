/*
 * format.h - what a file format gives parser.c: one entry of its table of
 * formats, a struct cl_format_ops.  parser.c calls a format only through
 * its entry, so no caller names a format, and a new one is its parser with
 * the four functions CL_FORMAT_FUNCTIONS declares, one row in the table in
 * parser.c with its family (and next_item when it hands out statement
 * items) and a CL_FORMAT_ value in parser.h.  A new ISO 20022 message is
 * no row: it is a plug into the XML engine (xml_engine.h), chosen by its
 * namespace in xml_message.c.
 *
 * Only parser.c and the formats include this; everyone else reads files
 * through parser.h.
 */
#ifndef CL_FORMAT_H
#define CL_FORMAT_H

#include <stddef.h>

#include "base/record.h"
#include "parsers/input.h"
#include "parsers/parser.h"

/* How sure a format is that the first bytes are its own. */
enum cl_detect {
	CL_DETECT_NO = 0,
	CL_DETECT_FALLBACK, /* its own only when no format says YES (UTF-16
	                       XML: the ISO parser refuses it with a message) */
	CL_DETECT_YES,      /* the first format in the table to say YES wins */
};

struct cl_format_ops {
	enum cl_format format;
	const char *name;       /* cl_file_info.format_name: "nacha" */
	const char *expected;   /* what a file of it is, for the empty- and
	                           unknown-format messages: "a CSV export" */
	const char *sign;       /* what tells it, added to `expected` in the
	                           unknown-format message, or NULL */
	/* From the first bytes of the file (cl_input_peek: up to 4 KiB; len
	 * may be 0). */
	enum cl_detect (*detect)(const unsigned char *head, size_t len);
	/* Start reading `in` (not owned).  opts is complete (max_errors set)
	 * and may be copied.  *info is set to the file information the handle
	 * keeps and fills (format, format_name, records and totals are
	 * parser.c's), valid until free().  Never fails: problems come from
	 * next(). */
	void *(*open)(struct cl_input *in, const struct cl_parse_opts *opts,
		      struct cl_file_info **info);
	/* As cl_parser_next(), but parser.c counts the records and their
	 * totals in the info and stops after CL_IO and after max_errors
	 * CL_INVALID, so a format need not. */
	enum cl_status (*next)(void *h, const struct cl_record **rec, struct cl_error *err);
	void (*free)(void *h); /* a handle open() gave */
	/* The row's family, or CL_FAMILY_UNKNOWN when the content tells it
	 * (then family_of is set). */
	enum cl_family family;
	/* Read as far as needed to tell the family (ISO 20022: up to the
	 * Document namespace); may be NULL. */
	enum cl_family (*family_of)(void *h);
	/* Items of every family; NULL when next() (records) is all. */
	enum cl_status (*next_item)(void *h, struct cl_item *item, struct cl_error *err);
	/* "camt.053" ...; may be NULL */
	const char *(*message)(void *h);
	/* From the next record on no fingerprint is read
	 * (cl_parser_fingerprints_unread); may be NULL */
	void (*fingerprints_unread)(void *h);
};

/* The operations of one format, PREFIX_detect, _open, _next and _free,
 * as struct cl_format_ops describes them. */
#define CL_FORMAT_FUNCTIONS(PREFIX)                                                         \
	enum cl_detect PREFIX##_detect(const unsigned char *head, size_t len);             \
	void *PREFIX##_open(struct cl_input *in, const struct cl_parse_opts *opts,         \
			    struct cl_file_info **info);                                   \
	enum cl_status PREFIX##_next(void *h, const struct cl_record **rec,                \
				     struct cl_error *err) CL_MUST_CHECK;                  \
	void PREFIX##_free(void *h)

CL_FORMAT_FUNCTIONS(cl_ach);      /* ach.c */
CL_FORMAT_FUNCTIONS(cl_iso20022); /* iso20022.c */
CL_FORMAT_FUNCTIONS(cl_csv);      /* csv_records.c */
CL_FORMAT_FUNCTIONS(cl_bai2);     /* statement.c: BAI2, a statement */
CL_FORMAT_FUNCTIONS(cl_mt940);    /* statement_mt940_row.c: MT940/MT942 */
CL_FORMAT_FUNCTIONS(cl_bankcsv);  /* statement_csv_row.c: bank CSV by its map */

/* ISO 20022 (xml_message.c): one engine, the message's reader told by the
 * Document namespace. */
enum cl_family cl_iso20022_family(void *h);
enum cl_status cl_iso20022_next_item(void *h, struct cl_item *item, struct cl_error *err);
const char *cl_iso20022_message(void *h);
void cl_iso20022_fingerprints_unread(void *h);
/* BAI2 (statement.c) */
enum cl_status cl_bai2_next_item(void *h, struct cl_item *item, struct cl_error *err);
const char *cl_bai2_message(void *h);
/* MT940/MT942 (statement_mt940_row.c) */
enum cl_status cl_mt940_next_item(void *h, struct cl_item *item, struct cl_error *err);
const char *cl_mt940_message(void *h);
/* bank CSV (statement_csv_row.c): never detected, chosen by --csv-map */
enum cl_status cl_bankcsv_next_item(void *h, struct cl_item *item, struct cl_error *err);
const char *cl_bankcsv_message(void *h);

#endif
