/*
 * parser.h - one pull API over every format and every family: clearing
 * files, bank statements and status reports.
 *
 *   struct cl_parser *p;
 *   if (cl_parser_open(in, &opts, &p, &err) != CL_OK) ... (unknown format)
 *   while ((st = cl_parser_next(p, &rec, &err)) != CL_END) {
 *       CL_OK: rec is a record (valid until the next call)
 *       CL_INVALID: err describes a data error; keep calling to collect more
 *                   (the parser stops by itself after opts.max_errors)
 *       CL_NOTE: err is a remark for verbose output, not an error
 *       CL_IO: the input failed; the parser returns CL_END from now on
 *   }
 *   info = cl_parser_info(p);  (complete once CL_END was returned)
 *   cl_parser_free(p);
 *
 * Errors of one code are handed out CL_REPEAT_SHOWN times; the others of
 * that code are counted, not handed out, and do not count towards
 * max_errors, so a flood of one kind (a trace out of order on every
 * entry) cannot hide the errors of another (the control totals).  Before
 * CL_END (and before CL_IO), one CL_INVALID per such code sums them up:
 * its `count` is the number of errors it stands for (cl_error_count()).
 *
 * A file is valid when no call returned CL_INVALID or CL_IO.  Records are
 * still returned from a file with errors (so `validate` and `diff` can show
 * them), but nothing from such a file may be applied.
 *
 * Statements and status reports are read through the same parser:
 *
 *   switch (cl_parser_family(p)) { ... }   (reads no further than needed)
 *   while ((st = cl_parser_next_item(p, &item, &err)) != CL_END)
 *       CL_OK: item.rec (a clearing record) or item.stmt (statement.h)
 *
 * The format is told from the content, once, in the one pass over the
 * input (clearing-load-keys(7)): a NACHA file starts with "101"; a BAI2
 * file with "01,"; an XML file with "<" (after an optional BOM and
 * whitespace), and its Document namespace names the message and so the
 * family; a CSV export (parse --format csv) with a header row naming at
 * least the columns scheme and kind.  Each format is one entry of the
 * table in parser.c (format.h); the first to recognise the bytes reads them.
 * Nothing is rewound: standard input reads as a file does.  The parser
 * does not own the input.
 */
#ifndef CL_PARSER_H
#define CL_PARSER_H

#include <stdbool.h>

#include "base/record.h"
#include "base/statement_record.h"
#include "parsers/input.h"
#include "rules/ach_identity.h"

enum cl_format {
	CL_FORMAT_UNKNOWN = 0,
	CL_FORMAT_ACH,
	CL_FORMAT_ISO20022,
	CL_FORMAT_CSV,       /* records as parse --format csv writes them */
	CL_FORMAT_BAI2,      /* a BAI2 balance reporting file: statements */
	CL_FORMAT_MT940,     /* SWIFT MT940/MT942 statements */
	CL_FORMAT_BANK_CSV,  /* a bank's CSV statement, read by --csv-map */
};

/* What a file says: clearing records (NACHA, pain.001, pacs.008/009/004,
 * CSV), a bank's statements (camt.052/053/054, BAI2), or status reports
 * (pacs.002).  An XML file's family is told by its Document namespace. */
enum cl_family {
	CL_FAMILY_UNKNOWN = 0,
	CL_FAMILY_CLEARING,
	CL_FAMILY_STATEMENT,
	CL_FAMILY_STATUS,
};

/* One thing read: a clearing record, or a statement item (statement.h). */
struct cl_item {
	enum cl_family family;
	const struct cl_record *rec;       /* CL_FAMILY_CLEARING, else NULL */
	const struct cl_stmt_item *stmt;   /* a statement or status, else NULL */
};

struct cl_csv_map;

