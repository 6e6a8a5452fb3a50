/* parser.c - the table of formats: detection, and the pull API of parser.h
 * over the format's own operations (format.h). */
#include "parsers/parser.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "parsers/format.h"
#include "parsers/iso20022_internal.h"

/* Every format, in detection order.  `expected` and `sign` make the
 * empty-file and unknown-format messages.  Another XML format (camt.053,
 * say) comes before iso20022 and tells itself by the namespace in the
 * first bytes. */
static const struct cl_format_ops formats[] = {
	{CL_FORMAT_ACH, "nacha", "a NACHA file header (\"101\")", NULL,
	 cl_ach_detect, cl_ach_open, cl_ach_next, cl_ach_free,
	 CL_FAMILY_CLEARING, NULL, NULL, NULL, NULL},
	/* a BAI2 file starts with its 01 record (no BOM, no blank line) */
	{CL_FORMAT_BAI2, "bai2", "a BAI2 file", "\"01,\" at its first byte",
	 cl_bai2_detect, cl_bai2_open, cl_bai2_next, cl_bai2_free,
	 CL_FAMILY_STATEMENT, NULL, cl_bai2_next_item, cl_bai2_message, NULL},
	/* SWIFT MT940/MT942 statements: ":20:" or "{1:" after a BOM or blank
	   lines (statement_mt940.c) */
	{CL_FORMAT_MT940, "mt940", "an MT940/MT942 statement", "\":20:\" or \"{1:\"",
	 cl_mt940_detect, cl_mt940_open, cl_mt940_next, cl_mt940_free,
	 CL_FAMILY_STATEMENT, NULL, cl_mt940_next_item, cl_mt940_message, NULL},
	/* clearing messages, statements and status reports: the Document
	   namespace tells (xml_message.c) */
	{CL_FORMAT_ISO20022, "iso20022", "an ISO 20022 XML document", "\"<\"",
	 cl_iso20022_detect, cl_iso20022_open, cl_iso20022_next, cl_iso20022_free,
	 CL_FAMILY_UNKNOWN, cl_iso20022_family, cl_iso20022_next_item, cl_iso20022_message,
	 cl_iso20022_fingerprints_unread},
	{CL_FORMAT_CSV, "csv", "a CSV export", "a header row naming scheme and kind",
	 cl_csv_detect, cl_csv_open, cl_csv_next, cl_csv_free,
	 CL_FAMILY_CLEARING, NULL, NULL, NULL, NULL},
	/* a bank's CSV statement: never told from its bytes, read when
	   --csv-map names its map and no other format says YES (cl_parser_open) */
	{CL_FORMAT_BANK_CSV, "bank-csv", NULL, NULL,
	 cl_bankcsv_detect, cl_bankcsv_open, cl_bankcsv_next, cl_bankcsv_free,
	 CL_FAMILY_STATEMENT, NULL, cl_bankcsv_next_item, cl_bankcsv_message, NULL},
};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

/* The errors of one code, for the summary of those not handed out. */
#define REPEAT_CODES 64 /* codes followed; errors of others are all handed out */

struct repeat {
	char code[CL_CODE_MAX];
	unsigned shown;              /* handed out (up to CL_REPEAT_SHOWN) */
	unsigned long more;          /* counted, not handed out */
	unsigned long first, last;   /* lines of the first and last of those */
	const char *file;
	char last_message[CL_MSGTEXT_MAX];
};

struct cl_parser {
	const struct cl_format_ops *ops;
	void *h;                    /* the format's own handle */
	struct cl_file_info *info;  /* kept by the format, counted here */
	unsigned max_errors;
	unsigned errors;            /* CL_INVALID handed out */
	bool done;                  /* CL_END from now on */
	struct repeat *rep;         /* REPEAT_CODES, allocated on the first error */
	unsigned nrep;
	unsigned next_summary;      /* while summing up: the next rep to say */
	bool summing;               /* handing out the summaries, then the end */
	bool io_pending;            /* then `io` (CL_IO), after the summaries */
	const char *name;           /* the input's, for messages */
	bool family_said;           /* cl_parser_next told a statement apart */
	bool refusing;              /* cl_parser_next on a statement: only its
	                               well-formedness errors from now on */
	struct cl_error io;
};

static const struct cl_format_ops *detect(const unsigned char *p, size_t len)
{
	const struct cl_format_ops *fallback = NULL;

	for (size_t i = 0; i < NFORMATS; i++) {
		enum cl_detect d = formats[i].detect(p, len);

		if (d == CL_DETECT_YES)
			return &formats[i];
		if (d == CL_DETECT_FALLBACK && !fallback)
			fallback = &formats[i];
	}
	return fallback;
}

enum cl_format cl_format_detect(const unsigned char *p, size_t len)
{
	const struct cl_format_ops *ops = detect(p, len);

	return ops ? ops->format : CL_FORMAT_UNKNOWN;
}

