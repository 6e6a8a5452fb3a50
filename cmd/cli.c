/* cli.c - messages, JSON and CSV writers, masking: what all commands share. */
#define _GNU_SOURCE /* fputs_unlocked, fwrite_unlocked: the JSON writer is hot */
#include "cli.h"

#include <csv.h>
#include <errno.h>
#include <stdarg.h>
#include <string.h>

#include "fingerprint.h"
#include "row.h"

bool cl_opt_quiet;
int cl_opt_verbose;
bool cl_opt_no_mask;

/* Length of the valid UTF-8 sequence at p (1-4), or 0 when the bytes there
 * are not valid UTF-8 (overlong forms, surrogates and > U+10FFFF included). */
static size_t utf8_len(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xC2 && p[0] <= 0xDF)
		return (p[1] & 0xC0) == 0x80 ? 2 : 0;
	if (p[0] >= 0xE0 && p[0] <= 0xEF) {
		if ((p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80)
			return 0;
		if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] > 0x9F))
			return 0;
		return 3;
	}
	if (p[0] >= 0xF0 && p[0] <= 0xF4) {
		if ((p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80)
			return 0;
		if ((p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] > 0x8F))
			return 0;
		return 4;
	}
	return 0;
}

/* Diagnostics quote bytes from hostile files: write `s` with control
 * characters and invalid UTF-8 as \xNN, so no file can drive the
 * operator's terminal or forge lines in a log. */
