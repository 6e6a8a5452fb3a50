/* cmd_break.c - `clearing-load break`: a person's decisions on reconcile's
 * breaks, and the breaks still open (loader/breaks.h). */
#include "cmd/cli.h"

#include <stdlib.h>
#include <string.h>

#include "base/mask.h"
#include "base/money.h"
#include "cmd/dbconn.h"
#include "cmd/options.h"
#include "loader/breaks.h"
#include "loader/reconcile.h"
#include "loader/schema.h"
#include "rules/statement_fields.h"

/* The actions, as the first operand names them. */
static const struct {
	const char *word;
	int action; /* enum cl_break_action, or -1: list */
	const char *done; /* what a decided item became */
} actions[] = {
	{ "list", -1, NULL },
	{ "accept", CL_BREAK_ACCEPT, "accepted" },
	{ "match", CL_BREAK_MATCH, "matched by hand" },
	{ "write-off", CL_BREAK_WRITE_OFF, "written off" },
	{ "reopen", CL_BREAK_REOPEN, "reopened" },
};
#define NACTIONS (sizeof(actions) / sizeof(actions[0]))

static int action_of(const char *w)
{
	for (size_t i = 0; i < NACTIONS; i++)
		if (strcmp(actions[i].word, w) == 0)
			return (int)i;
	return -1;
}

/* An item id: e<load>.<ordinal> or r<load>.<ordinal> (digits, at most 18). */
static bool valid_item(const char *s)
{
	size_t a, b;

	if (s[0] != 'e' && s[0] != 'r')
		return false;
	a = strspn(s + 1, "0123456789");
	if (a == 0 || a > 18 || s[1 + a] != '.')
		return false;
	b = strspn(s + 2 + a, "0123456789");
	return b > 0 && b <= 18 && s[2 + a + b] == '\0';
}

static bool valid_word(const char *s)
{
	if (!*s || strlen(s) > 32)
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z')))
			return false;
	return true;
}

static bool valid_account(const char *s)
{
	return *s && strlen(s) < CL_ACCOUNT_MAX;
}

static bool filtered(const struct cl_args *a)
{
	return a->break_account || a->break_day || a->break_reason;
}

/* ACTION first; then items as the action takes them; --note for a decision. */
static int check(struct cl_args *args)
{
	int i;
	const char *w;

	if (args->noperands < 1)
		return cl_usage_error(args->cmd, "give an action: list, accept, match, write-off or "
						 "reopen");
	w = args->operands[0];
	if ((i = action_of(w)) < 0)
		return cl_usage_error(args->cmd, "unknown action \"%s\" (expected list, accept, match, "
						 "write-off or reopen)",
				      w);
	for (int k = 1; k < args->noperands; k++)
		if (!valid_item(args->operands[k]))
			return cl_usage_error(
				args->cmd,
				"invalid item \"%s\" (expected e<load>.<ordinal> for a statement's item or "
				"r<load>.<ordinal> for a record, as reconcile prints its \"id\")",
				args->operands[k]);
	if (actions[i].action < 0) {
		if (args->noperands > 1)
			return cl_usage_error(args->cmd, "list takes no items (filter with "
							 "--day, --reason or "
							 "--statement-account ACCOUNT)");
		return 0;
	}
	if (!args->note || !args->note[strspn(args->note, " \t")])
		return cl_usage_error(args->cmd, "%s: --note TEXT is required (why: kept with the "
						 "decision)",
				      w);
	switch (actions[i].action) {
	case CL_BREAK_MATCH:
		if (filtered(args))
			return cl_usage_error(args->cmd, "match names its items: no filter");
		if (args->noperands < 3 || args->operands[1][0] != 'e')
			return cl_usage_error(args->cmd, "match ENTRY RECORD...: a statement entry "
							 "(e<load>.<ordinal>), then our records");
		for (int k = 2; k < args->noperands; k++)
			if (args->operands[k][0] != 'r')
				return cl_usage_error(args->cmd, "match: \"%s\" is no record "
								 "(r<load>.<ordinal>)",
						      args->operands[k]);
		break;
	case CL_BREAK_REOPEN:
		if (filtered(args) || args->noperands < 2)
			return cl_usage_error(args->cmd, "reopen names its items: no filter");
		break;
	default:
		if (filtered(args) == (args->noperands > 1))
			return cl_usage_error(args->cmd, "%s: give items, or a filter "
							 "(--day, --reason or "
							 "--statement-account ACCOUNT), not both",
					      w);
		break;
	}
	return 0;
}

