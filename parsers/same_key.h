/*
 * same_key.h - the error of one payment identity (natural key) that occurs
 * more than once in a file, said the same way by validate and parse
 * (cmd/walk.c) and by load and diff (loader/stage.c): both lines, and
 * whether the two records are one payment twice or two payments that
 * differ, and in what (the amount, an account, a name...).
 *
 * What differs is learnt by reading the file again (cl_same_key_read), so
 * only when the file can be: standard input is told without it.
 */
#ifndef CL_SAME_KEY_H
#define CL_SAME_KEY_H

#include <stdbool.h>
#include <stddef.h>

#include "base/record.h"
#include "parsers/parser.h"

struct cl_same_key {
	/* in: as the check that found the key says it */
	char key[CL_KEY_MAX];       /* the key as shown (accounts masked or not) */
	char match[CL_KEY_MAX];     /* the key to look for (`masked`: as
	                               cl_mask_record_key gives it, else the
	                               natural key itself) */
	bool masked;
	unsigned long count;        /* records with the key */
	unsigned long first, last;  /* their first and last line */
	/* out: the first and last record with the key (cl_same_key_read) */
	struct cl_record *a, *b;    /* owned; NULL until read */
};

/* Read `p` to the end, keeping for each of v[0..n) the first and the last
 * record with its key (a parser just opened on the same file). */
void cl_same_key_read(struct cl_parser *p, struct cl_same_key *v, size_t n);

/* What differs between records a and b, "" when nothing does, into
 * out[cap]: "amount 10.00 vs 12.00, creditor_name \"A\" vs \"B\"";
 * accounts masked when `mask`. */
const char *cl_same_key_differences(const struct cl_record *a, const struct cl_record *b,
				    bool mask, char *out, size_t cap);

/* The duplicate_key error of k into e, its line k->last and other line
 * k->first; with what differs when k was read. */
void cl_same_key_error(struct cl_error *e, const char *file, const struct cl_same_key *k,
		       bool mask);

/* The duplicate_alt_key error: one payment (same content and alternate
 * key `alt`) under `keys` natural keys, first on line `first`, last on
 * `last`. */
void cl_alt_key_error(struct cl_error *e, const char *file, const char *alt, unsigned long keys,
		      unsigned long first, unsigned long last);

void cl_same_key_release(struct cl_same_key *v, size_t n); /* frees a, b */

#endif
