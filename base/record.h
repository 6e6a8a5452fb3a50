/*
 * record.h - the one record model every parser emits, and the shared
 * status and error types.
 *
 * A parser hands out a `struct cl_record` that stays valid until the next
 * call to its `_next()` function; whoever keeps data copies it.  Every
 * text field is a fixed-capacity, NUL-terminated char array: an empty
 * string means "the format has no such field" (printed as null).  A value
 * longer than its field is a data error naming the limit, never truncated.
 *
 * No function in parsers/ prints, exits or talks to a database.
 */
#ifndef CL_RECORD_H
#define CL_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define CL_MUST_CHECK __attribute__((warn_unused_result))
#define CL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CL_MUST_CHECK
#define CL_PRINTF(f, a)
#endif

/* What a parser's next() (and most functions) return. */
enum cl_status {
	CL_OK = 0,      /* a record (or success) */
	CL_END,         /* no more records: the input is exhausted */
	CL_INVALID,     /* a data error, described in struct cl_error; the
	                   caller may call next() again to collect more */
	CL_NOTE,        /* not an error: a remark for verbose output (CRLF
	                   line ends, missing 9-fill, trimmed line) */
	CL_IO,          /* the input could not be read (error filled) */
};

/* The key rule a record's natural key was made by (clearing-load-keys(7)). */
#define CL_KEY_RULE_V1 "v1"                 /* key rule version 1 (clearing-load-keys(7)) */
#define CL_KEY_RULE_V1_ACH_BATCH "v1-batch" /* ACH, --ach-key=batch: weaker */
#define CL_KEY_RULE_V1_POSITIONAL "v1-positional" /* pain.001 positional */

enum cl_direction {
	CL_DIR_NONE = 0, /* prenotes, zero-dollar, NOC ... */
	CL_DIR_CREDIT,
	CL_DIR_DEBIT,
};

/* Capacities, each including the terminating NUL. */
#define CL_KEY_MAX 320      /* natural key text */
#define CL_ID_MAX 36        /* ISO Max35Text identifiers */
#define CL_NAME_MAX 564     /* ISO Max140Text as UTF-8 (140 * 4 + 4) */
#define CL_ACCOUNT_MAX 36   /* IBAN (34) / Othr/Id (Max34Text) / ACH 17, IAT 35 */
#define CL_AGENT_MAX 36     /* BIC (11) or clearing member id (Max35Text) */
#define CL_ADDENDA_MAX 96   /* one addenda's payment information (80) */
#define CL_MSGTEXT_MAX 512  /* error message text (and its detail) */
#define CL_HINT_MAX 256     /* what an error's hint says to do */

/* The record: one member per line of record_fields.def (in its order),
 * plus the record's ordinal.  The def says what each member holds. */
#define CL_MEMBER_STATIC(n, cap) const char *n;
#define CL_MEMBER_TEXT(n, cap) char n[cap];
#define CL_MEMBER_DATE(n, cap) char n[cap];
#define CL_MEMBER_HASH(n, cap) unsigned char n[32];
#define CL_MEMBER_HASHOPT(n, cap) unsigned char n[32]; int has_##n;
#define CL_MEMBER_AMOUNT(n, cap) int64_t n;
#define CL_MEMBER_DIR(n, cap) enum cl_direction n;
#define CL_MEMBER_LINE(n, cap) unsigned long n;
#define CL_MEMBER_COUNT(n, cap) unsigned n;
#define CL_MEMBER_DERIVED(n, cap)
#define CL_MEMBER_SHARD(n, cap)

struct cl_record {
#define CL_FIELD(name, type, cap, ...) CL_MEMBER_##type(name, cap)
#include "base/record_fields.def"
#undef CL_FIELD
	unsigned long ordinal;   /* 1-based index of the record in the file */
};

/* ---- the field table (record_fields.def) as data ---- */

enum cl_field_id {
#define CL_FIELD(name, ...) CL_F_##name,
#include "base/record_fields.def"
#undef CL_FIELD
	CL_NFIELDS
};

enum cl_field_type {
	CL_FT_STATIC, CL_FT_TEXT, CL_FT_DATE, CL_FT_HASH, CL_FT_HASHOPT, CL_FT_AMOUNT, CL_FT_DIR,
	CL_FT_LINE, CL_FT_COUNT, CL_FT_DERIVED, CL_FT_SHARD,
};

enum cl_field_scope { CL_SCOPE_ALL, CL_SCOPE_ACH, CL_SCOPE_ISO };

/* The flags of record_fields.def (see there). */
enum {
	CL_FF_STORED = 1 << 0,
	CL_FF_OUT = 1 << 1,
	CL_FF_COMPARED = 1 << 2,
	CL_FF_ACCOUNT = 1 << 3,
	CL_FF_PERSONAL = 1 << 4,
	CL_FF_NOTNULL = 1 << 5,
	CL_FF_REQUIRED = 1 << 6,
	CL_FF_NEEDED = 1 << 7,
	/* in the fingerprint of these kinds (rules/ach_identity.c,
	   rules/iso_identity.c hash them; tests/unit/test_fingerprint_fields.c
	   holds the code to this table) */
	CL_FF_FP_ENTRY = 1 << 8,   /* ach.entry */
	CL_FF_FP_RETURN = 1 << 9,  /* ach.return, ach.noc */
	CL_FF_FP_PAIN = 1 << 10,   /* pain.001 */
	CL_FF_FP_PACS = 1 << 11,   /* pacs.008, pacs.009 */
	CL_FF_FP_PACS004 = 1 << 12, /* pacs.004 */
	CL_FF_FP_PAIN008 = 1 << 13, /* pain.008 */
	CL_FF_FP_PACS003 = 1 << 14, /* pacs.003 */
	CL_FF_FP_CXL = 1 << 15,     /* camt.056, camt.029 */
};

