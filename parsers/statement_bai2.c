/* statement_bai2.c - BAI2 balance reporting files, as this reader takes the
 * BAI Cash Management Balance Reporting Specifications, version 2:
 *
 * - A file is records, one a line here (LF or CRLF; blank lines are
 *   skipped).  A record starts with its two-digit code and its fields are
 *   separated by commas; "/" ends the record (trailing blanks, as blocked
 *   files pad, are dropped).  An empty field (",,") is a default.
 * - 01 file header: 01,sender,receiver,creation date YYMMDD,time HHMM,
 *   file id,physical record length,block size,version (2).
 *   02 group header: 02,ultimate receiver,originator,group status (1
 *   update, 2 deletion, 3 correction, 4 test only),as-of date YYMMDD,
 *   as-of time,currency,as-of-date modifier (1 interim previous-day, 2
 *   final previous-day, 3 interim same-day, 4 final same-day).
 *   03 account identifier and summary: 03,account number,currency, then
 *   repeated type code,amount,item count,funds type[,funds fields].
 *   16 transaction detail: 16,type code,amount,funds type[,funds fields],
 *   bank reference,customer reference,text.  The text is the rest of the
 *   record: it may hold commas, and no "/" ends it (one trailing "/" is
 *   dropped all the same, as most files write one).
 *   88 continuation: more fields of the record before it (a 03 whose
 *   physical record ends in trailing commas goes on with its next summary
 *   in the 88); a continued 16
 *   text goes on in the 88, joined here with one space.
 *   49 account trailer: 49,account control total,number of records.
 *   98 group trailer: 98,group control total,number of accounts,number of
 *   records.  99 file trailer: 99,file control total,number of groups,
 *   number of records.
 * - Amounts have no decimal point: they are in minor units of the
 *   currency (03's, else 02's, else USD).  Summary amounts in 03 may carry
 *   a sign; detail amounts are unsigned, the type code gives the
 *   direction: 100-399 credits, 400-699 debits (001-099 are account
 *   status codes, 03 only; 700-799 loan, 900-999 bank-defined: no
 *   direction).
 * - Funds type: 0 immediate, 1 one-day, 2 two-or-more-day availability, Z
 *   or empty unknown; S adds three amounts (immediate, one-day, two-day);
 *   V adds the value date YYMMDD and time; D adds a count n and n pairs of
 *   days and amount.
 * - Control totals are the sums of the amount fields as written: 49 of its
 *   account's 03 and 16 amounts (the funds-type distributions not
 *   included), 98 of its accounts' 49 totals, 99 of its groups' 98
 *   totals.  Each trailer is checked against the amounts themselves (the
 *   98 against its accounts' amounts, not their 49s), so one wrong 49 is
 *   one error.  Record counts include the header and the trailer themselves
 *   and every 88: 49 from the 03, 98 from the 02, 99 from the 01.
 *
 * Memory is constant: one line and one logical record (with its
 * continuations), both bounded. */
#include "parsers/statement_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

#define BAI2_MAX_LINE 4096     /* bytes of one physical record */
#define BAI2_MAX_RECORD 16384  /* bytes of a record with its 88s */
#define BAI2_MAX_FIELDS 1024

enum { B_START = 0, B_FILE, B_GROUP, B_ACCOUNT, B_END };

