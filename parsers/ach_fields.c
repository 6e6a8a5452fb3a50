/* ach_fields.c - NACHA field primitives: digits, blanks, dates, check digits. */
#include "parsers/ach_internal.h"

#include <stdio.h>
#include <string.h>

#include "base/banking_days.h"

#define D1(c) [c] = 1
const unsigned char ach_digit[256] = {
	D1('0'), D1('1'), D1('2'), D1('3'), D1('4'), D1('5'), D1('6'), D1('7'), D1('8'), D1('9'),
};

void ach_num_error(struct cl_ach *p, const struct ach_line *l, int a, int b, const char *what)
{
	char shown[96];
	size_t n = (size_t)(b - a + 1);
	int col = a;

	while (col <= b && ach_digit[(unsigned char)l->c[col - 1]])
		col++;
	ach_err(p, l->no, (unsigned long)col, "numeric",
		"%s (columns %d-%d) must be %zu digits, found \"%s\"", what, a, b, n,
		ach_show(shown, sizeof(shown), l->c + a - 1, n));
}

bool ach_field_blank(const struct ach_line *l, int a, int b)
{
	for (int i = a; i <= b; i++)
		if (l->c[i - 1] != ' ')
			return false;
	return true;
}

bool ach_date(const char *s, char out[11])
{
	uint64_t v;
	unsigned yy, mm, dd, year;

	out[0] = '\0';
	if (!ach_num(s, 6, &v))
		return false;
	yy = (unsigned)(v / 10000);
	mm = (unsigned)(v / 100 % 100);
	dd = (unsigned)(v % 100);
	/* NACHA dates have two-digit years: 70-99 are 1970-1999, 00-69 2000-2069 */
	year = yy >= 70 ? 1900 + yy : 2000 + yy;
	if (!cl_date_valid(year, mm, dd))
		return false;
	out[0] = (char)('0' + year / 1000);
	out[1] = (char)('0' + year / 100 % 10);
	out[2] = s[0];
	out[3] = s[1];
	out[4] = '-';
	out[5] = s[2];
	out[6] = s[3];
	out[7] = '-';
	out[8] = s[4];
	out[9] = s[5];
	out[10] = '\0';
	return true;
}

void ach_fmt_u64(char *dst, uint64_t v, int width)
{
	for (int i = width - 1; i >= 0; i--) {
		dst[i] = (char)('0' + v % 10);
		v /= 10;
	}
	dst[width] = '\0';
}

const char *ach_show(char *buf, size_t cap, const char *s, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 5 < cap; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			buf[o++] = (char)c;
		} else {
			snprintf(buf + o, cap - o, "\\x%02X", c);
			o += 4;
		}
	}
	buf[o] = '\0';
	return buf;
}

bool cl_ach_routing_ok(const char *nine)
{
	for (int i = 0; i < 9; i++)
		if (!ach_digit[(unsigned char)nine[i]])
			return false;
	return nine[9] == '\0' && nine[8] - '0' == ach_check_digit(nine);
}

static const char sec_names[][4] = {
	"",    "ACK", "ADV", "ARC", "ATX", "BOC", "CCD", "CIE", "COR", "CTX", "DNE", "ENR",
	"IAT", "MTE", "POP", "POS", "PPD", "RCK", "SHR", "TEL", "TRC", "TRX", "WEB", "XCK",
};

int ach_sec_lookup(const char *three)
{
	for (int i = 1; i < (int)(sizeof(sec_names) / sizeof(sec_names[0])); i++)
		if (memcmp(sec_names[i], three, 3) == 0)
			return i;
	return SEC_UNKNOWN;
}

const char *ach_sec_name(int sec)
{
	return sec_names[sec];
}
