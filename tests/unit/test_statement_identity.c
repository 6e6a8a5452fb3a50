/* test_statement_identity.c - statement key rule s1 and the fingerprints
 * of statement items (rules/statement_identity.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "base/xsd_date.h"
#include "rules/statement_identity.h"

static void camt(struct cl_stmt_statement *st)
{
	memset(st, 0, sizeof(*st));
	st->source = CL_STMT_SRC_CAMT053;
	strcpy(st->message_type, "camt.053.001.08");
	strcpy(st->id, "STMT-1");
	strcpy(st->acct_iban, "DE89370400440532013000");
	strcpy(st->acct_ccy, "EUR");
	strcpy(st->from, "2026-03-03T00:00:00");
	strcpy(st->to, "2026-03-03T23:59:59+01:00");
	st->line = 9;
}

static void entry(struct cl_stmt_entry *e, struct cl_stmt_tx *tx)
{
	memset(e, 0, sizeof(*e));
	memset(tx, 0, sizeof(*tx));
	e->index = 3;
	e->line = 40;
	e->amount_minor = 12345;
	strcpy(e->ccy, "EUR");
	e->direction = CL_DIR_DEBIT;
	strcpy(e->status, "BOOK");
	strcpy(e->booking_date, "2026-03-03");
	strcpy(e->acct_svcr_ref, "SVCR-1");
	e->btch_nb_of_txs = -1;
	e->txs = 1;
	strcpy(tx->end_to_end_id, "E2E-1");
	strcpy(tx->uetr, "174C245F-2682-4291-AD67-2A41E530CD27");
	strcpy(tx->tx_id, "NOTPROVIDED");
	strcpy(tx->clr_sys_ref, "091000017611242");
}

static void test_camt_keys(void **state)
{
	struct cl_stmt_statement st;
	struct cl_stmt_entry e;
	struct cl_stmt_tx tx;
	struct cl_stmt_row row;
	struct cl_fp *fp = cl_fp_new();

	(void)state;
	camt(&st);
	assert_true(cl_stmt_row_statement(&st, fp, &row));
	/* no ElctrncSeqNb: the statement id */
	assert_string_equal(row.statement_key, "camt.053|DE89370400440532013000|EUR|id:STMT-1");
	assert_string_equal(row.natural_key,
			    "camt.053|DE89370400440532013000|EUR|id:STMT-1|stmt");
	assert_string_equal(row.period_from, "2026-03-03");
	assert_string_equal(row.period_to, "2026-03-03");
	strcpy(st.elctrnc_seq_nb, "44");
	st.page = 2;
	assert_true(cl_stmt_row_statement(&st, fp, &row));
	assert_string_equal(row.statement_key, "camt.053|DE89370400440532013000|EUR|esn:44|p:2");
	entry(&e, &tx);
	assert_true(cl_stmt_row_entry(&st, &e, &tx, fp, &row));
	/* the entry's place, never its references (they repeat) */
	assert_string_equal(row.natural_key, "camt.053|DE89370400440532013000|EUR|esn:44|p:2|#3");
	assert_string_equal(row.uetr, "174c245f-2682-4291-ad67-2a41e530cd27");
	assert_string_equal(row.tx_id, "");       /* NOTPROVIDED is none */
	assert_string_equal(row.ach_trace, "091000017611242"); /* a ClrSysRef of 15 digits */
	assert_int_equal(row.batch_count, -1);
	cl_fp_free(fp);
}

static void test_fingerprint_is_the_content(void **state)
{
	struct cl_stmt_statement st;
	struct cl_stmt_entry e;
	struct cl_stmt_tx tx;
	struct cl_stmt_row a, b;
	struct cl_fp *fp = cl_fp_new();

	(void)state;
	camt(&st);
	entry(&e, &tx);
	assert_true(cl_stmt_row_entry(&st, &e, &tx, fp, &a));
	/* free text is no content */
	strcpy(e.text, "another remark");
	assert_true(cl_stmt_row_entry(&st, &e, &tx, fp, &b));
	assert_memory_equal(a.fingerprint, b.fingerprint, 32);
	/* one cent is */
	e.amount_minor++;
	assert_true(cl_stmt_row_entry(&st, &e, &tx, fp, &b));
	assert_memory_not_equal(a.fingerprint, b.fingerprint, 32);
	assert_string_equal(a.natural_key, b.natural_key);
	/* and so is the bank's reference */
	e.amount_minor--;
	strcpy(e.acct_svcr_ref, "SVCR-2");
	assert_true(cl_stmt_row_entry(&st, &e, &tx, fp, &b));
	assert_memory_not_equal(a.fingerprint, b.fingerprint, 32);
	cl_fp_free(fp);
}

