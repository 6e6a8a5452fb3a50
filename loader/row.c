/* row.c - struct cl_record to clearing_record columns. */
#include "row.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fingerprint.h"
#include "near.h"

const char cl_row_columns[] =
	"tenant, kind, natural_key, key_rule, fingerprint, amount_minor, currency, direction, "
	"value_date, trace_number, sec_code, transaction_code, receiving_dfi, receiving_account, "
	"company_id, batch_number, individual_id, reason_code, original_trace, original_rdfi, "
	"message_type, msg_id, pmt_inf_id, instr_id, end_to_end_id, tx_id, uetr, rtr_id, "
	"orgnl_uetr, orgnl_end_to_end_id, orgnl_tx_id, initiating_party_id, debtor_account, "
	"debtor_agent, creditor_account, creditor_agent, instructing_agent, instructed_agent, "
	"alt_key, corrected_data, dishonored_code, orgnl_msg_id, alt_key2, alt_fp, near_key, "
	"load_id, ordinal, position";

static void num(struct cl_copy_in *c, unsigned long long v)
{
	char b[24];
	int n = snprintf(b, sizeof(b), "\t%llu", v);

	cl_copy_raw(c, b, (size_t)n);
}

void cl_row_copy(struct cl_copy_in *c, const struct cl_record *r, unsigned long ordinal,
		 const char *tenant, const char *load_id)
{
	char hex[65], b[32], near[CL_NEAR_KEY_MAX];
	int n;

	cl_copy_text(c, tenant, true, false);
	cl_copy_text(c, r->kind, false, false);
	cl_copy_text(c, r->natural_key, false, false);
	cl_copy_text(c, r->key_rule, false, false);
	cl_hex32(r->fingerprint, hex);
	cl_copy_raw(c, "\t\\\\x", 4);
	cl_copy_raw(c, hex, 64);
	n = snprintf(b, sizeof(b), "\t%" PRId64, r->amount_minor);
	cl_copy_raw(c, b, (size_t)n);
	cl_copy_text(c, r->currency, false, false);
	cl_copy_text(c, cl_direction_name(r->direction), false, true);
	cl_copy_text(c, r->value_date, false, true);
	cl_copy_text(c, r->trace_number, false, true);
	cl_copy_text(c, r->sec_code, false, true);
	cl_copy_text(c, r->transaction_code, false, true);
	cl_copy_text(c, r->receiving_dfi, false, true);
	cl_copy_text(c, r->receiving_account, false, true);
	cl_copy_text(c, r->company_id, false, true);
	cl_copy_text(c, r->batch_number, false, true);
	cl_copy_text(c, r->individual_id, false, true);
	cl_copy_text(c, r->reason_code, false, true);
	cl_copy_text(c, r->original_trace, false, true);
	cl_copy_text(c, r->original_rdfi, false, true);
	cl_copy_text(c, r->message_type, false, true);
	cl_copy_text(c, r->msg_id, false, true);
	cl_copy_text(c, r->pmt_inf_id, false, true);
	cl_copy_text(c, r->instr_id, false, true);
	cl_copy_text(c, r->end_to_end_id, false, true);
	cl_copy_text(c, r->tx_id, false, true);
	cl_copy_text(c, r->uetr, false, true);
	cl_copy_text(c, r->rtr_id, false, true);
	cl_copy_text(c, r->orgnl_uetr, false, true);
	cl_copy_text(c, r->orgnl_end_to_end_id, false, true);
	cl_copy_text(c, r->orgnl_tx_id, false, true);
	cl_copy_text(c, r->initiating_party_id, false, true);
	cl_copy_text(c, r->debtor_account, false, true);
	cl_copy_text(c, r->debtor_agent, false, true);
	cl_copy_text(c, r->creditor_account, false, true);
	cl_copy_text(c, r->creditor_agent, false, true);
	cl_copy_text(c, r->instructing_agent, false, true);
	cl_copy_text(c, r->instructed_agent, false, true);
	cl_copy_text(c, r->alt_key, false, true);
	cl_copy_text(c, r->corrected_data, false, true);
	cl_copy_text(c, r->dishonored_code, false, true);
	cl_copy_text(c, r->orgnl_msg_id, false, true);
	cl_copy_text(c, r->alt_key2, false, true);
	if (r->has_alt_fp) {
		cl_hex32(r->alt_fp, hex);
		cl_copy_raw(c, "\t\\\\x", 4);
		cl_copy_raw(c, hex, 64);
	} else {
		cl_copy_raw(c, "\t\\N", 3);
	}
	cl_near_key(r, near, sizeof(near)); /* "" (NULL) for non-ACH kinds */
	cl_copy_text(c, near, false, true);
	cl_copy_text(c, load_id, false, false);
	num(c, ordinal);
	num(c, r->position);
	cl_copy_row_end(c);
}

