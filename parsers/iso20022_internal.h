/*
 * iso20022_internal.h - the pieces of the ISO 20022 parser (iso20022.c),
 * each in its own file:
 *
 *   iso20022_ns.c     Document namespace -> message kind and version
 *   iso20022_money.c  ISO 4217 exponents, decimal text -> minor units
 *   iso20022_ids.c    IBAN mod 97, BIC shape, UUIDv4, ISO dates
 *   iso20022_guard.c  byte-level guard in front of libxml2 (DOCTYPE,
 *                     text length, encoding)
 *   iso20022_paths.c  element paths -> fields, as a trie over tag ids
 *   iso20022_keys.c   natural keys and fingerprints
 *   iso20022_record.c one transaction -> struct cl_record, value rules,
 *                     group and PmtInf totals
 *   iso20022.c        the plug into the XML engine (xml_engine.c):
 *                     element events, queues, the clearing reader's API
 *   xml_message.c     the ISO 20022 row of the table of formats
 *
 * Nothing here allocates per record or per node.  Not a public interface.
 */
#ifndef CL_ISO20022_INTERNAL_H
#define CL_ISO20022_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libxml/parser.h>
#include <libxml/xmlschemas.h>

#include "base/record.h"
#include "parsers/outq.h"
#include "parsers/input.h"
#include "parsers/iso20022.h"
#include "parsers/parser.h"
#include "rules/fingerprint.h"
#include "rules/iso_identity.h"

/* Limits (clearing-load-keys(7), "ISO 20022 limits"). */
#define CL_ISO_MAX_DEPTH 64          /* element nesting */
#define CL_ISO_MAX_TEXT (256 * 1024) /* bytes of one text node, comment,
                                        CDATA section, PI or tag */
#define CL_ISO_MAX_VALUE 2048        /* bytes of one field value we keep */
#define CL_ISO_MAX_NAMES (256 * 1024) /* bytes of distinct names libxml2 keeps */
#define CL_ISO_MAX_ATTRS 256         /* attributes (and xmlns) in one tag */

/* ---- iso20022_ns.c ---- */

enum cl_iso_ns_result {
	CL_ISO_NS_OK = 0,
	CL_ISO_NS_FOREIGN,     /* not an ISO 20022 message namespace */
	CL_ISO_NS_UNSUPPORTED, /* an ISO 20022 message we do not read */
	CL_ISO_NS_VERSION,     /* a message we read, in an unknown version */
};

/* Tell the message from the namespace of the Document element.  On
 * CL_ISO_NS_OK *kind is set; in every case but FOREIGN, msg_type[cap]
 * receives the message identifier ("pain.001.001.09"). */
enum cl_iso_ns_result cl_iso_ns_parse(const char *ns, enum cl_iso_kind *kind,
				      char *msg_type, size_t cap);
/* "pain.001" ...; NULL for CL_ISO_NONE */
const char *cl_iso_kind_name(enum cl_iso_kind kind);
/* The expected root element under Document for a kind. */
const char *cl_iso_kind_root(enum cl_iso_kind kind);
/* One line naming every namespace we read, for error messages. */
const char *cl_iso_ns_supported(void);

/* The unsupported_message error's text for msg_type ("camt.053.001.08"),
 * an ISO 20022 message we do not read, into buf[cap]: what the message is
 * and what clearing-load loads. */
const char *cl_iso_unsupported_text(char *buf, size_t cap, const char *msg_type);

/* ---- iso20022_money.c ---- */

enum cl_iso_amount_result {
	CL_ISO_AMT_OK = 0,
	CL_ISO_AMT_SYNTAX,   /* not [0-9]+(.[0-9]+)? */
	CL_ISO_AMT_DECIMALS, /* more fraction digits than the exponent */
	CL_ISO_AMT_OVERFLOW, /* does not fit int64 minor units */
};

/* Exact decimal text (already trimmed) -> minor units at `exponent`. */
enum cl_iso_amount_result cl_iso_amount_parse(const char *text, int exponent,
					      int64_t *minor);

/* A non-negative decimal as whole units plus 10^-17 fractions: control
 * sums (DecimalNumber, 18 digits, 17 fractional) compared without floats. */
struct cl_iso_dec {
	int64_t whole;
	int64_t frac; /* 0 .. 10^17 - 1 */
	bool overflow;
};

