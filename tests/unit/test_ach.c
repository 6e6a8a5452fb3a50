/* test_ach.c - NACHA parser: records, keys, fingerprints, chunking. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <openssl/evp.h>
#include <zlib.h>

#include "ach_fixture.h"

/* An addenda 99 (return): 36-79 is `info` (44 columns). */
static const char *a99(char *l, const char *code, const char *otrace, const char *info,
		       const char *trace)
{
	snprintf(l, 95, "799%.3s%.15s      09101298%-44.44s%.15s", code, otrace, info, trace);
	return l;
}

static const char *a98(char *l, const char *code, const char *otrace, const char *data,
		       const char *trace)
{
	snprintf(l, 95, "798%.3s%.15s      09101298%-29.29s               %.15s", code, otrace,
		 data, trace);
	return l;
}

/* 10 lines: two batches, three entries, one addenda 05.
 *   1 file header      6 batch control 1
 *   2 batch header 1   7 batch header 2 (CCD)
 *   3 entry (credit)   8 entry
 *   4 entry (debit)    9 batch control 2
 *   5 addenda 05      10 file control */
static void base(struct fx *f, const char *created, bool crlf)
{
	fx_begin_opts(f, created, crlf);
	fx_batch(f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(f, "22", "23138010", 12345, "ACCT1", 1, NULL);
	fx_entry(f, "27", "09100001", 500, "ACCT2", 2, "INVOICE 1");
	fx_end_batch(f);
	fx_batch(f, "9876543210", "CCD", "200", "260303", 2);
	fx_entry(f, "22", "02100002", 777, "ACCT3", 3, NULL);
	fx_end_batch(f);
	fx_finish(f, true);
}

static void test_ach_valid_file_records(void **state)
{
	struct fx f;
	struct run r;
	const struct cl_record *a, *b, *c;

	(void)state;
	base(&f, "2603011200", false);
	run_fx(&r, &f);
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.records, 3);
	a = nth_record(&r, 0);
	b = nth_record(&r, 1);
	c = nth_record(&r, 2);
	assert_string_equal(a->scheme, "nacha");
	assert_string_equal(a->kind, "ach.entry");
	assert_string_equal(a->key_rule, "v1");
	assert_string_equal(a->natural_key, "1234567890|121042880000001|2026-03-02");
	assert_int_equal(a->amount_minor, 12345);
	assert_string_equal(a->currency, "USD");
	assert_int_equal(a->direction, CL_DIR_CREDIT);
	assert_string_equal(a->value_date, "2026-03-02");
	assert_int_equal(a->position, 3);
	assert_int_equal(a->ordinal, 1);
	assert_string_equal(a->trace_number, "121042880000001");
	assert_string_equal(a->sec_code, "PPD");
	assert_string_equal(a->transaction_code, "22");
	assert_string_equal(a->receiving_dfi, "231380104");
	assert_string_equal(a->receiving_account, "ACCT1");
	assert_string_equal(a->individual_id, "ID123");
	assert_string_equal(a->individual_name, "JOHN DOE");
	assert_string_equal(a->company_id, "1234567890");
	assert_string_equal(a->company_name, "MY COMPANY");
	assert_string_equal(a->company_entry_description, "PAYROLL");
	assert_string_equal(a->batch_number, "0000001");
	assert_int_equal(a->addenda_count, 0);

	assert_int_equal(b->direction, CL_DIR_DEBIT);
	assert_int_equal(b->position, 4);
	assert_int_equal(b->addenda_count, 1);
	assert_string_equal(b->addenda_text, "INVOICE 1");
	assert_int_equal(c->position, 8);
	assert_int_equal(c->ordinal, 3);
	assert_string_equal(c->sec_code, "CCD");
	assert_string_equal(c->natural_key, "9876543210|121042880000003|2026-03-03");

	assert_string_equal(r.info.format_name, "nacha");
	assert_string_equal(r.info.message_type, "nacha");
	assert_string_equal(r.info.sender, "121042882");
	assert_string_equal(r.info.receiver, "231380104");
	assert_string_equal(r.info.created, "2026-03-01T12:00");
	assert_string_equal(r.info.file_id, "A");
	assert_int_equal(r.info.records, 3);
	assert_int_equal(r.info.lines, 10);
	assert_int_equal(r.info.total_debit_minor, 500);
	assert_int_equal(r.info.total_credit_minor, 12345 + 777);
	run_free(&r);
	fx_free(&f);
}

