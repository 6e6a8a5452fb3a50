/*
 * statement.h - streaming readers of what the bank says about our payments:
 * account statements and notifications (ISO 20022 camt.052, camt.053,
 * camt.054, the CBPR+ usage included), BAI2 balance reporting files, and
 * payment status reports (pacs.002).  They are the other side of
 * reconciliation: nothing here is loaded as a clearing record.
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
 *  - camt: opening booked balance (OPBD, else PRCD) plus booked credits
 *    minus booked debits equals the closing booked balance (CLBD), when the
 *    statement has both and is not one page of several; TxsSummry
 *    (TtlNtries NbOfNtries, Sum and net amount, TtlCdtNtries, TtlDbtNtries)
 *    against the entries; a batch entry's Btch NbOfTxs and TtlAmt against
 *    its TxDtls, and the entry amount against the sum of its TxDtls when
 *    every one has an amount in the entry's currency.
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
 * Hostile input: the XML formats go through the same byte guard and
 * libxml2 settings as the clearing messages (no DOCTYPE, no entities, no
 * network, bounded depth, text and names); BAI2 lines are bounded.  Memory
 * is constant whatever the number of entries.
 */
#ifndef CL_STATEMENT_H
#define CL_STATEMENT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/record.h"
#include "parsers/input.h"

enum cl_stmt_source {
	CL_STMT_SRC_UNKNOWN = 0,
	CL_STMT_SRC_CAMT052,  /* account report (intraday) */
	CL_STMT_SRC_CAMT053,  /* statement */
	CL_STMT_SRC_CAMT054,  /* debit/credit notification */
	CL_STMT_SRC_PACS002,  /* payment status report */
	CL_STMT_SRC_BAI2,
};

enum cl_stmt_kind {
	CL_STMT_STATEMENT = 1,
	CL_STMT_ENTRY,
	CL_STMT_TX,
	CL_STMT_GROUP_STATUS,
	CL_STMT_TX_STATUS,
};

#define CL_STMT_DATE_MAX 36  /* xs:date or xs:dateTime with zone */
#define CL_STMT_CODE_MAX 36  /* a code (BOOK, PMNT/RCDT/ESCT, AC04) */

/* A balance (camt Bal, BAI2 03 status code 010/015). */
struct cl_stmt_balance {
	bool present;
	char type[CL_STMT_CODE_MAX]; /* OPBD, PRCD, CLBD; BAI2 "010", "015" */
	int64_t amount_minor;        /* signed: DBIT negative */
	char ccy[4];
	char date[CL_STMT_DATE_MAX];
	unsigned long line;
};

/* The file and the account report an item belongs to. */
struct cl_stmt_statement {
	enum cl_stmt_source source;
	char message_type[32];         /* "camt.053.001.08", "pacs.002.001.10", "bai2" */
	char msg_id[CL_ID_MAX];        /* GrpHdr/MsgId; BAI2: 01 file identification number */
	char created[CL_STMT_DATE_MAX]; /* GrpHdr/CreDtTm; BAI2: 01 date and time */
	char sender[CL_ID_MAX];        /* BAI2: 01 sender id (camt: "") */
	char receiver[CL_ID_MAX];      /* BAI2: 01 receiver id */
	unsigned long index;           /* 1-based among the file's statements */
	unsigned long line;            /* where it starts */
	char id[CL_ID_MAX];            /* Stmt/Id (Ntfctn/Id, Rpt/Id); BAI2: "" */
	char elctrnc_seq_nb[24];       /* ElctrncSeqNb (Number, 18 digits) */
	char lgl_seq_nb[24];           /* LglSeqNb */
	char stmt_created[CL_STMT_DATE_MAX]; /* Stmt/CreDtTm */
	char from[CL_STMT_DATE_MAX];   /* FrToDt/FrDtTm; BAI2: 02 as-of date */
	char to[CL_STMT_DATE_MAX];     /* FrToDt/ToDtTm; BAI2: 02 as-of date */
	unsigned page;                 /* StmtPgntn/PgNb, 0 when absent */
	bool last_page;                /* StmtPgntn/LastPgInd (true when absent) */
	char acct_iban[CL_ACCOUNT_MAX]; /* Acct/Id/IBAN */
	char acct_other[CL_ACCOUNT_MAX]; /* Acct/Id/Othr/Id; BAI2: 03 account number */
	char acct_ccy[4];              /* Acct/Ccy; BAI2: 03 currency, else 02's, else USD */
	struct cl_stmt_balance opening; /* OPBD (else PRCD); BAI2 010 opening ledger */
	struct cl_stmt_balance closing; /* CLBD; BAI2 015 closing ledger */
	/* TxsSummry, each -1 / absent when not given */
	long sum_nb_of_ntries;         /* TtlNtries/NbOfNtries */
	char sum_sum[40];              /* TtlNtries/Sum as written */
	long sum_cdt_nb, sum_dbt_nb;   /* TtlCdtNtries/NbOfNtries, TtlDbtNtries/NbOfNtries */
	char sum_cdt_sum[40], sum_dbt_sum[40];
	/* BAI2 group (02) */
	char bai2_originator[CL_ID_MAX];  /* 02 originator identification */
	char bai2_group_status[4];        /* 1 update, 2 deletion, 3 correction, 4 test */
	char bai2_as_of_modifier[4];      /* 1/2 interim/final previous-day, 3/4 same-day */
};

