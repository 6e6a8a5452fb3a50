/* test_statement_camt.c - the camt.052/053/054 reader (parsers/statement.h)
 * on small hand-made statements: what each item carries, and each
 * statement check failing by one controlled difference (a cent off the
 * closing balance, a wrong NbOfNtries, a batch count or total). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <sys/resource.h>
#include <unistd.h>

#include "test_statement_util.h"

static struct stmt_run run;

/* A camt.053.001.02 statement of four entries: a batch credit of two
 * transactions (250.00), a debit with references and a return reason
 * (100.00), a plain credit (50.00) and a pending credit (999.99, not in
 * the balance).  Opening 1000.00, so the closing booked balance is
 * 1200.00.  The %s are: closing balance, TtlNtries NbOfNtries, Btch
 * NbOfTxs, the second batch transaction's amount. */
static const char stmt_fmt[] =
	"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                                  /* 1 */
	"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\">\n"        /* 2 */
	"<BkToCstmrStmt>\n"                                                              /* 3 */
	"<GrpHdr><MsgId>MSG-1</MsgId><CreDtTm>2026-11-30T08:00:00</CreDtTm></GrpHdr>\n" /* 4 */
	"<Stmt>\n"                                                                       /* 5 */
	"<Id>STMT-1</Id><ElctrncSeqNb>42</ElctrncSeqNb>\n"                               /* 6 */
	"<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>\n"      /* 7 */
	"<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy=\"EUR\">1000.00</Amt>"
	"<CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-29</Dt></Dt></Bal>\n"                /* 8 */
	"<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy=\"EUR\">%s</Amt>"
	"<CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-30</Dt></Dt></Bal>\n"                /* 9 */
	"<TxsSummry><TtlNtries><NbOfNtries>%s</NbOfNtries><Sum>1399.99</Sum>"
	"<TtlNetNtryAmt>1199.99</TtlNetNtryAmt><CdtDbtInd>CRDT</CdtDbtInd></TtlNtries>\n" /* 10 */
	"<TtlCdtNtries><NbOfNtries>3</NbOfNtries><Sum>1299.99</Sum></TtlCdtNtries>"
	"<TtlDbtNtries><NbOfNtries>1</NbOfNtries><Sum>100.00</Sum></TtlDbtNtries></TxsSummry>\n" /* 11 */
	"<Ntry><Amt Ccy=\"EUR\">250.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>"
	"<BookgDt><Dt>2026-11-30</Dt></BookgDt><AcctSvcrRef>SVCR-1</AcctSvcrRef>\n"     /* 12 */
	"<NtryDtls><Btch><PmtInfId>PMT-1</PmtInfId><NbOfTxs>%s</NbOfTxs>"
	"<TtlAmt Ccy=\"EUR\">250.00</TtlAmt><CdtDbtInd>CRDT</CdtDbtInd></Btch>\n"        /* 13 */
	"<TxDtls><Refs><EndToEndId>E2E-1a</EndToEndId></Refs><AmtDtls><TxAmt>"
	"<Amt Ccy=\"EUR\">200.00</Amt></TxAmt></AmtDtls></TxDtls>\n"                     /* 14 */
	"<TxDtls><Refs><EndToEndId>E2E-1b</EndToEndId></Refs><AmtDtls><TxAmt>"
	"<Amt Ccy=\"EUR\">%s</Amt></TxAmt></AmtDtls></TxDtls>\n"                         /* 15 */
	"</NtryDtls></Ntry>\n"                                                           /* 16 */
	"<Ntry><NtryRef>R2</NtryRef><Amt Ccy=\"EUR\">100.00</Amt><CdtDbtInd>DBIT</CdtDbtInd>"
	"<Sts>BOOK</Sts><NtryDtls><TxDtls><Refs><InstrId>I-2</InstrId>"
	"<EndToEndId>E2E-2</EndToEndId><TxId>TX-2</TxId><Prtry><Tp>ACH Trace Number</Tp>"
	"<Ref>091000010000001</Ref></Prtry></Refs><AmtDtls><TxAmt><Amt Ccy=\"EUR\">100.00</Amt>"
	"</TxAmt></AmtDtls><RtrInf><Rsn><Cd>AC04</Cd></Rsn></RtrInf></TxDtls></NtryDtls>"
	"</Ntry>\n"                                                                      /* 17 */
	"<Ntry><Amt Ccy=\"EUR\">50.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts></Ntry>\n" /* 18 */
	"<Ntry><Amt Ccy=\"EUR\">999.99</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>PDNG</Sts></Ntry>\n" /* 19 */
	"</Stmt>\n"
	"</BkToCstmrStmt>\n"
	"</Document>\n";

static char doc[8192];

/* A camt.053 Stmt has Bal 1..n: a closing balance alone, where a case is
 * about something else. */
#define CLBD "<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy=\"EUR\">1.00</Amt>" \
	     "<CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-01-01</Dt></Dt></Bal>"

static const char *statement(const char *closing, const char *nb, const char *btch_nb,
			     const char *tx2)
{
	snprintf(doc, sizeof(doc), stmt_fmt, closing, nb, btch_nb, tx2);
	return doc;
}

static const char *good(void)
{
	return statement("1200.00", "4", "2", "50.00");
}

