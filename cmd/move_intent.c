/* move_intent.c - ingest's write-ahead note of a move (move_intent.h).
 *
 * A note is NUL-separated fields (a file name may hold any byte but NUL
 * and '/'): the magic "clearing-load move 1", the inbox's device and
 * inode, the file's device and inode, the outcome, the load id, the load
 * UUID, the file's name, the archive folder, the reason file's text and
 * the line's reason. */
#include "cmd/move_intent.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xmalloc.h"

#define MAGIC "clearing-load move 1"
#define NFIELDS 12 /* the magic and eleven */

static void free_one(struct cl_move_intent *mi)
{
	free(mi->note);
	free(mi->load_uuid);
	free(mi->name);
	free(mi->sub);
	free(mi->reason_text);
	free(mi->line_reason);
}

static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = fsync(fd);
	close(fd);
	return rc;
}

static void put(FILE *f, const char *s)
{
	fputs(s, f);
	fputc('\0', f);
}

static void put_num(FILE *f, unsigned long long v)
{
	fprintf(f, "%llu", v);
	fputc('\0', f);
}

int cl_move_intent_write(const char *archive, struct cl_move_intent *mi, char *why, size_t cap)
{
	char dir[4096], path[4200], tmp[4300];
	FILE *f;
	bool ok;

	snprintf(dir, sizeof(dir), "%s/" CL_MOVE_INTENT_DIR, archive);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		snprintf(why, cap, "cannot make %s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%llu.%llu", dir, (unsigned long long)mi->dev,
		 (unsigned long long)mi->ino);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(why, cap, "cannot write %s: %s", tmp, strerror(errno));
		return -1;
	}
	put(f, MAGIC);
	put_num(f, (unsigned long long)mi->inbox_dev);
	put_num(f, (unsigned long long)mi->inbox_ino);
	put_num(f, (unsigned long long)mi->dev);
	put_num(f, (unsigned long long)mi->ino);
	put_num(f, (unsigned long long)mi->outcome);
	put_num(f, (unsigned long long)mi->load_id);
	put(f, mi->load_uuid ? mi->load_uuid : "");
	put(f, mi->name);
	put(f, mi->sub);
	put(f, mi->reason_text ? mi->reason_text : "");
	put(f, mi->line_reason ? mi->line_reason : "");
	ok = fflush(f) == 0 && !ferror(f) && fsync(fileno(f)) == 0;
	if (fclose(f) != 0 || !ok || rename(tmp, path) != 0 || sync_dir(dir) != 0) {
		snprintf(why, cap, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	mi->note = cl_xstrdup(path);
	return 0;
}

/* Read one note; false when it is not one (or truncated). */
static bool read_note(const char *path, struct cl_move_intent *mi)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *field[NFIELDS];
	size_t len = 0, room = 0, k = 0;
	int c;

	if (!f)
		return false;
	while ((c = getc(f)) != EOF) {
		if (len + 1 >= room) {
			room = room ? 2 * room : 512;
			buf = cl_xrealloc(buf, room);
		}
		buf[len++] = (char)c;
	}
	fclose(f);
	for (size_t i = 0; i < len && k < NFIELDS; i++) {
		if (i == 0 || buf[i - 1] == '\0')
			field[k++] = buf + i;
	}
	if (len == 0 || buf[len - 1] != '\0' || k != NFIELDS ||
	    strcmp(field[0], MAGIC) != 0) {
		free(buf);
		return false;
	}
	memset(mi, 0, sizeof(*mi));
	mi->inbox_dev = (dev_t)strtoull(field[1], NULL, 10);
	mi->inbox_ino = (ino_t)strtoull(field[2], NULL, 10);
	mi->dev = (dev_t)strtoull(field[3], NULL, 10);
	mi->ino = (ino_t)strtoull(field[4], NULL, 10);
	mi->outcome = (int)strtol(field[5], NULL, 10);
	mi->load_id = strtoll(field[6], NULL, 10);
	mi->load_uuid = cl_xstrdup(field[7]);
	mi->name = cl_xstrdup(field[8]);
	mi->sub = cl_xstrdup(field[9]);
	mi->reason_text = cl_xstrdup(field[10]);
	mi->line_reason = cl_xstrdup(field[11]);
	mi->note = cl_xstrdup(path);
	free(buf);
	/* a name with a slash, or a folder climbing out: not ours */
	if (!*mi->name || strchr(mi->name, '/') || strstr(mi->sub, "..")) {
		free_one(mi);
		return false;
	}
	return true;
}

int cl_move_intent_list(const char *archive, dev_t inbox_dev, ino_t inbox_ino,
			struct cl_move_intent **out, size_t *n, char *why, size_t cap)
{
	char dir[4096];
	DIR *d;
	struct dirent *de;
	size_t room = 0;

	*out = NULL;
	*n = 0;
	why[0] = '\0';
	snprintf(dir, sizeof(dir), "%s/" CL_MOVE_INTENT_DIR, archive);
	d = opendir(dir);
	if (!d) {
		if (errno == ENOENT)
			return 0;
		snprintf(why, cap, "cannot read %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		char path[4400];
		struct cl_move_intent mi;
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.' || (len > 4 && strcmp(de->d_name + len - 4, ".tmp") == 0))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!read_note(path, &mi)) {
			snprintf(why, cap, "%s: not a move note of this version: left as it is", path);
			continue;
		}
		if (mi.inbox_dev != inbox_dev || mi.inbox_ino != inbox_ino) {
			free_one(&mi);
			continue; /* another inbox's: its own run completes it */
		}
		if (*n == room) {
			room = room ? 2 * room : 4;
			*out = cl_xrealloc(*out, room * sizeof(**out));
		}
		(*out)[(*n)++] = mi;
	}
	closedir(d);
	return 0;
}

int cl_move_intent_drop(const struct cl_move_intent *mi, char *why, size_t cap)
{
	char dir[4400];
	char *slash;

	if (unlink(mi->note) != 0 && errno != ENOENT) {
		snprintf(why, cap, "cannot remove %s: %s", mi->note, strerror(errno));
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s", mi->note);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	(void)sync_dir(dir);
	return 0;
}

void cl_move_intent_free_all(struct cl_move_intent *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free_one(&v[i]);
	free(v);
}

/* NAME itself, or NAME.N with N all digits. */
static bool archived_name_of(const char *entry, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(entry, name, n) != 0)
		return false;
	if (entry[n] == '\0')
		return true;
	if (entry[n] != '.' || !entry[n + 1])
		return false;
	for (const char *p = entry + n + 1; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

bool cl_archive_find(const char *archive, const char *sub, const char *name, dev_t dev, ino_t ino,
		     char *dest, size_t dcap)
{
	char dir[4096];
	DIR *d;
	struct dirent *de;
	bool found = false;

	snprintf(dir, sizeof(dir), "%s/%s", archive, sub);
	d = opendir(dir);
	if (!d)
		return false;
	while (!found && (de = readdir(d)) != NULL) {
		struct stat st;

		if (!archived_name_of(de->d_name, name))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_dev == dev && st.st_ino == ino &&
		    (size_t)snprintf(dest, dcap, "%s/%s", dir, de->d_name) < dcap)
			found = true;
	}
	closedir(d);
	return found;
}
