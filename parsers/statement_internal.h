/*
 * statement_internal.h - the pieces of the statement readers (statement.h):
 *
 *   statement.c       the queues of items and errors, the direct API, and
 *                     BAI2's row of the table of formats (format.h)
 *   statement_xml.c   the statements' plug into the XML engine
 *                     (xml_engine.c): element paths -> scopes and fields
 *   statement_camt.c  camt.052/053/054: Stmt/Ntfctn/Rpt, Bal, TxsSummry,
 *                     Ntry, Btch, TxDtls, and the statement checks
 *   status_pacs002.c  pacs.002 and pain.002: OrgnlGrpInfAndSts,
 *                     OrgnlPmtInfAndSts, TxInfAndSts
 *   statement_bai2.c  BAI2 records and trailer checks
 *   statement_mt940.c SWIFT MT940/MT942 messages: lines, the message, checks
 *   statement_mt940_fields.c  the values of their fields (statement_mt940_internal.h)
 *   statement_mt940_row.c  MT940's row of the table of formats
 *
 * Nothing here allocates per entry.  Not a public interface.
 */
#ifndef CL_STATEMENT_INTERNAL_H
#define CL_STATEMENT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libxml/parser.h>

#include "base/record.h"
#include "parsers/input.h"
#include "parsers/iso20022_internal.h"
#include "parsers/statement.h"
#include "parsers/xml_engine.h"

#define CL_STMT_ITEMQ 128     /* items waiting; a CL_STMT_FEED piece completes
                                 at most CL_STMT_FEED / 7 ("<Ntry/>") */
#define CL_STMT_FEED 512      /* bytes handed to libxml2 per xmlParseChunk */
#define CL_STMT_MAX_SCOPES 16
#define CL_STMT_PH 512        /* path hash slots (power of two) */

/* Scopes: the elements whose end completes something. */
enum cl_stmt_scope {
	SC_NONE = 0,
	SC_ROOT,      /* BkToCstmrStmt, BkToCstmrDbtCdtNtfctn, BkToCstmrAcctRpt, FIToFIPmtStsRpt */
	SC_GRPHDR,
	SC_STMT,      /* Stmt, Ntfctn, Rpt */
	SC_BAL,
	SC_SUMMARY,   /* TxsSummry */
	SC_NTRY,
	SC_DTLS,      /* NtryDtls */
	SC_BTCH,
	SC_TX,        /* TxDtls */
	SC_OGRP,      /* OrgnlGrpInfAndSts */
	SC_TXSTS,     /* TxInfAndSts */
	SC_OPMT,      /* OrgnlPmtInfAndSts (pain.002) */
};

/* One path of a message: below scope `scope`, the element at `rel`
 * ("Refs/EndToEndId") opens scope `opens` or is field `field`. */
struct cl_stmt_path {
	uint8_t scope;
	const char *rel;
	uint8_t opens;
	uint8_t field;
	bool repeatable;  /* a second one is not an error; the first is kept */
};

/* A path of some versions only (the .001.01 messages of camt and the
 * .001.02 of pacs.002 name a few elements otherwise): read in versions
 * from .. to, beside the paths every version shares. */
struct cl_stmt_vpath {
	uint8_t from, to;
	struct cl_stmt_path path;
};

/* An element the schema requires of a scope in every version read: its
 * absence when the scope ends is an error (missing_element).  `field` is
 * the element's own entry of the path table: the element counts as
 * present from its start tag, so one with children counts too. */
struct cl_stmt_required {
	uint8_t scope;
	uint8_t field;
	const char *name;  /* the element's path in the scope: "Id", "BkTxCd" */
	const char *what;  /* what it is, for people: "the statement's id" */
};

struct cl_stmt_parser;

/* What a message kind gives the XML engine. */
struct cl_stmt_msg_ops {
	const struct cl_stmt_path *paths;
	size_t npaths;
	int nfields;                      /* field ids are 1 .. nfields - 1 */
	const struct cl_stmt_vpath *vpaths; /* the versions' own paths */
	size_t nvpaths;
	void (*scope_start)(struct cl_stmt_parser *p, int scope, unsigned long line);
	void (*scope_end)(struct cl_stmt_parser *p, int scope);
	/* a field's trimmed text (value[n], NUL-terminated), its Ccy
	 * attribute ("" if none) and line */
	void (*field)(struct cl_stmt_parser *p, int field, const char *value, size_t n,
		      const char *ccy, unsigned long line);
	const struct cl_stmt_required *required; /* checked as each scope ends */
	size_t nrequired;
};