/* One entry (camt Ntry; BAI2 16 record). */
struct cl_stmt_entry {
	unsigned long index;           /* 1-based within its statement */
	unsigned long line;
	char ntry_ref[CL_ID_MAX];      /* NtryRef */
	char acct_svcr_ref[CL_ID_MAX]; /* AcctSvcrRef; BAI2: bank reference number */
	char cust_ref[CL_ID_MAX];      /* BAI2: customer reference number */
	int64_t amount_minor;          /* unsigned, direction says which way */
	char ccy[4];
	enum cl_direction direction;   /* CdtDbtInd; BAI2: by type code */
	bool reversal;                 /* RvslInd */
	char status[CL_STMT_CODE_MAX]; /* BOOK, PDNG, INFO, FUTR (Sts, Sts/Cd, or
	                                  Sts/Prtry as written); BAI2 "" */
	char booking_date[CL_STMT_DATE_MAX]; /* BookgDt/Dt or DtTm */
	char value_date[CL_STMT_DATE_MAX];   /* ValDt/Dt or DtTm; BAI2: V funds date */
	char bank_tx_code[CL_STMT_CODE_MAX]; /* Domn "PMNT/RCDT/ESCT", else Prtry/Cd; BAI2 type code */
	char funds_type[2];            /* BAI2 funds type: 0 1 2 S V D Z */
	/* batch (NtryDtls/Btch); nb -1 and has_ttl false when absent */
	char btch_msg_id[CL_ID_MAX];
	char btch_pmt_inf_id[CL_ID_MAX];
	long btch_nb_of_txs;
	bool btch_has_ttl;
	int64_t btch_ttl_amt_minor;
	enum cl_direction btch_direction;
	unsigned long txs;             /* TxDtls read (complete in the ENTRY item) */
	char text[CL_NAME_MAX];        /* AddtlNtryInf; BAI2: text of 16 and its 88s */
};

/* One transaction of an entry (camt TxDtls). */
struct cl_stmt_tx {
	unsigned long index;           /* 1-based within its entry */
	unsigned long line;
	char msg_id[CL_ID_MAX];        /* Refs/MsgId */
	char acct_svcr_ref[CL_ID_MAX]; /* Refs/AcctSvcrRef */
	char pmt_inf_id[CL_ID_MAX];    /* Refs/PmtInfId */
	char instr_id[CL_ID_MAX];      /* Refs/InstrId */
	char end_to_end_id[CL_ID_MAX]; /* Refs/EndToEndId */
	char uetr[37];                 /* Refs/UETR (36 characters) */
	char tx_id[CL_ID_MAX];         /* Refs/TxId */
	char clr_sys_ref[CL_ID_MAX];   /* Refs/ClrSysRef (where US banks often put the
	                                  ACH trace number) */
	char ach_trace[CL_ID_MAX];     /* Refs/Prtry/Ref whose Tp names an ACH trace */
	bool has_amount;
	int64_t amount_minor;          /* Amt (v04+), else AmtDtls/TxAmt/Amt */
	char ccy[4];
	enum cl_direction direction;   /* CdtDbtInd, else the entry's */
	char rtr_reason[CL_STMT_CODE_MAX]; /* RtrInf/Rsn/Cd or Prtry */
};

/* pacs.002: a status of an original message or transaction. */
struct cl_stmt_status {
	unsigned long index;           /* 1-based among its kind */
	unsigned long line;
	char orgnl_msg_id[CL_ID_MAX];  /* OrgnlGrpInf(AndSts)/OrgnlMsgId */
	char orgnl_msg_nm_id[CL_ID_MAX]; /* OrgnlMsgNmId: "pacs.008.001.08" */
	char orgnl_instr_id[CL_ID_MAX];
	char orgnl_end_to_end_id[CL_ID_MAX];
	char orgnl_tx_id[CL_ID_MAX];
	char orgnl_uetr[37];         
	char sts_id[CL_ID_MAX];        /* StsId */
	char status[CL_STMT_CODE_MAX]; /* GrpSts or TxSts: ACSC, RJCT, ... */
	char reason[CL_STMT_CODE_MAX]; /* first StsRsnInf/Rsn/Cd or Prtry */
	char accptnc_dt_tm[CL_STMT_DATE_MAX]; /* AccptncDtTm */
	bool has_amount;               /* OrgnlTxRef/IntrBkSttlmAmt, else Amt/InstdAmt */
	int64_t amount_minor;
	char ccy[4];
};

struct cl_stmt_item {
	enum cl_stmt_kind kind;
	struct cl_stmt_statement stmt; /* every item: its file and statement
	                                  (pacs.002: the report's GrpHdr) */
	struct cl_stmt_entry entry;    /* ENTRY and TX */
	struct cl_stmt_tx tx;          /* TX */
	struct cl_stmt_status status;  /* GROUP_STATUS and TX_STATUS */
};

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

/* Is rewindable `in` a statement or status report?  Reads up to its first
 * item and rewinds it (load, ingest and validate ask before choosing a
 * reader); CL_STMT_SRC_UNKNOWN when it is not, or cannot be rewound. */
enum cl_stmt_source cl_stmt_detect(struct cl_input *in);

/* The calendar date of an xs:date or xs:dateTime, in every lexical form
 * (white space around it; a date with or without a time zone, Z or +hh:mm
 * or -hh:mm; a date-time with or without fractional seconds and time zone;
 * 24:00:00), as written: "YYYY-MM-DD" into out[11], the date of a
 * date-time with an offset being its local date (the one written, never
 * moved to UTC).  Years 0001 to 9999 only.  false (out "") when text is
 * neither, or names no day of the calendar. */
bool cl_stmt_date(const char *text, char out[11]);

/* "camt.053", "bai2", ... */
const char *cl_stmt_source_name(enum cl_stmt_source s);
const char *cl_stmt_kind_name(enum cl_stmt_kind k); /* "statement", "entry", ... */

#endif
