/* test_input.c - the byte source: plain, gzip, chunking, checksums, limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "parsers/input.h"
#include "parsers/parser.h"
#include "rules/fingerprint.h"

/* gzip `len` bytes of `src` into a malloc'd buffer. */
static unsigned char *gzip_buf(const void *src, size_t len, size_t *out_len)
{
	z_stream zs;
	size_t cap = len + len / 100 + 1024;
	unsigned char *out = malloc(cap);

	memset(&zs, 0, sizeof(zs));
	assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = (unsigned char *)(uintptr_t)src;
	zs.avail_in = (uInt)len;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	*out_len = cap - zs.avail_out;
	deflateEnd(&zs);
	return out;
}

static void sha256_hex(const void *p, size_t n, char out[65])
{
	unsigned char md[32];
	unsigned int len = 32;

	EVP_Digest(p, n, md, &len, EVP_sha256(), NULL);
	cl_hex32(md, out);
}

/* Read an input to the end; returns a malloc'd copy and its length. */
static char *drain(struct cl_input *in, size_t *n, struct cl_error *err, long *last)
{
	char *all = NULL;
	size_t cap = 0;
	char buf[777];
	long r;

	*n = 0;
	while ((r = cl_input_read(in, buf, sizeof(buf), err)) > 0) {
		/* doubled, not grown by each read: a realloc a read is
		   quadratic in the input where realloc moves the block every
		   time (AddressSanitizer's does: minutes for 5 MiB) */
		if (*n + (size_t)r + 1 > cap) {
			cap = cap ? 2 * cap : 4096;
			while (cap < *n + (size_t)r + 1)
				cap *= 2;
			all = realloc(all, cap);
			assert_non_null(all);
		}
		memcpy(all + *n, buf, (size_t)r);
		*n += (size_t)r;
	}
	*last = r;
	return all;
}

