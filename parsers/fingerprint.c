/* fingerprint.c - SHA-256 over length-prefixed canonical fields. */
#include "fingerprint.h"

#include <inttypes.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

struct cl_fp {
	EVP_MD_CTX *ctx;
};

struct cl_fp *cl_fp_new(void)
{
	struct cl_fp *fp = cl_xmalloc(sizeof(*fp));

	fp->ctx = EVP_MD_CTX_new();
	if (!fp->ctx)
		(void)cl_xmalloc(SIZE_MAX); /* exits: OOM in libcrypto */
	return fp;
}

void cl_fp_free(struct cl_fp *fp)
{
	if (!fp)
		return;
	EVP_MD_CTX_free(fp->ctx);
	free(fp);
}

void cl_fp_begin(struct cl_fp *fp)
{
	EVP_DigestInit_ex(fp->ctx, EVP_sha256(), NULL);
}

void cl_fp_str(struct cl_fp *fp, const char *name, const char *value)
{
	char head[64];
	size_t vlen = strlen(value);
	int n = snprintf(head, sizeof(head), "%s=%zu:", name, vlen);

	EVP_DigestUpdate(fp->ctx, head, (size_t)n);
	EVP_DigestUpdate(fp->ctx, value, vlen);
	EVP_DigestUpdate(fp->ctx, ";", 1);
}

void cl_fp_int(struct cl_fp *fp, const char *name, int64_t value)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, value);
	cl_fp_str(fp, name, buf);
}

void cl_fp_end(struct cl_fp *fp, unsigned char out[32])
{
	unsigned int len = 32;

	EVP_DigestFinal_ex(fp->ctx, out, &len);
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
