/*
 * xsd_date.h - dates as XML Schema writes them, read by every ISO 20022
 * reader and rule that needs a calendar date.
 */
#ifndef CL_XSD_DATE_H
#define CL_XSD_DATE_H

#include <stdbool.h>

/* The longest xs:date or xs:dateTime read, with its zone and some
 * fractional seconds (longer is not a date). */
#define CL_XSD_DATE_MAX 36

/* The calendar date of an xs:date or xs:dateTime, in every lexical form
 * (white space around it; a date with or without a time zone, Z or +hh:mm
 * or -hh:mm; a date-time with or without fractional seconds and time zone;
 * 24:00:00), as written: "YYYY-MM-DD" into out[11], the date of a
 * date-time with an offset being its local date (the one written, never
 * moved to UTC).  Years 0001 to 9999 only.  false (out "") when text is
 * neither, or names no day of the calendar. */
bool cl_xsd_date(const char *text, char out[11]);

#endif
