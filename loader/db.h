/*
 * db.h - the PostgreSQL connection: connect, run parameterised statements,
 * stream COPY in and out, and classify errors by SQLSTATE.
 *
 * Only loader/ includes libpq.  Nothing here prints: errors go into a
 * struct cl_error (message, and SQLSTATE when the server sent one).
 *
 * Every statement is schema-qualified (the session's search_path is
 * emptied on connect) and every value travels as a parameter or as COPY
 * data, never inside the SQL text.
 */
#ifndef CL_DB_H
#define CL_DB_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "base/record.h"

struct pg_conn;
struct pg_result;

/* What a database call came to. */
enum cl_db_status {
	CL_DB_OK = 0,
	CL_DB_RETRY,  /* serialization failure (40001), deadlock (40P01) or a
	                 unique violation (23505) from a concurrent loader:
	                 nothing was committed, the whole file may be retried */
	CL_DB_LOST,   /* the connection is gone (class 08, admin shutdown) */
	CL_DB_ERROR,  /* any other error: the transaction is aborted */
};

/* What a failed call means for whoever runs the command again. */
enum cl_db_class {
	CL_DB_CLASS_RETRYABLE, /* unreachable, lost, shutting down, out of
	                          resources, a wait limit, a timeout: the same
	                          command later may succeed */
	CL_DB_CLASS_CONFIG,    /* no schema or another version, permission
	                          denied, authentication, no such database or
	                          role, a read-only server: a person must act */
	CL_DB_CLASS_REFUSED,   /* anything else the server refused */
};

/* The class of an error a cl_db_* call filled (by its SQLSTATE, else by
 * its code: "db_lost", "db_connect", "wait_limit", "db_auth",
 * "schema_missing", "schema_version"). */
enum cl_db_class cl_db_error_class(const struct cl_error *err);

struct cl_db {
	struct pg_conn *conn;
	const char *conninfo;   /* as given (NULL: libpq environment); not owned */
	bool citus;             /* a Citus database (the extension is in it),
	                           asked once on connect: the loader runs the
	                           Citus forms of its probes (classify.sql) */
	bool columnar;          /* clearing_record in columnar storage (init
	                           --columnar), asked once on connect: show's
	                           lookups of two columns run their columnar
	                           forms (history.sql), reconcile reads a copy
	                           (reconcile_copy.sql) */
};

/* True when a conninfo string or URI carries a password.  Passwords belong
 * in ~/.pgpass, PGPASSFILE or a service file, never on a command line. */
bool cl_db_conninfo_has_password(const char *conninfo);

/* Does libpq parse `conninfo` (keyword=value pairs or a URI)?  When not,
 * its reason (first line) in why[cap]; NULL or "" parses. */
bool cl_db_conninfo_parses(const char *conninfo, char *why, size_t cap);

/* Connect with `conninfo` (a conninfo string or URI; NULL or "" uses the
 * libpq environment and service file), fallback_application_name
 * "clearing-load", and the search_path of cl_db_use_schema.  CL_DB_LOST with err filled
 * ("could not connect to the database: ...") when the server cannot be
 * reached or refuses; CL_DB_ERROR for a malformed conninfo. */
enum cl_db_status cl_db_connect(struct cl_db *db, const char *conninfo,
				struct cl_error *err) CL_MUST_CHECK;

/* A second connection with db's conninfo, set up as db's (the
 * search_path), for work beside db's transaction (loader/near_side.c): a
 * signal cancels db's statement, not this one's.  Closed by
 * cl_db_close_beside. */
enum cl_db_status cl_db_connect_beside(struct cl_db *side, const struct cl_db *db,
				       struct cl_error *err) CL_MUST_CHECK;
void cl_db_close_beside(struct cl_db *side);

/* The schema of clearing-load's tables for every later connection
 * (search_path "NAME, pg_temp": pg_catalog first, then it; the temporary
 * schema last).  Default public.  `name` is not copied. */
void cl_db_use_schema(const char *name);
const char *cl_db_schema(void);

/* Close the connection (safe on a never-opened or closed db). */
void cl_db_close(struct cl_db *db);
/* Roll back the transaction open on db, if any (after a failure: what it
 * wrote is gone).  A connection on which even that fails is closed, so
 * its next use says it is lost and a caller that goes on reconnects. */
void cl_db_rollback(struct cl_db *db);

/* Run `sql` with text parameters (NULL element = SQL NULL).  On CL_DB_OK
 * and when `res` is not NULL, *res holds the result (caller PQclear()s it);
 * otherwise the result is cleared here and err is filled.  A statement run
 * outside a transaction (its own) that fails transiently is run again as
 * cl_db_run_txn would; inside one, the transaction's owner decides. */
enum cl_db_status cl_db_exec(struct cl_db *db, const char *sql, int nparams,
			     const char *const *params, struct pg_result **res,
			     struct cl_error *err) CL_MUST_CHECK;

/* The same for a statement of one value: the first column of its first
 * row as text into out[cap] ("" for no row or NULL; cut to cap - 1). */
enum cl_db_status cl_db_value(struct cl_db *db, const char *sql, int nparams,
			      const char *const *params, char *out, size_t cap,
			      struct cl_error *err) CL_MUST_CHECK;

/* The column of `res` named `name`: results are read by name, so the
 * order of a SELECT list cannot shift a value into another's place.  A
 * name the statement does not select is a bug of the program: it aborts
 * (saying which). */
int cl_db_column(const struct pg_result *res, const char *name);

/* Row `row`'s value of column `name`, as text ("" for NULL). */
const char *cl_db_get(const struct pg_result *res, int row, const char *name);

