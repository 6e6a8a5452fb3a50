/* statement.c - the statement readers' API (statement.h): the format told
 * from the first bytes, and the two bounded queues through which the
 * formats hand out items and errors in document order. */
#include "parsers/statement.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "base/xmalloc.h"
#include "base/xsd_date.h"
#include "parsers/format.h"
#include "parsers/iso20022_internal.h"
#include "parsers/statement_internal.h"

const char *cl_stmt_source_name(enum cl_stmt_source s)
{
	switch (s) {
	case CL_STMT_SRC_CAMT052:
		return "camt.052";
	case CL_STMT_SRC_CAMT053:
		return "camt.053";
	case CL_STMT_SRC_CAMT054:
		return "camt.054";
	case CL_STMT_SRC_PACS002:
		return "pacs.002";
	case CL_STMT_SRC_BAI2:
		return "bai2";
	case CL_STMT_SRC_MT940:
		return "mt940";
	case CL_STMT_SRC_MT942:
		return "mt942";
	case CL_STMT_SRC_CSV:
		return "csv";
	case CL_STMT_SRC_PAIN002:
		return "pain.002";
	default:
		return "";
	}
}

const char *cl_stmt_kind_name(enum cl_stmt_kind k)
{
	switch (k) {
	case CL_STMT_STATEMENT:
		return "statement";
	case CL_STMT_ENTRY:
		return "entry";
	case CL_STMT_TX:
		return "transaction";
	case CL_STMT_GROUP_STATUS:
		return "group_status";
	case CL_STMT_TX_STATUS:
		return "transaction_status";
	}
	return "";
}

const char *cl_stmt_fmt_minor(int64_t minor, int exponent, char *buf, size_t cap)
{
	uint64_t u = minor < 0 ? (uint64_t)0 - (uint64_t)minor : (uint64_t)minor;
	uint64_t unit = 1;

	if (exponent < 0 || exponent > 4)
		exponent = exponent < 0 ? 0 : 4; /* ISO 4217 has 0 to 4 */
	for (int i = 0; i < exponent; i++)
		unit *= 10;
	if (exponent == 0)
		snprintf(buf, cap, "%s%llu", minor < 0 ? "-" : "", (unsigned long long)u);
	else
	{
		char frac[24];

		snprintf(frac, sizeof(frac), "%04llu", (unsigned long long)(u % unit));
		snprintf(buf, cap, "%s%llu.%s", minor < 0 ? "-" : "",
			 (unsigned long long)(u / unit), frac + (4 - exponent));
	}
	return buf;
}

/* ---------------------------------------------------------------- queues */

/* Queue an error after which nothing more is read. */
void cl_stmt_fatal(struct cl_stmt_parser *p, unsigned long line, const char *code,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cl_outq_verror(&p->q, false, line, code, fmt, ap);
	va_end(ap);
	p->fatal = true;
	p->finished = true;
	if (p->xml)
		cl_xml_stop(p->xml->eng); /* no more callbacks */
}

struct cl_stmt_item *cl_stmt_slot(struct cl_stmt_parser *p, enum cl_stmt_kind kind)
{
	int i = cl_outq_item_slot(&p->q);
	struct cl_stmt_item *it = i < 0 ? &p->scratch : &p->items[i];

	memset(it, 0, sizeof(*it));
	it->kind = kind;
	return it;
}

void cl_stmt_commit(struct cl_stmt_parser *p)
{
	if (cl_outq_item_slot(&p->q) < 0) {
		/* cannot happen with CL_STMT_FEED pieces; never lose an item
		 * silently */
		cl_stmt_fatal(p, 0, "internal_limit", "more than %d items completed in %d bytes",
			      CL_STMT_ITEMQ, CL_STMT_FEED);
		return;
	}
	cl_outq_item_commit(&p->q);
}

/* ------------------------------------------------------------------ API */

struct cl_stmt_parser *cl_stmt_open(struct cl_input *in, unsigned max_errors)
{
	struct cl_stmt_parser *p = cl_xcalloc(1, sizeof(*p));

