/*
 * ach_fixture.h - builds small NACHA files with correct controls, and runs
 * the ACH parser over a buffer collecting every event (test_ach*.c only;
 * include after cmocka.h).
 *
 *   struct fx f;
 *   fx_begin(&f, "2603011200");
 *   fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
 *   fx_entry(&f, "22", "23138010", 12345, "ACCT1", 1001, NULL);
 *   fx_end_batch(&f);
 *   fx_finish(&f, true);          f.buf / f.len: the file
 *   fx_patch(&f, 3, 30, "X");     break column 30 of line 3
 */
#ifndef ACH_FIXTURE_H
#define ACH_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/ach.h"
#include "parsers/input.h"
#include "parsers/parser.h"
#include "rules/fingerprint.h"

#define FX_ODFI "12104288"

struct fx {
	char *buf;
	size_t len, cap;
	unsigned long lines;
	bool crlf;
	/* batch */
	char service[4], company[11];
	int batch_no;
	unsigned long b_count;
	uint64_t b_hash, b_debit, b_credit;
	/* file */
	unsigned long batches, f_count;
	uint64_t f_hash, f_debit, f_credit;
};

/* Append one record: `rec` is padded with blanks to 94 columns. */
static inline void fx_line(struct fx *f, const char *rec)
{
	size_t n = strlen(rec);

	if (f->len + 100 > f->cap) {
		f->cap = f->cap ? f->cap * 2 : 4096;
		f->buf = realloc(f->buf, f->cap);
	}
	memcpy(f->buf + f->len, rec, n);
	if (n < 94)
		memset(f->buf + f->len + n, ' ', 94 - n);
	f->len += n < 94 ? 94 : n;
	if (f->crlf)
		f->buf[f->len++] = '\r';
	f->buf[f->len++] = '\n';
	f->lines++;
}

static inline void fx_begin_opts(struct fx *f, const char *created, bool crlf)
{
	char l[200];

	memset(f, 0, sizeof(*f));
	f->crlf = crlf;
	snprintf(l, sizeof(l), "101 231380104 121042882%.10sA094101%-23.23s%-23.23s%-8.8s", created,
		 "FEDERAL RESERVE BANK", "MY COMPANY", "");
	fx_line(f, l);
}

static inline void fx_begin(struct fx *f, const char *created)
{
	fx_begin_opts(f, created, false);
}

static inline void fx_batch(struct fx *f, const char *company, const char *sec, const char *service,
		     const char *effective, int batch_no)
{
	char l[200];

	snprintf(l, sizeof(l), "5%.3s%-16.16s%-20.20s%-10.10s%.3s%-10.10s%-6.6s%.6s   1%.8s%07d",
		 service, "MY COMPANY", "", company, sec, "PAYROLL", "", effective, FX_ODFI,
		 batch_no);
	fx_line(f, l);
	snprintf(f->service, sizeof(f->service), "%s", service);
	snprintf(f->company, sizeof(f->company), "%-10.10s", company);
	f->batch_no = batch_no;
	f->b_count = 0;
	f->b_hash = f->b_debit = f->b_credit = 0;
	f->batches++;
}

/* An IAT batch header (service class 220, originator id 123456789,
 * Canada, CAD to USD) and an entry declaring `n_addenda` addenda. */
static inline void fx_iat_batch(struct fx *f, int n_addenda)
{
	char l[200];

	snprintf(l, sizeof(l), "5220%16sFF3%15sUS%-10.10sIAT%-10.10sCADUSD260302   1%.8s%07d", "", "",
		 "123456789", "TRADEPAYMT", FX_ODFI, 1);
	fx_line(f, l);
	f->batches++;
	snprintf(f->service, sizeof(f->service), "220");
	snprintf(f->company, sizeof(f->company), "123456789 ");
	f->batch_no = 1;
	f->b_count = 0;
	f->b_hash = f->b_debit = f->b_credit = 0;
	snprintf(l, sizeof(l), "622121042882%04d%13s0000100000%-35.35s  0 1%.8s%07d", n_addenda, "",
		 "ACCOUNT-ABROAD-1", FX_ODFI, 1);
	fx_line(f, l);
	f->b_count++;
	f->f_count++;
	f->b_hash += 12104288;
	f->f_hash += 12104288;
	f->b_credit += 100000;
	f->f_credit += 100000;
}

static inline int fx_check_digit(const char *d)
{
	static const int w[8] = {3, 7, 1, 3, 7, 1, 3, 7};
	int sum = 0;

	for (int i = 0; i < 8; i++)
		sum += w[i] * (d[i] - '0');
	return (10 - sum % 10) % 10;
}

/* An entry (PPD layout: id 40-54, name 55-76) with a correct check digit
 * and the given addenda record indicator; the batch totals follow the
 * transaction code's second digit. */
