/* cmd_reconcile.c - `clearing-load reconcile`: bank statements against the
 * loaded records, both ways (loader/reconcile.h). */
#include "cmd/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/mask.h"
#include "base/money.h"
#include "cmd/dbconn.h"
#include "cmd/options.h"
#include "cmd/recon_report.h"
#include "loader/interrupt.h"
#include "loader/load.h"
#include "loader/reconcile.h"
#include "loader/schema.h"
#include "parsers/iso20022.h"

/* --match: known references, comma-separated, each once. */
static bool valid_refs(const char *s)
{
	const char *p = s;

	if (!*s)
		return false;
	while (*p) {
		size_t n = strcspn(p, ",");

		if (!cl_recon_ref_known(p, n))
			return false;
		for (const char *q = s; q < p; q += strcspn(q, ",") + 1)
			if (strcspn(q, ",") == n && memcmp(q, p, n) == 0)
				return false;
		p += n;
		if (*p == ',' && *++p == '\0')
			return false;
	}
	return true;
}

/* --ach-company: ACH company ids (1 to 10 letters, digits or blanks),
 * comma-separated. */
static bool valid_companies(const char *s)
{
	const char *p = s;

	if (!*s)
		return false;
	while (*p) {
		size_t n = strcspn(p, ",");

		if (n == 0 || n > 10)
			return false;
		for (size_t i = 0; i < n; i++)
			if (!(p[i] == ' ' || (p[i] >= '0' && p[i] <= '9') ||
			      (p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= 'a' && p[i] <= 'z')))
				return false;
		p += n;
		if (*p == ',' && *++p == '\0')
			return false;
	}
	return true;
}

static void add_match_account(struct cl_args *args, const struct cl_option *opt, const char *arg)
{
	(void)opt;
	cl_list_add(args->match_account, CL_NLIST(args->match_account), &args->nmatch_account, arg);
}

/* --match-account ACCOUNT=REFS, each account once */
static int check_match_accounts(struct cl_args *args)
{
	if (args->nmatch_account > CL_NLIST(args->match_account))
		return cl_usage_error(args->cmd, "at most %zu --match-account at once",
				      CL_NLIST(args->match_account));
	for (unsigned i = 0; i < args->nmatch_account; i++) {
		const char *a = args->match_account[i], *eq = strchr(a, '=');
		size_t n = eq ? (size_t)(eq - a) : 0;

		if (!eq || n == 0 || n >= CL_ACCOUNT_MAX || !valid_refs(eq + 1))
			return cl_usage_error(
				args->cmd,
				"invalid --match-account \"%s\" (expected ACCOUNT=REFS: the account as "
				"its statements write it, the references as --match takes them)",
				a);
		for (unsigned j = 0; j < i; j++)
			if (strncmp(args->match_account[j], a, n + 1) == 0)
				return cl_usage_error(args->cmd, "--match-account: account %.*s twice",
						      (int)n, a);
	}
	return 0;
}

/* statement files only: not standard input, each one there; the
 * --match-account lists */
static int no_stdin(struct cl_args *args)
{
	int code = check_match_accounts(args);

	if (code)
		return code;
	for (int i = 0; i < args->noperands; i++)
		if (strcmp(args->operands[i], "-") == 0)
			return cl_usage_error(args->cmd,
					      "a statement is read twice (its statements, "
					      "then its load): give a file, not standard input");
	return cl_check_file_operands(args);
}

static const struct cl_option reconcile_command[] = {
	CL_OPT_USAGE("reconcile", CL_ANY_OPERANDS, "[OPTION]... [STATEMENT]..."),
	CL_OPT_TEXT("Match the entries of bank statements and status reports (camt.052, "
		    "camt.053, camt.054, BAI2, pacs.002) against the loaded records, both ways: "
		    "one item per entry and per record of ours the bank did not book, each "
		    "matched, unmatched_ours, unmatched_theirs, exception or suggested, and a "
		    "summary.  Each STATEMENT file is loaded first (as load loads it: a "
		    "re-delivered one is all duplicate); with none, the loaded statements no run "
		    "has reconciled yet.  Each match is recorded once, with its run."),
	CL_OPT_OPERAND("STATEMENT", "a statement or status report file"),
	CL_OPT_CHECKED(
		'm', "match", "REFS", match, valid_refs,
		"references, comma-separated, each once, of: uetr e2e tx_id "
		"instr_id trace acct_svcr_ref",
		"the references to match by, comma-separated, in order of trust (default: the "
		"UETR, EndToEndId, TxId, InstrId, ACH trace: uetr e2e tx_id instr_id trace; "
		"also acct_svcr_ref)"),
	CL_OPT_CALLBACK(0, "match-account", "ACCOUNT=REFS", add_match_account, 0,
			"for the statements of ACCOUNT (as they write it: an IBAN without blanks, "
			"a BAI2 account number), these references instead of --match's (a bank's "
			"own use of the fields); repeat it for each account"),
	CL_OPT_CHECKED(
		0, "ach-company", "IDS", ach_company, valid_companies,
		"ACH company ids of 1 to 10 letters, digits or blanks, comma-separated",
		"the ACH originators whose entries settle on the statements' account "
		"(their entries of a statement's period are unmatched ours when not booked)"),
	CL_OPT_TENANT(),
	CL_OPT_FORMAT(),
	CL_OPT_CSV_MAP(),
	CL_OPT_NO_MASK(),
	CL_OPT_DB(),
	CL_OPT_QUIET("print only the items that need a person (all but matched) and errors"),
	CL_OPT_COUNT('v', "verbose", verbose,
		     "text: list every matched item too (by default their count), and print "
		     "notes"),
	CL_OPT_STRING(0, "report", "FILE", report,
		      "also write the run as an HTML page for a person to FILE (breaks first, "
		      "their money per account and currency, their ageing; self-contained, "
		      "written atomically)"),
	CL_OPT_CHECK(no_stdin),
	CL_OPT_TEXT("Exit status: 0 everything matched (or unmatched ours, or suggested), 10 "
		    "differences (unmatched theirs or an exception), 2 usage error (also: the "
		    "--report FILE not written, the run committed), 3 invalid "
		    "statement, 4 a changed statement held, 5 database error, 6 a statement's "
		    "load outcome unknown (its load UUID is printed), 75 retry later, 78 "
		    "configuration, 130/143 interrupted (see 'clearing-load help')."),
	CL_OPT_END(),
};