struct cl_stmt_bai2 {
	unsigned char buf[CL_INPUT_BUFSIZE];
	size_t len, pos;
	bool eof;
	char line[BAI2_MAX_LINE + 1];
	size_t line_len;
	unsigned long lineno;          /* of the line in line[] */
	/* the record being gathered: its pieces separated by '\n' */
	char rec[BAI2_MAX_RECORD];
	size_t rec_len;
	unsigned long rec_line;
	int rec_code;                  /* -1 none */
	unsigned pieces;               /* physical records in it */
	bool rec_over;
	/* fields of the record being handled */
	char *field[BAI2_MAX_FIELDS];
	bool piece_end[BAI2_MAX_FIELDS]; /* the field ends its physical record (an
	                                    88 continues after it) */
	int nfields;
	char *text;                    /* a 16's text, or NULL */
	int state;
	/* 01 */
	char sender[CL_ID_MAX], receiver[CL_ID_MAX], created[CL_STMT_DATE_MAX], file_id[CL_ID_MAX];
	int64_t file_total;
	unsigned long file_groups, file_records, file_line;
	bool file_total_over;
	/* 02 */
	char originator[CL_ID_MAX], group_status[4], as_of[CL_STMT_DATE_MAX], group_ccy[4];
	char modifier[4];
	int64_t group_total;
	unsigned long group_accounts, group_records, group_line;
	bool group_total_over;
	/* 03 */
	struct cl_stmt_statement stmt;
	int64_t account_total;
	unsigned long account_records, account_line, entries;
	bool account_total_over;
	unsigned long accounts;        /* in the file */
};

void cl_stmt_bai2_init(struct cl_stmt_parser *p)
{
	p->bai2 = cl_xcalloc(1, sizeof(*p->bai2));
	p->bai2->rec_code = -1;
}

void cl_stmt_bai2_free(struct cl_stmt_parser *p)
{
	free(p->bai2);
	p->bai2 = NULL;
}

static const char *record_name(int code)
{
	switch (code) {
	case 1: return "01 file header";
	case 2: return "02 group header";
	case 3: return "03 account identifier";
	case 16: return "16 transaction detail";
	case 49: return "49 account trailer";
	case 88: return "88 continuation";
	case 98: return "98 group trailer";
	case 99: return "99 file trailer";
	default: return "record";
	}
}

/* --------------------------------------------------------- fields */

/* Fields a funds type adds after itself: S three amounts, V a date and a
 * time, D a count n and n pairs (n read from `count`, up to 50: more is
 * taken as none), else none. */
static int funds_extra(const char *type, const char *count)
{
	if (strcmp(type, "S") == 0)
		return 3;
	if (strcmp(type, "V") == 0)
		return 2;
	if (strcmp(type, "D") == 0) {
		char *end;
		long n = strtol(count, &end, 10);

		return 1 + (*end || n < 0 || n > 50 ? 0 : 2 * (int)n);
	}
	return 0;
}

/* Split the record into fields at ',' and at the joints of its pieces;
 * for a 16, stop at the text (after the funds type's fields and the two
 * references): b->text is the rest. */
static bool split(struct cl_stmt_parser *p)
{
	struct cl_stmt_bai2 *b = p->bai2;
	char *s = b->rec;
	int text_at = -1; /* index of the text field of a 16 */

	b->nfields = 0;
	b->text = NULL;
	for (;;) {
		char *end = s + strcspn(s, ",\n");
		char sep = *end;

		if (b->nfields == BAI2_MAX_FIELDS) {
			cl_outq_add(&p->q, b->rec_line, NULL, "bai2_fields",
				      "%s with more than %d fields", record_name(b->rec_code),
				      BAI2_MAX_FIELDS);
			return false;
		}
		b->piece_end[b->nfields] = sep == '\n';
		b->field[b->nfields++] = s;
		*end = '\0';
		/* a 16's funds type is field 3; D's count is field 4 */
		if (b->rec_code == 16 && text_at < 0 &&
		    ((b->nfields == 4 && strcmp(b->field[3], "D") != 0) || b->nfields == 5))
			text_at = 4 + funds_extra(b->field[3], b->nfields == 5 ? b->field[4] : "") + 2;
		if (!sep)
			return true;
		s = end + 1;
		if (b->rec_code == 16 && b->nfields == text_at) {
			for (char *c = s; *c; c++)
				if (*c == '\n')
					*c = ' ';
			b->text = s;
			return true;
		}
	}
}

static const char *fld(const struct cl_stmt_bai2 *b, int i)
{
	return i < b->nfields ? b->field[i] : "";
}

