/* test_trace_ranges.c - the cheap test that decides whether an ACH file
 * may hold a re-dated copy of one of its own entries (loader/trace_ranges.h):
 * it must never say "no" for a file that has one, and should say "no" for
 * ordinary files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "trace_ranges.h"

static void add(struct cl_trace_ranges *t, const char *kind, const char *company,
		const char *date, unsigned long long trace)
{
	struct cl_record r;

	memset(&r, 0, sizeof(r));
	r.kind = kind;
	snprintf(r.company_id, sizeof(r.company_id), "%s", company);
	snprintf(r.value_date, sizeof(r.value_date), "%s", date);
	snprintf(r.trace_number, sizeof(r.trace_number), "%015llu", trace);
	cl_trace_ranges_add(t, &r);
}

static void test_ascending_file_is_not_suspect(void **state)
{
	struct cl_trace_ranges t = { 0 };
	unsigned long long i;

	(void)state;
	/* two originators, two dates each, traces ascending across batches */
	for (i = 1; i <= 100; i++)
		add(&t, "ach.entry", i <= 50 ? "1111111111" : "2222222222",
		    i % 50 < 25 ? "2026-03-02" : "2026-03-03", 121042880000000ULL + i);
	assert_false(cl_trace_ranges_maybe_near(&t));
	cl_trace_ranges_free(&t);
}

static void test_repeated_trace_of_one_originator_is_suspect(void **state)
{
	struct cl_trace_ranges t = { 0 };

	(void)state;
	add(&t, "ach.entry", "1100000000", "2026-03-02", 121042880009901ULL);
	add(&t, "ach.entry", "1100000000", "2026-03-02", 121042880009903ULL);
	add(&t, "ach.entry", "1100000000", "2026-03-03", 121042880009901ULL);
	add(&t, "ach.entry", "1100000000", "2026-03-03", 121042880009903ULL);
	assert_true(cl_trace_ranges_maybe_near(&t));
	cl_trace_ranges_free(&t);
}

static void test_nested_range_after_a_wide_one_is_suspect(void **state)
{
	struct cl_trace_ranges t = { 0 };

	(void)state;
	/* [1, 100], [200, 300], then [50, 60]: overlaps the first, not the
	   one just before it in sorted order */
	add(&t, "ach.entry", "1", "2026-03-02", 1);
	add(&t, "ach.entry", "1", "2026-03-02", 100);
	add(&t, "ach.entry", "1", "2026-03-04", 200);
	add(&t, "ach.entry", "1", "2026-03-04", 300);
	add(&t, "ach.entry", "1", "2026-03-03", 50);
	add(&t, "ach.entry", "1", "2026-03-03", 60);
	assert_true(cl_trace_ranges_maybe_near(&t));
	cl_trace_ranges_free(&t);
}

static void test_other_originators_and_kinds_do_not_count(void **state)
{
	struct cl_trace_ranges t = { 0 };

	(void)state;
	add(&t, "ach.entry", "1", "2026-03-02", 5);
	add(&t, "ach.entry", "2", "2026-03-03", 5); /* same trace, other originator */
	add(&t, "ach.return", "1", "2026-03-03", 5); /* not an entry */
	assert_false(cl_trace_ranges_maybe_near(&t));
	cl_trace_ranges_free(&t);
}

static void test_too_many_runs_answers_maybe(void **state)
{
	struct cl_trace_ranges t = { 0 };
	unsigned long long i;

	(void)state;
	/* descending traces: every entry starts a run */
	for (i = CL_TRACE_RANGES_MAX + 10; i > 0; i--)
		add(&t, "ach.entry", "1", "2026-03-02", i);
	assert_true(t.overflow);
	assert_true(cl_trace_ranges_maybe_near(&t));
	cl_trace_ranges_reset(&t);
	assert_false(cl_trace_ranges_maybe_near(&t));
	cl_trace_ranges_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ascending_file_is_not_suspect),
		cmocka_unit_test(test_repeated_trace_of_one_originator_is_suspect),
		cmocka_unit_test(test_nested_range_after_a_wide_one_is_suspect),
		cmocka_unit_test(test_other_originators_and_kinds_do_not_count),
		cmocka_unit_test(test_too_many_runs_answers_maybe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