/* The statuses whose entries text adds up, in the order it says them. */
static const char *const totalled[] = { "matched", "unmatched_theirs", "exception", "suggested" };
#define NTOTALLED (sizeof(totalled) / sizeof(totalled[0]))

#define NACCOUNTS 32
struct out {
	const char *file;
	int format;
	unsigned long items;
	/* text: the booked entries' amounts per status of totalled[] */
	struct cl_money_totals totals[NTOTALLED];
	/* text: matches not listed (without -v), and the open breaks' amounts
	   per account (the first NACCOUNTS; the rest under "other accounts") */
	unsigned long matched_hidden;
	struct cl_recon_report *report; /* --report, or NULL */
	struct {
		char account[CL_ACCOUNT_MAX + 1];
		struct cl_money_totals t;
	} open[NACCOUNTS + 1];
	size_t nopen;
};

/* An open break's amount (the entry's, else our record's) into its
 * account's total (text). */
static void add_open(struct out *o, const struct cl_recon_item *it)
{
	const char *acct = it->account ? it->account : "";
	const char *amount = it->entry_key ? it->amount_minor : it->record_amount;
	const char *ccy = it->entry_key ? it->currency : it->record_currency;
	size_t i;

	if (!amount)
		return;
	for (i = 0; i < o->nopen && strcmp(o->open[i].account, acct) != 0; i++)
		;
	if (i == o->nopen) {
		if (o->nopen == NACCOUNTS)
			i = NACCOUNTS; /* other accounts */
		else
			snprintf(o->open[o->nopen++].account, sizeof(o->open[0].account), "%s",
				 acct);
	}
	cl_money_add(&o->open[i].t, strtoll(amount, NULL, 10), ccy ? ccy : "");
}

/* The open breaks' money per account, and the matches not listed. */
static void text_totals(const struct out *o)
{
	char t[512], a[CL_ACCOUNT_MAX + 8];

	if (o->matched_hidden)
		printf("%lu matched (--verbose lists each)\n", o->matched_hidden);
	for (size_t i = 0; i <= NACCOUNTS; i++) {
		if (!o->open[i].t.n)
			continue;
		printf("open breaks of %s: %s\n",
		       i == NACCOUNTS	      ? "other accounts"
		       : o->open[i].account[0] ? cl_out_account(o->open[i].account, a, sizeof(a))
					       : "no account",
		       cl_money_totals_text(&o->open[i].t, t, sizeof(t)));
	}
}

/* A key with the given accounts masked (unless --no-mask); buf or key. */
static const char *masked(const char *key, const char *accounts, char *buf, size_t cap)
{
	const char *list[8];
	char copy[8 * CL_ACCOUNT_MAX + 8];
	size_t n = 0;

	if (!key || cl_opt_no_mask || !accounts)
		return key;
	snprintf(copy, sizeof(copy), "%s", accounts);
	for (char *p = strtok(copy, " "); p && n < 8; p = strtok(NULL, " "))
		list[n++] = p;
	cl_mask_in_key(key, list, n, buf, cap);
	return buf;
}

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* Minor units `minor` of `ccy` as money ("-0.01 EUR"), into buf. */
static const char *money(const char *minor, const char *ccy, char *buf, size_t cap)
{
	long long v = strtoll(or_empty(minor), NULL, 10);
	unsigned long long a = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	int exp = cl_iso_ccy_exponent(or_empty(ccy));
	unsigned long long scale = 1;
	size_t n;

	if (exp < 0 || exp > 6)
		exp = 0;
	for (int i = 0; i < exp; i++)
		scale *= 10;
	n = (size_t)snprintf(buf, cap, "%s%llu", v < 0 ? "-" : "", a / scale);
	if (n >= cap)
		return buf;
	if (exp > 0 && n + (size_t)exp + 1 < cap) {
		buf[n++] = '.';
		for (int i = exp - 1; i >= 0; i--, a /= 10)
			buf[n + (size_t)i] = (char)('0' + a % 10);
		n += (size_t)exp;
		buf[n] = '\0';
	}
	snprintf(buf + n, cap - n, " %s", or_empty(ccy));
	return buf;
}

