/*
 * outq.c - what a reader hands out, in document order (outq.h).
 */
#include "parsers/outq.h"

#include <assert.h>
#include <stdio.h>

#include "base/text.h"

void cl_outq_init(struct cl_outq *q, const char *file, int item_cap)
{
	q->file = file;
	q->seq = 0;
	q->e_head = q->e_len = 0;
	q->errors_dropped = 0;
	assert(item_cap > 0 && item_cap <= CL_OUTQ_ITEMS && (item_cap & (item_cap - 1)) == 0);
	q->i_cap = item_cap;
	q->i_head = q->i_len = 0;
}

struct cl_error *cl_outq_error(struct cl_outq *q, bool note)
{
	static struct cl_error overflow; /* written, never read */
	struct cl_outq_error *e;

	if (q->e_len == CL_OUTQ_ERRORS) {
		q->errors_dropped++;
		return &overflow;
	}
	e = &q->errs[(q->e_head + q->e_len++) % CL_OUTQ_ERRORS];
	e->seq = q->seq++;
	e->note = note;
	return &e->err;
}

struct cl_error *cl_outq_verror(struct cl_outq *q, bool note, unsigned long line,
				const char *code, const char *fmt, va_list ap)
{
	struct cl_error *e = cl_outq_error(q, note);

	cl_error_set(e, q->file, line, code, "%s", "");
	vsnprintf(e->message, sizeof(e->message), fmt, ap);
	return e;
}

struct cl_error *cl_outq_add(struct cl_outq *q, unsigned long line, const char *path,
			     const char *code, const char *fmt, ...)
{
	struct cl_error *e;
	va_list ap;

	va_start(ap, fmt);
	e = cl_outq_verror(q, false, line, code, fmt, ap);
	va_end(ap);
	snprintf(e->path, sizeof(e->path), "%s", path ? path : "");
	return e;
}

struct cl_error *cl_outq_note(struct cl_outq *q, unsigned long line, const char *code,
			      const char *fmt, ...)
{
	struct cl_error *e;
	va_list ap;

	va_start(ap, fmt);
	e = cl_outq_verror(q, true, line, code, fmt, ap);
	va_end(ap);
	return e;
}

int cl_outq_item_slot(const struct cl_outq *q)
{
	return q->i_len == q->i_cap ? -1 : (q->i_head + q->i_len) & (q->i_cap - 1);
}

void cl_outq_item_commit(struct cl_outq *q)
{
	q->item_seq[(q->i_head + q->i_len) & (q->i_cap - 1)] = q->seq++;
	q->i_len++;
}

enum cl_outq_next cl_outq_take(struct cl_outq *q, struct cl_error *err, int *item)
{
	if (q->e_len > 0 && (q->i_len == 0 || q->errs[q->e_head].seq < q->item_seq[q->i_head])) {
		struct cl_outq_error *e = &q->errs[q->e_head];

		*err = e->err;
		cl_text_clean(err->message, sizeof(err->message));
		cl_text_clean(err->detail, sizeof(err->detail));
		cl_text_clean(err->path, sizeof(err->path));
		q->e_head = (q->e_head + 1) % CL_OUTQ_ERRORS;
		q->e_len--;
		return e->note ? CL_OUTQ_NOTE : CL_OUTQ_ERROR;
	}
	if (q->i_len > 0) {
		*item = q->i_head;
		q->i_head = (q->i_head + 1) & (q->i_cap - 1);
		q->i_len--;
		return CL_OUTQ_ITEM;
	}
	return CL_OUTQ_EMPTY;
}
