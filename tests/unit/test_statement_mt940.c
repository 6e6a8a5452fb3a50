/* test_statement_mt940.c - the MT940/MT942 reader (parsers/statement.h;
 * statement_mt940.c says how it reads) on messages written here from the
 * SWIFT field formats: the items and their references, entry dates over a
 * year end, reversals, pages, the German ?NN subfields, MT942 counts,
 * deviations read with a note, damage refused, a balance break a note,
 * and the statement keys (rules/statement_identity.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rules/statement_identity.h"
#include "test_statement_util.h"

static struct stmt_run run;

/* One MT940 in a SWIFT envelope, CRLF: opening 1000.00 credit, a debit of
 * 250.00 whose entry date (0102) is in the year after its value date
 * (251231), a credit of 100.50 with /EREF/ wrapped over two lines, a
 * reversal of a debit (RD) of 12.00, closing 862.50. */
static const char file[] =
	"{1:F01BANKDEFFAXXX0000000000}{2:O9401200251231BANKDEFFAXXX00000000002512311200N}{4:\r\n"
	":20:STMT-0001\r\n"                                   /* 2 */
	":25:BANKDEFFXXX/DE89370400440532013000\r\n"          /* 3 */
	":28C:00042/1\r\n"                                    /* 4 */
	":60F:C251231EUR1000,00\r\n"                          /* 5 */
	":61:2512310102D250,00NTRFINV-7//BREF1\r\n"           /* 6 */
	"SUPPLEMENTARY\r\n"                                   /* 7 */
	":86:/EREF/E2E-REF-0000000000001/REMI/INVOICE 7\r\n"  /* 8 */
	":61:260102C100,5NTRFNONREF//BREF2\r\n"               /* 9 */
	":86:/TRTP/SEPA OVERBOEKING/EREF/E2E-WRAPPED-00000000000\r\n" /* 10 */
	"00042/KREF/OUR-INSTR-9/REMI/X\r\n"                  /* 11 */
	":61:260102RD12,NCHGNONREF\r\n"                       /* 12 */
	":62F:C260102EUR862,50\r\n"                           /* 13 */
	":64:C260102EUR862,50\r\n"                            /* 14 */
	"-}{5:{CHK:123456789ABC}}\r\n";                       /* 15 */

