/* test_cli.c - JSON and CSV writers, account masking, number parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mask.h"
#include "cmd/cli.h"
#include "cmd/options.h"

/* Run fn(f) against a memory stream and return what it wrote (malloc'd). */
static char *capture(void (*fn)(FILE *f, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, arg);
	fclose(f);
	return buf;
}

static void write_escapes(FILE *f, const void *arg)
{
	struct cl_json j;

	(void)arg;
	cl_json_begin(&j, f, "t");
	cl_json_str(&j, "s", "q\"b\\t\tn\nc\x01u\xc3\xa9");
	cl_json_str(&j, "empty", "");
	cl_json_str(&j, "none", NULL);
	cl_json_int(&j, "neg", -42);
	cl_json_uint(&j, "big", 18446744073709551615ULL);
	cl_json_bool(&j, "b", true);
	cl_json_end(&j);
}

static void test_json_escapes_control_quote_backslash_and_keeps_utf8(void **state)
{
	char *out = capture(write_escapes, NULL);

	(void)state;
	assert_string_equal(out, "{\"type\":\"t\",\"format_version\":1,\"s\":\"q\\\"b\\\\t\\tn\\nc\\u0001u\xc3\xa9\",\"empty\":null,"
				 "\"none\":null,\"neg\":-42,\"big\":18446744073709551615,\"b\":true}\n");
	free(out);
}

static void write_bad_utf8(FILE *f, const void *arg)
{
	struct cl_json j;

	(void)arg;
	cl_json_begin(&j, f, "t");
	cl_json_str(&j, "s", "a\xff b\xc3\xa9 \xe2\x82 \xed\xa0\x80 \xf0\x9f\x98\x80 \x1b[31m");
	cl_json_end(&j);
}

static void test_json_replaces_invalid_utf8_and_escapes_esc(void **state)
{
	char *out = capture(write_bad_utf8, NULL);

	(void)state;
	assert_string_equal(out, "{\"type\":\"t\",\"format_version\":1,\"s\":\"a\\ufffd b\xc3\xa9 \\ufffd\\ufffd \\ufffd\\ufffd\\ufffd "
				 "\xf0\x9f\x98\x80 \\u001b[31m\"}\n");
	free(out);
}

/* One byte that needs care (or is plain at a class's edge) at every place
 * of strings of every length up to 24: the writer checks eight bytes at a
 * time and the last eight overlapping, so each place is read by another
 * part of it. */
struct one_byte {
	char s[32];
};

static void write_one_string(FILE *f, const void *arg)
{
	struct cl_json j;

	cl_json_begin(&j, f, "t");
	cl_json_str(&j, "s", ((const struct one_byte *)arg)->s);
	cl_json_end(&j);
}

static void test_json_escapes_a_byte_at_every_place(void **state)
{
	static const struct {
		char c;
		const char *as;
	} bytes[] = {
		{ '"', "\\\"" }, { '\\', "\\\\" }, { '\n', "\\n" }, { '\x01', "\\u0001" },
		{ '\x1f', "\\u001f" }, { '\xff', "\\ufffd" }, { '\x80', "\\ufffd" },
		{ ' ', " " }, { '!', "!" }, { '#', "#" }, { '[', "[" }, { ']', "]" },
		{ '~', "~" }, { '\x7f', "\x7f" },
	};

	(void)state;
	for (size_t b = 0; b < sizeof(bytes) / sizeof(bytes[0]); b++)
		for (size_t len = 1; len <= 24; len++)
			for (size_t at = 0; at < len; at++) {
				struct one_byte in;
				char want[128];
				char *out;

				memset(in.s, 'a', len);
				in.s[len] = '\0';
				in.s[at] = bytes[b].c;
				snprintf(want, sizeof(want),
					 "{\"type\":\"t\",\"format_version\":1,\"s\":\"%.*s%s%.*s\"}\n",
					 (int)at, "aaaaaaaaaaaaaaaaaaaaaaaa", bytes[b].as,
					 (int)(len - at - 1), "aaaaaaaaaaaaaaaaaaaaaaaa");
				out = capture(write_one_string, &in);
				assert_string_equal(out, want);
				free(out);
			}
}

static void test_mask_shows_only_last_four(void **state)
{
	char out[40];

	(void)state;
	cl_opt_no_mask = false;
	assert_string_equal(cl_out_account("123456789", out, sizeof(out)), "*****6789");
	assert_string_equal(cl_out_account("1234", out, sizeof(out)), "1234");
	assert_string_equal(cl_out_account("", out, sizeof(out)), "");
	cl_opt_no_mask = true;
	assert_string_equal(cl_out_account("123456789", out, sizeof(out)), "123456789");
	cl_opt_no_mask = false;
	/* the rule itself always masks */
	cl_mask_account("123456789", out, sizeof(out));
	assert_string_equal(out, "*****6789");
}

static void write_record_json(FILE *f, const void *arg)
{
	struct cl_json j;

	cl_json_record(&j, f, "x.ach", arg, false);
	cl_json_end(&j);
}

static void write_record_csv(FILE *f, const void *arg)
{
	cl_csv_record(f, "x.ach", arg);
}

