/* record.c - helpers for the shared record and error types. */
#include "base/record.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

void cl_error_set(struct cl_error *err, const char *file, unsigned long line,
		  const char *code, const char *fmt, ...)
{
	va_list ap;

	memset(err, 0, sizeof(*err));
	err->file = file;
	err->line = line;
	snprintf(err->code, sizeof(err->code), "%s", code);
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
}

void cl_error_detail(struct cl_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->detail, sizeof(err->detail), fmt, ap);
	va_end(ap);
}

void cl_error_hint(struct cl_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->hint, sizeof(err->hint), fmt, ap);
	va_end(ap);
}

void cl_record_clear(struct cl_record *rec)
{
	memset(rec, 0, sizeof(*rec));
}

int cl_copy_span(char *dst, size_t cap, const char *src, size_t len)
{
	if (len >= cap) {
		dst[0] = '\0';
		return -1;
	}
	memcpy(dst, src, len);
	dst[len] = '\0';
	return 0;
}

int cl_copy(char *dst, size_t cap, const char *src)
{
	return cl_copy_span(dst, cap, src, strlen(src));
}

const char *cl_direction_name(enum cl_direction d)
{
	switch (d) {
	case CL_DIR_CREDIT:
		return "credit";
	case CL_DIR_DEBIT:
		return "debit";
	case CL_DIR_NONE:
		break;
	}
	return NULL;
}

/* ---- the field table ---- */

/* The def's flag words, as values, for this table only. */
#define STORED CL_FF_STORED
#define UNSTORED 0
#define OUT CL_FF_OUT
#define COMPARED CL_FF_COMPARED
#define ACCOUNT CL_FF_ACCOUNT
#define PERSONAL CL_FF_PERSONAL
#define NOTNULL CL_FF_NOTNULL
#define REQUIRED CL_FF_REQUIRED
#define NEEDED CL_FF_NEEDED
#define FP_ENTRY CL_FF_FP_ENTRY
#define FP_RETURN CL_FF_FP_RETURN
#define FP_PAIN CL_FF_FP_PAIN
#define FP_PACS CL_FF_FP_PACS
#define FP_PACS004 CL_FF_FP_PACS004
#define FP_PAIN008 CL_FF_FP_PAIN008
#define FP_PACS003 CL_FF_FP_PACS003
#define FP_CXL CL_FF_FP_CXL
/* in every kind's fingerprint */
#define FP_ALL (FP_ENTRY | FP_RETURN | FP_PAIN | FP_PACS | FP_PACS004 | FP_DD | FP_CXL)
#define FP_ISO (FP_PAIN | FP_PACS | FP_PACS004 | FP_DD | FP_CXL)
/* in both direct debits' (pain.008, pacs.003) */
#define FP_DD (FP_PAIN008 | FP_PACS003)
#define FP_ACH (FP_ENTRY | FP_RETURN)

