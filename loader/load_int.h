/*
 * load_int.h - what the files of the load pipeline share (load.c: the
 * file, its load row, pass 1 and applying; classify.c: classification,
 * near duplicates and originator locks; commit.c: COMMIT and the third
 * outcome; plan.c: the diff plan).  Not for use outside loader/load*.c,
 * classify.c, commit.c, plan.c: the module's interface is load.h.
 */
#ifndef CL_LOAD_INT_H
#define CL_LOAD_INT_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "load.h"
#include "parser.h"
#include "trace_ranges.h"
#include "xmalloc.h"

/* ---- a growable bitmap indexed by record ordinal ---- */

struct bitmap {
	unsigned char *bits;
	size_t nbytes;
};

static inline void bit_set(struct bitmap *b, unsigned long i)
{
	size_t byte = i / 8;

	if (byte >= b->nbytes) {
		size_t n = b->nbytes ? b->nbytes : 4096;

		while (n <= byte)
			n *= 2;
		b->bits = cl_xrealloc(b->bits, n);
		memset(b->bits + b->nbytes, 0, n - b->nbytes);
		b->nbytes = n;
	}
	b->bits[byte] |= (unsigned char)(1u << (i % 8));
}

static inline bool bit_test(const struct bitmap *b, unsigned long i)
{
	size_t byte = i / 8;

	return byte < b->nbytes && (b->bits[byte] & (1u << (i % 8)));
}

static inline void bit_clear_all(struct bitmap *b)
{
	if (b->bits)
		memset(b->bits, 0, b->nbytes);
}

/* ---- the state of one file ---- */

struct load {
	struct cl_db *db;
	const struct cl_load_opts *o;
	const struct cl_load_hooks *h;
	struct cl_load_result *r;
	const char *path;
	struct cl_input *in;
	char load_id[24];          /* of the current attempt, as text */
	struct cl_file_info info;  /* from pass 1 */
	char pass1_sha[65];
	struct bitmap matched;     /* ordinals with a journal row */
	struct bitmap conflicts;   /* ordinals that conflict */
	bool ordered_path;         /* retry: stage new rows, insert in key order */
	unsigned long raced_dup;   /* ordered path: skipped keys that turned */
	unsigned long raced_conflict; /* out duplicates / conflicts */
	bool in_commit;            /* COMMIT was sent: a lost connection now
	                              leaves the outcome to be found out */
	struct timespec t0;
	/* the originators (company ids) of the file's ACH entries, for the
	   near-duplicate locks; a growable array, sorted before use */
	char (*companies)[11];
	size_t ncompanies, companies_cap;
	/* per-originator trace runs: may the file hold a re-dated copy of
	   one of its own entries? */
	struct cl_trace_ranges traces;
	bool has_alt;              /* some record has an alt_key (record.h) */
	unsigned long nreturns;    /* ach.return and ach.noc records */
	unsigned long near_count;  /* conflicts that are near duplicates */
};


enum which {
	NEW_ROWS,      /* records without a journal row */
	CONFLICT_ROWS, /* conflicting records */
	NEAR_ROWS,     /* ACH records without a journal row, near rows only */
	ACH_ROWS,      /* every ACH record, near rows only */
};

/* load.c */
enum cl_db_status cl_load_exec0(struct load *L, const char *sql) CL_MUST_CHECK;
enum cl_status cl_load_open_parser(struct load *L, bool rewind, struct cl_parser **p,
				   struct cl_error *err) CL_MUST_CHECK;
/* COPY the records selected by `which` from a re-read of the file. */
enum cl_db_status cl_load_copy_rows(struct load *L, enum which which, const char *copy_sql,
				    unsigned long *copied) CL_MUST_CHECK;

/* The near identities (rules/near.h), dates, originators and traces of
 * the ACH records `which` selects into a new temporary table: NEAR_ROWS
 * into cl_unmatched, ACH_ROWS into cl_ach. */
enum cl_db_status cl_load_stage_near(struct load *L, enum which which,
				     unsigned long *copied) CL_MUST_CHECK;

/* classify.c */
void cl_load_note_company(struct load *L, const char *company);
enum cl_db_status cl_load_lock_originators(struct load *L) CL_MUST_CHECK;
enum cl_db_status cl_load_classify(struct load *L) CL_MUST_CHECK;

/* commit.c: COMMIT; CL_DB_OK (maybe learnt after a lost connection),
 * CL_DB_RETRY (it rolled back) or CL_DB_LOST (outcome unknown) */
enum cl_db_status cl_load_commit(struct load *L) CL_MUST_CHECK;

/* plan.c: diff's per-record report through hooks->on_plan */
enum cl_db_status cl_load_plan(struct load *L) CL_MUST_CHECK;

#endif