static inline void fx_entry_full(struct fx *f, const char *tcode, const char *rdfi8,
				 uint64_t amount, const char *account, const char *id,
				 const char *name, int indicator, uint64_t seq)
{
	char l[120];
	uint64_t r8 = strtoull(rdfi8, NULL, 10);
	int t2 = tcode[1] - '0';

	snprintf(l, sizeof(l), "6%.2s%.8s%d%-17.17s%010llu%-15.15s%-22.22s  %d%.8s%07llu", tcode,
		 rdfi8, fx_check_digit(rdfi8), account, (unsigned long long)amount, id, name,
		 indicator, FX_ODFI, (unsigned long long)seq);
	fx_line(f, l);
	f->b_count++;
	f->f_count++;
	f->b_hash += r8;
	f->f_hash += r8;
	if (t2 <= 4) {
		f->b_credit += amount;
		f->f_credit += amount;
	} else {
		f->b_debit += amount;
		f->f_debit += amount;
	}
}

/* A PPD entry, and an optional addenda 05 with `addenda` as its payment
 * information. */
static inline void fx_entry(struct fx *f, const char *tcode, const char *rdfi8, uint64_t amount,
			    const char *account, uint64_t seq, const char *addenda)
{
	char l[120];

	fx_entry_full(f, tcode, rdfi8, amount, account, "ID123", "JOHN DOE", addenda ? 1 : 0, seq);
	if (addenda) {
		snprintf(l, sizeof(l), "705%-80.80s0001%07llu", addenda, (unsigned long long)seq);
		fx_line(f, l);
		f->b_count++;
		f->f_count++;
	}
}

/* A raw record inside a batch that counts as `counts` entry/addenda
 * records and adds `hash` to the entry hash. */
static inline void fx_raw(struct fx *f, const char *rec, unsigned counts, uint64_t hash, uint64_t debit,
		   uint64_t credit)
{
	fx_line(f, rec);
	f->b_count += counts;
	f->f_count += counts;
	f->b_hash += hash;
	f->f_hash += hash;
	f->b_debit += debit;
	f->f_debit += debit;
	f->b_credit += credit;
	f->f_credit += credit;
}

static inline void fx_end_batch(struct fx *f)
{
	char l[200];

	snprintf(l, sizeof(l), "8%.3s%06lu%010llu%012llu%012llu%.10s%-19.19s%-6.6s%.8s%07d",
		 f->service, f->b_count, (unsigned long long)(f->b_hash % 10000000000ULL),
		 (unsigned long long)f->b_debit, (unsigned long long)f->b_credit, f->company, "",
		 "", FX_ODFI, f->batch_no);
	fx_line(f, l);
}

static inline void fx_finish(struct fx *f, bool fill)
{
	char l[200];

	snprintf(l, sizeof(l), "9%06lu%06lu%08lu%010llu%012llu%012llu%-39.39s", f->batches,
		 (f->lines + 1 + 9) / 10, f->f_count,
		 (unsigned long long)(f->f_hash % 10000000000ULL), (unsigned long long)f->f_debit,
		 (unsigned long long)f->f_credit, "");
	fx_line(f, l);
	while (fill && f->lines % 10 != 0)
		fx_line(f, "9999999999999999999999999999999999999999999999999999999999999999999999"
			   "999999999999999999999999");
}

/* Start of line `no` (1-based) in the file. */
static inline char *fx_at(struct fx *f, unsigned long no)
{
	char *p = f->buf;

	for (unsigned long i = 1; i < no; i++) {
		p = memchr(p, '\n', f->len - (size_t)(p - f->buf));
		assert_non_null(p);
		p++;
	}
	return p;
}

/* Overwrite columns col.. of line `no` with `text`. */
static inline void fx_patch(struct fx *f, unsigned long no, int col, const char *text)
{
	memcpy(fx_at(f, no) + col - 1, text, strlen(text));
}

/* Replace line `no` by `text` (its own length, no padding). */
static inline void fx_replace(struct fx *f, unsigned long no, const char *text)
{
	char *start = fx_at(f, no);
	char *end = memchr(start, '\n', f->len - (size_t)(start - f->buf));
	size_t old, n = strlen(text);

	assert_non_null(end);
	if (f->crlf)
		end--;
	old = (size_t)(end - start);
	if (f->len + n + 1 > f->cap) {
		f->cap = f->len + n + 4096;
		{
			size_t off = (size_t)(start - f->buf);

			f->buf = realloc(f->buf, f->cap);
			start = f->buf + off;
		}
	}
	memmove(start + n, start + old, f->len - (size_t)(start - f->buf) - old);
	memcpy(start, text, n);
	f->len = f->len - old + n;
}

