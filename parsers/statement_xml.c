/* statement_xml.c - the statements' and status reports' plug into the one
 * XML engine (xml_engine.c: input, byte guard, libxml2, its errors, the end
 * of the input): the Document namespace names the message (camt.052/053/054
 * or pacs.002), and element paths are matched against that message's table
 * of scopes and fields (statement_camt.c, status_pacs002.c).
 *
 * Memory is constant: the open elements, one text buffer, the queues. */
#include "parsers/statement_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

/* The messages read here: family, message root, first and last version
 * of that root.  Every version published (docs/design/0037): the .001.01
 * camt messages (2006) name their root with its version, the pacs.002.001.02
 * (2006) root is the message name itself; pacs.002.001.01 was never
 * published (the ISO 20022 catalogue and archive begin at .001.02). */
static const struct stmt_msgdef {
	const char *family;
	enum cl_stmt_source source;
	const char *root;
	unsigned min_version, max_version;
} msgdefs[] = {
	{"camt.052", CL_STMT_SRC_CAMT052, "BkToCstmrAcctRptV01", 1, 1},
	{"camt.052", CL_STMT_SRC_CAMT052, "BkToCstmrAcctRpt", 2, 14},
	{"camt.053", CL_STMT_SRC_CAMT053, "BkToCstmrStmtV01", 1, 1},
	{"camt.053", CL_STMT_SRC_CAMT053, "BkToCstmrStmt", 2, 14},
	{"camt.054", CL_STMT_SRC_CAMT054, "BkToCstmrDbtCdtNtfctnV01", 1, 1},
	{"camt.054", CL_STMT_SRC_CAMT054, "BkToCstmrDbtCdtNtfctn", 2, 14},
	{"pacs.002", CL_STMT_SRC_PACS002, "pacs.002.001.02", 2, 2},
	{"pacs.002", CL_STMT_SRC_PACS002, "FIToFIPmtStsRpt", 3, 16},
	/* pain.002.001.01 was never published either (the catalogue's
	   customer status report begins with PaymentStatusReportV02) */
	{"pain.002", CL_STMT_SRC_PAIN002, "pain.002.001.02", 2, 2},
	{"pain.002", CL_STMT_SRC_PAIN002, "CstmrPmtStsRpt", 3, 15},
};

#define SUPPORTED                                                                            \
	"camt.052, camt.053 or camt.054 (.001.01 to .001.14), pacs.002 (.001.02 to .001.16) " \
	"or pain.002 (.001.02 to .001.15)"

static unsigned long cur_line(const struct cl_stmt_xml *x)
{
	return cl_xml_line(x->eng);
}

/* ------------------------------------------------------------ paths */

static unsigned path_hash(int scope, const char *rel, size_t n)
{
	uint32_t h = 2166136261u ^ (uint32_t)scope;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)rel[i]) * 16777619u;
	return h & (CL_STMT_PH - 1);
}

static const struct cl_stmt_path *path_at(const struct cl_stmt_msg_ops *ops, int i)
{
	return (size_t)i < ops->npaths ? &ops->paths[i] : &ops->vpaths[(size_t)i - ops->npaths].path;
}

static void hash_add(struct cl_stmt_xml *x, size_t i)
{
	const struct cl_stmt_path *e = path_at(x->ops, (int)i);
	unsigned h = path_hash(e->scope, e->rel, strlen(e->rel));

	while (x->ph[h] >= 0)
		h = (h + 1) & (CL_STMT_PH - 1);
	x->ph[h] = (int16_t)i;
}

/* The paths every version shares, and those of the message's version. */
static void build_hash(struct cl_stmt_xml *x)
{
	for (int i = 0; i < CL_STMT_PH; i++)
		x->ph[i] = -1;
	for (size_t i = 0; i < x->ops->npaths; i++)
		hash_add(x, i);
	for (size_t i = 0; i < x->ops->nvpaths; i++)
		if (x->version >= x->ops->vpaths[i].from && x->version <= x->ops->vpaths[i].to)
			hash_add(x, x->ops->npaths + i);
}

static const struct cl_stmt_path *lookup(const struct cl_stmt_xml *x, int scope, const char *rel,
					 size_t n)
{
	unsigned h = path_hash(scope, rel, n);

	while (x->ph[h] >= 0) {
		const struct cl_stmt_path *e = path_at(x->ops, x->ph[h]);

		if (e->scope == scope && strncmp(e->rel, rel, n) == 0 && e->rel[n] == '\0')
			return e;
		h = (h + 1) & (CL_STMT_PH - 1);
	}
	return NULL;
}