static void test_statement_camt_valid_items(void **state)
{
	const struct cl_stmt_item *s, *e, *t;

	(void)state;
	stmt_run_str(good(), &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nnote, 0);
	assert_string_equal(run.source, "camt.053");
	assert_string_equal(run.message_type, "camt.053.001.02");
	assert_int_equal(run.nkind[CL_STMT_STATEMENT], 1);
	assert_int_equal(run.nkind[CL_STMT_ENTRY], 4);
	assert_int_equal(run.nkind[CL_STMT_TX], 3);
	/* document order: the statement, entry 1's two transactions, entry 1 */
	assert_int_equal(run.item[0].kind, CL_STMT_STATEMENT);
	assert_int_equal(run.item[1].kind, CL_STMT_TX);
	assert_int_equal(run.item[2].kind, CL_STMT_TX);
	assert_int_equal(run.item[3].kind, CL_STMT_ENTRY);

	s = stmt_nth(&run, CL_STMT_STATEMENT, 0);
	assert_string_equal(s->stmt.msg_id, "MSG-1");
	assert_string_equal(s->stmt.id, "STMT-1");
	assert_string_equal(s->stmt.elctrnc_seq_nb, "42");
	assert_string_equal(s->stmt.acct_iban, "DE89370400440532013000");
	assert_string_equal(s->stmt.acct_ccy, "EUR");
	assert_true(s->stmt.opening.present);
	assert_string_equal(s->stmt.opening.type, "OPBD");
	assert_int_equal(s->stmt.opening.amount_minor, 100000);
	assert_int_equal(s->stmt.closing.amount_minor, 120000);
	assert_int_equal(s->stmt.sum_nb_of_ntries, 4);

	e = stmt_nth(&run, CL_STMT_ENTRY, 0);
	assert_int_equal(e->entry.index, 1);
	assert_int_equal(e->entry.line, 12);
	assert_int_equal(e->entry.amount_minor, 25000);
	assert_int_equal(e->entry.direction, CL_DIR_CREDIT);
	assert_string_equal(e->entry.status, "BOOK");
	assert_string_equal(e->entry.booking_date, "2026-11-30");
	assert_string_equal(e->entry.acct_svcr_ref, "SVCR-1");
	assert_string_equal(e->entry.btch_pmt_inf_id, "PMT-1");
	assert_int_equal(e->entry.btch_nb_of_txs, 2);
	assert_true(e->entry.btch_has_ttl);
	assert_int_equal(e->entry.btch_ttl_amt_minor, 25000);
	assert_int_equal(e->entry.txs, 2);
	assert_string_equal(e->stmt.id, "STMT-1"); /* every item carries its statement */

	t = stmt_nth(&run, CL_STMT_TX, 1);
	assert_int_equal(t->tx.index, 2);
	assert_string_equal(t->tx.end_to_end_id, "E2E-1b");
	assert_true(t->tx.has_amount);
	assert_int_equal(t->tx.amount_minor, 5000);
	assert_int_equal(t->tx.direction, CL_DIR_CREDIT);
	assert_int_equal(t->entry.index, 1); /* with its entry as far as known */
	assert_int_equal(t->entry.amount_minor, 25000);

	t = stmt_nth(&run, CL_STMT_TX, 2);
	assert_string_equal(t->tx.instr_id, "I-2");
	assert_string_equal(t->tx.end_to_end_id, "E2E-2");
	assert_string_equal(t->tx.tx_id, "TX-2");
	assert_string_equal(t->tx.ach_trace, "091000010000001");
	assert_string_equal(t->tx.rtr_reason, "AC04");
	assert_int_equal(t->tx.direction, CL_DIR_DEBIT);
	assert_string_equal(t->entry.ntry_ref, "R2");

	e = stmt_nth(&run, CL_STMT_ENTRY, 3);
	assert_string_equal(e->entry.status, "PDNG");
	assert_int_equal(e->entry.btch_nb_of_txs, -1);
	assert_int_equal(run.net, 25000 - 10000 + 5000 + 99999);
	assert_true(stmt_chunk_stable(good()));
}

static void test_statement_camt_balance_off_by_one_cent(void **state)
{
	const char *d = statement("1200.01", "4", "2", "50.00");

	(void)state;
	stmt_run_str(d, &run);
	/* a break is evidence, not an invalid file: a note with the numbers */
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nnote, 1);
	assert_string_equal(run.note[0].code, CL_STMT_BALANCE_BREAK);
	assert_int_equal(run.note[0].line, 9);
	assert_string_equal(run.note[0].message,
			    "balance break of 0.01 EUR: closing balance CLBD is 1200.01 EUR, but the "
			    "opening balance plus booked credits minus booked debits is 1200.00 EUR");
	assert_string_equal(run.note[0].detail,
			    "opening balance OPBD on line 8: 1000.00; booked credits: 300.00 in 2 "
			    "entries; booked debits: 100.00 in 1 entry (only entries with Sts BOOK "
			    "count)");
	assert_string_equal(run.note[0].path, "/Document/BkToCstmrStmt/Stmt/Bal");
	/* the items are all handed out */
	assert_int_equal(run.nkind[CL_STMT_ENTRY], 4);
	assert_true(stmt_chunk_stable(d));
}

static void test_statement_camt_debit_closing_balance(void **state)
{
	char d[8192];

	(void)state;
	/* a closing balance of -1200.00 (DBIT) against +1200.00 */
	snprintf(d, sizeof(d), "%s", good());
	{
		char *clbd = strstr(d, "<Cd>CLBD</Cd>");
		char *ind = strstr(clbd, "CRDT");

		memcpy(ind, "DBIT", 4);
	}
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nnote, 1);
	assert_string_equal(run.note[0].message,
			    "balance break of -2400.00 EUR: closing balance CLBD is -1200.00 EUR, but "
			    "the opening balance plus booked credits minus booked debits is 1200.00 "
			    "EUR");
}

/* PRCD (previous closing) stands for the opening balance when there is no
 * OPBD. */
static void test_statement_camt_prcd_opening(void **state)
{
	char d[8192];

	(void)state;
	snprintf(d, sizeof(d), "%s", statement("1200.01", "4", "2", "50.00"));
	memcpy(strstr(d, "<Cd>OPBD</Cd>"), "<Cd>PRCD</Cd>", 13);
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nnote, 1);
	assert_string_equal(run.note[0].code, CL_STMT_BALANCE_BREAK);
	assert_string_equal(stmt_nth(&run, CL_STMT_STATEMENT, 0)->stmt.opening.type, "PRCD");
	assert_true(strncmp(run.note[0].detail, "opening balance PRCD on line 8: 1000.00;", 40) == 0);
}

/* camt.052.001.08 account report: Rpt, no balances to check. */
static void test_statement_camt_account_report(void **state)
{
	static const char d[] =
		"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.052.001.08\">"
		"<BkToCstmrAcctRpt><GrpHdr><MsgId>R-1</MsgId><CreDtTm>2026-03-03T06:00:00</CreDtTm></GrpHdr>"
		"<Rpt><Id>RPT-1</Id><Acct><Id><IBAN>GB33BUKB20201555555555</IBAN></Id></Acct>"
		"<Ntry><Amt Ccy=\"GBP\">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>"
		"<Sts><Cd>PDNG</Cd></Sts></Ntry></Rpt></BkToCstmrAcctRpt></Document>";

	(void)state;
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.source, "camt.052");
	assert_string_equal(stmt_nth(&run, CL_STMT_STATEMENT, 0)->stmt.id, "RPT-1");
	assert_string_equal(stmt_nth(&run, CL_STMT_ENTRY, 0)->entry.status, "PDNG");
}

