/*
 * test_csv.c - CSV exports read back as records (parsers/csv_records.h):
 * columns by name, field limits, recomputed keys and fingerprints, and
 * every error with its line, code and message.
 *
 * The fixtures are rows of `clearing-load parse --format csv --no-mask`
 * of testdata/demo/original.ach, original-pain001.xml and the corpus file
 * RiverFinancial-nacha/.../return-noc.ach (their keys and fingerprints are
 * what those files give).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_records.h"
#include "fingerprint.h"
#include "parser.h"

#define NC 51

static const char *const H[NC] = {
	"file", "position", "scheme", "kind", "natural_key", "key_rule", "fingerprint",
	"amount_minor", "direction", "currency", "value_date", "trace_number", "sec_code",
	"transaction_code", "receiving_dfi", "receiving_account", "individual_id",
	"individual_name", "company_id", "company_name", "company_entry_description",
	"batch_number", "addenda_text", "reason_code", "original_trace", "original_rdfi",
	"corrected_data", "dishonored_code", "message_type", "msg_id", "pmt_inf_id", "instr_id",
	"end_to_end_id", "tx_id", "uetr", "rtr_id", "orgnl_uetr", "orgnl_end_to_end_id",
	"orgnl_tx_id", "orgnl_msg_id", "initiating_party_id", "debtor_name", "debtor_account",
	"debtor_agent", "creditor_name", "creditor_account", "creditor_agent",
	"instructing_agent", "instructed_agent", "remittance_text", "addenda_count",
};
static const char *const ACH[NC] = {
	"original.ach", "3", "nacha", "ach.entry", "1100000000|121042880000001|2026-03-02", "v1",
	"3a47cc8cf8b425e8df931d2011cd765539e63cad376837ae9e150413a28ceac4", "90514", "debit",
	"USD", "2026-03-02", "121042880000001", "PPD", "27", "709835026", "639476144923",
	"000000000000000", "RECEIVER 0", "1100000000", "COMPANY 0", "PAYROLL", "0000001", "", "",
	"", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",
	"", "", "", "", "0",
};
static const char *const PAIN[NC] = {
	"original-pain001.xml", "20", "iso20022", "pain.001", "DE83999441097718893142|E2E-1-1",
	"v1", "dab9c4ad4ead78dea33e3510d0c6d946266db4cc5c97968c35cb8a6e2f6176bf", "1805068",
	"credit", "EUR", "2026-03-03", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",
	"", "", "pain.001.001.09", "MSG-0001", "PMT-1", "I-1", "E2E-1-1", "",
	"646d9b60-9af6-4053-b27f-a97df9dcbffb", "", "", "", "", "", "", "Generator AG",
	"DE83999441097718893142", "DEUTDEFFXXX", "Creditor 1", "DE39476869791961693931",
	"DEUTDEFFXXX", "", "", "Invoice 1", "",
};
static const char *const RET[NC] = {
	"return-noc.ach", "7", "nacha", "ach.return",
	"992222220280393|R07|121140390280738|2012-10-15", "v1",
	"ca60138bf058b984a10a7e4253a2d4bb075a7040d2512806cc003023d38f6891", "2536", "debit",
	"USD", "2012-10-15", "121140390280738", "PPD", "26", "121140399", "3300911569",
	"GKGQT9VK", "NAME TWO", "1412345678", "COMPANY INC", "DESCRIPT", "0000002", "INVALID",
	"R07", "992222220280393", "12114039", "", "", "", "", "", "", "", "", "", "", "", "", "",
	"", "", "", "", "", "", "", "", "", "", "", "1",
};

/* ---- building a CSV ---- */

struct row {
	const char *v[NC];
};

static int col(const char *name)
{
	for (int i = 0; i < NC; i++)
		if (strcmp(H[i], name) == 0)
			return i;
	fail_msg("no column %s", name);
	return -1;
}

static struct row row_of(const char *const *vals)
{
	struct row r;

	memcpy(r.v, vals, sizeof(r.v));
	return r;
}

static void set(struct row *r, const char *name, const char *val)
{
	r->v[col(name)] = val;
}

static char text[1 << 16];

static void put_field(size_t *n, const char *v)
{
	text[(*n)++] = '"';
	for (; *v; v++) {
		if (*v == '"')
			text[(*n)++] = '"';
		text[(*n)++] = *v;
	}
	text[(*n)++] = '"';
}

/* The header and rows in column order `order` (n columns; NULL: all, in
 * the export's order), each line ended by `eol`. */
static const char *csv_text(const int *order, int n, const struct row *rows, int nrows,
			    const char *eol)
{
	int all[NC];
	size_t len = 0;

	if (!order) {
		for (int i = 0; i < NC; i++)
			all[i] = i;
		order = all;
		n = NC;
	}
	for (int r = -1; r < nrows; r++) {
		for (int i = 0; i < n; i++) {
			if (i)
				text[len++] = ',';
			put_field(&len, r < 0 ? H[order[i]] : rows[r].v[order[i]]);
		}
		memcpy(text + len, eol, strlen(eol));
		len += strlen(eol);
		assert_true(len < sizeof(text) - 4096);
	}
	text[len] = '\0';
	return text;
}

/* Every column but the named ones, in the export's order. */
static int without(int *order, const char *a, const char *b, const char *c)
{
	int n = 0;

	for (int i = 0; i < NC; i++)
		if (!(a && strcmp(H[i], a) == 0) && !(b && strcmp(H[i], b) == 0) &&
		    !(c && strcmp(H[i], c) == 0))
			order[n++] = i;
	return n;
}

/* ---- reading it ---- */

struct result {
	enum cl_status open;
	int records, errors;
	struct cl_record rec[4];   /* the first records */
	struct cl_error err[4];    /* the first errors */
	struct cl_file_info info;
};

static void read_csv(const char *buf, size_t len, size_t chunk, const struct cl_parse_opts *o,
		     struct result *res)
{
	struct cl_parse_opts opts = { 0 };
	struct cl_input *in = cl_input_from_memory(buf, len, chunk, "t.csv");
	struct cl_parser *p = NULL;
	const struct cl_record *rec;
	struct cl_error err;
	enum cl_status st;

