/*
 * move_intent.h - ingest's write-ahead note of a move into the archive, so
 * that a run killed anywhere in the move (link, unlink, reason file, the
 * archive row) leaves what the next run needs to finish it: the file
 * archived once, its row written, no NAME.2 and no second load.
 *
 * Before the link, ingest writes ARCHIVE/.moving/DEV.INO (the file's
 * device and inode; written to a temporary name, synced, renamed, the
 * folder synced) naming the inbox (its device and inode), the file's name,
 * the archive folder, the outcome, the load and the NAME.reason text.  It
 * removes the note once the row is written.  A run finding a note of its
 * inbox completes the move before it scans the inbox: the file is found by
 * its inode in the inbox and in the folder (NAME or NAME.N), linked there
 * if it was not yet, unlinked from the inbox, its reason and row written
 * (the row is idempotent: clearing_write_archive).  See
 * docs/design/0031-ingest-exactly-once.md.
 */
#ifndef CL_MOVE_INTENT_H
#define CL_MOVE_INTENT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define CL_MOVE_INTENT_DIR ".moving"

struct cl_move_intent {
	char *note;             /* the note's path (set by write and list) */
	dev_t inbox_dev;
	ino_t inbox_ino;
	dev_t dev;              /* the file's */
	ino_t ino;
	char *name;             /* in the inbox */
	char *sub;              /* archive folder: "done/2026-12-01", "held" */
	int outcome;            /* enum cl_ingest_outcome */
	long long load_id;      /* 0: no load row (unsupported) */
	char *load_uuid;        /* "" when none */
	char *reason_text;      /* NAME.reason's text, "" for none */
	char *line_reason;      /* the reason of the file's line and event */
};

/* Write `mi`'s note under ARCHIVE/.moving (made if missing); its path in
 * mi->note.  0, or -1 with why[]. */
int cl_move_intent_write(const char *archive, struct cl_move_intent *mi, char *why, size_t cap);

/* The notes under ARCHIVE/.moving of the inbox (dev, ino), in *out (*n of
 * them; free with cl_move_intent_free_all).  A note that cannot be read is
 * said in why[] and skipped.  0, or -1 with why[] (the folder unreadable). */
int cl_move_intent_list(const char *archive, dev_t inbox_dev, ino_t inbox_ino,
			struct cl_move_intent **out, size_t *n, char *why, size_t cap);

/* Remove the note (and sync its folder).  0, or -1 with why[]. */
int cl_move_intent_drop(const struct cl_move_intent *mi, char *why, size_t cap);

/* Free what list made. */
void cl_move_intent_free_all(struct cl_move_intent *v, size_t n);

/* Is there, in ARCHIVE/sub, an entry NAME or NAME.N that is the inode
 * (dev, ino)?  Its path in dest[]. */
bool cl_archive_find(const char *archive, const char *sub, const char *name, dev_t dev, ino_t ino,
		     char *dest, size_t dcap);

#endif
