/* test_statement_csv.c - a bank's CSV statement export read by its column
 * map (parsers/csv_map.h, parsers/statement_csv.c through parser.h): the
 * map's keys and its errors (the map's line, expected, found); rows of
 * three shapes (a signed amount with a running balance, a direction
 * column, a debit and a credit column); several accounts; the statement
 * key; deviations read with a note; damage refused with its line and
 * column, and no item handed out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "parsers/csv_map.h"
#include "parsers/parser.h"
#include "rules/statement_identity.h"

#define MAXI 64

struct run {
	int nitem, nerr, nnote;
	struct cl_stmt_item item[MAXI];
	struct cl_error err[16], note[16];
};

static struct run run;
static struct cl_csv_map map;

static void load_map(const char *text)
{
	struct cl_error err;

	if (cl_csv_map_parse("t.map", text, strlen(text), &map, &err) != CL_OK)
		fail_msg("map: %lu: %s", err.line, err.message);
}

static void read_csv(const char *text)
{
	struct cl_input *in = cl_input_from_memory(text, strlen(text), 7, "t.csv");
	struct cl_parse_opts o = { .csv_map = &map };
	struct cl_parser *p;
	struct cl_item it;
	struct cl_error err;
	enum cl_status st;

	memset(&run, 0, sizeof(run));
	assert_int_equal(cl_parser_open(in, &o, &p, &err), CL_OK);
	assert_int_equal(cl_parser_family(p), CL_FAMILY_STATEMENT);
	while ((st = cl_parser_next_item(p, &it, &err)) != CL_END) {
		if (st == CL_OK) {
			if (run.nitem < MAXI)
				run.item[run.nitem] = *it.stmt;
			run.nitem++;
		} else if (st == CL_NOTE) {
			if (run.nnote < 16)
				run.note[run.nnote] = err;
			run.nnote++;
		} else {
			if (run.nerr < 16)
				run.err[run.nerr] = err;
			run.nerr++;
		}
	}
	cl_parser_free(p);
	cl_input_free(in);
}

static const struct cl_stmt_item *nth(enum cl_stmt_kind k, int n)
{
	for (int i = 0; i < run.nitem && i < MAXI; i++)
		if (run.item[i].kind == k && n-- == 0)
			return &run.item[i];
	fail_msg("no item %d of kind %d", n, (int)k);
	return NULL;
}

/* ------------------------------------------------------------- the map */

static const char signed_map[] =
	"# a German bank's shape\n"
	"bank = test-de\n"
	"delimiter = semicolon\n"
	"skip = 2\n"
	"encoding = latin-1\n"
	"decimal = ,\n"
	"thousands = .\n"
	"date_format = DD.MM.YYYY\n"
	"order = newest-first\n"
	"booking_date = Buchungstag\n"
	"value_date = Valuta\n"
	"amount = Betrag\n"
	"currency = \"EUR\"\n"
	"account = #1\n"
	"balance = Saldo\n"
	"end_to_end_id = Referenz\n"
	"text = Verwendungszweck\n"
	"counterparty = Name\n";

static void test_map_keys(void **state)
{
	(void)state;
	load_map(signed_map);
	assert_string_equal(map.bank, "test-de");
	assert_int_equal(map.delimiter, ';');
	assert_int_equal(map.quote, '"');
	assert_int_equal(map.skip, 2);
	assert_true(map.header);
	assert_int_equal(map.encoding, CL_CSV_LATIN1);
	assert_int_equal(map.decimal, ',');
	assert_int_equal(map.thousands, '.');
	assert_true(map.newest_first);
	assert_int_equal(map.amounts, CL_CSV_SIGNED);
	assert_string_equal(map.booking_date.name, "Buchungstag");
	assert_int_equal(map.account.number, 1);
	assert_string_equal(map.fixed_currency, "EUR");
	assert_int_equal(map.ntext, 1);
	assert_string_equal(cl_csv_map_key(&map, &map.mark), "direction");
}

static void map_error(const char *text, unsigned long line, const char *msg)
{
	struct cl_csv_map m;
	struct cl_error err;

	assert_int_equal(cl_csv_map_parse("t.map", text, strlen(text), &m, &err), CL_INVALID);
	assert_int_equal(err.line, line);
	assert_string_equal(err.file, "t.map");
	if (!strstr(err.message, msg))
		fail_msg("\"%s\" not in \"%s\"", msg, err.message);
	assert_true(err.hint[0] != '\0');
}

