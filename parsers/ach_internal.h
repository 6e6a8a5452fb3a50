/*
 * ach_internal.h - state shared by the NACHA parser's files (ach*.c only).
 *
 *   ach.c          handle, line reader, record-type order, event queue
 *   ach_fields.c   byte classes, numeric fields, dates, routing check digit
 *   ach_batch.c    file header, batch header, batch and file controls,
 *                  the cross-batch trace-restart check
 *   ach_entry.c    entry detail and addenda layouts per SEC code
 *
 * Columns in comments are NACHA's: 1-based and inclusive.  A record being
 * parsed always has 94 readable columns (`struct ach_line`: the input
 * itself, or a blank-padded copy of a short line), so field code never
 * reads past the line.
 */
#ifndef CL_ACH_INTERNAL_H
#define CL_ACH_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/keyset.h"
#include "parsers/ach.h"
#include "rules/fingerprint.h"

#define ACH_RECLEN 94
#define ACH_QUEUE 64          /* events (errors, notes, a record) per line */
#define ACH_MAX_BATCHES 200000 /* batch summaries kept (trace-restart check) */
#define ACH_MAX_ADDENDA 9999  /* addenda per entry (CTX limit) */

/* One 94-column record, space padded; c[col - 1] is column col. */
struct ach_line {
	const char *c;           /* 94 columns: the input itself, or `pad` */
	char pad[ACH_RECLEN];    /* a short line padded with blanks, or a line
	                            whose bad bytes were replaced by '?' */
	unsigned long no;   /* line number */
	size_t len;         /* length as read (without CR/LF) */
};

/* What the batch header said, and what its entries add up to. */
struct ach_batch {
	bool open;
	unsigned long line;          /* line of the batch header */
	char service_class[4];       /* 2-4 */
	char sec[4];                 /* 51-53, as found (may be invalid) */
	int sec_id;                  /* enum ach_sec */
	bool iat;                    /* IAT header layout (IAT, or COR + IATCOR) */
	bool iat_cor;                /* IAT NOC batch (COR with IATCOR) */
	char company_id[11];         /* 41-50, trailing blanks trimmed */
	char company_id_raw[11];     /* 41-50 as found (batch control compare) */
	char company_id_trim[11];    /* 41-50, blanks trimmed on both sides */
	char company_name[17];
	char entry_desc[11];
	char value_date[11];         /* effective entry date, YYYY-MM-DD or "" */
	bool date_blank;             /* 70-75 blank or 000000 */
	bool date_zero;              /* 70-75 is 000000 (date_blank too) */
	bool date_reported;          /* an entry of a batch without date was
	                                reported */
	char odfi[9];                /* 80-87 */
	char number[8];              /* 88-94 */
	char iat_dest_country[3];    /* IAT 39-40 */
	char iat_dest_currency[4];   /* IAT 67-69 */
	uint64_t number_val;
	bool number_ok;
	/* computed from the entries */
	unsigned long entries;       /* entries + addenda */
	unsigned long entry_count;   /* entries only */
	uint64_t hash;               /* sum of RDFI routing (4-11) */
	uint64_t debit, credit;
	uint64_t last_trace;         /* for ascending order */
	unsigned long last_trace_line;
	bool have_trace;             /* last_trace is set */
	struct ach_range {           /* traces of the batch's records by kind: */
		uint64_t min, max;   /* [0] entries, [1] returns, [2] NOCs */
		bool have;
	} range[3];
};

/* The entry being built, finished when its next non-addenda record comes. */
struct ach_entry {
	bool open;
	unsigned long line;
	int tcode;                   /* transaction code, -1 if not numeric */
	bool indicator;              /* addenda record indicator (79) = 1 */
	bool indicator_ok;
	unsigned declared_addenda;   /* CTX/ATX/ENR/TRX 55-58, IAT 13-16 */
	bool has_declared;
	unsigned addenda;            /* addenda seen */
	unsigned n05, n02, n98, n99, n17, n18;
	int iat_next;                /* next mandatory IAT addenda (10..16), 17 = done */
	unsigned long first_addenda_line;
	uint64_t trace;
	bool trace_ok;
	bool trace_in_order;         /* above the batch's previous trace */
	char iat_rdfi_id[36];        /* IAT addenda 14 41-74 */
	char iat_rdfi_qual[3];       /* IAT addenda 14 39-40 */
};

/* One batch's trace range of one kind, for the trace-restart check. */
/* The trace numbers of one batch's entries as bits from the first one
 * (traces ascend within a batch): about one bit per trace number spanned,
 * so two batches whose ranges overlap can be compared exactly
 * (interleaved batches are not rejected).  Given up (NULL) when the
 * traces are too sparse for it: see ACH_BITS_SPAN. */
