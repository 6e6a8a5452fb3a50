/* cli.c - messages, JSON and CSV writers, masking: what all commands share. */
#define _GNU_SOURCE /* fputs_unlocked, fwrite_unlocked: the JSON writer is hot */
#include "cmd/cli.h"

#include <csv.h>
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "base/mask.h"
#include "base/text.h"
#include "rules/fingerprint.h"

bool cl_opt_quiet;
int cl_opt_verbose;
bool cl_opt_no_mask;
enum cl_out_format cl_opt_format;

/* Diagnostics quote bytes from hostile files: write `s` as cl_text_safe()
 * makes it, so no file can drive the operator's terminal or forge lines in
 * a log. */
static void put_safe(const char *s, FILE *f)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n, bad = cl_text_escaped_bytes(p, &n, CL_ESC_TERMINAL);

		if (bad) {
			for (size_t i = 0; i < bad; i++)
				fprintf(f, "\\x%02X", p[i]);
			p += bad;
			continue;
		}
		fwrite(p, 1, n, f);
		p += n;
	}
}

/* "clearing-load: FILE:LINE: LABEL: [PATH: ]TEXT" */
static void print_diag_line(const struct cl_error *err, const char *label, const char *path,
			    const char *text)
{
	fputs("clearing-load: ", stderr);
	put_safe(err->file ? err->file : "(input)", stderr);
	if (err->line)
		fprintf(stderr, ":%lu", err->line);
	fprintf(stderr, ": %s: ", label);
	if (path && path[0]) {
		put_safe(path, stderr);
		fputs(": ", stderr);
	}
	put_safe(text, stderr);
	fputc('\n', stderr);
}

/* The message, then its detail and hint when it has them, each a line of
 * its own under the same FILE:LINE (as GNU tools continue a diagnostic):
 *   clearing-load: in.ach:27: error: batch 1 entry hash mismatch (...)
 *   clearing-load: in.ach:27: detail: batch control 0012345678: ...
 *   clearing-load: in.ach:27: hint: ... */
static void print_diag(const struct cl_error *err, const char *level)
{
	print_diag_line(err, level, err->path, err->message);
	if (err->detail[0])
		print_diag_line(err, "detail", NULL, err->detail);
	if (err->hint[0])
		print_diag_line(err, "hint", NULL, err->hint);
}

void cl_print_error(const struct cl_error *err)
{
	print_diag(err, "error");
}

void cl_print_note(const struct cl_error *err)
{
	print_diag(err, "note");
}

void cl_print_warning(const struct cl_error *err)
{
	print_diag(err, "warning");
}

/* A message that may quote a value from a file or the database (a name, a
 * server's error text): written as cl_text_safe() makes it. */
static void put_message(const char *fmt, va_list ap)
{
	char buf[4096];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	put_safe(buf, stderr);
}

void cl_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("clearing-load: ", stderr);
	va_start(ap, fmt);
	put_message(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cl_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "clearing-load%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	put_message(fmt, ap); /* an argument may hold anything */
	va_end(ap);
	fprintf(stderr, "\nTry 'clearing-load%s%s --help' for more information.\n", cmd ? " " : "",
		cmd ? cmd : "");
	return CL_EXIT_USAGE;
}

/* ---- JSON -------------------------------------------------------------- */

/* Make room for n more bytes (n <= CL_JSON_BUF). */
static inline void json_room(struct cl_json *j, size_t n)
{
	if (j->len + n > sizeof(j->buf)) {
		fwrite_unlocked(j->buf, 1, j->len, j->f);
		j->len = 0;
	}
}

static inline void json_put(struct cl_json *j, const char *p, size_t n)
{
	while (n > 0) {
		size_t k = n < sizeof(j->buf) ? n : sizeof(j->buf);

		json_room(j, k);
		memcpy(j->buf + j->len, p, k);
		j->len += k;
		p += k;
		n -= k;
	}
}

/* Byte classes for JSON strings: 0 copied as is, 1 escaped, 2 the lead
 * byte of a UTF-8 sequence (validated). */
static const unsigned char json_class[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* '"' */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, /* '\\' */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
	2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};

