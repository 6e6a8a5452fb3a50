/* test_iso20022.c - the ISO 20022 parser: helpers (money, identifiers,
 * namespaces), each message type and version, each validation rule, keys,
 * fingerprints and chunk independence. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <libxml/parser.h>

#include "parsers/iso20022_internal.h"
#include "rules/fingerprint.h"
#include "test_iso20022_util.h"

static struct iso_run run, run2;
static char doc[16384];

/* ------------------------------------------------------------ fixtures */

#define XMLDECL "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

/* pain.001.001.09: the transactions start on line 10 */
static const char *pain09(const char *nb, const char *ctrl, const char *txs)
{
	snprintf(doc, sizeof(doc),
		 XMLDECL
		 "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.001.001.09\">\n"
		 "<CstmrCdtTrfInitn>\n"
		 "<GrpHdr><MsgId>MSG-1</MsgId><CreDtTm>2026-03-02T08:00:00Z</CreDtTm>"
		 "<NbOfTxs>%s</NbOfTxs><CtrlSum>%s</CtrlSum>\n"
		 "<InitgPty><Nm>Acme</Nm><Id><OrgId><Othr><Id>ACME-1</Id></Othr></OrgId></Id>"
		 "</InitgPty></GrpHdr>\n"
		 "<PmtInf><PmtInfId>PMT-1</PmtInfId><PmtMtd>TRF</PmtMtd>\n"
		 "<ReqdExctnDt><Dt>2026-03-03</Dt></ReqdExctnDt>\n"
		 "<Dbtr><Nm>Acme GmbH</Nm></Dbtr><DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN>"
		 "</Id></DbtrAcct>\n"
		 "<DbtrAgt><FinInstnId><BICFI>COBADEFFXXX</BICFI></FinInstnId></DbtrAgt>\n"
		 "%s"
		 "</PmtInf>\n</CstmrCdtTrfInitn>\n</Document>\n",
		 nb, ctrl, txs);
	return doc;
}

/* one pain.001.001.09 transaction, 6 lines */
#define TX09(e2e, amt, ccy)                                                                   \
	"<CdtTrfTxInf>\n<PmtId><InstrId>I1</InstrId><EndToEndId>" e2e "</EndToEndId>"          \
	"<UETR>7A3AC869-6236-407C-8D83-28F08ECE746C</UETR></PmtId>\n"                          \
	"<Amt><InstdAmt Ccy=\"" ccy "\">" amt "</InstdAmt></Amt>\n"                            \
	"<CdtrAgt><FinInstnId><BICFI>BNPAFRPPXXX</BICFI></FinInstnId></CdtrAgt>"              \
	"<Cdtr><Nm>Bob</Nm></Cdtr>\n"                                                          \
	"<CdtrAcct><Id><IBAN>FR1420041010050500013M02606</IBAN></Id></CdtrAcct>\n"            \
	"<RmtInf><Ustrd>Invoice 1</Ustrd><Ustrd>second</Ustrd></RmtInf>\n</CdtTrfTxInf>\n"

static const char pain03[] =
	XMLDECL
	"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.001.001.03\">\n"
	"<CstmrCdtTrfInitn>\n"
	"<GrpHdr><MsgId>MSG-03</MsgId><CreDtTm>2026-03-02T08:00:00</CreDtTm><NbOfTxs>1</NbOfTxs>"
	"<InitgPty><Nm>Acme</Nm></InitgPty></GrpHdr>\n"
	"<PmtInf><PmtInfId> PMT-03 </PmtInfId><PmtMtd>TRF</PmtMtd><NbOfTxs>1</NbOfTxs>"
	"<CtrlSum>1500</CtrlSum>\n"
	"<ReqdExctnDt>2026-03-03</ReqdExctnDt>\n"
	"<Dbtr><Nm>Acme GmbH</Nm></Dbtr><DbtrAcct><Id><Othr><Id>12345678</Id></Othr></Id>"
	"</DbtrAcct>\n"
	"<DbtrAgt><FinInstnId><BIC>COBADEFF</BIC></FinInstnId></DbtrAgt>\n"
	"<CdtTrfTxInf>\n<PmtId><EndToEndId>E2E-JPY</EndToEndId></PmtId>\n"
	"<Amt><InstdAmt Ccy=\"JPY\">1500</InstdAmt></Amt>\n"
	"<CdtrAgt><FinInstnId><ClrSysMmbId><MmbId>0001</MmbId></ClrSysMmbId></FinInstnId>"
	"</CdtrAgt>\n"
	"<CdtrAcct><Id><IBAN>GB82WEST12345698765432</IBAN></Id></CdtrAcct>\n"
	"</CdtTrfTxInf>\n</PmtInf>\n</CstmrCdtTrfInitn>\n</Document>\n";

/* pacs.008.001.08: agents in the group header; the transaction varies */
static const char *pacs008(const char *pmtid, const char *agents)
{
	snprintf(doc, sizeof(doc),
		 XMLDECL
		 "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pacs.008.001.08\">\n"
		 "<FIToFICstmrCdtTrf>\n"
		 "<GrpHdr><MsgId>P-1</MsgId><CreDtTm>2026-03-02T08:00:00+01:00</CreDtTm>"
		 "<NbOfTxs>1</NbOfTxs><IntrBkSttlmDt>2026-03-04</IntrBkSttlmDt>\n"
		 "<SttlmInf><SttlmMtd>INDA</SttlmMtd></SttlmInf>%s</GrpHdr>\n"
		 "<CdtTrfTxInf>\n<PmtId>%s</PmtId>\n"
		 "<IntrBkSttlmAmt Ccy=\"BHD\">12.345</IntrBkSttlmAmt><ChrgBr>SHAR</ChrgBr>\n"
		 "<Dbtr><Nm>Ann</Nm></Dbtr><DbtrAcct><Id><IBAN>NL91ABNA0417164300</IBAN></Id>"
		 "</DbtrAcct>\n"
		 "<DbtrAgt><FinInstnId><BICFI>ABNANL2A</BICFI></FinInstnId></DbtrAgt>\n"
		 "<CdtrAgt><FinInstnId><BICFI>NBOBBHBM</BICFI></FinInstnId></CdtrAgt>\n"
		 "<Cdtr><Nm>Bo</Nm></Cdtr><CdtrAcct><Id><Othr><Id>BH-778</Id></Othr></Id>"
		 "</CdtrAcct>\n"
		 "</CdtTrfTxInf>\n</FIToFICstmrCdtTrf>\n</Document>\n",
		 agents, pmtid);
	return doc;
}

#define GRP_AGENTS                                                                           \
	"<InstgAgt><FinInstnId><BICFI>ABNANL2AXXX</BICFI></FinInstnId></InstgAgt>"           \
	"<InstdAgt><FinInstnId><BICFI>NBOBBHBMXXX</BICFI></FinInstnId></InstdAgt>"

#define GRP_AGENTS_BIC8                                                                      \
	"<InstgAgt><FinInstnId><BICFI>ABNANL2A</BICFI></FinInstnId></InstgAgt>"              \
	"<InstdAgt><FinInstnId><BICFI>NBOBBHBM</BICFI></FinInstnId></InstdAgt>"

static const char pacs009_cov[] =
	XMLDECL
	"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pacs.009.001.08\">\n"
	"<FICdtTrf>\n"
	"<GrpHdr><MsgId>C-1</MsgId><CreDtTm>2026-03-02T08:00:00Z</CreDtTm><NbOfTxs>1</NbOfTxs>"
	"<SttlmInf><SttlmMtd>INDA</SttlmMtd></SttlmInf></GrpHdr>\n"
	"<CdtTrfTxInf>\n"
	"<PmtId><InstrId>C1</InstrId><EndToEndId>E-9</EndToEndId>"
	"<UETR>eb6305c9-1f7f-49de-aed0-16487c27b42d</UETR></PmtId>\n"
	"<IntrBkSttlmAmt Ccy=\"USD\">1000000.00</IntrBkSttlmAmt>"
	"<IntrBkSttlmDt>2026-03-05</IntrBkSttlmDt>\n"
	"<InstgAgt><FinInstnId><BICFI>CLYDGB2S</BICFI></FinInstnId></InstgAgt>"
	"<InstdAgt><FinInstnId><BICFI>BOFSGB2L</BICFI></FinInstnId></InstdAgt>\n"
	"<Dbtr><FinInstnId><BICFI>CLYDGB2S</BICFI></FinInstnId></Dbtr>\n"
	"<Cdtr><FinInstnId><BICFI>CAIXESBB</BICFI></FinInstnId></Cdtr>\n"
	"<UndrlygCstmrCdtTrf><Dbtr><Nm>UNDERLYING</Nm></Dbtr>"
	"<DbtrAcct><Id><IBAN>XX00BAD</IBAN></Id></DbtrAcct>"
	"<RmtInf><Ustrd>underlying</Ustrd></RmtInf></UndrlygCstmrCdtTrf>\n"
	"</CdtTrfTxInf>\n</FICdtTrf>\n</Document>\n";

