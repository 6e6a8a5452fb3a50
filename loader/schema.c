/* schema.c - apply the embedded migrations under an advisory lock. */
#include "loader/schema.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/loader_sql.h"
#include "loader/failpoint.h"

unsigned cl_schema_latest(void)
{
	return cl_migrations_count ? cl_migrations[cl_migrations_count - 1].version : 0;
}

static enum cl_db_status exec0(struct cl_db *db, const char *sql, struct cl_error *err)
{
	return cl_db_exec(db, sql, 0, NULL, NULL, err);
}


/* The current version (0 when none; init asks it in its locked transaction). */
static enum cl_db_status current_version(struct cl_db *db, unsigned *v, struct cl_error *err)
{
	char b[24];
	enum cl_db_status st = cl_db_value(db, CL_SQL_SCHEMA_CURRENT_VERSION, 0, NULL, b, sizeof(b), err);

	*v = st == CL_DB_OK ? (unsigned)strtoul(b, NULL, 10) : 0;
	return st;
}

static enum cl_db_status count_partitions(struct cl_db *db, int *n, struct cl_error *err)
{
	char b[24];
	enum cl_db_status st = cl_db_value(db, CL_SQL_SCHEMA_COUNT_PARTITIONS, 0, NULL, b, sizeof(b), err);

	*n = st == CL_DB_OK ? (int)strtol(b, NULL, 10) : 0;
	return st;
}

static enum cl_db_status begin_locked(struct cl_db *db, struct cl_error *err)
{
	enum cl_db_status st = exec0(db, CL_SQL_DB_BEGIN, err);

	if (st == CL_DB_OK)
		st = exec0(db, CL_SQL_SCHEMA_LOCK, err);
	return st;
}

/* What one transaction of init works on (cl_db_run_txn's ctx). */
struct init_txn {
	const struct cl_migration *m; /* apply: the migration */
	int partitions;
	bool columnar;                /* init --columnar */
	bool done;                    /* apply: this call applied it */
	unsigned version;             /* prepare: the version found */
};

/* One migration in its own transaction, unless another init applied it. */
static enum cl_db_status apply(struct cl_db *db, void *ctx, struct cl_error *err)
{
	struct init_txn *t = ctx;
	const struct cl_migration *m = t->m;
	int partitions = t->partitions;
	bool *done = &t->done;
	enum cl_db_status st;
	unsigned v;
	char version[16], parts[16];
	const char *p[2];
	PGresult *res;

	*done = false;
	if ((st = begin_locked(db, err)) != CL_DB_OK || (st = current_version(db, &v, err)) != CL_DB_OK)
		goto fail;
	if (v >= m->version) { /* another init applied it meanwhile */
		cl_db_rollback(db);
		return CL_DB_OK;
	}
	snprintf(parts, sizeof(parts), "%d", partitions > 0 ? partitions : 0);
	p[0] = parts;
	st = cl_db_exec(db, CL_SQL_SCHEMA_SET_PARTITIONS, 1, p, NULL, err);
	/* a migration may rewrite the append-only tables (015) */
	p[0] = "init";
	if (st == CL_DB_OK)
		st = cl_db_exec(db, CL_SQL_DB_MAINTENANCE, 1, p, NULL, err);
	if (st != CL_DB_OK)
		goto fail;
	/* A migration may hold several statements: the simple query protocol
	 * (no parameters: the files hold no values from outside) */
	res = PQexec(db->conn, m->sql);
	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK) {
		char what[96];

		snprintf(what, sizeof(what), "migration %s failed", m->name);
		st = cl_db_fail(db, res, what, err);
		goto fail;
	}
	PQclear(res);
	snprintf(version, sizeof(version), "%u", m->version);
	p[0] = version;
	p[1] = m->name;
	st = cl_db_exec(db, CL_SQL_SCHEMA_RECORD_VERSION, 2, p, NULL, err);
	if (st == CL_DB_OK)
		st = exec0(db, CL_SQL_DB_COMMIT, err);
	if (st != CL_DB_OK)
		goto fail;
	*done = true;
	return CL_DB_OK;
fail:
	cl_db_rollback(db);
	return st;
}

/* init --columnar where it cannot be done: refused before anything is
 * changed (CL_DB_ERROR, err->code "columnar_version", "columnar_unavailable",
 * "columnar_privilege" or "columnar_owner"). */
static enum cl_db_status columnar_refused(struct cl_db *db, struct cl_error *err)
{
	char why[16];
	enum cl_db_status st = cl_db_value(db, CL_SQL_COLUMNAR_REFUSED, 0, NULL, why,
					   sizeof(why), err);

