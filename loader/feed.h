/*
 * feed.h - the exactly-once feed for downstream systems (clearing-load
 * feed; the tables and why commit numbers are commit-ordered:
 * sql/013_feed.sql).
 *
 * A consumer reads the records applied after its acknowledged position,
 * in commit order and then file order, and acknowledges what it has
 * processed.  Until it does, it gets the same records again, with the same
 * positions and natural keys: delivery is at least once, and the key that
 * travels with each record makes the receiver's processing exactly once.
 * Nothing here prints.
 */
#ifndef CL_FEED_H
#define CL_FEED_H

#include <stdbool.h>

#include "loader/db.h"
#include "loader/history.h"

/* A feed position: the load's commit number * 2^32 + the record's ordinal. */
#define CL_FEED_ORDINAL_BITS 32

/* Consumer `consumer`'s acknowledged position into *acked (0: none yet),
 * then each record after it ("feed_record" rows: feed_position,
 * applied_at and the record's columns), of `tenant` only when not NULL,
 * at most `limit`.  *found = the records reported. */
enum cl_db_status cl_feed_read(struct cl_db *db, const char *consumer, const char *tenant,
			       unsigned long limit, cl_history_fn fn, void *ctx, long long *acked,
			       unsigned long *found, struct cl_error *err) CL_MUST_CHECK;

/* *blind = row security is active for this session and hides every
 * tenant it could be fed (or `tenant`, when not NULL): such a reader
 * would be told "nothing new" for ever. */
enum cl_db_status cl_feed_blind(struct cl_db *db, const char *tenant, bool *blind,
				struct cl_error *err) CL_MUST_CHECK;

/* Acknowledge everything up to `position` for `consumer`.  *exists =
 * false (and nothing changed) when no applied record has that position
 * (0 always exists: nothing acknowledged); *now = the consumer's position
 * after it (never lower than before). */
enum cl_db_status cl_feed_ack(struct cl_db *db, const char *consumer, long long position,
			      bool *exists, long long *now, struct cl_error *err) CL_MUST_CHECK;

#endif