static void test_record_json_masks_accounts_and_nulls_other_scheme(void **state)
{
	struct cl_record rec;
	char *out;

	(void)state;
	cl_record_clear(&rec);
	rec.scheme = "nacha";
	rec.kind = "ach.entry";
	rec.key_rule = "v1";
	strcpy(rec.natural_key, "1234567890|091000019000001|2026-11-30");
	strcpy(rec.receiving_account, "000123456789");
	strcpy(rec.individual_name, "JANE \"Q\" DOE");
	strcpy(rec.currency, "USD");
	rec.amount_minor = 12345;
	rec.direction = CL_DIR_CREDIT;
	out = capture(write_record_json, &rec);
	assert_non_null(strstr(out, "\"receiving_account\":\"********6789\""));
	assert_non_null(strstr(out, "\"individual_name\":\"JANE \\\"Q\\\" DOE\""));
	assert_non_null(strstr(out, "\"amount_minor\":12345,\"direction\":\"credit\""));
	/* one shape for every record: ISO fields are null for ACH */
	assert_non_null(strstr(out, "{\"type\":\"record\",\"format_version\":1,\"file\":\"x.ach\","));
	assert_non_null(strstr(out, "\"uetr\":null,"));
	assert_non_null(strstr(out, "\"addenda_text\":null,"));
	assert_null(strstr(out, "000123456789"));
	free(out);
	out = capture(write_record_csv, &rec);
	assert_non_null(strstr(out, "********6789"));
	assert_non_null(strstr(out, "\"JANE \"\"Q\"\" DOE\""));
	/* none: an empty field (NULL to \\copy), never a quoted "" */
	assert_non_null(strstr(out, ",,"));
	assert_null(strstr(out, ",\"\","));
	free(out);
}

static void write_nested(FILE *f, const void *arg)
{
	struct cl_json j;

	(void)arg;
	cl_json_begin(&j, f, "t");
	cl_json_array(&j, "a");
	cl_json_str(&j, NULL, "x");
	cl_json_str(&j, NULL, "y\xc2\x9b" "[2J");
	cl_json_array_end(&j);
	cl_json_array(&j, "o");
	cl_json_object(&j, NULL);
	cl_json_int(&j, "n", 1);
	cl_json_null(&j, "z");
	cl_json_object_end(&j);
	cl_json_array_end(&j);
	cl_json_array(&j, "e");
	cl_json_array_end(&j);
	cl_json_bool(&j, "b", false);
	cl_json_end(&j);
}

static void test_json_nests_and_escapes_c1(void **state)
{
	char *out = capture(write_nested, NULL);

	(void)state;
	assert_string_equal(out, "{\"type\":\"t\",\"format_version\":1,\"a\":[\"x\","
				 "\"y\\u009b[2J\"],\"o\":[{\"n\":1,\"z\":null}],\"e\":[],"
				 "\"b\":false}\n");
	free(out);
}

static void write_csv_nulls(FILE *f, const void *arg)
{
	const char *row[] = { "a", NULL, "", "b,c" };

	(void)arg;
	cl_csv_row(f, row, 4);
}

static void test_csv_null_empty_and_empty_string_quoted(void **state)
{
	char *out = capture(write_csv_nulls, NULL);

	(void)state;
	assert_string_equal(out, "\"a\",,\"\",\"b,c\"\n");
	free(out);
}

static void test_text_safe_escapes_c0_c1_del_and_bad_utf8(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(cl_text_safe("E2E\r1\xc2\x9b" "2J\x7f\xff\xc3\xa9\xc2\xa0", buf, sizeof(buf)),
			    "E2E\\x0D1\\xC2\\x9B2J\\x7F\\xFF\xc3\xa9\xc2\xa0");
	/* cut at a character, never inside an escape */
	assert_string_equal(cl_text_safe("ab\x01", buf, 6), "ab");
	assert_string_equal(cl_text_time("2026-12-01T15:04:05+00:00", buf, sizeof(buf)),
			    "2026-12-01 15:04:05+00");
	assert_string_equal(cl_text_time("2026-12-01T15:04:05+05:30", buf, sizeof(buf)),
			    "2026-12-01 15:04:05+05:30");
}

static void test_parse_ulong_checks_range_and_garbage(void **state)
{
	unsigned long v;

	(void)state;
	assert_true(cl_parse_ulong("42", 1, 100, &v));
	assert_int_equal(v, 42);
	assert_false(cl_parse_ulong("0", 1, 100, &v));
	assert_false(cl_parse_ulong("101", 1, 100, &v));
	assert_false(cl_parse_ulong("4x", 1, 100, &v));
	assert_false(cl_parse_ulong("", 1, 100, &v));
	assert_false(cl_parse_ulong("-1", 0, 100, &v));
	assert_false(cl_parse_ulong("99999999999999999999999", 0, 100, &v));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_escapes_control_quote_backslash_and_keeps_utf8),
		cmocka_unit_test(test_json_replaces_invalid_utf8_and_escapes_esc),
		cmocka_unit_test(test_json_escapes_a_byte_at_every_place),
		cmocka_unit_test(test_mask_shows_only_last_four),
		cmocka_unit_test(test_record_json_masks_accounts_and_nulls_other_scheme),
		cmocka_unit_test(test_json_nests_and_escapes_c1),
		cmocka_unit_test(test_csv_null_empty_and_empty_string_quoted),
		cmocka_unit_test(test_text_safe_escapes_c0_c1_del_and_bad_utf8),
		cmocka_unit_test(test_parse_ulong_checks_range_and_garbage),
	};

	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
