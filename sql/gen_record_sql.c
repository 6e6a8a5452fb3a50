/*
 * gen_record_sql.c - the SQL that depends on the record's fields, written
 * from record_fields.def (and a statement item's, from
 * rules/statement_fields.def) at build time (as SQLite writes its keyword
 * tables).  Two uses:
 *
 *   gen_record_sql > record_sql.h
 *       the column lists as C string macros:
 *
 *   CL_SQL_RECORD_COLUMNS   the columns the loader writes into
 *                           clearing_record (COPY and INSERT lists)
 *   CL_SQL_SHOW_COLUMNS     what `show` selects of a record r (hashes in hex)
 *   CL_SQL_COMPARED_R       the compared columns of r, in table order
 *   CL_SQL_COMPARED_DIFFS   (name, differs) pairs of the compared columns,
 *                           conflict c against applied record r; a column
 *                           added by a later schema version is not known
 *                           (not a difference) on records applied before it
 *   CL_SQL_COMPARED_CHANGES (name, old, new) of the compared columns:
 *                           applied record r's and conflict c's values
 *                           as text
 *   CL_SQL_STORED_TYPES     name:type of each stored column, for the test
 *                           that checks the table against the database
 *   CL_SQL_STMT_STORED_TYPES the same of clearing_statement_item
 *
 *   gen_record_sql sql/loader/X.sql... > loader_sql.h
 *       the loader's statements as C string macros, CL_SQL_<NAME>, and
 *       CL_LOADER_SQL_LIST(X) naming them all.  In a file, each statement
 *       starts with a marker line `-- name: X_verb` (X: the file's name),
 *       then comment lines saying what it does and what each $n it uses
 *       is, then its text.  In the text, {record_columns}, {show_columns},
 *       {compared_r}, {compared_diffs} and {compared_changes} stand for
 *       the lists above,
 *       {iso_ts} for the timestamp format of every output,
 *       {load_columns} for a load's columns in show and loads, and
 *       of a statement item: {stmt_stage_columns} (name and type in the
 *       stage), {stmt_copy_columns} (the stage's COPY list),
 *       {stmt_columns} (the stored columns), {stmt_stage_values} (the
 *       same, cast from the stage) and {stmt_compared_diffs} (staged s
 *       against stored i: each compared column's name when it differs);
 *       {recon_answer_columns}: what reconcile reads of an answer item
 *       (loader/recon_item.def), in the order it reads them;
 *       {recon_open_statuses}: the statuses of an open break, quoted
 *       (loader/recon_status.def).  A marker
 *       `-- fragment: X_noun` starts a fragment instead: SQL that is no
 *       statement of its own (a rule's probe, say), written once and
 *       used by later statements of any file as {X_noun}; it takes no
 *       $n and has no macro.  Comments go on lines of their own and are
 *       not embedded.  {X_name@local} is statement (or fragment)
 *       X_name of an earlier file or line with each clearing_record read
 *       as pg_temp.cl_recon_record (reconcile's Citus forms: the records
 *       a statement needs copied first; its $n are the new statement's).
 *       An unknown marker or placeholder, a statement
 *       without its comment, an undescribed $n or a duplicate name is an
 *       error (`FILE:LINE: error: ...`, exit 1).
 *
 * Every macro is a string literal of SQL text and column names, never a
 * value, so nothing is assembled at run time.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/record.h"
#include "rules/statement_fields.h"

static int stored(const struct cl_field *f)
{
	return (f->flags & CL_FF_STORED) != 0;
}

static int compared(const struct cl_field *f)
{
	return (f->flags & CL_FF_COMPARED) != 0;
}

static const char *sql_type(const struct cl_field *f)
{
	switch ((enum cl_field_type)f->type) {
	case CL_FT_HASH:
	case CL_FT_HASHOPT:
	case CL_FT_DERIVED: /* the near identity's hash (rules/near.h) */
		return "bytea";
	case CL_FT_AMOUNT:
	case CL_FT_LINE:
	case CL_FT_SHARD:
		return "bigint";
	case CL_FT_COUNT:
		return "integer";
	case CL_FT_DATE:
		return "date";
	case CL_FT_STATIC:
	case CL_FT_TEXT:
	case CL_FT_DIR:
		break;
	}
	return "text";
}