/* An amount field: optional sign, digits; "" is 0.  false on bad text. */
static bool amount(const char *s, int64_t *out, bool signed_ok)
{
	int64_t v = 0;
	bool neg = false;
	int n = 0;

	*out = 0;
	if (!*s)
		return true;
	if (*s == '+' || *s == '-') {
		if (!signed_ok)
			return false;
		neg = *s++ == '-';
	}
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || ++n > 18)
			return false;
		v = v * 10 + (*s - '0');
	}
	if (n == 0)
		return false;
	*out = neg ? -v : v;
	return true;
}

static bool count(const char *s, unsigned long *out)
{
	char *end;

	if (!*s || strlen(s) > 9 || *s < '0' || *s > '9')
		return false;
	*out = strtoul(s, &end, 10);
	return *end == '\0';
}

/* YYMMDD -> "20YY-MM-DD" (BAI2 has two-digit years). */
static bool date6(const char *s, char *out, size_t cap)
{
	int mm, dd;

	if (strlen(s) != 6 || strspn(s, "0123456789") != 6)
		return false;
	mm = (s[2] - '0') * 10 + (s[3] - '0');
	dd = (s[4] - '0') * 10 + (s[5] - '0');
	if (mm < 1 || mm > 12 || dd < 1 || dd > 31)
		return false;
	snprintf(out, cap, "20%.2s-%.2s-%.2s", s, s + 2, s + 4);
	return true;
}

static void put(struct cl_stmt_parser *p, char *dst, size_t cap, const char *v, const char *what)
{
	if (cl_stmt_placeholder(v)) {
		struct cl_error *e = cl_outq_add(
			&p->q, p->bai2->rec_line, NULL, "placeholder",
			"%s %s \"%.60s\" is a template placeholder, not a value",
			record_name(p->bai2->rec_code), what, v);

		cl_error_hint(e, "the file was made from a template whose fields were never filled "
				 "in: ask the bank for the file as sent");
		/* kept all the same: the file is invalid, and one error says so */
	}
	if (cl_copy(dst, cap, v) == 0)
		return;
	cl_outq_add(&p->q, p->bai2->rec_line, NULL, "value_too_long",
		      "%s %s of %zu bytes is longer than the limit of %zu bytes",
		      record_name(p->bai2->rec_code), what, strlen(v), cap - 1);
}

static void add_total(int64_t *acc, bool *over, int64_t v)
{
	if ((v > 0 && *acc > INT64_MAX - v) || (v < 0 && *acc < INT64_MIN - v))
		*over = true;
	else
		*acc += v;
}

static void bad_amount(struct cl_stmt_parser *p, const char *what, const char *v)
{
	cl_outq_add(&p->q, p->bai2->rec_line, NULL, "bai2_amount",
		      "%s %s \"%.30s\" is not an amount: expected up to 18 digits in minor units, "
		      "no decimal point",
		      record_name(p->bai2->rec_code), what, v);
}

/* ------------------------------------------------------- records */

static void file_header(struct cl_stmt_parser *p)
{
	struct cl_stmt_bai2 *b = p->bai2;
	char d[16];

	put(p, b->sender, sizeof(b->sender), fld(b, 1), "sender identification");
	put(p, b->receiver, sizeof(b->receiver), fld(b, 2), "receiver identification");
	put(p, b->file_id, sizeof(b->file_id), fld(b, 5), "file identification number");
	if (!date6(fld(b, 3), d, sizeof(d)))
		cl_outq_add(&p->q, b->rec_line, NULL, "bai2_date",
			      "01 file header creation date \"%.20s\": expected YYMMDD", fld(b, 3));
	else
		snprintf(b->created, sizeof(b->created), "%sT%.2s:%.2s", d, fld(b, 4),
			 strlen(fld(b, 4)) >= 4 ? fld(b, 4) + 2 : "00");
	if (!b->file_id[0])
		cl_outq_add(&p->q, b->rec_line, NULL, "bai2_file_id",
			      "01 file header has no file identification number: expected one (it "
			      "identifies the file)");
	if (strcmp(fld(b, 8), "2") != 0)
		cl_outq_add(&p->q, b->rec_line, NULL, "bai2_version",
			      "01 file header version number \"%.10s\": expected 2 (BAI2)", fld(b, 8));
	b->file_total = 0;
	b->file_total_over = false;
	b->file_groups = 0;
	b->file_records = b->pieces;
	b->file_line = b->rec_line;
}