/* What made the item's status, in words. */
static const char *why_text(const struct cl_recon_item *it, char *buf, size_t cap)
{
	const char *w = or_empty(it->why);
	bool whole_file = strcmp(or_empty(it->rule), "trace_file") == 0;

	if (strcmp(w, "matched") == 0 && strcmp(or_empty(it->rule), "msg_id") == 0)
		snprintf(buf, cap,
			 "a status of the whole original message (group status): attached to "
			 "its %s records",
			 or_empty(it->records));
	else if (strcmp(w, "matched") == 0 && it->batch_count)
		snprintf(buf, cap, "a %s of %s records, count and sum exact",
			 whole_file ? "whole ACH file" : "batch", or_empty(it->records));
	else if (strcmp(w, "matched") == 0 && it->instructed_ccy && it->currency &&
		 strcmp(it->instructed_ccy, it->currency) != 0) {
		char a[48];

		snprintf(buf, cap, "the amount instructed (%s) is ours, booked in %s",
			 money(it->instructed_minor, it->instructed_ccy, a, sizeof(a)),
			 it->currency);
	} else if (strcmp(w, "matched") == 0 && it->charges_minor && it->amount_minor &&
		   it->record_amount && strcmp(it->amount_minor, it->record_amount) != 0) {
		char a[48], c[48];

		snprintf(buf, cap, "the amount instructed (%s) is ours, booked net of charges of %s",
			 money(it->instructed_minor, it->instructed_ccy, a, sizeof(a)),
			 money(it->charges_minor, it->currency, c, sizeof(c)));
	} else if (strcmp(w, "several") == 0)
		snprintf(buf, cap, "%s records carry the reference: the nearest in date",
			 or_empty(it->candidates));
	else if (strcmp(w, "pending") == 0)
		snprintf(buf, cap,
			 "not booked yet (its status is not BOOK): the record of its reference, "
			 "not recorded as matched until a booked entry matches it");
	else if (strcmp(w, "reversed") == 0)
		snprintf(buf, cap,
			 "the bank reversed its booking (RvslInd) of our %s: linked to it as its "
			 "original, not recorded as a match",
			 or_empty(it->original_kind));
	else if (strcmp(w, "reverses_entry") == 0 || strcmp(w, "reversed_by_entry") == 0)
		snprintf(buf, cap,
			 "%s the bank's entry %s of this statement (RvslInd): the two cancel out, "
			 "neither is ours",
			 w[7] == 's' ? "reverses" : "reversed by", or_empty(it->original_key));
	else if (strcmp(w, "cancelled") == 0)
		snprintf(buf, cap,
			 "cancelled before the bank booked it: the cancellation was answered "
			 "(%s %s): not expected on the statement, not recorded as a match",
			 or_empty(it->original_kind), or_empty(it->original_key));
	else if (strcmp(w, "rejected") == 0 || strcmp(w, "returned") == 0)
		snprintf(buf, cap,
			 "%s before the bank booked it (%s %s): not expected on the statement, "
			 "not recorded as a match",
			 w[2] == 'j' ? "rejected" : "returned", or_empty(it->original_kind),
			 or_empty(it->original_key));
	else if (strcmp(w, "no_record") == 0)
		snprintf(buf, cap, "booked by the bank, no record of ours");
	else if (strcmp(w, "status_not_ours") == 0)
		snprintf(buf, cap, "a status of a payment we have no record of");
	else if (strcmp(w, "return_not_ours") == 0)
		snprintf(buf, cap,
			 "a return booked by the bank, no return of ours (it returns a %s)",
			 or_empty(it->original_kind));
	else if (strcmp(w, "no_batch") == 0)
		snprintf(buf, cap,
			 "a batch entry of %s transactions: no batch of ours by its "
			 "references",
			 or_empty(it->batch_count));
	else if (strcmp(w, "batch_differs") == 0)
		snprintf(buf, cap,
			 "our %s has %s records netting %s as booked (credits "
			 "positive), the entry %s transactions, %s %s",
			 whole_file ? "ACH file" : "batch", or_empty(it->records), or_empty(it->batch_total),
			 or_empty(it->batch_count), or_empty(it->amount_minor),
			 or_empty(it->direction));
	else if (strcmp(w, "suggested") == 0)
		snprintf(buf, cap,
			 "no reference matched: the same amount, currency, direction and "
			 "date (a suggestion, not a match)");
	else if (strcmp(w, "suggested_batch") == 0)
		snprintf(buf, cap,
			 "no reference matched: the net sum of our ACH %s%s %s, %s records dated "
			 "that day (a suggestion, not a match: a BAI2 detail has no item count)",
			 strstr(or_empty(it->rule), "_return_") ? "returns of the " : "",
			 strstr(or_empty(it->rule), "_file_") ? "file of load"
							      : "batch (load/company/batch)",
			 or_empty(it->reference), or_empty(it->records));
	else if (strcmp(w, "differs") == 0) {
		bool amount = it->amount_minor && it->record_amount &&
			      strcmp(it->amount_minor, it->record_amount) != 0;
		bool ccy = it->currency && it->record_currency &&
			   strcmp(it->currency, it->record_currency) != 0;

		if (amount || ccy)
			snprintf(buf, cap,
				 "the same reference (%s) with another %s%s%s (ours %s %s, "
				 "booked %s %s)",
				 or_empty(it->rule), amount ? "amount" : "",
				 amount && ccy ? " and " : "", ccy ? "currency" : "",
				 or_empty(it->record_amount), or_empty(it->record_currency),
				 or_empty(it->amount_minor), or_empty(it->currency));
		else
			snprintf(buf, cap, "the same reference (%s) booked the other way (%s)",
				 or_empty(it->rule), or_empty(it->direction));
	} else if (strcmp(w, "within_tolerance") == 0 || strcmp(w, "charges_expected") == 0) {
		char a[48], b[48], d[48];

		snprintf(buf, cap,
			 "the same reference (%s), booked %s, ours %s: a difference of %s %s "
			 "(the account's matching rule; recorded with the match)",
			 or_empty(it->rule), money(it->amount_minor, it->currency, a, sizeof(a)),
			 money(it->record_amount, it->record_currency, b, sizeof(b)),
			 money(it->difference_minor, it->currency, d, sizeof(d)),
			 w[0] == 'w' ? "within its tolerance" : "taken as the charges it expects");
	} else if (strcmp(w, "grouped") == 0)
		snprintf(buf, cap,
			 "no reference matched: the exact sum of %s records of ours sharing %s (%s) "
			 "that day, matched to each",
			 or_empty(it->records),
			 strstr(or_empty(it->rule), "pmt_inf") ? "a PmtInf"
			 : strstr(or_empty(it->rule), "msg")   ? "a message"
							       : "an ACH batch (load/company/batch)",
			 or_empty(it->reference));
	else if (strcmp(w, "suggested_group") == 0)
		snprintf(buf, cap,
			 "no reference matched: %s sets of our records sharing a reference that day "
			 "add up to it (a suggestion naming none: match it by hand)",
			 or_empty(it->candidates));
	else if (strcmp(w, "split") == 0) {
		char a[48];

		snprintf(buf, cap,
			 "our payment of %s booked in several entries of its reference (%s) that add "
			 "up to it",
			 money(it->record_amount, it->record_currency, a, sizeof(a)), or_empty(it->rule));
	} else if (strcmp(w, "outside_window") == 0)
		snprintf(buf, cap,
			 "the same reference (%s) on a record dated beyond the date window of the "
			 "account's matching rule",
			 or_empty(it->rule));
	else if (strcmp(w, "booked_twice") == 0)
		snprintf(buf, cap, "the bank booked this record more than once in the statement");
	else if (strcmp(w, "taken") == 0)
		snprintf(buf, cap, "already matched by an entry of another statement");
	else if (strcmp(w, "late_return") == 0)
		snprintf(buf, cap,
			 "a late return: booked past the return time frame of its reason "
			 "(2 banking days after the entry's effective date; 60 days for R05, R07, "
			 "R10, R11, R29, R51)");
	else if (strcmp(w, "rejected_booked") == 0)
		snprintf(buf, cap, "rejected by a status report (%s) but booked",
			 or_empty(it->rejected));
	else if (strcmp(w, "balance_break") == 0) {
		char d[48], o[48], k[48], c[48];

		snprintf(buf, cap,
			 "the balances do not add up: a break of %s (closing balance %s, opening "
			 "balance %s plus the booked entries is %s%s%s); its entries are matched "
			 "all the same",
			 money(it->amount_minor, it->currency, d, sizeof(d)),
			 money(it->bal_closing, it->currency, k, sizeof(k)),
			 money(it->bal_opening, it->currency, o, sizeof(o)),
			 money(it->bal_computed, it->currency, c, sizeof(c)),
			 it->bal_pages ? ", pages " : "", or_empty(it->bal_pages));
	} else if (strcmp(w, "page_missing") == 0) {
		if (it->bal_last_page)
			snprintf(buf, cap,
				 "page %s of %s not loaded (pages loaded: %s): the statement is "
				 "added up once every page is in",
				 or_empty(it->bal_missing), it->bal_last_page, or_empty(it->bal_pages));
		else
			snprintf(buf, cap,
				 "its last page not loaded (pages loaded: %s): the statement is "
				 "added up once every page is in",
				 or_empty(it->bal_pages));
	} else if (strcmp(w, "not_booked") == 0)
		snprintf(buf, cap, "applied by us (dated %s), not booked on the statement",
			 or_empty(it->record_date));
	else
		buf[0] = '\0';
	return buf;
}

