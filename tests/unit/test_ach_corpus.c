/* test_ach_corpus.c - every file of the ACH corpus (testdata/ach/corpus)
 * through the parser: the verdict and reason in EXPECT, no crash or hang,
 * and the same events whatever the chunking. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ach_fixture.h"

#define CORPUS "testdata/ach/corpus"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (cap - n < 65536) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	*len = n;
	return buf;
}

static bool has_code(const struct run *r, const char *code)
{
	return find_err(r, code) != NULL;
}

static bool same_events(const struct run *x, const struct run *y)
{
	if (x->n != y->n)
		return false;
	for (size_t i = 0; i < x->n; i++) {
		const struct ev *a = &x->ev[i], *b = &y->ev[i];

		if (a->st != b->st || a->line != b->line || strcmp(a->code, b->code) ||
		    strcmp(a->message, b->message))
			return false;
		if (a->st == CL_OK && (strcmp(a->rec.natural_key, b->rec.natural_key) ||
				       memcmp(a->rec.fingerprint, b->rec.fingerprint, 32)))
			return false;
	}
	return true;
}

static void test_ach_corpus_matches_expectations(void **state)
{
	FILE *m = fopen(CORPUS "/EXPECT", "r");
	char line[1024];
	unsigned files = 0, failed = 0, valid = 0;
	struct cl_parse_opts o = {0};

	(void)state;
	assert_non_null(m);
	while (fgets(line, sizeof(line), m)) {
		char verdict[16], reason[CL_CODE_MAX], rel[512], path[600];
		struct run whole, part;
		size_t len;
		char *buf;
		bool ok;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		assert_int_equal(sscanf(line, "%15s %39s %511s", verdict, reason, rel), 3);
		snprintf(path, sizeof(path), "%s/%s", CORPUS, rel);
		buf = slurp(path, &len);
		if (!buf) {
			print_message("missing corpus file %s\n", path);
			failed++;
			continue;
		}
		files++;
		run_opts(&whole, buf, len, 0, &o);
		if (strcmp(verdict, "valid") == 0) {
			ok = whole.errors == 0;
			valid++;
		} else {
			ok = whole.errors > 0 && has_code(&whole, reason);
		}
		if (!ok) {
			print_message("%s: expected %s %s, got %u errors:\n", rel, verdict, reason,
				      whole.errors);
			for (size_t i = 0; i < whole.n && i < 5; i++)
				if (whole.ev[i].st == CL_INVALID)
					print_message("  %lu [%s] %s\n", whole.ev[i].line,
						      whole.ev[i].code, whole.ev[i].message);
			failed++;
		}
		/* one byte per read for small files, a few bytes for the big ones */
		run_opts(&part, buf, len, len < 65536 ? 1 : 7, &o);
		if (!same_events(&whole, &part)) {
			print_message("%s: chunked reading gives other results\n", rel);
			failed++;
		}
		run_free(&part);
		run_free(&whole);
		free(buf);
	}
	fclose(m);
	print_message("ach corpus: %u files, %u valid expected, %u failures\n", files, valid, failed);
	assert_true(files > 200);
	assert_int_equal(failed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ach_corpus_matches_expectations),
	};

	return cmocka_run_group_tests_name("ach_corpus", tests, NULL, NULL);
}
