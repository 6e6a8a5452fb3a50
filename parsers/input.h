/*
 * input.h - the byte source every parser reads from.
 *
 * A path, "-" for standard input, or a memory buffer (tests).  gzip is
 * recognised by its magic bytes (1f 8b), never by the name, and inflated
 * with zlib as a transport: the parser sees the decompressed bytes.  The
 * SHA-256 of the *raw* bytes (as stored, before inflating) is computed
 * while streaming and is final once cl_input_read() has returned 0.
 *
 * Memory is constant: one 64 KiB raw buffer and one 64 KiB inflate buffer.
 * A gzip stream that expands more than CL_INPUT_MAX_GZIP_RATIO : 1 (after
 * its first MiB of output) is refused as a likely gzip bomb.
 */
#ifndef CL_INPUT_H
#define CL_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/record.h"

#define CL_INPUT_BUFSIZE (64 * 1024)
#define CL_INPUT_MAX_GZIP_RATIO 250
/* The largest input read (raw bytes, and bytes after inflating): an
 * endless stream (`load /dev/zero`, a pipe that never closes its end)
 * stops here with an error, never fills the disk with a spool file.
 * 8 GiB is eight times the largest clearing file we have seen. */
#define CL_INPUT_MAX_BYTES (8ULL << 30)

struct cl_input;

/* Open `path` ("-" = standard input).  On failure returns CL_IO with `err`
 * filled ("could not open ...") and *out = NULL. */
enum cl_status cl_input_open_path(const char *path, struct cl_input **out,
				  struct cl_error *err) CL_MUST_CHECK;

/* An input over `len` bytes at `buf` (not copied: must outlive the input)
 * that hands out at most `chunk` bytes per read (0 = no limit), so tests
 * can prove parsers give identical results for any chunking. */
struct cl_input *cl_input_from_memory(const void *buf, size_t len, size_t chunk,
				      const char *name);

/* Read up to `cap` decompressed bytes into buf.  Returns the count (> 0),
 * 0 at the end of input, or -1 with `err` filled (read error, corrupt or
 * truncated gzip, gzip bomb). */
long cl_input_read(struct cl_input *in, void *buf, size_t cap, struct cl_error *err);

/* Let the first bytes be looked at without consuming them: fills *p and *len
 * with up to the first 4 KiB of decompressed data (fewer at end of input).
 * Returns CL_OK or CL_IO. */
enum cl_status cl_input_peek(struct cl_input *in, const unsigned char **p, size_t *len,
			     struct cl_error *err) CL_MUST_CHECK;

/* Start again from the first byte (for a second pass).  Works for regular
 * files and memory inputs; standard input or a pipe cannot be rewound and
 * gives CL_IO (spool it with cl_input_open_spooled() first). */
enum cl_status cl_input_rewind(struct cl_input *in, struct cl_error *err) CL_MUST_CHECK;

/* Like cl_input_open_path(), but when `path` is not a regular file
 * (standard input, a pipe) copy it into an unlinked temporary file first
 * so the input can be rewound.  Memory stays constant. */
enum cl_status cl_input_open_spooled(const char *path, struct cl_input **out,
				     struct cl_error *err) CL_MUST_CHECK;

const char *cl_input_name(const struct cl_input *in); /* display name */
bool cl_input_is_gzip(const struct cl_input *in);
uint64_t cl_input_raw_bytes(const struct cl_input *in); /* read so far */
/* Lowercase hex SHA-256 of the raw bytes; meaningful after read() gave 0
 * ("" when the input hashes nothing). */
const char *cl_input_sha256_hex(const struct cl_input *in);
/* The caller shows no checksum of this input: its bytes are not hashed
 * (the hasher's copy of every byte, and its thread, spared). */
void cl_input_no_checksum(struct cl_input *in);

void cl_input_free(struct cl_input *in); /* NULL is fine */

/* For a reader that keeps a buffer of cap bytes: move the unread bytes
 * buf[*pos..*len) to the front (*pos becomes 0, *len their count) and
 * return the room after them. */
size_t cl_input_compact(unsigned char *buf, size_t *pos, size_t *len, size_t cap);

#endif
