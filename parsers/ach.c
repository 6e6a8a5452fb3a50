/*
 * ach.c - NACHA parser handle: the line reader, record-type order and the
 * queue of events (errors, notes, records) that its next() hands out, and
 * its entry in the table of formats (format.h).
 *
 * The input is read in 64 KiB chunks into a buffer of twice that; lines
 * are processed in place and only a partial line is moved to the front
 * before the next read, so results do not depend on how the input is
 * chunked.  A line is read in place (a short one through a blank-padded
 * copy), so every field read has its 94 columns.
 */
#include "parsers/ach.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "base/xmalloc.h"
#include "parsers/ach_internal.h"
#include "parsers/format.h"

#define LINE_LIMIT CL_INPUT_BUFSIZE /* longer lines are cut and reported */

static struct ach_event *push(struct cl_ach *p, enum cl_status st)
{
	struct ach_event *ev;

	/* keep a slot for the record: errors beyond the queue are dropped
	 * (a single line never produces that many) */
	if (p->qlen >= ACH_QUEUE - (st == CL_OK ? 0 : 1))
		return NULL;
	ev = &p->q[(p->qhead + p->qlen) % ACH_QUEUE];
	p->qlen++;
	ev->st = st;
	return ev;
}

static void vqueue(struct cl_ach *p, enum cl_status st, unsigned long line, unsigned long col,
		   const char *code, const char *fmt, va_list ap)
{
	struct ach_event *ev = push(p, st);

	if (st == CL_INVALID)
		p->last_err = ev ? &ev->err : NULL;
	if (!ev)
		return;
	cl_error_set(&ev->err, p->name, line, code, "%s", "");
	ev->err.column = col;
	vsnprintf(ev->err.message, sizeof(ev->err.message), fmt, ap);
}

void ach_err(struct cl_ach *p, unsigned long line, unsigned long col, const char *code,
	     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vqueue(p, CL_INVALID, line, col, code, fmt, ap);
	va_end(ap);
}

void ach_note(struct cl_ach *p, unsigned long line, const char *code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vqueue(p, CL_NOTE, line, 0, code, fmt, ap);
	va_end(ap);
}

void ach_err_other_line(struct cl_ach *p, unsigned long other)
{
	if (p->last_err)
		p->last_err->other_line = other;
}

void ach_err_detail(struct cl_ach *p, const char *fmt, ...)
{
	va_list ap;

	if (!p->last_err)
		return;
	va_start(ap, fmt);
	vsnprintf(p->last_err->detail, sizeof(p->last_err->detail), fmt, ap);
	va_end(ap);
}

void ach_emit_record(struct cl_ach *p)
{
	struct cl_record *t = p->out;

	p->out = p->cur;
	p->cur = t;
	(void)push(p, CL_OK);
}

enum cl_detect cl_ach_detect(const unsigned char *p, size_t len)
{
	size_t i = cl_utf8_bom(p, len);

	/* NACHA records start with their type digit: a file header "1", or a
	 * batch header "5" of a headless fragment (which the parser then
	 * rejects with a message about the missing file header) */
	return i < len && p[i] >= '1' && p[i] <= '9' ? CL_DETECT_YES : CL_DETECT_NO;
}

void *cl_ach_open(struct cl_input *in, const struct cl_parse_opts *opts,
		  struct cl_file_info **info)
{
	struct cl_ach *p = cl_xcalloc(1, sizeof(*p));

	p->in = in;
	p->name = cl_input_name(in);
	p->opts = *opts;
	p->afp = cl_ach_fp_new();
	p->cap = 2 * (size_t)CL_INPUT_BUFSIZE;
	p->buf = cl_xmalloc(p->cap);
	p->cur = &p->recs[0];
	p->out = &p->recs[1];
	p->all_adv = true;
	p->eol = '\n';
	snprintf(p->info.message_type, sizeof(p->info.message_type), "nacha");
	*info = &p->info;
	return p;
}

void cl_ach_free(void *h)
{
	struct cl_ach *p = h;

	cl_ach_fp_free(p->afp);
	ach_batch_sums_free(p);
	cl_keyset_free(p->return_keys);
	free(p->buf);
	free(p);
}

/* ---- reader ---- */

/* Read one chunk after moving the unconsumed tail to the front.  Returns
 * false on a read error (queued). */
