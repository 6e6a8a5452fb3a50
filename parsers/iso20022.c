/*
 * iso20022.c - the clearing messages' plug into the one XML engine
 * (xml_engine.c: input, byte guard, libxml2's SAX2 push parser): element
 * paths matched through the trie of iso20022_paths.c, one struct cl_record
 * per transaction (iso20022_record.c); xml_message.c drives it as the ISO
 * 20022 row of the table of formats (format.h).
 *
 * libxml2 builds no tree (no node is allocated per element) and sees the
 * input in fixed CL_ISO_FEED pieces, so everything it reports, and the
 * order of records and errors, is the same however the input is chunked.
 * Memory is constant: the open elements, fixed-capacity values, and two
 * bounded queues (a piece of CL_ISO_FEED bytes cannot complete more
 * transactions than the queues hold).
 */
#include "parsers/iso20022.h"

#include <errno.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlschemas.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "base/xmalloc.h"
#include "parsers/format.h"
#include "parsers/iso20022_internal.h"
#include "parsers/xml_engine.h"
#include "rules/fingerprint.h"

/* ---------------------------------------------------------------- queues */

void cl_iso_add_fatal(struct cl_iso20022 *p, unsigned long line, const char *code,
		      const char *fmt, ...)
{
	va_list ap;

	cl_xml_stop(p->x); /* no more callbacks */
	va_start(ap, fmt);
	cl_outq_verror(&p->q, false, line, code, fmt, ap);
	va_end(ap);
}

struct cl_record *cl_iso_record_slot(struct cl_iso20022 *p)
{
	int i = cl_outq_item_slot(&p->q);

	return i < 0 ? &p->scratch : &p->recs[i];
}

void cl_iso_record_commit(struct cl_iso20022 *p)
{
	if (cl_outq_item_slot(&p->q) < 0) {
		/* cannot happen with CL_ISO_FEED pieces; never lose a record
		 * silently */
		cl_iso_add_fatal(p, p->tx_line, "internal_limit",
				 "more than %d transactions completed in %d bytes", CL_ISO_RECQ,
				 CL_ISO_FEED);
		return;
	}
	cl_outq_item_commit(&p->q);
}

/* ------------------------------------------------------------ helpers */

static unsigned ph_hash(const void *k)
{
	uintptr_t x = (uintptr_t)k;

	x ^= x >> 11;
	x *= 0x9E3779B97F4A7C15ULL;
	return (unsigned)(x >> 40) & (CL_ISO_PH - 1);
}

static void ph_put(struct cl_iso20022 *p, const xmlChar *name, int tag)
{
	unsigned h = ph_hash(name);

	while (p->ph[h].name && p->ph[h].name != name)
		h = (h + 1) & (CL_ISO_PH - 1);
	p->ph[h].name = name;
	p->ph[h].tag = tag;
}

static int ph_get(const struct cl_iso20022 *p, const xmlChar *name)
{
	unsigned h = ph_hash(name);

	while (p->ph[h].name) {
		if (p->ph[h].name == name)
			return p->ph[h].tag;
		h = (h + 1) & (CL_ISO_PH - 1);
	}
	return -1;
}

/* The line libxml2 is at: for a start tag, the line of its '>', as libxml2
 * itself records for element nodes. */
static unsigned long cur_line(const struct cl_iso20022 *p)
{
	return cl_xml_line(p->x);
}

static void reset_fields(struct cl_iso20022 *p, int from, int to)
{
	for (int f = from; f < to; f++) {
		p->val[f][0] = '\0';
		p->seen[f] = p->too_long[f] = p->reported[f] = false;
	}
}

/* ------------------------------------------------------ element events */

