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
#include "rules/statement_fields.h"
#include "rules/statement_identity.h"

#define PROGRESS_EVERY 16384

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

/* What the loader gives a row: its tenant, load, place and journal key. */
struct given {
	const char *tenant;
	int64_t load_id;
	unsigned long ordinal;
	const char *journal_key;
};

/* Column f of row, as the stage takes it (rules/statement_fields.def). */
static void copy_field(struct cl_copy_in *c, const struct cl_stmt_field *f,
		       const struct cl_stmt_row *row, const struct given *g)
{
	const char *m = (const char *)row + f->offset;

	if (!(f->items & (1u << row->item)) || (f->has && !*(const bool *)((const char *)row + f->has - 1))) {
		cl_copy_null(c);
		return;
	}
	switch (f->type) {
	case CL_SFT_TEXT:
	case CL_SFT_KEY:
	case CL_SFT_DATE:
		text(c, m);
		break;
	case CL_SFT_CSTR:
		text(c, *(const char *const *)(const void *)m);
		break;
	case CL_SFT_ITEM:
		text(c, cl_stmt_item_name(row->item));
		break;
	case CL_SFT_HASH:
		cl_copy_bytes(c, m, 32);
		break;
	case CL_SFT_BOOL:
		text(c, *(const bool *)(const void *)m ? "true" : "false");
		break;
	case CL_SFT_DIR: {
		const char *dir = cl_direction_name(*(const enum cl_direction *)(const void *)m);

		text(c, dir ? dir : "");
		break;
	}
	case CL_SFT_AMOUNT:
		cl_copy_int8(c, *(const int64_t *)(const void *)m);
		break;
	case CL_SFT_COUNT:
		cl_copy_int8(c, (int64_t) * (const unsigned long *)(const void *)m);
		break;
	case CL_SFT_SIGNED: {
		long v = *(const long *)(const void *)m;

		if (v >= 0)
			cl_copy_int8(c, v);
		else
			cl_copy_null(c);
		break;
	}
	case CL_SFT_PAGE: {
		unsigned v = *(const unsigned *)(const void *)m;

		if (v)
			cl_copy_int8(c, v);
		else
			cl_copy_null(c);
		break;
	}
	case CL_SFT_TENANT:
		text(c, g->tenant);
		break;
	case CL_SFT_RULE:
		text(c, CL_STMT_KEY_RULE_V1);
		break;
	case CL_SFT_LOAD:
		cl_copy_int8(c, g->load_id);
		break;
	case CL_SFT_ORDINAL:
		cl_copy_int8(c, (int64_t)g->ordinal);
		break;
	case CL_SFT_JOURNAL_KEY:
		text(c, g->journal_key);
		break;
	}
}

/* One stage row: every column of the field table, in its order (the
 * order of statement_stage_copy's list). */
static void copy_row(struct load *L, struct cl_copy_in *c, const struct cl_stmt_row *row,
		     unsigned long ordinal, int64_t load_id)
{
	char masked[CL_KEY_MAX];
	const struct given g = { L->o->tenant, load_id, ordinal, masked };

	cl_stmt_row_journal_key(row, masked, sizeof(masked));
	cl_copy_row(c, (int)cl_stmt_nfields);
	for (size_t i = 0; i < cl_stmt_nfields; i++)
		copy_field(c, &cl_stmt_fields[i], row, &g);
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
		 st->source == CL_STMT_SRC_BAI2 ? "bai2"
		 : st->source == CL_STMT_SRC_MT940 || st->source == CL_STMT_SRC_MT942 ? "mt940"
		 : st->source == CL_STMT_SRC_CSV					     ? "bank-csv"
										     : "iso20022");
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
	struct cl_stmt_row rows[CL_STMT_ROWS_MAX];
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

		cl_stmt_duplicate_error(&e, L->path,
					strtoul(cl_db_get(res, i, "first_line"), NULL, 10),
					strtoul(cl_db_get(res, i, "last_line"), NULL, 10),
					strtoul(cl_db_get(res, i, "items"), NULL, 10),
					cl_db_get(res, i, CL_STMT_COLUMN(journal_key)));
		file_error(L, &e);
	}
	PQclear(res);
	return CL_DB_OK;
}

static enum cl_db_status stage(struct load *L, bool rewind)
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

static enum cl_db_status classify(struct load *L)
{
	struct cl_load_result *r = L->r;
	const char *p[2] = { L->load_id, L->o->tenant };
	PGresult *res;
	enum cl_db_status st;

	st = cl_db_exec(L->db, CL_SQL_STATEMENT_CLASSIFY, 2, p, &res, &r->err);
	if (st != CL_DB_OK)
		return st;
	r->duplicate_count = strtoul(cl_db_get(res, 0, "duplicates"), NULL, 10);
	r->conflict_count = strtoul(cl_db_get(res, 0, "conflicts"), NULL, 10);
	PQclear(res);
	r->new_count = r->records - r->duplicate_count - r->conflict_count;
	L->near_count = 0;
	return CL_DB_OK;
}

static enum cl_db_status apply(struct load *L)
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

const struct cl_family_ops cl_statement_family = {
	.stage = stage,
	.plan = NULL,
	.classify = classify,
	.apply = apply,
	.journal = NULL,
	.feed = false,
};
