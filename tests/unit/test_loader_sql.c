/* test_loader_sql.c - the loader's statements embedded from sql/loader/:
 * every named statement of the files is there, with its placeholders
 * expanded to the field table's lists; and the generator refuses a file
 * it cannot embed faithfully (sql/gen_record_sql.c, run from this test's
 * build tree). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gen/loader_sql.h"
#include "gen/record_sql.h"

struct embedded {
	const char *name;
	const char *sql;
};

#define ENTRY(name, sql) { name, sql },
static const struct embedded embedded[] = { CL_LOADER_SQL_LIST(ENTRY) };
#undef ENTRY
#define NEMBEDDED (sizeof(embedded) / sizeof(embedded[0]))

static char gen[4096]; /* the generator: ../gen/gen_record_sql beside tests/ */
static char dir[] = "/tmp/cl_loader_sqlXXXXXX";

/* The whole of file `path`, NUL-terminated (caller frees). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static const char *lookup(const char *name, size_t n)
{
	for (size_t i = 0; i < NEMBEDDED; i++)
		if (strlen(embedded[i].name) == n && memcmp(embedded[i].name, name, n) == 0)
			return embedded[i].sql;
	return NULL;
}

static void test_every_named_statement_of_the_files_is_embedded(void **state)
{
	glob_t g;
	size_t named = 0;

	(void)state;
	assert_int_equal(glob("sql/loader/*.sql", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 7);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char *text = slurp(g.gl_pathv[i]), *p;

		for (p = text; (p = strstr(p, "-- name: ")) != NULL; p++) {
			const char *name = p + strlen("-- name: ");
			size_t n = strcspn(name, " \n");

			named++;
			if (!lookup(name, n))
				fail_msg("%s: statement %.*s is not embedded", g.gl_pathv[i], (int)n,
					 name);
		}
		free(text);
	}
	globfree(&g);
	assert_int_equal(named, NEMBEDDED);
}

static void test_no_placeholder_or_comment_is_left(void **state)
{
	(void)state;
	for (size_t i = 0; i < NEMBEDDED; i++) {
		const char *s = embedded[i].sql, *p;
		char quote = 0;
		size_t n = strlen(s);

		assert_true(n > 0);
		if (s[n - 1] == '\n' || s[n - 1] == ' ')
			fail_msg("%s ends in white space", embedded[i].name);
		for (p = s; *p; p++) {
			if (quote) {
				quote = *p == quote ? 0 : quote;
				continue;
			}
			if (*p == '\'' || *p == '"')
				quote = *p;
			else if (*p == '{' || *p == '}')
				fail_msg("%s: placeholder left at \"%.30s\"", embedded[i].name, p);
			else if (p[0] == '-' && p[1] == '-')
				fail_msg("%s: comment embedded at \"%.30s\"", embedded[i].name, p);
		}
		assert_int_equal(quote, 0);
	}
}

static void test_placeholders_expand_to_the_field_tables_lists(void **state)
{
	(void)state;
	assert_string_equal(CL_SQL_STAGE_COPY,
			    "COPY pg_temp.cl_stage (" CL_SQL_RECORD_COLUMNS ", journal_key) FROM STDIN (FORMAT binary)");
	assert_non_null(strstr(CL_SQL_APPLY_INSERT_NEW,
			       "INSERT INTO clearing_record (" CL_SQL_RECORD_COLUMNS
			       ")\nSELECT " CL_SQL_RECORD_COLUMNS "\n"));
	assert_non_null(strstr(CL_SQL_EXPLAIN_QUARANTINE,
			       "INSERT INTO clearing_quarantine (" CL_SQL_RECORD_COLUMNS
			       ")\nSELECT " CL_SQL_RECORD_COLUMNS "\n"));
	assert_non_null(strstr(CL_SQL_EXPLAIN_FIELDS, "(VALUES " CL_SQL_COMPARED_DIFFS ")"));
	assert_non_null(strstr(CL_SQL_PLAN_BATCH, "(VALUES " CL_SQL_COMPARED_DIFFS ")"));
	assert_non_null(strstr(CL_SQL_PLAN_BATCH, "END,\n       " CL_SQL_COMPARED_R "\n"));
	/* one probe, expanded in the load's statement and in diff's */
	assert_non_null(strstr(CL_SQL_CLASSIFY_NEAR, "ORDER BY abs(r.value_date - c.value_date)"));
	assert_non_null(strstr(CL_SQL_PLAN_BATCH, "ORDER BY abs(r.value_date - c.value_date)"));
	assert_non_null(strstr(CL_SQL_HISTORY_SHOW_BY_KEY,
			       "'natural_key' AS matched_by, " CL_SQL_SHOW_COLUMNS "\n"));
	assert_non_null(strstr(CL_SQL_HISTORY_SHOW_BY_UETR, CL_SQL_SHOW_COLUMNS "\n"));
	assert_non_null(strstr(CL_SQL_HISTORY_LOADS,
			       "pg_catalog.to_char(l.started_at, 'YYYY-MM-DD\"T\"HH24:MI:SSTZH:TZM') "
			       "AS started_at"));
	/* {load_columns}: one list for show's load and loads */
	assert_non_null(strstr(CL_SQL_HISTORY_LOADS_OF, "AS archived_as"));
	assert_non_null(strstr(CL_SQL_HISTORY_LOADS, "AS archived_as"));
}

