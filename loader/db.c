/* db.c - connection, statements, COPY and SQLSTATE classification. */
#include "loader/db.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "gen/loader_sql.h"
#include "loader/failpoint.h"
#include "loader/interrupt.h"
#include "loader/watchdog.h"

bool cl_db_conninfo_has_password(const char *conninfo)
{
	PQconninfoOption *opts, *o;
	bool has = false;

	if (!conninfo || !*conninfo)
		return false;
	opts = PQconninfoParse(conninfo, NULL);
	if (!opts) /* malformed: connect will say why; look for the word anyway */
		return strstr(conninfo, "password") != NULL;
	for (o = opts; o->keyword; o++)
		if (strcmp(o->keyword, "password") == 0 && o->val && *o->val)
			has = true;
	PQconninfoFree(opts);
	return has;
}

bool cl_db_conninfo_parses(const char *conninfo, char *why, size_t cap)
{
	PQconninfoOption *opts;
	char *msg = NULL;

	why[0] = '\0';
	if (!conninfo || !*conninfo)
		return true;
	opts = PQconninfoParse(conninfo, &msg);
	if (opts) {
		PQconninfoFree(opts);
		return true;
	}
	snprintf(why, cap, "%.*s", (int)strcspn(msg ? msg : "out of memory", "\n"),
		 msg ? msg : "out of memory");
	PQfreemem(msg);
	{
		/* libpq quotes a bad URI whole, password and all: cut it off */
		char *at = strstr(why, conninfo);

		if (at) {
			while (at > why && (at[-1] == '"' || at[-1] == ' ' || at[-1] == ':'))
				at--;
			*at = '\0';
		}
	}
	return false;
}

/* libpq messages end with a newline and may span lines: keep the first. */
static void set_libpq_message(struct cl_error *err, const char *code, const char *what,
			      const char *msg)
{
	size_t n = strcspn(msg ? msg : "", "\n");

	cl_error_set(err, NULL, 0, code, "%s: %.*s", what, (int)n, msg ? msg : "");
}

static void ignore_notice(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

/* Connection failures that a retry will not mend: the server answered and
 * refused us.  libpq gives no SQLSTATE for a failed connection, so its
 * (and the server's, in English) words are all there is: the rest are
 * taken as unreachable (retryable). */
static bool refused_words(const char *msg)
{
	static const char *const words[] = {
		"password authentication failed", "authentication failed", "no pg_hba.conf entry",
		"does not exist", "permission denied", "no password supplied",
		"is not permitted to log in", "certificate", "server does not support SSL",
	};

	for (size_t i = 0; msg && i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(msg, words[i]))
			return true;
	return false;
}

static const char *session_schema = "public";

void cl_db_use_schema(const char *name)
{
	session_schema = name;
}

const char *cl_db_schema(void)
{
	return session_schema;
}

/* One statement of a new session's setup, with its one parameter (or
 * none): its rows, else the session closed (not watched yet). */
static enum cl_db_status setup(struct cl_db *db, const char *sql, const char *param,
			       PGresult **out, struct cl_error *err)
{
	PGresult *res;

	cl_watchdog_arm(db->conn);
	res = PQexecParams(db->conn, sql, param ? 1 : 0, NULL, param ? &param : NULL, NULL, NULL, 0);
	cl_watchdog_disarm();
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		enum cl_db_status st = cl_db_fail(db, res, "could not set the session up", err);

		cl_db_close_beside(db);
		return st == CL_DB_OK ? CL_DB_ERROR : st;
	}
	*out = res;
	return CL_DB_OK;
}

/* A session of the loader's: connected and set up (cl_db_connect). */
static enum cl_db_status open_session(struct cl_db *db, const char *conninfo, struct cl_error *err)
{
	const char *keys[10], *vals[10];
	char timeout[16];
	int n = 0;
	PGresult *res;
	enum cl_db_status st;

