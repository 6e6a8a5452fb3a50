/*
 * fuzz_statement.c - libFuzzer entry point for the statement readers
 * (parsers/statement.h: camt.052/053/054, pacs.002, BAI2), fed whole and in
 * chunks of a size taken from the input.
 *
 * Invariants checked on everything handed out (a broken one aborts):
 * reading ends (CL_END, and nothing after CL_IO); the same items and
 * errors, in order, whatever the chunk size (unless the input failed: a
 * corrupt gzip stream may be found at another point); every error has a code, a message and a line within the input's
 * lines; every item is of a known kind with NUL-terminated text; an
 * item's indexes count from 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "parsers/input.h"
#include "parsers/statement.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond, ...)                                                                       \
	do {                                                                                   \
		if (!(cond)) {                                                                 \
			fprintf(stderr, "fuzz_statement: invariant broken: %s: ", #cond);      \
			fprintf(stderr, __VA_ARGS__);                                          \
			fputc('\n', stderr);                                                   \
			abort();                                                               \
		}                                                                              \
	} while (0)

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	xmlInitParser();
	return 0;
}

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

#define TERMINATED(a) (memchr((a), '\0', sizeof(a)) != NULL)

static void check_item(const struct cl_stmt_item *it)
{
	CHECK(it->kind >= CL_STMT_STATEMENT && it->kind <= CL_STMT_TX_STATUS, "kind %d", it->kind);
	CHECK(TERMINATED(it->stmt.message_type) && TERMINATED(it->stmt.id) &&
		      TERMINATED(it->stmt.acct_iban) && TERMINATED(it->stmt.acct_other) &&
		      TERMINATED(it->stmt.msg_id),
	      "statement text");
	CHECK(TERMINATED(it->entry.text) && TERMINATED(it->entry.acct_svcr_ref) &&
		      TERMINATED(it->entry.status) && TERMINATED(it->entry.ccy),
	      "entry text");
	CHECK(TERMINATED(it->tx.end_to_end_id) && TERMINATED(it->tx.uetr) &&
		      TERMINATED(it->tx.ach_trace),
	      "transaction text");
	CHECK(TERMINATED(it->status.orgnl_uetr) && TERMINATED(it->status.status), "status text");
	if (it->kind != CL_STMT_GROUP_STATUS && it->kind != CL_STMT_TX_STATUS)
		CHECK(it->stmt.index >= 1, "statement index %lu", it->stmt.index);
	if (it->kind == CL_STMT_ENTRY || it->kind == CL_STMT_TX)
		CHECK(it->entry.index >= 1, "entry index %lu", it->entry.index);
	if (it->kind == CL_STMT_TX)
		CHECK(it->tx.index >= 1 && it->tx.index <= it->entry.txs, "tx index %lu of %lu",
		      it->tx.index, it->entry.txs);
	if (it->kind == CL_STMT_GROUP_STATUS || it->kind == CL_STMT_TX_STATUS)
		CHECK(it->status.index >= 1, "status index %lu", it->status.index);
}

static uint64_t drive(const uint8_t *data, size_t size, size_t chunk, unsigned long lines,
		      int *io)
{
	struct cl_input *in = cl_input_from_memory(data, size, chunk, "fuzz");
	struct cl_stmt_parser *p = cl_stmt_open(in, 0);
	const struct cl_stmt_item *it;
	struct cl_error err;
	enum cl_status st;
	uint64_t h = 14695981039346656037ULL;
	unsigned long calls = 0;

	while ((st = cl_stmt_next(p, &it, &err)) != CL_END) {
		CHECK(++calls < 10000000, "no end after %lu calls", calls);
		h = mix(h, &st, sizeof(st));
		if (st == CL_OK) {
			CHECK(it != NULL, "CL_OK without an item");
			check_item(it);
			h = mix(h, it, sizeof(*it));
			continue;
		}
		CHECK(st == CL_INVALID || st == CL_NOTE || st == CL_IO, "status %d", st);
		CHECK(err.code[0] && err.message[0], "error without code or message");
		if (st == CL_IO) { /* a corrupt gzip stream: the end */
			*io = 1;
			CHECK(cl_stmt_next(p, &it, &err) == CL_END, "a call after CL_IO");
		}
		CHECK(TERMINATED(err.message) && TERMINATED(err.path) && TERMINATED(err.detail),
		      "error text");
		CHECK(err.line <= lines, "line %lu beyond the input's %lu lines (%s)", err.line, lines,
		      err.code);
		h = mix(h, err.code, strlen(err.code));
		h = mix(h, &err.line, sizeof(err.line));
		h = mix(h, err.message, strlen(err.message));
	}
	/* CL_END stays CL_END */
	CHECK(cl_stmt_next(p, &it, &err) == CL_END, "a call after CL_END");
	cl_stmt_free(p);
	cl_input_free(in);
	return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long lines = 1;
	size_t chunk;
	uint64_t a, b;
	int io = 0;

	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n' || data[i] == '\r';
	chunk = size ? (size_t)(data[size - 1] % 64) + 1 : 1;
	a = drive(data, size, 0, lines, &io);
	b = drive(data, size, chunk, lines, &io);
	CHECK(io || a == b, "read whole and %zu bytes at a time differ", chunk);
	return 0;
}
