/* iso20022_paths.c - which element paths the parser reads, as a trie over
 * small tag ids, so the parser does one array lookup per element.
 *
 * Subtries are shared: the group header subtrie hangs under every message
 * root, the transaction subtrie under PmtInf/CdtTrfTxInf (pain.001),
 * CdtTrfTxInf (pacs.008, pacs.009) and TxInf (pacs.004).  A path that is
 * not listed is not read, whatever it contains (SplmtryData, the
 * underlying customer transfer of a pacs.009 COV, signatures ...). */
#include "parsers/iso20022_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static struct cl_iso_paths table;
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static int tag(const char *name, size_t len)
{
	static char names[CL_ISO_MAX_TAGS][24];

	for (int i = 0; i < table.tags; i++)
		if (strlen(table.tag_name[i]) == len && memcmp(table.tag_name[i], name, len) == 0)
			return i;
	if (table.tags == CL_ISO_MAX_TAGS || len >= sizeof(names[0]))
		abort(); /* the table below outgrew the limits: a programming error */
	memcpy(names[table.tags], name, len);
	names[table.tags][len] = '\0';
	table.tag_name[table.tags] = names[table.tags];
	return table.tags++;
}

static int new_node(void)
{
	struct cl_iso_node *n;

	if (table.nodes == CL_ISO_MAX_NODES)
		abort();
	n = &table.node[table.nodes];
	memset(n->child, 0xff, sizeof(n->child)); /* -1 */
	return table.nodes++;
}

/* The child of `from` for one tag, created unless `link` >= 0, in which
 * case it is set to the existing node `link`. */
static int step(int from, const char *name, size_t len, int link)
{
	int t = tag(name, len);
	int16_t *c = &table.node[from].child[t];

	if (*c < 0) {
		*c = (int16_t)(link >= 0 ? link : new_node());
		if (link < 0) {
			table.parent[*c] = (int16_t)from;
			table.parent_tag[*c] = (uint8_t)t;
		}
	}
	return *c;
}

/* Walk "A/B/C" from `from`, creating nodes; returns the last. */
static int path(int from, const char *p)
{
	int n = from;

	while (*p) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);

		n = step(n, p, len, -1);
		p += len + (slash ? 1 : 0);
	}
	return n;
}

/* What a path under a scope holds. */
enum path_kind {
	P_FIELD,   /* a value: field f */
	P_AMOUNT,  /* an amount with its Ccy attribute: field f */
	P_AGENT,   /* a financial institution: FinInstnId/BIC (up to .03) or
	              BICFI (.04 on) into f, ClrSysMmbId/MmbId into f2 */
	P_ACCOUNT, /* an account: Id/IBAN into f, Id/Othr/Id into f2 */
};

struct path_def {
	const char *path; /* "A/B/C" under the scope; NULL ends a list */
	enum path_kind kind;
	enum cl_iso_field f, f2;
};

static const struct path_def grphdr_paths[] = {
	{"MsgId", P_FIELD, F_MSG_ID, F_NONE},
	{"CreDtTm", P_FIELD, F_CRE_DT_TM, F_NONE},
	{"NbOfTxs", P_FIELD, F_GRP_NB_OF_TXS, F_NONE},
	{"CtrlSum", P_FIELD, F_GRP_CTRL_SUM, F_NONE},
	{"IntrBkSttlmDt", P_FIELD, F_GRP_STTLM_DT, F_NONE},
	{"InstgAgt", P_AGENT, F_GRP_INSTG_BIC, F_GRP_INSTG_MMB},
	{"InstgAgt/FinInstnId/LEI", P_FIELD, F_GRP_INSTG_OTHER, F_NONE},
	{"InstgAgt/FinInstnId/Othr/Id", P_FIELD, F_GRP_INSTG_OTHER, F_NONE},
	{"InstgAgt/FinInstnId/Nm", P_FIELD, F_GRP_INSTG_OTHER, F_NONE},
	{"InstdAgt", P_AGENT, F_GRP_INSTD_BIC, F_GRP_INSTD_MMB},
	{"InitgPty/Nm", P_FIELD, F_INITG_NM, F_NONE},
	{"InitgPty/Id/OrgId/BICOrBEI", P_FIELD, F_INITG_ID, F_NONE},
	{"InitgPty/Id/OrgId/AnyBIC", P_FIELD, F_INITG_ID, F_NONE},
	{"InitgPty/Id/OrgId/Othr/Id", P_FIELD, F_INITG_ID, F_NONE},
	{"InitgPty/Id/PrvtId/Othr/Id", P_FIELD, F_INITG_ID, F_NONE},
	{"PmtTpInf/SeqTp", P_FIELD, F_GRP_SEQ_TP, F_NONE}, /* pacs.003 .01, .02 */
	{NULL, P_FIELD, F_NONE, F_NONE},
};

