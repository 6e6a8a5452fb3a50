/*
 * fuzz_ach.c - libFuzzer entry point for the NACHA parser (CL_FORMAT_ACH), fed
 * directly (no format detection), read whole and in chunks; and the same
 * file with CRLF line ends, which must give the same records (keys,
 * fingerprints, amounts, positions) and the same errors (line and code):
 * the same payment in a re-created file must give the same natural key and
 * fingerprint.  And a valid file re-created with
 * another creation date, time and file ID modifier, and other company names,
 * must keep every natural key and fingerprint (cosmetic fields, clearing-load-keys(7)).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Rewrite the cosmetic fields of every line in place: file header creation
 * date and time (24-33) and file ID modifier (34); batch header company
 * name (5-20). */
static void recreate(uint8_t *d, size_t n)
{
	static const char when[] = "2601010000Z";
	static const char name[] = "RECREATED NAME  ";

	for (size_t i = 0; i < n;) {
		size_t len = 0;

		while (i + len < n && d[i + len] != '\n' && d[i + len] != '\r')
			len++;
		if (d[i] == '1' && len >= 34)
			memcpy(d + i + 23, when, 11);
		else if (d[i] == '5' && len >= 20)
			memcpy(d + i + 4, name, 16);
		i += len + 1;
	}
}

static void cosmetic_oracle(const uint8_t *data, size_t size)
{
	struct cl_parse_opts opts;
	struct fuzz_outcome orig, again;
	unsigned long bound = fuzz_line_bound(data, size);
	uint8_t *copy;

	if (size < 94 || memcmp(data, "101", 3) != 0 || fuzz_skip("cosmetic"))
		return;
	fuzz_pick_opts(data, size, &opts);
	fuzz_drive(FUZZ_ACH, data, size, 0, &opts, bound, &orig);
	if (orig.invalid || orig.io || orig.records == 0 || orig.fixed_block)
		return;
	copy = malloc(size);
	FUZZ_CHECK(copy != NULL, "out of memory");
	memcpy(copy, data, size);
	recreate(copy, size);
	fuzz_drive(FUZZ_ACH, copy, size, 0, &opts, bound, &again);
	free(copy);
	if (again.invalid || again.io)
		return; /* an IAT header has other fields there */
	FUZZ_CHECK(orig.records == again.records &&
			   memcmp(orig.key_digest, again.key_digest, sizeof(orig.key_digest)) == 0,
		   "re-created file (creation time, file ID, company names): %lu / %lu records, "
		   "same keys and fingerprints %d",
		   orig.records, again.records,
		   memcmp(orig.key_digest, again.key_digest, sizeof(orig.key_digest)) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cl_parse_opts opts;
	struct fuzz_outcome lf, crlf;
	unsigned long bound;
	uint8_t *dos;
	size_t n = 0;

	fuzz_drive_both(FUZZ_ACH, data, size);
	cosmetic_oracle(data, size);

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
