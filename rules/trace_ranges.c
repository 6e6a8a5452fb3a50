/* trace_ranges.c - overlapping trace ranges of one originator (see .h). */
#include "rules/trace_ranges.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

void cl_trace_ranges_reset(struct cl_trace_ranges *t)
{
	t->n = 0;
	t->open = false;
	t->overflow = false;
}

void cl_trace_ranges_free(struct cl_trace_ranges *t)
{
	free(t->runs);
	memset(t, 0, sizeof(*t));
}

static unsigned long long trace_value(const char *s)
{
	unsigned long long v = 0;

	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (unsigned long long)(*s - '0');
	return v;
}

void cl_trace_ranges_add(struct cl_trace_ranges *t, const struct cl_record *rec)
{
	unsigned long long trace;
	struct cl_trace_run *r;

	if (t->overflow || !cl_trace_ranges_is_entry(rec))
		return;
	trace = trace_value(rec->trace_number);
	if (t->open) {
		r = &t->runs[t->n];
		/* a run goes on while the originator and date stay and the
		   traces ascend (a new batch of the same originator and date
		   whose traces go on ascending is the same run: harmless) */
		if (strcmp(r->company, rec->company_id) == 0 && strcmp(r->date, rec->value_date) == 0 &&
		    trace > r->hi) {
			r->hi = trace;
			return;
		}
		t->n++;
		t->open = false;
	}
	if (t->n == CL_TRACE_RANGES_MAX) {
		t->overflow = true;
		return;
	}
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->runs = cl_xrealloc(t->runs, t->cap * sizeof(*t->runs));
	}
	r = &t->runs[t->n];
	snprintf(r->company, sizeof(r->company), "%s", rec->company_id);
	snprintf(r->date, sizeof(r->date), "%s", rec->value_date);
	r->lo = r->hi = trace;
	t->open = true;
}

static int cmp_run(const void *a, const void *b)
{
	const struct cl_trace_run *x = a, *y = b;
	int c = strcmp(x->company, y->company);

	if (c)
		return c;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

bool cl_trace_ranges_maybe_near(struct cl_trace_ranges *t)
{
	size_t i, n;
	unsigned long long reach = 0;

	if (t->overflow)
		return true;
	n = t->n + (t->open ? 1 : 0);
	if (n < 2)
		return false;
	qsort(t->runs, n, sizeof(*t->runs), cmp_run);
	for (i = 0; i < n; i++) {
		if (i > 0 && strcmp(t->runs[i].company, t->runs[i - 1].company) == 0 &&
		    t->runs[i].lo <= reach)
			return true;
		if (i == 0 || strcmp(t->runs[i].company, t->runs[i - 1].company) != 0 ||
		    t->runs[i].hi > reach)
			reach = t->runs[i].hi;
	}
	return false;
}
