/* answer_out.c - a bank's answer item as parse prints it (answer_out.h). */
#include "cmd/answer_out.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/mask.h"
#include "cmd/cli.h"
#include "rules/statement_fields.h"

/* The columns printed: the row's, not those the loader gives, nor the
 * fingerprint (validate and parse build rows without it). */
static bool printed(const struct cl_stmt_field *f)
{
	return f->type < CL_SFT_TENANT && f->type != CL_SFT_HASH && !(f->flags & CL_SF_STAGE);
}

/* Column f of row as output shows it (NULL for none): the account masked,
 * and in the keys, unless --no-mask. */
static const char *out_text(const struct cl_stmt_field *f, const struct cl_stmt_row *row,
			    char *buf, size_t cap, bool *number)
{
	char raw[CL_STMT_FIELD_TEXT_MAX];
	const char *v = cl_stmt_field_text(f, row, raw, number);
	const char *accounts[1] = { row->account };

	if (!v)
		return NULL;
	if (v == raw) {
		snprintf(buf, cap, "%s", raw);
		v = buf;
	}
	if (cl_opt_no_mask || !row->account[0])
		return v;
	if (f == &cl_stmt_fields[CL_SC_account])
		return cl_out_account(v, buf, cap);
	if ((f == &cl_stmt_fields[CL_SC_natural_key] || f == &cl_stmt_fields[CL_SC_statement_key]) &&
	    cl_mask_in_key(v, accounts, 1, buf, cap))
		return buf;
	return v;
}

void cl_json_answer(FILE *f, const char *file, const struct cl_stmt_row *row)
{
	static struct cl_json j; /* 64 KiB: not on the stack */
	char buf[CL_KEY_MAX];

	cl_json_begin(&j, f, "statement_item");
	cl_json_str(&j, "file", file);
	for (size_t i = 0; i < cl_stmt_nfields; i++) {
		const struct cl_stmt_field *fd = &cl_stmt_fields[i];
		bool number;
		const char *v;

		if (!printed(fd))
			continue;
		v = out_text(fd, row, buf, sizeof(buf), &number);
		if (!v)
			cl_json_null(&j, fd->name);
		else if (!number)
			cl_json_str(&j, fd->name, v);
		else if (strcmp(v, "true") == 0 || strcmp(v, "false") == 0)
			cl_json_bool(&j, fd->name, v[0] == 't');
		else
			cl_json_int(&j, fd->name, strtoll(v, NULL, 10));
	}
	cl_json_end(&j);
}

void cl_text_answer(FILE *f, const char *file_text, const struct cl_stmt_row *row)
{
	static const enum cl_stmt_column cols[] = {
		CL_SC_item, CL_SC_natural_key, CL_SC_amount_minor, CL_SC_currency,
		CL_SC_direction, CL_SC_booking_date, CL_SC_status,
	};
	char buf[CL_KEY_MAX], safe[4 * CL_KEY_MAX];

	fprintf(f, "%s:%lu", file_text, row->position);
	for (size_t i = 0; i < sizeof(cols) / sizeof(cols[0]); i++) {
		bool number;
		const char *v = out_text(&cl_stmt_fields[cols[i]], row, buf, sizeof(buf), &number);

		fprintf(f, " %s", v ? cl_text_safe(v, safe, sizeof(safe)) : "-");
	}
	putc('\n', f);
}

void cl_csv_answer_header(FILE *f)
{
	const char *row[1 + CL_SC_COUNT];
	size_t n = 0;

	row[n++] = "file";
	for (size_t i = 0; i < cl_stmt_nfields; i++)
		if (printed(&cl_stmt_fields[i]))
			row[n++] = cl_stmt_fields[i].name;
	cl_csv_row(f, row, n);
}

void cl_csv_answer(FILE *f, const char *file, const struct cl_stmt_row *row)
{
	const char *out[1 + CL_SC_COUNT];
	static char bufs[CL_SC_COUNT][CL_KEY_MAX]; /* not on the stack */
	size_t n = 0;

	out[n++] = file;
	for (size_t i = 0; i < cl_stmt_nfields; i++) {
		bool number;

		if (printed(&cl_stmt_fields[i]))
			out[n++] = out_text(&cl_stmt_fields[i], row, bufs[i], sizeof(bufs[i]), &number);
	}
	cl_csv_row(f, out, n);
}
