/*
 * hasher.h - SHA-256 of a stream of bytes, computed beside the parser.
 *
 * The first CL_HASHER_INLINE_BYTES are hashed inline.  Past that a second
 * thread takes over: update() copies each piece into a ring of 64 KiB slots
 * and the thread hashes them, so on a 2-core machine the file checksum no
 * longer costs parse time.  The bytes hashed are exactly the bytes handed
 * to update(), in order: the parser and the checksum see the same data.
 * If the thread cannot be started, hashing stays inline.
 *
 * Memory: one SHA-256 context (sha256.h), and 256 KiB of slots once the
 * thread runs.
 */
#ifndef CL_HASHER_H
#define CL_HASHER_H

#include <stddef.h>

#define CL_HASHER_INLINE_BYTES (1u << 20)

struct cl_hasher;

struct cl_hasher *cl_hasher_new(void);           /* exits through cl_xmalloc on OOM */
void cl_hasher_update(struct cl_hasher *h, const void *p, size_t n);
/* Finish: waits for the thread, writes 64 lowercase hex digits and a NUL.
 * update() must not be called again before reset(). */
void cl_hasher_final(struct cl_hasher *h, char hex[65]);
void cl_hasher_reset(struct cl_hasher *h);      /* start a new stream */
void cl_hasher_free(struct cl_hasher *h);       /* NULL is fine */

#endif
