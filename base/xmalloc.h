/*
 * xmalloc.h - allocation that never returns NULL.
 *
 * Out of memory is handled in exactly one place: these print one line to
 * stderr and exit with status 5 (clearing-load(1), EXIT STATUS).  Nothing is
 * applied by a process that dies this way: the open transaction rolls back.
 */
#ifndef CL_XMALLOC_H
#define CL_XMALLOC_H

#include <stddef.h>

void *cl_xmalloc(size_t n);
void *cl_xcalloc(size_t n, size_t size);
void *cl_xrealloc(void *p, size_t n);
char *cl_xstrdup(const char *s);

#endif