/* Every event (kind, line, code, message, key, fingerprint) in order. */
static void assert_same_run(const struct run *x, const struct run *y)
{
	assert_int_equal(x->n, y->n);
	for (size_t i = 0; i < x->n; i++) {
		assert_int_equal(x->ev[i].st, y->ev[i].st);
		assert_string_equal(x->ev[i].code, y->ev[i].code);
		assert_int_equal(x->ev[i].line, y->ev[i].line);
		assert_int_equal(x->ev[i].column, y->ev[i].column);
		assert_string_equal(x->ev[i].message, y->ev[i].message);
		if (x->ev[i].st == CL_OK) {
			assert_string_equal(x->ev[i].rec.natural_key, y->ev[i].rec.natural_key);
			assert_memory_equal(x->ev[i].rec.fingerprint, y->ev[i].rec.fingerprint, 32);
			assert_int_equal(x->ev[i].rec.position, y->ev[i].rec.position);
			assert_string_equal(x->ev[i].rec.receiving_account,
					    y->ev[i].rec.receiving_account);
			assert_string_equal(x->ev[i].rec.addenda_text, y->ev[i].rec.addenda_text);
		}
	}
}

static void check_chunking(const char *buf, size_t len)
{
	static const size_t chunks[] = {1, 2, 7, 93, 94, 95, 96, 189, 4096};
	struct cl_parse_opts o = {0};
	struct run whole, part;

	run_opts(&whole, buf, len, 0, &o);
	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		run_opts(&part, buf, len, chunks[i], &o);
		assert_same_run(&whole, &part);
		run_free(&part);
	}
	run_free(&whole);
}

static void test_ach_chunking_gives_identical_results(void **state)
{
	struct fx f;

	(void)state;
	base(&f, "2603011200", false);
	check_chunking(f.buf, f.len);
	fx_free(&f);

	base(&f, "2603011200", true); /* CRLF: the CR may end a chunk */
	check_chunking(f.buf, f.len);
	fx_free(&f);

	/* errors and notes too: a short header, a bad amount, a long line,
	 * no file control */
	base(&f, "2603011200", false);
	fx_patch(&f, 3, 35, "X");
	fx_patch(&f, 8, 80, "0");
	fx_replace(&f, 1, "101 231380104 1210428822603011200A094101");
	fx_replace(&f, 4, "627091000019ACCT2            0000000500ID123          JOHN DOE              "
			  "1121042880000002EXTRA");
	f.len -= 95 * 1; /* drop the file control's line (keep the fill) */
	check_chunking(f.buf, f.len);
	fx_free(&f);
}

static void test_ach_same_payment_same_key_and_fingerprint(void **state)
{
	struct fx f1, f2;
	struct run r1, r2;

	(void)state;
	base(&f1, "2603011200", false);
	/* re-created and re-batched: other creation time, CRLF, all three
	 * entries of company 1234567890 ... no: the same entries, batch 1 split
	 * in two batches with other batch numbers */
	fx_begin_opts(&f2, "2603021745", true);
	fx_batch(&f2, "1234567890", "PPD", "200", "260302", 7);
	fx_entry(&f2, "22", "23138010", 12345, "ACCT1", 1, NULL);
	fx_end_batch(&f2);
	fx_batch(&f2, "1234567890", "PPD", "200", "260302", 8);
	fx_entry(&f2, "27", "09100001", 500, "ACCT2", 2, "OTHER REMITTANCE TEXT");
	fx_end_batch(&f2);
	fx_batch(&f2, "9876543210", "CCD", "200", "260303", 9);
	fx_entry(&f2, "22", "02100002", 777, "ACCT3", 3, NULL);
	fx_end_batch(&f2);
	fx_finish(&f2, false);
	run_fx(&r1, &f1);
	run_fx(&r2, &f2);
	assert_int_equal(r1.errors, 0);
	assert_int_equal(r2.errors, 0);
	assert_int_equal(r2.records, 3);
	for (unsigned i = 0; i < 3; i++) {
		assert_string_equal(nth_record(&r1, i)->natural_key, nth_record(&r2, i)->natural_key);
		assert_memory_equal(nth_record(&r1, i)->fingerprint, nth_record(&r2, i)->fingerprint,
				    32);
	}
	run_free(&r1);
	run_free(&r2);
	fx_free(&f1);
	fx_free(&f2);
}

