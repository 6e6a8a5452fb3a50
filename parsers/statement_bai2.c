/* statement_bai2.c - BAI2 (stub, written next). */
#include "statement_internal.h"

void cl_stmt_bai2_init(struct cl_stmt_parser *p)
{
	(void)p;
}

void cl_stmt_bai2_pump(struct cl_stmt_parser *p)
{
	p->finished = true;
}

void cl_stmt_bai2_free(struct cl_stmt_parser *p)
{
	(void)p;
}