const struct cl_row_field cl_row_compared[] = {
	{ "amount_minor", false, 0 },     { "currency", false, 0 },
	{ "direction", false, 0 },        { "value_date", false, 0 },
	{ "transaction_code", false, 0 }, { "sec_code", false, 0 },
	{ "receiving_dfi", false, 0 },    { "receiving_account", true, 0 },
	{ "individual_id", false, 0 },    { "reason_code", false, 0 },
	{ "original_trace", false, 0 },   { "original_rdfi", false, 0 },
	{ "message_type", false, 0 },     { "debtor_account", true, 0 },
	{ "debtor_agent", false, 0 },     { "creditor_account", true, 0 },
	{ "creditor_agent", false, 0 },   { "instructing_agent", false, 0 },
	{ "instructed_agent", false, 0 }, { "initiating_party_id", false, 0 },
	{ "corrected_data", true, 7 }, { "dishonored_code", false, 7 },
	{ "orgnl_msg_id", false, 7 },
};
const unsigned cl_row_compared_count = sizeof(cl_row_compared) / sizeof(cl_row_compared[0]);

const char *cl_row_value(const struct cl_record *r, unsigned i, char buf[32])
{
	const char *v;

	switch (i) {
	case 0:
		snprintf(buf, 32, "%" PRId64, r->amount_minor);
		return buf;
	case 1: return r->currency;
	case 2: v = cl_direction_name(r->direction); return v ? v : "";
	case 3: return r->value_date;
	case 4: return r->transaction_code;
	case 5: return r->sec_code;
	case 6: return r->receiving_dfi;
	case 7: return r->receiving_account;
	case 8: return r->individual_id;
	case 9: return r->reason_code;
	case 10: return r->original_trace;
	case 11: return r->original_rdfi;
	case 12: return r->message_type;
	case 13: return r->debtor_account;
	case 14: return r->debtor_agent;
	case 15: return r->creditor_account;
	case 16: return r->creditor_agent;
	case 17: return r->instructing_agent;
	case 18: return r->instructed_agent;
	case 19: return r->initiating_party_id;
	case 20: return r->corrected_data;
	case 21: return r->dishonored_code;
	case 22: return r->orgnl_msg_id;
	default: return "";
	}
}

bool cl_mask_in_key(const char *key, const char *const *accounts, size_t n, char *out,
		    size_t cap)
{
	bool masked = false;
	size_t i;

	snprintf(out, cap, "%s", key);
	for (i = 0; i < n; i++) {
		size_t len = accounts[i] ? strlen(accounts[i]) : 0;
		char *hit = out;

		if (len < 5)
			continue; /* too short to mask meaningfully (and to match by chance) */
		while ((hit = strstr(hit, accounts[i])) != NULL) {
			memset(hit, '*', len - 4);
			hit += len;
			masked = true;
		}
	}
	return masked;
}

bool cl_row_mask_key(const struct cl_record *rec, const char *key, char *out, size_t cap)
{
	const char *accts[3] = { rec->receiving_account, rec->debtor_account,
				 rec->creditor_account };

	return cl_mask_in_key(key, accts, 3, out, cap);
}
