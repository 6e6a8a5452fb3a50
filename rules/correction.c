/* correction.c - the natural key of a correction (correction.h). */
#include "rules/correction.h"

#include <stdio.h>

bool cl_correction_key(const char *key, unsigned long n, char *out, size_t cap)
{
	int len;

	if (cap == 0)
		return false;
	out[0] = '\0';
	if (n == 0)
		return false;
	len = snprintf(out, cap, "%s#corr%lu", key, n);
	if (len < 0 || (size_t)len >= cap) {
		out[0] = '\0';
		return false;
	}
	return true;
}
