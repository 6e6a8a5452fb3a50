/* cmd_validate.c - `clearing-load validate`: structure and control totals. */
#include "cli.h"

#include <getopt.h>
#include <string.h>

#include "iso20022.h"
#include "options.h"
#include "walk.h"

struct validate_ctx {
	enum cl_out_format format;
	const char *file;
};

static void report_error(void *vctx, const struct cl_error *err)
{
	struct validate_ctx *ctx = vctx;
	struct cl_json j;
	char line[24], col[24], other[24];

	switch (ctx->format) {
	case CL_OUT_JSON:
		cl_json_begin(&j, stdout);
		cl_json_str(&j, "type", "error");
		cl_json_str(&j, "file", ctx->file);
		cl_json_uint(&j, "line", err->line);
		if (err->column)
			cl_json_uint(&j, "column", err->column);
		if (err->other_line)
			cl_json_uint(&j, "other_line", err->other_line);
		if (err->path[0])
			cl_json_str(&j, "path", err->path);
		cl_json_str(&j, "code", err->code);
		cl_json_str(&j, "message", err->message);
		if (err->detail[0])
			cl_json_str(&j, "detail", err->detail);
		if (err->hint[0])
			cl_json_str(&j, "hint", err->hint);
		cl_json_end(&j);
		break;
	case CL_OUT_CSV: {
		const char *row[] = { "error", ctx->file, line, col, other, err->path, err->code,
				      err->message };

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

static void report_note(void *vctx, const struct cl_error *err)
{
	(void)vctx;
	if (cl_opt_verbose)
		cl_print_note(err);
}

static void report_file(const struct validate_ctx *ctx, bool valid, const struct cl_walk_result *res)
{
	struct cl_json j;

	if (ctx->format == CL_OUT_JSON) {
		cl_json_begin(&j, stdout);
		cl_json_str(&j, "type", "file");
		cl_json_str(&j, "file", ctx->file);
		cl_json_bool(&j, "valid", valid);
		cl_json_str(&j, "format", res->info.format_name);
		cl_json_str(&j, "message_type", res->info.message_type);
		cl_json_uint(&j, "records", res->info.records);
		cl_json_uint(&j, "errors", res->errors);
		cl_json_str(&j, "sha256", res->sha256);
		cl_json_uint(&j, "bytes", res->bytes);
		cl_json_end(&j);
	} else if (ctx->format == CL_OUT_CSV) {
		/* one row per file too, so valid files are in the report */
		char msg[64];
		const char *row[] = { "file", ctx->file, "", "", "", "", valid ? "valid" : "invalid",
				      msg };

		snprintf(msg, sizeof(msg), "%lu records, %lu errors", res->info.records, res->errors);
		cl_csv_row(stdout, row, sizeof(row) / sizeof(row[0]));
	} else if (ctx->format == CL_OUT_TEXT && !cl_opt_quiet) {
		char safe[1024];

		cl_text_safe(ctx->file, safe, sizeof(safe));
		if (valid)
			printf("%s: valid %s, %lu record%s\n", safe,
			       res->info.message_type[0] ? res->info.message_type : "file",
			       res->info.records, res->info.records == 1 ? "" : "s");
		else
			printf("%s: invalid, %lu error%s\n", safe, res->errors,
			       res->errors == 1 ? "" : "s");
	}
}

static const char validate_usage[] =
	"Usage: clearing-load validate [OPTION]... FILE...\n"
	"Check the structure, control totals and keys of NACHA or ISO 20022 files;\n"
	"no database.  FILE may be - for standard input; gzip is recognised by content.\n"
	"\n"
	"  -f, --format=FORMAT     text (default), json or csv: errors as objects/rows\n"
	"      --schema=FILE.xsd   also validate the Document element of ISO 20022 files\n"
	"                          against this XSD (self-contained: no imports)\n"
	"      --ach-key=RULE      strict (default) or batch (weaker, see clearing-load-keys(7))\n"
	"      --positional-keys   key pain.001 records without EndToEndId by position\n"
	"      --max-errors=N      stop reading a file after N errors (default 100)\n"
	"      --no-mask           print account numbers in full\n"
	"  -q, --quiet             print errors only, no per-file summary\n"
	"  -v, --verbose           also print notes (CRLF, missing 9-fill, short lines)\n"
	"  -h, --help              display this help and exit\n"
	"\n"
	"Exit status: 0 all files valid, 2 usage error (a --schema that cannot be\n"
	"loaded too), 3 a file was invalid.\n";

int cl_cmd_validate(int argc, char **argv)
{
	struct cl_parse_opts popts = { 0 };
	struct validate_ctx ctx = { CL_OUT_TEXT, NULL };
	int code = CL_EXIT_OK;
	int rc = cl_parse_file_options("validate", validate_usage, argc, argv, &popts, &ctx.format);

	if (rc >= 0)
		return rc;
	if ((rc = cl_check_files("validate", optind, argc, argv)) != 0)
		return rc;
	if (popts.schema_path) {
		/* a schema that cannot be used is the command line's fault, not
		 * the files' (review 28): said once, before any file is read */
		struct cl_error err;

		if (cl_iso20022_schema_check(popts.schema_path, &err) != CL_OK)
			return cl_usage_error("validate", "--schema: %s", err.message);
	}
	if (ctx.format == CL_OUT_CSV) {
		const char *hdr[] = { "type", "file", "line", "column", "other_line", "path", "code",
				      "message" };

		cl_csv_row(stdout, hdr, sizeof(hdr) / sizeof(hdr[0]));
	}
	for (int i = optind; i < argc; i++) {
		struct cl_walk_cb cb = { NULL, report_error, report_note };
		struct cl_walk_result res;
		bool valid;

		ctx.file = strcmp(argv[i], "-") == 0 ? "(stdin)" : argv[i];
		valid = cl_walk_file(argv[i], &popts, &cb, &ctx, &res);
		report_file(&ctx, valid, &res);
		if (!valid)
			code = CL_EXIT_INVALID;
	}
	return cl_finish_stdout(code);
}