static void test_ach_changed_amount_or_account_changes_fingerprint(void **state)
{
	struct fx f1, f2, f3;
	struct run r1, r2, r3;

	(void)state;
	base(&f1, "2603011200", false);
	fx_begin(&f2, "2603011200");
	fx_batch(&f2, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(&f2, "22", "23138010", 12346, "ACCT1", 1, NULL); /* +1 cent */
	fx_end_batch(&f2);
	fx_finish(&f2, true);
	fx_begin(&f3, "2603011200");
	fx_batch(&f3, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(&f3, "22", "23138010", 12345, "ACCT9", 1, NULL); /* other account */
	fx_end_batch(&f3);
	fx_finish(&f3, true);
	run_fx(&r1, &f1);
	run_fx(&r2, &f2);
	run_fx(&r3, &f3);
	assert_int_equal(r2.errors + r3.errors, 0);
	assert_string_equal(nth_record(&r1, 0)->natural_key, nth_record(&r2, 0)->natural_key);
	assert_string_equal(nth_record(&r1, 0)->natural_key, nth_record(&r3, 0)->natural_key);
	assert_memory_not_equal(nth_record(&r1, 0)->fingerprint, nth_record(&r2, 0)->fingerprint,
				32);
	assert_memory_not_equal(nth_record(&r1, 0)->fingerprint, nth_record(&r3, 0)->fingerprint,
				32);
	run_free(&r1);
	run_free(&r2);
	run_free(&r3);
	fx_free(&f1);
	fx_free(&f2);
	fx_free(&f3);
}

static void test_ach_fingerprint_encoding(void **state)
{
	struct fx f;
	struct run r;
	/* P: the batch part padded to one SHA-256 block; E: the entry part */
	const char *enc = "9:ach.entry;3:USD;10:1234567890;3:PPD;10:2026-03-02;;;;;;;;;;;;;"
			  "5:12345;2:22;9:231380104;5:ACCT1;";
	unsigned char md[32];
	unsigned int n = 32;

	(void)state;
	base(&f, "2603011200", false);
	run_fx(&r, &f);
	/* the documented encoding (clearing-load-keys(7)), byte for byte */
	assert_int_equal(strstr(enc, "5:12345;") - enc, 64);
	EVP_Digest(enc, strlen(enc), md, &n, EVP_sha256(), NULL);
	assert_memory_equal(nth_record(&r, 0)->fingerprint, md, 32);
	run_free(&r);
	fx_free(&f);
}

/* 1 header, 2 batch (COR-free PPD), 3 entry + 4 addenda 99, 5 entry + 6
 * addenda 98, 7 control, 8 file control. */
static void return_file(struct fx *f, const char *ret)
{
	char l[95];

	fx_begin(f, "2603011200");
	fx_batch(f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry_full(f, "21", "23138010", 1500, "ACCT1", "ID1", "JANE ROE", 1, 11);
	fx_raw(f, ret, 1, 0, 0, 0);
	fx_entry_full(f, "26", "09100001", 0, "ACCT2", "ID2", "JIM ROE", 1, 12);
	fx_raw(f, a98(l, "C01", "099912340000015", "NEWACCT123", "121042880000012"), 1, 0, 0, 0);
	fx_end_batch(f);
	fx_finish(f, false);
}

static void test_ach_return_and_noc_records(void **state)
{
	struct fx f;
	struct run r;
	const struct cl_record *ret, *noc;
	char l[95];

	(void)state;

	return_file(&f, a99(l, "R01", "099912340000099", "INSUFFICIENT FUNDS", "121042880000011"));
	run_fx(&r, &f);
	assert_int_equal(r.errors, 0);
	ret = nth_record(&r, 0);
	noc = nth_record(&r, 1);
	assert_string_equal(ret->kind, "ach.return");
	assert_string_equal(ret->reason_code, "R01");
	assert_string_equal(ret->original_trace, "099912340000099");
	assert_string_equal(ret->original_rdfi, "09101298");
	assert_string_equal(ret->addenda_text, "INSUFFICIENT FUNDS");
	assert_string_equal(ret->natural_key, "099912340000099|R01|121042880000011|2026-03-02");
	assert_int_equal(ret->direction, CL_DIR_CREDIT); /* 21: return of a credit */
	assert_string_equal(noc->kind, "ach.noc");
	assert_string_equal(noc->reason_code, "C01");
	assert_string_equal(noc->corrected_data, "NEWACCT123");
	assert_string_equal(noc->natural_key, "099912340000015|C01|121042880000012|2026-03-02");
	assert_int_equal(noc->direction, CL_DIR_DEBIT);
	run_free(&r);
	fx_free(&f);
}

static void test_ach_dishonored_and_contested_returns(void **state)
{
	struct fx f;
	struct run r;
	char l[95];

	(void)state;
	/* a plain R01 followed by a dishonored R68 and a contested R71 */
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry_full(&f, "21", "23138010", 100, "ACCT1", "ID1", "JANE ROE", 1, 1);
	fx_raw(&f, a99(l, "R01", "099912340000099", "", "121042880000001"), 1, 0, 0, 0);
	fx_raw(&f, a99(l, "R68", "099912340000099", "   09991234000007712301", "121042880000001"),
	       1, 0, 0, 0);
	fx_raw(&f,
	       a99(l, "R71", "099912340000099",
		   "12309991234000007712301099912340000078124010", "121042880000001"),
	       1, 0, 0, 0);
	fx_end_batch(&f);
	fx_finish(&f, false);
	run_fx(&r, &f);
	assert_int_equal(r.errors, 0);
	assert_string_equal(nth_record(&r, 0)->reason_code, "R01");
	assert_string_equal(nth_record(&r, 0)->dishonored_code, "R71");
	assert_int_equal(nth_record(&r, 0)->addenda_count, 3);
	run_free(&r);
	fx_free(&f);

	/* a dishonored layout with a letter in its return trace (39-53) */
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry_full(&f, "21", "23138010", 100, "ACCT1", "ID1", "JANE ROE", 1, 1);
	fx_raw(&f, a99(l, "R68", "099912340000099", "   0999123400000X712301", "121042880000001"),
	       1, 0, 0, 0);
	fx_end_batch(&f);
	fx_finish(&f, false);
	run_fx(&r, &f);
	assert_only_error(&r, "numeric", 4);
	assert_int_equal(find_err(&r, "numeric")->column, 52);
	run_free(&r);
	fx_free(&f);
}

/* An IAT batch: header, one entry with addenda 10 .. 10 + n_addenda - 1. */
static void iat_file(struct fx *f, int n_addenda)
{
	char l[120], body[85];

	fx_begin(f, "2603011200");
	fx_iat_batch(f, n_addenda);
	for (int i = 0; i < n_addenda; i++) {
		switch (10 + i) {
		case 10:
			snprintf(body, sizeof(body), "ANN000000000000100000%22s%-35.35s%6s", "",
				 "BEK ENTERPRISES", "");
			break;
		case 14:
			snprintf(body, sizeof(body), "%-35.35s01%-34.34sCA%10s", "BANK OF NOVA SCOTIA",
				 "987987987654654", "");
			break;
		default:
			snprintf(body, sizeof(body), "%-84.84s", "SOME NAME AND ADDRESS");
			break;
		}
		snprintf(l, sizeof(l), "7%02d%-84.84s%07d", 10 + i, body, 1);
		fx_raw(f, l, 1, 0, 0, 0);
	}
	fx_end_batch(f);
	fx_finish(f, false);
}

static void test_ach_iat_entry(void **state)
{
	struct fx f;
	struct run r;
	const struct cl_record *rec;

	(void)state;
	iat_file(&f, 7);
	run_fx(&r, &f);
	assert_int_equal(r.errors, 0);
	rec = nth_record(&r, 0);
	assert_string_equal(rec->sec_code, "IAT");
	assert_string_equal(rec->receiving_account, "ACCOUNT-ABROAD-1");
	assert_string_equal(rec->individual_name, "BEK ENTERPRISES");
	assert_string_equal(rec->company_id, "123456789");
	assert_int_equal(rec->addenda_count, 7);
	assert_string_equal(rec->natural_key, "123456789|121042880000001|2026-03-02");

	/* the foreign bank (addenda 14 RDFI id) is economic: other
	 * fingerprint, same key; the receiver's name is not */
	{
		struct run r2;

		fx_patch(&f, 8, 41, "999"); /* addenda 14 */
		run_fx(&r2, &f);
		assert_int_equal(r2.errors, 0);
		assert_string_equal(nth_record(&r2, 0)->natural_key, rec->natural_key);
		assert_memory_not_equal(nth_record(&r2, 0)->fingerprint, rec->fingerprint, 32);
		run_free(&r2);
		fx_patch(&f, 8, 41, "987");
		fx_patch(&f, 4, 47, "OTHER NAME");
		run_fx(&r2, &f);
		assert_int_equal(r2.errors, 0);
		assert_string_equal(nth_record(&r2, 0)->individual_name, "OTHER NAMERISES");
		assert_memory_equal(nth_record(&r2, 0)->fingerprint, rec->fingerprint, 32);
		run_free(&r2);
	}
	run_free(&r);
	fx_free(&f);

	/* without addenda 16: the mandatory set is incomplete */
	iat_file(&f, 6);
	run_fx(&r, &f);
	assert_only_error(&r, "addenda_count", 3);
	assert_string_equal(find_err(&r, "addenda_count")->message,
			    "IAT entry lacks its mandatory addenda 16 (addenda 10-16 are required)");
	run_free(&r);
	fx_free(&f);
}

/* Under the batch key a second batch that starts its traces again is
 * valid (the verdicts: tests/rules/ach.test), and the batch number is in
 * the key. */
static void test_ach_batch_key_names_the_batch(void **state)
{
	struct fx f;
	struct run r;
	struct cl_parse_opts batch = {.ach_key = CL_ACH_KEY_BATCH};

	(void)state;
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(&f, "22", "23138010", 100, "A1", 1, NULL);
	fx_entry(&f, "22", "23138010", 200, "A2", 2, NULL);
	fx_end_batch(&f);
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 2);
	fx_entry(&f, "22", "23138010", 300, "A3", 1, NULL);
	fx_end_batch(&f);
	fx_finish(&f, true);
	run_opts(&r, f.buf, f.len, 0, &batch);
	assert_int_equal(r.errors, 0);
	assert_string_equal(nth_record(&r, 2)->key_rule, "v1-batch");
	assert_string_equal(nth_record(&r, 2)->natural_key,
			    "1234567890|0000002|121042880000001|2026-03-02");
	assert_string_equal(nth_record(&r, 0)->natural_key,
			    "1234567890|0000001|121042880000001|2026-03-02");
	run_free(&r);
	fx_free(&f);
}

static void test_ach_crlf_and_missing_fill_are_notes(void **state)
{
	struct fx f;
	struct run r;

	(void)state;
	fx_begin_opts(&f, "2603011200", true);
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(&f, "22", "23138010", 100, "A1", 1, NULL);
	fx_end_batch(&f);
	fx_finish(&f, false); /* 5 lines, no 9-fill */
	run_fx(&r, &f);
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.records, 1);
	assert_non_null(find_note(&r, "crlf"));
	assert_non_null(find_note(&r, "missing_fill"));
	run_free(&r);
	fx_free(&f);
}

static void test_ach_fixed_block_file(void **state)
{
	struct fx f;
	struct run r;
	char *flat;
	size_t n = 0;

	(void)state;
	base(&f, "2603011200", false);
	flat = malloc(f.len);
	for (size_t i = 0; i < f.len; i++)
		if (f.buf[i] != '\n')
			flat[n++] = f.buf[i];
	run_buf(&r, flat, n);
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.records, 3);
	assert_non_null(find_note(&r, "fixed_block"));
	run_free(&r);
	/* a truncated last block is a short record, not silently dropped */
	run_buf(&r, flat, n - 40);
	assert_true(r.errors > 0);
	run_free(&r);
	free(flat);
	fx_free(&f);
}

