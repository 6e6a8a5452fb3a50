/* cmd_conflicts.c - `clearing-load conflicts`: the held and quarantined
 * conflicts, each with the old and the new value of every differing
 * compared field (loader/conflicts.h). */
#include "cmd/cli.h"

#include <stdlib.h>
#include <string.h>

#include "base/mask.h"
#include "base/money.h"
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
	CL_OPT_COUNT('v', "verbose", verbose,
		     "text: every column of each conflict, one per line (default: two lines "
		     "per conflict, amounts as money, totals per currency at the end)"),
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
	bool verbose;            /* text: every column */
	bool header;             /* csv: written */
	struct cl_money_totals totals; /* text: the versions' amounts */
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

/* A change's value as a person reads it: an amount as money (in the
 * currency that side has), an account masked, anything else made safe. */
static const char *person_value(const struct cl_conflict *c, const struct cl_conflict_change *ch,
				const char *v, bool old, char *buf, size_t cap)
{
	char raw[128];

	if (!v)
		return "(none)";
	if (strcmp(ch->field, CL_FIELD_NAME(amount_minor)) == 0) {
		const char *ccy = c->currency;

		for (int i = 0; i < c->nchanges; i++)
			if (old && strcmp(c->changes[i].field, CL_FIELD_NAME(currency)) == 0)
				ccy = c->changes[i].old_value;
		return cl_money_text(v, ccy, buf, cap);
	}
	if (ch->account)
		v = cl_out_account(v, raw, sizeof(raw));
	return cl_text_safe(v, buf, cap);
}

static const char *or_q(const char *v)
{
	return v && *v ? v : "?";
}

/* Two lines: where it is, what it is and its amount; then what differs,
 * old -> new, and the record it matched. */
static void compact(struct out *o, const struct cl_conflict *c)
{
	const struct cl_kv *key = col(c, CL_FIELD_NAME(natural_key)), *mkey = col(c, "matched_key");
	const char *verdict = col(c, "verdict")->value, *reason = col(c, "reason")->value;
	char k[4 * CL_KEY_MAX], mk[4 * CL_KEY_MAX], m[64], f[512];

	if (c->amount_minor)
		cl_money_add(&o->totals, strtoll(c->amount_minor, NULL, 10), c->currency);
	printf("load %s line %s  %s  %s %s  %s  tenant %s  %s\n", or_q(col(c, "load_id")->value),
	       or_q(col(c, "line")->value), or_q(reason), or_q(col(c, CL_FIELD_NAME(kind))->value),
	       cl_text_safe(or_q(key_value(o, key, 0)), k, sizeof(k)),
	       c->amount_minor ? cl_money_text(c->amount_minor, c->currency, m, sizeof(m)) : "",
	       or_q(col(c, "tenant")->value), verdict ? verdict : "unresolved");
	printf("  ");
	for (int i = 0; i < c->nchanges; i++) {
		const struct cl_conflict_change *ch = &c->changes[i];
		char ov[512], nv[512];

		printf("%s%s %s -> %s", i ? ", " : "",
		       strcmp(ch->field, CL_FIELD_NAME(amount_minor)) == 0 ? "amount" : ch->field,
		       person_value(c, ch, ch->old_value, true, ov, sizeof(ov)),
		       person_value(c, ch, ch->new_value, false, nv, sizeof(nv)));
	}
	printf("%smatches load %s line %s (%s)", c->nchanges ? "; " : "",
	       or_q(col(c, "matched_load_id")->value), or_q(col(c, "matched_line")->value),
	       cl_text_safe(or_q(col(c, "matched_file_name")->value), f, sizeof(f)));
	if (mkey && mkey->value && (!key->value || strcmp(mkey->value, key->value) != 0))
		printf(", key %s", cl_text_safe(key_value(o, mkey, 1), mk, sizeof(mk)));
	putchar('\n');
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
		if (o->verbose)
			text(o, c);
		else
			compact(o, c);
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
	o->verbose = args->verbose;
	st = cl_schema_check(db, &err);
	if (st == CL_DB_OK)
		st = cl_conflicts_list(db, (long long)args->load_id, args->tenant, args->all,
				       print_conflict, o, &found, &err);
	if (st == CL_DB_OK && o->format == CL_OUT_TEXT && !o->verbose && found) {
		char t[512];

		printf("%lu conflict%s: %s\n", found, found == 1 ? "" : "s",
		       cl_money_totals_text(&o->totals, t, sizeof(t)));
	}
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
