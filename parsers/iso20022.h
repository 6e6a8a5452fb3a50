/*
 * iso20022.h - streaming ISO 20022 parser (pain.001, pacs.008, pacs.009,
 * pacs.004), a plug into the one XML engine (xml_engine.h: libxml2's SAX2
 * push parser, no tree is built: memory stays constant whatever the file
 * size); the ISO 20022 row of the table of formats (xml_message.c) hands
 * it every Document that is not a statement or status report.
 *
 * One struct cl_record per transaction (CdtTrfTxInf / TxInf), carrying the
 * group header and payment information context it belongs to.  The message
 * and version come from the Document namespace; an AppHdr envelope is
 * accepted.  No network, no entity substitution, no DTD loading: any
 * DOCTYPE makes the file invalid (xml_doctype), before libxml2 sees it.
 * Records and errors are the same whatever the input's read sizes.
 *
 * Files are read through parser.h (the format's entry is
 * cl_format_iso20022, format.h); this header holds the value checks the
 * CSV reader shares.
 */
#ifndef CL_ISO20022_H
#define CL_ISO20022_H

#include "base/record.h"
#include "parsers/input.h"
#include "parsers/parser.h"

/* Natural key, key_rule and fingerprint of a pain.001, pacs.008 or pacs.004
 * record from its own fields, by the code the parser uses (rule v1, never
 * positional).  Returns false, with why[cap] saying what is missing and the
 * key empty, when the record has no usable identifier.  Not for pacs.009
 * (its fingerprint adds Dbtr/Cdtr FinInstnId, which are not record fields);
 * a pain.001 that had Amt/EqvtAmt gets the fingerprint it would have had
 * without CcyOfTrf. */
struct cl_fp;
bool cl_iso20022_record_key_fingerprint(struct cl_fp *fp, struct cl_record *rec, char *why,
					size_t cap) CL_MUST_CHECK;

/* ---- checks the parser runs on values, shared with the CSV reader (a
 * CSV row reaches the record model only as the XML parser could give it) */

bool cl_iso_iban_shape(const char *s);   /* [A-Z]{2}[0-9]{2}[A-Z0-9]{11,30} */
bool cl_iso_iban_check(const char *s);   /* mod 97 == 1; shape assumed */
bool cl_iso_bic_shape(const char *s);    /* [A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})? */
/* UUID of version 4 (either case); writes the lowercase form to out[37]. */
bool cl_iso_uuid4(const char *s, char out[37]);
/* An account number as messages quote it: of its first n bytes, all but
 * the last four become '*' (cut to cap - 1).  Messages reach logs and
 * clearing_load.reason, where account numbers never go. */
const char *cl_iso_mask_account(const char *acct, size_t n, char *buf, size_t cap);
/* The blanks (space, tab, CR, LF) around an element's text dropped:
 * *s and *n are moved past them, as the parser reads every value. */
void cl_iso_trim(const char **s, size_t *n);
/* Minor-unit exponent of an ISO 4217 code: 0..4; -1 when the code is not
 * an ISO 4217 currency; -2 when it has no minor unit (XAU, XDR, ...). */
int cl_iso_ccy_exponent(const char *ccy);

/* Can the XSD at `path` be used for --schema (readable, a schema, no
 * import or include: only a self-contained XSD is read)?  CL_OK, or
 * CL_INVALID with err (no file or line) naming the schema and why.  Asked
 * once before any input is read, so that a bad schema is not reported as
 * an invalid input. */
enum cl_status cl_iso20022_schema_check(const char *path, struct cl_error *err) CL_MUST_CHECK;

#endif
