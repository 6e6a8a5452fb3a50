/*
 * iso20022.c - the reader loop: libxml2's xmlTextReader fed from struct
 * cl_input through the byte guard, element paths matched through the
 * trie of iso20022_paths.c, one struct cl_record per transaction.
 *
 * Memory is constant: libxml2 keeps only the open elements, every value
 * we keep has a fixed capacity, and nothing is allocated per node or per
 * record.  Errors and the record of a transaction are queued and handed
 * out by cl_iso20022_next() in document order.
 */
#include "iso20022.h"

#include <errno.h>
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/xmlschemas.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fingerprint.h"
#include "iso20022_internal.h"
#include "xmalloc.h"

#define QUEUE_MAX 64    /* errors waiting to be handed out */
#define DEFERRED_MAX 32 /* libxml2 non-fatal errors, handed out at the end */
#define PH_SIZE 256     /* tag pointer hash (power of two, > 2 * tags) */

struct tag_slot {
	const xmlChar *name; /* interned in the reader's dictionary */
	int tag;
};

struct cl_iso20022 {
	struct cl_input *in;
	const char *name;           /* display name of the input */
	struct cl_parse_opts opts;
	struct cl_file_info info;
	const struct cl_iso_paths *paths;
	struct cl_fp *fp;
	xmlTextReaderPtr reader;
	xmlSchemaPtr schema;        /* --schema, or NULL */
	xmlDocPtr schema_doc;       /* the XSD it was parsed from (kept alive) */
	char schema_msg[200];       /* first error loading it */
	struct cl_iso_guard guard;

	/* names interned in the reader's dictionary: compared as pointers */
	struct tag_slot ph[PH_SIZE];
	const xmlChar *name_document, *name_apphdr;

	/* input state */
	bool started, finished, fatal, io_failed;
	struct cl_error io_err;
	bool xml_fatal_set;
	int xml_fatal_code;       /* libxml2's xmlParserErrors */
	struct cl_error xml_fatal;

	/* document state */
	enum cl_iso_kind kind;
	char msg_type[32];
	int doc_depth, hdr_depth; /* depth of Document / AppHdr, -1 outside */
	bool doc_seen;
	bool doc_virtual;         /* the message root came without a Document */
	bool root_opened, root_closed; /* the outermost element */
	char root_path[64];       /* "/Document/CstmrCdtTrfInitn" */
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
	unsigned long line_of[F_COUNT];
	int16_t node_of[F_COUNT];
	char amt_ccy[8];

	/* counters */
	unsigned long pmt_index, tx_index, ordinal;
	unsigned long grp_line, pmt_line, tx_line;
	unsigned long grp_count, pmt_count;
	struct cl_iso_dec grp_sum, pmt_sum;
	bool grp_sum_unknown, pmt_sum_unknown;

	/* what next() hands out */
	struct cl_record rec;
	struct cl_iso_extra extra;
	bool rec_ready;
	struct cl_error queue[QUEUE_MAX];
	int q_head, q_len;
	struct cl_error deferred[DEFERRED_MAX];
	int deferred_len;
	unsigned long deferred_dropped;
	unsigned long errors_returned;
	bool stopped;
};

/* ---------------------------------------------------------------- errors */

static struct cl_error *queue_slot(struct cl_iso20022 *p)
{
	static struct cl_error overflow; /* written, never read */

	if (p->q_len == QUEUE_MAX)
		return &overflow; /* a transaction with 64 errors: the rest are dropped */
	return &p->queue[(p->q_head + p->q_len++) % QUEUE_MAX];
}

static void add_error(struct cl_iso20022 *p, unsigned long line, const char *path,
		      const char *code, const char *fmt, ...) CL_PRINTF(5, 6);

static void add_error(struct cl_iso20022 *p, unsigned long line, const char *path,
		      const char *code, const char *fmt, ...)
{
	struct cl_error *e = queue_slot(p);
	va_list ap;

	cl_error_set(e, p->name, line, code, "%s", "");
	snprintf(e->path, sizeof(e->path), "%s", path ? path : "");
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	va_end(ap);
}

/* A fatal error: reading stops after it. */
static void add_fatal(struct cl_iso20022 *p, unsigned long line, const char *code,
		      const char *fmt, ...) CL_PRINTF(4, 5);

static void add_fatal(struct cl_iso20022 *p, unsigned long line, const char *code,
		      const char *fmt, ...)
{
	struct cl_error *e = queue_slot(p);
	va_list ap;

	cl_error_set(e, p->name, line, code, "%s", "");
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	va_end(ap);
	p->fatal = true;
	p->finished = true;
}

/* libxml2's structured error handler: never lets libxml2 print. */
static void xml_error(void *ctx, xmlErrorPtr xe)
{
	struct cl_iso20022 *p = ctx;
	struct cl_error *e;
	const char *code = "xml_malformed";
	size_t n;

	if (!xe || xe->level == XML_ERR_WARNING || xe->level == XML_ERR_NONE)
		return;
	if (xe->code == XML_ERR_INVALID_CHAR || xe->code == XML_ERR_INVALID_ENCODING ||
	    xe->code == XML_ERR_UNKNOWN_ENCODING || xe->code == XML_ERR_UNSUPPORTED_ENCODING)
		code = "xml_encoding";
	else if (xe->domain == XML_FROM_SCHEMASV || xe->domain == XML_FROM_SCHEMASP)
		code = "xml_schema";
	else if (xe->domain == XML_FROM_NAMESPACE)
		code = "xml_namespace";
	if (xe->level == XML_ERR_FATAL) {
		if (p->xml_fatal_set)
			return;
		p->xml_fatal_set = true;
		p->xml_fatal_code = xe->code;
		e = &p->xml_fatal;
	} else if (p->deferred_len < DEFERRED_MAX) {
		e = &p->deferred[p->deferred_len++];
	} else {
		p->deferred_dropped++;
		return;
	}
	cl_error_set(e, p->name, (unsigned long)(xe->line > 0 ? xe->line : 0), code, "%s",
		     xe->message ? xe->message : "XML error");
	e->column = xe->int2 > 0 ? (unsigned long)xe->int2 : 0;
	n = strlen(e->message);
	while (n > 0 && (e->message[n - 1] == '\n' || e->message[n - 1] == ' '))
		e->message[--n] = '\0';
	/* libxml2 capitalises; PostgreSQL style wants lowercase */
	if (e->message[0] >= 'A' && e->message[0] <= 'Z' && e->message[1] >= 'a' &&
	    e->message[1] <= 'z')
		e->message[0] = (char)(e->message[0] - 'A' + 'a');
}