static void plain(FILE *out, const struct cl_field *f)
{
	fputs(f->name, out);
}

static void show(FILE *out, const struct cl_field *f)
{
	if (f->type == CL_FT_HASH || f->type == CL_FT_HASHOPT || f->type == CL_FT_DERIVED)
		fprintf(out, "pg_catalog.encode(r.%s, 'hex') AS %s", f->name, f->name);
	else
		fprintf(out, "r.%s", f->name);
}

static void of_r(FILE *out, const struct cl_field *f)
{
	fprintf(out, "r.%s", f->name);
}

/* (name, differs): a field added by a later migration (f->since) differs
 * only where the applied record could have it: not NULL, or its load
 * started after the migration (one probe of clearing_load's key, asked
 * only of a NULL that differs; the last load before the migration, found
 * with max(load_id), walked the load table back from its newest row). */
static void diff(FILE *out, const struct cl_field *f)
{
	const char *n = f->name;

	if (!f->since) {
		fprintf(out, "('%s', c.%s IS DISTINCT FROM r.%s)", n, n, n);
		return;
	}
	fprintf(out,
		"('%s', c.%s IS DISTINCT FROM r.%s AND (r.%s IS NOT NULL OR "
		"((SELECT l.started_at FROM clearing_load l WHERE l.load_id = r.load_id) < "
		"(SELECT v.applied_at FROM clearing_schema_version v WHERE v.version = %u)) "
		"IS NOT TRUE))",
		n, n, n, n, f->since);
}

/* (name, r's value, c's value): the old and the new value as text */
static void change(FILE *out, const struct cl_field *f)
{
	fprintf(out, "('%s', r.%s::text, c.%s::text)", f->name, f->name, f->name);
}

static void typed(FILE *out, const struct cl_field *f)
{
	fprintf(out, "%s:%s", f->name, sql_type(f));
}

/* ---- the statement item's columns (rules/statement_fields.def) ---- */

static int s_stored(const struct cl_stmt_field *f)
{
	return !(f->flags & CL_SF_STAGE);
}

static int s_any(const struct cl_stmt_field *f)
{
	(void)f;
	return 1;
}

static int s_compared(const struct cl_stmt_field *f)
{
	return (f->flags & CL_SF_COMPARED) != 0;
}

/* The column's type in clearing_statement_item. */
static const char *s_type(const struct cl_stmt_field *f)
{
	switch (f->type) {
	case CL_SFT_HASH:
		return "bytea";
	case CL_SFT_DATE:
		return "date";
	case CL_SFT_BOOL:
		return "boolean";
	case CL_SFT_PAGE:
		return "integer";
	case CL_SFT_AMOUNT:
	case CL_SFT_COUNT:
	case CL_SFT_SIGNED:
	case CL_SFT_LOAD:
	case CL_SFT_ORDINAL:
		return "bigint";
	case CL_SFT_TEXT:
	case CL_SFT_CSTR:
	case CL_SFT_KEY:
	case CL_SFT_ITEM:
	case CL_SFT_DIR:
	case CL_SFT_TENANT:
	case CL_SFT_RULE:
	case CL_SFT_JOURNAL_KEY:
		break;
	}
	return "text";
}

/* Its cast from the stage's type (dates and bools staged as text). */
static const char *s_cast(const struct cl_stmt_field *f)
{
	return f->type == CL_SFT_DATE ? "::date" : f->type == CL_SFT_BOOL ? "::boolean" : "";
}

static void s_plain(FILE *out, const struct cl_stmt_field *f)
{
	fputs(f->name, out);
}

