/* recon_report.c - reconcile's HTML page of a run (recon_report.h). */
#include "cmd/recon_report.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/money.h"
#include "base/xmalloc.h"
#include "cmd/cli.h"

/* An item kept for the page: a break or a decided item. */
struct kept {
	char *id, *status, *reason, *account, *amount, *ccy, *date, *age, *reference, *detail,
		*decided_by, *decided_at, *decision_reason;
};

/* The open breaks' money per account and currency. */
struct total {
	char *account;
	char ccy[4];
	int64_t sum;
	unsigned long n;
};

/* Ageing buckets of the open breaks (days): their upper bounds. */
static const long bucket_max[] = { 7, 30, 90, -1 };
static const char *const bucket_name[] = { "0-7", "8-30", "31-90", "over 90" };
#define NBUCKETS (sizeof(bucket_max) / sizeof(bucket_max[0]))

struct cl_recon_report {
	char *path, *tmp;
	FILE *f;
	struct kept *breaks, *decided;
	size_t nbreaks, capb, ndecided, capd;
	struct total *totals;
	size_t ntotals, capt;
	unsigned long buckets[NBUCKETS], matched;
};

struct cl_recon_report *cl_recon_report_open(const char *path)
{
	struct cl_recon_report *r = cl_xcalloc(1, sizeof(*r));
	size_t n = strlen(path) + 32;

	r->path = cl_xstrdup(path);
	r->tmp = cl_xmalloc(n);
	snprintf(r->tmp, n, "%s.tmp.%ld", path, (long)getpid());
	if (!(r->f = fopen(r->tmp, "w"))) {
		int e = errno;

		free(r->tmp);
		free(r->path);
		free(r);
		errno = e;
		return NULL;
	}
	return r;
}

static char *dup_or_null(const char *s)
{
	return s ? cl_xstrdup(s) : NULL;
}

static void add_total(struct cl_recon_report *r, const char *account, const char *amount,
		      const char *ccy)
{
	size_t i;

	account = account ? account : "";
	ccy = ccy ? ccy : "";
	for (i = 0; i < r->ntotals; i++)
		if (strcmp(r->totals[i].account, account) == 0 && strcmp(r->totals[i].ccy, ccy) == 0)
			break;
	if (i == r->ntotals) {
		if (r->ntotals == r->capt) {
			r->capt = r->capt ? 2 * r->capt : 8;
			r->totals = cl_xrealloc(r->totals, r->capt * sizeof(*r->totals));
		}
		memset(&r->totals[i], 0, sizeof(r->totals[i]));
		r->totals[i].account = cl_xstrdup(account);
		snprintf(r->totals[i].ccy, sizeof(r->totals[i].ccy), "%s", ccy);
		r->ntotals++;
	}
	r->totals[i].sum += amount ? strtoll(amount, NULL, 10) : 0;
	r->totals[i].n++;
}

void cl_recon_report_item(struct cl_recon_report *r, const struct cl_recon_item *it,
			  const char *detail)
{
	bool brk = cl_recon_open_status(it->status);
	struct kept k;

	if (it->status && strcmp(it->status, "matched") == 0) {
		r->matched++;
		return;
	}
	if (!brk && !it->decision)
		return;
	k.id = dup_or_null(it->item_id);
	k.status = dup_or_null(it->status);
	k.reason = dup_or_null(it->why);
	k.account = dup_or_null(it->account);
	k.amount = dup_or_null(it->entry_key ? it->amount_minor : it->record_amount);
	k.ccy = dup_or_null(it->entry_key ? it->currency : it->record_currency);
	k.date = dup_or_null(it->booking_date  ? it->booking_date
			     : it->value_date ? it->value_date
					      : it->record_date);
	k.age = dup_or_null(it->age_days);
	k.reference = dup_or_null(it->reference);
	k.detail = dup_or_null(detail);
	k.decided_by = dup_or_null(it->decided_by);
	k.decided_at = dup_or_null(it->decided_at);
	k.decision_reason = dup_or_null(it->decision_reason);
	if (brk) {
		long age = it->age_days ? strtol(it->age_days, NULL, 10) : 0;
		size_t b = 0;

		while (bucket_max[b] >= 0 && age > bucket_max[b])
			b++;
		r->buckets[b]++;
		add_total(r, it->account, k.amount, k.ccy);
		if (r->nbreaks == r->capb) {
			r->capb = r->capb ? 2 * r->capb : 16;
			r->breaks = cl_xrealloc(r->breaks, r->capb * sizeof(*r->breaks));
		}
		r->breaks[r->nbreaks++] = k;
	} else {
		if (r->ndecided == r->capd) {
			r->capd = r->capd ? 2 * r->capd : 16;
			r->decided = cl_xrealloc(r->decided, r->capd * sizeof(*r->decided));
		}
		r->decided[r->ndecided++] = k;
	}
}