static const char pacs004[] =
	XMLDECL
	"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pacs.004.001.09\">\n"
	"<PmtRtr>\n"
	"<GrpHdr><MsgId>R-1</MsgId><CreDtTm>2026-03-02T08:00:00Z</CreDtTm><NbOfTxs>2</NbOfTxs>"
	"<SttlmInf><SttlmMtd>INDA</SttlmMtd></SttlmInf></GrpHdr>\n"
	"<OrgnlGrpInf><OrgnlMsgId>P-1</OrgnlMsgId><OrgnlMsgNmId>pacs.008.001.08</OrgnlMsgNmId>"
	"</OrgnlGrpInf>\n"
	"<TxInf>\n<RtrId>RTR-1</RtrId><OrgnlEndToEndId>E2E-1</OrgnlEndToEndId>"
	"<OrgnlTxId>TX-1</OrgnlTxId><OrgnlUETR>174c245f-2682-4291-ad67-2a41e530cd27</OrgnlUETR>\n"
	"<RtrdIntrBkSttlmAmt Ccy=\"EUR\">10.00</RtrdIntrBkSttlmAmt>"
	"<IntrBkSttlmDt>2026-03-06</IntrBkSttlmDt>\n"
	"<InstgAgt><FinInstnId><BICFI>CHASUS33XXX</BICFI></FinInstnId></InstgAgt>"
	"<InstdAgt><FinInstnId><BICFI>CHASGB2LXXX</BICFI></FinInstnId></InstdAgt>\n"
	"<RtrRsnInf><Rsn><Cd>AC04</Cd></Rsn></RtrRsnInf>\n"
	"<OrgnlTxRef><DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></DbtrAcct>"
	"<CdtrAcct><Id><Othr><Id>987</Id></Othr></Id></CdtrAcct></OrgnlTxRef>\n"
	"</TxInf>\n"
	"<TxInf>\n<OrgnlGrpInf><OrgnlMsgId>P-2</OrgnlMsgId><OrgnlMsgNmId>x</OrgnlMsgNmId>"
	"</OrgnlGrpInf><OrgnlUETR>174c245f-2682-4291-ad67-2a41e530cd27</OrgnlUETR>\n"
	"<RtrdIntrBkSttlmAmt Ccy=\"EUR\">5</RtrdIntrBkSttlmAmt>\n"
	"<InstgAgt><FinInstnId><BICFI>CHASUS33XXX</BICFI></FinInstnId></InstgAgt>"
	"<InstdAgt><FinInstnId><BICFI>CHASGB2LXXX</BICFI></FinInstnId></InstdAgt>\n"
	"<RtrRsnInf><Rsn><Prtry>NARR</Prtry></Rsn></RtrRsnInf>\n"
	"</TxInf>\n</PmtRtr>\n</Document>\n";

/* pacs.008 in a CBPR+ envelope whose agents are only in the AppHdr */
static const char enveloped[] =
	XMLDECL
	"<Envelope>\n"
	"<AppHdr xmlns=\"urn:iso:std:iso:20022:tech:xsd:head.001.001.02\">\n"
	"<Fr><FIId><FinInstnId><BICFI>AAAAGB2L</BICFI></FinInstnId></FIId></Fr>\n"
	"<To><FIId><FinInstnId><BICFI>BBBBUS33</BICFI></FinInstnId></FIId></To>\n"
	"<BizMsgIdr>B-1</BizMsgIdr><MsgDefIdr>pacs.008.001.08</MsgDefIdr>"
	"<CreDt>2026-03-02T08:00:00Z</CreDt>\n</AppHdr>\n"
	"<p:Document xmlns:p=\"urn:iso:std:iso:20022:tech:xsd:pacs.008.001.08\">\n"
	"<p:FIToFICstmrCdtTrf><p:GrpHdr><p:MsgId>P-9</p:MsgId>"
	"<p:CreDtTm>2026-03-02T08:00:00Z</p:CreDtTm><p:NbOfTxs>1</p:NbOfTxs>"
	"<p:SttlmInf><p:SttlmMtd>INDA</p:SttlmMtd></p:SttlmInf></p:GrpHdr>\n"
	"<p:CdtTrfTxInf><p:PmtId><p:EndToEndId>E</p:EndToEndId><p:TxId>T-9</p:TxId></p:PmtId>"
	"<p:IntrBkSttlmAmt Ccy=\"USD\">1.5</p:IntrBkSttlmAmt>"
	"<p:SplmtryData><p:Envlp><p:InstgAgt><p:FinInstnId><p:BICFI>EVILXXXX</p:BICFI>"
	"</p:FinInstnId></p:InstgAgt></p:Envlp></p:SplmtryData>"
	"</p:CdtTrfTxInf>\n"
	"</p:FIToFICstmrCdtTrf></p:Document>\n</Envelope>\n";

/* ------------------------------------------------------------- helpers */

static void test_iso20022_ccy_exponents(void **state)
{
	(void)state;
	assert_int_equal(cl_iso_ccy_exponent("EUR"), 2);
	assert_int_equal(cl_iso_ccy_exponent("USD"), 2);
	assert_int_equal(cl_iso_ccy_exponent("JPY"), 0);
	assert_int_equal(cl_iso_ccy_exponent("KRW"), 0);
	for (const char *const *c = (const char *const[]){"BHD", "KWD", "OMR", "JOD", "TND", "LYD",
							  "IQD", NULL};
	     *c; c++)
		assert_int_equal(cl_iso_ccy_exponent(*c), 3);
	assert_int_equal(cl_iso_ccy_exponent("CLF"), 4);
	assert_int_equal(cl_iso_ccy_exponent("XAU"), -2);
	assert_int_equal(cl_iso_ccy_exponent("XDR"), -2);
	assert_int_equal(cl_iso_ccy_exponent("ABC"), -1);
	assert_int_equal(cl_iso_ccy_exponent("eur"), -1);
	assert_int_equal(cl_iso_ccy_exponent("EURO"), -1);
}

