/* reconcile.c - two-way reconciliation (reconcile.h; statements:
 * sql/loader/reconcile.sql). */
#include "loader/reconcile.h"

#include <libpq-fe.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "gen/loader_sql.h"
#include "loader/failpoint.h"
#include "loader/interrupt.h"
#include "parsers/input.h"
#include "parsers/parser.h"
#include "parsers/statement.h"
#include "rules/fingerprint.h"
#include "rules/statement_fields.h"
#include "rules/statement_identity.h"

/* The references, in their default order of trust; the last is off by
 * default.  reconcile.sql's reconcile_best has an index probe (an arm) for
 * each, from loader/recon_ref.def: a reference added here needs its arms
 * there. */
#define NREFS 6
#define NDEFAULT 5
static void known_refs(const char *r[NREFS])
{
	r[0] = CL_FIELD_NAME(uetr);
	r[1] = "e2e";
	r[2] = CL_FIELD_NAME(tx_id);
	r[3] = CL_FIELD_NAME(instr_id);
	r[4] = "trace";
	r[5] = CL_STMT_COLUMN(acct_svcr_ref);
}

bool cl_recon_ref_known(const char *word, size_t n)
{
	const char *r[NREFS];

	known_refs(r);
	for (size_t i = 0; i < NREFS; i++)
		if (strlen(r[i]) == n && memcmp(r[i], word, n) == 0)
			return true;
	return false;
}

bool cl_recon_open_status(const char *status)
{
	static const char *const open[] = {
#define CL_RECON_OPEN(st) #st,
#include "loader/recon_status.def"
#undef CL_RECON_OPEN
	};

	for (size_t i = 0; status && i < sizeof(open) / sizeof(open[0]); i++)
		if (strcmp(status, open[i]) == 0)
			return true;
	return false;
}

const char *cl_recon_default_refs(void)
{
	static char buf[64];
	const char *r[NREFS];
	size_t o = 0;

	if (buf[0])
		return buf;
	known_refs(r);
	for (size_t i = 0; i < NDEFAULT; i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s", i ? "," : "", r[i]);
	return buf;
}

static void keys_add(char ***keys, size_t *n, size_t *cap, const char *key)
{
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 8;
		*keys = cl_xrealloc(*keys, *cap * sizeof(**keys));
	}
	(*keys)[(*n)++] = cl_xstrdup(key);
}