/* The accounts a record's or an original's key may hold: the record's own
 * and the statement's (a pain.001 returned is keyed by our account). */
static const char *key_accounts(const struct cl_recon_item *it, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s %s", or_empty(it->record_accounts), or_empty(it->account));
	return buf;
}

/* A list of page numbers ("1,2") as a JSON array. */
static void json_pages(struct cl_json *j, const char *key, const char *list)
{
	const char *p = or_empty(list);

	cl_json_array(j, key);
	while (*p) {
		cl_json_int(j, NULL, strtoll(p, NULL, 10));
		p += strcspn(p, ",");
		p += *p == ',';
	}
	cl_json_array_end(j);
}

/* "balance": a statement's balance (balance_break, page_missing), else null. */
static void json_balance(struct cl_json *j, const struct cl_recon_item *it)
{
	const char *w = or_empty(it->why);

	if (strcmp(w, "balance_break") != 0 && strcmp(w, "page_missing") != 0) {
		cl_json_null(j, "balance");
		return;
	}
	cl_json_object(j, "balance");
#define NUM(key, v)                                              \
	do {                                                     \
		if (v)                                           \
			cl_json_int(j, key, strtoll(v, NULL, 10)); \
		else                                             \
			cl_json_null(j, key);                    \
	} while (0)
	NUM("opening_minor", it->bal_opening);
	NUM("closing_minor", it->bal_closing);
	NUM("computed_minor", it->bal_computed);
	NUM("difference_minor", it->amount_minor);
	cl_json_str(j, "currency", it->currency);
	json_pages(j, "pages", it->bal_pages);
	NUM("last_page", it->bal_last_page);
	json_pages(j, "missing_pages", it->bal_missing);
#undef NUM
	cl_json_object_end(j);
}

