/* iso_identity.c - natural keys (rule v1), alternate keys and
 * fingerprints of ISO 20022 records (iso_identity.h). */
#include "rules/iso_identity.h"

#include <stdio.h>
#include <string.h>

bool cl_iso_id_unusable(const char *s)
{
	static const char np[] = "NOTPROVIDED";
	size_t i = 0;

	while (s[0] == ' ' || s[0] == '\t' || s[0] == '\r' || s[0] == '\n')
		s++;
	if (*s == '\0')
		return true;
	for (; np[i]; i++) {
		char c = s[i];

		if (c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		if (c != np[i])
			return false;
	}
	for (s += i; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n')
			return false;
	return true;
}

/* An agent as it goes into keys and fingerprints: a BIC of 11 characters
 * whose branch code is "XXX" (the primary office) is the same institution
 * as its 8-character form, and systems differ in which they send; keys and
 * fingerprints use the 8-character form.  Other ids are used as they are. */
static const char *agent_id(const char *a, char *buf, size_t cap)
{
	if (strlen(a) == 11 && strcmp(a + 8, "XXX") == 0 && cap > 8) {
		memcpy(buf, a, 8);
		buf[8] = '\0';
		return buf;
	}
	return a;
}

/* "<tier>|<a>|<b>[|<c>]" into rec->natural_key; false when it does not fit. */
static bool put(struct cl_record *rec, const char *tier, const char *a, const char *b,
		const char *c)
{
	int n;

	if (c)
		n = snprintf(rec->natural_key, sizeof(rec->natural_key), "%s|%s|%s|%s", tier, a,
			     b, c);
	else
		n = snprintf(rec->natural_key, sizeof(rec->natural_key), "%s|%s|%s", tier, a, b);
	rec->key_rule = CL_KEY_RULE_V1;
	return n > 0 && (size_t)n < sizeof(rec->natural_key);
}

static bool pain001_key(struct cl_record *rec, const struct cl_iso_extra *x, char *why,
			size_t cap)
{
	const char *party = rec->debtor_account[0] ? rec->debtor_account
						   : rec->initiating_party_id;
	int n;

	if (!cl_iso_id_unusable(rec->end_to_end_id) && party[0]) {
		n = snprintf(rec->natural_key, sizeof(rec->natural_key), "%s|%s", party,
			     rec->end_to_end_id);
		rec->key_rule = CL_KEY_RULE_V1;
		return n > 0 && (size_t)n < sizeof(rec->natural_key);
	}
	if (x->positional_keys) {
		n = snprintf(rec->natural_key, sizeof(rec->natural_key), "pos|%s|%s|%lu",
			     rec->msg_id, rec->pmt_inf_id, rec->ordinal);
		rec->key_rule = CL_KEY_RULE_V1_POSITIONAL;
		return n > 0 && (size_t)n < sizeof(rec->natural_key);
	}
	if (!party[0])
		snprintf(why, cap, "no debtor account and no initiating party id: the key names "
			 "whose payment it is, since each customer chooses its own "
			 "EndToEndIds");
	else
		snprintf(why, cap, "EndToEndId is %s (use --positional-keys to key such "
			 "records by MsgId, PmtInfId and position)",
			 rec->end_to_end_id[0] ? "NOTPROVIDED" : "empty");
	return false;
}

/* A collection (pain.008): whose claim it is (the creditor identifier,
 * else the creditor's account: each creditor chooses its own EndToEndIds
 * and mandate references), under which mandate, and which collection of
 * it (EndToEndId, else the requested collection date: a mandate is
 * collected once on a day).  The alternate key is the same without the
 * mandate ("dd|creditor|EndToEndId"): a collection re-sent under a
 * corrected mandate reference gets another natural key, and is held when
 * everything else is the same (alt_fp: the fingerprint without the
 * mandate), never applied twice.  clearing-load-keys(7), 0036. */
static bool pain008_key(struct cl_record *rec, const struct cl_iso_extra *x, char *why,
			size_t cap)
{
	const char *cdtr = rec->creditor_scheme_id[0] ? rec->creditor_scheme_id
						      : rec->creditor_account;
	int n = 0, m = 0;

	if (!cdtr[0]) {
		snprintf(why, cap, "no creditor scheme id and no creditor account: the key names "
			 "whose collection it is, since each creditor chooses its own "
			 "EndToEndIds and mandate references");
		return false;
	}
	if (!cl_iso_id_unusable(rec->end_to_end_id)) {
		n = snprintf(rec->natural_key, sizeof(rec->natural_key), "%s|%s|%s", cdtr,
			     rec->mandate_id, rec->end_to_end_id);
		m = snprintf(rec->alt_key, sizeof(rec->alt_key), "dd|%s|%s", cdtr,
			     rec->end_to_end_id);
		if (m < 0 || (size_t)m >= sizeof(rec->alt_key))
			rec->alt_key[0] = '\0';
	} else if (rec->mandate_id[0] && rec->value_date[0]) {
		n = snprintf(rec->natural_key, sizeof(rec->natural_key), "dt|%s|%s|%s", cdtr,
			     rec->mandate_id, rec->value_date);
	} else if (x->positional_keys) {
		n = snprintf(rec->natural_key, sizeof(rec->natural_key), "pos|%s|%s|%lu",
			     rec->msg_id, rec->pmt_inf_id, rec->ordinal);
		rec->key_rule = CL_KEY_RULE_V1_POSITIONAL;
		return n > 0 && (size_t)n < sizeof(rec->natural_key);
	} else {
		snprintf(why, cap, "EndToEndId is %s and no mandate id: the key needs an id of "
			 "this collection (EndToEndId, else MndtId with the collection date; use "
			 "--positional-keys to key such records by MsgId, PmtInfId and "
			 "position)",
			 rec->end_to_end_id[0] ? "NOTPROVIDED" : "empty");
		return false;
	}
	rec->key_rule = CL_KEY_RULE_V1;
	return n > 0 && (size_t)n < sizeof(rec->natural_key);
}

/* A cancellation request (camt.056) or its answer (camt.029): whose
 * (the assigner, the bank that sends it on this hop: each bank of a
 * chain assigns the case on to the next with its own ids) and which:
 *   camt.056 cxl|Assgnr|CxlId, camt.029 sts|Assgnr|CxlStsId (the id the
 *   assigner gives this request or answer, unique for it);
 *   else case|Assgnr|CaseId|original, the case and the payment it
 *   concerns (a case may cover several payments);
 *   else asg|Assgnr|Assgnmt/Id|original (the assignment message's id: a
 *   request assigned again gets another one and is another request);
 * the original being the first of OrgnlUETR, OrgnlTxId, OrgnlEndToEndId,
 * OrgnlInstrId that is usable.  An answer's fallback keys end with its
 * status, so that PDCR (pending) and a later CNCL without ids of their own
 * are two answers, not a conflict.  clearing-load-keys(7), 0043. */
static bool cxl_key(struct cl_record *rec, const struct cl_iso_extra *x, const char *asgnr,
		    char *why, size_t cap)
{
	bool ans = x->kind == CL_ISO_CAMT029;
	const char *orig = rec->orgnl_uetr[0]                           ? rec->orgnl_uetr
			   : !cl_iso_id_unusable(rec->orgnl_tx_id)         ? rec->orgnl_tx_id
			   : !cl_iso_id_unusable(rec->orgnl_end_to_end_id) ? rec->orgnl_end_to_end_id
			   : !cl_iso_id_unusable(rec->orgnl_instr_id)      ? rec->orgnl_instr_id
									   : NULL;
	int n;

	if (!asgnr[0]) {
		snprintf(why, cap, "no assigner agent (TxInf/Assgnr/Agt, Assgnmt/Assgnr/Agt or "
			 "AppHdr/Fr/FIId, by BIC or clearing member id): the key names the bank "
			 "that sent this %s, since the ids it carries are that bank's own",
			 ans ? "answer" : "request");
		return false;
	}
	if (!cl_iso_id_unusable(rec->cancellation_id))
		n = snprintf(rec->natural_key, sizeof(rec->natural_key), "%s|%s|%s",
			     ans ? "sts" : "cxl", asgnr, rec->cancellation_id);
	else if (orig && !cl_iso_id_unusable(rec->case_id))
		n = snprintf(rec->natural_key, sizeof(rec->natural_key), "case|%s|%s|%s%s%s",
			     asgnr, rec->case_id, orig, ans ? "|" : "",
			     ans ? rec->cancellation_status : "");
	else if (orig && !cl_iso_id_unusable(rec->msg_id))
		n = snprintf(rec->natural_key, sizeof(rec->natural_key), "asg|%s|%s|%s%s%s",
			     asgnr, rec->msg_id, orig, ans ? "|" : "",
			     ans ? rec->cancellation_status : "");
	else {
		snprintf(why, cap, "no usable %s, case id or assignment id with an id of the "
			 "payment it concerns (OrgnlUETR, OrgnlTxId, OrgnlEndToEndId or "
			 "OrgnlInstrId): the key needs an id of this %s that stays the same when "
			 "it is sent again",
			 ans ? "CxlStsId" : "CxlId", ans ? "answer" : "request");
		return false;
	}
	rec->key_rule = CL_KEY_RULE_V1;
	return n > 0 && (size_t)n < sizeof(rec->natural_key);
}

/* The payment's identity under the lowest key tier it can be sent with
 * (record.h: alt_key).  A UETR is optional before pacs.008.001.08 and
 * gateways drop it, a TxId is optional in .08 and a return's RtrId often
 * missing, so one payment can arrive under two or three natural keys; the
 * tier every form of it has is:
 *   pacs.008, pacs.009: e2e|InstgAgt|EndToEndId, else txid|InstgAgt|TxId;
 *   pacs.004: ouetr|OrgnlUETR|InstgAgt, else rtrid|InstgAgt|RtrId;
 * a record with both ids keeps the second in alt_key2.
 * The loader holds a record whose alt_key and fingerprint are applied under
 * another natural key (a copy of the same payment), never one whose content
 * differs (another payment that reuses an id).  Too long to fit is left
 * empty. */
static void alt_key(struct cl_record *rec, const struct cl_iso_extra *x, const char *instg)
{
	int n = 0;

	bool p004 = x->kind == CL_ISO_PACS004;
	/* the first identity (every form has it, normally) and the second */
	bool has1 = p004 ? rec->orgnl_uetr[0] != '\0' : !cl_iso_id_unusable(rec->end_to_end_id);
	bool has2 = !cl_iso_id_unusable(p004 ? rec->rtr_id : rec->tx_id);
	const char *id2 = p004 ? rec->rtr_id : rec->tx_id;
	int m = 0;

	rec->alt_key[0] = rec->alt_key2[0] = '\0';
	if (has1 && p004)
		n = snprintf(rec->alt_key, sizeof(rec->alt_key), "ouetr|%s|%s", rec->orgnl_uetr,
			     instg);
	else if (has1)
		n = snprintf(rec->alt_key, sizeof(rec->alt_key), "e2e|%s|%s", instg,
			     rec->end_to_end_id);
	else if (has2)
		n = snprintf(rec->alt_key, sizeof(rec->alt_key), "%s|%s|%s",
			     p004 ? "rtrid" : "txid", instg, id2);
	/* both ids: the second too, so a form without the first (EndToEndId
	   NOTPROVIDED) still meets this one */
	if (has1 && has2)
		m = snprintf(rec->alt_key2, sizeof(rec->alt_key2), "%s|%s|%s",
			     p004 ? "rtrid" : "txid", instg, id2);
	if (n < 0 || (size_t)n >= sizeof(rec->alt_key))
		rec->alt_key[0] = '\0';
	if (m < 0 || (size_t)m >= sizeof(rec->alt_key2) || !rec->alt_key[0])
		rec->alt_key2[0] = '\0';
}

bool cl_iso_make_key(struct cl_record *rec, const struct cl_iso_extra *x, char *why, size_t cap)
{
	bool ok = false;

	rec->natural_key[0] = '\0';
	rec->alt_key[0] = rec->alt_key2[0] = '\0';
	rec->key_rule = CL_KEY_RULE_V1;
	why[0] = '\0';
	switch (x->kind) {
	case CL_ISO_PAIN001:
		ok = pain001_key(rec, x, why, cap);
		break;
	case CL_ISO_PAIN008:
		ok = pain008_key(rec, x, why, cap);
		break;
	case CL_ISO_CAMT056:
	case CL_ISO_CAMT029: {
		char gb[CL_AGENT_MAX];

		ok = cxl_key(rec, x, agent_id(rec->instructing_agent, gb, sizeof(gb)), why, cap);
		break;
	}
	case CL_ISO_PACS008:
	case CL_ISO_PACS009:
	case CL_ISO_PACS003:
	case CL_ISO_PACS004: {
		char gb[CL_AGENT_MAX];
		const char *instg = agent_id(rec->instructing_agent, gb, sizeof(gb));

		if (!rec->instructing_agent[0]) {
			/* never the debtor agent in its place: it sends the first
			 * hop only, and a later leg would take that hop's key */
			snprintf(why, cap, "%s: the key names the bank that sent this hop, since "
				 "the payment's ids (UETR, EndToEndId%s) stay the same on every "
				 "hop and only the sender tells one leg from the next",
				 CL_ISO_NO_INSTG, x->kind == CL_ISO_PACS004 ? ", OrgnlUETR" : "");
			break;
		}
		alt_key(rec, x, instg);
		/* the hop is the instructing agent: each leg of a payment has
		   its own sender, and the instructed agent may come only in the
		   AppHdr or not at all (with it in the key, the same payment
		   with and without it fell to another tier, applied twice); it
		   stays in the fingerprint */
		if (rec->uetr[0]) {
			ok = put(rec, "uetr", rec->uetr, instg, NULL);
		} else if (x->kind == CL_ISO_PACS004) {
			/* a return without its own UETR or RtrId (the CBPR+ minimal
			 * pacs.004) is keyed by the UETR it returns, on this hop */
			if (!cl_iso_id_unusable(rec->rtr_id))
				ok = put(rec, "rtrid", instg, rec->rtr_id, NULL);
			else if (rec->orgnl_uetr[0])
				ok = put(rec, "ouetr", rec->orgnl_uetr, instg, NULL);
			else
				snprintf(why, cap, "no UETR, no RtrId and no OrgnlUETR: the key "
					 "needs an id of this return that stays the same when "
					 "it is sent again");
		} else if (!cl_iso_id_unusable(rec->tx_id)) {
			ok = put(rec, "txid", instg, rec->tx_id, NULL);
		} else if (!cl_iso_id_unusable(rec->end_to_end_id)) {
			ok = put(rec, "e2e", instg, rec->end_to_end_id, NULL);
		} else {
			snprintf(why, cap, "no UETR, no TxId and no usable EndToEndId (empty or "
				 "NOTPROVIDED): the key needs an id of this payment that stays "
				 "the same when it is sent again");
		}
		break;
	}
	case CL_ISO_NONE:
		break;
	}
	if (!ok) {
		rec->natural_key[0] = '\0';
		rec->alt_key[0] = rec->alt_key2[0] = '\0';
		if (!why[0])
			snprintf(why, cap, "natural key longer than %d bytes", CL_KEY_MAX - 1);
	}
	return ok;
}

/* What the second fingerprint (alt_fp) leaves out: a pacs record's
 * instructed agent, a collection's mandate. */
enum fp_form { FP_WHOLE, FP_NO_INSTD, FP_NO_MANDATE };

static void fingerprint(struct cl_fp *fp, const struct cl_record *rec,
			const struct cl_iso_extra *x, enum fp_form form, unsigned char out[32])
{
	bool dd = x->kind == CL_ISO_PAIN008 || x->kind == CL_ISO_PACS003;
	bool pain = x->kind == CL_ISO_PAIN001 || x->kind == CL_ISO_PAIN008;

	char buf[CL_AGENT_MAX];

	/* each value under its field's name (record_fields.def; fixed for
	 * key rule v1: tests/rules/csv.test holds fingerprints of each kind) */
	cl_fp_begin(fp);
	/* the message family, never its version: the same payment re-sent as
	 * pain.001.001.03 and .09 is the same payment */
	cl_fp_str(fp, CL_FIELD_NAME(kind), rec->kind);
	/* (none for a cancellation: it moves no money itself) */
	cl_fp_str(fp, CL_FIELD_NAME(direction),
		  rec->direction == CL_DIR_NONE ? "" : cl_direction_name(rec->direction));
	cl_fp_int(fp, CL_FIELD_NAME(amount_minor), rec->amount_minor);
	cl_fp_str(fp, CL_FIELD_NAME(currency), rec->currency);
	cl_fp_str(fp, CL_FIELD_NAME(value_date), rec->value_date);
	cl_fp_str(fp, CL_FIELD_NAME(debtor_account), rec->debtor_account);
	cl_fp_str(fp, CL_FIELD_NAME(debtor_agent), agent_id(rec->debtor_agent, buf, sizeof(buf)));
	cl_fp_str(fp, CL_FIELD_NAME(creditor_account), rec->creditor_account);
	cl_fp_str(fp, CL_FIELD_NAME(creditor_agent), agent_id(rec->creditor_agent, buf, sizeof(buf)));
	if (x->ccy_of_trf[0]) /* only for EqvtAmt: InstdAmt fingerprints stay as they were */
		cl_fp_str(fp, "equivalent_amount_ccy_of_trf", x->ccy_of_trf);
	if (!pain) {
		cl_fp_str(fp, CL_FIELD_NAME(instructing_agent), agent_id(rec->instructing_agent, buf, sizeof(buf)));
		if (form != FP_NO_INSTD)
			cl_fp_str(fp, CL_FIELD_NAME(instructed_agent),
				  agent_id(rec->instructed_agent, buf, sizeof(buf)));
	}
	if (x->kind == CL_ISO_PACS009) {
		cl_fp_str(fp, "debtor_fi", agent_id(x->debtor_fi, buf, sizeof(buf)));
		cl_fp_str(fp, "creditor_fi", agent_id(x->creditor_fi, buf, sizeof(buf)));
	}
	if (x->kind == CL_ISO_CAMT056 || x->kind == CL_ISO_CAMT029) {
		/* what is asked or answered of which payment, in which case
		   (not the request's own id: it is the key) */
		cl_fp_str(fp, CL_FIELD_NAME(orgnl_instr_id), rec->orgnl_instr_id);
		cl_fp_str(fp, CL_FIELD_NAME(case_id), rec->case_id);
		cl_fp_str(fp, CL_FIELD_NAME(cancellation_status), rec->cancellation_status);
	}
	if (x->kind == CL_ISO_PACS004 || x->kind == CL_ISO_CAMT056 || x->kind == CL_ISO_CAMT029) {
		cl_fp_str(fp, CL_FIELD_NAME(reason_code), rec->reason_code);
		cl_fp_str(fp, CL_FIELD_NAME(orgnl_uetr), rec->orgnl_uetr);
		cl_fp_str(fp, CL_FIELD_NAME(orgnl_end_to_end_id), rec->orgnl_end_to_end_id);
		cl_fp_str(fp, CL_FIELD_NAME(orgnl_tx_id), rec->orgnl_tx_id);
		cl_fp_str(fp, CL_FIELD_NAME(orgnl_msg_id), rec->orgnl_msg_id);
	}
	if (dd) {
		/* what the debtor's bank debits on: whose claim, under which
		   mandate, which collection of it */
		cl_fp_str(fp, CL_FIELD_NAME(creditor_scheme_id), rec->creditor_scheme_id);
		if (form != FP_NO_MANDATE)
			cl_fp_str(fp, CL_FIELD_NAME(mandate_id), rec->mandate_id);
		cl_fp_str(fp, CL_FIELD_NAME(sequence_type), rec->sequence_type);
	}
	cl_fp_end(fp, out);
}

/* A pacs record with an alternate key has a second fingerprint: the same
 * without the instructed agent, so a form that lacks it still meets this
 * one; a collection's without its mandate, so one re-sent under a
 * corrected mandate reference meets it. */
static bool alt_fingerprint(struct cl_fp *fp, struct cl_record *rec, const struct cl_iso_extra *x)
{
	rec->has_alt_fp = x->kind != CL_ISO_PAIN001 && rec->alt_key[0];
	if (rec->has_alt_fp)
		fingerprint(fp, rec, x,
			    x->kind == CL_ISO_PAIN008 ? FP_NO_MANDATE : FP_NO_INSTD,
			    rec->alt_fp);
	return rec->has_alt_fp;
}

void cl_iso_fingerprint(struct cl_fp *fp, struct cl_record *rec, const struct cl_iso_extra *x)
{
	fingerprint(fp, rec, x, FP_WHOLE, rec->fingerprint);
	(void)alt_fingerprint(fp, rec, x);
}

void cl_iso_fingerprint_of_alt_key(struct cl_fp *fp, struct cl_record *rec,
				   const struct cl_iso_extra *x)
{
	if (!alt_fingerprint(fp, rec, x) && rec->alt_key[0])
		fingerprint(fp, rec, x, FP_WHOLE, rec->fingerprint);
}
