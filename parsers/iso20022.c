/*
 * iso20022.c - the ISO 20022 parser's engine: libxml2's SAX2 push parser fed
 * from struct cl_input through the byte guard, element paths matched through
 * the trie of iso20022_paths.c, one struct cl_record per transaction
 * (iso20022_record.c), and the format's entry in the table of formats
 * (format.h).
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
#include "rules/fingerprint.h"

/* ---------------------------------------------------------------- queues */

/* The next queue entry (a note when `note`); errors beyond the queue are
 * dropped, and counted: the file is invalid either way. */
static struct cl_error *queue_slot(struct cl_iso20022 *p, bool note)
{
	static struct cl_error overflow; /* written, never read */
	struct cl_iso_queued_error *q;

	if (p->e_len == CL_ISO_ERRQ) {
		p->errors_dropped++;
		return &overflow;
	}
	q = &p->errs[(p->e_head + p->e_len++) % CL_ISO_ERRQ];
	q->seq = p->seq++;
	q->note = note;
	return &q->err;
}

static struct cl_error *error_slot(struct cl_iso20022 *p)
{
	return queue_slot(p, false);
}

struct cl_error *cl_iso_add_error(struct cl_iso20022 *p, unsigned long line, const char *path,
				  const char *code, const char *fmt, ...)
{
	struct cl_error *e = error_slot(p);
	va_list ap;

	cl_error_set(e, p->name, line, code, "%s", "");
	snprintf(e->path, sizeof(e->path), "%s", path ? path : "");
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	va_end(ap);
	return e;
}

/* A remark for verbose output (CL_NOTE): the file stays valid. */
static void add_note(struct cl_iso20022 *p, unsigned long line, const char *code,
		     const char *fmt, ...) CL_PRINTF(4, 5);

static void add_note(struct cl_iso20022 *p, unsigned long line, const char *code,
		     const char *fmt, ...)
{
	struct cl_error *e = queue_slot(p, true);
	va_list ap;

	cl_error_set(e, p->name, line, code, "%s", "");
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	va_end(ap);
}

void cl_iso_add_fatal(struct cl_iso20022 *p, unsigned long line, const char *code,
		      const char *fmt, ...)
{
	struct cl_error *e = error_slot(p);
	va_list ap;

	cl_error_set(e, p->name, line, code, "%s", "");
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	va_end(ap);
	p->fatal = true;
	p->finished = true;
	if (p->ctxt)
		xmlStopParser(p->ctxt); /* no more callbacks */
}

struct cl_record *cl_iso_record_slot(struct cl_iso20022 *p)
{
	if (p->r_len == CL_ISO_RECQ)
		return &p->scratch;
	return &p->recs[(p->r_head + p->r_len) % CL_ISO_RECQ];
}

void cl_iso_record_commit(struct cl_iso20022 *p)
{
	if (p->r_len == CL_ISO_RECQ) {
		/* cannot happen with CL_ISO_FEED pieces; never lose a record
		 * silently */
		cl_iso_add_fatal(p, p->tx_line, "internal_limit",
				 "more than %d transactions completed in %d bytes", CL_ISO_RECQ,
				 CL_ISO_FEED);
		return;
	}
	p->rec_seq[(p->r_head + p->r_len) % CL_ISO_RECQ] = p->seq++;
	p->r_len++;
}

static unsigned long cur_line(const struct cl_iso20022 *p);

/* A schema validity message in the project's style: "element 'Bogus':
 * This element is not expected. Expected is ( {urn:...}UETR )." becomes
 * "XML schema: element 'Bogus': this element is not expected; expected is
 * ( UETR )" (the namespace is the Document's, said once by the file). */
static void schema_style(char *m)
{
	char out[CL_MSGTEXT_MAX];
	size_t o = 0, i = 0, n = strlen(m);

	o = (size_t)snprintf(out, sizeof(out), "XML schema: ");
	while (i < n && o + 1 < sizeof(out)) {
		if (m[i] == '{' && strchr(m + i, '}')) {
			i = (size_t)(strchr(m + i, '}') - m) + 1; /* {namespace} */
			continue;
		}
		if ((m[i] == '.' || m[i] == ':') && m[i + 1] == ' ' && m[i + 2] >= 'A' &&
		    m[i + 2] <= 'Z' && m[i + 3] >= 'a' && m[i + 3] <= 'z') {
			out[o++] = m[i] == '.' ? ';' : ':';
			if (o + 2 < sizeof(out)) {
				out[o++] = ' ';
				out[o++] = (char)(m[i + 2] - 'A' + 'a');
			}
			i += 3;
			continue;
		}
		out[o++] = m[i++];
	}
	while (o > 0 && (out[o - 1] == '.' || out[o - 1] == ' '))
		o--;
	out[o] = '\0';
	memcpy(m, out, o + 1);
}

