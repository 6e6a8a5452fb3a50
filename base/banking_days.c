/* banking_days.c - dates to day numbers, Mondays to Fridays between them. */
#include "base/banking_days.h"

#include <stdio.h>
#include <string.h>

static bool digits(const char *s, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return true;
}

/* Days from 1970-01-01 to y-m-d: the count of days in the years and months
 * before it, with March as the first month so the leap day comes last. */
static long days_from_civil(long y, int m, int d)
{
	long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

void cl_days_date(long days, char out[11])
{
	long z = days + 719468, era, doe, yoe, y, doy, mp, d, m;

	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	y += m <= 2;
	{
		char buf[64]; /* room for any long; dates of years 0-9999 fill 10 */

		snprintf(buf, sizeof(buf), "%04ld-%02ld-%02ld", y, m, d);
		memcpy(out, buf, 10);
		out[10] = '\0';
	}
}

bool cl_date_valid(long y, long m, long d)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };

	if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1])
		return false;
	return m != 2 || d != 29 || (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0));
}

bool cl_date_days(const char *ymd, long *days)
{
	int y, m, d;

	if (strlen(ymd) != 10 || ymd[4] != '-' || ymd[7] != '-' || !digits(ymd, 4, &y) ||
	    !digits(ymd + 5, 2, &m) || !digits(ymd + 8, 2, &d) || !cl_date_valid(y, m, d))
		return false;
	*days = days_from_civil(y, m, d);
	return true;
}

/* 1970-01-01 was a Thursday: day n is a Saturday or Sunday when
 * (n + 3) mod 7 is 5 or 6 (Monday = 0). */
static long weekdays_upto(long n) /* Mondays to Fridays in [day 0, day n) */
{
	long weeks, rest, r;

	/* shift so the count starts on a Monday: day -3 was a Monday */
	n += 3;
	weeks = n >= 0 ? n / 7 : -((-n + 6) / 7);
	rest = n - weeks * 7;
	r = weeks * 5 + (rest > 5 ? 5 : rest);
	return r;
}

long cl_banking_days(long a, long b)
{
	long lo = a < b ? a : b, hi = a < b ? b : a;

	/* Mondays to Fridays d with lo < d <= hi */
	return weekdays_upto(hi + 1) - weekdays_upto(lo + 1);
}