static void test_ach_sec_layouts(void **state)
{
	struct fx f;
	struct run r;
	char l[120];

	(void)state;
	/* CIE: name in 40-54, id in 55-76 */
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "CIE", "220", "260302", 1);
	fx_entry_full(&f, "22", "23138010", 100, "A1", "MARY SMITH", "INVOICE-77", 0, 1);
	fx_end_batch(&f);
	/* CTX: id 40-54, number of addenda 55-58, receiving company 59-74 */
	fx_batch(&f, "1234567890", "CTX", "200", "260302", 2);
	snprintf(l, sizeof(l), "622231380104%-17.17s%010d%-15.15s0002%-16.16s    1%.8s%07d", "A2", 200,
		 "ID-CTX", "RECEIVER CO", FX_ODFI, 2);
	fx_raw(&f, l, 1, 23138010, 0, 200);
	snprintf(l, sizeof(l), "705%-80.80s%04d%07d", "ISA*00*", 1, 2);
	fx_raw(&f, l, 1, 0, 0, 0);
	snprintf(l, sizeof(l), "705%-80.80s%04d%07d", "IEA*1*", 2, 2);
	fx_raw(&f, l, 1, 0, 0, 0);
	fx_end_batch(&f);
	/* POS with its addenda 02 (80-94: the entry's trace) */
	fx_batch(&f, "1234567890", "POS", "225", "260302", 3);
	fx_entry_full(&f, "27", "23138010", 300, "A3", "CARD", "JOE BLOGGS", 1, 3);
	snprintf(l, sizeof(l), "702%-76.76s%.8s%07d", "REF1   TERMINAL 42 SHOP ST", FX_ODFI, 3);
	fx_raw(&f, l, 1, 0, 0, 0);
	fx_end_batch(&f);
	fx_finish(&f, true);
	run_fx(&r, &f);
	assert_int_equal(r.errors, 0);
	assert_string_equal(nth_record(&r, 0)->individual_name, "MARY SMITH");
	assert_string_equal(nth_record(&r, 0)->individual_id, "INVOICE-77");
	assert_string_equal(nth_record(&r, 1)->individual_id, "ID-CTX");
	assert_string_equal(nth_record(&r, 1)->individual_name, "RECEIVER CO");
	assert_int_equal(nth_record(&r, 1)->addenda_count, 2);
	assert_string_equal(nth_record(&r, 1)->addenda_text, "ISA*00*");
	assert_string_equal(nth_record(&r, 2)->addenda_text, "REF1   TERMINAL 42 SHOP ST");
	assert_int_equal(nth_record(&r, 2)->direction, CL_DIR_DEBIT);
	run_free(&r);
	fx_free(&f);
}