static void test_iso20022_amount_parse(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(cl_iso_amount_parse("12.34", 2, &v), CL_ISO_AMT_OK);
	assert_int_equal(v, 1234);
	assert_int_equal(cl_iso_amount_parse("12", 2, &v), CL_ISO_AMT_OK);
	assert_int_equal(v, 1200);
	assert_int_equal(cl_iso_amount_parse("0.1", 2, &v), CL_ISO_AMT_OK);
	assert_int_equal(v, 10);
	assert_int_equal(cl_iso_amount_parse("33.95", 2, &v), CL_ISO_AMT_OK);
	assert_int_equal(v, 3395); /* the float trap 33.95 -> 3394.99.. */
	assert_int_equal(cl_iso_amount_parse("1.234", 3, &v), CL_ISO_AMT_OK);
	assert_int_equal(v, 1234);
	assert_int_equal(cl_iso_amount_parse("27", 0, &v), CL_ISO_AMT_OK);
	assert_int_equal(v, 27);
	assert_int_equal(cl_iso_amount_parse("27.00", 0, &v), CL_ISO_AMT_DECIMALS);
	assert_int_equal(cl_iso_amount_parse("12.345", 2, &v), CL_ISO_AMT_DECIMALS);
	assert_int_equal(cl_iso_amount_parse("-1", 2, &v), CL_ISO_AMT_SYNTAX);
	assert_int_equal(cl_iso_amount_parse("+1", 2, &v), CL_ISO_AMT_SYNTAX);
	assert_int_equal(cl_iso_amount_parse("1e3", 2, &v), CL_ISO_AMT_SYNTAX);
	assert_int_equal(cl_iso_amount_parse(".5", 2, &v), CL_ISO_AMT_SYNTAX);
	assert_int_equal(cl_iso_amount_parse("5.", 2, &v), CL_ISO_AMT_SYNTAX);
	assert_int_equal(cl_iso_amount_parse("1,5", 2, &v), CL_ISO_AMT_SYNTAX);
	assert_int_equal(cl_iso_amount_parse("", 2, &v), CL_ISO_AMT_SYNTAX);
	assert_int_equal(cl_iso_amount_parse("92233720368547758.07", 2, &v), CL_ISO_AMT_OK);
	assert_true(v == INT64_MAX);
	assert_int_equal(cl_iso_amount_parse("92233720368547758.08", 2, &v), CL_ISO_AMT_OVERFLOW);
	assert_int_equal(cl_iso_amount_parse("922337203685477581", 2, &v), CL_ISO_AMT_OVERFLOW);
}

static void test_iso20022_control_sum_decimal(void **state)
{
	struct cl_iso_dec want, sum = {0};
	char text[48];

	(void)state;
	assert_int_equal(cl_iso_dec_parse("1012.346", &want), 0);
	cl_iso_dec_add_minor(&sum, 1000, 0);  /* JPY 1000 */
	cl_iso_dec_add_minor(&sum, 1234, 2);  /* EUR 12.34 */
	cl_iso_dec_add_minor(&sum, 6, 3);     /* BHD 0.006 */
	assert_true(cl_iso_dec_equal(&want, &sum));
	cl_iso_dec_format(&sum, text, sizeof(text));
	assert_string_equal(text, "1012.346");
	assert_int_equal(cl_iso_dec_parse("1.", &want), -1);
	assert_int_equal(cl_iso_dec_parse("1.000000000000000001", &want), -1); /* 18 decimals */
	assert_int_equal(cl_iso_dec_parse("1.00000000000000000", &want), 0);   /* 17 */
}

static void test_iso20022_identifiers(void **state)
{
	char u[37];

	(void)state;
	assert_true(cl_iso_iban_shape("DE89370400440532013000"));
	assert_true(cl_iso_iban_check("DE89370400440532013000"));
	assert_true(cl_iso_iban_check("FR1420041010050500013M02606"));
	assert_false(cl_iso_iban_check("DE89370400440532013001"));
	assert_false(cl_iso_iban_check("DE98370400440532013000"));
	assert_false(cl_iso_iban_shape("de89370400440532013000"));
	assert_false(cl_iso_iban_shape("DE89 3704 0044 0532 0130 00"));
	assert_false(cl_iso_iban_shape("IBAN"));
	assert_true(cl_iso_bic_shape("COBADEFF"));
	assert_true(cl_iso_bic_shape("COBADEFFXXX"));
	assert_true(cl_iso_bic_shape("1234DEFF"));  /* ISO 9362:2014 alphanumeric party */
	assert_false(cl_iso_bic_shape("COBA1EFF"));  /* country must be letters */
	assert_false(cl_iso_bic_shape("COBADEFFX")); /* 9 characters */
	assert_false(cl_iso_bic_shape("cobadeff"));
	assert_false(cl_iso_bic_shape(""));
	assert_true(cl_iso_uuid4("7A3AC869-6236-407C-8D83-28F08ECE746C", u));
	assert_string_equal(u, "7a3ac869-6236-407c-8d83-28f08ece746c");
	assert_false(cl_iso_uuid4("7a3ac869-6236-507c-8d83-28f08ece746c", u)); /* version 5 */
	assert_false(cl_iso_uuid4("7a3ac869-6236-407c-cd83-28f08ece746c", u)); /* variant */
	assert_false(cl_iso_uuid4("7a3ac8696236407c8d8328f08ece746c", u));
	assert_false(cl_iso_uuid4("7a3ac869-6236-407c-8d83-28f08ece746g", u));
	assert_true(cl_iso_date("2024-02-29"));
	assert_false(cl_iso_date("2023-02-29"));
	assert_true(cl_iso_date("2000-02-29"));
	assert_false(cl_iso_date("1900-02-29"));
	assert_false(cl_iso_date("2024-04-31"));
	assert_false(cl_iso_date("YYYY-MM-DD"));
	assert_true(cl_iso_date("2024-01-01Z"));
	assert_true(cl_iso_date("2024-01-01+01:00"));
	assert_false(cl_iso_date("2024-01-01 "));
	assert_true(cl_iso_datetime("2026-03-02T08:00:00"));
	assert_true(cl_iso_datetime("2026-03-02T08:00:00.960+05:00"));
	assert_true(cl_iso_datetime("2026-03-02T08:00:00Z"));
	assert_false(cl_iso_datetime("2026-03-02"));
	assert_false(cl_iso_datetime("2026-03-02T25:00:00"));
	assert_false(cl_iso_datetime("2026-03-02T08:00:00."));
	assert_true(cl_iso_id_unusable(""));
	assert_true(cl_iso_id_unusable("NOTPROVIDED"));
	assert_true(cl_iso_id_unusable(" notProvided "));
	assert_false(cl_iso_id_unusable("NOTPROVIDED1"));
	assert_false(cl_iso_id_unusable("E2E"));
}

static void test_iso20022_namespaces(void **state)
{
	enum cl_iso_kind k;
	char t[32];

	(void)state;
	assert_int_equal(cl_iso_ns_parse("urn:iso:std:iso:20022:tech:xsd:pain.001.001.03", &k, t,
					 sizeof(t)),
			 CL_ISO_NS_OK);
	assert_int_equal(k, CL_ISO_PAIN001);
	assert_string_equal(t, "pain.001.001.03");
	assert_int_equal(cl_iso_ns_parse("urn:iso:std:iso:20022:tech:xsd:pain.001.001.11", &k, t,
					 sizeof(t)),
			 CL_ISO_NS_OK);
	assert_int_equal(cl_iso_ns_parse("urn:iso:std:iso:20022:tech:xsd:pain.001.003.03", &k, t,
					 sizeof(t)),
			 CL_ISO_NS_OK);
	assert_int_equal(cl_iso_ns_parse("urn:iso:std:iso:20022:tech:xsd:pacs.008.001.13", &k, t,
					 sizeof(t)),
			 CL_ISO_NS_OK);
	assert_int_equal(k, CL_ISO_PACS008);
	assert_int_equal(cl_iso_ns_parse("urn:iso:std:iso:20022:tech:xsd:pacs.009.001.08", &k, t,
					 sizeof(t)),
			 CL_ISO_NS_OK);
	assert_int_equal(k, CL_ISO_PACS009);
	assert_int_equal(cl_iso_ns_parse("urn:iso:std:iso:20022:tech:xsd:pacs.004.001.02", &k, t,
					 sizeof(t)),
			 CL_ISO_NS_OK);
	assert_int_equal(k, CL_ISO_PACS004);
	assert_int_equal(cl_iso_ns_parse("urn:iso:std:iso:20022:tech:xsd:pain.001.001.02", &k, t,
					 sizeof(t)),
			 CL_ISO_NS_VERSION);
	assert_int_equal(cl_iso_ns_parse("urn:iso:std:iso:20022:tech:xsd:pacs.008.001.14", &k, t,
					 sizeof(t)),
			 CL_ISO_NS_OK);
	assert_int_equal(cl_iso_ns_parse("urn:iso:std:iso:20022:tech:xsd:pacs.008.001.15", &k, t,
					 sizeof(t)),
			 CL_ISO_NS_VERSION);
	assert_string_equal(t, "pacs.008.001.15");
	assert_int_equal(cl_iso_ns_parse("urn:iso:std:iso:20022:tech:xsd:camt.053.001.02", &k, t,
					 sizeof(t)),
			 CL_ISO_NS_UNSUPPORTED);
	assert_string_equal(t, "camt.053.001.02");
	assert_int_equal(cl_iso_ns_parse("urn:swift:xsd:camt.003.001.04", &k, t, sizeof(t)),
			 CL_ISO_NS_FOREIGN);
	assert_int_equal(cl_iso_ns_parse("", &k, t, sizeof(t)), CL_ISO_NS_FOREIGN);
	assert_int_equal(
		cl_iso_ns_parse("http://www.six-interbank-clearing.com/de/pain.001.001.03.ch.02.xsd",
				&k, t, sizeof(t)),
		CL_ISO_NS_OK);
	assert_string_equal(t, "pain.001.001.03.ch.02");
}

