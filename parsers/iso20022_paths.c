/* iso20022_paths.c - which element paths the parser reads, as a trie over
 * small tag ids, so the parser does one array lookup per element.
 *
 * Subtries are shared: the group header subtrie hangs under every message
 * root, the transaction subtrie under PmtInf/CdtTrfTxInf (pain.001),
 * CdtTrfTxInf (pacs.008, pacs.009) and TxInf (pacs.004).  A path that is
 * not listed is not read, whatever it contains (SplmtryData, the
 * underlying customer transfer of a pacs.009 COV, signatures ...). */
#include "iso20022_internal.h"

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

static void field(int from, const char *p, enum cl_iso_field f)
{
	table.node[path(from, p)].field = (uint8_t)f;
}

static void amount(int from, const char *p, enum cl_iso_field f)
{
	int n = path(from, p);

	table.node[n].field = (uint8_t)f;
	table.node[n].amount = 1;
}

/* BIC (up to .03), BICFI (.04 on) or a clearing system member id. */
static void agent(int from, const char *p, enum cl_iso_field bic, enum cl_iso_field mmb)
{
	int fi = path(path(from, p), "FinInstnId");

	field(fi, "BIC", bic);
	field(fi, "BICFI", bic);
	field(fi, "ClrSysMmbId/MmbId", mmb);
}

static void account(int from, const char *p, enum cl_iso_field iban, enum cl_iso_field othr)
{
	int id = path(path(from, p), "Id");

	field(id, "IBAN", iban);
	field(id, "Othr/Id", othr);
}