/* True when none of the n bytes at p needs an escape or a UTF-8 check
 * (json_class 0), eight at a time: a byte below 0x20, a '"', a '\\' or
 * one with its high bit sets a high bit in `bad` (a byte after a flagged
 * one may be flagged too: such a string takes the byte-wise way). */
static bool json_plain(const unsigned char *p, size_t n)
{
	const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
	uint64_t bad = 0;
	size_t i = 0;

	if (n < 8) {
		for (; i < n; i++)
			bad |= json_class[p[i]];
		return !bad;
	}
	for (;; i += 8) {
		uint64_t x, q, b;

		if (i + 8 > n)
			i = n - 8; /* the last eight, overlapping */
		memcpy(&x, p + i, 8);
		q = x ^ (ones * '"');
		b = x ^ (ones * '\\');
		bad |= x | ((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((b - ones) & ~b);
		if (i + 8 == n)
			break;
	}
	return !(bad & high);
}

static void json_string(struct cl_json *j, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;
	size_t plain = strlen(s);

	/* most values need no escape: one scan, one copy */
	if (plain + 2 <= sizeof(j->buf) && json_plain(p, plain)) {
		json_room(j, plain + 2);
		j->buf[j->len] = '"';
		memcpy(j->buf + j->len + 1, s, plain);
		j->buf[j->len + 1 + plain] = '"';
		j->len += plain + 2;
		return;
	}
	json_put(j, "\"", 1);
	for (;;) {
		const unsigned char *run = p;
		char esc[8];
		size_t n;

		while (json_class[*p] == 0)
			p++;
		/* C1 controls (C2 80 to C2 9F) escaped like C0: a terminal
		   that shows the JSON is not driven by it */
		if (json_class[*p] == 2 && (n = cl_utf8_len(p)) > 0 && !(p[0] == 0xC2 && p[1] < 0xA0)) {
			p += n;
			json_put(j, (const char *)run, (size_t)(p - run));
			continue;
		}
		json_put(j, (const char *)run, (size_t)(p - run));
		if (*p == '\0')
			break;
		esc[0] = '\\';
		n = 2;
		switch (*p) {
		case '"':
			esc[1] = '"';
			break;
		case '\\':
			esc[1] = '\\';
			break;
		case '\n':
			esc[1] = 'n';
			break;
		case '\r':
			esc[1] = 'r';
			break;
		case '\t':
			esc[1] = 't';
			break;
		default:
			if (p[0] == 0xC2 && p[1] >= 0x80 && p[1] < 0xA0) {
				memcpy(esc + 1, "u00", 3);
				esc[4] = hex[p[1] >> 4];
				esc[5] = hex[p[1] & 15];
				p++;
			} else if (*p >= 0x80) { /* not UTF-8: U+FFFD keeps the JSON valid */
				memcpy(esc + 1, "ufffd", 5);
			} else {
				memcpy(esc + 1, "u00", 3);
				esc[4] = hex[*p >> 4];
				esc[5] = hex[*p & 15];
			}
			n = 6;
			break;
		}
		json_put(j, esc, n);
		p++;
	}
	json_put(j, "\"", 1);
}

static void json_key_n(struct cl_json *j, const char *key, size_t n)
{
	json_room(j, n + 4);
	if (j->fields[j->depth]++)
		j->buf[j->len++] = ',';
	if (!key)
		return; /* an array's element */
	j->buf[j->len++] = '"';
	memcpy(j->buf + j->len, key, n);
	j->len += n;
	j->buf[j->len++] = '"';
	j->buf[j->len++] = ':';
}

static void json_key(struct cl_json *j, const char *key)
{
	json_key_n(j, key, key ? strlen(key) : 0);
}

/* {"type":TYPE,"format_version":N after what j holds */
static void json_open_line(struct cl_json *j, const char *type)
{
	j->depth = 0;
	j->fields[0] = 0;
	json_put(j, "{", 1);
	cl_json_str(j, "type", type);
	cl_json_uint(j, "format_version", CL_JSON_FORMAT_VERSION);
}

void cl_json_begin(struct cl_json *j, FILE *f, const char *type)
{
	j->f = f;
	j->len = 0;
	json_open_line(j, type);
}

static void json_open(struct cl_json *j, const char *key, const char *bracket)
{
	json_key(j, key);
	json_put(j, bracket, 1);
	if (j->depth + 1 < CL_JSON_DEPTH)
		j->depth++;
	j->fields[j->depth] = 0;
}

static void json_close(struct cl_json *j, const char *bracket)
{
	json_put(j, bracket, 1);
	if (j->depth > 0)
		j->depth--;
}

void cl_json_array(struct cl_json *j, const char *key)
{
	json_open(j, key, "[");
}

void cl_json_array_end(struct cl_json *j)
{
	json_close(j, "]");
}

void cl_json_object(struct cl_json *j, const char *key)
{
	json_open(j, key, "{");
}

void cl_json_object_end(struct cl_json *j)
{
	json_close(j, "}");
}

void cl_json_str(struct cl_json *j, const char *key, const char *val)
{
	json_key(j, key);
	if (val && *val)
		json_string(j, val);
	else
		json_put(j, "null", 4);
}

static void json_digits(struct cl_json *j, unsigned long long val, bool neg)
{
	char buf[24];
	char *p = buf + sizeof(buf);

	do {
		*--p = (char)('0' + val % 10);
		val /= 10;
	} while (val);
	if (neg)
		*--p = '-';
	json_put(j, p, (size_t)(buf + sizeof(buf) - p));
}

void cl_json_int(struct cl_json *j, const char *key, long long val)
{
	json_key(j, key);
	if (val < 0)
		json_digits(j, 0ULL - (unsigned long long)val, true);
	else
		json_digits(j, (unsigned long long)val, false);
}

void cl_json_uint(struct cl_json *j, const char *key, unsigned long long val)
{
	json_key(j, key);
	json_digits(j, val, false);
}

void cl_json_real(struct cl_json *j, const char *key, double val)
{
	char buf[64];
	int n = snprintf(buf, sizeof(buf), "%.3f", val);

	json_key(j, key);
	json_put(j, buf, (size_t)n);
}

void cl_json_bool(struct cl_json *j, const char *key, bool val)
{
	json_key(j, key);
	json_put(j, val ? "true" : "false", val ? 4 : 5);
}

void cl_json_null(struct cl_json *j, const char *key)
{
	json_key(j, key);
	json_put(j, "null", 4);
}

void cl_json_end(struct cl_json *j)
{
	json_put(j, "}\n", 2);
	cl_json_flush(j);
}

void cl_json_lines(struct cl_json *j, FILE *f)
{
	j->f = f;
	j->len = 0;
	j->depth = 0;
}

void cl_json_flush(struct cl_json *j)
{
	if (j->len)
		fwrite_unlocked(j->buf, 1, j->len, j->f);
	j->len = 0;
}

/* A count that is 0 when unknown: the number, or null. */
static void json_count(struct cl_json *j, const char *key, unsigned long v)
{
	if (v)
		cl_json_uint(j, key, v);
	else
		cl_json_null(j, key);
}

void cl_json_error(const char *file, const struct cl_error *err)
{
	cl_json_diag("error", file, err);
}

void cl_json_diag(const char *type, const char *file, const struct cl_error *err)
{
	struct cl_json j;

	cl_json_begin(&j, stdout, type);
	cl_json_str(&j, "file", file ? file : err->file);
	json_count(&j, "line", err->line);
	json_count(&j, "column", err->column);
	json_count(&j, "other_line", err->other_line);
	cl_json_str(&j, "path", err->path);
	cl_json_str(&j, "code", err->code);
	cl_json_str(&j, "message", err->message);
	cl_json_str(&j, "detail", err->detail);
	cl_json_str(&j, "hint", err->hint);
	cl_json_str(&j, "sqlstate", err->sqlstate);
	cl_json_end(&j);
}

void cl_json_file(const struct cl_file_out *f)
{
	struct cl_json j;

	cl_json_begin(&j, stdout, "file");
	cl_json_str(&j, "file", f->file);
	cl_json_str(&j, "outcome", f->outcome);
	if (f->valid < 0)
		cl_json_null(&j, "valid");
	else
		cl_json_bool(&j, "valid", f->valid);
	cl_json_str(&j, "format", f->format);
	cl_json_str(&j, "message_type", f->message_type);
	cl_json_str(&j, "sha256", f->sha256);
	if (f->have_counts) {
		cl_json_uint(&j, "bytes", f->bytes);
		cl_json_uint(&j, "records", f->records);
		cl_json_uint(&j, "errors", f->errors);
	} else {
		cl_json_null(&j, "bytes");
		cl_json_null(&j, "records");
		cl_json_null(&j, "errors");
	}
	if (f->load_id)
		cl_json_int(&j, "load_id", f->load_id);
	else
		cl_json_null(&j, "load_id");
	cl_json_str(&j, "load_uuid", f->load_uuid);
	if (f->have_load) {
		cl_json_uint(&j, "new", f->new_count);
		cl_json_uint(&j, "duplicate", f->duplicate_count);
		cl_json_uint(&j, "conflict", f->conflict_count);
		cl_json_real(&j, "seconds", f->seconds);
		cl_json_uint(&j, "retries", f->retries);
	} else {
		cl_json_null(&j, "new");
		cl_json_null(&j, "duplicate");
		cl_json_null(&j, "conflict");
		cl_json_null(&j, "seconds");
		cl_json_null(&j, "retries");
	}
	cl_json_str(&j, "reason", f->reason);
	cl_json_end(&j);
}

void cl_report_error(const char *file, const struct cl_error *err)
{
	cl_print_error(err);
	if (cl_opt_format == CL_OUT_JSON)
		cl_json_error(file, err);
}

/* ---- the record model as named values ---------------------------------- */

const char *cl_out_account(const char *acct, char *buf, size_t cap)
{
	if (cl_opt_no_mask || !*acct)
		return acct;
	cl_mask_account(acct, buf, cap);
	return buf;
}

const char *cl_out_key(const struct cl_record *rec, const char *key, char *buf, size_t cap)
{
	/* NACHA keys never hold an account (clearing-load-keys(7)): no
	   search per ACH record */
	if (cl_opt_no_mask || (rec->scheme && rec->scheme[0] == 'n') ||
	    !cl_mask_record_key(rec, key, buf, cap))
		return key;
	return buf;
}

/* An output field's value as text: accounts masked, the key with its
 * accounts masked; "" for none.  buf: CL_KEY_MAX bytes. */
static const char *out_value(const struct cl_field *f, const struct cl_record *rec, char *buf)
{
	if ((f->type == CL_FT_TEXT || f->type == CL_FT_DATE) && !(f->flags & CL_FF_ACCOUNT) &&
	    f != &cl_fields[CL_F_natural_key])
		return (const char *)rec + f->offset; /* the common case, first */
	if (f == &cl_fields[CL_F_natural_key])
		return cl_out_key(rec, rec->natural_key, buf, CL_KEY_MAX);
	if (f->flags & CL_FF_ACCOUNT)
		return cl_out_account(cl_field_str(f, rec), buf, CL_KEY_MAX);
	return cl_field_text(f, rec, buf);
}

/* The OUT fields, in table order, and which of them a NACHA record and an
 * ISO record carry (parse writes millions of records: no scope test per
 * field). */
static const struct cl_field *out_fields[CL_NFIELDS];
static bool out_in_scope[2][CL_NFIELDS];
static size_t n_out_fields;

size_t cl_record_out_fields(const struct cl_field *const **fields)
{
	if (!n_out_fields) {
		static const struct cl_record nacha = { .scheme = "nacha" }, iso = { .scheme = "iso20022" };

		for (size_t i = 0; i < CL_NFIELDS; i++) {
			const struct cl_field *f = &cl_fields[i];

			if (!(f->flags & CL_FF_OUT))
				continue;
			out_in_scope[0][n_out_fields] = cl_field_in_scope(f, &iso);
			out_in_scope[1][n_out_fields] = cl_field_in_scope(f, &nacha);
			out_fields[n_out_fields++] = f;
		}
	}
	*fields = out_fields;
	return n_out_fields;
}

/* The record object's members for one kind of record (ISO or NACHA,
 * stored_only or not), made once: the text before each member whose value
 * the record gives (its key, after the members that are null whatever the
 * record holds, each written out), so a NACHA record's thirty ISO members
 * are one copy, not thirty keys and thirty nulls. */
struct rec_op {
	const struct cl_field *fd; /* NULL: the text after the last value */
	unsigned lit, lit_len;     /* in rec_prog.text */
};

struct rec_prog {
	bool ready;
	size_t nops;
	struct rec_op op[CL_NFIELDS + 1];
	char text[CL_NFIELDS * (256 + 8)]; /* ,"<name>":null each, at most */
};

static struct rec_prog rec_progs[2][2]; /* [NACHA][stored_only] */

static const struct rec_prog *record_prog(bool nacha, bool stored_only)
{
	struct rec_prog *pr = &rec_progs[nacha][stored_only];
	const struct cl_field *const *fields;
	size_t n, len = 0, start = 0;

	if (pr->ready)
		return pr;
	n = cl_record_out_fields(&fields);
	for (size_t i = 0; i < n; i++) {
		const struct cl_field *fd = fields[i];
		bool null = !out_in_scope[nacha][i] || (stored_only && !(fd->flags & CL_FF_STORED));

		len += (size_t)sprintf(pr->text + len, ",\"%s\":%s", fd->name, null ? "null" : "");
		if (null)
			continue;
		pr->op[pr->nops++] = (struct rec_op){ fd, (unsigned)start, (unsigned)(len - start) };
		start = len;
	}
	pr->op[pr->nops++] = (struct rec_op){ NULL, (unsigned)start, (unsigned)(len - start) };
	pr->ready = true;
	return pr;
}

/* The record object's members, from "type" on, after what j holds. */
static void json_record(struct cl_json *j, const char *file, const struct cl_record *rec,
			bool stored_only)
{
	char buf[CL_KEY_MAX];
	const struct cl_field *const *fields;
	size_t n = cl_record_out_fields(&fields);
	const struct rec_prog *pr = record_prog(rec->scheme && rec->scheme[0] == 'n', stored_only);

	json_open_line(j, "record");
	cl_json_str(j, "file", file);
	/* every member after "file": a comma before each (json_key_n) */
	j->fields[j->depth] += (int)n;
	for (size_t i = 0;; i++) {
		const struct rec_op *op = &pr->op[i];
		const struct cl_field *fd = op->fd;
		const char *p;
		const char *v;

		json_put(j, pr->text + op->lit, op->lit_len);
		if (!fd)
			break;
		p = (const char *)rec + fd->offset;
		switch ((enum cl_field_type)fd->type) {
		case CL_FT_AMOUNT: {
			int64_t a = *(const int64_t *)(const void *)p;

			json_digits(j, a < 0 ? 0ULL - (unsigned long long)a : (unsigned long long)a,
				    a < 0);
			continue;
		}
		case CL_FT_LINE:
			json_digits(j, *(const unsigned long *)(const void *)p, false);
			continue;
		case CL_FT_COUNT:
			json_digits(j, *(const unsigned *)(const void *)p, false);
			continue;
		case CL_FT_HASH:
			json_room(j, 66);
			j->buf[j->len] = '"';
			for (int k = 0; k < 32; k++) {
				j->buf[j->len + 1 + 2 * k] = "0123456789abcdef"[(unsigned char)p[k] >> 4];
				j->buf[j->len + 2 + 2 * k] = "0123456789abcdef"[(unsigned char)p[k] & 15];
			}
			j->buf[j->len + 65] = '"';
			j->len += 66;
			continue;
		default:
			v = out_value(fd, rec, buf);
			if (*v)
				json_string(j, v);
			else
				json_put(j, "null", 4);
		}
	}
}

void cl_json_record(struct cl_json *j, FILE *f, const char *file, const struct cl_record *rec,
		    bool stored_only)
{
	j->f = f;
	j->len = 0;
	json_record(j, file, rec, stored_only);
}

void cl_json_record_line(struct cl_json *j, const char *file, const struct cl_record *rec)
{
	json_record(j, file, rec, false);
	json_put(j, "}\n", 2);
}

/* ---- CSV --------------------------------------------------------------- */

void cl_csv_row(FILE *f, const char *const *fields, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			putc_unlocked(',', f);
		if (fields[i])
			csv_fwrite(f, fields[i], strlen(fields[i]));
	}
	putc_unlocked('\n', f);
}

void cl_csv_record_header(FILE *f)
{
	const char *names[CL_NFIELDS + 1] = { "file" };
	size_t n = 1;

	for (size_t i = 0; i < CL_NFIELDS; i++)
		if (cl_fields[i].flags & CL_FF_OUT)
			names[n++] = cl_fields[i].name;
	cl_csv_row(f, names, n);
}

void cl_csv_record(FILE *f, const char *file, const struct cl_record *rec)
{
	char bufs[CL_NFIELDS][CL_KEY_MAX];
	const char *vals[CL_NFIELDS + 1] = { file };
	size_t n = 1;

	for (size_t i = 0; i < CL_NFIELDS; i++) {
		const struct cl_field *fd = &cl_fields[i];

		if (!(fd->flags & CL_FF_OUT))
			continue;
		if (!cl_field_in_scope(fd, rec))
			vals[n++] = NULL;
		else if (!*(vals[n] = out_value(fd, rec, bufs[i])) && !(fd->flags & CL_FF_NOTNULL))
			vals[n++] = NULL; /* none: NULL, as the database stores it */
		else
			n++;
	}
	cl_csv_row(f, vals, n);
}

/* Did the reader of stdout go away (a pipe or socket with nobody to read:
 * `| head`)?  Asked after a write failed, when errno no longer tells: an
 * earlier write of the buffer may have failed with EPIPE and a later call
 * set errno otherwise.  poll() says POLLERR for a pipe whose read end is
 * closed, whenever it is asked. */
static bool reader_gone(int err)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };

	if (err == EPIPE)
		return true;
	return poll(&p, 1, 0) == 1 && (p.revents & POLLERR) && !(p.revents & POLLNVAL);
}