static const struct cl_option break_command[] = {
	CL_OPT_USAGE("break", CL_ANY_OPERANDS, "ACTION [ITEM]... [OPTION]..."),
	CL_OPT_TEXT("Decide on the breaks reconcile reports (its items unmatched_ours, "
		    "unmatched_theirs, exception, suggested), each decision with who (the login "
		    "role), when and why (--note), recorded once: 'list' the open breaks; "
		    "'accept ITEM...' a suggestion (its entry matched to the record it suggested); "
		    "'match ENTRY RECORD...' a statement entry to our records by hand; "
		    "'write-off ITEM...' an item no one will match; 'reopen ITEM...' an item "
		    "decided (every item of its decision is a break again).  ITEM is the \"id\" "
		    "reconcile prints with each break: e<load>.<ordinal> for a statement's item "
		    "and r<load>.<ordinal> for a record of ours.  accept and write-off take, instead "
		    "of items, the open breaks a filter selects.  A decision is all or nothing; "
		    "the same decision again records nothing; another decision on a decided item "
		    "is refused until it is reopened.  The next reconcile run shows a decided "
		    "item with the decision as its status (accepted, matched_by_hand, "
		    "written_off)."),
	CL_OPT_OPERAND("ACTION", "list, accept, match, write-off or reopen"),
	CL_OPT_OPERAND("ITEM", "a break's id as reconcile prints it (e12.3, r7.1)"),
	CL_OPT_STRING(0, "note", "TEXT", note, "why: required for a decision, kept with it"),
	CL_OPT_CHECKED(0, "statement-account", "ACCOUNT", break_account, valid_account,
		       "an account as its statements write it",
		       "only the breaks of statements of ACCOUNT (an IBAN without blanks, a BAI2 "
		       "account number)"),
	CL_OPT_CHECKED(0, "day", "DATE", break_day, cl_valid_day, "a date YYYY-MM-DD",
		       "only the breaks dated DATE (an entry's booking date, our record's value "
		       "date)"),
	CL_OPT_CHECKED(0, "reason", "REASON", break_reason, valid_word,
		       "a reason of lower-case letters and _",
		       "only the breaks of REASON, reconcile's \"reason\" (no_record, differs, "
		       "not_booked, balance_break, ...)"),
	CL_OPT_TENANT(),
	CL_OPT_FORMAT(),
	CL_OPT_NO_MASK(),
	CL_OPT_DB(),
	CL_OPT_QUIET("print nothing on standard error but errors"),
	CL_OPT_CHECK(check),
	CL_OPT_TEXT("Exit status: 0 decided (also: decided so before; list: listed), 2 usage "
		    "error (also: refused, another decision in force or not a break: nothing "
		    "recorded), 5 database error, 7 no such item (or no open break the filter "
		    "selects), 75 retry later, 78 configuration (see 'clearing-load help')."),
	CL_OPT_END(),
};

static const char *or_null(const char *s)
{
	return s && *s ? s : NULL;
}

struct list_out {
	int format;
	unsigned long n;
	struct cl_money_totals totals;
};

static void list_row(void *ctx, const struct cl_break_row *r)
{
	struct list_out *o = ctx;
	char acct[CL_ACCOUNT_MAX + 8], key[CL_KEY_MAX], m[64], safe[3 * CL_KEY_MAX];
	const char *a[1] = { r->account };
	const char *sk = r->statement_key;

	o->n++;
	if (!cl_opt_no_mask && r->account[0] &&
	    cl_mask_in_key(r->statement_key, a, 1, key, sizeof(key)))
		sk = key;
	if (r->amount_minor[0])
		cl_money_add(&o->totals, strtoll(r->amount_minor, NULL, 10), r->currency);
	switch ((enum cl_out_format)o->format) {
	case CL_OUT_JSON: {
		static struct cl_json j;

		cl_json_begin(&j, stdout, "break");
		cl_json_str(&j, "id", r->item_id);
		cl_json_str(&j, CL_RECON_NAME(status), r->status);
		cl_json_str(&j, "reason", or_null(r->reason));
		cl_json_str(&j, "statement", sk);
		cl_json_str(&j, CL_STMT_COLUMN(account),
			    r->account[0] ? cl_out_account(r->account, acct, sizeof(acct)) : NULL);
		if (r->amount_minor[0])
			cl_json_int(&j, CL_STMT_COLUMN(amount_minor), strtoll(r->amount_minor, NULL, 10));
		else
			cl_json_null(&j, CL_STMT_COLUMN(amount_minor));
		cl_json_str(&j, "currency", or_null(r->currency));
		cl_json_str(&j, "date", or_null(r->item_date));
		cl_json_str(&j, "first_reported", or_null(r->first_reported));
		if (r->age_days[0])
			cl_json_int(&j, "age_days", strtoll(r->age_days, NULL, 10));
		else
			cl_json_null(&j, "age_days");
		cl_json_int(&j, "run_id", strtoll(r->run_id, NULL, 10));
		cl_json_end(&j);
		break;
	}
	case CL_OUT_CSV: {
		const char *row[] = { r->item_id,      r->status,	  or_null(r->reason),
				      sk,	       r->account[0] ? cl_out_account(r->account, acct,
										      sizeof(acct))
								     : NULL,
				      or_null(r->amount_minor), or_null(r->currency),
				      or_null(r->item_date), or_null(r->first_reported),
				      or_null(r->age_days), r->run_id };

		if (o->n == 1) {
			const char *head[] = { "id",	       CL_RECON_NAME(status),	 "reason",
					       "statement",    CL_STMT_COLUMN(account),
					       CL_STMT_COLUMN(amount_minor),
					       "currency",     "date",		 "first_reported",
					       "age_days",     "run_id" };

			cl_csv_row(stdout, head, sizeof(head) / sizeof(head[0]));
		}
		cl_csv_row(stdout, row, sizeof(row) / sizeof(row[0]));
		break;
	}
	case CL_OUT_TEXT:
		printf("%-14s %-16s %-16s %s %s, %s days open: %s\n", r->item_id, r->status,
		       r->reason, cl_money_text(r->amount_minor, r->currency, m, sizeof(m)),
		       r->item_date[0] ? r->item_date : "undated",
		       r->age_days[0] ? r->age_days : "0", cl_text_safe(sk, safe, sizeof(safe)));
		break;
	}
}

