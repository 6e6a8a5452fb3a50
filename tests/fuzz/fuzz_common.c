/* fuzz_common.c - the shared driver and invariant checks of the harnesses. */
#include "fuzz_common.h"

#include <libxml/parser.h>
#include <openssl/evp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/ach.h"
#include "parsers/csv_records.h"
#include "parsers/iso20022.h"

#define FUZZ_NAME "fuzz-input"

void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "\n%s:%d: invariant broken: %s\n  ", file, line, cond);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

int fuzz_skip(const char *check)
{
	const char *list = getenv("FUZZ_SKIP");
	size_t n = strlen(check);

	for (const char *p = list; p && (p = strstr(p, check)) != NULL; p += n)
		if ((p == list || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
			return 1;
	return 0;
}

void fuzz_init_libxml(void)
{
	xmlInitParser();
}

void fuzz_pick_opts(const uint8_t *data, size_t size, struct cl_parse_opts *opts)
{
	static const unsigned max_errors[4] = { 0, 1, 3, 100 };
	uint8_t b = size ? data[size - 1] : 0;

	memset(opts, 0, sizeof(*opts));
	opts->ach_key = (b & 1) ? CL_ACH_KEY_BATCH : CL_ACH_KEY_STRICT;
	opts->positional_keys = (b & 2) != 0;
	opts->max_errors = max_errors[(b >> 2) & 3];
	/* FUZZ_SCHEMA=FILE.xsd: validate --schema while parsing */
	opts->schema_path = getenv("FUZZ_SCHEMA");
}

size_t fuzz_chunk_from_byte(uint8_t b)
{
	if (b < 192)
		return 1 + b % 64;
	return (size_t)1 << (b % 17); /* 1 .. 64 KiB */
}

/* Line ends and decoded bytes, reading `cap` bytes at a time; -1 when the
 * input failed (the bytes of the failing read are lost). */
static int count_lines(const uint8_t *data, size_t size, size_t cap, unsigned long *ends,
		       unsigned long *bytes, int *partial)
{
	static unsigned char buf[CL_INPUT_BUFSIZE];
	struct cl_input *in = cl_input_from_memory(data, size, 0, FUZZ_NAME);
	struct cl_error err;
	long r;

	*ends = *bytes = 0;
	*partial = 0;
	while ((r = cl_input_read(in, buf, cap, &err)) > 0) {
		for (long i = 0; i < r; i++)
			if (buf[i] == '\n' || buf[i] == '\r')
				(*ends)++;
		*bytes += (unsigned long)r;
		*partial = buf[r - 1] != '\n' && buf[r - 1] != '\r';
	}
	cl_input_free(in);
	return r < 0 ? -1 : 0;
}

unsigned long fuzz_line_bound(const uint8_t *data, size_t size)
{
	unsigned long ends, bytes, lines, records;
	int partial;

	if (count_lines(data, size, CL_INPUT_BUFSIZE, &ends, &bytes,
			&partial) < 0) {
		/* a failing read drops what it inflated: count again in small
		 * reads, and allow for the at most 64 bytes lost */
		(void)count_lines(data, size, 64, &ends, &bytes, &partial);
		ends += 64;
		bytes += 64;
	}
	/* the lines read, plus one for an error "at the end of the file";
	 * a NACHA file without line breaks counts 94-byte records as lines
	 * (and a line end in such a file ends a short record) */
	lines = ends + (unsigned long)partial;
	records = bytes / 94 + 1;
	return lines + records + 1;
}

/* ---- invariants on what a parser hands out ---- */

static int nul_within(const char *s, size_t cap)
{
	return memchr(s, '\0', cap) != NULL;
}

static int valid_utf8(const unsigned char *s)
{
	while (*s) {
		int n;
		unsigned c = *s;

		if (c < 0x80)
			n = 0;
		else if (c >= 0xC2 && c <= 0xDF)
			n = 1;
		else if (c >= 0xE0 && c <= 0xEF)
			n = 2;
		else if (c >= 0xF0 && c <= 0xF4)
			n = 3;
		else
			return 0;
		s++;
		for (int i = 0; i < n; i++, s++)
			if ((*s & 0xC0) != 0x80)
				return 0;
	}
	return 1;
}

static int one_of(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(s, *set) == 0)
			return 1;
	return 0;
}

static int is_date(const char *s)
{
	static const char shape[] = "DDDD-DD-DD";

	if (!*s)
		return 1;
	if (strlen(s) != 10)
		return 0;
	for (int i = 0; i < 10; i++)
		if (shape[i] == 'D' ? (s[i] < '0' || s[i] > '9') : s[i] != '-')
			return 0;
	return 1;
}

static int is_currency(const char *s)
{
	if (!*s)
		return 1;
	return strlen(s) == 3 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z' &&
	       s[2] >= 'A' && s[2] <= 'Z';
}

static int is_uetr(const char *s)
{
	if (!*s)
		return 1;
	if (strlen(s) != 36)
		return 0;
	for (int i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return 0;
		} else if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) {
			return 0;
		}
	}
	return 1;
}

