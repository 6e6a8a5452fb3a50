/*
 * fuzz_csv.c - libFuzzer entry point for the CSV reader (CL_FORMAT_CSV), fed
 * directly (no format detection), read whole and in chunks.
 *
 * And a fixed-point oracle: every record read from an input without
 * errors is written back as CSV (all columns, quoted, in another column
 * order, CRLF line ends) and read again; it must come back identical but
 * for its position (the line it is on) and ordinal.  The writer here is
 * the harness's own, not cmd/'s (the harness links parsers/ only).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/csv_records.h"
#include "rules/fingerprint.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RECS 64

/* The columns the export writes: text fields by offset, the rest by name. */
struct out_col {
	const char *name;
	size_t offset; /* of a char array in struct cl_record; 0 = special */
};

#define TXT(f) { #f, offsetof(struct cl_record, f) }
#define SPECIAL(n) { #n, 0 }

static const struct out_col cols[] = {
	SPECIAL(addenda_count), SPECIAL(amount_minor), SPECIAL(direction), SPECIAL(fingerprint),
	SPECIAL(key_rule), SPECIAL(kind), SPECIAL(natural_key), SPECIAL(scheme),
	TXT(addenda_text), TXT(batch_number), TXT(company_entry_description), TXT(company_id),
	TXT(company_name), TXT(corrected_data), TXT(creditor_account), TXT(creditor_agent),
	TXT(creditor_name), TXT(currency), TXT(debtor_account), TXT(debtor_agent),
	TXT(debtor_name), TXT(dishonored_code), TXT(end_to_end_id), TXT(individual_id),
	TXT(individual_name), TXT(initiating_party_id), TXT(instr_id), TXT(instructed_agent),
	TXT(instructing_agent), TXT(message_type), TXT(msg_id), TXT(original_rdfi),
	TXT(original_trace), TXT(orgnl_end_to_end_id), TXT(orgnl_msg_id), TXT(orgnl_tx_id),
	TXT(orgnl_uetr), TXT(pmt_inf_id), TXT(reason_code), TXT(receiving_account),
	TXT(receiving_dfi), TXT(remittance_text), TXT(rtr_id), TXT(sec_code),
	TXT(trace_number), TXT(transaction_code), TXT(tx_id), TXT(uetr), TXT(value_date),
};

#define NCOLS (sizeof(cols) / sizeof(cols[0]))

struct sink {
	char *buf;
	size_t len, cap;
};

static void put(struct sink *s, const char *p, size_t n)
{
	if (s->len + n + 1 > s->cap) {
		s->cap = 2 * (s->len + n + 1);
		s->buf = realloc(s->buf, s->cap);
		FUZZ_CHECK(s->buf != NULL, "out of memory");
	}
	memcpy(s->buf + s->len, p, n);
	s->len += n;
}

static void put_quoted(struct sink *s, const char *v)
{
	put(s, "\"", 1);
	for (; *v; v++) {
		put(s, v, 1);
		if (*v == '"')
			put(s, v, 1); /* a quote inside quotes is doubled */
	}
	put(s, "\"", 1);
}

static const char *special(const struct cl_record *r, const char *name, char *buf, size_t cap)
{
	bool ach = strcmp(r->scheme, "nacha") == 0;

	if (strcmp(name, "addenda_count") == 0) {
		if (!ach)
			return "";
		snprintf(buf, cap, "%u", r->addenda_count);
	} else if (strcmp(name, "amount_minor") == 0) {
		snprintf(buf, cap, "%lld", (long long)r->amount_minor);
	} else if (strcmp(name, "direction") == 0) {
		return cl_direction_name(r->direction) ? cl_direction_name(r->direction) : "";
	} else if (strcmp(name, "fingerprint") == 0) {
		cl_hex32(r->fingerprint, buf);
	} else if (strcmp(name, "key_rule") == 0) {
		return r->key_rule;
	} else if (strcmp(name, "kind") == 0) {
		return r->kind;
	} else if (strcmp(name, "natural_key") == 0) {
		return r->natural_key;
	} else {
		return r->scheme;
	}
	return buf;
}

static void write_csv(struct sink *s, const struct cl_record *recs, size_t n)
{
	char buf[80];

	for (size_t i = 0; i < NCOLS; i++) {
		if (i)
			put(s, ",", 1);
		put_quoted(s, cols[i].name);
	}
	put(s, "\r\n", 2);
	for (size_t r = 0; r < n; r++) {
		for (size_t i = 0; i < NCOLS; i++) {
			if (i)
				put(s, ",", 1);
			put_quoted(s, cols[i].offset ? (const char *)&recs[r] + cols[i].offset
						     : special(&recs[r], cols[i].name, buf,
							       sizeof(buf)));
		}
		put(s, "\r\n", 2);
	}
}

/* Read data as CSV: up to MAX_RECS records into recs; returns the number
 * of records, or -1 when any error came. */
static long read_all(const uint8_t *data, size_t size, const struct cl_parse_opts *opts,
		     struct cl_record *recs)
{
	struct cl_input *in = cl_input_from_memory(data, size, 0, "fuzz-input");
	struct cl_parser *p = cl_parser_new(CL_FORMAT_CSV, in, opts);
	const struct cl_record *rec;
	struct cl_error err;
	enum cl_status st;
	long n = 0;

	while ((st = cl_parser_next(p, &rec, &err)) != CL_END) {
		if (st == CL_INVALID || st == CL_IO) {
			n = -1;
			break;
		}
		if (st == CL_OK && n < MAX_RECS)
			recs[n++] = *rec;
	}
	cl_parser_free(p);
	cl_input_free(in);
	return n;
}

static void fixed_point(const uint8_t *data, size_t size)
{
	static struct cl_record first[MAX_RECS], again[MAX_RECS];
	struct cl_parse_opts opts;
	struct sink s = { NULL, 0, 0 };
	long n, m;

	if (fuzz_skip("roundtrip"))
		return;
	fuzz_pick_opts(data, size, &opts);
	n = read_all(data, size, &opts, first);
	if (n <= 0)
		return;
	write_csv(&s, first, (size_t)n);
	m = read_all((const uint8_t *)s.buf, s.len, &opts, again);
	FUZZ_CHECK(m == n, "%ld records read, %ld read back from their export", n, m);
	for (long i = 0; i < n; i++) {
		again[i].position = first[i].position;
		again[i].ordinal = first[i].ordinal;
		FUZZ_CHECK(memcmp(&first[i], &again[i], sizeof(first[i])) == 0,
			   "record %ld (line %lu, key \"%s\") differs when written back and read "
			   "again (key \"%s\")",
			   i + 1, first[i].position, first[i].natural_key, again[i].natural_key);
	}
	free(s.buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_drive_both(FUZZ_CSV, data, size);
	fixed_point(data, size);
	return 0;
}