static void group_header(struct cl_stmt_parser *p)
{
	struct cl_stmt_bai2 *b = p->bai2;

	put(p, b->originator, sizeof(b->originator), fld(b, 2), "originator identification");
	snprintf(b->group_status, sizeof(b->group_status), "%.3s", fld(b, 3));
	if (strlen(fld(b, 3)) != 1 || fld(b, 3)[0] < '1' || fld(b, 3)[0] > '4')
		cl_outq_add(&p->q, b->rec_line, NULL, "bai2_group_status",
			      "02 group header group status \"%.10s\": expected 1 (update), 2 "
			      "(deletion), 3 (correction) or 4 (test only)",
			      fld(b, 3));
	if (!date6(fld(b, 4), b->as_of, sizeof(b->as_of)))
		cl_outq_add(&p->q, b->rec_line, NULL, "bai2_date",
			      "02 group header as-of date \"%.20s\": expected YYMMDD", fld(b, 4));
	snprintf(b->group_ccy, sizeof(b->group_ccy), "%.3s", fld(b, 6));
	snprintf(b->modifier, sizeof(b->modifier), "%.3s", fld(b, 7));
	b->group_total = 0;
	b->group_total_over = false;
	b->group_accounts = 0;
	b->group_records = b->pieces;
	b->group_line = b->rec_line;
}

/* How many fields the funds type at field i takes, itself included. */
static int funds_fields(const struct cl_stmt_bai2 *b, int i)
{
	return 1 + funds_extra(fld(b, i), fld(b, i + 1));
}

static void account_header(struct cl_stmt_parser *p)
{
	struct cl_stmt_bai2 *b = p->bai2;
	struct cl_stmt_statement *s = &b->stmt;
	struct cl_stmt_item *it;
	const char *ccy;

	memset(s, 0, sizeof(*s));
	s->source = CL_STMT_SRC_BAI2;
	snprintf(s->message_type, sizeof(s->message_type), "bai2");
	memcpy(s->msg_id, b->file_id, sizeof(s->msg_id));
	memcpy(s->created, b->created, sizeof(s->created));
	memcpy(s->sender, b->sender, sizeof(s->sender));
	memcpy(s->receiver, b->receiver, sizeof(s->receiver));
	s->index = ++b->accounts;
	s->line = b->rec_line;
	memcpy(s->from, b->as_of, sizeof(s->from));
	memcpy(s->to, b->as_of, sizeof(s->to));
	s->last_page = true;
	s->sum_nb_of_ntries = s->sum_cdt_nb = s->sum_dbt_nb = -1;
	memcpy(s->bai2_originator, b->originator, sizeof(s->bai2_originator));
	memcpy(s->bai2_group_status, b->group_status, sizeof(s->bai2_group_status));
	memcpy(s->bai2_as_of_modifier, b->modifier, sizeof(s->bai2_as_of_modifier));
	put(p, s->acct_other, sizeof(s->acct_other), fld(b, 1), "customer account number");
	if (!s->acct_other[0])
		cl_outq_add(&p->q, b->rec_line, NULL, "bai2_account",
			      "03 account identifier has no account number: expected the customer "
			      "account number");
	ccy = fld(b, 2)[0] ? fld(b, 2) : b->group_ccy[0] ? b->group_ccy : "USD";
	snprintf(s->acct_ccy, sizeof(s->acct_ccy), "%.3s", ccy);
	if (cl_iso_ccy_exponent(s->acct_ccy) < 0 || strlen(ccy) != 3)
		cl_outq_add(&p->q, b->rec_line, NULL, "bai2_currency",
			      "03 account identifier currency \"%.10s\": expected an ISO 4217 code",
			      ccy);
	b->account_total = 0;
	b->account_total_over = false;
	b->account_records = b->pieces;
	b->account_line = b->rec_line;
	b->entries = 0;
	b->group_accounts++;
	for (int i = 3; i < b->nfields;) {
		const char *code = fld(b, i);
		int64_t v;
		int j = i;

		/* where a summary would start, empty fields up to the end of
		   the physical record are its trailing commas ("045,765000,,,/"
		   then "88,100,..."): the summary goes on in the 88 */
		while (j < b->nfields && !b->field[j][0] && !b->piece_end[j])
			j++;
		if (j < b->nfields && !b->field[j][0] && b->piece_end[j] && j + 1 < b->nfields) {
			i = j + 1;
			continue;
		}
		if (!code[0] && j >= b->nfields)
			break; /* "03,acct,USD,/" or trailing commas */
		if (!amount(fld(b, i + 1), &v, true)) {
			bad_amount(p, "summary amount", fld(b, i + 1));
		} else {
			add_total(&b->account_total, &b->account_total_over, v);
			if (strcmp(code, "010") == 0 || strcmp(code, "015") == 0) {
				struct cl_stmt_balance *bal = code[2] == '0' ? &s->opening : &s->closing;

				bal->present = true;
				snprintf(bal->type, sizeof(bal->type), "%s", code);
				bal->amount_minor = v;
				memcpy(bal->ccy, s->acct_ccy, sizeof(bal->ccy));
				memcpy(bal->date, b->as_of, sizeof(bal->date));
				bal->line = b->rec_line;
			}
		}
		i += 3 + funds_fields(b, i + 3);
	}
	it = cl_stmt_slot(p, CL_STMT_STATEMENT);
	it->stmt = *s;
	cl_stmt_commit(p);
}

