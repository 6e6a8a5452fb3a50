/* test_statement_values.c - the lexical checks of what the statement
 * readers take from the bank's XML (parsers/statement_values.c): every
 * xs:decimal form the amount type allows and nothing else, every xs:date
 * and xs:dateTime form with real calendar dates, template placeholders;
 * and through the camt reader, that each reaches the items and errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "parsers/statement_internal.h"
#include "test_statement_util.h"

static struct stmt_run run;

static int64_t minor_ok(const char *text, int exponent)
{
	char why[200] = "";
	int64_t v = -1;

	if (cl_stmt_decimal_minor(text, "EUR", exponent, &v, why, sizeof(why)) != 0)
		fail_msg("\"%s\" refused: %s", text, why);
	return v;
}

static const char *minor_bad(const char *text, int exponent)
{
	static char why[200];
	int64_t v;

	why[0] = '\0';
	if (cl_stmt_decimal_minor(text, "EUR", exponent, &v, why, sizeof(why)) == 0)
		fail_msg("\"%s\" accepted as %lld", text, (long long)v);
	return why;
}

static void test_statement_values_decimal_forms(void **state)
{
	(void)state;
	assert_int_equal(minor_ok(".34", 2), 34);
	assert_int_equal(minor_ok("0.34", 2), 34);
	assert_int_equal(minor_ok("+12.5", 2), 1250);
	assert_int_equal(minor_ok("12.", 2), 1200);
	assert_int_equal(minor_ok("0012.50000", 2), 1250);
	assert_int_equal(minor_ok("-0", 2), 0);
	assert_int_equal(minor_ok("-0.00", 2), 0);
	assert_int_equal(minor_ok("5000", 0), 5000);
	assert_int_equal(minor_ok("1.000", 0), 1);
	assert_int_equal(minor_ok("999999999999999999", 0), 999999999999999999LL);
	assert_int_equal(minor_ok("1234567890123456.78", 2), 123456789012345678LL);
	assert_string_equal(minor_bad("-1.00", 2),
			    "amount \"-1.00\" is negative: expected zero or more (the schema's "
			    "minInclusive 0; CdtDbtInd says credit or debit)");
	assert_string_equal(minor_bad("1.234567", 5),
			    "amount \"1.234567\" has 6 decimals: expected at most 5 (the schema's "
			    "fractionDigits)");
	assert_string_equal(minor_bad("1234567890123456789", 2),
			    "amount \"1234567890123456789\" has 19 digits: expected at most 18 "
			    "(the schema's totalDigits)");
	assert_string_equal(minor_bad("1.234", 2),
			    "amount \"1.234\" has more decimals than EUR's 2");
	assert_string_equal(minor_bad("99999999999999999.9", 3),
			    "amount \"99999999999999999.9\" is too large: expected at most 18 digits");
	assert_string_equal(minor_bad(".", 2),
			    "amount \".\" is not a decimal number: expected digits with an optional "
			    "decimal point (xs:decimal: 12, 12.5, .5, 12.)");
	minor_bad("", 2);
	minor_bad("+", 2);
	minor_bad("1,50", 2);
	minor_bad("1.5e2", 2);
	minor_bad("--1", 2);
	minor_bad("1 000", 2);
}

static void date_ok(const char *s, bool dttm)
{
	char why[200] = "";

	if (!cl_stmt_xsd_date(s, dttm, why, sizeof(why)))
		fail_msg("\"%s\" refused: %s", s, why);
}

static const char *date_bad(const char *s, bool dttm)
{
	static char why[200];

	why[0] = '\0';
	if (cl_stmt_xsd_date(s, dttm, why, sizeof(why)))
		fail_msg("\"%s\" accepted", s);
	return why;
}

static void test_statement_values_dates(void **state)
{
	(void)state;
	date_ok("2017-04-01", false);
	date_ok("2017-04-01Z", false);
	date_ok("2017-04-01+02:00", false);
	date_ok("2017-04-01-05:00", false);
	date_ok("2017-04-01+14:00", false);
	date_ok("2024-02-29", false);
	date_ok("2000-02-29", false);
	date_ok("2017-04-01T10:00:00", true);
	date_ok("2017-04-01T10:00:00Z", true);
	date_ok("2017-04-01T10:00:00.123456+02:00", true);
	date_ok("2017-04-01T23:59:59.9-11:30", true);
	date_ok("2017-04-01T24:00:00", true);
	assert_string_equal(date_bad("2023-02-29", false),
			    "\"2023-02-29\" is not a calendar date: expected an xs:date "
			    "(YYYY-MM-DD, optional time zone Z or +hh:mm)");
	assert_string_equal(date_bad("[[$CreDtTm]]", true),
			    "\"[[$CreDtTm]]\" is not an xs:dateTime (YYYY-MM-DDThh:mm:ss, optional "
			    "fraction and time zone Z or +hh:mm)");
	date_bad("1900-02-29", false);
	date_bad("2017-04-31", false);
	date_bad("2017-13-01", false);
	date_bad("0000-01-01", false);
	date_bad("2017-4-01", false);
	date_bad("##YYYY##-04-01", false);
	date_bad("2017-04-01T10:00:00", false);
	date_bad("2017-04-01", true);
	date_bad("2017-04-01T10:00", true);
	date_bad("2017-04-01T24:00:01", true);
	date_bad("2017-04-01T24:00:00.5", true);
	date_bad("2017-04-01T10:60:00", true);
	date_bad("2017-04-01T10:00:00.", true);
	date_bad("2017-04-01T10:00:00+15:00", true);
	date_bad("2017-04-01T10:00:00+0200", true);
	date_bad("2017-04-01+02:60", false);
	date_bad("2017-04-01 ", false);
}

static void test_statement_values_placeholders(void **state)
{
	(void)state;
	assert_true(cl_stmt_placeholder("[[$CreDtTm]]"));
	assert_true(cl_stmt_placeholder("MSG-##YYYY##-001"));
	assert_true(cl_stmt_placeholder("{{msgId}}"));
	assert_true(cl_stmt_placeholder("${uuid}"));
	assert_false(cl_stmt_placeholder("NOTPROVIDED"));
	assert_false(cl_stmt_placeholder("REF#1#2"));
	assert_false(cl_stmt_placeholder("A{B}C"));
	assert_false(cl_stmt_placeholder("$100"));
}

/* The same through the camt reader: a booking date with an offset is
 * read, a placeholder id and an impossible date are errors naming the
 * element. */