static void build(void)
{
	int doc, hdr, grp, pmt, tx, root, n;

	doc = new_node();
	hdr = new_node();
	grp = new_node();
	pmt = new_node();
	tx = new_node();
	table.node[grp].event = EV_GRPHDR;
	table.node[pmt].event = EV_PMTINF;
	table.node[tx].event = EV_TX;

	root = step(doc, "CstmrCdtTrfInitn", 16, -1);
	table.node[root].event = EV_ROOT_PAIN001;
	step(root, "GrpHdr", 6, grp);
	step(root, "PmtInf", 6, pmt);
	step(pmt, "CdtTrfTxInf", 11, tx);

	root = step(doc, "FIToFICstmrCdtTrf", 17, -1);
	table.node[root].event = EV_ROOT_PACS008;
	step(root, "GrpHdr", 6, grp);
	step(root, "CdtTrfTxInf", 11, tx);

	root = step(doc, "FICdtTrf", 8, -1);
	table.node[root].event = EV_ROOT_PACS009;
	step(root, "GrpHdr", 6, grp);
	step(root, "CdtTrfTxInf", 11, tx);

	root = step(doc, "PmtRtr", 6, -1);
	table.node[root].event = EV_ROOT_PACS004;
	step(root, "GrpHdr", 6, grp);
	step(root, "TxInf", 5, tx);
	field(root, "OrgnlGrpInf/OrgnlMsgId", F_GRP_ORGNL_MSG_ID);

	/* group header */
	field(grp, "MsgId", F_MSG_ID);
	field(grp, "CreDtTm", F_CRE_DT_TM);
	field(grp, "NbOfTxs", F_GRP_NB_OF_TXS);
	field(grp, "CtrlSum", F_GRP_CTRL_SUM);
	field(grp, "IntrBkSttlmDt", F_GRP_STTLM_DT);
	agent(grp, "InstgAgt", F_GRP_INSTG_BIC, F_GRP_INSTG_MMB);
	agent(grp, "InstdAgt", F_GRP_INSTD_BIC, F_GRP_INSTD_MMB);
	field(grp, "InitgPty/Nm", F_INITG_NM);
	n = path(grp, "InitgPty/Id");
	field(n, "OrgId/BICOrBEI", F_INITG_ID);
	field(n, "OrgId/AnyBIC", F_INITG_ID);
	field(n, "OrgId/Othr/Id", F_INITG_ID);
	field(n, "PrvtId/Othr/Id", F_INITG_ID);

	/* payment information */
	field(pmt, "PmtInfId", F_PMT_INF_ID);
	field(pmt, "NbOfTxs", F_PMT_NB_OF_TXS);
	field(pmt, "CtrlSum", F_PMT_CTRL_SUM);
	field(pmt, "ReqdExctnDt", F_REQD_EXCTN_DT);    /* .03 - .08 */
	field(pmt, "ReqdExctnDt/Dt", F_REQD_EXCTN_DT); /* .09 on */
	field(pmt, "ReqdExctnDt/DtTm", F_REQD_EXCTN_DTTM);
	field(pmt, "Dbtr/Nm", F_PMT_DBTR_NM);
	account(pmt, "DbtrAcct", F_PMT_DBTR_IBAN, F_PMT_DBTR_OTHR);
	agent(pmt, "DbtrAgt", F_PMT_DBTR_AGT_BIC, F_PMT_DBTR_AGT_MMB);

	/* transaction: identifiers */
	field(tx, "PmtId/InstrId", F_INSTR_ID);
	field(tx, "PmtId/EndToEndId", F_E2E_ID);
	field(tx, "PmtId/TxId", F_TX_ID);
	field(tx, "PmtId/UETR", F_UETR);
	field(tx, "UETR", F_UETR); /* a return's own UETR, where a version has one */
	/* amounts: pain.001, pacs.008/009, pacs.004 */
	amount(tx, "Amt/InstdAmt", F_AMT);
	amount(tx, "Amt/EqvtAmt/Amt", F_AMT);
	field(tx, "Amt/EqvtAmt/CcyOfTrf", F_CCY_OF_TRF);
	amount(tx, "IntrBkSttlmAmt", F_AMT);
	amount(tx, "RtrdIntrBkSttlmAmt", F_AMT);
	field(tx, "IntrBkSttlmDt", F_TX_STTLM_DT);
	agent(tx, "InstgAgt", F_TX_INSTG_BIC, F_TX_INSTG_MMB);
	agent(tx, "InstdAgt", F_TX_INSTD_BIC, F_TX_INSTD_MMB);
	/* parties (pacs.008 and pain.001 creditor side) */
	field(tx, "Dbtr/Nm", F_DBTR_NM);
	account(tx, "DbtrAcct", F_DBTR_IBAN, F_DBTR_OTHR);
	agent(tx, "DbtrAgt", F_DBTR_AGT_BIC, F_DBTR_AGT_MMB);
	field(tx, "Cdtr/Nm", F_CDTR_NM);
	account(tx, "CdtrAcct", F_CDTR_IBAN, F_CDTR_OTHR);
	agent(tx, "CdtrAgt", F_CDTR_AGT_BIC, F_CDTR_AGT_MMB);
	field(tx, "RmtInf/Ustrd", F_USTRD);
	/* pacs.009: debtor and creditor are institutions */
	agent(tx, "Dbtr", F_DBTR_FI_BIC, F_NONE);
	field(tx, "Dbtr/FinInstnId/Nm", F_DBTR_NM);
	agent(tx, "Cdtr", F_CDTR_FI_BIC, F_NONE);
	field(tx, "Cdtr/FinInstnId/Nm", F_CDTR_NM);
	/* pacs.004: the return and the original it refers to; the return
	 * chain comes before OrgnlTxRef in every version and the first value
	 * wins, so the return's own parties are preferred */
	field(tx, "RtrId", F_RTR_ID);
	field(tx, "OrgnlGrpInf/OrgnlMsgId", F_ORGNL_MSG_ID);
	field(tx, "OrgnlEndToEndId", F_ORGNL_E2E_ID);
	field(tx, "OrgnlTxId", F_ORGNL_TX_ID);
	field(tx, "OrgnlUETR", F_ORGNL_UETR);
	field(tx, "RtrRsnInf/Rsn/Cd", F_RSN_CD);
	field(tx, "RtrRsnInf/Rsn/Prtry", F_RSN_PRTRY);
	for (int i = 0; i < 2; i++) {
		n = path(tx, i == 0 ? "RtrChain" : "OrgnlTxRef");
		field(n, "Dbtr/Nm", F_DBTR_NM);
		field(n, "Dbtr/Pty/Nm", F_DBTR_NM);
		field(n, "Cdtr/Nm", F_CDTR_NM);
		field(n, "Cdtr/Pty/Nm", F_CDTR_NM);
		account(n, "DbtrAcct", F_DBTR_IBAN, F_DBTR_OTHR);
		account(n, "CdtrAcct", F_CDTR_IBAN, F_CDTR_OTHR);
		agent(n, "DbtrAgt", F_DBTR_AGT_BIC, F_DBTR_AGT_MMB);
		agent(n, "CdtrAgt", F_CDTR_AGT_BIC, F_CDTR_AGT_MMB);
		if (i == 1)
			field(n, "RmtInf/Ustrd", F_USTRD);
	}

	/* business application header (head.001) */
	agent(hdr, "Fr/FIId", F_HDR_FR_BIC, F_HDR_FR_MMB);
	agent(hdr, "To/FIId", F_HDR_TO_BIC, F_HDR_TO_MMB);
	field(hdr, "MsgDefIdr", F_HDR_MSG_DEF);
}

/* The first five nodes (Document, AppHdr, GrpHdr, PmtInf, transaction)
 * are the scopes paths are told from. */
#define SCOPE_NODES 5

void cl_iso_node_path(const struct cl_iso_paths *t, int node, char *out, size_t cap)
{
	int chain[CL_ISO_MAX_DEPTH], n = 0;
	size_t len = 0;

	out[0] = '\0';
	while (node >= SCOPE_NODES && n < CL_ISO_MAX_DEPTH) {
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