void cl_recon_keys_free(char **keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

enum cl_status cl_recon_file_keys(const char *path, const struct cl_csv_map *csv_map,
				  char ***keys, size_t *n, struct cl_error *err)
{
	struct cl_input *in;
	struct cl_parser *p = NULL;
	struct cl_parse_opts opts = { .max_errors = 1, .csv_map = csv_map };
	struct cl_item it;
	struct cl_fp *fp;
	struct cl_stmt_row row;
	enum cl_status st, result = CL_OK;
	enum cl_family family;
	unsigned long line = 0;
	size_t cap = 0;

	*keys = NULL;
	*n = 0;
	if ((st = cl_input_open_path(path, &in, err)) != CL_OK)
		return st;
	/* the one detection (parser.h): a clearing file, or none, is no
	   statement */
	result = cl_parser_open(in, &opts, &p, err);
	family = result == CL_OK ? cl_parser_family(p) : CL_FAMILY_UNKNOWN;
	if (result == CL_OK && family != CL_FAMILY_STATEMENT && family != CL_FAMILY_STATUS) {
		/* its own errors first, as the statement reader gave them */
		while ((st = cl_parser_next_item(p, &it, err)) == CL_NOTE || st == CL_OK)
			if (st == CL_OK)
				break;
		result = st == CL_INVALID || st == CL_IO ? st : CL_OK;
		if (result == CL_OK) {
			cl_error_set(err, path, 1, "not_a_statement",
				     "a clearing file (%s), not a bank statement or status report: "
				     "expected camt.052, camt.053, camt.054, BAI2, MT940, a bank CSV "
				     "export (--csv-map), pacs.002 or pain.002",
				     cl_parser_message(p)[0] ? cl_parser_message(p)
							     : cl_parser_info(p)->format_name);
			result = CL_INVALID;
		}
	}
	fp = cl_fp_new();
	while (result == CL_OK && (st = cl_parser_next_item(p, &it, err)) != CL_END) {
		if (st == CL_NOTE)
			continue;
		if (st != CL_OK) {
			result = st;
			break;
		}
		if (!it.stmt || it.stmt->stmt.line == line)
			continue;
		line = it.stmt->stmt.line;
		if (cl_stmt_row_statement(&it.stmt->stmt, fp, &row))
			keys_add(keys, n, &cap, row.statement_key);
	}
	cl_fp_free(fp);
	cl_parser_free(p);
	cl_input_free(in);
	if (result != CL_OK) {
		err->file = path; /* the input's name is gone with it */
		cl_recon_keys_free(*keys, *n);
		*keys = NULL;
		*n = 0;
	}
	return result;
}

enum cl_db_status cl_recon_session(struct cl_db *db, struct cl_error *err)
{
	return cl_db_exec(db, CL_SQL_RECONCILE_SESSION, 0, NULL, NULL, err);
}

enum cl_db_status cl_recon_pending(struct cl_db *db, const char *tenant, char ***keys, size_t *n,
				   struct cl_error *err)
{
	const char *p[1] = { tenant };
	PGresult *res;
	enum cl_db_status st;
	size_t cap = 0;

	*keys = NULL;
	*n = 0;
	if ((st = cl_db_exec(db, CL_SQL_RECONCILE_PENDING, 1, p, &res, err)) != CL_DB_OK)
		return st;
	for (int i = 0; i < PQntuples(res); i++)
		keys_add(keys, n, &cap, PQgetvalue(res, i, 0));
	PQclear(res);
	return CL_DB_OK;
}

/* Whether a SIGINT or SIGTERM came (interrupt.h): then nothing more is
 * sent, and the run rolls back. */
static bool interrupted(struct cl_error *err)
{
	if (!cl_interrupt_signal())
		return false;
	cl_error_set(err, NULL, 0, "interrupted", "interrupted: the run rolled back");
	return true;
}

static enum cl_db_status exec(struct cl_db *db, const char *sql, int np, const char *const *p,
			      struct cl_error *err)
{
	if (interrupted(err))
		return CL_DB_ERROR;
	return cl_db_exec(db, sql, np, p, NULL, err);
}

/* Does reconcile read a copy of the records (reconcile_copy.sql): on
 * Citus (docs/design/0052) and in columnar storage (0065)? */
static bool copied(const struct cl_db *db)
{
	return db->citus || db->columnar;
}

/* A statement that reads clearing_record: where reconcile reads a copy,
 * its form reading the copy. */
#define ON_COPY(db, NAME) (copied(db) ? CL_SQL_RECONCILE_COPY_##NAME : CL_SQL_RECONCILE_##NAME)

/* One array value (the first column of the first row) of statement sql
 * with parameters p, then statement `then` given p0 and that value (NULL
 * when there is none: `then` still runs). */
static enum cl_db_status with_array(struct cl_db *db, const char *sql, int np,
				    const char *const *p, const char *then, const char *p0,
				    struct cl_error *err)
{
	PGresult *res;
	const char *pt[2] = { p0, NULL };
	enum cl_db_status st;

	if (interrupted(err))
		return CL_DB_ERROR;
	if ((st = cl_db_exec(db, sql, np, p, &res, err)) != CL_DB_OK)
		return st;
	pt[1] = PQntuples(res) > 0 && !PQgetisnull(res, 0, 0) ? PQgetvalue(res, 0, 0) : NULL;
	st = exec(db, then, 2, pt, err);
	PQclear(res);
	return st;
}

/* Where reconcile reads a copy, the records the statement's entries may
 * find copied from clearing_record (pd: tenant, the period's first and
 * last day or NULL); nothing elsewhere.  In columnar storage the days and
 * files are read by the storage's own scan, the rest by index. */
static enum cl_db_status copy_records(struct cl_db *db, const char *const *pd,
				      struct cl_error *err)
{
	bool columnar = db->columnar;
	enum cl_db_status st = CL_DB_OK;

	if (!copied(db))
		return CL_DB_OK;
	if (columnar) {
		const char *pr[2] = { pd[0], NULL }; /* no days: read below */

		st = exec(db, CL_SQL_RECONCILE_COPY_READ, 2, pr, err);
	} else
		st = with_array(db, CL_SQL_RECONCILE_COPY_DAYS, 2, pd + 1, CL_SQL_RECONCILE_COPY_READ,
				pd[0], err);
	if (st == CL_DB_OK && columnar) {
		if (db->citus)
			st = exec(db, CL_SQL_RECONCILE_COPY_SCAN_CITUS, 0, NULL, err);
		if (st == CL_DB_OK)
			st = exec(db, CL_SQL_RECONCILE_COPY_SCAN, 0, NULL, err);
		if (st == CL_DB_OK)
			st = with_array(db, CL_SQL_RECONCILE_COPY_DAYS, 2, pd + 1,
					CL_SQL_RECONCILE_COPY_DAYS_COLUMNAR, pd[0], err);
	}
	if (st == CL_DB_OK)
		st = with_array(db, CL_SQL_RECONCILE_COPY_FILE_LOADS, 0, NULL,
				columnar ? CL_SQL_RECONCILE_COPY_FILES_COLUMNAR
					 : CL_SQL_RECONCILE_COPY_FILES,
				pd[0], err);
	if (st == CL_DB_OK && columnar)
		st = exec(db, CL_SQL_RECONCILE_COPY_PROBE, 0, NULL, err);
	if (st == CL_DB_OK)
		st = exec(db, CL_SQL_RECONCILE_COPY_RELATED, 1, pd, err);
	if (st == CL_DB_OK)
		st = exec(db, CL_SQL_RECONCILE_COPY_ANALYZE, 0, NULL, err);
	if (st == CL_DB_OK)
		CL_FAILPOINT("reconcile_copied", db->conn);
	return st;
}

/* The references of the run: its own (refs[0]) and those of the
 * accounts of --match-account (refs[1 + i] for o->account_refs[i]). */
struct run_refs {
	size_t n;
	struct cl_text_array *arrays;
};

static void run_refs_init(struct run_refs *r, const struct cl_recon_opts *o)
{
	r->n = 1 + o->naccount_refs;
	r->arrays = cl_xcalloc(r->n, sizeof(*r->arrays));
	cl_text_array_add_list(&r->arrays[0], o->refs ? o->refs : cl_recon_default_refs());
	for (size_t i = 0; i < o->naccount_refs; i++)
		cl_text_array_add_list(&r->arrays[1 + i], strchr(o->account_refs[i], '=') + 1);
}

static void run_refs_free(struct run_refs *r)
{
	for (size_t i = 0; i < r->n; i++)
		cl_text_array_free(&r->arrays[i]);
	free(r->arrays);
}

/* The references a statement of `account` is matched by: its account's
 * (--match-account), else its matching rule's (rule_refs, a comma list, or
 * NULL: none; its array made in *own), else the run's. */
static const char *refs_for(struct run_refs *r, const struct cl_recon_opts *o,
			    const char *account, const char *rule_refs, struct cl_text_array *own)
{
	for (size_t i = 0; i < o->naccount_refs; i++) {
		size_t n = (size_t)(strchr(o->account_refs[i], '=') - o->account_refs[i]);

		if (strlen(account) == n && memcmp(account, o->account_refs[i], n) == 0)
			return cl_text_array_text(&r->arrays[1 + i]);
	}
	if (rule_refs) {
		cl_text_array_add_list(own, rule_refs);
		return cl_text_array_text(own);
	}
	return cl_text_array_text(&r->arrays[0]);
}

/* A statement's matching rule (match-rules; reconcile_rule): the values of
 * reconcile_best's $3 to $6 and its references, the defaults without one. */
struct match_rule {
	char tolerance[24], bp[12], window[12], charges[24];
	char *refs; /* NULL: none */
	bool window_set;
};

static enum cl_db_status match_rule(struct cl_db *db, const char *tenant, const char *account,
				    struct match_rule *m, struct cl_error *err)
{
	const char *p[2] = { tenant, account };
	PGresult *res;
	enum cl_db_status st;

	memset(m, 0, sizeof(*m));
	strcpy(m->tolerance, "0");
	strcpy(m->bp, "0");
	strcpy(m->charges, "0");
	if ((st = cl_db_exec(db, CL_SQL_RECONCILE_RULE, 2, p, &res, err)) != CL_DB_OK)
		return st;
	if (PQntuples(res) == 1) {
		int w = cl_db_column(res, "window_days"), r = cl_db_column(res, "refs");

		snprintf(m->tolerance, sizeof(m->tolerance), "%s", cl_db_get(res, 0, "tolerance_minor"));
		snprintf(m->bp, sizeof(m->bp), "%s", cl_db_get(res, 0, "tolerance_bp"));
		snprintf(m->charges, sizeof(m->charges), "%s", cl_db_get(res, 0, "charges_max_minor"));
		if ((m->window_set = !PQgetisnull(res, 0, w)))
			snprintf(m->window, sizeof(m->window), "%s", PQgetvalue(res, 0, w));
		if (!PQgetisnull(res, 0, r))
			m->refs = cl_xstrdup(PQgetvalue(res, 0, r));
	}
	PQclear(res);
	return CL_DB_OK;
}

static enum cl_db_status statement_work(struct cl_db *db, const char *const *pk,
					const char *const *pr, const char *const *pc,
					const char *const *pj, const char *const *pm,
					const char *const *pg, const char *const *pd, char *n,
					size_t cap, struct cl_error *err);

/* One statement of the run; s counts it. */
static enum cl_db_status one_statement(struct cl_db *db, const struct cl_recon_opts *o,
				       const char *key, const char *run, struct run_refs *rr,
				       const char *companies, struct cl_recon_summary *s,
				       struct cl_error *err)
{
	char n[24], kind[16], account[CL_ACCOUNT_MAX + 1], from[16], to[16], ccy[8], ord[24];
	const char *pk[2] = { o->tenant, key };
	const char *pr[6] = { o->tenant, NULL };
	struct match_rule rule;
	struct cl_text_array rule_refs = { 0 };
	const char *pm[3] = { o->tenant, key, run };
	const char *pc[2] = { o->tenant, companies };
	const char *pj[3] = { o->tenant, key, ord };
	PGresult *res;
	bool period;
	int c_account, c_from, c_to;
	enum cl_db_status st;

	/* the statement's number in the run: where its items go in the answer */
	snprintf(ord, sizeof(ord), "%lu", (unsigned long)s->statements);

	if (interrupted(err))
		return CL_DB_ERROR;
	if ((st = cl_db_exec(db, CL_SQL_RECONCILE_HEADER, 2, pk, &res, err)) != CL_DB_OK)
		return st;
	if (PQntuples(res) == 0) {
		PQclear(res);
		s->not_loaded++;
		return CL_DB_OK;
	}
	c_account = cl_db_column(res, CL_STMT_COLUMN(account));
	c_from = cl_db_column(res, CL_STMT_COLUMN(period_from));
	c_to = cl_db_column(res, CL_STMT_COLUMN(period_to));
	snprintf(kind, sizeof(kind), "%s", cl_db_get(res, 0, CL_STMT_COLUMN(kind)));
	snprintf(account, sizeof(account), "%s", PQgetvalue(res, 0, c_account));
	snprintf(from, sizeof(from), "%s", PQgetvalue(res, 0, c_from));
	snprintf(to, sizeof(to), "%s", PQgetvalue(res, 0, c_to));
	snprintf(ccy, sizeof(ccy), "%s", cl_db_get(res, 0, CL_STMT_COLUMN(account_ccy)));
	/* only a statement covers a period of an account: a notification
	   (camt.054), an intraday report (camt.052) and a status report say
	   what happened, not everything that did */
	period = (strcmp(kind, "camt.053") == 0 || strcmp(kind, "bai2") == 0 ||
		  strcmp(kind, "mt940") == 0 || strcmp(kind, "csv") == 0) &&
		 !PQgetisnull(res, 0, c_account) && !PQgetisnull(res, 0, c_from) &&
		 !PQgetisnull(res, 0, c_to);
	PQclear(res);
	if ((st = match_rule(db, o->tenant, account, &rule, err)) != CL_DB_OK)
		return st;
	pr[1] = refs_for(rr, o, account, rule.refs, &rule_refs);
	pr[2] = rule.tolerance;
	pr[3] = rule.bp;
	pr[4] = rule.window_set ? rule.window : NULL;
	pr[5] = rule.charges;
	{
		const char *pg[3] = { o->tenant, account, companies };
		const char *pd[3] = { o->tenant, period ? from : NULL, period ? to : NULL };

		st = statement_work(db, pk, pr, pc, pj, pm, pg, pd, n, sizeof(n), err);
	}
	free(rule.refs);
	cl_text_array_free(&rule_refs);
	if (st != CL_DB_OK)
		return st;
	s->new_matches += strtoul(n, NULL, 10);
	if (period) {
		const char *pu[9] = { o->tenant, key, ord, from, to, account, companies, ccy, kind };

		if ((st = exec(db, CL_SQL_RECONCILE_ANALYZE_ANSWER, 0, NULL, err)) != CL_DB_OK ||
		    (st = exec(db, ON_COPY(db, UNMATCHED_OURS), 9, pu, err)) != CL_DB_OK)
			return st;
	}
	s->statements++;
	return exec(db, CL_SQL_RECONCILE_MARK_STATEMENT, 3, pm, err);
}

/* A statement's entries matched into the answer, its new matches recorded
 * (their number in n): reconcile.sql's statements in order. */
static enum cl_db_status statement_work(struct cl_db *db, const char *const *pk,
					const char *const *pr, const char *const *pc,
					const char *const *pj, const char *const *pm,
					const char *const *pg, const char *const *pd, char *n,
					size_t cap, struct cl_error *err)
{
	enum cl_db_status st;

	if ((st = exec(db, CL_SQL_RECONCILE_TRUNCATE_WORK, 0, NULL, err)) != CL_DB_OK ||
	    (st = exec(db, CL_SQL_RECONCILE_ENTRIES, 2, pk, err)) != CL_DB_OK ||
	    (st = exec(db, CL_SQL_RECONCILE_ENTRIES_DETAILS, 0, NULL, err)) != CL_DB_OK ||
	    (st = exec(db, CL_SQL_RECONCILE_ANALYZE, 0, NULL, err)) != CL_DB_OK ||
	    (st = copy_records(db, pd, err)) != CL_DB_OK ||
	    (st = exec(db, ON_COPY(db, BEST), 6, pr, err)) != CL_DB_OK ||
	    (st = exec(db, CL_SQL_RECONCILE_ANALYZE_BEST, 0, NULL, err)) != CL_DB_OK ||
	    (st = exec(db, CL_SQL_RECONCILE_BOOKED_TWICE, 0, NULL, err)) != CL_DB_OK ||
	    (st = exec(db, CL_SQL_RECONCILE_SPLIT, 1, pk, err)) != CL_DB_OK ||
	    (st = exec(db, ON_COPY(db, BATCHES), 1, pk, err)) != CL_DB_OK ||
	    (st = exec(db, ON_COPY(db, SUGGEST), 1, pk, err)) != CL_DB_OK ||
	    (st = exec(db, ON_COPY(db, SUGGEST_BATCH), 2, pc, err)) != CL_DB_OK ||
	    (st = exec(db, ON_COPY(db, GROUP), 3, pg, err)) != CL_DB_OK ||
	    (st = exec(db, ON_COPY(db, JUDGE), 3, pj, err)) != CL_DB_OK ||
	    (st = exec(db, CL_SQL_RECONCILE_REVERSAL_PAIRS, 1, pj + 1, err)) != CL_DB_OK ||
	    (st = exec(db, CL_SQL_RECONCILE_BALANCE, 3, pj, err)) != CL_DB_OK ||
	    (st = cl_db_value(db, ON_COPY(db, RECORD_MATCHES), 3, pm, n, cap, err)) != CL_DB_OK)
		return st;
	return CL_DB_OK;
}

static enum cl_db_status counts(struct cl_db *db, struct cl_recon_summary *s, struct cl_error *err)
{
	PGresult *res;
	enum cl_db_status st = cl_db_exec(db, CL_SQL_RECONCILE_COUNTS, 0, NULL, &res, err);

	if (st != CL_DB_OK)
		return st;
	s->matched = strtoul(cl_db_get(res, 0, "matched"), NULL, 10);
	s->unmatched_ours = strtoul(cl_db_get(res, 0, "unmatched_ours"), NULL, 10);
	s->unmatched_theirs = strtoul(cl_db_get(res, 0, "unmatched_theirs"), NULL, 10);
	s->exceptions = strtoul(cl_db_get(res, 0, "exceptions"), NULL, 10);
	s->suggested = strtoul(cl_db_get(res, 0, "suggested"), NULL, 10);
	PQclear(res);
	return CL_DB_OK;
}

/* The run's breaks (sql/027_break_decisions.sql): their ids, the
 * decisions in force on them, those left open recorded with run `run` and
 * aged; s counts the decided. */
static enum cl_db_status breaks(struct cl_db *db, const char *tenant, const char *run,
				struct cl_recon_summary *s, struct cl_error *err)
{
	const char *pt[1] = { tenant };
	const char *pr[2] = { tenant, run };
	char n[24];
	enum cl_db_status st;

	if ((st = exec(db, ON_COPY(db, BREAK_IDS), 1, pt, err)) != CL_DB_OK ||
	    (st = exec(db, CL_SQL_RECONCILE_DECIDED, 1, pt, err)) != CL_DB_OK ||
	    (st = exec(db, CL_SQL_RECONCILE_RECORD_BREAKS, 2, pr, err)) != CL_DB_OK ||
	    (st = exec(db, CL_SQL_RECONCILE_BREAK_AGE, 1, pt, err)) != CL_DB_OK ||
	    (st = cl_db_value(db, CL_SQL_RECONCILE_COUNT_DECIDED, 0, NULL, n, sizeof(n), err)) !=
		    CL_DB_OK)
		return st;
	s->decided = strtoul(n, NULL, 10);
	return CL_DB_OK;
}

static enum cl_db_status record_run(struct cl_db *db, const struct cl_recon_opts *o,
				    const char *run, const char *started,
				    const struct cl_recon_summary *s, struct cl_error *err)
{
	const char *own = o->refs ? o->refs : cl_recon_default_refs();
	char v[7][24], *refs;
	const char *p[11];
	size_t cap = strlen(own) + 1, n;
	enum cl_db_status st;

	/* the run's references, then each account's: "REFS; ACCOUNT=REFS" */
	for (size_t i = 0; i < o->naccount_refs; i++)
		cap += 2 + strlen(o->account_refs[i]);
	refs = cl_xmalloc(cap);
	n = (size_t)snprintf(refs, cap, "%s", own);
	for (size_t i = 0; i < o->naccount_refs; i++)
		n += (size_t)snprintf(refs + n, cap - n, "; %s", o->account_refs[i]);
	snprintf(v[0], sizeof(v[0]), "%lu", s->statements);
	snprintf(v[1], sizeof(v[1]), "%lu", s->matched);
	snprintf(v[2], sizeof(v[2]), "%lu", s->unmatched_ours);
	snprintf(v[3], sizeof(v[3]), "%lu", s->unmatched_theirs);
	snprintf(v[4], sizeof(v[4]), "%lu", s->exceptions);
	snprintf(v[5], sizeof(v[5]), "%lu", s->suggested);
	snprintf(v[6], sizeof(v[6]), "%lu", s->new_matches);
	p[0] = run;
	p[1] = o->tenant;
	p[2] = v[0];
	p[3] = refs;
	for (int i = 1; i < 7; i++)
		p[3 + i] = v[i];
	p[10] = started;
	st = exec(db, CL_SQL_RECONCILE_RECORD_RUN, 11, p, err);
	free(refs);
	return st;
}

struct out_ctx {
	cl_recon_item_fn *on_item;
	void *ctx;
};

const char *const cl_recon_names[CL_RC_COUNT] = {
#define CL_RECON_ITEM(member, sql) #member,
#include "loader/recon_item.def"
#undef CL_RECON_ITEM
};

/* A row of the answer: its columns are recon_item.def's, in its order
 * (reconcile_answer's SELECT list is written from the same table). */
_Static_assert(CL_RC_COUNT <= CL_COPY_MAX_FIELDS,
	       "recon_item.def has more columns than cl_copy_out hands a row");
static int out_row(void *ctx, char **f, int nf)
{
	static const size_t at[] = {
#define CL_RECON_ITEM(member, sql) offsetof(struct cl_recon_item, member),
#include "loader/recon_item.def"
#undef CL_RECON_ITEM
	};
	struct out_ctx *c = ctx;
	struct cl_recon_item it;

	for (int i = 0; i < CL_RC_COUNT; i++)
		*(const char **)(void *)((char *)&it + at[i]) = i < nf ? f[i] : NULL;
	c->on_item(c->ctx, &it);
	return 0;
}


/* One attempt of a run, BEGIN to COMMIT (cl_db_run_txn's ctx and body: a
 * deadlock or serialization failure is the whole run again, its summary
 * counted anew). */
struct recon_txn {
	const struct cl_recon_opts *o;
	char *const *keys;
	size_t n;
	const char *companies;
	struct cl_recon_summary *s;
	char run[24], started[48];
};

static enum cl_db_status recon_txn(struct cl_db *db, void *ctx, struct cl_error *err)
{
	static const char *const create[] = {
		CL_SQL_RECONCILE_SETTINGS,     CL_SQL_RECONCILE_CREATE,
		CL_SQL_RECONCILE_CREATE_ENTRY, CL_SQL_RECONCILE_CREATE_BEST,
		CL_SQL_RECONCILE_CREATE_SUGG,  CL_SQL_RECONCILE_CREATE_BATCH,
		CL_SQL_RECONCILE_CREATE_OPEN,  CL_SQL_RECONCILE_TRUNCATE,
		CL_SQL_RECONCILE_BREAK_COLUMNS,
	};
	/* where reconcile reads a copy of the records (reconcile_copy.sql) */
	static const char *const create_copy[] = {
		CL_SQL_RECONCILE_COPY_CREATE,	     CL_SQL_RECONCILE_COPY_CREATE_KEY,
		CL_SQL_RECONCILE_COPY_CREATE_LOAD,  CL_SQL_RECONCILE_COPY_CREATE_DATE,
		CL_SQL_RECONCILE_COPY_CREATE_TRACE, CL_SQL_RECONCILE_COPY_CREATE_REFS,
		CL_SQL_RECONCILE_COPY_TRUNCATE,
	};
	struct recon_txn *t = ctx;
	const struct cl_recon_opts *o = t->o;
	struct run_refs refs;
	enum cl_db_status st;

	memset(t->s, 0, sizeof(*t->s));
	run_refs_init(&refs, o);
	st = exec(db, CL_SQL_DB_BEGIN, 0, NULL, err);
	if (st == CL_DB_OK) {
		const char *pt[1] = { o->tenant };

		st = exec(db, CL_SQL_RECONCILE_LOCK, 1, pt, err);
	}
	for (size_t i = 0; st == CL_DB_OK && i < sizeof(create) / sizeof(create[0]); i++)
		st = exec(db, create[i], 0, NULL, err);
	for (size_t i = 0; st == CL_DB_OK && copied(db) && i < sizeof(create_copy) /
							      sizeof(create_copy[0]); i++)
		st = exec(db, create_copy[i], 0, NULL, err);
	if (st == CL_DB_OK)
		st = cl_db_value(db, CL_SQL_RECONCILE_RUN_ID, 0, NULL, t->run, sizeof(t->run), err);
	if (st == CL_DB_OK)
		st = cl_db_value(db, CL_SQL_RECONCILE_NOW, 0, NULL, t->started, sizeof(t->started),
				 err);
	for (size_t i = 0; st == CL_DB_OK && i < t->n; i++)
		st = one_statement(db, o, t->keys[i], t->run, &refs, t->companies, t->s, err);
	if (st == CL_DB_OK)
		st = breaks(db, o->tenant, t->run, t->s, err);
	if (st == CL_DB_OK)
		st = counts(db, t->s, err);
	if (st == CL_DB_OK)
		st = record_run(db, o, t->run, t->started, t->s, err);
	if (st == CL_DB_OK) {
		CL_FAILPOINT("reconcile_before_commit", db->conn);
		st = exec(db, CL_SQL_DB_COMMIT, 0, NULL, err);
	}
	run_refs_free(&refs);
	return st;
}

enum cl_db_status cl_reconcile(struct cl_db *db, const struct cl_recon_opts *o, char *const *keys,
			       size_t n, cl_recon_item_fn *on_item, void *ctx,
			       struct cl_recon_summary *s, struct cl_error *err)
{
	struct cl_text_array companies = { 0 };
	struct recon_txn t = { .o = o, .keys = keys, .n = n, .s = s };
	struct out_ctx oc = { on_item, ctx };
	enum cl_db_status st;

	cl_text_array_add_list(&companies, o->ach_companies);
	t.companies = cl_text_array_text(&companies);
	st = cl_db_run_txn(db, recon_txn, &t, NULL, err);
	cl_text_array_free(&companies);
	if (st != CL_DB_OK) {
		cl_db_rollback(db);
		return st;
	}
	/* committed: the run's matches are recorded */
	s->run_id = strtoll(t.run, NULL, 10);
	CL_FAILPOINT("reconcile_after_commit", db->conn);
	st = cl_copy_out(db, o->differences_only ? CL_SQL_RECONCILE_OUTPUT_DIFFERENCES
			 : o->breaks_first	     ? CL_SQL_RECONCILE_OUTPUT_BREAKS_FIRST
						     : CL_SQL_RECONCILE_OUTPUT,
			 out_row, &oc, err);
	if (st != CL_DB_OK)
		return st;
	if (copied(db) && (st = exec(db, CL_SQL_RECONCILE_COPY_DROP, 0, NULL, err)) != CL_DB_OK)
		return st;
	return exec(db, CL_SQL_RECONCILE_DROP, 0, NULL, err);
}
