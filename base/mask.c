/* mask.c - account numbers masked: all but the last four characters. */
#include "base/mask.h"

#include <stdio.h>
#include <string.h>

void cl_mask_account(const char *acct, char *out, size_t cap)
{
	size_t n = strlen(acct);

	if (cap == 0)
		return;
	if (n >= cap)
		n = cap - 1;
	memcpy(out, acct, n);
	out[n] = '\0';
	for (size_t i = 0; i + 4 < n; i++)
		out[i] = '*';
}

bool cl_mask_in_key(const char *key, const char *const *accounts, size_t n, char *out,
		    size_t cap)
{
	bool masked = false;
	size_t i;

	snprintf(out, cap, "%s", key);
	for (i = 0; i < n; i++) {
		size_t len = accounts[i] ? strlen(accounts[i]) : 0;
		char *hit = out;

		if (len < 5)
			continue; /* too short to mask meaningfully (and to match by chance) */
		while ((hit = strstr(hit, accounts[i])) != NULL) {
			memset(hit, '*', len - 4);
			hit += len;
			masked = true;
		}
	}
	return masked;
}

bool cl_mask_record_key(const struct cl_record *rec, const char *key, char *out, size_t cap)
{
	/* not corrected_data: a NOC's key is traces and a date, never an
	   account, and a corrected account could match digits of a trace */
	const char *accts[3] = { rec->receiving_account, rec->debtor_account,
				 rec->creditor_account };

	return cl_mask_in_key(key, accts, 3, out, cap);
}