static int list(const struct cl_args *args, struct cl_db *db, const struct cl_break_filter *f)
{
	struct list_out o = { .format = args->format };
	struct cl_error err;

	if (cl_break_list(db, args->tenant ? args->tenant : "default", f, list_row, &o, &err) !=
	    CL_DB_OK)
		return cl_db_failed(&err);
	if (args->format == CL_OUT_TEXT && !cl_opt_quiet) {
		char t[512];

		printf("%lu open break%s%s%s\n", o.n, o.n == 1 ? "" : "s", o.n ? ": " : "",
		       cl_money_totals_text(&o.totals, t, sizeof(t)));
	}
	return cl_finish_stdout(CL_EXIT_OK);
}

static void print_answer(const struct cl_args *args, const char *action,
			 const struct cl_break_answer *a)
{
	char safe[1024];

	switch ((enum cl_out_format)args->format) {
	case CL_OUT_JSON: {
		static struct cl_json j;

		cl_json_begin(&j, stdout, "break_decision");
		cl_json_str(&j, "id", a->item_id);
		cl_json_str(&j, "action", action);
		cl_json_str(&j, "outcome", a->outcome);
		cl_json_str(&j, "detail", or_null(a->detail));
		cl_json_end(&j);
		break;
	}
	case CL_OUT_CSV: {
		const char *row[] = { a->item_id, action, a->outcome, or_null(a->detail) };

		cl_csv_row(stdout, row, 4);
		break;
	}
	case CL_OUT_TEXT:
		printf("%s %s: %s%s%s\n", action, a->item_id, a->outcome, a->detail[0] ? ": " : "",
		       cl_text_safe(a->detail, safe, sizeof(safe)));
		break;
	}
}

static int run(const struct cl_args *args, struct cl_db *db)
{
	int i = action_of(args->operands[0]);
	struct cl_break_filter f = { args->break_account, args->break_day, NULL,
				     args->break_reason };
	struct cl_break_result r;
	struct cl_error err;
	enum cl_break_action a;
	char *const *ids = args->operands + 1;
	size_t n = (size_t)args->noperands - 1, nrec = 0;
	char *const *recs = NULL;
	int code = CL_EXIT_OK;

	if (cl_schema_check(db, &err) != CL_DB_OK)
		return cl_db_failed(&err);
	if (actions[i].action < 0)
		return list(args, db, &f);
	a = (enum cl_break_action)actions[i].action;
	if (a == CL_BREAK_MATCH) {
		recs = ids + 1;
		nrec = n - 1;
		n = 1;
	}
	if (cl_break_decide(db, args->tenant ? args->tenant : "default", a, ids, n, recs, nrec, &f,
			    args->note, &r, &err) != CL_DB_OK) {
		cl_break_result_free(&r);
		return cl_db_failed(&err);
	}
	if (r.n == 0) {
		cl_msg("no open break the filter selects ('clearing-load break list' lists them)");
		cl_break_result_free(&r);
		return CL_EXIT_NOT_FOUND;
	}
	if (args->format == CL_OUT_CSV) {
		const char *head[] = { "id", "action", "outcome", "detail" };

		cl_csv_row(stdout, head, 4);
	}
	for (size_t k = 0; k < r.n; k++) {
		const struct cl_break_answer *x = &r.items[k];

		if (!r.committed && strcmp(x->outcome, "not_found") == 0)
			code = cl_exit_worse(code, CL_EXIT_NOT_FOUND);
		else if (!r.committed && strcmp(x->outcome, "refused") == 0)
			code = cl_exit_worse(code, CL_EXIT_USAGE);
		print_answer(args, actions[i].word, x);
	}
	if (!r.committed && !cl_opt_quiet)
		cl_msg("%s: nothing recorded (a decision is all or nothing)", actions[i].word);
	cl_break_result_free(&r);
	return cl_finish_stdout(code);
}

int cl_cmd_break(int argc, char **argv)
{
	struct cl_args args = { 0 };

	return cl_run_db_command(break_command, &args, argc, argv, run);
}