static bool fill(struct cl_ach *p)
{
	struct cl_error err;
	size_t room;
	long r;

	room = cl_input_compact(p->buf, &p->pos, &p->len, p->cap);
	if (room > CL_INPUT_BUFSIZE)
		room = CL_INPUT_BUFSIZE;
	r = cl_input_read(p->in, p->buf + p->len, room, &err);
	if (r < 0) {
		struct ach_event *ev = push(p, CL_IO);

		if (ev)
			ev->err = err;
		p->io_failed = true;
		p->eof = true;
		return false;
	}
	if (r == 0)
		p->eof = true;
	p->len += (size_t)r;
	return true;
}

/* Decide once, from a fixed window of the first bytes (the same whatever
 * the read sizes), whether the file has line breaks: a file header
 * followed directly (column 95) by another record type, and no line end
 * in the first two records, means fixed-block records. */
#define DETECT_WINDOW (2 * ACH_RECLEN + 2)

static bool detect_mode(struct cl_ach *p)
{
	const unsigned char *b;
	size_t w;

	while (!p->eof && p->len - p->pos < DETECT_WINDOW + 3)
		if (!fill(p))
			return false;
	p->mode_known = true;
	b = p->buf + p->pos;
	if (cl_utf8_bom(b, p->len - p->pos)) {
		p->pos += 3;
		b += 3;
		ach_note(p, 1, "bom", "UTF-8 byte order mark before the file header ignored");
	}
	w = p->len - p->pos < DETECT_WINDOW ? p->len - p->pos : DETECT_WINDOW;
	if (w > ACH_RECLEN && b[0] == '1' && b[ACH_RECLEN] >= '1' && b[ACH_RECLEN] <= '9' &&
	    !memchr(b, '\n', w < 2 * ACH_RECLEN ? w : 2 * ACH_RECLEN) &&
	    !memchr(b, '\r', w < 2 * ACH_RECLEN ? w : 2 * ACH_RECLEN)) {
		p->fixed_block = true;
		ach_note(p, 1, "fixed_block",
			 "file has no line breaks: read as fixed-block records of 94 characters "
			 "(line numbers count records)");
	} else {
		/* old Mac files end lines with CR alone */
		const unsigned char *t = memchr(b, '\r', w);
		const unsigned char *nl = memchr(b, '\n', w);

		if (t && (!nl || t < nl) && (size_t)(t - b) + 1 < w && t[1] != '\n') {
			p->eol = '\r';
			ach_note(p, 1, "cr_line_ends", "lines end with CR alone");
		}
	}
	return true;
}

/* Next line without its line end into *s, *n.  Returns 1, 0 at the end of
 * input, -1 on a read error.  *cut is set when the line was longer than
 * LINE_LIMIT and only its start is given. */
static int next_line(struct cl_ach *p, const char **s, size_t *n, bool *cut)
{
	*cut = false;
	for (;;) {
		size_t avail = p->len - p->pos;
		unsigned char *b = p->buf + p->pos;
		unsigned char *nl;

		if (p->fixed_block) {
			/* separators between blocks (a final newline) carry nothing */
			while (avail > 0 && (*b == '\n' || *b == '\r')) {
				p->pos++;
				b++;
				avail--;
			}
			if (avail < ACH_RECLEN + 1 && !p->eof) {
				if (!fill(p))
					return -1;
				continue;
			}
			if (avail == 0)
				return 0;
			nl = memchr(b, '\n', avail < ACH_RECLEN ? avail : ACH_RECLEN);
			*s = (const char *)b;
			*n = nl ? (size_t)(nl - b) : (avail < ACH_RECLEN ? avail : ACH_RECLEN);
			p->pos += *n;
			return 1;
		}
		if (p->skipping) {
			nl = memchr(b, p->eol, avail);
			if (nl) {
				p->pos += (size_t)(nl - b) + 1;
				p->skipping = false;
				continue;
			}
			p->pos = p->len;
			if (p->eof)
				return 0;
			if (!fill(p))
				return -1;
			continue;
		}
		/* a line end is looked for in the first LINE_LIMIT bytes only, so
		 * a longer line is cut at exactly LINE_LIMIT whatever was read */
		nl = memchr(b, p->eol, avail < LINE_LIMIT ? avail : LINE_LIMIT);
		if (nl) {
			*s = (const char *)b;
			*n = (size_t)(nl - b);
			p->pos += *n + 1;
			return 1;
		}
		if (avail >= LINE_LIMIT) {
			*s = (const char *)b;
			*n = LINE_LIMIT;
			*cut = true;
			p->pos += LINE_LIMIT;
			p->skipping = true;
			return 1;
		}
		if (p->eof) {
			if (avail == 0)
				return 0;
			*s = (const char *)b;
			*n = avail;
			p->pos = p->len;
			return 1;
		}
		if (!fill(p))
			return -1;
	}
}

/* ---- one line ---- */