/* name and type in the stage: what the binary COPY writes */
static void s_stage(FILE *out, const struct cl_stmt_field *f)
{
	const char *t = s_type(f);

	if (*s_cast(f))
		t = "text";
	else if (f->type == CL_SFT_PAGE)
		t = "bigint";
	fprintf(out, "%s %s%s", f->name, t, f->type == CL_SFT_KEY ? " COLLATE \"C\"" : "");
}

static void s_value(FILE *out, const struct cl_stmt_field *f)
{
	fprintf(out, "%s%s", f->name, s_cast(f));
}

/* staged item s against stored item i: the column's name when it differs */
static void s_diff(FILE *out, const struct cl_stmt_field *f)
{
	fprintf(out, "CASE WHEN s.%s%s IS DISTINCT FROM i.%s THEN '%s' END", f->name, s_cast(f),
		f->name, f->name);
}

static void s_typed(FILE *out, const struct cl_stmt_field *f)
{
	fprintf(out, "%s:%s", f->name, s_type(f));
}

/* ---- a reconcile answer item's columns (loader/recon_item.def) ---- */

static const char *const recon_items[][2] = {
#define CL_RECON_ITEM(member, sql) { #member, #sql },
#include "loader/recon_item.def"
#undef CL_RECON_ITEM
};

/* each as `sql AS member`, or `member` where the two are one */
static void recon_answer(FILE *out, const char *brk)
{
	for (size_t i = 0; i < sizeof(recon_items) / sizeof(recon_items[0]); i++) {
		fprintf(out, "%s%s%s", i ? ", " : "", brk, recon_items[i][1]);
		if (strcmp(recon_items[i][0], recon_items[i][1]) != 0)
			fprintf(out, " AS %s", recon_items[i][0]);
	}
}

/* the statuses of an open break (loader/recon_status.def), quoted */
static const char *const recon_open[] = {
#define CL_RECON_OPEN(status) #status,
#include "loader/recon_status.def"
#undef CL_RECON_OPEN
};

static void recon_open_statuses(FILE *out, const char *brk)
{
	(void)brk;
	for (size_t i = 0; i < sizeof(recon_open) / sizeof(recon_open[0]); i++)
		fprintf(out, "%s'%s'", i ? ", " : "", recon_open[i]);
}

/* ---- reconcile's references, an arm each (loader/recon_ref.def) ---- */

static const struct {
	const char *ref, *rcol, *ecol;
	int windowed;
} recon_refs[] = {
#define CL_RECON_REF(ref, rcol, ecol, windowed) { #ref, #rcol, #ecol, windowed },
#include "loader/recon_ref.def"
#undef CL_RECON_REF
};
#define NRECON_REFS (sizeof(recon_refs) / sizeof(recon_refs[0]))

/* arm i's condition: the record x's column is the entry e's */
static void ref_cond(FILE *out, size_t i)
{
	fprintf(out, "x.%s = e.%s", recon_refs[i].rcol, recon_refs[i].ecol);
	if (recon_refs[i].windowed)
		fputs(" AND clearing_trace_window(x.value_date, e.on_date)", out);
}

/* each arm a probe of clearing_record, its number first (an arm whose
   reference the entry lacks, or the run does not match by, is skipped) */
static void ref_arms(FILE *out, const char *brk)
{
	for (size_t i = 0; i < NRECON_REFS; i++) {
		fprintf(out, "%s%sSELECT %zu%s, x.* FROM clearing_record x WHERE e.%s IS NOT NULL AND "
			     "'%s' = ANY ($2::text[]) AND x.tenant = $1 AND ",
			i ? " UNION ALL " : "", brk, i + 1, i ? "" : " AS arm", recon_refs[i].ecol,
			recon_refs[i].ref);
		ref_cond(out, i);
	}
}

/* the first arm that finds record x */
static void ref_first_arm(FILE *out, const char *brk)
{
	fputs("CASE", out);
	for (size_t i = 0; i < NRECON_REFS; i++) {
		fprintf(out, "%s WHEN '%s' = ANY ($2::text[]) AND ", brk, recon_refs[i].ref);
		ref_cond(out, i);
		fprintf(out, " THEN %zu", i + 1);
	}
	fputs(" END", out);
}

