/* iso20022_ns.c - Document namespace -> message kind and version. */
#include "parsers/iso20022_internal.h"

#include <stdio.h>
#include <string.h>

#define ISO_NS_PREFIX "urn:iso:std:iso:20022:tech:xsd:"
#define SIX_NS_PREFIX "http://www.six-interbank-clearing.com/de/"

/* Each kind: its name (the record kind and the namespace family) and the
 * message element under Document. */
static const struct kinddef {
	const char *name;
	const char *root;
} kinds[] = {
	[CL_ISO_PAIN001] = {"pain.001", "CstmrCdtTrfInitn"},
	[CL_ISO_PACS008] = {"pacs.008", "FIToFICstmrCdtTrf"},
	[CL_ISO_PACS009] = {"pacs.009", "FICdtTrf"},
	[CL_ISO_PACS004] = {"pacs.004", "PmtRtr"},
	[CL_ISO_PAIN008] = {"pain.008", "CstmrDrctDbtInitn"},
	[CL_ISO_PACS003] = {"pacs.003", "FIToFICstmrDrctDbt"},
	[CL_ISO_CAMT056] = {"camt.056", "FIToFIPmtCxlReq"},
	[CL_ISO_CAMT029] = {"camt.029", "RsltnOfInvstgtn"},
};

/* The messages we read, with the variants and versions of each.  Variant
 * 001 is ISO's own; pain.001.002.03 and pain.001.003.03 are the EPC and
 * German DK restrictions of pain.001.001.03 (same elements, fewer options). */
static const struct msgdef {
	enum cl_iso_kind kind;   /* its family: "pain.001" */
	unsigned variant;
	unsigned min_version, max_version;
} msgdefs[] = {
	/* up to the newest of the ISO catalogue of 19 March 2026 */
	{CL_ISO_PAIN001, 1, 3, 13},
	{CL_ISO_PAIN001, 2, 3, 3},
	{CL_ISO_PAIN001, 3, 3, 3},
	{CL_ISO_PACS008, 1, 2, 14},
	{CL_ISO_PACS009, 1, 2, 13},
	{CL_ISO_PACS004, 1, 2, 15},
	/* pain.008.001.01 names its message element "pain.008.001.01";
	   pain.008.002.02 and .003.02 are the EPC and DK restrictions of .02 */
	{CL_ISO_PAIN008, 1, 1, 12},
	{CL_ISO_PAIN008, 2, 2, 2},
	{CL_ISO_PAIN008, 3, 2, 2},
	{CL_ISO_PACS003, 1, 1, 12},
	/* camt.029.001.01 and .02 answer a case as a whole (no CxlDtls, no
	   transaction to attach to): not read */
	{CL_ISO_CAMT056, 1, 1, 12},
	{CL_ISO_CAMT029, 1, 3, 14},
};

/* Namespaces outside the urn:iso scheme that carry one of the messages
 * above unchanged (national restrictions). */
static const struct alias {
	const char *ns;
	const char *msg_type;
	enum cl_iso_kind kind;
} aliases[] = {
	{"http://www.six-interbank-clearing.com/de/pain.001.001.03.ch.02.xsd",
	 "pain.001.001.03.ch.02", CL_ISO_PAIN001},
};

const char *cl_iso_ns_supported(void)
{
	return ISO_NS_PREFIX "pain.001.001.03 to .13 (and pain.001.002.03, "
	       "pain.001.003.03, SIX pain.001.001.03.ch.02), pacs.008.001.02 to .14, "
	       "pacs.009.001.02 to .13, pacs.004.001.02 to .15, pain.008.001.01 to .12 "
	       "(and pain.008.002.02, pain.008.003.02), pacs.003.001.01 to .12, "
	       "camt.056.001.01 to .12, camt.029.001.03 to .14";
}

/* What the messages an operator may find in an inbox are, by family:
 * `clearing` for payment messages we do not load (yet), else a report,
 * statement or status that is not a clearing file at all. */
static const struct other {
	const char *family;
	const char *what;
	bool clearing;
} others[] = {
	{"camt.052", "an account report", false},
	{"camt.053", "a bank statement", false},
	{"camt.054", "a debit or credit notification", false},
	{"camt.026", "an unable-to-apply investigation", false},
	{"camt.027", "a claim of non-receipt", false},
	{"camt.055", "a customer's payment cancellation request", false},
	{"camt.060", "an account reporting request", false},
	{"pacs.002", "a payment status report", false},
	{"pacs.028", "a payment status request", false},
	{"pain.002", "a payment status report", false},
	{"pain.014", "a creditor payment activation request status report", false},
	{"admi.002", "a message rejection", false},
	{"admi.004", "a system event notification", false},
	{"admi.007", "a receipt acknowledgement", false},
	{"pain.007", "a customer payment reversal", true},
	{"pain.013", "a creditor payment activation request", true},
	{"pacs.007", "a payment reversal", true},
	{"pacs.010", "an interbank direct debit of a financial institution", true},
};