static const struct path_def pmtinf_paths[] = {
	{"PmtInfId", P_FIELD, F_PMT_INF_ID, F_NONE},
	{"NbOfTxs", P_FIELD, F_PMT_NB_OF_TXS, F_NONE},
	{"CtrlSum", P_FIELD, F_PMT_CTRL_SUM, F_NONE},
	{"ReqdExctnDt", P_FIELD, F_REQD_EXCTN_DT, F_NONE},    /* .03 - .08 */
	{"ReqdExctnDt/Dt", P_FIELD, F_REQD_EXCTN_DT, F_NONE}, /* .09 on */
	{"ReqdExctnDt/DtTm", P_FIELD, F_REQD_EXCTN_DTTM, F_NONE},
	{"Dbtr/Nm", P_FIELD, F_PMT_DBTR_NM, F_NONE},
	{"DbtrAcct", P_ACCOUNT, F_PMT_DBTR_IBAN, F_PMT_DBTR_OTHR},
	{"DbtrAgt", P_AGENT, F_PMT_DBTR_AGT_BIC, F_PMT_DBTR_AGT_MMB},
	{NULL, P_FIELD, F_NONE, F_NONE},
};

/* pain.008 PmtInf: the creditor's side, the collection date and the
 * sequence type, for every collection of the block */
static const struct path_def dd_pmtinf_paths[] = {
	{"PmtInfId", P_FIELD, F_PMT_INF_ID, F_NONE},
	{"NbOfTxs", P_FIELD, F_PMT_NB_OF_TXS, F_NONE},
	{"CtrlSum", P_FIELD, F_PMT_CTRL_SUM, F_NONE},
	{"PmtTpInf/SeqTp", P_FIELD, F_PMT_SEQ_TP, F_NONE},
	{"ReqdColltnDt", P_FIELD, F_REQD_COLLTN_DT, F_NONE},
	{"Cdtr/Nm", P_FIELD, F_PMT_CDTR_NM, F_NONE},
	{"CdtrAcct", P_ACCOUNT, F_PMT_CDTR_IBAN, F_PMT_CDTR_OTHR},
	{"CdtrAgt", P_AGENT, F_PMT_CDTR_AGT_BIC, F_PMT_CDTR_AGT_MMB},
	{"CdtrSchmeId/Id/PrvtId/Othr/Id", P_FIELD, F_PMT_CDTR_SCHME_ID, F_NONE},
	{"CdtrSchmeId/Id/PrvtId/OthrId/Id", P_FIELD, F_PMT_CDTR_SCHME_ID, F_NONE}, /* .01 */
	{NULL, P_FIELD, F_NONE, F_NONE},
};

/* A direct debit transaction (pain.008 and pacs.003 DrctDbtTxInf): its
 * own subtrie, so a credit transfer never reads a mandate */