extern const struct cl_stmt_msg_ops cl_stmt_camt_ops;     /* statement_camt.c */
extern const struct cl_stmt_msg_ops cl_stmt_pacs002_ops;  /* status_pacs002.c */
extern const struct cl_stmt_msg_ops cl_stmt_pain002_ops;  /* status_pacs002.c */

/* ---- camt state (statement_camt.c) ---- */
struct cl_stmt_camt {
	unsigned long root_line;     /* where the message element began */
	unsigned n_bal;              /* Bal elements of the statement */
	struct cl_stmt_statement stmt;
	bool stmt_given;             /* the STATEMENT item was queued */
	struct cl_stmt_entry entry;
	struct cl_stmt_tx tx;
	/* Bal being read (currencies as written, up to 7 bytes: a wrong one is
	 * refused, never cut to fit) */
	char bal_type[CL_STMT_CODE_MAX];
	char bal_amt[40], bal_ccy[8], bal_ind[8], bal_date[CL_STMT_DATE_MAX];
	unsigned long bal_line, bal_amt_line;
	/* the page's interim booked balances (ITBD), in document order: a
	 * page's opening and closing when it has no OPBD/PRCD or CLBD */
	struct cl_stmt_balance itbd[2];
	unsigned n_itbd;
	/* TxsSummry as written */
	char sum_net[40], sum_net_ind[8];
	unsigned long sum_line, sum_nb_line, sum_cdt_line, sum_dbt_line;
	/* entry being read */
	char ntry_amt[40], ntry_ind[8], ntry_rvsl[8];
	unsigned long ntry_amt_line;
	char domn[3][CL_STMT_CODE_MAX], prtry_cd[CL_STMT_CODE_MAX];
	char btch_ttl[40], btch_ccy[8], btch_nb[24];
	unsigned long btch_line;
	/* TxDtls of the current NtryDtls, and of the whole entry */
	unsigned long dtls_txs;
	long dtls_btch_nb;           /* NbOfTxs of this NtryDtls' Btch, -1 */
	int64_t dtls_btch_ttl;
	bool dtls_btch_has_ttl;
	unsigned long dtls_line;
	int64_t dtls_sum;            /* signed, in the entry's direction */
	bool dtls_sum_ok;            /* every TxDtls had an amount in the entry ccy */
	int64_t ntry_tx_sum;
	bool ntry_tx_sum_ok;
	/* transaction being read */
	char tx_amt[40], tx_ccy[8], tx_amt2[40], tx_ccy2[8], tx_ind[8];
	/* AmtDtls/InstdAmt and Chrgs as written (of the entry before
	   NtryDtls, else of the transaction being read) */
	char instd_amt[40], instd_ccy[8], chrg_ttl[40], chrg_ttl_ccy[8], chrg_rcrd[40],
		chrg_rcrd_ccy[8];
	unsigned long instd_line, chrg_line;
	int64_t ntry_chrgs_sum;      /* the TxDtls' charges in the entry ccy */
	char prtry_tp[CL_ID_MAX], prtry_ref[CL_ID_MAX];
	unsigned long tx_amt_line;
	/* sums over the statement's entries */
	unsigned long n_entries, n_cdt, n_dbt;
	int64_t sum_all, sum_cdt, sum_dbt;        /* minor units, unsigned */
	int64_t booked_cdt, booked_dbt;
	unsigned long n_booked_cdt, n_booked_dbt;
	int exponent;                              /* of the statement's currency, -1 */
	char sum_ccy[4];                           /* currency of the entries */
	bool mixed_ccy, overflow;
	unsigned long stmt_index;
	char grp_msg_id[CL_ID_MAX], grp_created[CL_STMT_DATE_MAX];
	unsigned grp_page;           /* GrpHdr/MsgPgntn (.001.01 only), 0 */
	bool grp_last_page;
	unsigned long entry_index;
};