static void test_statement_camt_wrong_nb_of_ntries(void **state)
{
	(void)state;
	stmt_run_str(statement("1200.00", "5", "2", "50.00"), &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "summary_count");
	assert_int_equal(run.err[0].line, 10);
	assert_string_equal(run.err[0].message,
			    "TxsSummry TtlNtries NbOfNtries is 5, but the statement has 4 entries");
	assert_string_equal(run.err[0].path,
			    "/Document/BkToCstmrStmt/Stmt/TxsSummry/TtlNtries/NbOfNtries");
}

static void test_statement_camt_wrong_summary_sum(void **state)
{
	char d[8192];

	(void)state;
	snprintf(d, sizeof(d), "%s", good());
	memcpy(strstr(d, "<Sum>1299.99</Sum>"), "<Sum>1299.98</Sum>", 18);
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "summary_sum");
	assert_int_equal(run.err[0].line, 11);
	assert_string_equal(run.err[0].message,
			    "TxsSummry TtlCdtNtries/Sum is 1299.98, but the statement's credit "
			    "entries add up to 1299.99 EUR");
}

static void test_statement_camt_batch_count(void **state)
{
	(void)state;
	stmt_run_str(statement("1200.00", "4", "3", "50.00"), &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "batch_count");
	assert_int_equal(run.err[0].line, 13);
	assert_string_equal(run.err[0].message,
			    "entry 1 Btch NbOfTxs is 3, but its NtryDtls has 2 TxDtls");
}

/* A batch reported with one TxDtls for the whole (a bank's summary, as in
 * the Finnish and genkgo samples of testdata/statements) is not a count
 * mismatch: NbOfTxs counts the batch's transactions, the one TxDtls sums
 * them, and it still has to equal the entry and the Btch TtlAmt. */
static void test_statement_camt_batch_summarised(void **state)
{
	char d[8192], *b, *e;

	(void)state;
	snprintf(d, sizeof(d), "%s", statement("1200.00", "4", "5", "50.00"));
	b = strstr(d, "<TxDtls><Refs><EndToEndId>E2E-1b");
	e = b ? strstr(b, "</TxDtls>\n") : NULL;
	assert_non_null(e);
	memmove(b, e + 10, strlen(e + 10) + 1);
	memcpy(strstr(d, "200.00</Amt></TxAmt>"), "250.00", 6);
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nkind[CL_STMT_TX], 2); /* E2E-1a and the debit's */
	/* the summary must still add up to the entry */
	memcpy(strstr(d, "250.00</Amt></TxAmt>"), "249.00", 6);
	stmt_run_str(d, &run);
	assert_true(stmt_find_error(&run, "entry_details_sum") >= 0);
	assert_int_equal(stmt_find_error(&run, "batch_count"), -1);
}

static void test_statement_camt_batch_total_and_entry_sum(void **state)
{
	const char *d = statement("1200.00", "4", "2", "50.01");

	(void)state;
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 2);
	assert_string_equal(run.err[0].code, "batch_total");
	assert_int_equal(run.err[0].line, 13);
	assert_string_equal(run.err[0].message,
			    "entry 1 Btch TtlAmt is 250.00 EUR, but its 2 TxDtls add up to 250.01 EUR");
	assert_string_equal(run.err[1].code, "entry_details_sum");
	assert_int_equal(run.err[1].line, 12);
	assert_string_equal(run.err[1].message,
			    "entry 1 amount 250.00 EUR differs from the sum of its 2 transaction "
			    "details (250.01 EUR)");
	assert_true(stmt_chunk_stable(d));
}

/* camt.053.001.08: what an entry and its TxDtls say of the amount
 * instructed, the charges and a reversal (028): a charge itemised in the
 * TxDtls (Amt as booked, AmtDtls/InstdAmt ours) and in the entry (its
 * TxDtls giving AmtDtls/TxAmt, the amount before the charge: not an
 * entry_details_sum error), an FX credit (InstdAmt in USD), a reversal
 * with its return reason.  Opening 1000.00, closing 995.00. */
static const char amtdtls[] =
	"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\">\n"
	"<BkToCstmrStmt><GrpHdr><MsgId>C-1</MsgId><CreDtTm>2026-11-30T08:00:00</CreDtTm>"
	"</GrpHdr>\n"
	"<Stmt><Id>S-C</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy>"
	"</Acct>\n"
	"<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy=\"EUR\">1000.00</Amt>"
	"<CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-29</Dt></Dt></Bal>"
	"<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy=\"EUR\">995.00</Amt>"
	"<CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-30</Dt></Dt></Bal>\n"
	"<Ntry><Amt Ccy=\"EUR\">97.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>"
	"<NtryDtls><TxDtls><Refs><EndToEndId>E-1</EndToEndId></Refs>"
	"<Amt Ccy=\"EUR\">97.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><AmtDtls><InstdAmt>"
	"<Amt Ccy=\"EUR\">100.00</Amt></InstdAmt><TxAmt><Amt Ccy=\"EUR\">100.00</Amt></TxAmt>"
	"</AmtDtls><Chrgs><Rcrd><Amt Ccy=\"EUR\">2.50</Amt><CdtDbtInd>DBIT</CdtDbtInd>"
	"<ChrgInclInd>true</ChrgInclInd></Rcrd></Chrgs></TxDtls></NtryDtls></Ntry>\n"
	"<Ntry><Amt Ccy=\"EUR\">97.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>"
	"<AmtDtls><InstdAmt><Amt Ccy=\"EUR\">100.00</Amt></InstdAmt></AmtDtls>"
	"<Chrgs><TtlChrgsAndTaxAmt Ccy=\"EUR\">2.50</TtlChrgsAndTaxAmt></Chrgs>"
	"<NtryDtls><TxDtls><Refs><EndToEndId>E-2</EndToEndId></Refs><AmtDtls><TxAmt>"
	"<Amt Ccy=\"EUR\">100.00</Amt></TxAmt></AmtDtls></TxDtls></NtryDtls></Ntry>\n"
	"<Ntry><Amt Ccy=\"EUR\">90.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>"
	"<NtryDtls><TxDtls><Refs><EndToEndId>E-3</EndToEndId></Refs>"
	"<Amt Ccy=\"EUR\">90.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><AmtDtls><InstdAmt>"
	"<Amt Ccy=\"USD\">100.00</Amt><CcyXchg><SrcCcy>USD</SrcCcy><TrgtCcy>EUR</TrgtCcy>"
	"<XchgRate>0.9</XchgRate></CcyXchg></InstdAmt></AmtDtls></TxDtls></NtryDtls></Ntry>\n"
	"<Ntry><Amt Ccy=\"EUR\">100.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><RvslInd>true</RvslInd>"
	"<Sts><Cd>BOOK</Cd></Sts><NtryDtls><TxDtls><Refs><EndToEndId>E-4</EndToEndId></Refs>"
	"<Amt Ccy=\"EUR\">100.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><RtrInf><Rsn><Cd>AC04</Cd>"
	"</Rsn></RtrInf></TxDtls></NtryDtls></Ntry>\n"
	"</Stmt></BkToCstmrStmt></Document>\n";