static bool document_start(struct cl_iso20022 *p, unsigned long line, const xmlChar *ns)
{
	const char *nss = ns ? (const char *)ns : "";

	if (p->doc_seen) {
		cl_iso_add_fatal(p, line, "multiple_documents",
				 "a second Document element: one message per file is supported");
		return false;
	}
	p->doc_seen = true;
	p->doc_line = line;
	switch (cl_iso_ns_parse(nss, &p->kind, p->msg_type, sizeof(p->msg_type))) {
	case CL_ISO_NS_OK:
		snprintf(p->info.message_type, sizeof(p->info.message_type), "%s", p->msg_type);
		/* CBPR+ wants the AppHdr to name the message it carries; real
		 * samples break it (a version behind): worth a remark only */
		if (p->seen[F_HDR_MSG_DEF] && p->val[F_HDR_MSG_DEF][0] &&
		    strcmp(p->val[F_HDR_MSG_DEF], p->msg_type) != 0)
			cl_outq_note(&p->q, p->line_of[F_HDR_MSG_DEF], "apphdr_msgdefidr",
				 "AppHdr MsgDefIdr \"%.40s\" differs from the Document's message "
				 "%s",
				 p->val[F_HDR_MSG_DEF], p->msg_type);
		return true;
	case CL_ISO_NS_FOREIGN:
		cl_iso_add_fatal(p, line, "xml_namespace",
				 "Document namespace %s%.120s%s is not an ISO 20022 message namespace: "
				 "expected %s",
				 ns ? "\"" : "", ns ? nss : "(none)", ns ? "\"" : "", cl_iso_ns_supported());
		return false;
	case CL_ISO_NS_UNSUPPORTED:
		/* said once the file proved well-formed (finish): a bank
		   statement cut short is a broken file, not a statement */
		snprintf(p->other_msg, sizeof(p->other_msg), "%s", p->msg_type);
		snprintf(p->info.message_type, sizeof(p->info.message_type), "%s", p->msg_type);
		p->other_line = line;
		p->other_doc = true;
		return false;
	case CL_ISO_NS_VERSION:
		cl_iso_add_fatal(p, line, "unsupported_version",
				 "unsupported message version %s: expected %s", p->msg_type,
				 cl_iso_ns_supported());
		return false;
	}
	return false;
}

/* The message a root event opens; CL_ISO_NONE for another event. */
static enum cl_iso_kind root_kind(int ev)
{
	static const enum cl_iso_kind kind[] = {
		[EV_ROOT_PAIN001] = CL_ISO_PAIN001,
		[EV_ROOT_PACS008] = CL_ISO_PACS008,
		[EV_ROOT_PACS009] = CL_ISO_PACS009,
		[EV_ROOT_PACS004] = CL_ISO_PACS004,
		[EV_ROOT_PAIN008] = CL_ISO_PAIN008,
		[EV_ROOT_PACS003] = CL_ISO_PACS003,
		[EV_ROOT_CAMT056] = CL_ISO_CAMT056,
		[EV_ROOT_CAMT029] = CL_ISO_CAMT029,
	};

	return ev > 0 && (size_t)ev < sizeof(kind) / sizeof(kind[0]) ? kind[ev] : CL_ISO_NONE;
}

