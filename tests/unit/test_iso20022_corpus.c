/* test_iso20022_corpus.c - every real file copied from the corpus
 * (testdata/iso20022/SOURCES.md) gives the outcome its MANIFEST line
 * states: how many records, and exactly which error codes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <libxml/parser.h>

#include "test_iso20022_util.h"

#define DIR "testdata/iso20022/"

static struct iso_run run;

/* The distinct error codes of a run, sorted, comma-separated ("-" if none). */
static void codes_of(const struct iso_run *r, char *out, size_t cap)
{
	const char *codes[RUN_MAX];
	int n = 0;

	for (int i = 0; i < r->nerr && i < RUN_MAX; i++) {
		int j = 0;

		while (j < n && strcmp(codes[j], r->err[i].code) != 0)
			j++;
		if (j == n)
			codes[n++] = r->err[i].code;
	}
	for (int i = 1; i < n; i++) /* insertion sort: a handful */
		for (int j = i; j > 0 && strcmp(codes[j - 1], codes[j]) > 0; j--) {
			const char *t = codes[j];

			codes[j] = codes[j - 1];
			codes[j - 1] = t;
		}
	out[0] = '\0';
	for (int i = 0; i < n; i++)
		snprintf(out + strlen(out), cap - strlen(out), "%s%s", i ? "," : "", codes[i]);
	if (n == 0)
		snprintf(out, cap, "-");
}

/* A valid file cut short is never valid: every cut before the end of its
 * outermost element (before each tag, and inside names, text and
 * attributes every 53 bytes) leaves an error, and never "valid, N
 * records" (issue 27: an empty or truncated message is invalid). */
static void check_cuts(const char *path, const char *buf, size_t len)
{
	size_t end = len, cuts = 0;

	while (end > 0 && buf[end - 1] != '>')
		end--;
	for (size_t c = 0; c < end; c++) {
		if (buf[c] != '<' && c % 53)
			continue;
		iso_run_opts(buf, c, 0, NULL, &run);
		cuts++;
		if (run.nerr == 0)
			fail_msg("%s cut after %zu of %zu bytes: valid, %d records", path, c, len,
				 run.nrec);
	}
	assert_true(cuts > 10);
}

static void check_file(const char *path, const char *verdict, const char *arg1, const char *arg2)
{
	char full[600], got[256];
	size_t len = 0;
	char *buf;
	long want_records = 0;
	const char *want_codes = "-";

	snprintf(full, sizeof(full), DIR "%s", path);
	buf = read_file(full, &len);
	if (!buf)
		fail_msg("%s: cannot read", full);
	if (strcmp(verdict, "valid") == 0) {
		want_records = strtol(arg1, NULL, 10);
	} else if (strcmp(verdict, "invalid") == 0) {
		want_records = strtol(arg1, NULL, 10);
		want_codes = arg2;
	} else if (strcmp(verdict, "unsupported") == 0) {
		want_codes = arg1;
	} else {
		fail_msg("%s: unknown verdict %s", path, verdict);
	}
	for (size_t chunk = 0; chunk < 4; chunk += 3) { /* whole reads, then 3 bytes */
		iso_run_opts(buf, len, chunk, NULL, &run);
		codes_of(&run, got, sizeof(got));
		if (run.nrec != want_records || strcmp(got, want_codes) != 0)
			fail_msg("%s (chunk %zu): expected %ld records and errors %s, got %d "
				 "records and errors %s (first: %s)",
				 path, chunk, want_records, want_codes, run.nrec, got,
				 run.nerr ? run.err[0].message : "-");
		if (strcmp(verdict, "unsupported") == 0)
			assert_int_equal(run.nerr, 1);
		assert_int_equal(run.io, 0);
	}
	if (strcmp(verdict, "valid") == 0)
		check_cuts(path, buf, len);
	free(buf);
}

static void test_iso20022_corpus_manifest(void **state)
{
	FILE *f = fopen(DIR "MANIFEST", "r");
	char line[1024];
	int files = 0, valid = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char path[512], verdict[32], a1[256], a2[256];
		int n;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		a1[0] = a2[0] = '\0';
		n = sscanf(line, "%511s %31s %255s %255s", path, verdict, a1, a2);
		assert_true(n >= 3);
		check_file(path, verdict, a1, a2);
		files++;
		valid += strcmp(verdict, "valid") == 0;
	}
	fclose(f);
	assert_true(files >= 97); /* every copied file is listed */
	assert_true(valid >= 40);
}

static int teardown(void **state)
{
	(void)state;
	xmlCleanupParser();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iso20022_corpus_manifest),
	};

	return cmocka_run_group_tests_name("iso20022_corpus", tests, NULL, teardown);
}