/* "A, B or C" from the formats' `expected`, each with its sign when
 * `signs`, into buf[cap]. */
static const char *expected_list(char *buf, size_t cap, bool signs)
{
	size_t n = 0;

	size_t named = 0, said = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NFORMATS; i++)
		named += formats[i].expected != NULL;
	for (size_t i = 0; i < NFORMATS && n < cap; i++) {
		const struct cl_format_ops *f = &formats[i];
		const char *sep;
		int k;

		if (!f->expected)
			continue;
		sep = said == 0 ? "" : said + 1 == named ? " or " : ", ";
		said++;
		if (signs && f->sign)
			k = snprintf(buf + n, cap - n, "%s%s (%s)", sep, f->expected, f->sign);
		else
			k = snprintf(buf + n, cap - n, "%s%s", sep, f->expected);
		if (k < 0)
			break;
		n += (size_t)k;
	}
	return buf;
}

struct cl_parser *cl_parser_new(enum cl_format f, struct cl_input *in,
				const struct cl_parse_opts *opts)
{
	struct cl_parse_opts o = {0};
	struct cl_parser *p;
	size_t i = 0;

	while (i < NFORMATS && formats[i].format != f)
		i++;
	if (i == NFORMATS)
		abort(); /* no such format: a programming error */
	if (opts)
		o = *opts;
	if (o.max_errors == 0)
		o.max_errors = 100;
	p = cl_xcalloc(1, sizeof(*p));
	p->ops = &formats[i];
	p->name = cl_input_name(in);
	p->max_errors = o.max_errors;
	p->h = p->ops->open(in, &o, &p->info);
	p->info->format = f;
	p->info->max_errors = o.max_errors;
	snprintf(p->info->format_name, sizeof(p->info->format_name), "%s", p->ops->name);
	return p;
}

enum cl_status cl_parser_open(struct cl_input *in, const struct cl_parse_opts *opts,
			      struct cl_parser **out, struct cl_error *err)
{
	const struct cl_format_ops *ops;
	const unsigned char *head;
	char list[CL_MSGTEXT_MAX];
	size_t len;

	*out = NULL;
	if (cl_input_peek(in, &head, &len, err) != CL_OK)
		return CL_IO;
	ops = detect(head, len);
	if (opts && opts->csv_map && (!ops || ops->detect(head, len) != CL_DETECT_YES)) {
		*out = cl_parser_new(CL_FORMAT_BANK_CSV, in, opts);
		return CL_OK;
	}
	if (ops) {
		*out = cl_parser_new(ops->format, in, opts);
		return CL_OK;
	}
	if (len == 0) {
		cl_error_set(err, cl_input_name(in), 0, "empty_file", "file is empty: expected %s",
			     expected_list(list, sizeof(list), false));
		cl_error_hint(err, "an empty file is often a transfer that failed or had not "
				   "finished: fetch the file again");
	} else {
		cl_error_set(err, cl_input_name(in), 1, "unknown_format",
			     "unknown format: expected %s", expected_list(list, sizeof(list), true));
		cl_error_hint(err, "check that this is the clearing file itself: a file "
				   "compressed other than with gzip (zip, bzip2, xz) must be "
				   "unpacked first");
	}
	return CL_INVALID;
}

/* The file's sums count what was handed out; a total that would overflow
 * stays where it was. */
static void count(struct cl_file_info *info, const struct cl_record *r)
{
	int64_t *total = r->direction == CL_DIR_DEBIT    ? &info->total_debit_minor
			 : r->direction == CL_DIR_CREDIT ? &info->total_credit_minor
							 : NULL;

	info->records++;
	if (total && *total <= INT64_MAX - r->amount_minor)
		*total += r->amount_minor;
}

/* Is `err` one error too many of its code?  Then it is counted for the
 * summary, and not handed out. */
static bool repeated(struct cl_parser *p, const struct cl_error *err)
{
	struct repeat *r = NULL;

	if (!p->rep)
		p->rep = cl_xcalloc(REPEAT_CODES, sizeof(*p->rep));
	for (unsigned i = 0; i < p->nrep && !r; i++)
		if (strcmp(p->rep[i].code, err->code) == 0)
			r = &p->rep[i];
	if (!r) {
		if (p->nrep == REPEAT_CODES)
			return false;
		r = &p->rep[p->nrep++];
		snprintf(r->code, sizeof(r->code), "%s", err->code);
	}
	if (r->shown < CL_REPEAT_SHOWN) {
		r->shown++;
		return false;
	}
	if (r->more++ == 0)
		r->first = err->line;
	r->last = err->line;
	r->file = err->file;
	snprintf(r->last_message, sizeof(r->last_message), "%s", err->message);
	return true;
}

/* The next summary of errors not handed out into err; false when none is
 * left. */
