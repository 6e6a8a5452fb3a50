/* same_key.c - one natural key twice in a file: the error, with what
 * differs between the two records (same_key.h). */
#include "parsers/same_key.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/keyset.h"
#include "base/mask.h"
#include "base/xmalloc.h"
#include "parsers/iso20022.h"

void cl_same_key_read(struct cl_parser *p, struct cl_same_key *v, size_t n)
{
	const struct cl_record *rec;
	struct cl_error err;
	enum cl_status st;
	bool any_masked = false;

	for (size_t i = 0; i < n; i++)
		any_masked |= v[i].masked;
	while ((st = cl_parser_next(p, &rec, &err)) != CL_END) {
		char masked[CL_KEY_MAX];
		const char *form = rec ? rec->natural_key : "";

		if (st == CL_IO)
			break;
		if (st != CL_OK || !rec->natural_key[0])
			continue;
		if (any_masked && cl_mask_record_key(rec, rec->natural_key, masked, sizeof(masked)))
			form = masked;
		for (size_t i = 0; i < n; i++) {
			struct cl_same_key *k = &v[i];

			if (strcmp(k->masked ? form : rec->natural_key, k->match) != 0)
				continue;
			if (!k->a) {
				k->a = cl_xmalloc(sizeof(*k->a));
				*k->a = *rec;
			} else {
				if (!k->b)
					k->b = cl_xmalloc(sizeof(*k->b));
				*k->b = *rec;
			}
		}
	}
}

/* An amount in minor units as its currency writes it: 1000 EUR "10.00". */
static void money(char *out, size_t cap, int64_t minor, const char *ccy)
{
	int e = cl_iso_ccy_exponent(ccy);
	uint64_t v = minor < 0 ? 0 - (uint64_t)minor : (uint64_t)minor;
	char frac[8];

	if (e < 0 || e > 4)
		e = 2;
	frac[e] = '\0';
	for (int i = e - 1; i >= 0; i--, v /= 10)
		frac[i] = (char)('0' + v % 10);
	snprintf(out, cap, "%s%" PRIu64 "%s%s", minor < 0 ? "-" : "", v, e ? "." : "", frac);
}

/* Fields that name the record rather than say what it is: the same key
 * has them the same, or they are derived from others. */
static bool compared(const struct cl_field *f, const struct cl_record *r)
{
	static const char *const skip[] = { "natural_key", "alt_key", "alt_key2", "kind",
					    "scheme", "key_rule" };

	if (!(f->flags & CL_FF_OUT) || !cl_field_in_scope(f, r))
		return false;
	if (f->type != CL_FT_TEXT && f->type != CL_FT_DATE && f->type != CL_FT_AMOUNT &&
	    f->type != CL_FT_DIR)
		return false;
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (strcmp(f->name, skip[i]) == 0)
			return false;
	return true;
}

const char *cl_same_key_differences(const struct cl_record *a, const struct cl_record *b,
				    bool mask, char *out, size_t cap)
{
	size_t len = 0;
	unsigned shown = 0, more = 0;

	out[0] = '\0';
	for (int i = 0; i < CL_NFIELDS; i++) {
		const struct cl_field *f = &cl_fields[i];
		char ba[65], bb[65], va[96], vb[96];
		const char *ta, *tb;
		int k;

		if (!compared(f, a))
			continue;
		ta = cl_field_text(f, a, ba);
		tb = cl_field_text(f, b, bb);
		if (strcmp(ta, tb) == 0)
			continue;
		if (shown == 4) {
			more++;
			continue;
		}
		if (f->type == CL_FT_AMOUNT) {
			money(va, sizeof(va), a->amount_minor, a->currency);
			money(vb, sizeof(vb), b->amount_minor, b->currency);
			k = snprintf(out + len, cap - len, "%samount %s vs %s", shown ? ", " : "", va,
				     vb);
		} else {
			if (mask && (f->flags & CL_FF_ACCOUNT)) {
				cl_mask_account(ta, va, sizeof(va));
				cl_mask_account(tb, vb, sizeof(vb));
			} else {
				snprintf(va, sizeof(va), "%.40s", ta);
				snprintf(vb, sizeof(vb), "%.40s", tb);
			}
			k = snprintf(out + len, cap - len, "%s%s \"%s\" vs \"%s\"", shown ? ", " : "",
				     f->name, va, vb);
		}
		if (k < 0 || (size_t)k >= cap - len)
			break;
		len += (size_t)k;
		shown++;
	}
	if (more && len < cap)
		snprintf(out + len, cap - len, " and %u more field%s", more, more == 1 ? "" : "s");
	return out;
}

void cl_same_key_error(struct cl_error *e, const char *file, const struct cl_same_key *k,
		       bool mask)
{
	char times[64], lines[96], diff[320], how[400];

	if (k->count == 2) {
		snprintf(times, sizeof(times), "twice");
		snprintf(lines, sizeof(lines), "on lines %lu and %lu", k->first, k->last);
	} else {
		snprintf(times, sizeof(times), "%lu times", k->count);
		snprintf(lines, sizeof(lines), "first on line %lu, last on line %lu", k->first,
			 k->last);
	}
	how[0] = '\0';
	if (k->a && k->b) {
		cl_same_key_differences(k->a, k->b, mask, diff, sizeof(diff));
		if (diff[0])
			snprintf(how, sizeof(how), ", %s different payments (%s)",
				 k->count == 2 ? "as two" : "the first and last as", diff);
		else
			snprintf(how, sizeof(how), ", the %s a copy of the first",
				 k->count == 2 ? "second" : "last");
	}
	cl_error_set(e, file, k->last, "duplicate_key",
		     "the same payment identity (natural key \"%.200s\") appears %s in this "
		     "file, %s%s: the file cannot be loaded, because %s would be taken as a "
		     "re-upload of the first",
		     k->key, times, lines, how, k->count == 2 ? "the second" : "each later one");
	e->other_line = k->first;
	cl_keyset_duplicate_hint(e, false);
}

void cl_alt_key_error(struct cl_error *e, const char *file, const char *alt, unsigned long keys,
		      unsigned long first, unsigned long last)
{
	cl_error_set(e, file, last, "duplicate_alt_key",
		     "one payment appears under %lu payment identities in this file, first on "
		     "line %lu, last on line %lu (the same content and alternate key \"%.200s\", "
		     "as when it is sent with and without its UETR): the file cannot be loaded, "
		     "because each would be applied as a payment of its own",
		     keys, first, last, alt);
	e->other_line = first;
	cl_keyset_duplicate_hint(e, true);
}

void cl_same_key_release(struct cl_same_key *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].a);
		free(v[i].b);
		v[i].a = v[i].b = NULL;
	}
}
