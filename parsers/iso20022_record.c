/* iso20022_record.c - one ISO 20022 transaction becomes a struct cl_record:
 * values taken from the collected fields, every per-value rule checked
 * (amounts, currencies, IBAN, BIC, UUID, dates, required elements), the
 * group header and PmtInf totals compared, the key and fingerprint made. */
#include "parsers/iso20022_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "rules/fingerprint.h"

/* The element of one transaction of a kind. */
static const char *tx_element(enum cl_iso_kind kind)
{
	switch (kind) {
	case CL_ISO_PACS004:
		return "TxInf";
	case CL_ISO_PAIN008:
	case CL_ISO_PACS003:
		return "DrctDbtTxInf";
	case CL_ISO_CAMT056:
		return "TxInf";
	case CL_ISO_CAMT029:
		return "TxInfAndSts";
	default:
		return "CdtTrfTxInf";
	}
}

/* The path of a field for messages: its scope's path plus the element
 * path below it, as matched. */
static bool cxl_kind(enum cl_iso_kind kind)
{
	return kind == CL_ISO_CAMT056 || kind == CL_ISO_CAMT029;
}

static void scope_path(const struct cl_iso20022 *p, enum cl_iso_field f, char *out, size_t cap)
{
	bool cxl = cxl_kind(p->kind);
	/* the underlying group of a cancellation: Undrlyg, CxlDtls */
	const char *grp = p->kind == CL_ISO_CAMT056 ? "Undrlyg" : "CxlDtls";

	if (f >= F_HDR_FR_BIC)
		snprintf(out, cap, "/AppHdr");
	else if (f == F_GRP_ORGNL_MSG_ID || f == F_GRP_CASE_ID || f == F_GRP_CONF ||
		 (cxl && f == F_GRP_NB_OF_TXS))
		snprintf(out, cap, "%s", p->root_path); /* right under the root */
	else if (cxl && f < F_PMT_INF_ID)
		snprintf(out, cap, "%s/Assgnmt", p->root_path);
	else if (cxl && f < F_INSTR_ID)
		snprintf(out, cap, "%s/%s[%lu]", p->root_path, grp, p->pmt_index);
	else if (cxl)
		snprintf(out, cap, "%s/%s[%lu]/%s[%lu]", p->root_path, grp, p->pmt_index,
			 tx_element(p->kind), p->tx_index);
	else if (f < F_PMT_INF_ID)
		snprintf(out, cap, "%s/GrpHdr", p->root_path);
	else if (f < F_INSTR_ID)
		snprintf(out, cap, "%s/PmtInf[%lu]", p->root_path, p->pmt_index);
	else if (p->kind == CL_ISO_PAIN001 || p->kind == CL_ISO_PAIN008)
		snprintf(out, cap, "%s/PmtInf[%lu]/%s[%lu]", p->root_path, p->pmt_index,
			 tx_element(p->kind), p->tx_index);
	else
		snprintf(out, cap, "%s/%s[%lu]", p->root_path, tx_element(p->kind), p->tx_index);
}

/* Path of field f (as seen) or of `rel` under its scope (when missing). */
static const char *field_path(const struct cl_iso20022 *p, enum cl_iso_field f, const char *rel,
			      char *out, size_t cap)
{
	size_t n;

	char below[CL_PATH_MAX];

	scope_path(p, f, out, cap);
	n = strlen(out);
	if (!rel && p->seen[f]) {
		cl_iso_node_path(p->paths, p->node_of[f], below, sizeof(below));
		rel = below;
	}
	if (rel && rel[0])
		snprintf(out + n, cap - n, "/%s", rel);
	return out;
}

void cl_iso_current_path(const struct cl_iso20022 *p, char *out, size_t cap)
{
	char below[CL_PATH_MAX];
	size_t n;

	out[0] = '\0';
	if (p->cur_field == F_NONE || p->cur_node < 0)
		return;
	scope_path(p, p->cur_field, out, cap);
	n = strlen(out);
	cl_iso_node_path(p->paths, p->cur_node, below, sizeof(below));
	if (below[0])
		snprintf(out + n, cap - n, "/%s", below);
}

static unsigned long field_line(const struct cl_iso20022 *p, enum cl_iso_field f,
				unsigned long fallback)
{
	return p->seen[f] ? p->line_of[f] : fallback;
}

/* Report a problem with field f once per scope: a bad debtor IBAN of a
 * PmtInf, or a bad AppHdr BIC, is one error, not one per transaction. */
static void report(struct cl_iso20022 *p, enum cl_iso_field f, unsigned long line,
		   const char *rel, const char *code, const char *fmt, ...) CL_PRINTF(6, 7);

static void report(struct cl_iso20022 *p, enum cl_iso_field f, unsigned long line,
		   const char *rel, const char *code, const char *fmt, ...)
{
	char path[CL_PATH_MAX], msg[CL_MSGTEXT_MAX];
	va_list ap;

	if (p->reported[f])
		return;
	p->reported[f] = true;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cl_outq_add(&p->q, line, field_path(p, f, rel, path, sizeof(path)), code, "%s", msg);
}

/* ----------------------------------------------------- value helpers */

/* Copy a collected value into a record field; a value that does not fit
 * is a data error naming the limit. */
