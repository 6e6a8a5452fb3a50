/* near.c - the ACH near-duplicate identity and date rule (see .h). */
#include "rules/near.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/banking_days.h"

bool cl_near_applies(const char *kind)
{
	return strcmp(kind, "ach.entry") == 0 || strcmp(kind, "ach.return") == 0 ||
	       strcmp(kind, "ach.noc") == 0;
}

bool cl_near_plain_return(const char *c)
{
	bool special = c[0] == 'R' &&
		       ((c[1] == '6' && c[2] >= '1' && c[2] <= '9') ||
			(c[1] == '7' && c[2] >= '0' && c[2] <= '7')) &&
		       c[3] == '\0';

	return !special;
}

/* out[*n] onward: '|' then the span s[0..len) escaped; stops at cap-1. */
static void put(char *out, size_t cap, size_t *n, const char *s, size_t len, bool bar)
{
	size_t i;

	if (bar && *n + 1 < cap)
		out[(*n)++] = '|';
	for (i = 0; i < len; i++) {
		if ((s[i] == '\\' || s[i] == '|') && *n + 1 < cap)
			out[(*n)++] = '\\';
		if (*n + 1 < cap)
			out[(*n)++] = s[i];
	}
	out[*n] = '\0';
}

static void put_str(char *out, size_t cap, size_t *n, const char *s)
{
	put(out, cap, n, s, strlen(s), true);
}

static void put_amount(char *out, size_t cap, size_t *n, int64_t amount)
{
	char b[24];
	int len = snprintf(b, sizeof(b), "%" PRId64, amount);

	put(out, cap, n, b, (size_t)len, true);
}

bool cl_near_key(const struct cl_record *rec, char *out, size_t cap)
{
	size_t n = 0;

	if (cap == 0)
		return false;
	out[0] = '\0';
	if (strcmp(rec->kind, "ach.entry") == 0) {
		const char *a = rec->receiving_account;
		size_t len;

		while (*a == ' ' || *a == '0')
			a++;
		len = strlen(a);
		while (len && a[len - 1] == ' ')
			len--;
		put(out, cap, &n, "E", 1, false);
		put_str(out, cap, &n, rec->company_id);
		put_str(out, cap, &n, rec->trace_number);
		put(out, cap, &n, a, len, true);
		put_str(out, cap, &n, rec->receiving_dfi);
	} else if (strcmp(rec->kind, "ach.return") == 0 || strcmp(rec->kind, "ach.noc") == 0) {
		bool ret = rec->kind[4] == 'r';

		put(out, cap, &n, ret ? "R" : "N", 1, false);
		put_str(out, cap, &n, rec->original_trace);
		put_str(out, cap, &n,
			ret && cl_near_plain_return(rec->reason_code) ? "plain" : rec->reason_code);
		put_str(out, cap, &n, rec->original_rdfi);
	} else {
		return false;
	}
	put_amount(out, cap, &n, rec->amount_minor);
	return true;
}

bool cl_near_hash(struct cl_sha256 *h, const struct cl_record *rec, int64_t shard,
		  unsigned char out[CL_NEAR_HASH_LEN])
{
	char key[CL_NEAR_KEY_MAX];
	unsigned char md[32];
	uint64_t u = (uint64_t)shard;

	if (!cl_near_key(rec, key, sizeof(key)))
		return false;
	cl_sha256_begin(h);
	cl_sha256_update(h, key, strlen(key));
	cl_sha256_end(h, md);
	for (int i = 7; i >= 0; i--, u >>= 8)
		out[i] = (unsigned char)(u & 0xff);
	memcpy(out + 8, md, CL_NEAR_HASH_LEN - 8);
	return true;
}

bool cl_near_days(bool have_a, long a, bool have_b, long b)
{
	long d = a > b ? a - b : b - a;

	if (!have_a || !have_b)
		return true;
	/* 5 banking days span at most 9 calendar days (a weekend on each
	   side): the cheap test first */
	return d <= 9 && cl_banking_days(a, b) <= CL_NEAR_BANKING_DAYS;
}

bool cl_near_dates(const char *a, const char *b)
{
	long da = 0, db = 0;
	bool ha = cl_date_days(a, &da), hb = cl_date_days(b, &db);

	return cl_near_days(ha, da, hb, db);
}

void cl_near_in_file_error(struct cl_error *e, const char *file, const char *kind,
			   unsigned long first, const char *da, unsigned long last, const char *db)
{
	bool entry = strcmp(kind, "ach.entry") == 0;
	char when[64];

	if (!*da || !*db)
		snprintf(when, sizeof(when), "twice (effective %s and %s", *da ? da : "(none)",
			 *db ? db : "(none)");
	else if (strcmp(da, db) == 0)
		snprintf(when, sizeof(when), "twice (both effective %s", da);
	else
		snprintf(when, sizeof(when), "under two effective dates (%s and %s", da, db);
	cl_error_set(e, file, last, "near_duplicate_in_file",
		     "the %s on lines %lu and %lu are one %s %s: %s): the file cannot be "
		     "loaded, because it would be applied twice",
		     entry ? "entries" : "returns or NOCs", first, last,
		     entry ? "payment" : "return", when,
		     entry ? "same originator, trace number, receiving account, RDFI and amount"
			   : "same original trace, original RDFI and amount");
	e->other_line = first;
}
