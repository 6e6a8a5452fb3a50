/* show_summary.c - show for a person: a few lines per record (show_summary.h). */
#include "cmd/show_summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mask.h"
#include "cmd/cli.h"
#include "rules/statement_fields.h"

/* Column `name` of a row, NULL when absent or SQL NULL. */
static const char *get(const struct cl_kv *kv, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(kv[i].name, name) == 0)
			return kv[i].value && *kv[i].value ? kv[i].value : NULL;
	return NULL;
}

static const struct cl_kv *col(const struct cl_kv *kv, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(kv[i].name, name) == 0)
			return &kv[i];
	return NULL;
}

/* A value from a sender, made safe for the terminal (times with their
 * offset, as the verbose lines print them). */
static const char *safe(const char *v, char *buf, size_t cap)
{
	return cl_text_time(v ? v : "", buf, cap);
}

/* The file's last component: the full path is in --verbose. */
static const char *base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path ? path : "";
}

/* "USD 126.94 credit, value date 2026-03-02" of a record or a version. */
static void amount_line(const struct cl_kv *kv, int n, char *buf, size_t cap)
{
	const char *minor = get(kv, n, CL_FIELD_NAME(amount_minor));
	const char *ccy = get(kv, n, CL_FIELD_NAME(currency));
	const char *dir = get(kv, n, CL_FIELD_NAME(direction));
	const char *date = get(kv, n, CL_FIELD_NAME(value_date));
	char m[64];

	/* (a cancellation's answer names no amount: no currency either) */
	snprintf(buf, cap, "%s%s%s%s%s",
		 minor && ccy ? cl_money_text(minor, ccy, m, sizeof(m)) : "no amount",
		 dir ? " " : "", dir ? dir : "", date ? ", value date " : "", date ? date : "");
}

/* The parties: accounts (masked unless --no-mask), the banks and the
 * originator, "name value" each, those the record has. */
static void parties_line(const struct cl_kv *kv, int n)
{
	static const char *const names[] = {
		"receiving_account", "receiving_dfi", "company_id",  "debtor_account",
		"debtor_agent",      "creditor_account", "creditor_agent", "instructing_agent",
		"instructed_agent",  "initiating_party_id",
	};
	bool any = false;

	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		const struct cl_kv *c = col(kv, n, names[k]);
		char acct[128], s[256];

		if (!c || !c->value || !*c->value)
			continue;
		printf("%s%s %s", any ? ", " : "  parties    ", names[k],
		       safe(c->account ? cl_out_account(c->value, acct, sizeof(acct)) : c->value, s,
			    sizeof(s)));
		any = true;
	}
	if (any)
		putchar('\n');
}

/* A direct debit's mandate: "mandate M signed D, SEQ, creditor C", what
 * the record has of it; nothing for other records. */
static void mandate_line(const struct cl_kv *kv, int n)
{
	const char *id = get(kv, n, CL_FIELD_NAME(mandate_id));
	const char *date = get(kv, n, CL_FIELD_NAME(mandate_date));
	const char *seq = get(kv, n, CL_FIELD_NAME(sequence_type));
	const char *cdtr = get(kv, n, CL_FIELD_NAME(creditor_scheme_id));
	char a[256], b[256];

	if (!(id && *id) && !(seq && *seq) && !(cdtr && *cdtr))
		return;
	printf("  mandate    %s", id && *id ? safe(id, a, sizeof(a)) : "(none)");
	if (date && *date)
		printf(" signed %s", date);
	if (seq && *seq)
		printf(", %s", safe(seq, b, sizeof(b)));
	if (cdtr && *cdtr)
		printf(", creditor %s", safe(cdtr, a, sizeof(a)));
	putchar('\n');
}

/* A natural key as output shows it: the row's accounts masked in it. */
static const char *key_of(const struct cl_kv *kv, int n, const char *name, char *buf, size_t cap)
{
	const char *accts[CL_HISTORY_MAX_COLS], *key = get(kv, n, name);
	size_t na = 0;

	if (!key)
		return "";
	for (int i = 0; i < n; i++)
		if (kv[i].account && kv[i].value && *kv[i].value)
			accts[na++] = kv[i].value;
	if (!cl_opt_no_mask && na && cl_mask_in_key(key, accts, na, buf, cap))
		return buf;
	return key;
}

static void flush_events(struct cl_show_summary *s)
{
	unsigned long shown = s->events < CL_SHOW_LAST_EVENTS ? s->events : CL_SHOW_LAST_EVENTS;

	if (!s->events)
		return;
	printf("  events     %lu (", s->events);
	for (int i = 0; i < s->nreasons; i++)
		printf("%s%lu %s", i ? ", " : "", s->reasons[i].n, s->reasons[i].name);
	printf(")%s\n", s->events > shown ? "; the last ones:" : ":");
	for (unsigned long k = s->events - shown; k < s->events; k++)
		printf("    %s\n", s->last[k % CL_SHOW_LAST_EVENTS]);
	s->events = 0;
	s->nreasons = 0;
}

