/* status_pacs002.c - payment status reports: pacs.002 (.001.02 to .001.16,
 * FedNow, Fedwire, TCH RTP and CBPR+ usages) and pain.002, its customer
 * twin (.001.02 to .001.15): one GROUP_STATUS item per OrgnlGrpInfAndSts
 * and per pain.002 OrgnlPmtInfAndSts, one TX_STATUS item per TxInfAndSts.
 *
 * pain.002 from .001.03 nests the transactions' statuses in the payment
 * information block they answer (OrgnlPmtInfAndSts: OrgnlPmtInfId,
 * PmtInfSts, StsRsnInf, TxInfAndSts); each takes its block's
 * OrgnlPmtInfId.  pain.002.001.02 (root <pain.002.001.02>, the 2006
 * PaymentStatusReportV02 that pacs.002.001.02 shares) has no block: its
 * TxInfAndSts name their OrgnlPmtInfId themselves (docs/design/0044).
 *
 * Up to .001.09 the report holds one OrgnlGrpInfAndSts and the
 * transactions refer to it; from .001.10 there may be several, and a
 * transaction names its own original message in OrgnlGrpInf.  A
 * transaction without one takes the OrgnlMsgId of the last
 * OrgnlGrpInfAndSts before it.
 *
 * .001.02 (2006, root <pacs.002.001.02>) names the reason StsRsnInf/StsRsn
 * (its paths in `v02`), and its OrgnlGrpInfAndSts may name the original
 * by NtwkFileNm instead of OrgnlMsgId: a network file's name, not a
 * message id, so not read as one (docs/design/0037). */
#include "parsers/statement_internal.h"

#include <stdio.h>
#include <string.h>

enum {
	PF_NONE = 0,
	PF_MSG_ID, PF_CRE_DT_TM,
	PF_G_MSG_ID, PF_G_MSG_NM_ID, PF_G_STS, PF_G_RSN,
	PF_T_STS_ID, PF_T_MSG_ID, PF_T_MSG_NM_ID, PF_T_INSTR_ID, PF_T_E2E, PF_T_TX_ID,
	PF_T_UETR, PF_T_STS, PF_T_RSN, PF_T_ACCPTNC, PF_T_AMT, PF_T_AMT2,
	PF_P_PMT_INF_ID, PF_P_STS, PF_P_RSN, PF_T_PMT_INF_ID,
	PF_COUNT
};

/* The paths pacs.002 and pain.002 share: the group header and the
 * original group's status, in the same words. */
#define STATUS_GROUP_PATHS \
	{SC_ROOT, "GrpHdr", SC_GRPHDR, 0, false}, \
	{SC_ROOT, "OrgnlGrpInfAndSts", SC_OGRP, 0, false}, \
	{SC_GRPHDR, "MsgId", 0, PF_MSG_ID, false}, \
	{SC_GRPHDR, "CreDtTm", 0, PF_CRE_DT_TM, false}, \
	{SC_OGRP, "OrgnlMsgId", 0, PF_G_MSG_ID, false}, \
	{SC_OGRP, "OrgnlMsgNmId", 0, PF_G_MSG_NM_ID, false}, \
	{SC_OGRP, "GrpSts", 0, PF_G_STS, false}, \
	{SC_OGRP, "StsRsnInf/Rsn/Cd", 0, PF_G_RSN, true}, \
	{SC_OGRP, "StsRsnInf/Rsn/Prtry", 0, PF_G_RSN, true}

/* A transaction's status, the same in both (its amount aside). */
#define STATUS_TX_PATHS \
	{SC_TXSTS, "OrgnlInstrId", 0, PF_T_INSTR_ID, false}, \
	{SC_TXSTS, "OrgnlEndToEndId", 0, PF_T_E2E, false}, \
	{SC_TXSTS, "OrgnlUETR", 0, PF_T_UETR, false}, \
	{SC_TXSTS, "TxSts", 0, PF_T_STS, false}, \
	{SC_TXSTS, "StsRsnInf/Rsn/Cd", 0, PF_T_RSN, true}, \
	{SC_TXSTS, "StsRsnInf/Rsn/Prtry", 0, PF_T_RSN, true}, \
	{SC_TXSTS, "AccptncDtTm", 0, PF_T_ACCPTNC, false}, \
	{SC_TXSTS, "StsId", 0, PF_T_STS_ID, false}

