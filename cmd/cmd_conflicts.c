/* cmd_conflicts.c - `clearing-load conflicts`: the held and quarantined
 * conflicts, each with the old and the new value of every differing
 * compared field (loader/conflicts.h). */
#include "cmd/cli.h"

#include <stdlib.h>
#include <string.h>

#include "base/mask.h"
#include "base/xmalloc.h"
#include "cmd/dbconn.h"
#include "cmd/options.h"
#include "loader/conflicts.h"
#include "loader/schema.h"

static const struct cl_option conflicts_command[] = {
	CL_OPT_USAGE("conflicts", CL_NO_OPERANDS, "[OPTION]..."),
	CL_OPT_TEXT("List the conflicts of held and quarantined loads (same key, other content; "
		    "near duplicates): for each, its load and line (and ordinal, the record's "
		    "index in the file), its key, the applied record it matched (load, line) and "
		    "the old and the new value of every compared field that differs.  A conflict "
		    "is named by its load and line (or ordinal) to 'clearing-load resolve'.  "
		    "Unresolved conflicts only, unless --all."),
	CL_OPT_ULONG(0, "load", "N", load_id, 1, 9223372036854775807UL,
		     "only the conflicts of load N"),
	CL_OPT_TENANT_AS("only the conflicts of this tenant (default: all tenants)"),
	CL_OPT_BOOL(0, "all", all, "also the resolved conflicts, with their verdict"),
	CL_OPT_DB(),
	CL_OPT_FORMAT(),
	CL_OPT_NO_MASK(),
	CL_OPT_QUIET("no note of how many conflicts were listed"),
	CL_OPT_TEXT("Exit status: 0 success (also: none), 2 usage error, 5 database error, 75 "
		    "retry later, 78 configuration (see 'clearing-load help')."),
	CL_OPT_END(),
};

/* The columns of a conflict, by name (conflicts.h lists them). */
static const struct cl_kv *col(const struct cl_conflict *c, const char *name)
{
	for (int i = 0; i < c->ncols; i++)
		if (strcmp(c->cols[i].name, name) == 0)
			return &c->cols[i];
	return NULL;
}

struct out {
	enum cl_out_format format;
	bool header;             /* csv: written */
	const char *accts[3 + CL_CONFLICT_MAX_CHANGES];
	size_t naccts;
	char keys[3][CL_KEY_MAX * 2];
	char vals[2][128];
};

/* A key column as output shows it: the accounts of the version and of
 * the record it matched masked in it, unless --no-mask. */
static const char *key_value(struct out *o, const struct cl_kv *kv, int slot)
{
	if (!kv->value || cl_opt_no_mask || !o->naccts)
		return kv->value;
	if (cl_mask_in_key(kv->value, o->accts, o->naccts, o->keys[slot], sizeof(o->keys[slot])))
		return o->keys[slot];
	return kv->value;
}

static bool is_key(const char *name)
{
	return strcmp(name, CL_FIELD_NAME(natural_key)) == 0 || strcmp(name, "matched_key") == 0 ||
	       strcmp(name, "correction_key") == 0;
}

static const char *change_value(const struct cl_conflict_change *ch, const char *v, char *buf,
				size_t cap)
{
	return v && ch->account ? cl_out_account(v, buf, cap) : v;
}

static void text(struct out *o, const struct cl_conflict *c)
{
	char safe[4 * CL_KEY_MAX];
	int slot = 0;

	printf("conflict:\n");
	for (int i = 0; i < c->ncols; i++) {
		const char *v = is_key(c->cols[i].name) ? key_value(o, &c->cols[i], slot++)
							: c->cols[i].value;

		if (v && *v)
			printf("  %-20s %s\n", c->cols[i].name, cl_text_time(v, safe, sizeof(safe)));
	}
	if (!col(c, "verdict")->value)
		printf("  %-20s %s\n", "verdict", "unresolved");
	for (int i = 0; i < c->nchanges; i++) {
		const struct cl_conflict_change *ch = &c->changes[i];
		const char *ov = change_value(ch, ch->old_value, o->vals[0], sizeof(o->vals[0]));
		const char *nv = change_value(ch, ch->new_value, o->vals[1], sizeof(o->vals[1]));
		char s_old[512], s_new[512];

		printf("  %-20s %s: %s -> %s\n", "changed", ch->field,
		       ov ? cl_text_safe(ov, s_old, sizeof(s_old)) : "(none)",
		       nv ? cl_text_safe(nv, s_new, sizeof(s_new)) : "(none)");
	}
}

