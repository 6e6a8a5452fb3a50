/* inbox.c - an inbox's ready files, its lock, and the archive (inbox.h). */
#include "cmd/inbox.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <unistd.h>

#include "base/xmalloc.h"
#include "loader/failpoint.h"

/* F_SETLEASE and F_RDLCK's lease use are Linux's; elsewhere only the age
 * tells. */
#ifndef F_SETLEASE
#define F_SETLEASE 1024
#endif

int cl_inbox_open(struct cl_inbox *in, const char *dir, char *why, size_t cap)
{
	memset(in, 0, sizeof(*in));
	in->dir = dir;
	in->fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (in->fd < 0) {
		snprintf(why, cap, "cannot open the inbox: %s", strerror(errno));
		return -1;
	}
	if (flock(in->fd, LOCK_EX | LOCK_NB) != 0) {
		int e = errno;

		close(in->fd);
		in->fd = -1;
		if (e == EWOULDBLOCK)
			return 1;
		snprintf(why, cap, "cannot lock the inbox: %s", strerror(e));
		return -1;
	}
	return 0;
}

static bool upload_in_progress(const char *name)
{
	static const char *const suffixes[] = { ".part", ".partial", ".filepart", ".tmp" };
	size_t n = strlen(name);

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t k = strlen(suffixes[i]);

		/* in any case: X.ACH.PART is an upload too */
		if (n > k && strcasecmp(name + n - k, suffixes[i]) == 0)
			return true;
	}
	return false;
}

/* Is someone writing the file?  A read lease is granted only when no one
 * has it open for writing (EAGAIN otherwise); it is given back at once. */
static bool open_for_writing(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	bool busy = false;

	if (fd < 0)
		return false; /* the load will say why it cannot be read */
	if (fcntl(fd, F_SETLEASE, F_RDLCK) == 0)
		(void)fcntl(fd, F_SETLEASE, F_UNLCK);
	else
		busy = errno == EAGAIN;
	close(fd);
	return busy;
}

static double seconds_since(const struct timespec *t, const struct timespec *now)
{
	return (double)(now->tv_sec - t->tv_sec) + (double)(now->tv_nsec - t->tv_nsec) / 1e9;
}

static int oldest_first(const void *a, const void *b)
{
	const struct cl_inbox_file *x = a, *y = b;

	if (x->age != y->age)
		return x->age > y->age ? -1 : 1;
	return strcmp(x->name, y->name);
}

