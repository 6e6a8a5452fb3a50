/* sha256.c - SHA-256 contexts over libcrypto's EVP interface. */
#include "base/sha256.h"

#include <openssl/evp.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/xmalloc.h"

struct cl_sha256 {
	EVP_MD_CTX *ctx;
	EVP_MD *md; /* fetched once: an implicit fetch per digest takes locks */
};

struct cl_sha256 *cl_sha256_new(void)
{
	struct cl_sha256 *h = cl_xmalloc(sizeof(*h));

	h->ctx = EVP_MD_CTX_new();
	h->md = EVP_MD_fetch(NULL, "SHA256", NULL);
	if (!h->ctx || !h->md)
		(void)cl_xmalloc(SIZE_MAX); /* exits: OOM in libcrypto */
	return h;
}

void cl_sha256_free(struct cl_sha256 *h)
{
	if (!h)
		return;
	EVP_MD_CTX_free(h->ctx);
	EVP_MD_free(h->md);
	free(h);
}

void cl_sha256_begin(struct cl_sha256 *h)
{
	EVP_DigestInit_ex(h->ctx, h->md, NULL);
}

void cl_sha256_update(struct cl_sha256 *h, const void *p, size_t n)
{
	EVP_DigestUpdate(h->ctx, p, n);
}

void cl_sha256_end(struct cl_sha256 *h, unsigned char out[32])
{
	unsigned int len = 32;

	EVP_DigestFinal_ex(h->ctx, out, &len);
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
