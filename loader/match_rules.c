/* match_rules.c - reconcile's matching rules: the file read, a set stored,
 * the set in force listed (match_rules.h; statements:
 * sql/loader/match_rules.sql). */
#include "loader/match_rules.h"

#include <errno.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sha256.h"
#include "base/xmalloc.h"
#include "gen/loader_sql.h"
#include "loader/reconcile.h"

#define LINE_MAX_LEN 1024
#define RULES_MAX 10000
#define MINOR_MAX 1000000000000LL /* 10^12 minor units */
#define WINDOW_MAX 3660

void cl_match_rules_free(struct cl_match_rules *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}

/* A whole number 0..max in s[0..n) (digits only). */
static bool whole(const char *s, size_t n, long long max, long long *v)
{
	*v = 0;
	if (n == 0 || n > 13)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return *v <= max;
}

/* A percent 0..100 with at most two decimals and a '%' ("0.5%"), in basis
 * points. */
static bool percent(const char *s, size_t n, int *bp)
{
	long long w, f = 0;
	size_t dot, d;

	if (n < 2 || s[n - 1] != '%')
		return false;
	n--;
	for (dot = 0; dot < n && s[dot] != '.'; dot++)
		;
	if (!whole(s, dot, 100, &w))
		return false;
	d = dot < n ? n - dot - 1 : 0;
	if (dot < n && (d == 0 || d > 2 || !whole(s + dot + 1, d, 99, &f)))
		return false;
	if (d == 1)
		f *= 10;
	*bp = (int)(w * 100 + f);
	return *bp <= 10000;
}

/* A comma list of references reconcile knows, each once. */
static bool refs_ok(const char *s, size_t n)
{
	size_t i = 0;

	if (n == 0)
		return false;
	while (i <= n) {
		size_t j = i;

		while (j < n && s[j] != ',')
			j++;
		if (!cl_recon_ref_known(s + i, j - i))
			return false;
		for (size_t k = 0; k < i;) {
			size_t l = k;

			while (s[l] != ',')
				l++;
			if (l - k == j - i && memcmp(s + k, s + i, j - i) == 0)
				return false;
			k = l + 1;
		}
		i = j + 1;
	}
	return true;
}

/* A pattern: letters and digits (an account as statements write it, no
 * blanks), a '*' only at its end; "*" alone. */
static bool pattern_ok(const char *s, size_t n)
{
	if (n == 0 || n > CL_ACCOUNT_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '*' ? i != n - 1
			     : !((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') ||
				 (c >= 'a' && c <= 'z')))
			return false;
	}
	return true;
}

static enum cl_status bad(struct cl_error *err, const char *path, unsigned long line,
			  const char *expected, const char *found, size_t n)
{
	cl_error_set(err, path, line, "match_rules",
		     "invalid matching rule: expected %s, found \"%.*s\"", expected,
		     (int)(n > 60 ? 60 : n), found);
	cl_error_hint(err, "fix the line and load the file again: nothing of it was stored "
			   "(clearing-load(1) RECONCILIATION \"Matching rules\")");
	return CL_INVALID;
}

/* One key=value of a rule. */
static enum cl_status option(const char *path, unsigned long ln, const char *t, size_t n,
			     struct cl_match_rule *m, struct cl_error *err)
{
	const char *eq = memchr(t, '=', n);
	size_t k = eq ? (size_t)(eq - t) : n, vn = eq ? n - k - 1 : 0;
	const char *v = eq ? eq + 1 : t;
	long long x;

#define KEY(w) (k == sizeof(w) - 1 && memcmp(t, w, k) == 0)
	if (!eq)
		return bad(err, path, ln, "KEY=VALUE (tolerance, relative, window, refs, charges)", t,
			   n);
	if (KEY("tolerance")) {
		if (!whole(v, vn, MINOR_MAX, &x))
			return bad(err, path, ln, "tolerance=MINOR (a whole number of minor units)",
				   t, n);
		m->tolerance_minor = x;
	} else if (KEY("relative")) {
		if (!percent(v, vn, &m->tolerance_bp))
			return bad(err, path, ln, "relative=PERCENT% (0% to 100%, two decimals)", t,
				   n);
	} else if (KEY("window")) {
		if (!whole(v, vn, WINDOW_MAX, &x))
			return bad(err, path, ln, "window=DAYS (0 to 3660)", t, n);
		m->window_days = (int)x;
	} else if (KEY("refs")) {
		if (vn >= sizeof(m->refs) || !refs_ok(v, vn))
			return bad(err, path, ln,
				   "refs=REF,... (references reconcile --match knows, each once)",
				   t, n);
		memcpy(m->refs, v, vn);
		m->refs[vn] = '\0';
	} else if (KEY("charges")) {
		if (!whole(v, vn, MINOR_MAX, &x))
			return bad(err, path, ln, "charges=MINOR (a whole number of minor units)", t,
				   n);
		m->charges_minor = x;
	} else
		return bad(err, path, ln, "a key of tolerance, relative, window, refs, charges", t,
			   n);
#undef KEY
	return CL_OK;
}