/* the place in $2 of the most trusted reference that finds record x */
static void ref_ord(FILE *out, const char *brk)
{
	fputs("least(", out);
	for (size_t i = 0; i < NRECON_REFS; i++) {
		fprintf(out, "%s%sCASE WHEN ", i ? ", " : "", brk);
		ref_cond(out, i);
		fprintf(out, " THEN array_position($2::text[], '%s') END", recon_refs[i].ref);
	}
	fputs(")", out);
}

/* A list of the field table: `head`, each field `want` selects written by
 * `item`, `tail`; or (want NULL) the constant `head`.  `placeholder`:
 * its name in the statement files (NULL: not one). */
struct list {
	const char *macro;
	const char *placeholder;
	const char *head;
	int (*want)(const struct cl_field *);
	void (*item)(FILE *, const struct cl_field *);
	const char *tail;
	/* or each statement column `swant` selects written by `sitem` */
	int (*swant)(const struct cl_stmt_field *);
	void (*sitem)(FILE *, const struct cl_stmt_field *);
	/* or what this writes */
	void (*rows)(FILE *, const char *);
};

static const struct list lists[] = {
	{ "CL_SQL_RECORD_COLUMNS", "record_columns", "tenant", stored, plain, ", load_id, ordinal",
	  NULL, NULL, NULL },
	{ "CL_SQL_SHOW_COLUMNS", "show_columns", "r.tenant", stored, show, ", r.load_id, r.ordinal",
	  NULL, NULL, NULL },
	{ "CL_SQL_COMPARED_R", "compared_r", "", compared, of_r, "", NULL, NULL, NULL },
	{ "CL_SQL_COMPARED_DIFFS", "compared_diffs", "", compared, diff, "", NULL, NULL, NULL },
	{ "CL_SQL_COMPARED_CHANGES", "compared_changes", "", compared, change, "", NULL, NULL, NULL },
	{ "CL_SQL_STORED_TYPES", NULL, "tenant:text", stored, typed,
	  ", load_id:bigint, ordinal:bigint", NULL, NULL, NULL },
	/* ISO 8601 with "T" and the offset, to the second: one form of
	   timestamp in every output (show, loads, diff's matched_time) */
	{ NULL, "iso_ts", "'YYYY-MM-DD\"T\"HH24:MI:SSTZH:TZM'", NULL, NULL, NULL, NULL, NULL, NULL },
	/* a load's columns (clearing_load l), one shape in show and loads:
	   its row, and where ingest last moved its file */
	{ NULL, "load_columns",
	  "l.load_id, l.load_uuid, l.tenant, l.file_name, l.file_size, l.sha256, l.format, "
	  "l.message_type, l.sender, l.receiver, l.file_created, l.file_id, l.record_count, "
	  "l.new_count, l.duplicate_count, l.conflict_count, l.invalid_count, l.outcome, l.reason, "
	  "l.retries, pg_catalog.to_char(l.started_at, 'YYYY-MM-DD\"T\"HH24:MI:SSTZH:TZM') AS "
	  "started_at, pg_catalog.to_char(l.finished_at, 'YYYY-MM-DD\"T\"HH24:MI:SSTZH:TZM') AS "
	  "finished_at, (SELECT a.path FROM clearing_load_archive a WHERE a.load_id = "
	  "l.load_id ORDER BY a.archived_at DESC LIMIT 1) AS archived_as",
	  NULL, NULL, NULL, NULL, NULL, NULL },
	/* clearing_statement_item (sql/loader/statement.sql) */
	{ NULL, "stmt_stage_columns", "", NULL, NULL, "", s_any, s_stage, NULL },
	{ NULL, "stmt_copy_columns", "", NULL, NULL, "", s_any, s_plain, NULL },
	{ NULL, "stmt_columns", "", NULL, NULL, "", s_stored, s_plain, NULL },
	{ NULL, "stmt_stage_values", "", NULL, NULL, "", s_stored, s_value, NULL },
	{ NULL, "stmt_compared_diffs", "", NULL, NULL, "", s_compared, s_diff, NULL },
	{ "CL_SQL_STMT_STORED_TYPES", NULL, "", NULL, NULL, "", s_stored, s_typed, NULL },
	/* the answer of reconcile (sql/loader/reconcile.sql) */
	{ NULL, "recon_answer_columns", "", NULL, NULL, "", NULL, NULL, recon_answer },
	{ NULL, "recon_open_statuses", "", NULL, NULL, "", NULL, NULL, recon_open_statuses },
	{ NULL, "reconcile_ref_arms", "", NULL, NULL, "", NULL, NULL, ref_arms },
	{ NULL, "reconcile_ref_first_arm", "", NULL, NULL, "", NULL, NULL, ref_first_arm },
	{ NULL, "reconcile_ref_ord", "", NULL, NULL, "", NULL, NULL, ref_ord },
};

