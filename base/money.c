/* money.c - ISO 4217 exponents and money for people (money.h). */
#include "base/money.h"

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

static bool upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

int cl_money_exponent(const char *ccy)
{
	const char *hit;

	if (!ccy || !upper(ccy[0]) || !upper(ccy[1]) || !upper(ccy[2]) || ccy[3] != '\0')
		return -1;
	hit = bsearch(ccy, ccy_table, sizeof(ccy_table) / sizeof(ccy_table[0]),
		      sizeof(ccy_table[0]), ccy_cmp);
	if (!hit)
		return -1;
	if (hit[3] == '-')
		return -2;
	return hit[3] - '0';
}

/* The whole units of u with a comma every three digits, into out (at
 * least 27 bytes: 20 digits and 6 commas). */
static void grouped(uint64_t u, char *out)
{
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)u), k = 0;

	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			out[k++] = ',';
		out[k++] = digits[i];
	}
	out[k] = '\0';
}

const char *cl_money_format(int64_t minor, const char *ccy, char *buf, size_t cap)
{
	uint64_t u = minor < 0 ? (uint64_t)0 - (uint64_t)minor : (uint64_t)minor, unit = 1;
	int exp = cl_money_exponent(ccy);
	char whole[32], frac[8] = "";
	const char *sign = minor < 0 ? "-" : "";

	if (cap == 0)
		return buf;
	if (exp < 0) {
		/* no exponent known: exact, in minor units */
		grouped(u, whole);
		if (!ccy || !*ccy)
			snprintf(buf, cap, "%s%s", sign, whole);
		else
			snprintf(buf, cap, "%.3s %s%s%s", ccy, sign, whole,
				 exp == -2 ? "" : " (minor units)");
		return buf;
	}
	for (int i = 0; i < exp; i++)
		unit *= 10;
	grouped(u / unit, whole);
	if (exp > 0) {
		uint64_t f = u % unit;

		frac[0] = '.';
		for (int i = exp; i >= 1; i--, f /= 10)
			frac[i] = (char)('0' + f % 10);
		frac[exp + 1] = '\0';
	}
	snprintf(buf, cap, "%s %s%s%s", ccy, sign, whole, frac);
	return buf;
}

const char *cl_money_text(const char *minor, const char *ccy, char *buf, size_t cap)
{
	char *end;
	long long v;

	if (!minor || !*minor)
		return minor;
	v = strtoll(minor, &end, 10);
	if (*end != '\0')
		return minor;
	return cl_money_format((int64_t)v, ccy, buf, cap);
}

void cl_money_add(struct cl_money_totals *t, int64_t minor, const char *ccy)
{
	char code[4] = "???";
	int i;

	if (ccy && strlen(ccy) == 3)
		memcpy(code, ccy, 4);
	for (i = 0; i < t->n && strcmp(t->by[i].ccy, code) != 0; i++)
		;
	if (i == t->n) {
		if (t->n == CL_MONEY_MAX_CCY) {
			t->other++;
			return;
		}
		memcpy(t->by[i].ccy, code, 4);
		t->by[i].sum = 0;
		t->by[i].count = 0;
		t->by[i].overflow = false;
		t->n++;
	}
	t->by[i].count++;
	if (t->by[i].overflow)
		return;
	if ((minor > 0 && t->by[i].sum > INT64_MAX - minor) ||
	    (minor < 0 && t->by[i].sum < INT64_MIN - minor))
		t->by[i].overflow = true;
	else
		t->by[i].sum += minor;
}

const char *cl_money_totals_text(const struct cl_money_totals *t, char *buf, size_t cap)
{
	size_t len = 0;

	if (cap == 0)
		return buf;
	buf[0] = '\0';
	for (int i = 0; i < t->n && len < cap; i++) {
		char m[64];

		if (t->by[i].overflow)
			snprintf(m, sizeof(m), "%s (too large to add up)", t->by[i].ccy);
		else
			cl_money_format(t->by[i].sum, t->by[i].ccy, m, sizeof(m));
		len += (size_t)snprintf(buf + len, cap - len, "%s%s (%lu)", i ? ", " : "", m,
					t->by[i].count);
	}
	if (t->other && len < cap)
		snprintf(buf + len, cap - len, ", %lu more in other currencies", t->other);
	return buf;
}