static void test_statement_camt_amount_details_and_charges(void **state)
{
	const struct cl_stmt_item *t1, *e2, *t2, *t3, *e4, *t4;
	char bad[sizeof(amtdtls)], *p;

	(void)state;
	stmt_run_str(amtdtls, &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nkind[CL_STMT_ENTRY], 4);
	assert_int_equal(run.nkind[CL_STMT_TX], 4);
	t1 = stmt_nth(&run, CL_STMT_TX, 0);
	assert_non_null(t1);
	assert_int_equal(t1->tx.amount_minor, 9750);
	assert_true(t1->tx.has_instd);
	assert_int_equal(t1->tx.instd_minor, 10000);
	assert_string_equal(t1->tx.instd_ccy, "EUR");
	assert_true(t1->tx.has_chrgs);
	assert_int_equal(t1->tx.chrgs_minor, 250);
	assert_string_equal(t1->tx.chrgs_ccy, "EUR");
	/* the entry's own, before its NtryDtls: in its TX and ENTRY items */
	t2 = stmt_nth(&run, CL_STMT_TX, 1);
	e2 = stmt_nth(&run, CL_STMT_ENTRY, 1);
	assert_non_null(t2);
	assert_non_null(e2);
	assert_false(t2->tx.has_instd);
	assert_false(t2->tx.has_chrgs);
	assert_int_equal(t2->tx.amount_minor, 10000);
	assert_true(t2->entry.has_instd && e2->entry.has_instd);
	assert_int_equal(e2->entry.instd_minor, 10000);
	assert_true(e2->entry.has_chrgs);
	assert_int_equal(e2->entry.chrgs_minor, 250);
	/* FX: the amount instructed in its own currency */
	t3 = stmt_nth(&run, CL_STMT_TX, 2);
	assert_non_null(t3);
	assert_int_equal(t3->tx.instd_minor, 10000);
	assert_string_equal(t3->tx.instd_ccy, "USD");
	assert_false(t3->tx.has_chrgs);
	/* a reversal and its return reason */
	e4 = stmt_nth(&run, CL_STMT_ENTRY, 3);
	t4 = stmt_nth(&run, CL_STMT_TX, 3);
	assert_non_null(e4);
	assert_non_null(t4);
	assert_true(e4->entry.reversal);
	assert_false(e4->entry.has_instd);
	assert_string_equal(t4->tx.rtr_reason, "AC04");
	assert_true(stmt_chunk_stable(amtdtls));

	/* without its charges the second entry's details do not add up */
	snprintf(bad, sizeof(bad), "%s", amtdtls);
	p = strstr(bad, "<Chrgs><TtlChrgsAndTaxAmt");
	assert_non_null(p);
	memcpy(p, "<Chrgs><TtlChrgsAndTaxAmX", 25);
	p = strstr(p, "</TtlChrgsAndTaxAmt>");
	assert_non_null(p);
	memcpy(p, "</TtlChrgsAndTaxAmX>", 20);
	stmt_run_str(bad, &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "entry_details_sum");
	assert_string_equal(run.err[0].message,
			    "entry 2 amount 97.50 EUR differs from the sum of its 1 transaction "
			    "details (100.00 EUR)");
}

/* camt.054.001.08: Sts/Cd, TxDtls Amt and CdtDbtInd, UETR, no balances. */
static const char ntfctn[] =
	"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.054.001.08\">\n"
	"<BkToCstmrDbtCdtNtfctn><GrpHdr><MsgId>N-1</MsgId><CreDtTm>2026-11-30T08:00:00Z"
	"</CreDtTm></GrpHdr>\n"
	"<Ntfctn><Id>NTF-1</Id><Acct><Id><Othr><Id>12345678</Id></Othr></Id></Acct>\n"
	"<Ntry><Amt Ccy=\"JPY\">5000</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>"
	"<BookgDt><DtTm>2026-11-30T10:00:00Z</DtTm></BookgDt><ValDt><Dt>2026-12-01</Dt></ValDt>"
	"<BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT</Cd><SubFmlyCd>XBCT</SubFmlyCd></Fmly></Domn>"
	"</BkTxCd>\n"
	"<NtryDtls><TxDtls><Refs><MsgId>M-9</MsgId><PmtInfId>P-9</PmtInfId>"
	"<EndToEndId>E-9</EndToEndId><UETR>4bd1b2f6-a9d9-4d56-bd4e-ff8e2b3f7c1a</UETR></Refs>"
	"<Amt Ccy=\"JPY\">5000</Amt><CdtDbtInd>DBIT</CdtDbtInd></TxDtls></NtryDtls></Ntry>\n"
	"</Ntfctn></BkToCstmrDbtCdtNtfctn></Document>\n";

static void test_statement_camt_notification_v08(void **state)
{
	const struct cl_stmt_item *e, *t;

	(void)state;
	stmt_run_str(ntfctn, &run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.source, "camt.054");
	e = stmt_nth(&run, CL_STMT_ENTRY, 0);
	assert_non_null(e);
	assert_string_equal(e->stmt.acct_other, "12345678");
	assert_string_equal(e->entry.status, "BOOK");
	assert_int_equal(e->entry.amount_minor, 5000); /* JPY has no minor unit */
	assert_string_equal(e->entry.booking_date, "2026-11-30T10:00:00Z");
	assert_string_equal(e->entry.value_date, "2026-12-01");
	assert_string_equal(e->entry.bank_tx_code, "PMNT/ICDT/XBCT");
	t = stmt_nth(&run, CL_STMT_TX, 0);
	assert_string_equal(t->tx.uetr, "4bd1b2f6-a9d9-4d56-bd4e-ff8e2b3f7c1a");
	assert_string_equal(t->tx.msg_id, "M-9");
	assert_string_equal(t->tx.pmt_inf_id, "P-9");
	assert_int_equal(t->tx.amount_minor, 5000);
	assert_true(stmt_chunk_stable(ntfctn));
}

