/* statement_camt.c - camt.052, camt.053 and camt.054 (every version, from
 * .001.01; the CBPR+ usage is the same elements with fewer options): the
 * report (Stmt, Ntfctn or Rpt), its balances and TxsSummry, its entries
 * (Ntry) with their batch (Btch) and transaction details (TxDtls), and the
 * statement checks of statement.h.
 *
 * Versions differ where this reader looks in a few places only: the entry
 * status is <Sts>BOOK</Sts> up to .001.06 and <Sts><Cd>BOOK</Cd></Sts>
 * from .001.07; TxsSummry's net amount is TtlNetNtryAmt + CdtDbtInd in
 * .001.02 and TtlNetNtry/Amt + CdtDbtInd later; a TxDtls amount is
 * AmtDtls/TxAmt/Amt in .001.02 and Amt + CdtDbtInd from .001.03 (both are
 * read, Amt first).
 *
 * The .001.01 messages (2006) differ more, in the paths of `v01` below
 * (docs/design/0037-every-published-version.md): pagination only in
 * GrpHdr/MsgPgntn, the account also as BBAN, UPIC or PrtryAcct/Id, the
 * balance type Tp/Cd (not Tp/CdOrPrtry/Cd), Btch and TxDtls directly under
 * Ntry (no NtryDtls), a return reason RtrInf/RtrRsn. */
#include "parsers/statement_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
	CF_NONE = 0,
	/* GrpHdr */
	CF_MSG_ID, CF_CRE_DT_TM,
	/* Stmt, Ntfctn, Rpt */
	CF_ID, CF_ESEQ, CF_LSEQ, CF_S_CRE, CF_FR, CF_TO, CF_PG_NB, CF_LAST_PG, CF_IBAN,
	CF_OTHR, CF_ACCT_CCY,
	/* Bal */
	CF_BAL_CD, CF_BAL_PRTRY, CF_BAL_AMT, CF_BAL_IND, CF_BAL_DT, CF_BAL_DTTM,
	/* TxsSummry */
	CF_T_NB, CF_T_SUM, CF_T_NET, CF_T_NET_IND, CF_C_NB, CF_C_SUM, CF_D_NB, CF_D_SUM,
	/* Ntry */
	CF_N_REF, CF_N_AMT, CF_N_IND, CF_N_RVSL, CF_N_STS, CF_N_STS_PRTRY, CF_N_BOOK, CF_N_VAL, CF_N_SVCR,
	CF_N_DOMN, CF_N_FMLY, CF_N_SUBFMLY, CF_N_PRTRY, CF_N_INF,
	/* Btch */
	CF_B_MSG_ID, CF_B_PMT_INF_ID, CF_B_NB, CF_B_TTL, CF_B_IND,
	/* TxDtls */
	CF_X_MSG_ID, CF_X_SVCR, CF_X_PMT_INF_ID, CF_X_INSTR_ID, CF_X_E2E, CF_X_UETR, CF_X_TX_ID,
	CF_X_CLR, CF_X_PRTRY_TP, CF_X_PRTRY_REF, CF_X_AMT, CF_X_IND, CF_X_TXAMT, CF_X_RSN,
	/* GrpHdr/MsgPgntn (.001.01) */
	CF_G_PG_NB, CF_G_LAST_PG,
	/* AmtDtls/InstdAmt and Chrgs, of the entry or of a TxDtls */
	CF_N_INSTD, CF_N_CHRG_TTL, CF_N_CHRG_RCRD, CF_X_INSTD, CF_X_CHRG_TTL, CF_X_CHRG_RCRD,
	/* elements read only for their presence (required below) */
	CF_BAL_TP,
	CF_COUNT
};