/* "id", "age_days", "first_reported" and "decision" (clearing-load break):
 * the decision in force, else null. */
static void json_decision(struct cl_json *j, const struct cl_recon_item *it)
{
	const char *w;

	cl_json_str(j, "id", it->item_id);
	if (it->age_days)
		cl_json_int(j, "age_days", strtoll(it->age_days, NULL, 10));
	else
		cl_json_null(j, "age_days");
	cl_json_str(j, "first_reported", it->first_reported);
	if (!it->decision) {
		cl_json_null(j, "decision");
		return;
	}
	cl_json_object(j, "decision");
	cl_json_str(j, "action", it->decision);
	cl_json_str(j, "by", it->decided_by);
	cl_json_str(j, "at", it->decided_at);
	cl_json_str(j, "reason", it->decision_reason);
	cl_json_array(j, "with");
	for (w = or_empty(it->decided_with); *w;) {
		char one[64];
		size_t n = strcspn(w, " ");

		snprintf(one, sizeof(one), "%.*s", (int)n, w);
		cl_json_str(j, NULL, one);
		w += n;
		w += *w == ' ';
	}
	cl_json_array_end(j);
	cl_json_object_end(j);
}

static void json_item(const struct cl_recon_item *it, const char *detail)
{
	static struct cl_json j;
	char sk[CL_KEY_MAX], ek[CL_KEY_MAX], rk[CL_KEY_MAX], ok[CL_KEY_MAX], acct[CL_ACCOUNT_MAX];
	char accts[4 * CL_ACCOUNT_MAX + 8];

	cl_json_begin(&j, stdout, "reconcile");
	cl_json_str(&j, CL_RECON_NAME(status), it->status);
	cl_json_str(&j, "reason", it->why);
	cl_json_str(&j, "detail", detail);
	cl_json_str(&j, "statement", masked(it->statement, it->account, sk, sizeof(sk)));
	cl_json_str(&j, CL_RECON_NAME(account),
		    it->account ? cl_out_account(it->account, acct, sizeof(acct)) : NULL);
	if (it->entry_key) {
		cl_json_object(&j, "entry");
		cl_json_str(&j, CL_FIELD_NAME(kind), it->entry_kind);
		cl_json_str(&j, "item", it->entry_item);
		cl_json_str(&j, "key", masked(it->entry_key, it->account, ek, sizeof(ek)));
		cl_json_int(&j, "load_id", strtoll(it->entry_load_id, NULL, 10));
		cl_json_int(&j, "line", strtoll(it->entry_position, NULL, 10));
		if (it->amount_minor)
			cl_json_int(&j, CL_RECON_NAME(amount_minor), strtoll(it->amount_minor, NULL, 10));
		else
			cl_json_null(&j, CL_RECON_NAME(amount_minor));
		cl_json_str(&j, CL_RECON_NAME(currency), it->currency);
		cl_json_str(&j, CL_RECON_NAME(direction), it->direction);
		cl_json_str(&j, CL_RECON_NAME(booking_date), it->booking_date);
		cl_json_str(&j, CL_FIELD_NAME(value_date), it->value_date);
		cl_json_str(&j, CL_RECON_NAME(payment_status), it->payment_status);
#define NUM(key, v)                                              \
	do {                                                     \
		if (v)                                           \
			cl_json_int(&j, key, strtoll(v, NULL, 10)); \
		else                                             \
			cl_json_null(&j, key);                    \
	} while (0)
		NUM("tx_index", it->tx_index);
		NUM("instructed_minor", it->instructed_minor);
		cl_json_str(&j, "instructed_currency", it->instructed_ccy);
		NUM("charges_minor", it->charges_minor);
		cl_json_object_end(&j);
	} else {
		cl_json_null(&j, "entry");
	}
	cl_json_str(&j, "rule", it->rule);
	cl_json_str(&j, "reference", it->reference);
	if (it->record_key) {
		cl_json_object(&j, "record");
		cl_json_str(&j, CL_FIELD_NAME(kind), it->record_kind);
		cl_json_str(&j, CL_FIELD_NAME(natural_key),
			    masked(it->record_key, key_accounts(it, accts, sizeof(accts)), rk,
				   sizeof(rk)));
		cl_json_int(&j, "load_id", strtoll(it->record_load_id, NULL, 10));
		cl_json_int(&j, CL_FIELD_NAME(position), strtoll(it->record_position, NULL, 10));
		cl_json_int(&j, "amount_minor", strtoll(or_empty(it->record_amount), NULL, 10));
		cl_json_str(&j, "currency", it->record_currency);
		cl_json_str(&j, "direction", it->record_direction);
		cl_json_object_end(&j);
	} else {
		cl_json_null(&j, "record");
	}
	if (it->records)
		cl_json_int(&j, "records", strtoll(it->records, NULL, 10));
	else
		cl_json_null(&j, "records");
	if (it->original_key) {
		cl_json_object(&j, "original");
		cl_json_str(&j, CL_FIELD_NAME(kind), it->original_kind);
		cl_json_str(&j, CL_FIELD_NAME(natural_key),
			    masked(it->original_key, key_accounts(it, accts, sizeof(accts)), ok,
				   sizeof(ok)));
		cl_json_object_end(&j);
	} else {
		cl_json_null(&j, "original");
	}
	NUM("difference_minor", it->difference_minor);
#undef NUM
	json_balance(&j, it);
	json_decision(&j, it);
	cl_json_end(&j);
}

