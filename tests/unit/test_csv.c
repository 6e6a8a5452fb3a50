/*
 * test_csv.c - CSV exports read back as records (parsers/csv_records.h):
 * columns by name, recomputed keys and fingerprints, the records' fields,
 * any chunking.  The checks of a row (each error with its line, code and
 * message) are the cases of tests/rules/csv.test.
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

#include "parsers/csv_records.h"
#include "parsers/parser.h"
#include "rules/fingerprint.h"

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
}

/* A row with another field count is an error; the rows after it are read,
 * each with its own line as position. */
static void test_csv_rows_after_a_bad_row_keep_their_lines(void **state)
{
	struct row rows[3] = { row_of(ACH), row_of(PAIN), row_of(RET) };
	static char t[1 << 16];
	const char *base = csv_text(NULL, 0, rows, 3, "\n");
	const char *second = strchr(strchr(base, '\n') + 1, '\n'); /* end of line 2 */
	struct result res;

	(void)state;
	snprintf(t, sizeof(t), "%.*s,\"extra\"%s", (int)(second - base), base, second);
	read_text(t, &res);
	assert_one_error(&res, 2, "csv_field_count", NULL);
	assert_int_equal(res.records, 2);
	assert_int_equal(res.rec[0].position, 3);
	assert_int_equal(res.rec[1].position, 4);
}

/* The largest amount an ISO 20022 record may have reads whole. */
static void test_csv_largest_iso_amount_reads_whole(void **state)
{
	struct row rows[1] = { row_of(PAIN) };
	int order[NC], n = without(order, "fingerprint", NULL, NULL);
	struct result res;

	(void)state;
	set(&rows[0], "amount_minor", "9223372036854775807");
	read_text(csv_text(order, n, rows, 1, "\n"), &res);
	assert_int_equal(res.errors, 0);
	assert_int_equal(res.rec[0].amount_minor, INT64_MAX);
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

/* ---- rows only in a form the record's parser could give ---- */

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

/* Blanks the parsers drop are dropped, so the key is the file's. */
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

/* An account that is no IBAN is an Othr/Id, kept as it is in the key. */
static void test_csv_other_account_id_is_kept_in_the_key(void **state)
{
	struct row rows[1] = { row_of(PAIN) };
	struct result res;

	(void)state;
	set(&rows[0], "debtor_account", "acct 0042-x");
	read_unkeyed(rows, 1, NULL, &res);
	assert_int_equal(res.errors, 0);
	assert_string_equal(res.rec[0].natural_key, "acct 0042-x|E2E-1-1");
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
		cmocka_unit_test(test_csv_rows_after_a_bad_row_keep_their_lines),
		cmocka_unit_test(test_csv_largest_iso_amount_reads_whole),
		cmocka_unit_test(test_csv_uetr_in_capitals_reads_lowercase),
		cmocka_unit_test(test_csv_line_ends_inside_quotes_count_once),
		cmocka_unit_test(test_csv_key_fields_are_trimmed_as_the_parsers_trim),
		cmocka_unit_test(test_csv_other_account_id_is_kept_in_the_key),
	};

	return cmocka_run_group_tests_name("csv", tests, NULL, NULL);
}
