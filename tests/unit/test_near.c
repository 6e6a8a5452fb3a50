/* test_near.c - the ACH near-duplicate rule (rules/near.h): which records
 * it is about, their identities, the plain return codes, the date window
 * and the in-file message.  The SQL side is held to the same answers by
 * tests/db/test_near_vectors.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "rules/near.h"

static struct cl_record entry(const char *account, int64_t amount)
{
	struct cl_record r;

	cl_record_clear(&r);
	r.kind = "ach.entry";
	snprintf(r.company_id, sizeof(r.company_id), "1100000000");
	snprintf(r.trace_number, sizeof(r.trace_number), "121042880000001");
	snprintf(r.receiving_account, sizeof(r.receiving_account), "%s", account);
	snprintf(r.receiving_dfi, sizeof(r.receiving_dfi), "121042882");
	r.amount_minor = amount;
	return r;
}

static struct cl_record ret(const char *kind, const char *code)
{
	struct cl_record r;

	cl_record_clear(&r);
	r.kind = kind;
	snprintf(r.original_trace, sizeof(r.original_trace), "099912340000015");
	snprintf(r.reason_code, sizeof(r.reason_code), "%s", code);
	snprintf(r.original_rdfi, sizeof(r.original_rdfi), "09101298");
	r.amount_minor = 10000;
	return r;
}

static const char *key(const struct cl_record *r)
{
	static char out[CL_NEAR_KEY_MAX];

	if (!cl_near_key(r, out, sizeof(out)))
		return "(none)";
	return out;
}

static void test_near_applies_to_ach_records_only(void **state)
{
	(void)state;
	assert_true(cl_near_applies("ach.entry"));
	assert_true(cl_near_applies("ach.return"));
	assert_true(cl_near_applies("ach.noc"));
	assert_false(cl_near_applies("pacs.008"));
	assert_false(cl_near_applies("pain.001"));
	assert_false(cl_near_applies("ach."));
}

static void test_near_entry_identity_ignores_justification(void **state)
{
	struct cl_record a = entry("12345678", 100), b = entry("00000000012345678", 100),
			 c = entry("        12345678", 100), d = entry("1234567", 100);
	char ka[CL_NEAR_KEY_MAX];

	(void)state;
	assert_string_equal(key(&a), "E|1100000000|121042880000001|12345678|121042882|100");
	snprintf(ka, sizeof(ka), "%s", key(&a));
	assert_string_equal(key(&b), ka);
	assert_string_equal(key(&c), ka);
	assert_string_not_equal(key(&d), ka);
	b.amount_minor = 101;
	assert_string_not_equal(key(&b), ka);
}

static void test_near_identity_escapes_separators(void **state)
{
	struct cl_record a = entry("12|34", 5), b = entry("12\\|34", 5);

	(void)state;
	assert_string_equal(key(&a), "E|1100000000|121042880000001|12\\|34|121042882|5");
	assert_string_equal(key(&b), "E|1100000000|121042880000001|12\\\\\\|34|121042882|5");
}

static void test_near_return_codes_classes(void **state)
{
	struct cl_record r01 = ret("ach.return", "R01"), r03 = ret("ach.return", "R03"),
			 r61 = ret("ach.return", "R61"), noc = ret("ach.noc", "C01");

	(void)state;
	assert_string_equal(key(&r01), "R|099912340000015|plain|09101298|10000");
	assert_string_equal(key(&r03), "R|099912340000015|plain|09101298|10000");
	assert_string_equal(key(&r61), "R|099912340000015|R61|09101298|10000");
	assert_string_equal(key(&noc), "N|099912340000015|C01|09101298|10000");
	assert_true(cl_near_plain_return("R01"));
	assert_true(cl_near_plain_return("R60"));
	assert_true(cl_near_plain_return("R78"));
	assert_true(cl_near_plain_return("R610"));
	assert_true(cl_near_plain_return(""));
	assert_false(cl_near_plain_return("R61"));
	assert_false(cl_near_plain_return("R69"));
	assert_false(cl_near_plain_return("R70"));
	assert_false(cl_near_plain_return("R77"));
}

static void test_near_other_kinds_have_no_identity(void **state)
{
	struct cl_record r = entry("12345678", 1);
	char out[8] = "x";

	(void)state;
	r.kind = "pacs.008";
	assert_false(cl_near_key(&r, out, sizeof(out)));
	assert_string_equal(out, "");
}

static void test_near_dates_window(void **state)
{
	(void)state;
	assert_true(cl_near_dates("2026-03-02", "2026-03-09"));  /* Mon-Mon: 5 */
	assert_false(cl_near_dates("2026-03-02", "2026-03-10")); /* 6 */
	assert_true(cl_near_dates("2026-03-06", "2026-03-15"));  /* Fri-Sun: 5 */
	assert_false(cl_near_dates("2026-03-06", "2026-03-16")); /* Fri-Mon: 6 */
	assert_true(cl_near_dates("2026-03-09", "2026-03-02"));  /* either order */
	assert_true(cl_near_dates("", "2026-03-02"));            /* no date: every copy */
	assert_true(cl_near_dates("2026-03-02", ""));
	assert_true(cl_near_dates("", ""));
	assert_false(cl_near_dates("2026-03-02", "2026-04-01"));
}

static void test_near_in_file_message(void **state)
{
	struct cl_error e;

	(void)state;
	cl_near_in_file_error(&e, "f.ach", "ach.entry", 3, "2026-03-02", 8, "2026-03-03");
	assert_string_equal(e.code, "near_duplicate_in_file");
	assert_int_equal(e.line, 8);
	assert_int_equal(e.other_line, 3);
	assert_string_equal(e.message,
			    "the entries on lines 3 and 8 are one payment under two effective dates "
			    "(2026-03-02 and 2026-03-03: same originator, trace number, receiving "
			    "account, RDFI and amount): the file cannot be loaded, because it would be applied twice");
	cl_near_in_file_error(&e, "f.ach", "ach.return", 3, "2026-03-02", 7, "");
	assert_string_equal(e.message,
			    "the returns or NOCs on lines 3 and 7 are one return twice (effective "
			    "2026-03-02 and (none): same original trace, original RDFI and amount): "
			    "the file cannot be loaded, because it would be applied twice");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_near_applies_to_ach_records_only),
		cmocka_unit_test(test_near_entry_identity_ignores_justification),
		cmocka_unit_test(test_near_identity_escapes_separators),
		cmocka_unit_test(test_near_return_codes_classes),
		cmocka_unit_test(test_near_other_kinds_have_no_identity),
		cmocka_unit_test(test_near_dates_window),
		cmocka_unit_test(test_near_in_file_message),
	};

	return cmocka_run_group_tests_name("near", tests, NULL, NULL);
}