static void take(struct cl_iso20022 *p, enum cl_iso_field f, char *dst, size_t cap,
		 const char *what)
{
	if (!p->seen[f])
		return;
	if (p->too_long[f] || cl_copy(dst, cap, p->val[f]) != 0) {
		report(p, f, p->line_of[f], NULL,
		       "field_too_long", "%s longer than %zu characters", what, cap - 1);
		dst[0] = '\0';
	}
}

/* An agent: the BIC when given (checked), else the clearing member id. */
static void take_agent(struct cl_iso20022 *p, enum cl_iso_field bic, enum cl_iso_field mmb,
		       char *dst, const char *what)
{
	dst[0] = '\0';
	if (p->seen[bic] && (p->val[bic][0] || !p->seen[mmb])) {
		take(p, bic, dst, CL_AGENT_MAX, what);
		if (!p->too_long[bic] && !cl_iso_bic_shape(dst))
			report(p, bic, p->line_of[bic], NULL,
			       "bic_invalid",
			       "%s BIC \"%s\" is not a BIC: expected 8 or 11 characters "
			       "(4 alphanumeric, 2 letters country, 2 alphanumeric, "
			       "optional 3 alphanumeric branch)",
			       what, dst);
	} else if (p->seen[mmb]) {
		take(p, mmb, dst, CL_AGENT_MAX, what);
	}
}

/* An account: the IBAN when given (shape and check digits), else Othr/Id. */
static void take_account(struct cl_iso20022 *p, enum cl_iso_field iban, enum cl_iso_field othr,
			 char *dst, const char *what)
{
	char mbuf[CL_ACCOUNT_MAX];

	dst[0] = '\0';
	if (p->seen[iban]) {
		take(p, iban, dst, CL_ACCOUNT_MAX, what);
		if (!cl_iso_iban_shape(dst))
			report(p, iban, p->line_of[iban], NULL,
			       "iban_invalid",
			       "%s IBAN \"%s\" is malformed: expected 2 letters, 2 check "
			       "digits and 11 to 30 letters or digits",
			       what, cl_iso_mask_account(dst, strlen(dst), mbuf, sizeof(mbuf)));
		else if (!cl_iso_iban_check(dst))
			report(p, iban, p->line_of[iban], NULL,
			       "iban_check",
			       "%s IBAN \"%s\" fails the check digits (ISO 13616 mod 97)", what,
			       cl_iso_mask_account(dst, strlen(dst), mbuf, sizeof(mbuf)));
	} else if (p->seen[othr]) {
		take(p, othr, dst, CL_ACCOUNT_MAX, what);
	}
}

static void take_date(struct cl_iso20022 *p, enum cl_iso_field f, char *dst, const char *what)
{
	if (!p->seen[f])
		return;
	if (!cl_iso_date(p->val[f])) {
		report(p, f, p->line_of[f], NULL,
		       "date_invalid", "%s \"%.40s\" is not a valid date: expected YYYY-MM-DD",
		       what, p->val[f]);
		return;
	}
	memcpy(dst, p->val[f], 10);
	dst[10] = '\0';
}

/* ReqdExctnDt/DtTm (pain.001.001.09 on): an ISODateTime whose date part,
 * as written in the given offset, is the value date. */
static void take_datetime_date(struct cl_iso20022 *p, enum cl_iso_field f, char *dst,
			       const char *what)
{
	if (!p->seen[f])
		return;
	if (!cl_iso_datetime(p->val[f])) {
		report(p, f, p->line_of[f], NULL,
		       "datetime_invalid",
		       "%s \"%.40s\" is not a valid date and time: expected "
		       "YYYY-MM-DDThh:mm:ss with an optional fraction and offset",
		       what, p->val[f]);
		return;
	}
	memcpy(dst, p->val[f], 10);
	dst[10] = '\0';
}

static void take_uuid(struct cl_iso20022 *p, enum cl_iso_field f, char dst[37], const char *what)
{
	if (!p->seen[f])
		return;
	if (!cl_iso_uuid4(p->val[f], dst)) {
		dst[0] = '\0';
		report(p, f, p->line_of[f], NULL,
		       "uetr_invalid",
		       "%s \"%.60s\" is not a version 4 UUID: expected "
		       "xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx",
		       what, p->val[f]);
	}
}

static void require(struct cl_iso20022 *p, enum cl_iso_field f, const char *rel,
		    unsigned long line)
{
	if (p->seen[f])
		return;
	report(p, f, line, rel, "missing_element", "required element %s is missing", rel);
}

/* ------------------------------------------------- scope end checks */

/* Give two formatted decimals ("510.24", "123") the same number of
 * fraction digits ("123.00"), so a message compares like with like.  Both buffers hold at least 48 bytes. */
static void same_decimals(char *a, char *b, size_t cap)
{
	const char *da = strchr(a, '.'), *db = strchr(b, '.');
	size_t fa = da ? strlen(da + 1) : 0, fb = db ? strlen(db + 1) : 0;
	char *shorter = fa < fb ? a : b;
	size_t want = fa < fb ? fb : fa, have = fa < fb ? fa : fb, n = strlen(shorter);

	if (want == have || strchr(shorter, '(') || n + want - have + 2 > cap)
		return; /* equal already, or "(overflow)" */
	if (!have)
		shorter[n++] = '.';
	while (have++ < want)
		shorter[n++] = '0';
	shorter[n] = '\0';
}