static const struct cl_stmt_path paths[] = {
	{SC_ROOT, "TxInfAndSts", SC_TXSTS, 0, false},
	STATUS_GROUP_PATHS,
	{SC_TXSTS, "OrgnlGrpInf/OrgnlMsgId", 0, PF_T_MSG_ID, false},
	{SC_TXSTS, "OrgnlGrpInf/OrgnlMsgNmId", 0, PF_T_MSG_NM_ID, false},
	STATUS_TX_PATHS,
	{SC_TXSTS, "OrgnlTxId", 0, PF_T_TX_ID, false},
	{SC_TXSTS, "OrgnlTxRef/IntrBkSttlmAmt", 0, PF_T_AMT, false},
	{SC_TXSTS, "OrgnlTxRef/Amt/InstdAmt", 0, PF_T_AMT2, false},
};

/* pacs.002.001.02's own paths (PaymentStatusReportV02). */
static const struct cl_stmt_vpath v02[] = {
	{2, 2, {SC_OGRP, "StsRsnInf/StsRsn/Cd", 0, PF_G_RSN, true}},
	{2, 2, {SC_OGRP, "StsRsnInf/StsRsn/Prtry", 0, PF_G_RSN, true}},
	{2, 2, {SC_TXSTS, "StsRsnInf/StsRsn/Cd", 0, PF_T_RSN, true}},
	{2, 2, {SC_TXSTS, "StsRsnInf/StsRsn/Prtry", 0, PF_T_RSN, true}},
};

/* pain.002 (CustomerPaymentStatusReport, .001.03 on; PaymentStatusReportV02
 * in .001.02): the same status in the same words, one level more. */
static const struct cl_stmt_path pain_paths[] = {
	{SC_ROOT, "OrgnlPmtInfAndSts", SC_OPMT, 0, false},
	STATUS_GROUP_PATHS,
	{SC_OPMT, "OrgnlPmtInfId", 0, PF_P_PMT_INF_ID, false},
	{SC_OPMT, "PmtInfSts", 0, PF_P_STS, false},
	{SC_OPMT, "StsRsnInf/Rsn/Cd", 0, PF_P_RSN, true},
	{SC_OPMT, "StsRsnInf/Rsn/Prtry", 0, PF_P_RSN, true},
	{SC_OPMT, "TxInfAndSts", SC_TXSTS, 0, false},
	STATUS_TX_PATHS,
	{SC_TXSTS, "OrgnlTxRef/Amt/InstdAmt", 0, PF_T_AMT, false},
	{SC_TXSTS, "OrgnlTxRef/Amt/EqvtAmt/Amt", 0, PF_T_AMT2, false},
};

/* pain.002.001.02's own: no payment information block, the reason in
 * StsRsn, and OrgnlPmtInfId and OrgnlTxId in the transaction. */
static const struct cl_stmt_vpath pain_v02[] = {
	{2, 2, {SC_ROOT, "TxInfAndSts", SC_TXSTS, 0, false}},
	{2, 2, {SC_OGRP, "StsRsnInf/StsRsn/Cd", 0, PF_G_RSN, true}},
	{2, 2, {SC_OGRP, "StsRsnInf/StsRsn/Prtry", 0, PF_G_RSN, true}},
	{2, 2, {SC_TXSTS, "OrgnlPmtInfId", 0, PF_T_PMT_INF_ID, false}},
	{2, 2, {SC_TXSTS, "OrgnlTxId", 0, PF_T_TX_ID, false}},
	{2, 2, {SC_TXSTS, "StsRsnInf/StsRsn/Cd", 0, PF_T_RSN, true}},
	{2, 2, {SC_TXSTS, "StsRsnInf/StsRsn/Prtry", 0, PF_T_RSN, true}},
};