/* ------------------------------------------------------------ messages */

/* An element the message allows once, twice: which amount holds cannot be
 * told; Ustrd may repeat (TX09 has two) */
static void test_iso20022_repeated_element_is_error(void **state)
{
	(void)state;
	iso_run(pain09("1", "12.34",
		       "<CdtTrfTxInf>\n<PmtId><InstrId>I1</InstrId><EndToEndId>E1</EndToEndId></PmtId>\n"
		       "<Amt><InstdAmt Ccy=\"EUR\">12.34</InstdAmt>\n"
		       "<InstdAmt Ccy=\"EUR\">99.00</InstdAmt></Amt>\n"
		       "<CdtrAgt><FinInstnId><BICFI>BNPAFRPPXXX</BICFI></FinInstnId></CdtrAgt>"
		       "<Cdtr><Nm>Bob</Nm></Cdtr>\n"
		       "<CdtrAcct><Id><IBAN>FR1420041010050500013M02606</IBAN></Id></CdtrAcct>\n"
		       "</CdtTrfTxInf>\n"),
		&run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "repeated_element");
	assert_int_equal(run.err[0].line, 13);
	assert_int_equal(run.err[0].other_line, 12);
	assert_string_equal(run.err[0].path,
			    "/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/Amt/InstdAmt");
	assert_string_equal(run.err[0].message,
			    "<InstdAmt> appears again (first on line 12): the message allows one here, "
			    "and which one is meant cannot be told");
	iso_run(pain09("1", "12.34", TX09("E2E-1", "12.34", "EUR")), &run);
	assert_int_equal(run.nerr, 0);
}

/* the initiating party's name is never the sender: it can be a person, and
 * clearing_load.sender is stored */
static void test_iso20022_sender_is_never_a_name(void **state)
{
	static char nameonly[sizeof(doc)];
	const char *id = "<Id><OrgId><Othr><Id>ACME-1</Id></Othr></OrgId></Id>";
	const char *src = pain09("1", "12.34", TX09("E2E-1", "12.34", "EUR"));
	const char *at = strstr(src, id);

	(void)state;
	assert_non_null(at);
	snprintf(nameonly, sizeof(nameonly), "%.*s%s", (int)(at - src), src, at + strlen(id));
	iso_run(nameonly, &run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.info.sender, "");
}

static void test_iso20022_pain001_v09_record(void **state)
{
	const struct cl_record *r = &run.rec[0];

	(void)state;
	iso_run(pain09("1", "12.34", TX09("E2E-1", "12.34", "EUR")), &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nrec, 1);
	assert_string_equal(r->scheme, "iso20022");
	assert_string_equal(r->kind, "pain.001");
	assert_string_equal(r->message_type, "pain.001.001.09");
	assert_string_equal(r->key_rule, "v1");
	assert_string_equal(r->natural_key, "DE89370400440532013000|E2E-1");
	assert_int_equal(r->position, 10);
	assert_int_equal(r->ordinal, 1);
	assert_int_equal(r->amount_minor, 1234);
	assert_string_equal(r->currency, "EUR");
	assert_int_equal(r->direction, CL_DIR_CREDIT);
	assert_string_equal(r->value_date, "2026-03-03");
	assert_string_equal(r->msg_id, "MSG-1");
	assert_string_equal(r->pmt_inf_id, "PMT-1");
	assert_string_equal(r->instr_id, "I1");
	assert_string_equal(r->end_to_end_id, "E2E-1");
	assert_string_equal(r->uetr, "7a3ac869-6236-407c-8d83-28f08ece746c");
	assert_string_equal(r->initiating_party_id, "ACME-1");
	assert_string_equal(r->debtor_name, "Acme GmbH");
	assert_string_equal(r->debtor_account, "DE89370400440532013000");
	assert_string_equal(r->debtor_agent, "COBADEFFXXX");
	assert_string_equal(r->creditor_name, "Bob");
	assert_string_equal(r->creditor_account, "FR1420041010050500013M02606");
	assert_string_equal(r->creditor_agent, "BNPAFRPPXXX");
	assert_string_equal(r->remittance_text, "Invoice 1");
	assert_string_equal(run.info.format_name, "iso20022");
	assert_string_equal(run.info.message_type, "pain.001.001.09");
	assert_string_equal(run.info.file_id, "MSG-1");
	assert_string_equal(run.info.created, "2026-03-02T08:00:00Z");
	assert_string_equal(run.info.sender, "ACME-1");
	assert_int_equal(run.info.records, 1);
	assert_int_equal(run.info.lines, 19);
	assert_int_equal(run.info.total_credit_minor, 1234);
}

static void test_iso20022_pain001_v03_record(void **state)
{
	const struct cl_record *r = &run.rec[0];

	(void)state;
	iso_run(pain03, &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nrec, 1);
	assert_string_equal(r->message_type, "pain.001.001.03");
	assert_string_equal(r->natural_key, "12345678|E2E-JPY"); /* Othr/Id account */
	assert_int_equal(r->amount_minor, 1500);                 /* JPY: exponent 0 */
	assert_string_equal(r->currency, "JPY");
	assert_string_equal(r->value_date, "2026-03-03");
	assert_string_equal(r->pmt_inf_id, "PMT-03"); /* trimmed */
	assert_string_equal(r->debtor_agent, "COBADEFF");
	assert_string_equal(r->creditor_agent, "0001"); /* ClrSysMmbId/MmbId */
	assert_string_equal(r->uetr, "");
	assert_string_equal(r->remittance_text, "");
}

static void test_iso20022_pacs008_key_tiers(void **state)
{
	(void)state;
	iso_run(pacs008("<InstrId>I</InstrId><EndToEndId>E2E-8</EndToEndId><TxId>TX-8</TxId>"
			"<UETR>eb6305c9-1f7f-49de-aed0-16487c27b42d</UETR>",
			GRP_AGENTS),
		&run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nrec, 1);
	assert_string_equal(run.rec[0].kind, "pacs.008");
	assert_string_equal(run.rec[0].natural_key,
			    "uetr|eb6305c9-1f7f-49de-aed0-16487c27b42d|ABNANL2A");
	assert_int_equal(run.rec[0].amount_minor, 12345); /* BHD: 3 decimals */
	assert_string_equal(run.rec[0].value_date, "2026-03-04"); /* from GrpHdr */
	assert_string_equal(run.rec[0].instructing_agent, "ABNANL2AXXX");
	assert_string_equal(run.rec[0].creditor_account, "BH-778");
	assert_string_equal(run.info.sender, "ABNANL2AXXX");
	assert_string_equal(run.info.receiver, "NBOBBHBMXXX");

	iso_run(pacs008("<EndToEndId>E2E-8</EndToEndId><TxId>TX-8</TxId>", GRP_AGENTS), &run);
	assert_int_equal(run.nrec, 1);
	assert_string_equal(run.rec[0].natural_key, "txid|ABNANL2A|TX-8");

	iso_run(pacs008("<EndToEndId>E2E-8</EndToEndId>", GRP_AGENTS), &run);
	assert_int_equal(run.nrec, 1);
	assert_string_equal(run.rec[0].natural_key, "e2e|ABNANL2A|E2E-8");

	iso_run(pacs008("<EndToEndId>NOTPROVIDED</EndToEndId>", GRP_AGENTS), &run);
	assert_int_equal(run.nrec, 0);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "no_key");
	assert_int_equal(run.err[0].line, 6);
	assert_string_equal(run.err[0].path, "/Document/FIToFICstmrCdtTrf/CdtTrfTxInf[1]");

	/* no instructing agent anywhere: no key, fail closed */
	iso_run(pacs008("<EndToEndId>E2E-8</EndToEndId><TxId>TX-8</TxId>", ""), &run);
	assert_int_equal(run.nrec, 0);
	assert_string_equal(run.err[0].code, "no_key");
}

