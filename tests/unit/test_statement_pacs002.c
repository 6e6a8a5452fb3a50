/* test_statement_pacs002.c - the pacs.002 reader (parsers/statement.h):
 * group and transaction statuses with the original references they carry,
 * in the ISO 20022 layouts of .001.03 (one original group) and .001.10
 * (per-transaction OrgnlGrpInf), .001.02 (root <pacs.002.001.02>, StsRsn),
 * and TCH RTP's root without Document. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_statement_util.h"

static struct stmt_run run;

static const char v10[] =
	"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10\">\n"      /* 1 */
	"<FIToFIPmtStsRpt>\n"                                                         /* 2 */
	"<GrpHdr><MsgId>STS-1</MsgId><CreDtTm>2026-11-30T09:00:00Z</CreDtTm></GrpHdr>\n" /* 3 */
	"<OrgnlGrpInfAndSts><OrgnlMsgId>ORIG-1</OrgnlMsgId>"
	"<OrgnlMsgNmId>pacs.008.001.08</OrgnlMsgNmId><GrpSts>PART</GrpSts></OrgnlGrpInfAndSts>\n" /* 4 */
	"<TxInfAndSts><StsId>S1</StsId><OrgnlInstrId>I1</OrgnlInstrId>"
	"<OrgnlEndToEndId>E1</OrgnlEndToEndId><OrgnlTxId>T1</OrgnlTxId>"
	"<OrgnlUETR>8a562c67-ca16-48ba-b074-65581be6f011</OrgnlUETR><TxSts>ACSC</TxSts>"
	"<OrgnlTxRef><IntrBkSttlmAmt Ccy=\"USD\">1234.56</IntrBkSttlmAmt></OrgnlTxRef>"
	"</TxInfAndSts>\n"                                                            /* 5 */
	"<TxInfAndSts><OrgnlGrpInf><OrgnlMsgId>ORIG-2</OrgnlMsgId>"
	"<OrgnlMsgNmId>pacs.008.001.08</OrgnlMsgNmId></OrgnlGrpInf>"
	"<OrgnlEndToEndId>E2</OrgnlEndToEndId><TxSts>RJCT</TxSts>"
	"<StsRsnInf><Rsn><Cd>AC04</Cd></Rsn></StsRsnInf>"
	"<StsRsnInf><Rsn><Cd>AM05</Cd></Rsn></StsRsnInf></TxInfAndSts>\n"            /* 6 */
	"</FIToFIPmtStsRpt></Document>\n";

static void test_statement_pacs002_statuses(void **state)
{
	const struct cl_stmt_item *g, *t;

	(void)state;
	stmt_run_str(v10, &run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.source, "pacs.002");
	assert_int_equal(run.nkind[CL_STMT_GROUP_STATUS], 1);
	assert_int_equal(run.nkind[CL_STMT_TX_STATUS], 2);
	g = stmt_nth(&run, CL_STMT_GROUP_STATUS, 0);
	assert_string_equal(g->stmt.msg_id, "STS-1");
	assert_string_equal(g->status.orgnl_msg_id, "ORIG-1");
	assert_string_equal(g->status.status, "PART");
	assert_int_equal(g->status.line, 4);

	t = stmt_nth(&run, CL_STMT_TX_STATUS, 0);
	assert_int_equal(t->status.index, 1);
	assert_int_equal(t->status.line, 5);
	assert_string_equal(t->status.sts_id, "S1");
	assert_string_equal(t->status.orgnl_msg_id, "ORIG-1"); /* from the group */
	assert_string_equal(t->status.orgnl_msg_nm_id, "pacs.008.001.08");
	assert_string_equal(t->status.orgnl_instr_id, "I1");
	assert_string_equal(t->status.orgnl_end_to_end_id, "E1");
	assert_string_equal(t->status.orgnl_tx_id, "T1");
	assert_string_equal(t->status.orgnl_uetr, "8a562c67-ca16-48ba-b074-65581be6f011");
	assert_string_equal(t->status.status, "ACSC");
	assert_true(t->status.has_amount);
	assert_int_equal(t->status.amount_minor, 123456);
	assert_string_equal(t->status.ccy, "USD");

	t = stmt_nth(&run, CL_STMT_TX_STATUS, 1);
	assert_string_equal(t->status.orgnl_msg_id, "ORIG-2"); /* its own */
	assert_string_equal(t->status.status, "RJCT");
	assert_string_equal(t->status.reason, "AC04"); /* the first reason */
	assert_false(t->status.has_amount);
	assert_true(stmt_chunk_stable(v10));
}