static void count_reason(struct cl_show_summary *s, const char *reason)
{
	int i;

	for (i = 0; i < s->nreasons && strcmp(s->reasons[i].name, reason) != 0; i++)
		;
	if (i == s->nreasons) {
		if (i == (int)(sizeof(s->reasons) / sizeof(s->reasons[0])))
			i--; /* the journal has fewer reasons than this */
		else
			s->nreasons++;
		snprintf(s->reasons[i].name, sizeof(s->reasons[i].name), "%s", reason);
		s->reasons[i].n = 0;
	}
	s->reasons[i].n++;
}

static void event(struct cl_show_summary *s, const struct cl_kv *kv, int n)
{
	const char *reason = get(kv, n, "reason"), *fields = get(kv, n, "fields");
	char t[64], f[256], *line = s->last[s->events % CL_SHOW_LAST_EVENTS];

	count_reason(s, reason ? reason : "?");
	snprintf(line, sizeof(s->last[0]), "%s  %-14s load %s %-11s %s line %s%s%s",
		 safe(get(kv, n, "created_at"), t, sizeof(t)), reason ? reason : "?",
		 get(kv, n, "load_id") ? get(kv, n, "load_id") : "?",
		 get(kv, n, "outcome") ? get(kv, n, "outcome") : "",
		 safe(base_name(get(kv, n, "file_name")), f, sizeof(f)),
		 get(kv, n, CL_FIELD_NAME(position)) ? get(kv, n, CL_FIELD_NAME(position)) : "?",
		 fields ? ", differs in " : "", fields ? fields : "");
	s->events++;
}

static void record(struct cl_show_summary *s, const struct cl_kv *kv, int n)
{
	const char *minor = get(kv, n, CL_FIELD_NAME(amount_minor));
	char key[4 * CL_KEY_MAX], k[CL_KEY_MAX], a[256], f[1024];

	if (s->records)
		putchar('\n');
	s->records++;
	s->parked = s->reconciled = 0;
	printf("%s %s  tenant %s\n", get(kv, n, CL_FIELD_NAME(kind)) ? get(kv, n, CL_FIELD_NAME(kind)) : "",
	       safe(key_of(kv, n, CL_FIELD_NAME(natural_key), k, sizeof(k)), key, sizeof(key)),
	       get(kv, n, "tenant") ? get(kv, n, "tenant") : "");
	amount_line(kv, n, a, sizeof(a));
	printf("  amount     %s\n", a);
	if (minor && get(kv, n, CL_FIELD_NAME(currency)))
		cl_money_add(&s->totals, strtoll(minor, NULL, 10), get(kv, n, CL_FIELD_NAME(currency)));
	parties_line(kv, n);
	mandate_line(kv, n);
	printf("  file       %s line %s\n", safe(get(kv, n, "file_name"), f, sizeof(f)),
	       get(kv, n, CL_FIELD_NAME(position)) ? get(kv, n, CL_FIELD_NAME(position)) : "?");
}

static void load(const struct cl_kv *kv, int n)
{
	char t[64];

	printf("  status     applied by load %s (%s %s)\n",
	       get(kv, n, "load_id") ? get(kv, n, "load_id") : "?",
	       get(kv, n, "outcome") ? get(kv, n, "outcome") : "",
	       safe(get(kv, n, "finished_at") ? get(kv, n, "finished_at") : get(kv, n, "started_at"),
		    t, sizeof(t)));
}

static void parked(struct cl_show_summary *s, const struct cl_kv *kv, int n)
{
	char a[256], f[256], k[CL_KEY_MAX], key[4 * CL_KEY_MAX];

	if (++s->parked > CL_SHOW_MAX_FACTS) {
		if (s->parked == CL_SHOW_MAX_FACTS + 1)
			printf("  parked     more versions: --verbose lists every one\n");
		return;
	}
	amount_line(kv, n, a, sizeof(a));
	printf("  parked     load %s (%s) %s line %s: %s, key %s\n",
	       get(kv, n, "load_id") ? get(kv, n, "load_id") : "?",
	       get(kv, n, "load_outcome") ? get(kv, n, "load_outcome") : "",
	       safe(base_name(get(kv, n, "file_name")), f, sizeof(f)),
	       get(kv, n, CL_FIELD_NAME(position)) ? get(kv, n, CL_FIELD_NAME(position)) : "?", a,
	       safe(key_of(kv, n, CL_FIELD_NAME(natural_key), k, sizeof(k)), key, sizeof(key)));
}

