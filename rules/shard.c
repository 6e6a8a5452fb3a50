/* shard.c - the shard identity of a record (see .h). */
#include "rules/shard.h"

#include <openssl/evp.h>
#include <string.h>

#include "base/xmalloc.h"

/* How the shard is made of a key of `kind`: from the trace (an entry's),
 * from the original trace (a return's, a NOC's), or from the whole key. */
enum shard_source { FROM_WHOLE_KEY, FROM_TRACE, FROM_ORIGINAL_TRACE };

static enum shard_source source_of(const char *kind)
{
	if (strcmp(kind, "ach.entry") == 0)
		return FROM_TRACE;
	if (strcmp(kind, "ach.return") == 0 || strcmp(kind, "ach.noc") == 0)
		return FROM_ORIGINAL_TRACE;
	return FROM_WHOLE_KEY;
}

/* The text the shard is made of: [*from, *from + *len) of the key. */
static void shard_text(const char *kind, const char *key, const char **from, size_t *len)
{
	const char *last, *prev;
	enum shard_source src = source_of(kind);

	*from = key;
	*len = strlen(key);
	if (src == FROM_TRACE) {
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
	} else if (src == FROM_ORIGINAL_TRACE) {
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

/* the kinds whose shard is a trace: every copy of theirs keeps it */
bool cl_shard_holds_copies(const char *kind)
{
	return source_of(kind) != FROM_WHOLE_KEY;
}