static void test_statement_pacs002_no_original_reference(void **state)
{
	(void)state;
	stmt_run_str("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pacs.002.001.03\">\n"
		     "<FIToFIPmtStsRpt><GrpHdr><MsgId>M</MsgId><CreDtTm>2026-03-03T06:00:00</CreDtTm></GrpHdr>\n"
		     "<OrgnlGrpInfAndSts><OrgnlMsgId>O</OrgnlMsgId></OrgnlGrpInfAndSts>\n"
		     "<TxInfAndSts><TxSts>RJCT</TxSts></TxInfAndSts>\n"
		     "</FIToFIPmtStsRpt></Document>\n",
		     &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "no_original_reference");
	assert_int_equal(run.err[0].line, 4);
	assert_string_equal(run.err[0].message,
			    "transaction status 1 names no original transaction: expected "
			    "OrgnlEndToEndId, OrgnlTxId, OrgnlUETR or OrgnlInstrId");
	assert_string_equal(run.err[0].path, "/Document/FIToFIPmtStsRpt/TxInfAndSts");
	assert_int_equal(run.nkind[CL_STMT_TX_STATUS], 1); /* still handed out */
}

static void test_statement_pacs002_bad_status(void **state)
{
	(void)state;
	stmt_run_str("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10\">"
		     "<FIToFIPmtStsRpt><GrpHdr><MsgId>M</MsgId><CreDtTm>2026-03-03T06:00:00</CreDtTm></GrpHdr>"
		     "<TxInfAndSts><OrgnlEndToEndId>E</OrgnlEndToEndId><TxSts>ACCEPTED</TxSts>"
		     "</TxInfAndSts></FIToFIPmtStsRpt></Document>",
		     &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "status_code");
	assert_string_equal(run.err[0].message,
			    "TxSts \"ACCEPTED\" is not a status code: expected 1 to 4 letters or "
			    "digits (ACSC, RJCT, ...)");
}

/* pacs.002.001.02 (2006): the root is the message name, the reason is
 * StsRsnInf/StsRsn; one group, the transactions refer to it.  An
 * OrgnlGrpInfAndSts naming its original by NtwkFileNm has no OrgnlMsgId,
 * and the file name is not taken for one. */
