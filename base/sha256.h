/*
 * sha256.h - SHA-256 through OpenSSL's libcrypto, one context reused.
 *
 * The one place the digest is obtained: rules/fingerprint.c encodes fields
 * over it, base/keyset.c hashes keys with it, base/hasher.c the bytes of a
 * file.  A context is reused for every digest (begin, update..., end): no
 * allocation per digest.
 */
#ifndef CL_SHA256_H
#define CL_SHA256_H

#include <stddef.h>

struct cl_sha256;

struct cl_sha256 *cl_sha256_new(void);       /* exits through cl_xmalloc on OOM */
void cl_sha256_free(struct cl_sha256 *h);    /* NULL is fine */

void cl_sha256_begin(struct cl_sha256 *h);
void cl_sha256_update(struct cl_sha256 *h, const void *p, size_t n);
void cl_sha256_end(struct cl_sha256 *h, unsigned char out[32]);

/* 64 lowercase hex digits and a NUL into out[65]. */
void cl_hex32(const unsigned char in[32], char out[65]);

#endif