static void test_map_errors(void **state)
{
	(void)state;
	map_error("bank = x\ncolour = red\n", 2, "key: expected a key of clearing-load(1)");
	map_error("bank = x\n\ndecimal = ;\n", 3, "decimal: expected \".\" or \",\", found \";\"");
	map_error("bank = X Y\n", 1, "bank: expected an id");
	map_error("bank = x\namount\n", 2, "expected key = value, found \"amount\"");
	map_error("bank = x\namount = #0\n", 2, "a column number #1 to #1000");
	map_error("bank = x\ndate_format = DD.MM.YY\n", 2, "date_format: expected YYYY, MM and DD");
	map_error("bank = x\ncurrency = \"EURO\"\n", 2, "currency: expected a currency code");
	/* what a map needs, said without a line */
	map_error("date_format = YYYY-MM-DD\n", 0, "bank: expected a line \"bank = ID\"");
	map_error("bank = x\ndate_format = YYYY-MM-DD\nbooking_date = #1\ncurrency = \"EUR\"\n"
		  "account = \"A\"\n",
		  0, "amount: expected either an amount column");
	map_error("bank = x\ndate_format = YYYY-MM-DD\nbooking_date = #1\ncurrency = \"EUR\"\n"
		  "account = \"A\"\namount = #2\ndirection = #3\n",
		  0, "debit_mark and credit_mark");
	map_error("bank = x\nheader = no\ndate_format = YYYY-MM-DD\nbooking_date = Datum\n"
		  "currency = \"EUR\"\naccount = \"A\"\namount = #2\n",
		  4, "a column number (#3): the map says header = no");
}

/* -------------------------------------------------------------- the rows */

/* Latin-1 ("\xfc" is u-umlaut), two title lines, rows newest first with
 * the balance after each: opening 1.000,00, closing 2.229,50. */
static const char signed_csv[] =
	"Ums\xe4tze Girokonto\r\n"
	"Zeitraum: 01.03.2026 - 04.03.2026\r\n"
	"Konto;Buchungstag;Valuta;Name;Verwendungszweck;Referenz;Betrag;Saldo\r\n"
	"DE89 3704 0044 0532 0130 00;4.3.2026;04.03.2026;\"M\xfcller, Hans\";\"Miete; M\xe4rz\";E2E-3;-770,50;2.229,50\r\n"
	"DE89370400440532013000;03.03.2026;03.03.2026;Kunde;Rechnung 9;E2E-2;2.000,00;3.000,00\r\n"
	"\r\n"
	"DE89370400440532013000;02.03.2026;;Bank;Entgelt;;0,00;1.000,00\r\n";

static void test_signed_rows(void **state)
{
	const struct cl_stmt_item *s, *e, *t;
	struct cl_stmt_row row;

	(void)state;
	load_map(signed_map);
	read_csv(signed_csv);
	assert_int_equal(run.nerr, 0);
	/* blanks in the account: a note (a blank line is no row to libcsv) */
	assert_int_equal(run.nnote, 1);
	assert_string_equal(run.note[0].code, "csv_deviation");
	assert_int_equal(run.note[0].line, 4);
	assert_int_equal(run.nitem, 1 + 3 * 2);
	s = nth(CL_STMT_STATEMENT, 0);
	assert_int_equal(s->stmt.source, CL_STMT_SRC_CSV);
	assert_string_equal(s->stmt.message_type, "csv:test-de");
	assert_string_equal(s->stmt.acct_iban, "DE89370400440532013000");
	assert_string_equal(s->stmt.acct_ccy, "EUR");
	assert_string_equal(s->stmt.from, "2026-03-02");
	assert_string_equal(s->stmt.to, "2026-03-04");
	assert_true(s->stmt.opening.present);
	assert_int_equal(s->stmt.opening.amount_minor, 100000);
	assert_int_equal(s->stmt.closing.amount_minor, 222950);
	assert_true(cl_stmt_row_statement(&s->stmt, NULL, &row));
	assert_string_equal(row.statement_key, "csv|DE89370400440532013000|EUR|f:2026-03-02|t:2026-03-04");
	assert_string_equal(row.kind, "csv");

	e = nth(CL_STMT_ENTRY, 0);
	assert_int_equal(e->entry.index, 1);
	assert_int_equal(e->entry.line, 4);
	assert_int_equal(e->entry.amount_minor, 77050);
	assert_int_equal(e->entry.direction, CL_DIR_DEBIT);
	assert_string_equal(e->entry.booking_date, "2026-03-04"); /* "4.3.2026" */
	assert_string_equal(e->entry.status, "BOOK");
	/* latin-1 read as UTF-8; the counterparty first, a quoted ";" kept */
	assert_string_equal(e->entry.text, "M\xc3\xbcller, Hans Miete; M\xc3\xa4rz");
	t = nth(CL_STMT_TX, 0);
	assert_string_equal(t->tx.end_to_end_id, "E2E-3");
	e = nth(CL_STMT_ENTRY, 1);
	assert_int_equal(e->entry.amount_minor, 200000);
	assert_int_equal(e->entry.direction, CL_DIR_CREDIT);
	e = nth(CL_STMT_ENTRY, 2);
	assert_int_equal(e->entry.line, 7);
	assert_string_equal(e->entry.value_date, "2026-03-02"); /* empty: the booking date */
}

