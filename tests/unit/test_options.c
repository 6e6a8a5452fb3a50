/* test_options.c - option tables: parsing by them and --help printed from them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/options.h"

static const struct cl_choice picks[] = { { "one", 1 }, { "two", 2 }, { NULL, 0 } };

static void take_search(struct cl_args *args, const struct cl_option *opt, const char *arg)
{
	args->search_by = opt->value;
	args->search = arg;
	args->searches++;
}

static const struct cl_option shared[] = {
	CL_OPT_FORMAT(),
	CL_OPT_NO_MASK(),
	CL_OPT_END(),
};

static const struct cl_option test_command[] = {
	CL_OPT_USAGE("test", CL_FILE_OPERANDS, "[OPTION]... FILE..."),
	CL_OPT_TEXT("What the test command does, in a sentence long enough to be wrapped at the "
		    "seventy-ninth column."),
	CL_OPT_DB(),
	CL_OPT_ULONG('n', "limit", "N", limit, 1, 10, "at most N"),
	CL_OPT_CHOICE(0, "on-conflict", "MODE", on_conflict, picks, "one or two"),
	CL_OPT_CALLBACK(0, "trace", "T", take_search, 7, "search by trace"),
	CL_OPT_INCLUDE(shared),
	CL_OPT_VERBOSE(),
	CL_OPT_TEXT("Exit status: 0 success, 2 usage error."),
	CL_OPT_END(),
};

static int parse(int argc, const char **argv, struct cl_args *args)
{
	memset(args, 0, sizeof(*args));
	return cl_parse_options(test_command, argc, (char **)argv, args);
}

static void test_options_set_their_fields(void **state)
{
	const char *argv[] = { "test", "-d", "dbname=x", "--limit=7", "--on-conflict", "two",
			       "--trace=123", "-vv", "-f", "csv", "--no-mask", "/dev/null", "-" };
	struct cl_args a;

	(void)state;
	assert_int_equal(parse(13, argv, &a), -1);
	assert_string_equal(a.cmd, "test");
	assert_string_equal(a.db, "dbname=x");
	assert_int_equal(a.limit, 7);
	assert_int_equal(a.on_conflict, 2);
	assert_int_equal(a.search_by, 7);
	assert_string_equal(a.search, "123");
	assert_int_equal(a.searches, 1);
	assert_int_equal(a.verbose, 2);
	assert_int_equal(a.format, CL_OUT_CSV);
	assert_true(a.no_mask);
	assert_int_equal(a.noperands, 2);
	assert_string_equal(a.operands[0], "/dev/null");
	assert_string_equal(a.operands[1], "-");
	assert_int_equal(cl_opt_verbose, 2);
	assert_true(cl_opt_no_mask);
	cl_opt_verbose = 0;
	cl_opt_no_mask = false;
}

static void test_options_refuse_bad_values_and_operands(void **state)
{
	const char *limit[] = { "test", "--limit=11", "f" };
	const char *choice[] = { "test", "--on-conflict=three", "f" };
	const char *unknown[] = { "test", "--frobnicate", "f" };
	const char *nofile[] = { "test", "-v" };
	const char *stdin2[] = { "test", "-", "-" };
	const char *missing[] = { "test", "/dev/null", "/nonexistent/inbox/*.ach" };
	const char *dir[] = { "test", "/tmp" };
	const char *fine[] = { "test", "/dev/null" };
	struct cl_args a;

	(void)state;
	assert_int_equal(parse(3, limit, &a), CL_EXIT_USAGE);
	assert_int_equal(a.limit, 0);
	assert_int_equal(parse(3, choice, &a), CL_EXIT_USAGE);
	assert_int_equal(parse(3, unknown, &a), CL_EXIT_USAGE);
	assert_int_equal(parse(2, nofile, &a), CL_EXIT_USAGE);
	assert_int_equal(parse(3, stdin2, &a), CL_EXIT_USAGE);
	/* a missing file, an unmatched glob or a directory: the command
	   line's mistake (no load row), not an invalid file */
	assert_int_equal(parse(3, missing, &a), CL_EXIT_USAGE);
	assert_int_equal(parse(2, dir, &a), CL_EXIT_USAGE);
	assert_int_equal(parse(2, fine, &a), -1);
}

static void test_option_named_finds_exact_names_and_help(void **state)
{
	(void)state;
	assert_non_null(cl_option_named(test_command, "-d"));
	assert_string_equal(cl_option_named(test_command, "--no-mask")->long_name, "no-mask");
	assert_int_equal(cl_option_named(test_command, "-h")->type, CL_OPTION_HELP);
	assert_int_equal(cl_option_named(test_command, "--help")->type, CL_OPTION_HELP);
	assert_null(cl_option_named(test_command, "--hel"));
	assert_null(cl_option_named(test_command, "--test"));
}

/* What cl_print_help(test_command) writes on stdout (malloc'd). */
static char *help_text(void)
{
	FILE *f = tmpfile();
	int saved = dup(STDOUT_FILENO);
	char *buf = calloc(1, 8192);

	assert_non_null(f);
	fflush(stdout);
	dup2(fileno(f), STDOUT_FILENO);
	cl_print_help(test_command);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	rewind(f);
	assert_true(fread(buf, 1, 8191, f) > 0);
	fclose(f);
	return buf;
}

static void test_help_comes_from_the_table(void **state)
{
	char *help = help_text();

	(void)state;
	assert_string_equal(
		help,
		"Usage: clearing-load test [OPTION]... FILE...\n"
		"What the test command does, in a sentence long enough to be wrapped at the\n"
		"seventy-ninth column.\n"
		"\n"
		"  -d, --db=CONNINFO       connection string or URI (default: libpq environment,\n"
		"                          PGSERVICE); never a password: use ~/.pgpass\n"
		"      --schema=NAME       the schema of clearing-load's tables (default:\n"
		"                          $CLEARING_LOAD_SCHEMA, else public)\n"
		"      --wait-limit=SECONDS\n"
		"                          the longest wait for the server, connecting included\n"
		"                          (default 300); one that expires before COMMIT rolls\n"
		"                          the file back (exit 75)\n"
		"  -n, --limit=N           at most N\n"
		"      --on-conflict=MODE  one or two\n"
		"      --trace=T           search by trace\n"
		"  -f, --format=FORMAT     text (default), json or csv\n"
		"      --no-mask           print account numbers in full\n"
		"  -v, --verbose           also print notes (CRLF, missing 9-fill, short lines,\n"
		"                          retries)\n"
		"  -h, --help              display this help and exit\n"
		"\n"
		"Exit status: 0 success, 2 usage error.\n");
	free(help);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options_set_their_fields),
		cmocka_unit_test(test_options_refuse_bad_values_and_operands),
		cmocka_unit_test(test_option_named_finds_exact_names_and_help),
		cmocka_unit_test(test_help_comes_from_the_table),
	};

	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