static void put(struct cl_stmt_parser *p, char *dst, size_t cap, const char *v, size_t n,
		unsigned long line)
{
	char path[CL_PATH_MAX];

	if (cl_copy_span(dst, cap, v, n) == 0)
		return;
	cl_stmt_xml_path(p, path, sizeof(path));
	cl_outq_add(&p->q, line, path, "value_too_long",
		      "value of %zu bytes is longer than the limit of %zu bytes", n, cap - 1);
}

static void scope_start(struct cl_stmt_parser *p, int scope, unsigned long line)
{
	struct cl_stmt_pacs002 *s = &p->pacs;

	switch (scope) {
	case SC_ROOT:
		memset(&s->hdr, 0, sizeof(s->hdr));
		s->hdr.source = p->source;
		snprintf(s->hdr.message_type, sizeof(s->hdr.message_type), "%s", p->message_type);
		s->hdr.index = 1;
		s->hdr.line = line;
		s->hdr.sum_nb_of_ntries = s->hdr.sum_cdt_nb = s->hdr.sum_dbt_nb = -1;
		s->hdr.last_page = true;
		break;
	case SC_OPMT:
		memset(&s->pst, 0, sizeof(s->pst));
		s->pst.line = line;
		s->pst.pmt_inf = true;
		s->pst.index = ++s->n_pmt;
		snprintf(s->pst.orgnl_msg_id, sizeof(s->pst.orgnl_msg_id), "%s",
			 s->grp_orgnl_msg_id);
		snprintf(s->pst.orgnl_msg_nm_id, sizeof(s->pst.orgnl_msg_nm_id), "%s",
			 s->grp_orgnl_msg_nm_id);
		s->in_pmt = true;
		break;
	case SC_OGRP:
	case SC_TXSTS:
		memset(&s->st, 0, sizeof(s->st));
		if (scope == SC_TXSTS && s->in_pmt) /* its block's */
			memcpy(s->st.orgnl_pmt_inf_id, s->pst.orgnl_pmt_inf_id,
			       sizeof(s->st.orgnl_pmt_inf_id));
		s->st.line = line;
		s->amt[0] = s->amt_ccy[0] = s->amt2[0] = s->amt2_ccy[0] = '\0';
		s->amt_line = line;
		if (scope == SC_OGRP) {
			s->grp_orgnl_msg_id[0] = s->grp_orgnl_msg_nm_id[0] = '\0';
			s->st.index = ++s->n_grp;
		} else {
			s->st.index = ++s->n_tx;
		}
		break;
	default:
		break;
	}
}

