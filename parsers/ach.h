/*
 * ach.h - streaming NACHA ACH parser and validator.
 *
 * Reads 94-character records (file header 1, batch header 5, entry 6,
 * addenda 7, batch control 8, file control 9, 9-fill) from a struct
 * cl_input and hands out one struct cl_record per entry with its addenda
 * (kind "ach.entry"), per return (addenda 99: "ach.return") and per NOC
 * (addenda 98: "ach.noc").  Every rule it checks, and every natural-key
 * and fingerprint field, is in clearing-load-keys(7) and clearing-load(1).
 *
 * Memory is constant in the number of entries: it keeps one batch summary
 * per batch (for the cross-batch trace-restart check), nothing per entry.
 */
#ifndef CL_ACH_H
#define CL_ACH_H

#include "input.h"
#include "parser.h"
#include "record.h"

struct cl_ach;

/* The input is not owned; opts is copied. */
struct cl_ach *cl_ach_new(struct cl_input *in, const struct cl_parse_opts *opts);
/* As cl_parser_next() in parser.h. */
enum cl_status cl_ach_next(struct cl_ach *p, const struct cl_record **rec,
			   struct cl_error *err) CL_MUST_CHECK;
const struct cl_file_info *cl_ach_info(const struct cl_ach *p);
void cl_ach_free(struct cl_ach *p);

#endif