static const struct path_def dd_tx_paths[] = {
	{"PmtId/InstrId", P_FIELD, F_INSTR_ID, F_NONE},
	{"PmtId/EndToEndId", P_FIELD, F_E2E_ID, F_NONE},
	{"PmtId/TxId", P_FIELD, F_TX_ID, F_NONE},
	{"PmtId/UETR", P_FIELD, F_UETR, F_NONE},
	{"PmtTpInf/SeqTp", P_FIELD, F_TX_SEQ_TP, F_NONE},
	{"IntrBkSttlmDt", P_FIELD, F_TX_STTLM_DT, F_NONE},
	{"DrctDbtTx/MndtRltdInf/MndtId", P_FIELD, F_MNDT_ID, F_NONE},
	{"DrctDbtTx/MndtRltdInf/DtOfSgntr", P_FIELD, F_MNDT_DT, F_NONE},
	{"DrctDbtTx/CdtrSchmeId/Id/PrvtId/Othr/Id", P_FIELD, F_TX_CDTR_SCHME_ID, F_NONE},
	{"DrctDbtTx/CdtrSchmeId/Id/PrvtId/OthrId/Id", P_FIELD, F_TX_CDTR_SCHME_ID, F_NONE},
	{"InstgAgt", P_AGENT, F_TX_INSTG_BIC, F_TX_INSTG_MMB},
	{"InstgAgt/FinInstnId/LEI", P_FIELD, F_TX_INSTG_OTHER, F_NONE},
	{"InstgAgt/FinInstnId/Othr/Id", P_FIELD, F_TX_INSTG_OTHER, F_NONE},
	{"InstgAgt/FinInstnId/Nm", P_FIELD, F_TX_INSTG_OTHER, F_NONE},
	{"InstdAgt", P_AGENT, F_TX_INSTD_BIC, F_TX_INSTD_MMB},
	{"Cdtr/Nm", P_FIELD, F_CDTR_NM, F_NONE},
	{"CdtrAcct", P_ACCOUNT, F_CDTR_IBAN, F_CDTR_OTHR},
	{"CdtrAgt", P_AGENT, F_CDTR_AGT_BIC, F_CDTR_AGT_MMB},
	{"Dbtr/Nm", P_FIELD, F_DBTR_NM, F_NONE},
	{"DbtrAcct", P_ACCOUNT, F_DBTR_IBAN, F_DBTR_OTHR},
	{"DbtrAgt", P_AGENT, F_DBTR_AGT_BIC, F_DBTR_AGT_MMB},
	{"RmtInf/Ustrd", P_FIELD, F_USTRD, F_NONE},
	{NULL, P_FIELD, F_NONE, F_NONE},
};

static const struct path_def tx_paths[] = {
	/* identifiers */
	{"PmtId/InstrId", P_FIELD, F_INSTR_ID, F_NONE},
	{"PmtId/EndToEndId", P_FIELD, F_E2E_ID, F_NONE},
	{"PmtId/TxId", P_FIELD, F_TX_ID, F_NONE},
	{"PmtId/UETR", P_FIELD, F_UETR, F_NONE},
	{"UETR", P_FIELD, F_UETR, F_NONE}, /* a return's own UETR, where a version has one */
	/* amounts: pain.001, pacs.008/009, pacs.004 */
	{"Amt/InstdAmt", P_AMOUNT, F_AMT, F_NONE},
	{"Amt/EqvtAmt/Amt", P_AMOUNT, F_AMT, F_NONE},
	{"Amt/EqvtAmt/CcyOfTrf", P_FIELD, F_CCY_OF_TRF, F_NONE},
	{"IntrBkSttlmAmt", P_AMOUNT, F_AMT, F_NONE},
	{"RtrdIntrBkSttlmAmt", P_AMOUNT, F_AMT, F_NONE},
	{"IntrBkSttlmDt", P_FIELD, F_TX_STTLM_DT, F_NONE},
	{"InstgAgt", P_AGENT, F_TX_INSTG_BIC, F_TX_INSTG_MMB},
	/* an instructing agent named otherwise: no key part, said so */
	{"InstgAgt/FinInstnId/LEI", P_FIELD, F_TX_INSTG_OTHER, F_NONE},
	{"InstgAgt/FinInstnId/Othr/Id", P_FIELD, F_TX_INSTG_OTHER, F_NONE},
	{"InstgAgt/FinInstnId/Nm", P_FIELD, F_TX_INSTG_OTHER, F_NONE},
	{"InstdAgt", P_AGENT, F_TX_INSTD_BIC, F_TX_INSTD_MMB},
	/* parties (pacs.008 and pain.001 creditor side) */
	{"Dbtr/Nm", P_FIELD, F_DBTR_NM, F_NONE},
	{"DbtrAcct", P_ACCOUNT, F_DBTR_IBAN, F_DBTR_OTHR},
	{"DbtrAgt", P_AGENT, F_DBTR_AGT_BIC, F_DBTR_AGT_MMB},
	{"Cdtr/Nm", P_FIELD, F_CDTR_NM, F_NONE},
	{"CdtrAcct", P_ACCOUNT, F_CDTR_IBAN, F_CDTR_OTHR},
	{"CdtrAgt", P_AGENT, F_CDTR_AGT_BIC, F_CDTR_AGT_MMB},
	{"RmtInf/Ustrd", P_FIELD, F_USTRD, F_NONE},
	/* pacs.009: debtor and creditor are institutions */
	{"Dbtr", P_AGENT, F_DBTR_FI_BIC, F_NONE},
	{"Dbtr/FinInstnId/Nm", P_FIELD, F_DBTR_NM, F_NONE},
	{"Cdtr", P_AGENT, F_CDTR_FI_BIC, F_NONE},
	{"Cdtr/FinInstnId/Nm", P_FIELD, F_CDTR_NM, F_NONE},
	/* pacs.004: the return and the original it refers to (the parties of
	 * RtrChain and OrgnlTxRef: return_party_paths) */
	{"RtrId", P_FIELD, F_RTR_ID, F_NONE},
	{"OrgnlGrpInf/OrgnlMsgId", P_FIELD, F_ORGNL_MSG_ID, F_NONE},
	{"OrgnlEndToEndId", P_FIELD, F_ORGNL_E2E_ID, F_NONE},
	{"OrgnlTxId", P_FIELD, F_ORGNL_TX_ID, F_NONE},
	{"OrgnlUETR", P_FIELD, F_ORGNL_UETR, F_NONE},
	{"RtrRsnInf/Rsn/Cd", P_FIELD, F_RSN_CD, F_NONE},
	{"RtrRsnInf/Rsn/Prtry", P_FIELD, F_RSN_PRTRY, F_NONE},
	{"OrgnlTxRef/RmtInf/Ustrd", P_FIELD, F_USTRD, F_NONE},
	{NULL, P_FIELD, F_NONE, F_NONE},
};

