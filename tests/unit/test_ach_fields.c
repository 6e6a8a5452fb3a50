/* test_ach_fields.c - the NACHA field primitives (parsers/ach_internal.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/ach_internal.h"

static void test_ach_fields_num_digits(void **state)
{
	static const char *const ok[] = {"0", "7", "00000000", "99999999", "12345678",
					 "000000000000001", "999999999999999", "0000012345",
					 "18446744073709551615"};
	uint64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		unsigned long long want = strtoull(ok[i], NULL, 10);

		assert_true(ach_num(ok[i], strlen(ok[i]), &v));
		assert_int_equal(v, want);
	}
}

static void test_ach_fields_num_rejects_every_non_digit(void **state)
{
	char buf[16];
	uint64_t v;

	(void)state;
	/* every byte value at every position of a 15-digit field (a trace):
	 * only '0'..'9' parse, never as 0 */
	for (int pos = 0; pos < 15; pos++) {
		for (int c = 0; c < 256; c++) {
			memcpy(buf, "123456789012345", 15);
			buf[pos] = (char)c;
			if (c >= '0' && c <= '9') {
				assert_true(ach_num(buf, 15, &v));
			} else {
				assert_false(ach_num(buf, 15, &v));
				assert_int_equal(v, 0);
			}
		}
	}
}

static void test_ach_fields_dates(void **state)
{
	char out[11];

	(void)state;
	assert_true(ach_date("260302", out));
	assert_string_equal(out, "2026-03-02");
	assert_true(ach_date("991231", out));
	assert_string_equal(out, "1999-12-31");
	assert_true(ach_date("240229", out)); /* leap year */
	assert_false(ach_date("230229", out));
	assert_false(ach_date("000000", out));
	assert_false(ach_date("261301", out));
	assert_false(ach_date("260431", out));
	assert_false(ach_date("16    ", out));
	assert_string_equal(out, "");
}

static void test_ach_fields_check_digit(void **state)
{
	(void)state;
	assert_int_equal(ach_check_digit("23138010"), 4);
	assert_int_equal(ach_check_digit("12104288"), 2);
	assert_int_equal(ach_check_digit("09100001"), 9);
	assert_int_equal(ach_check_digit("00000000"), 0);
}

static void test_ach_fields_show_quotes_bytes(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(ach_show(buf, sizeof(buf), "AB\"C\0\xff", 6), "AB\\x22C\\x00\\xFF");
	assert_string_equal(ach_sec_name(ach_sec_lookup("IAT")), "IAT");
	assert_int_equal(ach_sec_lookup("ppd"), SEC_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ach_fields_num_digits),
		cmocka_unit_test(test_ach_fields_num_rejects_every_non_digit),
		cmocka_unit_test(test_ach_fields_dates),
		cmocka_unit_test(test_ach_fields_check_digit),
		cmocka_unit_test(test_ach_fields_show_quotes_bytes),
	};

	return cmocka_run_group_tests_name("ach_fields", tests, NULL, NULL);
}