	db->conn = NULL;
	db->conninfo = conninfo;
	db->citus = false;
	db->columnar = false;
	/* Defaults the conninfo (expanded after them, as "dbname") may
	   override: keepalives, so a peer that vanished is noticed in about
	   two minutes of silence, and --wait-limit as the connect timeout. */
	keys[n] = "keepalives";
	vals[n++] = "1";
	keys[n] = "keepalives_idle";
	vals[n++] = "60";
	keys[n] = "keepalives_interval";
	vals[n++] = "10";
	keys[n] = "keepalives_count";
	vals[n++] = "6";
	if (cl_watchdog_limit() && !getenv("PGCONNECT_TIMEOUT")) {
		snprintf(timeout, sizeof(timeout), "%u", cl_watchdog_limit());
		keys[n] = "connect_timeout";
		vals[n++] = timeout;
	}
	if (conninfo && *conninfo) {
		keys[n] = "dbname";
		vals[n++] = conninfo;
	}
	keys[n] = "fallback_application_name";
	vals[n++] = "clearing-load";
	/* every byte we send is UTF-8 (ISO 20022 is, NACHA is ASCII): a
	   PGCLIENTENCODING or a database default of LATIN1 would store a
	   non-ASCII id under other bytes, and the same file would be new
	   again.  A database that cannot hold a character
	   refuses it: the file is rejected, never stored altered. */
	keys[n] = "client_encoding";
	vals[n++] = "UTF8";
	keys[n] = NULL;
	vals[n] = NULL;
	db->conn = PQconnectdbParams(keys, vals, 1);
	if (!db->conn) {
		cl_error_set(err, NULL, 0, "db_connect", "could not connect to the database: out of memory");
		return CL_DB_LOST;
	}
	if (PQstatus(db->conn) != CONNECTION_OK) {
		const char *msg = PQerrorMessage(db->conn);

		/* asked for a password (and refused it, or none was given): the
		   server answered */
		bool refused = PQconnectionNeedsPassword(db->conn) ||
			       PQconnectionUsedPassword(db->conn) || refused_words(msg);

		set_libpq_message(err, refused ? "db_auth" : "db_connect",
				  "could not connect to the database", msg);
		if (refused) {
			cl_error_detail(err, "the server answered and refused the connection: a retry "
					     "will not succeed");
			cl_error_hint(err, "check the role's password (~/.pgpass, PGPASSFILE or a service "
					   "file), that the role and database exist and may log in, and "
					   "the server's pg_hba.conf for this host, database and role");
		} else {
			cl_error_hint(err, "check the host and port (--db, PGHOST, PGPORT) and that the "
					   "server runs; the same command later may succeed");
		}
		cl_db_close_beside(db); /* not watched yet */
		return CL_DB_LOST;
	}
	/* server NOTICEs ("already exists, skipping") are not for our users */
	PQsetNoticeProcessor(db->conn, ignore_notice, NULL);
	/* a secure search path and this session's settings (sql/loader/db.sql) */
	if ((st = setup(db, CL_SQL_DB_SESSION_SETUP, session_schema, &res, err)) != CL_DB_OK)
		return st;
	db->citus = strcmp(cl_db_get(res, 0, "citus"), "t") == 0;
	PQclear(res);
	/* clearing_record in columnar storage (init --columnar): its planner
	   settings (sql/loader/columnar.sql: a row when it is); on Citus the
	   database's (046): asked whether it is */
	if ((st = setup(db, db->citus ? CL_SQL_COLUMNAR_IS : CL_SQL_COLUMNAR_SESSION, NULL, &res,
			err)) != CL_DB_OK)
		return st;
	db->columnar = db->citus ? PQntuples(res) > 0 && strcmp(PQgetvalue(res, 0, 0), "t") == 0
				 : PQntuples(res) > 0;
	PQclear(res);
	return CL_DB_OK;
}

enum cl_db_status cl_db_connect(struct cl_db *db, const char *conninfo, struct cl_error *err)
{
	enum cl_db_status st = open_session(db, conninfo, err);

	if (st == CL_DB_OK)
		cl_interrupt_watch(db->conn);
	return st;
}