	memset(res, 0, sizeof(*res));
	res->open = cl_parser_open(in, o ? o : &opts, &p, &err);
	if (res->open != CL_OK) {
		res->err[0] = err;
		cl_input_free(in);
		return;
	}
	while ((st = cl_parser_next(p, &rec, &err)) != CL_END) {
		if (st == CL_OK) {
			if (res->records < 4)
				res->rec[res->records] = *rec;
			res->records++;
		} else {
			assert_int_equal(st, CL_INVALID);
			/* the input's name (err.file is not valid after it is freed) */
			assert_string_equal(err.file, "t.csv");
			if (res->errors < 4)
				res->err[res->errors] = err;
			res->errors++;
		}
	}
	res->info = *cl_parser_info(p);
	cl_parser_free(p);
	cl_input_free(in);
}

static void read_text(const char *t, struct result *res)
{
	read_csv(t, strlen(t), 0, NULL, res);
	assert_int_equal(res->open, CL_OK);
}

static void assert_one_error(const struct result *res, unsigned long line, const char *code,
			     const char *message)
{
	assert_int_equal(res->errors, 1);
	assert_int_equal(res->err[0].line, line);
	assert_string_equal(res->err[0].code, code);
	if (message)
		assert_string_equal(res->err[0].message, message);
}

static void assert_same_record(const struct cl_record *a, const char *const *src)
{
	char fp[65];

	assert_string_equal(a->kind, src[col("kind")]);
	assert_string_equal(a->scheme, src[col("scheme")]);
	assert_string_equal(a->natural_key, src[col("natural_key")]);
	assert_string_equal(a->key_rule, src[col("key_rule")]);
	cl_hex32(a->fingerprint, fp);
	assert_string_equal(fp, src[col("fingerprint")]);
	assert_int_equal(a->amount_minor, strtoll(src[col("amount_minor")], NULL, 10));
}

/* ---- what reads ---- */

static void test_csv_export_reads_back_with_the_same_keys(void **state)
{
	struct row rows[3] = { row_of(ACH), row_of(PAIN), row_of(RET) };
	struct result res;

	(void)state;
	read_text(csv_text(NULL, 0, rows, 3, "\n"), &res);
	assert_int_equal(res.errors, 0);
	assert_int_equal(res.records, 3);
	assert_same_record(&res.rec[0], ACH);
	assert_same_record(&res.rec[1], PAIN);
	assert_same_record(&res.rec[2], RET);
	/* position is the CSV line, ordinal the row */
	assert_int_equal(res.rec[0].position, 2);
	assert_int_equal(res.rec[2].position, 4);
	assert_int_equal(res.rec[2].ordinal, 3);
	assert_string_equal(res.rec[1].debtor_name, "Generator AG");
	assert_string_equal(res.rec[1].message_type, "pain.001.001.09");
	assert_string_equal(res.rec[2].reason_code, "R07");
	assert_int_equal(res.rec[2].addenda_count, 1);
	assert_int_equal(res.rec[0].direction, CL_DIR_DEBIT);
	assert_int_equal(res.info.format, CL_FORMAT_CSV);
	assert_string_equal(res.info.format_name, "csv");
	assert_string_equal(res.info.message_type, "csv");
	assert_int_equal(res.info.records, 3);
	assert_int_equal(res.info.total_debit_minor, 90514 + 2536);
	assert_int_equal(res.info.total_credit_minor, 1805068);
}

static void test_csv_detected_after_a_bom(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	static char buf[1 << 16];
	struct result res;

	(void)state;
	snprintf(buf, sizeof(buf), "\xEF\xBB\xBF%s", csv_text(NULL, 0, rows, 1, "\n"));
	assert_int_equal(cl_format_detect((const unsigned char *)buf, strlen(buf)), CL_FORMAT_CSV);
	read_text(buf, &res);
	assert_int_equal(res.errors, 0);
	assert_int_equal(res.records, 1);
	assert_same_record(&res.rec[0], ACH);
}

static void test_csv_detection_needs_scheme_and_kind(void **state)
{
	static const char *const no[] = { "kind,amount_minor\n", "scheme\n", "name,value\n",
					  "\"scheme\",\"kinds\"\n" };

	(void)state;
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		assert_int_equal(cl_format_detect((const unsigned char *)no[i], strlen(no[i])),
				 CL_FORMAT_UNKNOWN);
	assert_int_equal(cl_format_detect((const unsigned char *)"kind,x,scheme\r\n", 15),
			 CL_FORMAT_CSV);
}

static void test_csv_crlf_gives_the_same_records_and_lines(void **state)
{
	struct row rows[3] = { row_of(ACH), row_of(PAIN), row_of(RET) };
	struct result lf, crlf;

	(void)state;
	read_text(csv_text(NULL, 0, rows, 3, "\n"), &lf);
	read_text(csv_text(NULL, 0, rows, 3, "\r\n"), &crlf);
	assert_int_equal(crlf.errors, 0);
	assert_int_equal(crlf.records, 3);
	for (int i = 0; i < 3; i++) {
		assert_string_equal(lf.rec[i].natural_key, crlf.rec[i].natural_key);
		assert_memory_equal(lf.rec[i].fingerprint, crlf.rec[i].fingerprint, 32);
		assert_int_equal(lf.rec[i].position, crlf.rec[i].position);
	}
}

static void test_csv_any_chunking_gives_the_same_records_and_errors(void **state)
{
	static const size_t chunks[] = { 1, 2, 7, 64, 4096 };
	struct row rows[4] = { row_of(ACH), row_of(PAIN), row_of(RET), row_of(ACH) };
	struct result whole, part;
	const char *t;

	(void)state;
	set(&rows[1], "debtor_name", "Gen, \"AG\"\r\nline two");
	set(&rows[3], "amount_minor", "12x");
	t = csv_text(NULL, 0, rows, 4, "\r\n");
	read_csv(t, strlen(t), 0, NULL, &whole);
	assert_int_equal(whole.records, 3);
	assert_int_equal(whole.errors, 1);
	for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		read_csv(t, strlen(t), chunks[c], NULL, &part);
		assert_int_equal(part.records, whole.records);
		assert_int_equal(part.errors, whole.errors);
		assert_string_equal(part.err[0].message, whole.err[0].message);
		for (int i = 0; i < 3; i++) {
			assert_string_equal(part.rec[i].natural_key, whole.rec[i].natural_key);
			assert_int_equal(part.rec[i].position, whole.rec[i].position);
		}
	}
}

