/* cmd_parse.c - `clearing-load parse`: records as text, JSON lines or CSV. */
#include "cmd/cli.h"

#include <inttypes.h>

#include "cmd/answer_out.h"
#include "cmd/filecmd.h"

/* The JSON records of every file, written in blocks of CL_JSON_BUF
 * (a gigabyte of JSON for a big file: no copy into stdio's buffer); every
 * other write to stdout flushes it first. */
static struct cl_json records;
static bool records_started;

static void flush_records(void)
{
	if (records_started)
		cl_json_flush(&records);
}

static void print_record(void *vctx, const struct cl_record *rec)
{
	const struct cl_file_ctx *ctx = vctx;
	const char *dir;
	char key[CL_KEY_MAX], safe[4 * CL_KEY_MAX], kind[64], ccy[32], date[64];

	switch (ctx->format) {
	case CL_OUT_JSON:
		if (!records_started) {
			cl_json_lines(&records, stdout);
			records_started = true;
		}
		cl_json_record_line(&records, ctx->file, rec);
		break;
	case CL_OUT_CSV:
		cl_csv_record(stdout, ctx->file, rec);
		break;
	case CL_OUT_TEXT:
		dir = cl_direction_name(rec->direction);
		/* every value from the file made safe: a key can hold a CR or a
		   CSI (an EndToEndId is free text) */
		printf("%s:%lu %s %s %" PRId64 " %s %s %s\n", ctx->file_text, rec->position,
		       cl_text_safe(rec->kind, kind, sizeof(kind)),
		       cl_text_safe(cl_out_key(rec, rec->natural_key, key, sizeof(key)), safe,
				    sizeof(safe)),
		       rec->amount_minor,
		       rec->currency[0] ? cl_text_safe(rec->currency, ccy, sizeof(ccy)) : "-",
		       dir ? dir : "-",
		       rec->value_date[0] ? cl_text_safe(rec->value_date, date, sizeof(date)) : "-");
		break;
	}
}

/* A statement's or status report's row (a statement, an entry, a status):
 * in CSV under a header row of its own, printed before the file's first. */
static void print_answer(void *vctx, const struct cl_stmt_row *row)
{
	struct cl_file_ctx *ctx = vctx;

	flush_records();
	switch (ctx->format) {
	case CL_OUT_JSON:
		cl_json_answer(stdout, ctx->file, row);
		break;
	case CL_OUT_CSV:
		if (ctx->answer_file != ctx->file) {
			ctx->answer_file = ctx->file;
			cl_csv_answer_header(stdout);
		}
		cl_csv_answer(stdout, ctx->file, row);
		break;
	case CL_OUT_TEXT:
		cl_text_answer(stdout, ctx->file_text, row);
		break;
	}
}

static void print_error(void *vctx, const struct cl_error *err)
{
	const struct cl_file_ctx *ctx = vctx;

	flush_records();
	cl_report_error(ctx->file, err);
}

static void print_note(void *vctx, const struct cl_error *err)
{
	flush_records();
	cl_note_if_verbose(vctx, err);
}

static void file_done(const struct cl_file_ctx *ctx, bool valid, const struct cl_walk_result *res)
{
	(void)ctx;
	(void)valid;
	(void)res;
	flush_records();
}

static const struct cl_option parse_command[] = {
	CL_OPT_USAGE("parse", CL_FILE_OPERANDS, "[OPTION]... FILE..."),
	CL_OPT_TEXT("Print the records of NACHA or ISO 20022 files, one per line; no database. "
		    "FILE may be - for standard input; gzip is recognised by content."),
	CL_OPT_INCLUDE(cl_file_options),
	CL_OPT_QUIET("print nothing but records and errors"),
	CL_OPT_VERBOSE(),
	CL_OPT_TEXT("A bank statement or status report (camt.05x, pacs.002, BAI2) is printed as "
		    "the rows load stores of it: its statements, entries and statuses (JSON type "
		    "statement_item; in CSV under a header row of their own)."),
	CL_OPT_TEXT("Exit status: 0 all files valid, 2 usage error, 3 a file was invalid, 9 a "
		    "message clearing-load does not read."),
	CL_OPT_END(),
};

static void csv_header(void)
{
	cl_csv_record_header(stdout);
}

int cl_cmd_parse(int argc, char **argv)
{
	static const struct cl_file_command parse = {
		.table = parse_command,
		.cb = { print_record, print_error, print_note, print_answer },
		.csv_header = csv_header,
		.done = file_done,
	};

	return cl_run_file_command(&parse, argc, argv);
}