enum cl_db_status cl_db_connect_beside(struct cl_db *side, const struct cl_db *db,
				       struct cl_error *err)
{
	return open_session(side, db->conninfo, err);
}

void cl_db_close(struct cl_db *db)
{
	if (db->conn) {
		cl_interrupt_watch(NULL);
		PQfinish(db->conn);
	}
	db->conn = NULL;
}

void cl_db_close_beside(struct cl_db *side)
{
	if (side->conn)
		PQfinish(side->conn);
	side->conn = NULL;
}

void cl_db_rollback(struct cl_db *db)
{
	struct cl_error ignored;

	if (db->conn && PQstatus(db->conn) == CONNECTION_OK &&
	    PQtransactionStatus(db->conn) != PQTRANS_IDLE &&
	    cl_db_exec(db, CL_SQL_DB_ROLLBACK, 0, NULL, NULL, &ignored) != CL_DB_OK)
		cl_db_close(db);
}

static enum cl_db_status classify(const char *sqlstate, bool conn_bad)
{
	if (conn_bad)
		return CL_DB_LOST;
	if (!sqlstate)
		return CL_DB_ERROR;
	if (strcmp(sqlstate, "40001") == 0 || strcmp(sqlstate, "40P01") == 0 ||
	    strcmp(sqlstate, "23505") == 0)
		return CL_DB_RETRY;
	/* connection exceptions; admin/crash shutdown, cannot connect now */
	if (strncmp(sqlstate, "08", 2) == 0 || strcmp(sqlstate, "57P01") == 0 ||
	    strcmp(sqlstate, "57P02") == 0 || strcmp(sqlstate, "57P03") == 0)
		return CL_DB_LOST;
	return CL_DB_ERROR;
}

static bool class_of(const char *sqlstate, const char *cls)
{
	return strncmp(sqlstate, cls, 2) == 0;
}

enum cl_db_class cl_db_error_class(const struct cl_error *err)
{
	static const char *const config_states[] = {
		"42501", /* insufficient_privilege */
		"3F000", /* invalid_schema_name */
		"42P01", /* undefined_table */
		"42883", /* undefined_function */
		"42703", /* undefined_column: a schema of another version */
		"25006", /* read_only_sql_transaction: a standby */
		"3D000", /* invalid_catalog_name */
	};
	const char *st = err->sqlstate;

	if (strcmp(err->code, "schema_missing") == 0 || strcmp(err->code, "schema_version") == 0 ||
	    strcmp(err->code, "db_auth") == 0)
		return CL_DB_CLASS_CONFIG;
	if (st[0]) {
		for (size_t i = 0; i < sizeof(config_states) / sizeof(config_states[0]); i++)
			if (strcmp(st, config_states[i]) == 0)
				return CL_DB_CLASS_CONFIG;
		if (class_of(st, "28")) /* invalid authorization */
			return CL_DB_CLASS_CONFIG;
		/* connection, transaction rollback, insufficient resources,
		   operator intervention (shutdown, cancel, statement_timeout),
		   system error, lock_not_available */
		if (class_of(st, "08") || class_of(st, "40") || class_of(st, "53") ||
		    class_of(st, "57") || class_of(st, "58") || strcmp(st, "55P03") == 0)
			return CL_DB_CLASS_RETRYABLE;
		return CL_DB_CLASS_REFUSED;
	}
	if (strcmp(err->code, "db_lost") == 0 || strcmp(err->code, "db_connect") == 0 ||
	    strcmp(err->code, "wait_limit") == 0)
		return CL_DB_CLASS_RETRYABLE;
	return CL_DB_CLASS_REFUSED;
}

/* insufficient_privilege (42501): a missing grant or, under row-level
 * security, a row of a tenant the role may not see.  Who was refused (the
 * server's message names the relation) and what to run. */
static void explain_denied(struct cl_db *db, struct cl_error *err)
{
	const char *role = db->conn ? PQuser(db->conn) : NULL;

	if (!err->detail[0])
		cl_error_detail(err, "refused to role \"%s\" in schema \"%s\"", role ? role : "?",
				session_schema);
	if (!err->hint[0])
		cl_error_hint(err, "the schema's owner grants it: 'clearing-load init --loader-role "
				   "ROLE' (load, ingest) or '--reader-role ROLE' (show, loads, diff); "
				   "under row-level security, '--tenant-access ROLE=TENANT'");
}

