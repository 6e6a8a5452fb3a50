/*
 * test_iso20022_util.h - helpers shared by the ISO 20022 test binaries:
 * run the parser over a buffer or a file and keep every record and error.
 * Included by exactly one .c per binary (static functions).
 */
#ifndef TEST_ISO20022_UTIL_H
#define TEST_ISO20022_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/record.h"
#include "parsers/input.h"
#include "parsers/iso20022.h"
#include "parsers/parser.h"

#define RUN_MAX 64

struct iso_run {
	int nrec, nerr, nnote;          /* counted, even beyond RUN_MAX */
	struct cl_record rec[RUN_MAX];
	struct cl_error err[RUN_MAX];
	struct cl_error note[8];        /* CL_NOTE remarks */
	struct cl_file_info info;
	int io;                         /* CL_IO returned */
};

static inline void iso_run_opts(const void *buf, size_t len, size_t chunk, const struct cl_parse_opts *o,
			 struct iso_run *r)
{
	struct cl_input *in = cl_input_from_memory(buf, len, chunk, "t.xml");
	struct cl_parser *p = cl_parser_new(CL_FORMAT_ISO20022, in, o);
	const struct cl_record *rec;
	struct cl_error err;
	enum cl_status st;
	int guard = 0;

	memset(r, 0, sizeof(*r));
	while ((st = cl_parser_next(p, &rec, &err)) != CL_END && guard++ < 100000) {
		if (st == CL_OK) {
			if (r->nrec < RUN_MAX)
				r->rec[r->nrec] = *rec;
			r->nrec++;
		} else if (st == CL_INVALID) {
			if (r->nerr < RUN_MAX)
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
	r->info = *cl_parser_info(p);
	cl_parser_free(p);
	cl_input_free(in);
}

static inline void iso_run(const char *xml, struct iso_run *r)
{
	iso_run_opts(xml, strlen(xml), 0, NULL, r);
}

/* The whole file in memory (tests only); NULL when it cannot be read. */
static inline char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		*len = (size_t)n;
	}
	return buf;
}

/* Index of the first error with `code`, or -1. */
static inline int find_error(const struct iso_run *r, const char *code)
{
	for (int i = 0; i < r->nerr && i < RUN_MAX; i++)
		if (strcmp(r->err[i].code, code) == 0)
			return i;
	return -1;
}

#endif