/* ---- pacs.002 and pain.002 state (status_pacs002.c) ---- */
struct cl_stmt_pacs002 {
	struct cl_stmt_statement hdr;   /* GrpHdr */
	struct cl_stmt_status st;       /* being read */
	struct cl_stmt_status pst;      /* pain.002 OrgnlPmtInfAndSts being read */
	bool in_pmt;                    /* inside one */
	unsigned long n_pmt;
	char grp_orgnl_msg_id[CL_ID_MAX], grp_orgnl_msg_nm_id[CL_ID_MAX];
	char amt[40], amt_ccy[8], amt2[40], amt2_ccy[8];
	unsigned long amt_line;
	unsigned long n_grp, n_tx;
};

/* ---- the plug into the XML engine (statement_xml.c) ---- */
struct cl_stmt_scope_ent {
	int scope;
	int depth;     /* of the element that opened it */
	size_t off;    /* its end in path[] */
	unsigned long line;
};

struct cl_stmt_xml {
	struct cl_xml_engine *eng;    /* the one XML engine (xml_engine.h): own,
	                                 or the ISO 20022 row's */
	struct cl_xml_engine own;
	const xmlChar *name_ccy;
	const struct cl_stmt_msg_ops *ops;
	const char *root_name;        /* the element under Document */
	unsigned version;             /* of the message: 14 for camt.053.001.14 */
	unsigned long root_line;      /* where it began */
	int16_t ph[CL_STMT_PH];       /* path hash -> index in ops->paths, then
	                                 ops->vpaths (npaths + i); -1 */
	int depth;                    /* of the element being opened/closed */
	int doc_depth;                /* Document, -1 outside */
	int root_depth;               /* the message root, -1 outside */
	bool doc_seen, root_seen;
	char other_msg[32];           /* a message we do not read, seen */
	/* element path from the outermost element: "/Document/BkToCstmrStmt/..." */
	char path[CL_PATH_MAX];
	size_t path_len[CL_ISO_MAX_DEPTH + 1];
	bool path_over[CL_ISO_MAX_DEPTH + 1];
	/* the path table's entry of the element open at each depth, looked
	   up once at its start tag (NULL: none, or not looked up) */
	const struct cl_stmt_path *elem[CL_ISO_MAX_DEPTH + 1];
	struct cl_stmt_scope_ent scopes[CL_STMT_MAX_SCOPES];
	int nscopes;
	/* text of the element opened last */
	char text[CL_ISO_MAX_VALUE];
	size_t text_len;
	bool text_over;
	int text_depth;
	unsigned long text_line;
	char ccy[8];
	/* which fields were seen in their scope (repeated elements) */
	unsigned long seen_line[96];
	uint8_t seen_scope[96];
	/* where each field's element started in its scope (0: not yet) */
	unsigned long present[96];
};


enum cl_stmt_fmt { FMT_UNDECIDED = 0, FMT_XML, FMT_BAI2, FMT_MT940, FMT_CSV, FMT_UNKNOWN };

struct cl_stmt_bai2; /* statement_bai2.c */
struct cl_stmt_mt940; /* statement_mt940.c */
struct cl_stmt_csv; /* statement_csv.c */
struct cl_csv_map; /* csv_map.h */

struct cl_stmt_parser {
	struct cl_input *in;
	const char *name;
	unsigned max_errors, errors;
	bool done, finished, fatal, io_failed;
	struct cl_error io_err;
	enum cl_stmt_fmt fmt;
	enum cl_stmt_source source;
	char message_type[32];
	struct cl_stmt_xml *xml;
	struct cl_stmt_camt camt;
	struct cl_stmt_pacs002 pacs;
	struct cl_stmt_bai2 *bai2;
	struct cl_stmt_mt940 *mt940;
	struct cl_stmt_csv *csv;
	/* what next() hands out, in document order */
	struct cl_outq q;
	struct cl_stmt_item items[CL_STMT_ITEMQ];
	struct cl_stmt_item scratch;
};

/* ---- statement.c: the queues ---- */