/* The path of a field for messages: its scope's path plus the element
 * path below it, as matched. */
static void scope_path(const struct cl_iso20022 *p, enum cl_iso_field f, char *out, size_t cap)
{
	if (f >= F_HDR_FR_BIC)
		snprintf(out, cap, "/AppHdr");
	else if (f < F_PMT_INF_ID)
		snprintf(out, cap, "%s/GrpHdr", p->root_path);
	else if (f < F_INSTR_ID)
		snprintf(out, cap, "%s/PmtInf[%lu]", p->root_path, p->pmt_index);
	else if (p->kind == CL_ISO_PAIN001)
		snprintf(out, cap, "%s/PmtInf[%lu]/CdtTrfTxInf[%lu]", p->root_path, p->pmt_index,
			 p->tx_index);
	else
		snprintf(out, cap, "%s/%s[%lu]", p->root_path,
			 p->kind == CL_ISO_PACS004 ? "TxInf" : "CdtTrfTxInf", p->tx_index);
}

/* Path of field f (as seen) or of `rel` under its scope (when missing). */
static const char *field_path(const struct cl_iso20022 *p, enum cl_iso_field f, const char *rel,
			      char *out, size_t cap)
{
	size_t n;

	char below[CL_PATH_MAX];

	scope_path(p, f, out, cap);
	n = strlen(out);
	if (!rel && p->seen[f]) {
		cl_iso_node_path(p->paths, p->node_of[f], below, sizeof(below));
		rel = below;
	}
	if (rel && rel[0])
		snprintf(out + n, cap - n, "/%s", rel);
	return out;
}

static unsigned long field_line(const struct cl_iso20022 *p, enum cl_iso_field f,
				unsigned long fallback)
{
	return p->seen[f] ? p->line_of[f] : fallback;
}

/* ------------------------------------------------------------ reading */

static int io_read(void *ctx, char *buf, int len)
{
	struct cl_iso20022 *p = ctx;
	long n;
	size_t ok;

	if (p->guard.failed || p->io_failed || len <= 0)
		return 0; /* libxml2 sees the end; the guard's error is reported */
	n = cl_input_read(p->in, buf, (size_t)len, &p->io_err);
	if (n < 0) {
		p->io_failed = true;
		return -1;
	}
	ok = cl_iso_guard_scan(&p->guard, (const unsigned char *)buf, (size_t)n);
	return (int)ok;
}

static unsigned ph_hash(const void *k)
{
	uintptr_t x = (uintptr_t)k;

	x ^= x >> 11;
	x *= 0x9E3779B97F4A7C15ULL;
	return (unsigned)(x >> 40) & (PH_SIZE - 1);
}

static void ph_put(struct cl_iso20022 *p, const xmlChar *name, int tag)
{
	unsigned h = ph_hash(name);

	while (p->ph[h].name && p->ph[h].name != name)
		h = (h + 1) & (PH_SIZE - 1);
	p->ph[h].name = name;
	p->ph[h].tag = tag;
}

static int ph_get(const struct cl_iso20022 *p, const xmlChar *name)
{
	unsigned h = ph_hash(name);

	while (p->ph[h].name) {
		if (p->ph[h].name == name)
			return p->ph[h].tag;
		h = (h + 1) & (PH_SIZE - 1);
	}
	return -1;
}

static unsigned long node_line(struct cl_iso20022 *p)
{
	xmlNodePtr n = xmlTextReaderCurrentNode(p->reader);
	long l = n ? xmlGetLineNo(n) : 0;

	return l > 0 ? (unsigned long)l : 0;
}

static void reset_fields(struct cl_iso20022 *p, int from, int to)
{
	for (int f = from; f < to; f++) {
		p->val[f][0] = '\0';
		p->seen[f] = p->too_long[f] = false;
	}
}

/* ----------------------------------------------------- value helpers */

/* Copy a collected value into a record field; a value that does not fit
 * is a data error naming the limit. */
static void take(struct cl_iso20022 *p, enum cl_iso_field f, char *dst, size_t cap,
		 const char *what)
{
	char path[CL_PATH_MAX];

	if (!p->seen[f])
		return;
	if (p->too_long[f] || cl_copy(dst, cap, p->val[f]) != 0) {
		add_error(p, p->line_of[f], field_path(p, f, NULL, path, sizeof(path)),
			  "field_too_long", "%s longer than %zu characters", what, cap - 1);
		dst[0] = '\0';
	}
}

/* An agent: the BIC when given (checked), else the clearing member id. */
static void take_agent(struct cl_iso20022 *p, enum cl_iso_field bic, enum cl_iso_field mmb,
		       char *dst, const char *what)
{
	char path[CL_PATH_MAX];

	dst[0] = '\0';
	if (p->seen[bic] && (p->val[bic][0] || !p->seen[mmb])) {
		take(p, bic, dst, CL_AGENT_MAX, what);
		if (!p->too_long[bic] && !cl_iso_bic_shape(dst))
			add_error(p, p->line_of[bic], field_path(p, bic, NULL, path, sizeof(path)),
				  "bic_invalid",
				  "%s BIC \"%s\" is not a BIC: expected 8 or 11 characters "
				  "(4 alphanumeric, 2 letters country, 2 alphanumeric, "
				  "optional 3 alphanumeric branch)",
				  what, dst);
	} else if (p->seen[mmb]) {
		take(p, mmb, dst, CL_AGENT_MAX, what);
	}
}

/* An account: the IBAN when given (shape and check digits), else Othr/Id. */
static void take_account(struct cl_iso20022 *p, enum cl_iso_field iban, enum cl_iso_field othr,
			 char *dst, const char *what)
{
	char path[CL_PATH_MAX];

	dst[0] = '\0';
	if (p->seen[iban]) {
		take(p, iban, dst, CL_ACCOUNT_MAX, what);
		if (!cl_iso_iban_shape(dst))
			add_error(p, p->line_of[iban], field_path(p, iban, NULL, path, sizeof(path)),
				  "iban_invalid",
				  "%s IBAN \"%s\" is malformed: expected 2 letters, 2 check "
				  "digits and 11 to 30 letters or digits",
				  what, dst);
		else if (!cl_iso_iban_check(dst))
			add_error(p, p->line_of[iban], field_path(p, iban, NULL, path, sizeof(path)),
				  "iban_check",
				  "%s IBAN \"%s\" fails the check digits (ISO 13616 mod 97)", what,
				  dst);
	} else if (p->seen[othr]) {
		take(p, othr, dst, CL_ACCOUNT_MAX, what);
	}
}