/* NbOfTxs (Max15NumericText) and CtrlSum against what was counted. */
static void check_totals(struct cl_iso20022 *p, enum cl_iso_field nb, enum cl_iso_field ctrl,
			 unsigned long count, const struct cl_iso_dec *sum, bool sum_unknown,
			 const char *scope)
{
	if (p->seen[nb]) {
		const char *s = p->val[nb];
		unsigned long long v = 0;
		size_t n = strlen(s);
		bool ok = n > 0 && n <= 15;

		for (size_t i = 0; ok && i < n; i++) {
			if (s[i] < '0' || s[i] > '9')
				ok = false;
			else
				v = v * 10 + (unsigned)(s[i] - '0');
		}
		if (!ok)
			report(p, nb, p->line_of[nb], NULL,
			       "nb_of_txs",
			       "%s NbOfTxs \"%.40s\" is not a number: expected 1 to 15 digits",
			       scope, s);
		else if (v != count)
			report(p, nb, p->line_of[nb], NULL,
			       "nb_of_txs",
			       "%s NbOfTxs says %llu transaction%s, the message has %lu", scope,
			       v, v == 1 ? "" : "s", count);
	}
	if (p->seen[ctrl] && !sum_unknown) {
		struct cl_iso_dec want;
		char a[48], b[48];

		if (cl_iso_dec_parse(p->val[ctrl], &want) != 0) {
			report(p, ctrl, p->line_of[ctrl], NULL,
			       "ctrl_sum",
			       "%s CtrlSum \"%.40s\" is not a decimal number: expected up to 18 "
			       "digits, 17 after the point",
			       scope, p->val[ctrl]);
		} else if (!cl_iso_dec_equal(&want, sum)) {
			cl_iso_dec_format(&want, a, sizeof(a));
			cl_iso_dec_format(sum, b, sizeof(b));
			same_decimals(a, b, sizeof(a));
			report(p, ctrl, p->line_of[ctrl], NULL,
			       "ctrl_sum",
			       "%s CtrlSum says %s, the transaction amounts add up to %s", scope,
			       a, b);
		}
	}
}

