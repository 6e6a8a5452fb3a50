/* iso20022_keys.c - the key and fingerprint of an ISO 20022 record from its
 * fields alone (the CSV reader), through rules/iso_identity. */
#include "parsers/iso20022.h"
#include "parsers/iso20022_internal.h"

#include <stdio.h>
#include <string.h>

bool cl_iso20022_record_key_fingerprint(struct cl_fp *fp, struct cl_record *rec, char *why,
					size_t cap)
{
	static const enum cl_iso_kind kinds[] = { CL_ISO_PAIN001, CL_ISO_PACS008, CL_ISO_PACS004,
						  CL_ISO_PAIN008, CL_ISO_PACS003, CL_ISO_CAMT056,
						  CL_ISO_CAMT029 };
	struct cl_iso_extra x;
	bool ok;

	memset(&x, 0, sizeof(x));
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(rec->kind, cl_iso_kind_name(kinds[i])) == 0)
			x.kind = kinds[i];
	if (x.kind == CL_ISO_NONE) {
		snprintf(why, cap, "no key rule for kind %s from its fields alone", rec->kind);
		rec->natural_key[0] = '\0';
		return false;
	}
	ok = cl_iso_make_key(rec, &x, why, cap);
	cl_iso_fingerprint(fp, rec, &x);
	return ok;
}