static const struct cl_stmt_path paths[] = {
	{SC_ROOT, "GrpHdr", SC_GRPHDR, 0, false},
	{SC_ROOT, "Stmt", SC_STMT, 0, false},
	{SC_ROOT, "Ntfctn", SC_STMT, 0, false},
	{SC_ROOT, "Rpt", SC_STMT, 0, false},
	{SC_GRPHDR, "MsgId", 0, CF_MSG_ID, false},
	{SC_GRPHDR, "CreDtTm", 0, CF_CRE_DT_TM, false},

	{SC_STMT, "Id", 0, CF_ID, false},
	{SC_STMT, "ElctrncSeqNb", 0, CF_ESEQ, false},
	{SC_STMT, "LglSeqNb", 0, CF_LSEQ, false},
	{SC_STMT, "CreDtTm", 0, CF_S_CRE, false},
	{SC_STMT, "FrToDt/FrDtTm", 0, CF_FR, false},
	{SC_STMT, "FrToDt/ToDtTm", 0, CF_TO, false},
	{SC_STMT, "StmtPgntn/PgNb", 0, CF_PG_NB, false},
	{SC_STMT, "StmtPgntn/LastPgInd", 0, CF_LAST_PG, false},
	{SC_STMT, "NtfctnPgntn/PgNb", 0, CF_PG_NB, false},
	{SC_STMT, "NtfctnPgntn/LastPgInd", 0, CF_LAST_PG, false},
	{SC_STMT, "RptPgntn/PgNb", 0, CF_PG_NB, false},
	{SC_STMT, "RptPgntn/LastPgInd", 0, CF_LAST_PG, false},
	{SC_STMT, "Acct/Id/IBAN", 0, CF_IBAN, false},
	{SC_STMT, "Acct/Id/Othr/Id", 0, CF_OTHR, false},
	{SC_STMT, "Acct/Ccy", 0, CF_ACCT_CCY, false},
	{SC_STMT, "Bal", SC_BAL, 0, false},
	{SC_STMT, "TxsSummry", SC_SUMMARY, 0, false},
	{SC_STMT, "Ntry", SC_NTRY, 0, false},

	{SC_BAL, "Tp", 0, CF_BAL_TP, false},
	{SC_BAL, "Tp/CdOrPrtry/Cd", 0, CF_BAL_CD, false},
	{SC_BAL, "Tp/CdOrPrtry/Prtry", 0, CF_BAL_PRTRY, false},
	{SC_BAL, "Amt", 0, CF_BAL_AMT, false},
	{SC_BAL, "CdtDbtInd", 0, CF_BAL_IND, false},
	{SC_BAL, "Dt/Dt", 0, CF_BAL_DT, false},
	{SC_BAL, "Dt/DtTm", 0, CF_BAL_DTTM, false},

	{SC_SUMMARY, "TtlNtries/NbOfNtries", 0, CF_T_NB, false},
	{SC_SUMMARY, "TtlNtries/Sum", 0, CF_T_SUM, false},
	{SC_SUMMARY, "TtlNtries/TtlNetNtryAmt", 0, CF_T_NET, false},
	{SC_SUMMARY, "TtlNtries/CdtDbtInd", 0, CF_T_NET_IND, false},
	{SC_SUMMARY, "TtlNtries/TtlNetNtry/Amt", 0, CF_T_NET, false},
	{SC_SUMMARY, "TtlNtries/TtlNetNtry/CdtDbtInd", 0, CF_T_NET_IND, false},
	{SC_SUMMARY, "TtlCdtNtries/NbOfNtries", 0, CF_C_NB, false},
	{SC_SUMMARY, "TtlCdtNtries/Sum", 0, CF_C_SUM, false},
	{SC_SUMMARY, "TtlDbtNtries/NbOfNtries", 0, CF_D_NB, false},
	{SC_SUMMARY, "TtlDbtNtries/Sum", 0, CF_D_SUM, false},

	{SC_NTRY, "NtryRef", 0, CF_N_REF, false},
	{SC_NTRY, "Amt", 0, CF_N_AMT, false},
	{SC_NTRY, "CdtDbtInd", 0, CF_N_IND, false},
	{SC_NTRY, "RvslInd", 0, CF_N_RVSL, false},
	{SC_NTRY, "Sts", 0, CF_N_STS, false},
	{SC_NTRY, "Sts/Cd", 0, CF_N_STS, false},
	{SC_NTRY, "Sts/Prtry", 0, CF_N_STS_PRTRY, false},
	{SC_NTRY, "BookgDt/Dt", 0, CF_N_BOOK, false},
	{SC_NTRY, "BookgDt/DtTm", 0, CF_N_BOOK, false},
	{SC_NTRY, "ValDt/Dt", 0, CF_N_VAL, false},
	{SC_NTRY, "ValDt/DtTm", 0, CF_N_VAL, false},
	{SC_NTRY, "AcctSvcrRef", 0, CF_N_SVCR, false},
	{SC_NTRY, "BkTxCd/Domn/Cd", 0, CF_N_DOMN, false},
	{SC_NTRY, "BkTxCd/Domn/Fmly/Cd", 0, CF_N_FMLY, false},
	{SC_NTRY, "BkTxCd/Domn/Fmly/SubFmlyCd", 0, CF_N_SUBFMLY, false},
	{SC_NTRY, "BkTxCd/Prtry/Cd", 0, CF_N_PRTRY, false},
	{SC_NTRY, "AddtlNtryInf", 0, CF_N_INF, false},
	{SC_NTRY, "AmtDtls/InstdAmt/Amt", 0, CF_N_INSTD, false},
	{SC_NTRY, "Chrgs/TtlChrgsAndTaxAmt", 0, CF_N_CHRG_TTL, false},
	{SC_NTRY, "Chrgs/Rcrd/Amt", 0, CF_N_CHRG_RCRD, true},
	{SC_NTRY, "Chrgs/Amt", 0, CF_N_CHRG_RCRD, true}, /* .001.02 */
	{SC_NTRY, "NtryDtls", SC_DTLS, 0, false},

	{SC_DTLS, "Btch", SC_BTCH, 0, false},
	{SC_DTLS, "TxDtls", SC_TX, 0, false},
	{SC_BTCH, "MsgId", 0, CF_B_MSG_ID, false},
	{SC_BTCH, "PmtInfId", 0, CF_B_PMT_INF_ID, false},
	{SC_BTCH, "NbOfTxs", 0, CF_B_NB, false},
	{SC_BTCH, "TtlAmt", 0, CF_B_TTL, false},
	{SC_BTCH, "CdtDbtInd", 0, CF_B_IND, false},

	{SC_TX, "Refs/MsgId", 0, CF_X_MSG_ID, false},
	{SC_TX, "Refs/AcctSvcrRef", 0, CF_X_SVCR, false},
	{SC_TX, "Refs/PmtInfId", 0, CF_X_PMT_INF_ID, false},
	{SC_TX, "Refs/InstrId", 0, CF_X_INSTR_ID, false},
	{SC_TX, "Refs/EndToEndId", 0, CF_X_E2E, false},
	{SC_TX, "Refs/UETR", 0, CF_X_UETR, false},
	{SC_TX, "Refs/TxId", 0, CF_X_TX_ID, false},
	{SC_TX, "Refs/ClrSysRef", 0, CF_X_CLR, false},
	{SC_TX, "Refs/Prtry/Tp", 0, CF_X_PRTRY_TP, true},
	{SC_TX, "Refs/Prtry/Ref", 0, CF_X_PRTRY_REF, true},
	{SC_TX, "Amt", 0, CF_X_AMT, false},
	{SC_TX, "CdtDbtInd", 0, CF_X_IND, false},
	{SC_TX, "AmtDtls/TxAmt/Amt", 0, CF_X_TXAMT, false},
	{SC_TX, "RtrInf/Rsn/Cd", 0, CF_X_RSN, false},
	{SC_TX, "RtrInf/Rsn/Prtry", 0, CF_X_RSN, false},
	{SC_TX, "AmtDtls/InstdAmt/Amt", 0, CF_X_INSTD, false},
	{SC_TX, "Chrgs/TtlChrgsAndTaxAmt", 0, CF_X_CHRG_TTL, false},
	{SC_TX, "Chrgs/Rcrd/Amt", 0, CF_X_CHRG_RCRD, true},
	{SC_TX, "Chrgs/Amt", 0, CF_X_CHRG_RCRD, true}, /* .001.02 */
};

/* The .001.01 messages' own paths (BankToCustomerStatementV01 and its
 * siblings): the same fields, elsewhere. */
static const struct cl_stmt_vpath v01[] = {
	{1, 1, {SC_GRPHDR, "MsgPgntn/PgNb", 0, CF_G_PG_NB, false}},
	{1, 1, {SC_GRPHDR, "MsgPgntn/LastPgInd", 0, CF_G_LAST_PG, false}},
	{1, 1, {SC_STMT, "Acct/Id/BBAN", 0, CF_OTHR, false}},
	{1, 1, {SC_STMT, "Acct/Id/UPIC", 0, CF_OTHR, false}},
	{1, 1, {SC_STMT, "Acct/Id/PrtryAcct/Id", 0, CF_OTHR, false}},
	{1, 1, {SC_BAL, "Tp/Cd", 0, CF_BAL_CD, false}},
	{1, 1, {SC_BAL, "Tp/Prtry", 0, CF_BAL_PRTRY, false}},
	{1, 1, {SC_NTRY, "Btch", SC_BTCH, 0, false}},
	{1, 1, {SC_NTRY, "TxDtls", SC_TX, 0, false}},
	{1, 1, {SC_TX, "RtrInf/RtrRsn/Cd", 0, CF_X_RSN, false}},
	{1, 1, {SC_TX, "RtrInf/RtrRsn/Prtry", 0, CF_X_RSN, false}},
};

/* ------------------------------------------------------------ helpers */

static void here(const struct cl_stmt_parser *p, char *path, size_t cap)
{
	cl_stmt_xml_path(p, path, cap);
}

/* Copy a field's value into dst[cap], or queue an error naming the limit. */
static void put(struct cl_stmt_parser *p, char *dst, size_t cap, const char *v, size_t n,
		unsigned long line)
{
	char path[CL_PATH_MAX];

	if (cl_copy_span(dst, cap, v, n) == 0)
		return;
	here(p, path, sizeof(path));
	cl_outq_add(&p->q, line, path, "value_too_long",
		      "value of %zu bytes is longer than the limit of %zu bytes", n, cap - 1);
}

/* CRDT/DBIT -> direction; NONE when neither. */
static enum cl_direction indicator(const char *s)
{
	if (strcmp(s, "CRDT") == 0)
		return CL_DIR_CREDIT;
	if (strcmp(s, "DBIT") == 0)
		return CL_DIR_DEBIT;
	return CL_DIR_NONE;
}

static bool add_ok(int64_t *acc, int64_t v)
{
	if ((v > 0 && *acc > INT64_MAX - v) || (v < 0 && *acc < INT64_MIN - v))
		return false;
	*acc += v;
	return true;
}

/* The scope element's path with `rel` appended, for an error about
 * something missing. */