/* Columns a record type needs to be present: a shorter line is read with
 * blanks only where the missing tail is space-padded alphanumeric. */
static size_t min_length(char type)
{
	switch (type) {
	case '1':
		return 40;  /* 41-94: destination name, origin name, reference code */
	case '9':
		return 55;  /* 56-94: reserved (blank) */
	default:
		return ACH_RECLEN;
	}
}

static const char *type_name(char t)
{
	switch (t) {
	case '1':
		return "file header record";
	case '5':
		return "batch header record";
	case '6':
		return "entry detail record";
	case '7':
		return "addenda record";
	case '8':
		return "batch control record";
	case '9':
		return "file control record";
	default:
		return "record";
	}
}

/* Copy the line into `l`, report length and byte problems. */
static void prepare(struct cl_ach *p, struct ach_line *l, const char *s, size_t n, bool cut)
{
	size_t take = n < ACH_RECLEN ? n : ACH_RECLEN;
	uint64_t bad = 0;
	char shown[64];

	l->no = p->line_no;
	l->len = n;
	if (n >= ACH_RECLEN) {
		l->c = s; /* read in place: the buffer is untouched until the next line */
	} else {
		memcpy(l->pad, s, n);
		memset(l->pad + n, ' ', ACH_RECLEN - n);
		l->c = l->pad;
	}

	/* printable ASCII only, eight bytes at a time (11 words and one that
	 * overlaps columns 87-94): a byte below 0x20 or above 0x7e sets its
	 * high bit in `bad`; the exact column is found below, for bad lines */
	for (size_t i = 0; i <= 88; i += i == 80 ? 6 : 8) {
		uint64_t x;
		const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;

		memcpy(&x, l->c + i, 8);
		bad |= ((x - ones * 0x20) & ~x & high) | (((x + ones * (127 - 0x7e)) | x) & high);
	}
	if (bad) {
		for (size_t i = 0; i < take; i++) {
			unsigned char c = (unsigned char)l->c[i];

			if (c >= 0x20 && c <= 0x7e)
				continue;
			if (c == 0)
				ach_err(p, l->no, i + 1, "bad_byte",
					"unexpected NUL byte at column %zu (expected printable ASCII)",
					i + 1);
			else if (c < 0x20 || c == 0x7f)
				ach_err(p, l->no, i + 1, "bad_byte",
					"unexpected control character 0x%02X at column %zu (expected "
					"printable ASCII)",
					c, i + 1);
			else
				ach_err(p, l->no, i + 1, "bad_byte",
					"unexpected non-ASCII byte 0x%02X at column %zu (expected "
					"printable ASCII; NACHA files are plain ASCII)",
					c, i + 1);
			break;
		}
		/* what is handed out must stay printable text */
		if (l->c != l->pad) {
			memcpy(l->pad, l->c, ACH_RECLEN);
			l->c = l->pad;
		}
		for (size_t i = 0; i < take; i++) {
			unsigned char c = (unsigned char)l->pad[i];

			if (c < 0x20 || c > 0x7e)
				l->pad[i] = '?';
		}
	}

	if (l->c[0] == '9' && l->c[1] == '9')
		return; /* a 9-fill line is all or nothing: process_line() decides */
	if (n > ACH_RECLEN) {
		size_t i = ACH_RECLEN;

		while (i < n && s[i] == ' ')
			i++;
		if (i < n || cut) {
			size_t m = n - ACH_RECLEN;

			ach_err(p, l->no, ACH_RECLEN + 1, "record_length",
				"record must be 94 characters, found %s%zu: text past column 94 "
				"(\"%s%s\")",
				cut ? "more than " : "", n,
				ach_show(shown, sizeof(shown), s + ACH_RECLEN, m > 12 ? 12 : m),
				m > 12 ? "..." : "");
		} else if (!p->noted_trailing_blanks) {
			p->noted_trailing_blanks = true;
			ach_note(p, l->no, "trailing_blanks",
				 "blanks past column 94 ignored (first at line %lu)", l->no);
		}
	} else if (n < ACH_RECLEN) {
		size_t need = min_length(l->c[0]);

		if (n < need)
			ach_err(p, l->no, n + 1, "record_length",
				"%s must be 94 characters, found %zu (columns %zu-%zu are "
				"missing and are not blank padding)",
				type_name(l->c[0]), n, n + 1, need);
		else
			ach_note(p, l->no, "short_line",
				 "%s has %zu characters: columns %zu-94 read as blanks",
				 type_name(l->c[0]), n, n + 1);
	}
}

static bool all_nines(const struct ach_line *l)
{
	for (int i = 0; i < ACH_RECLEN; i++)
		if (l->c[i] != '9')
			return false;
	return true;
}

