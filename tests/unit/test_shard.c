/* test_shard.c - the shard identity (rules/shard.h) of keys made by the
 * ACH key rules themselves (rules/ach_identity.h): an entry under either
 * key rule and on another date, its return and its NOC share a shard (the
 * trace), so a near duplicate is always in the partition of the record it
 * copies; other text is hashed.  The SQL side is held to the same answers
 * by tests/db/test_shard.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "rules/ach_identity.h"
#include "rules/near.h"
#include "rules/shard.h"

static struct cl_record ach(const char *kind, const char *date)
{
	struct cl_record r;

	cl_record_clear(&r);
	r.kind = kind;
	snprintf(r.company_id, sizeof(r.company_id), "1100000000");
	snprintf(r.batch_number, sizeof(r.batch_number), "0000007");
	snprintf(r.sec_code, sizeof(r.sec_code), "PPD");
	snprintf(r.transaction_code, sizeof(r.transaction_code), "22");
	snprintf(r.receiving_dfi, sizeof(r.receiving_dfi), "121042882");
	snprintf(r.receiving_account, sizeof(r.receiving_account), "12345678");
	snprintf(r.value_date, sizeof(r.value_date), "%s", date);
	r.amount_minor = 10000;
	if (strcmp(kind, "ach.entry") == 0) {
		snprintf(r.trace_number, sizeof(r.trace_number), "121042880000001");
	} else {
		snprintf(r.trace_number, sizeof(r.trace_number), "091000010000042");
		snprintf(r.original_trace, sizeof(r.original_trace), "121042880000001");
		snprintf(r.original_rdfi, sizeof(r.original_rdfi), "12104288");
		snprintf(r.reason_code, sizeof(r.reason_code), "%s",
			 strcmp(kind, "ach.noc") == 0 ? "C01" : "R01");
	}
	return r;
}

static int64_t shard_of(struct cl_record r, enum cl_ach_key rule)
{
	struct cl_ach_fp *f = cl_ach_fp_new();

	cl_ach_identity(f, &r, rule, NULL);
	cl_ach_fp_free(f);
	return cl_shard(r.kind, r.natural_key);
}

static void test_shard_ach_records_of_one_payment_share_the_trace(void **state)
{
	(void)state;
	assert_int_equal(shard_of(ach("ach.entry", "2026-12-01"), CL_ACH_KEY_STRICT), 121042880000001);
	/* re-dated, re-batched under the other key rule: one shard */
	assert_int_equal(shard_of(ach("ach.entry", "2026-12-02"), CL_ACH_KEY_STRICT), 121042880000001);
	assert_int_equal(shard_of(ach("ach.entry", "2026-12-01"), CL_ACH_KEY_BATCH), 121042880000001);
	/* the return and NOC of the entry, dated or not: its trace */
	assert_int_equal(shard_of(ach("ach.return", "2026-12-03"), CL_ACH_KEY_STRICT), 121042880000001);
	assert_int_equal(shard_of(ach("ach.return", ""), CL_ACH_KEY_STRICT), 121042880000001);
	assert_int_equal(shard_of(ach("ach.noc", "2026-12-04"), CL_ACH_KEY_STRICT), 121042880000001);
}

static void test_shard_near_duplicates_share_a_shard(void **state)
{
	struct cl_record a = ach("ach.entry", "2026-12-01"), b = ach("ach.entry", "2026-12-03");
	char ka[CL_NEAR_KEY_MAX], kb[CL_NEAR_KEY_MAX];
	struct cl_ach_fp *f = cl_ach_fp_new();

	(void)state;
	cl_ach_identity(f, &a, CL_ACH_KEY_STRICT, NULL);
	cl_ach_identity(f, &b, CL_ACH_KEY_BATCH, NULL);
	cl_ach_fp_free(f);
	assert_string_not_equal(a.natural_key, b.natural_key);
	assert_true(cl_near_key(&a, ka, sizeof(ka)) && cl_near_key(&b, kb, sizeof(kb)));
	assert_string_equal(ka, kb);
	assert_int_equal(cl_shard(a.kind, a.natural_key), cl_shard(b.kind, b.natural_key));
}

static void test_shard_other_text_is_hashed(void **state)
{
	(void)state;
	/* the first 8 bytes of SHA-256, big-endian, signed (values from an
	   independent SHA-256) */
	assert_int_equal(cl_shard("pacs.008", "uetr|eb6305c9-1f7f-49de-aed0-16487c27b42d|DEUTDEFF"),
			 7613539088419949868);
	assert_int_equal(cl_shard("ach.entry", "1100000000|12104288000000A|2026-12-01"),
			 6502095465346897410);
	/* 19 digits do not fit the rule's 18: hashed */
	assert_int_equal(cl_shard("ach.entry", "1100000000|0000000000000000001|2026-12-01"),
			 4007916775760645094);
	/* no field: the empty text's hash */
	assert_int_equal(cl_shard("ach.entry", "nobar"), -2039914840885289964);
	assert_int_equal(cl_shard("pain.001", ""), -2039914840885289964);
	/* other kinds: the whole key, not a field of it */
	assert_int_not_equal(cl_shard("pacs.008", "1100000000|121042880000001|2026-12-01"),
			     121042880000001);
}

/* cl_shard_holds_copies: the kinds whose every copy shares the record's
 * shard (the tests above: the near rule's kinds, both key rules, returns
 * and NOCs), and no other: a pacs payment's copy under an alternate key
 * has its own key's shard. */
static void test_shard_holds_copies_of_the_ach_kinds_alone(void **state)
{
	static const char *const kinds[] = { "ach.entry", "ach.return", "ach.noc", "pacs.008",
					     "pacs.009", "pacs.004", "pain.001", "pain.008",
					     "camt.056", "" };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		assert_int_equal(cl_shard_holds_copies(kinds[i]), strncmp(kinds[i], "ach.", 4) == 0);
	/* every kind the near rule applies to */
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (cl_near_applies(kinds[i]))
			assert_true(cl_shard_holds_copies(kinds[i]));
	/* an alternate key's shard is not the payment's */
	assert_int_not_equal(cl_shard("pacs.008", "e2e|DEUTDEFF|E2E-1-1"),
			     cl_shard("pacs.008", "txid|DEUTDEFF|TX-1-1"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shard_ach_records_of_one_payment_share_the_trace),
		cmocka_unit_test(test_shard_near_duplicates_share_a_shard),
		cmocka_unit_test(test_shard_other_text_is_hashed),
		cmocka_unit_test(test_shard_holds_copies_of_the_ach_kinds_alone),
	};

	return cmocka_run_group_tests_name("shard", tests, NULL, NULL);
}
