/*
 * ach_key.c - natural key and fingerprint of a finished ACH record
 * (clearing-load-keys(7)).
 *
 *   ach.entry   v1        <company id>|<trace>|<effective date>
 *               v1-batch  <company id>|<batch number>|<trace>|<effective date>
 *   ach.return  v1        <original trace>|<return code>|<trace>|<effective date>
 *   ach.noc     v1        <original trace>|<change code>|<trace>|<effective date>
 *
 * The fingerprint covers the economic fields only (cl_fp encoding):
 * kind, amount_minor, currency, transaction_code, receiving_dfi,
 * receiving_account, company_id, sec_code, value_date; IAT adds the
 * foreign RDFI (addenda 14 qualifier and id), destination country and
 * currency; returns and NOCs add reason_code, original_trace,
 * original_rdfi, corrected_data and dishonored_code.  Names, addenda free
 * text, batch number, file creation time and padding are left out, so a
 * re-batched or re-created file gives the same fingerprint.
 */
#include "ach_internal.h"

#include <string.h>

static char *put(char *o, const char *s)
{
	size_t n = strlen(s);

	memcpy(o, s, n);
	o[n] = '|';
	return o + n + 1;
}

void ach_key_and_fingerprint(struct cl_ach *p, struct cl_record *r, bool iat)
{
	const struct ach_entry *e = &p->e;
	const struct ach_batch *b = &p->b;
	bool entry = r->kind[4] == 'e'; /* "ach.entry" */
	char *o = r->natural_key;
	struct cl_fp *fp = p->fp;

	/* every part has a fixed maximum width: the key always fits */
	r->key_rule = CL_KEY_RULE_V1;
	if (entry) {
		o = put(o, r->company_id);
		if (p->opts.ach_key == CL_ACH_KEY_BATCH) {
			o = put(o, r->batch_number);
			r->key_rule = CL_KEY_RULE_V1_ACH_BATCH;
		}
	} else {
		o = put(o, r->original_trace);
		o = put(o, r->reason_code);
	}
	o = put(o, r->trace_number);
	memcpy(o, r->value_date, sizeof(r->value_date));

	cl_fp_begin(fp);
	cl_fp_str(fp, "kind", r->kind);
	cl_fp_int(fp, "amount_minor", r->amount_minor);
	cl_fp_str(fp, "currency", r->currency);
	cl_fp_str(fp, "transaction_code", r->transaction_code);
	cl_fp_str(fp, "receiving_dfi", r->receiving_dfi);
	cl_fp_str(fp, "receiving_account", r->receiving_account);
	cl_fp_str(fp, "company_id", r->company_id);
	cl_fp_str(fp, "sec_code", r->sec_code);
	cl_fp_str(fp, "value_date", r->value_date);
	if (iat) {
		cl_fp_str(fp, "iat_rdfi_qualifier", e->iat_rdfi_qual);
		cl_fp_str(fp, "iat_rdfi_id", e->iat_rdfi_id);
		cl_fp_str(fp, "iat_dest_country", b->iat_dest_country);
		cl_fp_str(fp, "iat_dest_currency", b->iat_dest_currency);
	}
	if (!entry) {
		cl_fp_str(fp, "reason_code", r->reason_code);
		cl_fp_str(fp, "original_trace", r->original_trace);
		cl_fp_str(fp, "original_rdfi", r->original_rdfi);
		cl_fp_str(fp, "corrected_data", r->corrected_data);
		cl_fp_str(fp, "dishonored_code", r->dishonored_code);
	}
	cl_fp_end(fp, r->fingerprint);
}
