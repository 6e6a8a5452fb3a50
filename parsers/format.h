/*
 * format.h - what a file format gives parser.c: one entry of its table of
 * formats.  Every format fills one struct cl_format_ops and parser.c calls
 * only through it, so no caller names a format and a new one (camt.053,
 * BAI2, ...) is its parser, its entry and a CL_FORMAT_ value in parser.h.
 *
 * Only parser.c and the formats include this; everyone else reads files
 * through parser.h.
 */
#ifndef CL_FORMAT_H
#define CL_FORMAT_H

#include <stddef.h>

#include "input.h"
#include "parser.h"
#include "record.h"

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
	 * and may be copied.  Never fails: problems come from next(). */
	void *(*open)(struct cl_input *in, const struct cl_parse_opts *opts);
	/* As cl_parser_next(), but parser.c counts the records and their
	 * totals in info() and stops after CL_IO and after max_errors
	 * CL_INVALID, so a format need not. */
	enum cl_status (*next)(void *h, const struct cl_record **rec, struct cl_error *err);
	/* The file information the handle keeps (format, format_name, records
	 * and totals are parser.c's); valid until free(). */
	struct cl_file_info *(*info)(void *h);
	void (*free)(void *h); /* NULL is fine */
};

/* The entries, each defined next to its parser. */
extern const struct cl_format_ops cl_format_nacha;    /* ach.c */
extern const struct cl_format_ops cl_format_iso20022; /* iso20022.c */
extern const struct cl_format_ops cl_format_csv;      /* csv_records.c */

/* Length of a UTF-8 byte order mark at the start of p[0..len): 3 or 0. */
static inline size_t cl_utf8_bom(const unsigned char *p, size_t len)
{
	return len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF ? 3 : 0;
}

#endif