int cl_inbox_scan(struct cl_inbox *in, unsigned min_age, char *why, size_t cap)
{
	int fd = dup(in->fd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	struct timespec now;
	size_t room = 0;

	if (!d) {
		snprintf(why, cap, "cannot read the inbox: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	rewinddir(d);
	clock_gettime(CLOCK_REALTIME, &now);
	while ((de = readdir(d)) != NULL) {
		struct cl_inbox_file f;
		const struct timespec *changed;

		if (de->d_name[0] == '.')
			continue;
		memset(&f, 0, sizeof(f));
		if (fstatat(in->fd, de->d_name, &f.st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    S_ISDIR(f.st.st_mode))
			continue;
		changed = f.st.st_ctim.tv_sec > f.st.st_mtim.tv_sec ? &f.st.st_ctim : &f.st.st_mtim;
		f.age = seconds_since(changed, &now);
		if (!S_ISREG(f.st.st_mode))
			f.not_ready = "not a regular file";
		else if (upload_in_progress(de->d_name))
			f.not_ready = "named as an upload in progress";
		else if (f.age < (double)min_age)
			f.not_ready = "changed less than --min-age ago";
		else if (open_for_writing(in->fd, de->d_name))
			f.not_ready = "open for writing";
		f.name = cl_xstrdup(de->d_name);
		f.path = cl_xmalloc(strlen(in->dir) + strlen(f.name) + 2);
		sprintf(f.path, "%s/%s", in->dir, f.name);
		if (in->nfiles == room) {
			room = room ? 2 * room : 16;
			in->files = cl_xrealloc(in->files, room * sizeof(*in->files));
		}
		in->files[in->nfiles++] = f;
		if (!f.not_ready) {
			in->nready++;
			if (f.age > in->oldest_ready_age)
				in->oldest_ready_age = f.age;
		}
	}
	closedir(d);
	if (in->nfiles)
		qsort(in->files, in->nfiles, sizeof(*in->files), oldest_first);
	return 0;
}

bool cl_inbox_changed(const struct cl_inbox_file *f)
{
	struct stat st;

	if (lstat(f->path, &st) != 0)
		return true;
	return st.st_ino != f->st.st_ino || st.st_size != f->st.st_size ||
	       st.st_mtim.tv_sec != f->st.st_mtim.tv_sec ||
	       st.st_mtim.tv_nsec != f->st.st_mtim.tv_nsec;
}

void cl_inbox_close(struct cl_inbox *in)
{
	for (size_t i = 0; i < in->nfiles; i++) {
		free(in->files[i].name);
		free(in->files[i].path);
	}
	free(in->files);
	if (in->fd >= 0)
		close(in->fd); /* the lock goes with it */
	memset(in, 0, sizeof(*in));
	in->fd = -1;
}

/* mkdir -p of base/sub. */
static int make_dirs(const char *base, const char *sub, char *why, size_t cap)
{
	char path[4096];
	size_t n = (size_t)snprintf(path, sizeof(path), "%s/%s", base, sub);

	if (n >= sizeof(path)) {
		snprintf(why, cap, "archive path too long");
		return -1;
	}
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0777) != 0 && errno != EEXIST) {
			snprintf(why, cap, "cannot make %s: %s", path, strerror(errno));
			return -1;
		}
		*p = '/';
	}
	if (mkdir(path, 0777) != 0 && errno != EEXIST) {
		snprintf(why, cap, "cannot make %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int cl_archive_prepare(const char *archive, const struct cl_inbox *in, char *why, size_t cap)
{
	static const char *const subs[] = { "done", "rejected", "held", "unsupported" };
	struct stat a, b;

	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (make_dirs(archive, subs[i], why, cap) != 0)
			return -1;
	if (stat(archive, &a) != 0 || fstat(in->fd, &b) != 0) {
		snprintf(why, cap, "cannot stat the archive: %s", strerror(errno));
		return -1;
	}
	if (a.st_dev != b.st_dev) {
		snprintf(why, cap, "the archive is not on the inbox's filesystem: a file moves by "
				   "renaming it (link and unlink), which cannot cross filesystems");
		return -1;
	}
	return 0;
}

int cl_archive_move(const char *archive, const char *sub, const struct cl_inbox_file *f,
		    char *dest, size_t dcap, char *why, size_t cap)
{
	if (make_dirs(archive, sub, why, cap) != 0)
		return -1;
	for (unsigned n = 1; n < 100000; n++) {
		size_t len = n == 1 ? (size_t)snprintf(dest, dcap, "%s/%s/%s", archive, sub, f->name)
				    : (size_t)snprintf(dest, dcap, "%s/%s/%s.%u", archive, sub,
						       f->name, n);

		if (len >= dcap) {
			snprintf(why, cap, "archive path too long");
			return -1;
		}
		if (link(f->path, dest) == 0) {
			struct stat st;

			if (lstat(dest, &st) != 0 || st.st_ino != f->st.st_ino) {
				/* replaced since the caller's last look: not the
				   file that was read */
				unlink(dest);
				snprintf(why, cap, "replaced in the inbox before it could be moved: "
						   "left for the next run");
				return -1;
			}
			/* killed here, the file is in both places: the move's note
			   (move_intent.h) lets the next run finish it */
			CL_FAILPOINT("ingest_after_link", NULL);
			if (unlink(f->path) != 0) {
				snprintf(why, cap, "moved to %s but cannot remove it from the inbox: %s",
					 dest, strerror(errno));
				return -1;
			}
			return 0;
		}
		if (errno != EEXIST) {
			snprintf(why, cap, "cannot move it to %s: %s", dest, strerror(errno));
			return -1;
		}
	}
	snprintf(why, cap, "no free name for it in %s/%s", archive, sub);
	return -1;
}

int cl_archive_reason(const char *dest, const char *text, char *why, size_t cap)
{
	char path[4200], tmp[4300];
	FILE *f;

	snprintf(path, sizeof(path), "%s.reason", dest);
	snprintf(tmp, sizeof(tmp), "%s.reason.tmp.%ld", dest, (long)getpid());
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(why, cap, "cannot write %s: %s", tmp, strerror(errno));
		return -1;
	}
	fputs(text, f);
	{
		bool ok = fflush(f) == 0 && fsync(fileno(f)) == 0;

		if (fclose(f) != 0 || !ok) {
			snprintf(why, cap, "cannot write %s: %s", tmp, strerror(errno));
			unlink(tmp);
			return -1;
		}
	}
	if (rename(tmp, path) != 0) {
		snprintf(why, cap, "cannot rename %s: %s", tmp, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}
