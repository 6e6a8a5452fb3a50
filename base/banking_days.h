/*
 * banking_days.h - the calendar: valid dates, and the arithmetic of the
 * ACH near-duplicate window,
 * the same rule as the database function clearing_banking_days (sql/003):
 * the banking days from a to b are the Mondays to Fridays d with
 * min(a, b) < d <= max(a, b).  Holidays are not known (clearing-load-keys(7)).
 */
#ifndef CL_BANKING_DAYS_H
#define CL_BANKING_DAYS_H

#include <stdbool.h>

/* Is y-m-d a day of the (proleptic Gregorian) calendar?  The one
 * calendar check: NACHA YYMMDD, ISO dates and CSV dates all use it. */
bool cl_date_valid(long y, long m, long d);

/* "YYYY-MM-DD" (proleptic Gregorian) to days since 1970-01-01; false when
 * the text is not such a date. */
bool cl_date_days(const char *ymd, long *days);

/* Day number back to "YYYY-MM-DD" in out[11]. */
void cl_days_date(long days, char out[11]);

/* Banking days between two day numbers (order does not matter). */
long cl_banking_days(long a, long b);

#endif
