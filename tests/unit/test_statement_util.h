/*
 * test_statement_util.h - helpers shared by the statement test binaries:
 * run the readers (parsers/statement.h) over a buffer and keep the items
 * and errors.  Included by exactly one .c per binary (static functions).
 */
#ifndef TEST_STATEMENT_UTIL_H
#define TEST_STATEMENT_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/record.h"
#include "parsers/input.h"
#include "parsers/statement.h"

#define SRUN_MAX 48

struct stmt_run {
	int nitem, nerr, nnote;           /* counted, even beyond SRUN_MAX */
	int nkind[8];                     /* items by kind */
	struct cl_stmt_item item[SRUN_MAX];
	struct cl_error err[SRUN_MAX];
	struct cl_error note[8];
	int io;
	int64_t net;                      /* entries: credits minus debits */
	uint64_t digest;                  /* of every item and error, in order */
	char source[16], message_type[32];
};

static uint64_t srun_mix(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

static void stmt_run(const void *buf, size_t len, size_t chunk, struct stmt_run *r)
{
	struct cl_input *in = cl_input_from_memory(buf, len, chunk, "t");
	struct cl_stmt_parser *p = cl_stmt_open(in, 0);
	const struct cl_stmt_item *it;
	struct cl_error err;
	enum cl_status st;
	long guard = 0;

	memset(r, 0, sizeof(*r));
	r->digest = 14695981039346656037ULL;
	while ((st = cl_stmt_next(p, &it, &err)) != CL_END && guard++ < 10000000) {
		if (st == CL_OK) {
			if (r->nitem < SRUN_MAX)
				r->item[r->nitem] = *it;
			r->nitem++;
			r->nkind[it->kind]++;
			/* a BAI2 detail of type 700-999 has no direction: in neither */
			if (it->kind == CL_STMT_ENTRY && it->entry.direction == CL_DIR_CREDIT)
				r->net += it->entry.amount_minor;
			else if (it->kind == CL_STMT_ENTRY && it->entry.direction == CL_DIR_DEBIT)
				r->net -= it->entry.amount_minor;
			r->digest = srun_mix(r->digest, it, sizeof(*it));
			continue;
		}
		r->digest = srun_mix(r->digest, err.code, strlen(err.code));
		r->digest = srun_mix(r->digest, &err.line, sizeof(err.line));
		r->digest = srun_mix(r->digest, err.message, strlen(err.message));
		if (st == CL_INVALID) {
			if (r->nerr < SRUN_MAX)
				r->err[r->nerr] = err;
			r->nerr++;
		} else if (st == CL_NOTE) {
			if (r->nnote < 8)
				r->note[r->nnote] = err;
			r->nnote++;
		} else if (st == CL_IO) {
			r->io = 1;
		}
	}
	snprintf(r->source, sizeof(r->source), "%s", cl_stmt_source_name(cl_stmt_source(p)));
	snprintf(r->message_type, sizeof(r->message_type), "%s", cl_stmt_message_type(p));
	cl_stmt_free(p);
	cl_input_free(in);
}

static inline void stmt_run_str(const char *s, struct stmt_run *r)
{
	stmt_run(s, strlen(s), 0, r);
}

/* Index of the first error with `code`, or -1. */
static inline int stmt_find_error(const struct stmt_run *r, const char *code)
{
	for (int i = 0; i < r->nerr && i < SRUN_MAX; i++)
		if (strcmp(r->err[i].code, code) == 0)
			return i;
	return -1;
}

/* The n-th item (0-based) of a kind, or NULL. */
static inline const struct cl_stmt_item *stmt_nth(const struct stmt_run *r,
						  enum cl_stmt_kind kind, int n)
{
	for (int i = 0; i < r->nitem && i < SRUN_MAX; i++)
		if (r->item[i].kind == kind && n-- == 0)
			return &r->item[i];
	return NULL;
}

/* The same items and errors when read 1 and 7 bytes at a time. */
static inline int stmt_chunk_stable(const char *s)
{
	static struct stmt_run a, b;
	size_t n = strlen(s);

	stmt_run(s, n, 0, &a);
	for (size_t c = 1; c < 8; c += 6) {
		stmt_run(s, n, c, &b);
		if (a.digest != b.digest || a.nitem != b.nitem || a.nerr != b.nerr)
			return 0;
	}
	return 1;
}

#endif