	if (st != CL_DB_OK || !why[0])
		return st;
	if (strcmp(why, "owner") == 0) {
		cl_error_set(err, NULL, 0, "columnar_owner",
			     "--columnar: on Citus the columnar planner settings are the database's "
			     "(ALTER DATABASE ... SET), and this role does not own the database");
		cl_error_hint(err, "init --columnar as the database's owner or a superuser");
	} else if (strcmp(why, "version") == 0) {
		cl_error_set(err, NULL, 0, "columnar_version",
			     "--columnar: this server's PostgreSQL cannot change a table's storage "
			     "(version 15 or later can)");
		cl_error_hint(err, "init without --columnar, or upgrade the server");
	} else if (strcmp(why, "privilege") == 0) {
		cl_error_set(err, NULL, 0, "columnar_privilege",
			     "--columnar: the citus_columnar extension is not created in this "
			     "database, and only a superuser can create it");
		cl_error_hint(err, "a superuser runs CREATE EXTENSION citus_columnar in this "
				   "database, then init --columnar again");
	} else {
		cl_error_set(err, NULL, 0, "columnar_unavailable",
			     "--columnar: this server has no columnar storage (the citus_columnar "
			     "extension is not installed)");
		cl_error_hint(err, "install Citus 13.2 for this PostgreSQL (it brings "
				   "citus_columnar), or init without --columnar");
	}
	return CL_DB_ERROR;
}

/* The first transaction: the schema is there, the version table too, the
 * version and the partitioning as asked. */
static enum cl_db_status prepare(struct cl_db *db, void *ctx, struct cl_error *err)
{
	struct init_txn *t = ctx;
	enum cl_db_status st;
	unsigned v;
	const char *name = cl_db_schema();
	PGresult *res;

	if ((st = begin_locked(db, err)) != CL_DB_OK ||
	    (st = cl_db_exec(db, CL_SQL_SCHEMA_NAMESPACE, 1, &name, &res, err)) != CL_DB_OK)
		goto fail;
	if (strcmp(PQgetvalue(res, 0, 0), "t") != 0) {
		PQclear(res);
		cl_error_set(err, NULL, 0, "no_schema",
			     "schema \"%s\" does not exist in this database", name);
		cl_error_hint(err, "create it first (CREATE SCHEMA name AUTHORIZATION owner), "
				   "then run init again");
		st = CL_DB_ERROR;
		goto fail;
	}
	PQclear(res);
	st = exec0(db, CL_SQL_SCHEMA_CREATE_VERSION_TABLE, err);
	if (st != CL_DB_OK || (st = current_version(db, &v, err)) != CL_DB_OK)
		goto fail;
	t->version = v;
	if (v >= 2 && t->partitions >= 0) {
		int have;

		if ((st = count_partitions(db, &have, err)) != CL_DB_OK)
			goto fail;
		if (have != t->partitions) {
			cl_error_set(err, NULL, 0, "partitions_mismatch",
				     "clearing_record already exists with %d hash partitions, not %d: "
				     "init does not repartition a table that holds records",
				     have, t->partitions);
			st = CL_DB_ERROR;
			goto fail;
		}
	}
	if (t->columnar && (st = columnar_refused(db, err)) != CL_DB_OK)
		goto fail;
	if ((st = exec0(db, CL_SQL_DB_COMMIT, err)) != CL_DB_OK)
		goto fail;
	return CL_DB_OK;
fail:
	cl_db_rollback(db);
	return st;
}

enum cl_db_status cl_schema_is_columnar(struct cl_db *db, bool *columnar, struct cl_error *err)
{
	char b[8];
	enum cl_db_status st = cl_db_value(db, CL_SQL_COLUMNAR_IS, 0, NULL, b, sizeof(b), err);

	*columnar = st == CL_DB_OK && strcmp(b, "t") == 0;
	return st;
}

/* init --columnar, after the migrations: clearing_record converted (046)
 * and the indexes columnar storage does without dropped (047), in a
 * transaction of its own under init's lock.  Unbounded, as a
 * migration is (a rewrite of a table that holds records; no --wait-limit). */
static enum cl_db_status make_columnar(struct cl_db *db, void *ctx, struct cl_error *err)
{
	enum cl_db_status st;
	const char *p[1] = { "init" };
	PGresult *res;

