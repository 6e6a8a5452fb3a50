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

#include "base/banking_days.h"
#include "rules/trace_ranges.h"

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

static long day(const char *ymd)
{
	long d = -1;

	assert_true(cl_date_days(ymd, &d));
	return d;
}

static void test_dates(void **state)
{
	long d;

	(void)state;
	assert_int_equal(day("1970-01-01"), 0);
	assert_int_equal(day("2026-03-02"), 20514);
	assert_int_equal(day("2024-02-29") + 1, day("2024-03-01"));
	assert_int_equal(day("2000-03-01") - day("2000-02-28"), 2);
	assert_false(cl_date_days("2026-02-29", &d));
	assert_false(cl_date_days("2100-02-29", &d));
	assert_false(cl_date_days("2026-13-01", &d));
	assert_false(cl_date_days("2026-3-02", &d));
	assert_false(cl_date_days("", &d));
	for (d = -1000; d < 100000; d += 37) {
		char out[11];
		long back = -1;

		cl_days_date(d, out);
		assert_true(cl_date_days(out, &back));
		assert_int_equal(back, d);
	}
}

/* The same answers as the database's clearing_banking_days (sql/003). */
static void test_banking_days(void **state)
{
	(void)state;
	/* 2026-03-02 is a Monday */
	assert_int_equal(cl_banking_days(day("2026-03-02"), day("2026-03-02")), 0);
	assert_int_equal(cl_banking_days(day("2026-03-02"), day("2026-03-03")), 1);
	assert_int_equal(cl_banking_days(day("2026-03-03"), day("2026-03-02")), 1);
	assert_int_equal(cl_banking_days(day("2026-03-02"), day("2026-03-09")), 5);
	assert_int_equal(cl_banking_days(day("2026-03-02"), day("2026-03-10")), 6);
	assert_int_equal(cl_banking_days(day("2026-03-06"), day("2026-03-09")), 1); /* Fri-Mon */
	assert_int_equal(cl_banking_days(day("2026-03-07"), day("2026-03-08")), 0); /* Sat-Sun */
	assert_int_equal(cl_banking_days(day("2026-03-05"), day("2026-03-08")), 1); /* Thu-Sun */
	assert_int_equal(cl_banking_days(day("1969-12-26"), day("1970-01-05")), 6);
	/* a year has 260 or 261 weekdays */
	assert_int_equal(cl_banking_days(day("2025-12-31"), day("2026-12-31")), 261);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ascending_file_is_not_suspect),
		cmocka_unit_test(test_repeated_trace_of_one_originator_is_suspect),
		cmocka_unit_test(test_nested_range_after_a_wide_one_is_suspect),
		cmocka_unit_test(test_other_originators_and_kinds_do_not_count),
		cmocka_unit_test(test_too_many_runs_answers_maybe),
		cmocka_unit_test(test_dates),
		cmocka_unit_test(test_banking_days),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
