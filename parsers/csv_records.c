/*
 * csv_records.c - the CSV reader: bytes into libcsv (strict), line numbers,
 * one event per row; the format's entry in the table of formats (format.h).
 *
 * libcsv does not count lines, so bytes are fed in segments that end at
 * each CR or LF: a row's end (libcsv's row callback) then only ever comes
 * at the last byte of a segment, and the line of every byte is known.  A
 * line ends at LF, CR LF or a lone CR; a quoted field may span lines.
 */
#include "parsers/csv_records.h"

#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "base/xmalloc.h"
#include "parsers/csv_internal.h"
#include "parsers/format.h"

/* libcsv grows its field buffer without bound; this caps it (libcsv then
 * stops with CSV_ENOMEM, reported as a field too long). */
static void *bounded_realloc(void *ptr, size_t n)
{
	if (n > CL_CSV_FIELD_MAX)
		return NULL;
	return realloc(ptr, n);
}

/* libcsv keeps every space: the blanks the record's own parser drops are
 * dropped per column later (csv_columns.c), as that parser drops them. */
static int no_space(unsigned char c)
{
	(void)c;
	return 0;
}

static bool is_eol(unsigned char c)
{
	return c == '\r' || c == '\n';
}

/* The first line (after an optional UTF-8 byte order mark) is a header
 * naming the columns scheme and kind. */
enum cl_detect cl_csv_detect(const unsigned char *d, size_t len)
{
	size_t i = cl_utf8_bom(d, len), end;
	bool scheme = false, kind = false;

	end = i;
	while (end < len && !is_eol(d[end]))
		end++;
	while (i < end) {
		size_t a = i, b;

		while (i < end && d[i] != ',')
			i++;
		b = i++;
		if (b - a >= 2 && d[a] == '"' && d[b - 1] == '"') {
			a++;
			b--;
		}
		scheme |= cl_field_by_name((const char *)d + a, b - a) == &cl_fields[CL_F_scheme];
		kind |= cl_field_by_name((const char *)d + a, b - a) == &cl_fields[CL_F_kind];
	}
	return scheme && kind ? CL_DETECT_YES : CL_DETECT_NO;
}

void *cl_csv_open(struct cl_input *in, const struct cl_parse_opts *opts,
		  struct cl_file_info **info)
{
	struct cl_csv *p = cl_xcalloc(1, sizeof(*p));
	const unsigned char *head;
	size_t len;
	struct cl_error err;