static void test_statement_camt_entry_errors(void **state)
{
	char d[8192];
	int i;

	(void)state;
	/* no CdtDbtInd on the plain credit, and 3 decimals for EUR on the
	 * pending one */
	snprintf(d, sizeof(d), "%s", good());
	memcpy(strstr(d, "<Amt Ccy=\"EUR\">50.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>") + 26,
	       "<Xxxxxxxxx>CRDT</Xxxxxxxxx>", 27);
	memcpy(strstr(d, "999.99"), "9.9999", 6);
	stmt_run_str(d, &run);
	i = stmt_find_error(&run, "credit_debit");
	assert_true(i >= 0);
	assert_int_equal(run.err[i].line, 18);
	assert_string_equal(run.err[i].message,
			    "entry 3 CdtDbtInd missing: expected CRDT or DBIT");
	i = stmt_find_error(&run, "amount");
	assert_true(i >= 0);
	assert_int_equal(run.err[i].line, 19);
	assert_string_equal(run.err[i].message,
			    "amount \"9.9999\" has more decimals than EUR's 2");
	assert_string_equal(run.err[i].path, "/Document/BkToCstmrStmt/Stmt/Ntry/Amt");
	/* the balance cannot be checked with an entry unread: no balance error */
	assert_int_equal(run.nnote, 0);
	/* a currency code too long is refused, not cut to three letters */
	snprintf(d, sizeof(d), "%s", good());
	memcpy(strstr(d, "<Amt Ccy=\"EUR\">200.00"), "<Amt Ccy=\"EUX\">", 15);
	stmt_run_str(d, &run);
	assert_int_equal(stmt_find_error(&run, "amount"), 0);
	assert_int_equal(run.err[0].line, 14);
	assert_string_equal(run.err[0].message,
			    "currency \"EUX\" is not an ISO 4217 code: expected an ISO 4217 currency "
			    "with minor units");
	{
		static char e[8192];
		const char *at = strstr(good(), "<Amt Ccy=\"EUR\">200.00");
		size_t head = (size_t)(at - doc);

		memcpy(e, doc, head);
		snprintf(e + head, sizeof(e) - head, "<Amt Ccy=\"EURO\">%s", at + 15);
		stmt_run_str(e, &run);
		assert_int_equal(stmt_find_error(&run, "amount"), 0);
		assert_string_equal(run.err[0].message,
				    "currency \"EURO\" is not an ISO 4217 code: expected an ISO 4217 "
				    "currency with minor units");
	}
	/* a status code that is none of the four */
	snprintf(d, sizeof(d), "%s", good());
	memcpy(strstr(d, "<Sts>PDNG</Sts>"), "<Sts>BOKD</Sts>", 15);
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "entry_status");
	assert_string_equal(run.err[0].message,
			    "entry 4 status \"BOKD\": expected BOOK, PDNG, INFO or FUTR");
	assert_int_equal(run.nnote, 0);
	/* an opening balance without its mandatory Dt (a real bank file,
	 * testdata/statements/real/hbci4java) is refused, not stored undated */
	{
		char *dt;

		snprintf(d, sizeof(d), "%s", good());
		dt = strstr(d, "<Dt><Dt>2026-11-29</Dt></Dt>");
		assert_non_null(dt);
		memset(dt, 'x', 28);
		memcpy(dt, "<!--", 4);
		memcpy(dt + 25, "-->", 3);
		stmt_run_str(d, &run);
		assert_int_equal(run.nerr, 1);
		assert_string_equal(run.err[0].code, "missing_element");
		assert_int_equal(run.err[0].line, 8);
		assert_string_equal(run.err[0].path, "/Document/BkToCstmrStmt/Stmt/Bal/Dt");
		assert_string_equal(run.err[0].message,
				    "balance OPBD has no <Dt>: expected the date it is struck on "
				    "(Dt/Dt or Dt/DtTm)");
		/* and one without its CdtDbtInd (Lithuanian files of
		 * testdata/statements/real/subite) says it is missing */
		snprintf(d, sizeof(d), "%s", good());
		dt = strstr(d, "<CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-29");
		assert_non_null(dt);
		memset(dt, 'x', 27);
		memcpy(dt, "<!--", 4);
		memcpy(dt + 24, "-->", 3);
		stmt_run_str(d, &run);
		assert_int_equal(run.nerr, 1);
		assert_string_equal(run.err[0].code, "credit_debit");
		assert_string_equal(run.err[0].message,
				    "balance OPBD CdtDbtInd missing: expected CRDT or DBIT");
	}
}

/* Messages quote the file: a control character is shown, not printed. */
static void test_statement_camt_message_quotes_safely(void **state)
{
	char d[8192];

	(void)state;
	snprintf(d, sizeof(d), "%s", good());
	memcpy(strstr(d, "<CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK"), "<CdtDbtInd>D\tIT</CdtDbtInd>", 27);
	stmt_run_str(d, &run);
	assert_int_equal(stmt_find_error(&run, "credit_debit"), 0);
	assert_string_equal(run.err[0].message,
			    "entry 2 CdtDbtInd \"D\\x09IT\": expected CRDT or DBIT");
}

static void test_statement_camt_repeated_amount(void **state)
{
	char d[8192];
	char *at;

	(void)state;
	snprintf(d, sizeof(d), "%s", good());
	at = strstr(d, "<Amt Ccy=\"EUR\">50.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>");
	memmove(at + 26, at, strlen(at) + 1);
	memcpy(at, "<Amt Ccy=\"EUR\">70.00</Amt>", 26);
	stmt_run_str(d, &run);
	assert_true(stmt_find_error(&run, "repeated_element") >= 0);
	assert_int_equal(run.err[stmt_find_error(&run, "repeated_element")].line, 18);
}

/* The statement as page 1 of several, its closing balance of type `tp`
 * (the page's interim balance ITBD, else CLBD or one not read). */
