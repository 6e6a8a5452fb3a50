/*
 * xml_message.c - the ISO 20022 row of the table of formats (format.h): one
 * XML engine (xml_engine.c) per file, and the message's reader told by the
 * Document namespace as the engine reaches it, once, in the one pass over
 * the input (no rewind: standard input reads the same).
 *
 *   pain.001, pacs.008/009/004, and every message that is not a statement
 *   family (an unsupported message, a foreign namespace, no Document at
 *   all): the clearing reader (iso20022.c), which says what is wrong;
 *   camt.052/053/054: the statement reader (statement_camt.c);
 *   pacs.002 and pain.002: the status reader (status_pacs002.c).
 *
 * Until the namespace is read both readers see the events (the envelope
 * and AppHdr around the Document); what the engine says before then
 * (encoding, DOCTYPE, an empty file) goes to the clearing reader's queue.
 * After it, only the chosen reader sees them.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "parsers/format.h"
#include "parsers/iso20022_internal.h"
#include "parsers/statement_internal.h"
#include "parsers/xml_engine.h"

struct xml_message {
	struct cl_xml_engine eng;
	struct cl_iso20022 *clr;      /* the clearing reader */
	struct cl_stmt_parser *stmt;  /* the statement and status reader */
	enum cl_family family;        /* UNKNOWN until the namespace is read */
};

static bool statement_message(const char *t)
{
	return strncmp(t, "camt.052", 8) == 0 || strncmp(t, "camt.053", 8) == 0 ||
	       strncmp(t, "camt.054", 8) == 0 || strncmp(t, "pacs.002", 8) == 0 ||
	       strncmp(t, "pain.002", 8) == 0;
}

static enum cl_family stmt_family(const struct xml_message *m)
{
	return m->stmt->source == CL_STMT_SRC_PACS002 || m->stmt->source == CL_STMT_SRC_PAIN002 ||
			       strncmp(m->stmt->message_type, "pacs.002", 8) == 0 ||
			       strncmp(m->stmt->message_type, "pain.002", 8) == 0
		       ? CL_FAMILY_STATUS
		       : CL_FAMILY_STATEMENT;
}

static bool on_stmt(const struct xml_message *m)
{
	return m->family == CL_FAMILY_STATEMENT || m->family == CL_FAMILY_STATUS;
}

/* After the clearing reader saw a start tag: did it name the message? */
static void decide_by_clearing(struct xml_message *m)
{
	const struct cl_iso20022 *c = m->clr;

	if (c->doc_seen)
		m->family = c->other_doc && statement_message(c->msg_type) ? CL_FAMILY_STATEMENT
									    : CL_FAMILY_CLEARING;
	else if (c->other_msg[0] && statement_message(c->other_msg))
		m->family = CL_FAMILY_STATEMENT; /* a message root without Document */
}

static void m_begin(void *u, xmlDictPtr dict)
{
	struct xml_message *m = u;

	cl_iso_clearing_plug.begin(m->clr, dict);
	cl_stmt_xml_plug.begin(m->stmt, dict);
}

static void m_start(void *u, const xmlChar *name, const xmlChar *uri, int nb_attributes,
		    const xmlChar **attributes)
{
	struct xml_message *m = u;

	if (!on_stmt(m)) {
		cl_iso_clearing_plug.start(m->clr, name, uri, nb_attributes, attributes);
		if (m->family == CL_FAMILY_UNKNOWN)
			decide_by_clearing(m);
	}
	if (m->family == CL_FAMILY_CLEARING || (m->eng.finished && !on_stmt(m)))
		return;
	cl_stmt_xml_plug.start(m->stmt, name, uri, nb_attributes, attributes);
	/* the statement reader told a message root (or stopped on it) that
	 * the clearing reader did not */
	if (m->family == CL_FAMILY_UNKNOWN && (m->stmt->source != CL_STMT_SRC_UNKNOWN || m->stmt->fatal))
		m->family = CL_FAMILY_STATEMENT;
	if (on_stmt(m))
		m->family = stmt_family(m);
}

static void m_end(void *u)
{
	struct xml_message *m = u;

	if (!on_stmt(m))
		cl_iso_clearing_plug.end(m->clr);
	if (m->family != CL_FAMILY_CLEARING)
		cl_stmt_xml_plug.end(m->stmt);
}

static void m_text(void *u, const xmlChar *ch, int len)
{
	struct xml_message *m = u;

	if (!on_stmt(m))
		cl_iso_clearing_plug.text(m->clr, ch, len);
	if (m->family != CL_FAMILY_CLEARING)
		cl_stmt_xml_plug.text(m->stmt, ch, len);
}

/* the engine stopped on an error of its own, in the reader it went to */
static void m_stopped(void *u)
{
	struct xml_message *m = u;

	if (on_stmt(m))
		cl_stmt_xml_plug.stopped(m->stmt);
}