static void csv_item(const struct cl_recon_item *it, const char *detail)
{
	char sk[CL_KEY_MAX], ek[CL_KEY_MAX], rk[CL_KEY_MAX], accts[4 * CL_ACCOUNT_MAX + 8];
	const char *row[] = {
		it->status,
		it->why,
		masked(it->statement, it->account, sk, sizeof(sk)),
		it->entry_kind,
		masked(it->entry_key, it->account, ek, sizeof(ek)),
		it->entry_position,
		it->amount_minor,
		it->currency,
		it->direction,
		it->booking_date,
		it->value_date,
		it->payment_status,
		it->rule,
		it->reference,
		it->record_kind,
		masked(it->record_key, key_accounts(it, accts, sizeof(accts)), rk, sizeof(rk)),
		it->record_load_id,
		it->record_position,
		it->record_amount,
		it->record_currency,
		it->record_direction,
		it->records,
		detail[0] ? detail : NULL,
		it->item_id,
		it->age_days,
		it->decision,
		it->decided_by,
		it->decided_at,
		it->decision_reason,
	};

	cl_csv_row(stdout, row, sizeof(row) / sizeof(row[0]));
}

static void text_item(const struct cl_recon_item *it, const char *detail)
{
	char ek[CL_KEY_MAX], rk[CL_KEY_MAX], safe[3 * CL_KEY_MAX], accts[4 * CL_ACCOUNT_MAX + 8];

	printf("%-16s", or_empty(it->status));
	if (it->entry_key) {
		printf(" %s line %s:",
		       cl_text_safe(masked(it->entry_key, it->account, ek, sizeof(ek)), safe,
				    sizeof(safe)),
		       or_empty(it->entry_position));
		if (it->amount_minor) {
			char m[64];

			printf(" %s", cl_money_text(it->amount_minor, it->currency, m, sizeof(m)));
		}
		if (it->direction)
			printf(" %s", it->direction);
		if (it->payment_status)
			printf(" status %s", it->payment_status);
	}
	if (it->reference)
		printf(" %s %s", or_empty(it->rule),
		       cl_text_safe(it->reference, safe, sizeof(safe)));
	if (it->record_key)
		printf("%s%s %s (load %s, line %s)", it->entry_key ? " -> " : " ",
		       or_empty(it->record_kind),
		       cl_text_safe(masked(it->record_key, key_accounts(it, accts, sizeof(accts)),
					   rk, sizeof(rk)),
				    safe, sizeof(safe)),
		       or_empty(it->record_load_id), or_empty(it->record_position));
	if (detail[0])
		printf(": %s", detail);
	putchar('\n');
	/* a break's id (clearing-load break) and age, on a line of its own */
	if (it->item_id)
		printf("%-16s id %s%s%s%s\n", "", it->item_id, it->age_days ? ", open " : "",
		       it->age_days ? it->age_days : "",
		       it->age_days ? (strcmp(it->age_days, "1") == 0 ? " day" : " days") : "");
}

/* An entry's amount into the total of its status (text). */
static void add_up(struct out *o, const struct cl_recon_item *it)
{
	for (size_t i = 0; i < NTOTALLED; i++)
		if (it->entry_key && it->amount_minor && strcmp(or_empty(it->status), totalled[i]) == 0)
			cl_money_add(&o->totals[i], strtoll(it->amount_minor, NULL, 10), it->currency);
}

/* What a person decided (who, when, why), then what reconcile found
 * (detail, rewritten in place). */
static void decision_text(const struct cl_recon_item *it, char *detail, size_t cap)
{
	char found[512];

	snprintf(found, sizeof(found), "%s", detail);
	if (snprintf(detail, cap, "%s by %s at %s (%s)%s%s; found: %s",
		     strcmp(it->decision, "matched_by_hand") == 0 ? "matched by hand"
		     : strcmp(it->decision, "written_off") == 0   ? "written off"
								  : "accepted",
		     or_empty(it->decided_by), or_empty(it->decided_at), or_empty(it->decision_reason),
		     it->decided_with ? " with " : "", or_empty(it->decided_with),
		     found[0] ? found : or_empty(it->why)) >= (int)cap)
		detail[cap - 1] = '\0'; /* cut: the JSON has each part */
}