	p->in = in;
	p->name = cl_input_name(in);
	p->max_errors = max_errors ? max_errors : 100;
	cl_outq_init(&p->q, p->name, CL_STMT_ITEMQ);
	return p;
}

struct cl_stmt_parser *cl_stmt_open_xml(struct cl_input *in, unsigned max_errors,
					struct cl_xml_engine *eng)
{
	struct cl_stmt_parser *p = cl_stmt_open(in, max_errors);

	p->fmt = FMT_XML;
	cl_stmt_xml_init(p, eng);
	return p;
}

void cl_stmt_give_entry(struct cl_stmt_parser *p, const struct cl_stmt_statement *st,
			struct cl_stmt_entry *e, struct cl_stmt_tx *tx)
{
	struct cl_stmt_item *it;

	tx->index = 1;
	tx->line = e->line;
	tx->has_amount = true;
	tx->amount_minor = e->amount_minor;
	memcpy(tx->ccy, e->ccy, sizeof(tx->ccy));
	tx->direction = e->direction;
	snprintf(tx->acct_svcr_ref, sizeof(tx->acct_svcr_ref), "%s", e->acct_svcr_ref);
	e->txs = 1;
	it = cl_stmt_slot(p, CL_STMT_TX);
	it->stmt = *st;
	it->entry = *e;
	it->tx = *tx;
	cl_stmt_commit(p);
	it = cl_stmt_slot(p, CL_STMT_ENTRY);
	it->stmt = *st;
	it->entry = *e;
	cl_stmt_commit(p);
}

struct cl_stmt_parser *cl_stmt_open_csv(struct cl_input *in, unsigned max_errors,
					const struct cl_csv_map *map)
{
	struct cl_stmt_parser *p = cl_stmt_open(in, max_errors);

	cl_stmt_csv_init(p, map);
	return p;
}

/* BAI2 starts with its file header "01," (blanks or a BOM before it are
 * not allowed by the specification, and not accepted). */
static bool bai2_detect(const unsigned char *h, size_t len)
{
	return len >= 3 && h[0] == '0' && h[1] == '1' && h[2] == ',';
}

static void decide(struct cl_stmt_parser *p)
{
	const unsigned char *head;
	size_t len;

	if (cl_input_peek(p->in, &head, &len, &p->io_err) != CL_OK) {
		p->io_failed = true;
		p->finished = true;
		p->fmt = FMT_UNKNOWN;
		return;
	}
	if (len == 0) {
		p->fmt = FMT_UNKNOWN;
		cl_stmt_fatal(p, 0, "empty_file",
			      "file is empty: expected a BAI2 file, an MT940/MT942 statement or an ISO "
			      "20022 statement or status report");
		return;
	}
	if (bai2_detect(head, len)) {
		p->fmt = FMT_BAI2;
		p->source = CL_STMT_SRC_BAI2;
		snprintf(p->message_type, sizeof(p->message_type), "bai2");
		cl_stmt_bai2_init(p);
	} else if (cl_stmt_mt940_detect(head, len)) {
		p->fmt = FMT_MT940;
		cl_stmt_mt940_init(p);
	} else if (cl_iso20022_detect(head, len) != CL_DETECT_NO) {
		p->fmt = FMT_XML;
		cl_stmt_xml_init(p, NULL);
	} else {
		p->fmt = FMT_UNKNOWN;
		cl_stmt_fatal(p, 1, "unknown_format",
			      "unknown format: expected a BAI2 file (starting \"01,\"), an MT940/MT942 "
			      "statement (starting \":20:\" or \"{1:\") or an ISO 20022 camt.052, "
			      "camt.053, camt.054 or pacs.002 document (starting \"<\")");
	}
}

static void pump(struct cl_stmt_parser *p)
{
	if (p->fmt == FMT_UNDECIDED)
		decide(p);
	if (p->finished)
		return;
	if (p->fmt == FMT_XML)
		cl_stmt_xml_pump(p);
	else if (p->fmt == FMT_BAI2)
		cl_stmt_bai2_pump(p);
	else if (p->fmt == FMT_MT940)
		cl_stmt_mt940_pump(p);
	else if (p->fmt == FMT_CSV)
		cl_stmt_csv_pump(p);
	else
		p->finished = true;
}