static void test_balance_break(void **state)
{
	char csv[sizeof(signed_csv)];
	char *p;

	(void)state;
	load_map(signed_map);
	memcpy(csv, signed_csv, sizeof(csv));
	p = strstr(csv, "2.229,50");
	p[7] = '1'; /* closing 2.229,51 */
	read_csv(csv);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nnote, 2);
	assert_string_equal(run.note[1].code, CL_STMT_BALANCE_BREAK);
	assert_non_null(strstr(run.note[1].message, "balance break of 0.01 EUR"));
}

static const char mark_map[] =
	"bank = test-nl\n"
	"delimiter = ;\n"
	"decimal = ,\n"
	"date_format = YYYYMMDD\n"
	"booking_date = Datum\n"
	"account = Rekening\n"
	"currency = Munt\n"
	"amount = Bedrag\n"
	"direction = Af Bij\n"
	"debit_mark = Af\n"
	"credit_mark = Bij\n"
	"bank_reference = Volgnr\n";

static void test_direction_and_accounts(void **state)
{
	(void)state;
	load_map(mark_map);
	read_csv("\xef\xbb\xbf\"Datum\";\"Rekening\";\"Munt\";\"Af Bij\";\"Bedrag\";\"Volgnr\"\n"
		 "\"20260302\";\"NL20INGB0001234567\";\"EUR\";\"Af\";\"12,5\";\"7\"\n"
		 "\"20260302\";\"NL02RABO0123456789\";\"usd\";\"bij\";\"1\";\"8\"\n"
		 "\"20260303\";\"NL20INGB0001234567\";\"EUR\";\"Bij\";\"3,00\";\"9\"\n");
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nnote, 1); /* the byte order mark */
	/* two accounts: two statements, each before its entries */
	assert_int_equal(run.item[0].kind, CL_STMT_STATEMENT);
	assert_string_equal(run.item[0].stmt.acct_iban, "NL20INGB0001234567");
	assert_string_equal(run.item[0].stmt.to, "2026-03-03");
	assert_false(run.item[0].stmt.opening.present); /* no balance column */
	assert_int_equal(run.item[2].kind, CL_STMT_ENTRY);
	assert_int_equal(run.item[2].entry.amount_minor, 1250);
	assert_int_equal(run.item[2].entry.direction, CL_DIR_DEBIT);
	assert_string_equal(run.item[2].entry.acct_svcr_ref, "7");
	assert_int_equal(run.item[4].entry.index, 2);
	assert_int_equal(run.item[5].kind, CL_STMT_STATEMENT);
	assert_string_equal(run.item[5].stmt.acct_ccy, "USD");
	assert_int_equal(run.item[7].entry.amount_minor, 100);
	assert_int_equal(run.item[7].entry.direction, CL_DIR_CREDIT);
	assert_int_equal(run.item[7].entry.index, 1);
}

static const char pair_map[] =
	"bank = test-us\n"
	"thousands = ,\n"
	"date_format = MM/DD/YYYY\n"
	"booking_date = #1\n"
	"debit = #3\n"
	"credit = #4\n"
	"header = no\n"
	"currency = \"JPY\"\n"
	"account = \"ACCT-1\"\n"
	"customer_reference = #5\n";

