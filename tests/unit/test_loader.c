/* test_loader.c - the loader's pure parts: binary COPY columns, keys with
 * account numbers masked for the journal, load UUIDs, the embedded
 * migrations, outcome names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "base/banking_days.h"
#include "base/mask.h"
#include "loader/db.h"
#include "loader/load.h"
#include "loader/row.h"
#include "loader/schema.h"
#include "loader/uuid.h"

/* Small writes stay in the COPY buffer (no connection needed). */
static void copy_reset(struct cl_copy_in *c)
{
	c->len = 0;
	c->failed = false;
	c->db = NULL;
}

static void test_copy_binary_columns(void **state)
{
	static struct cl_copy_in c;
	static const unsigned char want[] = {
		0, 6,                        /* a row of 6 columns */
		0, 0, 0, 4, 'a', '\t', '\\', 'b', /* text as it is, nothing escaped */
		0xff, 0xff, 0xff, 0xff,      /* NULL */
		0, 0, 0, 8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, /* bigint -2 */
		0, 0, 0, 4, 0, 0, 0x26, 0xc2, /* 2027-03-02: 9922 days after 2000-01-01 */
		0, 0, 0, 4, 0xff, 0xff, 0xff, 0xff, /* 1999-12-31 */
		0, 0, 0, 4, 0, 0, 0x01, 0x02, /* integer 258 */
	};
	long days;

	(void)state;
	copy_reset(&c);
	cl_copy_row(&c, 6);
	cl_copy_text(&c, "a\t\\b", false);
	cl_copy_text(&c, "", true);
	cl_copy_int8(&c, -2);
	assert_true(cl_date_days("2027-03-02", &days));
	cl_copy_date(&c, days);
	assert_true(cl_date_days("1999-12-31", &days));
	cl_copy_date(&c, days);
	cl_copy_int4(&c, 258);
	assert_int_equal(c.len, sizeof(want));
	assert_memory_equal(c.buf, want, sizeof(want));
}

static void test_copy_empty_text_is_null_only_when_asked(void **state)
{
	static struct cl_copy_in c;
	static const unsigned char empty[] = { 0, 0, 0, 0 };

	(void)state;
	copy_reset(&c);
	cl_copy_text(&c, "", false);
	assert_int_equal(c.len, 4);
	assert_memory_equal(c.buf, empty, 4);
	copy_reset(&c);
	cl_copy_text(&c, NULL, false);
	assert_int_equal(c.len, 4);
	assert_memory_equal(c.buf, "\xff\xff\xff\xff", 4);
}

/* A text[] parameter: every element quoted, " and \ escaped, commas and
 * braces inside an element kept; a comma list split into elements. */
static void test_text_array_literal(void **state)
{
	struct cl_text_array a = { 0 };

	(void)state;
	assert_string_equal(cl_text_array_text(&a), "{}");
	cl_text_array_add(&a, "a,b{c}");
	cl_text_array_add(&a, "say \"x\" \\ y");
	cl_text_array_add(&a, "");
	assert_string_equal(cl_text_array_text(&a), "{\"a,b{c}\",\"say \\\"x\\\" \\\\ y\",\"\"}");
	cl_text_array_free(&a);
	cl_text_array_add_list(&a, "uetr,e2e,,trace");
	assert_string_equal(cl_text_array_text(&a), "{\"uetr\",\"e2e\",\"\",\"trace\"}");
	cl_text_array_free(&a);
	cl_text_array_add_list(&a, NULL);
	assert_string_equal(cl_text_array_text(&a), "{}");
	/* many elements: the buffer grows */
	for (int i = 0; i < 5000; i++)
		cl_text_array_add(&a, "0123456789");
	assert_int_equal(strlen(cl_text_array_text(&a)), 2 + 5000 * 12 + 4999);
	cl_text_array_free(&a);
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
	assert_int_equal(cl_migrations[0].version, 1);
	for (i = 0; i < cl_migrations_count; i++) {
		/* in order, from 1, none twice (030 and 031 were never used) */
		assert_true(i == 0 || cl_migrations[i].version > cl_migrations[i - 1].version);
		/* every migration changes the schema (038 only an index's option) */
		assert_true(strstr(cl_migrations[i].sql, "CREATE") != NULL ||
			    strstr(cl_migrations[i].sql, "ALTER TABLE") != NULL ||
			    strstr(cl_migrations[i].sql, "ALTER INDEX") != NULL);
	}
	assert_int_equal(cl_schema_latest(), cl_migrations[cl_migrations_count - 1].version);
	/* the unique key never contains a time column (clearing-load-keys(7): no time in a key) */
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
		cmocka_unit_test(test_copy_binary_columns),
		cmocka_unit_test(test_text_array_literal),
		cmocka_unit_test(test_copy_empty_text_is_null_only_when_asked),
		cmocka_unit_test(test_mask_key_hides_the_records_accounts),
		cmocka_unit_test(test_uuid_v4_form),
		cmocka_unit_test(test_migrations_are_embedded_in_order),
		cmocka_unit_test(test_outcome_names_match_the_schema),
		cmocka_unit_test(test_conninfo_password_is_detected),
	};

	return cmocka_run_group_tests_name("loader", tests, NULL, NULL);
}
