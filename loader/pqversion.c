/* pqversion.c - libpq's version number. */
#include "loader/pqversion.h"

#include <libpq-fe.h>

int cl_libpq_version(void)
{
	return PQlibVersion();
}
