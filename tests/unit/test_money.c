/* test_money.c - money for people: exponents, "USD 1,234.56", totals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "base/money.h"

static void test_money_exponents(void **state)
{
	(void)state;
	assert_int_equal(cl_money_exponent("USD"), 2);
	assert_int_equal(cl_money_exponent("JPY"), 0);
	assert_int_equal(cl_money_exponent("KWD"), 3);
	assert_int_equal(cl_money_exponent("CLF"), 4);
	assert_int_equal(cl_money_exponent("XAU"), -2);
	assert_int_equal(cl_money_exponent("ABC"), -1);
	assert_int_equal(cl_money_exponent("usd"), -1);
	assert_int_equal(cl_money_exponent("USDX"), -1);
	assert_int_equal(cl_money_exponent(""), -1);
	assert_int_equal(cl_money_exponent(NULL), -1);
}

static void test_money_format_groups_and_minor_units(void **state)
{
	char b[64];

	(void)state;
	assert_string_equal(cl_money_format(123456, "USD", b, sizeof(b)), "USD 1,234.56");
	assert_string_equal(cl_money_format(5, "USD", b, sizeof(b)), "USD 0.05");
	assert_string_equal(cl_money_format(-1, "EUR", b, sizeof(b)), "EUR -0.01");
	assert_string_equal(cl_money_format(0, "EUR", b, sizeof(b)), "EUR 0.00");
	assert_string_equal(cl_money_format(1234567, "JPY", b, sizeof(b)), "JPY 1,234,567");
	assert_string_equal(cl_money_format(1234567, "KWD", b, sizeof(b)), "KWD 1,234.567");
	assert_string_equal(cl_money_format(100000, "USD", b, sizeof(b)), "USD 1,000.00");
	assert_string_equal(cl_money_format(INT64_MIN, "USD", b, sizeof(b)),
			    "USD -92,233,720,368,547,758.08");
	assert_string_equal(cl_money_format(1234, "ABC", b, sizeof(b)), "ABC 1,234 (minor units)");
	assert_string_equal(cl_money_format(1234, "XAU", b, sizeof(b)), "XAU 1,234");
	assert_string_equal(cl_money_format(1234, NULL, b, sizeof(b)), "1,234");
	/* cut to fit, never past the buffer */
	assert_string_equal(cl_money_format(123456, "USD", b, 6), "USD 1");
	assert_string_equal(cl_money_text("12694", "USD", b, sizeof(b)), "USD 126.94");
	assert_string_equal(cl_money_text("12x", "USD", b, sizeof(b)), "12x");
}

static void test_money_totals_per_currency(void **state)
{
	struct cl_money_totals t = { 0 };
	char b[256];

	(void)state;
	assert_string_equal(cl_money_totals_text(&t, b, sizeof(b)), "");
	cl_money_add(&t, 12694, "USD");
	cl_money_add(&t, 1000, "EUR");
	cl_money_add(&t, 6, "USD");
	assert_string_equal(cl_money_totals_text(&t, b, sizeof(b)),
			    "USD 127.00 (2), EUR 10.00 (1)");
	cl_money_add(&t, INT64_MAX, "EUR");
	assert_string_equal(cl_money_totals_text(&t, b, sizeof(b)),
			    "USD 127.00 (2), EUR (too large to add up) (2)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_money_exponents),
		cmocka_unit_test(test_money_format_groups_and_minor_units),
		cmocka_unit_test(test_money_totals_per_currency),
	};

	return cmocka_run_group_tests_name("money", tests, NULL, NULL);
}
