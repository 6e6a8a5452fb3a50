/*
 * statement_record.h - the item model of the bank's answers: what every
 * statement and status report reader (parsers/statement.h) hands out and
 * what the statement identities (rules/statement_identity.h) key, as
 * record.h is for clearing records.  Fixed-capacity fields, no
 * allocation per item.
 */
#ifndef CL_STATEMENT_RECORD_H
#define CL_STATEMENT_RECORD_H

#include <stdbool.h>
#include <stdint.h>

#include "base/record.h"
#include "base/xsd_date.h"

enum cl_stmt_source {
	CL_STMT_SRC_UNKNOWN = 0,
	CL_STMT_SRC_CAMT052,  /* account report (intraday) */
	CL_STMT_SRC_CAMT053,  /* statement */
	CL_STMT_SRC_CAMT054,  /* debit/credit notification */
	CL_STMT_SRC_PACS002,  /* payment status report */
	CL_STMT_SRC_BAI2,
	CL_STMT_SRC_MT940,    /* SWIFT MT940 customer statement */
	CL_STMT_SRC_MT942,    /* SWIFT MT942 interim transaction report */
	CL_STMT_SRC_CSV,      /* a bank's CSV export read by its column map */
	CL_STMT_SRC_PAIN002,  /* customer payment status report (to the initiator) */
};

enum cl_stmt_kind {
	CL_STMT_STATEMENT = 1,
	CL_STMT_ENTRY,
	CL_STMT_TX,
	CL_STMT_GROUP_STATUS,
	CL_STMT_TX_STATUS,
};

#define CL_STMT_DATE_MAX CL_XSD_DATE_MAX  /* xs:date or xs:dateTime with zone */
#define CL_STMT_CODE_MAX 36  /* a code (BOOK, PMNT/RCDT/ESCT, AC04) */

/* The code of the note of a balance break (parsers/statement.h, Checks):
 * shown by every command, -v or not. */
#define CL_STMT_BALANCE_BREAK "statement_balance"

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
	/* the entry's own AmtDtls/InstdAmt and Chrgs (before NtryDtls) */
	bool has_instd;
	int64_t instd_minor;           /* AmtDtls/InstdAmt/Amt: what was instructed */
	char instd_ccy[4];
	bool has_chrgs;
	int64_t chrgs_minor;           /* Chrgs/TtlChrgsAndTaxAmt, else the first Rcrd/Amt */
	char chrgs_ccy[4];
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
	bool has_instd;
	int64_t instd_minor;           /* AmtDtls/InstdAmt/Amt (the payer's amount, in
	                                  its currency: another than the entry's for FX) */
	char instd_ccy[4];
	bool has_chrgs;
	int64_t chrgs_minor;           /* Chrgs/TtlChrgsAndTaxAmt, else the first Rcrd/Amt */
	char chrgs_ccy[4];
};

/* pacs.002 and pain.002: a status of an original message, payment
 * information block (pain.002 OrgnlPmtInfAndSts) or transaction. */
struct cl_stmt_status {
	unsigned long index;           /* 1-based among its kind */
	unsigned long line;
	char orgnl_msg_id[CL_ID_MAX];  /* OrgnlGrpInf(AndSts)/OrgnlMsgId */
	char orgnl_msg_nm_id[CL_ID_MAX]; /* OrgnlMsgNmId: "pacs.008.001.08" */
	char orgnl_pmt_inf_id[CL_ID_MAX]; /* pain.002: OrgnlPmtInfId (of the block, or
	                                  of the transaction in .001.02) */
	bool pmt_inf;                  /* a GROUP_STATUS of one OrgnlPmtInfAndSts
	                                  (PmtInfSts), not of the whole message */
	char orgnl_instr_id[CL_ID_MAX];
	char orgnl_end_to_end_id[CL_ID_MAX];
	char orgnl_tx_id[CL_ID_MAX];
	char orgnl_uetr[37];         
	char sts_id[CL_ID_MAX];        /* StsId */
	char status[CL_STMT_CODE_MAX]; /* GrpSts, PmtInfSts or TxSts: ACSC, RJCT, ... */
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
	struct cl_stmt_status status;  /* GROUP_STATUS and TX_STATUS (pacs.002, pain.002) */
};

#endif
