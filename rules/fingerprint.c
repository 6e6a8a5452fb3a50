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
	EVP_MD *md; /* fetched once: an implicit fetch per record takes locks */
};

struct cl_fp *cl_fp_new(void)
{
	struct cl_fp *fp = cl_xmalloc(sizeof(*fp));

	fp->ctx = EVP_MD_CTX_new();
	fp->md = EVP_MD_fetch(NULL, "SHA256", NULL);
	if (!fp->ctx || !fp->md)
		(void)cl_xmalloc(SIZE_MAX); /* exits: OOM in libcrypto */
	return fp;
}

void cl_fp_free(struct cl_fp *fp)
{
	if (!fp)
		return;
	EVP_MD_CTX_free(fp->ctx);
	EVP_MD_free(fp->md);
	free(fp);
}

void cl_fp_begin(struct cl_fp *fp)
{
	EVP_DigestInit_ex(fp->ctx, fp->md, NULL);
}

void cl_fp_str(struct cl_fp *fp, const char *name, const char *value)
{
	/* "<name>=<len>:" built by hand: snprintf per field showed in profiles */
	char head[64], digits[24];
	size_t vlen = strlen(value), nlen = strlen(name), n = 0, d = 0;

	if (nlen > sizeof(head) - sizeof(digits) - 2)
		nlen = sizeof(head) - sizeof(digits) - 2;
	memcpy(head, name, nlen);
	n = nlen;
	head[n++] = '=';
	do {
		digits[d++] = (char)('0' + vlen % 10);
		vlen /= 10;
	} while (vlen);
	while (d)
		head[n++] = digits[--d];
	head[n++] = ':';
	vlen = strlen(value);
	EVP_DigestUpdate(fp->ctx, head, n);
	EVP_DigestUpdate(fp->ctx, value, vlen);
	EVP_DigestUpdate(fp->ctx, ";", 1);
}

void cl_fp_int(struct cl_fp *fp, const char *name, int64_t value)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, value);
	cl_fp_str(fp, name, buf);
}

void cl_fp_raw(struct cl_fp *fp, const void *p, size_t n)
{
	EVP_DigestUpdate(fp->ctx, p, n);
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
