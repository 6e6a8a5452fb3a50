/* sha256.c - SHA-256 contexts over libcrypto's low-level SHA256_CTX
 * (deprecated in OpenSSL 3.0, not removed; rules/ach_identity.c uses it
 * too).  Not EVP: its first digest loads OpenSSL's configuration and
 * default provider, 2.3 MB more resident memory in every process that
 * hashes (validate's budget is 16 MB), and each digest is fetched and
 * dispatched (docs/design/0056-readers-at-their-floor.md).  The bytes
 * hashed and the digests are the same. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include "base/sha256.h"

#include <openssl/sha.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/xmalloc.h"

struct cl_sha256 {
	SHA256_CTX ctx;
};

struct cl_sha256 *cl_sha256_new(void)
{
	struct cl_sha256 *h = cl_xmalloc(sizeof(*h));

	cl_sha256_begin(h);
	return h;
}

void cl_sha256_free(struct cl_sha256 *h)
{
	free(h);
}

void cl_sha256_begin(struct cl_sha256 *h)
{
	SHA256_Init(&h->ctx);
}

void cl_sha256_update(struct cl_sha256 *h, const void *p, size_t n)
{
	SHA256_Update(&h->ctx, p, n);
}

void cl_sha256_end(struct cl_sha256 *h, unsigned char out[32])
{
	SHA256_Final(out, &h->ctx);
}

void cl_hex32(const unsigned char in[32], char out[65])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < 32; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[64] = '\0';
}
