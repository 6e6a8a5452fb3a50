/* test_keyset.c - the natural-key set behind validate's duplicate check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>

#include "base/keyset.h"

static void test_keyset_repeat_gives_first_line(void **state)
{
	struct cl_keyset *s = cl_keyset_new();
	struct cl_keyset_entry *e;

	(void)state;
	assert_false(cl_keyset_add(s, "pain.001", "DE1|E2E-1", 20, &e));
	assert_int_equal(e->first_line, 20);
	assert_int_equal(e->tag, 0);
	e->tag = 7;
	assert_false(cl_keyset_add(s, "pain.001", "DE1|E2E-2", 28, &e));
	assert_true(cl_keyset_add(s, "pain.001", "DE1|E2E-1", 36, &e));
	assert_int_equal(e->first_line, 20);
	assert_int_equal(e->tag, 7);
	assert_int_equal(cl_keyset_count(s), 2);
	cl_keyset_free(s);
}

static void test_keyset_kind_is_part_of_the_key(void **state)
{
	struct cl_keyset *s = cl_keyset_new();
	struct cl_keyset_entry *e;

	(void)state;
	assert_false(cl_keyset_add(s, "pacs.008", "uetr|x|A|B", 1, &e));
	assert_false(cl_keyset_add(s, "pacs.009", "uetr|x|A|B", 2, &e));
	/* the kind ends at its NUL: "pacs.00" + "8uetr..." is another key */
	assert_false(cl_keyset_add(s, "pacs.00", "8uetr|x|A|B", 3, &e));
	assert_int_equal(cl_keyset_count(s), 3);
	cl_keyset_free(s);
}

static void test_keyset_keeps_every_key_when_it_grows(void **state)
{
	struct cl_keyset *s = cl_keyset_new();
	struct cl_keyset_entry *e;
	char key[32];
	unsigned long i;

	(void)state;
	for (i = 1; i <= 100000; i++) {
		snprintf(key, sizeof(key), "k%lu", i);
		assert_false(cl_keyset_add(s, "pain.001", key, i, &e));
		e->tag = (uint32_t)i;
	}
	assert_int_equal(cl_keyset_count(s), 100000);
	for (i = 1; i <= 100000; i += 997) {
		snprintf(key, sizeof(key), "k%lu", i);
		assert_true(cl_keyset_add(s, "pain.001", key, 999999, &e));
		assert_int_equal(e->first_line, i);
		assert_int_equal(e->tag, i);
	}
	assert_int_equal(cl_keyset_count(s), 100000);
	cl_keyset_free(s);
	cl_keyset_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keyset_repeat_gives_first_line),
		cmocka_unit_test(test_keyset_kind_is_part_of_the_key),
		cmocka_unit_test(test_keyset_keeps_every_key_when_it_grows),
	};

	return cmocka_run_group_tests_name("keyset", tests, NULL, NULL);
}