void cl_stmt_xml_path(const struct cl_stmt_parser *p, char *out, size_t cap)
{
	const struct cl_stmt_xml *x = p->xml;
	int d = x && x->depth > 0 ? x->depth - 1 : -1;

	if (d < 0 || d > CL_ISO_MAX_DEPTH) {
		snprintf(out, cap, "%s", "");
		return;
	}
	snprintf(out, cap, "%.*s", (int)x->path_len[d], x->path);
}

void cl_stmt_xml_scope_path(const struct cl_stmt_parser *p, char *out, size_t cap)
{
	const struct cl_stmt_xml *x = p->xml;

	if (!x || x->nscopes == 0) {
		snprintf(out, cap, "%s", "");
		return;
	}
	snprintf(out, cap, "%.*s", (int)x->scopes[x->nscopes - 1].off, x->path);
}

/* --------------------------------------------------------- elements */

/* The row of a family (camt.053) in a version; with version 0 or one no
 * row has, the family's first row. */
static const struct stmt_msgdef *msgdef_of(const char *msg_type, int version)
{
	const struct stmt_msgdef *first = NULL;

	for (size_t i = 0; i < sizeof(msgdefs) / sizeof(msgdefs[0]); i++) {
		if (strncmp(msg_type, msgdefs[i].family, 8) != 0)
			continue;
		if (!first)
			first = &msgdefs[i];
		if (version >= (int)msgdefs[i].min_version && version <= (int)msgdefs[i].max_version)
			return &msgdefs[i];
	}
	return first;
}

/* The first and last version of a family read. */
static void family_versions(const char *family, unsigned *lo, unsigned *hi)
{
	*lo = 99;
	*hi = 0;
	for (size_t i = 0; i < sizeof(msgdefs) / sizeof(msgdefs[0]); i++)
		if (strncmp(family, msgdefs[i].family, 8) == 0) {
			if (msgdefs[i].min_version < *lo)
				*lo = msgdefs[i].min_version;
			if (msgdefs[i].max_version > *hi)
				*hi = msgdefs[i].max_version;
		}
}

/* A version of a family not read: why, in words. */
static void version_refused(struct cl_stmt_parser *p, unsigned long line, const char *t,
			    int version)
{
	unsigned lo, hi;

	family_versions(t, &lo, &hi);
	if (version > (int)hi) {
		/* published after this build: say so, and what to do */
		cl_stmt_fatal(p, line, "unsupported_version",
			      "unsupported message version %s: newer than %.8s.001.%02u, the newest "
			      "this build reads: read it with a newer clearing-load, or ask the bank "
			      "for %.8s.001.%02u",
			      t, t, hi, t, hi);
	} else if (version >= 0 && version < (int)lo) {
		cl_stmt_fatal(p, line, "unsupported_version",
			      "unsupported message version %s: no such version was published "
			      "(ISO 20022 publishes %.8s from .001.%02u); expected " SUPPORTED,
			      t, t, lo);
	} else {
		cl_stmt_fatal(p, line, "unsupported_version",
			      "unsupported message version %s: expected " SUPPORTED, t);
	}
}

/* A Document (or a message root standing for one): its namespace names the
 * message.  Returns false when reading stops. */
static bool document_start(struct cl_stmt_parser *p, unsigned long line, const xmlChar *uri)
{
	struct cl_stmt_xml *x = p->xml;
	const char *ns = uri ? (const char *)uri : "";
	const struct stmt_msgdef *m;
	enum cl_iso_kind kind;
	char t[32];
	int version;

	if (x->doc_seen) {
		cl_stmt_fatal(p, line, "multiple_documents",
			      "a second Document element: one message per file is supported");
		return false;
	}
	x->doc_seen = true;
	if (cl_iso_ns_parse(ns, &kind, t, sizeof(t)) == CL_ISO_NS_FOREIGN || !t[0]) {
		cl_stmt_fatal(p, line, "xml_namespace",
			      "Document namespace %s%.120s%s is not an ISO 20022 message namespace: "
			      "expected urn:iso:std:iso:20022:tech:xsd: and " SUPPORTED,
			      uri ? "\"" : "", uri ? ns : "(none)", uri ? "\"" : "");
		return false;
	}
	snprintf(p->message_type, sizeof(p->message_type), "%s", t);
	/* (SIX's pain.002.001.03.ch.02, the Swiss restriction of pain.002.001.03
	   that Swiss banks answer a pain.001 with, is its version) */
	version = (t[13] >= '0' && t[13] <= '9' && t[14] >= '0' && t[14] <= '9' &&
		   (!t[15] || (strncmp(t, "pain.002", 8) == 0 && strncmp(t + 15, ".ch.", 4) == 0)))
			  ? (t[13] - '0') * 10 + (t[14] - '0')
			  : -1;
	m = msgdef_of(t, version);
	if (!m || strncmp(t + 8, ".001.", 5) != 0) {
		cl_stmt_fatal(p, line, "unsupported_message",
			      "%s is not a statement, notification or status report: expected " SUPPORTED,
			      t);
		return false;
	}
	/* a statement family in a version not read is still a statement
	   (every command reads it with this reader and says so), not a
	   message clearing-load knows nothing of */
	p->source = m->source;
	if (version < (int)m->min_version || version > (int)m->max_version) {
		version_refused(p, line, t, version);
		return false;
	}
	x->root_name = m->root;
	x->version = (unsigned)version;
	x->ops = m->source == CL_STMT_SRC_PACS002   ? &cl_stmt_pacs002_ops
		 : m->source == CL_STMT_SRC_PAIN002 ? &cl_stmt_pain002_ops
						    : &cl_stmt_camt_ops;
	build_hash(x);
	return true;
}

