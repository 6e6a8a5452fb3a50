/* test_statement_bai2.c - the BAI2 reader (parsers/statement.h) on files
 * written here from the specification (statement_bai2.c says how it is
 * read): the items, 88 continuations, funds types, and each trailer check
 * failing by one controlled difference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_statement_util.h"

static struct stmt_run run;

/* One file, one group, two accounts.  Control totals: account 1 is
 * 100000 + 145000 (03) + 50000 + 5000 + 1000 (16) = 301000 over 6 records
 * (03, three 16s, one 88, 49); account 2 is -2500 + 2500 = 0 over 3; the
 * group 301000 over 11 records with 2 accounts; the file 301000 over 13
 * with 1 group. */
static const char file[] =
	"01,BANKSEND,CUSTRECV,261130,0800,FILE001,80,,2/\n"        /* 1 */
	"02,CUSTRECV,BANKSEND,1,261129,2400,USD,2/\n"              /* 2 */
	"03,123456789,USD,010,100000,,,015,145000,,/\n"            /* 3 */
	"16,165,50000,0,BREF001,CREF001,ACH CREDIT, RECEIVED/\n"   /* 4 */
	"16,475,5000,V,261201,,BREF002,CREF002,CHECK PAID\n"       /* 5 */
	"88,MORE TEXT ABOUT THE CHECK/\n"                          /* 6 */
	"16,142,1000,S,500,300,200,BREF003,,/\n"                   /* 7 */
	"49,301000,6/\n"                                           /* 8 */
	"03,987654321,,040,-2500,,/\n"                             /* 9 */
	"16,451,2500,Z,BREF004,,ACH DEBIT/\n"                      /* 10 */
	"49,0,3/\n"                                                /* 11 */
	"98,301000,2,11/\n"                                        /* 12 */
	"99,301000,1,13/\n";                                       /* 13 */

static char doc[4096];

/* The file with line `n` (1-based) replaced by `with` (NULL: removed). */
static const char *edit(int n, const char *with)
{
	const char *s = file;
	size_t o = 0;

	for (int line = 1; *s; line++) {
		size_t len = strcspn(s, "\n") + 1;

		if (line == n) {
			if (with)
				o += (size_t)snprintf(doc + o, sizeof(doc) - o, "%s\n", with);
		} else {
			memcpy(doc + o, s, len);
			o += len;
		}
		s += len;
	}
	doc[o] = '\0';
	return doc;
}

static void test_statement_bai2_valid_items(void **state)
{
	const struct cl_stmt_item *s, *e;

	(void)state;
	stmt_run_str(file, &run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.source, "bai2");
	assert_int_equal(run.nkind[CL_STMT_STATEMENT], 2);
	assert_int_equal(run.nkind[CL_STMT_ENTRY], 4);

	s = stmt_nth(&run, CL_STMT_STATEMENT, 0);
	assert_string_equal(s->stmt.message_type, "bai2");
	assert_string_equal(s->stmt.msg_id, "FILE001");
	assert_string_equal(s->stmt.sender, "BANKSEND");
	assert_string_equal(s->stmt.receiver, "CUSTRECV");
	assert_string_equal(s->stmt.created, "2026-11-30T08:00");
	assert_string_equal(s->stmt.from, "2026-11-29");
	assert_string_equal(s->stmt.acct_other, "123456789");
	assert_string_equal(s->stmt.acct_ccy, "USD");
	assert_string_equal(s->stmt.bai2_group_status, "1");
	assert_string_equal(s->stmt.bai2_as_of_modifier, "2");
	assert_true(s->stmt.opening.present);
	assert_int_equal(s->stmt.opening.amount_minor, 100000);
	assert_int_equal(s->stmt.closing.amount_minor, 145000);
	assert_int_equal(s->stmt.line, 3);

	e = stmt_nth(&run, CL_STMT_ENTRY, 0);
	assert_int_equal(e->entry.line, 4);
	assert_string_equal(e->entry.bank_tx_code, "165");
	assert_int_equal(e->entry.direction, CL_DIR_CREDIT);
	assert_int_equal(e->entry.amount_minor, 50000);
	assert_string_equal(e->entry.acct_svcr_ref, "BREF001");
	assert_string_equal(e->entry.cust_ref, "CREF001");
	assert_string_equal(e->entry.text, "ACH CREDIT, RECEIVED"); /* commas kept */
	assert_string_equal(e->entry.booking_date, "2026-11-29");

	/* an 88 carries on the text; V gives the value date */
	e = stmt_nth(&run, CL_STMT_ENTRY, 1);
	assert_int_equal(e->entry.direction, CL_DIR_DEBIT);
	assert_string_equal(e->entry.funds_type, "V");
	assert_string_equal(e->entry.value_date, "2026-12-01");
	assert_string_equal(e->entry.acct_svcr_ref, "BREF002");
	assert_string_equal(e->entry.text, "CHECK PAID MORE TEXT ABOUT THE CHECK");

	/* S: three availability amounts before the references */
	e = stmt_nth(&run, CL_STMT_ENTRY, 2);
	assert_string_equal(e->entry.acct_svcr_ref, "BREF003");
	assert_string_equal(e->entry.cust_ref, "");
	assert_string_equal(e->entry.text, "");

	/* the group's currency when 03 has none */
	s = stmt_nth(&run, CL_STMT_STATEMENT, 1);
	assert_string_equal(s->stmt.acct_ccy, "USD");
	assert_int_equal(s->stmt.index, 2);
	e = stmt_nth(&run, CL_STMT_ENTRY, 3);
	assert_int_equal(e->entry.index, 1);
	assert_string_equal(e->entry.text, "ACH DEBIT");
	assert_true(stmt_chunk_stable(file));
}