static void take_date(struct cl_iso20022 *p, enum cl_iso_field f, char *dst, const char *what)
{
	char path[CL_PATH_MAX];

	if (!p->seen[f])
		return;
	if (!cl_iso_date(p->val[f])) {
		add_error(p, p->line_of[f], field_path(p, f, NULL, path, sizeof(path)),
			  "date_invalid", "%s \"%.40s\" is not a valid date: expected YYYY-MM-DD",
			  what, p->val[f]);
		return;
	}
	memcpy(dst, p->val[f], 10);
	dst[10] = '\0';
}

static void take_uuid(struct cl_iso20022 *p, enum cl_iso_field f, char dst[37], const char *what)
{
	char path[CL_PATH_MAX];

	if (!p->seen[f])
		return;
	if (!cl_iso_uuid4(p->val[f], dst)) {
		dst[0] = '\0';
		add_error(p, p->line_of[f], field_path(p, f, NULL, path, sizeof(path)),
			  "uetr_invalid",
			  "%s \"%.60s\" is not a version 4 UUID: expected "
			  "xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx",
			  what, p->val[f]);
	}
}

static void require(struct cl_iso20022 *p, enum cl_iso_field f, const char *rel,
		    unsigned long line)
{
	char path[CL_PATH_MAX];

	if (p->seen[f])
		return;
	add_error(p, line, field_path(p, f, rel, path, sizeof(path)), "missing_element",
		  "required element %s is missing", rel);
}

/* ------------------------------------------------- scope end checks */

/* NbOfTxs (Max15NumericText) and CtrlSum against what was counted. */
static void check_totals(struct cl_iso20022 *p, enum cl_iso_field nb, enum cl_iso_field ctrl,
			 unsigned long count, const struct cl_iso_dec *sum, bool sum_unknown,
			 const char *scope)
{
	char path[CL_PATH_MAX];

	if (p->seen[nb]) {
		const char *s = p->val[nb];
		unsigned long long v = 0;
		size_t n = strlen(s);
		bool ok = n > 0 && n <= 15;

		for (size_t i = 0; ok && i < n; i++) {
			if (s[i] < '0' || s[i] > '9')
				ok = false;
			else
				v = v * 10 + (unsigned)(s[i] - '0');
		}
		if (!ok)
			add_error(p, p->line_of[nb], field_path(p, nb, NULL, path, sizeof(path)),
				  "nb_of_txs",
				  "%s NbOfTxs \"%.40s\" is not a number: expected 1 to 15 digits",
				  scope, s);
		else if (v != count)
			add_error(p, p->line_of[nb], field_path(p, nb, NULL, path, sizeof(path)),
				  "nb_of_txs",
				  "%s NbOfTxs says %llu transaction%s, the message has %lu", scope,
				  v, v == 1 ? "" : "s", count);
	}
	if (p->seen[ctrl] && !sum_unknown) {
		struct cl_iso_dec want;
		char a[48], b[48];

		if (cl_iso_dec_parse(p->val[ctrl], &want) != 0) {
			add_error(p, p->line_of[ctrl], field_path(p, ctrl, NULL, path, sizeof(path)),
				  "ctrl_sum",
				  "%s CtrlSum \"%.40s\" is not a decimal number: expected up to 18 "
				  "digits, 17 after the point",
				  scope, p->val[ctrl]);
		} else if (!cl_iso_dec_equal(&want, sum)) {
			cl_iso_dec_format(&want, a, sizeof(a));
			cl_iso_dec_format(sum, b, sizeof(b));
			add_error(p, p->line_of[ctrl], field_path(p, ctrl, NULL, path, sizeof(path)),
				  "ctrl_sum",
				  "%s CtrlSum says %s, the transaction amounts add up to %s", scope,
				  a, b);
		}
	}
}

