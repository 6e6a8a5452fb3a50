/* parser.c - format detection and dispatch to the format parsers. */
#include "parser.h"

#include <stdlib.h>
#include <string.h>

#include "ach.h"
#include "csv_records.h"
#include "iso20022.h"
#include "xmalloc.h"

struct cl_parser {
	enum cl_format format;
	struct cl_ach *ach;
	struct cl_iso20022 *iso;
	struct cl_csv *csv;
};

enum cl_format cl_format_detect(const unsigned char *p, size_t len)
{
	size_t i = 0;

	if (len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
		i = 3;
	/* NACHA records start with their type digit: a file header "1", or a
	 * batch header "5" of a headless fragment (which the ACH parser then
	 * rejects with a message about the missing file header) */
	if (i < len && p[i] >= '1' && p[i] <= '9')
		return CL_FORMAT_ACH;
	while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
		i++;
	if (i < len && p[i] == '<')
		return CL_FORMAT_ISO20022;
	if (cl_csv_detect(p, len))
		return CL_FORMAT_CSV;
	/* UTF-16 with a BOM: XML, which the ISO parser refuses with a clear message */
	if (len >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF)))
		return CL_FORMAT_ISO20022;
	return CL_FORMAT_UNKNOWN;
}

enum cl_status cl_parser_open(struct cl_input *in, const struct cl_parse_opts *opts,
			      struct cl_parser **out, struct cl_error *err)
{
	const unsigned char *head;
	size_t len;
	struct cl_parser *p;
	enum cl_format f;

	*out = NULL;
	if (cl_input_peek(in, &head, &len, err) != CL_OK)
		return CL_IO;
	f = cl_format_detect(head, len);
	if (f == CL_FORMAT_UNKNOWN) {
		if (len == 0)
			cl_error_set(err, cl_input_name(in), 0, "empty_file",
				     "file is empty: expected a NACHA file header (\"101\"), an "
				     "ISO 20022 XML document or a CSV export");
		else
			cl_error_set(err, cl_input_name(in), 1, "unknown_format",
				     "unknown format: expected a NACHA file header (\"101\"), an "
				     "ISO 20022 XML document (\"<\") or a CSV export (a header "
				     "row naming scheme and kind)");
		return CL_INVALID;
	}
	p = cl_xcalloc(1, sizeof(*p));
	p->format = f;
	if (f == CL_FORMAT_ACH)
		p->ach = cl_ach_new(in, opts);
	else if (f == CL_FORMAT_CSV)
		p->csv = cl_csv_new(in, opts);
	else
		p->iso = cl_iso20022_new(in, opts);
	*out = p;
	return CL_OK;
}

enum cl_status cl_parser_next(struct cl_parser *p, const struct cl_record **rec,
			      struct cl_error *err)
{
	if (p->ach)
		return cl_ach_next(p->ach, rec, err);
	if (p->csv)
		return cl_csv_next(p->csv, rec, err);
	return cl_iso20022_next(p->iso, rec, err);
}

const struct cl_file_info *cl_parser_info(const struct cl_parser *p)
{
	if (p->ach)
		return cl_ach_info(p->ach);
	if (p->csv)
		return cl_csv_info(p->csv);
	return cl_iso20022_info(p->iso);
}

void cl_parser_free(struct cl_parser *p)
{
	if (!p)
		return;
	cl_ach_free(p->ach);
	cl_iso20022_free(p->iso);
	cl_csv_free(p->csv);
	free(p);
}