enum cl_db_status cl_db_fail(struct cl_db *db, PGresult *res, const char *what,
			     struct cl_error *err)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	bool bad = !db->conn || PQstatus(db->conn) == CONNECTION_BAD;
	enum cl_db_status st = classify(state, bad && !state);

	if (msg)
		cl_error_set(err, NULL, 0, "db_error", "%s: %s", what, msg);
	else
		set_libpq_message(err, bad ? "db_lost" : "db_error", what,
				  db->conn ? PQerrorMessage(db->conn) : "no connection");
	if (state) {
		const char *detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
		const char *hint = PQresultErrorField(res, PG_DIAG_MESSAGE_HINT);

		snprintf(err->sqlstate, sizeof(err->sqlstate), "%s", state);
		if (detail)
			cl_error_detail(err, "%s", detail);
		if (hint)
			cl_error_hint(err, "%s", hint);
		if (strcmp(state, "42501") == 0)
			explain_denied(db, err);
	}
	if (st == CL_DB_LOST)
		snprintf(err->code, sizeof(err->code), "db_lost");
	if (bad && cl_watchdog_fired()) {
		cl_error_set(err, NULL, 0, "wait_limit",
			     "%s: no answer from the server within the wait limit (%u s): the "
			     "connection was closed", what, cl_watchdog_limit());
		st = CL_DB_LOST;
	}
	PQclear(res);
	return st;
}

bool cl_db_transient(const struct cl_error *err)
{
	return strcmp(err->sqlstate, "40001") == 0 || strcmp(err->sqlstate, "40P01") == 0;
}

static cl_db_note_fn *note_fn;
static void *note_ctx;

void cl_db_on_note(cl_db_note_fn *fn, void *ctx)
{
	note_fn = fn;
	note_ctx = ctx;
}

/* Roll back what a failed transaction left (nothing when idle or gone). */
static void txn_rollback(struct cl_db *db)
{
	PGresult *res;

	if (!db->conn || PQstatus(db->conn) != CONNECTION_OK ||
	    PQtransactionStatus(db->conn) == PQTRANS_IDLE)
		return;
	cl_watchdog_arm(db->conn);
	res = PQexec(db->conn, CL_SQL_DB_ROLLBACK);
	cl_watchdog_disarm();
	PQclear(res);
}

/* May a transaction that failed with err run again (retry `n`, 1-based)?
 * Says so through the note hook when it may. */
static bool retry_transient(struct cl_db *db, const struct cl_error *err, unsigned n,
			    const char *what)
{
	struct cl_error note;

	if (!cl_db_transient(err) || n > CL_DB_MAX_RETRIES || !db->conn ||
	    PQstatus(db->conn) != CONNECTION_OK || cl_interrupt_signal())
		return false;
	if (note_fn) {
		cl_error_set(&note, NULL, 0, "note",
			     "%s (SQLSTATE %s): nothing was committed, retrying the %s (retry %u of %u)",
			     err->message, err->sqlstate, what, n, CL_DB_MAX_RETRIES);
		note_fn(note_ctx, &note);
	}
	CL_FAILPOINT_REARM(); /* a new attempt */
	return true;
}

enum cl_db_status cl_db_run_txn(struct cl_db *db, cl_db_txn_fn *txn, void *ctx,
				unsigned *retries, struct cl_error *err)
{
	enum cl_db_status st;
	unsigned n = 0;

	while ((st = txn(db, ctx, err)) != CL_DB_OK) {
		txn_rollback(db);
		if (!retry_transient(db, err, n + 1, "transaction"))
			break;
		n++;
	}
	if (retries)
		*retries = n;
	return st;
}

