/* test_fingerprint_fields - the fingerprint of each kind covers exactly
 * the fields record_fields.def marks for it (FP_*): changing one field of
 * a record changes its fingerprint if and only if the table says the
 * field is in that kind's fingerprint; and every fingerprinted field is
 * compared when a conflict is explained. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "base/record.h"
#include "loader/load.h"
#include "rules/ach_identity.h"
#include "rules/fingerprint.h"
#include "rules/iso_identity.h"

struct kind {
	const char *kind, *scheme;
	unsigned flag;            /* CL_FF_FP_* */
	enum cl_iso_kind iso;     /* CL_ISO_NONE for NACHA */
};

static const struct kind kinds[] = {
	{ "ach.entry", "nacha", CL_FF_FP_ENTRY, CL_ISO_NONE },
	{ "ach.return", "nacha", CL_FF_FP_RETURN, CL_ISO_NONE },
	{ "ach.noc", "nacha", CL_FF_FP_RETURN, CL_ISO_NONE },
	{ "pain.001", "iso20022", CL_FF_FP_PAIN, CL_ISO_PAIN001 },
	{ "pacs.008", "iso20022", CL_FF_FP_PACS, CL_ISO_PACS008 },
	{ "pacs.009", "iso20022", CL_FF_FP_PACS, CL_ISO_PACS009 },
	{ "pacs.004", "iso20022", CL_FF_FP_PACS004, CL_ISO_PACS004 },
	{ "pain.008", "iso20022", CL_FF_FP_PAIN008, CL_ISO_PAIN008 },
	{ "pacs.003", "iso20022", CL_FF_FP_PACS003, CL_ISO_PACS003 },
	{ "camt.056", "iso20022", CL_FF_FP_CXL, CL_ISO_CAMT056 },
	{ "camt.029", "iso20022", CL_FF_FP_CXL, CL_ISO_CAMT029 },
};

/* A record of kind k with every field set (fixed widths where the NACHA
 * encoding needs them). */
static void base(struct cl_record *r, const struct kind *k)
{
	cl_record_clear(r);
	r->kind = k->kind;
	r->scheme = k->scheme;
	r->amount_minor = 12345;
	r->direction = CL_DIR_CREDIT;
	for (size_t i = 0; i < CL_NFIELDS; i++) {
		const struct cl_field *f = &cl_fields[i];

		if (f->type == CL_FT_TEXT)
			snprintf((char *)r + f->offset, f->size, "%.*s", (int)f->size - 1,
				 "12345678901234567890123");
	}
	memcpy(r->transaction_code, "22", 3);
	memcpy(r->receiving_dfi, "123456780", 10);
	memcpy(r->value_date, "2026-03-02", 11);
	memcpy(r->currency, "USD", 4);
	memcpy(r->uetr, "dc2898aa-6244-4fb1-a855-19c1dcf63620", 37);
	memcpy(r->end_to_end_id, "E2E-1", 6);
	memcpy(r->debtor_agent, "DEUTDEFFXXX", 12);
	memcpy(r->creditor_agent, "COBADEFFXXX", 12);
	memcpy(r->instructing_agent, "BANKGB2LXXX", 12);
	memcpy(r->instructed_agent, "BANKUS33XXX", 12);
}

static void fingerprint(struct cl_record *r, const struct kind *k, unsigned char out[32])
{
	if (k->iso == CL_ISO_NONE) {
		struct cl_ach_fp *f = cl_ach_fp_new();

		cl_ach_identity(f, r, CL_ACH_KEY_STRICT, NULL);
		cl_ach_fp_free(f);
	} else {
		struct cl_fp *fp = cl_fp_new();
		struct cl_iso_extra x;
		char why[128];

		memset(&x, 0, sizeof(x));
		x.kind = k->iso;
		(void)cl_iso_make_key(r, &x, why, sizeof(why));
		cl_iso_fingerprint(fp, r, &x);
		cl_fp_free(fp);
	}
	memcpy(out, r->fingerprint, 32);
}

/* Change field f of r: another value of the same shape. */
static bool mutate(struct cl_record *r, const struct cl_field *f)
{
	char *p = (char *)r + f->offset;

	switch ((enum cl_field_type)f->type) {
	case CL_FT_TEXT:
	case CL_FT_DATE: /* "2026-03-02" to "3026-03-02", still a date */
		if (!p[0])
			return false;
		p[0] = p[0] == '9' ? '8' : (char)(p[0] == '2' ? '3' : '9');
		return true;
	case CL_FT_AMOUNT:
		r->amount_minor++;
		return true;
	case CL_FT_DIR:
		r->direction = CL_DIR_DEBIT;
		return true;
	default: /* identity itself (kind, keys, hashes), positions, counts */
		return false;
	}
}

static void test_fingerprints_cover_exactly_the_tables_fields(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		static struct cl_record r;
		unsigned char fp0[32], fp1[32];

		base(&r, &kinds[k]);
		fingerprint(&r, &kinds[k], fp0);
		for (size_t i = 0; i < CL_NFIELDS; i++) {
			const struct cl_field *f = &cl_fields[i];
			bool in_table = (f->flags & kinds[k].flag) != 0;

			base(&r, &kinds[k]);
			if (!mutate(&r, f)) {
				/* a field the test cannot change may not be one the
				   table fingerprints, but for the kind itself */
				if (in_table && f != &cl_fields[CL_F_kind])
					fail_msg("%s: %s is fingerprinted but not tested", kinds[k].kind,
						 f->name);
				continue;
			}
			fingerprint(&r, &kinds[k], fp1);
			if (in_table != (memcmp(fp0, fp1, 32) != 0))
				fail_msg("%s: changing %s %s the fingerprint, the table says it %s in it",
					 kinds[k].kind, f->name,
					 in_table ? "leaves" : "changes", in_table ? "is" : "is not");
		}
	}
}

static void test_every_fingerprinted_field_is_compared(void **state)
{
	const unsigned fp = CL_FF_FP_ENTRY | CL_FF_FP_RETURN | CL_FF_FP_PAIN | CL_FF_FP_PACS |
			    CL_FF_FP_PACS004 | CL_FF_FP_PAIN008 | CL_FF_FP_PACS003 | CL_FF_FP_CXL;

	(void)state;
	for (size_t i = 0; i < CL_NFIELDS; i++) {
		const struct cl_field *f = &cl_fields[i];

		if ((f->flags & fp) && f != &cl_fields[CL_F_kind] && !(f->flags & CL_FF_COMPARED))
			fail_msg("%s is fingerprinted but a conflict would not name it", f->name);
	}
}

/* diff names every differing compared field of a conflict: they fit. */
static void test_the_compared_fields_fit_a_plan_item(void **state)
{
	unsigned n = 0;

	(void)state;
	for (size_t i = 0; i < CL_NFIELDS; i++)
		n += (cl_fields[i].flags & CL_FF_COMPARED) != 0;
	assert_true(n >= 20);
	assert_true(n <= CL_DIFF_FIELDS_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fingerprints_cover_exactly_the_tables_fields),
		cmocka_unit_test(test_every_fingerprinted_field_is_compared),
		cmocka_unit_test(test_the_compared_fields_fit_a_plan_item),
	};

	return cmocka_run_group_tests_name("fingerprint_fields", tests, NULL, NULL);
}