/* Parse DecimalNumber text; returns -1 on bad syntax or too many digits. */
int cl_iso_dec_parse(const char *text, struct cl_iso_dec *out);
/* acc += minor * 10^-exponent; sets acc->overflow when it cannot. */
void cl_iso_dec_add_minor(struct cl_iso_dec *acc, int64_t minor, int exponent);
bool cl_iso_dec_equal(const struct cl_iso_dec *a, const struct cl_iso_dec *b);
/* "1234.5" (trailing fraction zeros cut) into out[cap]. */
void cl_iso_dec_format(const struct cl_iso_dec *d, char *out, size_t cap);

/* ---- iso20022_ids.c ---- */

/* IBAN, BIC and UUID checks, the text trim and the currency exponent
 * are in iso20022.h (the CSV reader runs them too). */
/* xs:date "YYYY-MM-DD" with an optional zone; a real calendar date. */
bool cl_iso_date(const char *s);
/* xs:dateTime "YYYY-MM-DDThh:mm:ss[.f+][Z|(+|-)hh:mm]". */
bool cl_iso_datetime(const char *s);
/* Currency code shape: three uppercase ASCII letters. */
bool cl_iso_ccy_shape(const char *s);

/* ---- iso20022_guard.c ---- */

/* A byte-level scanner that sees every byte before libxml2 does.  It stops
 * the input at the first DOCTYPE, at any text node, comment, CDATA
 * section, processing instruction or tag longer than CL_ISO_MAX_TEXT, and
 * tracks line and column.  State survives any split of the input into
 * chunks, so the verdict never depends on the read size. */
struct cl_iso_guard {
	int state;
	int sub;              /* progress through a multi-byte delimiter */
	char quote;           /* open attribute quote in a tag, or 0 */
	size_t run;           /* bytes in the current construct */
	unsigned long line;   /* 1-based line of the next byte */
	unsigned long col;    /* 1-based column (bytes) of a failure */
	uint64_t line_start;  /* offset of the first byte of the line */
	unsigned long start_line, start_col; /* where the current construct began */
	bool last_nl;         /* the last byte seen was '\n' */
	uint64_t bytes;       /* bytes seen */
	bool failed;
	unsigned long fail_line, fail_col;
	char code[CL_CODE_MAX];
	char message[160];
};

void cl_iso_guard_init(struct cl_iso_guard *g);
/* Scan buf[len]; returns how many bytes may go on to the XML parser
 * (len, or fewer when the guard failed inside this buffer). */
size_t cl_iso_guard_scan(struct cl_iso_guard *g, const unsigned char *buf, size_t len);
/* Lines in the bytes seen so far (a last line without '\n' counts). */
unsigned long cl_iso_guard_lines(const struct cl_iso_guard *g);

/* Check the first bytes of a document (BOM, UTF-16, the XML declaration's
 * encoding).  Returns false with code/message filled when the input is not
 * UTF-8 (or ASCII) XML as ISO 20022 requires. */
bool cl_iso_check_encoding(const unsigned char *p, size_t len, char code[CL_CODE_MAX],
			   char *message, size_t cap);

/* ---- iso20022_paths.c ---- */