	(void)ctx;
	if ((st = begin_locked(db, err)) != CL_DB_OK ||
	    (st = cl_db_exec(db, CL_SQL_DB_MAINTENANCE, 1, p, NULL, err)) != CL_DB_OK)
		goto fail;
	res = PQexec(db->conn, CL_SQL_COLUMNAR_MAKE);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		st = cl_db_fail(db, res, "could not convert clearing_record to columnar storage", err);
		goto fail;
	}
	PQclear(res);
	if ((st = cl_db_exec(db, CL_SQL_COLUMNAR_LOOKUPS, 0, NULL, NULL, err)) != CL_DB_OK)
		goto fail;
	if ((st = exec0(db, CL_SQL_DB_COMMIT, err)) == CL_DB_OK)
		return CL_DB_OK;
fail:
	cl_db_rollback(db);
	return st;
}

enum cl_db_status cl_schema_init(struct cl_db *db, int partitions, bool columnar,
				 struct cl_init_result *r, struct cl_error *err)
{
	enum cl_db_status st;
	struct init_txn t = { .partitions = partitions, .columnar = columnar };
	unsigned i;

	memset(r, 0, sizeof(*r));
	/* each transaction run again on a deadlock or a serialization
	   failure: it committed nothing (db.h) */
	if ((st = cl_db_run_txn(db, prepare, &t, NULL, err)) != CL_DB_OK)
		return st;
	r->from_version = t.version;
	for (i = 0; i < cl_migrations_count; i++) {
		if (cl_migrations[i].version <= r->from_version)
			continue;
		t.m = &cl_migrations[i];
		if ((st = cl_db_run_txn(db, apply, &t, NULL, err)) != CL_DB_OK)
			return st;
		if (t.done)
			r->applied++;
		if (i + 1 < cl_migrations_count)
			CL_FAILPOINT("init_between_migrations", db->conn);
	}
	r->to_version = cl_schema_latest();
	/* (not on a schema newer than this binary: init says so, changing nothing) */
	if (columnar && r->from_version <= r->to_version &&
	    (st = cl_db_run_txn(db, make_columnar, NULL, NULL, err)) != CL_DB_OK)
		return st;
	if ((st = cl_schema_is_columnar(db, &r->columnar, err)) != CL_DB_OK)
		return st;
	return count_partitions(db, &r->partitions, err);
}

enum cl_db_status cl_schema_check(struct cl_db *db, struct cl_error *err)
{
	enum cl_db_status st;
	unsigned v;
	const char *name = cl_db_schema();

	/* one statement: the version table not there (undefined_table, by
	   the search path as to_regclass would find it) is no schema */
	st = current_version(db, &v, err);
	if (st == CL_DB_ERROR && strcmp(err->sqlstate, "42P01") == 0) {
		char elsewhere[512] = "";
		struct cl_error ignored;

		/* where else they are: init here would make a second, empty
		   schema beside the real one */
		if (PQtransactionStatus(db->conn) == PQTRANS_IDLE &&
		    cl_db_value(db, CL_SQL_SCHEMA_ELSEWHERE, 1, &name, elsewhere, sizeof(elsewhere),
				&ignored) != CL_DB_OK)
			elsewhere[0] = '\0';
		cl_error_set(err, NULL, 0, "schema_missing",
			     "no clearing-load schema in schema \"%s\" of this database", name);
		if (elsewhere[0]) {
			cl_error_detail(err, "looked in schema \"%s\" (--schema, else "
					     "CLEARING_LOAD_SCHEMA, else public); clearing-load tables "
					     "are in schema %s", name, elsewhere);
			cl_error_hint(err, "run with --schema %s (or CLEARING_LOAD_SCHEMA); 'clearing-load "
					   "init' here would make a second, empty schema", elsewhere);
		} else {
			cl_error_detail(err, "looked in schema \"%s\" (--schema, else "
					     "CLEARING_LOAD_SCHEMA, else public); no other schema of this "
					     "database holds clearing-load tables", name);
			cl_error_hint(err, "run 'clearing-load init' as the owner of schema \"%s\", or "
					   "give --schema and --db of the database that holds them", name);
		}
		return CL_DB_ERROR;
	}
	if (st != CL_DB_OK)
		return st;
	if (v != cl_schema_latest()) {
		cl_error_set(err, NULL, 0, "schema_version",
			     "the database schema is at version %u, this clearing-load needs %u", v,
			     cl_schema_latest());
		cl_error_detail(err, "schema \"%s\" is %s than this clearing-load's", name,
				v > cl_schema_latest() ? "newer" : "older");
		if (v > cl_schema_latest())
			cl_error_hint(err, "upgrade this clearing-load to the release of schema version "
					   "%u (every host that loads); do not run init of this one", v);
		else
			cl_error_hint(err, "run 'clearing-load init' once, as the owner of schema "
					   "\"%s\", to upgrade it to version %u", name, cl_schema_latest());
		return CL_DB_ERROR;
	}
	return CL_DB_OK;
}