static void test_mt940_items(void **state)
{
	const struct cl_stmt_item *s, *e, *t;

	(void)state;
	stmt_run_str(file, &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nnote, 0);
	assert_string_equal(run.source, "mt940");
	assert_int_equal(run.nkind[CL_STMT_STATEMENT], 1);
	assert_int_equal(run.nkind[CL_STMT_ENTRY], 3);
	assert_int_equal(run.nkind[CL_STMT_TX], 3);
	assert_int_equal(run.net, -25000 + 10050 + 1200);

	s = stmt_nth(&run, CL_STMT_STATEMENT, 0);
	assert_string_equal(s->stmt.message_type, "mt940");
	assert_string_equal(s->stmt.id, "STMT-0001");
	assert_string_equal(s->stmt.acct_iban, "DE89370400440532013000"); /* the BIC dropped */
	assert_string_equal(s->stmt.acct_ccy, "EUR");
	assert_string_equal(s->stmt.lgl_seq_nb, "42");
	assert_string_equal(s->stmt.elctrnc_seq_nb, "42/1");
	assert_int_equal(s->stmt.page, 0); /* :60F: and :62F:: one page */
	assert_true(s->stmt.last_page);
	assert_int_equal(s->stmt.opening.amount_minor, 100000);
	assert_int_equal(s->stmt.closing.amount_minor, 86250);
	assert_string_equal(s->stmt.from, "2025-12-31");
	assert_string_equal(s->stmt.to, "2026-01-02");
	assert_int_equal(s->stmt.line, 2);

	e = stmt_nth(&run, CL_STMT_ENTRY, 0);
	assert_int_equal(e->entry.line, 6);
	assert_string_equal(e->entry.value_date, "2025-12-31");
	assert_string_equal(e->entry.booking_date, "2026-01-02"); /* the year after */
	assert_int_equal(e->entry.direction, CL_DIR_DEBIT);
	assert_false(e->entry.reversal);
	assert_int_equal(e->entry.amount_minor, 25000);
	assert_string_equal(e->entry.bank_tx_code, "NTRF");
	assert_string_equal(e->entry.ntry_ref, "INV-7");
	assert_string_equal(e->entry.acct_svcr_ref, "BREF1");
	assert_string_equal(e->entry.status, "BOOK");
	assert_int_equal(e->entry.txs, 1);
	t = stmt_nth(&run, CL_STMT_TX, 0);
	assert_string_equal(t->tx.end_to_end_id, "E2E-REF-0000000000001"); /* :86: over :61: */

	e = stmt_nth(&run, CL_STMT_ENTRY, 1);
	assert_int_equal(e->entry.amount_minor, 10050); /* "100,5" */
	assert_string_equal(e->entry.ntry_ref, "");    /* NONREF */
	assert_string_equal(e->entry.booking_date, "2026-01-02");
	t = stmt_nth(&run, CL_STMT_TX, 1);
	assert_string_equal(t->tx.end_to_end_id, "E2E-WRAPPED-0000000000000042");
	assert_string_equal(t->tx.instr_id, "OUR-INSTR-9");

	/* RD: a reversal of a debit credits the account */
	e = stmt_nth(&run, CL_STMT_ENTRY, 2);
	assert_true(e->entry.reversal);
	assert_int_equal(e->entry.direction, CL_DIR_CREDIT);
	assert_int_equal(e->entry.amount_minor, 1200);
	assert_string_equal(e->entry.bank_tx_code, "NCHG");
	assert_true(stmt_chunk_stable(file));
}

static void test_mt940_keys(void **state)
{
	const struct cl_stmt_item *s, *e, *t;
	struct cl_stmt_row row;

	(void)state;
	stmt_run_str(file, &run);
	s = stmt_nth(&run, CL_STMT_STATEMENT, 0);
	assert_true(cl_stmt_row_statement(&s->stmt, NULL, &row));
	assert_string_equal(row.kind, "mt940");
	assert_string_equal(row.statement_key, "mt940|DE89370400440532013000|EUR|n:42|d:2026-01-02");
	assert_string_equal(row.statement_id, "STMT-0001");
	assert_string_equal(row.seq_nb, "42/1");
	e = stmt_nth(&run, CL_STMT_ENTRY, 0);
	t = stmt_nth(&run, CL_STMT_TX, 0);
	assert_true(cl_stmt_row_entry(&e->stmt, &e->entry, &t->tx, NULL, &row));
	assert_string_equal(row.natural_key,
			    "mt940|DE89370400440532013000|EUR|n:42|d:2026-01-02|#1");
	assert_string_equal(row.end_to_end_id, "E2E-REF-0000000000001");
	assert_string_equal(row.entry_ref, "INV-7");
	assert_string_equal(row.acct_svcr_ref, "BREF1");
	assert_string_equal(row.booking_date, "2026-01-02");
	assert_string_equal(row.value_date, "2025-12-31");
}

/* Without :86:, the customer reference is the end-to-end id. */
static void test_mt940_customer_reference(void **state)
{
	const struct cl_stmt_item *t;

	(void)state;
	stmt_run_str(":20:X\n:25:12345678\n:28C:1\n:60F:C260301EUR0,\n"
		     ":61:260301D1,NTRFMY-E2E-1\n:62F:D260301EUR1,\n-\n",
		     &run);
	assert_int_equal(run.nerr, 0);
	t = stmt_nth(&run, CL_STMT_TX, 0);
	assert_string_equal(t->tx.end_to_end_id, "MY-E2E-1");
	assert_string_equal(stmt_nth(&run, CL_STMT_STATEMENT, 0)->stmt.acct_other, "12345678");
}