static void test_csv_quoted_fields_keep_commas_quotes_and_newlines(void **state)
{
	struct row rows[2] = { row_of(PAIN), row_of(ACH) };
	struct result res;

	(void)state;
	set(&rows[0], "debtor_name", "Generator, \"Main\"\nSecond line");
	set(&rows[0], "remittance_text", "a,b,,\"\"");
	read_text(csv_text(NULL, 0, rows, 2, "\n"), &res);
	assert_int_equal(res.errors, 0);
	assert_int_equal(res.records, 2);
	assert_string_equal(res.rec[0].debtor_name, "Generator, \"Main\"\nSecond line");
	assert_string_equal(res.rec[0].remittance_text, "a,b,,\"\"");
	/* a name is cosmetic: key and fingerprint unchanged */
	assert_same_record(&res.rec[0], PAIN);
	/* the next row starts on line 4: the quoted newline took a line */
	assert_int_equal(res.rec[1].position, 4);
}

static void test_csv_columns_are_found_by_name_in_any_order(void **state)
{
	struct row rows[3] = { row_of(RET), row_of(PAIN), row_of(ACH) };
	int order[NC];
	struct result res;

	(void)state;
	for (int i = 0; i < NC; i++)
		order[i] = NC - 1 - i;
	read_text(csv_text(order, NC, rows, 3, "\n"), &res);
	assert_int_equal(res.errors, 0);
	assert_int_equal(res.records, 3);
	assert_same_record(&res.rec[0], RET);
	assert_same_record(&res.rec[1], PAIN);
	assert_same_record(&res.rec[2], ACH);
}

static void test_csv_key_columns_and_file_are_optional(void **state)
{
	struct row rows[3] = { row_of(ACH), row_of(PAIN), row_of(RET) };
	int order[NC], n;
	struct result res;

	(void)state;
	n = without(order, "natural_key", "fingerprint", "file");
	read_text(csv_text(order, n, rows, 3, "\n"), &res);
	assert_int_equal(res.errors, 0);
	assert_int_equal(res.records, 3);
	/* recomputed: the values the original files give */
	assert_same_record(&res.rec[0], ACH);
	assert_same_record(&res.rec[1], PAIN);
	assert_same_record(&res.rec[2], RET);
}

static void test_csv_ach_key_rule_follows_the_option(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	struct cl_parse_opts opts = { .ach_key = CL_ACH_KEY_BATCH };
	int order[NC], n = without(order, "natural_key", "key_rule", "fingerprint");
	const char *t = csv_text(order, n, rows, 1, "\n");
	struct result res;

	(void)state;
	read_csv(t, strlen(t), 0, &opts, &res);
	assert_int_equal(res.errors, 0);
	assert_string_equal(res.rec[0].natural_key, "1100000000|0000001|121042880000001|2026-03-02");
	assert_string_equal(res.rec[0].key_rule, "v1-batch");
	/* with the key_rule column the file's rule must be the option's */
	t = csv_text(NULL, 0, rows, 1, "\n");
	read_csv(t, strlen(t), 0, &opts, &res);
	assert_one_error(&res, 2, "csv_key_rule_mismatch",
			 "key_rule on line 2 is \"v1\", the fields give \"v1-batch\" (see --ach-key)");
}

/* ---- the header ---- */

static void test_csv_unknown_column_is_named(void **state)
{
	static const char t[] = "scheme,kind,colour\n";
	struct result res;

	(void)state;
	read_text(t, &res);
	assert_int_equal(res.records, 0);
	assert_one_error(&res, 1, "csv_column_unknown",
			 "unknown column \"colour\" (column 3 of the header): expected a column "
			 "that parse --format csv writes");
}

static void test_csv_missing_required_column_is_named(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	int order[NC], n = without(order, "company_id", NULL, NULL);
	struct result res;

	(void)state;
	read_text(csv_text(order, n, rows, 1, "\n"), &res);
	assert_int_equal(res.records, 0);
	assert_one_error(&res, 1, "csv_column_missing",
			 "the header has no column \"company_id\": it is required (it enters a "
			 "natural key or fingerprint, or names the record)");
}

static void test_csv_duplicated_column_is_named(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	int order[NC + 1];
	struct result res;

	(void)state;
	for (int i = 0; i < NC; i++)
		order[i] = i;
	order[NC] = col("amount_minor");
	read_text(csv_text(order, NC + 1, rows, 1, "\n"), &res);
	assert_one_error(&res, 1, "csv_column_duplicate",
			 "column \"amount_minor\" appears twice in the header (columns 8 and 52)");
}

static void test_csv_header_with_too_many_columns(void **state)
{
	static char t[4096];
	size_t n = 0;
	struct result res;

	(void)state;
	n += (size_t)snprintf(t, sizeof(t), "scheme,kind");
	for (int i = 0; i < 70; i++)
		n += (size_t)snprintf(t + n, sizeof(t) - n, ",c%d", i);
	snprintf(t + n, sizeof(t) - n, "\n");
	read_text(t, &res);
	assert_one_error(&res, 1, "csv_header", NULL);
}

/* ---- rows ---- */

static void test_csv_row_with_another_field_count_names_its_line(void **state)
{
	struct row rows[3] = { row_of(ACH), row_of(PAIN), row_of(RET) };
	static char t[1 << 16];
	const char *base = csv_text(NULL, 0, rows, 3, "\n");
	const char *second = strchr(strchr(base, '\n') + 1, '\n'); /* end of line 2 */
	struct result res;

	(void)state;
	/* line 2 gets one more field; the rows after it are still read */
	snprintf(t, sizeof(t), "%.*s,\"extra\"%s", (int)(second - base), base, second);
	read_text(t, &res);
	assert_one_error(&res, 2, "csv_field_count", "line 2 has 52 fields: the header has 51");
	assert_int_equal(res.records, 2);
	assert_int_equal(res.rec[0].position, 3);
}

static void test_csv_value_longer_than_its_field_is_an_error(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	struct result res;

	(void)state;
	set(&rows[0], "company_name", "COMPANY NAME TOO LONG");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_int_equal(res.records, 0);
	assert_one_error(&res, 2, "csv_field_length",
			 "column company_name on line 2 is 21 bytes long: its limit is 16");
}

