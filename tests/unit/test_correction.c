/* test_correction.c - the natural key of a correction (rules/correction.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "rules/correction.h"

static void test_correction_key_numbers_from_one(void **state)
{
	char out[64];

	(void)state;
	assert_true(cl_correction_key("1100000000|121042880000010|2026-03-02", 1, out, sizeof(out)));
	assert_string_equal(out, "1100000000|121042880000010|2026-03-02#corr1");
	assert_true(cl_correction_key("k", 12, out, sizeof(out)));
	assert_string_equal(out, "k#corr12");
}

static void test_correction_key_refuses_what_does_not_fit(void **state)
{
	char out[10];

	(void)state;
	assert_false(cl_correction_key("abcd", 1, out, sizeof(out))); /* "abcd#corr1": 10 + NUL */
	assert_string_equal(out, "");
	assert_true(cl_correction_key("abc", 1, out, sizeof(out)));
	assert_string_equal(out, "abc#corr1");
	assert_false(cl_correction_key("a", 0, out, sizeof(out)));
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_correction_key_numbers_from_one),
		cmocka_unit_test(test_correction_key_refuses_what_does_not_fit),
	};

	return cmocka_run_group_tests_name("correction", tests, NULL, NULL);
}