static void test_iso20022_pacs009_cov_ignores_underlying(void **state)
{
	const struct cl_record *r = &run.rec[0];

	(void)state;
	iso_run(pacs009_cov, &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nrec, 1);
	assert_string_equal(r->kind, "pacs.009");
	assert_string_equal(r->natural_key,
			    "uetr|eb6305c9-1f7f-49de-aed0-16487c27b42d|CLYDGB2S");
	assert_string_equal(r->debtor_name, "CLYDGB2S");
	assert_string_equal(r->creditor_name, "CAIXESBB");
	assert_string_equal(r->debtor_account, "");
	assert_string_equal(r->remittance_text, "");
	assert_int_equal(r->amount_minor, 100000000);
}

/* DEUTDEFF and DEUTDEFFXXX are one institution: one key, one fingerprint
 * (review finding 9: a resend through another gateway changed the form). */
static void test_iso20022_bic8_and_bic11_xxx_key_alike(void **state)
{
	char k11[CL_KEY_MAX];
	unsigned char f11[32];

	(void)state;
	iso_run(pacs008("<EndToEndId>E2E-8</EndToEndId><TxId>TX-8</TxId>"
			"<UETR>eb6305c9-1f7f-49de-aed0-16487c27b42d</UETR>",
			GRP_AGENTS),
		&run);
	assert_int_equal(run.nrec, 1);
	strcpy(k11, run.rec[0].natural_key);
	memcpy(f11, run.rec[0].fingerprint, 32);
	assert_string_equal(run.rec[0].instructing_agent, "ABNANL2AXXX"); /* kept as sent */
	iso_run(pacs008("<EndToEndId>E2E-8</EndToEndId><TxId>TX-8</TxId>"
			"<UETR>eb6305c9-1f7f-49de-aed0-16487c27b42d</UETR>",
			GRP_AGENTS_BIC8),
		&run);
	assert_int_equal(run.nrec, 1);
	assert_string_equal(run.rec[0].instructing_agent, "ABNANL2A");
	assert_string_equal(run.rec[0].natural_key, k11);
	assert_memory_equal(run.rec[0].fingerprint, f11, 32);
}

static void test_iso20022_pacs004_returns(void **state)
{
	(void)state;
	iso_run(pacs004, &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nrec, 2);
	assert_string_equal(run.rec[0].kind, "pacs.004");
	assert_string_equal(run.rec[0].natural_key, "rtrid|CHASUS33|RTR-1");
	assert_string_equal(run.rec[0].rtr_id, "RTR-1");
	assert_string_equal(run.rec[0].reason_code, "AC04");
	assert_string_equal(run.rec[0].orgnl_uetr, "174c245f-2682-4291-ad67-2a41e530cd27");
	assert_string_equal(run.rec[0].orgnl_end_to_end_id, "E2E-1");
	assert_string_equal(run.rec[0].orgnl_tx_id, "TX-1");
	assert_string_equal(run.rec[0].orgnl_msg_id, "P-1"); /* group-level OrgnlGrpInf */
	assert_string_equal(run.rec[0].debtor_account, "DE89370400440532013000");
	assert_string_equal(run.rec[0].creditor_account, "987");
	assert_int_equal(run.rec[0].direction, CL_DIR_CREDIT);
	assert_string_equal(run.rec[0].value_date, "2026-03-06");
	/* no RtrId: keyed by the returned UETR on this hop */
	assert_string_equal(run.rec[1].natural_key,
			    "ouetr|174c245f-2682-4291-ad67-2a41e530cd27|CHASUS33");
	assert_string_equal(run.rec[1].orgnl_msg_id, "P-2"); /* transaction-level wins */
	assert_string_equal(run.rec[1].reason_code, "NARR");
	assert_int_equal(run.rec[1].amount_minor, 500);
}

static void test_iso20022_apphdr_agents_and_splmtry_data(void **state)
{
	(void)state;
	iso_run(enveloped, &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nrec, 1);
	/* the AppHdr is the fallback; SplmtryData content is never read */
	assert_string_equal(run.rec[0].instructing_agent, "AAAAGB2L");
	assert_string_equal(run.rec[0].instructed_agent, "BBBBUS33");
	assert_string_equal(run.rec[0].natural_key, "txid|AAAAGB2L|T-9");
	assert_int_equal(run.rec[0].amount_minor, 150);
	assert_string_equal(run.info.sender, "AAAAGB2L");
	assert_string_equal(run.info.receiver, "BBBBUS33");
	assert_int_equal(run.nnote, 0);
}

static void test_iso20022_apphdr_msgdefidr_note(void **state)
{
	char x[sizeof(enveloped)];

	(void)state;
	memcpy(x, enveloped, sizeof(x));
	memcpy(strstr(x, "<MsgDefIdr>pacs.008.001.08") + 11, "pacs.008.001.12", 15);
	iso_run(x, &run);
	/* a remark, not an error: CBPR+ samples do this */
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nrec, 1);
	assert_int_equal(run.nnote, 1);
	assert_string_equal(run.note[0].code, "apphdr_msgdefidr");
	assert_int_equal(run.note[0].line, 6);
	assert_string_equal(run.note[0].message, "AppHdr MsgDefIdr \"pacs.008.001.12\" differs "
						 "from the Document's message pacs.008.001.08");
}

/* ---------------------------------------------------------- validation */

static void test_iso20022_group_counts_and_sums(void **state)
{
	(void)state;
	iso_run(pain09("3", "20.00", TX09("E1", "12.34", "EUR") TX09("E2", "7.66", "EUR")), &run);
	assert_int_equal(run.nrec, 2);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "nb_of_txs");
	assert_int_equal(run.err[0].line, 4);
	assert_string_equal(run.err[0].path, "/Document/CstmrCdtTrfInitn/GrpHdr/NbOfTxs");
	assert_string_equal(run.err[0].message,
			    "group header NbOfTxs says 3 transactions, the message has 2");

	iso_run(pain09("2", "20.01", TX09("E1", "12.34", "EUR") TX09("E2", "7.66", "EUR")), &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "ctrl_sum");
	assert_string_equal(run.err[0].message,
			    "group header CtrlSum says 20.01, the transaction amounts add up to 20.00");

	iso_run(pain09("x1", "20", TX09("E1", "12.34", "EUR") TX09("E2", "7.66", "EUR")), &run);
	assert_string_equal(run.err[0].code, "nb_of_txs");
	assert_string_equal(run.err[0].message,
			    "group header NbOfTxs \"x1\" is not a number: expected 1 to 15 digits");
}