static struct cl_outq *m_queue(void *u)
{
	struct xml_message *m = u;

	return on_stmt(m) ? cl_stmt_xml_plug.queue(m->stmt) : cl_iso_clearing_plug.queue(m->clr);
}

/* the clearing reader's queue, or, while the message is not told, the
 * statement reader's too (it stopped on a root the other ignored) */
static bool m_ready(const void *u)
{
	const struct xml_message *m = u;

	if (on_stmt(m))
		return cl_outq_ready(&m->stmt->q);
	return cl_iso_clearing_queued(m->clr) ||
	       (m->family == CL_FAMILY_UNKNOWN && cl_outq_ready(&m->stmt->q));
}

static void m_finish(void *u)
{
	struct xml_message *m = u;

	if (on_stmt(m))
		cl_stmt_xml_plug.finish(m->stmt);
	else
		cl_iso_clearing_plug.finish(m->clr);
}

static void m_path(const void *u, char *out, size_t cap)
{
	const struct xml_message *m = u;

	if (on_stmt(m))
		cl_stmt_xml_plug.path(m->stmt, out, cap);
	else
		cl_iso_clearing_plug.path(m->clr, out, cap);
}

static const struct cl_xml_plug message_plug = {
	.begin = m_begin,
	.start = m_start,
	.end = m_end,
	.text = m_text,
	.stopped = m_stopped,
	.queue = m_queue,
	.ready = m_ready,
	.finish = m_finish,
	.path = m_path,
};

void *cl_iso20022_open(struct cl_input *in, const struct cl_parse_opts *opts,
		       struct cl_file_info **info)
{
	struct xml_message *m = cl_xcalloc(1, sizeof(*m));

	/* pieces small enough for either reader's queues: a statement's
	 * (CL_STMT_FEED) is the smaller, and the message is told only once
	 * the first piece is in */
	cl_xml_init(&m->eng, in, CL_STMT_FEED < CL_ISO_FEED ? CL_STMT_FEED : CL_ISO_FEED,
		    &message_plug, m, "an ISO 20022 XML document", opts->schema_path);
	m->clr = cl_iso_clearing_new(in, opts, &m->eng);
	/* parser.c counts the errors and stops at max_errors */
	m->stmt = cl_stmt_open_xml(in, UINT_MAX, &m->eng);
	*info = &m->clr->info;
	return m;
}

enum cl_family cl_iso20022_family(void *h)
{
	struct xml_message *m = h;

	while (m->family == CL_FAMILY_UNKNOWN && !m->eng.finished &&
	       !cl_iso_clearing_queued(m->clr) && m->stmt->q.e_len == 0)
		cl_xml_pump(&m->eng);
	return m->family;
}

const char *cl_iso20022_message(void *h)
{
	struct xml_message *m = h;

	return on_stmt(m) ? m->stmt->message_type : m->clr->info.message_type;
}

enum cl_status cl_iso20022_next_item(void *h, struct cl_item *item, struct cl_error *err)
{
	struct xml_message *m = h;
	enum cl_status st;

	memset(item, 0, sizeof(*item));
	for (;;) {
		if (on_stmt(m)) {
			st = cl_stmt_next(m->stmt, &item->stmt, err);
			item->family = m->family;
			snprintf(m->clr->info.message_type, sizeof(m->clr->info.message_type), "%s",
				 m->stmt->message_type);
			m->clr->info.lines = cl_xml_lines(&m->eng);
			return st;
		}
		if (m->family == CL_FAMILY_CLEARING || m->eng.finished ||
		    cl_iso_clearing_queued(m->clr)) {
			st = cl_iso_clearing_next(m->clr, &item->rec, err);
			item->family = CL_FAMILY_CLEARING;
			return st;
		}
		if (m->stmt->q.e_len > 0) { /* it stopped on a root the clearing reader ignored */
			m->family = CL_FAMILY_STATEMENT;
			continue;
		}
		cl_xml_pump(&m->eng);
	}
}

enum cl_status cl_iso20022_next(void *h, const struct cl_record **rec, struct cl_error *err)
{
	struct cl_item item;
	enum cl_status st = cl_iso20022_next_item(h, &item, err);

	*rec = item.rec;
	/* a statement's items are no records: its errors, then the end */
	while (st == CL_OK && !item.rec) {
		st = cl_iso20022_next_item(h, &item, err);
		*rec = item.rec;
	}
	return st;
}

void cl_iso20022_fingerprints_unread(void *h)
{
	struct xml_message *m = h;

	m->clr->fingerprints_unread = true;
}

void cl_iso20022_free(void *h)
{
	struct xml_message *m = h;

	cl_stmt_free(m->stmt);
	cl_iso_clearing_free(m->clr);
	cl_xml_free(&m->eng);
	free(m);
}