static void push_scope(struct cl_stmt_parser *p, int scope, int depth, unsigned long line)
{
	struct cl_stmt_xml *x = p->xml;

	if (x->nscopes == CL_STMT_MAX_SCOPES)
		return; /* deeper than any table: the table never nests this far */
	x->scopes[x->nscopes].scope = scope;
	x->scopes[x->nscopes].depth = depth;
	x->scopes[x->nscopes].off = x->path_len[depth];
	x->scopes[x->nscopes].line = line;
	x->nscopes++;
	for (int f = 0; f < x->ops->nfields && f < 96; f++)
		if (x->seen_scope[f] >= x->nscopes)
			x->seen_line[f] = 0; /* fields of a scope at this level are new */
	for (size_t i = 0; i < x->ops->nrequired; i++)
		if (x->ops->required[i].scope == scope)
			x->present[x->ops->required[i].field] = 0;
	x->ops->scope_start(p, scope, line);
}

static void parse_start(void *ctx, const xmlChar *name, const xmlChar *uri, int nb_attributes,
			const xmlChar **attributes)
{
	struct cl_stmt_parser *p = ctx;
	struct cl_stmt_xml *x = p->xml;
	int depth = x->depth++;
	size_t base, len = strlen((const char *)name);
	unsigned long line;

	if (p->finished || x->eng->terminating)
		return;
	if (depth >= CL_ISO_MAX_DEPTH) {
		cl_stmt_fatal(p, cur_line(x), "xml_depth",
			      "elements nested deeper than the limit of %d levels", CL_ISO_MAX_DEPTH);
		return;
	}
	base = depth > 0 ? x->path_len[depth - 1] : 0;
	x->elem[depth] = NULL;
	x->path_over[depth] = depth > 0 && x->path_over[depth - 1];
	if (!x->path_over[depth] && base + 1 + len < sizeof(x->path)) {
		x->path[base] = '/';
		memcpy(x->path + base + 1, name, len);
		x->path_len[depth] = base + 1 + len;
	} else {
		x->path_over[depth] = true;
		x->path_len[depth] = base;
	}
	line = cur_line(x);
	x->text_depth = depth;
	x->text_len = 0;
	x->text_over = false;
	x->text_line = line;
	x->ccy[0] = '\0';
	for (int i = 0; i < nb_attributes; i++) {
		const xmlChar **a = attributes + 5 * i;

		if (a[0] == x->name_ccy && !a[2]) {
			size_t n = (size_t)(a[4] - a[3]);

			if (n >= sizeof(x->ccy))
				n = sizeof(x->ccy) - 1;
			memcpy(x->ccy, a[3], n);
			x->ccy[n] = '\0';
		}
	}
	if (x->root_depth < 0) {
		const struct stmt_msgdef *m = NULL;

		if (x->root_seen && (x->doc_depth < 0 || depth == x->doc_depth + 1) &&
		    strcmp((const char *)name, x->root_name) == 0) {
			/* the schema's Document holds exactly one message element;
			   a second one is not more of the first */
			cl_stmt_fatal(p, line, "multiple_messages",
				      "a second <%s> in the Document: a %s Document holds one "
				      "message (the first began on line %lu)",
				      (const char *)name, p->message_type, x->root_line);
			return;
		}
		if (x->doc_depth >= 0 && depth == x->doc_depth + 1) {
			if (strcmp((const char *)name, x->root_name) != 0) {
				cl_stmt_fatal(p, line, "unexpected_element",
					      "element <%s> under Document: a %s message has <%s>",
					      (const char *)name, p->message_type, x->root_name);
				return;
			}
		} else if (x->doc_depth < 0 && !x->doc_seen &&
			   strcmp((const char *)name, "Document") == 0) {
			if (document_start(p, line, uri)) {
				x->doc_depth = depth;
				cl_xml_document_at(x->eng, depth);
			}
			return;
		} else {
			for (size_t i = 0; i < sizeof(msgdefs) / sizeof(msgdefs[0]); i++)
				if (strcmp((const char *)name, msgdefs[i].root) == 0)
					m = &msgdefs[i];
			/* a message root without its Document (TCH RTP wraps
			 * FIToFIPmtStsRpt directly): its namespace tells the
			 * message; anything else is an envelope around it */
			if (!m || x->doc_seen || !uri)
				return;
			if (!document_start(p, line, uri))
				return;
			cl_xml_document_at(x->eng, depth);
			if (strcmp(x->root_name, (const char *)name) != 0) {
				cl_stmt_fatal(p, line, "unexpected_element",
					      "element <%s>: a %s message has <%s>",
					      (const char *)name, p->message_type, x->root_name);
				return;
			}
		}
		x->root_depth = depth;
		x->root_seen = true;
		x->root_line = line;
		x->nscopes = 0;
		push_scope(p, SC_ROOT, depth, line);
		return;
	}
	if (x->nscopes > 0 && !x->path_over[depth]) {
		const struct cl_stmt_scope_ent *s = &x->scopes[x->nscopes - 1];
		const struct cl_stmt_path *e =
			lookup(x, s->scope, x->path + s->off + 1, x->path_len[depth] - s->off - 1);

		x->elem[depth] = e;
		if (e && e->field && e->field < 96 && !x->present[e->field])
			x->present[e->field] = line;
		if (e && e->opens)
			push_scope(p, e->opens, depth, line);
	}
}

