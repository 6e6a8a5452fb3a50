/* statement_csv_fields.c - one row of a bank CSV export read and checked
 * by its map (statement_csv_internal.h): the dates by the map's format, the
 * amounts by its separators and sign convention, the currency, account and
 * references; each refusal with its line, column, what was expected and
 * what was found; deviations whose meaning is clear read with a note. */
#include "parsers/statement_csv_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------- values */

const char *cl_csv_trimmed(const char *s, char *buf, size_t cap)
{
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (n >= cap)
		n = cap - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

/* A date by the map's format into "YYYY-MM-DD"; false when it is none. */
static bool date_of(const char *fmt, const char *v, char out[11])
{
	int y = 0, mo = 0, d = 0;
	size_t i = 0, j = 0;
	static const int md[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	while (fmt[i]) {
		int *dst = NULL, w = 0;

		if (strncmp(fmt + i, "YYYY", 4) == 0)
			dst = &y, w = 4;
		else if (strncmp(fmt + i, "MM", 2) == 0)
			dst = &mo, w = 2;
		else if (strncmp(fmt + i, "DD", 2) == 0)
			dst = &d, w = 2;
		if (dst) {
			int k = 0;

			/* a month or day of one digit ("3.7.2026") is read too */
			while (k < w && isdigit((unsigned char)v[j]))
				*dst = *dst * 10 + (v[j++] - '0'), k++;
			if (k == 0 || (w == 4 && k != 4))
				return false;
			i += (size_t)w;
		} else {
			if (v[j] != fmt[i])
				return false;
			i++, j++;
		}
	}
	if (v[j] || mo < 1 || mo > 12 || d < 1 || d > md[mo - 1] || y < 1900 ||
	    (mo == 2 && d == 29 && !((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)))
		return false;
	snprintf(out, 11, "%04d-%02d-%02d", y % 10000, mo % 100, d % 100);
	return true;
}

/* An amount as the map writes it, in minor units of exponent e: *neg when
 * it has a minus sign.  0, or -1 with why[cap]. */
static int amount_of(const struct cl_csv_map *m, const char *v, int e, int64_t *out, bool *neg,
		     bool *trailing, char *why, size_t cap)
{
	const char *s = v;
	size_t n = strlen(v);
	int64_t a = 0;
	int frac = -1, group = -1, digits = 0;

	*out = 0;
	*neg = *trailing = false;
	if (n == 0) {
		snprintf(why, cap, "no amount");
		return -1;
	}
	if (*s == '-' || *s == '+') {
		*neg = *s == '-';
		s++, n--;
	} else if (n > 1 && s[n - 1] == '-') {
		*neg = *trailing = true;
		n--;
	}
	if (n == 0 || !isdigit((unsigned char)s[0])) {
		snprintf(why, cap, "expected digits%s", *neg ? " after the sign" : "");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];

		if (isdigit((unsigned char)ch)) {
			if (frac >= 0) {
				if (frac >= e && ch != '0') {
					snprintf(why, cap, "more decimals than the currency's %d", e);
					return -1;
				}
				if (frac < e)
					a = a * 10 + (ch - '0');
				frac++;
			} else {
				if (a > (INT64_MAX / 10 - 10) / 10000) {
					snprintf(why, cap, "too large");
					return -1;
				}
				a = a * 10 + (ch - '0');
				digits++;
				if (group >= 0)
					group++;
			}
		} else if (ch == m->decimal && frac < 0) {
			if (group >= 0 && group != 3) {
				snprintf(why, cap, "a thousands separator (%c) not before three digits",
					 m->thousands);
				return -1;
			}
			frac = 0;
		} else if (m->thousands && ch == m->thousands && frac < 0) {
			if (group >= 0 && group != 3) {
				snprintf(why, cap, "a thousands separator (%c) not before three digits",
					 m->thousands);
				return -1;
			}
			group = 0;
		} else {
			snprintf(why, cap, "\"%c\" where the map says decimal \"%c\"%s%s%s", ch,
				 m->decimal, m->thousands ? " and thousands \"" : " and no thousands separator",
				 m->thousands ? (char[2]){ m->thousands, '\0' } : "",
				 m->thousands ? "\"" : "");
			return -1;
		}
	}
	if (frac < 0 && group >= 0 && group != 3) {
		snprintf(why, cap, "a thousands separator (%c) not before three digits", m->thousands);
		return -1;
	}
	if (frac == 0) {
		snprintf(why, cap, "no digits after the decimal separator");
		return -1;
	}
	(void)digits;
	for (int k = frac < 0 ? 0 : frac; k < e; k++)
		a *= 10;
	*out = a;
	return 0;
}

static void queue_error_col(struct cl_stmt_parser *p, unsigned long line, int ix,
			    const char *code, const char *hint, const char *fmt, ...) CL_PRINTF(6, 7);
static void queue_error_col(struct cl_stmt_parser *p, unsigned long line, int ix,
			    const char *code, const char *hint, const char *fmt, ...)
{
	char msg[CL_MSGTEXT_MAX];
	struct cl_error *err;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err = cl_outq_add(&p->q, line, NULL, code, "%s", msg);
	if (ix >= 0)
		err->column = (unsigned long)ix + 1;
	if (hint)
		cl_error_hint(err, "%s", hint);
}

bool cl_csv_add_ok(int64_t *a, int64_t b)
{
	if ((b > 0 && *a > INT64_MAX - b) || (b < 0 && *a < INT64_MIN - b))
		return false;
	*a += b;
	return true;
}

static void ref(struct cl_stmt_parser *p, const char *v, char *dst, size_t cap,
		unsigned long line)
{
	struct cl_stmt_csv *c = C(p);
	char buf[CL_ID_MAX * 4];

	dst[0] = '\0';
	if (!v)
		return;
	cl_csv_trimmed(v, buf, sizeof(buf));
	if (strlen(buf) >= cap) {
		if (!c->noted_ref && !c->scanned) {
			c->noted_ref = true;
			cl_outq_note(&p->q, line, CSV_NOTE,
				     "a reference longer than %zu characters (\"%.40s...\"): not used "
				     "(a reference cut short could match another payment)",
				     cap - 1, buf);
		}
		return;
	}
	memcpy(dst, buf, strlen(buf) + 1);
}

/* The row libcsv completed into r; false when it is refused (its errors
 * queued in pass 1) or is no row (blank). */
int cl_csv_row_of(struct cl_stmt_parser *p, struct row *r)
{
	struct cl_stmt_csv *c = C(p);
	const struct cl_csv_map *m = c->map;
	bool quiet = c->scanned, ok = true;
	char v[512], why[200];
	const char *f;
	int e;

	memset(r, 0, sizeof(*r));
	r->line = c->row_line;
	{
		bool blank = true;

		for (unsigned i = 0; i < c->nf && blank; i++)
			blank = !*cl_csv_trimmed(c->fields + c->off[i], v, sizeof(v));
		if (blank) {
			if (!c->noted_blank && !quiet) {
				c->noted_blank = true;
				cl_outq_note(&p->q, r->line, CSV_NOTE, "a blank row: passed over");
			}
			return 0;
		}
	}
	if (c->row_over) {
		if (!quiet)
			cl_outq_add(&p->q, r->line, NULL, "csv_row_too_long",
				      "the row has more than %d columns or %u KiB: expected a "
				      "row of the export the map describes",
				      CSV_MAX_COLS, CSV_ROW_BYTES >> 10);
		return -1;
	}
	if ((int)c->nf < c->need) {
		if (!quiet) {
			struct cl_error *err = cl_outq_add(
				&p->q, r->line, NULL, "csv_columns",
				"the row has %u columns: expected at least %d (the map's columns)",
				c->nf, c->need);
			cl_error_hint(err, "a row cut short, a delimiter the map does not say "
					   "(delimiter = ...), or a line that is no booking (a total "
					   "after the rows): fix the file or the map");
		}
		return -1;
	}
	/* the account and currency first: the amounts need the exponent */
	if (m->fixed_account[0]) {
		snprintf(r->account, sizeof(r->account), "%s", m->fixed_account);
	} else {
		size_t k = 0;

		cl_csv_trimmed(field(c, c->ix_account), v, sizeof(v));
		for (const char *s = v; *s && k + 1 < sizeof(r->account); s++)
			if (*s != ' ')
				r->account[k++] = *s;
			else if (!c->noted_acct && !quiet) {
				c->noted_acct = true;
				cl_outq_note(&p->q, r->line, CSV_NOTE,
					     "an account number with blanks (\"%.40s\"): read without them",
					     v);
			}
		r->account[k] = '\0';
		if (!r->account[0] || strlen(v) >= CL_ACCOUNT_MAX || strchr(r->account, '|')) {
			if (!quiet)
				queue_error_col(p, r->line, c->ix_account, "csv_account",
						"every row needs the account it is booked on",
						"account \"%.40s\": expected an account number%s", v, "");
			ok = false;
		}
	}
	if (m->fixed_currency[0]) {
		memcpy(r->ccy, m->fixed_currency, 4);
	} else {
		cl_csv_trimmed(field(c, c->ix_ccy), v, sizeof(v));
		for (char *s = v; *s; s++)
			*s = (char)toupper((unsigned char)*s);
		if (strlen(v) != 3 || cl_iso_ccy_exponent(v) < 0) {
			if (!quiet)
				queue_error_col(p, r->line, c->ix_ccy, "csv_currency", NULL,
						"currency code \"%.20s\": expected an ISO 4217 code "
						"(\"EUR\")%s", v, "");
			return -1;
		}
		memcpy(r->ccy, v, 4);
	}
	e = cl_iso_ccy_exponent(r->ccy);
	f = cl_csv_trimmed(field(c, c->ix_booking), v, sizeof(v));
	if (!date_of(m->date_format, f, r->booking)) {
		if (!quiet)
			queue_error_col(p, r->line, c->ix_booking, "csv_date",
					"a booking date that is none is not to be guessed: ask the "
					"bank for the export again, or correct date_format in the map",
					"booking date \"%.30s\": expected a date %s", f, m->date_format);
		ok = false;
	}
	memcpy(r->value, r->booking, sizeof(r->value));
	if (c->ix_value >= 0 && *(f = cl_csv_trimmed(field(c, c->ix_value), v, sizeof(v))) &&
	    !date_of(m->date_format, f, r->value)) {
		if (!quiet)
			queue_error_col(p, r->line, c->ix_value, "csv_date", NULL,
					"value date \"%.30s\": expected a date %s", f, m->date_format);
		ok = false;
	}
	/* the amount and its direction */
	{
		bool neg, trailing;
		int ix = c->ix_amount;

		if (m->amounts == CL_CSV_DEBIT_CREDIT) {
			char dv[128], cv[128];
			bool dneg = false, cneg = false, dt = false, ct = false;
			int64_t da = 0, ca = 0;
			bool has_d = *cl_csv_trimmed(field(c, c->ix_debit), dv, sizeof(dv)) != '\0';
			bool has_c = *cl_csv_trimmed(field(c, c->ix_credit), cv, sizeof(cv)) != '\0';

			if (has_d && amount_of(m, dv, e, &da, &dneg, &dt, why, sizeof(why)) != 0) {
				if (!quiet)
					queue_error_col(p, r->line, c->ix_debit, "csv_amount",
							"the amount of a booking is not to be guessed",
							"debit \"%.30s\": %s", dv, why);
				return -1;
			}
			if (has_c && amount_of(m, cv, e, &ca, &cneg, &ct, why, sizeof(why)) != 0) {
				if (!quiet)
					queue_error_col(p, r->line, c->ix_credit, "csv_amount",
							"the amount of a booking is not to be guessed",
							"credit \"%.30s\": %s", cv, why);
				return -1;
			}
			if (has_d && has_c && da != 0 && ca != 0) {
				if (!quiet)
					queue_error_col(p, r->line, c->ix_debit, "csv_amount",
							"a row is one booking: one of the two columns",
							"both debit \"%.30s\" and credit \"%.30s\": expected "
							"one of them",
							dv, cv);
				return -1;
			}
			if (!has_d && !has_c) {
				if (!quiet)
					queue_error_col(p, r->line, c->ix_debit, "csv_amount", NULL,
							"neither debit nor credit%s%s: expected the amount in "
							"one of them", "", "");
				return -1;
			}
			if (has_c && (ca != 0 || !has_d)) {
				if (cneg) {
					if (!quiet)
						queue_error_col(p, r->line, c->ix_credit, "csv_amount",
								"a negative credit could be a debit or a "
								"reversal: ask the bank",
								"credit \"%.30s\": expected no sign%s", cv, "");
					return -1;
				}
				r->dir = CL_DIR_CREDIT, r->amount = ca;
			} else {
				if (dneg && !c->noted_neg_debit && !quiet) {
					c->noted_neg_debit = true;
					cl_outq_note(&p->q, r->line, CSV_NOTE,
						     "a debit written with a minus sign (\"%.30s\"): read as "
						     "the debit it is",
						     dv);
				}
				r->dir = CL_DIR_DEBIT, r->amount = da;
			}
			trailing = dt || ct;
		} else {
			f = cl_csv_trimmed(field(c, ix), v, sizeof(v));
			if (amount_of(m, f, e, &r->amount, &neg, &trailing, why, sizeof(why)) != 0) {
				if (!quiet)
					queue_error_col(p, r->line, ix, "csv_amount",
							"the amount of a booking is not to be guessed: "
							"ask the bank for the export again, or correct "
							"decimal and thousands in the map",
							"amount \"%.30s\": %s", f, why);
				return -1;
			}
			if (m->amounts == CL_CSV_MARK) {
				char mk[80];

				cl_csv_trimmed(field(c, c->ix_mark), mk, sizeof(mk));
				if (neg) {
					if (!quiet)
						queue_error_col(p, r->line, ix, "csv_amount", NULL,
								"amount \"%.30s\": expected no sign (the "
								"direction column says which way)%s",
								f, "");
					return -1;
				}
				if (strcasecmp(mk, m->debit_mark) == 0) {
					r->dir = CL_DIR_DEBIT;
				} else if (strcasecmp(mk, m->credit_mark) == 0) {
					r->dir = CL_DIR_CREDIT;
				} else {
					if (!quiet) {
						char want[160];

						snprintf(want, sizeof(want), "\"%s\" or \"%s\"",
							 m->debit_mark, m->credit_mark);
						queue_error_col(p, r->line, c->ix_mark, "csv_direction",
								NULL, "direction \"%.30s\": expected %s",
								mk, want);
					}
					return -1;
				}
			} else {
				r->dir = neg != m->inverted ? CL_DIR_DEBIT : CL_DIR_CREDIT;
			}
		}
		if (trailing && !c->noted_trailing && !quiet) {
			c->noted_trailing = true;
			cl_outq_note(&p->q, r->line, CSV_NOTE,
				     "an amount with its minus sign after it (\"12,50-\"): read as "
				     "negative");
		}
	}
	if (c->ix_balance >= 0 && *(f = cl_csv_trimmed(field(c, c->ix_balance), v, sizeof(v)))) {
		bool neg, trailing;

		if (amount_of(m, f, e, &r->balance, &neg, &trailing, why, sizeof(why)) != 0) {
			if (!quiet)
				queue_error_col(p, r->line, c->ix_balance, "csv_amount", NULL,
						"balance \"%.30s\": %s", f, why);
			return -1;
		}
		if (neg)
			r->balance = -r->balance;
		r->has_balance = true;
	}
	ref(p, field(c, c->ix_e2e), r->e2e, sizeof(r->e2e), r->line);
	ref(p, field(c, c->ix_bank), r->bank_ref, sizeof(r->bank_ref), r->line);
	ref(p, field(c, c->ix_cust), r->cust_ref, sizeof(r->cust_ref), r->line);
	if (c->ix_code >= 0)
		cl_csv_trimmed(field(c, c->ix_code), r->code, sizeof(r->code));
	{
		size_t k = 0;
		int parts[CL_CSV_MAP_TEXTS + 1];
		int np = 0;

		if (c->ix_cp >= 0)
			parts[np++] = c->ix_cp;
		for (unsigned i = 0; i < m->ntext; i++)
			parts[np++] = c->ix_text[i];
		for (int i = 0; i < np && k + 2 < sizeof(r->text); i++) {
			cl_csv_trimmed(field(c, parts[i]), v, sizeof(v));
			if (!v[0])
				continue;
			k += (size_t)snprintf(r->text + k, sizeof(r->text) - k, "%s%s", k ? " " : "", v);
		}
		if (k >= sizeof(r->text))
			r->text[sizeof(r->text) - 1] = '\0';
	}
	return ok ? 1 : -1;
}

