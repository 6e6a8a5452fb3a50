/*
 * statement_identity.h - what makes an item of a bank statement or status
 * report the item it is (statement key rule v1, clearing-load-keys(7)
 * "Statement keys"): the row it is stored as, its natural key and its
 * fingerprint, pure functions of what the statement readers hand out
 * (parsers/statement.h).  The one definition: the loader and the tests call
 * these, nothing else builds a statement key.
 *
 *   statement   camt: KIND|ACCOUNT|CCY|esn:ElctrncSeqNb (else id:Stmt/Id)
 *               [|p:PAGE]; BAI2: bai2|SENDER|FILE-ID|ACCOUNT|CCY|AS-OF-DATE;
 *               pacs.002: pacs.002|MsgId
 *   its header  STATEMENT|stmt
 *   an entry    STATEMENT|#INDEX (its place in the statement: a statement
 *               is one document of the bank's, fixed once sent; NtryRef and
 *               AcctSvcrRef repeat within real statements, so they are in
 *               the fingerprint, not the key)
 *   a status    STATEMENT|#INDEX
 *   a transaction  STATEMENT|#INDEX|tx#N (the Nth TxDtls of an entry of
 *               several: batch-booked with its details; key rule s1's rows
 *               unchanged, these rows new in 028)
 *
 * The fingerprint hashes the economic content (amounts, currency,
 * direction, dates, status, references; for a header its balances and
 * period), so a re-delivered statement is a duplicate and a changed one a
 * conflict (an entry inserted or removed shifts those after it: they all
 * conflict, and the file is held).  Names and free text never enter it.
 */
#ifndef CL_STATEMENT_IDENTITY_H
#define CL_STATEMENT_IDENTITY_H

#include <stdbool.h>
#include <stdint.h>

#include "base/record.h"
#include "base/statement_record.h"
#include "rules/fingerprint.h"

#define CL_STMT_KEY_RULE_V1 "s1"

enum cl_stmt_row_item {
	CL_STMT_ROW_STATEMENT, CL_STMT_ROW_ENTRY, CL_STMT_ROW_STATUS, CL_STMT_ROW_TX
};

/* One row of clearing_statement_item (017_statements.sql).  Dates are
 * "YYYY-MM-DD" or "" (a dateTime keeps its date). */
struct cl_stmt_row {
	enum cl_stmt_row_item item;
	const char *kind; /* "camt.053", "bai2", "pacs.002", ... */
	char natural_key[CL_KEY_MAX];
	char statement_key[CL_KEY_MAX];
	unsigned char fingerprint[32];
	char message_type[32];
	char account[CL_ACCOUNT_MAX];
	char account_ccy[4];
	char statement_id[CL_ID_MAX];
	char seq_nb[24];
	char period_from[11], period_to[11];
	bool has_opening, has_closing;
	int64_t opening_minor, closing_minor;
	/* statement rows (not fingerprinted: sql/026_statement_balance.sql) */
	unsigned page;          /* StmtPgntn/PgNb, 0 when absent */
	bool last_page;         /* StmtPgntn/LastPgInd (true when absent) */
	long summary_entries;   /* TxsSummry entries counted, -1 when not given */
	unsigned long entry_index;
	char entry_ref[CL_ID_MAX];
	char acct_svcr_ref[CL_ID_MAX];
	bool has_amount;
	int64_t amount_minor;
	char currency[4];
	enum cl_direction direction;
	bool reversal;
	char status[CL_STMT_CODE_MAX];
	char status_reason[CL_STMT_CODE_MAX];
	char booking_date[11], value_date[11];
	char bank_tx_code[CL_STMT_CODE_MAX];
	unsigned long txs;
	long batch_count; /* -1: not a batch entry */
	char batch_msg_id[CL_ID_MAX], batch_pmt_inf_id[CL_ID_MAX];
	char msg_id[CL_ID_MAX], pmt_inf_id[CL_ID_MAX], instr_id[CL_ID_MAX];
	char end_to_end_id[CL_ID_MAX], tx_id[CL_ID_MAX], uetr[37], ach_trace[CL_ID_MAX];
	char return_reason[CL_STMT_CODE_MAX];
	unsigned long position; /* line */
	/* 028: a transaction's place in its entry; the amount instructed and
	   the charges (an entry's: of its only TxDtls, else its own) */
	unsigned long tx_index;
	bool has_instructed, has_charges;
	int64_t instructed_minor, charges_minor;
	char instructed_ccy[4];
};