static void on_item(void *ctx, const struct cl_recon_item *it)
{
	struct out *o = ctx;
	char detail[512];

	o->items++;
	why_text(it, detail, sizeof(detail));
	if (it->decision)
		decision_text(it, detail, sizeof(detail));
	if (o->report)
		cl_recon_report_item(o->report, it, detail);
	if (o->format == CL_OUT_TEXT) {
		add_up(o, it);
		if (cl_recon_open_status(it->status))
			add_open(o, it);
	}
	if (cl_opt_quiet && strcmp(or_empty(it->status), "matched") == 0)
		return;
	if (o->format == CL_OUT_TEXT && !cl_opt_verbose &&
	    strcmp(or_empty(it->status), "matched") == 0) {
		o->matched_hidden++;
		return;
	}
	if (o->format == CL_OUT_JSON)
		json_item(it, detail);
	else if (o->format == CL_OUT_CSV)
		csv_item(it, detail);
	else
		text_item(it, detail);
}

static void summary(const struct out *o, const struct cl_recon_summary *s)
{
	if (o->format == CL_OUT_JSON) {
		static struct cl_json j;

		cl_json_begin(&j, stdout, "reconcile_summary");
		cl_json_int(&j, "run_id", s->run_id);
		cl_json_uint(&j, "statements", s->statements);
		cl_json_uint(&j, "matched", s->matched);
		cl_json_uint(&j, "unmatched_ours", s->unmatched_ours);
		cl_json_uint(&j, "unmatched_theirs", s->unmatched_theirs);
		cl_json_uint(&j, "exception", s->exceptions);
		cl_json_uint(&j, "suggested", s->suggested);
		cl_json_uint(&j, "new_matches", s->new_matches);
		cl_json_uint(&j, "not_loaded", s->not_loaded);
		cl_json_uint(&j, "decided", s->decided);
		cl_json_end(&j);
		return;
	}
	if (cl_opt_quiet)
		return;
	if (o->format == CL_OUT_TEXT)
		text_totals(o);
	fprintf(o->format == CL_OUT_CSV ? stderr : stdout,
		"reconcile run %lld: %lu statement%s: %lu matched, %lu unmatched ours, %lu "
		"unmatched "
		"theirs, %lu exception%s, %lu suggested%s%.0lu%s (%lu new matches recorded)\n",
		s->run_id, s->statements, s->statements == 1 ? "" : "s", s->matched,
		s->unmatched_ours, s->unmatched_theirs, s->exceptions,
		s->exceptions == 1 ? "" : "s", s->suggested, s->decided ? ", " : "", s->decided,
		s->decided ? " decided" : "", s->new_matches);
	if (o->format != CL_OUT_TEXT)
		return;
	/* the money of the entries the bank booked, per status: "matched USD
	   1,234.56 (3); exception USD 2.00 (1)" */
	size_t said = 0;

	for (size_t i = 0; i < NTOTALLED; i++) {
		char t[512];

		if (o->totals[i].n)
			printf("%s%s %s", said++ ? "; " : "booked: ", totalled[i],
			       cl_money_totals_text(&o->totals[i], t, sizeof(t)));
	}
	if (said)
		putchar('\n');
}

static void on_load_error(void *ctx, const struct cl_error *err)
{
	const struct out *o = ctx;

	cl_report_error(o->file, err);
}

/* Load statement file `path` (a re-delivered one is all duplicate) and add
 * its statements to keys[]; returns its exit code (0: reconcile it). */
static int load_statement(struct cl_db *db, const struct cl_args *args, const char *path,
			  char ***keys, size_t *nkeys, size_t *cap)
{
	struct out o = { .file = path };
	struct cl_load_hooks hooks = { .ctx = &o,
				       .on_error = on_load_error,
				       .on_note = cl_note_if_verbose };
	struct cl_load_opts opts;
	struct cl_load_result *r = calloc(1, sizeof(*r));
	struct cl_error err;
	char **fk;
	size_t n;
	int code;

	if (!r)
		return CL_EXIT_DB;
	memset(&opts, 0, sizeof(opts));
	opts.tenant = args->tenant ? args->tenant : "default";
	cl_args_parse_opts(args, &opts.parse);
	if (cl_recon_file_keys(path, opts.parse.csv_map, &fk, &n, &err) != CL_OK) {
		cl_report_error(path, &err);
		free(r);
		return CL_EXIT_INVALID;
	}
	cl_load_file(db, path, &opts, &hooks, r);
	code = cl_exit_for_load(r);
	if (code == CL_EXIT_OK) {
		for (size_t i = 0; i < n; i++) {
			if (*nkeys == *cap) {
				*cap = *cap ? 2 * *cap : 8;
				*keys = realloc(*keys, *cap * sizeof(**keys));
				if (!*keys)
					abort();
			}
			(*keys)[(*nkeys)++] = fk[i];
			fk[i] = NULL;
		}
	} else if (r->outcome == CL_OUTCOME_FAILED || r->outcome == CL_OUTCOME_UNKNOWN) {
		cl_print_db_error(&r->err);
	} else {
		cl_msg("%s: %s, not reconciled: %s", path, cl_outcome_name(r->outcome), r->reason);
	}
	cl_recon_keys_free(fk, n);
	free(r);
	return code;
}

