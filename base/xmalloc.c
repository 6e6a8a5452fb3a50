/* xmalloc.c - the one place where running out of memory ends the program. */
#include "base/xmalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void die_oom(size_t n)
{
	fprintf(stderr, "clearing-load: fatal: out of memory (allocating %zu bytes)\n", n);
	exit(5);
}

void *cl_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die_oom(n);
	return p;
}

void *cl_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die_oom(n * size);
	return p;
}

void *cl_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		die_oom(n);
	return q;
}

char *cl_xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(cl_xmalloc(n), s, n);
}
