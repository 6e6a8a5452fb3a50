/* xsd_date.c - the calendar date of an xs:date or xs:dateTime
 * (base/xsd_date.h). */
#include "base/xsd_date.h"

#include <string.h>

/* n digits at s as a number; -1 when they are not all digits. */
static int digits(const char *s, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* Z, +hh:mm or -hh:mm (up to 14:00) from s to its end, or nothing. */
static bool zone(const char *s)
{
	int hh, mm;

	if (!*s)
		return true;
	if (s[0] == 'Z')
		return !s[1];
	if ((s[0] != '+' && s[0] != '-') || strlen(s) != 6 || s[3] != ':')
		return false;
	hh = digits(s + 1, 2);
	mm = digits(s + 4, 2);
	return hh >= 0 && mm >= 0 && mm <= 59 && (hh < 14 || (hh == 14 && mm == 0));
}

bool cl_xsd_date(const char *text, char out[11])
{
	const char *s = text, *end = text + strlen(text);
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	char buf[CL_XSD_DATE_MAX];
	int y, m, d;

	out[0] = '\0';
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n'))
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
		end--;
	if ((size_t)(end - s) >= sizeof(buf) || end - s < 10)
		return false;
	memcpy(buf, s, (size_t)(end - s));
	buf[end - s] = '\0';
	y = digits(buf, 4);
	m = digits(buf + 5, 2);
	d = digits(buf + 8, 2);
	if (y < 1 || buf[4] != '-' || buf[7] != '-' || m < 1 || m > 12 || d < 1 ||
	    d > mdays[m - 1] || (m == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400))))
		return false;
	if (buf[10] == 'T') {
		/* hh:mm:ss[.s+], 24:00:00 the end of the day */
		const char *t = buf + 11;
		int hh = digits(t, 2), mi = digits(t + 3, 2), ss = -1;
		bool zero_frac = true;

		if (strlen(t) < 8 || t[2] != ':' || t[5] != ':')
			return false;
		ss = digits(t + 6, 2);
		if (hh < 0 || hh > 24 || mi < 0 || mi > 59 || ss < 0 || ss > 59)
			return false;
		t += 8;
		if (*t == '.') {
			if (!(t[1] >= '0' && t[1] <= '9'))
				return false;
			for (t++; *t >= '0' && *t <= '9'; t++)
				zero_frac = zero_frac && *t == '0';
		}
		if (hh == 24 && (mi || ss || !zero_frac))
			return false;
		if (!zone(t))
			return false;
	} else if (!zone(buf + 10)) {
		return false;
	}
	memcpy(out, buf, 10);
	out[10] = '\0';
	return true;
}
