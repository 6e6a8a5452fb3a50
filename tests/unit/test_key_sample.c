/* test_key_sample.c - the sample of a file's keys (loader/key_sample.h):
 * evenly spaced, the last key always in it, never more than
 * CL_KEY_SAMPLE_MAX + 1 keys whatever the file's size. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "loader/key_sample.h"

static void add_n(struct cl_key_sample *s, unsigned long n)
{
	char key[32];

	for (unsigned long i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "k%lu", i);
		cl_key_sample_add(s, "ach.entry", key, i + 1);
	}
}

/* the elements of a text[] literal without quotes: {"k0","k512"} */
static unsigned long count_elements(const char *lit)
{
	unsigned long n = 0;

	for (const char *p = lit; *p; p++)
		n += *p == ',';
	return strcmp(lit, "{}") == 0 ? 0 : n + 1;
}

static void test_small_file_is_sampled_whole(void **state)
{
	struct cl_key_sample s = { 0 };
	struct cl_text_array kinds = { 0 }, keys = { 0 }, ordinals = { 0 };

	(void)state;
	cl_key_sample_reset(&s);
	add_n(&s, 3);
	cl_key_sample_arrays(&s, &kinds, &keys);
	cl_key_sample_ordinals(&s, &ordinals);
	/* every key, then the last again; the ordinals theirs (Citus reads
	   the sampled records in the stage by them) */
	assert_string_equal(cl_text_array_text(&ordinals), "{\"1\",\"2\",\"3\",\"3\"}");
	assert_string_equal(cl_text_array_text(&keys), "{\"k0\",\"k1\",\"k2\",\"k2\"}");
	assert_string_equal(cl_text_array_text(&kinds),
			    "{\"ach.entry\",\"ach.entry\",\"ach.entry\",\"ach.entry\"}");
	cl_text_array_free(&kinds);
	cl_text_array_free(&keys);
	cl_text_array_free(&ordinals);
	cl_key_sample_free(&s);
}

static void test_large_file_is_sampled_evenly_and_bounded(void **state)
{
	struct cl_key_sample s = { 0 };
	char want[32];

	(void)state;
	cl_key_sample_reset(&s);
	add_n(&s, 1000000);
	/* 1,000,000 keys: stride 512 (2048 * 512 > 1e6 > 2048 * 256) */
	assert_int_equal(s.stride, 512);
	assert_int_equal(s.n, (1000000 + 511) / 512);
	assert_true(s.n <= CL_KEY_SAMPLE_MAX);
	for (size_t j = 0; j < s.n; j++) {
		snprintf(want, sizeof(want), "k%zu", j * 512);
		assert_string_equal(s.keys[j].key, want);
		assert_int_equal(s.keys[j].ordinal, j * 512 + 1);
	}
	assert_string_equal(s.last.key, "k999999");
	cl_key_sample_free(&s);
}

static void test_reset_forgets_the_previous_read(void **state)
{
	struct cl_key_sample s = { 0 };
	struct cl_text_array kinds = { 0 }, keys = { 0 };

	(void)state;
	cl_key_sample_reset(&s);
	add_n(&s, 5000);
	cl_key_sample_reset(&s);
	cl_key_sample_arrays(&s, &kinds, &keys);
	assert_string_equal(cl_text_array_text(&keys), "{}");
	add_n(&s, 2);
	cl_text_array_free(&keys);
	cl_text_array_free(&kinds);
	cl_key_sample_arrays(&s, &kinds, &keys);
	assert_int_equal(count_elements(cl_text_array_text(&keys)), 3);
	assert_int_equal(count_elements(cl_text_array_text(&kinds)), 3);
	cl_text_array_free(&kinds);
	cl_text_array_free(&keys);
	cl_key_sample_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_file_is_sampled_whole),
		cmocka_unit_test(test_large_file_is_sampled_evenly_and_bounded),
		cmocka_unit_test(test_reset_forgets_the_previous_read),
	};

	return cmocka_run_group_tests_name("key_sample", tests, NULL, NULL);
}
