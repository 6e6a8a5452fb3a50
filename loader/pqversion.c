/* pqversion.c - libpq's version number. */
#include "pqversion.h"

#include <libpq-fe.h>

int cl_libpq_version(void)
{
	return PQlibVersion();
}
