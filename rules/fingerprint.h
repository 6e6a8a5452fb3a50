/*
 * fingerprint.h - SHA-256 over a record's canonical economic fields.
 *
 * Each field goes in as name, value; the encoding is length-prefixed
 * ("<name>=<len>:<value>;") so no two field lists hash alike.  Which fields
 * each kind uses is listed in clearing-load-keys(7); cosmetic fields (names,
 * remittance text, file creation time, padding) are never added.
 *
 * One struct cl_fp per parser, reused for every record: no allocation per
 * record.
 */
#ifndef CL_FINGERPRINT_H
#define CL_FINGERPRINT_H

#include <stddef.h>
#include <stdint.h>

#include "base/sha256.h" /* cl_hex32 */

struct cl_fp;

/* A field into the digest begun: "<name>=<len>:<value>;". */
void cl_fp_str(struct cl_fp *fp, const char *name, const char *value);
void cl_fp_int(struct cl_fp *fp, const char *name, int64_t value);
/* Bytes as they are, for encodings of their own (the NACHA fingerprint). */
void cl_fp_raw(struct cl_fp *fp, const void *p, size_t n);

/* One digest: begin, the fields, end. */
void cl_fp_begin(struct cl_fp *fp);
void cl_fp_end(struct cl_fp *fp, unsigned char out[32]);

struct cl_fp *cl_fp_new(void);        /* exits through cl_xmalloc on OOM */
void cl_fp_free(struct cl_fp *fp);    /* NULL is fine */

#endif
