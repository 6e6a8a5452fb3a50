/* statement_mt940_fields.c - the values of MT940/MT942 fields: dates, amounts,
 * balances, the account, the statement number, :13D:, :34F:, the :86:
 * references (slash codes and German ?NN subfields) and the :61: statement
 * line (statement_mt940.c says the formats). */
#include "parsers/statement_mt940_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A field whose damage makes the message's meaning unclear: its error,
 * and none of the message's items. */
#define REFUSE_FIELD(p, f, ...) \
	((void)cl_outq_add(&(p)->q, (f)->line, NULL, __VA_ARGS__), (p)->mt940->broken = true)

/* ---------------------------------------------------------------- values */

static const char *ftext(const struct cl_stmt_mt940 *m, const struct mt_field *f, size_t *n)
{
	*n = f->len;
	return m->text + f->off;
}

/* The first line of a field into out[cap] (cut to fit). */
void cl_mt940_first_line(const struct cl_stmt_mt940 *m, const struct mt_field *f, char *out,
		       size_t cap)
{
	size_t n;
	const char *s = ftext(m, f, &n);
	size_t k = 0;

	while (k < n && s[k] != '\n' && k + 1 < cap)
		k++;
	memcpy(out, s, k);
	out[k] = '\0';
}

static bool leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int mdays(int y, int mo)
{
	static const int d[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	return mo == 2 && leap(y) ? 29 : d[mo - 1];
}

static int dig2(const char *s)
{
	return (s[0] - '0') * 10 + (s[1] - '0');
}

/* YYMMDD (years 80-99 are 19YY, else 20YY) -> "YYYY-MM-DD"; *y, *mo the
 * year and month.  false when it is no date. */
static bool date6(const char *s, char out[11], int *y, int *mo)
{
	int yy, mm, dd;

	if (strspn(s, "0123456789") < 6)
		return false;
	yy = dig2(s);
	mm = dig2(s + 2);
	dd = dig2(s + 4);
	yy += yy >= 80 ? 1900 : 2000;
	if (mm < 1 || mm > 12 || dd < 1 || dd > mdays(yy, mm))
		return false;
	snprintf(out, 11, "%04d-%02d-%02d", yy % 10000, mm % 100, dd % 100);
	if (y)
		*y = yy;
	if (mo)
		*mo = mm;
	return true;
}

/* An MT amount: digits with one decimal comma, up to 15 characters, in
 * minor units of a currency of exponent e.  Returns the characters read,
 * 0 when there is no amount; *bad says why into why[cap]. */
size_t cl_mt940_mt_amount(const char *s, int e, int64_t *out, char *why, size_t cap)
{
	size_t n = strspn(s, "0123456789,"), lead = strspn(s, "0");
	const char *comma = memchr(s, ',', n);
	int64_t v = 0;
	size_t nint, nfrac;

	*out = 0;
	if (n == 0) {
		snprintf(why, cap, "no amount");
		return 0;
	}
	if (!comma && strspn(s, "0") == n && n <= 15) {
		/* "0": zero whatever the decimals (a floor limit, an empty sum) */
		return n;
	}
	if (!comma || memchr(comma + 1, ',', n - (size_t)(comma - s) - 1)) {
		snprintf(why, cap, "\"%.*s\" is not an amount: expected digits with one decimal "
			 "comma (\"1234,56\", \"12,\")", (int)(n > 20 ? 20 : n), s);
		return 0;
	}
	nint = (size_t)(comma - s);
	nfrac = n - nint - 1;
	while (nfrac > 0 && comma[nfrac] == '0')
		nfrac--;
	if (lead >= nint && nint > 0)
		lead = nint - 1; /* "0,50": one zero stays */
	if (nint == 0 || n - lead > 15) {
		snprintf(why, cap, "\"%.*s\" is not an amount: expected 1 to 14 digits with a "
			 "decimal comma", (int)(n > 20 ? 20 : n), s);
		return 0;
	}
	if (e < 0) {
		snprintf(why, cap, "the currency is not an ISO 4217 code with minor units");
		return 0;
	}
	if (nfrac > (size_t)e) {
		snprintf(why, cap, "\"%.*s\" has more decimals than the currency's %d", (int)n, s, e);
		return 0;
	}
	for (size_t i = lead; i < nint; i++)
		v = v * 10 + (s[i] - '0');
	for (int i = 0; i < e; i++)
		v = v * 10 + ((size_t)i < nfrac ? comma[1 + i] - '0' : 0);
	*out = v;
	return n;
}

static void upper_ccy(char out[4], const char *s)
{
	for (int i = 0; i < 3; i++)
		out[i] = (char)toupper((unsigned char)s[i]);
	out[3] = '\0';
}

bool cl_mt940_ccy_ok(const char *s)
{
	return isalpha((unsigned char)s[0]) && isalpha((unsigned char)s[1]) &&
	       isalpha((unsigned char)s[2]);
}

static void note_lower(struct cl_stmt_parser *p, unsigned long line, const char *what,
		       const char *v)
{
	struct cl_stmt_mt940 *m = p->mt940;

	if (m->noted_lower)
		return;
	m->noted_lower = true;
	cl_outq_note(&p->q, line, MT_NOTE, "%s \"%.20s\" in lower case: read as upper case", what, v);
}

/* A balance field (:60F: :60M: :62F: :62M: :64: :65:): D/C, YYMMDD,
 * currency, amount. */
bool cl_mt940_balance(struct cl_stmt_parser *p, const struct mt_field *f,
		    struct cl_stmt_balance *b)
{
	char v[80], why[160];
	char *s = v;
	int64_t a;
	size_t k;
	int e;

	memset(b, 0, sizeof(*b));
	cl_mt940_first_line(p->mt940, f, v, sizeof(v));
	if (*s == 'c' || *s == 'd') {
		note_lower(p, f->line, "debit/credit mark", v);
		*s = (char)toupper((unsigned char)*s);
	}
	if ((*s != 'C' && *s != 'D') || !date6(s + 1, b->date, NULL, NULL) ||
	    strlen(s) < 10 || !cl_mt940_ccy_ok(s + 7)) {
		cl_outq_add(&p->q, f->line, NULL, "mt940_balance",
			      ":%s: balance \"%.40s\": expected D or C, the date YYMMDD, the "
			      "currency and the amount (\"C261130EUR1234,56\")",
			      f->tag, v);
		return false;
	}
	if (!isupper((unsigned char)s[7]) || !isupper((unsigned char)s[8]) ||
	    !isupper((unsigned char)s[9]))
		note_lower(p, f->line, "currency code", s + 7);
	upper_ccy(b->ccy, s + 7);
	e = cl_iso_ccy_exponent(b->ccy);
	k = cl_mt940_mt_amount(s + 10, e, &a, why, sizeof(why));
	if (k == 0 || s[10 + k]) {
		cl_outq_add(&p->q, f->line, NULL, "mt940_amount",
			      ":%s: balance amount: %s", f->tag,
			      k == 0 ? why : "text after the amount");
		return false;
	}
	b->present = true;
	snprintf(b->type, sizeof(b->type), "%s", f->tag);
	b->amount_minor = *s == 'D' ? -a : a;
	b->line = f->line;
	return true;
}

/* Strip leading zeros of a number as written ("00027" -> "27", "000" -> "0"). */
static void number(char *out, size_t cap, const char *s, size_t n)
{
	while (n > 1 && *s == '0') {
		s++;
		n--;
	}
	snprintf(out, cap, "%.*s", (int)n, s);
}

/* :25: the account: "IBAN", "BIC/IBAN", "BANKCODE/ACCOUNT", with a
 * currency code after it as some banks write ("NL..EUR"). */
void cl_mt940_account(struct cl_stmt_parser *p, const struct mt_field *f)
{
	struct cl_stmt_mt940 *m = p->mt940;
	char v[80], *a = v, *slash;
	size_t n;

	cl_mt940_first_line(m, f, v, sizeof(v));
	slash = strchr(v, '/');
	/* a BIC before the slash: 8 or 11 characters, the fifth and sixth
	   letters of a country */
	if (slash && (slash - v == 8 || slash - v == 11) && isalpha((unsigned char)v[4]) &&
	    isalpha((unsigned char)v[5]) && isalpha((unsigned char)v[0]))
		a = slash + 1;
	n = strlen(a);
	while (n > 0 && a[n - 1] == ' ')
		a[--n] = '\0';
	while (*a == ' ')
		a++;
	n = strlen(a);
	if (n == 0) {
		cl_outq_add(&p->q, f->line, NULL, "mt940_account",
			      ":25: account identification is empty: expected the account (an "
			      "IBAN, or a bank code and account number)");
		return;
	}
	/* an IBAN with the currency after it */
	if (n > 18 && isalpha((unsigned char)a[0]) && isalpha((unsigned char)a[1]) &&
	    isdigit((unsigned char)a[2]) && isdigit((unsigned char)a[3]) &&
	    cl_mt940_ccy_ok(a + n - 3) && cl_iso_ccy_exponent(a + n - 3) >= 0 && isdigit((unsigned char)a[n - 4])) {
		upper_ccy(m->stmt.acct_ccy, a + n - 3);
		a[n - 3] = '\0';
	}
	if (isalpha((unsigned char)a[0]) && isalpha((unsigned char)a[1]) &&
	    isdigit((unsigned char)a[2]) && isdigit((unsigned char)a[3]) && strlen(a) >= 15 &&
	    strlen(a) <= 34 && !strchr(a, ' ') && !strchr(a, '/'))
		snprintf(m->stmt.acct_iban, sizeof(m->stmt.acct_iban), "%s", a);
	else if (cl_copy(m->stmt.acct_other, sizeof(m->stmt.acct_other), a) != 0)
		cl_outq_add(&p->q, f->line, NULL, "value_too_long",
			      ":25: account \"%.40s\" is longer than the limit of %zu bytes", a,
			      sizeof(m->stmt.acct_other) - 1);
}

/* :28C: statement number[/sequence number]. */
void cl_mt940_statement_number(struct cl_stmt_parser *p, const struct mt_field *f)
{
	struct cl_stmt_mt940 *m = p->mt940;
	char v[40], num[12], seq[12] = "";
	char *slash;
	size_t a, b = 0;

	cl_mt940_first_line(m, f, v, sizeof(v));
	slash = strchr(v, '/');
	a = slash ? (size_t)(slash - v) : strlen(v);
	if (slash)
		b = strlen(slash + 1);
	if (a == 0 || a > 5 || strspn(v, "0123456789") != a ||
	    (slash && (b == 0 || b > 5 || strspn(slash + 1, "0123456789") != b))) {
		REFUSE_FIELD(p, f, "mt940_statement_number",
			      ":%s: statement number \"%.20s\": expected up to 5 digits, then "
			      "optionally \"/\" and a sequence number of up to 5 digits",
			      f->tag, v);
		return;
	}
	number(num, sizeof(num), v, a);
	if (slash)
		number(seq, sizeof(seq), slash + 1, b);
	snprintf(m->stmt.lgl_seq_nb, sizeof(m->stmt.lgl_seq_nb), "%s", num);
	snprintf(m->stmt.elctrnc_seq_nb, sizeof(m->stmt.elctrnc_seq_nb), "%s%s%s", num,
		 slash ? "/" : "", seq);
	m->stmt.page = slash ? (unsigned)strtoul(seq, NULL, 10) : 0;
}

/* :13D: YYMMDDhhmm+hhmm -> an xs:dateTime. */
void cl_mt940_date_time(struct cl_stmt_parser *p, const struct mt_field *f)
{
	struct cl_stmt_mt940 *m = p->mt940;
	char v[40], d[11];

	cl_mt940_first_line(m, f, v, sizeof(v));
	if (strlen(v) != 15 || strspn(v, "0123456789") != 10 || (v[10] != '+' && v[10] != '-') ||
	    strspn(v + 11, "0123456789") != 4 || !date6(v, d, NULL, NULL) || dig2(v + 6) > 23 ||
	    dig2(v + 8) > 59) {
		REFUSE_FIELD(p, f, "mt940_date",
			      ":13D: date and time \"%.20s\": expected YYMMDDhhmm and the offset "
			      "from UTC (+hhmm or -hhmm)",
			      v);
		return;
	}
	snprintf(m->stmt.stmt_created, sizeof(m->stmt.stmt_created), "%sT%.2s:%.2s:00%c%.2s:%.2s",
		 d, v + 6, v + 8, v[10], v + 11, v + 13);
	memcpy(m->stmt.from, d, 11);
	memcpy(m->stmt.to, d, 11);
}

/* :34F: currency, optional D/C, amount (a floor limit). */
void cl_mt940_floor_limit(struct cl_stmt_parser *p, const struct mt_field *f)
{
	struct cl_stmt_mt940 *m = p->mt940;
	char v[40], why[160];
	const char *s = v + 3;
	int64_t a;
	size_t k;

	cl_mt940_first_line(m, f, v, sizeof(v));
	if (strlen(v) < 4 || !cl_mt940_ccy_ok(v)) {
		REFUSE_FIELD(p, f, "mt940_floor_limit",
			      ":34F: floor limit \"%.20s\": expected the currency code, D or C "
			      "(optional) and the amount",
			      v);
		return;
	}
	if (!m->stmt.acct_ccy[0])
		upper_ccy(m->stmt.acct_ccy, v);
	if (*s == 'D' || *s == 'C' || *s == 'd' || *s == 'c')
		s++;
	k = cl_mt940_mt_amount(s, cl_iso_ccy_exponent(m->stmt.acct_ccy), &a, why, sizeof(why));
	if (k == 0 || s[k])
		cl_outq_add(&p->q, f->line, NULL, "mt940_amount", ":34F: floor limit amount: %s",
			      k == 0 ? why : "text after the amount");
}

/* ------------------------------------------------------------ :86: refs */

/* The value after `code` in a "/CODE/value/NEXT/" text (line breaks
 * removed): up to the next "/" that starts a code ("/XXXX/"), "//", or
 * the end. */
/* The text from a to e without blanks around it into out; whether any is left. */
static bool trimmed(const char *a, const char *e, char *out, size_t cap)
{
	while (a < e && *a == ' ')
		a++;
	while (e > a && e[-1] == ' ')
		e--;
	snprintf(out, cap, "%.*s", (int)(e - a), a);
	return e > a;
}

static bool slash_code(const char *t, const char *code, char *out, size_t cap)
{
	const char *a = strstr(t, code), *e;

	if (!a)
		return false;
	a += strlen(code);
	for (e = a; *e; e++) {
		size_t k = 1;

		if (*e != '/')
			continue;
		if (e[1] == '/' || !e[1])
			break;
		while (k <= 4 && isupper((unsigned char)e[k]))
			k++;
		if (k >= 3 && e[k] == '/')
			break;
	}
	return trimmed(a, e, out, cap);
}

/* The SEPA identifiers of a German purpose text ("EREF+...KREF+..."). */
static const char *const sepa_ids[] = {
	"EREF+", "KREF+", "MREF+", "CRED+", "DEBT+", "SVWZ+", "ABWA+", "ABWE+", "COAM+",
	"OAMT+", "PURP+", "IBAN+", "BIC+", "SQTP+", "RTRN+",
};

static bool sepa_id(const char *t, const char *id, char *out, size_t cap)
{
	const char *a = strstr(t, id), *e;

	if (!a)
		return false;
	a += strlen(id);
	e = a + strlen(a);
	for (size_t i = 0; i < sizeof(sepa_ids) / sizeof(sepa_ids[0]); i++) {
		const char *n = strstr(a, sepa_ids[i]);

		if (n && n < e)
			e = n;
	}
	return trimmed(a, e, out, cap);
}

/* "/OCMT/" (the original amount: what was instructed) and "/CHGS/" (the
 * charges taken), each "CCY" and an MT amount ("/OCMT/EUR12,50/"), as the
 * :61: supplementary details or a structured :86: write them, into the
 * entry's amount details as camt's AmtDtls/InstdAmt and Chrgs.  One that
 * does not read is passed over with a note: the booked amount stands, and
 * an entry without its details is matched (or not) on that alone. */
static void amount_codes(struct cl_stmt_parser *p, unsigned long line, const char *tag,
			 const char *t, struct cl_stmt_entry *e)
{
	static const char *const codes[] = { "/OCMT/", "/CHGS/" };
	char v[64], why[160], ccy[4];

	for (int i = 0; i < 2; i++) {
		int64_t a;
		size_t k = 0;

		if (!slash_code(t, codes[i], v, sizeof(v)))
			continue;
		if (strlen(v) > 3 && cl_mt940_ccy_ok(v)) {
			upper_ccy(ccy, v);
			k = cl_mt940_mt_amount(v + 3, cl_iso_ccy_exponent(ccy), &a, why,
					       sizeof(why));
			if (k != 0 && v[3 + k])
				k = 0, snprintf(why, sizeof(why), "text after the amount");
		} else {
			snprintf(why, sizeof(why), "expected the currency code and the amount");
		}
		if (k == 0) {
			cl_outq_note(&p->q, line, MT_NOTE,
				     "%s %s\"%.40s\": %s: read without it (the booked amount "
				     "stands)", tag, codes[i], v, why);
			continue;
		}
		if (i == 0) {
			e->has_instd = true;
			e->instd_minor = a;
			memcpy(e->instd_ccy, ccy, sizeof(ccy));
		} else {
			e->has_chrgs = true;
			e->chrgs_minor = a;
			memcpy(e->chrgs_ccy, ccy, sizeof(ccy));
		}
	}
}

/* :86: -> the transaction's references and the entry's text. */
void cl_mt940_information(struct cl_stmt_parser *p, const struct mt_field *f,
		       struct cl_stmt_entry *e, struct cl_stmt_tx *tx)
{
	struct cl_stmt_mt940 *m = p->mt940;
	size_t n, k = 0;
	const char *s = ftext(m, f, &n);
	char joined[4096], purpose[4096], v[CL_ID_MAX * 2];
	size_t pk = 0;

	/* the text without its line breaks (lines are cut at 65 characters
	   wherever they fall) */
	for (size_t i = 0; i < n && k + 1 < sizeof(joined); i++)
		if (s[i] != '\n')
			joined[k++] = s[i];
	joined[k] = '\0';
	if (cl_copy_span(e->text, sizeof(e->text), joined,
			 k < sizeof(e->text) - 1 ? k : sizeof(e->text) - 1) != 0)
		e->text[0] = '\0'; /* cannot happen: cut to fit */
	purpose[0] = '\0';
	if (k > 4 && isdigit((unsigned char)joined[0]) && isdigit((unsigned char)joined[1]) &&
	    isdigit((unsigned char)joined[2]) && !isalnum((unsigned char)joined[3]) &&
	    joined[3] != ' ' && isdigit((unsigned char)joined[4])) {
		/* German structure: GVC, then subfields SEP+NN; ?20-?29 and
		   ?60-?63 are the purpose, in order */
		char sep = joined[3];
		const char *q = joined + 3;

		while (q && *q == sep) {
			int nn = isdigit((unsigned char)q[1]) && isdigit((unsigned char)q[2]) ? dig2(q + 1)
											    : -1;
			const char *val = q + 3, *end = strchr(val, sep);

			if (nn < 0)
				break;
			if (!end)
				end = val + strlen(val);
			if (((nn >= 20 && nn <= 29) || (nn >= 60 && nn <= 63)) &&
			    pk + (size_t)(end - val) + 1 < sizeof(purpose)) {
				memcpy(purpose + pk, val, (size_t)(end - val));
				pk += (size_t)(end - val);
				purpose[pk] = '\0';
			}
			q = *end ? end : NULL;
		}
		if (sepa_id(purpose, "EREF+", v, sizeof(v)))
			snprintf(tx->end_to_end_id, sizeof(tx->end_to_end_id), "%.35s", v);
		if (sepa_id(purpose, "KREF+", v, sizeof(v)))
			snprintf(tx->instr_id, sizeof(tx->instr_id), "%.35s", v);
		return;
	}
	if (slash_code(joined, "/EREF/", v, sizeof(v)))
		snprintf(tx->end_to_end_id, sizeof(tx->end_to_end_id), "%.35s", v);
	if (slash_code(joined, "/KREF/", v, sizeof(v)))
		snprintf(tx->instr_id, sizeof(tx->instr_id), "%.35s", v);
	amount_codes(p, f->line, ":86:", joined, e);
}

/* ------------------------------------------------------- statement line */

/* :61: into e (its amount in the statement's currency); false when it is
 * refused. */
bool cl_mt940_statement_line(struct cl_stmt_parser *p, const struct mt_field *f,
			   struct cl_stmt_entry *e, struct cl_stmt_tx *tx)
{
	struct cl_stmt_mt940 *m = p->mt940;
	char v[MT_MAX_LINE + 1], why[160];
	char *s = v;
	int y, mo;
	size_t k, n;
	const char *t = ftext(m, f, &n);
	const char *nl = memchr(t, '\n', n);

	cl_mt940_first_line(m, f, v, sizeof(v));
	if (!date6(s, e->value_date, &y, &mo)) {
		cl_outq_add(&p->q, f->line, NULL, "mt940_date",
			      ":61: value date \"%.6s\": expected a date YYMMDD", s);
		return false;
	}
	s += 6;
	if (strspn(s, "0123456789") >= 4 && !(s[4] == ',' || isdigit((unsigned char)s[4]))) {
		/* entry date MMDD: the year of the value date, or the one
		   before or after it, whichever is nearest */
		int em = dig2(s), ed = dig2(s + 2), best = y;

		for (int cand = y - 1; cand <= y + 1; cand++)
			if (abs((cand * 12 + em) - (y * 12 + mo)) < abs((best * 12 + em) - (y * 12 + mo)))
				best = cand;
		if (em < 1 || em > 12 || ed < 1 || ed > mdays(best, em)) {
			cl_outq_add(&p->q, f->line, NULL, "mt940_date",
				      ":61: entry date \"%.4s\": expected a date MMDD", s);
			return false;
		}
		snprintf(e->booking_date, sizeof(e->booking_date), "%04d-%02d-%02d", best, em, ed);
		s += 4;
	} else if (strncmp(s, "    ", 4) == 0) {
		if (!m->noted_pad) {
			m->noted_pad = true;
			cl_outq_note(&p->q, f->line, MT_NOTE,
				     ":61: entry date is four blanks: read as no entry date (the "
				     "value date is the booking date)");
		}
		s += 4;
	}
	if (!e->booking_date[0])
		memcpy(e->booking_date, e->value_date, sizeof(e->value_date));
	if (islower((unsigned char)s[0]) && (s[0] == 'c' || s[0] == 'd' || s[0] == 'r')) {
		note_lower(p, f->line, "debit/credit mark", s);
		s[0] = (char)toupper((unsigned char)s[0]);
		if (s[0] == 'R')
			s[1] = (char)toupper((unsigned char)s[1]);
	}
	if (s[0] == 'R' && (s[1] == 'C' || s[1] == 'D')) {
		/* a reversal: RC reverses a credit (debits the account), RD a debit */
		e->reversal = true;
		e->direction = s[1] == 'C' ? CL_DIR_DEBIT : CL_DIR_CREDIT;
		s += 2;
	} else if (s[0] == 'C' || s[0] == 'D') {
		e->direction = s[0] == 'C' ? CL_DIR_CREDIT : CL_DIR_DEBIT;
		s++;
	} else {
		cl_outq_add(&p->q, f->line, NULL, "mt940_statement_line",
			      ":61: debit/credit mark \"%.2s\": expected D, C, RD or RC after the "
			      "dates", s);
		return false;
	}
	if (isalpha((unsigned char)s[0])) {
		e->funds_type[0] = s[0]; /* the third letter of the currency */
		s++;
	}
	k = cl_mt940_mt_amount(s, m->exp, &e->amount_minor, why, sizeof(why));
	if (k == 0) {
		struct cl_error *err = cl_outq_add(&p->q, f->line, NULL, "mt940_amount",
						     ":61: amount: %s", why);

		cl_error_hint(err, "the amount of a statement line is not to be guessed: ask the "
				   "bank for the statement again");
		return false;
	}
	s += k;
	if (s[0] == ' ') {
		while (s[0] == ' ')
			s++;
		if (!m->noted_pad) {
			m->noted_pad = true;
			cl_outq_note(&p->q, f->line, MT_NOTE,
				     ":61: blanks between the amount and the transaction type: passed "
				     "over");
		}
	}
	if (!isalpha((unsigned char)s[0]) || strlen(s) < 4 ||
	    strspn(s + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ") < 3) {
		cl_outq_add(&p->q, f->line, NULL, "mt940_statement_line",
			      ":61: transaction type \"%.4s\": expected S, N or F and three "
			      "characters after the amount (\"NTRF\", \"S202\")",
			      s);
		return false;
	}
	if (!strchr("SNF", toupper((unsigned char)s[0])) || s[1] == ' ' || s[2] == ' ' ||
	    s[3] == ' ') {
		/* the kind of booking only, nothing of its money: read */
		if (!m->noted_type) {
			m->noted_type = true;
			cl_outq_note(&p->q, f->line, MT_NOTE,
				     ":61: transaction type \"%.4s\" is not S, N or F and three "
				     "characters: read as written",
				     s);
		}
	} else if (islower((unsigned char)s[0])) {
		note_lower(p, f->line, "transaction type", s);
	}
	for (int i = 0; i < 4 && s[i] != ' '; i++)
		e->bank_tx_code[i] = (char)toupper((unsigned char)s[i]);
	s += 4;
	{
		char *bank = strstr(s, "//");
		size_t cn = bank ? (size_t)(bank - s) : strlen(s);

		if (cn == 0 && !m->noted_ref) {
			m->noted_ref = true;
			cl_outq_note(&p->q, f->line, MT_NOTE,
				     ":61: has no customer reference: read as NONREF (none)");
		}
		if (cn > 0 && !(cn == 6 && strncmp(s, "NONREF", 6) == 0))
			snprintf(e->ntry_ref, sizeof(e->ntry_ref), "%.*s",
				 (int)(cn < CL_ID_MAX - 1 ? cn : CL_ID_MAX - 1), s);
		if (bank && strcmp(bank + 2, "NONREF") != 0)
			snprintf(e->acct_svcr_ref, sizeof(e->acct_svcr_ref), "%.35s", bank + 2);
	}
	if (nl) {
		/* supplementary details (subfield 9, the next line): /OCMT/ and
		   /CHGS/ */
		char sup[MT_MAX_LINE + 1];
		size_t sn = n - (size_t)(nl + 1 - t);

		snprintf(sup, sizeof(sup), "%.*s", (int)(sn < MT_MAX_LINE ? sn : MT_MAX_LINE),
			 nl + 1);
		for (char *c = sup; *c; c++)
			if (*c == '\n')
				*c = ' ';
		amount_codes(p, f->line, ":61:", sup, e);
	}
	/* the customer reference is where the account owner's own reference
	   goes: the end-to-end id unless :86: names one */
	snprintf(tx->end_to_end_id, sizeof(tx->end_to_end_id), "%s", e->ntry_ref);
	return true;
}

