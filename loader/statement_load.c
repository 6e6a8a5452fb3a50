/* statement_load.c - a statement or status report through the load
 * pipeline (statement_load.h; statements: sql/loader/statement.sql). */
#include "loader/statement_load.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mask.h"
#include "base/xmalloc.h"
#include "gen/loader_sql.h"
#include "loader/interrupt.h"
#include "parsers/parser.h"
#include "parsers/statement.h"
#include "rules/statement_identity.h"

#define PROGRESS_EVERY 16384
#define STAGE_COLUMNS 47

/* The one detection (parser.h): the parser reads as far as the family
 * shows (an XML file to its Document namespace), and the spooled input is
 * rewound for the attempt that stages it. */
bool cl_statement_detect(struct load *L)
{
	struct cl_parser *p;
	struct cl_error e;
	enum cl_family f = CL_FAMILY_UNKNOWN;

	if (cl_input_rewind(L->in, &e) != CL_OK)
		return false;
	if (cl_parser_open(L->in, &L->o->parse, &p, &e) == CL_OK)
		f = cl_parser_family(p);
	cl_parser_free(p);
	if (cl_input_rewind(L->in, &e) != CL_OK)
		return false;
	return f == CL_FAMILY_STATEMENT || f == CL_FAMILY_STATUS;
}

static void text(struct cl_copy_in *c, const char *s)
{
	cl_copy_text(c, s, true);
}

static void copy_row(struct load *L, struct cl_copy_in *c, const struct cl_stmt_row *row,
		     unsigned long ordinal, int64_t load_id)
{
	static const char *const items[] = { "statement", "entry", "status" };
	char masked[CL_KEY_MAX];
	const char *dir = cl_direction_name(row->direction);

	cl_stmt_row_journal_key(row, masked, sizeof(masked));
	cl_copy_row(c, STAGE_COLUMNS);
	text(c, L->o->tenant);
	text(c, row->kind);
	text(c, items[row->item]);
	text(c, row->natural_key);
	text(c, row->statement_key);
	text(c, CL_STMT_KEY_RULE_V1);
	cl_copy_bytes(c, row->fingerprint, 32);
	text(c, row->message_type);
	text(c, row->account);
	text(c, row->account_ccy);
	text(c, row->statement_id);
	text(c, row->seq_nb);
	text(c, row->period_from);
	text(c, row->period_to);
	if (row->has_opening)
		cl_copy_int8(c, row->opening_minor);
	else
		cl_copy_null(c);
	if (row->has_closing)
		cl_copy_int8(c, row->closing_minor);
	else
		cl_copy_null(c);
	if (row->item == CL_STMT_ROW_STATEMENT)
		cl_copy_null(c);
	else
		cl_copy_int8(c, (int64_t)row->entry_index);
	text(c, row->entry_ref);
	text(c, row->acct_svcr_ref);
	if (row->has_amount)
		cl_copy_int8(c, row->amount_minor);
	else
		cl_copy_null(c);
	text(c, row->currency);
	text(c, dir ? dir : "");
	text(c, row->reversal ? "true" : "false");
	text(c, row->status);
	text(c, row->status_reason);
	text(c, row->booking_date);
	text(c, row->value_date);
	text(c, row->bank_tx_code);
	if (row->item == CL_STMT_ROW_ENTRY)
		cl_copy_int8(c, (int64_t)row->txs);
	else
		cl_copy_null(c);
	if (row->batch_count >= 0)
		cl_copy_int8(c, row->batch_count);
	else
		cl_copy_null(c);
	text(c, row->batch_msg_id);
	text(c, row->batch_pmt_inf_id);
	text(c, row->msg_id);
	text(c, row->pmt_inf_id);
	text(c, row->instr_id);
	text(c, row->end_to_end_id);
	text(c, row->tx_id);
	text(c, row->uetr);
	text(c, row->ach_trace);
	text(c, row->return_reason);
	cl_copy_int8(c, load_id);
	cl_copy_int8(c, (int64_t)ordinal);
	cl_copy_int8(c, (int64_t)row->position);
	if (row->item == CL_STMT_ROW_STATEMENT && row->page)
		cl_copy_int8(c, (int64_t)row->page);
	else
		cl_copy_null(c);
	if (row->item == CL_STMT_ROW_STATEMENT)
		text(c, row->last_page ? "true" : "false");
	else
		cl_copy_null(c);
	if (row->item == CL_STMT_ROW_STATEMENT && row->summary_entries >= 0)
		cl_copy_int8(c, row->summary_entries);
	else
		cl_copy_null(c);
	text(c, masked);
}

/* A data error of the file: counted, reported, the first one kept as the
 * load's reason. */
