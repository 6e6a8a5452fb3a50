/* cmd_parse.c - `clearing-load parse`: records as text, JSON lines or CSV. */
#include "cli.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "walk.h"

struct parse_ctx {
	enum cl_out_format format;
	const char *file;
	char file_safe[1024]; /* for text output: see cl_text_safe() */
};

static void print_record(void *vctx, const struct cl_record *rec)
{
	struct parse_ctx *ctx = vctx;
	struct cl_json j;
	const char *dir;
	char key[CL_KEY_MAX];

	switch (ctx->format) {
	case CL_OUT_JSON:
		cl_json_begin(&j, stdout);
		cl_json_str(&j, "file", ctx->file);
		cl_json_record_fields(&j, rec);
		cl_json_end(&j);
		break;
	case CL_OUT_CSV:
		cl_csv_record(stdout, ctx->file, rec);
		break;
	case CL_OUT_TEXT:
		dir = cl_direction_name(rec->direction);
		printf("%s:%lu %s %s %" PRId64 " %s %s %s\n", ctx->file_safe, rec->position, rec->kind,
		       cl_out_key(rec, rec->natural_key, key, sizeof(key)), rec->amount_minor, rec->currency[0] ? rec->currency : "-",
		       dir ? dir : "-", rec->value_date[0] ? rec->value_date : "-");
		break;
	}
}

static void print_error(void *vctx, const struct cl_error *err)
{
	(void)vctx;
	cl_print_error(err);
}

static void print_note(void *vctx, const struct cl_error *err)
{
	(void)vctx;
	if (cl_opt_verbose)
		cl_print_note(err);
}

static const char parse_usage[] =
	"Usage: clearing-load parse [OPTION]... FILE...\n"
	"Print the records of NACHA or ISO 20022 files, one per line; no database.\n"
	"FILE may be - for standard input; gzip is recognised by content.\n"
	"\n"
	"  -f, --format=FORMAT     text (default), json (one object per line) or csv\n"
	"      --no-mask           print account numbers in full\n"
	"      --ach-key=RULE      strict (default) or batch (weaker, see clearing-load-keys(7))\n"
	"      --positional-keys   key pain.001 records without EndToEndId by position\n"
	"      --max-errors=N      stop reading a file after N errors (default 100)\n"
	"  -q, --quiet             print nothing but records and errors\n"
	"  -v, --verbose           also print notes (CRLF, missing 9-fill, short lines)\n"
	"  -h, --help              display this help and exit\n"
	"\n"
	"Exit status: 0 all files valid, 2 usage error, 3 a file was invalid.\n";

int cl_cmd_parse(int argc, char **argv)
{
	struct cl_parse_opts popts = { 0 };
	struct parse_ctx ctx = { .format = CL_OUT_TEXT };
	int code = CL_EXIT_OK;
	int rc = cl_parse_file_options("parse", parse_usage, argc, argv, &popts, &ctx.format);

	if (rc >= 0)
		return rc;
	if ((rc = cl_check_files("parse", optind, argc, argv)) != 0)
		return rc;
	if (ctx.format == CL_OUT_CSV)
		cl_csv_record_header(stdout);
	for (int i = optind; i < argc; i++) {
		struct cl_walk_cb cb = { print_record, print_error, print_note };
		struct cl_walk_result res;

		ctx.file = strcmp(argv[i], "-") == 0 ? "(stdin)" : argv[i];
		cl_text_safe(ctx.file, ctx.file_safe, sizeof(ctx.file_safe));
		if (!cl_walk_file(argv[i], &popts, &cb, &ctx, &res))
			code = CL_EXIT_INVALID;
	}
	return cl_finish_stdout(code);
}