static void json(struct out *o, const struct cl_conflict *c)
{
	struct cl_json j;
	int slot = 0;

	cl_json_begin(&j, stdout, "conflict");
	for (int i = 0; i < c->ncols; i++) {
		const struct cl_kv *kv = &c->cols[i];
		const char *v = is_key(kv->name) ? key_value(o, kv, slot++) : kv->value;

		if (!v)
			cl_json_null(&j, kv->name);
		else if (kv->number)
			cl_json_int(&j, kv->name, strtoll(v, NULL, 10));
		else
			cl_json_str(&j, kv->name, v);
	}
	cl_json_array(&j, "changes");
	for (int i = 0; i < c->nchanges; i++) {
		const struct cl_conflict_change *ch = &c->changes[i];

		cl_json_object(&j, NULL);
		cl_json_str(&j, "field", ch->field);
		cl_json_str(&j, "old", change_value(ch, ch->old_value, o->vals[0], sizeof(o->vals[0])));
		cl_json_str(&j, "new", change_value(ch, ch->new_value, o->vals[1], sizeof(o->vals[1])));
		cl_json_object_end(&j);
	}
	cl_json_array_end(&j);
	cl_json_end(&j);
}

/* One row per differing field, the conflict's columns on each (one row
 * with empty field columns when none differs). */
static void csv(struct out *o, const struct cl_conflict *c)
{
	const char *row[CL_HISTORY_MAX_COLS + 4];
	int n = c->ncols;

	if (!o->header) {
		row[0] = "type";
		for (int i = 0; i < n; i++)
			row[i + 1] = c->cols[i].name;
		row[n + 1] = "field";
		row[n + 2] = "old_value";
		row[n + 3] = "new_value";
		cl_csv_row(stdout, row, (size_t)n + 4);
		o->header = true;
	}
	row[0] = "conflict";
	{
		int slot = 0;

		for (int i = 0; i < n; i++)
			row[i + 1] = is_key(c->cols[i].name) ? key_value(o, &c->cols[i], slot++)
							      : c->cols[i].value;
	}
	for (int k = 0; k < (c->nchanges ? c->nchanges : 1); k++) {
		const struct cl_conflict_change *ch = c->nchanges ? &c->changes[k] : NULL;

		row[n + 1] = ch ? ch->field : NULL;
		row[n + 2] = ch ? change_value(ch, ch->old_value, o->vals[0], sizeof(o->vals[0]))
				: NULL;
		row[n + 3] = ch ? change_value(ch, ch->new_value, o->vals[1], sizeof(o->vals[1]))
				: NULL;
		cl_csv_row(stdout, row, (size_t)n + 4);
	}
}

static void print_conflict(void *ctx, const struct cl_conflict *c)
{
	struct out *o = ctx;

	/* the accounts a key may hold: the version's, and the matched
	   record's where they differ */
	o->naccts = 0;
	for (size_t i = 0; i < c->naccounts; i++)
		o->accts[o->naccts++] = c->accounts[i];
	for (int i = 0; i < c->nchanges; i++)
		if (c->changes[i].account && c->changes[i].old_value)
			o->accts[o->naccts++] = c->changes[i].old_value;
	switch (o->format) {
	case CL_OUT_JSON:
		json(o, c);
		break;
	case CL_OUT_CSV:
		csv(o, c);
		break;
	case CL_OUT_TEXT:
		text(o, c);
		break;
	}
}

static int conflicts(const struct cl_args *args, struct cl_db *db)
{
	struct out *o = cl_xmalloc(sizeof(*o));
	struct cl_error err;
	unsigned long found;
	enum cl_db_status st;

	memset(o, 0, sizeof(*o));
	o->format = (enum cl_out_format)args->format;
	st = cl_schema_check(db, &err);
	if (st == CL_DB_OK)
		st = cl_conflicts_list(db, (long long)args->load_id, args->tenant, args->all,
				       print_conflict, o, &found, &err);
	free(o);
	if (st != CL_DB_OK)
		return cl_db_failed(&err);
	if (!cl_opt_quiet)
		cl_msg("%lu %sconflict%s", found, args->all ? "" : "unresolved ",
		       found == 1 ? "" : "s");
	return cl_finish_stdout(CL_EXIT_OK);
}

int cl_cmd_conflicts(int argc, char **argv)
{
	struct cl_args args = { 0 };

	return cl_run_db_command(conflicts_command, &args, argc, argv, conflicts);
}