enum cl_db_status cl_db_exec(struct cl_db *db, const char *sql, int nparams,
			     const char *const *params, PGresult **out, struct cl_error *err)
{
	PGresult *res;
	ExecStatusType rs;
	bool own_txn;
	enum cl_db_status st;

	if (out)
		*out = NULL;
	if (!db->conn) {
		cl_error_set(err, NULL, 0, "db_lost", "no database connection");
		return CL_DB_LOST;
	}
	/* outside a transaction the statement is one of its own: when it
	   fails transiently it committed nothing and may simply run again */
	own_txn = PQtransactionStatus(db->conn) == PQTRANS_IDLE;
	for (unsigned n = 1;; n++) {
		cl_watchdog_arm(db->conn);
		res = PQexecParams(db->conn, sql, nparams, NULL, params, NULL, NULL, 0);
		cl_watchdog_disarm();
		rs = PQresultStatus(res);
		if (rs == PGRES_COMMAND_OK || rs == PGRES_TUPLES_OK)
			break;
		st = cl_db_fail(db, res, "statement failed", err);
		if (!own_txn || !retry_transient(db, err, n, "statement"))
			return st;
	}
	if (out)
		*out = res;
	else
		PQclear(res);
	return CL_DB_OK;
}

int cl_db_column(const PGresult *res, const char *name)
{
	int c = PQfnumber(res, name);

	if (c < 0) {
		fprintf(stderr, "clearing-load: internal error: a result has no column %s\n", name);
		abort();
	}
	return c;
}

const char *cl_db_get(const PGresult *res, int row, const char *name)
{
	return PQgetvalue(res, row, cl_db_column(res, name));
}

enum cl_db_status cl_db_value(struct cl_db *db, const char *sql, int nparams,
			      const char *const *params, char *out, size_t cap, struct cl_error *err)
{
	PGresult *res;
	enum cl_db_status st = cl_db_exec(db, sql, nparams, params, &res, err);

	if (st != CL_DB_OK)
		return st;
	snprintf(out, cap, "%s",
		 PQntuples(res) > 0 && PQnfields(res) > 0 ? PQgetvalue(res, 0, 0) : "");
	PQclear(res);
	return CL_DB_OK;
}

/* ---- COPY FROM STDIN ---- */

static void copy_flush(struct cl_copy_in *c)
{
	if (c->len && !c->failed) {
		cl_watchdog_arm(c->db->conn);
		if (PQputCopyData(c->db->conn, c->buf, (int)c->len) != 1)
			c->failed = true;
		cl_watchdog_disarm();
	}
	c->len = 0;
}

/* The binary COPY stream's signature, flags and header extension. */
static const char copy_header[19] = "PGCOPY\n\377\r\n\0\0\0\0\0\0\0\0\0";

enum cl_db_status cl_copy_in_begin(struct cl_copy_in *c, struct cl_db *db, const char *copy_sql,
				   struct cl_error *err)
{
	PGresult *res;

	c->db = db;
	c->len = 0;
	c->failed = false;
	cl_watchdog_arm(db->conn);
	res = PQexec(db->conn, copy_sql);
	cl_watchdog_disarm();
	if (PQresultStatus(res) != PGRES_COPY_IN)
		return cl_db_fail(db, res, "could not start COPY", err);
	PQclear(res);
	memcpy(c->buf, copy_header, sizeof(copy_header));
	c->len = sizeof(copy_header);
	return CL_DB_OK;
}

static void copy_raw(struct cl_copy_in *c, const void *p, size_t n)
{
	const char *s = p;

	if (n <= sizeof(c->buf) - c->len) { /* the common case: it fits */
		memcpy(c->buf + c->len, s, n);
		c->len += n;
		return;
	}
	while (n) {
		size_t room = sizeof(c->buf) - c->len, k = n < room ? n : room;

		memcpy(c->buf + c->len, s, k);
		c->len += k;
		s += k;
		n -= k;
		if (c->len == sizeof(c->buf))
			copy_flush(c);
	}
}