enum cl_status cl_stmt_next(struct cl_stmt_parser *p, const struct cl_stmt_item **item,
			    struct cl_error *err)
{
	int i;

	*item = NULL;
	if (p->done)
		return CL_END;
	if (!cl_outq_ready(&p->q) && !p->finished)
		pump(p);
	switch (cl_outq_take(&p->q, err, &i)) {
	case CL_OUTQ_NOTE:
		return CL_NOTE;
	case CL_OUTQ_ERROR:
		if (++p->errors >= p->max_errors) {
			p->done = true; /* this one is handed out, then CL_END */
			p->finished = true;
		}
		return CL_INVALID;
	case CL_OUTQ_ITEM:
		*item = &p->items[i];
		return CL_OK;
	case CL_OUTQ_EMPTY:
		break;
	}
	if (p->io_failed) {
		p->done = true;
		*err = p->io_err;
		return CL_IO;
	}
	p->done = true;
	return CL_END;
}

enum cl_stmt_source cl_stmt_source(const struct cl_stmt_parser *p)
{
	return p->source;
}

const char *cl_stmt_message_type(const struct cl_stmt_parser *p)
{
	return p->message_type;
}

void cl_stmt_free(struct cl_stmt_parser *p)
{
	if (!p)
		return;
	cl_stmt_xml_free(p);
	cl_stmt_bai2_free(p);
	cl_stmt_mt940_free(p);
	cl_stmt_csv_free(p);
	free(p);
}

