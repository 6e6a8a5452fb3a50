/*
 * fuzz_input.c - libFuzzer entry point for the byte source (parsers/input.h):
 * gzip detection by magic bytes, inflating (members, truncation, trailing
 * bytes, the bomb ratio), peek, rewind, the SHA-256 of the raw bytes.
 *
 * Oracles: plain bytes come out unchanged; gzip comes out as a plain zlib
 * inflate of the whole buffer says (or both refuse it); the checksum is the
 * SHA-256 of the buffer; a rewound second pass with other read sizes gives
 * the same bytes and the same verdict.
 */
#include <openssl/evp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fuzz_common.h"
#include "parsers/input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct pass {
	int status;               /* 0 = end reached, -1 = error */
	char code[CL_CODE_MAX];   /* error code */
	size_t out_len;           /* decoded bytes */
	unsigned char digest[32]; /* SHA-256 of the decoded bytes */
	int prefix_ok;            /* plain input: bytes came out unchanged */
};

/* A small generator of read sizes, seeded from the input. */
static size_t next_cap(uint32_t *state)
{
	*state = *state * 1103515245u + 12345u;
	switch ((*state >> 16) & 3) {
	case 0:
		return 1 + ((*state >> 8) & 7);
	case 1:
		return 1 + ((*state >> 4) & 4095);
	case 2:
		return CL_INPUT_BUFSIZE;
	default:
		return 1 + ((*state >> 3) & 0x1ffff); /* up to 128 KiB */
	}
}

static void read_pass(struct cl_input *in, const uint8_t *data, size_t size, uint32_t seed,
		      int peek_first, struct pass *ps)
{
	static unsigned char buf[0x20000];
	EVP_MD_CTX *h = EVP_MD_CTX_new();
	int plain = !(size >= 2 && data[0] == 0x1f && data[1] == 0x8b);
	struct cl_error err;
	long r;

	memset(ps, 0, sizeof(*ps));
	ps->prefix_ok = 1;
	EVP_DigestInit_ex(h, EVP_sha256(), NULL);
	if (peek_first) {
		const unsigned char *p = NULL;
		size_t len = 0;

		memset(&err, 0xA5, sizeof(err));
		enum cl_status pst = cl_input_peek(in, &p, &len, &err);

		if (getenv("FUZZ_TRACE"))
			fprintf(stderr, "peek = %d, %zu bytes%s%s\n", (int)pst, len,
				pst ? " " : "", pst ? err.message : "");
		if (pst == CL_OK) {
			FUZZ_CHECK(len <= 4096, "peek gave %zu bytes", len);
			FUZZ_CHECK(!plain || (len == (size < 4096 ? size : 4096) &&
					      memcmp(p, data, len) == 0),
				   "peek of plain input differs from its first bytes");
		} else {
			FUZZ_CHECK(!plain, "peek failed on plain input");
			FUZZ_CHECK(err.code[0] && memchr(err.code, 0, sizeof(err.code)) &&
					   memchr(err.message, 0, sizeof(err.message)) && err.message[0],
				   "peek error not filled");
			/* as cl_parser_open() does: a failed peek ends the input
			 * (errors are not sticky: reading on would give the peeked
			 * bytes and then some other error) */
			ps->status = -1;
			memcpy(ps->code, err.code, sizeof(ps->code));
			EVP_DigestFinal_ex(h, ps->digest, NULL);
			EVP_MD_CTX_free(h);
			return;
		}
	}
	for (;;) {
		size_t cap = next_cap(&seed);

		memset(&err, 0xA5, sizeof(err));
		r = cl_input_read(in, buf, cap, &err);
		if (getenv("FUZZ_TRACE"))
			fprintf(stderr, "read(cap %zu) = %ld%s%s\n", cap, r, r < 0 ? " " : "",
				r < 0 ? err.message : "");
		if (r <= 0)
			break;
		FUZZ_CHECK((size_t)r <= cap, "read %ld bytes into %zu", r, cap);
		if (plain && (ps->out_len + (size_t)r > size ||
			      memcmp(buf, data + ps->out_len, (size_t)r) != 0))
			ps->prefix_ok = 0;
		EVP_DigestUpdate(h, buf, (size_t)r);
		ps->out_len += (size_t)r;
	}
	if (r < 0) {
		ps->status = -1;
		FUZZ_CHECK(memchr(err.code, 0, sizeof(err.code)) && err.code[0] &&
				   memchr(err.message, 0, sizeof(err.message)) && err.message[0] &&
				   err.file && strcmp(err.file, "fuzz-input") == 0,
			   "read error not filled properly");
		memcpy(ps->code, err.code, sizeof(ps->code));
	} else {
		/* end of input is sticky */
		FUZZ_CHECK(cl_input_read(in, buf, sizeof(buf), &err) == 0, "read after end");
	}
	EVP_DigestFinal_ex(h, ps->digest, NULL);
	EVP_MD_CTX_free(h);
}

/* What zlib itself makes of the buffer as (concatenated) gzip. Returns 0 and
 * the digest of the output, or -1 when it is not a complete gzip stream
 * followed by nothing but further members. */
