/* feed.c - the feed's reads and acknowledgements (feed.h; statements:
 * sql/loader/feed.sql). */
#include "loader/feed.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/loader_sql.h"

#define COMMITS_PER_QUERY 100
#define ORDINAL_MASK ((1LL << CL_FEED_ORDINAL_BITS) - 1)

static enum cl_db_status acked_position(struct cl_db *db, const char *consumer, long long *pos,
					struct cl_error *err)
{
	char v[32];
	const char *p[1] = { consumer };
	enum cl_db_status st = cl_db_value(db, CL_SQL_FEED_ACKED, 1, p, v, sizeof(v), err);

	*pos = st == CL_DB_OK && v[0] ? strtoll(v, NULL, 10) : 0;
	return st;
}

enum cl_db_status cl_feed_read(struct cl_db *db, const char *consumer, const char *tenant,
			       unsigned long limit, cl_history_fn fn, void *ctx, long long *acked,
			       unsigned long *found, struct cl_error *err)
{
	enum cl_db_status st;
	long long pos;
	char from[24], count[24];

	*found = 0;
	if ((st = acked_position(db, consumer, acked, err)) != CL_DB_OK)
		return st;
	pos = *acked;
	/* commit by commit: each query is a primary-key range, each load's
	   records a range of (load_id, ordinal), whatever the history */
	for (;;) {
		const char *pc[3] = { from, tenant, count };
		PGresult *commits;
		int n;

		snprintf(from, sizeof(from), "%lld", pos >> CL_FEED_ORDINAL_BITS);
		snprintf(count, sizeof(count), "%d", COMMITS_PER_QUERY);
		if ((st = cl_db_exec(db, CL_SQL_FEED_COMMITS, 3, pc, &commits, err)) != CL_DB_OK)
			return st;
		n = PQntuples(commits);
		for (int i = 0; i < n && *found < limit; i++) {
			long long seq = strtoll(PQgetvalue(commits, i, 0), NULL, 10);
			char after[24], left[24];
			const char *pr[6] = { PQgetvalue(commits, i, 1), PQgetvalue(commits, i, 2),
					      PQgetvalue(commits, i, 0), PQgetvalue(commits, i, 3),
					      after, left };
			PGresult *recs;

			snprintf(after, sizeof(after), "%lld",
				 seq == pos >> CL_FEED_ORDINAL_BITS ? pos & ORDINAL_MASK : 0);
			snprintf(left, sizeof(left), "%lu", limit - *found);
			if ((st = cl_db_exec(db, CL_SQL_FEED_RECORDS, 6, pr, &recs, err)) != CL_DB_OK) {
				PQclear(commits);
				return st;
			}
			*found += (unsigned long)PQntuples(recs);
			cl_history_rows(recs, "feed_record", fn, ctx);
			PQclear(recs);
		}
		if (n < COMMITS_PER_QUERY || *found >= limit) {
			PQclear(commits);
			return CL_DB_OK;
		}
		pos = (strtoll(PQgetvalue(commits, n - 1, 0), NULL, 10) + 1) << CL_FEED_ORDINAL_BITS;
		PQclear(commits);
	}
}

enum cl_db_status cl_feed_blind(struct cl_db *db, const char *tenant, bool *blind,
				struct cl_error *err)
{
	char v[8];
	const char *p[1] = { tenant };
	enum cl_db_status st = cl_db_value(db, CL_SQL_FEED_BLIND, 1, p, v, sizeof(v), err);

	*blind = st == CL_DB_OK && v[0] == 't';
	return st;
}

enum cl_db_status cl_feed_ack(struct cl_db *db, const char *consumer, long long position,
			      bool *exists, long long *now, struct cl_error *err)
{
	char p_s[24], v[32];
	const char *p[2] = { consumer, p_s };
	enum cl_db_status st;

	snprintf(p_s, sizeof(p_s), "%lld", position);
	*exists = position == 0;
	if (!*exists) {
		if ((st = cl_db_value(db, CL_SQL_FEED_POSITION_EXISTS, 1, p + 1, v, sizeof(v), err)) !=
		    CL_DB_OK)
			return st;
		*exists = v[0] != '\0';
	}
	if (!*exists)
		return acked_position(db, consumer, now, err);
	if ((st = cl_db_value(db, CL_SQL_FEED_ACK, 2, p, v, sizeof(v), err)) != CL_DB_OK)
		return st;
	*now = strtoll(v, NULL, 10);
	return CL_DB_OK;
}