/* 028: an entry of several TxDtls gives a row per transaction (the
 * first once the second comes), an entry of one none; what an entry says
 * of the amount instructed and its charges is in its row but not in its
 * fingerprint (key rule s1's entries stay what they were). */
static void test_transaction_rows(void **state)
{
	struct cl_stmt_rows rs;
	struct cl_stmt_item it;
	struct cl_stmt_row rows[CL_STMT_ROWS_MAX];
	unsigned long bad;
	unsigned char fp1[32];
	struct cl_fp *fp = cl_fp_new();

	(void)state;
	memset(&rs, 0, sizeof(rs));
	memset(&it, 0, sizeof(it));
	camt(&it.stmt);
	strcpy(it.stmt.elctrnc_seq_nb, "7");
	it.kind = CL_STMT_STATEMENT;
	assert_int_equal(cl_stmt_rows_of(&rs, &it, fp, rows, &bad), 1);
	entry(&it.entry, &it.tx);
	it.entry.txs = 0;
	it.kind = CL_STMT_TX;
	it.tx.index = 1;
	it.tx.line = 41;
	it.tx.has_amount = true;
	it.tx.amount_minor = 12000;
	strcpy(it.tx.ccy, "EUR");
	assert_int_equal(cl_stmt_rows_of(&rs, &it, fp, rows, &bad), 0);
	it.tx.index = 2;
	it.tx.line = 42;
	it.tx.amount_minor = 345;
	strcpy(it.tx.end_to_end_id, "E2E-2");
	it.tx.has_chrgs = true;
	it.tx.chrgs_minor = 5;
	strcpy(it.tx.chrgs_ccy, "EUR");
	assert_int_equal(cl_stmt_rows_of(&rs, &it, fp, rows, &bad), 2);
	assert_int_equal(rows[0].item, CL_STMT_ROW_TX);
	assert_string_equal(rows[0].natural_key,
			    "camt.053|DE89370400440532013000|EUR|esn:7|#3|tx#1");
	assert_string_equal(rows[0].end_to_end_id, "E2E-1");
	assert_int_equal(rows[0].amount_minor, 12000);
	assert_int_equal(rows[0].tx_index, 1);
	assert_int_equal(rows[0].position, 41);
	assert_int_equal(rows[0].batch_count, -1);
	assert_string_equal(rows[1].natural_key,
			    "camt.053|DE89370400440532013000|EUR|esn:7|#3|tx#2");
	assert_string_equal(rows[1].end_to_end_id, "E2E-2");
	assert_true(rows[1].has_charges);
	assert_int_equal(rows[1].charges_minor, 5);
	assert_string_equal(cl_stmt_item_name(rows[1].item), "tx");
	it.kind = CL_STMT_ENTRY;
	it.entry.txs = 2;
	assert_int_equal(cl_stmt_rows_of(&rs, &it, fp, rows, &bad), 1);
	assert_int_equal(rows[0].item, CL_STMT_ROW_ENTRY);
	assert_string_equal(rows[0].end_to_end_id, "E2E-1"); /* its first's, as in s1 */
	assert_int_equal(rows[0].batch_count, 2);
	assert_false(rows[0].has_charges); /* of several: each its own */

	/* an entry of one transaction: no row of it, its charges the entry's */
	it.entry.index = 4;
	it.entry.txs = 0;
	it.kind = CL_STMT_TX;
	it.tx.index = 1;
	assert_int_equal(cl_stmt_rows_of(&rs, &it, fp, rows, &bad), 0);
	it.kind = CL_STMT_ENTRY;
	it.entry.txs = 1;
	assert_int_equal(cl_stmt_rows_of(&rs, &it, fp, rows, &bad), 1);
	assert_true(rows[0].has_charges);
	assert_int_equal(rows[0].charges_minor, 5);
	memcpy(fp1, rows[0].fingerprint, 32);
	it.tx.has_chrgs = false;
	it.kind = CL_STMT_TX;
	assert_int_equal(cl_stmt_rows_of(&rs, &it, fp, rows, &bad), 0);
	it.kind = CL_STMT_ENTRY;
	assert_int_equal(cl_stmt_rows_of(&rs, &it, fp, rows, &bad), 1);
	assert_false(rows[0].has_charges);
	assert_memory_equal(rows[0].fingerprint, fp1, 32);
	cl_fp_free(fp);
}