static void scope_path(const struct cl_stmt_parser *p, const char *rel, char *out, size_t cap)
{
	char base[CL_PATH_MAX];

	cl_stmt_xml_scope_path(p, base, sizeof(base));
	snprintf(out, cap, "%.200s%s%s", base, rel[0] ? "/" : "", rel);
}

static void give_statement(struct cl_stmt_parser *p)
{
	struct cl_stmt_camt *c = &p->camt;
	struct cl_stmt_item *it;

	if (c->stmt_given)
		return;
	c->stmt_given = true;
	it = cl_stmt_slot(p, CL_STMT_STATEMENT);
	it->stmt = c->stmt;
	cl_stmt_commit(p);
}

/* The entry's BkTxCd: "PMNT/RCDT/ESCT" from Domn, else Prtry/Cd. */
static void bank_tx_code(struct cl_stmt_camt *c)
{
	struct cl_stmt_entry *e = &c->entry;

	if (c->domn[0][0])
		snprintf(e->bank_tx_code, sizeof(e->bank_tx_code), "%.8s/%.8s/%.8s", c->domn[0],
			 c->domn[1], c->domn[2]);
	else if (c->prtry_cd[0])
		snprintf(e->bank_tx_code, sizeof(e->bank_tx_code), "%s", c->prtry_cd);
}

/* The AmtDtls/InstdAmt and Chrgs read since the last call (of the entry,
 * before its NtryDtls, or of a TxDtls) into their members, then forgotten.
 * Charges are those in one amount: TtlChrgsAndTaxAmt, else the first
 * Rcrd's (a bank that itemises several charges gives their total). */
static void take_amount_details(struct cl_stmt_parser *p, bool *has_instd, int64_t *instd,
				char instd_ccy[4], bool *has_chrgs, int64_t *chrgs,
				char chrgs_ccy[4])
{
	struct cl_stmt_camt *c = &p->camt;
	char why[200], path[CL_PATH_MAX];
	const char *ch = c->chrg_ttl[0] ? c->chrg_ttl : c->chrg_rcrd;
	const char *ch_ccy = c->chrg_ttl[0] ? c->chrg_ttl_ccy : c->chrg_rcrd_ccy;

	if (c->instd_amt[0]) {
		if (cl_stmt_to_minor(c->instd_amt, c->instd_ccy, instd, why, sizeof(why)) != 0) {
			scope_path(p, "AmtDtls/InstdAmt/Amt", path, sizeof(path));
			cl_outq_add(&p->q, c->instd_line, path, "amount", "%s", why);
		} else {
			*has_instd = true;
			snprintf(instd_ccy, 4, "%.3s", c->instd_ccy);
		}
	}
	if (ch[0]) {
		if (cl_stmt_to_minor(ch, ch_ccy, chrgs, why, sizeof(why)) != 0) {
			scope_path(p, c->chrg_ttl[0] ? "Chrgs/TtlChrgsAndTaxAmt" : "Chrgs/Rcrd/Amt",
				   path, sizeof(path));
			cl_outq_add(&p->q, c->chrg_line, path, "amount", "%s", why);
		} else {
			*has_chrgs = true;
			snprintf(chrgs_ccy, 4, "%.3s", ch_ccy);
		}
	}
	c->instd_amt[0] = c->chrg_ttl[0] = c->chrg_rcrd[0] = '\0';
}

static void take_entry_details(struct cl_stmt_parser *p)
{
	struct cl_stmt_entry *e = &p->camt.entry;

	take_amount_details(p, &e->has_instd, &e->instd_minor, e->instd_ccy, &e->has_chrgs,
			    &e->chrgs_minor, e->chrgs_ccy);
}

/* ---------------------------------------------------------- scopes */

static void scope_start(struct cl_stmt_parser *p, int scope, unsigned long line)
{
	struct cl_stmt_camt *c = &p->camt;

	switch (scope) {
	case SC_ROOT:
		c->root_line = line;
		c->grp_page = 0;
		c->grp_last_page = true;
		break;
	case SC_STMT: {
		/* Stmt, Ntfctn and Rpt share the table: each message has one */
		static const char *const want[] = {
			[CL_STMT_SRC_CAMT052] = "Rpt",
			[CL_STMT_SRC_CAMT053] = "Stmt",
			[CL_STMT_SRC_CAMT054] = "Ntfctn",
		};
		char path[CL_PATH_MAX];
		const char *name;

		cl_stmt_xml_path(p, path, sizeof(path));
		name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		if ((size_t)p->source < sizeof(want) / sizeof(want[0]) && want[p->source] &&
		    strcmp(name, want[p->source]) != 0)
			cl_outq_add(&p->q, line, path, "unexpected_element",
				      "element <%s> in a %s message: expected <%s>", name,
				      p->message_type, want[p->source]);
		memset(&c->stmt, 0, sizeof(c->stmt));
		c->stmt.source = p->source;
		snprintf(c->stmt.message_type, sizeof(c->stmt.message_type), "%s", p->message_type);
		memcpy(c->stmt.msg_id, c->grp_msg_id, sizeof(c->stmt.msg_id));
		memcpy(c->stmt.created, c->grp_created, sizeof(c->stmt.created));
		c->stmt.index = ++c->stmt_index;
		c->stmt.line = line;
		c->stmt.page = c->grp_page; /* .001.01: the message's pages */
		c->stmt.last_page = c->grp_last_page;
		c->stmt.sum_nb_of_ntries = c->stmt.sum_cdt_nb = c->stmt.sum_dbt_nb = -1;
		c->stmt_given = false;
		c->sum_net[0] = c->sum_net_ind[0] = '\0';
		c->sum_line = c->sum_nb_line = c->sum_cdt_line = c->sum_dbt_line = 0;
		c->n_entries = c->n_cdt = c->n_dbt = 0;
		c->sum_all = c->sum_cdt = c->sum_dbt = 0;
		c->booked_cdt = c->booked_dbt = 0;
		c->n_booked_cdt = c->n_booked_dbt = 0;
		c->sum_ccy[0] = '\0';
		c->mixed_ccy = c->overflow = false;
		c->entry_index = 0;
		c->n_itbd = 0;
		c->n_bal = 0;
		break;
	}
	case SC_BAL:
		c->n_bal++;
		c->bal_type[0] = c->bal_amt[0] = c->bal_ccy[0] = c->bal_ind[0] = c->bal_date[0] = '\0';
		c->bal_line = line;
		c->bal_amt_line = line;
		break;
	case SC_SUMMARY:
		c->sum_line = line;
		break;
	case SC_NTRY:
		give_statement(p);
		memset(&c->entry, 0, sizeof(c->entry));
		c->entry.index = ++c->entry_index;
		c->entry.line = line;
		c->entry.btch_nb_of_txs = -1;
		c->ntry_amt[0] = c->ntry_ind[0] = c->ntry_rvsl[0] = '\0';
		c->ntry_amt_line = line;
		for (int i = 0; i < 3; i++)
			c->domn[i][0] = '\0';
		c->prtry_cd[0] = '\0';
		c->ntry_tx_sum = 0;
		c->ntry_tx_sum_ok = true;
		c->ntry_chrgs_sum = 0;
		c->instd_amt[0] = c->chrg_ttl[0] = c->chrg_rcrd[0] = '\0';
		break;
	case SC_DTLS:
		c->dtls_txs = 0;
		c->dtls_btch_nb = -1;
		c->dtls_btch_has_ttl = false;
		c->dtls_btch_ttl = 0;
		c->dtls_sum = 0;
		c->dtls_sum_ok = true;
		c->dtls_line = line;
		bank_tx_code(c); /* BkTxCd precedes NtryDtls: for its transactions */
		take_entry_details(p); /* as do AmtDtls and Chrgs */
		break;
	case SC_BTCH:
		c->btch_ttl[0] = c->btch_ccy[0] = c->btch_nb[0] = '\0';
		c->btch_line = line;
		c->entry.btch_direction = CL_DIR_NONE;
		break;
	case SC_TX:
		memset(&c->tx, 0, sizeof(c->tx));
		c->tx.index = ++c->entry.txs;
		c->tx.line = line;
		c->dtls_txs++;
		c->tx_amt[0] = c->tx_ccy[0] = c->tx_amt2[0] = c->tx_ccy2[0] = c->tx_ind[0] = '\0';
		c->prtry_tp[0] = c->prtry_ref[0] = '\0';
		c->tx_amt_line = line;
		if (!c->entry.bank_tx_code[0])
			bank_tx_code(c); /* .001.01: TxDtls follows BkTxCd, no NtryDtls */
		/* AmtDtls and Chrgs of the entry before it (.001.01: TxDtls without
		   NtryDtls), its own from here */
		take_entry_details(p);
		break;
	default:
		break;
	}
}