/* One line: its rule appended to r, or nothing (blank, a comment). */
static enum cl_status one_line(const char *path, unsigned long ln, char *s,
			       struct cl_match_rules *r, size_t *cap, struct cl_error *err)
{
	struct cl_match_rule m = { .line = ln, .window_days = -1 };
	char *hash = strchr(s, '#');
	const char *ws = " \t\r\n";
	size_t n;

	if (hash)
		*hash = '\0';
	s += strspn(s, ws);
	if (!*s)
		return CL_OK;
	n = strcspn(s, ws);
	if (!pattern_ok(s, n))
		return bad(err, path, ln,
			   "an account (letters and digits), a prefix of accounts ending in *, or *",
			   s, n);
	memcpy(m.pattern, s, n);
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->v[i].pattern, m.pattern) == 0) {
			cl_error_set(err, path, ln, "match_rules",
				     "invalid matching rule: %s has a rule already (line %lu)",
				     m.pattern, r->v[i].line);
			cl_error_hint(err, "give each account or prefix one line");
			return CL_INVALID;
		}
	for (s += n; *(s += strspn(s, ws));) {
		enum cl_status st;

		n = strcspn(s, ws);
		if ((st = option(path, ln, s, n, &m, err)) != CL_OK)
			return st;
		s += n;
	}
	if (r->n >= RULES_MAX) {
		cl_error_set(err, path, ln, "match_rules",
			     "too many matching rules: at most %d", RULES_MAX);
		return CL_INVALID;
	}
	if (r->n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		r->v = cl_xrealloc(r->v, *cap * sizeof(*r->v));
	}
	r->v[r->n++] = m;
	return CL_OK;
}

enum cl_status cl_match_rules_read(const char *path, struct cl_match_rules *r,
				   struct cl_error *err)
{
	char buf[LINE_MAX_LEN + 2];
	unsigned char d[32];
	struct cl_sha256 *h;
	unsigned long ln = 0;
	size_t cap = 0;
	enum cl_status st = CL_OK;
	FILE *f;

	memset(r, 0, sizeof(*r));
	if (!(f = fopen(path, "rb"))) {
		cl_error_set(err, path, 0, "io", "cannot open the rules file: %s", strerror(errno));
		return CL_IO;
	}
	h = cl_sha256_new();
	cl_sha256_begin(h);
	while (st == CL_OK && fgets(buf, sizeof(buf), f)) {
		size_t n = strlen(buf);

		ln++;
		cl_sha256_update(h, buf, n);
		if (n > LINE_MAX_LEN && buf[n - 1] != '\n') {
			cl_error_set(err, path, ln, "match_rules",
				     "invalid matching rule: a line longer than %d bytes", LINE_MAX_LEN);
			st = CL_INVALID;
		}
		if (st == CL_OK)
			st = one_line(path, ln, buf, r, &cap, err);
	}
	if (st == CL_OK && ferror(f)) {
		cl_error_set(err, path, ln, "io", "cannot read the rules file: %s", strerror(errno));
		st = CL_IO;
	}
	fclose(f);
	cl_sha256_end(h, d);
	cl_sha256_free(h);
	for (int i = 0; i < 32; i++)
		snprintf(r->sha256 + 2 * i, 3, "%02x", d[i]);
	if (st != CL_OK)
		cl_match_rules_free(r);
	return st;
}