/* Under RtrChain and under OrgnlTxRef: the return chain comes before
 * OrgnlTxRef in every version and the first value wins, so the return's
 * own parties are preferred. */
static const struct path_def return_party_paths[] = {
	{"Dbtr/Nm", P_FIELD, F_DBTR_NM, F_NONE},
	{"Dbtr/Pty/Nm", P_FIELD, F_DBTR_NM, F_NONE},
	{"Cdtr/Nm", P_FIELD, F_CDTR_NM, F_NONE},
	{"Cdtr/Pty/Nm", P_FIELD, F_CDTR_NM, F_NONE},
	{"DbtrAcct", P_ACCOUNT, F_DBTR_IBAN, F_DBTR_OTHR},
	{"CdtrAcct", P_ACCOUNT, F_CDTR_IBAN, F_CDTR_OTHR},
	{"DbtrAgt", P_AGENT, F_DBTR_AGT_BIC, F_DBTR_AGT_MMB},
	{"CdtrAgt", P_AGENT, F_CDTR_AGT_BIC, F_CDTR_AGT_MMB},
	{NULL, P_FIELD, F_NONE, F_NONE},
};

/* Cancellations (camt.056 FIToFIPmtCxlReq, camt.029 RsltnOfInvstgtn):
 * the assignment (Assgnmt, first in both, read as the group header), the
 * underlying group (camt.056 Undrlyg, camt.029 CxlDtls, read as a PmtInf)
 * and one transaction each (TxInf, TxInfAndSts).  The assigner is the
 * sender of this hop, as InstgAgt in pacs; the transaction's own
 * Assgnr/Assgne come first. */