struct cl_parse_opts {
	enum cl_ach_key ach_key;   /* --ach-key */
	bool positional_keys;      /* --positional-keys (pain.001) */
	unsigned max_errors;       /* stop after this many handed out; 0 = 100 */
	const char *schema_path;   /* validate --schema FILE.xsd, or NULL */
	/* --csv-map: a file no other format recognises is a bank CSV
	   statement read by this map (csv_map.h); NULL: none */
	const struct cl_csv_map *csv_map;
	/* the caller reads no record's fingerprint (validate): the NACHA
	   parser leaves them zero and spares a SHA-256 per record; the ISO
	   20022 reader makes only the one an alternate key is paired with
	   (rules/iso_identity.h cl_iso_fingerprint_of_alt_key) */
	bool no_fingerprints;
	/* the caller shows no checksum of the file (parse; validate but with
	   --format json): its bytes are not hashed (cl_input_no_checksum) */
	bool no_checksum;
};

/* What the file says about itself, for the clearing_load row.  Fields are
 * "" when the format has none. */
struct cl_file_info {
	enum cl_format format;
	char format_name[16];     /* "nacha", "iso20022" or "csv" */
	char message_type[32];    /* "nacha", "pain.001.001.09", ... */
	char sender[40];          /* ACH immediate origin; ISO InitgPty id or
	                             GrpHdr InstgAgt */
	char receiver[40];        /* ACH immediate destination; ISO InstdAgt */
	char created[32];         /* ACH "YYYY-MM-DDTHH:MM"; ISO CreDtTm */
	char file_id[40];         /* ACH file id modifier; ISO MsgId */
	unsigned long records;    /* records returned so far */
	unsigned long lines;      /* lines read so far */
	bool stopped;             /* reading stopped at max_errors: the file
	                             may have more errors than were counted */
	unsigned max_errors;      /* the limit in force */
	int64_t total_debit_minor;  /* sums of the records returned */
	int64_t total_credit_minor;
};

/* Errors of one code handed out before the others are only counted. */
#define CL_REPEAT_SHOWN 5

struct cl_parser;

/* Detect the format and start a parser.  CL_INVALID (err filled, code
 * "unknown_format") when the content is neither; CL_IO on a read error. */
enum cl_status cl_parser_open(struct cl_input *in, const struct cl_parse_opts *opts,
			      struct cl_parser **out, struct cl_error *err) CL_MUST_CHECK;

/* Start a parser of format f (not CL_FORMAT_UNKNOWN) without looking at
 * the content, as cl_parser_open() does once it has told the format: for
 * tests and harnesses that drive one format.  opts may be NULL. */
struct cl_parser *cl_parser_new(enum cl_format f, struct cl_input *in,
				const struct cl_parse_opts *opts);

enum cl_status cl_parser_next(struct cl_parser *p, const struct cl_record **rec,
			      struct cl_error *err) CL_MUST_CHECK;

/* As cl_parser_next(), for every family: item->rec or item->stmt is set
 * on CL_OK (valid until the next call).  The same error, repeat and
 * max_errors machinery applies. */
enum cl_status cl_parser_next_item(struct cl_parser *p, struct cl_item *item,
				   struct cl_error *err) CL_MUST_CHECK;

/* The family of the file: reads as far as needed to tell (an XML file up
 * to its Document element, never further; nothing is read twice and the
 * input is never rewound), so it works on standard input.
 * CL_FAMILY_UNKNOWN when the file ended or broke before it could be told
 * (its errors come from next).  cl_parser_next() returns only clearing
 * records: on a statement it gives its errors, then CL_END. */
enum cl_family cl_parser_family(struct cl_parser *p);

/* From the next record on the caller reads no fingerprint at all, not
 * even the one no_fingerprints leaves (validate, once its check of the
 * identities stopped at its cap): a reader may leave them zero. */
void cl_parser_fingerprints_unread(struct cl_parser *p);

/* "camt.053", "bai2", "pacs.008", ... once known ("" before). */
const char *cl_parser_message(const struct cl_parser *p);

const struct cl_file_info *cl_parser_info(const struct cl_parser *p);

void cl_parser_free(struct cl_parser *p); /* NULL is fine */

/* Tell the format from the first bytes of a file. */
enum cl_format cl_format_detect(const unsigned char *p, size_t len);

#endif
