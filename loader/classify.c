/* classify.c - duplicates, conflicts and near duplicates, in the database. */
#include "load_int.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failpoint.h"
#include "loader_sql.h"
#include "row.h"

/* ---- near duplicates and concurrency: originator locks ---- */

/*
 * A near duplicate has another key than the record it copies, so the unique
 * index cannot stop two concurrent loaders from applying both dates of one
 * payment.  ACH loaders therefore take a transaction-scoped advisory lock
 * per (tenant, originator) of the file before classifying: two loads that
 * share an originator run one after the other (the second sees the first's
 * records), loads of other originators run in parallel.  Locks are taken
 * in one global order (sorted company ids, after a shared tenant lock), so
 * they cannot deadlock; since ACH entry keys contain the originator, two
 * such loaders never wait on each other's rows either.  Over
 * MAX_COMPANY_LOCKS originators (the server's lock table is small), one
 * exclusive tenant-wide lock is taken instead.
 */
#define MAX_COMPANY_LOCKS 32

void cl_load_note_company(struct load *L, const char *company)
{
	size_t i;

	if (L->ncompanies && strcmp(L->companies[L->ncompanies - 1], company) == 0)
		return; /* entries come in batches of one originator */
	for (i = 0; i < L->ncompanies; i++)
		if (strcmp(L->companies[i], company) == 0)
			return;
	if (L->ncompanies > MAX_COMPANY_LOCKS)
		return; /* enough to know: a tenant-wide lock */
	if (L->ncompanies == L->companies_cap) {
		L->companies_cap = L->companies_cap ? 2 * L->companies_cap : 8;
		L->companies = cl_xrealloc(L->companies, L->companies_cap * sizeof(*L->companies));
	}
	snprintf(L->companies[L->ncompanies++], sizeof(L->companies[0]), "%s", company);
}

static int cmp_company(const void *a, const void *b)
{
	return strcmp(a, b);
}

enum cl_db_status cl_load_lock_originators(struct load *L)
{
	const char *p[2] = { L->o->tenant, NULL };
	bool wide = L->ncompanies > MAX_COMPANY_LOCKS;
	enum cl_db_status st;
	size_t i;

	if (L->nreturns) {
		/* returns and NOCs have no originator in their near identity:
		   one lock per tenant for the files that carry them, so a
		   return file and its re-dated copy loaded at once run one
		   after the other (review 3, R3-4) */
		st = cl_db_exec(L->db, CL_SQL_CLASSIFY_LOCK_RETURNS, 1, p, NULL, &L->r->err);
		if (st != CL_DB_OK)
			return st;
	}
	if (L->has_alt) {
		/* one lock per tenant for the files with alternate keys: two
		   loads of one payment in its two forms (with and without UETR)
		   run one after the other, the second sees the first */
		st = cl_db_exec(L->db, CL_SQL_CLASSIFY_LOCK_ALT_KEY, 1, p, NULL, &L->r->err);
		if (st != CL_DB_OK)
			return st;
	}
	if (!L->ncompanies)
		return CL_DB_OK;
	st = cl_db_exec(L->db,
			wide ? CL_SQL_CLASSIFY_LOCK_TENANT
			     : CL_SQL_CLASSIFY_LOCK_TENANT_SHARED,
			1, p, NULL, &L->r->err);
	if (st != CL_DB_OK || wide)
		return st;
	qsort(L->companies, L->ncompanies, sizeof(L->companies[0]), cmp_company);
	for (i = 0; i < L->ncompanies && st == CL_DB_OK; i++) {
		p[1] = L->companies[i];
		st = cl_db_exec(L->db, CL_SQL_CLASSIFY_LOCK_ORIGINATOR, 2, p, NULL, &L->r->err);
	}
	return st;
}


/* ---- classification: journal rows in one statement ---- */


/* Exact key matches: one INSERT ... SELECT writes the journal rows; its
 * row count is the number of matches.  No RETURNING: a data-modifying
 * statement's RETURNING rows are gathered in a tuplestore before the first
 * is sent (0.9 s for a million matches here); the few rows the client
 * needs are read back instead (match_rows_sql). */