static const struct path_def assgnmt_paths[] = {
	{"Id", P_FIELD, F_MSG_ID, F_NONE},
	{"CreDtTm", P_FIELD, F_CRE_DT_TM, F_NONE},
	{"Assgnr/Agt", P_AGENT, F_GRP_INSTG_BIC, F_GRP_INSTG_MMB},
	{"Assgnr/Agt/FinInstnId/LEI", P_FIELD, F_GRP_INSTG_OTHER, F_NONE},
	{"Assgnr/Agt/FinInstnId/Othr/Id", P_FIELD, F_GRP_INSTG_OTHER, F_NONE},
	{"Assgnr/Agt/FinInstnId/Nm", P_FIELD, F_GRP_INSTG_OTHER, F_NONE},
	{"Assgnr/Pty/Nm", P_FIELD, F_GRP_INSTG_OTHER, F_NONE},
	{"Assgnr/Pty/Id/OrgId/AnyBIC", P_FIELD, F_GRP_INSTG_OTHER, F_NONE},
	{"Assgnr/Pty/Id/OrgId/Othr/Id", P_FIELD, F_GRP_INSTG_OTHER, F_NONE},
	{"Assgne/Agt", P_AGENT, F_GRP_INSTD_BIC, F_GRP_INSTD_MMB},
	{NULL, P_FIELD, F_NONE, F_NONE},
};

/* the transaction of either: what it points to and who sends it */
static const struct path_def cxl_tx_paths[] = {
	{"OrgnlGrpInf/OrgnlMsgId", P_FIELD, F_ORGNL_MSG_ID, F_NONE},
	{"OrgnlInstrId", P_FIELD, F_ORGNL_INSTR_ID, F_NONE},
	{"OrgnlEndToEndId", P_FIELD, F_ORGNL_E2E_ID, F_NONE},
	{"OrgnlTxId", P_FIELD, F_ORGNL_TX_ID, F_NONE},
	{"OrgnlUETR", P_FIELD, F_ORGNL_UETR, F_NONE},
	{"OrgnlIntrBkSttlmAmt", P_AMOUNT, F_AMT, F_NONE},
	{"OrgnlIntrBkSttlmDt", P_FIELD, F_TX_STTLM_DT, F_NONE},
	{"Assgnr/Agt", P_AGENT, F_TX_INSTG_BIC, F_TX_INSTG_MMB},
	{"Assgnr/Agt/FinInstnId/LEI", P_FIELD, F_TX_INSTG_OTHER, F_NONE},
	{"Assgnr/Agt/FinInstnId/Othr/Id", P_FIELD, F_TX_INSTG_OTHER, F_NONE},
	{"Assgnr/Agt/FinInstnId/Nm", P_FIELD, F_TX_INSTG_OTHER, F_NONE},
	{"Assgne/Agt", P_AGENT, F_TX_INSTD_BIC, F_TX_INSTD_MMB},
	{NULL, P_FIELD, F_NONE, F_NONE},
};

static const struct path_def cxl_req_tx_paths[] = {
	{"CxlId", P_FIELD, F_CXL_ID, F_NONE},
	{"Case/Id", P_FIELD, F_CASE_ID, F_NONE},
	{"CxlRsnInf/Rsn/Cd", P_FIELD, F_RSN_CD, F_NONE},
	{"CxlRsnInf/Rsn/Prtry", P_FIELD, F_RSN_PRTRY, F_NONE},
	{NULL, P_FIELD, F_NONE, F_NONE},
};

static const struct path_def cxl_sts_tx_paths[] = {
	{"CxlStsId", P_FIELD, F_CXL_ID, F_NONE},
	{"RslvdCase/Id", P_FIELD, F_CASE_ID, F_NONE},
	{"TxCxlSts", P_FIELD, F_CXL_STS, F_NONE},
	{"CxlStsRsnInf/Rsn/Cd", P_FIELD, F_RSN_CD, F_NONE},
	{"CxlStsRsnInf/Rsn/Prtry", P_FIELD, F_RSN_PRTRY, F_NONE},
	{NULL, P_FIELD, F_NONE, F_NONE},
};

/* business application header (head.001) */
static const struct path_def apphdr_paths[] = {
	{"Fr/FIId", P_AGENT, F_HDR_FR_BIC, F_HDR_FR_MMB},
	{"Fr/FIId/FinInstnId/LEI", P_FIELD, F_HDR_FR_OTHER, F_NONE},
	{"Fr/FIId/FinInstnId/Othr/Id", P_FIELD, F_HDR_FR_OTHER, F_NONE},
	{"Fr/FIId/FinInstnId/Nm", P_FIELD, F_HDR_FR_OTHER, F_NONE},
	{"To/FIId", P_AGENT, F_HDR_TO_BIC, F_HDR_TO_MMB},
	{"MsgDefIdr", P_FIELD, F_HDR_MSG_DEF, F_NONE},
	{NULL, P_FIELD, F_NONE, F_NONE},
};