static void test_csv_field_beyond_the_row_buffer_stops(void **state)
{
	static char big[5000];
	struct row rows[2] = { row_of(PAIN), row_of(ACH) };
	struct result res;

	(void)state;
	memset(big, 'x', sizeof(big) - 1);
	set(&rows[0], "remittance_text", big);
	read_text(csv_text(NULL, 0, rows, 2, "\n"), &res);
	assert_int_equal(res.records, 0);
	assert_one_error(&res, 2, "csv_field_too_long",
			 "a field on line 2 is longer than 1023 bytes: no record field is (the "
			 "longest, a name, holds 563)");
}

/* A quote that never closes swallows the lines after it: the error names
 * the row it opened in, not the line where the cap was reached (R2-22). */
static void test_csv_unclosed_quote_is_named_where_its_row_starts(void **state)
{
	static char buf[1 << 16];
	struct row rows[1] = { row_of(ACH) };
	struct result res;
	size_t n;

	(void)state;
	n = (size_t)snprintf(buf, sizeof(buf), "%s\"open\n", csv_text(NULL, 0, rows, 1, "\n"));
	for (int i = 0; i < 400; i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "a,b,c\n");
	read_text(buf, &res);
	assert_int_equal(res.records, 1);
	assert_one_error(&res, 3, "csv_field_too_long",
			 "a field of the row that starts on line 3 is longer than 1023 bytes when "
			 "line 173 is read (a quote that never closes?): no record field is (the "
			 "longest, a name, holds 563)");
}

static void test_csv_amount_must_be_minor_units(void **state)
{
	static const char *const bad[] = { "12a", "-5", "1.50", "", " 7",
					   "9223372036854775808" };
	struct row rows[1] = { row_of(ACH) };
	int order[NC], n = without(order, "fingerprint", NULL, NULL);
	struct result res;
	char want[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		set(&rows[0], "amount_minor", bad[i]);
		read_text(csv_text(order, n, rows, 1, "\n"), &res);
		snprintf(want, sizeof(want),
			 "amount_minor on line 2 must be a whole number of minor units from 0 to "
			 "9223372036854775807, found \"%s\"", bad[i]);
		assert_one_error(&res, 2, "csv_amount", want);
	}
	/* the largest amount an ISO 20022 record may have; a NACHA one has at
	 * most 10 digits (columns 30-39) */
	rows[0] = row_of(PAIN);
	set(&rows[0], "amount_minor", "9223372036854775807");
	read_text(csv_text(order, n, rows, 1, "\n"), &res);
	assert_int_equal(res.errors, 0);
	assert_int_equal(res.rec[0].amount_minor, INT64_MAX);
	rows[0] = row_of(ACH);
	set(&rows[0], "amount_minor", "9999999999");
	read_text(csv_text(order, n, rows, 1, "\n"), &res);
	assert_int_equal(res.errors, 0);
	set(&rows[0], "amount_minor", "10000000000");
	read_text(csv_text(order, n, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_amount",
			 "amount_minor on line 2 is 10000000000: a NACHA amount has at most 10 "
			 "digits");
}

static void test_csv_direction_is_credit_debit_or_empty(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	struct result res;

	(void)state;
	set(&rows[0], "direction", "Debit");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_direction",
			 "direction on line 2 must be credit, debit or empty, found \"Debit\"");
	/* a NACHA record's direction is its transaction code's */
	set(&rows[0], "direction", "credit");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_direction",
			 "direction on line 2 is \"credit\": transaction code 27 is a debit");
	set(&rows[0], "direction", "");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_direction",
			 "direction on line 2 is \"\": transaction code 27 is a debit");
}

static void test_csv_kind_must_be_known_and_match_the_scheme(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	struct result res;

	(void)state;
	set(&rows[0], "kind", "ach.refund");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_kind",
			 "kind on line 2 is \"ach.refund\": expected ach.entry, ach.return, "
			 "ach.noc, pain.001, pacs.008, pacs.009 or pacs.004");
	set(&rows[0], "kind", "ach.entry");
	set(&rows[0], "scheme", "iso20022");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_scheme",
			 "scheme on line 2 is \"iso20022\": an ach.entry record is scheme nacha");
}

static void test_csv_field_of_the_other_scheme_must_be_empty(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	struct result res;

	(void)state;
	set(&rows[0], "end_to_end_id", "E2E-1");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_field_scope",
			 "column end_to_end_id on line 2 must be empty for an ach.entry record, "
			 "found \"E2E-1\"");
}

static void test_csv_field_shapes_are_checked(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	struct result res;

	(void)state;
	set(&rows[0], "trace_number", "12104288000001");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_field_format",
			 "column trace_number on line 2 must be 15 digits, found "
			 "\"12104288000001\"");
	rows[0] = row_of(ACH);
	set(&rows[0], "currency", "EUR");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_field_format",
			 "currency on line 2 must be USD for an ach.entry record, found \"EUR\"");
	rows[0] = row_of(PAIN);
	set(&rows[0], "uetr", "646d9b60-9af6-3053-b27f-a97df9dcbffb");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_field_format",
			 "column uetr on line 2 must be a version 4 UUID "
			 "(xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx), found "
			 "\"646d9b60-9af6-3053-b27f-a97df9dcbffb\"");
}

/* The XML parser reads a UETR in capitals as lowercase: so does a row. */
static void test_csv_uetr_in_capitals_reads_lowercase(void **state)
{
	struct row rows[1] = { row_of(PAIN) };
	struct result res;

	(void)state;
	set(&rows[0], "uetr", "646D9B60-9AF6-4053-B27F-A97DF9DCBFFB");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_int_equal(res.errors, 0);
	assert_string_equal(res.rec[0].uetr, "646d9b60-9af6-4053-b27f-a97df9dcbffb");
}

static void test_csv_natural_key_must_match_the_fields(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	struct result res;

	(void)state;
	set(&rows[0], "trace_number", "121042880000009");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_int_equal(res.records, 0);
	assert_one_error(&res, 2, "csv_key_mismatch",
			 "natural_key on line 2 is not the key its fields give: part 2 is "
			 "\"121042880000001\" in the natural_key column, \"121042880000009\" from "
			 "the fields");
}