static inline void fx_free(struct fx *f)
{
	free(f->buf);
	f->buf = NULL;
}

/* ---- running the parser ---- */

struct ev {
	enum cl_status st;
	char code[CL_CODE_MAX];
	unsigned long line, column, other_line;
	unsigned long count;  /* cl_error_count() */
	char message[CL_MSGTEXT_MAX];
	char detail[CL_MSGTEXT_MAX], hint[CL_HINT_MAX];
	struct cl_record rec; /* for CL_OK */
};

struct run {
	struct ev *ev;
	size_t n, cap;
	unsigned records, errors, notes;
	struct cl_file_info info;
};

static inline void run_free(struct run *r)
{
	free(r->ev);
	memset(r, 0, sizeof(*r));
}

static inline void run_opts(struct run *out, const void *buf, size_t len, size_t chunk,
		     const struct cl_parse_opts *opts)
{
	struct cl_input *in = cl_input_from_memory(buf, len, chunk, "t.ach");
	struct cl_parser *p = cl_parser_new(CL_FORMAT_ACH, in, opts);
	const struct cl_record *rec;
	struct cl_error err;
	enum cl_status st;
	unsigned guard = 0;

	memset(out, 0, sizeof(*out));
	while ((st = cl_parser_next(p, &rec, &err)) != CL_END) {
		struct ev *e;

		assert_true(++guard < 100000);
		if (out->n == out->cap) {
			out->cap = out->cap ? out->cap * 2 : 16;
			out->ev = realloc(out->ev, out->cap * sizeof(*out->ev));
		}
		e = &out->ev[out->n++];
		memset(e, 0, sizeof(*e));
		e->st = st;
		if (st == CL_OK) {
			assert_non_null(rec);
			e->rec = *rec;
			out->records++;
		} else {
			assert_null(rec);
			snprintf(e->code, sizeof(e->code), "%s", err.code);
			snprintf(e->message, sizeof(e->message), "%s", err.message);
			snprintf(e->detail, sizeof(e->detail), "%s", err.detail);
			snprintf(e->hint, sizeof(e->hint), "%s", err.hint);
			e->line = err.line;
			e->column = err.column;
			e->other_line = err.other_line;
			e->count = cl_error_count(&err);
			if (st == CL_NOTE)
				out->notes++;
			else
				out->errors++;
		}
	}
	out->info = *cl_parser_info(p);
	cl_parser_free(p);
	cl_input_free(in);
}

static inline void run_buf(struct run *out, const void *buf, size_t len)
{
	struct cl_parse_opts o = {0};

	run_opts(out, buf, len, 0, &o);
}

static inline void run_fx(struct run *out, const struct fx *f)
{
	run_buf(out, f->buf, f->len);
}

/* The first error with `code`, or NULL. */
static inline const struct ev *find_err(const struct run *r, const char *code)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->ev[i].st == CL_INVALID && strcmp(r->ev[i].code, code) == 0)
			return &r->ev[i];
	return NULL;
}

static inline const struct ev *find_note(const struct run *r, const char *code)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->ev[i].st == CL_NOTE && strcmp(r->ev[i].code, code) == 0)
			return &r->ev[i];
	return NULL;
}

static inline const struct cl_record *nth_record(const struct run *r, unsigned k)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->ev[i].st == CL_OK && k-- == 0)
			return &r->ev[i].rec;
	return NULL;
}

/* The only error is `code` at `line`. */
#define assert_only_error(r, code_, line_)                                                  \
	do {                                                                                \
		const struct ev *e_ = find_err((r), (code_));                               \
		if (!e_ || (r)->errors != 1) {                                              \
			for (size_t i_ = 0; i_ < (r)->n; i_++)                              \
				if ((r)->ev[i_].st != CL_OK)                                 \
					print_message("  %lu [%s] %s\n", (r)->ev[i_].line,  \
						      (r)->ev[i_].code, (r)->ev[i_].message); \
		}                                                                           \
		assert_non_null(e_);                                                        \
		assert_int_equal((r)->errors, 1);                                           \
		assert_int_equal(e_->line, (line_));                                        \
	} while (0)

#define assert_has_error(r, code_, line_)                                                   \
	do {                                                                                \
		const struct ev *e_ = find_err((r), (code_));                               \
		if (!e_) {                                                                  \
			for (size_t i_ = 0; i_ < (r)->n; i_++)                              \
				if ((r)->ev[i_].st != CL_OK)                                 \
					print_message("  %lu [%s] %s\n", (r)->ev[i_].line,  \
						      (r)->ev[i_].code, (r)->ev[i_].message); \
		}                                                                           \
		assert_non_null(e_);                                                        \
		assert_int_equal(e_->line, (line_));                                        \
	} while (0)

#endif