static void test_statement_bai2_crlf_and_padding(void **state)
{
	static char d[4096];
	static struct stmt_run lf;
	size_t o = 0;

	(void)state;
	for (const char *s = file; *s; s++) {
		if (*s == '\n') {
			memcpy(d + o, "     \r\n", 7); /* blocked-file padding, CRLF */
			o += 7;
		} else {
			d[o++] = *s;
		}
	}
	d[o] = '\0';
	stmt_run_str(file, &lf);
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nitem, lf.nitem);
	assert_true(run.digest == lf.digest);
}

static void test_statement_bai2_wrong_account_total(void **state)
{
	(void)state;
	stmt_run_str(edit(8, "49,301001,6/"), &run);
	assert_int_equal(run.nerr, 1); /* the 98 and 99 are checked against the amounts */
	assert_string_equal(run.err[0].code, "bai2_control_total");
	assert_int_equal(run.err[0].line, 8);
	assert_string_equal(run.err[0].message,
			    "49 account trailer control total is 301001, but the amounts it covers "
			    "add up to 301000");
	assert_string_equal(run.err[0].detail,
			    "amounts as written, in minor units, from line 3 to line 8");
}

static void test_statement_bai2_wrong_counts(void **state)
{
	(void)state;
	stmt_run_str(edit(12, "98,301000,2,10/"), &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "bai2_record_count");
	assert_int_equal(run.err[0].line, 12);
	assert_string_equal(run.err[0].message,
			    "98 group trailer number of records is 10, but there are 11 records from "
			    "line 2 to here (the header, 88s and trailer included)");
	stmt_run_str(edit(12, "98,301000,3,11/"), &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "bai2_account_count");
	stmt_run_str(edit(13, "99,301000,2,13/"), &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "bai2_group_count");
	stmt_run_str(edit(13, "99,301002,1,13/"), &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "bai2_control_total");
	assert_int_equal(run.err[0].line, 13);
}

static void test_statement_bai2_missing_file_trailer(void **state)
{
	(void)state;
	stmt_run_str(edit(13, NULL), &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "bai2_truncated");
	assert_int_equal(run.err[0].line, 12);
	assert_string_equal(run.err[0].message, "file ends without a 99 file trailer (truncated?)");
	assert_int_equal(run.nkind[CL_STMT_ENTRY], 4);
	/* cut inside an account */
	stmt_run_str(edit(11, NULL), &run);
	assert_true(stmt_find_error(&run, "bai2_record_order") >= 0); /* 98 inside an account */
	assert_true(stmt_find_error(&run, "bai2_truncated") >= 0);
}

static void test_statement_bai2_continuation(void **state)
{
	const struct cl_stmt_item *e;

	(void)state;
	/* a 16 cut before its text, the fields going on in an 88 */
	stmt_run_str(edit(4, "16,165,50000,0,BREF001\n88,CREF001,TEXT IN THE 88"), &run);
	assert_true(stmt_find_error(&run, "bai2_record_count") >= 0); /* one record more */
	e = stmt_nth(&run, CL_STMT_ENTRY, 0);
	assert_string_equal(e->entry.acct_svcr_ref, "BREF001");
	assert_string_equal(e->entry.cust_ref, "CREF001");
	assert_string_equal(e->entry.text, "TEXT IN THE 88");
	/* an 88 after a record that was not one */
	stmt_run_str(edit(5, "1X,475,5000/\n88,STRAY/"), &run);
	assert_int_equal(stmt_find_error(&run, "bai2_record_code"), 0);
	assert_int_equal(stmt_find_error(&run, "bai2_record_order"), 1);
	assert_int_equal(run.err[1].line, 6);
	assert_string_equal(run.err[1].message,
			    "88 continuation with no record before it to continue");
	/* a file cannot start with one */
	stmt_run_str("88,STRAY/\n", &run);
	assert_string_equal(run.err[0].code, "unknown_format");
}