/* The elements the schema requires of the scope ending (opened by the
 * element at `depth`, whose path is still open). */
static void check_required(struct cl_stmt_parser *p, const struct cl_stmt_scope_ent *s)
{
	struct cl_stmt_xml *x = p->xml;
	char path[CL_PATH_MAX];
	const char *elem;

	if (x->path_over[s->depth])
		return; /* too deep to name: its fields were not read either */
	for (size_t i = 0; i < x->ops->nrequired; i++) {
		const struct cl_stmt_required *r = &x->ops->required[i];

		if (r->scope != s->scope || x->present[r->field])
			continue;
		snprintf(path, sizeof(path), "%.*s/%s", (int)s->off, x->path, r->name);
		for (elem = x->path + s->off; elem > x->path && elem[-1] != '/'; elem--)
			;
		cl_outq_add(&p->q, s->line, path, "missing_element",
			      "<%.*s> has no <%s> (%s): the schema requires one in every version",
			      (int)(x->path + s->off - elem), elem, r->name, r->what);
	}
}

static void field_end(struct cl_stmt_parser *p, int depth)
{
	struct cl_stmt_xml *x = p->xml;
	const struct cl_stmt_scope_ent *s;
	const struct cl_stmt_path *e;
	const char *v = x->text;
	size_t n = x->text_len;
	char path[CL_PATH_MAX];

	if (x->nscopes == 0 || x->path_over[depth])
		return;
	s = &x->scopes[x->nscopes - 1];
	if (x->path_len[depth] <= s->off)
		return;
	/* a leaf: no scope opened or closed since its start tag, where its
	   entry was looked up under this same scope */
	e = x->elem[depth];
	if (!e || !e->field)
		return;
	if (e->field < 96) {
		if (x->seen_line[e->field] && !e->repeatable) {
			struct cl_error *err;

			cl_stmt_xml_path(p, path, sizeof(path));
			err = cl_outq_add(&p->q, x->text_line, path, "repeated_element",
					    "<%s> appears again (first on line %lu): the message "
					    "allows one here, and which one is meant cannot be told",
					    strrchr(path, '/') ? strrchr(path, '/') + 1 : path,
					    x->seen_line[e->field]);
			err->other_line = x->seen_line[e->field];
			return;
		}
		if (x->seen_line[e->field])
			return; /* the first is kept */
		x->seen_line[e->field] = x->text_line;
		x->seen_scope[e->field] = (uint8_t)x->nscopes;
	}
	if (x->text_over) {
		cl_stmt_xml_path(p, path, sizeof(path));
		cl_outq_add(&p->q, x->text_line, path, "value_too_long",
			      "value longer than the limit of %d bytes", CL_ISO_MAX_VALUE - 1);
		return;
	}
	cl_iso_trim(&v, &n);
	((char *)v)[n] = '\0';
	x->ops->field(p, e->field, v, n, x->ccy, x->text_line);
}

