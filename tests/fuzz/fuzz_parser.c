/*
 * fuzz_parser.c - libFuzzer entry point for detection and dispatch
 * (cl_parser_open / cl_parser_next): any bytes, whole and in chunks; and
 * the same bytes gzip-compressed, which must give exactly the same records
 * and errors (gzip is a transport, not a format).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init_libxml();
	return 0;
}

/* gzip data[0..size) at `level`; returns a malloc'd buffer, length in *out_len. */
static uint8_t *gzip_bytes(const uint8_t *data, size_t size, int level, size_t *out_len)
{
	z_stream zs;
	size_t cap = size + size / 100 + 1024;
	uint8_t *out = malloc(cap);

	FUZZ_CHECK(out != NULL, "out of memory");
	memset(&zs, 0, sizeof(zs));
	FUZZ_CHECK(deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK,
		   "deflateInit2");
	zs.next_in = (Bytef *)(uintptr_t)data;
	zs.avail_in = (uInt)size;
	zs.next_out = out;
	zs.avail_out = (uInt)cap;
	FUZZ_CHECK(deflate(&zs, Z_FINISH) == Z_STREAM_END, "deflate did not finish");
	*out_len = cap - zs.avail_out;
	deflateEnd(&zs);
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cl_parse_opts opts;
	struct fuzz_outcome plain, packed;
	unsigned long bound;
	uint8_t *gz;
	size_t gz_len;

	fuzz_drive_both(FUZZ_PARSER, data, size);

	/* the same content through gzip (unless it already is gzip) */
	if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b)
		return 0;
	fuzz_pick_opts(data, size, &opts);
	bound = fuzz_line_bound(data, size);
	gz = gzip_bytes(data, size, size ? 1 + data[0] % 9 : 6, &gz_len);
	fuzz_drive(FUZZ_PARSER, data, size, 0, &opts, bound, &plain);
	fuzz_drive(FUZZ_PARSER, gz, gz_len, size ? fuzz_chunk_from_byte(data[size / 2]) : 0,
		   &opts, bound, &packed);
	free(gz);
	FUZZ_CHECK(fuzz_skip("gzip") ||
			   fuzz_same_outcome(&plain, &packed, plain.format == CL_FORMAT_ISO20022),
		   "plain vs gzip: records %lu/%lu, errors %lu/%lu, notes %lu/%lu, io %lu/%lu",
		   plain.records, packed.records, plain.invalid, packed.invalid, plain.notes,
		   packed.notes, plain.io, packed.io);
	return 0;
}