static void reconciled(struct cl_show_summary *s, const struct cl_kv *kv, int n)
{
	char f[256];

	if (++s->reconciled > CL_SHOW_MAX_FACTS) {
		if (s->reconciled == CL_SHOW_MAX_FACTS + 1)
			printf("  reconciled more matches: --verbose lists every one\n");
		return;
	}
	if (get(kv, n, "payment_status")) {
		/* a status report's answer: what it said of the payment */
		const char *why = get(kv, n, "status_reason");

		printf("  status %s%s%s by %s %s line %s (rule %s, run %s)\n",
		       get(kv, n, "payment_status"), why ? " " : "", why ? why : "",
		       get(kv, n, "entry_kind") ? get(kv, n, "entry_kind") : "",
		       safe(base_name(get(kv, n, "entry_file")), f, sizeof(f)),
		       get(kv, n, "entry_position") ? get(kv, n, "entry_position") : "?",
		       get(kv, n, "rule") ? get(kv, n, "rule") : "?",
		       get(kv, n, "run_id") ? get(kv, n, "run_id") : "?");
		return;
	}
	printf("  reconciled %s %s line %s, booked %s (rule %s, run %s)\n",
	       get(kv, n, "entry_kind") ? get(kv, n, "entry_kind") : "",
	       safe(base_name(get(kv, n, "entry_file")), f, sizeof(f)),
	       get(kv, n, "entry_position") ? get(kv, n, "entry_position") : "?",
	       get(kv, n, CL_STMT_COLUMN(booking_date)) ? get(kv, n, CL_STMT_COLUMN(booking_date))
							: "?",
	       get(kv, n, "rule") ? get(kv, n, "rule") : "?",
	       get(kv, n, "run_id") ? get(kv, n, "run_id") : "?");
}

/* A decision on the record as a break (clearing-load break). */
static void decision(const struct cl_kv *kv, int n)
{
	char r[512];
	const char *with = get(kv, n, "decided_with");

	printf("  decided    %s by %s at %s: %s (%s%s%s)\n",
	       get(kv, n, "decision") ? get(kv, n, "decision") : "?",
	       get(kv, n, "decided_by") ? get(kv, n, "decided_by") : "?",
	       get(kv, n, "decided_at") ? get(kv, n, "decided_at") : "?",
	       safe(get(kv, n, "decision_reason"), r, sizeof(r)),
	       get(kv, n, "item_id") ? get(kv, n, "item_id") : "?", with ? " with " : "",
	       with ? with : "");
}

/* A cancellation request naming the record, or its answer: "cancellation
 * requested on T (camt.056 KEY, reason R)", "cancellation answered CNCL on
 * T (camt.029 KEY)", T when it was loaded. */
static void cancellation(const struct cl_kv *kv, int n)
{
	const char *kind = get(kv, n, "cancellation_kind");
	const char *st = get(kv, n, CL_FIELD_NAME(cancellation_status));
	const char *rsn = get(kv, n, "cancellation_reason");
	char k[4 * CL_KEY_MAX], s[64], r[128], t[64];

	safe(get(kv, n, "cancellation_key"), k, sizeof(k));
	safe(get(kv, n, "loaded_at"), t, sizeof(t));
	if (kind && strcmp(kind, "camt.056") == 0)
		printf("  cancellation requested on %s (camt.056 %s%s%s)\n", t, k,
		       rsn ? ", reason " : "", rsn ? safe(rsn, r, sizeof(r)) : "");
	else
		printf("  cancellation answered %s on %s (%s %s)\n",
		       st ? safe(st, s, sizeof(s)) : "without a status", t, kind ? kind : "?", k);
}

void cl_show_summary_row(void *ctx, const char *section, const struct cl_kv *kv, int n)
{
	struct cl_show_summary *s = ctx;

	if (strcmp(section, "event") == 0) {
		event(s, kv, n);
		return;
	}
	flush_events(s);
	if (strcmp(section, "record") == 0)
		record(s, kv, n);
	else if (strcmp(section, "load") == 0)
		load(kv, n);
	else if (strcmp(section, "quarantine") == 0)
		parked(s, kv, n);
	else if (strcmp(section, "reconciled") == 0)
		reconciled(s, kv, n);
	else if (strcmp(section, "decision") == 0)
		decision(kv, n);
	else if (strcmp(section, "cancellation") == 0)
		cancellation(kv, n);
}

void cl_show_summary_end(struct cl_show_summary *s)
{
	char t[512];

	flush_events(s);
	if (s->records > 1)
		printf("\n%lu records: %s\n", s->records,
		       cl_money_totals_text(&s->totals, t, sizeof(t)));
}