const char *cl_iso_unsupported_text(char *buf, size_t cap, const char *msg_type)
{
	static const char loads[] = "pain.001, pacs.008, pacs.009, pacs.004, pain.008, "
				    "pacs.003, camt.056 and camt.029";

	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		const struct other *o = &others[i];

		if (strncmp(msg_type, o->family, 8) != 0)
			continue;
		if (o->clearing)
			snprintf(buf, cap, "%s is %s, a message clearing-load does not load: it "
				 "loads %s", msg_type, o->what, loads);
		else
			snprintf(buf, cap, "%s is %s, not a clearing file: clearing-load loads %s",
				 msg_type, o->what, loads);
		return buf;
	}
	snprintf(buf, cap, "%s is an ISO 20022 message clearing-load does not load: it loads %s",
		 msg_type, loads);
	return buf;
}

const char *cl_iso_kind_name(enum cl_iso_kind kind)
{
	return (size_t)kind < sizeof(kinds) / sizeof(kinds[0]) ? kinds[kind].name : NULL;
}

const char *cl_iso_kind_root(enum cl_iso_kind kind)
{
	return (size_t)kind < sizeof(kinds) / sizeof(kinds[0]) ? kinds[kind].root : NULL;
}

/* Three decimal digits at s, as a number; -1 otherwise. */
static int three_digits(const char *s)
{
	if (s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' || s[2] < '0' || s[2] > '9')
		return -1;
	return (s[0] - '0') * 100 + (s[1] - '0') * 10 + (s[2] - '0');
}

/* A SIX (Swiss) namespace other than the aliases: "pain.002.001.03.ch.02.xsd"
 * names a Swiss variant of an ISO 20022 message, the family tells which. */
static enum cl_iso_ns_result six_ns(const char *id, char *msg_type, size_t cap)
{
	size_t n = strlen(id);

	if (n < 19 || n >= 40 || strcmp(id + n - 4, ".xsd") != 0 || id[4] != '.' ||
	    three_digits(id + 5) < 0 || id[8] != '.' || three_digits(id + 9) < 0 ||
	    id[12] != '.')
		return CL_ISO_NS_FOREIGN;
	snprintf(msg_type, cap, "%.*s", (int)(n - 4), id);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].name && strncmp(id, kinds[i].name, 8) == 0)
			return CL_ISO_NS_VERSION;
	return CL_ISO_NS_UNSUPPORTED;
}

enum cl_iso_ns_result cl_iso_ns_parse(const char *ns, enum cl_iso_kind *kind, char *msg_type,
				      size_t cap)
{
	const char *id;
	int variant, version;
	bool family_known = false;

	*kind = CL_ISO_NONE;
	if (cap)
		msg_type[0] = '\0';
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		if (strcmp(ns, aliases[i].ns) == 0) {
			snprintf(msg_type, cap, "%s", aliases[i].msg_type);
			*kind = aliases[i].kind;
			return CL_ISO_NS_OK;
		}
	}
	if (strncmp(ns, SIX_NS_PREFIX, strlen(SIX_NS_PREFIX)) == 0)
		return six_ns(ns + strlen(SIX_NS_PREFIX), msg_type, cap);
	if (strncmp(ns, ISO_NS_PREFIX, strlen(ISO_NS_PREFIX)) != 0)
		return CL_ISO_NS_FOREIGN;
	id = ns + strlen(ISO_NS_PREFIX);
	/* <4 letters>.<3 digits>.<3 digits>.<2-3 digits> */
	if (strlen(id) < 15 || id[4] != '.' || three_digits(id + 5) < 0 || id[8] != '.' ||
	    three_digits(id + 9) < 0 || id[12] != '.')
		return CL_ISO_NS_FOREIGN;
	snprintf(msg_type, cap, "%s", id);
	variant = three_digits(id + 9);
	if (strlen(id + 13) == 2 && id[13] >= '0' && id[13] <= '9' && id[14] >= '0' &&
	    id[14] <= '9')
		version = (id[13] - '0') * 10 + (id[14] - '0');
	else
		version = -1;
	for (size_t i = 0; i < sizeof(msgdefs) / sizeof(msgdefs[0]); i++) {
		const struct msgdef *m = &msgdefs[i];

		if (strncmp(id, kinds[m->kind].name, 8) != 0)
			continue;
		family_known = true;
		if ((unsigned)variant == m->variant && version >= 0 &&
		    (unsigned)version >= m->min_version && (unsigned)version <= m->max_version) {
			*kind = m->kind;
			return CL_ISO_NS_OK;
		}
	}
	return family_known ? CL_ISO_NS_VERSION : CL_ISO_NS_UNSUPPORTED;
}
