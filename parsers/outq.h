/*
 * outq.h - what a reader hands out, in document order.
 *
 * A reader (iso20022.c's clearing records, statement.c's statement items)
 * queues errors and notes here, and its items in a ring of its own whose
 * order this keeps: each error or item takes the next number as it is
 * queued, and cl_outq_take() hands out whichever was queued first, so an
 * error stands between the items it stood between in the file.  The item
 * ring is the reader's (its items are its own type); this says which slot
 * is next.  Not a public interface: files are read through parser.h.
 */
#ifndef CL_OUTQ_H
#define CL_OUTQ_H

#include <stdarg.h>
#include <stdbool.h>

#include "base/record.h"

#define CL_OUTQ_ERRORS 512 /* errors waiting; more are counted and dropped
                              (the file is invalid either way) */
#define CL_OUTQ_ITEMS 128  /* the largest item ring of a reader */

struct cl_outq_error {
	unsigned long seq;
	bool note; /* CL_NOTE: a remark, not an error */
	struct cl_error err;
};

struct cl_outq {
	const char *file;  /* the input's display name, for its errors */
	unsigned long seq; /* the next number in document order */
	struct cl_outq_error errs[CL_OUTQ_ERRORS];
	int e_head, e_len;
	unsigned long errors_dropped;
	unsigned long item_seq[CL_OUTQ_ITEMS];
	int i_cap; /* the reader's ring size: a power of two, at most
	              CL_OUTQ_ITEMS */
	int i_head, i_len;
};

/* An empty queue for the errors of file `file` (its display name) and a
 * reader whose item ring holds item_cap items (a power of two). */
void cl_outq_init(struct cl_outq *q, const char *file, int item_cap);

/* The slot of the next error (a note when `note`) to fill in. */
struct cl_error *cl_outq_error(struct cl_outq *q, bool note);

/* Queue an error at `line` (0: none) of element `path` (may be NULL);
 * returns it, to add a detail or hint. */
struct cl_error *cl_outq_add(struct cl_outq *q, unsigned long line, const char *path,
			     const char *code, const char *fmt, ...) CL_PRINTF(5, 6);

/* Queue a remark for verbose output (CL_NOTE): the file stays valid. */
struct cl_error *cl_outq_note(struct cl_outq *q, unsigned long line, const char *code,
			      const char *fmt, ...) CL_PRINTF(4, 5);

/* cl_outq_add() of fmt and ap, without a path. */
struct cl_error *cl_outq_verror(struct cl_outq *q, bool note, unsigned long line,
				const char *code, const char *fmt, va_list ap) CL_PRINTF(5, 0);

/* The ring index of the next item, or -1 when the ring is full. */
int cl_outq_item_slot(const struct cl_outq *q);

/* Queue the item at cl_outq_item_slot() (which was not -1). */
void cl_outq_item_commit(struct cl_outq *q);

/* Something waits to be handed out. */
static inline bool cl_outq_ready(const struct cl_outq *q)
{
	return q->e_len > 0 || q->i_len > 0;
}

enum cl_outq_next {
	CL_OUTQ_EMPTY,
	CL_OUTQ_ERROR, /* *err is set, its text cleaned */
	CL_OUTQ_NOTE,  /* the same, a note */
	CL_OUTQ_ITEM   /* *item is the ring index of the item handed out */
};

/* Hand out what was queued first. */
enum cl_outq_next cl_outq_take(struct cl_outq *q, struct cl_error *err, int *item);

#endif