static void detail(struct cl_stmt_parser *p)
{
	struct cl_stmt_bai2 *b = p->bai2;
	struct cl_stmt_item *it = cl_stmt_slot(p, CL_STMT_ENTRY);
	struct cl_stmt_entry *e = &it->entry;
	const char *code = fld(b, 1);
	int n = strspn(code, "0123456789") == 3 && !code[3]
			? (code[0] - '0') * 100 + (code[1] - '0') * 10 + (code[2] - '0')
			: -1;
	int f = 3 + funds_fields(b, 3);

	it->stmt = b->stmt;
	e->index = ++b->entries;
	e->line = b->rec_line;
	e->btch_nb_of_txs = -1;
	snprintf(e->bank_tx_code, sizeof(e->bank_tx_code), "%.3s", code);
	memcpy(e->ccy, b->stmt.acct_ccy, sizeof(e->ccy));
	memcpy(e->booking_date, b->as_of, sizeof(e->booking_date));
	if (n < 0)
		cl_outq_add(&p->q, b->rec_line, NULL, "bai2_type_code",
			      "16 transaction detail type code \"%.10s\": expected three digits",
			      code);
	else if (n < 100)
		cl_outq_add(&p->q, b->rec_line, NULL, "bai2_type_code",
			      "16 transaction detail type code %s is an account status code: "
			      "expected a detail code (100-399 credits, 400-699 debits, 700-999)",
			      code);
	e->direction = n >= 100 && n <= 399 ? CL_DIR_CREDIT
		       : n >= 400 && n <= 699 ? CL_DIR_DEBIT
					      : CL_DIR_NONE;
	if (!amount(fld(b, 2), &e->amount_minor, false))
		bad_amount(p, "amount", fld(b, 2));
	else
		add_total(&b->account_total, &b->account_total_over, e->amount_minor);
	snprintf(e->funds_type, sizeof(e->funds_type), "%.1s", fld(b, 3));
	if (strcmp(fld(b, 3), "V") == 0 &&
	    !date6(fld(b, 4), e->value_date, sizeof(e->value_date)))
		cl_outq_add(&p->q, b->rec_line, NULL, "bai2_date",
			      "16 transaction detail value date \"%.20s\" (funds type V): expected "
			      "YYMMDD",
			      fld(b, 4));
	if (fld(b, 3)[0] && !strchr("012SVDZ", fld(b, 3)[0]))
		cl_outq_add(&p->q, b->rec_line, NULL, "bai2_funds_type",
			      "16 transaction detail funds type \"%.10s\": expected 0, 1, 2, S, V, D or "
			      "Z",
			      fld(b, 3));
	put(p, e->acct_svcr_ref, sizeof(e->acct_svcr_ref), fld(b, f), "bank reference number");
	put(p, e->cust_ref, sizeof(e->cust_ref), fld(b, f + 1), "customer reference number");
	if (b->text) {
		size_t tn = strlen(b->text);

		while (tn > 0 && b->text[tn - 1] == ' ')
			tn--;
		if (cl_copy_span(e->text, sizeof(e->text), b->text, tn) != 0)
			cl_outq_add(&p->q, b->rec_line, NULL, "value_too_long",
				      "16 transaction detail text of %zu bytes is longer than the "
				      "limit of %zu bytes",
				      tn, sizeof(e->text) - 1);
	}
	cl_stmt_commit(p);
}

