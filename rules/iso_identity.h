/*
 * iso_identity.h - what makes an ISO 20022 record the record it is: its
 * natural key (rule v1), its alternate keys and its fingerprint, pure
 * functions of its fields and the few facts of the message that are not
 * record fields (struct cl_iso_extra).  The exact fields are listed in
 * clearing-load-keys(7).  The XML parser and the CSV reader both call them.
 */
#ifndef CL_ISO_IDENTITY_H
#define CL_ISO_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

#include "base/record.h"
#include "rules/fingerprint.h"

/* The message families read (their names: parsers/iso20022_ns.c). */
enum cl_iso_kind {
	CL_ISO_NONE = 0,
	CL_ISO_PAIN001,
	CL_ISO_PACS008,
	CL_ISO_PACS009,
	CL_ISO_PACS004,
	CL_ISO_PAIN008, /* customer direct debit initiation */
	CL_ISO_PACS003, /* interbank customer direct debit */
	CL_ISO_CAMT056, /* interbank payment cancellation request */
	CL_ISO_CAMT029, /* resolution of investigation: the request's answer */
};

/* What a record's key and fingerprint need beyond struct cl_record. */
struct cl_iso_extra {
	enum cl_iso_kind kind;
	char debtor_fi[CL_AGENT_MAX];   /* pacs.009 Dbtr/FinInstnId */
	char creditor_fi[CL_AGENT_MAX]; /* pacs.009 Cdtr/FinInstnId */
	char ccy_of_trf[4];             /* pain.001 Amt/EqvtAmt/CcyOfTrf, or "" */
	bool positional_keys;
};

/* "NOTPROVIDED" in any case, ignoring surrounding blanks, or empty: an
 * identifier that is no key. */
bool cl_iso_id_unusable(const char *s);

/* Fill rec->natural_key, rec->key_rule and the alternate keys; returns
 * false (key empty) when the record has no usable identifier, with why[cap]
 * saying what was missing and why the key needs it (a pacs record without
 * an instructing agent: why starts with CL_ISO_NO_INSTG, so a parser that
 * knows where the agent could have been can say so). */
#define CL_ISO_NO_INSTG "no instructing agent"

bool cl_iso_make_key(struct cl_record *rec, const struct cl_iso_extra *x, char *why,
		     size_t cap);

/* rec->fingerprint over the kind's economic fields (and rec->alt_fp, the
 * same without the instructed agent, for a pacs record with an alternate
 * key). */
void cl_iso_fingerprint(struct cl_fp *fp, struct cl_record *rec, const struct cl_iso_extra *x);

/* Only the fingerprint an alternate key is paired with (alt_fp, else
 * fingerprint; none without an alternate key), has_alt_fp as above: what
 * validate reads of them (cmd/walk.c walk_alt_key; cl_parse_opts
 * no_fingerprints). */
void cl_iso_fingerprint_of_alt_key(struct cl_fp *fp, struct cl_record *rec,
				   const struct cl_iso_extra *x);

#endif
