/* statement_values.c - the lexical checks of the values the statement
 * readers take from the bank's XML (statement_internal.h): amounts as the
 * schema's ActiveOrHistoricCurrencyAndAmount allows them, xs:date and
 * xs:dateTime in every lexical form, and template placeholders a bank's
 * generator left unfilled. */
#include "parsers/statement_internal.h"

#include <stdio.h>
#include <string.h>

/* ActiveOrHistoricCurrencyAndAmount_SimpleType is xs:decimal with
 * fractionDigits 5, totalDigits 18 and minInclusive 0.  xs:decimal's
 * lexical space is an optional sign, then digits with an optional point
 * and optional fraction digits, or a point and fraction digits ("12",
 * "12.", "12.5", ".5", "+0012.50"); the facets count significant digits
 * (leading zeros of the integer part and trailing zeros of the fraction are
 * none).  minInclusive 0 lets "-0" and "-0.00" through, nothing else
 * negative.  The text comes trimmed of XML whitespace. */
int cl_stmt_decimal_minor(const char *text, const char *ccy, int exponent, int64_t *out,
			  char *why, size_t cap)
{
	const char *s = text, *int_start, *frac_start = NULL;
	size_t int_n, frac_n = 0, sig_int, sig_frac;
	bool neg = false;
	int64_t v = 0;

	*out = 0;
	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	int_start = s;
	while (*s >= '0' && *s <= '9')
		s++;
	int_n = (size_t)(s - int_start);
	if (*s == '.') {
		frac_start = ++s;
		while (*s >= '0' && *s <= '9')
			s++;
		frac_n = (size_t)(s - frac_start);
	}
	if (*s || int_n + frac_n == 0) {
		snprintf(why, cap,
			 "amount \"%.40s\" is not a decimal number: expected digits with an optional "
			 "decimal point (xs:decimal: 12, 12.5, .5, 12.)",
			 text);
		return -1;
	}
	sig_int = int_n;
	while (sig_int > 0 && int_start[int_n - sig_int] == '0')
		sig_int--;
	sig_frac = frac_n;
	while (sig_frac > 0 && frac_start[sig_frac - 1] == '0')
		sig_frac--;
	if (neg && sig_int + sig_frac > 0) {
		snprintf(why, cap,
			 "amount \"%.40s\" is negative: expected zero or more (the schema's "
			 "minInclusive 0; CdtDbtInd says credit or debit)",
			 text);
		return -1;
	}
	if (sig_frac > 5) {
		snprintf(why, cap,
			 "amount \"%.40s\" has %zu decimals: expected at most 5 (the schema's "
			 "fractionDigits)",
			 text, sig_frac);
		return -1;
	}
	if (sig_int + sig_frac > 18) {
		snprintf(why, cap,
			 "amount \"%.40s\" has %zu digits: expected at most 18 (the schema's "
			 "totalDigits)",
			 text, sig_int + sig_frac);
		return -1;
	}
	if ((int)sig_frac > exponent) {
		snprintf(why, cap, "amount \"%.40s\" has more decimals than %.3s's %d", text, ccy,
			 exponent);
		return -1;
	}
	for (size_t i = int_n - sig_int; i < int_n; i++)
		v = v * 10 + (int_start[i] - '0');
	for (int i = 0; i < exponent; i++) {
		int d = (size_t)i < sig_frac ? frac_start[i] - '0' : 0;

		if (v > (INT64_MAX - d) / 10) {
			snprintf(why, cap, "amount \"%.40s\" is too large: expected at most 18 digits",
				 text);
			return -1;
		}
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

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

/* xs:date is YYYY-MM-DD and xs:dateTime YYYY-MM-DDThh:mm:ss with optional
 * fraction digits, each with an optional time zone: Z or +hh:mm / -hh:mm
 * (up to 14:00).  A real calendar date (leap years counted); 24:00:00 ends
 * a day.  Years other than four digits (xs allows more, and negative ones)
 * are no statement's and are refused. */
bool cl_stmt_xsd_date(const char *s, bool datetime, char *why, size_t cap)
{
	static const int mdays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	const char *want = datetime ? "an xs:dateTime (YYYY-MM-DDThh:mm:ss, optional fraction and "
				      "time zone Z or +hh:mm)"
				    : "an xs:date (YYYY-MM-DD, optional time zone Z or +hh:mm)";
	const char *t = s + 10;
	int y, m, d;

	if (strlen(s) < 10 || s[4] != '-' || s[7] != '-' || (y = digits(s, 4)) < 0 ||
	    (m = digits(s + 5, 2)) < 0 || (d = digits(s + 8, 2)) < 0)
		goto bad;
	if (y == 0 || m < 1 || m > 12 || d < 1 || d > mdays[m - 1] ||
	    (m == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)))) {
		snprintf(why, cap, "\"%.40s\" is not a calendar date: expected %s", s, want);
		return false;
	}
	if (datetime) {
		int hh, mi, ss;

		if (t[0] != 'T' || strlen(t) < 9 || t[3] != ':' || t[6] != ':' ||
		    (hh = digits(t + 1, 2)) < 0 || (mi = digits(t + 4, 2)) < 0 ||
		    (ss = digits(t + 7, 2)) < 0)
			goto bad;
		bool frac_zero = true;

		t += 9;
		if (*t == '.') {
			if (t[1] < '0' || t[1] > '9')
				goto bad;
			for (t++; *t >= '0' && *t <= '9'; t++)
				frac_zero &= *t == '0';
		}
		if (hh > 24 || mi > 59 || ss > 59 || (hh == 24 && (mi || ss || !frac_zero)))
			goto bad;
	}
	if (*t == 'Z' && !t[1])
		return true;
	if (*t == '+' || *t == '-') {
		int th = digits(t + 1, 2), tm = t[3] == ':' ? digits(t + 4, 2) : -1;

		if (strlen(t) == 6 && th >= 0 && tm >= 0 && tm <= 59 &&
		    (th < 14 || (th == 14 && tm == 0)))
			return true;
		goto bad;
	}
	if (!*t)
		return true;
bad:
	snprintf(why, cap, "\"%.40s\" is not %s", s, want);
	return false;
}

/* Markers of a template a generator did not fill: [[$CreDtTm]],
 * ##YYYY##, {{msgId}}, ${uuid}.  None is a character any ISO 20022 or
 * bank identifier uses in pairs like these. */
bool cl_stmt_placeholder(const char *s)
{
	const char *a;

	if (strstr(s, "[[") && strstr(s, "]]"))
		return true;
	if (strstr(s, "{{") && strstr(s, "}}"))
		return true;
	if ((a = strstr(s, "${")) && strchr(a, '}'))
		return true;
	if ((a = strstr(s, "##")) && strstr(a + 2, "##"))
		return true;
	return false;
}