#define NLISTS (sizeof(lists) / sizeof(lists[0]))

/* Write list `l`; `brk` goes before each field (a line break in a macro). */
static void list_write(FILE *out, const struct list *l, const char *brk)
{
	int first = 1;

	fputs(l->head, out);
	if (l->rows) {
		l->rows(out, brk);
		fputs(l->tail, out);
		return;
	}
	if (l->swant) {
		for (size_t i = 0; i < cl_stmt_nfields; i++) {
			if (!l->swant(&cl_stmt_fields[i]))
				continue;
			fprintf(out, "%s%s", first ? "" : ", ", brk);
			l->sitem(out, &cl_stmt_fields[i]);
			first = 0;
		}
		fputs(l->tail, out);
		return;
	}
	if (!l->want)
		return;
	for (size_t i = 0; i < CL_NFIELDS; i++) {
		if (!l->want(&cl_fields[i]))
			continue;
		fprintf(out, "%s%s", first && !*l->head ? "" : ", ", brk);
		l->item(out, &cl_fields[i]);
		first = 0;
	}
	fputs(l->tail, out);
}

static int record_sql(void)
{
	puts("/* generated by sql/gen_record_sql.c from base/record_fields.def: do not edit */");
	puts("#ifndef CL_RECORD_SQL_H\n#define CL_RECORD_SQL_H\n");
	for (size_t i = 0; i < NLISTS; i++) {
		if (!lists[i].macro)
			continue;
		printf("#define %s \"", lists[i].macro);
		list_write(stdout, &lists[i], "\" \\\n\t\"");
		printf("\"\n\n");
	}
	puts("#endif");
	return ferror(stdout) ? 1 : 0;
}

/* ---- the statement files ---- */

/* One statement being read. */
struct stmt {
	char *name;          /* from its marker */
	const char *path;
	unsigned line;       /* of its marker */
	char *about;         /* its comment, lines joined */
	size_t about_len;
	FILE *about_f;
	char *text;          /* expanded SQL, lines joined by \n */
	size_t text_len;
	FILE *text_f;
	int lines;           /* SQL lines so far */
	char used[100];      /* used[n]: $n occurs in the text */
	int in_quote;        /* 0, '\'' or '"': open across lines */
	int fragment;        /* a fragment, not a statement */
};

static char **names;
static size_t nnames;

/* The fragments read so far: name and expanded text. */
struct fragment {
	const char *name;    /* in names[] */
	char *text;
};

/* Named texts, in the order read: the fragments, and the statements read
 * so far (for {name@local}; their texts kept). */
struct texts {
	struct fragment *v;
	size_t n;
};

static struct texts frags, stmts;

/* The table {name@local} reads instead of clearing_record: reconcile's
 * copy of the records a statement needs, on Citus (reconcile_copy.sql). */