static void test_statement_pacs002_v02(void **state)
{
	static const char d[] =
		"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pacs.002.001.02\">\n" /* 1 */
		"<pacs.002.001.02><GrpHdr><MsgId>S02</MsgId>"
		"<CreDtTm>2007-11-05T10:00:00</CreDtTm></GrpHdr>\n"                       /* 2 */
		"<OrgnlGrpInfAndSts><OrgnlMsgId>O02</OrgnlMsgId>"
		"<OrgnlMsgNmId>pacs.008.001.01</OrgnlMsgNmId><GrpSts>PART</GrpSts>"
		"<StsRsnInf><StsRsn><Prtry>G1</Prtry></StsRsn></StsRsnInf></OrgnlGrpInfAndSts>\n" /* 3 */
		"<TxInfAndSts><StsId>S</StsId><OrgnlEndToEndId>E</OrgnlEndToEndId>"
		"<TxSts>RJCT</TxSts><StsRsnInf><StsRsn><Cd>AC01</Cd></StsRsn></StsRsnInf>"
		"<OrgnlTxRef><IntrBkSttlmAmt Ccy=\"EUR\">120.00</IntrBkSttlmAmt></OrgnlTxRef>"
		"</TxInfAndSts>\n"                                                         /* 4 */
		"</pacs.002.001.02></Document>\n";
	static const char nf[] =
		"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pacs.002.001.02\">"
		"<pacs.002.001.02><GrpHdr><MsgId>S02</MsgId><CreDtTm>2026-03-03T06:00:00</CreDtTm></GrpHdr>"
		"<OrgnlGrpInfAndSts><NtwkFileNm>BULK.0042</NtwkFileNm>"
		"<OrgnlMsgNmId>pacs.008.001.01</OrgnlMsgNmId><GrpSts>ACCP</GrpSts></OrgnlGrpInfAndSts>"
		"<TxInfAndSts><OrgnlTxId>T</OrgnlTxId><TxSts>ACSC</TxSts></TxInfAndSts>"
		"</pacs.002.001.02></Document>";
	const struct cl_stmt_item *g, *t;

	(void)state;
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.message_type, "pacs.002.001.02");
	g = stmt_nth(&run, CL_STMT_GROUP_STATUS, 0);
	assert_string_equal(g->stmt.msg_id, "S02");
	assert_string_equal(g->status.orgnl_msg_id, "O02");
	assert_string_equal(g->status.status, "PART");
	assert_string_equal(g->status.reason, "G1");
	t = stmt_nth(&run, CL_STMT_TX_STATUS, 0);
	assert_int_equal(t->status.line, 4);
	assert_string_equal(t->status.orgnl_msg_id, "O02");
	assert_string_equal(t->status.orgnl_end_to_end_id, "E");
	assert_string_equal(t->status.status, "RJCT");
	assert_string_equal(t->status.reason, "AC01");
	assert_int_equal(t->status.amount_minor, 12000);
	assert_true(stmt_chunk_stable(d));

	stmt_run_str(nf, &run);
	assert_int_equal(run.nerr, 0);
	g = stmt_nth(&run, CL_STMT_GROUP_STATUS, 0);
	assert_string_equal(g->status.orgnl_msg_id, "");
	t = stmt_nth(&run, CL_STMT_TX_STATUS, 0);
	assert_string_equal(t->status.orgnl_msg_id, "");
	assert_string_equal(t->status.orgnl_tx_id, "T");
}

/* pacs.002.001.01 was never published; .001.16 is the newest read. */
static void test_statement_pacs002_versions(void **state)
{
	(void)state;
	stmt_run_str("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pacs.002.001.01\">"
		     "<pacs.002.001.01/></Document>",
		     &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "unsupported_version");
	assert_string_equal(run.err[0].message,
			    "unsupported message version pacs.002.001.01: no such version was "
			    "published (ISO 20022 publishes pacs.002 from .001.02); expected "
			    "camt.052, camt.053 or camt.054 (.001.01 to .001.14), pacs.002 (.001.02 "
			    "to .001.16) or pain.002 (.001.02 to .001.15)");
	stmt_run_str("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pacs.002.001.16\">"
		     "<FIToFIPmtStsRpt><GrpHdr><MsgId>R</MsgId><CreDtTm>2026-03-03T06:00:00</CreDtTm></GrpHdr><TxInfAndSts>"
		     "<OrgnlTxId>T</OrgnlTxId><TxSts>ACTC</TxSts><StsRsnInf><Rsn><Cd>AB05</Cd></Rsn>"
		     "</StsRsnInf></TxInfAndSts></FIToFIPmtStsRpt></Document>",
		     &run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.item[0].status.reason, "AB05");
	/* the root of .001.03 on, under the .001.02 namespace, is not it */
	stmt_run_str("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pacs.002.001.02\">"
		     "<FIToFIPmtStsRpt/></Document>",
		     &run);
	assert_string_equal(run.err[0].code, "unexpected_element");
	assert_string_equal(run.err[0].message, "element <FIToFIPmtStsRpt> under Document: a "
						"pacs.002.001.02 message has <pacs.002.001.02>");
}

/* pain.002 (.001.03 on): a group status, a payment information block's
 * status and its transactions' statuses, each transaction with its
 * block's OrgnlPmtInfId and the report's OrgnlMsgId. */
