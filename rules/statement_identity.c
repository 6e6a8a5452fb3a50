/* statement_identity.c - statement key rule v1 and fingerprints of
 * statement items (statement_identity.h). */
#include "rules/statement_identity.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/mask.h"
#include "base/xsd_date.h"
#include "rules/iso_identity.h"
#include "rules/statement_fields.h"

const char *cl_stmt_item_name(enum cl_stmt_row_item item)
{
	static const char *const names[] = { "statement", "entry", "status", "tx" };

	return names[item];
}

const char *cl_stmt_kind_of(enum cl_stmt_source s)
{
	switch (s) {
	case CL_STMT_SRC_CAMT052: return "camt.052";
	case CL_STMT_SRC_CAMT053: return "camt.053";
	case CL_STMT_SRC_CAMT054: return "camt.054";
	case CL_STMT_SRC_PACS002: return "pacs.002";
	case CL_STMT_SRC_BAI2: return "bai2";
	case CL_STMT_SRC_MT940: return "mt940";
	case CL_STMT_SRC_MT942: return "mt942";
	case CL_STMT_SRC_CSV: return "csv";
	case CL_STMT_SRC_PAIN002: return "pain.002";
	case CL_STMT_SRC_UNKNOWN: break;
	}
	return NULL;
}

/* The date of an xs:date or xs:dateTime ("" when it is neither). */
static void date_of(char out[11], const char *s)
{
	(void)cl_xsd_date(s, out);
}

/* A reference as stored: "" for none and for NOTPROVIDED. */
static void ref(char *dst, size_t cap, const char *src)
{
	if (cl_iso_id_unusable(src) || strlen(src) >= cap)
		dst[0] = '\0';
	else
		memcpy(dst, src, strlen(src) + 1);
}

/* src into dst[cap], cut to fit as snprintf's "%s" cuts it (the rows'
 * fields; a copy per field, no format to interpret). */
