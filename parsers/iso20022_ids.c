/* iso20022_ids.c - identifier checks: IBAN mod 97, BIC shape, UUIDv4,
 * ISO dates.  Pure functions over NUL-terminated ASCII. */
#include "parsers/iso20022_internal.h"

#include <string.h>

#include "base/banking_days.h"

static bool is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

void cl_iso_trim(const char **s, size_t *n)
{
	while (*n > 0 && is_blank((*s)[*n - 1]))
		(*n)--;
	while (*n > 0 && is_blank(**s)) {
		(*s)++;
		(*n)--;
	}
}

/* The parser does not know --no-mask, so it always masks. */
const char *cl_iso_mask_account(const char *acct, size_t n, char *buf, size_t cap)
{
	if (n >= cap)
		n = cap - 1;
	for (size_t i = 0; i < n; i++)
		buf[i] = i + 4 < n ? '*' : acct[i];
	buf[n] = '\0';
	return buf;
}

bool cl_iso_iban_shape(const char *s)
{
	size_t n = strlen(s);

	if (n < 15 || n > 34 || !is_upper(s[0]) || !is_upper(s[1]) || !is_digit(s[2]) ||
	    !is_digit(s[3]))
		return false;
	for (size_t i = 4; i < n; i++)
		if (!is_upper(s[i]) && !is_digit(s[i]))
			return false;
	return true;
}

/* ISO 13616: move the first four characters to the end, letters become
 * 10..35, and the number mod 97 must be 1.  Computed digit by digit. */
bool cl_iso_iban_check(const char *s)
{
	size_t n = strlen(s);
	uint64_t rem = 0;

	/* the BBAN, then the country and check digits; digits are folded in
	 * until the number nears 10^11, then reduced */
	for (size_t k = 4; k < n + 4; k++) {
		char c = s[k < n ? k : k - n];

		if (is_digit(c))
			rem = rem * 10 + (unsigned)(c - '0');
		else
			rem = rem * 100 + (unsigned)(c - 'A' + 10);
		if (rem >= 100000000000ULL)
			rem %= 97;
	}
	return rem % 97 == 1;
}

bool cl_iso_bic_shape(const char *s)
{
	size_t n = strlen(s);

	if (n != 8 && n != 11)
		return false;
	for (size_t i = 0; i < n; i++) {
		bool ok = (i >= 4 && i < 6) ? is_upper(s[i]) : (is_upper(s[i]) || is_digit(s[i]));

		if (!ok)
			return false;
	}
	return true;
}

bool cl_iso_uuid4(const char *s, char out[37])
{
	/* lowercase hex digit for each byte, 0 for anything else */
	static const char hex[256] = {
		['0'] = '0', ['1'] = '1', ['2'] = '2', ['3'] = '3', ['4'] = '4', ['5'] = '5',
		['6'] = '6', ['7'] = '7', ['8'] = '8', ['9'] = '9', ['a'] = 'a', ['b'] = 'b',
		['c'] = 'c', ['d'] = 'd', ['e'] = 'e', ['f'] = 'f', ['A'] = 'a', ['B'] = 'b',
		['C'] = 'c', ['D'] = 'd', ['E'] = 'e', ['F'] = 'f',
	};

	for (int i = 0; i < 36; i++) {
		unsigned char c = (unsigned char)s[i];

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (c != '-')
				return false;
			out[i] = '-';
		} else if (!(out[i] = hex[c])) {
			return false; /* also the NUL of a short string */
		}
	}
	if (s[36] != '\0')
		return false;
	out[36] = '\0';
	/* version nibble 4, RFC 4122 variant 10xx */
	return out[14] == '4' && (out[19] == '8' || out[19] == '9' || out[19] == 'a' ||
				  out[19] == 'b');
}

static int num(const char *s, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (!is_digit(s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* Zone suffix: "", "Z" or "+hh:mm" / "-hh:mm". */
static bool zone(const char *s)
{
	if (*s == '\0' || (s[0] == 'Z' && s[1] == '\0'))
		return true;
	if ((s[0] == '+' || s[0] == '-') && strlen(s) == 6 && s[3] == ':') {
		int h = num(s + 1, 2), m = num(s + 4, 2);

		return h >= 0 && h <= 14 && m >= 0 && m <= 59;
	}
	return false;
}

static bool date_part(const char *s)
{
	int y = num(s, 4);

	if (y < 1 || s[4] != '-' || s[7] != '-')
		return false;
	return cl_date_valid(y, num(s + 5, 2), num(s + 8, 2));
}

bool cl_iso_date(const char *s)
{
	return strlen(s) >= 10 && date_part(s) && zone(s + 10);
}

bool cl_iso_datetime(const char *s)
{
	const char *t;
	int h, mi, se;

	if (strlen(s) < 19 || !date_part(s) || s[10] != 'T' || s[13] != ':' || s[16] != ':')
		return false;
	h = num(s + 11, 2);
	mi = num(s + 14, 2);
	se = num(s + 17, 2);
	if (h < 0 || h > 24 || mi < 0 || mi > 59 || se < 0 || se > 60)
		return false;
	t = s + 19;
	if (*t == '.') {
		t++;
		if (!is_digit(*t))
			return false;
		while (is_digit(*t))
			t++;
	}
	return zone(t);
}

bool cl_iso_ccy_shape(const char *s)
{
	return is_upper(s[0]) && is_upper(s[1]) && is_upper(s[2]) && s[3] == '\0';
}