static void test_ach_adv_file(void **state)
{
	struct fx f;
	struct run r;
	char l[120];

	(void)state;
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "ADV", "280", "260302", 1);
	snprintf(l, sizeof(l), "681231380104%-15.15s%012d%.9s%-5.5s %-22.22s  0%.8s%03d%04d", "ADVACCT",
		 70000, "121042882", "FILE1", "ADV NAME", "01100001", 61, 1);
	fx_line(&f, l);
	snprintf(l, sizeof(l), "682231380104%-15.15s%012d%.9s%-5.5s %-22.22s  0%.8s%03d%04d", "ADVACCT",
		 1000, "121042882", "FILE1", "ADV NAME", "01100001", 61, 2);
	fx_line(&f, l);
	snprintf(l, sizeof(l), "8280%06d%010d%020d%020d%-19.19s%.8s%07d", 2, 2 * 23138010, 1000,
		 70000, "", FX_ODFI, 1);
	fx_line(&f, l);
	snprintf(l, sizeof(l), "9%06d%06d%08d%010d%020d%020d%-23.23s", 1, 1, 2, 2 * 23138010, 1000,
		 70000, "");
	fx_line(&f, l);
	run_fx(&r, &f);
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.records, 2);
	assert_string_equal(nth_record(&r, 0)->receiving_account, "ADVACCT");
	assert_int_equal(nth_record(&r, 0)->amount_minor, 70000);
	assert_int_equal(nth_record(&r, 0)->direction, CL_DIR_CREDIT);
	assert_int_equal(nth_record(&r, 1)->direction, CL_DIR_DEBIT);
	assert_string_equal(nth_record(&r, 0)->trace_number, "011000010610001");
	run_free(&r);
	fx_free(&f);
}