static void no_header_yet(struct cl_ach *p, const struct ach_line *l)
{
	char shown[16];

	if (p->saw_header || p->header_reported)
		return;
	p->header_reported = true;
	ach_err(p, l->no, 1, "record_order",
		"expected a file header (record type 1) as the first record, found \"%s\"",
		ach_show(shown, sizeof(shown), l->c, 1));
}

static void close_batch_unfinished(struct cl_ach *p, const struct ach_line *l, const char *what)
{
	ach_err(p, l->no, 1, "missing_batch_control",
		"batch %s (header at line %lu) has no batch control (record type 8) before this %s",
		p->b.number, p->b.line, what);
	p->b.open = false;
}

static bool blank(const char *s, size_t n, bool cut)
{
	if (cut)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ')
			return false;
	return true;
}

/* A line after the file control that is neither blank nor 9-fill.  A lone
 * DOS end-of-file byte (0x1A, Ctrl-Z: PC and mainframe transfer software
 * appends it) is ignored with a note, like blank lines.
 * Anything else is one error, whatever follows: a second file
 * concatenated to the first would otherwise give an error per line. */
static void after_file_control(struct cl_ach *p, const char *s, size_t n, bool cut)
{
	char shown[16];

	if (n >= 1 && s[0] == 0x1A && blank(s + 1, n - 1, cut) && !p->noted_eof_marker) {
		p->noted_eof_marker = true;
		ach_note(p, p->line_no, "eof_marker",
			 "DOS end-of-file marker (0x1A) after the file control ignored");
		return;
	}
	if (p->after_control_reported)
		return;
	p->after_control_reported = true;
	if (s[0] == '1')
		ach_err(p, p->line_no, 1, "after_file_control",
			"a second file starts here (a file header after the file control at line "
			"%lu): one NACHA file per input; nothing after the file control is read",
			p->file_control_line);
	else if (s[0] >= '5' && s[0] <= '9')
		ach_err(p, p->line_no, 1, "after_file_control",
			"only 9-fill records may follow the file control (line %lu), found %s %s; "
			"nothing after the file control is read",
			p->file_control_line, s[0] == '6' || s[0] == '7' ? "an" : "a",
			type_name(s[0]));
	else
		ach_err(p, p->line_no, 1, "after_file_control",
			"only 9-fill records may follow the file control (line %lu), found a line "
			"starting with \"%s\"; nothing after the file control is read",
			p->file_control_line, ach_show(shown, sizeof(shown), s, n < 4 ? n : 4));
}

/* Where the records after the file header belong, and who reads them. */
static const struct record_type {
	char type;
	enum {
		OUTSIDE_BATCH, /* ends the entry before it and closes a batch
		                  left open (no batch control) */
		IN_BATCH,      /* ends the entry before it; needs an open batch */
		AFTER_ENTRY,   /* belongs to the entry before it: needs one */
	} place;
	const char *what; /* OUTSIDE_BATCH: its name for the batch left open;
	                     else the error when it is out of place */
	void (*read)(struct cl_ach *p, const struct ach_line *l);
} record_types[] = {
	{'5', OUTSIDE_BATCH, "batch header", ach_batch_header},
	{'6', IN_BATCH,
	 "entry detail (record type 6) outside a batch (expected a batch header first)",
	 ach_entry_detail},
	{'7', AFTER_ENTRY, "addenda (record type 7) without an entry detail record before it",
	 ach_addenda},
	{'8', IN_BATCH, "batch control (record type 8) without a batch header before it",
	 ach_batch_control},
	{'9', OUTSIDE_BATCH, "file control", ach_file_control},
};

static const struct record_type *record_type(char c)
{
	for (size_t i = 0; i < sizeof(record_types) / sizeof(record_types[0]); i++)
		if (record_types[i].type == c)
			return &record_types[i];
	return NULL;
}