/* s HTML-escaped (text and attribute values alike); NULL as "". */
static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			if ((unsigned char)*s < 0x20 && *s != '\t')
				fputc(' ', f);
			else
				fputc(*s, f);
		}
	}
}

static const char *acct_out(const char *a, char *buf, size_t cap)
{
	return a && *a ? cl_out_account(a, buf, cap) : "";
}

static void money_cell(FILE *f, const char *amount, const char *ccy)
{
	char m[64];

	fputs("<td class=\"num\" data-amount-minor=\"", f);
	esc(f, amount);
	fputs("\" data-ccy=\"", f);
	esc(f, ccy);
	fputs("\">", f);
	if (amount)
		esc(f, cl_money_text(amount, ccy, m, sizeof(m)));
	fputs("</td>", f);
}

static void cell(FILE *f, const char *v)
{
	fputs("<td>", f);
	esc(f, v);
	fputs("</td>", f);
}

static void count_row(FILE *f, const char *key, unsigned long v)
{
	fprintf(f, "<tr><th>%s</th><td class=\"num\" data-key=\"%s\" data-value=\"%lu\">%lu</td></tr>\n",
		key, key, v, v);
}

static void attr(FILE *f, const char *name, const char *v)
{
	fprintf(f, " %s=\"", name);
	esc(f, v);
	fputc('"', f);
}

/* A kept item's <tr> (its id and state as data for a reader, a break's
 * class and age too) and its first cells, the id and the status. */
static void row_open(FILE *f, const struct kept *k, bool brk)
{
	fputs("<tr", f);
	if (brk)
		attr(f, "class", k->status);
	attr(f, "data-id", k->id);
	attr(f, "data-state", k->status);
	if (brk)
		attr(f, "data-age-days", k->age);
	fputc('>', f);
	cell(f, k->id);
	cell(f, k->status);
}