/* libxml2's words for bad bytes ("input is not proper UTF-8, indicate
 * encoding ! Bytes: 0xC3 0x28 ...", "char 0x0 out of allowed range") in
 * ours, with the element path when the bytes were inside a field's text. */
static void encoding_words(const struct cl_iso20022 *p, struct cl_error *e)
{
	char bytes[64];
	const char *b = strstr(e->message, "Bytes: ");

	if (p->ctxt)
		cl_iso_current_path(p, e->path, sizeof(e->path));
	if (strncmp(e->message, "input is not proper UTF-8", 25) == 0 && b) {
		snprintf(bytes, sizeof(bytes), "%s", b + 7);
		snprintf(e->message, sizeof(e->message),
			 "invalid UTF-8 (bytes %s): expected UTF-8 text", bytes);
	} else if (strncmp(e->message, "char 0x", 7) == 0 && strstr(e->message, "out of allowed range")) {
		snprintf(bytes, sizeof(bytes), "%.*s", (int)strcspn(e->message + 5, " "),
			 e->message + 5);
		snprintf(e->message, sizeof(e->message),
			 "character %s is not allowed in XML: expected text without control "
			 "characters",
			 bytes);
	}
}

/* libxml2's structured error handler: libxml2 never prints. */
static void xml_error(void *ctx, xmlErrorPtr xe)
{
	struct cl_iso20022 *p = ctx;
	struct cl_error *e;
	const char *code = "xml_malformed";
	size_t n;

	if (!xe || xe->level == XML_ERR_WARNING || xe->level == XML_ERR_NONE)
		return;
	if (xe->code == XML_ERR_NO_MEMORY && !p->xml_fatal_set) {
		/* the name dictionary hit CL_ISO_MAX_NAMES (real out of memory
		 * exits in cl_xmalloc before libxml2 could say so) */
		p->xml_fatal_set = true;
		p->xml_fatal_at_end = p->terminating;
		p->xml_fatal_code = xe->code;
		cl_error_set(&p->xml_fatal, p->name, xe->line > 0 ? (unsigned long)xe->line : 0,
			     "xml_too_many_names",
			     "more than %d bytes of distinct element and attribute names: "
			     "ISO 20022 messages use a few hundred names",
			     CL_ISO_MAX_NAMES);
		return;
	}
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
		p->xml_fatal_at_end = p->terminating;
		p->xml_fatal_code = xe->code;
		e = &p->xml_fatal; /* reported by finish(), after the guard's verdict */
	} else {
		e = error_slot(p);
	}
	/* schema validity errors from the SAX plug carry no line: ours */
	cl_error_set(e, p->name,
		     xe->line > 0 ? (unsigned long)xe->line : p->ctxt ? cur_line(p) : 0, code,
		     "%s", xe->message ? xe->message : "XML error");
	e->column = xe->int2 > 0 ? (unsigned long)xe->int2 : 0;
	n = strlen(e->message);
	while (n > 0 && (e->message[n - 1] == '\n' || e->message[n - 1] == ' '))
		e->message[--n] = '\0';
	for (char *nl = strchr(e->message, '\n'); nl; nl = strchr(nl, '\n'))
		*nl = ' '; /* one line: libxml2 puts "Bytes: 0x.." on a second (fuzz F7) */
	/* libxml2 capitalises; PostgreSQL style wants lowercase */
	if (e->message[0] >= 'A' && e->message[0] <= 'Z' && e->message[1] >= 'a' &&
	    e->message[1] <= 'z')
		e->message[0] = (char)(e->message[0] - 'A' + 'a');
	if (strcmp(code, "xml_schema") == 0)
		schema_style(e->message);
	if (strcmp(code, "xml_encoding") == 0)
		encoding_words(p, e);
	if (strncmp(e->message, "startTag: ", 10) == 0) {
		/* libxml2's function name: what the reader needs is "not XML" */
		char why[CL_MSGTEXT_MAX];

		snprintf(why, sizeof(why), "%s", e->message + 10);
		snprintf(e->message, sizeof(e->message),
			 "not well-formed XML: %.400s (expected an element start tag such as "
			 "<Document>)",
			 why);
	}
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
	return p->ctxt->input && p->ctxt->input->line > 0 ? (unsigned long)p->ctxt->input->line
							   : 0;
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
			add_note(p, p->line_of[F_HDR_MSG_DEF], "apphdr_msgdefidr",
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
			cl_iso_add_fatal(p, line, "unexpected_element",
					 "element <%s> under Document: a %s message has <%s>", name,
					 p->msg_type, cl_iso_kind_root(p->kind));
			return;
		}
		snprintf(p->root_path, sizeof(p->root_path), "%s/%s",
			 p->doc_virtual ? "" : "/Document", name);
		p->msg_opened = true;
		p->msg_line = line;
		break;
	case EV_GRPHDR:
		p->grp_line = line;
		p->grp_seen = true;
		break;
	default:
		break;
	}
	/* the group header comes first: its MsgId, settlement date and
	 * agents are read into every transaction as it ends */
	if ((ev == EV_PMTINF || ev == EV_TX) && !p->grp_seen && !p->grp_order_said) {
		p->grp_order_said = true;
		cl_iso_add_error(p, line, p->root_path, "missing_element",
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
	switch (ev) {
	case EV_ROOT_PAIN001:
	case EV_ROOT_PACS008:
	case EV_ROOT_PACS009:
	case EV_ROOT_PACS004:
		cl_iso_root_end(p);
		break;
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
	e = error_slot(p);
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
static void parse_start(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri,
		      int nb_namespaces, const xmlChar **namespaces, int nb_attributes,
		      int nb_defaulted, const xmlChar **attributes)
{
	struct cl_iso20022 *p = ctx;
	int depth = p->depth++;
	int node = -1, parent = depth > 0 ? p->stack[depth - 1] : -1;
	const struct cl_iso_node *n;

	(void)prefix;
	(void)nb_namespaces;
	(void)namespaces;
	(void)nb_defaulted;
	/* once told the input has ended libxml2 reports what is left, a tag
	 * cut in two included: that is a truncated file, never an element */
	if (p->finished || p->terminating)
		return;
	if (depth == 0)
		p->root_opened = true;
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
		} else if (name == p->name_apphdr && !p->doc_seen) {
			node = CL_ISO_HDR;
			p->hdr_depth = depth;
		} else if (name == p->name_apphdr) {
			/* read once, front to back: the transactions are done */
			if (p->no_instg)
				cl_iso_add_error(p, cur_line(p), "/AppHdr", "apphdr_after_document",
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

static void parse_end(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri)
{
	struct cl_iso20022 *p = ctx;
	int depth = --p->depth;
	int node;
	const struct cl_iso_node *n;

	(void)name;
	(void)prefix;
	(void)uri;
	if (p->finished || p->terminating || depth < 0 || depth >= CL_ISO_MAX_DEPTH)
		return;
	if (depth == 0)
		p->root_closed = true;
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

	if (p->cur_field == F_NONE || p->depth != p->field_depth + 1 || len <= 0 ||
	    p->terminating)
		return;
	if (p->text_len + (size_t)len >= sizeof(p->text)) {
		p->text_over = true;
		return;
	}
	memcpy(p->text + p->text_len, ch, (size_t)len);
	p->text_len += (size_t)len;
}

/* The SAX2 handlers: the parser's own (parse_*), and with --schema the
 * validator's for the events of the Document element and what it holds
 * (an AppHdr or envelope around it is not the XSD's business). */
static bool validating(const struct cl_iso20022 *p)
{
	return p->vdepth >= 0 && !p->finished && !p->terminating;
}

static void sax_start(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri,
		      int nb_namespaces, const xmlChar **namespaces, int nb_attributes,
		      int nb_defaulted, const xmlChar **attributes)
{
	struct cl_iso20022 *p = ctx;
	int depth = p->depth;

	parse_start(ctx, name, prefix, uri, nb_namespaces, namespaces, nb_attributes, nb_defaulted,
		    attributes);
	if (!p->vsax)
		return;
	if (p->vdepth < 0 && !p->vdone && depth == p->doc_depth)
		p->vdepth = depth; /* the Document (or a message root standing for it) */
	if (validating(p))
		p->vsax->startElementNs(p->vuser, name, prefix, uri, nb_namespaces, namespaces,
					nb_attributes, nb_defaulted, attributes);
}

static void sax_end(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri)
{
	struct cl_iso20022 *p = ctx;
	int depth = p->depth - 1;

	if (validating(p)) {
		p->vsax->endElementNs(p->vuser, name, prefix, uri);
		if (depth == p->vdepth) {
			p->vdepth = -1;
			p->vdone = true;
		}
	}
	parse_end(ctx, name, prefix, uri);
}

static void sax_text(void *ctx, const xmlChar *ch, int len)
{
	struct cl_iso20022 *p = ctx;

	if (validating(p))
		p->vsax->characters(p->vuser, ch, len);
	parse_text(ctx, ch, len);
}

static void sax_cdata(void *ctx, const xmlChar *ch, int len)
{
	struct cl_iso20022 *p = ctx;

	if (validating(p))
		p->vsax->cdataBlock(p->vuser, ch, len);
	parse_text(ctx, ch, len);
}

/* The guard refuses every DOCTYPE before libxml2 sees it; this is the second
 * line. */
static void sax_doctype(void *ctx, const xmlChar *name, const xmlChar *ext, const xmlChar *sys)
{
	struct cl_iso20022 *p = ctx;

	(void)name;
	(void)ext;
	(void)sys;
	cl_iso_add_fatal(p, cur_line(p), "xml_doctype",
			 "document type declaration (<!DOCTYPE ...>) not allowed");
}

/* ---------------------------------------------------------- lifecycle */

/* What went wrong loading an XSD: the first libxml2 error, or the first
 * import/include it was refused. */
struct schema_load {
	char msg[200];              /* first error loading it */
	char refused[256];          /* first location imported or included */
};

static void schema_error(void *ctx, xmlErrorPtr xe)
{
	struct schema_load *sl = ctx;
	size_t n;

	if (!xe || xe->level == XML_ERR_WARNING || sl->msg[0])
		return;
	snprintf(sl->msg, sizeof(sl->msg), "%s", xe->message ? xe->message : "error");
	n = strlen(sl->msg);
	while (n > 0 && (sl->msg[n - 1] == '\n' || sl->msg[n - 1] == ' ' || sl->msg[n - 1] == '.'))
		sl->msg[--n] = '\0';
	for (char *nl = strchr(sl->msg, '\n'); nl; nl = strchr(nl, '\n'))
		*nl = ' ';
	if (sl->msg[0] >= 'A' && sl->msg[0] <= 'Z' && sl->msg[1] >= 'a' && sl->msg[1] <= 'z')
		sl->msg[0] = (char)(sl->msg[0] - 'A' + 'a');
}

static void schema_doc_error(void *ctx, xmlErrorPtr xe)
{
	xmlParserCtxtPtr c = ctx;

	schema_error(c->_private, xe);
}

/* The XSD given with --schema is read, and nothing else: an xs:import,
 * xs:include or xs:redefine would make libxml2 fetch a URL or read another
 * file (and quote it in its errors).  This loader refuses them all and
 * remembers the first location for the message (libxml2's entity loader is
 * process-wide: hence the static). */
static struct schema_load *refusing;

static xmlParserInputPtr refuse_external(const char *url, const char *id,
					 xmlParserCtxtPtr ctxt)
{
	(void)ctxt;
	if (refusing && !refusing->refused[0])
		snprintf(refusing->refused, sizeof(refusing->refused), "%s",
			 url ? url : id ? id : "(unnamed)");
	return NULL;
}

static void schema_generic_error(void *ctx, const char *fmt, ...)
{
	(void)ctx;
	(void)fmt; /* libxml2's unstructured messages: never printed */
}

/* Parse the XSD at `path` with our own error handlers (libxml2 would print
 * otherwise).  Returns the schema (and in *doc the document it was parsed
 * from, which must outlive it), or NULL with msg[cap] saying why. */
static xmlSchemaPtr schema_parse(const char *path, xmlDocPtr *doc, char *msg, size_t cap)
{
	struct schema_load sl;
	xmlSchemaParserCtxtPtr pc;
	xmlParserCtxtPtr pctxt;
	xmlSchemaPtr schema = NULL;
	FILE *f = fopen(path, "r");

	memset(&sl, 0, sizeof(sl));
	*doc = NULL;
	if (!f) {
		snprintf(msg, cap, "could not open the XML schema \"%s\": %s", path, strerror(errno));
		return NULL;
	}
	fclose(f);
	/* the XSD document itself is read like any input: no network, no
	 * entities, errors to us */
	pctxt = xmlNewParserCtxt();
	if (!pctxt)
		(void)cl_xmalloc(SIZE_MAX); /* exits: out of memory */
	pctxt->_private = &sl;
	pctxt->sax->serror = schema_doc_error;
	*doc = xmlCtxtReadFile(pctxt, path, NULL, XML_PARSE_NONET);
	xmlFreeParserCtxt(pctxt);
	pc = *doc ? xmlSchemaNewDocParserCtxt(*doc) : NULL;
	if (pc) {
		xmlExternalEntityLoader old_loader = xmlGetExternalEntityLoader();

		refusing = &sl;
		xmlSetExternalEntityLoader(refuse_external);
		xmlSetStructuredErrorFunc(&sl, schema_error);
		xmlSetGenericErrorFunc(NULL, schema_generic_error);
		xmlSchemaSetParserStructuredErrors(pc, schema_error, &sl);
		schema = xmlSchemaParse(pc);
		xmlSchemaFreeParserCtxt(pc);
		xmlSetExternalEntityLoader(old_loader);
		xmlSetStructuredErrorFunc(NULL, NULL);
		xmlSetGenericErrorFunc(NULL, NULL);
		refusing = NULL;
	}
	if (sl.refused[0]) {
		snprintf(msg, cap,
			 "could not load the XML schema \"%s\": it imports or includes \"%s\"; only "
			 "a self-contained XSD is read (no network, no other files)",
			 path, sl.refused);
	} else if (!schema) {
		snprintf(msg, cap, "could not load the XML schema \"%s\": %s", path,
			 sl.msg[0] ? sl.msg : "not a usable XSD");
	} else {
		return schema;
	}
	if (schema)
		xmlSchemaFree(schema);
	if (*doc)
		xmlFreeDoc(*doc);
	*doc = NULL;
	return NULL;
}

enum cl_status cl_iso20022_schema_check(const char *path, struct cl_error *err)
{
	char msg[CL_MSGTEXT_MAX];
	xmlDocPtr doc;
	xmlSchemaPtr schema = schema_parse(path, &doc, msg, sizeof(msg));

	if (!schema) {
		cl_error_set(err, NULL, 0, "xml_schema", "%s", msg);
		return CL_INVALID;
	}
	xmlSchemaFree(schema);
	xmlFreeDoc(doc);
	return CL_OK;
}

/* --schema: validate the Document element while parsing.  The validator's
 * SAX handlers are not put in front of ours (that would validate from the
 * root, an AppHdr envelope included); ours hand it the events
 * of the Document subtree only (forward_*). */
static bool load_schema(struct cl_iso20022 *p)
{
	char msg[CL_MSGTEXT_MAX];

	p->schema = schema_parse(p->opts.schema_path, &p->schema_doc, msg, sizeof(msg));
	if (p->schema)
		p->vctxt = xmlSchemaNewValidCtxt(p->schema);
	if (p->vctxt) {
		xmlSchemaSetValidStructuredErrors(p->vctxt, xml_error, p);
		/* no handler of ours behind it: plugged into NULL, it gives its
		 * own handlers and context to call */
		p->vsax = NULL;
		p->vuser = NULL;
		p->plug = xmlSchemaSAXPlug(p->vctxt, &p->vsax, &p->vuser);
	}
	if (!p->plug) {
		cl_iso_add_fatal(p, 0, "xml_schema", "%s",
				 p->schema ? "could not start XML schema validation" : msg);
		return false;
	}
	return true;
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
		cl_iso_add_fatal(p, 0, "empty_file",
				 "file is empty: expected an ISO 20022 XML document");
		return;
	}
	if (!cl_iso_check_encoding(head, len, code, msg, sizeof(msg))) {
		cl_iso_add_fatal(p, 1, code, "%s", msg);
		return;
	}
	memset(&p->sax, 0, sizeof(p->sax));
	p->sax.initialized = XML_SAX2_MAGIC;
	p->sax.startElementNs = sax_start;
	p->sax.endElementNs = sax_end;
	p->sax.characters = sax_text;
	p->sax.cdataBlock = sax_cdata;
	p->sax.internalSubset = sax_doctype;
	p->sax.serror = xml_error;
	if (p->opts.schema_path && !load_schema(p))
		return;
	p->ctxt = xmlCreatePushParserCtxt(&p->sax, p, NULL, 0, p->name);
	if (!p->ctxt)
		(void)cl_xmalloc(SIZE_MAX); /* exits: out of memory */
	/* no network, no entity substitution, no DTD loading, no HUGE */
	xmlCtxtUseOptions(p->ctxt, XML_PARSE_NONET | XML_PARSE_NOBLANKS);
	/* libxml2 keeps every distinct name and namespace for the whole parse;
	 * its own cap (10 MB of strings) lets a file of millions of distinct
	 * element names grow past 40 MB.  ISO 20022 uses a few hundred names. */
	xmlDictSetLimit(p->ctxt->dict, CL_ISO_MAX_NAMES);
	p->ctxt->linenumbers = 1;
	for (int t = 0; t < p->paths->tags; t++)
		ph_put(p, xmlDictLookup(p->ctxt->dict, BAD_CAST p->paths->tag_name[t], -1), t);
	p->name_document = xmlDictLookup(p->ctxt->dict, BAD_CAST "Document", -1);
	p->name_apphdr = xmlDictLookup(p->ctxt->dict, BAD_CAST "AppHdr", -1);
	p->name_ccy = xmlDictLookup(p->ctxt->dict, BAD_CAST "Ccy", -1);
}

/* Did libxml2 fail because the input ended inside the document?  Its
 * messages for that ("extra content at the end of the document", "couldn't
 * find end of start tag") mislead.  A fatal error raised only when libxml2
 * was told the input had ended, while the outermost element was still
 * open, is a truncated file. */
static bool truncated(const struct cl_iso20022 *p)
{
	if (!p->xml_fatal_at_end || p->root_closed)
		return false;
	if (p->xml_fatal_code == XML_ERR_DOCUMENT_END && !p->root_opened)
		return false; /* "<<<": no element at all */
	return p->xml_fatal_code != XML_ERR_DOCUMENT_EMPTY;
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

/* Fill p->buf with up to CL_ISO_BUF bytes (fewer only at the end of the
 * input), every byte through the guard.  Returns false on a read error. */
static bool fill(struct cl_iso20022 *p)
{
	size_t n = 0;

	while (n < CL_ISO_BUF && !p->eof) {
		long r = cl_input_read(p->in, p->buf + n, CL_ISO_BUF - n, &p->io_err);

		if (r < 0) {
			p->io_failed = true;
			return false;
		}
		if (r == 0)
			p->eof = true;
		n += (size_t)r;
	}
	p->buf_len = cl_iso_guard_scan(&p->guard, p->buf, n);
	p->buf_pos = 0;
	return true;
}

/* The end: the guard's, libxml2's, or the document's own verdict. */
static void finish(struct cl_iso20022 *p)
{
	struct cl_iso_guard *g = &p->guard;
	char text[CL_MSGTEXT_MAX];

	p->finished = true;
	if (p->io_failed || p->fatal)
		return;
	/* first, so a broken file of another message says both */
	if (p->other_doc)
		cl_iso_add_error(p, p->other_line, "", "unsupported_message", "%s",
				 cl_iso_unsupported_text(text, sizeof(text), p->other_msg));
	if (p->xml_fatal_set && !(g->failed && p->xml_fatal_at_end)) {
		struct cl_error *e = error_slot(p);

		*e = p->xml_fatal;
		if (truncated(p))
			truncated_message(e);
		p->fatal = true;
		return;
	}
	if (g->failed) {
		struct cl_error *e = error_slot(p);

		cl_error_set(e, p->name, g->fail_line, g->code, "%s", g->message);
		e->column = g->fail_col;
		p->fatal = true;
		return;
	}
	if (p->doc_seen && !p->other_doc && !p->msg_opened)
		cl_iso_add_error(p, p->doc_line, "/Document", "no_transaction",
				 "Document has no <%s>: expected the %s message in it",
				 cl_iso_kind_root(p->kind), p->msg_type);
	if (!p->doc_seen && p->other_msg[0])
		cl_iso_add_error(p, p->other_line, "", "unsupported_message", "%s",
				 cl_iso_unsupported_text(text, sizeof(text), p->other_msg));
	else if (!p->doc_seen)
		cl_iso_add_error(p, 0, "", "no_document",
				 "no ISO 20022 Document element found: expected <Document> "
				 "(alone or beside an AppHdr in an envelope)");
}

/* Feed libxml2 until something is queued or the input is done. */
static void pump(struct cl_iso20022 *p)
{
	if (!p->started)
		start(p);
	while (!p->finished && p->e_len == 0 && p->r_len == 0) {
		size_t n;

		if (p->buf_pos == p->buf_len) {
			if (p->guard.failed || p->eof) {
				/* the guard stopped the input: libxml2 keeps what it
				 * reported before that point, nothing after */
				if (!p->guard.failed) {
					p->terminating = true;
					xmlParseChunk(p->ctxt, NULL, 0, 1);
				}
				if (!p->finished)
					finish(p);
				break;
			}
			if (!fill(p)) {
				p->finished = true;
				break;
			}
			continue;
		}
		n = p->buf_len - p->buf_pos;
		if (n > CL_ISO_FEED)
			n = CL_ISO_FEED;
		xmlParseChunk(p->ctxt, (const char *)p->buf + p->buf_pos, (int)n, 0);
		p->buf_pos += n;
		if (p->xml_fatal_set && !p->finished)
			finish(p);
	}
	p->info.lines = cl_iso_guard_lines(&p->guard);
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

void *cl_iso20022_open(struct cl_input *in, const struct cl_parse_opts *opts,
		       struct cl_file_info **info)
{
	struct cl_iso20022 *p = cl_xcalloc(1, sizeof(*p));

	xmlInitParser(); /* idempotent; libxml2's global state set up once */
	p->in = in;
	p->name = cl_input_name(in);
	p->opts = *opts;
	p->paths = cl_iso_paths();
	p->fp = cl_fp_new();
	cl_iso_guard_init(&p->guard);
	p->doc_depth = p->hdr_depth = -1;
	p->vdepth = -1;
	p->cur_field = F_NONE;
	*info = &p->info;
	return p;
}

enum cl_status cl_iso20022_next(void *h, const struct cl_record **rec, struct cl_error *err)
{
	struct cl_iso20022 *p = h;

	*rec = NULL;
	if (p->e_len == 0 && p->r_len == 0 && !p->finished)
		pump(p);
	if (p->e_len > 0 &&
	    (p->r_len == 0 || p->errs[p->e_head].seq < p->rec_seq[p->r_head])) {
		bool note = p->errs[p->e_head].note;

		*err = p->errs[p->e_head].err;
		cl_text_clean(err->message, sizeof(err->message));
		cl_text_clean(err->path, sizeof(err->path));
		p->e_head = (p->e_head + 1) % CL_ISO_ERRQ;
		p->e_len--;
		return note ? CL_NOTE : CL_INVALID;
	}
	if (p->r_len > 0) {
		*rec = &p->recs[p->r_head];
		p->r_head = (p->r_head + 1) % CL_ISO_RECQ;
		p->r_len--;
		return CL_OK;
	}
	if (p->io_failed) {
		*err = p->io_err;
		return CL_IO;
	}
	return CL_END;
}

void cl_iso20022_free(void *h)
{
	struct cl_iso20022 *p = h;

	if (p->ctxt) {
		if (p->ctxt->myDoc)
			xmlFreeDoc(p->ctxt->myDoc);
		xmlFreeParserCtxt(p->ctxt);
	}
	if (p->plug)
		xmlSchemaSAXUnplug(p->plug);
	if (p->vctxt)
		xmlSchemaFreeValidCtxt(p->vctxt);
	if (p->schema)
		xmlSchemaFree(p->schema);
	if (p->schema_doc)
		xmlFreeDoc(p->schema_doc);
	cl_fp_free(p->fp);
	free(p);
}