static void field(struct cl_stmt_parser *p, int f, const char *v, size_t n, const char *ccy,
		  unsigned long line)
{
	struct cl_stmt_camt *c = &p->camt;
	struct cl_stmt_statement *s = &c->stmt;
	struct cl_stmt_entry *e = &c->entry;
	struct cl_stmt_tx *t = &c->tx;

#define PUT(dst) put(p, dst, sizeof(dst), v, n, line)
	if (f == CF_BAL_TP)
		return; /* present (an empty one): nothing to read */
	/* a date must be one; no value is a template's placeholder (amounts
	   have their own syntax, free text is free) */
	if (f != CF_N_INF && f != CF_BAL_AMT && f != CF_N_AMT && f != CF_X_AMT && f != CF_X_TXAMT &&
	    f != CF_N_INSTD && f != CF_N_CHRG_TTL && f != CF_N_CHRG_RCRD && f != CF_X_INSTD &&
	    f != CF_X_CHRG_TTL && f != CF_X_CHRG_RCRD &&
	    !cl_stmt_value_ok(p, v,
			      f == CF_CRE_DT_TM || f == CF_S_CRE || f == CF_FR || f == CF_TO ||
				      f == CF_BAL_DT || f == CF_BAL_DTTM || f == CF_N_BOOK ||
				      f == CF_N_VAL,
			      line))
		return;
	switch (f) {
	case CF_MSG_ID: PUT(c->grp_msg_id); break;
	case CF_CRE_DT_TM: PUT(c->grp_created); break;
	case CF_ID: PUT(s->id); break;
	case CF_ESEQ: PUT(s->elctrnc_seq_nb); break;
	case CF_LSEQ: PUT(s->lgl_seq_nb); break;
	case CF_S_CRE: PUT(s->stmt_created); break;
	case CF_FR: PUT(s->from); break;
	case CF_TO: PUT(s->to); break;
	case CF_PG_NB: s->page = (unsigned)strtoul(v, NULL, 10); break;
	case CF_LAST_PG: s->last_page = strcmp(v, "true") == 0 || strcmp(v, "1") == 0; break;
	case CF_G_PG_NB: c->grp_page = (unsigned)strtoul(v, NULL, 10); break;
	case CF_G_LAST_PG: c->grp_last_page = strcmp(v, "true") == 0 || strcmp(v, "1") == 0; break;
	case CF_IBAN: PUT(s->acct_iban); break;
	case CF_OTHR: PUT(s->acct_other); break;
	case CF_ACCT_CCY: PUT(s->acct_ccy); break;
	case CF_BAL_CD:
	case CF_BAL_PRTRY: PUT(c->bal_type); break;
	case CF_BAL_AMT:
		PUT(c->bal_amt);
		snprintf(c->bal_ccy, sizeof(c->bal_ccy), "%s", ccy);
		c->bal_amt_line = line;
		break;
	case CF_BAL_IND: PUT(c->bal_ind); break;
	case CF_BAL_DT:
	case CF_BAL_DTTM: PUT(c->bal_date); break;
	case CF_T_NB:
		s->sum_nb_of_ntries = strtol(v, NULL, 10);
		c->sum_nb_line = line;
		break;
	case CF_T_SUM: PUT(s->sum_sum); break;
	case CF_T_NET: PUT(c->sum_net); break;
	case CF_T_NET_IND: PUT(c->sum_net_ind); break;
	case CF_C_NB:
		s->sum_cdt_nb = strtol(v, NULL, 10);
		c->sum_cdt_line = line;
		break;
	case CF_C_SUM: PUT(s->sum_cdt_sum); break;
	case CF_D_NB:
		s->sum_dbt_nb = strtol(v, NULL, 10);
		c->sum_dbt_line = line;
		break;
	case CF_D_SUM: PUT(s->sum_dbt_sum); break;
	case CF_N_REF: PUT(e->ntry_ref); break;
	case CF_N_AMT: {
		char why[200], path[CL_PATH_MAX];

		PUT(c->ntry_amt);
		snprintf(e->ccy, sizeof(e->ccy), "%.3s", ccy);
		c->ntry_amt_line = line;
		if (cl_stmt_to_minor(v, ccy, &e->amount_minor, why, sizeof(why)) != 0) {
			here(p, path, sizeof(path));
			cl_outq_add(&p->q, line, path, "amount", "%s", why);
			c->ntry_amt[0] = '\0';
		}
		break;
	}
	case CF_N_IND:
		PUT(c->ntry_ind);
		e->direction = indicator(v);
		break;
	case CF_N_RVSL: e->reversal = strcmp(v, "true") == 0 || strcmp(v, "1") == 0; break;
	case CF_N_STS:
	case CF_N_STS_PRTRY: PUT(e->status); break;
	case CF_N_BOOK: PUT(e->booking_date); break;
	case CF_N_VAL: PUT(e->value_date); break;
	case CF_N_SVCR: PUT(e->acct_svcr_ref); break;
	case CF_N_DOMN: PUT(c->domn[0]); break;
	case CF_N_FMLY: PUT(c->domn[1]); break;
	case CF_N_SUBFMLY: PUT(c->domn[2]); break;
	case CF_N_PRTRY: PUT(c->prtry_cd); break;
	case CF_N_INF: PUT(e->text); break;
	case CF_B_MSG_ID: PUT(e->btch_msg_id); break;
	case CF_B_PMT_INF_ID: PUT(e->btch_pmt_inf_id); break;
	case CF_B_NB: PUT(c->btch_nb); break;
	case CF_B_TTL:
		PUT(c->btch_ttl);
		snprintf(c->btch_ccy, sizeof(c->btch_ccy), "%s", ccy);
		break;
	case CF_B_IND: e->btch_direction = indicator(v); break;
	case CF_X_MSG_ID: PUT(t->msg_id); break;
	case CF_X_SVCR: PUT(t->acct_svcr_ref); break;
	case CF_X_PMT_INF_ID: PUT(t->pmt_inf_id); break;
	case CF_X_INSTR_ID: PUT(t->instr_id); break;
	case CF_X_E2E: PUT(t->end_to_end_id); break;
	case CF_X_UETR: PUT(t->uetr); break;
	case CF_X_TX_ID: PUT(t->tx_id); break;
	case CF_X_CLR: PUT(t->clr_sys_ref); break;
	case CF_X_PRTRY_TP: PUT(c->prtry_tp); break;
	case CF_X_PRTRY_REF: PUT(c->prtry_ref); break;
	case CF_X_AMT:
		PUT(c->tx_amt);
		snprintf(c->tx_ccy, sizeof(c->tx_ccy), "%s", ccy);
		c->tx_amt_line = line;
		break;
	case CF_X_IND: PUT(c->tx_ind); break;
	case CF_X_TXAMT:
		PUT(c->tx_amt2);
		snprintf(c->tx_ccy2, sizeof(c->tx_ccy2), "%s", ccy);
		if (!c->tx_amt[0])
			c->tx_amt_line = line;
		break;
	case CF_X_RSN: PUT(t->rtr_reason); break;
	case CF_N_INSTD:
	case CF_X_INSTD:
		PUT(c->instd_amt);
		snprintf(c->instd_ccy, sizeof(c->instd_ccy), "%s", ccy);
		c->instd_line = line;
		break;
	case CF_N_CHRG_TTL:
	case CF_X_CHRG_TTL:
		PUT(c->chrg_ttl);
		snprintf(c->chrg_ttl_ccy, sizeof(c->chrg_ttl_ccy), "%s", ccy);
		c->chrg_line = line;
		break;
	case CF_N_CHRG_RCRD:
	case CF_X_CHRG_RCRD:
		PUT(c->chrg_rcrd);
		snprintf(c->chrg_rcrd_ccy, sizeof(c->chrg_rcrd_ccy), "%s", ccy);
		if (!c->chrg_ttl[0])
			c->chrg_line = line;
		break;
	default: break;
	}
#undef PUT
}