/* German :86: ?NN subfields: the purpose ?20-?29 joined, EREF+ to the
 * next identifier. */
static void test_mt940_german_subfields(void **state)
{
	const struct cl_stmt_item *t;

	(void)state;
	stmt_run_str(":20:STARTUMS\n:25:10020030/1234567\n:28C:5/1\n:60F:C021101EUR2187,95\n"
		     ":61:0211011102DR800,NSTONONREF//55555\n"
		     ":86:166?00SEPA-UEBERWEISUNG?109310?20EREF+ABC-12345678901234\n"
		     "?2156789KREF+K-1?22SVWZ+Miete November?3010020030?31234567\n"
		     ":62F:C021101EUR1387,95\n-\n",
		     &run);
	assert_int_equal(run.nerr, 0);
	t = stmt_nth(&run, CL_STMT_TX, 0);
	assert_string_equal(t->tx.end_to_end_id, "ABC-1234567890123456789");
	assert_string_equal(t->tx.instr_id, "K-1");
	/* "DR": D and the funds code R */
	assert_int_equal(stmt_nth(&run, CL_STMT_ENTRY, 0)->entry.direction, CL_DIR_DEBIT);
	assert_string_equal(stmt_nth(&run, CL_STMT_ENTRY, 0)->entry.funds_type, "R");
}

/* Two pages of one statement: :60M:/:62M:; the keys share all but |p:. */
static void test_mt940_pages(void **state)
{
	static const char two[] =
		":20:P1\n:25:NL91ABNA0417164300\n:28C:7/1\n:60F:C260301EUR100,\n"
		":61:260302D10,NTRFA\n:62M:C260302EUR90,\n-\n"
		":20:P2\n:25:NL91ABNA0417164300\n:28C:7/2\n:60M:C260302EUR90,\n"
		":61:260302D20,NTRFB\n:62F:C260302EUR70,\n-\n";
	const struct cl_stmt_item *s;
	struct cl_stmt_row r1, r2;

	(void)state;
	stmt_run_str(two, &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nnote, 0);
	s = stmt_nth(&run, CL_STMT_STATEMENT, 0);
	assert_int_equal(s->stmt.page, 1);
	assert_false(s->stmt.last_page);
	assert_true(cl_stmt_row_statement(&s->stmt, NULL, &r1));
	s = stmt_nth(&run, CL_STMT_STATEMENT, 1);
	assert_int_equal(s->stmt.page, 2);
	assert_true(s->stmt.last_page);
	assert_true(cl_stmt_row_statement(&s->stmt, NULL, &r2));
	assert_string_equal(r1.statement_key, "mt940|NL91ABNA0417164300|EUR|n:7|d:2026-03-02|p:1");
	assert_string_equal(r2.statement_key, "mt940|NL91ABNA0417164300|EUR|n:7|d:2026-03-02|p:2");
}

/* A closing balance off by 0.01: a note with the numbers, no error. */
static void test_mt940_balance_break(void **state)
{
	(void)state;
	stmt_run_str(":20:X\n:25:12345678\n:28C:1\n:60F:C260301EUR10,00\n"
		     ":61:260301C5,00NTRFA\n:61:260301D2,00NTRFB\n:62F:C260301EUR13,01\n-\n",
		     &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nnote, 1);
	assert_string_equal(run.note[0].code, CL_STMT_BALANCE_BREAK);
	assert_non_null(strstr(run.note[0].message, "balance break of 0.01 EUR"));
	assert_int_equal(run.note[0].line, 7);
	assert_int_equal(run.nkind[CL_STMT_ENTRY], 2);
}