static void field(struct cl_stmt_parser *p, int f, const char *v, size_t n, const char *ccy,
		  unsigned long line)
{
	struct cl_stmt_pacs002 *s = &p->pacs;
	struct cl_stmt_status *t = &s->st, *b = &s->pst;

#define PUT(dst) put(p, dst, sizeof(dst), v, n, line)
	/* a date must be one; no value is a template's placeholder (amounts
	   have their own syntax) */
	if (f != PF_T_AMT && f != PF_T_AMT2 &&
	    !cl_stmt_value_ok(p, v, f == PF_CRE_DT_TM || f == PF_T_ACCPTNC, line))
		return;
	switch (f) {
	case PF_MSG_ID: PUT(s->hdr.msg_id); break;
	case PF_CRE_DT_TM: PUT(s->hdr.created); break;
	case PF_G_MSG_ID:
	case PF_T_MSG_ID: PUT(t->orgnl_msg_id); break;
	case PF_G_MSG_NM_ID:
	case PF_T_MSG_NM_ID: PUT(t->orgnl_msg_nm_id); break;
	case PF_G_STS:
	case PF_T_STS: PUT(t->status); break;
	case PF_G_RSN:
	case PF_T_RSN: PUT(t->reason); break;
	case PF_T_STS_ID: PUT(t->sts_id); break;
	case PF_T_INSTR_ID: PUT(t->orgnl_instr_id); break;
	case PF_T_E2E: PUT(t->orgnl_end_to_end_id); break;
	case PF_T_TX_ID: PUT(t->orgnl_tx_id); break;
	case PF_T_UETR: PUT(t->orgnl_uetr); break;
	case PF_T_ACCPTNC: PUT(t->accptnc_dt_tm); break;
	case PF_T_PMT_INF_ID: PUT(t->orgnl_pmt_inf_id); break;
	case PF_P_PMT_INF_ID: PUT(b->orgnl_pmt_inf_id); break;
	case PF_P_STS: PUT(b->status); break;
	case PF_P_RSN: PUT(b->reason); break;
	case PF_T_AMT:
		PUT(s->amt);
		snprintf(s->amt_ccy, sizeof(s->amt_ccy), "%s", ccy);
		s->amt_line = line;
		break;
	case PF_T_AMT2:
		PUT(s->amt2);
		snprintf(s->amt2_ccy, sizeof(s->amt2_ccy), "%s", ccy);
		if (!s->amt[0])
			s->amt_line = line;
		break;
	default: break;
	}
#undef PUT
}

/* ExternalPaymentGroupStatus1Code / ExternalPaymentTransactionStatus1Code:
 * 1 to 4 characters (ACCP, ACSC, RJCT, ...), letters and digits as every
 * published code is. */