static int finish_stdout(int code, bool report_only)
{
	int err = 0;
	bool failed = false, gone;

	errno = 0;
	if (fflush(stdout) != 0) {
		failed = true;
		err = errno;
	} else if (ferror(stdout)) {
		failed = true; /* an earlier write failed; its errno may be gone */
		err = errno;
	}
	gone = failed && reader_gone(err); /* asked while stdout is open */
	if (fclose(stdout) != 0 && !failed) {
		failed = true;
		err = errno;
		gone = err == EPIPE;
	}
	/* the reader went away (| head): not an error, whatever the timing:
	   the exit status is the command's, nothing is said */
	if (!failed || gone)
		return code;
	fprintf(stderr, "clearing-load: could not write standard output%s%s%s\n",
		err ? ": " : "", err ? strerror(err) : "",
		report_only ? " (the database outcome stands: see 'clearing-load loads')" : "");
	if (report_only)
		return code;
	return code ? code : CL_EXIT_USAGE;
}

int cl_finish_stdout(int code)
{
	return finish_stdout(code, false);
}

int cl_finish_stdout_report(int code)
{
	return finish_stdout(code, true);
}

const char *cl_text_safe(const char *s, char *buf, size_t cap)
{
	(void)cl_text_escape(s, buf, cap, CL_ESC_TERMINAL);
	return buf;
}

const char *cl_text_time(const char *iso, char *buf, size_t cap)
{
	size_t n = strlen(iso);

	/* YYYY-MM-DDTHH:MM:SS+HH:MM */
	if (n == 25 && iso[10] == 'T' && (iso[19] == '+' || iso[19] == '-') && iso[22] == ':' &&
	    cap > 25) {
		memcpy(buf, iso, 26);
		buf[10] = ' ';
		if (strcmp(iso + 22, ":00") == 0)
			buf[22] = '\0';
		return buf;
	}
	return cl_text_safe(iso, buf, cap);
}