static bool summary(struct cl_parser *p, struct cl_error *err)
{
	while (p->next_summary < p->nrep) {
		const struct repeat *r = &p->rep[p->next_summary++];
		char lines[64];

		if (!r->more)
			continue;
		if (r->first == r->last)
			snprintf(lines, sizeof(lines), "on line %lu", r->first);
		else
			snprintf(lines, sizeof(lines), "on lines %lu to %lu", r->first, r->last);
		cl_error_set(err, r->file, r->first, r->code,
			     "and %lu more %s error%s %s, not shown: after %d errors of one kind "
			     "the others are only counted",
			     r->more, r->code, r->more == 1 ? "" : "s", lines, CL_REPEAT_SHOWN);
		cl_error_detail(err, "the last of them, line %lu: %s", r->last, r->last_message);
		err->count = r->more;
		return true;
	}
	return false;
}

static enum cl_status next_item(struct cl_parser *p, struct cl_item *item, struct cl_error *err);

enum cl_status cl_parser_next(struct cl_parser *p, const struct cl_record **rec,
			      struct cl_error *err)
{
	struct cl_item item;
	enum cl_status st;

	*rec = NULL;
	if (!p->family_said && !p->done) {
		enum cl_family f = cl_parser_family(p);
		char text[CL_MSGTEXT_MAX];

		p->family_said = true;
		if (f == CL_FAMILY_STATEMENT || f == CL_FAMILY_STATUS) {
			/* said first, so a broken statement says both */
			if (p->ops->format == CL_FORMAT_BAI2)
				snprintf(text, sizeof(text), "this is a BAI2 balance reporting "
					 "file, not a clearing file: clearing-load loads pain.001, "
					 "pacs.008, pacs.009 and pacs.004");
			else if (p->ops->format == CL_FORMAT_MT940)
				snprintf(text, sizeof(text), "this is a SWIFT MT940/MT942 "
					 "statement, not a clearing file: clearing-load loads pain.001, "
					 "pacs.008, pacs.009 and pacs.004");
			else
				cl_iso_unsupported_text(text, sizeof(text), cl_parser_message(p));
			cl_error_set(err, p->name, 0, "unsupported_message", "%s", text);
			p->refusing = true;
			p->errors++;
			return CL_INVALID;
		}
	}
	/* clearing records only: a statement's items are passed over, and
	 * of its errors only those of the XML itself handed out */
	while ((st = next_item(p, &item, err)) == CL_OK && !item.rec)
		;
	while (p->refusing && (st == CL_INVALID || st == CL_NOTE) &&
	       strncmp(err->code, "xml", 3) != 0)
		while ((st = next_item(p, &item, err)) == CL_OK)
			;
	*rec = item.rec;
	return st;
}

enum cl_family cl_parser_family(struct cl_parser *p)
{
	return p->ops->family_of ? p->ops->family_of(p->h) : p->ops->family;
}

void cl_parser_fingerprints_unread(struct cl_parser *p)
{
	if (p->ops->fingerprints_unread)
		p->ops->fingerprints_unread(p->h);
}

const char *cl_parser_message(const struct cl_parser *p)
{
	return p->ops->message ? p->ops->message(p->h) : p->info->message_type;
}

enum cl_status cl_parser_next_item(struct cl_parser *p, struct cl_item *item,
				   struct cl_error *err)
{
	p->family_said = true; /* the caller takes every family */
	return next_item(p, item, err);
}

static enum cl_status next_item(struct cl_parser *p, struct cl_item *item, struct cl_error *err)
{
	enum cl_status st;

	memset(item, 0, sizeof(*item));
	for (;;) {
		if (p->summing) {
			if (summary(p, err))
				return CL_INVALID;
			p->summing = false;
			p->done = true;
			if (p->io_pending) {
				p->io_pending = false;
				*err = p->io;
				return CL_IO;
			}
		}
		if (p->done)
			return CL_END;
		if (p->ops->next_item) {
			st = p->ops->next_item(p->h, item, err);
		} else {
			st = p->ops->next(p->h, &item->rec, err);
			item->family = p->ops->family;
		}
		switch (st) {
		case CL_OK:
			if (item->rec)
				count(p->info, item->rec);
			else
				p->info->records++; /* a statement item */
			return st;
		case CL_NOTE:
			return st;
		case CL_INVALID:
			if (repeated(p, err))
				continue;
			if (++p->errors >= p->max_errors)
				p->info->stopped = p->summing = true;
			return st;
		case CL_IO:
			p->io = *err;
			p->io_pending = p->summing = true;
			continue;
		case CL_END:
			p->summing = true;
			continue;
		}
	}
}

const struct cl_file_info *cl_parser_info(const struct cl_parser *p)
{
	return p->info;
}

void cl_parser_free(struct cl_parser *p)
{
	if (!p)
		return;
	p->ops->free(p->h);
	free(p->rep);
	free(p);
}
