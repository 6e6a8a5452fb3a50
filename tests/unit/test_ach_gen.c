/* test_ach_gen.c - the generator's files through the parser: valid, and
 * the same entry index gives the same key and fingerprint whatever the
 * batch size, creation time or line ends; missing and changed entries
 * show up as such.  (gen_ach.c is compiled in, its main renamed.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <getopt.h>
#include <unistd.h>

#define main gen_ach_main
#include "../tools/gen_ach.c"
#undef main

#include "ach_fixture.h"

/* Run gen_ach with `args` (space separated); returns its output. */
static char *gen(const char *args, size_t *len)
{
	char buf[256], *argv[32];
	int argc = 0, saved, fd;
	char path[] = "/tmp/test_ach_gen_XXXXXX";
	char *out;
	off_t size;

	snprintf(buf, sizeof(buf), "gen_ach %s", args);
	for (char *t = strtok(buf, " "); t && argc < 31; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(fd, STDOUT_FILENO);
	optind = 0; /* glibc: start getopt afresh */
	assert_int_equal(gen_ach_main(argc, argv), 0);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	size = lseek(fd, 0, SEEK_END);
	out = malloc((size_t)size + 1);
	assert_int_equal(pread(fd, out, (size_t)size, 0), size);
	close(fd);
	*len = (size_t)size;
	return out;
}

static void run_gen(struct run *r, const char *args)
{
	size_t len;
	char *buf = gen(args, &len);

	run_buf(r, buf, len);
	free(buf);
}

/* The record with natural key `key` in r, or NULL. */
static const struct cl_record *by_key(const struct run *r, const char *key)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->ev[i].st == CL_OK && strcmp(r->ev[i].rec.natural_key, key) == 0)
			return &r->ev[i].rec;
	return NULL;
}

static void test_ach_gen_files_are_valid(void **state)
{
	struct run r;

	(void)state;
	run_gen(&r, "--entries 2500 --batch-size 300 --company-count 3");
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.records, 2500);
	assert_null(find_note(&r, "missing_fill"));
	run_free(&r);
	run_gen(&r, "--entries 7 --crlf --start 4990");
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.records, 7);
	assert_non_null(find_note(&r, "crlf"));
	run_free(&r);
}

static void test_ach_gen_rebatched_file_same_keys_and_fingerprints(void **state)
{
	struct run a, b;

	(void)state;
	run_gen(&a, "--entries 1200 --batch-size 500 --created 2603011200");
	run_gen(&b, "--entries 1200 --batch-size 37 --created 2603020815 --crlf");
	assert_int_equal(a.errors + b.errors, 0);
	assert_int_equal(a.records, b.records);
	for (size_t i = 0; i < a.n; i++) {
		const struct cl_record *x = &a.ev[i].rec, *y;

		if (a.ev[i].st != CL_OK)
			continue;
		y = by_key(&b, x->natural_key);
		assert_non_null(y);
		assert_memory_equal(x->fingerprint, y->fingerprint, 32);
		assert_string_not_equal(x->batch_number, "");
	}
	run_free(&a);
	run_free(&b);
}

static void test_ach_gen_missing_and_changed_entries(void **state)
{
	struct run full, skip, bump;
	unsigned changed = 0, same = 0;

	(void)state;
	run_gen(&full, "--entries 300");
	run_gen(&skip, "--entries 300 --skip-every 3");
	run_gen(&bump, "--entries 300 --bump-amount-every 10");
	assert_int_equal(full.errors + skip.errors + bump.errors, 0);
	assert_int_equal(skip.records, 200);
	/* every record of the upload with records missing is in the full one */
	for (size_t i = 0; i < skip.n; i++) {
		const struct cl_record *x = &skip.ev[i].rec, *y;

		if (skip.ev[i].st != CL_OK)
			continue;
		y = by_key(&full, x->natural_key);
		assert_non_null(y);
		assert_memory_equal(x->fingerprint, y->fingerprint, 32);
	}
	/* every 10th amount changed: same key, other fingerprint */
	for (size_t i = 0; i < bump.n; i++) {
		const struct cl_record *x = &bump.ev[i].rec, *y;

		if (bump.ev[i].st != CL_OK)
			continue;
		y = by_key(&full, x->natural_key);
		assert_non_null(y);
		if (memcmp(x->fingerprint, y->fingerprint, 32) != 0) {
			assert_int_equal(x->amount_minor, y->amount_minor + 1);
			changed++;
		} else {
			same++;
		}
	}
	assert_int_equal(changed, 30);
	assert_int_equal(same, 270);
	run_free(&full);
	run_free(&skip);
	run_free(&bump);

	run_gen(&skip, "--entries 300 --only-every 100");
	assert_int_equal(skip.errors, 0);
	assert_int_equal(skip.records, 3);
	run_free(&skip);
}

static void test_ach_gen_too_many_batches(void **state)
{
	size_t len;
	char *buf = gen("--entries 200001 --batch-size 1", &len);
	struct cl_input *in = cl_input_from_memory(buf, len, 0, "many.ach");
	struct cl_parser *p = cl_parser_new(CL_FORMAT_ACH, in, NULL);
	const struct cl_record *rec;
	struct cl_error err, first;
	enum cl_status st;
	unsigned errors = 0, records = 0;

	(void)state;
	while ((st = cl_parser_next(p, &rec, &err)) != CL_END) {
		if (st == CL_INVALID && errors++ == 0)
			first = err;
		records += st == CL_OK;
	}
	assert_int_equal(records, 200001);
	assert_int_equal(errors, 1);
	assert_string_equal(first.code, "too_many_batches");
	/* batch 200001: after the file header, 200000 batches of 3 lines and an
	 * addenda on every 10th entry */
	assert_int_equal(first.line, 1 + 3 * 200000 + 200000 / 10 + 1);
	cl_parser_free(p);
	cl_input_free(in);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ach_gen_files_are_valid),
		cmocka_unit_test(test_ach_gen_rebatched_file_same_keys_and_fingerprints),
		cmocka_unit_test(test_ach_gen_missing_and_changed_entries),
		cmocka_unit_test(test_ach_gen_too_many_batches),
	};

	return cmocka_run_group_tests_name("ach_gen", tests, NULL, NULL);
}