static void bal_end(struct cl_stmt_parser *p)
{
	struct cl_stmt_camt *c = &p->camt;
	struct cl_stmt_balance *b = NULL;
	char why[200], path[CL_PATH_MAX];
	enum cl_direction d;
	int64_t v;

	if (strcmp(c->bal_type, "OPBD") == 0 &&
	    !(c->stmt.opening.present && strcmp(c->stmt.opening.type, "OPBD") == 0))
		b = &c->stmt.opening; /* OPBD wins over PRCD */
	else if (strcmp(c->bal_type, "PRCD") == 0 && !c->stmt.opening.present)
		b = &c->stmt.opening;
	else if (strcmp(c->bal_type, "CLBD") == 0 && !c->stmt.closing.present)
		b = &c->stmt.closing;
	else if (strcmp(c->bal_type, "ITBD") == 0 && c->n_itbd < 2)
		b = &c->itbd[c->n_itbd++];
	if (!b)
		return;
	if (!c->bal_amt[0]) {
		scope_path(p, "Amt", path, sizeof(path));
		cl_outq_add(&p->q, c->bal_line, path, "missing_element",
			      "balance %s has no <Amt>: expected the balance amount", c->bal_type);
		return;
	}
	if (cl_stmt_to_minor(c->bal_amt, c->bal_ccy, &v, why, sizeof(why)) != 0) {
		scope_path(p, "Amt", path, sizeof(path));
		cl_outq_add(&p->q, c->bal_amt_line, path, "amount", "%s", why);
		return;
	}
	d = indicator(c->bal_ind);
	if (d == CL_DIR_NONE) {
		scope_path(p, "CdtDbtInd", path, sizeof(path));
		cl_outq_add(&p->q, c->bal_line, path, "credit_debit",
			      "balance %s CdtDbtInd %s%.8s%s: expected CRDT or DBIT", c->bal_type,
			      c->bal_ind[0] ? "\"" : "", c->bal_ind[0] ? c->bal_ind : "missing",
			      c->bal_ind[0] ? "\"" : "");
		return;
	}
	if (!c->bal_date[0]) { /* Dt is mandatory in every version's Bal */
		scope_path(p, "Dt", path, sizeof(path));
		cl_outq_add(&p->q, c->bal_line, path, "missing_element",
			      "balance %s has no <Dt>: expected the date it is struck on (Dt/Dt or "
			      "Dt/DtTm)",
			      c->bal_type);
		return;
	}
	b->present = true;
	snprintf(b->type, sizeof(b->type), "%s", c->bal_type);
	b->amount_minor = d == CL_DIR_DEBIT ? -v : v;
	snprintf(b->ccy, sizeof(b->ccy), "%.3s", c->bal_ccy); /* valid: three letters */
	memcpy(b->date, c->bal_date, sizeof(b->date));
	b->line = c->bal_line;
}

/* The statement's currency and its exponent, for sums: the account's, else
 * the entries', else the opening balance's. */
static const char *stmt_ccy(const struct cl_stmt_camt *c)
{
	if (c->stmt.acct_ccy[0])
		return c->stmt.acct_ccy;
	if (c->sum_ccy[0])
		return c->sum_ccy;
	return c->stmt.opening.ccy;
}