#define LOCAL_RECORD "pg_temp.cl_recon_record"

static void fail(const char *path, unsigned line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%u: error: ", path, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static const struct list *placeholder(const char *name, size_t n)
{
	for (size_t i = 0; i < NLISTS; i++)
		if (lists[i].placeholder && strlen(lists[i].placeholder) == n &&
		    memcmp(lists[i].placeholder, name, n) == 0)
			return &lists[i];
	return NULL;
}

static const struct fragment *texts_find(const struct texts *t, const char *name, size_t n)
{
	for (size_t i = 0; i < t->n; i++)
		if (strlen(t->v[i].name) == n && memcmp(t->v[i].name, name, n) == 0)
			return &t->v[i];
	return NULL;
}

static void texts_add(struct texts *t, const char *name, char *text)
{
	t->v = realloc(t->v, (t->n + 1) * sizeof(*t->v));
	if (!t->v) {
		fprintf(stderr, "gen_record_sql: out of memory\n");
		exit(1);
	}
	t->v[t->n].name = name;
	t->v[t->n++].text = text;
}

static void texts_free(struct texts *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].text);
	free(t->v);
}

static int word_char(char c)
{
	return c == '_' || isalnum((unsigned char)c);
}

/* text with each whole word clearing_record as LOCAL_RECORD (outside
 * quotes: the statements name no such literal). */
static void write_local(FILE *out, const char *text)
{
	static const char word[] = "clearing_record";
	const char *p = text, *q;

	while ((q = strstr(p, word)) != NULL) {
		fwrite(p, 1, (size_t)(q - p), out);
		if ((q == text || !word_char(q[-1])) && !word_char(q[sizeof(word) - 1]))
			fputs(LOCAL_RECORD, out);
		else
			fputs(word, out);
		p = q + sizeof(word) - 1;
	}
	fputs(p, out);
}

/* Append one SQL line to s: placeholders expanded, $n noted; quotes are
 * tracked so that a brace, a dash or a dollar inside a literal or a
 * quoted name is text. */
static void sql_line(struct stmt *s, const char *line, unsigned lineno)
{
	const char *p;

	if (s->lines++)
		fputc('\n', s->text_f);
	for (p = line; *p; p++) {
		if (s->in_quote) {
			if (*p == s->in_quote)
				s->in_quote = 0;
			fputc(*p, s->text_f);
			continue;
		}
		if (*p == '\'' || *p == '"') {
			s->in_quote = *p;
		} else if (*p == '-' && p[1] == '-') {
			fail(s->path, lineno, "a comment goes on a line of its own (%s)", s->name);
		} else if (*p == '{') {
			const char *end = strchr(p, '}');
			const struct list *l;
			const struct fragment *fr;

			if (!end)
				fail(s->path, lineno, "unterminated placeholder in %s", s->name);
			const char *at = memchr(p, '@', (size_t)(end - p));

			if (at && (size_t)(end - at) == sizeof("@local") - 1 &&
			    memcmp(at, "@local", sizeof("@local") - 1) == 0) {
				if (!(fr = texts_find(&stmts, p + 1, (size_t)(at - p - 1))) &&
				    !(fr = texts_find(&frags, p + 1, (size_t)(at - p - 1))))
					fail(s->path, lineno, "unknown statement %.*s in %s",
					     (int)(end - p + 1), p, s->name);
				write_local(s->text_f, fr->text);
				/* its $n are this statement's: its comment says them */
				for (const char *d = fr->text; (d = strchr(d, '$')) != NULL; d++)
					if (isdigit((unsigned char)d[1])) {
						long n = strtol(d + 1, NULL, 10);

						if (n >= 1 && n < (long)sizeof(s->used))
							s->used[n] = 1;
					}
			} else if ((l = placeholder(p + 1, (size_t)(end - p - 1))))
				list_write(s->text_f, l, "");
			else if ((fr = texts_find(&frags, p + 1, (size_t)(end - p - 1))))
				fputs(fr->text, s->text_f);
			else
				fail(s->path, lineno, "unknown placeholder %.*s in %s", (int)(end - p + 1),
				     p, s->name);
			p = end;
			continue;
		} else if (*p == '}') {
			fail(s->path, lineno, "unmatched } in %s", s->name);
		} else if (*p == '$' && isdigit((unsigned char)p[1])) {
			long n = strtol(p + 1, NULL, 10);

			if (n < 1 || n >= (long)sizeof(s->used))
				fail(s->path, lineno, "parameter $%ld out of range in %s", n, s->name);
			if (s->fragment)
				fail(s->path, lineno, "fragment %s: a fragment takes no parameters ($%ld)",
				     s->name, n);
			s->used[n] = 1;
		}
		fputc(*p, s->text_f);
	}
}