/* Each lookup of show has its statement and its count, on its columns. */
static void test_show_has_complete_statements_per_lookup(void **state)
{
	(void)state;
	assert_non_null(strstr(CL_SQL_HISTORY_SHOW_BY_TRACE, "r.original_trace = $2"));
	assert_non_null(strstr(CL_SQL_HISTORY_COUNT_BY_TRACE, "r.original_trace = $2"));
	assert_non_null(strstr(CL_SQL_HISTORY_SHOW_BY_E2E, "r.orgnl_end_to_end_id = $2"));
	assert_non_null(strstr(CL_SQL_HISTORY_COUNT_BY_E2E, "r.orgnl_end_to_end_id = $2"));
	assert_non_null(strstr(CL_SQL_HISTORY_SHOW_BY_UETR, "r.orgnl_uetr = pg_catalog.lower($2)"));
	assert_non_null(strstr(CL_SQL_HISTORY_COUNT_BY_UETR, "r.orgnl_uetr = pg_catalog.lower($2)"));
	assert_non_null(strstr(CL_SQL_HISTORY_SHOW_BY_KEY, "r.natural_key = $2"));
	assert_non_null(strstr(CL_SQL_HISTORY_COUNT_BY_KEY, "r.natural_key = $2"));
	assert_non_null(strstr(CL_SQL_HISTORY_SHOW_BY_KEY, "LIMIT $3::bigint"));
	assert_null(strstr(CL_SQL_HISTORY_COUNT_BY_KEY, "$3"));
}

/* Run the generator on a file `t.sql` holding `text`; its exit status,
 * stdout and stderr (caller frees both). */
static int generate(const char *text, char **out, char **err)
{
	char path[64], cmd[8400];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/t.sql", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof(cmd), "'%s' %s >%s/out 2>%s/err", gen, path, dir, dir);
	rc = system(cmd);
	assert_true(WIFEXITED(rc));
	snprintf(path, sizeof(path), "%s/out", dir);
	*out = slurp(path);
	snprintf(path, sizeof(path), "%s/err", dir);
	*err = slurp(path);
	return WEXITSTATUS(rc);
}

/* The generator refuses `text` with `message` (after "DIR/t.sql:"). */
static void refused(const char *text, const char *message)
{
	char *out, *err, want[512];

	assert_int_equal(generate(text, &out, &err), 1);
	snprintf(want, sizeof(want), "%s/t.sql:%s\n", dir, message);
	assert_string_equal(err, want);
	free(out);
	free(err);
}

static void test_generator_embeds_a_statement(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(generate("-- t.sql - for the test\n\n"
				  "-- name: t_when\n"
				  "-- When load $1 started.\n"
				  "SELECT pg_catalog.to_char(l.started_at, {iso_ts})\n"
				  "  -- a comment inside is not embedded\n"
				  "FROM clearing_load l WHERE l.load_id = $1\n",
				  &out, &err),
			 0);
	assert_string_equal(err, "");
	assert_non_null(strstr(out, "#define CL_SQL_T_WHEN \\\n"
				    "\t\"SELECT pg_catalog.to_char(l.started_at, "
				    "'YYYY-MM-DD\\\"T\\\"HH24:MI:SSTZH:TZM')\\n\" \\\n"
				    "\t\"FROM clearing_load l WHERE l.load_id = $1\"\n"));
	assert_non_null(strstr(out, "#define CL_LOADER_SQL_LIST(X) \\\n"
				    "\tX(\"t_when\", CL_SQL_T_WHEN)\n"));
	free(out);
	free(err);
}

/* A fragment is written once and expanded where a statement names it; it
 * is no statement of its own. */