/* What a matched element is. */
enum cl_iso_field {
	F_NONE = 0,
	/* group header (and pacs.004 group-level OrgnlGrpInf) */
	F_MSG_ID, F_CRE_DT_TM, F_GRP_NB_OF_TXS, F_GRP_CTRL_SUM, F_GRP_STTLM_DT,
	F_GRP_INSTG_BIC, F_GRP_INSTG_MMB, F_GRP_INSTD_BIC, F_GRP_INSTD_MMB,
	F_INITG_ID, F_INITG_NM, F_GRP_ORGNL_MSG_ID,
	F_GRP_INSTG_OTHER, /* InstgAgt named only by LEI, Othr/Id or Nm */
	F_GRP_SEQ_TP,      /* pacs.003 GrpHdr/PmtTpInf/SeqTp (.01, .02) */
	F_GRP_CASE_ID,     /* camt.056 Case/Id, camt.029 RslvdCase/Id */
	F_GRP_CONF,        /* camt.029 Sts/Conf */
	/* payment information (pain.001) */
	F_PMT_INF_ID, F_PMT_NB_OF_TXS, F_PMT_CTRL_SUM, F_REQD_EXCTN_DT, F_REQD_EXCTN_DTTM,
	F_PMT_DBTR_NM, F_PMT_DBTR_IBAN, F_PMT_DBTR_OTHR, F_PMT_DBTR_AGT_BIC, F_PMT_DBTR_AGT_MMB,
	/* payment information (pain.008): the creditor's side */
	F_REQD_COLLTN_DT, F_PMT_SEQ_TP, F_PMT_CDTR_NM, F_PMT_CDTR_IBAN, F_PMT_CDTR_OTHR,
	F_PMT_CDTR_AGT_BIC, F_PMT_CDTR_AGT_MMB, F_PMT_CDTR_SCHME_ID,
	/* camt.056 Undrlyg, camt.029 CxlDtls: the original group and case */
	F_PMT_ORGNL_MSG_ID, F_PMT_CASE_ID,
	/* transaction */
	F_INSTR_ID, F_E2E_ID, F_TX_ID, F_UETR, F_AMT, F_CCY_OF_TRF, F_TX_STTLM_DT,
	F_TX_INSTG_BIC, F_TX_INSTG_MMB, F_TX_INSTD_BIC, F_TX_INSTD_MMB,
	F_DBTR_NM, F_DBTR_IBAN, F_DBTR_OTHR, F_DBTR_AGT_BIC, F_DBTR_AGT_MMB,
	F_CDTR_NM, F_CDTR_IBAN, F_CDTR_OTHR, F_CDTR_AGT_BIC, F_CDTR_AGT_MMB,
	F_DBTR_FI_BIC, F_CDTR_FI_BIC, F_USTRD,
	F_RTR_ID, F_ORGNL_MSG_ID, F_ORGNL_E2E_ID, F_ORGNL_TX_ID, F_ORGNL_UETR,
	F_RSN_CD, F_RSN_PRTRY,
	F_TX_INSTG_OTHER,
	/* direct debits (pain.008, pacs.003) */
	F_MNDT_ID, F_MNDT_DT, F_TX_CDTR_SCHME_ID, F_TX_SEQ_TP,
	/* cancellations (camt.056 TxInf, camt.029 TxInfAndSts) */
	F_CXL_ID, F_CASE_ID, F_ORGNL_INSTR_ID, F_CXL_STS,
	/* business application header */
	F_HDR_FR_BIC, F_HDR_FR_MMB, F_HDR_TO_BIC, F_HDR_TO_MMB, F_HDR_MSG_DEF,
	F_HDR_FR_OTHER,
	F_COUNT
};

/* What starting or ending a matched element means. */
enum cl_iso_event {
	EV_NONE = 0,
	EV_ROOT_PAIN001, EV_ROOT_PACS008, EV_ROOT_PACS009, EV_ROOT_PACS004,
	EV_ROOT_PAIN008, EV_ROOT_PACS003, EV_ROOT_CAMT056, EV_ROOT_CAMT029,
	EV_GRPHDR, EV_PMTINF, EV_TX,
};

#define CL_ISO_MAX_TAGS 120 /* CL_ISO_PH > 2 * tags */
#define CL_ISO_MAX_NODES 640

struct cl_iso_node {
	uint8_t field;   /* enum cl_iso_field */
	uint8_t event;   /* enum cl_iso_event */
	uint8_t amount;  /* the element carries a Ccy attribute we read */
	int16_t child[CL_ISO_MAX_TAGS]; /* by tag id; -1 = not matched */
};

/* The tries for Document (node CL_ISO_DOC) and AppHdr (CL_ISO_HDR). */
#define CL_ISO_DOC 0
#define CL_ISO_HDR 1

struct cl_iso_paths {
	struct cl_iso_node node[CL_ISO_MAX_NODES];
	int nodes;
	const char *tag_name[CL_ISO_MAX_TAGS];
	int tags;
	int16_t parent[CL_ISO_MAX_NODES];     /* first parent of each node */
	uint8_t parent_tag[CL_ISO_MAX_NODES]; /* the tag leading to it */
};

/* The shared, read-only path table (built once, thread-safe). */
const struct cl_iso_paths *cl_iso_paths(void);
/* "PmtId/EndToEndId": the element path of `node` below its scope element
 * (GrpHdr, PmtInf, the transaction or AppHdr) into out[cap]. */
void cl_iso_node_path(const struct cl_iso_paths *t, int node, char *out, size_t cap);

/* ---- the parser state (iso20022.c, iso20022_record.c) ---- */

#define CL_ISO_FEED 1024      /* bytes handed to libxml2 per xmlParseChunk */
#define CL_ISO_BUF (64 * 1024) /* bytes read from the input at a time */
#define CL_ISO_RECQ 64        /* records waiting to be handed out */
#define CL_ISO_PH 256         /* tag pointer hash (power of two, > 2 * tags) */

struct cl_iso_tag_slot {
	const xmlChar *name; /* interned in the parser's dictionary */
	int tag;
};

struct cl_xml_engine;