static void parse_end(void *ctx)
{
	struct cl_stmt_parser *p = ctx;
	struct cl_stmt_xml *x = p->xml;
	int depth = x->depth - 1;

	if (p->finished || x->eng->terminating || depth < 0 || depth >= CL_ISO_MAX_DEPTH) {
		x->depth--;
		return;
	}
	if (x->root_depth >= 0) {
		if (depth == x->text_depth)
			field_end(p, depth); /* a leaf: no element started inside it */
		x->text_depth = -1;
		while (x->nscopes > 0 && x->scopes[x->nscopes - 1].depth == depth && !p->finished) {
			int scope = x->scopes[x->nscopes - 1].scope;

			check_required(p, &x->scopes[x->nscopes - 1]);
			x->ops->scope_end(p, scope); /* the scope's path is still open */
			x->nscopes--;
		}
		if (depth == x->root_depth)
			x->root_depth = -1;
	}
	if (depth == x->doc_depth) {
		if (!x->root_seen && x->ops) {
			char path[CL_PATH_MAX];

			cl_stmt_xml_path(p, path, sizeof(path));
			cl_outq_add(&p->q, cur_line(x), path, "missing_element",
				      "Document has no <%s>: expected the %s message in it", x->root_name,
				      p->message_type);
		}
		x->doc_depth = -1;
	}
	x->depth--;
}

static void parse_text(void *ctx, const xmlChar *ch, int len)
{
	struct cl_stmt_parser *p = ctx;
	struct cl_stmt_xml *x = p->xml;

	if (x->root_depth >= 0 && x->depth == x->text_depth + 1)
		cl_xml_text_add(x->text, sizeof(x->text), &x->text_len, &x->text_over, ch, len);
}

/* ------------------------------------------------- the engine's plug */

static void plug_begin(void *u, xmlDictPtr dict)
{
	struct cl_stmt_parser *p = u;

	p->xml->name_ccy = xmlDictLookup(dict, BAD_CAST "Ccy", -1);
}

/* the engine stopped on an error of its own: nothing more will come */
static void plug_stopped(void *u)
{
	struct cl_stmt_parser *p = u;

	p->fatal = true;
	p->finished = true;
}

static struct cl_outq *plug_queue(void *u)
{
	struct cl_stmt_parser *p = u;

	return &p->q;
}

static void plug_path(const void *u, char *out, size_t cap)
{
	const struct cl_stmt_parser *p = u;

	if (p->xml->text_depth >= 0)
		cl_stmt_xml_path(p, out, cap);
}

static void plug_finish(void *u)
{
	struct cl_stmt_parser *p = u;

	p->finished = true;
	if (cl_xml_verdict(p->xml->eng)) {
		p->fatal = true;
		return;
	}
	if (!p->xml->doc_seen)
		cl_outq_add(&p->q, 0, NULL, "no_document",
			      "no ISO 20022 Document element found: expected <Document> of " SUPPORTED);
}

const struct cl_xml_plug cl_stmt_xml_plug = {
	.begin = plug_begin,
	.start = parse_start,
	.end = parse_end,
	.text = parse_text,
	.stopped = plug_stopped,
	.queue = plug_queue,
	.finish = plug_finish,
	.path = plug_path,
};

/* ---------------------------------------------------------- lifecycle */

void cl_stmt_xml_init(struct cl_stmt_parser *p, struct cl_xml_engine *eng)
{
	struct cl_stmt_xml *x = cl_xcalloc(1, sizeof(*x));

	p->xml = x;
	if (eng) {
		x->eng = eng; /* shared: the ISO 20022 row of the format table */
	} else {
		x->eng = &x->own;
		cl_xml_init(x->eng, p->in, CL_STMT_FEED, &cl_stmt_xml_plug, p, NULL, NULL);
	}
	x->doc_depth = x->root_depth = x->text_depth = -1;
}

void cl_stmt_xml_pump(struct cl_stmt_parser *p)
{
	struct cl_stmt_xml *x = p->xml;

	cl_xml_pump(x->eng);
	if (x->eng->io_failed && !p->io_failed) {
		p->io_failed = true;
		p->io_err = x->eng->io_err;
	}
	if (x->eng->finished)
		p->finished = true;
}

void cl_stmt_xml_free(struct cl_stmt_parser *p)
{
	struct cl_stmt_xml *x = p->xml;

	if (!x)
		return;
	if (x->eng == &x->own)
		cl_xml_free(x->eng);
	free(x);
	p->xml = NULL;
}
