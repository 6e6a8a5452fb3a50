/* test_iso20022_dd.c - direct debits (pain.008, pacs.003; issue 30,
 * docs/design/0036-direct-debit-keys.md): what each record holds, its key
 * tiers, its fingerprint and alternate key, the in-file checks, the
 * versions read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <libxml/parser.h>

#include "test_iso20022_util.h"

static struct iso_run run;

#define NS "urn:iso:std:iso:20022:tech:xsd:"
#define CDTR_IBAN "DE89370400440532013000"
#define DBTR_IBAN "DE87200500001234567890"

/* A pain.008 of version `ver` with one PmtInf (its SeqTp, CdtrSchmeId,
 * ReqdColltnDt as given, each left out when NULL) and `txs` (whole
 * DrctDbtTxInf elements). */
static char *pain008(const char *ver, const char *seq, const char *sci, const char *date,
		     const char *nb, const char *sum, const char *txs)
{
	static char buf[16384];

	snprintf(buf, sizeof(buf),
		 "<Document xmlns=\"" NS "pain.008.001.%s\"><CstmrDrctDbtInitn>"
		 "<GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-03-02T08:00:00Z</CreDtTm>"
		 "<NbOfTxs>%s</NbOfTxs><CtrlSum>%s</CtrlSum>"
		 "<InitgPty><Nm>Creditor AG</Nm></InitgPty></GrpHdr>"
		 "<PmtInf><PmtInfId>P1</PmtInfId><PmtMtd>DD</PmtMtd>"
		 "<NbOfTxs>%s</NbOfTxs><CtrlSum>%s</CtrlSum>"
		 "<PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl>%s%s%s</PmtTpInf>"
		 "%s%s%s"
		 "<Cdtr><Nm>Creditor AG</Nm></Cdtr>"
		 "<CdtrAcct><Id><IBAN>" CDTR_IBAN "</IBAN></Id></CdtrAcct>"
		 "<CdtrAgt><FinInstnId><BICFI>COBADEFFXXX</BICFI></FinInstnId></CdtrAgt>"
		 "%s%s%s%s</PmtInf></CstmrDrctDbtInitn></Document>",
		 ver, nb, sum, nb, sum, seq ? "<SeqTp>" : "", seq ? seq : "", seq ? "</SeqTp>" : "",
		 date ? "<ReqdColltnDt>" : "", date ? date : "", date ? "</ReqdColltnDt>" : "",
		 sci ? "<CdtrSchmeId><Id><PrvtId><Othr><Id>" : "", sci ? sci : "",
		 sci ? "</Id></Othr></PrvtId></Id></CdtrSchmeId>" : "", txs);
	return buf;
}

/* One DrctDbtTxInf: EndToEndId, amount, mandate (left out when NULL). */
static const char *tx(char *buf, size_t cap, const char *e2e, const char *amt, const char *mndt,
		      const char *extra)
{
	snprintf(buf, cap,
		 "<DrctDbtTxInf><PmtId><EndToEndId>%s</EndToEndId></PmtId>"
		 "<InstdAmt Ccy=\"EUR\">%s</InstdAmt>"
		 "<DrctDbtTx>%s%s%s%s</DrctDbtTx>"
		 "<DbtrAgt><FinInstnId><BICFI>DEUTDEFFXXX</BICFI></FinInstnId></DbtrAgt>"
		 "<Dbtr><Nm>Debtor</Nm></Dbtr>"
		 "<DbtrAcct><Id><IBAN>" DBTR_IBAN "</IBAN></Id></DbtrAcct>"
		 "<RmtInf><Ustrd>Invoice</Ustrd></RmtInf></DrctDbtTxInf>",
		 e2e, amt, mndt ? "<MndtRltdInf><MndtId>" : "", mndt ? mndt : "",
		 mndt ? "</MndtId><DtOfSgntr>2025-11-20</DtOfSgntr></MndtRltdInf>" : "",
		 extra ? extra : "");
	return buf;
}

static void only_error(const char *code)
{
	if (run.nerr != 1)
		fail_msg("%d errors (first: %s %s), expected one %s", run.nerr,
			 run.nerr ? run.err[0].code : "-", run.nerr ? run.err[0].message : "", code);
	assert_string_equal(run.err[0].code, code);
}