struct cl_iso20022 {
	struct cl_input *in;
	const char *name;           /* display name of the input */
	struct cl_parse_opts opts;
	struct cl_file_info info;
	const struct cl_iso_paths *paths;
	struct cl_fp *fp;
	bool fingerprints_unread;   /* none made from here on
	                               (cl_parser_fingerprints_unread) */
	struct cl_xml_engine *x;    /* the XML engine (xml_engine.h) reading
	                               for this parser */

	/* names interned in the parser's dictionary: compared as pointers */
	struct cl_iso_tag_slot ph[CL_ISO_PH];
	const xmlChar *name_document, *name_apphdr, *name_ccy;

	/* document */
	enum cl_iso_kind kind;
	char msg_type[32];
	int depth;                  /* of the element being opened/closed */
	int doc_depth, hdr_depth;   /* depth of Document / AppHdr, -1 outside */
	bool doc_seen;
	bool doc_virtual;           /* the message root came without a Document */
	char other_msg[32];         /* the first other ISO message seen, if any */
	unsigned long other_line;
	bool other_doc;             /* the Document is other_msg, a message we
	                               do not read: the rest of the file is
	                               only checked to be well-formed, and
	                               unsupported_message said at the end */
	bool msg_opened;            /* the message root (CstmrCdtTrfInitn...) */
	bool grp_seen;              /* its GrpHdr began */
	bool grp_order_said;        /* "GrpHdr after a transaction" reported */
	unsigned long msg_line;     /* line of the message root's start tag */
	unsigned long doc_line;     /* line of the Document's start tag */
	unsigned long no_instg;     /* transactions refused for want of an
	                               instructing agent */
	char root_path[64];         /* "/Document/CstmrCdtTrfInitn" */
	int16_t stack[CL_ISO_MAX_DEPTH + 1]; /* trie node per open element */

	/* the element whose text is being collected */
	int cur_field, field_depth, cur_node;
	unsigned long cur_line;
	char text[CL_ISO_MAX_VALUE];
	size_t text_len;
	bool text_over;
	char cur_ccy[8];

	/* collected values, by field; reset per scope */
	char val[F_COUNT][CL_NAME_MAX];
	bool seen[F_COUNT], too_long[F_COUNT];
	bool reported[F_COUNT];     /* an error about it was queued */
	unsigned long line_of[F_COUNT];
	int16_t node_of[F_COUNT];
	char amt_ccy[8];

	/* counters */
	unsigned long pmt_index, tx_index, ordinal;
	unsigned long grp_line, pmt_line, tx_line;
	unsigned long grp_count, pmt_count;
	struct cl_iso_dec grp_sum, pmt_sum;
	bool grp_sum_unknown, pmt_sum_unknown;

	/* what next() hands out, in document order */
	struct cl_outq q;
	struct cl_record recs[CL_ISO_RECQ];
	struct cl_record scratch;   /* when the ring is full (never, by sizing) */
	struct cl_iso_extra extra;
};

/* The element path of the field being read ("/Document/.../Cdtr/Nm"), or
 * "" outside a field: where a libxml2 error inside a text node was. */
void cl_iso_current_path(const struct cl_iso20022 *p, char *out, size_t cap);

/* Queue an error after which reading stops. */
void cl_iso_add_fatal(struct cl_iso20022 *p, unsigned long line, const char *code,
		      const char *fmt, ...) CL_PRINTF(4, 5);
/* The record being built for the current transaction; commit queues it. */
struct cl_record *cl_iso_record_slot(struct cl_iso20022 *p);
void cl_iso_record_commit(struct cl_iso20022 *p);

/* The clearing messages' reader on engine x (xml_message.c drives it and
 * owns x); its plug into the engine; whether it holds something to hand
 * out. */
struct cl_iso20022 *cl_iso_clearing_new(struct cl_input *in, const struct cl_parse_opts *opts,
					struct cl_xml_engine *x);
enum cl_status cl_iso_clearing_next(struct cl_iso20022 *p, const struct cl_record **rec,
				    struct cl_error *err) CL_MUST_CHECK;
bool cl_iso_clearing_queued(const struct cl_iso20022 *p);
void cl_iso_clearing_free(struct cl_iso20022 *p);
struct cl_xml_plug;
extern const struct cl_xml_plug cl_iso_clearing_plug;

/* iso20022_record.c: the ends of the scopes */
void cl_iso_grphdr_end(struct cl_iso20022 *p);
void cl_iso_pmtinf_end(struct cl_iso20022 *p);
void cl_iso_root_end(struct cl_iso20022 *p);
void cl_iso_tx_end(struct cl_iso20022 *p);

#endif