struct ach_bits {
	uint64_t *w;                 /* NULL: none (given up, or no entry) */
	size_t nw;                   /* words allocated */
	uint64_t base;               /* trace number of bit 0 */
	unsigned long count;         /* traces set */
	bool dropped;                /* too sparse: no exact comparison */
};

struct ach_batch_sum {
	uint64_t min, max;
	unsigned long line;          /* batch header line */
	uint64_t *bits;              /* its traces from min (owned), or NULL */
};

/* The ranges of one company id, effective date and record kind, sorted by
 * min; disjoint until two batches whose ranges overlap proved to share no
 * trace. */
struct ach_group {
	char key[17];                /* company id (10) + YYMMDD (6) + kind */
	bool used;
	bool overlapping;            /* some ranges overlap (no trace shared) */
	struct ach_batch_sum *v;
	size_t n, cap;
};

struct ach_event {
	enum cl_status st;           /* CL_OK = the record in `out` */
	struct cl_error err;
};

struct cl_ach {
	struct cl_input *in;
	const char *name;
	struct cl_parse_opts opts;
	struct cl_file_info info;
	struct cl_ach_fp *afp;

	/* reader */
	unsigned char *buf;          /* CL_INPUT_BUFSIZE * 2 */
	size_t cap, pos, len;
	bool eof, io_failed;
	bool fixed_block;            /* no line breaks: 94-byte records */
	char eol;                    /* '\n', or '\r' for CR-only files */
	bool mode_known;
	bool skipping;               /* discarding the rest of an overlong line */
	unsigned long line_no;
	bool noted_crlf, noted_trailing_blanks, noted_blank_lines;
	bool noted_eof_marker;       /* a DOS end-of-file byte (0x1A) after the
	                                file control, ignored once */
	bool after_control_reported; /* one error for whatever follows the file
	                                control, not one per line */

	/* structure */
	bool saw_header, header_reported, saw_file_control, finished;
	unsigned long file_control_line;
	unsigned long fill_lines;
	unsigned long tenth_fill_line; /* the first 9-fill record too many */
	unsigned long records_before_fill; /* records up to the file control */
	unsigned long lines_after_control; /* non-blank lines after the file
	                                control, 9-fill or not: physical
	                                records, counted in the block count */
	uint64_t block_count;        /* file control 8-13, when block_count_ok */
	bool block_count_ok;
	bool totals_failed;          /* a batch or file control count, hash or
	                                total did not add up */
	unsigned long blank_lines;   /* blank lines before the file control (each
	                                an error already; not records, so not
	                                counted in the block count) */
	struct ach_batch b;
	struct ach_entry e;
	bool all_adv;                /* every batch so far had service class 280 */
	unsigned long batches;
	unsigned long ordinals;      /* records finished so far */
	unsigned long file_entries;  /* entries + addenda */
	uint64_t file_hash, file_debit, file_credit;
	bool prev_batch_number_ok;
	uint64_t prev_batch_number;
	unsigned long prev_batch_line;

	/* trace-restart check */
	size_t nsums;                /* ranges kept, in all groups */
	struct ach_group *groups;    /* open addressing, capgroups a power of 2 */
	/* the keys of the returns and NOCs so far: their key has no company id,
	 * so the per-company trace ranges cannot prove them unique across
	 * batches of different companies (24 to 64 bytes per return/NOC) */
	struct cl_keyset *return_keys;
	struct ach_bits bits;        /* the current batch's entry traces */
	size_t bits_bytes;           /* kept in summaries (capped: ACH_BITS_TOTAL) */
	uint64_t compare_budget;     /* trace comparisons left (ACH_COMPARE_MAX) */
	bool compare_started;        /* compare_budget is set */
	size_t ngroups, capgroups;
	bool sums_full;

	/* records: `cur` is being built, `out` was handed out */
	struct cl_record recs[2];
	struct cl_record *cur, *out;

	/* events waiting for next() */
	struct ach_event q[ACH_QUEUE];
	unsigned qhead, qlen;
	struct cl_error *last_err;   /* the error queued last while it waits;
	                                NULL when it was dropped (queue full) */
};

enum ach_sec {
	SEC_UNKNOWN = 0,
	SEC_ACK, SEC_ADV, SEC_ARC, SEC_ATX, SEC_BOC, SEC_CCD, SEC_CIE, SEC_COR,
	SEC_CTX, SEC_DNE, SEC_ENR, SEC_IAT, SEC_MTE, SEC_POP, SEC_POS, SEC_PPD,
	SEC_RCK, SEC_SHR, SEC_TEL, SEC_TRC, SEC_TRX, SEC_WEB, SEC_XCK,
};

/* ach.c: queue an error or a note for the current file */
void ach_err(struct cl_ach *p, unsigned long line, unsigned long col, const char *code,
	     const char *fmt, ...) CL_PRINTF(5, 6);
void ach_note(struct cl_ach *p, unsigned long line, const char *code, const char *fmt, ...)
	CL_PRINTF(4, 5);