static void test_iso20022_pmtinf_counts_and_sums(void **state)
{
	static const char two[] =
		XMLDECL
		"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.001.001.03\"><CstmrCdtTrfInitn>\n"
		"<GrpHdr><MsgId>M</MsgId><CreDtTm>2026-03-02T08:00:00</CreDtTm><NbOfTxs>2</NbOfTxs>"
		"</GrpHdr>\n"
		"<PmtInf><PmtInfId>A</PmtInfId><NbOfTxs>1</NbOfTxs><CtrlSum>1</CtrlSum>"
		"<ReqdExctnDt>2026-03-03</ReqdExctnDt><DbtrAcct><Id><Othr><Id>1</Id></Othr></Id>"
		"</DbtrAcct>\n"
		"<CdtTrfTxInf><PmtId><EndToEndId>E1</EndToEndId></PmtId><Amt><InstdAmt Ccy=\"EUR\">1"
		"</InstdAmt></Amt></CdtTrfTxInf></PmtInf>\n"
		"<PmtInf><PmtInfId>B</PmtInfId><NbOfTxs>2</NbOfTxs><CtrlSum>1.5</CtrlSum>\n"
		"<ReqdExctnDt>2026-03-03</ReqdExctnDt><DbtrAcct><Id><Othr><Id>1</Id></Othr></Id>"
		"</DbtrAcct>\n"
		"<CdtTrfTxInf><PmtId><EndToEndId>E2</EndToEndId></PmtId><Amt><InstdAmt Ccy=\"EUR\">2"
		"</InstdAmt></Amt></CdtTrfTxInf></PmtInf>\n"
		"</CstmrCdtTrfInitn></Document>\n";

	(void)state;
	iso_run(two, &run);
	assert_int_equal(run.nrec, 2);
	assert_int_equal(run.nerr, 2);
	assert_string_equal(run.err[0].code, "nb_of_txs");
	assert_int_equal(run.err[0].line, 6);
	assert_string_equal(run.err[0].path, "/Document/CstmrCdtTrfInitn/PmtInf[2]/NbOfTxs");
	assert_string_equal(run.err[0].message,
			    "PmtInf 2 NbOfTxs says 2 transactions, the message has 1");
	assert_string_equal(run.err[1].code, "ctrl_sum");
	assert_string_equal(run.err[1].message,
			    "PmtInf 2 CtrlSum says 1.5, the transaction amounts add up to 2.0");
	assert_string_equal(run.rec[1].pmt_inf_id, "B");
}

static void test_iso20022_transaction_rules(void **state)
{
	static const struct {
		const char *tx, *code, *path, *message;
		int records;
	} cases[] = {
		{TX09("E1", "12.345", "EUR"), "amount_decimals",
		 "/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/Amt/InstdAmt",
		 "amount \"12.345\" has more decimals than EUR allows (2)", 1},
		{TX09("E1", "12", "JPY"), NULL, NULL, NULL, 1},
		{TX09("E1", "12.5", "JPY"), "amount_decimals", NULL,
		 "amount \"12.5\" has more decimals than JPY allows (0)", 1},
		{TX09("E1", "-1.00", "EUR"), "amount_invalid", NULL,
		 "amount \"-1.00\" is not a decimal number: expected digits with an optional "
		 "point, no sign",
		 1},
		{TX09("E1", "1.00", "eur"), "currency_invalid", NULL,
		 "currency \"eur\" is not an ISO 4217 code: expected three uppercase letters in "
		 "the Ccy attribute",
		 1},
		{TX09("E1", "1.00", "EURO"), "currency_invalid", NULL, NULL, 1},
		{TX09("E1", "1.00", "QQQ"), "currency_unknown", NULL,
		 "currency \"QQQ\" is not an ISO 4217 currency", 1},
		{TX09("NOTPROVIDED", "1.00", "EUR"), "no_key",
		 "/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]",
		 "transaction cannot be identified (no natural key), so a copy of it could not be told "
		 "from a new payment: EndToEndId is NOTPROVIDED (use "
		 "--positional-keys to key such records by MsgId, PmtInfId and position)",
		 0},
		{TX09(" notprovided ", "1.00", "EUR"), "no_key", NULL, NULL, 0},
		{TX09("", "1.00", "EUR"), "no_key", NULL, NULL, 0},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		iso_run(pain09("1", "0", cases[i].tx), &run);
		assert_int_equal(run.nrec, cases[i].records);
		if (!cases[i].code) {
			assert_int_equal(run.nerr, 1); /* only the CtrlSum of 0 */
			assert_string_equal(run.err[0].code, "ctrl_sum");
			continue;
		}
		assert_true(run.nerr >= 1);
		assert_string_equal(run.err[0].code, cases[i].code);
		assert_int_equal(run.err[0].line, strcmp(cases[i].code, "no_key") == 0 ? 10 : 12);
		if (cases[i].path)
			assert_string_equal(run.err[0].path, cases[i].path);
		if (cases[i].message)
			assert_string_equal(run.err[0].message, cases[i].message);
	}
}

static void test_iso20022_identifier_rules(void **state)
{
	static const char bad[] =
		XMLDECL
		"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.001.001.09\"><CstmrCdtTrfInitn>\n"
		"<GrpHdr><MsgId>M</MsgId><CreDtTm>2026-13-02T08:00:00</CreDtTm><NbOfTxs>1</NbOfTxs>"
		"</GrpHdr>\n"
		"<PmtInf><PmtInfId>A</PmtInfId><ReqdExctnDt><Dt>2026-02-30</Dt></ReqdExctnDt>\n"
		"<DbtrAcct><Id><IBAN>DE89370400440532013001</IBAN></Id></DbtrAcct>\n"
		"<DbtrAgt><FinInstnId><BICFI>COBA DEFF</BICFI></FinInstnId></DbtrAgt>\n"
		"<CdtTrfTxInf><PmtId><EndToEndId>E1</EndToEndId>\n"
		"<UETR>7a3ac869-6236-507c-8d83-28f08ece746c</UETR></PmtId>\n"
		"<Amt><InstdAmt Ccy=\"EUR\">1</InstdAmt></Amt>\n"
		"<CdtrAcct><Id><IBAN>FR14 2004</IBAN></Id></CdtrAcct>\n"
		"</CdtTrfTxInf></PmtInf>\n"
		"</CstmrCdtTrfInitn></Document>\n";
	static const struct {
		const char *code;
		unsigned long line;
		const char *path;
	} want[] = {
		{"datetime_invalid", 3, "/Document/CstmrCdtTrfInitn/GrpHdr/CreDtTm"},
		{"uetr_invalid", 8, "/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/PmtId/UETR"},
		{"date_invalid", 4, "/Document/CstmrCdtTrfInitn/PmtInf[1]/ReqdExctnDt/Dt"},
		{"iban_check", 5, "/Document/CstmrCdtTrfInitn/PmtInf[1]/DbtrAcct/Id/IBAN"},
		{"bic_invalid", 6, "/Document/CstmrCdtTrfInitn/PmtInf[1]/DbtrAgt/FinInstnId/BICFI"},
		{"iban_invalid", 10,
		 "/Document/CstmrCdtTrfInitn/PmtInf[1]/CdtTrfTxInf[1]/CdtrAcct/Id/IBAN"},
	};

	(void)state;
	iso_run(bad, &run);
	assert_int_equal(run.nerr, 6);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		assert_string_equal(run.err[i].code, want[i].code);
		assert_int_equal(run.err[i].line, want[i].line);
		assert_string_equal(run.err[i].path, want[i].path);
	}
	assert_string_equal(run.err[3].message,
			    "debtor account IBAN \"******************3001\" fails the check digits "
			    "(ISO 13616 mod 97)");
	/* the record still comes (so validate can show it); the file is invalid */
	assert_int_equal(run.nrec, 1);
}

static void test_iso20022_missing_elements(void **state)
{
	static const char bad[] =
		XMLDECL
		"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.001.001.09\"><CstmrCdtTrfInitn>\n"
		"<GrpHdr><CreDtTm>2026-03-02T08:00:00</CreDtTm><NbOfTxs>1</NbOfTxs></GrpHdr>\n"
		"<PmtInf><DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></DbtrAcct>\n"
		"<CdtTrfTxInf><PmtId><InstrId>X</InstrId></PmtId>\n"
		"</CdtTrfTxInf></PmtInf>\n"
		"</CstmrCdtTrfInitn></Document>\n";

	(void)state;
	iso_run(bad, &run);
	assert_int_equal(run.nrec, 0);
	assert_string_equal(run.err[0].code, "missing_element");
	assert_string_equal(run.err[0].path, "/Document/CstmrCdtTrfInitn/GrpHdr/MsgId");
	assert_string_equal(run.err[0].message, "required element MsgId is missing");
	assert_int_equal(run.err[0].line, 3);
	assert_true(find_error(&run, "no_key") >= 0);
	for (int i = 0; i < run.nerr; i++)
		if (strstr(run.err[i].path, "PmtId/EndToEndId"))
			goto found;
	fail_msg("no error for the missing EndToEndId");
found:
	assert_true(run.nerr >= 4); /* MsgId, EndToEndId, amount, ReqdExctnDt, PmtInfId, key */
}