/* where a HASHOPT field's has_<name> is */
#define HAS_OFFSET_HASHOPT(n) offsetof(struct cl_record, has_##n)
#define HAS_OFFSET_STATIC(n) 0
#define HAS_OFFSET_TEXT(n) 0
#define HAS_OFFSET_DATE(n) 0
#define HAS_OFFSET_HASH(n) 0
#define HAS_OFFSET_AMOUNT(n) 0
#define HAS_OFFSET_DIR(n) 0
#define HAS_OFFSET_LINE(n) 0
#define HAS_OFFSET_COUNT(n) 0
#define HAS_OFFSET_DERIVED(n) 0
#define HAS_OFFSET_SHARD(n) 0
/* where the member is, and its size: none for DERIVED and SHARD */
#define OFFSET_OF(type, n) OFFSET_##type(n)
#define OFFSET_STATIC(n) offsetof(struct cl_record, n)
#define OFFSET_TEXT(n) offsetof(struct cl_record, n)
#define OFFSET_DATE(n) offsetof(struct cl_record, n)
#define OFFSET_HASH(n) offsetof(struct cl_record, n)
#define OFFSET_HASHOPT(n) offsetof(struct cl_record, n)
#define OFFSET_AMOUNT(n) offsetof(struct cl_record, n)
#define OFFSET_DIR(n) offsetof(struct cl_record, n)
#define OFFSET_LINE(n) offsetof(struct cl_record, n)
#define OFFSET_COUNT(n) offsetof(struct cl_record, n)
#define OFFSET_DERIVED(n) 0
#define OFFSET_SHARD(n) 0
#define SIZE_OF(type, n) SIZE_##type(n)
#define SIZE_STATIC(n) sizeof(((struct cl_record *)0)->n)
#define SIZE_TEXT(n) sizeof(((struct cl_record *)0)->n)
#define SIZE_DATE(n) sizeof(((struct cl_record *)0)->n)
#define SIZE_HASH(n) sizeof(((struct cl_record *)0)->n)
#define SIZE_HASHOPT(n) sizeof(((struct cl_record *)0)->n)
#define SIZE_AMOUNT(n) sizeof(((struct cl_record *)0)->n)
#define SIZE_DIR(n) sizeof(((struct cl_record *)0)->n)
#define SIZE_LINE(n) sizeof(((struct cl_record *)0)->n)
#define SIZE_COUNT(n) sizeof(((struct cl_record *)0)->n)
#define SIZE_DERIVED(n) 0
#define SIZE_SHARD(n) 0

const struct cl_field cl_fields[CL_NFIELDS] = {
#define CL_FIELD(n, type, cap, scope, store, flags, since, csv, shape, width, check)          \
	{ #n, sizeof(#n) - 1, CL_FT_##type, CL_SCOPE_##scope, since, (store) | (flags),         \
	  OFFSET_OF(type, n), SIZE_OF(type, n), HAS_OFFSET_##type(n) },
#include "base/record_fields.def"
#undef CL_FIELD
};

#undef STORED
#undef UNSTORED
#undef OUT
#undef COMPARED
#undef ACCOUNT
#undef PERSONAL
#undef NOTNULL
#undef REQUIRED
#undef NEEDED
#undef FP_ENTRY
#undef FP_RETURN
#undef FP_PAIN
#undef FP_PACS
#undef FP_PACS004
#undef FP_PAIN008
#undef FP_PACS003
#undef FP_CXL
#undef FP_DD
#undef FP_ALL
#undef FP_ISO
#undef FP_ACH

const struct cl_field *cl_field_by_name(const char *name, size_t n)
{
	for (size_t i = 0; i < CL_NFIELDS; i++)
		if (cl_fields[i].name_len == n && memcmp(cl_fields[i].name, name, n) == 0)
			return &cl_fields[i];
	return NULL;
}

const char *cl_field_text(const struct cl_field *f, const struct cl_record *rec, char buf[65])
{
	const char *p = (const char *)rec + f->offset;
	const char *d;

	switch ((enum cl_field_type)f->type) {
	case CL_FT_STATIC:
	case CL_FT_TEXT:
	case CL_FT_DATE:
		return cl_field_str(f, rec);
	case CL_FT_HASHOPT:
		if (!cl_field_has(f, rec))
			return "";
		/* fall through */
	case CL_FT_HASH:
		for (int i = 0; i < 32; i++) {
			buf[2 * i] = "0123456789abcdef"[(unsigned char)p[i] >> 4];
			buf[2 * i + 1] = "0123456789abcdef"[(unsigned char)p[i] & 15];
		}
		buf[64] = '\0';
		return buf;
	case CL_FT_AMOUNT:
		snprintf(buf, 65, "%" PRId64, *(const int64_t *)(const void *)p);
		return buf;
	case CL_FT_DIR:
		d = cl_direction_name(*(const enum cl_direction *)(const void *)p);
		return d ? d : "";
	case CL_FT_LINE:
		snprintf(buf, 65, "%lu", *(const unsigned long *)(const void *)p);
		return buf;
	case CL_FT_COUNT:
		snprintf(buf, 65, "%u", *(const unsigned *)(const void *)p);
		return buf;
	case CL_FT_DERIVED:
	case CL_FT_SHARD:
		break; /* not in the record: the loader computes it */
	}
	return "";
}