static int no_controls(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

/* Every text member: NUL inside its capacity, valid UTF-8; NACHA text is
 * also free of control characters (a record line has none). */
#define CHECK_TEXT(rec, field)                                                                 \
	do {                                                                                   \
		FUZZ_CHECK(nul_within((rec)->field, sizeof((rec)->field)),                     \
			   "record %lu: " #field " not NUL-terminated", (rec)->ordinal);         \
		FUZZ_CHECK(valid_utf8((const unsigned char *)(rec)->field),                     \
			   "record %lu: " #field " is not UTF-8: \"%s\"", (rec)->ordinal,       \
			   (rec)->field);                                                       \
		FUZZ_CHECK(!nacha || no_controls((rec)->field),                                 \
			   "record %lu: " #field " has a control byte: \"%s\"", (rec)->ordinal, \
			   (rec)->field);                                                       \
	} while (0)

static void check_record(const struct cl_record *rec, unsigned long ordinal,
			 unsigned long *last_ordinal, unsigned long line_bound)
{
	static const char *const schemes[] = { "nacha", "iso20022", NULL };
	static const char *const kinds[] = { "ach.entry", "ach.return", "ach.noc", "pain.001",
					     "pacs.008",  "pacs.009",   "pacs.004", "pain.008",
					     "pacs.003",  "camt.056",   "camt.029", NULL };
	static const char *const rules[] = { CL_KEY_RULE_V1, CL_KEY_RULE_V1_ACH_BATCH,
					     CL_KEY_RULE_V1_POSITIONAL, NULL };
	int nacha;

	FUZZ_CHECK(rec != NULL, "CL_OK without a record");
	FUZZ_CHECK(rec->scheme && one_of(rec->scheme, schemes), "record %lu: scheme %s", ordinal,
		   rec->scheme ? rec->scheme : "(null)");
	FUZZ_CHECK(rec->kind && one_of(rec->kind, kinds), "record %lu: kind %s", ordinal,
		   rec->kind ? rec->kind : "(null)");
	FUZZ_CHECK(rec->key_rule && one_of(rec->key_rule, rules), "record %lu: key_rule %s",
		   ordinal, rec->key_rule ? rec->key_rule : "(null)");
	nacha = strcmp(rec->scheme, "nacha") == 0;
	FUZZ_CHECK(nacha == (strncmp(rec->kind, "ach.", 4) == 0), "record %lu: scheme %s, kind %s",
		   ordinal, rec->scheme, rec->kind);
	/* the index of the record in the file: a transaction handed out only
	 * as errors (no key) may take an index, so ordinals may skip, but
	 * they only grow and are never below the records returned */
	FUZZ_CHECK(fuzz_skip("ordinal") || (rec->ordinal >= ordinal && rec->ordinal > *last_ordinal),
		   "record ordinal %lu after %lu, %lu records returned", rec->ordinal,
		   *last_ordinal, ordinal);
	*last_ordinal = rec->ordinal;
	FUZZ_CHECK(fuzz_skip("position") || (rec->position >= 1 && rec->position <= line_bound),
		   "record %lu: position %lu outside 1..%lu", ordinal, rec->position, line_bound);
	FUZZ_CHECK(rec->amount_minor >= 0, "record %lu: amount_minor %lld", ordinal,
		   (long long)rec->amount_minor);
	FUZZ_CHECK(rec->direction == CL_DIR_NONE || rec->direction == CL_DIR_CREDIT ||
			   rec->direction == CL_DIR_DEBIT,
		   "record %lu: direction %d", ordinal, (int)rec->direction);

	CHECK_TEXT(rec, natural_key);
	FUZZ_CHECK(rec->natural_key[0] != '\0', "record %lu (%s, line %lu): empty natural_key",
		   ordinal, rec->kind, rec->position);
	CHECK_TEXT(rec, currency);
	FUZZ_CHECK(is_currency(rec->currency), "record %lu: currency \"%s\"", ordinal,
		   rec->currency);
	FUZZ_CHECK(!nacha || strcmp(rec->currency, "USD") == 0, "record %lu: NACHA currency \"%s\"",
		   ordinal, rec->currency);
	CHECK_TEXT(rec, value_date);
	FUZZ_CHECK(is_date(rec->value_date), "record %lu: value_date \"%s\"", ordinal,
		   rec->value_date);
	CHECK_TEXT(rec, trace_number);
	CHECK_TEXT(rec, sec_code);
	CHECK_TEXT(rec, transaction_code);
	CHECK_TEXT(rec, receiving_dfi);
	CHECK_TEXT(rec, receiving_account);
	CHECK_TEXT(rec, individual_id);
	CHECK_TEXT(rec, individual_name);
	CHECK_TEXT(rec, company_id);
	CHECK_TEXT(rec, company_name);
	CHECK_TEXT(rec, company_entry_description);
	CHECK_TEXT(rec, batch_number);
	CHECK_TEXT(rec, addenda_text);
	CHECK_TEXT(rec, reason_code);
	CHECK_TEXT(rec, original_trace);
	CHECK_TEXT(rec, original_rdfi);
	CHECK_TEXT(rec, corrected_data);
	CHECK_TEXT(rec, dishonored_code);
	CHECK_TEXT(rec, message_type);
	CHECK_TEXT(rec, msg_id);
	CHECK_TEXT(rec, pmt_inf_id);
	CHECK_TEXT(rec, instr_id);
	CHECK_TEXT(rec, end_to_end_id);
	CHECK_TEXT(rec, tx_id);
	CHECK_TEXT(rec, uetr);
	FUZZ_CHECK(is_uetr(rec->uetr), "record %lu: uetr \"%s\" not lowercase UUID", ordinal,
		   rec->uetr);
	CHECK_TEXT(rec, rtr_id);
	CHECK_TEXT(rec, orgnl_uetr);
	FUZZ_CHECK(is_uetr(rec->orgnl_uetr), "record %lu: orgnl_uetr \"%s\" not lowercase UUID",
		   ordinal, rec->orgnl_uetr);
	CHECK_TEXT(rec, orgnl_end_to_end_id);
	CHECK_TEXT(rec, orgnl_tx_id);
	CHECK_TEXT(rec, orgnl_msg_id);
	CHECK_TEXT(rec, initiating_party_id);
	CHECK_TEXT(rec, debtor_name);
	CHECK_TEXT(rec, debtor_account);
	CHECK_TEXT(rec, debtor_agent);
	CHECK_TEXT(rec, creditor_name);
	CHECK_TEXT(rec, creditor_account);
	CHECK_TEXT(rec, creditor_agent);
	CHECK_TEXT(rec, instructing_agent);
	CHECK_TEXT(rec, instructed_agent);
	CHECK_TEXT(rec, remittance_text);
}

static void check_error(const struct cl_error *err, enum cl_status st, unsigned long line_bound)
{
	FUZZ_CHECK(err->file != NULL && strcmp(err->file, FUZZ_NAME) == 0,
		   "status %d: error names no file or another one", (int)st);
	FUZZ_CHECK(nul_within(err->code, sizeof(err->code)), "status %d: code not NUL-terminated",
		   (int)st);
	FUZZ_CHECK(nul_within(err->message, sizeof(err->message)),
		   "status %d: message not NUL-terminated", (int)st);
	FUZZ_CHECK(nul_within(err->path, sizeof(err->path)), "status %d: path not NUL-terminated",
		   (int)st);
	FUZZ_CHECK(nul_within(err->detail, sizeof(err->detail)) &&
			   nul_within(err->hint, sizeof(err->hint)),
		   "status %d: detail or hint not NUL-terminated", (int)st);
	FUZZ_CHECK(err->code[0] != '\0', "status %d: empty code (message \"%s\")", (int)st,
		   err->message);
	FUZZ_CHECK(err->message[0] != '\0', "status %d: empty message (code %s)", (int)st,
		   err->code);
	/* messages reach terminals, logs and JSON: the file's bytes must not
	 * reach them raw (escape sequences, invalid UTF-8) */
	FUZZ_CHECK(fuzz_skip("message_bytes") ||
			   (valid_utf8((const unsigned char *)err->message) &&
			    no_controls(err->message)),
		   "status %d: message is not clean UTF-8: \"%s\"", (int)st, err->message);
	FUZZ_CHECK(fuzz_skip("message_bytes") ||
			   (valid_utf8((const unsigned char *)err->path) && no_controls(err->path)),
		   "status %d: path is not clean UTF-8: \"%s\"", (int)st, err->path);
	FUZZ_CHECK(fuzz_skip("message_bytes") ||
			   (valid_utf8((const unsigned char *)err->detail) && no_controls(err->detail) &&
			    valid_utf8((const unsigned char *)err->hint) && no_controls(err->hint)),
		   "status %d: detail or hint is not clean UTF-8: \"%s\" \"%s\"", (int)st,
		   err->detail, err->hint);
	FUZZ_CHECK(fuzz_skip("line") || err->line <= line_bound, "status %d: line %lu beyond the %lu lines read (%s: %s)",
		   (int)st, err->line, line_bound, err->code, err->message);
	FUZZ_CHECK(err->other_line <= line_bound, "status %d: other_line %lu beyond %lu lines",
		   (int)st, err->other_line, line_bound);
}

/* ---- the drive ---- */

static void hash_str(EVP_MD_CTX *h, const char *s)
{
	EVP_DigestUpdate(h, s, strlen(s) + 1);
}

static void hash_ulong(EVP_MD_CTX *h, unsigned long v)
{
	EVP_DigestUpdate(h, &v, sizeof(v));
}

static void hash_record(EVP_MD_CTX *h, const struct cl_record *r)
{
	hash_str(h, r->kind);
	hash_str(h, r->key_rule);
	hash_str(h, r->natural_key);
	EVP_DigestUpdate(h, r->fingerprint, sizeof(r->fingerprint));
	hash_ulong(h, r->position);
	hash_ulong(h, (unsigned long)r->amount_minor);
	hash_ulong(h, (unsigned long)r->direction);
	hash_str(h, r->currency);
	hash_str(h, r->value_date);
	hash_str(h, r->trace_number);
	hash_str(h, r->receiving_account);
	hash_str(h, r->individual_name);
	hash_str(h, r->end_to_end_id);
	hash_str(h, r->uetr);
	hash_str(h, r->debtor_name);
	hash_str(h, r->creditor_name);
	hash_str(h, r->remittance_text);
}

/* A message or its detail; without its digits under FUZZ_SKIP
 * message_numbers (an open finding where a count in a message depends on
 * the read sizes). */
static void hash_text(EVP_MD_CTX *h, const char *s)
{
	if (!fuzz_skip("message_numbers")) {
		hash_str(h, s);
		return;
	}
	for (const char *c = s; *c; c++) {
		if (strncmp(c, "more than ", 10) == 0)
			c += 9;
		else if (*c < '0' || *c > '9')
			EVP_DigestUpdate(h, c, 1);
	}
	EVP_DigestUpdate(h, "", 1);
}

static void hash_error(EVP_MD_CTX *h, enum cl_status st, const struct cl_error *e)
{
	hash_ulong(h, (unsigned long)st);
	hash_ulong(h, e->line);
	hash_ulong(h, e->column);
	hash_ulong(h, e->other_line);
	hash_str(h, e->code);
	hash_str(h, e->path);
	hash_str(h, e->hint);
	hash_text(h, e->message);
	hash_text(h, e->detail);
}

static void trace(size_t chunk, enum cl_status st, const struct cl_record *rec,
		  const struct cl_error *err)
{
	if (st == CL_OK)
		fprintf(stderr, "[chunk %zu] OK %s line %lu key %s\n", chunk, rec->kind, rec->position,
			rec->natural_key);
	else if (st != CL_END)
		fprintf(stderr, "[chunk %zu] %d line %lu col %lu code %.40s path %.256s: %.512s\n",
			chunk, (int)st, err->line, err->column, err->code, err->path, err->message);
}

void fuzz_drive(enum fuzz_target target, const uint8_t *data, size_t size, size_t chunk,
		const struct cl_parse_opts *opts, unsigned long line_bound,
		struct fuzz_outcome *out)
{
	struct cl_input *in = cl_input_from_memory(data, size, chunk, FUZZ_NAME);
	struct cl_parser *parser = NULL;
	EVP_MD_CTX *h = EVP_MD_CTX_new();
	EVP_MD_CTX *hr = EVP_MD_CTX_new(), *he = EVP_MD_CTX_new(), *hk = EVP_MD_CTX_new();
	unsigned max_errors = opts->max_errors ? opts->max_errors : 100;
	/* a parser makes progress: no more calls than bytes, give or take */
	unsigned long calls = 0, max_calls = 4 * (unsigned long)size + 1000, last_ordinal = 0;
	unsigned long summaries = 0;
	const struct cl_file_info *info;
	struct cl_error err;
	const struct cl_record *rec;
	struct cl_item item;
	enum cl_status st, prev = CL_OK;

	memset(out, 0, sizeof(*out));
	out->opened = 1;
	out->format = target == FUZZ_ACH ? CL_FORMAT_ACH
		      : target == FUZZ_ISO20022 ? CL_FORMAT_ISO20022
		      : target == FUZZ_CSV ? CL_FORMAT_CSV
						: CL_FORMAT_UNKNOWN;
	EVP_DigestInit_ex(h, EVP_sha256(), NULL);
	EVP_DigestInit_ex(hr, EVP_sha256(), NULL);
	EVP_DigestInit_ex(he, EVP_sha256(), NULL);
	EVP_DigestInit_ex(hk, EVP_sha256(), NULL);
	switch (target) {
	case FUZZ_ACH:
	case FUZZ_ISO20022:
	case FUZZ_CSV:
		parser = cl_parser_new(out->format, in, opts);
		break;
	case FUZZ_PARSER:
		memset(&err, 0xA5, sizeof(err));
		st = cl_parser_open(in, opts, &parser, &err);
		if (st != CL_OK && getenv("FUZZ_TRACE"))
			trace(chunk, st, NULL, &err);
		if (st != CL_OK) {
			FUZZ_CHECK(st == CL_INVALID || st == CL_IO, "cl_parser_open returned %d",
				   (int)st);
			FUZZ_CHECK(parser == NULL, "cl_parser_open failed but gave a parser");
			check_error(&err, st, line_bound);
			hash_error(h, st, &err);
			out->opened = 0;
			out->invalid += st == CL_INVALID;
			out->io += st == CL_IO;
			out->gzip_ratio = strcmp(err.code, "gzip_ratio") == 0;
			goto done;
		}
		FUZZ_CHECK(parser != NULL, "cl_parser_open gave CL_OK and no parser");
		out->format = cl_parser_info(parser)->format;
		{
			/* detection as documented, from the first decoded bytes */
			struct cl_input *again = cl_input_from_memory(data, size, 0, FUZZ_NAME);
			const unsigned char *head;
			size_t len;
			struct cl_error perr;

			FUZZ_CHECK(cl_input_peek(again, &head, &len, &perr) == CL_OK,
				   "peek failed where open succeeded");
			FUZZ_CHECK(cl_format_detect(head, len) == out->format,
				   "parser format %d, cl_format_detect says %d", (int)out->format,
				   (int)cl_format_detect(head, len));
			cl_input_free(again);
		}
		break;
	}

	for (;;) {
		rec = (const struct cl_record *)(uintptr_t)1; /* must be set or ignored */
		memset(&err, 0xA5, sizeof(err)); /* errors must be filled, not inherited */
		/* every family through the one pull API: records and
		   statement items */
		st = cl_parser_next_item(parser, &item, &err);
		rec = st == CL_OK ? item.rec : NULL;
		FUZZ_CHECK(st != CL_OK || (item.rec != NULL) != (item.stmt != NULL),
			   "an item that is neither a record nor a statement item, or both");
		FUZZ_CHECK(++calls <= max_calls, "more than %lu calls to next() on %zu bytes",
			   max_calls, size);
		FUZZ_CHECK(prev != CL_IO || st == CL_END, "next() returned %d after CL_IO", (int)st);
		if (getenv("FUZZ_TRACE"))
			trace(chunk, st, rec, &err);
		if (st == CL_END)
			break;
		if (st == CL_OK && item.stmt) {
			out->records++;
			hash_ulong(h, (unsigned long)item.stmt->kind);
			hash_ulong(h, item.stmt->stmt.line);
			prev = st;
			continue;
		}
		switch (st) {
		case CL_OK:
			out->records++;
			check_record(rec, out->records, &last_ordinal, line_bound);
			hash_ulong(h, (unsigned long)st);
			hash_record(h, rec);
			hash_record(hr, rec);
			hash_str(hk, rec->kind);
			hash_str(hk, rec->natural_key);
			EVP_DigestUpdate(hk, rec->fingerprint, sizeof(rec->fingerprint));
			hash_ulong(hk, (unsigned long)rec->amount_minor);
			break;
		case CL_INVALID:
		case CL_NOTE:
		case CL_IO:
			check_error(&err, st, line_bound);
			hash_error(h, st, &err);
			if (st != CL_NOTE) {
				hash_ulong(he, (unsigned long)st);
				hash_ulong(he, err.line);
				hash_str(he, err.code);
			}
			if (strcmp(err.code, "gzip_ratio") == 0)
				out->gzip_ratio = 1;
			if (st == CL_NOTE && strcmp(err.code, "fixed_block") == 0)
				out->fixed_block = 1;
			if (st == CL_NOTE)
				out->eol_mode |= strcmp(err.code, "cr_line_ends") == 0 ? 1
						 : strcmp(err.code, "crlf") == 0       ? 2
						 : strcmp(err.code, "fixed_block") == 0 ? 4
											: 0;
			out->invalid += st == CL_INVALID;
			/* a sum of errors not handed out one by one (parser.h) */
			summaries += st == CL_INVALID && err.count > 0;
			out->notes += st == CL_NOTE;
			out->io += st == CL_IO;
			break;
		default:
			fuzz_fail(__FILE__, __LINE__, "status", "next() returned %d", (int)st);
		}
		prev = st;
	}
	/* the end is sticky */
	for (int i = 0; i < 2; i++) {
		st = cl_parser_next(parser, &rec, &err);
		FUZZ_CHECK(st == CL_END, "next() returned %d after CL_END", (int)st);
	}
	/* max_errors counts the errors handed out one by one; each code whose
	 * errors were only counted adds one sum of them */
	FUZZ_CHECK(fuzz_skip("max_errors") || out->invalid - summaries <= max_errors + 1,
		   "%lu errors (%lu of them sums) with max_errors %u", out->invalid, summaries,
		   max_errors);
	FUZZ_CHECK(summaries <= 64, "%lu sums of repeated errors", summaries);
	info = cl_parser_info(parser);
	FUZZ_CHECK(fuzz_skip("info_records") || info->records == out->records, "info.records %lu, records returned %lu",
		   info->records, out->records);
	FUZZ_CHECK(nul_within(info->format_name, sizeof(info->format_name)) &&
			   nul_within(info->message_type, sizeof(info->message_type)) &&
			   nul_within(info->sender, sizeof(info->sender)) &&
			   nul_within(info->receiver, sizeof(info->receiver)) &&
			   nul_within(info->created, sizeof(info->created)) &&
			   nul_within(info->file_id, sizeof(info->file_id)),
		   "file info string not NUL-terminated");
	FUZZ_CHECK(info->total_debit_minor >= 0 && info->total_credit_minor >= 0,
		   "negative totals %lld / %lld", (long long)info->total_debit_minor,
		   (long long)info->total_credit_minor);
done:
	EVP_DigestFinal_ex(h, out->digest, NULL);
	EVP_DigestFinal_ex(hr, out->rec_digest, NULL);
	EVP_DigestFinal_ex(he, out->err_digest, NULL);
	EVP_DigestFinal_ex(hk, out->key_digest, NULL);
	EVP_MD_CTX_free(h);
	EVP_MD_CTX_free(hr);
	EVP_MD_CTX_free(he);
	EVP_MD_CTX_free(hk);
	cl_parser_free(parser);
	cl_input_free(in);
}

int fuzz_same_outcome(const struct fuzz_outcome *a, const struct fuzz_outcome *b, int xml)
{
	int a_ok = a->opened && a->invalid == 0 && a->io == 0;
	int b_ok = b->opened && b->invalid == 0 && b->io == 0;

	if (a->gzip_ratio || b->gzip_ratio)
		return 1; /* the bomb check may trip at another read: not compared */
	if (a_ok != b_ok)
		return 0; /* valid one way, invalid the other: always a bug */
	if (a->io || b->io)
		/* an input failure (corrupt gzip) is met after as many bytes as
		 * were decoded ahead, so the records and errors before it vary */
		return 1;
	if (!a_ok && a->eol_mode != b->eol_mode && fuzz_skip("eol_mode"))
		/* the NACHA parser chose its line-end mode from what one read
		 * gave (F10): in an invalid file only the verdict is compared */
		return 1;
	if (xml && !a_ok)
		/* libxml2's reader parses ahead by as much as it was given, so
		 * which well-formedness error comes first (and which records
		 * came before it) depends on the read sizes; nothing of an
		 * invalid file is applied, so only the verdict is compared */
		return 1;
	return a->opened == b->opened && a->records == b->records && a->invalid == b->invalid &&
	       a->notes == b->notes && a->io == b->io &&
	       memcmp(a->digest, b->digest, sizeof(a->digest)) == 0;
}

void fuzz_drive_both(enum fuzz_target target, const uint8_t *data, size_t size)
{
	struct cl_parse_opts opts;
	struct fuzz_outcome whole, chunked;
	unsigned long bound = fuzz_line_bound(data, size);
	size_t chunk = fuzz_chunk_from_byte(size ? (uint8_t)(data[0] ^ size) : 0);

	fuzz_pick_opts(data, size, &opts);
	fuzz_drive(target, data, size, 0, &opts, bound, &whole);
	fuzz_drive(target, data, size, chunk, &opts, bound, &chunked);
	if (fuzz_skip("chunking"))
		return;
	FUZZ_CHECK(fuzz_same_outcome(&whole, &chunked, whole.format == CL_FORMAT_ISO20022),
		   "read whole vs %zu bytes at a time: records %lu/%lu, errors %lu/%lu, notes "
		   "%lu/%lu, io %lu/%lu, same digest %d (FUZZ_TRACE=1 shows both)",
		   chunk, whole.records, chunked.records, whole.invalid, chunked.invalid, whole.notes,
		   chunked.notes, whole.io, chunked.io,
		   memcmp(whole.digest, chunked.digest, sizeof(whole.digest)) == 0);
}