/* A trailer's total and record count against what was added up. */
static void check_trailer(struct cl_stmt_parser *p, const char *what, int total_field,
			  int64_t total, bool over, int count_field, unsigned long records,
			  unsigned long since)
{
	struct cl_stmt_bai2 *b = p->bai2;
	int64_t v;
	unsigned long n;

	if (!fld(b, total_field)[0]) {
		/* required: a blank one is not a zero, it checks nothing */
		struct cl_error *e = cl_outq_add(
			&p->q, b->rec_line, NULL, "bai2_control_total",
			"%s control total is blank: expected the sum of the amounts it covers "
			"(%lld here)",
			what, (long long)total);

		cl_error_hint(e, "the control total is a required field of BAI2 trailers: ask the "
				 "bank for the file with its totals");
	} else if (!amount(fld(b, total_field), &v, true)) {
		bad_amount(p, "control total", fld(b, total_field));
	} else if (over) {
		cl_outq_add(&p->q, b->rec_line, NULL, "bai2_control_total",
			      "%s control total cannot be checked: the amounts overflow 64 bits", what);
	} else if (v != total) {
		struct cl_error *e = cl_outq_add(
			&p->q, b->rec_line, NULL, "bai2_control_total",
			"%s control total is %lld, but the amounts it covers add up to %lld", what,
			(long long)v, (long long)total);

		cl_error_detail(e, "amounts as written, in minor units, from line %lu to line %lu",
				since, b->rec_line);
	}
	if (!count(fld(b, count_field), &n))
		cl_outq_add(&p->q, b->rec_line, NULL, "bai2_record_count",
			      "%s number of records \"%.20s\": expected a number", what,
			      fld(b, count_field));
	else if (n != records)
		cl_outq_add(&p->q, b->rec_line, NULL, "bai2_record_count",
			      "%s number of records is %lu, but there are %lu records from line %lu "
			      "to here (the header, 88s and trailer included)",
			      what, n, records, since);
}

static void account_trailer(struct cl_stmt_parser *p)
{
	struct cl_stmt_bai2 *b = p->bai2;

	check_trailer(p, "49 account trailer", 1, b->account_total, b->account_total_over, 2,
		      b->account_records, b->account_line);
	add_total(&b->group_total, &b->group_total_over, b->account_total);
	b->group_total_over |= b->account_total_over;
}

static void group_trailer(struct cl_stmt_parser *p)
{
	struct cl_stmt_bai2 *b = p->bai2;
	unsigned long n;

	check_trailer(p, "98 group trailer", 1, b->group_total, b->group_total_over, 3,
		      b->group_records, b->group_line);
	if (!count(fld(b, 2), &n) || n != b->group_accounts)
		cl_outq_add(&p->q, b->rec_line, NULL, "bai2_account_count",
			      "98 group trailer number of accounts is \"%.20s\", but the group has "
			      "%lu accounts (03 records)",
			      fld(b, 2), b->group_accounts);
	add_total(&b->file_total, &b->file_total_over, b->group_total);
	b->file_total_over |= b->group_total_over;
	b->file_groups++;
}

