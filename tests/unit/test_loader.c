/* test_loader.c - the loader's pure parts: COPY text escaping, keys with
 * account numbers masked for the journal, load UUIDs, the embedded
 * migrations, outcome names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "db.h"
#include "load.h"
#include "mask.h"
#include "row.h"
#include "schema.h"
#include "uuid.h"

/* Small writes stay in the COPY buffer (no connection needed). */
static void copy_field(struct cl_copy_in *c, const char *s, bool first, bool null_empty)
{
	c->len = 0;
	c->failed = false;
	c->db = NULL;
	cl_copy_text(c, s, first, null_empty);
	c->buf[c->len] = '\0';
}

static void test_copy_escapes_what_copy_text_format_needs(void **state)
{
	static struct cl_copy_in c;

	(void)state;
	copy_field(&c, "a\\b\tc\nd\re\"f'g\\N", true, false);
	assert_string_equal(c.buf, "a\\\\b\\tc\\nd\\re\"f'g\\\\N");
	copy_field(&c, "plain", false, false);
	assert_string_equal(c.buf, "\tplain");
}

static void test_copy_null_and_empty(void **state)
{
	static struct cl_copy_in c;

	(void)state;
	copy_field(&c, NULL, true, false);
	assert_string_equal(c.buf, "\\N");
	copy_field(&c, "", true, true);
	assert_string_equal(c.buf, "\\N");
	copy_field(&c, "", false, false);
	assert_string_equal(c.buf, "\t");
}

static void test_mask_key_hides_the_records_accounts(void **state)
{
	static struct cl_record rec;
	char out[CL_KEY_MAX];

	(void)state;
	cl_record_clear(&rec);
	strcpy(rec.debtor_account, "DE83999441097718893142");
	assert_true(cl_mask_record_key(&rec, "DE83999441097718893142|E2E-1-1", out, sizeof(out)));
	assert_string_equal(out, "******************3142|E2E-1-1");
	/* a key without the account is left alone */
	assert_false(cl_mask_record_key(&rec, "1100000000|121042880000001|2026-03-02", out,
				     sizeof(out)));
	assert_string_equal(out, "1100000000|121042880000001|2026-03-02");
	/* short values are not masked (they would match by chance) */
	strcpy(rec.receiving_account, "1234");
	assert_false(cl_mask_record_key(&rec, "x|1234|y", out, sizeof(out)));
}

static void test_uuid_v4_form(void **state)
{
	char a[CL_UUID_LEN], b[CL_UUID_LEN];

	(void)state;
	assert_true(cl_uuid_v4(a));
	assert_true(cl_uuid_v4(b));
	assert_true(cl_uuid_valid(a));
	assert_int_equal(a[14], '4');
	assert_true(strchr("89ab", a[19]) != NULL);
	assert_string_not_equal(a, b);
	assert_false(cl_uuid_valid("not-a-uuid"));
	assert_false(cl_uuid_valid("0123456789abcdef0123456789abcdef0123"));
}

static void test_migrations_are_embedded_in_order(void **state)
{
	unsigned i;

	(void)state;
	assert_true(cl_migrations_count >= 3);
	for (i = 0; i < cl_migrations_count; i++) {
		assert_int_equal(cl_migrations[i].version, i + 1);
		/* every migration changes the schema */
		assert_true(strstr(cl_migrations[i].sql, "CREATE") != NULL ||
			    strstr(cl_migrations[i].sql, "ALTER TABLE") != NULL);
	}
	assert_int_equal(cl_schema_latest(), cl_migrations_count);
	/* the unique key never contains a time column (DESIGN.md principle 8) */
	assert_non_null(strstr(cl_migrations[1].sql,
			       "CONSTRAINT clearing_record_key PRIMARY KEY (tenant, kind, natural_key)"));
	assert_null(strstr(cl_migrations[1].sql, "PARTITION BY RANGE"));
}

static void test_outcome_names_match_the_schema(void **state)
{
	(void)state;
	assert_string_equal(cl_outcome_name(CL_OUTCOME_COMMITTED), "committed");
	assert_string_equal(cl_outcome_name(CL_OUTCOME_REJECTED), "rejected");
	assert_string_equal(cl_outcome_name(CL_OUTCOME_HELD), "held");
	assert_string_equal(cl_outcome_name(CL_OUTCOME_QUARANTINED), "quarantined");
	assert_string_equal(cl_outcome_name(CL_OUTCOME_UNKNOWN), "unknown");
	assert_string_equal(cl_action_name(CL_ACTION_CONFLICT), "conflict");
}

static void test_conninfo_password_is_detected(void **state)
{
	(void)state;
	assert_true(cl_db_conninfo_has_password("dbname=x password=secret"));
	assert_true(cl_db_conninfo_has_password("postgresql://u:secret@localhost/x"));
	assert_false(cl_db_conninfo_has_password("dbname=x user=u"));
	assert_false(cl_db_conninfo_has_password("postgresql://u@localhost/x"));
	assert_false(cl_db_conninfo_has_password(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_escapes_what_copy_text_format_needs),
		cmocka_unit_test(test_copy_null_and_empty),
		cmocka_unit_test(test_mask_key_hides_the_records_accounts),
		cmocka_unit_test(test_uuid_v4_form),
		cmocka_unit_test(test_migrations_are_embedded_in_order),
		cmocka_unit_test(test_outcome_names_match_the_schema),
		cmocka_unit_test(test_conninfo_password_is_detected),
	};

	return cmocka_run_group_tests_name("loader", tests, NULL, NULL);
}