static const char pain_v03[] =
	"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.002.001.03\">\n"      /* 1 */
	"<CstmrPmtStsRpt>\n"                                                         /* 2 */
	"<GrpHdr><MsgId>CS-1</MsgId><CreDtTm>2026-11-30T09:00:00Z</CreDtTm></GrpHdr>\n" /* 3 */
	"<OrgnlGrpInfAndSts><OrgnlMsgId>PAIN-1</OrgnlMsgId>"
	"<OrgnlMsgNmId>pain.001.001.03</OrgnlMsgNmId><GrpSts>PART</GrpSts></OrgnlGrpInfAndSts>\n" /* 4 */
	"<OrgnlPmtInfAndSts><OrgnlPmtInfId>PI-1</OrgnlPmtInfId><PmtInfSts>RJCT</PmtInfSts>"
	"<StsRsnInf><Rsn><Cd>AM04</Cd></Rsn></StsRsnInf>\n"                          /* 5 */
	"<TxInfAndSts><OrgnlInstrId>I1</OrgnlInstrId><OrgnlEndToEndId>E1</OrgnlEndToEndId>"
	"<TxSts>RJCT</TxSts><StsRsnInf><Rsn><Cd>AC01</Cd></Rsn></StsRsnInf>"
	"<OrgnlTxRef><Amt><InstdAmt Ccy=\"EUR\">10.50</InstdAmt></Amt></OrgnlTxRef></TxInfAndSts>\n" /* 6 */
	"</OrgnlPmtInfAndSts>\n"                                                     /* 7 */
	"<OrgnlPmtInfAndSts><OrgnlPmtInfId>PI-2</OrgnlPmtInfId>\n"                   /* 8 */
	"<TxInfAndSts><OrgnlEndToEndId>E2</OrgnlEndToEndId><TxSts>ACCP</TxSts></TxInfAndSts>\n" /* 9 */
	"</OrgnlPmtInfAndSts>\n"
	"</CstmrPmtStsRpt></Document>\n";

static void test_statement_pain002_levels(void **state)
{
	const struct cl_stmt_item *g, *b, *t;

	(void)state;
	stmt_run_str(pain_v03, &run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.source, "pain.002");
	assert_int_equal(run.nkind[CL_STMT_GROUP_STATUS], 3); /* the group, two blocks */
	assert_int_equal(run.nkind[CL_STMT_TX_STATUS], 2);
	g = stmt_nth(&run, CL_STMT_GROUP_STATUS, 0);
	assert_false(g->status.pmt_inf);
	assert_string_equal(g->status.orgnl_msg_id, "PAIN-1");
	assert_string_equal(g->status.status, "PART");
	t = stmt_nth(&run, CL_STMT_TX_STATUS, 0);
	assert_int_equal(t->status.line, 6);
	assert_string_equal(t->status.orgnl_msg_id, "PAIN-1");
	assert_string_equal(t->status.orgnl_pmt_inf_id, "PI-1");
	assert_string_equal(t->status.orgnl_instr_id, "I1");
	assert_string_equal(t->status.orgnl_end_to_end_id, "E1");
	assert_string_equal(t->status.status, "RJCT");
	assert_string_equal(t->status.reason, "AC01");
	assert_true(t->status.has_amount);
	assert_int_equal(t->status.amount_minor, 1050);
	b = stmt_nth(&run, CL_STMT_GROUP_STATUS, 1); /* after its transactions */
	assert_true(b->status.pmt_inf);
	assert_int_equal(b->status.index, 1);
	assert_int_equal(b->status.line, 5);
	assert_string_equal(b->status.orgnl_msg_id, "PAIN-1");
	assert_string_equal(b->status.orgnl_pmt_inf_id, "PI-1");
	assert_string_equal(b->status.status, "RJCT");
	assert_string_equal(b->status.reason, "AM04");
	t = stmt_nth(&run, CL_STMT_TX_STATUS, 1);
	assert_string_equal(t->status.orgnl_pmt_inf_id, "PI-2");
	assert_string_equal(t->status.status, "ACCP");
	b = stmt_nth(&run, CL_STMT_GROUP_STATUS, 2);
	assert_true(b->status.pmt_inf);
	assert_string_equal(b->status.orgnl_pmt_inf_id, "PI-2");
	assert_string_equal(b->status.status, "");
	assert_true(stmt_chunk_stable(pain_v03));
}

/* pain.002.001.02 (PaymentStatusReportV02): no block, OrgnlPmtInfId in the
 * transaction, StsRsn; .001.15 the newest read, .001.01 never published, a
 * block without OrgnlPmtInfId an error. */