static void test_pain008_record(void **state)
{
	char t[2048];

	(void)state;
	iso_run(pain008("08", "RCUR", "DE98ZZZ09999999999", "2026-03-03", "1", "12.34",
			tx(t, sizeof(t), "E2E-1", "12.34", "MNDT-1", NULL)),
		&run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nrec, 1);
	assert_string_equal(run.rec[0].kind, "pain.008");
	assert_string_equal(run.rec[0].message_type, "pain.008.001.08");
	assert_int_equal(run.rec[0].direction, CL_DIR_DEBIT);
	assert_int_equal(run.rec[0].amount_minor, 1234);
	assert_string_equal(run.rec[0].value_date, "2026-03-03");
	assert_string_equal(run.rec[0].creditor_account, CDTR_IBAN);
	assert_string_equal(run.rec[0].creditor_agent, "COBADEFFXXX");
	assert_string_equal(run.rec[0].debtor_account, DBTR_IBAN);
	assert_string_equal(run.rec[0].debtor_agent, "DEUTDEFFXXX");
	assert_string_equal(run.rec[0].mandate_id, "MNDT-1");
	assert_string_equal(run.rec[0].mandate_date, "2025-11-20");
	assert_string_equal(run.rec[0].sequence_type, "RCUR");
	assert_string_equal(run.rec[0].creditor_scheme_id, "DE98ZZZ09999999999");
	assert_string_equal(run.rec[0].pmt_inf_id, "P1");
	assert_string_equal(run.rec[0].natural_key, "DE98ZZZ09999999999|MNDT-1|E2E-1");
	assert_string_equal(run.rec[0].alt_key, "dd|DE98ZZZ09999999999|E2E-1");
	assert_true(run.rec[0].has_alt_fp);
}

/* The key's tiers: the creditor account stands for a missing creditor
 * identifier; without a usable EndToEndId the mandate and the collection
 * date; without both no key, unless --positional-keys. */
static void test_pain008_key_tiers(void **state)
{
	char t[2048];
	struct cl_parse_opts pos = {.positional_keys = true};
	const char *doc;

	(void)state;
	iso_run(pain008("02", "FRST", NULL, "2026-03-03", "1", "1",
			tx(t, sizeof(t), "E2E-1", "1", "MNDT-1", NULL)),
		&run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.rec[0].natural_key, CDTR_IBAN "|MNDT-1|E2E-1");
	iso_run(pain008("08", "FRST", "DE98ZZZ09999999999", "2026-03-03", "1", "1",
			tx(t, sizeof(t), "NOTPROVIDED", "1", "MNDT-1", NULL)),
		&run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.rec[0].natural_key, "dt|DE98ZZZ09999999999|MNDT-1|2026-03-03");
	assert_string_equal(run.rec[0].alt_key, "");
	doc = pain008("08", "FRST", "DE98ZZZ09999999999", "2026-03-03", "1", "1",
		      tx(t, sizeof(t), "NOTPROVIDED", "1", NULL, NULL));
	iso_run(doc, &run);
	only_error("no_key");
	assert_int_equal(run.nrec, 0);
	assert_non_null(strstr(run.err[0].message, "EndToEndId is NOTPROVIDED and no mandate id"));
	iso_run_opts(doc, strlen(doc), 0, &pos, &run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.rec[0].natural_key, "pos|M1|P1|1");
	assert_string_equal(run.rec[0].key_rule, CL_KEY_RULE_V1_POSITIONAL);
}

/* The transaction's own SeqTp and CdtrSchmeId come before its PmtInf's. */
static void test_pain008_transaction_overrides(void **state)
{
	char t[2048];

	(void)state;
	iso_run(pain008("08", "RCUR", "DE98ZZZ09999999999", "2026-03-03", "1", "1",
			tx(t, sizeof(t), "E2E-1", "1", "MNDT-1",
			   "<CdtrSchmeId><Id><PrvtId><Othr><Id>DE11ZZZ00000000001</Id></Othr>"
			   "</PrvtId></Id></CdtrSchmeId>")),
		&run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.rec[0].creditor_scheme_id, "DE11ZZZ00000000001");
	assert_string_equal(run.rec[0].natural_key, "DE11ZZZ00000000001|MNDT-1|E2E-1");
}

