/*
 * xml_engine.c - the one XML engine (xml_engine.h): input, byte guard,
 * libxml2's SAX2 push parser, its errors in our words, the end of the
 * input, and --schema validation, for every ISO 20022 message reader.
 */
#include "parsers/xml_engine.h"

#include <errno.h>
#include <stddef.h>
#include <libxml/parserInternals.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

unsigned long cl_xml_line(const struct cl_xml_engine *e)
{
	return e->ctxt && e->ctxt->input && e->ctxt->input->line > 0
		       ? (unsigned long)e->ctxt->input->line
		       : 0;
}

unsigned long cl_xml_lines(const struct cl_xml_engine *e)
{
	return cl_iso_guard_lines(&e->guard);
}

void cl_xml_stop(struct cl_xml_engine *e)
{
	e->fatal = true;
	e->finished = true;
	if (e->ctxt)
		xmlStopParser(e->ctxt); /* no more callbacks */
}

static void fatal(struct cl_xml_engine *e, unsigned long line, const char *code,
		  const char *message)
{
	cl_error_set(cl_outq_error(e->plug->queue(e->user), false), e->name, line, code, "%s",
		     message);
	if (e->plug->stopped)
		e->plug->stopped(e->user);
	cl_xml_stop(e);
}

void cl_xml_text_add(char *text, size_t cap, size_t *n, bool *over, const xmlChar *ch, int len)
{
	if (len <= 0)
		return;
	if (*n + (size_t)len >= cap) {
		*over = true;
		return;
	}
	memcpy(text + *n, ch, (size_t)len);
	*n += (size_t)len;
}

