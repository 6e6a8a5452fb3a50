/* fingerprint.c - SHA-256 (base/sha256.h) over length-prefixed canonical fields. */
#include "rules/fingerprint.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sha256.h"
#include "base/xmalloc.h"

struct cl_fp {
	struct cl_sha256 *sha;
};

struct cl_fp *cl_fp_new(void)
{
	struct cl_fp *fp = cl_xmalloc(sizeof(*fp));

	fp->sha = cl_sha256_new();
	return fp;
}

void cl_fp_free(struct cl_fp *fp)
{
	if (!fp)
		return;
	cl_sha256_free(fp->sha);
	free(fp);
}

void cl_fp_begin(struct cl_fp *fp)
{
	cl_sha256_begin(fp->sha);
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
	cl_sha256_update(fp->sha, head, n);
	cl_sha256_update(fp->sha, value, vlen);
	cl_sha256_update(fp->sha, ";", 1);
}

void cl_fp_int(struct cl_fp *fp, const char *name, int64_t value)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, value);
	cl_fp_str(fp, name, buf);
}

void cl_fp_raw(struct cl_fp *fp, const void *p, size_t n)
{
	cl_sha256_update(fp->sha, p, n);
}

void cl_fp_end(struct cl_fp *fp, unsigned char out[32])
{
	cl_sha256_end(fp->sha, out);
}