static void test_csv_fingerprint_must_match_the_fields(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	struct result res;

	(void)state;
	set(&rows[0], "amount_minor", "90515");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_int_equal(res.records, 0);
	assert_int_equal(res.errors, 1);
	assert_string_equal(res.err[0].code, "csv_fingerprint_mismatch");
	assert_non_null(strstr(res.err[0].message,
			       "fingerprint on line 2 is "
			       "\"3a47cc8cf8b425e8df931d2011cd765539e63cad376837ae9e150413a28ceac4\", "
			       "the fields give \""));
}

static void test_csv_masked_account_asks_for_no_mask(void **state)
{
	struct row rows[1] = { row_of(PAIN) };
	struct result res;

	(void)state;
	set(&rows[0], "debtor_account", "******************3142");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_masked",
			 "column debtor_account on line 2 is masked: "
			 "export the file with parse --format csv --no-mask");
}

static void test_csv_kinds_it_cannot_rebuild_are_refused(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	int order[NC], n = without(order, "natural_key", "fingerprint", NULL);
	struct result res;

	(void)state;
	set(&rows[0], "sec_code", "IAT");
	read_text(csv_text(order, n, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_unsupported",
			 "IAT entry on line 2 cannot be read from CSV: its fingerprint covers "
			 "addenda 14 and batch header fields the export does not carry (load the "
			 "NACHA file)");
	rows[0] = row_of(PAIN);
	set(&rows[0], "kind", "pacs.009");
	read_text(csv_text(order, n, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_unsupported", NULL);
	assert_non_null(strstr(res.err[0].message, "pacs.009 record on line 2 cannot be read"));
	rows[0] = row_of(PAIN);
	set(&rows[0], "key_rule", "v1-positional");
	read_text(csv_text(order, n, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_unsupported", NULL);
	assert_non_null(strstr(res.err[0].message, "keyed by position"));
}

static void test_csv_record_without_a_key_is_an_error(void **state)
{
	struct row rows[1] = { row_of(PAIN) };
	int order[NC], n = without(order, "natural_key", "fingerprint", NULL);
	struct result res;

	(void)state;
	set(&rows[0], "end_to_end_id", "NOTPROVIDED");
	read_text(csv_text(order, n, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "no_key", NULL);
	assert_non_null(strstr(res.err[0].message, "record on line 2 has no natural key: "
						   "EndToEndId is NOTPROVIDED"));
}

static void test_csv_bad_quoting_names_its_line(void **state)
{
	struct row rows[2] = { row_of(ACH), row_of(PAIN) };
	static char t[1 << 16];
	const char *base = csv_text(NULL, 0, rows, 2, "\n");
	struct result res;

	(void)state;
	/* a character after a closing quote, on line 4 */
	snprintf(t, sizeof(t), "%s\"nacha\"x,\"ach.entry\"\n", base);
	read_text(t, &res);
	assert_int_equal(res.records, 2);
	assert_one_error(&res, 4, "csv_quote",
			 "malformed CSV on line 4: a quote inside an unquoted field or a "
			 "character after a closing quote (expected RFC 4180 quoting, \"\" for "
			 "a quote inside quotes)");
	/* the same on the second line of a row */
	snprintf(t, sizeof(t), "%s\"na\ncha\",a\"b\n", base);
	read_text(t, &res);
	assert_one_error(&res, 5, "csv_quote",
			 "malformed CSV on line 5 (in the row that starts on line 4): a quote "
			 "inside an unquoted field or a character after a closing quote "
			 "(expected RFC 4180 quoting, \"\" for a quote inside quotes)");
	/* a quoted field that never ends: named by the line of its row */
	snprintf(t, sizeof(t), "%s\"nacha,ach.entry\n\n\n", base);
	read_text(t, &res);
	assert_int_equal(res.records, 2);
	assert_one_error(&res, 4, "csv_quote",
			 "malformed CSV: a quoted field in the row that starts on line 4 never "
			 "ends (the file ends inside the quotes)");
}

static void test_csv_value_must_be_utf8(void **state)
{
	struct row rows[1] = { row_of(PAIN) };
	struct result res;

	(void)state;
	set(&rows[0], "creditor_name", "Cr\xE9" "ditor");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_utf8", "column creditor_name on line 2 is not valid UTF-8");
}

static void test_csv_nacha_text_has_no_control_characters(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	struct result res;

	(void)state;
	set(&rows[0], "individual_name", "RECEIVER\t0");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_bad_byte",
			 "column individual_name on line 2 has a control character (byte 9 is "
			 "0x09): NACHA fields are printable");
}

static void test_csv_header_only_is_valid_and_empty(void **state)
{
	struct result res;

	(void)state;
	read_text(csv_text(NULL, 0, NULL, 0, "\n"), &res);
	assert_int_equal(res.errors, 0);
	assert_int_equal(res.records, 0);
	assert_int_equal(res.info.format, CL_FORMAT_CSV);
}

static void test_csv_stops_after_max_errors(void **state)
{
	struct row rows[10];
	struct cl_parse_opts opts = { .max_errors = 3 };
	const char *t;
	struct result res;

	(void)state;
	for (int i = 0; i < 10; i++) {
		rows[i] = row_of(ACH);
		set(&rows[i], "direction", "up");
	}
	t = csv_text(NULL, 0, rows, 10, "\n");
	read_csv(t, strlen(t), 0, &opts, &res);
	assert_int_equal(res.errors, 3);
	assert_int_equal(res.err[2].line, 4);
}

/* Line ends inside quoted fields: LF, CR LF and a lone CR each end one
 * line, so the next row's position and an error's line are the file's. */
static void test_csv_line_ends_inside_quotes_count_once(void **state)
{
	static const char *const names[] = { "a\nb", "a\r\nb", "a\rb", "a\r\r\nb\n" };
	/* as the XML parser keeps them: the blanks around dropped */
	static const char *const kept[] = { "a\nb", "a\r\nb", "a\rb", "a\r\r\nb" };
	static const unsigned long lines_after[] = { 1, 1, 1, 3 };
	struct row rows[2] = { row_of(PAIN), row_of(ACH) };
	struct result res;

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *t;

		set(&rows[0], "debtor_name", names[i]);
		set(&rows[1], "direction", "up");
		t = csv_text(NULL, 0, rows, 2, "\n");
		for (size_t chunk = 0; chunk < 40; chunk += 13) {
			read_csv(t, strlen(t), chunk, NULL, &res);
			assert_int_equal(res.records, 1);
			assert_string_equal(res.rec[0].debtor_name, kept[i]);
			assert_one_error(&res, 3 + lines_after[i], "csv_direction", NULL);
		}
	}
}

/* ---- rows only in a form the record's parser could give (review 2) ---- */

/* Rows without the key columns: nothing vouches for the fields but the
 * checks of the parser of their format. */
static void read_unkeyed(struct row *rows, int nrows, const struct cl_parse_opts *o,
			 struct result *res)
{
	int order[NC], n = without(order, "natural_key", "key_rule", "fingerprint");
	const char *t = csv_text(order, n, rows, nrows, "\n");

	read_csv(t, strlen(t), 0, o, res);
	assert_int_equal(res->open, CL_OK);
}

/* What the NACHA parser checks of an entry's own fields: the RDFI check
 * digit, the account width, a prenote's zero amount. */
static void test_csv_nacha_entry_fields_are_the_parsers(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	struct result res;

	(void)state;
	set(&rows[0], "receiving_dfi", "709835027");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_field_format",
			 "column receiving_dfi on line 2 is \"709835027\": its check digit (the "
			 "9th) is not the ABA check digit of the first 8");
	rows[0] = row_of(ACH);
	set(&rows[0], "receiving_account", "123456789012345678");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_field_length",
			 "column receiving_account on line 2 is 18 bytes long: a NACHA DFI "
			 "account number (columns 13-29) holds 17");
	rows[0] = row_of(ACH);
	set(&rows[0], "transaction_code", "28");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_amount",
			 "amount_minor on line 2 is 90514: transaction code 28 (prenote or "
			 "zero-dollar entry) must have amount 0");
}

/* R2-6: an entry without its date had the key "company|trace|" and was
 * applied a second time. */
static void test_csv_ach_entry_needs_its_value_date(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	struct result res;

	(void)state;
	set(&rows[0], "value_date", "");
	read_unkeyed(rows, 1, NULL, &res);
	assert_int_equal(res.records, 0);
	assert_one_error(&res, 2, "csv_value_date",
			 "value_date on line 2 is empty: an ach.entry needs its effective entry "
			 "date, which is part of its natural key (the NACHA parser refuses a "
			 "forward entry without one)");
}

/* R2-6: a return may have no date; only the exported key tells that from a
 * date removed. */
static void test_csv_return_without_date_needs_the_key_column(void **state)
{
	struct row rows[1] = { row_of(RET) };
	struct result res;

	(void)state;
	set(&rows[0], "value_date", "");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_value_date",
			 "value_date on line 2 is empty and the file has no natural_key column: "
			 "only the exported key tells an ach.return without effective entry date "
			 "from one whose date was removed (keep the natural_key column)");
	/* with the column, the key it exported (with the date) disagrees */
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_key_mismatch",
			 "natural_key on line 2 is not the key its fields give: part 4 is "
			 "\"2012-10-15\" in the natural_key column, \"\" from the fields");
}

