/* pqversion.h - the libpq version, for `clearing-load --version` (only
 * loader/ includes libpq). */
#ifndef CL_PQVERSION_H
#define CL_PQVERSION_H

/* libpq's version as PQlibVersion() gives it, e.g. 150018. */
int cl_libpq_version(void);

#endif