/* The name of a row's item, as column item stores it: "statement",
 * "entry", "status". */
const char *cl_stmt_item_name(enum cl_stmt_row_item item);

/* The kind of a statement source ("camt.053", ...; NULL for unknown). */
const char *cl_stmt_kind_of(enum cl_stmt_source s);

/* The row of a statement's header (from any item of it). */
bool cl_stmt_row_statement(const struct cl_stmt_statement *st, struct cl_fp *fp,
			   struct cl_stmt_row *row);

/* The row of an entry; `tx` is its only or first transaction (NULL when it
 * had none).  A reference "NOTPROVIDED" is no reference. */
bool cl_stmt_row_entry(const struct cl_stmt_statement *st, const struct cl_stmt_entry *e,
		       const struct cl_stmt_tx *tx, struct cl_fp *fp, struct cl_stmt_row *row);

/* The row of transaction `tx` of entry `e` (as far as the entry precedes
 * its NtryDtls): of an entry with more than one TxDtls, each matched on its
 * own (docs/design/0034-matching-beyond-one-reference.md). */
bool cl_stmt_row_tx(const struct cl_stmt_statement *st, const struct cl_stmt_entry *e,
		    const struct cl_stmt_tx *tx, struct cl_fp *fp, struct cl_stmt_row *row);

/* The row of a pacs.002 transaction status. */
bool cl_stmt_row_status(const struct cl_stmt_statement *st, const struct cl_stmt_status *s,
			struct cl_fp *fp, struct cl_stmt_row *row);

/* The row of a pacs.002 group status (GrpSts): a status of every
 * transaction of the original message OrgnlMsgId; a row without any
 * transaction reference, keyed STATEMENT|grp#N (N its OrgnlGrpInfAndSts
 * among the report's). */
bool cl_stmt_row_group_status(const struct cl_stmt_statement *st, const struct cl_stmt_status *s,
			      struct cl_fp *fp, struct cl_stmt_row *row);

/* Each returns false when the key does not fit CL_KEY_MAX (a data error).
 * fp NULL: the row's keys and fields without its fingerprint (validate
 * checks keys only; the SHA-256 of every row was most of its time). */

/* The rows of a file's items, as load stores them and validate checks
 * them: one definition of which item gives which row.  Zero it before the
 * first item. */
struct cl_stmt_rows {
	unsigned long stmt_line;   /* the statement whose header row was given */
	bool have_tx;              /* first_tx holds the entry's first TxDtls */
	struct cl_stmt_tx first_tx;
	struct cl_stmt_entry first_tx_entry; /* its entry as far as read */
};

/* The rows of `item` into rows[0..CL_STMT_ROWS_MAX-1], in order (a
 * statement's header row before the first item of the statement, then the
 * item's own: an entry, a status; a GROUP_STATUS without GrpSts and
 * OrgnlMsgId gives none; a TX none while it is its entry's first, the
 * first and itself when it is the second, itself after that: an entry of
 * one transaction has no transaction row); returns how many.  -1 when a key does not fit CL_KEY_MAX (the
 * rows before it are in rows[]; *bad_line says where). */
#define CL_STMT_ROWS_MAX 3
int cl_stmt_rows_of(struct cl_stmt_rows *s, const struct cl_stmt_item *item, struct cl_fp *fp,
		    struct cl_stmt_row rows[CL_STMT_ROWS_MAX], unsigned long *bad_line);

/* The key of a row as the journal keeps it and messages show it (its
 * account masked). */
void cl_stmt_row_journal_key(const struct cl_stmt_row *row, char *out, size_t cap);

/* A statement key `count` times in one file (first and last line): the
 * file is invalid for every command (the one message of validate and
 * load). */
void cl_stmt_duplicate_error(struct cl_error *e, const char *file, unsigned long first,
			     unsigned long last, unsigned long count, const char *journal_key);

#endif