static void process_line(struct cl_ach *p, const char *s, size_t n, bool cut)
{
	const struct record_type *rt;
	struct ach_line l;
	char shown[16];

	p->line_no++;
	p->info.lines = p->line_no;
	if (n > 0 && s[n - 1] == '\r' && !p->fixed_block) {
		n--;
		if (!p->noted_crlf) {
			p->noted_crlf = true;
			ach_note(p, p->line_no, "crlf", "CRLF line ends");
		}
	}
	if (blank(s, n, cut)) {
		if (p->saw_file_control) {
			if (!p->noted_blank_lines) {
				p->noted_blank_lines = true;
				ach_note(p, p->line_no, "blank_lines",
					 "blank lines after the file control ignored");
			}
			return;
		}
		p->blank_lines++;
		ach_err(p, p->line_no, 1, "record_length",
			"record must be 94 characters, found a blank line");
		return;
	}
	if (p->saw_file_control)
		p->lines_after_control++;
	if (p->saw_file_control && !(n >= 2 && s[0] == '9' && s[1] == '9')) {
		after_file_control(p, s, n, cut);
		return;
	}
	prepare(p, &l, s, n, cut);

	if (l.c[0] == '9' && l.c[1] == '9') {
		if (l.len >= ACH_RECLEN && all_nines(&l)) {
			if (!p->saw_file_control)
			{
				ach_err(p, l.no, 1, "record_order",
					"9-fill record before the file control (record type 9)");
				return;
			}
			if (++p->fill_lines == 10)
				p->tenth_fill_line = l.no;
			return;
		}
		ach_err(p, l.no, 1, "fill_record",
			"line starts with \"99\" but is not a 9-fill record (94 '9' characters)");
		return;
	}
	if (l.c[0] == '1') {
		if (p->saw_header || l.no != 1) {
			ach_err(p, l.no, 1, "record_order",
				"file header (record type 1) must be the first record and appear "
				"once, found at line %lu",
				l.no);
			return;
		}
		ach_file_header(p, &l);
		return;
	}
	no_header_yet(p, &l);
	rt = record_type(l.c[0]);
	if (!rt) {
		ach_err(p, l.no, 1, "record_type",
			"unknown record type \"%s\" (expected 1, 5, 6, 7, 8 or 9)",
			ach_show(shown, sizeof(shown), l.c, 1));
		return;
	}
	if (rt->place != AFTER_ENTRY)
		ach_entry_finish(p);
	if (rt->place == OUTSIDE_BATCH && p->b.open)
		close_batch_unfinished(p, &l, rt->what);
	if ((rt->place == IN_BATCH && !p->b.open) || (rt->place == AFTER_ENTRY && !p->e.open)) {
		ach_err(p, l.no, 1, "record_order", "%s", rt->what);
		return;
	}
	rt->read(p, &l);
}

static void finish_file(struct cl_ach *p)
{
	unsigned long last = p->line_no;

	p->finished = true;
	if (p->io_failed)
		return;
	if (p->line_no == 0) {
		ach_err(p, 0, 0, "empty_file", "file is empty: expected a NACHA file header");
		return;
	}
	ach_entry_finish(p);
	if (p->b.open) {
		ach_err(p, last, 0, "missing_batch_control",
			"file ends inside batch %s (header at line %lu): no batch control "
			"(record type 8)",
			p->b.number, p->b.line);
		p->b.open = false;
	}
	if (!p->saw_file_control) {
		ach_err(p, last, 0, "truncated",
			"file ends at line %lu without a file control (record type 9): the file "
			"is truncated",
			last);
		return;
	}
	ach_block_count(p);
	if (p->fill_lines >= 10)
		ach_note(p, p->tenth_fill_line, "extra_fill",
			 "%lu 9-fill records after the file control, more than the 9 that can "
			 "complete the last block: the others are read as padding",
			 p->fill_lines);
	else if (p->fill_lines == 0 && p->records_before_fill % 10 != 0)
		ach_note(p, last, "missing_fill",
			 "no 9-fill records: %lu records do not fill whole blocks of 10",
			 p->records_before_fill);
	else if ((p->records_before_fill + p->fill_lines) % 10 != 0)
		ach_note(p, last, "partial_fill",
			 "9-fill does not complete the last block: %lu records and %lu 9-fill "
			 "records are not a multiple of 10",
			 p->records_before_fill, p->fill_lines);
}

enum cl_status cl_ach_next(void *h, const struct cl_record **rec, struct cl_error *err)
{
	struct cl_ach *p = h;

	*rec = NULL;
	for (;;) {
		if (p->qlen > 0) {
			struct ach_event *ev = &p->q[p->qhead];

			p->qhead = (p->qhead + 1) % ACH_QUEUE;
			p->qlen--;
			if (&ev->err == p->last_err)
				p->last_err = NULL;
			if (ev->st == CL_OK)
				*rec = p->out;
			else
				*err = ev->err;
			return ev->st;
		}
		if (p->finished)
			return CL_END;
		if (!p->mode_known && !detect_mode(p))
			continue;
		{
			const char *s;
			size_t n;
			bool cut;
			int r = next_line(p, &s, &n, &cut);

			if (r < 0)
				continue;
			if (r == 0)
				finish_file(p);
			else
				process_line(p, s, n, cut);
		}
	}
}