static void test_ach_return_trace_restart(void **state)
{
	struct fx f;
	struct run r;
	char l[95];

	(void)state;
	/* two return batches of one company (PPD and WEB), same date, the
	 * same return trace, original trace and code: their keys are equal */
	fx_begin(&f, "2603011200");
	for (int b = 1; b <= 2; b++) {
		fx_batch(&f, "1111111111", b == 1 ? "PPD" : "WEB", "200", "260302", b);
		fx_entry_full(&f, "21", "23138010", 100, "A1", "ID1", "JANE ROE", 1, 1);
		fx_raw(&f, a99(l, "R01", "099912340000099", "", "121042880000001"), 1, 0, 0, 0);
		fx_end_batch(&f);
	}
	fx_finish(&f, true);
	run_fx(&r, &f);
	/* the repeated key is named, with both lines (the overlapping trace
	 * range of the two batches is then not reported again) */
	assert_only_error(&r, "duplicate_key", 7);
	assert_int_equal(find_err(&r, "duplicate_key")->other_line, 3);
	assert_string_equal(find_err(&r, "duplicate_key")->message,
			    "the same return identity (natural key "
			    "\"099912340000099|R01|121042880000001|2026-03-02\") appears again in "
			    "this file, on lines 3 and 7: the file cannot be loaded, because the "
			    "second would be taken as a re-upload of the first");
	assert_string_equal(nth_record(&r, 0)->natural_key, nth_record(&r, 1)->natural_key);
	run_free(&r);
	fx_free(&f);

	/* the same return in batches of two companies: the per-company trace
	 * ranges cannot see it, the key set does (it was retried as a race
	 * and ended with exit 5) */
	fx_begin(&f, "2603011200");
	for (int b = 1; b <= 2; b++) {
		fx_batch(&f, b == 1 ? "1111111111" : "2222222222", "PPD", "200", "260302", b);
		fx_entry_full(&f, "21", "23138010", 100, "A1", "ID1", "JANE ROE", 1, 1);
		fx_raw(&f, a99(l, "R01", "099912340000099", "", "121042880000001"), 1, 0, 0, 0);
		fx_end_batch(&f);
	}
	fx_finish(&f, true);
	run_fx(&r, &f);
	assert_only_error(&r, "duplicate_key", 7);
	assert_int_equal(find_err(&r, "duplicate_key")->other_line, 3);
	run_free(&r);
	fx_free(&f);
}