static int oracle_gunzip(const uint8_t *data, size_t size, size_t *out_len,
			 unsigned char digest[32])
{
	static unsigned char out[0x10000];
	EVP_MD_CTX *h = EVP_MD_CTX_new();
	z_stream zs;
	size_t pos = 0;
	int ok = -1;

	*out_len = 0;
	memset(&zs, 0, sizeof(zs));
	EVP_DigestInit_ex(h, EVP_sha256(), NULL);
	if (inflateInit2(&zs, 15 + 16) != Z_OK)
		abort();
	for (;;) {
		int zr;

		if (pos == size)
			break; /* truncated */
		zs.next_in = (Bytef *)(uintptr_t)(data + pos);
		zs.avail_in = (uInt)(size - pos);
		zs.next_out = out;
		zs.avail_out = sizeof(out);
		zr = inflate(&zs, Z_NO_FLUSH);
		pos = size - zs.avail_in;
		EVP_DigestUpdate(h, out, sizeof(out) - zs.avail_out);
		*out_len += sizeof(out) - zs.avail_out;
		if (*out_len > (size_t)CL_INPUT_MAX_GZIP_RATIO * size + (1u << 20))
			break; /* a bomb: the input layer refuses it */
		if (zr == Z_STREAM_END) {
			if (pos == size) {
				ok = 0;
				break;
			}
			if (size - pos < 2 || data[pos] != 0x1f || data[pos + 1] != 0x8b)
				break;
			inflateReset(&zs);
		} else if (zr == Z_BUF_ERROR && zs.avail_in == 0) {
			break; /* truncated */
		} else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			break;
		}
	}
	inflateEnd(&zs);
	EVP_DigestFinal_ex(h, digest, NULL);
	EVP_MD_CTX_free(h);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
	size_t chunk = size ? fuzz_chunk_from_byte(data[size - 1]) : 0;
	struct cl_input *in = cl_input_from_memory(data, size, size % 3 ? chunk : 0, "fuzz-input");
	uint32_t seed = size ? data[size / 2] * 2654435761u : 1;
	struct pass first, second;
	struct cl_error err;

	read_pass(in, data, size, seed, size % 2, &first);
	FUZZ_CHECK(cl_input_is_gzip(in) == gzip, "is_gzip %d for magic %d",
		   (int)cl_input_is_gzip(in), gzip);
	if (!gzip) {
		FUZZ_CHECK(first.status == 0, "plain input gave read error %s", first.code);
		FUZZ_CHECK(first.prefix_ok && first.out_len == size,
			   "plain input came out changed (%zu of %zu bytes)", first.out_len, size);
	} else {
		size_t want_len;
		unsigned char want[32];
		int want_ok = oracle_gunzip(data, size, &want_len, want);

		if (strcmp(first.code, "gzip_ratio") != 0) {
			FUZZ_CHECK((first.status == 0) == (want_ok == 0),
				   "input layer %s (%s), zlib says %s", first.status ? "refused" : "accepted",
				   first.code, want_ok ? "invalid" : "valid");
			FUZZ_CHECK(first.status != 0 || (first.out_len == want_len &&
							  memcmp(first.digest, want, 32) == 0),
				   "gzip output differs from zlib's (%zu vs %zu bytes)", first.out_len,
				   want_len);
		}
	}
	if (first.status == 0) {
		unsigned char md[32];
		char hex[65];

		FUZZ_CHECK(cl_input_raw_bytes(in) == size, "raw bytes %llu of %zu",
			   (unsigned long long)cl_input_raw_bytes(in), size);
		EVP_Digest(data, size, md, NULL, EVP_sha256(), NULL);
		for (int i = 0; i < 32; i++)
			snprintf(hex + 2 * i, 3, "%02x", md[i]);
		FUZZ_CHECK(strcmp(cl_input_sha256_hex(in), hex) == 0, "sha256 %s, expected %s",
			   cl_input_sha256_hex(in), hex);
	}

	/* a second pass after rewind: the same bytes, the same verdict */
	FUZZ_CHECK(cl_input_rewind(in, &err) == CL_OK, "rewind of a memory input failed");
	read_pass(in, data, size, seed ^ 0x9e3779b9u, !(size % 2), &second);
	if (strcmp(first.code, "gzip_ratio") != 0 && strcmp(second.code, "gzip_ratio") != 0)
		/* bytes inflated just before an error are dropped with it, so how
		 * many came out first depends on the read sizes: compare them only
		 * when the stream was read to its end */
		FUZZ_CHECK(first.status == second.status &&
				   (fuzz_skip("input_error_code") ||
				    strcmp(first.code, second.code) == 0) &&
				   (first.status != 0 || (first.out_len == second.out_len &&
							  memcmp(first.digest, second.digest, 32) == 0)),
			   "second pass differs: status %d/%d (%s/%s), %zu/%zu bytes", first.status,
			   second.status, first.code, second.code, first.out_len, second.out_len);
	cl_input_free(in);
	return 0;
}