static void test_iso20022_shared_values_reported_once(void **state)
{
	char x[sizeof(doc)];
	char *iban;

	(void)state;
	snprintf(x, sizeof(x), "%s",
		 pain09("3", "3", TX09("E1", "1.00", "EUR") TX09("E2", "1.00", "EUR")
					   TX09("E3", "1.00", "EUR")));
	iban = strstr(x, "DE89370400440532013000");
	iban[21] = '1'; /* the PmtInf's debtor IBAN: wrong check digits */
	iso_run(x, &run);
	assert_int_equal(run.nrec, 3);
	assert_int_equal(run.nerr, 1); /* once for the PmtInf, not per transaction */
	assert_string_equal(run.err[0].code, "iban_check");
	assert_int_equal(run.err[0].line, 8);
}

static void test_iso20022_positional_keys(void **state)
{
	struct cl_parse_opts o = {.positional_keys = true};
	const char *x = pain09("2", "2.00", TX09("E1", "1.00", "EUR") TX09("NOTPROVIDED", "1.00", "EUR"));

	(void)state;
	iso_run_opts(x, strlen(x), 0, &o, &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nrec, 2);
	assert_string_equal(run.rec[0].key_rule, "v1");
	assert_string_equal(run.rec[1].key_rule, "v1-positional");
	assert_string_equal(run.rec[1].natural_key, "pos|MSG-1|PMT-1|2");
}

static void test_iso20022_max_errors(void **state)
{
	struct cl_parse_opts o = {.max_errors = 2};
	const char *x = pain09("9", "9", TX09("", "1.00", "EUR") TX09("", "1.00", "EUR")
						 TX09("", "1.00", "EUR"));

	(void)state;
	iso_run_opts(x, strlen(x), 0, &o, &run);
	assert_int_equal(run.nerr, 2);
	assert_int_equal(run.nrec, 0);
}

/* --------------------------------------------------- keys, fingerprints */

struct keyed {
	char e2e[CL_ID_MAX], key[CL_KEY_MAX];
	unsigned char fp[32];
};

static int load_keys(const char *path, struct keyed *out, int max)
{
	size_t len = 0;
	char *buf = read_file(path, &len);
	int n;

	assert_non_null(buf);
	iso_run_opts(buf, len, 0, NULL, &run);
	free(buf);
	assert_int_equal(run.nerr, 0);
	n = run.nrec < max ? run.nrec : max;
	for (int i = 0; i < n; i++) {
		strcpy(out[i].e2e, run.rec[i].end_to_end_id);
		strcpy(out[i].key, run.rec[i].natural_key);
		memcpy(out[i].fp, run.rec[i].fingerprint, 32);
	}
	return n;
}

static const struct keyed *by_e2e(const struct keyed *k, int n, const char *e2e)
{
	for (int i = 0; i < n; i++)
		if (strcmp(k[i].e2e, e2e) == 0)
			return &k[i];
	return NULL;
}

static void test_iso20022_regrouped_reupload_same_keys(void **state)
{
	struct keyed a[32], b[32], c[32], d[32];
	int na = load_keys("testdata/iso20022/gen/pain_a.xml", a, 32);
	int nb = load_keys("testdata/iso20022/gen/pain_b.xml", b, 32);
	int nc = load_keys("testdata/iso20022/gen/pain_03.xml", c, 32);
	int nd = load_keys("testdata/iso20022/gen/pain_bump.xml", d, 32);
	int same = 0;

	(void)state;
	assert_int_equal(na, 12);
	assert_int_equal(nb, 9); /* every 4th left out, 3 per PmtInf, new MsgId */
	for (int i = 0; i < nb; i++) {
		const struct keyed *x = by_e2e(a, na, b[i].e2e);

		assert_non_null(x);
		assert_string_equal(x->key, b[i].key);
		assert_memory_equal(x->fp, b[i].fp, 32);
		same++;
	}
	assert_int_equal(same, 9);
	/* the same payments as pain.001.001.03: same keys and fingerprints */
	assert_int_equal(nc, 12);
	for (int i = 0; i < nc; i++) {
		const struct keyed *x = by_e2e(a, na, c[i].e2e);

		assert_non_null(x);
		assert_string_equal(x->key, c[i].key);
		assert_memory_equal(x->fp, c[i].fp, 32);
	}
	/* a changed amount keeps the key and changes the fingerprint */
	for (int i = 0; i < nd; i++) {
		const struct keyed *x = by_e2e(a, na, d[i].e2e);
		unsigned long idx = strtoul(strrchr(d[i].e2e, '-') + 1, NULL, 10);

		assert_non_null(x);
		assert_string_equal(x->key, d[i].key);
		if (idx % 5 == 0)
			assert_memory_not_equal(x->fp, d[i].fp, 32);
		else
			assert_memory_equal(x->fp, d[i].fp, 32);
	}
}

static void test_iso20022_pacs008_overlap_same_keys(void **state)
{
	struct keyed a[16], b[16];
	int na = load_keys("testdata/iso20022/gen/pacs_a.xml", a, 16);
	int nb = load_keys("testdata/iso20022/gen/pacs_b.xml", b, 16);
	int shared = 0;

	(void)state;
	assert_int_equal(na, 10);
	assert_int_equal(nb, 10);
	for (int i = 0; i < nb; i++) {
		const struct keyed *x = by_e2e(a, na, b[i].e2e);

		if (!x)
			continue;
		assert_true(strncmp(x->key, "uetr|", 5) == 0);
		assert_string_equal(x->key, b[i].key);
		assert_memory_equal(x->fp, b[i].fp, 32);
		shared++;
	}
	assert_int_equal(shared, 5); /* indexes 6..10 */
}

static void test_iso20022_uetr_chain_hops_distinct(void **state)
{
	static const char *const files[] = {
		"p.2.1.2_pacs.008_AtoB.xml", "p.2.1.2_pacs.008_BtoC.xml",
		"p.2.1.2_pacs.008_CtoD.xml", "p.2.1.2_pacs.004_CtoB.xml",
		"p.2.1.2_pacs.004_BtoA.xml",
	};
	char keys[5][CL_KEY_MAX], path[256];

	(void)state;
	for (int i = 0; i < 5; i++) {
		struct keyed k[2];

		snprintf(path, sizeof(path), "testdata/iso20022/corpus/chains/cbprplus_p.2.1.2/%s",
			 files[i]);
		assert_int_equal(load_keys(path, k, 2), 1);
		strcpy(keys[i], k[0].key);
		assert_non_null(strstr(keys[i], "174c245f-2682-4291-ad67-2a41e530cd27"));
		for (int j = 0; j < i; j++)
			assert_string_not_equal(keys[i], keys[j]);
	}
	assert_string_equal(keys[0],
			    "uetr|174c245f-2682-4291-ad67-2a41e530cd27|CHASGB2L");
	assert_string_equal(keys[1],
			    "uetr|174c245f-2682-4291-ad67-2a41e530cd27|CHASUS33");
}

static void test_iso20022_fingerprint_ignores_cosmetics(void **state)
{
	unsigned char fp1[32];
	char x[8192];

	(void)state;
	iso_run(pain09("1", "1", TX09("E1", "1.00", "EUR")), &run);
	assert_int_equal(run.nrec, 1);
	memcpy(fp1, run.rec[0].fingerprint, 32);
	/* other MsgId, CreDtTm, PmtInfId, names and remittance text */
	snprintf(x, sizeof(x), "%s", pain09("1", "1", TX09("E1", "1.00", "EUR")));
	{
		const char *from[] = {"MSG-1", "08:00:00Z", "PMT-1", "Acme GmbH", "Bob", "Invoice 1"};
		const char *to[] = {"MSG-2", "09:30:00Z", "PMT-9", "ACME AG  ", "Rob", "Rechnung "};

		for (int i = 0; i < 6; i++) {
			char *p = strstr(x, from[i]);

			assert_non_null(p);
			memcpy(p, to[i], strlen(to[i]));
		}
	}
	iso_run(x, &run2);
	assert_int_equal(run2.nrec, 1);
	assert_string_equal(run2.rec[0].msg_id, "MSG-2");
	assert_string_equal(run.rec[0].natural_key, run2.rec[0].natural_key);
	assert_memory_equal(fp1, run2.rec[0].fingerprint, 32);
	/* an economic change does change it */
	iso_run(pain09("1", "1", TX09("E1", "1.01", "EUR")), &run2);
	assert_memory_not_equal(fp1, run2.rec[0].fingerprint, 32);
}