static void test_bai2_keys(void **state)
{
	struct cl_stmt_statement st;
	struct cl_stmt_entry e;
	struct cl_stmt_row row;
	struct cl_fp *fp = cl_fp_new();

	(void)state;
	memset(&st, 0, sizeof(st));
	st.source = CL_STMT_SRC_BAI2;
	strcpy(st.msg_id, "FILE001");
	strcpy(st.sender, "BANKSEND");
	strcpy(st.acct_other, "123456789");
	strcpy(st.acct_ccy, "USD");
	strcpy(st.from, "2026-11-29");
	strcpy(st.to, "2026-11-29");
	memset(&e, 0, sizeof(e));
	e.index = 2;
	e.btch_nb_of_txs = -1;
	strcpy(e.cust_ref, "091000017611242");
	strcpy(e.acct_svcr_ref, "BREF002");
	assert_true(cl_stmt_row_entry(&st, &e, NULL, fp, &row));
	assert_string_equal(row.natural_key, "bai2|BANKSEND|FILE001|123456789|USD|2026-11-29|#2");
	assert_string_equal(row.ach_trace, "091000017611242");
	strcpy(e.cust_ref, "INV-7");
	assert_true(cl_stmt_row_entry(&st, &e, NULL, fp, &row));
	assert_string_equal(row.end_to_end_id, "INV-7");
	assert_string_equal(row.ach_trace, "");
	cl_fp_free(fp);
}

static void test_status_keys(void **state)
{
	struct cl_stmt_statement st;
	struct cl_stmt_status s;
	struct cl_stmt_row row;
	struct cl_fp *fp = cl_fp_new();

	(void)state;
	memset(&st, 0, sizeof(st));
	st.source = CL_STMT_SRC_PACS002;
	strcpy(st.msg_id, "STS-1");
	memset(&s, 0, sizeof(s));
	s.index = 1;
	strcpy(s.status, "RJCT");
	strcpy(s.orgnl_end_to_end_id, "E2E-7");
	assert_true(cl_stmt_row_status(&st, &s, fp, &row));
	assert_string_equal(row.natural_key, "pacs.002|STS-1|#1");
	assert_string_equal(row.end_to_end_id, "E2E-7");
	assert_int_equal(row.batch_count, -1);
	/* an unknown source has no key */
	st.source = CL_STMT_SRC_UNKNOWN;
	assert_false(cl_stmt_row_status(&st, &s, fp, &row));
	cl_fp_free(fp);
}

/* A group status: keyed apart from the transaction statuses (grp#), the
 * original message only, and another fingerprint than a transaction
 * status of the same content. */
static void test_group_status_keys(void **state)
{
	struct cl_stmt_statement st;
	struct cl_stmt_status s;
	struct cl_stmt_row grp, tx;
	struct cl_fp *fp = cl_fp_new();

	(void)state;
	memset(&st, 0, sizeof(st));
	st.source = CL_STMT_SRC_PACS002;
	strcpy(st.msg_id, "STS-G");
	memset(&s, 0, sizeof(s));
	s.index = 1;
	strcpy(s.status, "RJCT");
	strcpy(s.orgnl_msg_id, "MSG-G");
	assert_true(cl_stmt_row_group_status(&st, &s, fp, &grp));
	assert_string_equal(grp.natural_key, "pacs.002|STS-G|grp#1");
	assert_string_equal(grp.msg_id, "MSG-G");
	assert_string_equal(grp.end_to_end_id, "");
	assert_true(cl_stmt_row_status(&st, &s, fp, &tx));
	assert_string_equal(tx.natural_key, "pacs.002|STS-G|#1");
	assert_memory_not_equal(grp.fingerprint, tx.fingerprint, sizeof(grp.fingerprint));
	cl_fp_free(fp);
}