static const char classify_sql[] = CL_SQL_CLASSIFY_EXACT;

/* The conflicts of this load, through the partial index of migration 005
 * (it holds only the journal rows that are not plain duplicates). */
static const char conflict_rows_sql[] = CL_SQL_CLASSIFY_CONFLICT_ROWS;

/* The duplicates of this load, needed only when some records are new
 * (pass 2 must skip the others): this load's journal rows are the block
 * ranges the BRIN index on load_id points at. */
static const char duplicate_rows_sql[] = CL_SQL_CLASSIFY_DUPLICATE_ROWS;

/* The start of a statement that writes journal rows of near duplicates
 * and sends back (ordinal, reason) of each. */
#define NEAR_JOURNAL                                                                          \
	"COPY ("                                                                             \
	" INSERT INTO public.clearing_dedupe_event (load_id, ordinal, position, tenant, kind,"  \
	"   natural_key, reason, matched_key, matched_load_id, matched_ordinal, matched_position)"

/* The journal rows of near duplicates: staged record C (of table T) meets
 * applied record r of this tenant; the join conditions follow. */
#define NEAR_INSERT(T, C)                                                                     \
	NEAR_JOURNAL                                                                         \
	" SELECT DISTINCT ON (" C ".ordinal)"                                                \
	"   pg_catalog.current_setting('clearing_load.load_id')::bigint, " C ".ordinal, "     \
	C ".position, r.tenant, r.kind, coalesce(" C ".journal_key, " C ".natural_key),"      \
	"   'near_duplicate', r.natural_key, r.load_id, r.ordinal, r.position"               \
	" FROM pg_temp." T " " C                                                              \
	" JOIN public.clearing_record r"                                                     \
	"   ON r.tenant = pg_catalog.current_setting('clearing_load.tenant')"

/* ACH near duplicates among the records without an exact match (entries,
 * returns and NOCs, staged by the client re-reading the file with their
 * near identities): an applied record of this tenant with the same near
 * identity (rules/near.h), another natural key and a near date is the same
 * payment or return again; the closest in date is named in the journal.
 * A lateral probe of clearing_record_near_key (migration 010) per staged
 * record, whatever the table holds: as a plain join, the planner hashes
 * the tenant's every record once the file is large (300,000 staged records
 * against 900,000 rows: 8.8 s hashing, 4.7 s probing, 1.5 s when nothing
 * matches).  Skipped when there is nothing to look for (an exact
 * re-upload, or a tenant without ACH records yet). */
static const char near_sql[] =
	NEAR_JOURNAL
	" SELECT pg_catalog.current_setting('clearing_load.load_id')::bigint, c.ordinal,"
	"   c.position, r.tenant, r.kind, coalesce(c.journal_key, c.natural_key),"
	"   'near_duplicate', r.natural_key, r.load_id, r.ordinal, r.position"
	" FROM pg_temp.cl_unmatched c"
	" CROSS JOIN LATERAL (SELECT r.tenant, r.kind, r.natural_key, r.load_id, r.ordinal,"
	"   r.position FROM public.clearing_record r"
	"  WHERE r.tenant = pg_catalog.current_setting('clearing_load.tenant')"
	"   AND r.near_key = c.near_key AND r.kind = c.kind AND r.natural_key <> c.natural_key"
	"   AND public.clearing_near_dates(r.value_date, c.value_date)"
	"  ORDER BY abs(r.value_date - c.value_date), r.load_id, r.ordinal LIMIT 1) r"
	" RETURNING ordinal, reason"
	") TO STDOUT";

/* The other ACH key rule (review 8): an entry whose originator, trace
 * number and effective date are already applied under the other rule is the
 * same payment under another key, never new: journaled as a near duplicate
 * (a conflict: the operator decides), like a re-dated copy.  For a v1 load
 * the probe goes through the partial index of migration 004 (empty unless
 * --ach-key=batch was ever used); a v1-batch load, the rare weaker mode,
 * scans the tenant's v1 entries. */
