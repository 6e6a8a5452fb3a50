/*
 * statement.h - streaming readers of what the bank says about our payments:
 * account statements and notifications (ISO 20022 camt.052, camt.053,
 * camt.054, the CBPR+ usage included), BAI2 balance reporting files, and
 * payment status reports (pacs.002).  They are the other side of
 * reconciliation: nothing here is loaded as a clearing record.
 *
 * Commands read them through parser.h (one detection, one pull API:
 * cl_parser_family, cl_parser_next_item); this header is the model, the
 * names, and the readers' direct entry for their tests:
 *
 *   struct cl_stmt_parser *p = cl_stmt_open(in, 0);
 *   while ((st = cl_stmt_next(p, &item, &err)) != CL_END) {
 *       CL_OK: item is valid until the next call
 *       CL_INVALID: err is a data error (FILE:LINE, element path); keep
 *                   calling to collect more (stops after max_errors)
 *       CL_NOTE: a remark (a check that could not be made), not an error
 *       CL_IO: the input failed; CL_END from now on
 *   }
 *   cl_stmt_free(p);
 *
 * A file is valid when no call returned CL_INVALID or CL_IO.
 *
 * The model.  Items come in document order, each carrying the context it
 * belongs to (as a clearing record carries its group header), so that a
 * consumer never has to hold more than one item:
 *
 *   CL_STMT_STATEMENT  one account's report: a camt Stmt, Ntfctn or Rpt, or
 *                      a BAI2 account (03 record within its 02 group and 01
 *                      file).  Handed out before its first entry, once its
 *                      balances and TxsSummry (which precede the entries in
 *                      every camt version) are read.
 *   CL_STMT_TX         one transaction of an entry (camt NtryDtls/TxDtls):
 *                      its references, amount and return reason, with the
 *                      entry it belongs to as far as it precedes NtryDtls
 *                      (amount, status, dates, references).
 *   CL_STMT_ENTRY      one entry (camt Ntry, BAI2 16 record with its 88
 *                      continuations), after its transactions; `txs` says
 *                      how many there were.  Batch information (Btch) is
 *                      complete here.
 *   CL_STMT_GROUP_STATUS  a pacs.002 OrgnlGrpInfAndSts: the original
 *                      message and its group status.
 *   CL_STMT_TX_STATUS  a pacs.002 TxInfAndSts: the original references of
 *                      one transaction and its status.
 *
 * Identity for idempotent loading: rules/statement_identity.h (a camt
 * statement is its account and ElctrncSeqNb or Stmt/Id, a BAI2 account
 * report its sender, 01 file id, 03 account and 02 as-of date; an entry
 * its place in its statement: references repeat within statements).
 *
 * Amounts are in minor units of their currency (ISO 4217 exponent; BAI2
 * amounts are written without a decimal point in minor units already).
 *
 * Checks, each an invalid file (CL_INVALID) where it fails:
 *  - camt: TxsSummry (TtlNtries NbOfNtries, Sum and net amount,
 *    TtlCdtNtries, TtlDbtNtries) against the entries, when the statement
 *    is not one page of several and lists entries; a batch entry's Btch
 *    NbOfTxs and TtlAmt against its TxDtls, and the entry amount against
 *    the sum of its TxDtls when every one has an amount in the entry's
 *    currency.
 * Balance arithmetic is no check of the file but evidence about the
 * account: opening booked balance (OPBD, else PRCD) plus booked credits
 * minus booked debits against the closing booked balance (CLBD) -- of a
 * page of several, its own opening (else its first ITBD) and closing (else
 * its last ITBD) -- is a note (CL_NOTE, code CL_STMT_BALANCE_BREAK) with the
 * numbers when it does not add up; the file stays valid.  A report that
 * lists no entries while its TxsSummry counts some (a balance report) is
 * not added up at all (note "balance_report"), nor is a statement whose
 * balances or booked entries are in more than one currency (note
 * "statement_currency").
 *  - BAI2: record order; the 49, 98 and 99 trailers' control totals (required:
 *    blank is an error) and
 *    record, account and group counts (statement_bai2.c says how).
 *  - camt: an entry without Amt, CdtDbtInd or Sts, an entry status other
 *    than BOOK, PDNG, INFO and FUTR (Sts/Prtry excepted), an amount with
 *    more decimals than its currency has.
 *  - camt and pacs.002: one message element per Document (a second
 *    BkToCstmrStmt or FIToFIPmtStsRpt is an error); dates that are no
 *    xs:date or xs:dateTime; template placeholders in dates and ids.
 *  - pacs.002: a transaction status with no original reference at all; a
 *    status that is not a code of 1 to 4 letters or digits.
 *
 * Hostile input: the XML formats are read by the one XML engine of the
 * clearing messages (xml_engine.h: byte guard, no DOCTYPE, no entities, no
 * network, bounded depth, text and names); BAI2 lines are bounded.  Memory
 * is constant whatever the number of entries.
 */
#ifndef CL_STATEMENT_H
#define CL_STATEMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/record.h"
#include "base/statement_record.h"
#include "parsers/input.h"


struct cl_stmt_parser;

/* Start reading `in` (not owned); the format is told from the content:
 * "01," starts BAI2, "<" an XML document whose Document namespace names
 * the message.  max_errors 0 = 100.  Never fails: problems come from
 * next() (a file of neither kind is "unknown_format"). */
struct cl_stmt_parser *cl_stmt_open(struct cl_input *in, unsigned max_errors);

enum cl_status cl_stmt_next(struct cl_stmt_parser *p, const struct cl_stmt_item **item,
			    struct cl_error *err) CL_MUST_CHECK;

/* What the file is, once known ("" before the first item). */
enum cl_stmt_source cl_stmt_source(const struct cl_stmt_parser *p);
const char *cl_stmt_message_type(const struct cl_stmt_parser *p);

void cl_stmt_free(struct cl_stmt_parser *p); /* NULL is fine */

/* "camt.053", "bai2", ... */
const char *cl_stmt_source_name(enum cl_stmt_source s);
const char *cl_stmt_kind_name(enum cl_stmt_kind k); /* "statement", "entry", ... */

#endif