/* A text[] parameter's value, one element at a time: each element in
 * double quotes with " and \ escaped, so any text (a key with commas or
 * braces too) is one element; a value, never SQL text.  Zeroed is empty. */
struct cl_text_array {
	char *text;
	size_t len, cap;
	unsigned long n;           /* elements added */
};

void cl_text_array_add(struct cl_text_array *a, const char *v);
/* The elements of a comma-separated list (NULL or "": none). */
void cl_text_array_add_list(struct cl_text_array *a, const char *list);
/* The literal ("{}" when empty); valid until the next add. */
const char *cl_text_array_text(struct cl_text_array *a);
void cl_text_array_free(struct cl_text_array *a);

/* ---- transient errors: one retry policy for every command ----
 *
 * PostgreSQL's own word for an error that a transaction run again may not
 * meet: serialization failure (40001) and deadlock detected (40P01).  A
 * transaction that failed with one committed nothing, so running it again
 * is what its caller would do by hand.  Every command runs a failed
 * transaction again at most CL_DB_MAX_RETRIES times (a load: the whole
 * file, loader/load.c, which also retries a concurrent loader's 23505). */
#define CL_DB_MAX_RETRIES 8

/* True when err carries 40001 or 40P01. */
bool cl_db_transient(const struct cl_error *err);

/* Where a retry is told (a note such as "...: nothing was committed,
 * retrying the transaction (retry 1 of 8)"); NULL: nowhere.  Process-wide,
 * like the schema; the command sets it once. */
typedef void cl_db_note_fn(void *ctx, const struct cl_error *note);
void cl_db_on_note(cl_db_note_fn *fn, void *ctx);

/* One transaction, BEGIN to COMMIT, that leaves nothing behind on failure
 * but an aborted or rolled-back transaction (cl_db_run_txn rolls it back). */
typedef enum cl_db_status cl_db_txn_fn(struct cl_db *db, void *ctx, struct cl_error *err);

/* Run txn(db, ctx, err); while it fails with a transient error (and the
 * connection is up), roll back, tell the note hook and run it again, at
 * most CL_DB_MAX_RETRIES times.  Returns txn's last status (err filled on
 * failure); *retries (may be NULL) = the retries made. */
enum cl_db_status cl_db_run_txn(struct cl_db *db, cl_db_txn_fn *txn, void *ctx,
				unsigned *retries, struct cl_error *err) CL_MUST_CHECK;

/* Fill err from a failed result (or the connection's message) and classify
 * it; clears `res` (may be NULL). */
enum cl_db_status cl_db_fail(struct cl_db *db, struct pg_result *res, const char *what,
			     struct cl_error *err);

/* ---- COPY ... FROM STDIN (FORMAT binary), buffered to 64 KiB sends ----
 *
 * Binary, not text: the server then calls no input function per column
 * and the client escapes nothing (the stage's COPY took 5.6 s in text and
 * 3.0 s in binary for a million full rows).  Text values are sent as they
 * are: the server still checks their encoding. */

#define CL_COPY_BUFSIZE (64 * 1024)

struct cl_copy_in {
	struct cl_db *db;
	size_t len;
	bool failed;
	char buf[CL_COPY_BUFSIZE];
};

/* Start `copy_sql` (a COPY ... FROM STDIN (FORMAT binary)) and write the
 * stream's header. */
enum cl_db_status cl_copy_in_begin(struct cl_copy_in *c, struct cl_db *db,
				   const char *copy_sql, struct cl_error *err) CL_MUST_CHECK;
/* Start a row of `nfields` columns; sends the buffer when it is nearly
 * full.  Each column is then one of the calls below, in table order. */
void cl_copy_row(struct cl_copy_in *c, int nfields);
/* NULL. */
void cl_copy_null(struct cl_copy_in *c);
/* A text or bytea value of n bytes. */
void cl_copy_bytes(struct cl_copy_in *c, const void *p, size_t n);
/* A text value; "" is NULL when `empty_is_null`. */
void cl_copy_text(struct cl_copy_in *c, const char *s, bool empty_is_null);
/* A bigint; an integer. */
void cl_copy_int8(struct cl_copy_in *c, int64_t v);
void cl_copy_int4(struct cl_copy_in *c, int32_t v);
/* A date, as days since 1970-01-01. */
void cl_copy_date(struct cl_copy_in *c, long unix_days);
/* Finish the COPY; CL_DB_OK and *rows (may be NULL) = rows copied. */
enum cl_db_status cl_copy_in_end(struct cl_copy_in *c, unsigned long long *rows,
				 struct cl_error *err) CL_MUST_CHECK;
/* Abort the COPY with `reason` (the transaction is then aborted). */
void cl_copy_in_abort(struct cl_copy_in *c, const char *reason);

/* ---- COPY (...) TO STDOUT: one call per text row ---- */

/* Run `copy_sql` and call `row(ctx, fields, nfields)` for each row, fields
 * split at tabs and de-escaped in place (NULL for \N).  COPY takes no
 * parameters: values reach such a query through set_config() (made with
 * parameters) and current_setting().  A non-zero return from `row` stops
 * the calls (the rest of the stream is drained).  A row of more than
 * CL_COPY_MAX_FIELDS columns is an error (copy_too_wide), never cut. */
#define CL_COPY_MAX_FIELDS 96
typedef int (*cl_copy_row_fn)(void *ctx, char **fields, int nfields);
enum cl_db_status cl_copy_out(struct cl_db *db, const char *copy_sql, cl_copy_row_fn row,
			      void *ctx, struct cl_error *err) CL_MUST_CHECK;

#endif