/* ------------------------------------------------------- libxml2 errors */

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
static void encoding_words(const struct cl_xml_engine *x, struct cl_error *e)
{
	char bytes[64];
	const char *b = strstr(e->message, "Bytes: ");

	if (x->ctxt && x->plug->path)
		x->plug->path(x->user, e->path, sizeof(e->path));
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

/* libxml2's structured error handler (the parser's and the schema
 * validator's): libxml2 never prints. */
static void xml_error(void *ctx, xmlErrorPtr xe)
{
	struct cl_xml_engine *x = ctx;
	struct cl_error *e;
	const char *code = "xml_malformed";
	size_t n;

	if (!xe || xe->level == XML_ERR_WARNING || xe->level == XML_ERR_NONE)
		return;
	if (xe->code == XML_ERR_NO_MEMORY && !x->xml_fatal_set) {
		/* the name dictionary hit CL_ISO_MAX_NAMES (real out of memory
		 * exits in cl_xmalloc before libxml2 could say so) */
		x->xml_fatal_set = true;
		x->xml_fatal_at_end = x->terminating;
		x->xml_fatal_code = xe->code;
		cl_error_set(&x->xml_fatal, x->name, xe->line > 0 ? (unsigned long)xe->line : 0,
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
		if (x->xml_fatal_set)
			return;
		x->xml_fatal_set = true;
		x->xml_fatal_at_end = x->terminating;
		x->xml_fatal_code = xe->code;
		e = &x->xml_fatal; /* said by cl_xml_verdict(), after the guard's */
	} else {
		e = cl_outq_error(x->plug->queue(x->user), false);
	}
	/* schema validity errors from the SAX plug carry no line: ours */
	cl_error_set(e, x->name, xe->line > 0 ? (unsigned long)xe->line : cl_xml_line(x), code,
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
		encoding_words(x, e);
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

/* ------------------------------------------------------ SAX2 handlers */

/* The reader's handlers, and with --schema the validator's for the events
 * of the Document element and what it holds. */
static bool validating(const struct cl_xml_engine *e)
{
	return e->vdepth >= 0 && !e->finished && !e->terminating;
}

void cl_xml_document_at(struct cl_xml_engine *e, int depth)
{
	e->vstart = depth;
}

static void sax_start(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri,
		      int nb_namespaces, const xmlChar **namespaces, int nb_attributes,
		      int nb_defaulted, const xmlChar **attributes)
{
	struct cl_xml_engine *e = ctx;
	int depth = e->depth++;

	/* once told the input has ended libxml2 reports what is left, a tag
	 * cut in two included: that is a truncated file, never an element */
	if (depth == 0 && !e->finished && !e->terminating)
		e->root_opened = true;
	e->plug->start(e->user, name, uri, nb_attributes, attributes);
	if (!e->vsax)
		return;
	if (e->vdepth < 0 && !e->vdone && depth == e->vstart)
		e->vdepth = depth; /* the Document (or a message root standing for it) */
	if (validating(e))
		e->vsax->startElementNs(e->vuser, name, prefix, uri, nb_namespaces, namespaces,
					nb_attributes, nb_defaulted, attributes);
}

static void sax_end(void *ctx, const xmlChar *name, const xmlChar *prefix, const xmlChar *uri)
{
	struct cl_xml_engine *e = ctx;
	int depth = --e->depth;

	if (validating(e)) {
		e->vsax->endElementNs(e->vuser, name, prefix, uri);
		if (depth == e->vdepth) {
			e->vdepth = -1;
			e->vdone = true;
		}
	}
	if (depth == 0 && !e->finished && !e->terminating)
		e->root_closed = true;
	e->plug->end(e->user);
}

static void sax_text(void *ctx, const xmlChar *ch, int len)
{
	struct cl_xml_engine *e = ctx;

	if (validating(e))
		e->vsax->characters(e->vuser, ch, len);
	if (!e->terminating)
		e->plug->text(e->user, ch, len);
}

static void sax_cdata(void *ctx, const xmlChar *ch, int len)
{
	struct cl_xml_engine *e = ctx;

	if (validating(e))
		e->vsax->cdataBlock(e->vuser, ch, len);
	if (!e->terminating)
		e->plug->text(e->user, ch, len);
}

/* The guard refuses every DOCTYPE before libxml2 sees it; this is the second
 * line. */
static void sax_doctype(void *ctx, const xmlChar *name, const xmlChar *ext, const xmlChar *sys)
{
	struct cl_xml_engine *e = ctx;

	(void)name;
	(void)ext;
	(void)sys;
	fatal(e, cl_xml_line(e), "xml_doctype",
	      "document type declaration (<!DOCTYPE ...>) not allowed");
}

/* ------------------------------------------------------------ --schema */

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

enum cl_status cl_xml_schema_check(const char *path, struct cl_error *err)
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
 * root, an AppHdr envelope included); ours hand it the events of the
 * Document subtree only. */
static bool load_schema(struct cl_xml_engine *e)
{
	char msg[CL_MSGTEXT_MAX];

	e->schema = schema_parse(e->schema_path, &e->schema_doc, msg, sizeof(msg));
	if (e->schema)
		e->vctxt = xmlSchemaNewValidCtxt(e->schema);
	if (e->vctxt) {
		xmlSchemaSetValidStructuredErrors(e->vctxt, xml_error, e);
		/* no handler of ours behind it: plugged into NULL, it gives its
		 * own handlers and context to call */
		e->vsax = NULL;
		e->vuser = NULL;
		e->vplug = xmlSchemaSAXPlug(e->vctxt, &e->vsax, &e->vuser);
	}
	if (!e->vplug) {
		fatal(e, 0, "xml_schema", e->schema ? "could not start XML schema validation" : msg);
		return false;
	}
	return true;
}

/* ---------------------------------------------------------- lifecycle */

void cl_xml_init(struct cl_xml_engine *e, struct cl_input *in, size_t feed,
		 const struct cl_xml_plug *plug, void *u, const char *empty,
		 const char *schema_path)
{
	xmlInitParser(); /* idempotent; libxml2's global state set up once */
	memset(e, 0, sizeof(*e));
	e->in = in;
	e->name = cl_input_name(in);
	e->feed = feed;
	e->plug = plug;
	e->user = u;
	e->empty = empty;
	e->schema_path = schema_path;
	cl_iso_guard_init(&e->guard);
	e->vstart = e->vdepth = -1;
}

static void start(struct cl_xml_engine *e)
{
	const unsigned char *head;
	size_t len;
	char code[CL_CODE_MAX], msg[200];
	struct cl_error err;

	e->started = true;
	if (cl_input_peek(e->in, &head, &len, &err) != CL_OK) {
		e->io_failed = true;
		e->io_err = err;
		e->finished = true;
		return;
	}
	if (len == 0 && e->empty) {
		char m[200];

		snprintf(m, sizeof(m), "file is empty: expected %s", e->empty);
		fatal(e, 0, "empty_file", m);
		return;
	}
	if (!cl_iso_check_encoding(head, len, code, msg, sizeof(msg))) {
		fatal(e, 1, code, msg);
		return;
	}
	memset(&e->sax, 0, sizeof(e->sax));
	e->sax.initialized = XML_SAX2_MAGIC;
	e->sax.startElementNs = sax_start;
	e->sax.endElementNs = sax_end;
	e->sax.characters = sax_text;
	e->sax.cdataBlock = sax_cdata;
	e->sax.internalSubset = sax_doctype;
	e->sax.serror = xml_error;
	if (e->schema_path && !load_schema(e))
		return;
	e->ctxt = xmlCreatePushParserCtxt(&e->sax, e, NULL, 0, e->name);
	if (!e->ctxt)
		(void)cl_xmalloc(SIZE_MAX); /* exits: out of memory */
	/* no network, no entity substitution, no DTD loading, no HUGE */
	xmlCtxtUseOptions(e->ctxt, XML_PARSE_NONET | XML_PARSE_NOBLANKS);
	/* libxml2 keeps every distinct name and namespace for the whole parse;
	 * its own cap (10 MB of strings) lets a file of millions of distinct
	 * element names grow past 40 MB.  ISO 20022 uses a few hundred names. */
	xmlDictSetLimit(e->ctxt->dict, CL_ISO_MAX_NAMES);
	e->ctxt->linenumbers = 1;
	if (e->plug->begin)
		e->plug->begin(e->user, e->ctxt->dict);
}

/* Did libxml2 fail because the input ended inside the document?  Its
 * messages for that ("extra content at the end of the document", "couldn't
 * find end of start tag") mislead.  A fatal error raised only when libxml2
 * was told the input had ended, while the outermost element was still
 * open, is a truncated file. */
static bool truncated(const struct cl_xml_engine *e)
{
	if (!e->xml_fatal_at_end || e->root_closed)
		return false;
	if (e->xml_fatal_code == XML_ERR_DOCUMENT_END && !e->root_opened)
		return false; /* "<<<": no element at all */
	return e->xml_fatal_code != XML_ERR_DOCUMENT_EMPTY;
}

bool cl_xml_verdict(struct cl_xml_engine *e)
{
	struct cl_iso_guard *g = &e->guard;
	struct cl_error *err;

	if (e->xml_fatal_set && !(g->failed && e->xml_fatal_at_end)) {
		err = cl_outq_error(e->plug->queue(e->user), false);
		*err = e->xml_fatal;
		if (truncated(e)) {
			char why[CL_MSGTEXT_MAX];

			snprintf(why, sizeof(why), "%s", err->message);
			snprintf(err->code, sizeof(err->code), "xml_truncated");
			snprintf(err->message, sizeof(err->message),
				 "file ends inside the document (truncated?): expected the rest "
				 "of the message, found the end of the file (%.400s)",
				 why);
		}
		e->fatal = true;
		return true;
	}
	if (g->failed) {
		err = cl_outq_error(e->plug->queue(e->user), false);
		cl_error_set(err, e->name, g->fail_line, g->code, "%s", g->message);
		err->column = g->fail_col;
		e->fatal = true;
		return true;
	}
	return false;
}

/* Fill e->buf with up to CL_ISO_BUF bytes (fewer only at the end of the
 * input), every byte through the guard.  Returns false on a read error. */
static bool fill(struct cl_xml_engine *e)
{
	size_t n = 0;

	while (n < CL_ISO_BUF && !e->eof) {
		long r = cl_input_read(e->in, e->buf + n, CL_ISO_BUF - n, &e->io_err);

		if (r < 0) {
			e->io_failed = true;
			return false;
		}
		if (r == 0)
			e->eof = true;
		n += (size_t)r;
	}
	e->buf_len = cl_iso_guard_scan(&e->guard, e->buf, n);
	e->buf_pos = 0;
	return true;
}

/* The end: the guard's, libxml2's, or the reader's verdict. */
static void finish(struct cl_xml_engine *e)
{
	bool done = e->io_failed || e->fatal;

	e->finished = true;
	if (!done)
		e->plug->finish(e->user);
}

/* Something waits in the reader's queue, or more than the queue says. */
static bool ready(const struct cl_xml_engine *e)
{
	if (e->plug->ready)
		return e->plug->ready(e->user);
	return cl_outq_ready(e->plug->queue(e->user));
}

void cl_xml_pump(struct cl_xml_engine *e)
{
	if (!e->started)
		start(e);
	while (!e->finished && !ready(e)) {
		size_t n;

		if (e->buf_pos == e->buf_len) {
			if (e->guard.failed || e->eof) {
				/* the guard stopped the input: libxml2 keeps what it
				 * reported before that point, nothing after */
				if (!e->guard.failed) {
					e->terminating = true;
					xmlParseChunk(e->ctxt, NULL, 0, 1);
				}
				if (!e->finished)
					finish(e);
				break;
			}
			if (!fill(e)) {
				e->finished = true;
				break;
			}
			continue;
		}
		n = e->buf_len - e->buf_pos;
		if (n > e->feed)
			n = e->feed;
		xmlParseChunk(e->ctxt, (const char *)e->buf + e->buf_pos, (int)n, 0);
		e->buf_pos += n;
		if (e->xml_fatal_set && !e->finished)
			finish(e);
	}
}

void cl_xml_free(struct cl_xml_engine *e)
{
	if (e->ctxt) {
		if (e->ctxt->myDoc)
			xmlFreeDoc(e->ctxt->myDoc);
		xmlFreeParserCtxt(e->ctxt);
		e->ctxt = NULL;
	}
	if (e->vplug)
		xmlSchemaSAXUnplug(e->vplug);
	if (e->vctxt)
		xmlSchemaFreeValidCtxt(e->vctxt);
	if (e->schema)
		xmlSchemaFree(e->schema);
	if (e->schema_doc)
		xmlFreeDoc(e->schema_doc);
	e->vplug = NULL;
	e->vctxt = NULL;
	e->schema = NULL;
	e->schema_doc = NULL;
}