static void field(int from, const char *p, enum cl_iso_field f)
{
	table.node[path(from, p)].field = (uint8_t)f;
}

static void add_paths(int from, const struct path_def *d)
{
	for (; d->path; d++) {
		int n = path(from, d->path);

		switch (d->kind) {
		case P_FIELD:
		case P_AMOUNT:
			table.node[n].field = (uint8_t)d->f;
			if (d->kind == P_AMOUNT)
				table.node[n].amount = 1;
			break;
		case P_AGENT:
			n = path(n, "FinInstnId");
			field(n, "BIC", d->f);
			field(n, "BICFI", d->f);
			field(n, "ClrSysMmbId/MmbId", d->f2);
			break;
		case P_ACCOUNT:
			n = path(n, "Id");
			field(n, "IBAN", d->f);
			field(n, "Othr/Id", d->f2);
			break;
		}
	}
}

/* A message root under Document, with the shared group header under it. */
static int message_root(int doc, const char *name, enum cl_iso_event ev, int grp)
{
	int root = path(doc, name);

	table.node[root].event = (uint8_t)ev;
	step(root, "GrpHdr", 6, grp);
	return root;
}

static void build(void)
{
	int doc, hdr, grp, pmt, tx, root, dd_pmt, dd_tx_pain, dd_tx_pacs;

	doc = new_node();
	hdr = new_node();
	grp = new_node();
	pmt = new_node();
	tx = new_node();
	table.node[grp].event = EV_GRPHDR;
	table.node[pmt].event = EV_PMTINF;
	table.node[tx].event = EV_TX;

	root = message_root(doc, "CstmrCdtTrfInitn", EV_ROOT_PAIN001, grp);
	step(root, "PmtInf", 6, pmt);
	step(pmt, "CdtTrfTxInf", 11, tx);
	root = message_root(doc, "FIToFICstmrCdtTrf", EV_ROOT_PACS008, grp);
	step(root, "CdtTrfTxInf", 11, tx);
	root = message_root(doc, "FICdtTrf", EV_ROOT_PACS009, grp);
	step(root, "CdtTrfTxInf", 11, tx);
	root = message_root(doc, "PmtRtr", EV_ROOT_PACS004, grp);
	step(root, "TxInf", 5, tx);
	field(root, "OrgnlGrpInf/OrgnlMsgId", F_GRP_ORGNL_MSG_ID);

	add_paths(grp, grphdr_paths);
	add_paths(pmt, pmtinf_paths);
	add_paths(tx, tx_paths);
	add_paths(path(tx, "RtrChain"), return_party_paths);
	add_paths(path(tx, "OrgnlTxRef"), return_party_paths);
	add_paths(hdr, apphdr_paths);

	/* direct debits: pain.008 (named "pain.008.001.01" in its first
	   version) and pacs.003; the amount is InstdAmt in pain.008, the
	   settlement amount in pacs.003 (whose InstdAmt, the amount before
	   charges, is not read) */
	dd_pmt = new_node();
	dd_tx_pain = new_node();
	dd_tx_pacs = new_node();
	table.node[dd_pmt].event = EV_PMTINF;
	table.node[dd_tx_pain].event = EV_TX;
	table.node[dd_tx_pacs].event = EV_TX;
	root = message_root(doc, "CstmrDrctDbtInitn", EV_ROOT_PAIN008, grp);
	step(root, "PmtInf", 6, dd_pmt);
	root = message_root(doc, "pain.008.001.01", EV_ROOT_PAIN008, grp);
	step(root, "PmtInf", 6, dd_pmt);
	step(dd_pmt, "DrctDbtTxInf", 12, dd_tx_pain);
	root = message_root(doc, "FIToFICstmrDrctDbt", EV_ROOT_PACS003, grp);
	step(root, "DrctDbtTxInf", 12, dd_tx_pacs);
	root = message_root(doc, "pacs.003.001.01", EV_ROOT_PACS003, grp);
	step(root, "DrctDbtTxInf", 12, dd_tx_pacs);
	add_paths(dd_pmt, dd_pmtinf_paths);
	add_paths(dd_tx_pain, dd_tx_paths);
	table.node[path(dd_tx_pain, "InstdAmt")].field = F_AMT;
	table.node[path(dd_tx_pain, "InstdAmt")].amount = 1;
	add_paths(dd_tx_pacs, dd_tx_paths);
	table.node[path(dd_tx_pacs, "IntrBkSttlmAmt")].field = F_AMT;
	table.node[path(dd_tx_pacs, "IntrBkSttlmAmt")].amount = 1;

	/* cancellations: camt.056 and camt.029 share the assignment */
	{
		int asg = new_node(), und = new_node(), req_tx = new_node();
		int dtls = new_node(), sts_tx = new_node();

		table.node[asg].event = EV_GRPHDR;
		table.node[und].event = EV_PMTINF;
		table.node[dtls].event = EV_PMTINF;
		table.node[req_tx].event = EV_TX;
		table.node[sts_tx].event = EV_TX;
		root = path(doc, "FIToFIPmtCxlReq");
		table.node[root].event = EV_ROOT_CAMT056;
		step(root, "Assgnmt", 7, asg);
		field(root, "Case/Id", F_GRP_CASE_ID);
		field(root, "CtrlData/NbOfTxs", F_GRP_NB_OF_TXS);
		step(root, "Undrlyg", 7, und);
		field(und, "OrgnlGrpInfAndCxl/OrgnlMsgId", F_PMT_ORGNL_MSG_ID);
		field(und, "OrgnlGrpInfAndCxl/Case/Id", F_PMT_CASE_ID);
		step(und, "TxInf", 5, req_tx);
		root = path(doc, "RsltnOfInvstgtn");
		table.node[root].event = EV_ROOT_CAMT029;
		step(root, "Assgnmt", 7, asg);
		field(root, "RslvdCase/Id", F_GRP_CASE_ID);
		field(root, "Sts/Conf", F_GRP_CONF);
		step(root, "CxlDtls", 7, dtls);
		field(dtls, "OrgnlGrpInfAndSts/OrgnlMsgId", F_PMT_ORGNL_MSG_ID);
		step(dtls, "TxInfAndSts", 11, sts_tx);
		add_paths(asg, assgnmt_paths);
		add_paths(req_tx, cxl_tx_paths);
		add_paths(req_tx, cxl_req_tx_paths);
		add_paths(sts_tx, cxl_tx_paths);
		add_paths(sts_tx, cxl_sts_tx_paths);
	}
}