/* File information fields are descriptive: cut to fit, never an error. */
static void info_copy(char *dst, size_t cap, const char *src)
{
	size_t n = strnlen(src, cap - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void copy_info_agent(char *dst, size_t cap, const char *bic, const char *mmb)
{
	info_copy(dst, cap, bic[0] ? bic : mmb);
}

void cl_iso_grphdr_end(struct cl_iso20022 *p)
{
	char path[CL_PATH_MAX];

	bool cxl = cxl_kind(p->kind);

	/* a cancellation's assignment: its Id and CreDtTm (the count is in
	   the optional CtrlData) */
	require(p, F_MSG_ID, cxl ? "Id" : "MsgId", p->grp_line);
	require(p, F_CRE_DT_TM, "CreDtTm", p->grp_line);
	if (!cxl)
		require(p, F_GRP_NB_OF_TXS, "NbOfTxs", p->grp_line);
	if (p->seen[F_MSG_ID] && cl_iso_id_unusable(p->val[F_MSG_ID]))
		report(p, F_MSG_ID, p->line_of[F_MSG_ID], NULL,
		       "missing_element", "%s is empty", cxl ? "Id" : "MsgId");
	if (p->seen[F_CRE_DT_TM] && !cl_iso_datetime(p->val[F_CRE_DT_TM]))
		cl_outq_add(&p->q, p->line_of[F_CRE_DT_TM],
				 field_path(p, F_CRE_DT_TM, NULL, path, sizeof(path)), "datetime_invalid",
				 "CreDtTm \"%.40s\" is not a valid date and time: expected "
				 "YYYY-MM-DDThh:mm:ss with an optional fraction and zone",
				 p->val[F_CRE_DT_TM]);
	info_copy(p->info.file_id, sizeof(p->info.file_id), p->val[F_MSG_ID]);
	info_copy(p->info.created, sizeof(p->info.created), p->val[F_CRE_DT_TM]);
	if (p->kind == CL_ISO_PAIN001 || p->kind == CL_ISO_PAIN008)
		/* the initiating party's id only, never its name: it can be a
		 * private person, and names are stored nowhere */
		info_copy(p->info.sender, sizeof(p->info.sender), p->val[F_INITG_ID]);
	else
		copy_info_agent(p->info.sender, sizeof(p->info.sender), p->val[F_GRP_INSTG_BIC],
				p->val[F_GRP_INSTG_MMB]);
	copy_info_agent(p->info.receiver, sizeof(p->info.receiver), p->val[F_GRP_INSTD_BIC],
			p->val[F_GRP_INSTD_MMB]);
	if (!p->info.sender[0])
		copy_info_agent(p->info.sender, sizeof(p->info.sender), p->val[F_HDR_FR_BIC],
				p->val[F_HDR_FR_MMB]);
	if (!p->info.receiver[0])
		copy_info_agent(p->info.receiver, sizeof(p->info.receiver), p->val[F_HDR_TO_BIC],
				p->val[F_HDR_TO_MMB]);
}

void cl_iso_pmtinf_end(struct cl_iso20022 *p)
{
	char scope[48];

	/* a cancellation's underlying group names no PmtInfId, and one of
	   only OrgnlGrpInfAndCxl (a whole group) is said at the root's end */
	if (cxl_kind(p->kind))
		return;
	/* optional in pain.008.001.01 alone */
	if (strcmp(p->msg_type, "pain.008.001.01") != 0)
		require(p, F_PMT_INF_ID, "PmtInfId", p->pmt_line);
	if (p->pmt_count == 0) {
		char path[CL_PATH_MAX];

		snprintf(path, sizeof(path), "%s/PmtInf[%lu]", p->root_path, p->pmt_index);
		cl_outq_add(&p->q, p->pmt_line, path, "no_transaction",
				 "PmtInf %lu has no transaction: expected at least one "
				 "<%s> in it (a payment information block holds 1 to n)",
				 p->pmt_index, tx_element(p->kind));
	}
	snprintf(scope, sizeof(scope), "PmtInf %lu", p->pmt_index);
	check_totals(p, F_PMT_NB_OF_TXS, F_PMT_CTRL_SUM, p->pmt_count, &p->pmt_sum,
		     p->pmt_sum_unknown, scope);
}

/* The message's own structure (the XSD's multiplicities): a group header,
 * and at least one transaction.  A message without any is no "file of no
 * payments": it was cut short or made wrongly, and taking it as done would
 * lose what it should have carried. */
void cl_iso_root_end(struct cl_iso20022 *p)
{
	const char *root = strrchr(p->root_path, '/') + 1;

	if (!p->grp_seen && !p->grp_order_said && cxl_kind(p->kind))
		cl_outq_add(&p->q, p->msg_line, p->root_path, "missing_element",
				 "required element Assgnmt is missing: expected <Assgnmt> (the "
				 "assignment, once) as the first element of <%s>",
				 root);
	else if (!p->grp_seen && !p->grp_order_said)
		cl_outq_add(&p->q, p->msg_line, p->root_path, "missing_element",
				 "required element GrpHdr is missing: expected <GrpHdr> (the group "
				 "header, once) as the first element of <%s>",
				 root);
	if ((p->kind == CL_ISO_PAIN001 || p->kind == CL_ISO_PAIN008) && p->pmt_index == 0)
		cl_outq_add(&p->q, p->msg_line, p->root_path, "no_transaction",
				 "%s has no transaction: expected at least one <PmtInf> with at "
				 "least one <%s>; an empty message is not a file of no "
				 "payments",
				 p->msg_type, tx_element(p->kind));
	else if (p->kind == CL_ISO_CAMT056 && p->grp_count == 0)
		cl_outq_add(&p->q, p->msg_line, p->root_path, "no_transaction",
				 "%s has no transaction: expected at least one <Undrlyg/TxInf>; a "
				 "cancellation of a whole group (OrgnlGrpInfAndCxl without TxInf) is "
				 "not read, since each payment it would cancel is linked on its own",
				 p->msg_type);
	else if (p->kind == CL_ISO_CAMT029 && p->grp_count == 0)
		cl_outq_add(&p->q, p->msg_line, p->root_path, "no_transaction",
				 "%s has no transaction: expected at least one "
				 "<CxlDtls/TxInfAndSts>; an answer to a case as a whole (Sts "
				 "without the transactions) is not read, since each answer is "
				 "linked to the payment it concerns",
				 p->msg_type);
	else if (p->kind == CL_ISO_PACS004 && p->grp_count == 0)
		cl_outq_add(&p->q, p->msg_line, p->root_path, "no_transaction",
				 "%s has no transaction: expected at least one <TxInf>; a return "
				 "of a whole group (GrpHdr/GrpRtr without TxInf) is not read, since "
				 "each returned transaction is keyed on its own",
				 p->msg_type);
	else if (p->kind != CL_ISO_PAIN001 && p->kind != CL_ISO_PAIN008 && p->grp_count == 0)
		cl_outq_add(&p->q, p->msg_line, p->root_path, "no_transaction",
				 "%s has no transaction: expected at least one <%s>; an "
				 "empty message is not a file of no payments",
				 p->msg_type, tx_element(p->kind));
	check_totals(p, F_GRP_NB_OF_TXS, F_GRP_CTRL_SUM, p->grp_count, &p->grp_sum,
		     p->grp_sum_unknown, "group header");
}

/* ------------------------------------------------------ transactions */

static void tx_amount(struct cl_iso20022 *p, struct cl_record *rec, bool *ok)
{
	static const char *const names[] = {
		[CL_ISO_PAIN001] = "Amt/InstdAmt",
		[CL_ISO_PACS008] = "IntrBkSttlmAmt",
		[CL_ISO_PACS009] = "IntrBkSttlmAmt",
		[CL_ISO_PACS004] = "RtrdIntrBkSttlmAmt",
		[CL_ISO_PAIN008] = "InstdAmt",
		[CL_ISO_PACS003] = "IntrBkSttlmAmt",
		[CL_ISO_CAMT056] = "OrgnlIntrBkSttlmAmt",
		[CL_ISO_CAMT029] = "OrgnlIntrBkSttlmAmt",
	};
	int exp;
	unsigned long line = field_line(p, F_AMT, p->tx_line);

	*ok = false;
	if (!p->seen[F_AMT]) {
		require(p, F_AMT, names[p->kind], p->tx_line);
		return;
	}
	if (!cl_iso_ccy_shape(p->amt_ccy)) {
		report(p, F_AMT, line, NULL, "currency_invalid",
		       "currency \"%.10s\" is not an ISO 4217 code: expected three uppercase "
		       "letters in the Ccy attribute",
		       p->amt_ccy);
		return;
	}
	memcpy(rec->currency, p->amt_ccy, 4);
	exp = cl_iso_ccy_exponent(p->amt_ccy);
	if (exp == -1) {
		report(p, F_AMT, line, NULL, "currency_unknown",
		       "currency \"%s\" is not an ISO 4217 currency", p->amt_ccy);
		return;
	}
	if (exp == -2) {
		report(p, F_AMT, line, NULL, "currency_unknown",
		       "currency \"%s\" has no minor unit (a commodity or special code): "
		       "expected a currency",
		       p->amt_ccy);
		return;
	}
	switch (cl_iso_amount_parse(p->val[F_AMT], exp, &rec->amount_minor)) {
	case CL_ISO_AMT_OK:
		*ok = true;
		cl_iso_dec_add_minor(&p->grp_sum, rec->amount_minor, exp);
		cl_iso_dec_add_minor(&p->pmt_sum, rec->amount_minor, exp);
		return;
	case CL_ISO_AMT_SYNTAX:
		report(p, F_AMT, line, NULL, "amount_invalid",
		       "amount \"%.40s\" is not a decimal number: expected digits with an "
		       "optional point, no sign",
		       p->val[F_AMT]);
		break;
	case CL_ISO_AMT_DECIMALS:
		report(p, F_AMT, line, NULL, "amount_decimals",
		       "amount \"%.40s\" has more decimals than %s allows (%d)", p->val[F_AMT],
		       rec->currency, exp);
		break;
	case CL_ISO_AMT_OVERFLOW:
		report(p, F_AMT, line, NULL, "amount_overflow",
		       "amount \"%.40s\" %s is too large: at most %lld minor units",
		       p->val[F_AMT], rec->currency, (long long)INT64_MAX);
		break;
	}
}

/* SeqTp: SequenceType1Code (.01, .02) and SequenceType3Code (RPRE, a
 * re-presented collection, from .03). */
static bool seq_type_code(const char *s)
{
	static const char *const codes[] = {"FRST", "RCUR", "FNAL", "OOFF", "RPRE"};

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (strcmp(s, codes[i]) == 0)
			return true;
	return false;
}

/* A direct debit's mandate, creditor identifier and sequence type: the
 * transaction's own, else its PmtInf's (pain.008), else the group
 * header's (pacs.003 .01, .02). */
static void dd_fields(struct cl_iso20022 *p, struct cl_record *rec)
{
	enum cl_iso_field seq = p->seen[F_TX_SEQ_TP] ? F_TX_SEQ_TP
				: p->seen[F_PMT_SEQ_TP] ? F_PMT_SEQ_TP : F_GRP_SEQ_TP;

	take(p, F_MNDT_ID, rec->mandate_id, sizeof(rec->mandate_id), "MndtId");
	take_date(p, F_MNDT_DT, rec->mandate_date, "DtOfSgntr");
	if (p->seen[F_TX_CDTR_SCHME_ID])
		take(p, F_TX_CDTR_SCHME_ID, rec->creditor_scheme_id,
		     sizeof(rec->creditor_scheme_id), "creditor scheme id");
	else
		take(p, F_PMT_CDTR_SCHME_ID, rec->creditor_scheme_id,
		     sizeof(rec->creditor_scheme_id), "creditor scheme id");
	if (!p->seen[seq])
		return;
	if (!seq_type_code(p->val[seq])) {
		report(p, seq, p->line_of[seq], NULL, "sequence_type",
		       "SeqTp \"%.10s\" is not a sequence type: expected FRST, RCUR, FNAL, OOFF "
		       "or RPRE",
		       p->val[seq]);
		return;
	}
	memcpy(rec->sequence_type, p->val[seq], 5);
}

/* A cancellation request's or answer's own ids, the case, the payment
 * it concerns (at least one of its ids), the reason and, for an answer,
 * the status: the transaction's, else the message's (TxCxlSts, else
 * Sts/Conf). */
static void cxl_fields(struct cl_iso20022 *p, struct cl_record *rec)
{
	enum cl_iso_field cs = p->seen[F_CASE_ID] ? F_CASE_ID
			       : p->seen[F_PMT_CASE_ID] ? F_PMT_CASE_ID : F_GRP_CASE_ID;
	enum cl_iso_field st = p->seen[F_CXL_STS] ? F_CXL_STS : F_GRP_CONF;

	take(p, F_CXL_ID, rec->cancellation_id, CL_ID_MAX,
	     p->kind == CL_ISO_CAMT056 ? "CxlId" : "CxlStsId");
	take(p, cs, rec->case_id, CL_ID_MAX, "case id");
	take_uuid(p, F_ORGNL_UETR, rec->orgnl_uetr, "OrgnlUETR");
	take(p, F_ORGNL_E2E_ID, rec->orgnl_end_to_end_id, CL_ID_MAX, "OrgnlEndToEndId");
	take(p, F_ORGNL_TX_ID, rec->orgnl_tx_id, CL_ID_MAX, "OrgnlTxId");
	take(p, F_ORGNL_INSTR_ID, rec->orgnl_instr_id, CL_ID_MAX, "OrgnlInstrId");
	take(p, p->seen[F_ORGNL_MSG_ID] ? F_ORGNL_MSG_ID : F_PMT_ORGNL_MSG_ID, rec->orgnl_msg_id,
	     CL_ID_MAX, "OrgnlMsgId");
	take(p, p->seen[F_RSN_CD] ? F_RSN_CD : F_RSN_PRTRY, rec->reason_code,
	     sizeof(rec->reason_code), "cancellation reason");
	if (p->kind == CL_ISO_CAMT029)
		take(p, st, rec->cancellation_status, sizeof(rec->cancellation_status),
		     st == F_CXL_STS ? "TxCxlSts" : "Sts/Conf");
	if (!p->seen[F_ORGNL_UETR] && !p->seen[F_ORGNL_E2E_ID] && !p->seen[F_ORGNL_TX_ID] &&
	    !p->seen[F_ORGNL_INSTR_ID])
		report(p, F_ORGNL_UETR, p->tx_line, "OrgnlUETR", "missing_element",
		       "the payment it concerns is not named: expected OrgnlUETR, "
		       "OrgnlEndToEndId, OrgnlTxId or OrgnlInstrId in <%s>",
		       tx_element(p->kind));
}

void cl_iso_tx_end(struct cl_iso20022 *p)
{
	struct cl_record *rec = cl_iso_record_slot(p);
	struct cl_iso_extra *x = &p->extra;
	bool pain = p->kind == CL_ISO_PAIN001, amount_ok;
	bool dd_pain = p->kind == CL_ISO_PAIN008;
	bool dd = dd_pain || p->kind == CL_ISO_PACS003;
	bool cxl = cxl_kind(p->kind);
	char why[CL_MSGTEXT_MAX], path[CL_PATH_MAX];
	bool hdr_other;

	cl_record_clear(rec);
	rec->scheme = "iso20022";
	rec->kind = cl_iso_kind_name(p->kind);
	rec->key_rule = CL_KEY_RULE_V1;
	rec->position = p->tx_line;
	rec->ordinal = p->ordinal;
	/* a direct debit moves money from the debtor to the creditor as a
	   credit transfer does, on the creditor's initiative: a debit */
	rec->direction = dd ? CL_DIR_DEBIT : CL_DIR_CREDIT;
	/* a cancellation request and its answer move no money themselves */
	if (cxl)
		rec->direction = CL_DIR_NONE;
	memcpy(rec->message_type, p->msg_type, sizeof(rec->message_type));
	memset(x, 0, sizeof(*x));
	x->kind = p->kind;
	x->positional_keys = p->opts.positional_keys;

	/* identifiers */
	take(p, F_MSG_ID, rec->msg_id, CL_ID_MAX, "MsgId");
	take(p, F_INSTR_ID, rec->instr_id, CL_ID_MAX, "InstrId");
	take(p, F_E2E_ID, rec->end_to_end_id, CL_ID_MAX, "EndToEndId");
	take(p, F_TX_ID, rec->tx_id, CL_ID_MAX, "TxId");
	take_uuid(p, F_UETR, rec->uetr, "UETR");
	take(p, F_INITG_ID, rec->initiating_party_id, CL_ID_MAX, "initiating party id");
	if (pain || dd_pain) {
		take(p, F_PMT_INF_ID, rec->pmt_inf_id, CL_ID_MAX, "PmtInfId");
		require(p, F_E2E_ID, "PmtId/EndToEndId", p->tx_line);
	} else if (cxl) {
		cxl_fields(p, rec);
	} else if (p->kind != CL_ISO_PACS004) {
		require(p, F_E2E_ID, "PmtId/EndToEndId", p->tx_line);
	} else {
		take(p, F_RTR_ID, rec->rtr_id, CL_ID_MAX, "RtrId");
		take_uuid(p, F_ORGNL_UETR, rec->orgnl_uetr, "OrgnlUETR");
		take(p, F_ORGNL_E2E_ID, rec->orgnl_end_to_end_id, CL_ID_MAX, "OrgnlEndToEndId");
		take(p, F_ORGNL_TX_ID, rec->orgnl_tx_id, CL_ID_MAX, "OrgnlTxId");
		if (p->seen[F_ORGNL_MSG_ID])
			take(p, F_ORGNL_MSG_ID, rec->orgnl_msg_id, CL_ID_MAX, "OrgnlMsgId");
		else
			take(p, F_GRP_ORGNL_MSG_ID, rec->orgnl_msg_id, CL_ID_MAX, "OrgnlMsgId");
		if (p->seen[F_RSN_CD])
			take(p, F_RSN_CD, rec->reason_code, sizeof(rec->reason_code),
			     "return reason code");
		else
			take(p, F_RSN_PRTRY, rec->reason_code, sizeof(rec->reason_code),
			     "proprietary return reason");
	}

	/* money and date (a cancellation's amount, the original's, is
	   optional) */
	if (cxl && !p->seen[F_AMT])
		amount_ok = false;
	else
		tx_amount(p, rec, &amount_ok);
	if (!amount_ok)
		p->grp_sum_unknown = p->pmt_sum_unknown = true;
	if (pain) {
		if (p->seen[F_REQD_EXCTN_DT])
			take_date(p, F_REQD_EXCTN_DT, rec->value_date, "ReqdExctnDt");
		else if (p->seen[F_REQD_EXCTN_DTTM])
			take_datetime_date(p, F_REQD_EXCTN_DTTM, rec->value_date,
					   "ReqdExctnDt/DtTm");
		else
			require(p, F_REQD_EXCTN_DT, "ReqdExctnDt", p->pmt_line);
	} else if (dd_pain) {
		if (p->seen[F_REQD_COLLTN_DT])
			take_date(p, F_REQD_COLLTN_DT, rec->value_date, "ReqdColltnDt");
		else
			require(p, F_REQD_COLLTN_DT, "ReqdColltnDt", p->pmt_line);
	} else if (p->seen[F_TX_STTLM_DT]) {
		take_date(p, F_TX_STTLM_DT, rec->value_date, "IntrBkSttlmDt");
	} else {
		take_date(p, F_GRP_STTLM_DT, rec->value_date, "IntrBkSttlmDt");
	}

	/* parties */
	if (pain) {
		take(p, F_PMT_DBTR_NM, rec->debtor_name, CL_NAME_MAX, "debtor name");
		take_account(p, F_PMT_DBTR_IBAN, F_PMT_DBTR_OTHR, rec->debtor_account,
			     "debtor account");
		if (!p->seen[F_PMT_DBTR_IBAN] && !p->seen[F_PMT_DBTR_OTHR])
			require(p, F_PMT_DBTR_IBAN, "DbtrAcct/Id", p->pmt_line);
		take_agent(p, F_PMT_DBTR_AGT_BIC, F_PMT_DBTR_AGT_MMB, rec->debtor_agent,
			   "debtor agent");
	} else {
		take(p, F_DBTR_NM, rec->debtor_name, CL_NAME_MAX, "debtor name");
		take_account(p, F_DBTR_IBAN, F_DBTR_OTHR, rec->debtor_account, "debtor account");
		take_agent(p, F_DBTR_AGT_BIC, F_DBTR_AGT_MMB, rec->debtor_agent, "debtor agent");
	}
	if (dd_pain) {
		/* the creditor is the initiator: its side is the PmtInf's */
		if (!p->seen[F_DBTR_IBAN] && !p->seen[F_DBTR_OTHR])
			require(p, F_DBTR_IBAN, "DbtrAcct/Id", p->tx_line);
		take(p, F_PMT_CDTR_NM, rec->creditor_name, CL_NAME_MAX, "creditor name");
		take_account(p, F_PMT_CDTR_IBAN, F_PMT_CDTR_OTHR, rec->creditor_account,
			     "creditor account");
		if (!p->seen[F_PMT_CDTR_IBAN] && !p->seen[F_PMT_CDTR_OTHR])
			require(p, F_PMT_CDTR_IBAN, "CdtrAcct/Id", p->pmt_line);
		take_agent(p, F_PMT_CDTR_AGT_BIC, F_PMT_CDTR_AGT_MMB, rec->creditor_agent,
			   "creditor agent");
	} else {
		take(p, F_CDTR_NM, rec->creditor_name, CL_NAME_MAX, "creditor name");
		take_account(p, F_CDTR_IBAN, F_CDTR_OTHR, rec->creditor_account,
			     "creditor account");
		take_agent(p, F_CDTR_AGT_BIC, F_CDTR_AGT_MMB, rec->creditor_agent,
			   "creditor agent");
	}
	if (dd)
		dd_fields(p, rec);
	/* "the equivalent of AMOUNT in CcyOfTrf" is another instruction than
	 * "AMOUNT": the currency of transfer goes into the fingerprint */
	if (p->seen[F_CCY_OF_TRF])
		take(p, F_CCY_OF_TRF, x->ccy_of_trf, sizeof(x->ccy_of_trf), "currency of transfer");
	if (p->kind == CL_ISO_PACS009) {
		take_agent(p, F_DBTR_FI_BIC, F_NONE, x->debtor_fi, "debtor institution");
		take_agent(p, F_CDTR_FI_BIC, F_NONE, x->creditor_fi, "creditor institution");
		if (!rec->debtor_name[0])
			snprintf(rec->debtor_name, sizeof(rec->debtor_name), "%s", x->debtor_fi);
		if (!rec->creditor_name[0])
			snprintf(rec->creditor_name, sizeof(rec->creditor_name), "%s",
				 x->creditor_fi);
	}
	take(p, F_USTRD, rec->remittance_text, CL_NAME_MAX, "remittance information");

	/* the hop: transaction, else group header, else AppHdr -- an AppHdr
	 * whose MsgDefIdr names this message (a version apart is only a
	 * note, as real samples are): one naming another message (pacs.009
	 * over a pacs.008) may be another message's header, and its sender
	 * would key this one's payments as that hop's (docs/design/0044) */
	hdr_other = p->seen[F_HDR_MSG_DEF] && p->val[F_HDR_MSG_DEF][0] &&
		    strncmp(p->val[F_HDR_MSG_DEF], p->msg_type, 8) != 0;
	take_agent(p, F_TX_INSTG_BIC, F_TX_INSTG_MMB, rec->instructing_agent,
		   "instructing agent");
	if (!rec->instructing_agent[0])
		take_agent(p, F_GRP_INSTG_BIC, F_GRP_INSTG_MMB, rec->instructing_agent,
			   "instructing agent");
	if (!rec->instructing_agent[0] && !hdr_other)
		take_agent(p, F_HDR_FR_BIC, F_HDR_FR_MMB, rec->instructing_agent,
			   "AppHdr sender");
	take_agent(p, F_TX_INSTD_BIC, F_TX_INSTD_MMB, rec->instructed_agent, "instructed agent");
	if (!rec->instructed_agent[0])
		take_agent(p, F_GRP_INSTD_BIC, F_GRP_INSTD_MMB, rec->instructed_agent,
			   "instructed agent");
	if (!rec->instructed_agent[0] && !hdr_other)
		take_agent(p, F_HDR_TO_BIC, F_HDR_TO_MMB, rec->instructed_agent, "AppHdr receiver");

	/* key and fingerprint */
	if (!cl_iso_make_key(rec, x, why, sizeof(why))) {
		size_t n = strlen(CL_ISO_NO_INSTG);

		scope_path(p, F_INSTR_ID, path, sizeof(path));
		if (strncmp(why, CL_ISO_NO_INSTG, n) == 0 && hdr_other &&
		    (p->seen[F_HDR_FR_BIC] || p->seen[F_HDR_FR_MMB])) {
			struct cl_error *e = cl_outq_add(
				&p->q, p->tx_line, path, "no_key",
				"transaction cannot be identified (no natural key), so a copy of "
				"it could not be told from a new payment: the Document names no "
				"instructing agent, and the AppHdr's sender (Fr) is not taken: its "
				"MsgDefIdr \"%.40s\" (line %lu) names another message than this "
				"%s, so the header may be another message's",
				p->val[F_HDR_MSG_DEF], p->line_of[F_HDR_MSG_DEF], p->msg_type);

			e->other_line = p->line_of[F_HDR_MSG_DEF];
			snprintf(e->hint, sizeof(e->hint),
				 "have the sender fill GrpHdr/InstgAgt, or send the Document with "
				 "the AppHdr that names it");
			p->no_instg++;
		} else if (strncmp(why, CL_ISO_NO_INSTG, n) == 0 &&
		    (p->seen[F_TX_INSTG_OTHER] || p->seen[F_GRP_INSTG_OTHER] ||
		     p->seen[F_HDR_FR_OTHER])) {
			/* an agent is there, named by no id the key takes */
			enum cl_iso_field f = F_HDR_FR_OTHER;

			if (p->seen[F_TX_INSTG_OTHER])
				f = F_TX_INSTG_OTHER;
			else if (p->seen[F_GRP_INSTG_OTHER])
				f = F_GRP_INSTG_OTHER;

			char where[CL_PATH_MAX];
			struct cl_error *e;

			field_path(p, f, NULL, where, sizeof(where));
			e = cl_outq_add(&p->q, p->tx_line, path, "no_key",
					     "transaction cannot be identified (no natural key), so "
					     "a copy of it could not be told from a new payment: the "
					     "instructing agent (%s, line %lu) is named only by LEI, "
					     "Othr/Id or Nm, and the key takes its BICFI, else its "
					     "ClrSysMmbId/MmbId: a copy naming the same bank by its "
					     "BIC would get another key and be applied twice",
					     where, p->line_of[f]);
			e->other_line = p->line_of[f];
			p->no_instg++;
		} else if (strncmp(why, CL_ISO_NO_INSTG, n) == 0) {
			/* where it could have been, in the order it is looked for */
			struct cl_error *e = cl_outq_add(
				&p->q, p->tx_line, path, "no_key",
				"transaction cannot be identified (no natural key), so a copy of "
				"it could not be told from a new payment: %s (%s/InstgAgt, "
				"GrpHdr/InstgAgt or AppHdr/Fr/FIId)%s",
				CL_ISO_NO_INSTG, tx_element(p->kind), why + n);

			snprintf(e->hint, sizeof(e->hint),
				 "have the sender fill GrpHdr/InstgAgt, or load the message in "
				 "its AppHdr envelope; the debtor agent is not taken instead: it "
				 "sends the first hop only");
			p->no_instg++;
		} else {
			cl_outq_add(&p->q, p->tx_line, path, "no_key",
					 "transaction cannot be identified (no natural key), so a "
					 "copy of it could not be told from a new payment: %s",
					 why);
		}
	}
	if (!pain && !dd_pain && !p->info.sender[0])
		info_copy(p->info.sender, sizeof(p->info.sender), rec->instructing_agent);
	if (!pain && !dd_pain && !p->info.receiver[0])
		info_copy(p->info.receiver, sizeof(p->info.receiver), rec->instructed_agent);
	/* none, or only what validate reads (parser.h no_fingerprints) */
	if (p->opts.no_fingerprints && !p->fingerprints_unread)
		cl_iso_fingerprint_of_alt_key(p->fp, rec, x);
	else if (!p->opts.no_fingerprints)
		cl_iso_fingerprint(p->fp, rec, x);
	/* a record without a key cannot be loaded or compared: only its
	 * errors are handed out */
	if (rec->natural_key[0])
		cl_iso_record_commit(p);
}

