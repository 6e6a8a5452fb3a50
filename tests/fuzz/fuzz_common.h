/*
 * fuzz_common.h - what every libFuzzer harness in tests/fuzz/ shares: drive
 * a parser over a buffer until CL_END and check the invariants of the pull
 * API (parsers/parser.h, base/record.h) on everything it hands out.
 *
 * A broken invariant aborts (libFuzzer then saves the input), printing
 * which one and where: the harness is the oracle, not only the sanitizers.
 */
#ifndef CL_FUZZ_COMMON_H
#define CL_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "parsers/parser.h"

/* Which entry point a drive goes through. */
enum fuzz_target {
	FUZZ_ACH,      /* cl_parser_new(CL_FORMAT_ACH): no detection */
	FUZZ_ISO20022, /* cl_parser_new(CL_FORMAT_ISO20022) */
	FUZZ_PARSER,   /* cl_parser_open (detection) + cl_parser_next */
	FUZZ_CSV,      /* cl_parser_new(CL_FORMAT_CSV) */
};

/* What one drive produced, to compare drives over different chunkings. */
struct fuzz_outcome {
	unsigned long records;  /* CL_OK */
	unsigned long invalid;  /* CL_INVALID */
	unsigned long notes;    /* CL_NOTE */
	unsigned long io;       /* CL_IO */
	int opened;             /* cl_parser_open gave CL_OK (always 1 otherwise) */
	unsigned char digest[32]; /* SHA-256 over every record and error in order */
	unsigned char rec_digest[32]; /* over the records' economic and key fields */
	unsigned char err_digest[32]; /* over each error's status, line and code */
	unsigned char key_digest[32]; /* over each record's kind, key, fingerprint, amount */
	int gzip_ratio;         /* an error with code gzip_ratio was seen */
	enum cl_format format;  /* the parser that ran (UNKNOWN: none) */
	int fixed_block;        /* NACHA read as fixed-block records (a note said so) */
	int eol_mode;           /* NACHA line-end notes seen: 1 cr_line_ends, 2 crlf,
	                           4 fixed_block */
};

/* Whether two drives over the same content agree: same verdict always;
 * for NACHA and valid XML also the same records and errors in order.
 * `xml`: the content is XML (see fuzz_common.c for why it differs). */
int fuzz_same_outcome(const struct fuzz_outcome *a, const struct fuzz_outcome *b, int xml);

/* Options a drive runs with, picked from the input by fuzz_pick_opts(). */
void fuzz_pick_opts(const uint8_t *data, size_t size, struct cl_parse_opts *opts);

/* Upper bound for any line number a parser may report on this input: the
 * lines of the decoded bytes (a line ends in '\n' or '\r') plus their
 * 94-byte records (a NACHA file read as fixed-block records numbers those),
 * plus one for "at the end of the file".  Decodes through cl_input. */
unsigned long fuzz_line_bound(const uint8_t *data, size_t size);

/* Run `target` over data[0..size) read `chunk` bytes at a time (0 = no
 * limit) to CL_END, checking every invariant; fills *out. */
void fuzz_drive(enum fuzz_target target, const uint8_t *data, size_t size, size_t chunk,
		const struct cl_parse_opts *opts, unsigned long line_bound,
		struct fuzz_outcome *out);

/* A chunk size derived from a byte: 1..64, or a power of two up to 64 KiB. */
size_t fuzz_chunk_from_byte(uint8_t b);

/* Drive twice, unchunked and chunked, and require identical outcomes
 * (records, errors, in order), as parser.h promises for any chunking. */
void fuzz_drive_both(enum fuzz_target target, const uint8_t *data, size_t size);

/* Abort with a message (keeps the harness free of assert(), which NDEBUG
 * would remove). */
#define FUZZ_CHECK(cond, ...)                                                                  \
	do {                                                                                   \
		if (!(cond))                                                                   \
			fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);                     \
	} while (0)
_Noreturn void fuzz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Whether the named check is switched off by FUZZ_SKIP (a comma-separated
 * list of: ordinal, position, line, info_records, max_errors, message_bytes,
 * message_numbers, eol_mode, crlf, cosmetic, input_error_code,
 * chunking, gzip, roundtrip), so that a campaign can go on past a
 * reported, still open finding.  FUZZ_TRACE=1 prints every result. */
int fuzz_skip(const char *check);

/* libxml2 global state, once (LLVMFuzzerInitialize). */
void fuzz_init_libxml(void);

#endif
