/* cmd_validate.c - `clearing-load validate`: structure and control totals. */
#include "cmd/cli.h"

#include "cmd/filecmd.h"
#include "parsers/iso20022.h"

static void report_error(void *vctx, const struct cl_error *err)
{
	const struct cl_file_ctx *ctx = vctx;
	char line[24], col[24], other[24];

	switch (ctx->format) {
	case CL_OUT_JSON:
		cl_json_error(ctx->file, err);
		break;
	case CL_OUT_CSV: {
		/* a number that is not known (0) is NULL, never "0" */
		const char *row[] = { "error", ctx->file, err->line ? line : NULL,
				      err->column ? col : NULL, err->other_line ? other : NULL,
				      cl_or_null(err->path), err->code, err->message };

		snprintf(line, sizeof(line), "%lu", err->line);
		snprintf(col, sizeof(col), "%lu", err->column);
		snprintf(other, sizeof(other), "%lu", err->other_line);
		cl_csv_row(stdout, row, sizeof(row) / sizeof(row[0]));
		break;
	}
	case CL_OUT_TEXT:
		cl_print_error(err);
		break;
	}
}

static void report_file(const struct cl_file_ctx *ctx, bool valid, const struct cl_walk_result *res)
{
	if (ctx->format == CL_OUT_JSON) {
		struct cl_file_out f = {
			.file = ctx->file, .outcome = valid ? "valid" : "invalid", .valid = valid,
			.format = res->info.format_name, .message_type = res->info.message_type,
			.sha256 = res->sha256, .have_counts = true, .bytes = res->bytes,
			.records = res->info.records, .errors = res->errors,
		};

		cl_json_file(&f);
	} else if (ctx->format == CL_OUT_CSV) {
		/* one row per file too, so valid files are in the report */
		char msg[64];
		const char *row[] = { "file", ctx->file, NULL, NULL, NULL, NULL,
				      valid ? "valid" : "invalid", msg };

		snprintf(msg, sizeof(msg), "%lu records, %s%lu errors", res->info.records,
			 res->info.stopped ? "at least " : "", res->errors);
		cl_csv_row(stdout, row, sizeof(row) / sizeof(row[0]));
	} else if (ctx->format == CL_OUT_TEXT && !cl_opt_quiet) {
		char mtype[4 * sizeof(res->info.message_type)];

		if (valid)
			printf("%s: valid %s, %lu record%s\n", ctx->file_text,
			       res->info.message_type[0]
				       ? cl_text_safe(res->info.message_type, mtype, sizeof(mtype))
				       : "file",
			       res->info.records, res->info.records == 1 ? "" : "s");
		else if (res->info.stopped)
			printf("%s: invalid, at least %lu errors (stopped at --max-errors=%u)\n",
			       ctx->file_text, res->errors, res->info.max_errors);
		else
			printf("%s: invalid, %lu error%s\n", ctx->file_text, res->errors,
			       res->errors == 1 ? "" : "s");
	}
}

static const struct cl_option validate_command[] = {
	CL_OPT_USAGE("validate", CL_FILE_OPERANDS, "[OPTION]... FILE..."),
	CL_OPT_TEXT("Check the structure, control totals and keys of NACHA or ISO 20022 files; "
		    "no database.  FILE may be - for standard input; gzip is recognised by "
		    "content.  With --format json or csv, errors and files are objects or rows."),
	CL_OPT_INCLUDE(cl_file_options),
	CL_OPT_STRING(0, "schema", "FILE.xsd", schema,
		      "also validate the Document element of ISO 20022 files against this XSD "
		      "(self-contained: no imports)"),
	CL_OPT_QUIET("print errors only, no per-file summary"),
	CL_OPT_VERBOSE(),
	CL_OPT_TEXT("Exit status: 0 all files valid, 2 usage error (a --schema that cannot be "
		    "loaded too), 3 a file was invalid, 9 a well-formed message clearing-load does not "
		    "read (pain.002, camt.056, ...)."),
	CL_OPT_END(),
};

/* A schema that cannot be used is the command line's fault, not the
 * files': said once, before any file is read. */
static int check_schema(const struct cl_parse_opts *popts)
{
	struct cl_error err;

	if (popts->schema_path && cl_iso20022_schema_check(popts->schema_path, &err) != CL_OK)
		return cl_usage_error("validate", "--schema: %s", err.message);
	return 0;
}

static void csv_header(void)
{
	static const char *const hdr[] = { "type", "file", "line", "column", "other_line",
					   "path", "code", "message" };

	cl_csv_row(stdout, hdr, sizeof(hdr) / sizeof(hdr[0]));
}

int cl_cmd_validate(int argc, char **argv)
{
	static const struct cl_file_command validate = {
		.table = validate_command,
		.cb = { NULL, report_error, cl_note_if_verbose },
		.start = check_schema,
		.csv_header = csv_header,
		.checksum_in_json = true,
		.done = report_file,
	};

	return cl_run_file_command(&validate, argc, argv);
}