static void ntry_end(struct cl_stmt_parser *p)
{
	struct cl_stmt_camt *c = &p->camt;
	struct cl_stmt_entry *e = &c->entry;
	char path[CL_PATH_MAX], a[40], b[40];
	struct cl_stmt_item *it;
	int exp = cl_iso_ccy_exponent(e->ccy);
	bool ok = c->ntry_amt[0] != '\0'; /* a bad amount's error is queued */

	if (!c->ntry_amt[0] && p->xml->seen_line[CF_N_AMT] == 0) {
		scope_path(p, "Amt", path, sizeof(path));
		cl_outq_add(&p->q, e->line, path, "missing_element",
			      "entry %lu has no <Amt>: expected the entry amount", e->index);
	}
	if (e->direction == CL_DIR_NONE) {
		ok = false;
		scope_path(p, "CdtDbtInd", path, sizeof(path));
		cl_outq_add(&p->q, e->line, path, "credit_debit",
			      "entry %lu CdtDbtInd %s%.8s%s: expected CRDT or DBIT", e->index,
			      c->ntry_ind[0] ? "\"" : "", c->ntry_ind[0] ? c->ntry_ind : "missing",
			      c->ntry_ind[0] ? "\"" : "");
	}
	if (!e->status[0]) {
		scope_path(p, "Sts", path, sizeof(path));
		cl_outq_add(&p->q, e->line, path, "missing_element",
			      "entry %lu has no <Sts>: expected BOOK, PDNG or INFO", e->index);
	} else if (!p->xml->seen_line[CF_N_STS_PRTRY] && strcmp(e->status, "BOOK") != 0 &&
		   strcmp(e->status, "PDNG") != 0 && strcmp(e->status, "INFO") != 0 &&
		   strcmp(e->status, "FUTR") != 0) {
		/* a code the balance check would silently leave out */
		scope_path(p, "Sts", path, sizeof(path));
		cl_outq_add(&p->q, e->line, path, "entry_status",
			      "entry %lu status \"%.20s\": expected BOOK, PDNG, INFO or FUTR",
			      e->index, e->status);
	}
	bank_tx_code(c);
	take_entry_details(p); /* without NtryDtls: read now */
	if (e->has_chrgs && strcmp(e->chrgs_ccy, e->ccy) == 0 &&
	    !add_ok(&c->ntry_chrgs_sum, e->chrgs_minor))
		c->ntry_tx_sum_ok = false;
	/* the entry against its transaction details, when each had an
	 * amount in the entry's currency; a bank that gives each
	 * transaction's amount before its itemised charges (Chrgs) booked
	 * their sum less (or, a debit, plus) the charges */
	if (ok && e->txs > 0 && c->ntry_tx_sum_ok && c->ntry_tx_sum != e->amount_minor &&
	    c->ntry_tx_sum - c->ntry_chrgs_sum != e->amount_minor &&
	    c->ntry_tx_sum + c->ntry_chrgs_sum != e->amount_minor) {
		scope_path(p, "Amt", path, sizeof(path));
		struct cl_error *err = cl_outq_add(
			&p->q, c->ntry_amt_line, path, "entry_details_sum",
			"entry %lu amount %s %s differs from the sum of its %lu transaction details "
			"(%s %s)",
			e->index, cl_stmt_fmt_minor(e->amount_minor, exp, a, sizeof(a)), e->ccy,
			e->txs, cl_stmt_fmt_minor(c->ntry_tx_sum, exp, b, sizeof(b)), e->ccy);
		cl_error_detail(err, "TxDtls amounts (Amt, else AmtDtls/TxAmt/Amt) added, those "
				"with the other CdtDbtInd subtracted");
	}
	if (ok) {
		c->n_entries++;
		if (!c->sum_ccy[0])
			memcpy(c->sum_ccy, e->ccy, sizeof(c->sum_ccy));
		else if (strcmp(c->sum_ccy, e->ccy) != 0)
			c->mixed_ccy = true;
		if (!add_ok(&c->sum_all, e->amount_minor))
			c->overflow = true;
		if (e->direction == CL_DIR_CREDIT) {
			c->n_cdt++;
			if (!add_ok(&c->sum_cdt, e->amount_minor))
				c->overflow = true;
		} else {
			c->n_dbt++;
			if (!add_ok(&c->sum_dbt, e->amount_minor))
				c->overflow = true;
		}
		if (strcmp(e->status, "BOOK") == 0) {
			if (e->direction == CL_DIR_CREDIT) {
				c->n_booked_cdt++;
				if (!add_ok(&c->booked_cdt, e->amount_minor))
					c->overflow = true;
			} else {
				c->n_booked_dbt++;
				if (!add_ok(&c->booked_dbt, e->amount_minor))
					c->overflow = true;
			}
		}
	} else {
		c->n_entries++; /* counted for NbOfNtries; the sums cannot be checked */
		c->overflow = true;
	}
	it = cl_stmt_slot(p, CL_STMT_ENTRY);
	it->stmt = c->stmt;
	it->entry = *e;
	cl_stmt_commit(p);
}

static void dtls_end(struct cl_stmt_parser *p)
{
	struct cl_stmt_camt *c = &p->camt;
	struct cl_stmt_entry *e = &c->entry;
	char path[CL_PATH_MAX], a[40], b[40];
	int exp = cl_iso_ccy_exponent(e->ccy);

	/* one TxDtls is the batch summarised (Nordic and Dutch banks write
	 * NbOfTxs 20 over one TxDtls of the whole amount), not a count: the
	 * entry and TtlAmt checks still hold it to the amounts */
	if (c->dtls_btch_nb >= 0 && c->dtls_txs > 1 &&
	    (unsigned long)c->dtls_btch_nb != c->dtls_txs) {
		scope_path(p, "Btch/NbOfTxs", path, sizeof(path));
		cl_outq_add(&p->q, c->btch_line, path, "batch_count",
			      "entry %lu Btch NbOfTxs is %ld, but its NtryDtls has %lu TxDtls",
			      e->index, c->dtls_btch_nb, c->dtls_txs);
	}
	if (c->dtls_btch_has_ttl && c->dtls_txs > 0 && c->dtls_sum_ok) {
		int64_t want = c->dtls_btch_ttl;

		if (e->btch_direction != CL_DIR_NONE && e->btch_direction != e->direction)
			want = -want;
		if (want != c->dtls_sum) {
			scope_path(p, "Btch/TtlAmt", path, sizeof(path));
			cl_outq_add(&p->q, c->btch_line, path, "batch_total",
				      "entry %lu Btch TtlAmt is %s %s, but its %lu TxDtls add up "
				      "to %s %s",
				      e->index, cl_stmt_fmt_minor(want, exp, a, sizeof(a)), e->ccy,
				      c->dtls_txs, cl_stmt_fmt_minor(c->dtls_sum, exp, b, sizeof(b)),
				      e->ccy);
		}
	}
}

static void btch_end(struct cl_stmt_parser *p)
{
	struct cl_stmt_camt *c = &p->camt;
	struct cl_stmt_entry *e = &c->entry;
	char why[200], path[CL_PATH_MAX];

	if (c->btch_nb[0]) {
		char *end;
		long nb = strtol(c->btch_nb, &end, 10);

		if (*end || nb < 0 || strlen(c->btch_nb) > 15) {
			scope_path(p, "NbOfTxs", path, sizeof(path));
			cl_outq_add(&p->q, c->btch_line, path, "batch_count",
				      "Btch NbOfTxs \"%.20s\" is not a number: expected up to 15 "
				      "digits",
				      c->btch_nb);
		} else {
			c->dtls_btch_nb = nb;
			if (e->btch_nb_of_txs < 0)
				e->btch_nb_of_txs = nb;
		}
	}
	if (c->btch_ttl[0]) {
		int64_t v;

		if (cl_stmt_to_minor(c->btch_ttl, c->btch_ccy, &v, why, sizeof(why)) != 0) {
			scope_path(p, "TtlAmt", path, sizeof(path));
			cl_outq_add(&p->q, c->btch_line, path, "amount", "%s", why);
		} else {
			if (!e->btch_has_ttl) {
				e->btch_has_ttl = true;
				e->btch_ttl_amt_minor = v;
			}
			c->dtls_btch_has_ttl = strcmp(c->btch_ccy, e->ccy) == 0;
			c->dtls_btch_ttl = v;
		}
	}
}

/* An ACH trace number in Refs/Prtry: a Tp naming it ("ACH Trace Number",
 * "TRACE"). */
static bool trace_type(const char *tp)
{
	for (const char *s = tp; *s; s++)
		if ((s[0] == 'T' || s[0] == 't') && strncasecmp(s, "trace", 5) == 0)
			return true;
	return false;
}

static void tx_end(struct cl_stmt_parser *p)
{
	struct cl_stmt_camt *c = &p->camt;
	struct cl_stmt_entry *e = &c->entry;
	struct cl_stmt_tx *t = &c->tx;
	const char *amt = c->tx_amt[0] ? c->tx_amt : c->tx_amt2;
	const char *ccy = c->tx_amt[0] ? c->tx_ccy : c->tx_ccy2;
	char why[200], path[CL_PATH_MAX];
	struct cl_stmt_item *it;

	t->direction = c->tx_ind[0] ? indicator(c->tx_ind) : e->direction;
	if (amt[0]) {
		if (cl_stmt_to_minor(amt, ccy, &t->amount_minor, why, sizeof(why)) != 0) {
			scope_path(p, c->tx_amt[0] ? "Amt" : "AmtDtls/TxAmt/Amt", path, sizeof(path));
			cl_outq_add(&p->q, c->tx_amt_line, path, "amount", "%s", why);
		} else {
			t->has_amount = true;
			snprintf(t->ccy, sizeof(t->ccy), "%.3s", ccy);
		}
	}
	if (t->has_amount && strcmp(t->ccy, e->ccy) == 0 && t->direction != CL_DIR_NONE) {
		int64_t v = t->direction == e->direction ? t->amount_minor : -t->amount_minor;

		if (!add_ok(&c->dtls_sum, v))
			c->dtls_sum_ok = false;
		if (!add_ok(&c->ntry_tx_sum, v))
			c->ntry_tx_sum_ok = false;
	} else {
		c->dtls_sum_ok = false;
		c->ntry_tx_sum_ok = false;
	}
	if (c->prtry_ref[0] && trace_type(c->prtry_tp))
		snprintf(t->ach_trace, sizeof(t->ach_trace), "%s", c->prtry_ref);
	take_amount_details(p, &t->has_instd, &t->instd_minor, t->instd_ccy, &t->has_chrgs,
			    &t->chrgs_minor, t->chrgs_ccy);
	if (t->has_chrgs && strcmp(t->chrgs_ccy, e->ccy) == 0 &&
	    !add_ok(&c->ntry_chrgs_sum, t->chrgs_minor))
		c->ntry_tx_sum_ok = false;
	it = cl_stmt_slot(p, CL_STMT_TX);
	it->stmt = c->stmt;
	it->entry = *e;
	it->tx = *t;
	cl_stmt_commit(p);
}