static void test_debit_credit(void **state)
{
	(void)state;
	load_map(pair_map);
	read_csv("03/02/2026,\"CHECK 1001\",\"1,250\",,C1\n"
		 "03/02/2026,\"DEPOSIT\",,\"12,000\",C2\n"
		 "03/03/2026,\"FEE\",-5,,\n");
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nnote, 1); /* a debit written negative */
	assert_string_equal(run.item[0].stmt.acct_other, "ACCT-1");
	assert_int_equal(run.item[2].entry.amount_minor, 1250); /* JPY: no decimals */
	assert_int_equal(run.item[2].entry.direction, CL_DIR_DEBIT);
	assert_string_equal(run.item[2].entry.ntry_ref, "C1");
	assert_string_equal(run.item[1].tx.end_to_end_id, "C1"); /* the customer reference */
	assert_int_equal(run.item[4].entry.amount_minor, 12000);
	assert_int_equal(run.item[4].entry.direction, CL_DIR_CREDIT);
	assert_int_equal(run.item[6].entry.amount_minor, 5);
	assert_int_equal(run.item[6].entry.direction, CL_DIR_DEBIT);
}

static void refused(const char *csv, unsigned long line, unsigned long column, const char *code,
		    const char *msg)
{
	read_csv(csv);
	assert_true(run.nerr >= 1);
	assert_int_equal(run.nitem, 0); /* nothing handed out */
	if (strcmp(run.err[0].code, code) != 0 || run.err[0].line != line ||
	    run.err[0].column != column)
		fail_msg("%lu:%lu: %s: %s", run.err[0].line, run.err[0].column,
			 run.err[0].code, run.err[0].message);
	if (!strstr(run.err[0].message, msg))
		fail_msg("\"%s\" not in \"%s\"", msg, run.err[0].message);
}

static void test_refused(void **state)
{
	(void)state;
	load_map(pair_map);
	refused("03/02/2026,X,1.25,,\n", 1, 3, "csv_amount",
		"debit \"1.25\": more decimals than the currency's 0");
	refused("03/02/2026,X,12a,,\n", 1, 3, "csv_amount",
		"debit \"12a\": \"a\" where the map says decimal \".\" and thousands \",\"");
	refused("03/02/2026,X,\"1,25\",,\n", 1, 3, "csv_amount",
		"a thousands separator (,) not before three digits");
	refused("03/02/2026,X,5,6,\n", 1, 3, "csv_amount", "both debit \"5\" and credit \"6\"");
	refused("03/02/2026,X,,-6,\n", 1, 4, "csv_amount", "credit \"-6\": expected no sign");
	refused("03/02/2026,X,,,\n", 1, 3, "csv_amount", "neither debit nor credit");
	refused("02/30/2026,X,5,,\n", 1, 1, "csv_date",
		"booking date \"02/30/2026\": expected a date MM/DD/YYYY");
	refused("03/02/2026,X,5\n", 1, 0, "csv_columns", "the row has 3 columns: expected at least 5");
	refused("03/02/2026,\"X,5,,\n", 1, 0, "csv_quote", "a quoted field is not closed");
	load_map(mark_map);
	refused("Datum;Rekening;Munt;Af Bij;Bedrag\n", 1, 0, "csv_header",
		"the header names no column \"Volgnr\"");
	refused("Datum;Rekening;Munt;Af Bij;Bedrag;Volgnr\n20260302;NL1;EUR;Op;1,00;7\n", 2, 4,
		"csv_direction", "direction \"Op\": expected \"Af\" or \"Bij\"");
	refused("Datum;Rekening;Munt;Af Bij;Bedrag;Volgnr\n20260302;NL1;EUX;Af;1,00;7\n", 2, 3,
		"csv_currency", "currency code \"EUX\"");
	refused("Datum;Rekening;Munt;Af Bij;Bedrag;Volgnr\n20260302;NL1;EUR;Af;1,001;7\n", 2, 5,
		"csv_amount", "more decimals than the currency's 2");
	refused("Datum;Rekening;Munt;Af Bij;Bedrag;Volgnr\n20260302;N\xe9;EUR;Af;1,00;7\n", 2, 0,
		"csv_encoding", "line 2 is not UTF-8");
	refused("Datum;Rekening;Munt;Af Bij;Bedrag;Volgnr\n", 1, 0, "csv_no_rows", "no booking");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_keys),
		cmocka_unit_test(test_map_errors),
		cmocka_unit_test(test_signed_rows),
		cmocka_unit_test(test_balance_break),
		cmocka_unit_test(test_direction_and_accounts),
		cmocka_unit_test(test_debit_credit),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
