/* iso20022_money.c - ISO 4217 exponents and exact decimal amounts (no
 * floating point anywhere). */
#include "parsers/iso20022_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ISO 4217 active codes with their minor unit, sorted for bsearch.  '-'
 * marks codes without a minor unit (precious metals, SDR, testing). */
static const char ccy_table[][5] = {
	"AED2", "AFN2", "ALL2", "AMD2", "ANG2", "AOA2", "ARS2", "AUD2", "AWG2", "AZN2",
	"BAM2", "BBD2", "BDT2", "BGN2", "BHD3", "BIF0", "BMD2", "BND2", "BOB2", "BOV2",
	"BRL2", "BSD2", "BTN2", "BWP2", "BYN2", "BZD2", "CAD2", "CDF2", "CHE2", "CHF2",
	"CHW2", "CLF4", "CLP0", "CNY2", "COP2", "COU2", "CRC2", "CUC2", "CUP2", "CVE2",
	"CZK2", "DJF0", "DKK2", "DOP2", "DZD2", "EGP2", "ERN2", "ETB2", "EUR2", "FJD2",
	"FKP2", "GBP2", "GEL2", "GHS2", "GIP2", "GMD2", "GNF0", "GTQ2", "GYD2", "HKD2",
	"HNL2", "HTG2", "HUF2", "IDR2", "ILS2", "INR2", "IQD3", "IRR2", "ISK0", "JMD2",
	"JOD3", "JPY0", "KES2", "KGS2", "KHR2", "KMF0", "KPW2", "KRW0", "KWD3", "KYD2",
	"KZT2", "LAK2", "LBP2", "LKR2", "LRD2", "LSL2", "LYD3", "MAD2", "MDL2", "MGA2",
	"MKD2", "MMK2", "MNT2", "MOP2", "MRU2", "MUR2", "MVR2", "MWK2", "MXN2", "MXV2",
	"MYR2", "MZN2", "NAD2", "NGN2", "NIO2", "NOK2", "NPR2", "NZD2", "OMR3", "PAB2",
	"PEN2", "PGK2", "PHP2", "PKR2", "PLN2", "PYG0", "QAR2", "RON2", "RSD2", "RUB2",
	"RWF0", "SAR2", "SBD2", "SCR2", "SDG2", "SEK2", "SGD2", "SHP2", "SLE2", "SLL2",
	"SOS2", "SRD2", "SSP2", "STN2", "SVC2", "SYP2", "SZL2", "THB2", "TJS2", "TMT2",
	"TND3", "TOP2", "TRY2", "TTD2", "TWD2", "TZS2", "UAH2", "UGX0", "USD2", "USN2",
	"UYI0", "UYU2", "UYW4", "UZS2", "VED2", "VES2", "VND0", "VUV0", "WST2", "XAF0",
	"XAG-", "XAU-", "XBA-", "XBB-", "XBC-", "XBD-", "XCD2", "XCG2", "XDR-", "XOF0",
	"XPD-", "XPF0", "XPT-", "XSU-", "XTS-", "XUA-", "XXX-", "YER2", "ZAR2", "ZMW2",
	"ZWG2", "ZWL2",
};

static int ccy_cmp(const void *key, const void *elem)
{
	return strncmp(key, elem, 3);
}

int cl_iso_ccy_exponent(const char *ccy)
{
	const char *hit;

	if (!cl_iso_ccy_shape(ccy))
		return -1;
	hit = bsearch(ccy, ccy_table, sizeof(ccy_table) / sizeof(ccy_table[0]),
		      sizeof(ccy_table[0]), ccy_cmp);
	if (!hit)
		return -1;
	if (hit[3] == '-')
		return -2;
	return hit[3] - '0';
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