static void test_ach_return_without_effective_date_has_a_key(void **state)
{
	struct fx f;
	struct run r;
	char l[95];

	(void)state;
	/* a return batch may carry 000000 (a forward entry may not:
	 * tests/rules/ach.test) */
	return_file(&f, a99(l, "R01", "099912340000099", "", "121042880000011"));
	fx_patch(&f, 2, 70, "000000");
	run_fx(&r, &f);
	assert_int_equal(r.errors, 0);
	assert_string_equal(nth_record(&r, 0)->natural_key, "099912340000099|R01|121042880000011|");
	run_free(&r);
	fx_free(&f);
}

static void test_ach_byte_order_mark_is_note(void **state)
{
	struct fx f;
	struct run r;
	char *b;

	(void)state;
	base(&f, "2603011200", false);
	b = malloc(f.len + 3);
	memcpy(b, "\xEF\xBB\xBF", 3);
	memcpy(b + 3, f.buf, f.len);
	run_buf(&r, b, f.len + 3);
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.records, 3);
	assert_non_null(find_note(&r, "bom"));
	run_free(&r);
	free(b);
	fx_free(&f);
}

static void test_ach_cr_only_line_ends(void **state)
{
	struct fx f;
	struct run whole, one;

	(void)state;
	base(&f, "2603011200", false);
	for (size_t i = 0; i < f.len; i++)
		if (f.buf[i] == '\n')
			f.buf[i] = '\r';
	run_fx(&whole, &f);
	assert_int_equal(whole.errors, 0);
	assert_int_equal(whole.records, 3);
	assert_non_null(find_note(&whole, "cr_line_ends"));
	{
		struct cl_parse_opts o = {0};

		run_opts(&one, f.buf, f.len, 1, &o);
		assert_same_run(&whole, &one);
		run_free(&one);
	}
	run_free(&whole);
	fx_free(&f);
}

static void test_ach_read_error_ends_the_file(void **state)
{
	struct fx f;
	struct run r;
	z_stream zs;
	unsigned char gz[4096];

	(void)state;
	base(&f, "2603011200", false);
	memset(&zs, 0, sizeof(zs));
	assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = (unsigned char *)f.buf;
	zs.avail_in = (uInt)f.len;
	zs.next_out = gz;
	zs.avail_out = sizeof(gz);
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	deflateEnd(&zs);
	/* the gzip stream cut in the middle: CL_IO last, then the end */
	run_buf(&r, gz, (sizeof(gz) - zs.avail_out) / 2);
	assert_true(r.n > 0);
	assert_int_equal(r.ev[r.n - 1].st, CL_IO);
	assert_string_equal(r.ev[r.n - 1].code, "gzip_truncated");
	run_free(&r);
	fx_free(&f);
}

/* Errors of one code past CL_REPEAT_SHOWN are summed up in one error,
 * before a read error that ends the file, and do not count towards
 * --max-errors. */
