/*
 * walk.h - run one file through the parser without a database, handing
 * records, errors and notes to callbacks (parse and validate).
 */
#ifndef CL_WALK_H
#define CL_WALK_H

#include "base/record.h"
#include "parsers/parser.h"
#include "rules/statement_identity.h"

struct cl_walk_cb {
	void (*on_record)(void *ctx, const struct cl_record *rec); /* may be NULL */
	void (*on_error)(void *ctx, const struct cl_error *err);
	void (*on_note)(void *ctx, const struct cl_error *err);    /* may be NULL */
	/* each row of a statement or status report (a statement, an entry, a
	 * status: the rows load stores, rules/statement_identity.h); may be
	 * NULL */
	void (*on_answer)(void *ctx, const struct cl_stmt_row *row);
};

struct cl_walk_result {
	struct cl_file_info info;  /* what the file said about itself */
	char sha256[65];           /* of the raw bytes; "" if unread */
	unsigned long long bytes;  /* raw size */
	unsigned long errors;      /* errors (cl_error_count) of the CL_INVALID
	                              and CL_IO results; at least this many
	                              when info.stopped */
	bool unsupported;          /* the first error: a well-formed message
	                              clearing-load does not read (exit 9) */
	bool statement;            /* a statement or status report (statement.h) */
};

/* Parse `path` ("-" = stdin) to the end.  Returns true when the file is
 * valid (no error of any kind was reported through cb->on_error). */
bool cl_walk_file(const char *path, const struct cl_parse_opts *opts,
		  const struct cl_walk_cb *cb, void *ctx, struct cl_walk_result *res);

#endif
