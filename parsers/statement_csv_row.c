/* statement_csv_row.c - the bank CSV statement's row of the table of
 * formats (format.h): the reader of statement_csv.c behind parser.c's pull
 * API, a statement family.  Never told from the bytes (a CSV export has no
 * mark of its own): parser.c chooses it when --csv-map names a map. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "parsers/csv_map.h"
#include "parsers/format.h"
#include "parsers/statement_internal.h"

struct bankcsv_row {
	struct cl_stmt_parser *p;
	struct cl_file_info info;
};

enum cl_detect cl_bankcsv_detect(const unsigned char *head, size_t len)
{
	(void)head;
	(void)len;
	return CL_DETECT_NO;
}

void *cl_bankcsv_open(struct cl_input *in, const struct cl_parse_opts *opts,
		      struct cl_file_info **info)
{
	struct bankcsv_row *b = cl_xcalloc(1, sizeof(*b));

	if (!opts->csv_map)
		abort(); /* parser.c opens it with a map only */
	b->p = cl_stmt_open_csv(in, UINT_MAX, opts->csv_map); /* parser.c stops at max_errors */
	snprintf(b->info.message_type, sizeof(b->info.message_type), "%s",
		 cl_stmt_message_type(b->p));
	*info = &b->info;
	return b;
}

enum cl_status cl_bankcsv_next_item(void *h, struct cl_item *item, struct cl_error *err)
{
	struct bankcsv_row *b = h;

	memset(item, 0, sizeof(*item));
	item->family = CL_FAMILY_STATEMENT;
	return cl_stmt_next(b->p, &item->stmt, err);
}

enum cl_status cl_bankcsv_next(void *h, const struct cl_record **rec, struct cl_error *err)
{
	struct cl_item item;
	enum cl_status st;

	do
		st = cl_bankcsv_next_item(h, &item, err);
	while (st == CL_OK);
	*rec = NULL;
	return st;
}

const char *cl_bankcsv_message(void *h)
{
	struct bankcsv_row *b = h;

	return cl_stmt_message_type(b->p);
}

void cl_bankcsv_free(void *h)
{
	struct bankcsv_row *b = h;

	cl_stmt_free(b->p);
	free(b);
}