/* Does the comment name $n (not as the start of $n0)? */
static int describes(const char *about, int n)
{
	char tok[8];
	const char *p = about;
	size_t k;

	k = (size_t)snprintf(tok, sizeof(tok), "$%d", n);
	while ((p = strstr(p, tok)) != NULL) {
		if (!isdigit((unsigned char)p[k]))
			return 1;
		p += k;
	}
	return 0;
}

static void c_string(const char *s, size_t n)
{
	fputc('"', stdout);
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '"': fputs("\\\"", stdout); break;
		case '\\': fputs("\\\\", stdout); break;
		case '\t': fputs("\\t", stdout); break;
		case '\n': fputs("\\n", stdout); break;
		case '?': fputs(i && s[i - 1] == '?' ? "\\?" : "?", stdout); break;
		default: fputc(s[i], stdout); break;
		}
	}
	fputc('"', stdout);
}

/* Check statement s and write its macro. */
static void stmt_end(struct stmt *s)
{
	const char *p, *nl;

	fclose(s->about_f);
	fclose(s->text_f);
	if (!s->about_len)
		fail(s->path, s->line, "%s: no comment says what it does", s->name);
	if (!s->lines)
		fail(s->path, s->line, "%s has no SQL", s->name);
	if (s->in_quote)
		fail(s->path, s->line, "%s: unterminated %c", s->name, s->in_quote);
	for (int n = 1; n < (int)sizeof(s->used); n++)
		if (s->used[n] && !describes(s->about, n))
			fail(s->path, s->line, "%s uses $%d: its comment must say what $%d is", s->name,
			     n, n);
	if (s->fragment) {
		texts_add(&frags, s->name, s->text);
		free(s->about);
		s->name = NULL;
		return;
	}
	printf("/* %s:%u */\n#define CL_SQL_", s->path, s->line);
	for (p = s->name; *p; p++)
		putchar(toupper((unsigned char)*p));
	for (p = s->text; p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		fputs(" \\\n\t", stdout);
		c_string(p, nl ? (size_t)(nl - p + 1) : strlen(p));
	}
	fputs("\n\n", stdout);
	free(s->about);
	texts_add(&stmts, s->name, s->text);
	s->name = NULL;
}

/* A marker line `-- word: rest`: word and rest, or 0 for another comment. */
static int marker(const char *comment, size_t *wlen, const char **rest)
{
	size_t n = 0;

	while (comment[n] == '_' || (comment[n] >= 'a' && comment[n] <= 'z'))
		n++;
	if (!n || comment[n] != ':')
		return 0;
	*wlen = n;
	for (*rest = comment + n + 1; **rest == ' ' || **rest == '\t'; (*rest)++)
		;
	return 1;
}