static const char *first_page(char *d, size_t cap, const char *closing, const char *tp)
{
	static const char pg[] = "<StmtPgntn><PgNb>1</PgNb><LastPgInd>false</LastPgInd></StmtPgntn>";
	char *at;

	snprintf(d, cap, "%s", statement(closing, "9", "2", "50.00"));
	at = strstr(d, "<ElctrncSeqNb>");
	memmove(at + sizeof(pg) - 1, at, strlen(at) + 1);
	memcpy(at, pg, sizeof(pg) - 1);
	memcpy(strstr(d, "<Cd>CLBD</Cd>") + 4, tp, 4);
	return d;
}

/* A page is added up alone with its own balances: OPBD to ITBD here; its
 * TxsSummry (NbOfNtries 9) is not checked against one page's entries. */
static void test_statement_camt_page_of_several(void **state)
{
	char d[8192];

	(void)state;
	stmt_run_str(first_page(d, sizeof(d), "1200.00", "ITBD"), &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nnote, 0);
	stmt_run_str(first_page(d, sizeof(d), "1.00", "ITBD"), &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nnote, 1);
	assert_string_equal(run.note[0].code, CL_STMT_BALANCE_BREAK);
	assert_string_equal(run.note[0].message,
			    "balance break of -1199.00 EUR: page 1: closing balance ITBD is 1.00 "
			    "EUR, but the opening balance plus booked credits minus booked debits is "
			    "1200.00 EUR");
	/* no closing balance of the page: nothing to add up */
	stmt_run_str(first_page(d, sizeof(d), "1.00", "XXXX"), &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nnote, 1);
	assert_string_equal(run.note[0].code, "statement_page");
}

/* A balance report (camt.052, MT941's kind): balances and a TxsSummry of
 * entries it does not list.  Valid: nothing to add up. */
static void test_statement_camt_balance_report(void **state)
{
	static const char d[] =
		"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.052.001.08\">"
		"<BkToCstmrAcctRpt><GrpHdr><MsgId>R-2</MsgId><CreDtTm>2026-03-03T06:00:00</CreDtTm></GrpHdr>"
		"<Rpt><Id>RPT-2</Id><Acct><Id><IBAN>GB33BUKB20201555555555</IBAN></Id></Acct>"
		"<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy=\"GBP\">100.00</Amt>"
		"<CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-30</Dt></Dt></Bal>"
		"<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy=\"GBP\">150.00</Amt>"
		"<CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-30</Dt></Dt></Bal>"
		"<TxsSummry><TtlNtries><NbOfNtries>3</NbOfNtries><Sum>70.00</Sum></TtlNtries>"
		"<TtlCdtNtries><NbOfNtries>2</NbOfNtries><Sum>60.00</Sum></TtlCdtNtries>"
		"<TtlDbtNtries><NbOfNtries>1</NbOfNtries><Sum>10.00</Sum></TtlDbtNtries>"
		"</TxsSummry></Rpt></BkToCstmrAcctRpt></Document>";

	(void)state;
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nkind[CL_STMT_STATEMENT], 1);
	assert_int_equal(run.nkind[CL_STMT_ENTRY], 0);
	assert_int_equal(run.nnote, 1);
	assert_string_equal(run.note[0].code, "balance_report");
}

static void test_statement_camt_mixed_currencies(void **state)
{
	char d[8192];

	(void)state;
	snprintf(d, sizeof(d), "%s", good());
	memcpy(strstr(d, "<Amt Ccy=\"EUR\">50.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>"),
	       "<Amt Ccy=\"CHF\">", 15);
	stmt_run_str(d, &run);
	/* the balance cannot be added up: a note, the file valid */
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nnote, 1);
	assert_string_equal(run.note[0].code, "statement_currency");
}

static void test_statement_camt_wrong_report_element(void **state)
{
	(void)state;
	/* a camt.053 has Stmt, not Ntfctn */
	stmt_run_str("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\">\n"
		     "<BkToCstmrStmt><GrpHdr><MsgId>M</MsgId><CreDtTm>2026-03-03T06:00:00</CreDtTm></GrpHdr>\n"
		     "<Ntfctn><Id>N</Id><Acct><Id><IBAN>X</IBAN></Id></Acct>" CLBD "</Ntfctn>\n"
		     "</BkToCstmrStmt></Document>\n",
		     &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "unexpected_element");
	assert_int_equal(run.err[0].line, 3);
	assert_string_equal(run.err[0].message,
			    "element <Ntfctn> in a camt.053.001.08 message: expected <Stmt>");
	assert_int_equal(run.nkind[CL_STMT_STATEMENT], 1);
}

/* camt.05x.001.01 (2006): the root carries its version, pagination is the
 * message's (GrpHdr/MsgPgntn), the account may be PrtryAcct/Id, BBAN or
 * UPIC, the balance type is Tp/Cd, and Btch and TxDtls stand directly
 * under Ntry (no NtryDtls), with the return reason in RtrInf/RtrRsn. */