static void test_statement_bai2_order_and_fields(void **state)
{
	(void)state;
	stmt_run_str(edit(3, NULL), &run); /* 16s with no 03 */
	assert_int_equal(stmt_find_error(&run, "bai2_record_order"), 0);
	assert_int_equal(run.err[0].line, 3);
	assert_string_equal(run.err[0].message,
			    "16 transaction detail here: expected a 03 account identifier or the 98 "
			    "group trailer");
	stmt_run_str(edit(4, "16,010,50000,0,BREF001,CREF001,X/"), &run);
	assert_int_equal(stmt_find_error(&run, "bai2_type_code"), 0);
	stmt_run_str(edit(4, "16,165,500.00,0,BREF001,CREF001,X/"), &run);
	assert_int_equal(stmt_find_error(&run, "bai2_amount"), 0);
	assert_string_equal(run.err[0].message,
			    "16 transaction detail amount \"500.00\" is not an amount: expected up to "
			    "18 digits in minor units, no decimal point");
	stmt_run_str(edit(1, "01,BANKSEND,CUSTRECV,261130,0800,FILE001,80,,3/"), &run);
	assert_int_equal(stmt_find_error(&run, "bai2_version"), 0);
	stmt_run_str(edit(5, "17,475,5000/"), &run);
	assert_int_equal(stmt_find_error(&run, "bai2_record_code"), 0);
	/* a control byte: an error, the record read with '?' for it */
	stmt_run_str(edit(4, "16,165,50000,0,BREF001,CREF001,ACH\001CREDIT/"), &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "bai2_character");
	assert_string_equal(run.err[0].message,
			    "byte 0x01 in column 35: expected printable ASCII (BAI2 records are "
			    "ASCII text)");
	assert_string_equal(stmt_nth(&run, CL_STMT_ENTRY, 0)->entry.text, "ACH?CREDIT");
}

static void test_statement_bai2_distributed_funds(void **state)
{
	const struct cl_stmt_item *e;

	(void)state;
	/* D: a count of 2, then two (days, amount) pairs before the references */
	stmt_run_str(edit(4, "16,165,50000,D,2,0,30000,1,20000,BREF001,CREF001,SPLIT/"), &run);
	assert_int_equal(run.nerr, 0);
	e = stmt_nth(&run, CL_STMT_ENTRY, 0);
	assert_string_equal(e->entry.funds_type, "D");
	assert_string_equal(e->entry.acct_svcr_ref, "BREF001");
	assert_string_equal(e->entry.cust_ref, "CREF001");
	assert_string_equal(e->entry.text, "SPLIT");
	/* in a 03 summary too: the next summary follows the pairs */
	stmt_run_str(edit(3, "03,123456789,USD,010,100000,,D,1,0,100000,015,145000,,/"), &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(stmt_nth(&run, CL_STMT_STATEMENT, 0)->stmt.closing.amount_minor, 145000);
}

static void test_statement_bai2_endless_line(void **state)
{
	size_t n = 1 << 20;
	char *d = malloc(n + 64);

	(void)state;
	memcpy(d, "01,", 3);
	memset(d + 3, 'x', n);
	d[n + 3] = '\0';
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "bai2_line_too_long");
	assert_int_equal(run.err[0].line, 1);
	assert_int_equal(run.nitem, 0);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statement_bai2_valid_items),
		cmocka_unit_test(test_statement_bai2_crlf_and_padding),
		cmocka_unit_test(test_statement_bai2_wrong_account_total),
		cmocka_unit_test(test_statement_bai2_wrong_counts),
		cmocka_unit_test(test_statement_bai2_missing_file_trailer),
		cmocka_unit_test(test_statement_bai2_continuation),
		cmocka_unit_test(test_statement_bai2_order_and_fields),
		cmocka_unit_test(test_statement_bai2_distributed_funds),
		cmocka_unit_test(test_statement_bai2_endless_line),
	};

	return cmocka_run_group_tests_name("statement_bai2", tests, NULL, NULL);
}