/* R2-9: a shape check passed 2026-02-31, and the server refused it. */
static void test_csv_value_date_must_be_a_calendar_date(void **state)
{
	static const char *const bad[] = { "2026-02-31", "2025-02-29", "2026-13-01", "2026-3-02" };
	struct row rows[1] = { row_of(ACH) };
	struct result res;
	char want[200];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		set(&rows[0], "value_date", bad[i]);
		read_unkeyed(rows, 1, NULL, &res);
		snprintf(want, sizeof(want),
			 "column value_date on line 2 must be a calendar date YYYY-MM-DD, found "
			 "\"%s\"",
			 bad[i]);
		assert_one_error(&res, 2, "csv_field_format", want);
	}
	set(&rows[0], "value_date", "2028-02-29");
	read_unkeyed(rows, 1, NULL, &res);
	assert_int_equal(res.errors, 0);
}

/* R2-7: blanks the parsers drop are dropped, so the key is the file's. */
static void test_csv_key_fields_are_trimmed_as_the_parsers_trim(void **state)
{
	struct row rows[2] = { row_of(ACH), row_of(PAIN) };
	struct result res;

	(void)state;
	set(&rows[0], "company_id", "  1100000000  ");
	set(&rows[1], "end_to_end_id", " E2E-1-1\t");
	set(&rows[1], "debtor_account", " DE83999441097718893142 ");
	read_unkeyed(rows, 2, NULL, &res);
	assert_int_equal(res.errors, 0);
	assert_int_equal(res.records, 2);
	assert_same_record(&res.rec[0], ACH);
	assert_same_record(&res.rec[1], PAIN);
}

/* R2-7: the XML parser refuses such an IBAN; read as an Othr/Id it made a
 * second key for the same payment. */
static void test_csv_iban_with_blanks_or_lowercase_is_refused(void **state)
{
	static const char *const bad[] = { "de83999441097718893142", "DE83 9994 4109 7718 8931 42",
					   "De83999441097718893142" };
	struct row rows[1] = { row_of(PAIN) };
	struct result res;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		set(&rows[0], "debtor_account", bad[i]);
		read_unkeyed(rows, 1, NULL, &res);
		assert_one_error(&res, 2, "csv_field_format",
				 "column debtor_account on line 2 is an IBAN written with blanks or "
				 "lowercase letters: the XML parser refuses such an IBAN (write it in "
				 "capitals without blanks, as the XML file has it)");
	}
	/* an Othr/Id with the shape of an IBAN that fails mod 97 is an Othr/Id
	 * (corpus: tch_rtp_pacs008.xml has US88664715164441): not refused */
	set(&rows[0], "debtor_account", "US88664715164441");
	read_unkeyed(rows, 1, NULL, &res);
	assert_int_equal(res.errors, 0);
	/* an Othr/Id that is no IBAN stays what it is */
	set(&rows[0], "debtor_account", "acct 0042-x");
	read_unkeyed(rows, 1, NULL, &res);
	assert_int_equal(res.errors, 0);
	assert_string_equal(res.rec[0].natural_key, "acct 0042-x|E2E-1-1");
}