static void new_stmt(struct stmt *s, const char *path, unsigned lineno, const char *name,
		     const char *prefix, size_t plen)
{
	const char *p;

	if (strncmp(name, prefix, plen) != 0 || name[plen] != '_' || !name[plen + 1])
		fail(path, lineno, "statement name '%s' must start with '%.*s_'", name, (int)plen,
		     prefix);
	for (p = name; *p; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			fail(path, lineno, "statement name '%s': lowercase letters, digits, _", name);
	for (size_t i = 0; i < nnames; i++)
		if (strcmp(names[i], name) == 0)
			fail(path, lineno, "statement '%s' defined twice", name);
	names = realloc(names, (nnames + 1) * sizeof(*names));
	if (!names || !(names[nnames] = strdup(name))) {
		fprintf(stderr, "gen_record_sql: out of memory\n");
		exit(1);
	}
	memset(s, 0, sizeof(*s));
	s->name = names[nnames++];
	s->path = path;
	s->line = lineno;
	s->about_f = open_memstream(&s->about, &s->about_len);
	s->text_f = open_memstream(&s->text, &s->text_len);
	if (!s->about_f || !s->text_f) {
		fprintf(stderr, "gen_record_sql: out of memory\n");
		exit(1);
	}
}

static void statements(const char *path)
{
	FILE *f = fopen(path, "r");
	const char *base = strrchr(path, '/');
	size_t plen;
	char line[4096];
	unsigned lineno = 0;
	struct stmt s;

	if (!f) {
		perror(path);
		exit(1);
	}
	base = base ? base + 1 : path;
	plen = strlen(base);
	if (plen < 5 || strcmp(base + plen - 4, ".sql") != 0)
		fail(path, 0, "not a .sql file");
	plen -= 4;
	s.name = NULL;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line), wlen;
		const char *t = line, *rest;

		lineno++;
		if (n == sizeof(line) - 1 && line[n - 1] != '\n')
			fail(path, lineno, "line too long");
		while (n && isspace((unsigned char)line[n - 1]))
			line[--n] = '\0';
		while (*t == ' ' || *t == '\t')
			t++;
		if (!*t && !(s.name && s.in_quote))
			continue;
		if (t[0] == '-' && t[1] == '-' && !(s.name && s.in_quote)) {
			const char *c = t + 2;

			while (*c == ' ')
				c++;
			if (marker(c, &wlen, &rest)) {
				bool frag = wlen == 8 && strncmp(c, "fragment", 8) == 0;

				if (!frag && (wlen != 4 || strncmp(c, "name", 4) != 0))
					fail(path, lineno, "unknown marker '-- %.*s:'", (int)wlen, c);
				if (s.name)
					stmt_end(&s);
				new_stmt(&s, path, lineno, rest, base, plen);
				s.fragment = frag;
			} else if (s.name && !s.lines) {
				fprintf(s.about_f, "%s%s", s.about_len ? " " : "", c);
				fflush(s.about_f);
			}
			continue;
		}
		if (!s.name)
			fail(path, lineno, "SQL before the first '-- name:' marker");
		sql_line(&s, line, lineno);
	}
	if (ferror(f))
		fail(path, lineno, "could not read");
	fclose(f);
	if (s.name)
		stmt_end(&s);
}

static int loader_sql(int argc, char **argv)
{
	puts("/* generated by sql/gen_record_sql.c from the sql/loader/ files and"
	     " base/record_fields.def: do not edit */");
	puts("#ifndef CL_LOADER_SQL_H\n#define CL_LOADER_SQL_H\n");
	for (int i = 1; i < argc; i++)
		statements(argv[i]);
	/* every statement, for the test that checks them */
	fputs("#define CL_LOADER_SQL_LIST(X)", stdout);
	for (size_t i = 0; i < nnames; i++) {
		if (!texts_find(&frags, names[i], strlen(names[i]))) {
			printf(" \\\n\tX(\"%s\", CL_SQL_", names[i]);
			for (const char *p = names[i]; *p; p++)
				putchar(toupper((unsigned char)*p));
			putchar(')');
		}
	}
	texts_free(&frags);
	texts_free(&stmts);
	for (size_t i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
	puts("\n\n#endif");
	return ferror(stdout) ? 1 : 0;
}

int main(int argc, char **argv)
{
	return argc > 1 ? loader_sql(argc, argv) : record_sql();
}