/* n (2, 4 or 8) bytes of v, most significant first (network order) */
static void copy_be(struct cl_copy_in *c, uint64_t v, int n)
{
	unsigned char b[8];

	if (sizeof(c->buf) - c->len < 8)
		copy_flush(c);
	for (int i = n - 1; i >= 0; i--, v >>= 8)
		b[i] = (unsigned char)(v & 0xff);
	memcpy(c->buf + c->len, b, (size_t)n);
	c->len += (size_t)n;
}

void cl_copy_row(struct cl_copy_in *c, int nfields)
{
	if (c->len > sizeof(c->buf) - 4096)
		copy_flush(c);
	copy_be(c, (uint64_t)nfields, 2);
}

void cl_copy_null(struct cl_copy_in *c)
{
	copy_be(c, 0xffffffffu, 4); /* length -1 */
}

void cl_copy_bytes(struct cl_copy_in *c, const void *p, size_t n)
{
	copy_be(c, n, 4);
	copy_raw(c, p, n);
}

void cl_copy_text(struct cl_copy_in *c, const char *s, bool empty_is_null)
{
	if (!s || (!*s && empty_is_null))
		cl_copy_null(c);
	else
		cl_copy_bytes(c, s, strlen(s));
}

void cl_copy_int8(struct cl_copy_in *c, int64_t v)
{
	copy_be(c, 8, 4);
	copy_be(c, (uint64_t)v, 8);
}

void cl_copy_int4(struct cl_copy_in *c, int32_t v)
{
	copy_be(c, 4, 4);
	copy_be(c, (uint64_t)(uint32_t)v, 4);
}

/* PostgreSQL counts days from 2000-01-01, 10957 days after 1970-01-01. */
void cl_copy_date(struct cl_copy_in *c, long unix_days)
{
	copy_be(c, 4, 4);
	copy_be(c, (uint64_t)(uint32_t)(int32_t)(unix_days - 10957), 4);
}

enum cl_db_status cl_copy_in_end(struct cl_copy_in *c, unsigned long long *rows,
				 struct cl_error *err)
{
	PGresult *res;
	enum cl_db_status st = CL_DB_OK;

	copy_be(c, 0xffffu, 2); /* the trailer: a row of -1 fields */
	copy_flush(c);
	cl_watchdog_arm(c->db->conn);
	if (PQputCopyEnd(c->db->conn, c->failed ? "client could not send data" : NULL) != 1)
		c->failed = true;
	while ((res = PQgetResult(c->db->conn)) != NULL) {
		if (PQresultStatus(res) != PGRES_COMMAND_OK) {
			if (st == CL_DB_OK)
				st = cl_db_fail(c->db, res, "COPY failed", err);
			else
				PQclear(res);
			continue;
		}
		if (rows)
			*rows = strtoull(PQcmdTuples(res), NULL, 10);
		PQclear(res);
	}
	cl_watchdog_disarm();
	if (st == CL_DB_OK && c->failed)
		st = cl_db_fail(c->db, NULL, "COPY failed", err);
	return st;
}

void cl_copy_in_abort(struct cl_copy_in *c, const char *reason)
{
	PGresult *res;

	if (!c->db || !c->db->conn)
		return;
	c->len = 0;
	cl_watchdog_arm(c->db->conn);
	(void)PQputCopyEnd(c->db->conn, reason);
	while ((res = PQgetResult(c->db->conn)) != NULL)
		PQclear(res);
	cl_watchdog_disarm();
}

/* ---- COPY TO STDOUT ---- */

/* De-escape a COPY text field in place; returns NULL for \N. */
static char *unescape(char *s)
{
	char *r = s, *w = s;

	if (s[0] == '\\' && s[1] == 'N' && s[2] == '\0')
		return NULL;
	while (*r) {
		if (*r != '\\' || !r[1]) {
			*w++ = *r++;
			continue;
		}
		r++;
		switch (*r) {
		case 't': *w++ = '\t'; break;
		case 'n': *w++ = '\n'; break;
		case 'r': *w++ = '\r'; break;
		case 'b': *w++ = '\b'; break;
		case 'f': *w++ = '\f'; break;
		case 'v': *w++ = '\v'; break;
		default: *w++ = *r; break;
		}
		r++;
	}
	*w = '\0';
	return s;
}