/* R2-7: the XML parser refuses a BIC in lowercase ("is not a BIC"). */
static void test_csv_bic_in_lowercase_is_refused(void **state)
{
	struct row rows[1] = { row_of(PAIN) };
	struct result res;

	(void)state;
	set(&rows[0], "debtor_agent", "deutdeffxxx");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_field_format",
			 "column debtor_agent on line 2 is a BIC written with blanks or lowercase "
			 "letters (\"deutdeffxxx\"): the XML parser refuses it as not a BIC (write "
			 "it in capitals without blanks)");
	set(&rows[0], "debtor_agent", "DEUT DEFF XXX");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_field_format",
			 "column debtor_agent on line 2 is a BIC written with blanks or lowercase "
			 "letters (\"DEUT DEFF XXX\"): the XML parser refuses it as not a BIC "
			 "(write it in capitals without blanks)");
	/* a clearing member id stays what it is */
	set(&rows[0], "debtor_agent", "234567891");
	read_unkeyed(rows, 1, NULL, &res);
	assert_int_equal(res.errors, 0);
}

/* R2-7: batch number "1" (a spreadsheet's "0000001") made a v1-batch key
 * no NACHA file gives. */
static void test_csv_batch_number_is_seven_digits(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	struct cl_parse_opts opts = { .ach_key = CL_ACH_KEY_BATCH };
	struct result res;

	(void)state;
	set(&rows[0], "batch_number", "1");
	read_unkeyed(rows, 1, &opts, &res);
	assert_one_error(&res, 2, "csv_field_format",
			 "column batch_number on line 2 must be 7 digits, found \"1\"");
}

/* R2-7: an ISO currency is an ISO 4217 code with a minor unit. */
static void test_csv_iso_currency_is_iso_4217(void **state)
{
	struct row rows[1] = { row_of(PAIN) };
	struct result res;

	(void)state;
	set(&rows[0], "currency", "XAU");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_field_format",
			 "column currency on line 2 is \"XAU\": not an ISO 4217 currency with a "
			 "minor unit");
}

/* The XML parser requires a pain.001's execution date and debtor account. */
static void test_csv_pain001_has_its_date_and_debtor_account(void **state)
{
	struct row rows[1] = { row_of(PAIN) };
	struct result res;

	(void)state;
	set(&rows[0], "value_date", "");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_field_format",
			 "column value_date on line 2 is empty: a pain.001 has its requested "
			 "execution date (ReqdExctnDt)");
	rows[0] = row_of(PAIN);
	set(&rows[0], "debtor_account", "");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_field_format",
			 "column debtor_account on line 2 is empty: a pain.001 has its debtor "
			 "account (DbtrAcct/Id)");
}

/* R2-8: codes the NACHA parser refuses; ISO direction from the kind. */
static void test_csv_codes_and_direction_are_the_parsers(void **state)
{
	struct row rows[1] = { row_of(ACH) };
	struct result res;

	(void)state;
	set(&rows[0], "transaction_code", "99");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_field_format",
			 "column transaction_code on line 2 is \"99\": not a NACHA transaction "
			 "code");
	rows[0] = row_of(ACH);
	set(&rows[0], "sec_code", "ZZZ");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_field_format",
			 "column sec_code on line 2 is \"ZZZ\": not a SEC code the NACHA parser "
			 "reads");
	rows[0] = row_of(ACH);
	set(&rows[0], "sec_code", "CIE");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_transaction_code",
			 "transaction code 27 on line 2 is not valid in a CIE batch: CIE carries "
			 "credits only");
	rows[0] = row_of(ACH);
	set(&rows[0], "direction", "credit");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_direction",
			 "direction on line 2 is \"credit\": transaction code 27 is a debit");
	rows[0] = row_of(PAIN);
	set(&rows[0], "direction", "debit");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_direction",
			 "direction on line 2 is \"debit\": the XML parser gives every pain.001 "
			 "record the direction credit");
}

/* R2-7, R2-8: the return fields make a return's key; "r07" made a second
 * one for the same return. */
static void test_csv_return_fields_are_the_parsers(void **state)
{
	struct row rows[1] = { row_of(RET) };
	struct result res;

	(void)state;
	set(&rows[0], "reason_code", "r07");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_field_format",
			 "column reason_code on line 2 must be a return reason code R01-R53, R61, "
			 "R62, R67-R77 or R80-R85, found \"r07\"");
	set(&rows[0], "reason_code", "C01");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_field_format", NULL);
	rows[0] = row_of(RET);
	set(&rows[0], "original_rdfi", "1211403");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_field_format",
			 "column original_rdfi on line 2 must be 8 digits, found \"1211403\"");
	rows[0] = row_of(RET);
	set(&rows[0], "original_trace", "");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_field_format",
			 "column original_trace on line 2 is empty: an ach.return names the "
			 "original entry's trace number and RDFI");
	rows[0] = row_of(RET);
	set(&rows[0], "dishonored_code", "R01");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_field_format",
			 "column dishonored_code on line 2 must be empty or a dishonored (R61, "
			 "R62, R67-R70) or contested (R71-R77) return code, found \"R01\"");
	set(&rows[0], "dishonored_code", "R71");
	read_unkeyed(rows, 1, NULL, &res);
	assert_int_equal(res.errors, 0);
	rows[0] = row_of(ACH);
	set(&rows[0], "reason_code", "R01");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "csv_field_scope",
			 "column reason_code on line 2 must be empty for an ach.entry record "
			 "(returns and NOCs carry it)");
}

/* R2-15: account numbers and names never in a message (they reach logs
 * and clearing_load.reason). */
static void test_csv_messages_never_quote_accounts_or_names(void **state)
{
	struct row rows[1] = { row_of(PAIN) };
	struct result res;

	(void)state;
	/* another (valid) IBAN: the key's account part differs, masked */
	set(&rows[0], "debtor_account", "DE39476869791961693931");
	set(&rows[0], "fingerprint", "");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_key_mismatch",
			 "natural_key on line 2 is not the key its fields give: part 1 is "
			 "\"******************3142\" in the natural_key column, "
			 "\"******************3931\" from the fields");
	/* the four bytes left of a masked account are escaped like any text */
	rows[0] = row_of(PAIN);
	set(&rows[0], "natural_key", "DE8399944109771889\001" "142|E2E-1-1");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_key_mismatch",
			 "natural_key on line 2 is not the key its fields give: part 1 is "
			 "\"******************\\x01142\" in the natural_key column, "
			 "\"******************3142\" from the fields");
	rows[0] = row_of(PAIN);
	set(&rows[0], "individual_name", "Jane Private Person");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_field_scope",
			 "column individual_name on line 2 must be empty for a pain.001 record");
	rows[0] = row_of(ACH);
	set(&rows[0], "remittance_text", "Rent of Jane Private");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_field_scope",
			 "column remittance_text on line 2 must be empty for an ach.entry record");
	rows[0] = row_of(ACH);
	set(&rows[0], "receiving_account", "6394761\t44923");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_one_error(&res, 2, "csv_bad_byte",
			 "column receiving_account on line 2 has a control character (byte 8 is "
			 "0x09): NACHA fields are printable");
}

