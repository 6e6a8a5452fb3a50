/* statement_csv.c - a bank's CSV statement export read through its column
 * map (csv_map.h; docs/design/0041-bank-csv-statements.md).
 *
 * A CSV export says nothing of itself: no statement number, often no
 * balances, sometimes several accounts.  The file is read whole into
 * memory (bounded: CSV_MAX_BYTES), then twice through libcsv:
 *  1. every row checked (dates, amounts, currency, account, references by
 *     the map); the rows gathered per account and currency: the period
 *     (first and last booking date), the sums, the running balance
 *     column's opening and closing when the map names one.  Any error:
 *     nothing is handed out.
 *  2. per account and currency, in the order of their first row: its
 *     statement item (CL_STMT_STATEMENT), then per row its transaction and
 *     entry items (as MT940's :61:), then its balance check.
 * Deviations whose meaning is clear are read with a note (code
 * "csv_deviation"): a UTF-8 byte order mark, blank rows, blanks in an
 * account number, a negative amount in the debit column, a trailing minus
 * sign ("12,50-").  Damage is an error with the line, the column, what
 * was expected and what was found (statement_csv_fields.c reads a row). */
#include "parsers/statement_csv_internal.h"

#include <csv.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "base/xmalloc.h"


void cl_stmt_csv_init(struct cl_stmt_parser *p, const struct cl_csv_map *map)
{
	p->csv = cl_xcalloc(1, sizeof(*p->csv));
	p->csv->map = map;
	p->fmt = FMT_CSV;
	p->source = CL_STMT_SRC_CSV;
	snprintf(p->message_type, sizeof(p->message_type), "csv:%.27s", map->bank);
}

void cl_stmt_csv_free(struct cl_stmt_parser *p)
{
	struct cl_stmt_csv *c = p->csv;

	if (!c)
		return;
	if (c->csv_ready)
		csv_free(&c->csv);
	free(c->data);
	free(c);
	p->csv = NULL;
}

/* ------------------------------------------------------------ reading */

static const char cp1252[32][4] = {
	"\xe2\x82\xac", "?", "\xe2\x80\x9a", "\xc6\x92", "\xe2\x80\x9e", "\xe2\x80\xa6",
	"\xe2\x80\xa0", "\xe2\x80\xa1", "\xcb\x86", "\xe2\x80\xb0", "\xc5\xa0", "\xe2\x80\xb9",
	"\xc5\x92", "?", "\xc5\xbd", "?", "?", "\xe2\x80\x98", "\xe2\x80\x99", "\xe2\x80\x9c",
	"\xe2\x80\x9d", "\xe2\x80\xa2", "\xe2\x80\x93", "\xe2\x80\x94", "\xcb\x9c",
	"\xe2\x84\xa2", "\xc5\xa1", "\xe2\x80\xba", "\xc5\x93", "?", "\xc5\xbe", "\xc5\xb8",
};

/* latin-1 or windows-1252 into UTF-8 (a new buffer). */
static void to_utf8(struct cl_stmt_csv *c)
{
	char *out = cl_xmalloc(c->len * 3 + 1);
	size_t k = 0;

	for (size_t i = 0; i < c->len; i++) {
		unsigned char b = (unsigned char)c->data[i];

		if (b < 0x80) {
			out[k++] = (char)b;
		} else if (b < 0xa0 && c->map->encoding == CL_CSV_CP1252) {
			const char *s = cp1252[b - 0x80];

			memcpy(out + k, s, strlen(s));
			k += strlen(s);
		} else {
			out[k++] = (char)(0xc0 | (b >> 6));
			out[k++] = (char)(0x80 | (b & 0x3f));
		}
	}
	free(c->data);
	c->data = out;
	c->len = k;
}