static void test_statement_pain002_versions(void **state)
{
	const struct cl_stmt_item *t;

	(void)state;
	stmt_run_str("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.002.001.02\">"
		     "<pain.002.001.02><GrpHdr><MsgId>R</MsgId></GrpHdr><OrgnlGrpInfAndSts>"
		     "<OrgnlMsgId>O</OrgnlMsgId><OrgnlMsgNmId>pain.001.001.02</OrgnlMsgNmId>"
		     "</OrgnlGrpInfAndSts><TxInfAndSts><OrgnlPmtInfId>P</OrgnlPmtInfId>"
		     "<OrgnlEndToEndId>E</OrgnlEndToEndId><TxSts>RJCT</TxSts><StsRsnInf><StsRsn>"
		     "<Cd>AC04</Cd></StsRsn></StsRsnInf></TxInfAndSts></pain.002.001.02></Document>",
		     &run);
	assert_int_equal(run.nerr, 0);
	t = stmt_nth(&run, CL_STMT_TX_STATUS, 0);
	assert_string_equal(t->status.orgnl_msg_id, "O");
	assert_string_equal(t->status.orgnl_pmt_inf_id, "P");
	assert_string_equal(t->status.reason, "AC04");
	stmt_run_str("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.002.001.15\">"
		     "<CstmrPmtStsRpt><GrpHdr><MsgId>R</MsgId></GrpHdr><OrgnlGrpInfAndSts>"
		     "<OrgnlMsgId>O</OrgnlMsgId><GrpSts>RJCT</GrpSts></OrgnlGrpInfAndSts>"
		     "</CstmrPmtStsRpt></Document>",
		     &run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.item[0].status.status, "RJCT");
	stmt_run_str("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.002.001.01\">"
		     "<pain.002.001.01/></Document>",
		     &run);
	assert_string_equal(run.err[0].code, "unsupported_version");
	stmt_run_str("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.002.001.16\">"
		     "<CstmrPmtStsRpt/></Document>",
		     &run);
	assert_string_equal(run.err[0].code, "unsupported_version");
	stmt_run_str("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.002.001.10\">"
		     "<CstmrPmtStsRpt><GrpHdr><MsgId>R</MsgId></GrpHdr><OrgnlGrpInfAndSts>"
		     "<OrgnlMsgId>O</OrgnlMsgId></OrgnlGrpInfAndSts><OrgnlPmtInfAndSts>"
		     "<PmtInfSts>RJCT</PmtInfSts></OrgnlPmtInfAndSts></CstmrPmtStsRpt></Document>",
		     &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "missing_element");
}

/* TCH RTP sends FIToFIPmtStsRpt in its own envelope, without Document. */
static void test_statement_pacs002_root_without_document(void **state)
{
	static const char d[] =
		"<Message xmlns=\"urn:tch\"><AppHdr/>"
		"<FIToFIPmtStsRpt xmlns=\"urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10\">"
		"<GrpHdr><MsgId>R</MsgId><CreDtTm>2026-03-03T06:00:00</CreDtTm></GrpHdr><TxInfAndSts><OrgnlTxId>T</OrgnlTxId>"
		"<TxSts>ACTC</TxSts></TxInfAndSts></FIToFIPmtStsRpt></Message>";

	(void)state;
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nkind[CL_STMT_TX_STATUS], 1);
	assert_string_equal(run.item[0].status.orgnl_tx_id, "T");
	assert_string_equal(run.item[0].stmt.msg_id, "R");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statement_pacs002_statuses),
		cmocka_unit_test(test_statement_pacs002_no_original_reference),
		cmocka_unit_test(test_statement_pacs002_bad_status),
		cmocka_unit_test(test_statement_pacs002_root_without_document),
		cmocka_unit_test(test_statement_pacs002_v02),
		cmocka_unit_test(test_statement_pacs002_versions),
		cmocka_unit_test(test_statement_pain002_levels),
		cmocka_unit_test(test_statement_pain002_versions),
	};

	return cmocka_run_group_tests_name("statement_pacs002", tests, NULL, NULL);
}