/* File information fields are descriptive: cut to fit, never an error. */
static void info_copy(char *dst, size_t cap, const char *src)
{
	size_t n = strnlen(src, cap - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void copy_info_agent(char *dst, size_t cap, const char *bic, const char *mmb)
{
	info_copy(dst, cap, bic[0] ? bic : mmb);
}

static void grphdr_end(struct cl_iso20022 *p)
{
	char path[CL_PATH_MAX];

	require(p, F_MSG_ID, "MsgId", p->grp_line);
	require(p, F_CRE_DT_TM, "CreDtTm", p->grp_line);
	require(p, F_GRP_NB_OF_TXS, "NbOfTxs", p->grp_line);
	if (p->seen[F_MSG_ID] && cl_iso_id_unusable(p->val[F_MSG_ID]))
		add_error(p, p->line_of[F_MSG_ID], field_path(p, F_MSG_ID, NULL, path, sizeof(path)),
			  "missing_element", "MsgId is empty");
	if (p->seen[F_CRE_DT_TM] && !cl_iso_datetime(p->val[F_CRE_DT_TM]))
		add_error(p, p->line_of[F_CRE_DT_TM],
			  field_path(p, F_CRE_DT_TM, NULL, path, sizeof(path)), "datetime_invalid",
			  "CreDtTm \"%.40s\" is not a valid date and time: expected "
			  "YYYY-MM-DDThh:mm:ss with an optional fraction and zone",
			  p->val[F_CRE_DT_TM]);
	info_copy(p->info.file_id, sizeof(p->info.file_id), p->val[F_MSG_ID]);
	info_copy(p->info.created, sizeof(p->info.created), p->val[F_CRE_DT_TM]);
	if (p->kind == CL_ISO_PAIN001)
		info_copy(p->info.sender, sizeof(p->info.sender),
			  p->val[F_INITG_ID][0] ? p->val[F_INITG_ID] : p->val[F_INITG_NM]);
	else
		copy_info_agent(p->info.sender, sizeof(p->info.sender), p->val[F_GRP_INSTG_BIC],
				p->val[F_GRP_INSTG_MMB]);
	copy_info_agent(p->info.receiver, sizeof(p->info.receiver), p->val[F_GRP_INSTD_BIC],
			p->val[F_GRP_INSTD_MMB]);
	if (!p->info.sender[0])
		copy_info_agent(p->info.sender, sizeof(p->info.sender), p->val[F_HDR_FR_BIC],
				p->val[F_HDR_FR_MMB]);
	if (!p->info.receiver[0])
		copy_info_agent(p->info.receiver, sizeof(p->info.receiver), p->val[F_HDR_TO_BIC],
				p->val[F_HDR_TO_MMB]);
}

static void pmtinf_end(struct cl_iso20022 *p)
{
	char scope[48];

	require(p, F_PMT_INF_ID, "PmtInfId", p->pmt_line);
	snprintf(scope, sizeof(scope), "PmtInf %lu", p->pmt_index);
	check_totals(p, F_PMT_NB_OF_TXS, F_PMT_CTRL_SUM, p->pmt_count, &p->pmt_sum,
		     p->pmt_sum_unknown, scope);
}

static void root_end(struct cl_iso20022 *p)
{
	check_totals(p, F_GRP_NB_OF_TXS, F_GRP_CTRL_SUM, p->grp_count, &p->grp_sum,
		     p->grp_sum_unknown, "group header");
}

/* ------------------------------------------------------ transactions */

static void tx_amount(struct cl_iso20022 *p, struct cl_record *rec, bool *ok)
{
	static const char *const names[] = {
		[CL_ISO_PAIN001] = "Amt/InstdAmt",
		[CL_ISO_PACS008] = "IntrBkSttlmAmt",
		[CL_ISO_PACS009] = "IntrBkSttlmAmt",
		[CL_ISO_PACS004] = "RtrdIntrBkSttlmAmt",
	};
	char path[CL_PATH_MAX];
	int exp;
	unsigned long line = field_line(p, F_AMT, p->tx_line);

	*ok = false;
	if (!p->seen[F_AMT]) {
		require(p, F_AMT, names[p->kind], p->tx_line);
		return;
	}
	field_path(p, F_AMT, NULL, path, sizeof(path));
	if (!cl_iso_ccy_shape(p->amt_ccy)) {
		add_error(p, line, path, "currency_invalid",
			  "currency \"%.10s\" is not an ISO 4217 code: expected three uppercase "
			  "letters in the Ccy attribute",
			  p->amt_ccy);
		return;
	}
	memcpy(rec->currency, p->amt_ccy, 4);
	exp = cl_iso_ccy_exponent(p->amt_ccy);
	if (exp == -1) {
		add_error(p, line, path, "currency_unknown",
			  "currency \"%s\" is not an ISO 4217 currency", p->amt_ccy);
		return;
	}
	if (exp == -2) {
		add_error(p, line, path, "currency_unknown",
			  "currency \"%s\" has no minor unit (a commodity or special code): "
			  "expected a currency",
			  p->amt_ccy);
		return;
	}
	switch (cl_iso_amount_parse(p->val[F_AMT], exp, &rec->amount_minor)) {
	case CL_ISO_AMT_OK:
		*ok = true;
		cl_iso_dec_add_minor(&p->grp_sum, rec->amount_minor, exp);
		cl_iso_dec_add_minor(&p->pmt_sum, rec->amount_minor, exp);
		return;
	case CL_ISO_AMT_SYNTAX:
		add_error(p, line, path, "amount_invalid",
			  "amount \"%.40s\" is not a decimal number: expected digits with an "
			  "optional point, no sign",
			  p->val[F_AMT]);
		break;
	case CL_ISO_AMT_DECIMALS:
		add_error(p, line, path, "amount_decimals",
			  "amount \"%.40s\" has more decimals than %s allows (%d)", p->val[F_AMT],
			  rec->currency, exp);
		break;
	case CL_ISO_AMT_OVERFLOW:
		add_error(p, line, path, "amount_overflow",
			  "amount \"%.40s\" %s is too large: at most %lld minor units",
			  p->val[F_AMT], rec->currency, (long long)INT64_MAX);
		break;
	}
}

static void tx_end(struct cl_iso20022 *p)
{
	struct cl_record *rec = &p->rec;
	struct cl_iso_extra *x = &p->extra;
	bool pain = p->kind == CL_ISO_PAIN001, amount_ok;
	char why[200], path[CL_PATH_MAX];
	int q_before = p->q_len;

	cl_record_clear(rec);
	rec->scheme = "iso20022";
	rec->kind = cl_iso_kind_name(p->kind);
	rec->key_rule = CL_KEY_RULE_V1;
	rec->position = p->tx_line;
	rec->ordinal = p->ordinal;
	rec->direction = CL_DIR_CREDIT;
	memcpy(rec->message_type, p->msg_type, sizeof(rec->message_type));
	memset(x, 0, sizeof(*x));
	x->kind = p->kind;
	x->positional_keys = p->opts.positional_keys;

	/* identifiers */
	take(p, F_MSG_ID, rec->msg_id, CL_ID_MAX, "MsgId");
	take(p, F_INSTR_ID, rec->instr_id, CL_ID_MAX, "InstrId");
	take(p, F_E2E_ID, rec->end_to_end_id, CL_ID_MAX, "EndToEndId");
	take(p, F_TX_ID, rec->tx_id, CL_ID_MAX, "TxId");
	take_uuid(p, F_UETR, rec->uetr, "UETR");
	take(p, F_INITG_ID, rec->initiating_party_id, CL_ID_MAX, "initiating party id");
	if (pain) {
		take(p, F_PMT_INF_ID, rec->pmt_inf_id, CL_ID_MAX, "PmtInfId");
		require(p, F_E2E_ID, "PmtId/EndToEndId", p->tx_line);
	} else if (p->kind != CL_ISO_PACS004) {
		require(p, F_E2E_ID, "PmtId/EndToEndId", p->tx_line);
	} else {
		take(p, F_RTR_ID, rec->rtr_id, CL_ID_MAX, "RtrId");
		take_uuid(p, F_ORGNL_UETR, rec->orgnl_uetr, "OrgnlUETR");
		take(p, F_ORGNL_E2E_ID, rec->orgnl_end_to_end_id, CL_ID_MAX, "OrgnlEndToEndId");
		take(p, F_ORGNL_TX_ID, rec->orgnl_tx_id, CL_ID_MAX, "OrgnlTxId");
		if (p->seen[F_ORGNL_MSG_ID])
			take(p, F_ORGNL_MSG_ID, rec->orgnl_msg_id, CL_ID_MAX, "OrgnlMsgId");
		else
			take(p, F_GRP_ORGNL_MSG_ID, rec->orgnl_msg_id, CL_ID_MAX, "OrgnlMsgId");
		if (p->seen[F_RSN_CD])
			take(p, F_RSN_CD, rec->reason_code, sizeof(rec->reason_code),
			     "return reason code");
		else
			take(p, F_RSN_PRTRY, rec->reason_code, sizeof(rec->reason_code),
			     "proprietary return reason");
	}

	/* money and date */
	tx_amount(p, rec, &amount_ok);
	if (!amount_ok)
		p->grp_sum_unknown = p->pmt_sum_unknown = true;
	if (pain) {
		if (p->seen[F_REQD_EXCTN_DT])
			take_date(p, F_REQD_EXCTN_DT, rec->value_date, "ReqdExctnDt");
		else if (p->seen[F_REQD_EXCTN_DTTM])
			take_date(p, F_REQD_EXCTN_DTTM, rec->value_date, "ReqdExctnDt/DtTm");
		else
			require(p, F_REQD_EXCTN_DT, "ReqdExctnDt", p->pmt_line);
	} else if (p->seen[F_TX_STTLM_DT]) {
		take_date(p, F_TX_STTLM_DT, rec->value_date, "IntrBkSttlmDt");
	} else {
		take_date(p, F_GRP_STTLM_DT, rec->value_date, "IntrBkSttlmDt");
	}

	/* parties */
	if (pain) {
		take(p, F_PMT_DBTR_NM, rec->debtor_name, CL_NAME_MAX, "debtor name");
		take_account(p, F_PMT_DBTR_IBAN, F_PMT_DBTR_OTHR, rec->debtor_account,
			     "debtor account");
		if (!p->seen[F_PMT_DBTR_IBAN] && !p->seen[F_PMT_DBTR_OTHR])
			require(p, F_PMT_DBTR_IBAN, "DbtrAcct/Id", p->pmt_line);
		take_agent(p, F_PMT_DBTR_AGT_BIC, F_PMT_DBTR_AGT_MMB, rec->debtor_agent,
			   "debtor agent");
	} else {
		take(p, F_DBTR_NM, rec->debtor_name, CL_NAME_MAX, "debtor name");
		take_account(p, F_DBTR_IBAN, F_DBTR_OTHR, rec->debtor_account, "debtor account");
		take_agent(p, F_DBTR_AGT_BIC, F_DBTR_AGT_MMB, rec->debtor_agent, "debtor agent");
	}
	take(p, F_CDTR_NM, rec->creditor_name, CL_NAME_MAX, "creditor name");
	take_account(p, F_CDTR_IBAN, F_CDTR_OTHR, rec->creditor_account, "creditor account");
	take_agent(p, F_CDTR_AGT_BIC, F_CDTR_AGT_MMB, rec->creditor_agent, "creditor agent");
	if (p->kind == CL_ISO_PACS009) {
		take_agent(p, F_DBTR_FI_BIC, F_NONE, x->debtor_fi, "debtor institution");
		take_agent(p, F_CDTR_FI_BIC, F_NONE, x->creditor_fi, "creditor institution");
		if (!rec->debtor_name[0])
			snprintf(rec->debtor_name, sizeof(rec->debtor_name), "%s", x->debtor_fi);
		if (!rec->creditor_name[0])
			snprintf(rec->creditor_name, sizeof(rec->creditor_name), "%s",
				 x->creditor_fi);
	}
	take(p, F_USTRD, rec->remittance_text, CL_NAME_MAX, "remittance information");

	/* the hop: transaction, else group header, else AppHdr */
	take_agent(p, F_TX_INSTG_BIC, F_TX_INSTG_MMB, rec->instructing_agent,
		   "instructing agent");
	if (!rec->instructing_agent[0])
		take_agent(p, F_GRP_INSTG_BIC, F_GRP_INSTG_MMB, rec->instructing_agent,
			   "instructing agent");
	if (!rec->instructing_agent[0])
		take_agent(p, F_HDR_FR_BIC, F_HDR_FR_MMB, rec->instructing_agent,
			   "AppHdr sender");
	take_agent(p, F_TX_INSTD_BIC, F_TX_INSTD_MMB, rec->instructed_agent, "instructed agent");
	if (!rec->instructed_agent[0])
		take_agent(p, F_GRP_INSTD_BIC, F_GRP_INSTD_MMB, rec->instructed_agent,
			   "instructed agent");
	if (!rec->instructed_agent[0])
		take_agent(p, F_HDR_TO_BIC, F_HDR_TO_MMB, rec->instructed_agent, "AppHdr receiver");

	/* key and fingerprint */
	if (!cl_iso_make_key(rec, x, why, sizeof(why))) {
		scope_path(p, F_INSTR_ID, path, sizeof(path));
		add_error(p, p->tx_line, path, "no_key", "transaction has no natural key: %s", why);
	}
	if (!pain && !p->info.sender[0])
		info_copy(p->info.sender, sizeof(p->info.sender), rec->instructing_agent);
	if (!pain && !p->info.receiver[0])
		info_copy(p->info.receiver, sizeof(p->info.receiver), rec->instructed_agent);
	cl_iso_fingerprint(p->fp, rec, x);
	if (amount_ok && p->info.total_credit_minor <= INT64_MAX - rec->amount_minor)
		p->info.total_credit_minor += rec->amount_minor;
	/* a record without a key cannot be loaded or compared: only its
	 * errors are handed out */
	if (rec->natural_key[0]) {
		p->rec_ready = true;
		p->info.records++;
	}
	(void)q_before;
}

/* ------------------------------------------------------ element events */

static bool document_start(struct cl_iso20022 *p, unsigned long line)
{
	const xmlChar *ns = xmlTextReaderConstNamespaceUri(p->reader);
	const char *nss = ns ? (const char *)ns : "";

	if (p->doc_seen) {
		add_fatal(p, line, "multiple_documents",
			  "a second Document element: one message per file is supported");
		return false;
	}
	p->doc_seen = true;
	switch (cl_iso_ns_parse(nss, &p->kind, p->msg_type, sizeof(p->msg_type))) {
	case CL_ISO_NS_OK:
		snprintf(p->info.message_type, sizeof(p->info.message_type), "%s", p->msg_type);
		return true;
	case CL_ISO_NS_FOREIGN:
		add_fatal(p, line, "xml_namespace",
			  "Document namespace %s%.120s%s is not an ISO 20022 message namespace: "
			  "expected %s",
			  ns ? "\"" : "", ns ? nss : "(none)", ns ? "\"" : "", cl_iso_ns_supported());
		return false;
	case CL_ISO_NS_UNSUPPORTED:
		add_fatal(p, line, "unsupported_message",
			  "unsupported message type %s: clearing-load reads pain.001, pacs.008, "
			  "pacs.009 and pacs.004",
			  p->msg_type);
		return false;
	case CL_ISO_NS_VERSION:
		add_fatal(p, line, "unsupported_version",
			  "unsupported message version %s: expected %s", p->msg_type,
			  cl_iso_ns_supported());
		return false;
	}
	return false;
}

static void event_start(struct cl_iso20022 *p, int ev, unsigned long line, const char *name)
{
	static const enum cl_iso_kind root_kind[] = {
		[EV_ROOT_PAIN001] = CL_ISO_PAIN001,
		[EV_ROOT_PACS008] = CL_ISO_PACS008,
		[EV_ROOT_PACS009] = CL_ISO_PACS009,
		[EV_ROOT_PACS004] = CL_ISO_PACS004,
	};

	switch (ev) {
	case EV_ROOT_PAIN001:
	case EV_ROOT_PACS008:
	case EV_ROOT_PACS009:
	case EV_ROOT_PACS004:
		if (root_kind[ev] != p->kind) {
			add_fatal(p, line, "unexpected_element",
				  "element <%s> under Document: a %s message has <%s>", name,
				  p->msg_type, cl_iso_kind_root(p->kind));
			return;
		}
		snprintf(p->root_path, sizeof(p->root_path), "%s/%s",
			 p->doc_virtual ? "" : "/Document", name);
		break;
	case EV_GRPHDR:
		p->grp_line = line;
		break;
	case EV_PMTINF:
		p->pmt_index++;
		p->pmt_line = line;
		p->tx_index = 0;
		p->pmt_count = 0;
		memset(&p->pmt_sum, 0, sizeof(p->pmt_sum));
		p->pmt_sum_unknown = false;
		reset_fields(p, F_PMT_INF_ID, F_INSTR_ID);
		break;
	case EV_TX:
		p->tx_index++;
		p->ordinal++;
		p->grp_count++;
		p->pmt_count++;
		p->tx_line = line;
		p->amt_ccy[0] = '\0';
		reset_fields(p, F_INSTR_ID, F_HDR_FR_BIC);
		break;
	default:
		break;
	}
}

static void event_end(struct cl_iso20022 *p, int ev)
{
	switch (ev) {
	case EV_ROOT_PAIN001:
	case EV_ROOT_PACS008:
	case EV_ROOT_PACS009:
	case EV_ROOT_PACS004:
		root_end(p);
		break;
	case EV_GRPHDR:
		grphdr_end(p);
		break;
	case EV_PMTINF:
		pmtinf_end(p);
		break;
	case EV_TX:
		tx_end(p);
		break;
	default:
		break;
	}
}

static void field_end(struct cl_iso20022 *p)
{
	int f = p->cur_field;
	char *s = p->text;
	size_t n = p->text_len;

	p->cur_field = F_NONE;
	if (p->seen[f])
		return; /* the first occurrence wins (first Ustrd, ...) */
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' ||
			 s[n - 1] == '\n'))
		n--;
	while (n > 0 && (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')) {
		s++;
		n--;
	}
	p->seen[f] = true;
	p->line_of[f] = p->cur_line;
	p->node_of[f] = (int16_t)p->cur_node;
	if (p->text_over || n >= sizeof(p->val[f])) {
		p->too_long[f] = true;
		p->val[f][0] = '\0';
	} else {
		memcpy(p->val[f], s, n);
		p->val[f][n] = '\0';
	}
	if (f == F_AMT)
		memcpy(p->amt_ccy, p->cur_ccy, sizeof(p->amt_ccy));
}

static void element_start(struct cl_iso20022 *p)
{
	xmlTextReaderPtr r = p->reader;
	int depth = xmlTextReaderDepth(r);
	const xmlChar *name = xmlTextReaderConstLocalName(r);
	bool empty = xmlTextReaderIsEmptyElement(r) == 1;
	int node = -1, parent = depth > 0 ? p->stack[depth - 1] : -1;
	const struct cl_iso_node *n;

	if (depth == 0) {
		p->root_opened = true;
		p->root_closed = empty;
	}
	if (depth < 0 || depth >= CL_ISO_MAX_DEPTH) {
		add_fatal(p, node_line(p), "xml_depth",
			  "elements nested deeper than the limit of %d levels", CL_ISO_MAX_DEPTH);
		return;
	}
	if (parent >= 0) {
		int tag = ph_get(p, name);

		node = tag >= 0 ? p->paths->node[parent].child[tag] : -1;
		if (node < 0 && parent == CL_ISO_DOC) {
			add_fatal(p, node_line(p), "unexpected_element",
				  "element <%s> under Document: a %s message has <%s>",
				  (const char *)name, p->msg_type, cl_iso_kind_root(p->kind));
			return;
		}
	} else if (p->doc_depth < 0 && p->hdr_depth < 0) {
		if (name == p->name_document) {
			if (!document_start(p, node_line(p)))
				return;
			node = CL_ISO_DOC;
			p->doc_depth = depth;
		} else if (name == p->name_apphdr && !p->doc_seen) {
			node = CL_ISO_HDR;
			p->hdr_depth = depth;
		} else {
			/* a message root without its Document (TCH RTP wraps
			 * FIToFICstmrCdtTrf directly): the root's namespace
			 * tells the message */
			int tag = ph_get(p, name);
			int root = tag >= 0 ? p->paths->node[CL_ISO_DOC].child[tag] : -1;

			if (root >= 0 && p->paths->node[root].event != EV_NONE) {
				if (!document_start(p, node_line(p)))
					return;
				p->doc_virtual = true;
				p->doc_depth = depth;
				node = root;
			}
		}
	}
	p->stack[depth] = (int16_t)node;
	if (node < 0)
		return;
	n = &p->paths->node[node];
	if (n->event || n->field) {
		unsigned long line = node_line(p);

		if (n->event)
			event_start(p, n->event, line, (const char *)name);
		if (n->field) {
			p->cur_field = n->field;
			p->cur_node = node;
			p->field_depth = depth;
			p->cur_line = line;
			p->text_len = 0;
			p->text_over = false;
			p->cur_ccy[0] = '\0';
			if (n->amount && xmlTextReaderMoveToAttribute(r, BAD_CAST "Ccy") == 1) {
				const xmlChar *v = xmlTextReaderConstValue(r);

				snprintf(p->cur_ccy, sizeof(p->cur_ccy), "%s",
					 v ? (const char *)v : "");
				xmlTextReaderMoveToElement(r);
			}
		}
	}
	if (empty && !p->fatal) {
		if (n->field)
			field_end(p);
		if (n->event)
			event_end(p, n->event);
		if (depth == p->doc_depth)
			p->doc_depth = -1;
		if (depth == p->hdr_depth)
			p->hdr_depth = -1;
	}
}

static void element_end(struct cl_iso20022 *p)
{
	int depth = xmlTextReaderDepth(p->reader);
	int node;
	const struct cl_iso_node *n;

	if (depth == 0)
		p->root_closed = true;
	if (depth < 0 || depth > CL_ISO_MAX_DEPTH)
		return;
	node = p->stack[depth];
	if (node < 0)
		return;
	n = &p->paths->node[node];
	if (n->field && p->cur_field != F_NONE && depth == p->field_depth)
		field_end(p);
	if (n->event)
		event_end(p, n->event);
	if (depth == p->doc_depth)
		p->doc_depth = -1;
	if (depth == p->hdr_depth)
		p->hdr_depth = -1;
}

static void text_node(struct cl_iso20022 *p)
{
	const xmlChar *v;
	size_t n;

	if (p->cur_field == F_NONE || xmlTextReaderDepth(p->reader) != p->field_depth + 1)
		return;
	v = xmlTextReaderConstValue(p->reader);
	if (!v)
		return;
	n = strlen((const char *)v);
	if (p->text_len + n >= sizeof(p->text)) {
		p->text_over = true;
		return;
	}
	memcpy(p->text + p->text_len, v, n);
	p->text_len += n;
}

/* ---------------------------------------------------------- lifecycle */

static void schema_error(void *ctx, xmlErrorPtr xe)
{
	struct cl_iso20022 *p = ctx;
	size_t n;

	if (!xe || xe->level == XML_ERR_WARNING || p->schema_msg[0])
		return;
	snprintf(p->schema_msg, sizeof(p->schema_msg), "%s", xe->message ? xe->message : "error");
	n = strlen(p->schema_msg);
	while (n > 0 && p->schema_msg[n - 1] == '\n')
		p->schema_msg[--n] = '\0';
}

static void schema_doc_error(void *ctx, xmlErrorPtr xe)
{
	xmlParserCtxtPtr c = ctx;

	schema_error(c->_private, xe);
}

/* --schema: parse the XSD with our own error handler (libxml2 would print
 * otherwise) and validate while streaming. */
static void load_schema(struct cl_iso20022 *p)
{
	const char *path = p->opts.schema_path;
	xmlSchemaParserCtxtPtr pc;
	xmlParserCtxtPtr pctxt;
	FILE *f = fopen(path, "r");

	if (!f) {
		add_fatal(p, 0, "xml_schema", "could not open the XML schema \"%s\": %s", path,
			  strerror(errno));
		return;
	}
	fclose(f);
	/* the XSD document itself is read like any input: no network, no
	 * entities, errors to us */
	pctxt = xmlNewParserCtxt();
	if (!pctxt)
		(void)cl_xmalloc(SIZE_MAX); /* exits: out of memory */
	pctxt->_private = p;
	pctxt->sax->serror = schema_doc_error;
	p->schema_doc = xmlCtxtReadFile(pctxt, path, NULL, XML_PARSE_NONET);
	xmlFreeParserCtxt(pctxt);
	pc = p->schema_doc ? xmlSchemaNewDocParserCtxt(p->schema_doc) : NULL;
	if (pc) {
		xmlSchemaSetParserStructuredErrors(pc, schema_error, p);
		p->schema = xmlSchemaParse(pc);
		xmlSchemaFreeParserCtxt(pc);
	}
	if (!p->schema || xmlTextReaderSetSchema(p->reader, p->schema) != 0)
		add_fatal(p, 0, "xml_schema", "could not load the XML schema \"%s\": %s", path,
			  p->schema_msg[0] ? p->schema_msg : "not a usable XSD");
}

static void start(struct cl_iso20022 *p)
{
	const unsigned char *head;
	size_t len;
	char code[CL_CODE_MAX], msg[200];
	struct cl_error err;

	p->started = true;
	if (cl_input_peek(p->in, &head, &len, &err) != CL_OK) {
		p->io_failed = true;
		p->io_err = err;
		p->finished = true;
		return;
	}
	if (len == 0) {
		add_fatal(p, 0, "empty_file", "file is empty: expected an ISO 20022 XML document");
		return;
	}
	if (!cl_iso_check_encoding(head, len, code, msg, sizeof(msg))) {
		add_fatal(p, 1, code, "%s", msg);
		return;
	}
	p->reader = xmlReaderForIO(io_read, NULL, p, p->name, NULL,
				   XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOBLANKS |
				   XML_PARSE_COMPACT);
	if (!p->reader) {
		if (p->io_failed) {
			p->finished = true;
			return;
		}
		add_fatal(p, 1, "xml_malformed", "could not start the XML reader");
		return;
	}
	xmlTextReaderSetStructuredErrorHandler(p->reader, xml_error, p);
	for (int t = 0; t < p->paths->tags; t++)
		ph_put(p, xmlTextReaderConstString(p->reader, BAD_CAST p->paths->tag_name[t]), t);
	p->name_document = xmlTextReaderConstString(p->reader, BAD_CAST "Document");
	p->name_apphdr = xmlTextReaderConstString(p->reader, BAD_CAST "AppHdr");
	if (p->opts.schema_path)
		load_schema(p);
}

/* Did libxml2 fail because the input ended inside the document?  Its
 * messages for that ("extra content at the end of the document", "couldn't
 * find end of start tag") mislead, so such an error on the last line of
 * the input becomes xml_truncated.  Up to 1 MiB more is read to know where
 * the input ends, whatever libxml2 had read ahead. */
static bool truncated(struct cl_iso20022 *p)
{
	char rest[4096];
	size_t drained = 0;
	int n = 0;

	if (p->root_closed)
		return false; /* extra content after the end, not a cut */
	switch (p->xml_fatal_code) {
	case XML_ERR_DOCUMENT_END:
		/* libxml2's word for "ended inside the root element", and for
		 * content that is no element at all ("<<<") */
		if (!p->root_opened)
			return false;
		break;
	case XML_ERR_GT_REQUIRED:
	case XML_ERR_LTSLASH_REQUIRED:
	case XML_ERR_TAG_NOT_FINISHED:
	case XML_ERR_ATTRIBUTE_NOT_FINISHED:
	case XML_ERR_ATTRIBUTE_NOT_STARTED:
	case XML_ERR_ATTRIBUTE_WITHOUT_VALUE:
	case XML_ERR_STRING_NOT_CLOSED:
	case XML_ERR_STRING_NOT_STARTED:
	case XML_ERR_COMMENT_NOT_FINISHED:
	case XML_ERR_CDATA_NOT_FINISHED:
	case XML_ERR_PI_NOT_FINISHED:
		break;
	default:
		return false;
	}
	while (drained < 1024 * 1024 && (n = io_read(p, rest, (int)sizeof(rest))) > 0)
		drained += (size_t)n;
	return n == 0 && !p->io_failed && !p->guard.failed &&
	       p->xml_fatal.line >= p->guard.line - (p->guard.last_nl ? 1 : 0);
}

static void truncated_message(struct cl_error *e)
{
	char why[CL_MSGTEXT_MAX];

	snprintf(why, sizeof(why), "%s", e->message);
	snprintf(e->code, sizeof(e->code), "xml_truncated");
	snprintf(e->message, sizeof(e->message),
		 "file ends inside the document (truncated?): expected the rest of the "
		 "message, found the end of the file (%.400s)",
		 why);
}

/* The end of the input: report what the guard or libxml2 found, then the
 * checks that need the whole document. */
static void finish(struct cl_iso20022 *p, bool xml_failed)
{
	struct cl_iso_guard *g = &p->guard;

	p->finished = true;
	if (p->io_failed)
		return;
	if (g->failed && (!p->xml_fatal_set || p->xml_fatal.line > g->fail_line ||
			  (p->xml_fatal.line == g->fail_line && p->xml_fatal.column >= g->fail_col))) {
		struct cl_error *e = queue_slot(p);

		cl_error_set(e, p->name, g->fail_line, g->code, "%s", g->message);
		e->column = g->fail_col;
		p->fatal = true;
		return;
	}
	if (xml_failed || p->xml_fatal_set) {
		struct cl_error *e = queue_slot(p);

		if (p->xml_fatal_set)
			*e = p->xml_fatal;
		else
			cl_error_set(e, p->name, cl_iso_guard_lines(g), "xml_malformed",
				     "the XML reader stopped");
		if (p->xml_fatal_set && truncated(p))
			truncated_message(e);
		p->fatal = true;
		return;
	}
	/* read what libxml2 left (trailing blanks), so the line count and the
	 * input's SHA-256 are complete */
	for (;;) {
		char rest[4096];

		if (io_read(p, rest, (int)sizeof(rest)) <= 0)
			break;
	}
	if (g->failed) {
		struct cl_error *e = queue_slot(p);

		cl_error_set(e, p->name, g->fail_line, g->code, "%s", g->message);
		e->column = g->fail_col;
		p->fatal = true;
		return;
	}
	if (p->io_failed)
		return;
	if (!p->doc_seen)
		add_error(p, 0, "", "no_document",
			  "no ISO 20022 Document element found: expected <Document> (alone or "
			  "beside an AppHdr in an envelope)");
}

static void pump(struct cl_iso20022 *p)
{
	if (!p->started)
		start(p);
	while (!p->finished && p->q_len == 0 && !p->rec_ready) {
		int r = xmlTextReaderRead(p->reader);

		if (r != 1) {
			finish(p, r < 0);
			break;
		}
		switch (xmlTextReaderNodeType(p->reader)) {
		case XML_READER_TYPE_ELEMENT:
			element_start(p);
			break;
		case XML_READER_TYPE_END_ELEMENT:
			element_end(p);
			break;
		case XML_READER_TYPE_TEXT:
		case XML_READER_TYPE_CDATA:
		case XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
		case XML_READER_TYPE_WHITESPACE:
			text_node(p);
			break;
		case XML_READER_TYPE_DOCUMENT_TYPE:
			/* the guard stops these first; kept as a second line */
			add_fatal(p, node_line(p), "xml_doctype",
				  "document type declaration (<!DOCTYPE ...>) not allowed");
			break;
		default:
			break;
		}
	}
	if (p->finished && !p->fatal) {
		/* libxml2's non-fatal errors (namespaces, schema) last, in order */
		for (int i = 0; i < p->deferred_len && p->q_len < QUEUE_MAX; i++)
			*queue_slot(p) = p->deferred[i];
		p->deferred_len = 0;
	}
	p->info.lines = cl_iso_guard_lines(&p->guard);
}

struct cl_iso20022 *cl_iso20022_new(struct cl_input *in, const struct cl_parse_opts *opts)
{
	struct cl_iso20022 *p = cl_xcalloc(1, sizeof(*p));

	xmlInitParser(); /* idempotent; global state set up once */
	p->in = in;
	p->name = cl_input_name(in);
	if (opts)
		p->opts = *opts;
	if (p->opts.max_errors == 0)
		p->opts.max_errors = 100;
	p->paths = cl_iso_paths();
	p->fp = cl_fp_new();
	cl_iso_guard_init(&p->guard);
	p->doc_depth = p->hdr_depth = -1;
	p->cur_field = F_NONE;
	p->info.format = CL_FORMAT_ISO20022;
	snprintf(p->info.format_name, sizeof(p->info.format_name), "iso20022");
	return p;
}

enum cl_status cl_iso20022_next(struct cl_iso20022 *p, const struct cl_record **rec,
				struct cl_error *err)
{
	*rec = NULL;
	if (p->stopped)
		return CL_END;
	if (p->q_len == 0 && !p->rec_ready && !p->finished)
		pump(p);
	if (p->q_len > 0) {
		*err = p->queue[p->q_head];
		p->q_head = (p->q_head + 1) % QUEUE_MAX;
		p->q_len--;
		if (++p->errors_returned >= p->opts.max_errors)
			p->stopped = true;
		return CL_INVALID;
	}
	if (p->rec_ready) {
		p->rec_ready = false;
		*rec = &p->rec;
		return CL_OK;
	}
	if (p->io_failed) {
		*err = p->io_err;
		p->stopped = true;
		return CL_IO;
	}
	p->stopped = true;
	return CL_END;
}

const struct cl_file_info *cl_iso20022_info(const struct cl_iso20022 *p)
{
	return &p->info;
}

void cl_iso20022_free(struct cl_iso20022 *p)
{
	if (!p)
		return;
	if (p->reader)
		xmlFreeTextReader(p->reader);
	if (p->schema)
		xmlSchemaFree(p->schema);
	if (p->schema_doc)
		xmlFreeDoc(p->schema_doc);
	cl_fp_free(p->fp);
	free(p);
}