static bool read_all(struct cl_stmt_parser *p)
{
	struct cl_stmt_csv *c = C(p);
	size_t cap = 1 << 16;

	c->data = cl_xmalloc(cap);
	for (;;) {
		long r;

		if (c->len == cap) {
			if (cap >= CSV_MAX_BYTES) {
				cl_stmt_fatal(p, 0, "csv_too_large",
					      "the CSV statement is larger than %u MiB: expected one "
					      "export of some accounts and days",
					      CSV_MAX_BYTES >> 20);
				return false;
			}
			cap *= 2;
			c->data = cl_xrealloc(c->data, cap);
		}
		r = cl_input_read(p->in, c->data + c->len, cap - c->len, &p->io_err);
		if (r < 0) {
			p->io_failed = true;
			p->finished = true;
			return false;
		}
		if (r == 0)
			break;
		c->len += (size_t)r;
	}
	if (c->len == 0) {
		cl_stmt_fatal(p, 0, "empty_file",
			      "file is empty: expected a bank CSV statement (%s)", c->map->path);
		return false;
	}
	if (c->map->encoding != CL_CSV_UTF8) {
		to_utf8(c);
	} else {
		size_t bom = cl_utf8_bom((const unsigned char *)c->data, c->len);

		if (bom) {
			memmove(c->data, c->data + bom, c->len - bom);
			c->len -= bom;
			c->noted_bom = true;
			cl_outq_note(&p->q, 1, CSV_NOTE, "a UTF-8 byte order mark: passed over");
		}
		if (!cl_utf8_valid((const unsigned char *)c->data, c->len)) {
			unsigned long line = 1;
			size_t i = 0;

			/* the first line that is not UTF-8, for the message */
			for (size_t a = 0; a < c->len; a = i + 1, line++) {
				i = a;
				while (i < c->len && c->data[i] != '\n')
					i++;
				if (!cl_utf8_valid((const unsigned char *)c->data + a, i - a))
					break;
			}
			struct cl_error *err = cl_outq_add(
				&p->q, line, NULL, "csv_encoding",
				"line %lu is not UTF-8: expected the encoding the map says (utf-8)",
				line);
			cl_error_hint(err, "if the bank writes Latin-1 or Windows-1252, say "
					   "\"encoding = windows-1252\" in the map %s",
				      c->map->path);
			return false;
		}
	}
	return true;
}

/* ------------------------------------------------------------- libcsv */

static void on_field(void *s, size_t n, void *data)
{
	struct cl_stmt_csv *c = data;

	if (c->nf == 0)
		c->row_line = c->lineno;
	if (c->nf == CSV_MAX_COLS || c->used + n + 1 > sizeof(c->fields)) {
		c->row_over = true;
		return;
	}
	c->off[c->nf++] = c->used;
	memcpy(c->fields + c->used, s, n);
	c->used += n;
	c->fields[c->used++] = '\0';
}

static void row_done(struct cl_stmt_parser *p);

static void on_row(int term, void *data)
{
	struct cl_stmt_parser *p = data;
	struct cl_stmt_csv *c = C(p);

	(void)term;
	row_done(p);
	c->nf = 0;
	c->used = 0;
	c->row_over = false;
}

/* csv_parse's callbacks get the statement parser as data; on_field wants
 * the CSV state */
static void on_field_p(void *s, size_t n, void *data)
{
	on_field(s, n, C(data));
}

