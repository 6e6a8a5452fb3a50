/*
 * filecmd.h - the run of parse and validate: every FILE through the
 * parser, without a database, with the command's own hooks.
 */
#ifndef CL_FILECMD_H
#define CL_FILECMD_H

#include "cmd/cli.h"
#include "cmd/options.h"
#include "cmd/walk.h"

/* The file being read, handed to every hook as its ctx. */
struct cl_file_ctx {
	enum cl_out_format format;  /* --format */
	const char *file;           /* the file as named in output, "(stdin)" for "-" */
	char file_text[1024];       /* the same, safe for text output (cl_text_safe) */
	const char *answer_file;    /* parse --format csv: the file whose
	                               statement rows had their header row */
};

struct cl_file_command {
	const struct cl_option *table;  /* the command's options */
	struct cl_walk_cb cb;           /* records, errors, notes (ctx: struct cl_file_ctx) */
	/* before the first file, after the options: 0 to go on, or the exit
	 * code (validate: a --schema that cannot be used); may be NULL */
	int (*start)(const struct cl_parse_opts *popts);
	/* --format csv: the header row (may be NULL) */
	void (*csv_header)(void);
	/* the file's sha256 is shown (walk.h res->sha256) with --format json;
	   otherwise it is not computed */
	bool checksum_in_json;
	/* after each file (may be NULL) */
	void (*done)(const struct cl_file_ctx *ctx, bool valid, const struct cl_walk_result *res);
};

/* Parse the command line by fc->table, then walk each file: exit 0 when
 * every file was valid, 3 when one was not, 9 when one was a message that
 * clearing-load does not read (walk.h unsupported), 2 on a usage error;
 * with several files the most severe (cl_exit_worse). */
int cl_run_file_command(const struct cl_file_command *fc, int argc, char **argv);

#endif