static void file_error(struct load *L, struct cl_error *e)
{
	struct cl_load_result *r = L->r;

	L->incomplete = L->incomplete || strcmp(e->code, "xml_truncated") == 0 ||
			strcmp(e->code, "truncated") == 0 ||
			strcmp(e->code, "gzip_truncated") == 0 ||
			strcmp(e->code, "empty_file") == 0;
	if (!r->invalid_count)
		L->unsupported = cl_error_unsupported(e);
	if (!r->invalid_count && e->line)
		snprintf(r->reason, sizeof(r->reason), "line %lu: %.511s", e->line, e->message);
	else if (!r->invalid_count)
		snprintf(r->reason, sizeof(r->reason), "%.511s", e->message);
	r->invalid_count += cl_error_count(e);
	L->h->on_error(L->h->ctx, e);
}

/* What the file said about itself, for the load row. */
static void file_info(struct load *L, const struct cl_stmt_statement *st)
{
	struct cl_file_info *info = &L->stage.info;

	if (info->format_name[0])
		return;
	snprintf(info->format_name, sizeof(info->format_name), "%s",
		 st->source == CL_STMT_SRC_BAI2 ? "bai2" : "iso20022");
	snprintf(info->message_type, sizeof(info->message_type), "%s", st->message_type);
	snprintf(info->sender, sizeof(info->sender), "%s", st->sender);
	snprintf(info->receiver, sizeof(info->receiver), "%s", st->receiver);
	snprintf(info->created, sizeof(info->created), "%.31s", st->created);
	snprintf(info->file_id, sizeof(info->file_id), "%s", st->msg_id);
}

/* Read the file, each item a stage row; false when it is invalid. */
static bool read_items(struct load *L, struct cl_copy_in *c, struct cl_fp *fp)
{
	struct cl_load_result *r = L->r;
	struct cl_parser *p = NULL;
	struct cl_item it;
	const struct cl_stmt_item *item;
	struct cl_stmt_rows rows_state = { 0 };
	struct cl_stmt_row rows[2];
	struct cl_error e;
	enum cl_status st;
	const int64_t load_id = strtoll(L->load_id, NULL, 10);
	unsigned long bad_line;
	bool copying = true;

	if (cl_parser_open(L->in, &L->o->parse, &p, &e) != CL_OK) {
		file_error(L, &e);
		if (copying)
			cl_copy_in_abort(c, "invalid file");
		copying = false;
	}
	while (p && (st = cl_parser_next_item(p, &it, &e)) != CL_END) {
		int n;

		if (cl_interrupt_signal())
			break;
		if (st == CL_NOTE) {
			if (L->h->on_note)
				L->h->on_note(L->h->ctx, &e);
			continue;
		}
		if (st != CL_OK) {
			file_error(L, &e);
			if (copying)
				cl_copy_in_abort(c, "invalid file");
			copying = false;
			continue;
		}
		if (!(item = it.stmt))
			continue; /* (a clearing record: cl_statement_detect said not) */
		file_info(L, &item->stmt);
		n = cl_stmt_rows_of(&rows_state, item, fp, rows, &bad_line);
		for (int i = 0; i < (n < 0 ? 0 : n); i++) {
			r->records++;
			if (copying)
				copy_row(L, c, &rows[i], r->records, load_id);
		}
		if (n < 0) {
			cl_error_set(&e, cl_input_name(L->in), bad_line, "key_too_long",
				     "the statement key of this item is longer than %d bytes",
				     CL_KEY_MAX - 1);
			file_error(L, &e);
			if (copying)
				cl_copy_in_abort(c, "invalid file");
			copying = false;
			continue;
		}
		if (L->h->on_progress && r->records % PROGRESS_EVERY == 0)
			L->h->on_progress(L->h->ctx, r->records, cl_input_raw_bytes(L->in));
	}
	if (p && !L->stage.info.format_name[0] && cl_parser_message(p)[0]) {
		struct cl_file_info *info = &L->stage.info;

		snprintf(info->format_name, sizeof(info->format_name), "%s",
			 cl_parser_info(p)->format_name);
		snprintf(info->message_type, sizeof(info->message_type), "%s",
			 cl_parser_message(p));
	}
	if (p && cl_parser_info(p)->stopped)
		r->max_errors_stopped = cl_parser_info(p)->max_errors;
	cl_parser_free(p);
	{
		char buf[4096];

		while (cl_input_read(L->in, buf, sizeof(buf), &e) > 0)
			;
	}
	if (cl_interrupt_signal()) {
		cl_error_set(&r->err, NULL, 0, "interrupted", "interrupted while reading the file");
		if (copying)
			cl_copy_in_abort(c, "interrupted");
		return false;
	}
	return copying && !r->invalid_count;
}

