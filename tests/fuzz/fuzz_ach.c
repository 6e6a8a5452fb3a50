/*
 * fuzz_ach.c - libFuzzer entry point for the NACHA parser (cl_ach_*), fed
 * directly (no format detection), read whole and in chunks; and the same
 * file with CRLF line ends, which must give the same records (keys,
 * fingerprints, amounts, positions) and the same errors (line and code):
 * issue 2, "the same payment in a re-created file (... CRLF) must give the
 * same natural key and fingerprint".
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cl_parse_opts opts;
	struct fuzz_outcome lf, crlf;
	unsigned long bound;
	uint8_t *dos;
	size_t n = 0;

	fuzz_drive_both(FUZZ_ACH, data, size);

	/* only plain LF files: a CR anywhere already makes its own case */
	if (memchr(data, '\r', size) || !memchr(data, '\n', size) ||
	    (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) || fuzz_skip("crlf"))
		return 0;
	dos = malloc(2 * size);
	FUZZ_CHECK(dos != NULL, "out of memory");
	for (size_t i = 0; i < size; i++) {
		if (data[i] == '\n')
			dos[n++] = '\r';
		dos[n++] = data[i];
	}
	fuzz_pick_opts(data, size, &opts);
	opts.max_errors = 1000000; /* compare every error, not the first few */
	bound = fuzz_line_bound(data, size);
	fuzz_drive(FUZZ_ACH, data, size, 0, &opts, bound, &lf);
	fuzz_drive(FUZZ_ACH, dos, n, 0, &opts, bound + bound, &crlf);
	free(dos);
	if (lf.fixed_block || crlf.fixed_block)
		return 0; /* records without line breaks: CR is data there (F9) */
	FUZZ_CHECK(lf.records == crlf.records &&
			   memcmp(lf.rec_digest, crlf.rec_digest, sizeof(lf.rec_digest)) == 0,
		   "LF vs CRLF: %lu / %lu records, same records %d", lf.records, crlf.records,
		   memcmp(lf.rec_digest, crlf.rec_digest, sizeof(lf.rec_digest)) == 0);
	FUZZ_CHECK(lf.invalid == crlf.invalid &&
			   memcmp(lf.err_digest, crlf.err_digest, sizeof(lf.err_digest)) == 0,
		   "LF vs CRLF: %lu / %lu errors, same lines and codes %d", lf.invalid,
		   crlf.invalid, memcmp(lf.err_digest, crlf.err_digest, sizeof(lf.err_digest)) == 0);
	return 0;
}