/* R2-16: an edited amount was blamed on EqvtAmt. */
static void test_csv_fingerprint_mismatch_says_a_field_changed(void **state)
{
	struct row rows[1] = { row_of(PAIN) };
	struct result res;

	(void)state;
	set(&rows[0], "amount_minor", "1");
	read_text(csv_text(NULL, 0, rows, 1, "\n"), &res);
	assert_int_equal(res.errors, 1);
	assert_string_equal(res.err[0].code, "csv_fingerprint_mismatch");
	assert_non_null(strstr(res.err[0].message,
			       "\": a field that enters the fingerprint was changed after export "
			       "(or the XML file gave the amount as EqvtAmt, whose CcyOfTrf the "
			       "export does not carry: then load the XML file)"));
}

/* R2-19: --positional-keys cannot help a CSV row: the position in the XML
 * file is not in the export. */
static void test_csv_positional_keys_cannot_be_rebuilt(void **state)
{
	struct row rows[1] = { row_of(PAIN) };
	struct cl_parse_opts opts = { .positional_keys = true };
	struct result res;

	(void)state;
	set(&rows[0], "end_to_end_id", "NOTPROVIDED");
	read_unkeyed(rows, 1, &opts, &res);
	assert_one_error(&res, 2, "no_key",
			 "record on line 2 has no natural key: EndToEndId is NOTPROVIDED, and "
			 "positional keys (MsgId, PmtInfId and position) cannot be rebuilt from a "
			 "CSV export: load the XML file with --positional-keys");
	read_unkeyed(rows, 1, NULL, &res);
	assert_one_error(&res, 2, "no_key",
			 "record on line 2 has no natural key: EndToEndId is NOTPROVIDED, and "
			 "positional keys (MsgId, PmtInfId and position) cannot be rebuilt from a "
			 "CSV export: load the XML file");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_export_reads_back_with_the_same_keys),
		cmocka_unit_test(test_csv_detected_after_a_bom),
		cmocka_unit_test(test_csv_detection_needs_scheme_and_kind),
		cmocka_unit_test(test_csv_crlf_gives_the_same_records_and_lines),
		cmocka_unit_test(test_csv_any_chunking_gives_the_same_records_and_errors),
		cmocka_unit_test(test_csv_quoted_fields_keep_commas_quotes_and_newlines),
		cmocka_unit_test(test_csv_columns_are_found_by_name_in_any_order),
		cmocka_unit_test(test_csv_key_columns_and_file_are_optional),
		cmocka_unit_test(test_csv_ach_key_rule_follows_the_option),
		cmocka_unit_test(test_csv_unknown_column_is_named),
		cmocka_unit_test(test_csv_missing_required_column_is_named),
		cmocka_unit_test(test_csv_duplicated_column_is_named),
		cmocka_unit_test(test_csv_header_with_too_many_columns),
		cmocka_unit_test(test_csv_row_with_another_field_count_names_its_line),
		cmocka_unit_test(test_csv_value_longer_than_its_field_is_an_error),
		cmocka_unit_test(test_csv_field_beyond_the_row_buffer_stops),
		cmocka_unit_test(test_csv_amount_must_be_minor_units),
		cmocka_unit_test(test_csv_direction_is_credit_debit_or_empty),
		cmocka_unit_test(test_csv_kind_must_be_known_and_match_the_scheme),
		cmocka_unit_test(test_csv_field_of_the_other_scheme_must_be_empty),
		cmocka_unit_test(test_csv_field_shapes_are_checked),
		cmocka_unit_test(test_csv_uetr_in_capitals_reads_lowercase),
		cmocka_unit_test(test_csv_natural_key_must_match_the_fields),
		cmocka_unit_test(test_csv_fingerprint_must_match_the_fields),
		cmocka_unit_test(test_csv_masked_account_asks_for_no_mask),
		cmocka_unit_test(test_csv_kinds_it_cannot_rebuild_are_refused),
		cmocka_unit_test(test_csv_record_without_a_key_is_an_error),
		cmocka_unit_test(test_csv_bad_quoting_names_its_line),
		cmocka_unit_test(test_csv_value_must_be_utf8),
		cmocka_unit_test(test_csv_nacha_text_has_no_control_characters),
		cmocka_unit_test(test_csv_header_only_is_valid_and_empty),
		cmocka_unit_test(test_csv_stops_after_max_errors),
		cmocka_unit_test(test_csv_line_ends_inside_quotes_count_once),
		cmocka_unit_test(test_csv_unclosed_quote_is_named_where_its_row_starts),
		cmocka_unit_test(test_csv_ach_entry_needs_its_value_date),
		cmocka_unit_test(test_csv_return_without_date_needs_the_key_column),
		cmocka_unit_test(test_csv_value_date_must_be_a_calendar_date),
		cmocka_unit_test(test_csv_key_fields_are_trimmed_as_the_parsers_trim),
		cmocka_unit_test(test_csv_iban_with_blanks_or_lowercase_is_refused),
		cmocka_unit_test(test_csv_bic_in_lowercase_is_refused),
		cmocka_unit_test(test_csv_batch_number_is_seven_digits),
		cmocka_unit_test(test_csv_iso_currency_is_iso_4217),
		cmocka_unit_test(test_csv_codes_and_direction_are_the_parsers),
		cmocka_unit_test(test_csv_nacha_entry_fields_are_the_parsers),
		cmocka_unit_test(test_csv_pain001_has_its_date_and_debtor_account),
		cmocka_unit_test(test_csv_return_fields_are_the_parsers),
		cmocka_unit_test(test_csv_messages_never_quote_accounts_or_names),
		cmocka_unit_test(test_csv_fingerprint_mismatch_says_a_field_changed),
		cmocka_unit_test(test_csv_positional_keys_cannot_be_rebuilt),
	};

	return cmocka_run_group_tests_name("csv", tests, NULL, NULL);
}