static void test_statement_camt_v01(void **state)
{
	static const char d[] =
		"<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.01\">\n" /* 1 */
		"<BkToCstmrStmtV01><GrpHdr><MsgId>M01</MsgId><CreDtTm>2007-11-05T18:00:00"
		"</CreDtTm><MsgPgntn><PgNb>2</PgNb><LastPgInd>false</LastPgInd></MsgPgntn>"
		"</GrpHdr>\n"                                                               /* 2 */
		"<Stmt><Id>S01</Id><CreDtTm>2007-11-05T18:00:00</CreDtTm>"
		"<Acct><Id><PrtryAcct><Id>CH2801234000123456789</Id></PrtryAcct></Id>"
		"<Ccy>EUR</Ccy></Acct>\n"                                                   /* 3 */
		"<Bal><Tp><Cd>OPBD</Cd></Tp><Amt Ccy=\"EUR\">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>"
		"<Dt><Dt>2007-11-05</Dt></Dt></Bal>\n"                                      /* 4 */
		"<Bal><Tp><Cd>CLBD</Cd></Tp><Amt Ccy=\"EUR\">7.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>"
		"<Dt><Dt>2007-11-05</Dt></Dt></Bal>\n"                                      /* 5 */
		"<Ntry><Amt Ccy=\"EUR\">3.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>BOOK</Sts>"
		"<BookgDt><Dt>2007-11-05</Dt></BookgDt><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>ICDT"
		"</Cd><SubFmlyCd>RRTN</SubFmlyCd></Fmly></Domn></BkTxCd>\n"                 /* 6 */
		"<Btch><MsgId>B1</MsgId><PmtInfId>P1</PmtInfId><NbOfTxs>2</NbOfTxs></Btch>\n" /* 7 */
		"<TxDtls><Refs><EndToEndId>E1</EndToEndId></Refs><AmtDtls><TxAmt>"
		"<Amt Ccy=\"EUR\">1.00</Amt></TxAmt></AmtDtls></TxDtls>\n"                  /* 8 */
		"<TxDtls><Refs><TxId>T2</TxId></Refs><AmtDtls><TxAmt><Amt Ccy=\"EUR\">2.00</Amt>"
		"</TxAmt></AmtDtls><RtrInf><RtrRsn><Cd>AC04</Cd></RtrRsn></RtrInf></TxDtls>\n" /* 9 */
		"</Ntry></Stmt></BkToCstmrStmtV01></Document>\n";
	const struct cl_stmt_item *st, *e, *t;

	(void)state;
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 0);
	assert_string_equal(run.message_type, "camt.053.001.01");
	st = stmt_nth(&run, CL_STMT_STATEMENT, 0);
	assert_string_equal(st->stmt.id, "S01");
	assert_string_equal(st->stmt.acct_other, "CH2801234000123456789");
	assert_int_equal(st->stmt.page, 2);
	assert_false(st->stmt.last_page);
	assert_true(st->stmt.opening.present);
	assert_string_equal(st->stmt.opening.type, "OPBD");
	assert_int_equal(st->stmt.opening.amount_minor, 1000);
	assert_string_equal(st->stmt.closing.type, "CLBD");
	assert_int_equal(st->stmt.closing.amount_minor, 700);
	e = stmt_nth(&run, CL_STMT_ENTRY, 0);
	assert_int_equal(e->entry.amount_minor, 300);
	assert_int_equal(e->entry.direction, CL_DIR_DEBIT);
	assert_int_equal(e->entry.txs, 2);
	assert_int_equal(e->entry.btch_nb_of_txs, 2);
	assert_string_equal(e->entry.btch_msg_id, "B1");
	assert_string_equal(e->entry.btch_pmt_inf_id, "P1");
	assert_string_equal(e->entry.bank_tx_code, "PMNT/ICDT/RRTN");
	t = stmt_nth(&run, CL_STMT_TX, 0);
	assert_string_equal(t->tx.end_to_end_id, "E1");
	assert_int_equal(t->tx.amount_minor, 100);
	assert_int_equal(t->tx.direction, CL_DIR_DEBIT);
	assert_string_equal(t->entry.bank_tx_code, "PMNT/ICDT/RRTN");
	t = stmt_nth(&run, CL_STMT_TX, 1);
	assert_string_equal(t->tx.tx_id, "T2");
	assert_int_equal(t->tx.line, 9);
	assert_string_equal(t->tx.rtr_reason, "AC04");
	assert_true(stmt_chunk_stable(d));

	/* the .001.02 root under the .001.01 namespace is not the message */
	stmt_run_str("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.052.001.01\">"
		     "<BkToCstmrAcctRpt/></Document>",
		     &run);
	assert_string_equal(run.err[0].code, "unexpected_element");
	assert_string_equal(run.err[0].message, "element <BkToCstmrAcctRpt> under Document: a "
						"camt.052.001.01 message has <BkToCstmrAcctRptV01>");
	/* and the .001.01 paths are no paths of .001.02: its balance type is
	   not read there, so the statement has none */
	stmt_run_str("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\">"
		     "<BkToCstmrStmt><GrpHdr><MsgId>M</MsgId><CreDtTm>2007-11-05T18:00:00</CreDtTm><MsgPgntn><PgNb>2</PgNb>"
		     "<LastPgInd>false</LastPgInd></MsgPgntn></GrpHdr><Stmt><Id>S</Id><Acct><Id>"
		     "<IBAN>X</IBAN></Id></Acct><Bal><Tp><Cd>OPBD</Cd></Tp><Amt Ccy=\"EUR\">1.00"
		     "</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2007-11-05</Dt></Dt></Bal></Stmt>"
		     "</BkToCstmrStmt></Document>",
		     &run);
	assert_int_equal(run.nerr, 0);
	st = stmt_nth(&run, CL_STMT_STATEMENT, 0);
	assert_false(st->stmt.opening.present);
	assert_int_equal(st->stmt.page, 0);
	assert_true(st->stmt.last_page);
}

static void test_statement_camt_unsupported(void **state)
{
	(void)state;
	stmt_run_str("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.001.001.09\">"
		     "<CstmrCdtTrfInitn/></Document>",
		     &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "unsupported_message");
	assert_string_equal(run.err[0].message,
			    "pain.001.001.09 is not a statement, notification or status report: "
			    "expected camt.052, camt.053 or camt.054 (.001.01 to .001.14), "
			    "pacs.002 (.001.02 to .001.16) or pain.002 (.001.02 to .001.15)");
	stmt_run_str("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.15\">"
		     "<BkToCstmrStmt/></Document>",
		     &run);
	assert_string_equal(run.err[0].code, "unsupported_version");
	assert_string_equal(run.err[0].message,
			    "unsupported message version camt.053.001.15: newer than camt.053.001.14, "
			    "the newest this build reads: read it with a newer clearing-load, or ask "
			    "the bank for camt.053.001.14");
	stmt_run_str("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.054.001.00\">"
		     "<BkToCstmrDbtCdtNtfctn/></Document>",
		     &run);
	assert_string_equal(run.err[0].code, "unsupported_version");
	assert_non_null(strstr(run.err[0].message, "no such version was published"));
	stmt_run_str("<Document><BkToCstmrStmt/></Document>", &run);
	assert_string_equal(run.err[0].code, "xml_namespace");
	stmt_run_str("hello", &run);
	assert_string_equal(run.err[0].code, "unknown_format");
	stmt_run_str("", &run);
	assert_string_equal(run.err[0].code, "empty_file");
}

/* ---- hostile input: the guarantees of the clearing parser */

static void test_statement_camt_doctype(void **state)
{
	(void)state;
	stmt_run_str("<?xml version=\"1.0\"?>\n<!DOCTYPE d [<!ENTITY a \"aaaaaaaaaa\">"
		     "<!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]>\n"
		     "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\">"
		     "<BkToCstmrStmt><GrpHdr><MsgId>&b;</MsgId><CreDtTm>2026-03-03T06:00:00</CreDtTm></GrpHdr></BkToCstmrStmt></Document>",
		     &run);
	assert_int_equal(run.nitem, 0);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "xml_doctype");
	assert_int_equal(run.err[0].line, 2);
}

