/*
 * money.h - amounts for people: ISO 4217 minor-unit exponents (the one
 * table) and minor units printed as money, "USD 1,234.56", with totals per
 * currency.
 *
 * Amounts are kept and printed for machines in minor units (exact); these
 * functions are for output a person reads.  No floating point.
 */
#ifndef CL_MONEY_H
#define CL_MONEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Minor-unit exponent of ISO 4217 code `ccy` (three capitals): 0..4; -1
 * when it is not an active code, -2 for a code without a minor unit
 * (precious metals, SDR, testing). */
int cl_money_exponent(const char *ccy);

/* `minor` minor units of `ccy` as "USD 1,234.56" ("USD -0.01"; JPY
 * "JPY 1,234") into buf[cap] (cut to fit); returns buf.  A code without a
 * known exponent: the minor units and the code as given, "XYZ 1,234
 * (minor units)"; no code (NULL or ""): the number alone. */
const char *cl_money_format(int64_t minor, const char *ccy, char *buf, size_t cap);

/* The same for minor units written as decimal text (as PostgreSQL prints
 * a bigint); text that is not an integer is returned as it is. */
const char *cl_money_text(const char *minor, const char *ccy, char *buf, size_t cap);

/* Sums per currency, in the order first seen.  A sum that would overflow
 * is marked and no longer added to. */
#define CL_MONEY_MAX_CCY 16
struct cl_money_totals {
	struct {
		char ccy[4];
		int64_t sum;
		unsigned long count;
		bool overflow;
	} by[CL_MONEY_MAX_CCY];
	int n;
	unsigned long other;   /* amounts of currencies past CL_MONEY_MAX_CCY */
};

/* Add `minor` of `ccy` (3 characters; anything else counts as "???"). */
void cl_money_add(struct cl_money_totals *t, int64_t minor, const char *ccy);

/* "USD 1,234.56 (3), EUR 10.00 (1)" into buf[cap]; "" when nothing was
 * added.  Returns buf. */
const char *cl_money_totals_text(const struct cl_money_totals *t, char *buf, size_t cap);

#endif