/* Every lexical form of xs:date and xs:dateTime gives the date as
 * written; what is neither gives "" (a row's dates, cl_xsd_date). */
static void test_dates_every_form(void **state)
{
	static const char *const ok[][2] = {
		{ "2017-04-01", "2017-04-01" },
		{ "2017-04-01Z", "2017-04-01" },
		{ "2017-04-01+02:00", "2017-04-01" },
		{ "2017-04-01-14:00", "2017-04-01" },
		{ "2017-04-01T10:20:30", "2017-04-01" },
		{ "2017-04-01T10:20:30Z", "2017-04-01" },
		{ "2017-04-01T23:20:30-05:00", "2017-04-01" }, /* as written, not UTC's */
		{ "2017-04-01T00:30:00+02:00", "2017-04-01" },
		{ "2017-04-01T10:20:30.123456", "2017-04-01" },
		{ "2017-04-01T10:20:30.5+01:00", "2017-04-01" },
		{ "2017-04-01T24:00:00", "2017-04-01" },
		{ " 2017-04-01\n", "2017-04-01" },
		{ "2016-02-29", "2016-02-29" },
		{ "2000-02-29T00:00:00", "2000-02-29" },
	};
	static const char *const bad[] = {
		"", "2017-04-01T", "2017-04-01T10:20", "2017-04-01T10:20:30.", "2017-04-01+2:00",
		"2017-04-01+15:00", "2017-04-01 10:20:30", "2017-13-01", "2017-02-29", "1900-02-29",
		"2017-04-31", "0000-01-01", "17-04-01", "2017-04-01T24:00:01", "2017-04-01T25:00:00",
		"2017-04-01T10:60:00", "2017-04-01ZZ", "[[$CreDtTm]]", "##YYYY##-##MM##-##DD##",
		"2017-04-01T10:20:30+02:00x",
	};
	char out[11];

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (!cl_xsd_date(ok[i][0], out))
			fail_msg("\"%s\" refused", ok[i][0]);
		assert_string_equal(out, ok[i][1]);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (cl_xsd_date(bad[i], out))
			fail_msg("\"%s\" taken as %s", bad[i], out);
		assert_string_equal(out, "");
	}
}

/* A statement's period and an entry's dates written with an offset are
 * stored (they were "", as if absent). */
static void test_row_dates_with_zone(void **state)
{
	struct cl_stmt_statement st;
	struct cl_stmt_entry e;
	struct cl_stmt_tx tx;
	struct cl_stmt_row row;
	struct cl_fp *fp = cl_fp_new();

	(void)state;
	camt(&st);
	strcpy(st.from, "2026-03-03+01:00");
	assert_true(cl_stmt_row_statement(&st, fp, &row));
	assert_string_equal(row.period_from, "2026-03-03");
	entry(&e, &tx);
	strcpy(e.booking_date, "2017-04-01+02:00");
	strcpy(e.value_date, "2017-04-02Z");
	assert_true(cl_stmt_row_entry(&st, &e, &tx, fp, &row));
	assert_string_equal(row.booking_date, "2017-04-01");
	assert_string_equal(row.value_date, "2017-04-02");
	cl_fp_free(fp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_camt_keys),
		cmocka_unit_test(test_fingerprint_is_the_content),
		cmocka_unit_test(test_transaction_rows),
		cmocka_unit_test(test_bai2_keys),
		cmocka_unit_test(test_status_keys),
		cmocka_unit_test(test_group_status_keys),
		cmocka_unit_test(test_dates_every_form),
		cmocka_unit_test(test_row_dates_with_zone),
	};

	return cmocka_run_group_tests_name("statement_identity", tests, NULL, NULL);
}