static void test_pain008_checks(void **state)
{
	char t[2048], u[2048], two[4096];

	(void)state;
	/* control sums, per PmtInf and group, as pain.001 */
	snprintf(two, sizeof(two), "%s%s", tx(t, sizeof(t), "E2E-1", "10.00", "M1", NULL),
		 tx(u, sizeof(u), "E2E-2", "5.01", "M2", NULL));
	iso_run(pain008("08", "RCUR", "DE98ZZZ09999999999", "2026-03-03", "2", "15.01", two),
		&run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nrec, 2);
	iso_run(pain008("08", "RCUR", "DE98ZZZ09999999999", "2026-03-03", "2", "15.00", two),
		&run);
	assert_int_equal(run.nerr, 2); /* the PmtInf's and the group's */
	assert_string_equal(run.err[0].code, "ctrl_sum");
	assert_non_null(strstr(run.err[0].message, "PmtInf 1 CtrlSum says 15.00, the transaction "
						   "amounts add up to 15.01"));
	iso_run(pain008("08", "RCUR", "DE98ZZZ09999999999", "2026-03-03", "3", "15.01", two),
		&run);
	assert_int_equal(run.nerr, 2);
	assert_string_equal(run.err[0].code, "nb_of_txs");
	/* a sequence type outside the code list */
	iso_run(pain008("08", "RECU", "DE98ZZZ09999999999", "2026-03-03", "1", "1",
			tx(t, sizeof(t), "E2E-1", "1", "MNDT-1", NULL)),
		&run);
	only_error("sequence_type");
	assert_string_equal(run.err[0].path,
			    "/Document/CstmrDrctDbtInitn/PmtInf[1]/PmtTpInf/SeqTp");
	/* the collection date is required */
	iso_run(pain008("08", "RCUR", "DE98ZZZ09999999999", NULL, "1", "1",
			tx(t, sizeof(t), "E2E-1", "1", "MNDT-1", NULL)),
		&run);
	only_error("missing_element");
	assert_non_null(strstr(run.err[0].message, "ReqdColltnDt"));
}

/* pain.008.001.01 names its message element after itself, uses BIC and
 * may leave PmtInfId out. */
static void test_pain008_v01(void **state)
{
	(void)state;
	iso_run("<Document xmlns=\"" NS "pain.008.001.01\"><pain.008.001.01>"
		"<GrpHdr><MsgId>M1</MsgId><CreDtTm>2009-03-02T08:00:00</CreDtTm>"
		"<NbOfTxs>1</NbOfTxs><Grpg>MIXD</Grpg><InitgPty><Nm>C</Nm></InitgPty></GrpHdr>"
		"<PmtInf><PmtMtd>DD</PmtMtd><PmtTpInf><SeqTp>OOFF</SeqTp></PmtTpInf>"
		"<ReqdColltnDt>2009-03-04</ReqdColltnDt><Cdtr><Nm>C</Nm></Cdtr>"
		"<CdtrAcct><Id><IBAN>" CDTR_IBAN "</IBAN></Id></CdtrAcct>"
		"<CdtrAgt><FinInstnId><BIC>COBADEFF</BIC></FinInstnId></CdtrAgt>"
		"<DrctDbtTxInf><PmtId><EndToEndId>E1</EndToEndId></PmtId>"
		"<InstdAmt Ccy=\"EUR\">7.5</InstdAmt><DrctDbtTx><MndtRltdInf><MndtId>MX</MndtId>"
		"</MndtRltdInf><CdtrSchmeId><Id><PrvtId><OthrId><Id>DE98ZZZ09999999999</Id>"
		"</OthrId></PrvtId></Id></CdtrSchmeId></DrctDbtTx>"
		"<DbtrAgt><FinInstnId><BIC>DEUTDEFF</BIC></FinInstnId></DbtrAgt>"
		"<Dbtr><Nm>D</Nm></Dbtr><DbtrAcct><Id><IBAN>" DBTR_IBAN "</IBAN></Id></DbtrAcct>"
		"</DrctDbtTxInf></PmtInf></pain.008.001.01></Document>",
		&run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nrec, 1);
	assert_int_equal(run.rec[0].amount_minor, 750);
	assert_string_equal(run.rec[0].natural_key, "DE98ZZZ09999999999|MX|E1");
	assert_string_equal(run.rec[0].sequence_type, "OOFF");
	assert_string_equal(run.rec[0].creditor_agent, "COBADEFF");
}

/* A credit transfer never reads a mandate, nor a DrctDbtTxInf under its
 * PmtInf: the subtries are the message's own. */
