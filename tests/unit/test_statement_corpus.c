/* test_statement_corpus.c - every camt.052/053/054, pacs.002 and BAI2 file
 * copied from the corpus or from public repositories (testdata/statements/
 * SOURCES.md) gives what its MANIFEST line says: statements, entries,
 * transaction details, statuses, the amount they add up to, and exactly
 * which error codes; the same read whole and 3 bytes at a time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_statement_util.h"

#define DIR "testdata/statements/"

static struct stmt_run run;

/* The distinct error codes, sorted, comma-separated ("-" if none). */
static void codes_of(const struct stmt_run *r, char *out, size_t cap)
{
	const char *codes[SRUN_MAX];
	int n = 0;

	for (int i = 0; i < r->nerr && i < SRUN_MAX; i++) {
		int j = 0;

		while (j < n && strcmp(codes[j], r->err[i].code) != 0)
			j++;
		if (j == n)
			codes[n++] = r->err[i].code;
	}
	for (int i = 1; i < n; i++)
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

/* The amount column: camt entries' credits minus debits, pacs.002
 * transaction statuses' original amounts. */
static long long amount_of(const struct stmt_run *r)
{
	long long a = r->net;

	for (int i = 0; i < r->nitem && i < SRUN_MAX; i++)
		if (r->item[i].kind == CL_STMT_TX_STATUS && r->item[i].status.has_amount)
			a += r->item[i].status.amount_minor;
	return a;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf)
		*len = (size_t)n;
	return buf;
}

static void test_statement_corpus_manifest(void **state)
{
	FILE *m = fopen(DIR "MANIFEST", "r");
	char line[1024];
	int files = 0;

	(void)state;
	assert_non_null(m);
	while (fgets(line, sizeof(line), m)) {
		char path[600], codes[256], got[256], full[700];
		long st, en, tx, ss;
		long long amt;
		size_t len = 0;
		char *buf;
		uint64_t digest = 0;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%599s %ld %ld %ld %ld %lld %255s", path, &st, &en, &tx, &ss, &amt,
			   codes) != 7)
			fail_msg("MANIFEST: bad line %s", line);
		snprintf(full, sizeof(full), DIR "%s", path);
		buf = slurp(full, &len);
		if (!buf)
			fail_msg("%s: cannot read", full);
		for (size_t chunk = 0; chunk < 4; chunk += 3) {
			long items_ss;

			stmt_run(buf, len, chunk, &run);
			codes_of(&run, got, sizeof(got));
			items_ss = run.nkind[CL_STMT_GROUP_STATUS] + run.nkind[CL_STMT_TX_STATUS];
			if (run.nkind[CL_STMT_STATEMENT] != st || run.nkind[CL_STMT_ENTRY] != en ||
			    run.nkind[CL_STMT_TX] != tx || items_ss != ss || amount_of(&run) != amt ||
			    strcmp(got, codes) != 0)
				fail_msg("%s (chunk %zu): expected %ld %ld %ld %ld %lld %s, got %d %d %d "
					 "%ld %lld %s (first error: %s)",
					 path, chunk, st, en, tx, ss, amt, codes,
					 run.nkind[CL_STMT_STATEMENT], run.nkind[CL_STMT_ENTRY],
					 run.nkind[CL_STMT_TX], items_ss, amount_of(&run), got,
					 run.nerr ? run.err[0].message : "-");
			assert_int_equal(run.io, 0);
			if (chunk == 0)
				digest = run.digest;
			else
				assert_true(run.digest == digest);
		}
		free(buf);
		files++;
	}
	fclose(m);
	assert_true(files >= 50);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statement_corpus_manifest),
	};

	return cmocka_run_group_tests_name("statement_corpus", tests, NULL, NULL);
}