/* A SIGINT or SIGTERM came: what became of the run (`run`: the id of the
 * run that had committed, or 0), and the exit status, worse than `code`. */
static int interrupted(int code, long long run)
{
	if (run)
		cl_msg("interrupted after run %lld committed: its matches are recorded, its answer "
		       "not all printed (reconcile the same statements again for it: the same "
		       "answer, nothing recorded twice)",
		       run);
	else
		cl_msg("interrupted: the run rolled back, nothing of it recorded (the statements "
		       "loaded are reconciled by the next run without files)");
	return cl_exit_worse(code, CL_EXIT_SIGNAL + cl_interrupt_signal());
}

static int reconcile_run(const struct cl_args *args, struct cl_db *db, struct out *op);

/* The run, with its --report page: its file opened before anything is
 * recorded (a path that cannot be written is a usage error), written once
 * the run has committed, removed unwritten when it did not. */
static int reconcile(const struct cl_args *args, struct cl_db *db)
{
	static struct out o; /* (large: the totals per account) */
	int code;

	o.format = args->format;
	if (args->report && !(o.report = cl_recon_report_open(args->report)))
		return cl_usage_error(args->cmd, "cannot write --report %s: %s", args->report,
				      strerror(errno));
	code = reconcile_run(args, db, &o);
	if (o.report)
		cl_recon_report_abandon(o.report);
	return code;
}

static int reconcile_run(const struct cl_args *args, struct cl_db *db, struct out *op)
{
	struct cl_recon_opts ro = {
		.tenant = args->tenant ? args->tenant : "default",
		.refs = args->match,
		.ach_companies = args->ach_company,
		.account_refs = args->match_account,
		.naccount_refs = args->nmatch_account,
		.differences_only = args->quiet,
		/* text is for a person: what needs one first */
		.breaks_first = args->format == CL_OUT_TEXT,
	};
	struct out *o = op;
	struct cl_recon_summary s;
	struct cl_error err;
	char **keys = NULL;
	size_t nkeys = 0, cap = 0;
	int code = CL_EXIT_OK;
	enum cl_db_status st;

	if (cl_schema_check(db, &err) != CL_DB_OK || cl_recon_session(db, &err) != CL_DB_OK)
		return cl_db_failed(&err);
	if (args->format == CL_OUT_CSV) {
		const char *const head[] = {
			CL_RECON_NAME(status),
			"reason",
			"statement",
			"entry_kind",
			"entry_key",
			"entry_line",
			CL_RECON_NAME(amount_minor),
			CL_RECON_NAME(currency),
			CL_RECON_NAME(direction),
			CL_RECON_NAME(booking_date),
			CL_FIELD_NAME(value_date),
			CL_RECON_NAME(payment_status),
			"rule",
			"reference",
			"record_kind",
			"record_key",
			"record_load_id",
			"record_position",
			"record_amount_minor",
			"record_currency",
			"record_direction",
			"records",
			"detail",
			"id",
			"age_days",
			"decision",
			"decided_by",
			"decided_at",
			"decision_reason",
		};

		cl_csv_row(stdout, head, sizeof(head) / sizeof(head[0]));
	}
	cl_interrupt_install();
	for (int i = 0; i < args->noperands; i++) {
		code = cl_exit_worse(
			code, load_statement(db, args, args->operands[i], &keys, &nkeys, &cap));
		if (cl_interrupt_signal()) {
			/* what became of the file was said */
			cl_recon_keys_free(keys, nkeys);
			return interrupted(code, 0);
		}
	}
	if (!args->noperands &&
	    (st = cl_recon_pending(db, ro.tenant, &keys, &nkeys, &err)) != CL_DB_OK)
		return cl_interrupt_signal() ? interrupted(code, 0) : cl_db_failed(&err);
	if (!db->conn && cl_db_connect(db, db->conninfo, &err) != CL_DB_OK) {
		cl_recon_keys_free(keys, nkeys);
		return cl_exit_worse(code, cl_db_failed(&err));
	}
	st = cl_reconcile(db, &ro, keys, nkeys, on_item, o, &s, &err);
	cl_recon_keys_free(keys, nkeys);
	if (st != CL_DB_OK && cl_interrupt_signal())
		return interrupted(code, s.run_id);
	if (st != CL_DB_OK)
		return cl_exit_worse(code, cl_db_failed(&err));
	summary(o, &s);
	if (s.unmatched_theirs || s.exceptions)
		code = cl_exit_worse(code, CL_EXIT_DIFFERENCES);
	if (o->report) {
		struct cl_recon_report *r = o->report;

		o->report = NULL;
		if (!cl_recon_report_finish(r, &s, ro.tenant)) {
			cl_msg("run %lld committed, its report %s not written: %s", s.run_id,
			       args->report, strerror(errno));
			code = cl_exit_worse(code, CL_EXIT_USAGE);
		}
	}
	return cl_finish_stdout(code);
}

int cl_cmd_reconcile(int argc, char **argv)
{
	struct cl_args args = { 0 };

	return cl_run_db_command(reconcile_command, &args, argc, argv, reconcile);
}