static void test_credit_transfer_reads_no_collection(void **state)
{
	(void)state;
	iso_run("<Document xmlns=\"" NS "pain.001.001.09\"><CstmrCdtTrfInitn>"
		"<GrpHdr><MsgId>M1</MsgId><CreDtTm>2026-03-02T08:00:00Z</CreDtTm>"
		"<NbOfTxs>1</NbOfTxs><InitgPty><Nm>C</Nm></InitgPty></GrpHdr>"
		"<PmtInf><PmtInfId>P1</PmtInfId><PmtMtd>TRF</PmtMtd>"
		"<ReqdExctnDt><Dt>2026-03-03</Dt></ReqdExctnDt><Dbtr><Nm>D</Nm></Dbtr>"
		"<DbtrAcct><Id><IBAN>" DBTR_IBAN "</IBAN></Id></DbtrAcct>"
		"<DbtrAgt><FinInstnId><BICFI>DEUTDEFFXXX</BICFI></FinInstnId></DbtrAgt>"
		"<DrctDbtTxInf><PmtId><EndToEndId>E1</EndToEndId></PmtId>"
		"<InstdAmt Ccy=\"EUR\">1</InstdAmt></DrctDbtTxInf>"
		"</PmtInf></CstmrCdtTrfInitn></Document>",
		&run);
	assert_int_equal(run.nrec, 0);
	assert_int_equal(run.nerr, 2); /* PmtInf 1 and the message: no transaction */
	assert_string_equal(run.err[0].code, "no_transaction");
	assert_non_null(strstr(run.err[0].message, "<CdtTrfTxInf>"));
}

/* A pacs.003 of version `ver` (BIC before .03) with one collection; grp is
 * extra group header content. */
static char *pacs003(const char *ver, const char *grp, const char *pmtid, const char *seq)
{
	static char buf[8192];
	const char *bic = strcmp(ver, "03") < 0 ? "BIC" : "BICFI";

	snprintf(buf, sizeof(buf),
		 "<Document xmlns=\"" NS "pacs.003.001.%s\"><FIToFICstmrDrctDbt>"
		 "<GrpHdr><MsgId>P1</MsgId><CreDtTm>2026-03-02T08:00:00Z</CreDtTm>"
		 "<NbOfTxs>1</NbOfTxs><IntrBkSttlmDt>2026-03-04</IntrBkSttlmDt>"
		 "<SttlmInf><SttlmMtd>CLRG</SttlmMtd></SttlmInf>%s</GrpHdr>"
		 "<DrctDbtTxInf><PmtId>%s</PmtId>%s"
		 "<IntrBkSttlmAmt Ccy=\"EUR\">100.00</IntrBkSttlmAmt>"
		 "<InstdAmt Ccy=\"EUR\">101.00</InstdAmt><ChrgBr>SLEV</ChrgBr>"
		 "<DrctDbtTx><MndtRltdInf><MndtId>MNDT-9</MndtId></MndtRltdInf>"
		 "<CdtrSchmeId><Id><PrvtId><Othr><Id>DE98ZZZ09999999999</Id></Othr></PrvtId></Id>"
		 "</CdtrSchmeId></DrctDbtTx>"
		 "<Cdtr><Nm>C</Nm></Cdtr><CdtrAcct><Id><IBAN>" CDTR_IBAN "</IBAN></Id></CdtrAcct>"
		 "<CdtrAgt><FinInstnId><%s>COBADEFF</%s></FinInstnId></CdtrAgt>"
		 "<Dbtr><Nm>D</Nm></Dbtr><DbtrAcct><Id><IBAN>" DBTR_IBAN "</IBAN></Id></DbtrAcct>"
		 "<DbtrAgt><FinInstnId><%s>DEUTDEFF</%s></FinInstnId></DbtrAgt>"
		 "</DrctDbtTxInf></FIToFICstmrDrctDbt></Document>",
		 ver, grp, pmtid, seq, bic, bic, bic, bic);
	return buf;
}