static bool status_code(const char *s)
{
	size_t i = 0;

	for (; s[i]; i++)
		if (i == 4 || !((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') ||
				(s[i] >= '0' && s[i] <= '9')))
			return false;
	return i > 0;
}

/* path[cap]: the innermost scope's element path, unless it holds it
 * already. */
static void scope_path_once(const struct cl_stmt_parser *p, char *path, size_t cap)
{
	if (!path[0])
		cl_stmt_xml_scope_path(p, path, cap);
}

static void status_end(struct cl_stmt_parser *p, int scope)
{
	struct cl_stmt_pacs002 *s = &p->pacs;
	struct cl_stmt_status *t = scope == SC_OPMT ? &s->pst : &s->st;
	struct cl_stmt_item *it;
	char path[CL_PATH_MAX] = "";
	const char *what = scope == SC_OGRP ? "GrpSts" : scope == SC_OPMT ? "PmtInfSts" : "TxSts";

	/* path: the scope's element path, made at the first error (what an
	   error appends to it stays for the next) */
	if (t->status[0] && !status_code(t->status)) {
		scope_path_once(p, path, sizeof(path));
		snprintf(path + strlen(path), sizeof(path) - strlen(path), "/%s", what);
		cl_outq_add(&p->q, t->line, path, "status_code",
			      "%s \"%.20s\" is not a status code: expected 1 to 4 letters or "
			      "digits (ACSC, RJCT, ...)",
			      what, t->status);
		t->status[0] = '\0';
	}
	if (scope == SC_OGRP) {
		memcpy(s->grp_orgnl_msg_id, t->orgnl_msg_id, sizeof(s->grp_orgnl_msg_id));
		memcpy(s->grp_orgnl_msg_nm_id, t->orgnl_msg_nm_id, sizeof(s->grp_orgnl_msg_nm_id));
	} else if (scope == SC_OPMT) {
		s->in_pmt = false;
		/* the block's id is what its status and its transactions'
		   answer: without it a PmtInfSts would read as the group's */
		if (!t->orgnl_pmt_inf_id[0]) {
			scope_path_once(p, path, sizeof(path));
			cl_outq_add(&p->q, t->line, path, "missing_element",
				      "payment information status %lu has no <OrgnlPmtInfId>: expected "
				      "the PmtInfId of the block it answers",
				      t->index);
			t->status[0] = '\0';
		}
	} else {
		const char *amt = s->amt[0] ? s->amt : s->amt2;
		const char *ccy = s->amt[0] ? s->amt_ccy : s->amt2_ccy;

		if (!t->orgnl_msg_id[0]) {
			memcpy(t->orgnl_msg_id, s->grp_orgnl_msg_id, sizeof(t->orgnl_msg_id));
			memcpy(t->orgnl_msg_nm_id, s->grp_orgnl_msg_nm_id,
			       sizeof(t->orgnl_msg_nm_id));
		}
		if (!t->orgnl_end_to_end_id[0] && !t->orgnl_tx_id[0] && !t->orgnl_uetr[0] &&
		    !t->orgnl_instr_id[0]) {
			scope_path_once(p, path, sizeof(path));
			cl_outq_add(&p->q, t->line, path, "no_original_reference",
				      "transaction status %lu names no original transaction: expected "
				      "OrgnlEndToEndId, OrgnlTxId, OrgnlUETR or OrgnlInstrId",
				      t->index);
		}
		if (amt[0]) {
			char why[CL_MSGTEXT_MAX];

			if (cl_stmt_to_minor(amt, ccy, &t->amount_minor, why, sizeof(why)) == 0) {
				t->has_amount = true;
				snprintf(t->ccy, sizeof(t->ccy), "%.3s", ccy);
			} else {
				scope_path_once(p, path, sizeof(path));
				snprintf(path + strlen(path), sizeof(path) - strlen(path), "/OrgnlTxRef");
				cl_outq_add(&p->q, s->amt_line, path, "amount", "original %s", why);
			}
		}
	}
	it = cl_stmt_slot(p, scope == SC_TXSTS ? CL_STMT_TX_STATUS : CL_STMT_GROUP_STATUS);
	it->stmt = s->hdr;
	it->status = *t;
	cl_stmt_commit(p);
}

static void scope_end(struct cl_stmt_parser *p, int scope)
{
	if (scope == SC_OGRP || scope == SC_OPMT || scope == SC_TXSTS)
		status_end(p, scope);
	if (scope == SC_ROOT && p->pacs.n_grp == 0 && p->pacs.n_tx == 0) {
		/* the schema allows both 0..n, but a report of no status is
		   no answer: an empty message is invalid, as a clearing
		   message without a transaction is */
		char path[CL_PATH_MAX];

		cl_stmt_xml_scope_path(p, path, sizeof(path));
		cl_outq_add(&p->q, p->pacs.hdr.line, path, "no_transaction",
			      "%s reports no status: expected at least one <OrgnlGrpInfAndSts> "
			      "or <TxInfAndSts>; an empty report is no answer",
			      p->message_type);
	}
}

/* What every version requires of the elements read (the XSDs; the
 * original group is named by OrgnlMsgId or, in .001.02, NtwkFileNm). */
static const struct cl_stmt_required required[] = {
	{SC_GRPHDR, PF_MSG_ID, "MsgId", "the report's id"},
	{SC_GRPHDR, PF_CRE_DT_TM, "CreDtTm", "when the report was created"},
};

const struct cl_stmt_msg_ops cl_stmt_pacs002_ops = {
	.paths = paths,
	.npaths = sizeof(paths) / sizeof(paths[0]),
	.nfields = PF_COUNT,
	.vpaths = v02,
	.nvpaths = sizeof(v02) / sizeof(v02[0]),
	.scope_start = scope_start,
	.scope_end = scope_end,
	.field = field,
	.required = required,
	.nrequired = sizeof(required) / sizeof(required[0]),
};

const struct cl_stmt_msg_ops cl_stmt_pain002_ops = {
	.paths = pain_paths,
	.npaths = sizeof(pain_paths) / sizeof(pain_paths[0]),
	.nfields = PF_COUNT,
	.vpaths = pain_v02,
	.nvpaths = sizeof(pain_v02) / sizeof(pain_v02[0]),
	.scope_start = scope_start,
	.scope_end = scope_end,
	.field = field,
};