static void event_start(struct cl_iso20022 *p, int ev, unsigned long line, const char *name)
{
	if (root_kind(ev) != CL_ISO_NONE) {
		if (root_kind(ev) != p->kind) {
			cl_iso_add_fatal(p, line, "unexpected_element",
					 "element <%s> under Document: a %s message has <%s>", name,
					 p->msg_type, cl_iso_kind_root(p->kind));
			return;
		}
		snprintf(p->root_path, sizeof(p->root_path), "%s/%s",
			 p->doc_virtual ? "" : "/Document", name);
		p->msg_opened = true;
		p->msg_line = line;
	} else if (ev == EV_GRPHDR) {
		p->grp_line = line;
		p->grp_seen = true;
	}
	/* the group header comes first: its MsgId, settlement date and
	 * agents are read into every transaction as it ends */
	if ((ev == EV_PMTINF || ev == EV_TX) && !p->grp_seen && !p->grp_order_said) {
		p->grp_order_said = true;
		cl_outq_add(&p->q, line, p->root_path, "missing_element",
				 "<%s> before the group header: expected <GrpHdr> as the first "
				 "element of <%s>: every transaction is read with what the group "
				 "header says (its MsgId, and in pacs its agents and settlement date)",
				 name, strrchr(p->root_path, '/') + 1);
	}
	switch (ev) {
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
	if (root_kind(ev) != CL_ISO_NONE) {
		cl_iso_root_end(p);
		return;
	}
	switch (ev) {
	case EV_GRPHDR:
		cl_iso_grphdr_end(p);
		break;
	case EV_PMTINF:
		cl_iso_pmtinf_end(p);
		break;
	case EV_TX:
		cl_iso_tx_end(p);
		break;
	default:
		break;
	}
}

/* Elements the schemas allow more than once where they are kept: the
 * first is taken (first Ustrd, first reason, first other id). */
static bool repeatable(int f)
{
	return f == F_USTRD || f == F_RSN_CD || f == F_RSN_PRTRY || f == F_INITG_ID;
}

/* The same element twice where the message allows it once (two amounts,
 * two EndToEndIds, two UETRs in one transaction): which one holds cannot
 * be told, and another system may take the other. */
static void repeated_element(struct cl_iso20022 *p, int f)
{
	char path[CL_PATH_MAX];
	const char *name;
	struct cl_error *e;

	cl_iso_current_path(p, path, sizeof(path));
	name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	e = cl_outq_error(&p->q, false);
	cl_error_set(e, p->name, p->cur_line, "repeated_element",
		     "<%s> appears again (first on line %lu): the message allows one here, and "
		     "which one is meant cannot be told",
		     name, p->line_of[f]);
	snprintf(e->path, sizeof(e->path), "%s", path);
	e->other_line = p->line_of[f];
}

static void field_end(struct cl_iso20022 *p)
{
	int f = p->cur_field;
	const char *s = p->text;
	size_t n = p->text_len;

	if (p->seen[f]) {
		/* the same path again in one scope: a repeated element; another
		 * path to the same field (a return's RtrChain and OrgnlTxRef,
		 * Dt and DtTm) is a choice of sources, the first wins */
		if (p->node_of[f] == p->cur_node && !repeatable(f))
			repeated_element(p, f);
		p->cur_field = F_NONE;
		return;
	}
	p->cur_field = F_NONE;
	cl_iso_trim(&s, &n);
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

/* SAX2 startElementNs: attributes come as (localname, prefix, URI, value,
 * value end) quintuples. */
static void parse_start(void *ctx, const xmlChar *name, const xmlChar *uri, int nb_attributes,
			const xmlChar **attributes)
{
	struct cl_iso20022 *p = ctx;
	int depth = p->depth++;
	int node = -1, parent = depth > 0 ? p->stack[depth - 1] : -1;
	const struct cl_iso_node *n;

	/* once told the input has ended libxml2 reports what is left, a tag
	 * cut in two included: that is a truncated file, never an element */
	if (p->x->finished || p->x->terminating)
		return;
	if (p->other_doc)
		return;
	if (depth >= CL_ISO_MAX_DEPTH) {
		cl_iso_add_fatal(p, cur_line(p), "xml_depth",
				 "elements nested deeper than the limit of %d levels",
				 CL_ISO_MAX_DEPTH);
		return;
	}
	if (parent >= 0) {
		int tag = ph_get(p, name);

		node = tag >= 0 ? p->paths->node[parent].child[tag] : -1;
		if (node < 0 && parent == CL_ISO_DOC) {
			cl_iso_add_fatal(p, cur_line(p), "unexpected_element",
					 "element <%s> under Document: a %s message has <%s>",
					 (const char *)name, p->msg_type, cl_iso_kind_root(p->kind));
			return;
		}
	} else if (p->doc_depth < 0 && p->hdr_depth < 0) {
		if (name == p->name_document) {
			if (!document_start(p, cur_line(p), uri))
				return;
			node = CL_ISO_DOC;
			p->doc_depth = depth;
			cl_xml_document_at(p->x, depth);
		} else if (name == p->name_apphdr && !p->doc_seen) {
			node = CL_ISO_HDR;
			p->hdr_depth = depth;
		} else if (name == p->name_apphdr) {
			/* read once, front to back: the transactions are done */
			if (p->no_instg)
				cl_outq_add(&p->q, cur_line(p), "/AppHdr", "apphdr_after_document",
						 "AppHdr after the Document: its sender (Fr) "
						 "comes after the %lu transaction%s it would key, "
						 "and the file is read once, front to back: "
						 "expected the AppHdr before the Document",
						 p->no_instg, p->no_instg == 1 ? "" : "s");
		} else {
			/* a message root without its Document (TCH RTP wraps
			 * FIToFICstmrCdtTrf directly): its namespace tells the
			 * message */
			int tag = ph_get(p, name);
			int root = tag >= 0 ? p->paths->node[CL_ISO_DOC].child[tag] : -1;

			if (root >= 0 && p->paths->node[root].event != EV_NONE) {
				if (!document_start(p, cur_line(p), uri))
					return;
				p->doc_virtual = true;
				p->doc_depth = depth;
				cl_xml_document_at(p->x, depth);
				node = root;
			} else if (uri && !p->other_msg[0]) {
				/* another message without a Document (TCH pacs.002):
				 * named at the end if no Document comes */
				enum cl_iso_kind k;
				char t[32];

				if (cl_iso_ns_parse((const char *)uri, &k, t, sizeof(t)) ==
					    CL_ISO_NS_UNSUPPORTED &&
				    strncmp(t, "head.", 5) != 0) {
					memcpy(p->other_msg, t, sizeof(p->other_msg));
					p->other_line = cur_line(p);
				}
			}
		}
	}
	p->stack[depth] = (int16_t)node;
	if (node < 0)
		return;
	n = &p->paths->node[node];
	if (n->event || n->field) {
		unsigned long line = cur_line(p);

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
			for (int i = 0; n->amount && i < nb_attributes; i++) {
				const xmlChar **a = attributes + 5 * i;

				if (a[0] == p->name_ccy && !a[2]) {
					size_t len = (size_t)(a[4] - a[3]);

					if (len >= sizeof(p->cur_ccy))
						len = sizeof(p->cur_ccy) - 1;
					memcpy(p->cur_ccy, a[3], len);
					p->cur_ccy[len] = '\0';
				}
			}
		}
	}
}

static void parse_end(void *ctx)
{
	struct cl_iso20022 *p = ctx;
	int depth = --p->depth;
	int node;
	const struct cl_iso_node *n;

	if (p->x->finished || p->x->terminating || depth < 0 || depth >= CL_ISO_MAX_DEPTH)
		return;
	if (p->other_doc)
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

/* characters and CDATA: only the text directly inside a field we read */
static void parse_text(void *ctx, const xmlChar *ch, int len)
{
	struct cl_iso20022 *p = ctx;

	if (p->cur_field != F_NONE && p->depth == p->field_depth + 1)
		cl_xml_text_add(p->text, sizeof(p->text), &p->text_len, &p->text_over, ch, len);
}

/* ------------------------------------------------- the engine's plug */

static void plug_begin(void *u, xmlDictPtr dict)
{
	struct cl_iso20022 *p = u;

	for (int t = 0; t < p->paths->tags; t++)
		ph_put(p, xmlDictLookup(dict, BAD_CAST p->paths->tag_name[t], -1), t);
	p->name_document = xmlDictLookup(dict, BAD_CAST "Document", -1);
	p->name_apphdr = xmlDictLookup(dict, BAD_CAST "AppHdr", -1);
	p->name_ccy = xmlDictLookup(dict, BAD_CAST "Ccy", -1);
}

static struct cl_outq *plug_queue(void *u)
{
	struct cl_iso20022 *p = u;

	return &p->q;
}

static void plug_path(const void *u, char *out, size_t cap)
{
	cl_iso_current_path(u, out, cap);
}

/* The end: the engine's verdict (libxml2's, the guard's), then the
 * document's own. */
static void plug_finish(void *u)
{
	struct cl_iso20022 *p = u;
	char text[CL_MSGTEXT_MAX];

	/* first, so a broken file of another message says both */
	if (p->other_doc)
		cl_outq_add(&p->q, p->other_line, "", "unsupported_message", "%s",
				 cl_iso_unsupported_text(text, sizeof(text), p->other_msg));
	if (cl_xml_verdict(p->x))
		return;
	if (p->doc_seen && !p->other_doc && !p->msg_opened)
		cl_outq_add(&p->q, p->doc_line, "/Document", "no_transaction",
				 "Document has no <%s>: expected the %s message in it",
				 cl_iso_kind_root(p->kind), p->msg_type);
	if (!p->doc_seen && p->other_msg[0])
		cl_outq_add(&p->q, p->other_line, "", "unsupported_message", "%s",
				 cl_iso_unsupported_text(text, sizeof(text), p->other_msg));
	else if (!p->doc_seen)
		cl_outq_add(&p->q, 0, "", "no_document",
				 "no ISO 20022 Document element found: expected <Document> "
				 "(alone or beside an AppHdr in an envelope)");
}

const struct cl_xml_plug cl_iso_clearing_plug = {
	.begin = plug_begin,
	.start = parse_start,
	.end = parse_end,
	.text = parse_text,
	.queue = plug_queue,
	.finish = plug_finish,
	.path = plug_path,
};

enum cl_status cl_iso20022_schema_check(const char *path, struct cl_error *err)
{
	return cl_xml_schema_check(path, err);
}

/* An XML document starts with "<" after an optional UTF-8 byte order mark
 * and blanks. */
enum cl_detect cl_iso20022_detect(const unsigned char *p, size_t len)
{
	size_t i = cl_utf8_bom(p, len);

	while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
		i++;
	if (i < len && p[i] == '<')
		return CL_DETECT_YES;
	/* UTF-16 with a BOM: XML, which the parser refuses with a clear message */
	if (len >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF)))
		return CL_DETECT_FALLBACK;
	return CL_DETECT_NO;
}