static void put_safe(const char *s, FILE *f)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_len(p);

		if (n == 0 || *p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\x%02X", *p);
			p++;
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

void cl_msg(const char *fmt, ...)
{
	va_list ap;

	fputs("clearing-load: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cl_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "clearing-load%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'clearing-load%s%s --help' for more information.\n", cmd ? " " : "",
		cmd ? cmd : "");
	return CL_EXIT_USAGE;
}

bool cl_parse_out_format(const char *s, enum cl_out_format *out)
{
	if (strcmp(s, "text") == 0)
		*out = CL_OUT_TEXT;
	else if (strcmp(s, "json") == 0)
		*out = CL_OUT_JSON;
	else if (strcmp(s, "csv") == 0)
		*out = CL_OUT_CSV;
	else
		return false;
	return true;
}

void cl_mask_account(const char *acct, char *out, size_t cap)
{
	size_t n = strlen(acct);

	if (cap == 0)
		return;
	if (n >= cap)
		n = cap - 1;
	memcpy(out, acct, n);
	out[n] = '\0';
	if (!cl_opt_no_mask)
		for (size_t i = 0; i + 4 < n; i++)
			out[i] = '*';
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

static void json_string(struct cl_json *j, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)s;

	json_put(j, "\"", 1);
	for (;;) {
		const unsigned char *run = p;
		char esc[8];
		size_t n;

		while (json_class[*p] == 0)
			p++;
		if (json_class[*p] == 2 && (n = utf8_len(p)) > 0) {
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
			if (*p >= 0x80) { /* not UTF-8: U+FFFD keeps the JSON valid */
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
	if (j->fields++)
		j->buf[j->len++] = ',';
	j->buf[j->len++] = '"';
	memcpy(j->buf + j->len, key, n);
	j->len += n;
	j->buf[j->len++] = '"';
	j->buf[j->len++] = ':';
}

static void json_key(struct cl_json *j, const char *key)
{
	json_key_n(j, key, strlen(key));
}

void cl_json_begin(struct cl_json *j, FILE *f)
{
	j->f = f;
	j->fields = 0;
	j->len = 0;
	j->buf[j->len++] = '{';
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
	fwrite_unlocked(j->buf, 1, j->len, j->f);
	j->len = 0;
}

/* ---- the record model as named values ---------------------------------- */

/* Which records a field belongs to: printed for every record, or only for
 * records of one scheme (so an ACH record has no ISO keys and back). */
enum field_scope { ALL, ACH, ISO };

struct field {
	const char *name;
	size_t name_len;
	enum field_scope scope;
	bool account; /* masked unless --no-mask */
	size_t offset; /* of a char array in struct cl_record */
};

#define F(name, scope) { #name, sizeof(#name) - 1, scope, false, offsetof(struct cl_record, name) }
#define A(name, scope) { #name, sizeof(#name) - 1, scope, true, offsetof(struct cl_record, name) }

static const struct field text_fields[] = {
	F(currency, ALL),
	F(value_date, ALL),
	F(trace_number, ACH),
	F(sec_code, ACH),
	F(transaction_code, ACH),
	F(receiving_dfi, ACH),
	A(receiving_account, ACH),
	F(individual_id, ACH),
	F(individual_name, ACH),
	F(company_id, ACH),
	F(company_name, ACH),
	F(company_entry_description, ACH),
	F(batch_number, ACH),
	F(addenda_text, ACH),
	F(reason_code, ALL),
	F(original_trace, ACH),
	F(original_rdfi, ACH),
	A(corrected_data, ACH), /* C01, C03: an account number (review 3, R3-7) */
	F(dishonored_code, ACH),
	F(message_type, ISO),
	F(msg_id, ISO),
	F(pmt_inf_id, ISO),
	F(instr_id, ISO),
	F(end_to_end_id, ISO),
	F(tx_id, ISO),
	F(uetr, ISO),
	F(rtr_id, ISO),
	F(orgnl_uetr, ISO),
	F(orgnl_end_to_end_id, ISO),
	F(orgnl_tx_id, ISO),
	F(orgnl_msg_id, ISO),
	F(initiating_party_id, ISO),
	F(debtor_name, ISO),
	A(debtor_account, ISO),
	F(debtor_agent, ISO),
	F(creditor_name, ISO),
	A(creditor_account, ISO),
	F(creditor_agent, ISO),
	F(instructing_agent, ISO),
	F(instructed_agent, ISO),
	F(remittance_text, ISO),
};

#define NFIELDS (sizeof(text_fields) / sizeof(text_fields[0]))

static bool is_ach(const struct cl_record *rec)
{
	return rec->scheme && strcmp(rec->scheme, "nacha") == 0;
}

static bool in_scope(const struct field *f, bool ach)
{
	return f->scope == ALL || (f->scope == ACH) == ach;
}

static const char *field_value(const struct field *f, const struct cl_record *rec, char *buf,
			       size_t cap)
{
	const char *v = (const char *)rec + f->offset;

	if (f->account && !cl_opt_no_mask && *v) {
		cl_mask_account(v, buf, cap);
		return buf;
	}
	return v;
}

/* The natural key as printed: a pain.001 key contains the debtor account,
 * masked like the account fields unless --no-mask. */
static const char *display_key(const struct cl_record *rec, char *buf, size_t cap)
{
	/* only ISO keys hold an account (pain.001: debtor account + EndToEndId);
	 * NACHA keys never do (clearing-load-keys(7)): no search per ACH record */
	if (is_ach(rec))
		return rec->natural_key;
	if (!cl_opt_no_mask && cl_row_mask_key(rec, rec->natural_key, buf, cap))
		return buf;
	return rec->natural_key;
}

void cl_json_record_fields(struct cl_json *j, const struct cl_record *rec)
{
	char fp[65], buf[CL_ACCOUNT_MAX], key[CL_KEY_MAX];
	bool ach = is_ach(rec);

	cl_hex32(rec->fingerprint, fp);
	cl_json_str(j, "scheme", rec->scheme);
	cl_json_str(j, "kind", rec->kind);
	cl_json_uint(j, "position", rec->position);
	cl_json_str(j, "natural_key", display_key(rec, key, sizeof(key)));
	cl_json_str(j, "key_rule", rec->key_rule);
	cl_json_str(j, "fingerprint", fp);
	cl_json_int(j, "amount_minor", (long long)rec->amount_minor);
	cl_json_str(j, "direction", cl_direction_name(rec->direction));
	for (size_t i = 0; i < NFIELDS; i++) {
		const struct field *f = &text_fields[i];
		const char *v;

		if (!in_scope(f, ach))
			continue;
		json_key_n(j, f->name, f->name_len);
		v = field_value(f, rec, buf, sizeof(buf));
		if (*v)
			json_string(j, v);
		else
			json_put(j, "null", 4);
	}
	if (ach)
		cl_json_uint(j, "addenda_count", rec->addenda_count);
}

/* ---- CSV --------------------------------------------------------------- */

void cl_csv_row(FILE *f, const char *const *fields, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = fields[i] ? fields[i] : "";

		if (i)
			putc_unlocked(',', f);
		csv_fwrite(f, v, strlen(v));
	}
	putc_unlocked('\n', f);
}

#define CSV_FIXED 9

void cl_csv_record_header(FILE *f)
{
	const char *names[CSV_FIXED + NFIELDS + 1] = {
		"file", "position", "scheme", "kind", "natural_key", "key_rule", "fingerprint",
		"amount_minor", "direction",
	};

	for (size_t i = 0; i < NFIELDS; i++)
		names[CSV_FIXED + i] = text_fields[i].name;
	names[CSV_FIXED + NFIELDS] = "addenda_count";
	cl_csv_row(f, names, CSV_FIXED + NFIELDS + 1);
}

void cl_csv_record(FILE *f, const char *file, const struct cl_record *rec)
{
	char pos[24], amount[24], fp[65], addenda[16], key[CL_KEY_MAX];
	char bufs[NFIELDS][CL_ACCOUNT_MAX];
	const char *vals[CSV_FIXED + NFIELDS + 1];
	bool ach = is_ach(rec);

	snprintf(pos, sizeof(pos), "%lu", rec->position);
	snprintf(amount, sizeof(amount), "%lld", (long long)rec->amount_minor);
	snprintf(addenda, sizeof(addenda), "%u", rec->addenda_count);
	cl_hex32(rec->fingerprint, fp);
	vals[0] = file;
	vals[1] = pos;
	vals[2] = rec->scheme;
	vals[3] = rec->kind;
	vals[4] = display_key(rec, key, sizeof(key));
	vals[5] = rec->key_rule;
	vals[6] = fp;
	vals[7] = amount;
	vals[8] = cl_direction_name(rec->direction);
	for (size_t i = 0; i < NFIELDS; i++)
		vals[CSV_FIXED + i] = in_scope(&text_fields[i], ach)
					      ? field_value(&text_fields[i], rec, bufs[i], sizeof(bufs[i]))
					      : NULL;
	vals[CSV_FIXED + NFIELDS] = ach ? addenda : NULL;
	cl_csv_row(f, vals, CSV_FIXED + NFIELDS + 1);
}

static int finish_stdout(int code, bool report_only)
{
	int err = 0;
	bool failed = false;

	errno = 0;
	if (fflush(stdout) != 0) {
		failed = true;
		err = errno;
	} else if (ferror(stdout)) {
		failed = true; /* an earlier write failed; its errno may be gone */
		err = errno;
	}
	if (fclose(stdout) != 0 && !failed) {
		failed = true;
		err = errno;
	}
	if (!failed || err == EPIPE)
		return code; /* EPIPE: the reader went away (| head): not our error */
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
	const unsigned char *p = (const unsigned char *)s;
	size_t o = 0;

	while (*p && o + 5 < cap) {
		size_t n = utf8_len(p);

		if (n == 0 || *p < 0x20 || *p == 0x7f) {
			o += (size_t)snprintf(buf + o, cap - o, "\\x%02X", *p);
			p++;
			continue;
		}
		if (o + n >= cap)
			break;
		memcpy(buf + o, p, n);
		o += n;
		p += n;
	}
	buf[o] = '\0';
	return buf;
}