static const char camt_fmt[] =
	"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.054.001.08\">\n"           /* 1 */
	"<BkToCstmrDbtCdtNtfctn><GrpHdr><MsgId>%s</MsgId><CreDtTm>%s</CreDtTm></GrpHdr>\n" /* 2 */
	"<Ntfctn><Id>NTF-1</Id><Acct><Id><Othr><Id>12345678</Id></Othr></Id></Acct>\n"    /* 3 */
	"<Ntry><Amt Ccy=\"EUR\">%s</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>"
	"<BookgDt><Dt>%s</Dt></BookgDt><ValDt><DtTm>%s</DtTm></ValDt></Ntry>\n"           /* 4 */
	"</Ntfctn></BkToCstmrDbtCdtNtfctn></Document>\n";

static void test_statement_values_camt(void **state)
{
	char d[2048];
	const struct cl_stmt_item *e;

	(void)state;
	snprintf(d, sizeof(d), camt_fmt, "N-1", "2017-04-01T08:00:00.5+02:00", ".34",
		 "2017-04-01+02:00", "2017-04-02T00:30:00-05:00");
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 0);
	e = stmt_nth(&run, CL_STMT_ENTRY, 0);
	assert_non_null(e);
	assert_int_equal(e->entry.amount_minor, 34);
	assert_string_equal(e->entry.booking_date, "2017-04-01+02:00");
	assert_string_equal(e->entry.value_date, "2017-04-02T00:30:00-05:00");

	snprintf(d, sizeof(d), camt_fmt, "[[$MsgId]]", "##YYYY##-04-01T08:00:00", "-1.00",
		 "2017-02-29", "2017-04-02");
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 5);
	assert_string_equal(run.err[0].message,
			    "\"[[$MsgId]]\" looks like an unfilled template placeholder: expected "
			    "the identifier itself");
	assert_string_equal(run.err[0].code, "placeholder");
	assert_string_equal(run.err[0].path, "/Document/BkToCstmrDbtCdtNtfctn/GrpHdr/MsgId");
	assert_int_equal(run.err[0].line, 2);
	assert_string_equal(run.err[1].code, "datetime_invalid");
	assert_string_equal(run.err[1].message,
			    "\"##YYYY##-04-01T08:00:00\" is not an xs:dateTime "
			    "(YYYY-MM-DDThh:mm:ss, optional fraction and time zone Z or +hh:mm) "
			    "(it looks like an unfilled template placeholder?)");
	assert_string_equal(run.err[2].code, "amount");
	assert_string_equal(run.err[3].code, "date_invalid");
	assert_string_equal(run.err[3].path,
			    "/Document/BkToCstmrDbtCdtNtfctn/Ntfctn/Ntry/BookgDt/Dt");
	assert_string_equal(run.err[4].code, "datetime_invalid");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statement_values_decimal_forms),
		cmocka_unit_test(test_statement_values_dates),
		cmocka_unit_test(test_statement_values_placeholders),
		cmocka_unit_test(test_statement_values_camt),
	};

	return cmocka_run_group_tests_name("statement_values", tests, NULL, NULL);
}