#define RULE_SQL(OTHER)                                                                      \
	NEAR_INSERT("cl_unmatched", "c")                                                     \
	"  AND r.kind = 'ach.entry' AND r.key_rule = '" OTHER "'"                            \
	"  AND r.company_id = c.company_id AND r.trace_number = c.trace_number"              \
	"  AND r.value_date = c.value_date"                                                  \
	" WHERE c.kind = 'ach.entry' AND NOT EXISTS (SELECT 1 FROM public.clearing_dedupe_event e"                    \
	"   WHERE e.load_id = pg_catalog.current_setting('clearing_load.load_id')::bigint"    \
	"   AND e.ordinal = c.ordinal)"                                                      \
	" ORDER BY c.ordinal, r.load_id, r.ordinal"                                          \
	" RETURNING ordinal, reason"                                                         \
	") TO STDOUT"

/* One payment under another natural key (record.h: alt_key): a record
 * whose key is not applied, but whose alt_key and fingerprint are, under
 * another key (the same pacs.008 sent before without its UETR, or after
 * with it).  A near duplicate: a conflict the operator decides on.  Another
 * fingerprint is another payment that happens to reuse an id: new. */
static const char alt_sql[] =
	NEAR_INSERT("cl_stage", "s")
	"  AND r.kind = s.kind AND r.natural_key <> s.natural_key"
	"  AND (r.alt_key IN (s.alt_key, s.alt_key2) OR r.alt_key2 IN (s.alt_key, s.alt_key2))"
	/* the same content; the instructed agent aside when both have an
	   alt_fp (one form of a payment may lack it: review 4, R4-2) */
	"  AND (r.fingerprint = s.fingerprint OR r.alt_fp = s.alt_fp)"
	" WHERE s.alt_key IS NOT NULL"
	"  AND NOT EXISTS (SELECT 1 FROM public.clearing_record x"
	"   WHERE x.tenant = r.tenant AND x.kind = s.kind AND x.natural_key = s.natural_key)"
	" ORDER BY s.ordinal, r.load_id, r.ordinal"
	" RETURNING ordinal, reason"
	") TO STDOUT";

static const char rule_sql_for_v1[] = RULE_SQL("v1-batch");
static const char rule_sql_for_batch[] = RULE_SQL("v1");

static int on_classified(void *ctx, char **f, int nf)
{
	struct load *L = ctx;
	unsigned long ord;

	if (nf < 2 || !f[0] || !f[1])
		return 0;
	ord = strtoul(f[0], NULL, 10);
	if (ord == 0)
		return 0;
	bit_set(&L->matched, ord);
	if (strcmp(f[1], "near_duplicate") == 0)
		L->near_count++;
	if (strcmp(f[1], "duplicate") != 0) {
		L->r->conflict_count++;
		bit_set(&L->conflicts, ord);
	}
	return 0;
}

/* Is a near-duplicate search worth it: ACH records staged, and the tenant
 * has applied ACH records? */
static enum cl_db_status near_wanted(struct load *L, bool *yes)
{
	PGresult *res;
	enum cl_db_status st;

	st = cl_db_exec(L->db,
			"SELECT EXISTS (SELECT 1 FROM pg_temp.cl_stage"
			"  WHERE kind IN ('ach.entry', 'ach.return', 'ach.noc'))"
			" AND EXISTS (SELECT 1 FROM public.clearing_record"
			"  WHERE tenant = pg_catalog.current_setting('clearing_load.tenant')"
			"  AND kind IN ('ach.entry', 'ach.return', 'ach.noc'))",
			0, NULL, &res, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	*yes = strcmp(PQgetvalue(res, 0, 0), "t") == 0;
	PQclear(res);
	return CL_DB_OK;
}

static enum cl_db_status near_duplicates(struct load *L)
{
	enum cl_db_status st;
	unsigned long copied;
	bool yes;