/* MT942: :34F:, :13D:, :90D:/:90C: against the lines. */
static void test_mt942(void **state)
{
	static const char ok[] =
		":20:INTRA1\n:25:PL29114010810000267002001002\n:28C:1/3\n:34F:PLND0,\n:34F:PLNC0,\n"
		":13D:2603021815+0100\n:61:2603020302CN1,50NTRFNONREF//MB1\n"
		":61:2603020302DN0,25NTRFNONREF//MB2\n:90D:1PLN0,25\n:90C:1PLN1,50\n-\n";
	const struct cl_stmt_item *s;
	struct cl_stmt_row row;
	char bad[sizeof(ok)];

	(void)state;
	stmt_run_str(ok, &run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.source, "mt942");
	s = stmt_nth(&run, CL_STMT_STATEMENT, 0);
	assert_string_equal(s->stmt.message_type, "mt942");
	assert_string_equal(s->stmt.stmt_created, "2026-03-02T18:15:00+01:00");
	assert_string_equal(s->stmt.acct_ccy, "PLN");
	assert_false(s->stmt.opening.present);
	assert_true(cl_stmt_row_statement(&s->stmt, NULL, &row));
	assert_string_equal(row.statement_key,
			    "mt942|PL29114010810000267002001002|PLN|n:1/3|t:2026-03-02T18:15:00+01:00");
	assert_int_equal(run.net, 125);
	/* a :90C: sum that is not the credits' */
	memcpy(bad, ok, sizeof(ok));
	memcpy(strstr(bad, ":90C:1PLN1,50"), ":90C:1PLN1,51", 13);
	stmt_run_str(bad, &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "summary_sum");
}

/* Deviations whose meaning is clear: read, each with a note. */
static void test_mt940_deviations(void **state)
{
	(void)state;
	/* no "-" at the end; a lower-case tag letter and mark; no customer
	   reference; the entry date four blanks; trailing blanks */
	stmt_run_str(":20:X   \n:25:12345678\n:28c:1\n:60f:c260301EUR10,00\n"
		     ":61:260301    D5,00NTRF\n:62F:C260301EUR5,00\n",
		     &run);
	assert_int_equal(run.nerr, 0);
	assert_true(run.nnote >= 3);
	for (int i = 0; i < run.nnote && i < 8; i++)
		assert_string_equal(run.note[i].code, "mt940_deviation");
	assert_int_equal(run.nkind[CL_STMT_ENTRY], 1);
	assert_string_equal(stmt_nth(&run, CL_STMT_ENTRY, 0)->entry.booking_date, "2026-03-01");
	assert_int_equal(stmt_nth(&run, CL_STMT_STATEMENT, 0)->stmt.opening.amount_minor, 1000);
	/* messages separated by "@@", LF only, a transmission header first */
	stmt_run_str("ABNANL2A\n940\n:20:A\n:25:1\n:28C:1\n:60F:C260301EUR0,\n:62F:C260301EUR0,\n"
		     "@@\n:20:B\n:25:1\n:28C:2\n:60F:C260302EUR0,\n:62F:C260302EUR0,\n-\n",
		     &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nkind[CL_STMT_STATEMENT], 2);
	/* a wrapped :86: line "-" before the closing balance is text; "-}",
	   ETX, SOH and the next "{1:" on one line; a DOS end-of-file byte;
	   a blank before the type code */
	stmt_run_str(":20:A\n:25:1\n:28C:1\n:60F:C260301EUR0,\n:61:260301C1,NTRFR1\n"
		     ":86:/EREF/E1/REMI/TEXT\n-\n:62F:C260301EUR1,\n"
		     "-}\x03\x01{1:F01X}{2:O940}{4:\n:20:B\n:25:1\n:28C:2\n:60F:C260302EUR1,\n"
		     ":61:260302D1, NTRFR2\n:62F:C260302EUR0,\n-\n\x1a",
		     &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nkind[CL_STMT_STATEMENT], 2);
	assert_int_equal(run.nkind[CL_STMT_ENTRY], 2);
	assert_int_equal(stmt_nth(&run, CL_STMT_ENTRY, 1)->entry.direction, CL_DIR_DEBIT);
	assert_true(run.nnote >= 2);
	/* after its closing balance, a "-" ends the message: a :61: after it
	   has no :20: before it */
	stmt_run_str(":20:A\n:25:1\n:28C:1\n:60F:C260301EUR0,\n:62F:C260301EUR0,\n-\n"
		     ":61:260301C1,NTRFR1\n",
		     &run);
	assert_true(stmt_find_error(&run, "mt940_missing_field") >= 0);
}