static void test_input_plain_bytes_and_checksum(void **state)
{
	static const char text[] = "abc";
	struct cl_input *in = cl_input_from_memory(text, 3, 0, "mem");
	struct cl_error err;
	size_t n;
	long last;
	char *got = drain(in, &n, &err, &last);

	(void)state;
	assert_int_equal(last, 0);
	assert_int_equal(n, 3);
	assert_memory_equal(got, "abc", 3);
	assert_false(cl_input_is_gzip(in));
	assert_string_equal(cl_input_sha256_hex(in),
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(cl_input_raw_bytes(in), 3);
	free(got);
	cl_input_free(in);
}

static void test_input_gzip_is_detected_by_content_in_any_chunking(void **state)
{
	char text[5000];
	size_t gz_len, n;
	unsigned char *gz;
	char want_sha[65];

	(void)state;
	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = (char)('a' + i % 26);
	gz = gzip_buf(text, sizeof(text), &gz_len);
	sha256_hex(gz, gz_len, want_sha);
	for (size_t chunk = 1; chunk <= 4096; chunk *= 8) {
		struct cl_input *in = cl_input_from_memory(gz, gz_len, chunk, "x.txt");
		struct cl_error err;
		long last;
		char *got = drain(in, &n, &err, &last);

		assert_int_equal(last, 0);
		assert_int_equal(n, sizeof(text));
		assert_memory_equal(got, text, sizeof(text));
		assert_true(cl_input_is_gzip(in));
		assert_string_equal(cl_input_sha256_hex(in), want_sha); /* of the raw bytes */
		free(got);
		cl_input_free(in);
	}
	free(gz);
}

static void test_input_concatenated_gzip_members_are_one_stream(void **state)
{
	size_t l1, l2, n;
	unsigned char *a = gzip_buf("hello ", 6, &l1);
	unsigned char *b = gzip_buf("world", 5, &l2);
	unsigned char *both = malloc(l1 + l2);
	struct cl_input *in;
	struct cl_error err;
	long last;
	char *got;

	(void)state;
	memcpy(both, a, l1);
	memcpy(both + l1, b, l2);
	in = cl_input_from_memory(both, l1 + l2, 3, "two.gz");
	got = drain(in, &n, &err, &last);
	assert_int_equal(last, 0);
	assert_int_equal(n, 11);
	assert_memory_equal(got, "hello world", 11);
	free(got);
	cl_input_free(in);
	free(a);
	free(b);
	free(both);
}

static void expect_gzip_error(const unsigned char *p, size_t len, const char *code)
{
	struct cl_input *in = cl_input_from_memory(p, len, 0, "bad.gz");
	struct cl_error err;
	size_t n;
	long last;
	char *got = drain(in, &n, &err, &last);

	assert_int_equal(last, -1);
	assert_string_equal(err.code, code);
	assert_string_equal(err.file, "bad.gz");
	free(got);
	cl_input_free(in);
}

static void test_input_errors_are_sticky(void **state)
{
	size_t len;
	unsigned char *gz = gzip_buf("some text that is long enough", 29, &len);
	struct cl_input *in;
	struct cl_error err;
	const unsigned char *p;
	size_t n;
	char buf[64];

	(void)state;
	gz[len - 1] ^= 0xff; /* ISIZE trailer: "incorrect length check" */
	in = cl_input_from_memory(gz, len, 0, "bad.gz");
	assert_int_equal(cl_input_peek(in, &p, &n, &err), CL_IO);
	assert_string_equal(err.code, "gzip_corrupt");
	memset(&err, 0, sizeof(err));
	assert_int_equal(cl_input_read(in, buf, sizeof(buf), &err), -1);
	assert_string_equal(err.code, "gzip_corrupt");
	assert_int_equal(cl_input_read(in, buf, sizeof(buf), &err), -1);
	assert_string_equal(err.code, "gzip_corrupt");
	cl_input_free(in);
	free(gz);
}

static void test_input_truncated_gzip_is_an_error(void **state)
{
	size_t len;
	unsigned char *gz = gzip_buf("some text that is long enough", 29, &len);

	(void)state;
	expect_gzip_error(gz, len - 6, "gzip_truncated");
	free(gz);
}

static void test_input_corrupt_gzip_is_an_error(void **state)
{
	size_t len;
	unsigned char *gz = gzip_buf("some text that is long enough", 29, &len);

	(void)state;
	gz[12] ^= 0xff;
	gz[13] ^= 0xff;
	expect_gzip_error(gz, len, "gzip_corrupt");
	free(gz);
}

static void test_input_garbage_after_gzip_is_an_error(void **state)
{
	size_t len;
	unsigned char *gz = gzip_buf("text", 4, &len);
	unsigned char *more = malloc(len + 3);

	(void)state;
	memcpy(more, gz, len);
	memcpy(more + len, "xyz", 3);
	expect_gzip_error(more, len + 3, "gzip_trailing");
	free(gz);
	free(more);
}

static void test_input_gzip_bomb_is_refused(void **state)
{
	size_t big = 16u << 20, len;
	char *zeros = calloc(1, big);
	unsigned char *gz = gzip_buf(zeros, big, &len);

	(void)state;
	assert_true(len * CL_INPUT_MAX_GZIP_RATIO < big); /* the fixture is a bomb */
	expect_gzip_error(gz, len, "gzip_ratio");
	free(zeros);
	free(gz);
}

static void test_input_peek_does_not_consume_and_rewind_restarts(void **state)
{
	static const char text[] = "101 line one\n";
	struct cl_input *in = cl_input_from_memory(text, sizeof(text) - 1, 2, "mem");
	const unsigned char *p;
	size_t len, n;
	struct cl_error err;
	long last;
	char *got;
	char sha1[65];

	(void)state;
	assert_int_equal(cl_input_peek(in, &p, &len, &err), CL_OK);
	assert_int_equal(len, sizeof(text) - 1);
	assert_memory_equal(p, text, len);
	got = drain(in, &n, &err, &last);
	assert_int_equal(n, sizeof(text) - 1);
	assert_memory_equal(got, text, n);
	free(got);
	strcpy(sha1, cl_input_sha256_hex(in));
	assert_int_equal(cl_input_rewind(in, &err), CL_OK);
	got = drain(in, &n, &err, &last);
	assert_int_equal(n, sizeof(text) - 1);
	assert_string_equal(cl_input_sha256_hex(in), sha1);
	free(got);
	cl_input_free(in);
}

/* Past CL_HASHER_INLINE_BYTES the checksum is computed on a second thread:
 * it must equal a one-shot SHA-256 for any read size, and after a rewind
 * that interrupts it. */
/* parse and validate (but validate --format json) show no checksum: the
 * input then hashes nothing and reads the same bytes. */
static void test_input_without_checksum_reads_the_same_bytes(void **state)
{
	size_t big = 2 * (1u << 20) + 777; /* past the inline part */
	unsigned char *buf = malloc(big);
	struct cl_input *in;
	struct cl_error err;
	size_t n;
	long last;
	char *got;

	(void)state;
	for (size_t i = 0; i < big; i++)
		buf[i] = (unsigned char)(i * 2654435761u >> 13);
	in = cl_input_from_memory(buf, big, 0, "big");
	cl_input_no_checksum(in);
	got = drain(in, &n, &err, &last);
	assert_int_equal(last, 0);
	assert_int_equal(n, big);
	assert_memory_equal(got, buf, big);
	assert_int_equal(cl_input_raw_bytes(in), big);
	assert_string_equal(cl_input_sha256_hex(in), "");
	free(got);
	cl_input_free(in);
	free(buf);
}

static void test_input_checksum_of_big_input_on_a_thread(void **state)
{
	size_t big = 5 * (1u << 20) + 12345;
	unsigned char *buf = malloc(big);
	char want[65];
	static const size_t chunks[] = { 0, 1000003, 4096, 65536 + 7 };

	(void)state;
	for (size_t i = 0; i < big; i++)
		buf[i] = (unsigned char)(i * 2654435761u >> 13);
	sha256_hex(buf, big, want);
	for (size_t c = 0; c < sizeof(chunks) / sizeof(chunks[0]); c++) {
		struct cl_input *in = cl_input_from_memory(buf, big, chunks[c], "big");
		struct cl_error err;
		char tmp[70000];
		size_t n;
		long last;
		char *got;

		/* read part of it (the thread is running), then start again */
		for (int k = 0; k < 40; k++)
			assert_true(cl_input_read(in, tmp, sizeof(tmp), &err) > 0);
		assert_int_equal(cl_input_rewind(in, &err), CL_OK);
		got = drain(in, &n, &err, &last);
		assert_int_equal(last, 0);
		assert_int_equal(n, big);
		assert_string_equal(cl_input_sha256_hex(in), want);
		free(got);
		cl_input_free(in);
	}
	/* freed while the thread runs: no leak, no hang */
	{
		struct cl_input *in = cl_input_from_memory(buf, big, 0, "big");
		struct cl_error err;
		char tmp[70000];

		for (int k = 0; k < 40; k++)
			assert_true(cl_input_read(in, tmp, sizeof(tmp), &err) > 0);
		cl_input_free(in);
	}
	free(buf);
}

static void test_input_missing_file_names_the_reason(void **state)
{
	struct cl_input *in;
	struct cl_error err;

	(void)state;
	assert_int_equal(cl_input_open_path("/nonexistent/x.ach", &in, &err), CL_IO);
	assert_null(in);
	assert_string_equal(err.message, "could not open \"/nonexistent/x.ach\": No such file or directory");
}

static void test_format_detect_tells_nacha_from_xml(void **state)
{
	(void)state;
	assert_int_equal(cl_format_detect((const unsigned char *)"101 0910", 8), CL_FORMAT_ACH);
	assert_int_equal(cl_format_detect((const unsigned char *)"<?xml", 5), CL_FORMAT_ISO20022);
	assert_int_equal(cl_format_detect((const unsigned char *)"\xEF\xBB\xBF<Doc", 7), CL_FORMAT_ISO20022);
	assert_int_equal(cl_format_detect((const unsigned char *)"\n  <Doc", 7), CL_FORMAT_ISO20022);
	assert_int_equal(cl_format_detect((const unsigned char *)"hello", 5), CL_FORMAT_UNKNOWN);
	assert_int_equal(cl_format_detect((const unsigned char *)"", 0), CL_FORMAT_UNKNOWN);
}

/* Fuzz finding F12: a short corrupt gzip stream (header + 4 bytes of bad
 * deflate data) was "truncated" or "corrupt" depending on the read sizes:
 * after a read that filled a small buffer, zlib held the last bits and was
 * never asked again.  Every sequence of read sizes must say "corrupt". */
static void test_input_short_corrupt_gzip_same_verdict_for_any_read_size(void **state)
{
	static const unsigned char gz[] = { 0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00,
					    0x00, 0x45, 0x8f, 0x13, 0x85, 0xc5, 0xe9 };
	static const size_t first[] = { 1, 2, 3, 7, 8, 64, 4096 };
	static const size_t then[] = { 1, 7, 4096 };

	(void)state;
	for (size_t a = 0; a < sizeof(first) / sizeof(first[0]); a++)
		for (size_t b = 0; b < sizeof(then) / sizeof(then[0]); b++)
			for (size_t chunk = 0; chunk < 3; chunk++) {
				struct cl_input *in = cl_input_from_memory(gz, sizeof(gz), chunk, "f12.gz");
				struct cl_error err;
				char buf[4096];
				long r = cl_input_read(in, buf, first[a], &err);

				while (r > 0)
					r = cl_input_read(in, buf, then[b], &err);
				assert_int_equal(r, -1);
				assert_string_equal(err.code, "gzip_corrupt");
				assert_string_equal(err.message,
						    "gzip stream is corrupt: invalid distance too far back");
				cl_input_free(in);
			}
}

/* A gzip stream cut short stays "truncated", whatever the read size. */
static void test_input_truncated_gzip_is_truncated_for_any_read_size(void **state)
{
	static const char text[] = "a line of text that compresses\n";
	size_t len;
	unsigned char *gz = gzip_buf(text, sizeof(text) - 1, &len);

	(void)state;
	for (size_t cut = 10; cut < len; cut++)
		for (size_t cap = 1; cap <= 64; cap *= 4) {
			struct cl_input *in = cl_input_from_memory(gz, cut, 0, "cut.gz");
			struct cl_error err;
			char buf[64];
			long r;

			while ((r = cl_input_read(in, buf, cap, &err)) > 0)
				;
			assert_int_equal(r, -1);
			assert_string_equal(err.code, "gzip_truncated");
			cl_input_free(in);
		}
	free(gz);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_input_plain_bytes_and_checksum),
		cmocka_unit_test(test_input_gzip_is_detected_by_content_in_any_chunking),
		cmocka_unit_test(test_input_concatenated_gzip_members_are_one_stream),
		cmocka_unit_test(test_input_errors_are_sticky),
		cmocka_unit_test(test_input_truncated_gzip_is_an_error),
		cmocka_unit_test(test_input_corrupt_gzip_is_an_error),
		cmocka_unit_test(test_input_garbage_after_gzip_is_an_error),
		cmocka_unit_test(test_input_gzip_bomb_is_refused),
		cmocka_unit_test(test_input_peek_does_not_consume_and_rewind_restarts),
		cmocka_unit_test(test_input_checksum_of_big_input_on_a_thread),
		cmocka_unit_test(test_input_without_checksum_reads_the_same_bytes),
		cmocka_unit_test(test_input_missing_file_names_the_reason),
		cmocka_unit_test(test_format_detect_tells_nacha_from_xml),
		cmocka_unit_test(test_input_short_corrupt_gzip_same_verdict_for_any_read_size),
		cmocka_unit_test(test_input_truncated_gzip_is_truncated_for_any_read_size),
	};

	return cmocka_run_group_tests_name("input", tests, NULL, NULL);
}
