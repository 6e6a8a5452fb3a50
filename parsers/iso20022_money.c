/* iso20022_money.c - ISO 4217 exponents and exact decimal amounts (no
 * floating point anywhere). */
#include "parsers/iso20022_internal.h"

#include "base/money.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the table is base/money.c's, the one list of ISO 4217 exponents */
int cl_iso_ccy_exponent(const char *ccy)
{
	return cl_money_exponent(ccy);
}

enum cl_iso_amount_result cl_iso_amount_parse(const char *text, int exponent, int64_t *minor)
{
	const char *s = text;
	int64_t v = 0;
	int frac = 0;
	bool digits = false;

	*minor = 0;
	while (*s >= '0' && *s <= '9') {
		int d = *s++ - '0';

		if (v > (INT64_MAX - d) / 10)
			return CL_ISO_AMT_OVERFLOW;
		v = v * 10 + d;
		digits = true;
	}
	if (!digits)
		return CL_ISO_AMT_SYNTAX;
	if (*s == '.') {
		s++;
		if (!(*s >= '0' && *s <= '9'))
			return CL_ISO_AMT_SYNTAX;
		while (*s >= '0' && *s <= '9') {
			int d = *s++ - '0';

			if (++frac > exponent) {
				/* keep scanning for syntax, but this is an error */
				while (*s >= '0' && *s <= '9')
					s++;
				return *s ? CL_ISO_AMT_SYNTAX : CL_ISO_AMT_DECIMALS;
			}
			if (v > (INT64_MAX - d) / 10)
				return CL_ISO_AMT_OVERFLOW;
			v = v * 10 + d;
		}
	}
	if (*s)
		return CL_ISO_AMT_SYNTAX;
	for (; frac < exponent; frac++) {
		if (v > INT64_MAX / 10)
			return CL_ISO_AMT_OVERFLOW;
		v *= 10;
	}
	*minor = v;
	return CL_ISO_AMT_OK;
}

#define DEC_FRAC_DIGITS 17
#define DEC_FRAC_ONE 100000000000000000LL /* 10^17 */

int cl_iso_dec_parse(const char *text, struct cl_iso_dec *out)
{
	const char *s = text;
	int n = 0, f = 0;

	memset(out, 0, sizeof(*out));
	while (*s >= '0' && *s <= '9') {
		if (++n > 18)
			return -1;
		out->whole = out->whole * 10 + (*s++ - '0');
	}
	if (n == 0)
		return -1;
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9') {
			if (++f > DEC_FRAC_DIGITS)
				return -1;
			out->frac = out->frac * 10 + (*s++ - '0');
		}
		if (f == 0)
			return -1;
	}
	if (*s)
		return -1;
	for (; f < DEC_FRAC_DIGITS; f++)
		out->frac *= 10;
	return 0;
}

void cl_iso_dec_add_minor(struct cl_iso_dec *acc, int64_t minor, int exponent)
{
	int64_t unit = 1, whole, frac;

	for (int i = 0; i < exponent; i++)
		unit *= 10;
	whole = minor / unit;
	frac = (minor % unit) * (DEC_FRAC_ONE / unit);
	acc->frac += frac;
	if (acc->frac >= DEC_FRAC_ONE) {
		acc->frac -= DEC_FRAC_ONE;
		whole++;
	}
	if (acc->whole > INT64_MAX - whole)
		acc->overflow = true;
	else
		acc->whole += whole;
}

bool cl_iso_dec_equal(const struct cl_iso_dec *a, const struct cl_iso_dec *b)
{
	return !a->overflow && !b->overflow && a->whole == b->whole && a->frac == b->frac;
}

void cl_iso_dec_format(const struct cl_iso_dec *d, char *out, size_t cap)
{
	char frac[DEC_FRAC_DIGITS + 1];
	int n;

	if (d->overflow) {
		snprintf(out, cap, "(overflow)");
		return;
	}
	snprintf(frac, sizeof(frac), "%017lld", (long long)d->frac);
	for (n = DEC_FRAC_DIGITS; n > 0 && frac[n - 1] == '0'; n--)
		;
	frac[n] = '\0';
	if (n > 0)
		snprintf(out, cap, "%lld.%s", (long long)d->whole, frac);
	else
		snprintf(out, cap, "%lld", (long long)d->whole);
}