/* Two items of the file under one key make it invalid (a statement that
 * lists one entry twice cannot be deduplicated). */
static enum cl_db_status in_file_duplicates(struct load *L)
{
	PGresult *res;
	enum cl_db_status st;

	st = cl_db_exec(L->db, CL_SQL_STATEMENT_IN_FILE_DUPLICATES, 0, NULL, &res, &L->r->err);
	if (st != CL_DB_OK)
		return st;
	for (int i = 0; i < PQntuples(res); i++) {
		struct cl_error e;

		cl_stmt_duplicate_error(&e, L->path, strtoul(PQgetvalue(res, i, 0), NULL, 10),
					strtoul(PQgetvalue(res, i, 1), NULL, 10),
					strtoul(PQgetvalue(res, i, 2), NULL, 10), PQgetvalue(res, i, 3));
		file_error(L, &e);
	}
	PQclear(res);
	return CL_DB_OK;
}

enum cl_db_status cl_statement_stage(struct load *L, bool rewind)
{
	struct cl_load_result *r = L->r;
	struct cl_copy_in *c;
	struct cl_fp *fp;
	struct cl_error e;
	enum cl_db_status st;
	bool staged;

	r->records = r->invalid_count = 0;
	r->max_errors_stopped = 0;
	L->incomplete = L->unsupported = false;
	memset(&L->stage.info, 0, sizeof(L->stage.info));
	if (rewind && cl_input_rewind(L->in, &e) != CL_OK) {
		r->err = e;
		return CL_DB_ERROR;
	}
	if ((st = cl_load_exec0(L, CL_SQL_STATEMENT_STAGE_CREATE)) != CL_DB_OK)
		return st;
	c = cl_xmalloc(sizeof(*c));
	if ((st = cl_copy_in_begin(c, L->db, CL_SQL_STATEMENT_STAGE_COPY, &r->err)) != CL_DB_OK) {
		free(c);
		return st;
	}
	fp = cl_fp_new();
	staged = read_items(L, c, fp);
	cl_fp_free(fp);
	r->bytes = cl_input_raw_bytes(L->in);
	snprintf(r->sha256, sizeof(r->sha256), "%s", cl_input_sha256_hex(L->in));
	snprintf(r->format, sizeof(r->format), "%s", L->stage.info.format_name);
	snprintf(r->message_type, sizeof(r->message_type), "%s", L->stage.info.message_type);
	if (!staged) {
		free(c);
		return strcmp(r->err.code, "interrupted") == 0 ? CL_DB_ERROR : CL_DB_OK;
	}
	st = cl_copy_in_end(c, NULL, &r->err);
	free(c);
	if (st != CL_DB_OK)
		return st;
	if (!r->retries) {
		snprintf(L->stage.first_sha, sizeof(L->stage.first_sha), "%s", r->sha256);
		L->stage.first_records = r->records;
	} else if (r->records != L->stage.first_records ||
		   strcmp(r->sha256, L->stage.first_sha) != 0) {
		cl_error_set(&r->err, cl_input_name(L->in), 0, "file_changed",
			     "the file changed while it was loaded (SHA-256 or item count differs "
			     "between attempts): nothing applied");
		cl_error_hint(&r->err, CL_LOAD_HINT_FILE_CHANGED);
		return CL_DB_ERROR;
	}
	return in_file_duplicates(L);
}

enum cl_db_status cl_statement_classify(struct load *L)
{
	struct cl_load_result *r = L->r;
	const char *p[2] = { L->load_id, L->o->tenant };
	PGresult *res;
	enum cl_db_status st;

	st = cl_db_exec(L->db, CL_SQL_STATEMENT_CLASSIFY, 2, p, &res, &r->err);
	if (st != CL_DB_OK)
		return st;
	r->duplicate_count = strtoul(PQgetvalue(res, 0, 0), NULL, 10);
	r->conflict_count = strtoul(PQgetvalue(res, 0, 1), NULL, 10);
	PQclear(res);
	r->new_count = r->records - r->duplicate_count - r->conflict_count;
	L->near_count = 0;
	return CL_DB_OK;
}

enum cl_db_status cl_statement_apply(struct load *L)
{
	struct cl_load_result *r = L->r;
	char n[24];
	enum cl_db_status st;

	st = cl_db_value(L->db, CL_SQL_STATEMENT_APPLY, 0, NULL, n, sizeof(n), &r->err);
	if (st != CL_DB_OK)
		return st;
	if (strtoul(n, NULL, 10) != r->new_count) {
		/* a concurrent load stored some of these items first */
		cl_error_set(&r->err, NULL, 0, "concurrent_load",
			     "a concurrent load stored items of this statement first");
		return CL_DB_RETRY;
	}
	return CL_DB_OK;
}
