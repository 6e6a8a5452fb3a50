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
 *
 * Files are read through parser.h (the format's entry is cl_format_nacha,
 * format.h); this header holds the NACHA rules the CSV reader shares.
 */
#ifndef CL_ACH_H
#define CL_ACH_H

#include "base/record.h"
#include "parsers/input.h"
#include "parsers/parser.h"

/* The direction a transaction code (01-99) gives: 2,3,4 credit, 7,8,9
 * debit (1 and 6: returns and NOCs of a credit or a debit); ADV 81-88 odd
 * credit, even debit. */
enum cl_direction cl_ach_tcode_direction(int tcode);
/* Is tcode (0-99) a transaction code the parser accepts? */
bool cl_ach_tcode_known(int tcode);
/* Is sec (a NUL-terminated string) one of the SEC codes the parser reads? */
bool cl_ach_sec_known(const char *sec);
/* Why the parser refuses known code tcode in a batch of SEC code sec (a
 * known one), as far as the service class does not decide: NULL when it
 * accepts it, else the reason (static text). */
const char *cl_ach_tcode_sec_problem(int tcode, const char *sec);
/* Return reason codes (R01-R53, R61, R62, R67-R77, R80-R85), change codes
 * (C01-C14, C61-C69), and the codes of a second return addenda (dishonored
 * R61, R62, R67-R70; contested R71-R77) the parser accepts; c holds at
 * least 3 characters. */
bool cl_ach_return_code_known(const char *c);
bool cl_ach_change_code_known(const char *c);
bool cl_ach_second_return_code(const char *c);
/* Does code tcode (a prenote or zero-dollar entry) require amount 0? */
bool cl_ach_tcode_zero_amount(int tcode);
/* Is nine a routing number: 9 digits whose last is the ABA 3-7-1 check
 * digit of the first 8 (as the parser checks the receiving DFI)? */
bool cl_ach_routing_ok(const char *nine);


#endif
