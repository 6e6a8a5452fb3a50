/*
 * inbox.h - the files of an inbox directory and the archive they move to
 * (clearing-load ingest).
 *
 * One run at a time per inbox: the run holds flock(2) on the inbox
 * directory itself (no lock file to forget or to be swept up by an
 * uploader).  A file is ready when it is a regular file, not a dot-file,
 * not named like an upload in progress (.part, .partial, .filepart, .tmp),
 * unchanged for --min-age seconds (its mtime and ctime: a rename into the
 * inbox counts), and not open for writing by anyone (on Linux, told by a
 * read lease, which the kernel grants only to a file nobody has open for
 * writing; where a lease cannot be taken, as a user that does not own the
 * file, only the age counts).
 *
 * The archive is on the inbox's filesystem: a file moves by link(2) to a
 * name that does not exist yet and unlink(2) of the inbox name, so nothing
 * is ever overwritten (re-uploads reuse names: the second "x.ach" of a day
 * becomes "x.ach.2").  A crash between the two leaves the file in both
 * places; the next run loads it again, finds every record a duplicate and
 * moves it: harmless.
 */
#ifndef CL_INBOX_H
#define CL_INBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <time.h>

struct cl_inbox_file {
	char *name;             /* in the inbox */
	char *path;             /* inbox/name */
	struct stat st;         /* at the scan */
	double age;             /* seconds since its last change */
	const char *not_ready;  /* NULL: ready; else why it is left */
};

struct cl_inbox {
	const char *dir;
	int fd;                          /* the directory, locked */
	struct cl_inbox_file *files;     /* candidates, oldest change first */
	size_t nfiles;
	size_t nready;
	double oldest_ready_age;         /* seconds; 0 when none is ready */
};

/* Open and lock the inbox.  0: locked; 1: another run holds it; -1: not
 * a directory one can open (why[] says). */
int cl_inbox_open(struct cl_inbox *in, const char *dir, char *why, size_t cap);

/* List the inbox's files (dot-files and directories left out silently)
 * and tell each ready or not.  0, or -1 with why[]. */
int cl_inbox_scan(struct cl_inbox *in, unsigned min_age, char *why, size_t cap);

/* Has `f` changed since the scan (size, mtime, inode)?  A file gone is
 * changed. */
bool cl_inbox_changed(const struct cl_inbox_file *f);

/* Release the lock and the list. */
void cl_inbox_close(struct cl_inbox *in);

/* Make ARCHIVE and its folders (done, rejected, held, unsupported) and
 * check that it is on the inbox's filesystem.  0, or -1 with why[]. */
int cl_archive_prepare(const char *archive, const struct cl_inbox *in, char *why, size_t cap);

/* Move `f` into ARCHIVE/sub (made if missing; "done/2026-12-01") under
 * its own name, or NAME.2, NAME.3 ... when that is taken.  The new path
 * in dest[cap].  0, or -1 with why[] (also when the inbox's NAME is no
 * longer the file scanned: a re-upload renamed over it stays). */
int cl_archive_move(const char *archive, const char *sub, const struct cl_inbox_file *f,
		    char *dest, size_t dcap, char *why, size_t cap);

/* Write `text` to DEST.reason (a temporary file renamed into place).  0,
 * or -1 with why[]. */
int cl_archive_reason(const char *dest, const char *text, char *why, size_t cap);

#endif