/* ------------------------------------------------- chunk independence */

static void same_runs(const char *buf, size_t len)
{
	static const size_t chunks[] = {1, 2, 3, 7, 64, 511, 4096};

	iso_run_opts(buf, len, 0, NULL, &run);
	for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		iso_run_opts(buf, len, chunks[c], NULL, &run2);
		assert_int_equal(run.nrec, run2.nrec);
		assert_int_equal(run.nerr, run2.nerr);
		for (int i = 0; i < run.nrec && i < RUN_MAX; i++)
			assert_memory_equal(&run.rec[i], &run2.rec[i], sizeof(run.rec[i]));
		for (int i = 0; i < run.nerr && i < RUN_MAX; i++) {
			assert_string_equal(run.err[i].code, run2.err[i].code);
			assert_string_equal(run.err[i].message, run2.err[i].message);
			assert_string_equal(run.err[i].path, run2.err[i].path);
			assert_int_equal(run.err[i].line, run2.err[i].line);
			assert_int_equal(run.err[i].column, run2.err[i].column);
		}
		assert_memory_equal(&run.info, &run2.info, sizeof(run.info));
	}
}

static void test_iso20022_chunk_independence(void **state)
{
	static const char *const files[] = {
		"testdata/iso20022/gen/pain_b.xml",
		"testdata/iso20022/corpus/pain.001/ch/moov_musterfile_pain.001_Nov2020.xml",
		"testdata/iso20022/corpus/pain.001/001.03/moov_sepa_payment_naujas_1.xml",
		"testdata/iso20022/corpus/pacs.008/cbprplus/cbprplus_2025_pacs.008.max.xml",
		"testdata/iso20022/corpus/pacs.004/cbprplus/cbprplus_2025_pacs.004.max.xml",
		"testdata/iso20022/corpus/edge-cases/moov_invalid_file2.xml",
		"testdata/iso20022/corpus/camt.053/genkgo_camt053.v8.xml",
	};
	const char *x;

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		size_t len = 0;
		char *buf = read_file(files[i], &len);

		assert_non_null(buf);
		same_runs(buf, len);
		free(buf);
	}
	{
		/* records, then a cut: the same records before the same error */
		size_t len = 0;
		char *buf = read_file("testdata/iso20022/gen/pain_a.xml", &len);

		assert_non_null(buf);
		same_runs(buf, len * 6 / 10);
		assert_true(run.nrec >= 5);
		assert_string_equal(run.err[run.nerr - 1].code, "xml_truncated");
		free(buf);
	}
	x = pain09("3", "1", TX09("E1", "12.345", "EUR") TX09("", "1.00", "eur"));
	same_runs(x, strlen(x));
	same_runs(pacs004, strlen(pacs004));
	same_runs(enveloped, strlen(enveloped));
}

static void schema_run(const char *file, const char *xsd)
{
	struct cl_parse_opts o = {.schema_path = xsd};
	size_t len = 0;
	char *buf = read_file(file, &len);

	assert_non_null(buf);
	iso_run_opts(buf, len, 0, &o, &run);
	free(buf);
}

static void test_iso20022_schema_validation(void **state)
{
	static const char xsd[] = "testdata/iso20022/corpus/xsd/pain.001.001.09.xsd";

	(void)state;
	/* the generator writes schema-valid pain.001.001.09 */
	schema_run("testdata/iso20022/gen/pain_a.xml", xsd);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nrec, 12);
	/* a .03 document against the .09 schema */
	schema_run("testdata/iso20022/corpus/pain.001/001.03/sepa_king_pain.001.001.03.xml", xsd);
	assert_int_equal(run.nrec, 2);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "xml_schema");
	assert_int_equal(run.err[0].line, 3);
	assert_string_equal(run.err[0].message, "XML schema: element 'Document': no matching "
						"global declaration available for the validation root");
	/* CBPR+: the Document inside an AppHdr envelope is what is validated
	 * (not the envelope: against that every such file would fail) */
	schema_run("testdata/iso20022/corpus/pain.001/001.09/cbprplus_2025_pain.001.max.xml", xsd);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nrec, 1);
	/* a schema that cannot be read */
	schema_run("testdata/iso20022/gen/pain_a.xml", "testdata/iso20022/no-such.xsd");
	assert_int_equal(run.nrec, 0);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "xml_schema");
	assert_string_equal(run.err[0].message, "could not open the XML schema "
						"\"testdata/iso20022/no-such.xsd\": No such file or "
						"directory");
	/* a file that is no schema */
	schema_run("testdata/iso20022/gen/pain_a.xml", "testdata/iso20022/MANIFEST");
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "xml_schema");
}

/* validate asks once, before reading any file */
static void test_iso20022_schema_check(void **state)
{
	struct cl_error err;

	(void)state;
	assert_int_equal(cl_iso20022_schema_check("testdata/iso20022/corpus/xsd/pain.001.001.09.xsd",
						  &err),
			 CL_OK);
	assert_int_equal(cl_iso20022_schema_check("testdata/iso20022/no-such.xsd", &err), CL_INVALID);
	assert_string_equal(err.code, "xml_schema");
	assert_string_equal(err.message, "could not open the XML schema "
					 "\"testdata/iso20022/no-such.xsd\": No such file or directory");
	assert_int_equal(cl_iso20022_schema_check("testdata/iso20022/MANIFEST", &err), CL_INVALID);
	assert_string_equal(err.message, "could not load the XML schema "
					 "\"testdata/iso20022/MANIFEST\": start tag expected, '<' not found");
}

static int teardown(void **state)
{
	(void)state;
	xmlCleanupParser(); /* tests may; the library never does */
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iso20022_ccy_exponents),
		cmocka_unit_test(test_iso20022_amount_parse),
		cmocka_unit_test(test_iso20022_control_sum_decimal),
		cmocka_unit_test(test_iso20022_identifiers),
		cmocka_unit_test(test_iso20022_namespaces),
		cmocka_unit_test(test_iso20022_repeated_element_is_error),
		cmocka_unit_test(test_iso20022_sender_is_never_a_name),
		cmocka_unit_test(test_iso20022_pain001_v09_record),
		cmocka_unit_test(test_iso20022_pain001_v03_record),
		cmocka_unit_test(test_iso20022_pacs008_key_tiers),
		cmocka_unit_test(test_iso20022_pacs009_cov_ignores_underlying),
		cmocka_unit_test(test_iso20022_bic8_and_bic11_xxx_key_alike),
		cmocka_unit_test(test_iso20022_pacs004_returns),
		cmocka_unit_test(test_iso20022_apphdr_agents_and_splmtry_data),
		cmocka_unit_test(test_iso20022_apphdr_msgdefidr_note),
		cmocka_unit_test(test_iso20022_group_counts_and_sums),
		cmocka_unit_test(test_iso20022_pmtinf_counts_and_sums),
		cmocka_unit_test(test_iso20022_transaction_rules),
		cmocka_unit_test(test_iso20022_identifier_rules),
		cmocka_unit_test(test_iso20022_missing_elements),
		cmocka_unit_test(test_iso20022_shared_values_reported_once),
		cmocka_unit_test(test_iso20022_positional_keys),
		cmocka_unit_test(test_iso20022_max_errors),
		cmocka_unit_test(test_iso20022_regrouped_reupload_same_keys),
		cmocka_unit_test(test_iso20022_pacs008_overlap_same_keys),
		cmocka_unit_test(test_iso20022_uetr_chain_hops_distinct),
		cmocka_unit_test(test_iso20022_fingerprint_ignores_cosmetics),
		cmocka_unit_test(test_iso20022_chunk_independence),
		cmocka_unit_test(test_iso20022_schema_validation),
		cmocka_unit_test(test_iso20022_schema_check),
	};

	return cmocka_run_group_tests_name("iso20022", tests, NULL, teardown);
}