static void put(char *dst, size_t cap, const char *src)
{
	size_t n = strnlen(src, cap - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* A key: the NULL-terminated list of pieces after cap, joined into
 * dst[cap] (cut to fit, as snprintf cuts).  True when the whole key fit
 * and is not empty. */
static bool key(char *dst, size_t cap, ...) __attribute__((sentinel));
static bool key(char *dst, size_t cap, ...)
{
	va_list ap;
	const char *piece;
	size_t n = 0; /* the whole key's length */

	va_start(ap, cap);
	while ((piece = va_arg(ap, const char *)) != NULL) {
		size_t len = strlen(piece);

		if (n < cap - 1)
			memcpy(dst + n, piece, len < cap - 1 - n ? len : cap - 1 - n);
		n += len;
	}
	va_end(ap);
	dst[n < cap - 1 ? n : cap - 1] = '\0';
	return n > 0 && n < cap;
}

/* v in decimal into buf (for a key's index). */
static const char *decimal(unsigned long v, char buf[24])
{
	char *p = buf + 23;

	*p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	return p;
}

static bool statement_key(const struct cl_stmt_statement *st, struct cl_stmt_row *row)
{
	const char *acct = st->acct_iban[0] ? st->acct_iban : st->acct_other;
	char page[16] = "";

	row->kind = cl_stmt_kind_of(st->source);
	if (!row->kind)
		return false;
	put(row->message_type, sizeof(row->message_type), st->message_type);
	put(row->account, sizeof(row->account), acct);
	put(row->account_ccy, sizeof(row->account_ccy), st->acct_ccy);
	put(row->seq_nb, sizeof(row->seq_nb), st->elctrnc_seq_nb);
	date_of(row->period_from, st->from);
	date_of(row->period_to, st->to);
	if (st->source == CL_STMT_SRC_PACS002 || st->source == CL_STMT_SRC_PAIN002) {
		/* a status report is its GrpHdr/MsgId (pain.002 as pacs.002) */
		put(row->statement_id, sizeof(row->statement_id), st->msg_id);
		return key(row->statement_key, sizeof(row->statement_key), row->kind, "|",
			   st->msg_id, NULL);
	}
	if (st->source == CL_STMT_SRC_BAI2) {
		put(row->statement_id, sizeof(row->statement_id), st->msg_id);
		return key(row->statement_key, sizeof(row->statement_key), "bai2|", st->sender, "|",
			   st->msg_id, "|", acct, "|", st->acct_ccy, "|", row->period_from, NULL);
	}
	if (st->source == CL_STMT_SRC_MT940 || st->source == CL_STMT_SRC_MT942) {
		/* the account, its currency, the :28C: statement number and the
		   date that says which day's statement it is: an MT940's closing
		   balance date (:62F:/:62M:, the same on every page of one
		   statement, where a page's opening date is the page before's),
		   an MT942's :13D: date and time; the page.  Not :20: (a
		   reference of the message: each page has its own, and a
		   statement sent again may get a new one) */
		put(row->statement_id, sizeof(row->statement_id), st->id);
		if (st->source == CL_STMT_SRC_MT942)
			return key(row->statement_key, sizeof(row->statement_key), "mt942|", acct,
				   "|", st->acct_ccy, "|n:", st->elctrnc_seq_nb, "|t:",
				   st->stmt_created, NULL);
		if (st->page)
			snprintf(page, sizeof(page), "|p:%u", st->page);
		return key(row->statement_key, sizeof(row->statement_key), "mt940|", acct, "|",
			   st->acct_ccy, "|n:", st->lgl_seq_nb, "|d:", row->period_to, page, NULL);
	}
	if (st->source == CL_STMT_SRC_CSV)
		/* a CSV export has no statement number: the account, its
		   currency and the period its rows cover (first and last booking
		   date).  The same period exported again is the same statement
		   (a duplicate, or a conflict held when a row changed); not a
		   hash of the rows, which would make a changed export a second
		   statement and its bookings count twice
		   (docs/design/0041-bank-csv-statements.md) */
		return key(row->statement_key, sizeof(row->statement_key), "csv|", acct, "|",
			   st->acct_ccy, "|f:", row->period_from, "|t:", row->period_to, NULL);
	put(row->statement_id, sizeof(row->statement_id), st->id);
	if (st->page)
		snprintf(page, sizeof(page), "|p:%u", st->page);
	if (st->elctrnc_seq_nb[0])
		return key(row->statement_key, sizeof(row->statement_key), row->kind, "|", acct,
			   "|", st->acct_ccy, "|esn:", st->elctrnc_seq_nb, page, NULL);
	return key(row->statement_key, sizeof(row->statement_key), row->kind, "|", acct, "|",
		   st->acct_ccy, "|id:", st->id, page, NULL);
}

static void fp_dir(struct cl_fp *fp, const char *name, enum cl_direction d)
{
	const char *s = cl_direction_name(d);

	cl_fp_str(fp, name, s ? s : "");
}

/* The references of the payment an entry or status is about, in the
 * fingerprint's order (key rule s1). */
static void fp_payment_refs(struct cl_fp *fp, const struct cl_stmt_row *row)
{
	cl_fp_str(fp, CL_FIELD_NAME(instr_id), row->instr_id);
	cl_fp_str(fp, CL_FIELD_NAME(end_to_end_id), row->end_to_end_id);
	cl_fp_str(fp, CL_FIELD_NAME(tx_id), row->tx_id);
	cl_fp_str(fp, CL_FIELD_NAME(uetr), row->uetr);
}

bool cl_stmt_row_statement(const struct cl_stmt_statement *st, struct cl_fp *fp,
			   struct cl_stmt_row *row)
{
	memset(row, 0, sizeof(*row));
	row->item = CL_STMT_ROW_STATEMENT;
	row->batch_count = -1;
	row->position = st->line;
	if (!statement_key(st, row) ||
	    !key(row->natural_key, sizeof(row->natural_key), row->statement_key, "|stmt", NULL))
		return false;
	row->has_opening = st->opening.present;
	row->opening_minor = st->opening.amount_minor;
	row->has_closing = st->closing.present;
	row->closing_minor = st->closing.amount_minor;
	row->page = st->page;
	row->last_page = st->last_page;
	row->summary_entries = st->sum_nb_of_ntries;
	if (row->summary_entries < 0 && (st->sum_cdt_nb >= 0 || st->sum_dbt_nb >= 0))
		row->summary_entries = (st->sum_cdt_nb > 0 ? st->sum_cdt_nb : 0) +
				       (st->sum_dbt_nb > 0 ? st->sum_dbt_nb : 0);
	if (fp) { /* NULL: the keys alone (validate) */
		cl_fp_begin(fp);
		cl_fp_str(fp, "item", cl_stmt_item_name(CL_STMT_ROW_STATEMENT));
		cl_fp_str(fp, CL_STMT_COLUMN(account), row->account);
		cl_fp_str(fp, "ccy", row->account_ccy);
		cl_fp_str(fp, "from", st->from);
		cl_fp_str(fp, "to", st->to);
		cl_fp_str(fp, "opening", st->opening.present ? "y" : "n");
		cl_fp_int(fp, "opening_minor", st->opening.amount_minor);
		cl_fp_str(fp, "closing", st->closing.present ? "y" : "n");
		cl_fp_int(fp, "closing_minor", st->closing.amount_minor);
		cl_fp_int(fp, "entries", st->sum_nb_of_ntries);
		cl_fp_str(fp, "sum", st->sum_sum);
		cl_fp_end(fp, row->fingerprint);
	}
	return true;
}

/* A transaction's references and return reason into its row (of the
 * entry, or its own); an ACH trace in Refs/Prtry, else a ClrSysRef of 15
 * digits. */
static void tx_refs(struct cl_stmt_row *row, const struct cl_stmt_tx *tx)
{
	ref(row->msg_id, sizeof(row->msg_id), tx->msg_id);
	ref(row->pmt_inf_id, sizeof(row->pmt_inf_id), tx->pmt_inf_id);
	ref(row->instr_id, sizeof(row->instr_id), tx->instr_id);
	ref(row->end_to_end_id, sizeof(row->end_to_end_id), tx->end_to_end_id);
	ref(row->tx_id, sizeof(row->tx_id), tx->tx_id);
	ref(row->uetr, sizeof(row->uetr), tx->uetr);
	for (char *p = row->uetr; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	ref(row->ach_trace, sizeof(row->ach_trace), tx->ach_trace);
	if (!row->ach_trace[0] && strlen(tx->clr_sys_ref) == 15 &&
	    strspn(tx->clr_sys_ref, "0123456789") == 15)
		ref(row->ach_trace, sizeof(row->ach_trace), tx->clr_sys_ref);
	put(row->return_reason, sizeof(row->return_reason), tx->rtr_reason);
}

/* The amount instructed and the charges of an entry or transaction row
 * (charges only in the currency of the row's amount). */
static void amount_details(struct cl_stmt_row *row, bool has_instd, int64_t instd,
			   const char *instd_ccy, bool has_chrgs, int64_t chrgs,
			   const char *chrgs_ccy)
{
	row->has_instructed = has_instd;
	row->instructed_minor = has_instd ? instd : 0;
	put(row->instructed_ccy, sizeof(row->instructed_ccy), has_instd ? instd_ccy : "");
	row->has_charges = has_chrgs && strcmp(chrgs_ccy, row->currency) == 0;
	row->charges_minor = row->has_charges ? chrgs : 0;
}

bool cl_stmt_row_entry(const struct cl_stmt_statement *st, const struct cl_stmt_entry *e,
		       const struct cl_stmt_tx *tx, struct cl_fp *fp, struct cl_stmt_row *row)
{
	char num[24];
	bool ok;

	memset(row, 0, sizeof(*row));
	row->item = CL_STMT_ROW_ENTRY;
	row->position = e->line;
	if (!statement_key(st, row))
		return false;
	row->entry_index = e->index;
	put(row->entry_ref, sizeof(row->entry_ref),
	    st->source == CL_STMT_SRC_BAI2 ? e->cust_ref : e->ntry_ref);
	put(row->acct_svcr_ref, sizeof(row->acct_svcr_ref), e->acct_svcr_ref);
	row->has_amount = true;
	row->amount_minor = e->amount_minor;
	put(row->currency, sizeof(row->currency), e->ccy);
	row->direction = e->direction;
	row->reversal = e->reversal;
	put(row->status, sizeof(row->status), e->status);
	date_of(row->booking_date, e->booking_date);
	date_of(row->value_date, e->value_date);
	put(row->bank_tx_code, sizeof(row->bank_tx_code), e->bank_tx_code);
	row->txs = e->txs;
	row->batch_count = e->btch_nb_of_txs > 1 ? e->btch_nb_of_txs
			   : e->txs > 1          ? (long)e->txs
						 : -1;
	ref(row->batch_msg_id, sizeof(row->batch_msg_id), e->btch_msg_id);
	ref(row->batch_pmt_inf_id, sizeof(row->batch_pmt_inf_id), e->btch_pmt_inf_id);
	if (tx) {
		tx_refs(row, tx);
		if (!row->acct_svcr_ref[0])
			ref(row->acct_svcr_ref, sizeof(row->acct_svcr_ref), tx->acct_svcr_ref);
	}
	/* (after the fingerprint's fields: none of these enters it, key rule
	   s1's entries are what they were) */
	if (e->txs <= 1)
		amount_details(row, tx && tx->has_instd ? tx->has_instd : e->has_instd,
			       tx && tx->has_instd ? tx->instd_minor : e->instd_minor,
			       tx && tx->has_instd ? tx->instd_ccy : e->instd_ccy,
			       tx && tx->has_chrgs ? tx->has_chrgs : e->has_chrgs,
			       tx && tx->has_chrgs ? tx->chrgs_minor : e->chrgs_minor,
			       tx && tx->has_chrgs ? tx->chrgs_ccy : e->chrgs_ccy);
	/* BAI2: the customer reference is where an originator's own id goes,
	   an ACH trace number (15 digits) for ACH detail */
	if (st->source == CL_STMT_SRC_BAI2 && strlen(e->cust_ref) == 15 &&
	    strspn(e->cust_ref, "0123456789") == 15)
		ref(row->ach_trace, sizeof(row->ach_trace), e->cust_ref);
	else if (st->source == CL_STMT_SRC_BAI2 && !row->end_to_end_id[0])
		ref(row->end_to_end_id, sizeof(row->end_to_end_id), e->cust_ref);
	ok = key(row->natural_key, sizeof(row->natural_key), row->statement_key, "|#",
		 decimal(e->index, num), NULL);
	if (!ok)
		return false;
	if (fp) { /* NULL: the keys alone (validate) */
		cl_fp_begin(fp);
		cl_fp_str(fp, "item", cl_stmt_item_name(CL_STMT_ROW_ENTRY));
		cl_fp_int(fp, "amount_minor", row->amount_minor);
		cl_fp_str(fp, "ccy", row->currency);
		fp_dir(fp, "direction", row->direction);
		cl_fp_str(fp, "reversal", row->reversal ? "y" : "n");
		cl_fp_str(fp, CL_STMT_COLUMN(status), row->status);
		cl_fp_str(fp, "booking_date", row->booking_date);
		cl_fp_str(fp, CL_FIELD_NAME(value_date), row->value_date);
		cl_fp_str(fp, "bank_tx_code", row->bank_tx_code);
		cl_fp_str(fp, "entry_ref", row->entry_ref);
		cl_fp_str(fp, CL_STMT_COLUMN(acct_svcr_ref), row->acct_svcr_ref);
		cl_fp_int(fp, "batch_count", row->batch_count);
		cl_fp_str(fp, "pmt_inf_id", row->pmt_inf_id);
		fp_payment_refs(fp, row);
		cl_fp_str(fp, "ach_trace", row->ach_trace);
		cl_fp_str(fp, "return_reason", row->return_reason);
		cl_fp_end(fp, row->fingerprint);
	}
	return true;
}

bool cl_stmt_row_tx(const struct cl_stmt_statement *st, const struct cl_stmt_entry *e,
		    const struct cl_stmt_tx *tx, struct cl_fp *fp, struct cl_stmt_row *row)
{
	char num[24], num2[24];

	memset(row, 0, sizeof(*row));
	row->item = CL_STMT_ROW_TX;
	row->position = tx->line;
	if (!statement_key(st, row))
		return false;
	row->entry_index = e->index;
	row->tx_index = tx->index;
	put(row->entry_ref, sizeof(row->entry_ref), e->ntry_ref);
	ref(row->acct_svcr_ref, sizeof(row->acct_svcr_ref), tx->acct_svcr_ref);
	if (!row->acct_svcr_ref[0])
		ref(row->acct_svcr_ref, sizeof(row->acct_svcr_ref), e->acct_svcr_ref);
	/* its own amount (Amt, else AmtDtls/TxAmt), else none: a batch's
	   details may give references only */
	row->has_amount = tx->has_amount;
	row->amount_minor = tx->has_amount ? tx->amount_minor : 0;
	put(row->currency, sizeof(row->currency), tx->has_amount ? tx->ccy : e->ccy);
	row->direction = tx->direction != CL_DIR_NONE ? tx->direction : e->direction;
	row->reversal = e->reversal;
	put(row->status, sizeof(row->status), e->status);
	date_of(row->booking_date, e->booking_date);
	date_of(row->value_date, e->value_date);
	put(row->bank_tx_code, sizeof(row->bank_tx_code), e->bank_tx_code);
	row->batch_count = -1;
	ref(row->batch_msg_id, sizeof(row->batch_msg_id), e->btch_msg_id);
	ref(row->batch_pmt_inf_id, sizeof(row->batch_pmt_inf_id), e->btch_pmt_inf_id);
	tx_refs(row, tx);
	amount_details(row, tx->has_instd, tx->instd_minor, tx->instd_ccy, tx->has_chrgs,
		       tx->chrgs_minor, tx->chrgs_ccy);
	if (!key(row->natural_key, sizeof(row->natural_key), row->statement_key, "|#",
		 decimal(e->index, num), "|tx#", decimal(tx->index, num2), NULL))
		return false;
	if (fp) { /* NULL: the keys alone (validate) */
		cl_fp_begin(fp);
		cl_fp_str(fp, "item", cl_stmt_item_name(CL_STMT_ROW_TX));
		cl_fp_str(fp, "amount", row->has_amount ? "y" : "n");
		cl_fp_int(fp, "amount_minor", row->amount_minor);
		cl_fp_str(fp, "ccy", row->currency);
		fp_dir(fp, "direction", row->direction);
		cl_fp_str(fp, CL_STMT_COLUMN(acct_svcr_ref), row->acct_svcr_ref);
		cl_fp_str(fp, "pmt_inf_id", row->pmt_inf_id);
		fp_payment_refs(fp, row);
		cl_fp_str(fp, "ach_trace", row->ach_trace);
		cl_fp_str(fp, "return_reason", row->return_reason);
		cl_fp_str(fp, "instructed", row->has_instructed ? "y" : "n");
		cl_fp_int(fp, "instructed_minor", row->instructed_minor);
		cl_fp_str(fp, "instructed_ccy", row->instructed_ccy);
		cl_fp_str(fp, "charges", row->has_charges ? "y" : "n");
		cl_fp_int(fp, "charges_minor", row->charges_minor);
		cl_fp_end(fp, row->fingerprint);
	}
	return true;
}

/* A status row: of one transaction (keyed by its index among them), of
 * a whole original message (group: OrgnlMsgId only, keyed "grp#" and its
 * index among the groups), or of one payment information block of it
 * (pain.002 OrgnlPmtInfAndSts: OrgnlMsgId and OrgnlPmtInfId, keyed "pmt#"
 * and its index among the blocks). */
static bool status_row(const struct cl_stmt_statement *st, const struct cl_stmt_status *s,
		       bool group, struct cl_fp *fp, struct cl_stmt_row *row)
{
	char num[24];
	bool ok;

	memset(row, 0, sizeof(*row));
	row->item = CL_STMT_ROW_STATUS;
	row->batch_count = -1;
	row->position = s->line;
	if (!statement_key(st, row))
		return false;
	row->entry_index = s->index;
	put(row->status, sizeof(row->status), s->status);
	put(row->status_reason, sizeof(row->status_reason), s->reason);
	row->has_amount = s->has_amount;
	row->amount_minor = s->amount_minor;
	put(row->currency, sizeof(row->currency), s->has_amount ? s->ccy : "");
	date_of(row->booking_date, s->accptnc_dt_tm);
	ref(row->msg_id, sizeof(row->msg_id), s->orgnl_msg_id);
	ref(row->pmt_inf_id, sizeof(row->pmt_inf_id), s->orgnl_pmt_inf_id);
	ref(row->instr_id, sizeof(row->instr_id), s->orgnl_instr_id);
	ref(row->end_to_end_id, sizeof(row->end_to_end_id), s->orgnl_end_to_end_id);
	ref(row->tx_id, sizeof(row->tx_id), s->orgnl_tx_id);
	ref(row->uetr, sizeof(row->uetr), s->orgnl_uetr);
	for (char *p = row->uetr; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	put(row->entry_ref, sizeof(row->entry_ref), s->sts_id);
	ok = key(row->natural_key, sizeof(row->natural_key), row->statement_key, "|",
		 group ? (s->pmt_inf ? "pmt" : "grp") : "", "#", decimal(s->index, num), NULL);
	if (!ok)
		return false;
	if (fp) { /* NULL: the keys alone (validate) */
		cl_fp_begin(fp);
		cl_fp_str(fp, "item", group ? "group_status" : "status");
		cl_fp_str(fp, CL_STMT_COLUMN(status), row->status);
		cl_fp_str(fp, "sts_id", row->entry_ref);
		cl_fp_str(fp, "reason", row->status_reason);
		cl_fp_str(fp, "orgnl_msg_id", row->msg_id);
		if (st->source == CL_STMT_SRC_PAIN002) /* (pacs.002's fingerprint as it was) */
			cl_fp_str(fp, "orgnl_pmt_inf_id", row->pmt_inf_id);
		fp_payment_refs(fp, row);
		cl_fp_str(fp, "amount", s->has_amount ? "y" : "n");
		cl_fp_int(fp, "amount_minor", row->amount_minor);
		cl_fp_str(fp, "ccy", row->currency);
		cl_fp_end(fp, row->fingerprint);
	}
	return true;
}

bool cl_stmt_row_status(const struct cl_stmt_statement *st, const struct cl_stmt_status *s,
			struct cl_fp *fp, struct cl_stmt_row *row)
{
	return status_row(st, s, false, fp, row);
}

bool cl_stmt_row_group_status(const struct cl_stmt_statement *st, const struct cl_stmt_status *s,
			      struct cl_fp *fp, struct cl_stmt_row *row)
{
	return status_row(st, s, true, fp, row);
}

int cl_stmt_rows_of(struct cl_stmt_rows *s, const struct cl_stmt_item *item, struct cl_fp *fp,
		    struct cl_stmt_row rows[CL_STMT_ROWS_MAX], unsigned long *bad_line)
{
	int n = 0;
	bool ok = true;

	*bad_line = item->stmt.line;
	if (item->stmt.line != s->stmt_line) {
		/* the first item of a statement (or pacs.002 report) */
		s->stmt_line = item->stmt.line;
		s->have_tx = false;
		if (!cl_stmt_row_statement(&item->stmt, fp, &rows[n]))
			return -1;
		n++;
	}
	switch (item->kind) {
	case CL_STMT_STATEMENT:
		return n;
	case CL_STMT_TX:
		/* the first waits: a row of its own only once a second comes */
		*bad_line = item->tx.line;
		if (item->tx.index == 1) {
			s->first_tx = item->tx;
			s->first_tx_entry = item->entry;
			s->have_tx = true;
			return n;
		}
		if (item->tx.index == 2 && s->have_tx) {
			if (!cl_stmt_row_tx(&item->stmt, &s->first_tx_entry, &s->first_tx, fp,
					    &rows[n]))
				return -1;
			n++;
		}
		ok = cl_stmt_row_tx(&item->stmt, &item->entry, &item->tx, fp, &rows[n]);
		break;
	case CL_STMT_ENTRY:
		*bad_line = item->entry.line;
		ok = cl_stmt_row_entry(&item->stmt, &item->entry, s->have_tx ? &s->first_tx : NULL,
				       fp, &rows[n]);
		s->have_tx = false;
		break;
	case CL_STMT_TX_STATUS:
		*bad_line = item->status.line;
		ok = cl_stmt_row_status(&item->stmt, &item->status, fp, &rows[n]);
		break;
	case CL_STMT_GROUP_STATUS:
		/* an OrgnlGrpInfAndSts without GrpSts says nothing of its
		   transactions: only their own statuses do */
		if (!item->status.status[0] || !item->status.orgnl_msg_id[0])
			return n;
		*bad_line = item->status.line;
		ok = cl_stmt_row_group_status(&item->stmt, &item->status, fp, &rows[n]);
		break;
	}
	return ok ? n + 1 : -1;
}

void cl_stmt_row_journal_key(const struct cl_stmt_row *row, char *out, size_t cap)
{
	const char *accounts[1] = { row->account };

	cl_mask_in_key(row->natural_key, accounts, 1, out, cap);
}

void cl_stmt_duplicate_error(struct cl_error *e, const char *file, unsigned long first,
			     unsigned long last, unsigned long count, const char *journal_key)
{
	cl_error_set(e, file, last, "duplicate_key",
		     "this item has the same statement key as the one on line %lu (%lu times in "
		     "the file): %s",
		     first, count, journal_key);
	e->other_line = first;
	cl_error_hint(e, "one statement (its account, currency and Stmt/Id or ElctrncSeqNb; a "
			 "BAI2 account of one group) is in the file twice: ask the bank for a "
			 "file that reports it once");
}
