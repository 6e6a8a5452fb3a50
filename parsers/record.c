/* record.c - helpers for the shared record and error types. */
#include "record.h"

#include <stdarg.h>
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