static void test_statement_camt_depth(void **state)
{
	static char d[4096];
	size_t n = 0;

	(void)state;
	n += (size_t)snprintf(d + n, sizeof(d) - n,
			      "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\">"
			      "<BkToCstmrStmt><Stmt>");
	for (int i = 0; i < 80; i++)
		n += (size_t)snprintf(d + n, sizeof(d) - n, "<a>");
	stmt_run_str(d, &run);
	assert_int_equal(stmt_find_error(&run, "xml_depth") >= 0, 1);
}

static void test_statement_camt_long_text(void **state)
{
	size_t big = 256 * 1024 + 100, n; /* over the guard's text limit */
	char *d = malloc(big + 400);
	const char *head = "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.02\">"
			   "<BkToCstmrStmt><GrpHdr><MsgId>";

	(void)state;
	n = strlen(head);
	memcpy(d, head, n);
	memset(d + n, 'x', big);
	strcpy(d + n + big, "</MsgId><CreDtTm>2026-03-03T06:00:00</CreDtTm></GrpHdr></BkToCstmrStmt></Document>");
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "xml_too_long");
	/* a value above the kept length but below the guard's limit */
	memset(d + n, 'x', 3000);
	strcpy(d + n + 3000, "</MsgId><CreDtTm>2026-03-03T06:00:00</CreDtTm></GrpHdr><Stmt><Id>S</Id><Acct><Id><IBAN>X</IBAN></Id>"
			     "</Acct>" CLBD "</Stmt></BkToCstmrStmt></Document>");
	stmt_run_str(d, &run);
	assert_int_equal(run.nerr, 1);
	assert_string_equal(run.err[0].code, "value_too_long");
	free(d);
}

static void test_statement_camt_truncated(void **state)
{
	char d[8192];

	(void)state;
	snprintf(d, sizeof(d), "%s", good());
	d[strlen(d) / 2] = '\0';
	stmt_run_str(d, &run);
	assert_int_equal(stmt_find_error(&run, "xml_truncated") >= 0, 1);
}

/* A statement of a million entries is streamed: the items come one by one
 * and the process does not grow with the file. */
static void test_statement_camt_million_entries(void **state)
{
	char path[] = "/tmp/test_statement_camt_XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	const long n = 1000000;
	struct cl_input *in;
	struct cl_stmt_parser *p;
	const struct cl_stmt_item *it;
	struct cl_error err;
	struct rusage before, after;
	long entries = 0, errors = 0;
	enum cl_status st;

	(void)state;
	assert_non_null(f);
	fprintf(f, "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\">"
		   "<BkToCstmrStmt><GrpHdr><MsgId>BIG</MsgId><CreDtTm>2026-03-03T06:00:00</CreDtTm></GrpHdr><Stmt><Id>S</Id>"
		   "<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>\n"
		   "<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy=\"EUR\">0</Amt>"
		   "<CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-30</Dt></Dt></Bal>\n"
		   "<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy=\"EUR\">%ld.00</Amt>"
		   "<CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-11-30</Dt></Dt></Bal>\n"
		   "<TxsSummry><TtlNtries><NbOfNtries>%ld</NbOfNtries></TtlNtries></TxsSummry>\n",
		n, n);
	for (long i = 0; i < n; i++)
		fprintf(f, "<Ntry><Amt Ccy=\"EUR\">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd>"
			   "<Sts><Cd>BOOK</Cd></Sts><AcctSvcrRef>R%ld</AcctSvcrRef></Ntry>\n",
			i);
	fprintf(f, "</Stmt></BkToCstmrStmt></Document>\n");
	assert_int_equal(fclose(f), 0);
	assert_int_equal(cl_input_open_path(path, &in, &err), CL_OK);
	getrusage(RUSAGE_SELF, &before);
	p = cl_stmt_open(in, 0);
	while ((st = cl_stmt_next(p, &it, &err)) != CL_END) {
		if (st == CL_OK && it->kind == CL_STMT_ENTRY)
			entries++;
		else if (st != CL_OK)
			errors++;
	}
	getrusage(RUSAGE_SELF, &after);
	cl_stmt_free(p);
	cl_input_free(in);
	unlink(path);
	assert_int_equal(entries, n);
	assert_int_equal(errors, 0); /* balance and NbOfNtries add up */
	/* ru_maxrss is in KiB: the reader's handle is a few hundred KiB */
	assert_true(after.ru_maxrss - before.ru_maxrss < 16 * 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_statement_camt_valid_items),
		cmocka_unit_test(test_statement_camt_balance_off_by_one_cent),
		cmocka_unit_test(test_statement_camt_debit_closing_balance),
		cmocka_unit_test(test_statement_camt_prcd_opening),
		cmocka_unit_test(test_statement_camt_account_report),
		cmocka_unit_test(test_statement_camt_wrong_nb_of_ntries),
		cmocka_unit_test(test_statement_camt_wrong_summary_sum),
		cmocka_unit_test(test_statement_camt_batch_count),
		cmocka_unit_test(test_statement_camt_batch_summarised),
		cmocka_unit_test(test_statement_camt_batch_total_and_entry_sum),
		cmocka_unit_test(test_statement_camt_notification_v08),
		cmocka_unit_test(test_statement_camt_entry_errors),
		cmocka_unit_test(test_statement_camt_message_quotes_safely),
		cmocka_unit_test(test_statement_camt_repeated_amount),
		cmocka_unit_test(test_statement_camt_page_of_several),
		cmocka_unit_test(test_statement_camt_balance_report),
		cmocka_unit_test(test_statement_camt_mixed_currencies),
		cmocka_unit_test(test_statement_camt_wrong_report_element),
		cmocka_unit_test(test_statement_camt_unsupported),
		cmocka_unit_test(test_statement_camt_v01),
		cmocka_unit_test(test_statement_camt_doctype),
		cmocka_unit_test(test_statement_camt_depth),
		cmocka_unit_test(test_statement_camt_amount_details_and_charges),
		cmocka_unit_test(test_statement_camt_long_text),
		cmocka_unit_test(test_statement_camt_truncated),
		cmocka_unit_test(test_statement_camt_million_entries),
	};

	return cmocka_run_group_tests_name("statement_camt", tests, NULL, NULL);
}
