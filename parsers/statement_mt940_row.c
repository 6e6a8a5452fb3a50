/* statement_mt940_row.c - MT940/MT942's row of the table of formats
 * (format.h): the statement reader (statement_mt940.c) behind parser.c's
 * pull API, a statement family. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "parsers/format.h"
#include "parsers/statement_internal.h"

struct mt940_row {
	struct cl_stmt_parser *p;
	struct cl_file_info info;
};

enum cl_detect cl_mt940_detect(const unsigned char *head, size_t len)
{
	return cl_stmt_mt940_detect(head, len) ? CL_DETECT_YES : CL_DETECT_NO;
}

void *cl_mt940_open(struct cl_input *in, const struct cl_parse_opts *opts,
		    struct cl_file_info **info)
{
	struct mt940_row *b = cl_xcalloc(1, sizeof(*b));

	(void)opts;
	b->p = cl_stmt_open(in, UINT_MAX); /* parser.c stops at max_errors */
	snprintf(b->info.message_type, sizeof(b->info.message_type), "mt940");
	*info = &b->info;
	return b;
}

enum cl_status cl_mt940_next_item(void *h, struct cl_item *item, struct cl_error *err)
{
	struct mt940_row *b = h;
	enum cl_status st;

	memset(item, 0, sizeof(*item));
	item->family = CL_FAMILY_STATEMENT;
	st = cl_stmt_next(b->p, &item->stmt, err);
	if (cl_stmt_message_type(b->p)[0])
		snprintf(b->info.message_type, sizeof(b->info.message_type), "%s",
			 cl_stmt_message_type(b->p));
	return st;
}

enum cl_status cl_mt940_next(void *h, const struct cl_record **rec, struct cl_error *err)
{
	struct cl_item item;
	enum cl_status st;

	do
		st = cl_mt940_next_item(h, &item, err);
	while (st == CL_OK);
	*rec = NULL;
	return st;
}

const char *cl_mt940_message(void *h)
{
	struct mt940_row *b = h;
	const char *t = cl_stmt_message_type(b->p);

	return t[0] ? t : "mt940";
}

void cl_mt940_free(void *h)
{
	struct mt940_row *b = h;

	cl_stmt_free(b->p);
	free(b);
}