/* XML white space (xs:decimal collapses it). */
static bool xml_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int cl_stmt_to_minor(const char *text, const char *ccy, int64_t *out, char *why, size_t cap)
{
	const char *s = text, *end = text + strlen(text);
	const char *ib, *ie, *fb = NULL, *fe = NULL;
	bool neg = false;
	int e = cl_iso_ccy_exponent(ccy);
	size_t nint, nfrac;
	int64_t v = 0;

	*out = 0;
	if (!ccy[0]) {
		snprintf(why, cap, "amount \"%.40s\" has no Ccy attribute: expected a currency code",
			 text);
		return -1;
	}
	if (e < 0) {
		snprintf(why, cap, "currency \"%.8s\" is %s: expected an ISO 4217 currency with minor "
			 "units", ccy, e == -2 ? "without minor units" : "not an ISO 4217 code");
		return -1;
	}
	while (s < end && xml_space(*s))
		s++;
	while (end > s && xml_space(end[-1]))
		end--;
	if (s < end && (*s == '+' || *s == '-'))
		neg = *s++ == '-';
	ib = s;
	while (s < end && *s >= '0' && *s <= '9')
		s++;
	ie = s;
	if (s < end && *s == '.') {
		fb = ++s;
		while (s < end && *s >= '0' && *s <= '9')
			s++;
		fe = s;
	}
	if (s != end || (ie == ib && (!fb || fe == fb))) {
		snprintf(why, cap, "amount \"%.40s\" is not a decimal number: expected digits with an "
			 "optional sign and decimal point (xs:decimal: 12.50, +12.5, 0012.50, .5)",
			 text);
		return -1;
	}
	/* the value's digits: no leading zeros, no trailing fraction zeros */
	while (ib < ie && *ib == '0')
		ib++;
	while (fb && fe > fb && fe[-1] == '0')
		fe--;
	nint = (size_t)(ie - ib);
	nfrac = fb ? (size_t)(fe - fb) : 0;
	if (neg && (nint || nfrac)) {
		snprintf(why, cap, "amount \"%.40s\" is negative: expected zero or more (the "
			 "direction is CdtDbtInd's)", text);
		return -1;
	}
	if (nfrac > 5) {
		snprintf(why, cap, "amount \"%.40s\" has %zu decimals: expected at most 5 "
			 "(fractionDigits of the schema)", text, nfrac);
		return -1;
	}
	if (nint + nfrac > 18) {
		snprintf(why, cap, "amount \"%.40s\" has %zu digits: expected at most 18 "
			 "(totalDigits of the schema)", text, nint + nfrac);
		return -1;
	}
	if (nfrac > (size_t)e) {
		snprintf(why, cap, "amount \"%.40s\" has more decimals than %s's %d", text, ccy, e);
		return -1;
	}
	for (const char *d = ib; d < ie; d++)
		v = v * 10 + (*d - '0'); /* at most 18 digits: fits */
	for (int i = 0; i < e; i++) {
		int d = fb && fb + i < fe ? fb[i] - '0' : 0;

		if (v > (INT64_MAX - d) / 10) {
			snprintf(why, cap, "amount \"%.40s\" is too large: %s has %d decimals and the "
				 "amount in minor units passes 2^63", text, ccy, e);
			return -1;
		}
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

bool cl_stmt_placeholder(const char *v)
{
	static const char *const open_close[][2] = {
		{ "[[", "]]" }, { "{{", "}}" }, { "${", "}" }, { "##", "##" },
	};

	/* every opener holds one of these: most values have none, and one
	 * scan for them is cheaper than a search for each opener */
	if (!strpbrk(v, "[{#"))
		return false;
	for (size_t i = 0; i < sizeof(open_close) / sizeof(open_close[0]); i++) {
		const char *a = strstr(v, open_close[i][0]);

		if (a && strstr(a + strlen(open_close[i][0]), open_close[i][1]))
			return true;
	}
	return false;
}

bool cl_stmt_value_ok(struct cl_stmt_parser *p, const char *v, bool date, unsigned long line)
{
	char path[CL_PATH_MAX], d[11];

	if (cl_stmt_placeholder(v)) {
		struct cl_error *e;

		cl_stmt_xml_path(p, path, sizeof(path));
		e = cl_outq_add(&p->q, line, path, "placeholder",
				  "value \"%.60s\" is a template placeholder, not a %s", v,
				  date ? "date" : "value");
		cl_error_hint(e, "the file was made from a template whose fields were never filled "
				 "in: ask the bank for the file as sent");
		return false;
	}
	if (date && !cl_xsd_date(v, d)) {
		cl_stmt_xml_path(p, path, sizeof(path));
		cl_outq_add(&p->q, line, path, "date",
			      "\"%.60s\" is not a date: expected an xs:date (YYYY-MM-DD) or "
			      "xs:dateTime (YYYY-MM-DDThh:mm:ss[.fff]), either with an optional time "
			      "zone (Z, +hh:mm, -hh:mm)",
			      v);
		return false;
	}
	return true;
}

/* ---------------------------------------- BAI2: its row of the format table */

/* BAI2 starts with its file header "01," (format.h) */
enum cl_detect cl_bai2_detect(const unsigned char *head, size_t len)
{
	return bai2_detect(head, len) ? CL_DETECT_YES : CL_DETECT_NO;
}

struct bai2_row {
	struct cl_stmt_parser *p;
	struct cl_file_info info;
};

void *cl_bai2_open(struct cl_input *in, const struct cl_parse_opts *opts,
		   struct cl_file_info **info)
{
	struct bai2_row *b = cl_xcalloc(1, sizeof(*b));

	(void)opts;
	b->p = cl_stmt_open(in, UINT_MAX); /* parser.c stops at max_errors */
	snprintf(b->info.message_type, sizeof(b->info.message_type), "bai2");
	*info = &b->info;
	return b;
}

enum cl_status cl_bai2_next_item(void *h, struct cl_item *item, struct cl_error *err)
{
	struct bai2_row *b = h;
	enum cl_status st;

	memset(item, 0, sizeof(*item));
	item->family = CL_FAMILY_STATEMENT;
	st = cl_stmt_next(b->p, &item->stmt, err);
	return st;
}

enum cl_status cl_bai2_next(void *h, const struct cl_record **rec, struct cl_error *err)
{
	struct cl_item item;
	enum cl_status st;

	do
		st = cl_bai2_next_item(h, &item, err);
	while (st == CL_OK);
	*rec = NULL;
	return st;
}

const char *cl_bai2_message(void *h)
{
	(void)h;
	return "bai2";
}

void cl_bai2_free(void *h)
{
	struct bai2_row *b = h;

	cl_stmt_free(b->p);
	free(b);
}
