/*
 * xml_engine.h - the one XML engine of the readers: every ISO 20022
 * message (the clearing messages of iso20022.c, the statements of
 * statement_camt.c, the status reports of status_pacs002.c) is read by it.
 *
 * It owns what does not depend on the message: the input read in
 * CL_ISO_BUF blocks, every byte through the byte guard
 * (iso20022_guard.c: no DOCTYPE, bounded text, line tracking), libxml2's
 * SAX2 push parser fed in fixed pieces (so what libxml2 reports never
 * depends on the read sizes) with the same settings for all (no network,
 * no entity substitution, no DTD, a bounded name dictionary), libxml2's
 * errors said in the project's words, the end of the input (a file cut
 * inside its document is xml_truncated), and --schema validation of the
 * Document subtree.
 *
 * A message reader plugs in with a struct cl_xml_plug: its element and
 * text events, a slot in its own queue for errors (so errors and items
 * stay in document order), and its verdict at the end.  The reader embeds
 * the engine and passes it to libxml2 through it; nothing here allocates
 * per element.  Not a public interface: files are read through parser.h.
 */
#ifndef CL_XML_ENGINE_H
#define CL_XML_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include <libxml/parser.h>
#include <libxml/xmlschemas.h>

#include "base/record.h"
#include "parsers/input.h"
#include "parsers/iso20022_internal.h"
#include "parsers/outq.h"

/* What a message reader gives the engine; u is its own state. */
struct cl_xml_plug {
	/* libxml2's dictionary is ready: intern the names compared as
	 * pointers (may be NULL) */
	void (*begin)(void *u, xmlDictPtr dict);
	/* SAX2 element start (attributes as (localname, prefix, URI, value,
	 * value end) quintuples), end, and text or CDATA */
	void (*start)(void *u, const xmlChar *name, const xmlChar *uri, int nb_attributes,
		      const xmlChar **attributes);
	void (*end)(void *u);
	void (*text)(void *u, const xmlChar *ch, int len);
	/* the engine stopped reading on an error of its own, queued (may be
	 * NULL) */
	void (*stopped)(void *u);
	/* the reader's queue (outq.h): the engine's errors go in it, and the
	 * pump returns when something waits in it */
	struct cl_outq *(*queue)(void *u);
	/* something waits to be handed out, where that is more than the
	 * queue says (may be NULL) */
	bool (*ready)(const void *u);
	/* the input is done (read, or stopped by the guard or libxml2): the
	 * reader's verdict, which calls cl_xml_verdict() where it wants the
	 * engine's */
	void (*finish)(void *u);
	/* the element path of the text being read, for an encoding error
	 * inside it (may be NULL) */
	void (*path)(const void *u, char *out, size_t cap);
};

struct cl_xml_engine {
	struct cl_input *in;
	const char *name;              /* display name of the input */
	const struct cl_xml_plug *plug;
	void *user;
	size_t feed;                   /* bytes per xmlParseChunk */
	const char *empty;             /* what an empty input was expected to
	                                  be (empty_file), or NULL: not checked */
	const char *schema_path;       /* --schema, or NULL */

	xmlParserCtxtPtr ctxt;
	xmlSAXHandler sax;
	struct cl_iso_guard guard;
	unsigned char buf[CL_ISO_BUF];
	size_t buf_len, buf_pos;

	bool started, eof, terminating;
	bool finished;                 /* no more events; the verdict was given */
	bool fatal;                    /* stopped by a fatal error */
	bool io_failed;
	struct cl_error io_err;
	bool xml_fatal_set, xml_fatal_at_end;
	int xml_fatal_code;            /* libxml2's xmlParserErrors */
	struct cl_error xml_fatal;     /* said after the guard's verdict */
	int depth;                     /* of the element being opened */
	bool root_opened, root_closed; /* the outermost element */

	/* --schema: the validator is handed the events of the Document
	 * subtree only (an AppHdr or envelope around it is not the XSD's) */
	xmlSchemaPtr schema;
	xmlDocPtr schema_doc;          /* the XSD it was parsed from */
	xmlSchemaValidCtxtPtr vctxt;
	xmlSchemaSAXPlugPtr vplug;
	xmlSAXHandlerPtr vsax;         /* kept alive as long as the engine:
	                                  the plug writes them back */
	void *vuser;
	int vstart;                    /* depth the reader marked as its Document */
	int vdepth;                    /* depth being validated, -1 when none */
	bool vdone;
};

/* Set up e (not yet reading) for input `in`, feeding libxml2 `feed` bytes
 * at a time, with the reader `plug` on state u.  `empty`: what an empty
 * input should have been (its empty_file message), or NULL. */
void cl_xml_init(struct cl_xml_engine *e, struct cl_input *in, size_t feed,
		 const struct cl_xml_plug *plug, void *u, const char *empty,
		 const char *schema_path);

/* Feed libxml2 until the reader is ready() or the input is finished. */
void cl_xml_pump(struct cl_xml_engine *e);

/* Stop reading (after a fatal error the reader queued): no more events. */
void cl_xml_stop(struct cl_xml_engine *e);

/* The engine's verdict, for the reader's finish(): libxml2's fatal error
 * (a truncated file said so) or the guard's, queued through the reader's
 * error slot.  Returns true when one was queued (reading failed). */
bool cl_xml_verdict(struct cl_xml_engine *e);

/* The line libxml2 is at (for a start tag, the line of its '>'), 0 before
 * it began. */
unsigned long cl_xml_line(const struct cl_xml_engine *e);

/* The reader's Document (or a message root standing for it) begins at
 * `depth`: --schema validates from there. */
void cl_xml_document_at(struct cl_xml_engine *e, int depth);

/* Lines in the bytes seen so far. */
unsigned long cl_xml_lines(const struct cl_xml_engine *e);

/* A reader's text buffer text[cap] holding *n bytes: ch[len] added, or
 * *over set when it would not fit (the value is then too long, whatever
 * comes after). */
void cl_xml_text_add(char *text, size_t cap, size_t *n, bool *over, const xmlChar *ch, int len);

void cl_xml_free(struct cl_xml_engine *e);

/* Can the XSD at `path` be used for --schema?  (iso20022.h says more.) */
enum cl_status cl_xml_schema_check(const char *path, struct cl_error *err) CL_MUST_CHECK;

#endif