static void page(struct cl_recon_report *r, const struct cl_recon_summary *s, const char *tenant)
{
	FILE *f = r->f;
	char a[CL_ACCOUNT_MAX + 8];

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", f);
	fprintf(f, "<title>clearing-load reconcile run %lld</title>\n", s->run_id);
	fputs("<style>\n"
	      "body{font-family:sans-serif;margin:1.5em;color:#222}\n"
	      "table{border-collapse:collapse;margin:0.5em 0 1.5em}\n"
	      "th,td{border:1px solid #bbb;padding:0.2em 0.6em;text-align:left;"
	      "vertical-align:top}\n"
	      "th{background:#eee}\n.num{text-align:right;white-space:nowrap}\n"
	      "tr.exception td,tr.unmatched_theirs td{background:#fde8e8}\n"
	      "tr.unmatched_ours td,tr.suggested td{background:#fdf6e0}\n"
	      "</style>\n</head>\n<body>\n", f);
	fprintf(f, "<h1>Reconcile run <span id=\"run\" data-run-id=\"%lld\">%lld</span></h1>\n",
		s->run_id, s->run_id);
	fputs("<p>Tenant <span id=\"tenant\">", f);
	esc(f, tenant);
	fprintf(f, "</span>: %lu open break%s, %lu matched.</p>\n", (unsigned long)r->nbreaks,
		r->nbreaks == 1 ? "" : "s", r->matched);

	fputs("<h2>Counts</h2>\n<table id=\"summary\">\n", f);
	count_row(f, "statements", s->statements);
	count_row(f, "matched", s->matched);
	count_row(f, "unmatched_ours", s->unmatched_ours);
	count_row(f, "unmatched_theirs", s->unmatched_theirs);
	count_row(f, "exception", s->exceptions);
	count_row(f, "suggested", s->suggested);
	count_row(f, "decided", s->decided);
	count_row(f, "new_matches", s->new_matches);
	fputs("</table>\n", f);

	fputs("<h2>Open breaks per account and currency</h2>\n<table id=\"totals\">\n"
	      "<tr><th>account</th><th>currency</th><th>breaks</th><th>amount</th></tr>\n", f);
	for (size_t i = 0; i < r->ntotals; i++) {
		char sum[24], n[24];

		snprintf(sum, sizeof(sum), "%lld", (long long)r->totals[i].sum);
		snprintf(n, sizeof(n), "%lu", r->totals[i].n);
		fputs("<tr>", f);
		cell(f, acct_out(r->totals[i].account, a, sizeof(a)));
		cell(f, r->totals[i].ccy);
		fprintf(f, "<td class=\"num\" data-count=\"%s\">%s</td>", n, n);
		money_cell(f, sum, r->totals[i].ccy);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);

	fputs("<h2>Ageing of the open breaks</h2>\n<table id=\"ageing\">\n"
	      "<tr><th>days open</th><th>breaks</th></tr>\n", f);
	for (size_t b = 0; b < NBUCKETS; b++)
		fprintf(f, "<tr><th>%s</th><td class=\"num\" data-bucket=\"%s\" data-count=\"%lu\">"
			   "%lu</td></tr>\n",
			bucket_name[b], bucket_name[b], r->buckets[b], r->buckets[b]);
	fputs("</table>\n", f);

	fputs("<h2>Breaks</h2>\n<table id=\"breaks\">\n<tr><th>id</th><th>status</th>"
	      "<th>reason</th><th>account</th><th>amount</th><th>date</th><th>days open</th>"
	      "<th>reference</th><th>what reconcile found</th></tr>\n", f);
	for (size_t i = 0; i < r->nbreaks; i++) {
		const struct kept *k = &r->breaks[i];

		row_open(f, k, true);
		cell(f, k->reason);
		cell(f, acct_out(k->account, a, sizeof(a)));
		money_cell(f, k->amount, k->ccy);
		cell(f, k->date);
		fputs("<td class=\"num\">", f);
		esc(f, k->age);
		fputs("</td>", f);
		cell(f, k->reference);
		cell(f, k->detail);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);

	fputs("<h2>Decided</h2>\n<table id=\"decided\">\n<tr><th>id</th><th>decision</th>"
	      "<th>account</th><th>amount</th><th>by</th><th>at</th><th>why</th></tr>\n", f);
	for (size_t i = 0; i < r->ndecided; i++) {
		const struct kept *k = &r->decided[i];

		row_open(f, k, false);
		cell(f, acct_out(k->account, a, sizeof(a)));
		money_cell(f, k->amount, k->ccy);
		cell(f, k->decided_by);
		cell(f, k->decided_at);
		cell(f, k->decision_reason);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
	fprintf(f, "<p id=\"matched\" data-count=\"%lu\">%lu matched (listed by reconcile "
		   "&#8209;&#8209;verbose)</p>\n</body>\n</html>\n",
		r->matched, r->matched);
}

static void kept_free(struct kept *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(k[i].id);
		free(k[i].status);
		free(k[i].reason);
		free(k[i].account);
		free(k[i].amount);
		free(k[i].ccy);
		free(k[i].date);
		free(k[i].age);
		free(k[i].reference);
		free(k[i].detail);
		free(k[i].decided_by);
		free(k[i].decided_at);
		free(k[i].decision_reason);
	}
	free(k);
}

static void report_free(struct cl_recon_report *r)
{
	kept_free(r->breaks, r->nbreaks);
	kept_free(r->decided, r->ndecided);
	for (size_t i = 0; i < r->ntotals; i++)
		free(r->totals[i].account);
	free(r->totals);
	free(r->tmp);
	free(r->path);
	free(r);
}

bool cl_recon_report_finish(struct cl_recon_report *r, const struct cl_recon_summary *s,
			    const char *tenant)
{
	bool ok;
	int e = 0;

	page(r, s, tenant);
	ok = fflush(r->f) == 0 && fsync(fileno(r->f)) == 0;
	if (!ok)
		e = errno;
	if (fclose(r->f) != 0 && ok) {
		ok = false;
		e = errno;
	}
	if (ok && rename(r->tmp, r->path) != 0) {
		ok = false;
		e = errno;
	}
	if (!ok)
		unlink(r->tmp);
	report_free(r);
	errno = e;
	return ok;
}

void cl_recon_report_abandon(struct cl_recon_report *r)
{
	fclose(r->f);
	unlink(r->tmp);
	report_free(r);
}