struct store_txn {
	const char *tenant, *file;
	const struct cl_match_rules *r;
	unsigned long *version;
};

static enum cl_db_status store_txn(struct cl_db *db, void *ctx, struct cl_error *err)
{
	struct store_txn *t = ctx;
	char n[24], ver[24];
	const char *pl[1] = { t->tenant };
	const char *ps[4] = { t->tenant, t->file, t->r->sha256, n };
	enum cl_db_status st;

	snprintf(n, sizeof(n), "%zu", t->r->n);
	if ((st = cl_db_exec(db, CL_SQL_DB_BEGIN, 0, NULL, NULL, err)) != CL_DB_OK ||
	    (st = cl_db_exec(db, CL_SQL_RECONCILE_LOCK, 1, pl, NULL, err)) != CL_DB_OK ||
	    (st = cl_db_value(db, CL_SQL_MATCH_RULES_SET, 4, ps, ver, sizeof(ver), err)) != CL_DB_OK)
		return st;
	for (size_t i = 0; i < t->r->n; i++) {
		const struct cl_match_rule *m = &t->r->v[i];
		char line[24], tol[24], bp[12], win[12], chg[24];
		const char *p[9] = { t->tenant, ver, m->pattern, line, tol, bp,
				     m->window_days < 0 ? NULL : win, m->refs[0] ? m->refs : NULL,
				     chg };

		snprintf(line, sizeof(line), "%lu", m->line);
		snprintf(tol, sizeof(tol), "%lld", m->tolerance_minor);
		snprintf(bp, sizeof(bp), "%d", m->tolerance_bp);
		snprintf(win, sizeof(win), "%d", m->window_days);
		snprintf(chg, sizeof(chg), "%lld", m->charges_minor);
		if ((st = cl_db_exec(db, CL_SQL_MATCH_RULES_RULE, 9, p, NULL, err)) != CL_DB_OK)
			return st;
	}
	if ((st = cl_db_exec(db, CL_SQL_DB_COMMIT, 0, NULL, NULL, err)) != CL_DB_OK)
		return st;
	*t->version = strtoul(ver, NULL, 10);
	return CL_DB_OK;
}

enum cl_db_status cl_match_rules_store(struct cl_db *db, const char *tenant, const char *file,
				       const struct cl_match_rules *r, unsigned long *version,
				       struct cl_error *err)
{
	struct store_txn t = { tenant, file, r, version };
	enum cl_db_status st = cl_db_run_txn(db, store_txn, &t, NULL, err);

	if (st != CL_DB_OK && db->conn && PQtransactionStatus(db->conn) != PQTRANS_IDLE) {
		struct cl_error ignored;

		if (cl_db_exec(db, CL_SQL_DB_ROLLBACK, 0, NULL, NULL, &ignored) != CL_DB_OK)
			cl_db_close(db);
	}
	return st;
}

enum cl_db_status cl_match_rules_list(struct cl_db *db, const char *tenant, cl_match_rule_fn *fn,
				      void *ctx, bool *found, struct cl_error *err)
{
	const char *p[1] = { tenant };
	PGresult *res;
	enum cl_db_status st = cl_db_exec(db, CL_SQL_MATCH_RULES_LIST, 1, p, &res, err);

	*found = false;
	if (st != CL_DB_OK)
		return st;
	*found = PQntuples(res) > 0;
	for (int i = 0; i < PQntuples(res); i++) {
		struct cl_match_rule_row row = {
			cl_db_get(res, i, "pattern"),	    cl_db_get(res, i, "line"),
			cl_db_get(res, i, "tolerance_minor"), cl_db_get(res, i, "tolerance_bp"),
			cl_db_get(res, i, "window_days"),   cl_db_get(res, i, "refs"),
			cl_db_get(res, i, "charges_max_minor"), cl_db_get(res, i, "version"),
			cl_db_get(res, i, "file"),	    cl_db_get(res, i, "sha256"),
			cl_db_get(res, i, "loaded_by"),	    cl_db_get(res, i, "loaded_at"),
		};

		fn(ctx, &row);
	}
	PQclear(res);
	return CL_DB_OK;
}