static void file_trailer(struct cl_stmt_parser *p)
{
	struct cl_stmt_bai2 *b = p->bai2;
	unsigned long n;

	check_trailer(p, "99 file trailer", 1, b->file_total, b->file_total_over, 3,
		      b->file_records, b->file_line);
	if (!count(fld(b, 2), &n) || n != b->file_groups)
		cl_outq_add(&p->q, b->rec_line, NULL, "bai2_group_count",
			      "99 file trailer number of groups is \"%.20s\", but the file has %lu "
			      "groups (02 records)",
			      fld(b, 2), b->file_groups);
}

/* Handle the gathered record: its place in the file, then its fields. */
static void handle(struct cl_stmt_parser *p)
{
	struct cl_stmt_bai2 *b = p->bai2;
	int code = b->rec_code;
	static const char *const where[] = {
		[B_START] = "expected a 01 file header first",
		[B_FILE] = "expected a 02 group header or the 99 file trailer",
		[B_GROUP] = "expected a 03 account identifier or the 98 group trailer",
		[B_ACCOUNT] = "expected a 16 transaction detail or the 49 account trailer",
		[B_END] = "expected nothing after the 99 file trailer",
	};
	bool ok;

	if (b->rec_over)
		return; /* its error is queued */
	/* every record counts in the file, group and account it stands in
	 * (a header starts its own count) */
	if (code != 1 && b->state >= B_FILE && b->state != B_END)
		b->file_records += b->pieces;
	if (code != 2 && (b->state == B_GROUP || b->state == B_ACCOUNT))
		b->group_records += b->pieces;
	if (code != 3 && b->state == B_ACCOUNT)
		b->account_records += b->pieces;
	switch (b->state) {
	case B_START:
		ok = code == 1;
		break;
	case B_FILE:
		ok = code == 2 || code == 99;
		break;
	case B_GROUP:
		ok = code == 3 || code == 98;
		break;
	case B_ACCOUNT:
		ok = code == 16 || code == 49;
		break;
	default:
		ok = false;
		break;
	}
	if (!ok) {
		if (code != 1 && code != 2 && code != 3 && code != 16 && code != 49 && code != 98 &&
		    code != 99)
			cl_outq_add(&p->q, b->rec_line, NULL, "bai2_record_code",
				      "record code \"%.2s\": expected 01, 02, 03, 16, 88, 49, 98 or 99",
				      b->rec);
		else
			cl_outq_add(&p->q, b->rec_line, NULL, "bai2_record_order", "%s here: %s",
				      record_name(code), where[b->state]);
		return;
	}
	if (!split(p))
		return;
	switch (code) {
	case 1:
		file_header(p);
		b->state = B_FILE;
		break;
	case 2:
		group_header(p);
		b->state = B_GROUP;
		break;
	case 3:
		account_header(p);
		b->state = B_ACCOUNT;
		break;
	case 16:
		detail(p);
		break;
	case 49:
		account_trailer(p);
		b->state = B_GROUP;
		break;
	case 98:
		group_trailer(p);
		b->state = B_FILE;
		break;
	case 99:
		file_trailer(p);
		b->state = B_END;
		break;
	}
}

