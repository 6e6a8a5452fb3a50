/*
 * shard.h - the shard identity of a record, once (clearing-load-keys(7),
 * "The shard identity"): the value a hash-partitioned (init --partitions)
 * or distributed clearing_record is split on, stored in column `shard`.
 *
 * It is a function of the kind and the natural key alone, so a key lands
 * in one partition and the unique index (tenant, kind, natural_key, shard)
 * stays global.  For ACH records it is the trace the natural key and the
 * near identity (near.h) share, so the near-duplicate probe and the
 * probes between the two ACH key rules go to one partition, and an entry
 * and its returns and NOCs sit in the same one:
 *
 *   ach.entry   the key's trace number, the second field from the end
 *               (v1 company|trace|date and v1-batch company|batch|trace|date)
 *   ach.return  the key's original trace, its first field
 *   ach.noc     the same
 *   any other   the whole natural key
 *
 * That text, when it is 1 to 18 ASCII digits (every trace number), is the
 * shard as a number; any other text gives the first 8 bytes of its
 * SHA-256, big-endian, as a signed 64-bit number.  sql/022_shard.sql
 * computes the same (clearing_shard) for records applied before, and
 * tests/db/test_shard.sh holds the two to one answer.
 */
#ifndef CL_SHARD_H
#define CL_SHARD_H

#include <stdbool.h>
#include <stdint.h>

/* The shard identity of a record of `kind` under `natural_key`. */
int64_t cl_shard(const char *kind, const char *natural_key);

/* Whether every journal row that names a record of `kind` is in the
 * record's shard: true for the ACH kinds, whose shard is the trace that
 * every key such a row is written under shares (the record's own, a near
 * duplicate's, the other ACH key rule's, a return's or NOC's under the
 * same original trace); false for any other kind (a pacs payment's copy
 * under an alternate key is journaled in its own key's shard).  show on
 * Citus reads such records' events in their shards alone
 * (docs/design/0062-citus-show-events-routed.md). */
bool cl_shard_holds_copies(const char *kind);

#endif