struct cl_field {
	const char *name;         /* member, column, JSON key, CSV column */
	unsigned char name_len;
	unsigned char type;       /* enum cl_field_type */
	unsigned char scope;      /* enum cl_field_scope */
	unsigned char since;      /* schema version that added the column */
	unsigned flags;           /* CL_FF_* */
	size_t offset;            /* in struct cl_record (0 for DERIVED, SHARD) */
	size_t size;              /* of the member (0 for DERIVED, SHARD) */
	size_t has_offset;        /* HASHOPT: of its int has_<name> */
};

/* Indexed by enum cl_field_id, in the def's order. */
extern const struct cl_field cl_fields[CL_NFIELDS];

/* A field's name (its column, JSON key and CSV column), for code that
 * names one field: CL_FIELD_NAME(natural_key). */
#define CL_FIELD_NAME(n) (cl_fields[CL_F_##n].name)

/* The field named `name` (n bytes), or NULL. */
const struct cl_field *cl_field_by_name(const char *name, size_t n);

/* Does `rec` carry field f (its scope: every record, NACHA or ISO)? */
static inline int cl_field_in_scope(const struct cl_field *f, const struct cl_record *rec)
{
	return f->scope == CL_SCOPE_ALL ||
	       (f->scope == CL_SCOPE_ACH) == (rec->scheme && rec->scheme[0] == 'n');
}

/* Is field f set?  false only for an unset HASHOPT. */
static inline int cl_field_has(const struct cl_field *f, const struct cl_record *rec)
{
	return f->type != CL_FT_HASHOPT ||
	       *(const int *)(const void *)((const char *)rec + f->has_offset);
}

/* A text field's value (TEXT: the array; STATIC: the string or ""). */
static inline const char *cl_field_str(const struct cl_field *f, const struct cl_record *rec)
{
	const char *p = (const char *)rec + f->offset;

	if (f->type == CL_FT_STATIC) {
		const char *s = *(const char *const *)(const void *)p;

		return s ? s : "";
	}
	return p;
}

/* Field f of `rec` as text, as PostgreSQL prints the stored column: TEXT
 * and STATIC as they are, numbers in decimal, a direction by name, a hash
 * in 64 lowercase hex digits ("" for an unset HASHOPT).  "" means none.
 * buf[65] is used for what is not already text. */
const char *cl_field_text(const struct cl_field *f, const struct cl_record *rec, char buf[65]);

/* Machine-readable error codes are short snake_case words ("record_length",
 * "entry_hash", "xml_malformed"), stable across releases. */
#define CL_CODE_MAX 40
#define CL_PATH_MAX 256

struct cl_error {
	const char *file;         /* display name of the input; not owned */
	unsigned long line;       /* 1-based; 0 = no line (whole file) */
	unsigned long column;     /* 1-based; 0 = unknown */
	char code[CL_CODE_MAX];   /* stable machine code */
	char path[CL_PATH_MAX];   /* XML element path, "" for ACH */
	char message[CL_MSGTEXT_MAX]; /* PostgreSQL style: lowercase, no period,
	                                 what was expected and what was found */
	unsigned long other_line; /* a second line the error names (duplicate
	                             keys), 0 if none */
	char sqlstate[6];         /* loader errors only */
	/* As PostgreSQL's message parts: each "" unless the code that found
	 * the problem had more to say. */
	char detail[CL_MSGTEXT_MAX]; /* where each number in the message came
	                                from (a record, its columns, what was
	                                added up) */
	char hint[CL_HINT_MAX];   /* what the operator can do about it */
	unsigned long count;      /* errors this one stands for: 0 for one; the
	                             summary of errors of one code not shown
	                             one by one (parser.h) stands for them all */
};

/* How many errors `err` counts for in a file's error count. */
static inline unsigned long cl_error_count(const struct cl_error *err)
{
	return err->count ? err->count : 1;
}

/* Is `first`, the first error of a file, the verdict "a well-formed message
 * clearing-load does not read" (code unsupported_message)?  The one test
 * of it: validate, parse, diff, load and ingest all exit 9 (unsupported)
 * for such a file, and 3 (invalid) for any other first error. */
static inline bool cl_error_unsupported(const struct cl_error *first)
{
	return strcmp(first->code, "unsupported_message") == 0;
}

/* Fill `err` (all fields reset first: detail and hint are "").  Never
 * fails; overlong text is cut at the buffer (messages are ours, not data). */
void cl_error_set(struct cl_error *err, const char *file, unsigned long line,
		  const char *code, const char *fmt, ...) CL_PRINTF(5, 6);

/* Set the detail or the hint of an error already set (same style as the
 * message: lowercase, no period).  Cut at the buffer. */
void cl_error_detail(struct cl_error *err, const char *fmt, ...) CL_PRINTF(2, 3);
void cl_error_hint(struct cl_error *err, const char *fmt, ...) CL_PRINTF(2, 3);

/* Reset a record to all-empty (every string "", numbers 0). */
void cl_record_clear(struct cl_record *rec);

/* Copy NUL-terminated `src` into dst[cap]; returns 0, or -1 (dst unchanged
 * but emptied) when src does not fit.  Callers turn -1 into a data error
 * naming the field and its limit. */
int cl_copy(char *dst, size_t cap, const char *src) CL_MUST_CHECK;

/* Same for a (pointer, length) span that need not be NUL-terminated. */
int cl_copy_span(char *dst, size_t cap, const char *src, size_t len) CL_MUST_CHECK;

/* "credit", "debit" or NULL */
const char *cl_direction_name(enum cl_direction d);

#endif
