/*
 * near_vectors - the C side of the near-duplicate test vectors
 * (tests/db/test_near_vectors.sh holds the SQL side to the same answers).
 *
 *   near_vectors keys <VECTORS
 *       each line: kind, company_id, trace_number, receiving_account,
 *       receiving_dfi, amount_minor, original_trace, reason_code,
 *       original_rdfi, tab-separated; prints the line number, the near
 *       identity of rules/near.c and its stored form (cl_near_hash) in hex
 *       under shard line * 1000003 (both empty when the rule is not about
 *       the kind)
 *   near_vectors shards <VECTORS
 *       each line: kind, natural key, tab-separated; prints the line
 *       number and the shard identity of rules/shard.c
 *       (tests/db/test_shard.sh holds migration 022's clearing_shard to it)
 *   near_vectors dates FROM DAYS [FROM DAYS]...
 *       every pair of dates of the ranges (and each date with no date):
 *       a, b, cl_banking_days, cl_near_dates as t or f (no date: empty)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/banking_days.h"
#include "rules/near.h"
#include "rules/shard.h"

static int field(char *dst, size_t cap, char **line)
{
	char *tab = strchr(*line, '\t');
	size_t n = tab ? (size_t)(tab - *line) : strlen(*line);

	if (n >= cap)
		return -1;
	memcpy(dst, *line, n);
	dst[n] = '\0';
	*line += n + (tab ? 1 : 0);
	return 0;
}

static int keys(void)
{
	char buf[4096], kind[32], amount[32], out[CL_NEAR_KEY_MAX];
	char hex[2 * CL_NEAR_HASH_LEN + 1];
	unsigned char h[CL_NEAR_HASH_LEN];
	struct cl_sha256 *sha = cl_sha256_new();
	unsigned long no = 0;

	while (fgets(buf, sizeof(buf), stdin)) {
		struct cl_record rec;
		char *p = buf;

		buf[strcspn(buf, "\n")] = '\0';
		no++;
		cl_record_clear(&rec);
		if (field(kind, sizeof(kind), &p) ||
		    field(rec.company_id, sizeof(rec.company_id), &p) ||
		    field(rec.trace_number, sizeof(rec.trace_number), &p) ||
		    field(rec.receiving_account, sizeof(rec.receiving_account), &p) ||
		    field(rec.receiving_dfi, sizeof(rec.receiving_dfi), &p) ||
		    field(amount, sizeof(amount), &p) ||
		    field(rec.original_trace, sizeof(rec.original_trace), &p) ||
		    field(rec.reason_code, sizeof(rec.reason_code), &p) ||
		    field(rec.original_rdfi, sizeof(rec.original_rdfi), &p)) {
			fprintf(stderr, "near_vectors: line %lu: a field is too long\n", no);
			cl_sha256_free(sha);
			return 1;
		}
		rec.kind = kind;
		rec.amount_minor = strtoll(amount, NULL, 10);
		if (!cl_near_key(&rec, out, sizeof(out)))
			out[0] = '\0';
		hex[0] = '\0';
		if (cl_near_hash(sha, &rec, (int64_t)no * 1000003, h))
			for (int i = 0; i < CL_NEAR_HASH_LEN; i++)
				snprintf(hex + 2 * i, 3, "%02x", h[i]);
		printf("%lu\t%s\t%s\n", no, out, hex);
	}
	cl_sha256_free(sha);
	return 0;
}

static int shards(void)
{
	char buf[4096], kind[32];
	unsigned long no = 0;

	while (fgets(buf, sizeof(buf), stdin)) {
		char *line = buf, *nl = strchr(buf, '\n');

		if (nl)
			*nl = '\0';
		no++;
		if (field(kind, sizeof(kind), &line) != 0) {
			fprintf(stderr, "near_vectors: line %lu: kind too long\n", no);
			return 1;
		}
		printf("%lu\t%" PRId64 "\n", no, cl_shard(kind, line));
	}
	return 0;
}

static void date_pair(const char *a, const char *b, long da, long db)
{
	bool near = cl_near_dates(a, b);

	if (*a && *b)
		printf("%s\t%s\t%ld\t%c\n", a, b, cl_banking_days(da, db), near ? 't' : 'f');
	else
		printf("%s\t%s\t\t%c\n", a, b, near ? 't' : 'f');
}

static int dates(int argc, char **argv)
{
	for (int r = 0; r + 1 < argc; r += 2) {
		long from, n = strtol(argv[r + 1], NULL, 10);

		if (!cl_date_days(argv[r], &from) || n < 1 || n > 1000) {
			fprintf(stderr, "near_vectors: bad range %s %s\n", argv[r], argv[r + 1]);
			return 1;
		}
		for (long i = 0; i < n; i++) {
			char a[11], b[11];

			cl_days_date(from + i, a);
			date_pair(a, "", from + i, 0);
			date_pair("", a, 0, from + i);
			for (long j = 0; j < n; j++) {
				cl_days_date(from + j, b);
				date_pair(a, b, from + i, from + j);
			}
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "keys") == 0)
		return keys();
	if (argc >= 2 && strcmp(argv[1], "shards") == 0)
		return shards();
	if (argc >= 4 && strcmp(argv[1], "dates") == 0)
		return dates(argc - 2, argv + 2);
	fprintf(stderr, "usage: near_vectors keys <VECTORS | shards <VECTORS | dates FROM DAYS [FROM DAYS]...\n");
	return 2;
}
