/*
 * statement_load.h - a bank statement or status report loaded through the
 * load pipeline (load.c): its items (rules/statement_identity.h) staged,
 * classified against clearing_statement_item as duplicates and conflicts
 * into the same journal, and the new ones stored, in the file's one
 * transaction, with the same outcomes (held, quarantined) and load row as
 * a clearing file.  For load.c only.
 *
 * Differences from a clearing file: a conflicting item is never copied
 * into clearing_quarantine (its journal row is the record of it); diff
 * reports the counts only, not each item; nothing enters the feed (a
 * statement is no money movement of ours).
 */
#ifndef CL_STATEMENT_LOAD_H
#define CL_STATEMENT_LOAD_H

#include <stdbool.h>

#include "loader/load_int.h"

/* Is L's file a statement or status report (camt.052/053/054, BAI2,
 * pacs.002)?  Reads its first bytes and rewinds. */
bool cl_statement_detect(struct load *L);

/* Its family's steps (load_int.h): the file's items staged (with the
 * load row's file facts), classified against clearing_statement_item
 * (classify writes the journal rows), the new ones stored (CL_DB_RETRY
 * when a concurrent load stored one); diff stages and classifies in a
 * transaction rolled back; nothing enters the feed. */
extern const struct cl_family_ops cl_statement_family;

#endif