/* The first five nodes (Document, AppHdr, GrpHdr, PmtInf, transaction)
 * are the scopes paths are told from. */
#define SCOPE_NODES 5

void cl_iso_node_path(const struct cl_iso_paths *t, int node, char *out, size_t cap)
{
	int chain[CL_ISO_MAX_DEPTH], n = 0;
	size_t len = 0;

	out[0] = '\0';
	/* the direct debits' and cancellations' scopes are scopes too, and
	   the message root for the fields right under it */
	while (node >= SCOPE_NODES && t->node[node].event != EV_PMTINF &&
	       t->node[node].event != EV_TX && t->node[node].event != EV_GRPHDR &&
	       !(t->node[node].event >= EV_ROOT_PAIN001 &&
		 t->node[node].event <= EV_ROOT_CAMT029) &&
	       n < CL_ISO_MAX_DEPTH) {
		chain[n++] = node;
		node = t->parent[node];
	}
	while (n-- > 0) {
		const char *name = t->tag_name[t->parent_tag[chain[n]]];
		size_t k = strlen(name);

		if (len + k + 2 > cap)
			break;
		if (len)
			out[len++] = '/';
		memcpy(out + len, name, k + 1);
		len += k;
	}
}

const struct cl_iso_paths *cl_iso_paths(void)
{
	pthread_once(&table_once, build);
	return &table;
}