static void test_ach_repeated_errors_summed_up_before_a_read_error(void **state)
{
	struct fx f;
	struct run r;
	z_stream zs;
	unsigned char gz[8192];
	struct cl_parse_opts o = {0};
	size_t n;

	(void)state;
	fx_begin_opts(&f, "2603011200", false);
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
	for (int i = 0; i < 20; i++) /* one trace number: 19 trace_order errors */
		fx_entry(&f, "22", "23138010", 100, "ACCT1", 1, NULL);
	fx_end_batch(&f);
	fx_finish(&f, true);
	memset(&zs, 0, sizeof(zs));
	assert_int_equal(deflateInit2(&zs, 0, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = (unsigned char *)f.buf;
	zs.avail_in = (uInt)f.len;
	zs.next_out = gz;
	zs.avail_out = sizeof(gz);
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	deflateEnd(&zs);
	n = sizeof(gz) - zs.avail_out;
	/* stored blocks: cut in the batch control, after the 20 entries */
	o.max_errors = 6;
	run_opts(&r, gz, n - 8 - 150, 0, &o);
	assert_true(r.n >= 3);
	assert_int_equal(r.ev[r.n - 1].st, CL_IO);
	assert_string_equal(r.ev[r.n - 1].code, "gzip_truncated");
	assert_int_equal(r.ev[r.n - 2].st, CL_INVALID);
	assert_string_equal(r.ev[r.n - 2].code, "trace_order");
	assert_int_equal(r.ev[r.n - 2].count, 14);
	assert_int_equal(r.ev[r.n - 2].line, 9);
	assert_string_equal(r.ev[r.n - 2].message,
			    "and 14 more trace_order errors on lines 9 to 22, not shown: after 5 "
			    "errors of one kind the others are only counted");
	assert_int_equal(r.errors, 7); /* 5, the summary, the read error */
	assert_false(r.info.stopped);  /* 5 handed out: below --max-errors=6 */
	run_free(&r);
	fx_free(&f);
}

static void test_ach_overlong_line_same_in_any_chunking(void **state)
{
	struct fx f;
	size_t big = 200000;
	char *b;

	(void)state;
	/* a last record of 200,000 bytes without a line end, after the file
	 * control: the one error for what follows it (the length of a line
	 * cut at 64 KiB is test_hostile's long-line.ach) */
	base(&f, "2603011200", false);
	b = malloc(f.len + big);
	memcpy(b, f.buf, f.len);
	memset(b + f.len, '7', big);
	check_chunking(b, f.len + big);
	{
		struct run r;

		run_buf(&r, b, f.len + big);
		assert_only_error(&r, "after_file_control", 11);
		assert_non_null(strstr(find_err(&r, "after_file_control")->message,
				       "found an addenda record"));
		run_free(&r);
	}
	free(b);
	fx_free(&f);
}

/* Inputs the fuzzer found (tests/fuzz, fuzz_ach) where the outcome
 * depended on the read size. */
static void test_ach_fuzz_findings_same_in_any_chunking(void **state)
{
	static const char *const files[] = {
		"testdata/ach/fuzz/cr-detection-window.ach", /* CR-only detection window */
		"testdata/ach/fuzz/line-limit-with-line-end.ach.gz", /* 69,110-byte line */
		"testdata/ach/fuzz/fixed-block-false-positive.ach",  /* F9 */
		"testdata/ach/fuzz/cr-detect-beyond-96.ach",         /* F10 */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		FILE *fh = fopen(files[i], "rb");
		char buf[65536];
		size_t n;

		assert_non_null(fh);
		n = fread(buf, 1, sizeof(buf), fh);
		fclose(fh);
		check_chunking(buf, n);
	}
}

/* F9: a first line of 95 characters whose last is a record type digit, then
 * a line end: that is a long line, not fixed-block records, and CRLF gives
 * the same errors as LF. */
static void test_ach_fixed_block_needs_two_records_without_line_end(void **state)
{
	static const char lf[] = "101 231380104 1210428822603011200A094101FEDERAL RESERVE BANK   "
				 "MY COMPANY                     9\n9";
	char crlf[sizeof(lf) + 1];
	struct run a, b;

	(void)state;
	memcpy(crlf, lf, 95);
	memcpy(crlf + 95, "\r\n9", 3);
	run_buf(&a, lf, sizeof(lf) - 1);
	run_buf(&b, crlf, sizeof(lf));
	assert_null(find_note(&a, "fixed_block"));
	assert_has_error(&a, "record_length", 1);
	assert_int_equal(a.errors, b.errors);
	for (size_t i = 0, j = 0; i < a.n && j < b.n; i++, j++) {
		if (b.ev[j].st == CL_NOTE && strcmp(b.ev[j].code, "crlf") == 0)
			j++;
		assert_string_equal(a.ev[i].code, b.ev[j].code);
		assert_int_equal(a.ev[i].line, b.ev[j].line);
	}
	run_free(&a);
	run_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ach_valid_file_records),
		cmocka_unit_test(test_ach_chunking_gives_identical_results),
		cmocka_unit_test(test_ach_same_payment_same_key_and_fingerprint),
		cmocka_unit_test(test_ach_changed_amount_or_account_changes_fingerprint),
		cmocka_unit_test(test_ach_fingerprint_encoding),
		cmocka_unit_test(test_ach_return_and_noc_records),
		cmocka_unit_test(test_ach_dishonored_and_contested_returns),
		cmocka_unit_test(test_ach_iat_entry),
		cmocka_unit_test(test_ach_batch_key_names_the_batch),
		cmocka_unit_test(test_ach_crlf_and_missing_fill_are_notes),
		cmocka_unit_test(test_ach_fixed_block_file),
		cmocka_unit_test(test_ach_sec_layouts),
		cmocka_unit_test(test_ach_adv_file),
		cmocka_unit_test(test_ach_return_trace_restart),
		cmocka_unit_test(test_ach_return_without_effective_date_has_a_key),
		cmocka_unit_test(test_ach_byte_order_mark_is_note),
		cmocka_unit_test(test_ach_cr_only_line_ends),
		cmocka_unit_test(test_ach_read_error_ends_the_file),
		cmocka_unit_test(test_ach_repeated_errors_summed_up_before_a_read_error),
		cmocka_unit_test(test_ach_overlong_line_same_in_any_chunking),
		cmocka_unit_test(test_ach_fuzz_findings_same_in_any_chunking),
		cmocka_unit_test(test_ach_fixed_block_needs_two_records_without_line_end),
	};

	return cmocka_run_group_tests_name("ach", tests, NULL, NULL);
}