static bool csv_start(struct cl_stmt_parser *p)
{
	struct cl_stmt_csv *c = C(p);

	if (c->csv_ready)
		csv_free(&c->csv);
	c->csv_ready = false;
	if (csv_init(&c->csv, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0) {
		cl_stmt_fatal(p, 0, "csv_memory", "out of memory");
		return false;
	}
	c->csv_ready = true;
	csv_set_delim(&c->csv, (unsigned char)c->map->delimiter);
	csv_set_quote(&c->csv, (unsigned char)(c->map->quote ? c->map->quote : '\0'));
	c->nf = 0;
	c->used = 0;
	c->row_over = false;
	c->lineno = 0;
	c->pos = 0;
	/* the lines before the header (or the first row) are not CSV */
	for (unsigned i = 0; i < c->map->skip && c->pos < c->len; i++) {
		const char *nl = memchr(c->data + c->pos, '\n', c->len - c->pos);

		c->pos = nl ? (size_t)(nl - c->data) + 1 : c->len;
		c->lineno++;
	}
	return true;
}

/* Feed the next physical line; false at the end (after csv_fini). */
static bool feed_line(struct cl_stmt_parser *p)
{
	struct cl_stmt_csv *c = C(p);
	const char *nl;
	size_t n;

	if (c->pos >= c->len) {
		if (c->csv_ready) {
			if (csv_fini(&c->csv, on_field_p, on_row, p) != 0 && !c->scanned)
				cl_outq_add(&p->q, c->row_line, NULL, "csv_quote",
					      "a quoted field is not closed at the end of the file: "
					      "expected its closing quote (%c)", c->map->quote);
			csv_free(&c->csv);
			c->csv_ready = false;
		}
		return false;
	}
	nl = memchr(c->data + c->pos, '\n', c->len - c->pos);
	n = nl ? (size_t)(nl - (c->data + c->pos)) + 1 : c->len - c->pos;
	c->lineno++;
	if (csv_parse(&c->csv, c->data + c->pos, n, on_field_p, on_row, p) != n && !c->scanned) {
		cl_outq_add(&p->q, c->lineno, NULL, "csv_quote",
			      "a quote inside an unquoted field or after a closing quote: expected "
			      "a field quoted whole (\"a \"\"b\"\"\")");
		c->pos = c->len;
		return true;
	}
	c->pos += n;
	return true;
}

/* -------------------------------------------------------- the columns */

static int resolve_one(struct cl_stmt_parser *p, const struct cl_csv_col *col, const char *key)
{
	struct cl_stmt_csv *c = C(p);

	if (!cl_csv_col_set(col))
		return -1;
	if (col->number) {
		if ((int)col->number > c->need)
			c->need = (int)col->number;
		return (int)col->number - 1;
	}
	for (unsigned i = 0; i < c->nf; i++) {
		const char *h = c->fields + c->off[i];

		while (*h == ' ')
			h++;
		if (strcmp(h, col->name) == 0 ||
		    (strncmp(h, col->name, strlen(col->name)) == 0 &&
		     strspn(h + strlen(col->name), " ") == strlen(h + strlen(col->name))))
			return (int)i;
	}
	{
		char found[200];
		size_t k = 0;

		found[0] = '\0';
		for (unsigned i = 0; i < c->nf && k + 1 < sizeof(found); i++)
			k += (size_t)snprintf(found + k, sizeof(found) - k, "%s\"%.30s\"", i ? ", " : "",
					      c->fields + c->off[i]);
		struct cl_error *err = cl_outq_add(
			&p->q, c->row_line, NULL, "csv_header",
			"the header names no column \"%s\" (the map's %s, %s line %u): found %s",
			col->name, key, c->map->path, col->line, found);
		cl_error_hint(err, "this is not the export the map describes, or the bank "
				   "renamed a column: correct the map or give the right one");
	}
	return -2;
}

static bool resolve(struct cl_stmt_parser *p)
{
	struct cl_stmt_csv *c = C(p);
	const struct cl_csv_map *m = c->map;
	bool ok = true;
	int *ixs[] = { &c->ix_booking, &c->ix_value, &c->ix_amount, &c->ix_debit, &c->ix_credit,
		       &c->ix_mark, &c->ix_ccy, &c->ix_account, &c->ix_balance, &c->ix_e2e,
		       &c->ix_bank, &c->ix_cust, &c->ix_code, &c->ix_cp, &c->ix_text[0],
		       &c->ix_text[1], &c->ix_text[2], &c->ix_text[3] };
	const struct cl_csv_col *cols[] = {
		&m->booking_date, &m->value_date, &m->amount, &m->debit, &m->credit, &m->mark,
		&m->currency, &m->account, &m->balance, &m->end_to_end_id, &m->bank_reference,
		&m->customer_reference, &m->code, &m->counterparty, &m->text[0], &m->text[1],
		&m->text[2], &m->text[3],
	};
	c->need = 0;
	for (size_t i = 0; i < sizeof(ixs) / sizeof(ixs[0]); i++) {
		*ixs[i] = resolve_one(p, cols[i], cl_csv_map_key(m, cols[i]));
		if (*ixs[i] == -2)
			ok = false;
		else if (*ixs[i] + 1 > c->need)
			c->need = *ixs[i] + 1;
	}
	c->resolved = true;
	return ok;
}

static bool iban_like(const char *a)
{
	return strlen(a) >= 15 && isupper((unsigned char)a[0]) && isupper((unsigned char)a[1]) &&
	       isdigit((unsigned char)a[2]) && isdigit((unsigned char)a[3]);
}

/* ---------------------------------------------------------- pass 1 */

static void scan_row(struct cl_stmt_parser *p, const struct row *r)
{
	struct cl_stmt_csv *c = C(p);
	struct group *g = NULL;
	int64_t s = r->dir == CL_DIR_DEBIT ? -r->amount : r->amount;

	for (int i = 0; i < c->ng && !g; i++)
		if (strcmp(c->g[i].account, r->account) == 0 && strcmp(c->g[i].ccy, r->ccy) == 0)
			g = &c->g[i];
	if (!g) {
		if (c->ng == CSV_MAX_GROUPS) {
			cl_outq_add(&p->q, r->line, NULL, "csv_accounts",
				      "more than %d accounts and currencies in one file: expected "
				      "an export of fewer", CSV_MAX_GROUPS);
			c->errors++;
			return;
		}
		g = &c->g[c->ng++];
		memset(g, 0, sizeof(*g));
		memcpy(g->account, r->account, sizeof(g->account));
		memcpy(g->ccy, r->ccy, sizeof(g->ccy));
		g->exp = cl_iso_ccy_exponent(r->ccy);
		g->first_line = r->line;
		memcpy(g->from, r->booking, 11);
		memcpy(g->to, r->booking, 11);
		g->balances = true;
		g->first_bal = r->balance;
		g->first_amt = s;
		g->first_bal_line = r->line;
	} else {
		const char *prev = c->map->newest_first ? g->from : g->to;

		if (c->map->newest_first ? strcmp(r->booking, prev) > 0 : strcmp(r->booking, prev) < 0)
			g->dates_against_order = true;
	}
	if (strcmp(r->booking, g->from) < 0)
		memcpy(g->from, r->booking, 11);
	if (strcmp(r->booking, g->to) > 0)
		memcpy(g->to, r->booking, 11);
	g->n++;
	g->last_line = r->line;
	g->balances &= r->has_balance;
	g->last_bal = r->balance;
	g->last_amt = s;
	g->last_bal_line = r->line;
	if (r->dir == CL_DIR_DEBIT) {
		g->n_dbt++;
		g->overflow |= !cl_csv_add_ok(&g->sum_dbt, r->amount);
	} else {
		g->n_cdt++;
		g->overflow |= !cl_csv_add_ok(&g->sum_cdt, r->amount);
	}
}

static void row_done(struct cl_stmt_parser *p)
{
	struct cl_stmt_csv *c = C(p);
	struct row r;

	if (!c->resolved) {
		if (c->map->header) {
			if (!resolve(p))
				c->errors++;
			return;
		}
		resolve(p);
	}
	if (c->errors && !c->scanned)
		return; /* the header did not resolve: nothing to read by it */
	if (!c->scanned) {
		int k = cl_csv_row_of(p, &r);

		if (k < 0)
			c->errors++;
		if (k <= 0)
			return;
		c->rows++;
		scan_row(p, &r);
		return;
	}
	/* pass 2: the rows of the group being handed out */
	if (cl_csv_row_of(p, &r) <= 0)
		return;
	{
		struct group *g = &c->g[c->cur];
		struct cl_stmt_entry e;
		struct cl_stmt_tx tx;

		if (strcmp(r.account, g->account) != 0 || strcmp(r.ccy, g->ccy) != 0)
			return;
		memset(&e, 0, sizeof(e));
		memset(&tx, 0, sizeof(tx));
		e.index = ++c->entry_index;
		e.line = r.line;
		e.btch_nb_of_txs = -1;
		memcpy(e.ccy, r.ccy, sizeof(e.ccy));
		snprintf(e.status, sizeof(e.status), "BOOK");
		e.amount_minor = r.amount;
		e.direction = r.dir;
		memcpy(e.booking_date, r.booking, 11);
		memcpy(e.value_date, r.value, 11);
		snprintf(e.ntry_ref, sizeof(e.ntry_ref), "%s", r.cust_ref);
		snprintf(e.acct_svcr_ref, sizeof(e.acct_svcr_ref), "%s", r.bank_ref);
		snprintf(e.bank_tx_code, sizeof(e.bank_tx_code), "%s", r.code);
		snprintf(e.text, sizeof(e.text), "%s", r.text);
		/* the end-to-end id, else the customer reference (as MT940's :61:) */
		snprintf(tx.end_to_end_id, sizeof(tx.end_to_end_id), "%s",
			 r.e2e[0] ? r.e2e : r.cust_ref);
		cl_stmt_give_entry(p, &c->stmt, &e, &tx);
		c->out_row = true;
	}
}

/* ---------------------------------------------------------- pass 2 */

static void statement_of(struct cl_stmt_parser *p, const struct group *g)
{
	struct cl_stmt_csv *c = C(p);
	struct cl_stmt_statement *s = &c->stmt;

	memset(s, 0, sizeof(*s));
	s->source = CL_STMT_SRC_CSV;
	snprintf(s->message_type, sizeof(s->message_type), "%s", p->message_type);
	s->index = (unsigned long)(g - c->g) + 1;
	s->line = g->first_line;
	s->last_page = true;
	if (iban_like(g->account))
		snprintf(s->acct_iban, sizeof(s->acct_iban), "%s", g->account);
	else
		snprintf(s->acct_other, sizeof(s->acct_other), "%s", g->account);
	memcpy(s->acct_ccy, g->ccy, 4);
	memcpy(s->from, g->from, 11);
	memcpy(s->to, g->to, 11);
	s->sum_nb_of_ntries = s->sum_cdt_nb = s->sum_dbt_nb = -1;
	if (g->balances && c->ix_balance >= 0 && !g->dates_against_order) {
		/* the running balance after each row: the earliest row's less its
		   amount is the opening, the latest row's the closing */
		bool nf = c->map->newest_first;
		int64_t open = nf ? g->last_bal : g->first_bal;
		int64_t amt = nf ? g->last_amt : g->first_amt;

		if (cl_csv_add_ok(&open, -amt)) {
			s->opening.present = s->closing.present = true;
			snprintf(s->opening.type, sizeof(s->opening.type), "OPBD");
			snprintf(s->closing.type, sizeof(s->closing.type), "CLBD");
			s->opening.amount_minor = open;
			s->closing.amount_minor = nf ? g->first_bal : g->last_bal;
			memcpy(s->opening.ccy, g->ccy, 4);
			memcpy(s->closing.ccy, g->ccy, 4);
			memcpy(s->opening.date, g->from, 11);
			memcpy(s->closing.date, g->to, 11);
			s->opening.line = nf ? g->last_bal_line : g->first_bal_line;
			s->closing.line = nf ? g->first_bal_line : g->last_bal_line;
		}
	} else if (c->ix_balance >= 0 && !c->scanned) {
		cl_outq_note(&p->q, g->first_line, CSV_NOTE,
			     "%s: the balance column is %s: the balances are not added up",
			     g->account, g->dates_against_order ? "in rows not in the order the map says (order = ...)" : "empty on some rows");
	}
}

static void balance_check(struct cl_stmt_parser *p, const struct group *g)
{
	const struct cl_stmt_statement *s = &C(p)->stmt;
	const struct cl_stmt_balance *o = &s->opening, *k = &s->closing;
	int64_t want = o->amount_minor, diff;
	char a[40], b[40], d1[40], d2[40], d3[40], d4[40];
	struct cl_error *err;

	if (!o->present || !k->present || g->overflow || !cl_csv_add_ok(&want, g->sum_cdt) ||
	    !cl_csv_add_ok(&want, -g->sum_dbt) || want == k->amount_minor)
		return;
	diff = k->amount_minor - want;
	err = cl_outq_note(&p->q, k->line, CL_STMT_BALANCE_BREAK,
			   "balance break of %s %s: closing balance (the balance column on line "
			   "%lu) is %s %s, but the opening balance plus credits minus debits is %s %s",
			   cl_stmt_fmt_minor(diff, g->exp, d4, sizeof(d4)), g->ccy, k->line,
			   cl_stmt_fmt_minor(k->amount_minor, g->exp, a, sizeof(a)), g->ccy,
			   cl_stmt_fmt_minor(want, g->exp, b, sizeof(b)), g->ccy);
	cl_error_detail(err,
			"opening balance (line %lu's balance less its amount): %s; credits: %s in "
			"%lu %s; debits: %s in %lu %s",
			o->line, cl_stmt_fmt_minor(o->amount_minor, g->exp, d1, sizeof(d1)),
			cl_stmt_fmt_minor(g->sum_cdt, g->exp, d2, sizeof(d2)), g->n_cdt,
			g->n_cdt == 1 ? "entry" : "entries",
			cl_stmt_fmt_minor(g->sum_dbt, g->exp, d3, sizeof(d3)), g->n_dbt,
			g->n_dbt == 1 ? "entry" : "entries");
	cl_error_hint(err, "the statement is valid and loads: reconcile reports the break as an "
			   "exception (balance_break) and still matches its entries");
}

void cl_stmt_csv_pump(struct cl_stmt_parser *p)
{
	struct cl_stmt_csv *c = C(p);

	if (!c->read) {
		c->read = true;
		if (!read_all(p) || !csv_start(p)) {
			p->finished = true;
			return;
		}
		while (c->errors < p->max_errors && feed_line(p))
			;
		if (!c->resolved && !c->errors) {
			cl_outq_add(&p->q, c->lineno, NULL, "csv_header",
				      "no %s after the %u lines the map skips: expected the export "
				      "the map %s describes",
				      c->map->header ? "header row" : "row", c->map->skip, c->map->path);
			c->errors++;
		}
		if (c->resolved && !c->errors && c->rows == 0) {
			cl_outq_add(&p->q, c->lineno, NULL, "csv_no_rows",
				      "no booking in the file: expected a row after the header");
			c->errors++;
		}
		c->scanned = true;
		if (c->errors) {
			p->finished = true;
			return;
		}
		c->cur = -1;
	}
	for (;;) {
		if (c->cur < 0 || (!c->csv_ready && c->given)) {
			if (c->cur >= 0)
				balance_check(p, &c->g[c->cur]);
			if (++c->cur >= c->ng) {
				p->finished = true;
				return;
			}
			c->given = false;
		}
		if (!c->given) {
			struct cl_stmt_item *it;

			statement_of(p, &c->g[c->cur]);
			it = cl_stmt_slot(p, CL_STMT_STATEMENT);
			it->stmt = c->stmt;
			cl_stmt_commit(p);
			c->given = true;
			c->entry_index = 0;
			c->resolved = false;
			if (!csv_start(p)) {
				p->finished = true;
				return;
			}
			return;
		}
		c->out_row = false;
		while (!c->out_row && feed_line(p))
			;
		if (c->out_row || p->q.e_len)
			return;
	}
}