/* A slot for the next item (cleared, kind set); cl_stmt_commit queues it. */
struct cl_stmt_item *cl_stmt_slot(struct cl_stmt_parser *p, enum cl_stmt_kind kind);
void cl_stmt_commit(struct cl_stmt_parser *p);
/* An entry of one transaction (an MT940 :61:, a bank CSV row): its
 * transaction item (tx's references with the entry's amount, direction,
 * line and bank reference), then the entry item (e->txs 1). */
void cl_stmt_give_entry(struct cl_stmt_parser *p, const struct cl_stmt_statement *st,
			struct cl_stmt_entry *e, struct cl_stmt_tx *tx);
/* Queue an error after which reading stops. */
void cl_stmt_fatal(struct cl_stmt_parser *p, unsigned long line, const char *code,
		   const char *fmt, ...) CL_PRINTF(4, 5);

/* An amount (ActiveOrHistoricCurrencyAndAmount: xs:decimal, fractionDigits
 * 5, totalDigits 18, minInclusive 0) in minor units of `ccy`: every lexical
 * form the schema allows (white space around it, a leading "+", leading
 * zeros, "12.", ".34", trailing zeros of the fraction, "-0"), at most the
 * currency's decimals besides trailing zeros.  Returns 0, or -1 with why[cap]
 * saying what is wrong. */
int cl_stmt_to_minor(const char *text, const char *ccy, int64_t *out, char *why, size_t cap);

/* Is v a template placeholder ("[[$CreDtTm]]", "{{id}}", "${id}",
 * "##YYYY##"): a value that was never filled in? */
bool cl_stmt_placeholder(const char *v);

/* Check an XML field's value v (of the element being read, on `line`):
 * no placeholder, and a date (`date`: cl_xsd_date) when it must be one.
 * Queues the error and returns false when it is not. */
bool cl_stmt_value_ok(struct cl_stmt_parser *p, const char *v, bool date, unsigned long line);

/* "-12.34" for minor units at an exponent, into buf[cap]. */
const char *cl_stmt_fmt_minor(int64_t minor, int exponent, char *buf, size_t cap);

/* ---- statement_xml.c ---- */
/* Read XML through `eng` (shared, not owned: the ISO 20022 row of the
 * format table drives it) or, when NULL, an engine of its own. */
void cl_stmt_xml_init(struct cl_stmt_parser *p, struct cl_xml_engine *eng);
extern const struct cl_xml_plug cl_stmt_xml_plug;
/* A statement reader on the ISO 20022 row's engine (xml_message.c). */
struct cl_stmt_parser *cl_stmt_open_xml(struct cl_input *in, unsigned max_errors,
					struct cl_xml_engine *eng);
void cl_stmt_xml_pump(struct cl_stmt_parser *p);
void cl_stmt_xml_free(struct cl_stmt_parser *p);
/* The element path of the element being read, into out[cap]. */
void cl_stmt_xml_path(const struct cl_stmt_parser *p, char *out, size_t cap);
/* The path of the innermost open scope element ("/Document/.../Ntry"). */
void cl_stmt_xml_scope_path(const struct cl_stmt_parser *p, char *out, size_t cap);

/* ---- statement_bai2.c ---- */
void cl_stmt_bai2_init(struct cl_stmt_parser *p);
void cl_stmt_bai2_pump(struct cl_stmt_parser *p);
void cl_stmt_bai2_free(struct cl_stmt_parser *p);

/* ---- statement_mt940.c ---- */
/* ":20:" or "{1:" after an optional UTF-8 BOM, blank lines and a SOH. */
bool cl_stmt_mt940_detect(const unsigned char *head, size_t len);
void cl_stmt_mt940_init(struct cl_stmt_parser *p);
void cl_stmt_mt940_pump(struct cl_stmt_parser *p);
void cl_stmt_mt940_free(struct cl_stmt_parser *p);

/* ---- statement_csv.c: a bank CSV export read by its column map ---- */
void cl_stmt_csv_init(struct cl_stmt_parser *p, const struct cl_csv_map *map);
void cl_stmt_csv_pump(struct cl_stmt_parser *p);
void cl_stmt_csv_free(struct cl_stmt_parser *p);
/* A statement reader of a bank CSV export (the map not owned). */
struct cl_stmt_parser *cl_stmt_open_csv(struct cl_input *in, unsigned max_errors,
					const struct cl_csv_map *map);

#endif