/* TxsSummry text (DecimalNumber, no currency) at the statement's exponent. */
static bool summary_amount(struct cl_stmt_parser *p, const char *text, const char *what,
			   unsigned long line, int64_t *out)
{
	char why[200], path[CL_PATH_MAX];

	if (cl_stmt_to_minor(text, stmt_ccy(&p->camt), out, why, sizeof(why)) == 0)
		return true;
	cl_stmt_xml_scope_path(p, path, sizeof(path));
	snprintf(path + strlen(path), sizeof(path) - strlen(path), "/TxsSummry/%s", what);
	cl_outq_add(&p->q, line, path, "summary_sum", "TxsSummry %s: %s", what, why);
	return false;
}

static void summary_check(struct cl_stmt_parser *p)
{
	struct cl_stmt_camt *c = &p->camt;
	struct cl_stmt_statement *s = &c->stmt;
	int exp = cl_iso_ccy_exponent(stmt_ccy(c));
	char path[CL_PATH_MAX], a[40], b[40];
	int64_t v;
	bool sums = !c->mixed_ccy && !c->overflow && exp >= 0;
	const struct {
		long nb;
		const char *sum, *what;
		unsigned long n, line;
		int64_t total;
	} rows[] = {
		{s->sum_nb_of_ntries, s->sum_sum, "TtlNtries", c->n_entries, c->sum_nb_line,
		 c->sum_all},
		{s->sum_cdt_nb, s->sum_cdt_sum, "TtlCdtNtries", c->n_cdt, c->sum_cdt_line, c->sum_cdt},
		{s->sum_dbt_nb, s->sum_dbt_sum, "TtlDbtNtries", c->n_dbt, c->sum_dbt_line, c->sum_dbt},
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		unsigned long line = rows[i].line ? rows[i].line : c->sum_line;

		if (rows[i].nb >= 0 && (unsigned long)rows[i].nb != rows[i].n) {
			scope_path(p, "", path, sizeof(path));
			snprintf(path + strlen(path), sizeof(path) - strlen(path),
				 "/TxsSummry/%s/NbOfNtries", rows[i].what);
			cl_outq_add(&p->q, line, path, "summary_count",
				      "TxsSummry %s NbOfNtries is %ld, but the statement has %lu "
				      "%s%s",
				      rows[i].what, rows[i].nb, rows[i].n,
				      i == 0 ? "" : i == 1 ? "credit " : "debit ",
				      rows[i].n == 1 ? "entry" : "entries");
		}
		if (rows[i].sum[0] && sums) {
			char what[40];

			snprintf(what, sizeof(what), "%s/Sum", rows[i].what);
			if (summary_amount(p, rows[i].sum, what, line, &v) && v != rows[i].total) {
				scope_path(p, "", path, sizeof(path));
				snprintf(path + strlen(path), sizeof(path) - strlen(path),
					 "/TxsSummry/%s", what);
				cl_outq_add(&p->q, line, path, "summary_sum",
					      "TxsSummry %s is %s, but the statement's %s add up to "
					      "%s %s",
					      what, cl_stmt_fmt_minor(v, exp, a, sizeof(a)),
					      i == 0 ? "entries" : i == 1 ? "credit entries" : "debit entries",
					      cl_stmt_fmt_minor(rows[i].total, exp, b, sizeof(b)),
					      stmt_ccy(c));
			}
		}
	}
	if (c->sum_net[0] && sums &&
	    summary_amount(p, c->sum_net, "TtlNtries/TtlNetNtry", c->sum_nb_line ? c->sum_nb_line
									      : c->sum_line,
			   &v)) {
		int64_t net = c->sum_cdt - c->sum_dbt;

		if (indicator(c->sum_net_ind) == CL_DIR_DEBIT)
			v = -v;
		if (v != net) {
			scope_path(p, "TxsSummry/TtlNtries", path, sizeof(path));
			cl_outq_add(&p->q, c->sum_nb_line ? c->sum_nb_line : c->sum_line, path,
				      "summary_sum",
				      "TxsSummry net amount is %s, but the statement's credits minus "
				      "debits are %s %s",
				      cl_stmt_fmt_minor(v, exp, a, sizeof(a)),
				      cl_stmt_fmt_minor(net, exp, b, sizeof(b)), stmt_ccy(c));
		}
	}
}

/* Opening plus booked credits minus booked debits against closing (o and
 * k, both present): a break is a note, not an error.  The statement is
 * the bank's evidence of what it booked, valid whatever its arithmetic;
 * the loader stores it and reconcile reports the break with its
 * difference (docs/design/0028-statement-balance-breaks.md).  Currencies that
 * differ (an entry booked in another currency than the account's, balances
 * in two) leave nothing to add up: a note that the balance was not added
 * up, never a refusal -- reconcile does not add such a statement up either. */
static void balance_check(struct cl_stmt_parser *p, const struct cl_stmt_balance *o,
			  const struct cl_stmt_balance *k, const char *what)
{
	struct cl_stmt_camt *c = &p->camt;
	int exp = cl_iso_ccy_exponent(o->ccy);
	char path[CL_PATH_MAX], a[40], b[40], d1[40], d2[40], d3[40], d4[40];
	int64_t want = o->amount_minor, diff;
	struct cl_error *err;

	scope_path(p, "Bal", path, sizeof(path));
	if (strcmp(o->ccy, k->ccy) != 0 ||
	    (c->n_booked_cdt + c->n_booked_dbt > 0 && strcmp(c->sum_ccy, o->ccy) != 0) ||
	    c->mixed_ccy) {
		err = cl_outq_note(&p->q, k->line, "statement_currency",
				   "statement %.35s mixes currencies (opening balance %s, closing "
				   "balance %s, entries %s%s): its balance is not added up",
				   c->stmt.id[0] ? c->stmt.id : "(no Id)", o->ccy, k->ccy,
				   c->sum_ccy[0] ? c->sum_ccy : "none",
				   c->mixed_ccy ? " and others" : "");
		snprintf(err->path, sizeof(err->path), "%s", path);
		return;
	}
	if (c->overflow)
		return; /* an entry's amount or direction was already an error */
	if (!add_ok(&want, c->booked_cdt) || !add_ok(&want, -c->booked_dbt))
		return;
	if (want == k->amount_minor)
		return;
	diff = k->amount_minor - want;
	err = cl_outq_note(&p->q, k->line, CL_STMT_BALANCE_BREAK,
			   "balance break of %s %s: %sclosing balance %s is %s %s, but the opening "
			   "balance plus booked credits minus booked debits is %s %s",
			   cl_stmt_fmt_minor(diff, exp, d4, sizeof(d4)), o->ccy, what, k->type,
			   cl_stmt_fmt_minor(k->amount_minor, exp, a, sizeof(a)), k->ccy,
			   cl_stmt_fmt_minor(want, exp, b, sizeof(b)), o->ccy);
	snprintf(err->path, sizeof(err->path), "%s", path);
	cl_error_detail(err,
			"opening balance %s on line %lu: %s; booked credits: %s in %lu %s; booked "
			"debits: %s in %lu %s (only entries with Sts BOOK count)",
			o->type, o->line, cl_stmt_fmt_minor(o->amount_minor, exp, d1, sizeof(d1)),
			cl_stmt_fmt_minor(c->booked_cdt, exp, d2, sizeof(d2)), c->n_booked_cdt,
			c->n_booked_cdt == 1 ? "entry" : "entries",
			cl_stmt_fmt_minor(c->booked_dbt, exp, d3, sizeof(d3)), c->n_booked_dbt,
			c->n_booked_dbt == 1 ? "entry" : "entries");
	cl_error_hint(err, "the statement is valid and loads: reconcile reports the break as an "
			   "exception (balance_break) and still matches its entries");
}