	p->in = in;
	p->name = cl_input_name(in);
	p->opts = *opts;
	p->line = 1;
	p->fp = cl_fp_new();
	p->afp = cl_ach_fp_new();
	if (csv_init(&p->csv, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		(void)cl_xmalloc(SIZE_MAX); /* exits: libcsv fails only without memory */
	p->csv_ready = true;
	csv_set_realloc_func(&p->csv, bounded_realloc);
	csv_set_space_func(&p->csv, no_space);
	/* a failed peek fails the first read again: nothing to do here */
	if (cl_input_peek(in, &head, &len, &err) == CL_OK)
		p->bom_skip = cl_utf8_bom(head, len);
	snprintf(p->info.message_type, sizeof(p->info.message_type), "csv");
	*info = &p->info;
	return p;
}

void cl_csv_free(void *h)
{
	struct cl_csv *p = h;

	if (p->csv_ready)
		csv_free(&p->csv);
	cl_fp_free(p->fp);
	cl_ach_fp_free(p->afp);
	free(p);
}

static void queue(struct cl_csv *p, enum cl_status st, const struct cl_error *err)
{
	p->pending = true;
	p->pending_st = st;
	if (err)
		p->pending_err = *err;
}

/* libcsv: one field of the current row. */
static void on_field(void *s, size_t len, void *data)
{
	struct cl_csv *p = data;
	struct csv_row *r = &p->row;
	unsigned long max = p->have_header ? p->ncols : CL_CSV_MAX_COLUMNS;

	if (r->nfields < max) {
		if (r->used + len + 1 > sizeof(r->buf)) {
			r->overflow = true;
		} else {
			r->off[r->nfields] = r->used;
			r->len[r->nfields] = len;
			if (len)
				memcpy(r->buf + r->used, s, len);
			r->buf[r->used + len] = '\0';
			r->used += len + 1;
		}
	}
	r->nfields++;
}

/* libcsv: the end of a row.  The header sets the columns up; a data row
 * becomes one event, a record or an error. */
static void on_row(int c, void *data)
{
	struct cl_csv *p = data;
	struct csv_row *r = &p->row;
	struct cl_error err;

	(void)c;
	p->row_open = false;
	if (p->stopped) {
		/* after a fatal header error nothing more is reported */
	} else if (!p->have_header) {
		if (csv_header(p, &err) != CL_OK) {
			queue(p, CL_INVALID, &err);
			p->stopped = true; /* rows cannot be read without their columns */
		}
		p->have_header = true;
	} else if (csv_row_record(p, &err) == CL_OK) {
		queue(p, CL_OK, NULL);
	} else {
		queue(p, CL_INVALID, &err);
	}
	r->nfields = 0;
	r->used = 0;
	r->overflow = false;
}

/* A libcsv failure: bad quoting (strict mode) or a field past the cap;
 * `at_end`: csv_fini found a quoted field still open. */
static void parse_failed(struct cl_csv *p, bool at_end)
{
	struct cl_error err;
	unsigned long line = at_end ? p->row.line : p->line;

	if (at_end)
		cl_error_set(&err, p->name, line, "csv_quote",
			     "malformed CSV: a quoted field in the row that starts on line %lu "
			     "never ends (the file ends inside the quotes)",
			     line);
	else if (csv_error(&p->csv) == CSV_EPARSE && p->row.line != line)
		cl_error_set(&err, p->name, line, "csv_quote",
			     "malformed CSV on line %lu (in the row that starts on line %lu): a "
			     "quote inside an unquoted field or a character after a closing "
			     "quote (expected RFC 4180 quoting, \"\" for a quote inside quotes)",
			     line, p->row.line);
	else if (csv_error(&p->csv) == CSV_EPARSE)
		cl_error_set(&err, p->name, line, "csv_quote",
			     "malformed CSV on line %lu: a quote inside an unquoted field or a "
			     "character after a closing quote (expected RFC 4180 quoting, \"\" "
			     "for a quote inside quotes)",
			     line);
	else if (p->row.line != line)
		/* named where its row starts: a quote opened there and never
		 * closed is the likely cause, not the line the cap was hit on */
		cl_error_set(&err, p->name, p->row.line, "csv_field_too_long",
			     "a field of the row that starts on line %lu is longer than %d bytes "
			     "when line %lu is read (a quote that never closes?): no record "
			     "field is (the longest, a name, holds %d)",
			     p->row.line, CL_CSV_FIELD_MAX - 1, line, CL_NAME_MAX - 1);
	else
		cl_error_set(&err, p->name, line, "csv_field_too_long",
			     "a field on line %lu is longer than %d bytes: no record field is "
			     "(the longest, a name, holds %d)",
			     line, CL_CSV_FIELD_MAX - 1, CL_NAME_MAX - 1);
	queue(p, CL_INVALID, &err);
	p->stopped = true;
}

/* Feed the next segment of buf: up to and including the next CR or LF. */
static void feed(struct cl_csv *p)
{
	const unsigned char *s = p->buf + p->pos;
	size_t n = p->len - p->pos, seg = 0, done;
	unsigned char last;

	while (seg < n && !is_eol(s[seg]))
		seg++;
	if (seg < n)
		seg++; /* the CR or LF ends the segment */
	if (!p->row_open && !is_eol(s[0])) {
		p->row_open = true;
		p->row.line = p->line;
	}
	done = csv_parse(&p->csv, s, seg, on_field, on_row, p);
	p->pos += seg;
	if (done < seg) {
		parse_failed(p, false);
		return;
	}
	last = s[seg - 1];
	/* an LF right after a CR (the segment is the LF alone) ends no
	 * second line; an LF after other bytes does (fuzz: a CR inside a
	 * quoted field, then the row's LF, was counted as CRLF) */
	if (last == '\r' || (last == '\n' && !(seg == 1 && p->prev_cr)))
		p->line++;
	p->prev_cr = last == '\r';
	p->info.lines = p->line - (p->prev_cr || last == '\n' ? 1 : 0);
}

/* The end of the input: the last row (if it had no line end) and a
 * quoted field left open. */
static void finish(struct cl_csv *p)
{
	struct cl_error err;

	p->finished = true;
	if (p->stopped)
		return;
	if (csv_fini(&p->csv, on_field, on_row, p) != 0) {
		parse_failed(p, true);
		return;
	}
	if (!p->have_header && !p->pending) {
		cl_error_set(&err, p->name, p->line, "csv_header",
			     "no header row: expected a first line naming the columns");
		queue(p, CL_INVALID, &err);
	}
}

static void read_more(struct cl_csv *p)
{
	struct cl_error err;
	long r = cl_input_read(p->in, p->buf, sizeof(p->buf), &err);

	if (r < 0) {
		queue(p, CL_IO, &err);
		p->stopped = true;
		p->finished = true;
		return;
	}
	if (r == 0) {
		p->eof = true;
		return;
	}
	p->pos = 0;
	p->len = (size_t)r;
	while (p->bom_skip && p->pos < p->len) {
		p->pos++;
		p->bom_skip--;
	}
}

enum cl_status cl_csv_next(void *h, const struct cl_record **rec, struct cl_error *err)
{
	struct cl_csv *p = h;

	*rec = NULL;
	while (!p->pending) {
		if (p->stopped || p->finished)
			return CL_END;
		if (p->pos < p->len)
			feed(p);
		else if (p->eof)
			finish(p);
		else
			read_more(p);
	}
	p->pending = false;
	if (p->pending_st == CL_OK)
		*rec = &p->rec;
	else
		*err = p->pending_err;
	return p->pending_st;
}
