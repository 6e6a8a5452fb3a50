/* shard.c - the shard identity of a record (see .h). */
#include "rules/shard.h"

#include <openssl/evp.h>
#include <string.h>

#include "base/xmalloc.h"

/* The text the shard is made of: [*from, *from + *len) of the key. */
static void shard_text(const char *kind, const char *key, const char **from, size_t *len)
{
	const char *last, *prev;

	*from = key;
	*len = strlen(key);
	if (strcmp(kind, "ach.entry") == 0) {
		/* the second '|'-separated field from the end, "" with fewer
		   than two fields (SQL's split_part(key, '|', -2)) */
		last = strrchr(key, '|');
		if (!last) {
			*len = 0;
			return;
		}
		for (prev = last; prev > key && prev[-1] != '|'; prev--)
			;
		*from = prev;
		*len = (size_t)(last - prev);
	} else if (strcmp(kind, "ach.return") == 0 || strcmp(kind, "ach.noc") == 0) {
		last = strchr(key, '|');
		if (last)
			*len = (size_t)(last - key);
	}
}

int64_t cl_shard(const char *kind, const char *natural_key)
{
	const char *t;
	size_t n, i;
	int64_t v = 0;
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	uint64_t u = 0;

	shard_text(kind, natural_key, &t, &n);
	for (i = 0; i < n && t[i] >= '0' && t[i] <= '9'; i++)
		v = v * 10 + (t[i] - '0');
	if (n >= 1 && n <= 18 && i == n)
		return v;
	if (!EVP_Digest(t, n, md, &mdlen, EVP_sha256(), NULL) || mdlen < 8)
		(void)cl_xmalloc(SIZE_MAX); /* exits: libcrypto fails only without memory */
	for (i = 0; i < 8; i++)
		u = u << 8 | md[i];
	/* two's complement, as SQL's bit(64)::bigint reads it */
	return u <= INT64_MAX ? (int64_t)u : -(int64_t)(UINT64_MAX - u) - 1;
}

bool cl_shard_holds_copies(const char *kind)
{
	return strcmp(kind, "ach.entry") == 0 || strcmp(kind, "ach.return") == 0 ||
	       strcmp(kind, "ach.noc") == 0;
}