/* One page of several: its own opening (OPBD or PRCD, else its first
 * ITBD) and closing (CLBD, else its last ITBD) against its own entries,
 * when it has both; the whole statement is added up by reconcile once
 * every page is loaded. */
static void page_check(struct cl_stmt_parser *p)
{
	struct cl_stmt_camt *c = &p->camt;
	const struct cl_stmt_statement *s = &c->stmt;
	const struct cl_stmt_balance *o = s->opening.present ? &s->opening : NULL;
	const struct cl_stmt_balance *k = s->closing.present ? &s->closing : NULL;
	char what[80];

	if (!o && c->n_itbd > 0 && c->itbd[0].present)
		o = &c->itbd[0];
	if (!k && c->n_itbd > 0) {
		const struct cl_stmt_balance *last = &c->itbd[c->n_itbd - 1];

		if (last->present && last != o)
			k = last;
	}
	if (!o || !k || strcmp(o->ccy, k->ccy) != 0 || c->mixed_ccy ||
	    (c->n_booked_cdt + c->n_booked_dbt > 0 && strcmp(c->sum_ccy, o->ccy) != 0)) {
		/* (a page in several currencies is not refused: pages were never
		   added up before, and reconcile adds up the whole statement) */
		cl_outq_note(&p->q, s->line, "statement_page",
			     "statement %.35s is page %u%s of several without both an opening "
			     "(OPBD, PRCD or ITBD) and a closing balance (CLBD or ITBD) in the "
			     "currency of its entries: the page is not added up; reconcile adds up "
			     "the whole statement",
			     s->id, s->page ? s->page : 1, s->last_page ? " (the last)" : "");
		return;
	}
	snprintf(what, sizeof(what), "page %u: ", s->page ? s->page : 1);
	balance_check(p, o, k, what);
}

static void stmt_end(struct cl_stmt_parser *p)
{
	struct cl_stmt_camt *c = &p->camt;
	struct cl_stmt_statement *s = &c->stmt;

	give_statement(p);
	if (!s->acct_iban[0] && !s->acct_other[0]) {
		char path[CL_PATH_MAX];

		scope_path(p, "Acct/Id", path, sizeof(path));
		cl_outq_add(&p->q, s->line, path, "missing_element",
			      "statement %lu has no account id: expected Acct/Id/IBAN or "
			      "Acct/Id/Othr/Id",
			      s->index);
	}
	if (p->source == CL_STMT_SRC_CAMT053 && c->n_bal == 0) {
		/* the schema's Stmt has Bal 1..n (camt.052's Rpt 0..n, camt.054's
		   Ntfctn none): a statement without its balances is no statement */
		char path[CL_PATH_MAX];

		scope_path(p, "Bal", path, sizeof(path));
		cl_outq_add(&p->q, s->line, path, "missing_element",
			      "statement %.35s has no balance: expected at least one <Bal> (a "
			      "camt.053 statement states its opening and closing balances)",
			      s->id[0] ? s->id : "(no Id)");
	}
	if (c->n_entries == 0 &&
	    (s->sum_nb_of_ntries > 0 || s->sum_cdt_nb > 0 || s->sum_dbt_nb > 0)) {
		/* a balance report (MT941's kind): balances and a summary of
		   entries it does not list, so nothing to add up */
		cl_outq_note(&p->q, s->line, "balance_report",
			     "statement %.35s lists no entries but its TxsSummry counts some: a "
			     "balance report, its balances and TxsSummry not added up",
			     s->id[0] ? s->id : "(no Id)");
		return;
	}
	if (s->page > 1 || !s->last_page) {
		page_check(p);
		return;
	}
	summary_check(p);
	if (s->opening.present && s->closing.present)
		balance_check(p, &s->opening, &s->closing, "");
}

static void scope_end(struct cl_stmt_parser *p, int scope)
{
	struct cl_stmt_camt *c = &p->camt;

	switch (scope) {
	case SC_STMT:
		stmt_end(p);
		break;
	case SC_BAL:
		bal_end(p);
		break;
	case SC_NTRY:
		ntry_end(p);
		break;
	case SC_DTLS:
		dtls_end(p);
		break;
	case SC_BTCH:
		btch_end(p);
		break;
	case SC_TX:
		tx_end(p);
		break;
	case SC_ROOT:
		if (c->stmt_index == 0) {
			char path[CL_PATH_MAX];

			cl_stmt_xml_scope_path(p, path, sizeof(path));
			cl_outq_add(&p->q, c->root_line, path, "missing_element",
				      "%s has no statement: expected <Stmt>, <Ntfctn> or <Rpt>",
				      p->message_type);
		}
		break;
	default:
		break;
	}
}

/* What every version of camt.052/053/054 requires of the elements read
 * (the XSDs).  Acct, Ntry/Amt, CdtDbtInd and Sts and Bal/Amt and Dt have
 * messages of their own.  Left out, named in clearing-load-keys(7):
 * Stmt/CreDtTm (optional in later versions) and Ntry/BkTxCd, which banks
 * leave out (Subite's camt.054.001.10) while nothing of an entry's key,
 * amount or matching depends on it. */
static const struct cl_stmt_required required[] = {
	{SC_GRPHDR, CF_MSG_ID, "MsgId", "the message's id"},
	{SC_GRPHDR, CF_CRE_DT_TM, "CreDtTm", "when the message was created"},
	{SC_STMT, CF_ID, "Id", "the statement's id, part of its key"},
	{SC_BAL, CF_BAL_TP, "Tp", "the balance's type"},
};

const struct cl_stmt_msg_ops cl_stmt_camt_ops = {
	.paths = paths,
	.npaths = sizeof(paths) / sizeof(paths[0]),
	.nfields = CF_COUNT,
	.vpaths = v01,
	.nvpaths = sizeof(v01) / sizeof(v01[0]),
	.scope_start = scope_start,
	.scope_end = scope_end,
	.field = field,
	.required = required,
	.nrequired = sizeof(required) / sizeof(required[0]),
};