static void test_pacs003(void **state)
{
	(void)state;
	iso_run(pacs003("08",
			"<InstgAgt><FinInstnId><BICFI>COBADEFFXXX</BICFI></FinInstnId></InstgAgt>"
			"<InstdAgt><FinInstnId><BICFI>DEUTDEFFXXX</BICFI></FinInstnId></InstdAgt>",
			"<EndToEndId>E1</EndToEndId><TxId>T1</TxId>"
			"<UETR>0B1A7B1C-3E1F-4A2B-9C3D-4E5F60718293</UETR>",
			"<PmtTpInf><SeqTp>FNAL</SeqTp></PmtTpInf>"),
		&run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nrec, 1);
	assert_string_equal(run.rec[0].kind, "pacs.003");
	assert_int_equal(run.rec[0].direction, CL_DIR_DEBIT);
	/* the settlement amount, never InstdAmt */
	assert_int_equal(run.rec[0].amount_minor, 10000);
	assert_string_equal(run.rec[0].value_date, "2026-03-04");
	assert_string_equal(run.rec[0].natural_key,
			    "uetr|0b1a7b1c-3e1f-4a2b-9c3d-4e5f60718293|COBADEFF");
	assert_string_equal(run.rec[0].alt_key, "e2e|COBADEFF|E1");
	assert_string_equal(run.rec[0].alt_key2, "txid|COBADEFF|T1");
	assert_string_equal(run.rec[0].mandate_id, "MNDT-9");
	assert_string_equal(run.rec[0].sequence_type, "FNAL");
	assert_string_equal(run.rec[0].creditor_scheme_id, "DE98ZZZ09999999999");
	/* .02: the sequence type of the group header; TxId keyed */
	iso_run(pacs003("02",
			"<PmtTpInf><SeqTp>OOFF</SeqTp></PmtTpInf>"
			"<InstgAgt><FinInstnId><BIC>COBADEFF</BIC></FinInstnId></InstgAgt>",
			"<EndToEndId>E1</EndToEndId><TxId>T1</TxId>", ""),
		&run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.rec[0].sequence_type, "OOFF");
	assert_string_equal(run.rec[0].natural_key, "txid|COBADEFF|T1");
	/* no instructing agent (an EBA STEP2 bulk names it in its envelope):
	   no key, said so (0027) */
	iso_run(pacs003("02", "", "<EndToEndId>E1</EndToEndId><TxId>T1</TxId>", ""), &run);
	only_error("no_key");
	assert_non_null(strstr(run.err[0].message, "DrctDbtTxInf/InstgAgt"));
}

/* What moves money is in the fingerprint: the mandate, the sequence
 * type, the creditor identifier; the mandate's date is not.  alt_fp of a
 * pain.008 is the fingerprint without the mandate. */
static void test_dd_fingerprints(void **state)
{
	char t[2048];
	struct cl_record a, b;

	(void)state;
	iso_run(pain008("08", "RCUR", "DE98ZZZ09999999999", "2026-03-03", "1", "1",
			tx(t, sizeof(t), "E2E-1", "1", "MNDT-1", NULL)),
		&run);
	a = run.rec[0];
	iso_run(pain008("08", "RCUR", "DE98ZZZ09999999999", "2026-03-03", "1", "1",
			tx(t, sizeof(t), "E2E-1", "1", "MNDT-1-CORR", NULL)),
		&run);
	b = run.rec[0];
	assert_memory_not_equal(a.fingerprint, b.fingerprint, 32);
	assert_memory_equal(a.alt_fp, b.alt_fp, 32);
	assert_string_equal(a.alt_key, b.alt_key);
	assert_string_not_equal(a.natural_key, b.natural_key);
	iso_run(pain008("08", "FRST", "DE98ZZZ09999999999", "2026-03-03", "1", "1",
			tx(t, sizeof(t), "E2E-1", "1", "MNDT-1", NULL)),
		&run);
	assert_memory_not_equal(a.fingerprint, run.rec[0].fingerprint, 32);
	assert_string_equal(a.natural_key, run.rec[0].natural_key);
}

/* Versions: pain.008.001.01 to .12, .002.02, .003.02; pacs.003.001.01 to
 * .12; others are a version not read. */
static void test_dd_versions(void **state)
{
	static const char *const bad[] = {"pain.008.001.13", "pain.008.002.03", "pacs.003.001.13"};
	char t[2048], doc[8192];

	(void)state;
	iso_run(pain008("12", "RCUR", "DE98ZZZ09999999999", "2026-03-03", "1", "1",
			tx(t, sizeof(t), "E2E-1", "1", "MNDT-1", NULL)),
		&run);
	assert_int_equal(run.nerr, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(doc, sizeof(doc), "<Document xmlns=\"" NS "%s\"/>", bad[i]);
		iso_run(doc, &run);
		only_error("unsupported_version");
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pain008_record),
		cmocka_unit_test(test_pain008_key_tiers),
		cmocka_unit_test(test_pain008_transaction_overrides),
		cmocka_unit_test(test_pain008_checks),
		cmocka_unit_test(test_pain008_v01),
		cmocka_unit_test(test_credit_transfer_reads_no_collection),
		cmocka_unit_test(test_pacs003),
		cmocka_unit_test(test_dd_fingerprints),
		cmocka_unit_test(test_dd_versions),
	};

	xmlInitParser();
	return cmocka_run_group_tests_name("iso20022_dd", tests, NULL, NULL);
}