static void test_generator_expands_a_fragment(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(generate("-- fragment: t_probe\n"
				  "-- The record of key c.k.\n"
				  "SELECT r.* FROM public.r r\n"
				  "WHERE r.k = c.k LIMIT 1\n"
				  "-- name: t_use\n"
				  "-- Each staged record and its match.\n"
				  "SELECT c.k FROM s c CROSS JOIN LATERAL ({t_probe}) r\n",
				  &out, &err),
			 0);
	assert_string_equal(err, "");
	assert_non_null(strstr(out, "#define CL_SQL_T_USE \\\n"
				    "\t\"SELECT c.k FROM s c CROSS JOIN LATERAL (SELECT r.* FROM public.r r\\n\" \\\n"
				    "\t\"WHERE r.k = c.k LIMIT 1) r\"\n"));
	assert_null(strstr(out, "CL_SQL_T_PROBE"));
	assert_non_null(strstr(out, "#define CL_LOADER_SQL_LIST(X) \\\n"
				    "\tX(\"t_use\", CL_SQL_T_USE)\n"));
	free(out);
	free(err);
}

static void test_generator_refuses_what_it_cannot_embed(void **state)
{
	(void)state;
	refused("-- name: t_x\n-- What.\nSELECT {record_column} FROM x\n",
		"3: error: unknown placeholder {record_column} in t_x");
	refused("-- name: t_x\n-- What.\nSELECT {record_columns FROM x\n",
		"3: error: unterminated placeholder in t_x");
	refused("-- nmae: t_x\n-- What.\nSELECT 1\n", "1: error: unknown marker '-- nmae:'");
	refused("-- name: t_x\nSELECT 1\n", "1: error: t_x: no comment says what it does");
	refused("-- name: t_x\n-- What.\n", "1: error: t_x has no SQL");
	refused("-- name: t_x\n-- Tenant $1.\nSELECT $1, $2\n",
		"1: error: t_x uses $2: its comment must say what $2 is");
	refused("-- name: t_x\n-- Tenant $10.\nSELECT $1\n",
		"1: error: t_x uses $1: its comment must say what $1 is");
	refused("-- name: u_x\n-- What.\nSELECT 1\n",
		"1: error: statement name 'u_x' must start with 't_'");
	refused("-- name: t_x\n-- What.\nSELECT 1\n-- name: t_x\n-- What.\nSELECT 2\n",
		"4: error: statement 't_x' defined twice");
	refused("SELECT 1\n", "1: error: SQL before the first '-- name:' marker");
	refused("-- name: t_x\n-- What.\nSELECT 1 -- one\n",
		"3: error: a comment goes on a line of its own (t_x)");
	refused("-- name: t_x\n-- What.\nSELECT 'a\n", "1: error: t_x: unterminated '");
	refused("-- fragment: t_f\n-- Tenant $1.\nSELECT $1\n",
		"3: error: fragment t_f: a fragment takes no parameters ($1)");
	refused("-- name: t_x\n-- What.\nSELECT ({t_f})\n-- fragment: t_f\n-- What.\nSELECT 1\n",
		"3: error: unknown placeholder {t_f} in t_x");
	refused("-- fragment: t_f\n-- What.\nSELECT 1\n-- name: t_f\n-- What.\nSELECT 2\n",
		"4: error: statement 't_f' defined twice");
}

/* Quoted text is text: braces, dashes and dollars in it are no syntax. */
static void test_generator_leaves_quoted_text_alone(void **state)
{
	char *out, *err;

	(void)state;
	assert_int_equal(generate("-- name: t_q\n-- Constants only.\n"
				  "SELECT '{a,b}', '--', '$1', \"x{y}\" FROM x\n",
				  &out, &err),
			 0);
	assert_string_equal(err, "");
	assert_non_null(strstr(out, "\t\"SELECT '{a,b}', '--', '$1', \\\"x{y}\\\" FROM x\"\n"));
	free(out);
	free(err);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char path[64];

	(void)state;
	snprintf(path, sizeof(path), "%s/t.sql", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/out", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/err", dir);
	unlink(path);
	return rmdir(dir);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_named_statement_of_the_files_is_embedded),
		cmocka_unit_test(test_no_placeholder_or_comment_is_left),
		cmocka_unit_test(test_placeholders_expand_to_the_field_tables_lists),
		cmocka_unit_test(test_show_has_complete_statements_per_lookup),
		cmocka_unit_test(test_generator_embeds_a_statement),
		cmocka_unit_test(test_generator_expands_a_fragment),
		cmocka_unit_test(test_generator_refuses_what_it_cannot_embed),
		cmocka_unit_test(test_generator_leaves_quoted_text_alone),
	};
	const char *slash = strrchr(argv[0], '/');

	(void)argc;
	/* this test is BUILD/tests/test_loader_sql, the generator BUILD/gen/ */
	snprintf(gen, sizeof(gen), "%.*s/../gen/gen_record_sql",
		 slash ? (int)(slash - argv[0]) : 1, slash ? argv[0] : ".");
	return cmocka_run_group_tests_name("loader_sql", tests, setup, teardown);
}