/* One physical record (without its line end). */
static void physical(struct cl_stmt_parser *p)
{
	struct cl_stmt_bai2 *b = p->bai2;
	char *s = b->line;
	size_t n = b->line_len;
	int code;

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	if (n == 0)
		return; /* a blank line */
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c > 0x7E) {
			/* BAI2 is ASCII text; a NUL would cut a field short */
			cl_outq_add(&p->q, b->lineno, NULL, "bai2_character",
				      "byte 0x%02X in column %zu: expected printable ASCII (BAI2 "
				      "records are ASCII text)",
				      c, i + 1);
			for (; i < n; i++)
				if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7E)
					s[i] = '?';
		}
	}
	if (n > 0 && s[n - 1] == '/')
		n--;
	s[n] = '\0';
	code = n >= 2 && s[0] >= '0' && s[0] <= '9' && s[1] >= '0' && s[1] <= '9' &&
			       (n == 2 || s[2] == ',')
		       ? (s[0] - '0') * 10 + (s[1] - '0')
		       : 0;
	if (code == 88) {
		const char *more = n > 3 ? s + 3 : "";
		size_t m = strlen(more);

		if (b->rec_code < 0) {
			cl_outq_add(&p->q, b->lineno, NULL, "bai2_record_order",
				      "88 continuation with no record before it to continue");
			return;
		}
		b->pieces++;
		if (b->rec_len + 1 + m >= sizeof(b->rec)) {
			if (!b->rec_over)
				cl_outq_add(&p->q, b->rec_line, NULL, "bai2_record_too_long",
					      "%s with its 88 continuations is longer than the limit "
					      "of %d bytes",
					      record_name(b->rec_code), BAI2_MAX_RECORD - 1);
			b->rec_over = true;
			return;
		}
		b->rec[b->rec_len++] = '\n';
		memcpy(b->rec + b->rec_len, more, m + 1);
		b->rec_len += m;
		return;
	}
	if (b->rec_code >= 0)
		handle(p);
	b->rec_code = -1;
	if (code == 0) {
		cl_outq_add(&p->q, b->lineno, NULL, "bai2_record_code",
			      "record starts \"%.10s\": expected a two-digit record code and a comma",
			      s);
		return;
	}
	b->rec_code = code;
	b->rec_line = b->lineno;
	b->pieces = 1;
	b->rec_over = false;
	memcpy(b->rec, s, n + 1); /* n <= BAI2_MAX_LINE < sizeof(rec) */
	b->rec_len = n;
}

static void at_end(struct cl_stmt_parser *p)
{
	struct cl_stmt_bai2 *b = p->bai2;

	if (b->rec_code >= 0)
		handle(p);
	b->rec_code = -1;
	p->finished = true;
	if (b->state == B_END)
		return;
	if (b->state == B_ACCOUNT)
		cl_outq_add(&p->q, b->lineno, NULL, "bai2_truncated",
			      "file ends inside the account of line %lu (truncated?): expected its "
			      "49 account trailer, the 98 group trailer and the 99 file trailer",
			      b->account_line);
	else if (b->state == B_GROUP)
		cl_outq_add(&p->q, b->lineno, NULL, "bai2_truncated",
			      "file ends inside the group of line %lu (truncated?): expected its 98 "
			      "group trailer and the 99 file trailer",
			      b->group_line);
	else if (b->state == B_FILE)
		cl_outq_add(&p->q, b->lineno, NULL, "bai2_truncated",
			      "file ends without a 99 file trailer (truncated?)");
	else
		cl_outq_add(&p->q, b->lineno, NULL, "bai2_record_order",
			      "no 01 file header in the file: expected one first");
}

void cl_stmt_bai2_pump(struct cl_stmt_parser *p)
{
	struct cl_stmt_bai2 *b = p->bai2;

	while (!p->finished && !cl_outq_ready(&p->q)) {
		unsigned char *nl;
		size_t take;

		if (b->pos == b->len) {
			long r;

			if (b->eof) {
				if (b->line_len > 0) {
					b->lineno++;
					physical(p);
					b->line_len = 0;
				}
				at_end(p);
				break;
			}
			r = cl_input_read(p->in, b->buf, sizeof(b->buf), &p->io_err);
			if (r < 0) {
				p->io_failed = true;
				p->finished = true;
				break;
			}
			if (r == 0)
				b->eof = true;
			b->len = (size_t)r;
			b->pos = 0;
			continue;
		}
		nl = memchr(b->buf + b->pos, '\n', b->len - b->pos);
		take = nl ? (size_t)(nl - (b->buf + b->pos)) : b->len - b->pos;
		if (b->line_len + take > BAI2_MAX_LINE) {
			cl_stmt_fatal(p, b->lineno + 1, "bai2_line_too_long",
				      "line longer than the limit of %d bytes: BAI2 records are short "
				      "lines ending in \"/\"",
				      BAI2_MAX_LINE);
			break;
		}
		memcpy(b->line + b->line_len, b->buf + b->pos, take);
		b->line_len += take;
		b->pos += take;
		if (nl) {
			b->pos++;
			b->lineno++;
			b->line[b->line_len] = '\0';
			physical(p);
			b->line_len = 0;
		}
	}
}