/* Damage that leaves the meaning unclear: refused, saying where. */
static void test_mt940_refused(void **state)
{
	static const struct {
		const char *text, *code;
		unsigned long line;
	} cases[] = {
		/* an amount without its decimal comma */
		{":20:X\n:25:1\n:28C:1\n:60F:C260301EUR0,\n:61:260301D500NTRFA\n"
		 ":62F:D260301EUR5,\n-\n", "mt940_amount", 5},
		/* more decimals than the currency has */
		{":20:X\n:25:1\n:28C:1\n:60F:C260301EUR0,\n:61:260301D5,001NTRFA\n"
		 ":62F:D260301EUR5,\n-\n", "mt940_amount", 5},
		/* no :25: */
		{":20:X\n:28C:1\n:60F:C260301EUR0,\n:62F:C260301EUR0,\n-\n", "mt940_missing_field", 1},
		/* no :60F: */
		{":20:X\n:25:1\n:28C:1\n:61:260301D5,NTRFA\n:62F:D260301EUR5,\n-\n",
		 "mt940_missing_field", 1},
		/* cut short: no closing balance, no "-" */
		{":20:X\n:25:1\n:28C:1\n:60F:C260301EUR0,\n:61:260301D5,NTRFA\n", "mt940_truncated", 1},
		/* a date that is none */
		{":20:X\n:25:1\n:28C:1\n:60F:C260301EUR0,\n:61:260230D5,NTRFA\n"
		 ":62F:D260301EUR5,\n-\n", "mt940_date", 5},
		/* no debit/credit mark */
		{":20:X\n:25:1\n:28C:1\n:60F:C260301EUR0,\n:61:260301X5,NTRFA\n"
		 ":62F:D260301EUR5,\n-\n", "mt940_statement_line", 5},
		/* a control byte */
		{":20:X\n:25:1\x02\n:28C:1\n:60F:C260301EUR0,\n:62F:C260301EUR0,\n-\n",
		 "mt940_character", 2},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int k;

		stmt_run_str(cases[i].text, &run);
		k = stmt_find_error(&run, cases[i].code);
		if (k < 0)
			fail_msg("case %zu: no %s (first: %s)", i, cases[i].code,
				 run.nerr ? run.err[0].message : "none");
		assert_int_equal(run.err[k].line, cases[i].line);
		assert_true(stmt_chunk_stable(cases[i].text));
	}
}

/* Detection: ":20:" or "{1:" after a BOM and blank lines. */
static void test_mt940_detect(void **state)
{
	(void)state;
	stmt_run_str("\xEF\xBB\xBF\r\n\r\n:20:X\r\n:25:1\r\n:28C:1\r\n:60F:C260301EUR0,\r\n"
		     ":62F:C260301EUR0,\r\n-\r\n",
		     &run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.source, "mt940");
	stmt_run_str("20:X\n", &run);
	assert_true(stmt_find_error(&run, "unknown_format") >= 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mt940_items),
		cmocka_unit_test(test_mt940_keys),
		cmocka_unit_test(test_mt940_customer_reference),
		cmocka_unit_test(test_mt940_german_subfields),
		cmocka_unit_test(test_mt940_pages),
		cmocka_unit_test(test_mt940_balance_break),
		cmocka_unit_test(test_mt942),
		cmocka_unit_test(test_mt940_deviations),
		cmocka_unit_test(test_mt940_refused),
		cmocka_unit_test(test_mt940_detect),
	};

	return cmocka_run_group_tests_name("statement_mt940", tests, NULL, NULL);
}