enum cl_db_status cl_copy_out(struct cl_db *db, const char *copy_sql, cl_copy_row_fn row,
			      void *ctx, struct cl_error *err)
{
	PGresult *res;
	char *line;
	int n, stop = 0;
	enum cl_db_status st = CL_DB_OK;
	unsigned long rows = 0;

	cl_watchdog_arm(db->conn);
	res = PQexec(db->conn, copy_sql);
	if (PQresultStatus(res) != PGRES_COPY_OUT) {
		cl_watchdog_disarm();
		return cl_db_fail(db, res, "could not start COPY", err);
	}
	PQclear(res);
	/* re-armed every 256 rows: the limit bounds each wait, not the
	   whole stream (a diff of a million records) */
	while ((n = PQgetCopyData(db->conn, &line, 0)) > 0) {
		if (++rows % 256 == 0)
			cl_watchdog_arm(db->conn);
		char *fields[CL_COPY_MAX_FIELDS];
		int nf = 0;
		char *p = line;

		if (!stop) {
			if (n > 0 && line[n - 1] == '\n')
				line[n - 1] = '\0';
			for (;;) {
				char *tab = strchr(p, '\t');

				if (tab)
					*tab = '\0';
				if (nf == CL_COPY_MAX_FIELDS) {
					/* a statement wider than this reader: a
					   column cut silently would be a value lost */
					cl_error_set(err, NULL, 0, "copy_too_wide",
						     "a COPY row has more than %d columns, the "
						     "most this build reads: a fault of the build, "
						     "report it",
						     CL_COPY_MAX_FIELDS);
					st = CL_DB_ERROR;
					break;
				}
				fields[nf++] = unescape(p);
				if (!tab)
					break;
				p = tab + 1;
			}
			stop = st != CL_DB_OK || row(ctx, fields, nf);
		}
		PQfreemem(line);
	}
	while ((res = PQgetResult(db->conn)) != NULL) {
		if (PQresultStatus(res) != PGRES_COMMAND_OK && st == CL_DB_OK)
			st = cl_db_fail(db, res, "COPY failed", err);
		else
			PQclear(res);
	}
	cl_watchdog_disarm();
	if (n == -2 && st == CL_DB_OK)
		st = cl_db_fail(db, NULL, "COPY failed", err);
	return st;
}

/* ---- text array parameters ---- */

static void text_put(struct cl_text_array *a, const char *p, size_t n)
{
	if (a->len + n + 2 > a->cap) {
		while (a->len + n + 2 > a->cap)
			a->cap = a->cap ? 2 * a->cap : 1024;
		a->text = cl_xrealloc(a->text, a->cap);
	}
	memcpy(a->text + a->len, p, n);
	a->len += n;
	a->text[a->len] = '\0';
}

static void text_add(struct cl_text_array *a, const char *v, size_t n)
{
	const char *run = v, *end = v + n;

	text_put(a, a->n++ ? ",\"" : "{\"", 2);
	for (; v < end; v++) {
		if (*v != '"' && *v != '\\')
			continue;
		text_put(a, run, (size_t)(v - run));
		text_put(a, "\\", 1);
		run = v;
	}
	text_put(a, run, (size_t)(end - run));
	text_put(a, "\"", 1);
}

void cl_text_array_add(struct cl_text_array *a, const char *v)
{
	text_add(a, v, strlen(v));
}

void cl_text_array_add_list(struct cl_text_array *a, const char *list)
{
	const char *p = list ? list : "";

	while (*p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		text_add(a, p, n);
		p += n;
		if (*p == ',')
			p++;
	}
}

const char *cl_text_array_text(struct cl_text_array *a)
{
	if (!a->n)
		return "{}";
	/* text_put left room for the brace and the NUL */
	a->text[a->len] = '}';
	a->text[a->len + 1] = '\0';
	return a->text;
}

void cl_text_array_free(struct cl_text_array *a)
{
	free(a->text);
	memset(a, 0, sizeof(*a));
}

