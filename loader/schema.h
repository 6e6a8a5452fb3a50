/*
 * schema.h - `clearing-load init`: the numbered migrations of sql/,
 * embedded into the binary at build time (sql/embed.sh), applied in order.
 *
 * init is idempotent and safe when several run at once: every transaction
 * takes the same advisory lock first, and each migration is applied in its
 * own transaction together with its clearing_schema_version row, so a crash
 * between migrations leaves a schema at a well-defined version.
 */
#ifndef CL_SCHEMA_H
#define CL_SCHEMA_H

#include "loader/db.h"

struct cl_migration {
	unsigned version;   /* from the file name: 001_x.sql is 1 */
	const char *name;   /* file name without .sql */
	const char *sql;    /* the file's text */
};

extern const struct cl_migration cl_migrations[];
extern const unsigned cl_migrations_count;

/* The schema version this binary needs (the last migration). */
unsigned cl_schema_latest(void);

struct cl_init_result {
	unsigned from_version;  /* 0: the schema did not exist */
	unsigned to_version;
	unsigned applied;       /* migrations applied by this call */
	int partitions;         /* clearing_record's hash partitions (0: none) */
	bool columnar;          /* clearing_record is in columnar storage (045) */
};

/* Apply every migration newer than the database's version.  `partitions`:
 * -1 = not asked; 0 = a plain clearing_record; N = hash-partitioned in N.
 * A schema that already exists with another partitioning is not changed:
 * CL_DB_ERROR with err->code "partitions_mismatch".  `columnar`: then
 * clearing_record in columnar storage (045: a rewrite of a table that holds
 * records; refused on Citus). */
enum cl_db_status cl_schema_init(struct cl_db *db, int partitions, bool columnar,
				 struct cl_init_result *r, struct cl_error *err) CL_MUST_CHECK;

/* Is clearing_record in columnar storage (init --columnar)? */
enum cl_db_status cl_schema_is_columnar(struct cl_db *db, bool *columnar,
					struct cl_error *err) CL_MUST_CHECK;

/* CL_DB_OK when the database holds this binary's schema version; else
 * CL_DB_ERROR with err->code "schema_missing" or "schema_version". */
enum cl_db_status cl_schema_check(struct cl_db *db, struct cl_error *err) CL_MUST_CHECK;

#endif