	if ((st = near_wanted(L, &yes)) != CL_DB_OK || !yes)
		return st;
	st = cl_load_stage_near(L, NEAR_ROWS, &copied);
	if (st == CL_DB_OK && copied) {
		if ((st = cl_load_exec0(L, CL_SQL_CLASSIFY_ANALYZE_UNMATCHED)) == CL_DB_OK)
			st = cl_copy_out(L->db, near_sql, on_classified, L, &L->r->err);
		if (st == CL_DB_OK)
			st = cl_copy_out(L->db,
					 L->o->parse.ach_key == CL_ACH_KEY_BATCH ? rule_sql_for_batch
										  : rule_sql_for_v1,
					 on_classified, L, &L->r->err);
	}
	return st;
}

/*
 * The plan of the exact-key join.  Against a table not much larger than the
 * file, hashing the staged keys and scanning clearing_record is fastest.
 * Against one many times larger (the steady state: 1M new records into
 * 10M), the planner still picks that hash join, whose probes into a large
 * table cost twice what a merge join over the primary key or index probes
 * do (12 s against 6 s for 1M keys and 11M rows here).  So for that one
 * statement, when the table's estimated rows exceed 8 times the file's
 * records, hash joins are switched off (SET LOCAL, back to DEFAULT after): the
 * alternatives left are the merge join and index probes, neither of which
 * can go quadratic.
 */
static enum cl_db_status large_table(struct load *L, bool *large)
{
	PGresult *res;
	enum cl_db_status st;

	st = cl_db_exec(L->db, CL_SQL_CLASSIFY_LARGE_TABLE, 0, NULL, &res, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	*large = strcmp(PQgetvalue(res, 0, 0), "t") == 0;
	PQclear(res);
	return CL_DB_OK;
}

/* The exact-key matches: journal rows, counts, and the bitmaps. */
static enum cl_db_status exact_matches(struct load *L)
{
	unsigned long matched;
	enum cl_db_status st;
	PGresult *res;

	if ((st = cl_db_exec(L->db, classify_sql, 0, NULL, &res, &L->r->err)) != CL_DB_OK)
		return st;
	matched = strtoul(PQcmdTuples(res), NULL, 10);
	PQclear(res);
	if (matched == 0)
		return CL_DB_OK;
	st = cl_copy_out(L->db, conflict_rows_sql, on_classified, L, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	if (L->r->conflict_count > matched) {
		cl_error_set(&L->r->err, cl_input_name(L->in), 0, "internal",
			     "the journal holds %lu conflicts for %lu matches: nothing applied",
			     L->r->conflict_count, matched);
		return CL_DB_ERROR;
	}
	L->r->duplicate_count = matched - L->r->conflict_count;
	/* every record matched: no new ones, the duplicates' ordinals are not
	   needed (an exact re-upload reads nothing back) */
	if (matched < L->r->records && L->r->duplicate_count)
		st = cl_copy_out(L->db, duplicate_rows_sql, on_classified, L, &L->r->err);
	return st;
}

enum cl_db_status cl_load_classify(struct load *L)
{
	bool large = false;
	enum cl_db_status st;
	char records[24];
	const char *p[1] = { records };

	L->r->duplicate_count = L->r->conflict_count = 0;
	L->near_count = 0;
	bit_clear_all(&L->matched);
	bit_clear_all(&L->conflicts);
	snprintf(records, sizeof(records), "%lu", L->r->records);
	st = cl_db_exec(L->db, CL_SQL_CLASSIFY_SET_RECORDS, 1, p, NULL, &L->r->err);
	if (st == CL_DB_OK)
		st = large_table(L, &large);
	if (st == CL_DB_OK && large)
		st = cl_load_exec0(L, CL_SQL_CLASSIFY_HASHJOIN_OFF);
	if (st == CL_DB_OK)
		st = exact_matches(L);
	if (st == CL_DB_OK && large)
		st = cl_load_exec0(L, CL_SQL_CLASSIFY_HASHJOIN_DEFAULT);
	if (st == CL_DB_OK && L->has_alt &&
	    L->r->duplicate_count + L->r->conflict_count < L->r->records)
		st = cl_copy_out(L->db, alt_sql, on_classified, L, &L->r->err);
	if (st == CL_DB_OK && L->r->duplicate_count + L->r->conflict_count < L->r->records)
		st = near_duplicates(L);
	if (st != CL_DB_OK)
		return st;
	L->r->new_count = L->r->records - L->r->duplicate_count - L->r->conflict_count;
	CL_FAILPOINT("after_journal", L->db->conn);
	return CL_DB_OK;
}