/* Name a second line in the error queued last (duplicate keys). */
void ach_err_other_line(struct cl_ach *p, unsigned long other);
/* Where the numbers of the error queued last came from (its detail). */
void ach_err_detail(struct cl_ach *p, const char *fmt, ...) CL_PRINTF(2, 3);
void ach_emit_record(struct cl_ach *p);

/* ach_fields.c */
extern const unsigned char ach_digit[256]; /* '0'..'9' -> 1, else 0 */
/* n digits at s into *out (0 and false when one is not a digit).  Eight
 * digits at a time where it can (traces, amounts, routing numbers): a
 * byte outside '0'..'9' sets a high bit in one of the two sums, and three
 * multiplications combine the eight digit values (little-endian load). */
static inline bool ach_num(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	unsigned bad = 0;
	size_t i = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; i + 8 <= n; i += 8) {
		uint64_t x;

		memcpy(&x, s + i, 8);
		if (((x - 0x3030303030303030ULL) | (x + 0x4646464646464646ULL)) &
		    0x8080808080808080ULL) {
			*out = 0;
			return false;
		}
		x = (x & 0x0F0F0F0F0F0F0F0FULL) * 2561 >> 8;
		x = (x & 0x00FF00FF00FF00FFULL) * 6553601 >> 16;
		x = (x & 0x0000FFFF0000FFFFULL) * 42949672960001ULL >> 32;
		v = v * 100000000 + x;
	}
#endif
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		bad |= ach_digit[c] ^ 1u;
		v = v * 10 + (uint64_t)(c - '0');
	}
	*out = bad ? 0 : v;
	return !bad;
}

/* Queue the "numeric" error for columns a..b (ach_field_num). */
void ach_num_error(struct cl_ach *p, const struct ach_line *l, int a, int b, const char *what);

/* Parse columns a..b of `l` as digits; on failure queue a "numeric" error
 * naming `what` and return false. */
static inline bool ach_field_num(struct cl_ach *p, const struct ach_line *l, int a, int b,
				 const char *what, uint64_t *out)
{
	if (ach_num(l->c + a - 1, (size_t)(b - a + 1), out))
		return true;
	ach_num_error(p, l, a, b, what);
	return false;
}
/* Copy columns a..b with trailing blanks trimmed (dst has room for b-a+2). */
static inline void ach_field_trim(char *dst, const struct ach_line *l, int a, int b)
{
	size_t n = (size_t)(b - a + 1);
	const char *s = l->c + a - 1;

	while (n > 0 && s[n - 1] == ' ')
		n--;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* Copy columns a..b verbatim. */
static inline void ach_field_raw(char *dst, const struct ach_line *l, int a, int b)
{
	memcpy(dst, l->c + a - 1, (size_t)(b - a + 1));
	dst[b - a + 1] = '\0';
}

bool ach_field_blank(const struct ach_line *l, int a, int b);
/* YYMMDD -> YYYY-MM-DD; false when not a calendar date. */
bool ach_date(const char *yymmdd, char out[11]);
/* ABA 3-7-1 check digit of 8 routing digits (which must be digits). */
static inline int ach_check_digit(const char *d)
{
	int sum = 3 * (d[0] - '0') + 7 * (d[1] - '0') + (d[2] - '0') + 3 * (d[3] - '0') +
		  7 * (d[4] - '0') + (d[5] - '0') + 3 * (d[6] - '0') + 7 * (d[7] - '0');

	return (10 - sum % 10) % 10;
}
/* Write v as exactly `width` digits (zero padded) + NUL. */
void ach_fmt_u64(char *dst, uint64_t v, int width);
/* Quote a field for a message: printable ASCII kept, others as \xHH. */
const char *ach_show(char *buf, size_t cap, const char *s, size_t n);
int ach_sec_lookup(const char *three);
const char *ach_sec_name(int sec);

/* ach_batch.c */
void ach_file_header(struct cl_ach *p, const struct ach_line *l);
void ach_batch_header(struct cl_ach *p, const struct ach_line *l);
void ach_batch_control(struct cl_ach *p, const struct ach_line *l);
void ach_file_control(struct cl_ach *p, const struct ach_line *l);
/* At the end of the file: the file control's block count against the
 * blocks of 10 physical records the file has (9-fill included). */
void ach_block_count(struct cl_ach *p);
void ach_batch_sums_free(struct cl_ach *p);
/* Note an entry's trace (ascending within the batch) / forget them all. */
void ach_bits_add(struct ach_bits *b, uint64_t trace);
void ach_bits_reset(struct ach_bits *b);

/* ach_entry.c */
void ach_entry_detail(struct cl_ach *p, const struct ach_line *l);
void ach_addenda(struct cl_ach *p, const struct ach_line *l);
/* Finish the open entry (if any): addenda checks, key, fingerprint, and
 * queue the record. */
void ach_entry_finish(struct cl_ach *p);

#endif