struct cl_iso20022 *cl_iso_clearing_new(struct cl_input *in, const struct cl_parse_opts *opts,
					struct cl_xml_engine *x)
{
	struct cl_iso20022 *p = cl_xcalloc(1, sizeof(*p));

	p->x = x;
	p->in = in;
	p->name = cl_input_name(in);
	p->opts = *opts;
	p->paths = cl_iso_paths();
	p->fp = cl_fp_new();
	p->doc_depth = p->hdr_depth = -1;
	p->cur_field = F_NONE;
	cl_outq_init(&p->q, p->name, CL_ISO_RECQ);
	return p;
}

bool cl_iso_clearing_queued(const struct cl_iso20022 *p)
{
	return cl_outq_ready(&p->q);
}

enum cl_status cl_iso_clearing_next(struct cl_iso20022 *p, const struct cl_record **rec,
				    struct cl_error *err)
{
	int i;

	*rec = NULL;
	if (!cl_outq_ready(&p->q) && !p->x->finished) {
		cl_xml_pump(p->x);
		p->info.lines = cl_xml_lines(p->x);
	}
	switch (cl_outq_take(&p->q, err, &i)) {
	case CL_OUTQ_NOTE:
		return CL_NOTE;
	case CL_OUTQ_ERROR:
		return CL_INVALID;
	case CL_OUTQ_ITEM:
		*rec = &p->recs[i];
		return CL_OK;
	case CL_OUTQ_EMPTY:
		break;
	}
	if (p->x->io_failed) {
		*err = p->x->io_err;
		return CL_IO;
	}
	return CL_END;
}

void cl_iso_clearing_free(struct cl_iso20022 *p)
{
	if (!p)
		return;
	cl_fp_free(p->fp);
	free(p);
}
