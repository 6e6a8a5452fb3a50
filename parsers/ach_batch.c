/*
 * ach_batch.c - file header (1), batch header (5), batch control (8), file
 * control (9), and the cross-batch trace-restart check.
 *
 * Controls are compared with values recomputed from the entries (never
 * only with each other): a batch control with its batch's entries, the
 * file control with every entry of the file.
 */
#include "parsers/ach_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

#define HASH_MOD 10000000000ULL /* entry hash keeps the last 10 digits */

static void trim_both(char *dst, const struct ach_line *l, int a, int b)
{
	while (a <= b && l->c[a - 1] == ' ')
		a++;
	if (a > b) {
		dst[0] = '\0';
		return;
	}
	ach_field_trim(dst, l, a, b);
}

static bool expect_literal(struct cl_ach *p, const struct ach_line *l, int a, const char *want,
			   const char *code, const char *what)
{
	size_t n = strlen(want);
	char shown[32];

	if (memcmp(l->c + a - 1, want, n) == 0)
		return true;
	if (n == 1)
		ach_err(p, l->no, (unsigned long)a, code, "%s (column %d) must be \"%s\", found \"%s\"",
			what, a, want, ach_show(shown, sizeof(shown), l->c + a - 1, n));
	else
		ach_err(p, l->no, (unsigned long)a, code,
			"%s (columns %d-%d) must be \"%s\", found \"%s\"", what, a, a + (int)n - 1,
			want, ach_show(shown, sizeof(shown), l->c + a - 1, n));
	return false;
}

void ach_file_header(struct cl_ach *p, const struct ach_line *l)
{
	uint64_t v;
	char date[11];
	char shown[16];

	p->saw_header = true;
	(void)ach_field_num(p, l, 2, 3, "priority code", &v);
	trim_both(p->info.receiver, l, 4, 13);
	trim_both(p->info.sender, l, 14, 23);
	if (!ach_date(l->c + 23, date)) {
		ach_err(p, l->no, 24, "creation_date",
			"file creation date (columns 24-29) must be a date YYMMDD, found \"%s\"",
			ach_show(shown, sizeof(shown), l->c + 23, 6));
	} else if (ach_field_blank(l, 30, 33)) {
		snprintf(p->info.created, sizeof(p->info.created), "%s", date);
	} else if (!ach_num(l->c + 29, 4, &v) || v / 100 > 23 || v % 100 > 59) {
		ach_err(p, l->no, 30, "creation_time",
			"file creation time (columns 30-33) must be HHMM or blank, found \"%s\"",
			ach_show(shown, sizeof(shown), l->c + 29, 4));
		snprintf(p->info.created, sizeof(p->info.created), "%s", date);
	} else {
		snprintf(p->info.created, sizeof(p->info.created), "%sT%.2s:%.2s", date, l->c + 29,
			 l->c + 31);
	}
	{
		char m = l->c[33];

		if ((m >= 'A' && m <= 'Z') || (m >= '0' && m <= '9')) {
			p->info.file_id[0] = m;
			p->info.file_id[1] = '\0';
		} else {
			ach_err(p, l->no, 34, "file_id_modifier",
				"file ID modifier (column 34) must be A-Z or 0-9, found \"%s\"",
				ach_show(shown, sizeof(shown), l->c + 33, 1));
		}
	}
	(void)expect_literal(p, l, 35, "094", "record_size", "record size");
	(void)expect_literal(p, l, 38, "10", "blocking_factor", "blocking factor");
	(void)expect_literal(p, l, 40, "1", "format_code", "format code");
}

static void show_batch(char *dst, size_t cap, const struct ach_batch *b)
{
	if (b->number_ok)
		snprintf(dst, cap, "%" PRIu64, b->number_val);
	else
		snprintf(dst, cap, "\"%s\"", b->number);
}

void ach_batch_header(struct cl_ach *p, const struct ach_line *l)
{
	struct ach_batch *b = &p->b;
	char shown[32];
	uint64_t v;
	bool iat;

	memset(b, 0, sizeof(*b));
	ach_bits_reset(&p->bits); /* a batch without control left its traces */
	b->open = true;
	b->line = l->no;
	p->batches++;

	ach_field_raw(b->service_class, l, 2, 4);
	if (memcmp(b->service_class, "200", 3) && memcmp(b->service_class, "220", 3) &&
	    memcmp(b->service_class, "225", 3) && memcmp(b->service_class, "280", 3))
		ach_err(p, l->no, 2, "service_class",
			"service class code (columns 2-4) must be 200, 220, 225 or 280, found \"%s\"",
			ach_show(shown, sizeof(shown), l->c + 1, 3));
	if (memcmp(b->service_class, "280", 3) != 0)
		p->all_adv = false;

	ach_field_raw(b->sec, l, 51, 53);
	b->sec_id = ach_sec_lookup(b->sec);
	if (b->sec_id == SEC_UNKNOWN) {
		char up[4];

		for (int i = 0; i < 3; i++) {
			char c = b->sec[i];

			up[i] = (char)(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
		}
		up[3] = '\0';
		b->sec_id = ach_sec_lookup(up); /* read on with the layout it names */
		if (b->sec_id != SEC_UNKNOWN)
			ach_err(p, l->no, 51, "sec_code",
				"SEC code (columns 51-53) must be uppercase: found \"%s\", expected "
				"\"%s\"",
				ach_show(shown, sizeof(shown), b->sec, 3), up);
		else
			ach_err(p, l->no, 51, "sec_code",
				"unknown SEC code \"%s\" (columns 51-53)",
				ach_show(shown, sizeof(shown), b->sec, 3));
	}
	iat = b->sec_id == SEC_IAT ||
	      (b->sec_id == SEC_COR && memcmp(l->c + 4, "IATCOR", 6) == 0);
	b->iat = iat;
	b->iat_cor = iat && b->sec_id == SEC_COR;
	if (iat) {
		/* IAT layout: 5-20 IAT indicator, 39-40 destination country,
		 * 41-50 originator id, 67-69 destination currency */
		ach_field_raw(b->iat_dest_country, l, 39, 40);
		ach_field_raw(b->iat_dest_currency, l, 67, 69);
	} else {
		ach_field_trim(b->company_name, l, 5, 20);
	}
	ach_field_raw(b->company_id_raw, l, 41, 50);
	trim_both(b->company_id, l, 41, 50); /* both sides: justification varies by tool */
	trim_both(b->company_id_trim, l, 41, 50);
	ach_field_trim(b->entry_desc, l, 54, 63);
	/* returns, NOCs and ENR batches often carry no effective date: blank
	 * or 000000 is accepted here and refused for forward entries */
	b->date_zero = memcmp(l->c + 69, "000000", 6) == 0;
	if (ach_field_blank(l, 70, 75) || b->date_zero)
		b->date_blank = true;
	else if (!ach_date(l->c + 69, b->value_date))
		ach_err(p, l->no, 70, "effective_date",
			"effective entry date (columns 70-75) must be a date YYMMDD, found \"%s\"",
			ach_show(shown, sizeof(shown), l->c + 69, 6));
	if (l->c[78] < '0' || l->c[78] > '2')
		ach_err(p, l->no, 79, "originator_status",
			"originator status code (column 79) must be 0, 1 or 2, found \"%s\"",
			ach_show(shown, sizeof(shown), l->c + 78, 1));
	if (ach_field_num(p, l, 80, 87, "originating DFI identification", &v))
		ach_field_raw(b->odfi, l, 80, 87);
	ach_field_raw(b->number, l, 88, 94);
	b->number_ok = ach_field_num(p, l, 88, 94, "batch number", &b->number_val);

	cl_ach_fp_batch(p->afp);
	if (p->opts.ach_key == CL_ACH_KEY_BATCH && b->number_ok) {
		if (p->prev_batch_number_ok && b->number_val <= p->prev_batch_number) {
			ach_err(p, l->no, 88, "batch_number_order",
				"batch number %" PRIu64 " does not follow batch %" PRIu64
				" (line %lu): with --ach-key=batch, batch numbers must ascend and be "
				"unique",
				b->number_val, p->prev_batch_number, p->prev_batch_line);
			ach_err_other_line(p, p->prev_batch_line);
		}
		p->prev_batch_number_ok = true;
		p->prev_batch_number = b->number_val;
		p->prev_batch_line = l->no;
	}
}

/* ---- trace-restart check ---- */

static uint64_t group_hash(const char key[17])
{
	uint64_t h = 1469598103934665603ULL;

	for (int i = 0; i < 17; i++)
		h = (h ^ (unsigned char)key[i]) * 1099511628211ULL;
	return h;
}

/* The group of a batch's records of `kind` (only 0, entries, is checked
 * by ranges now: the keys of returns and NOCs, which have no company id,
 * are compared exactly by return_key_once in ach_entry.c): company id,
 * effective date and kind.  The pointer is valid until the next call. */
static struct ach_group *group_of(struct cl_ach *p, const struct ach_batch *b, int kind)
{
	char key[17];
	size_t i;

	/* the originator as the key has it (trimmed on both sides):
	   "ABC1234   " and "   ABC1234" are one originator, and their
	   batches must share a group or a key repeated across them is missed */
	memset(key, 0, 10);
	memcpy(key, b->company_id, strnlen(b->company_id, 10));
	key[16] = (char)kind;
	/* YYMMDD back from YYYY-MM-DD (zeros when the batch has no date) */
	memcpy(key + 10, b->value_date + 2, 2);
	memcpy(key + 12, b->value_date + 5, 2);
	memcpy(key + 14, b->value_date + 8, 2);
	if (p->ngroups * 2 >= p->capgroups) {
		size_t ncap = p->capgroups ? p->capgroups * 2 : 64;
		struct ach_group *ng = cl_xcalloc(ncap, sizeof(*ng));

		for (size_t k = 0; k < p->capgroups; k++) {
			size_t j;

			if (!p->groups[k].used)
				continue;
			j = (size_t)group_hash(p->groups[k].key) & (ncap - 1);
			while (ng[j].used)
				j = (j + 1) & (ncap - 1);
			ng[j] = p->groups[k];
		}
		free(p->groups);
		p->groups = ng;
		p->capgroups = ncap;
	}
	i = (size_t)group_hash(key) & (p->capgroups - 1);
	while (p->groups[i].used) {
		if (memcmp(p->groups[i].key, key, 17) == 0)
			return &p->groups[i];
		i = (i + 1) & (p->capgroups - 1);
	}
	p->groups[i].used = true;
	memcpy(p->groups[i].key, key, 17);
	p->ngroups++;
	return &p->groups[i];
}

/* Trace `t` is in this batch and in `other` (same originator, date and
 * kind): the same v1 key twice. */
static void duplicate_trace(struct cl_ach *p, const struct ach_batch_sum *other, uint64_t t)
{
	struct ach_batch *b = &p->b;
	char num[32];

	show_batch(num, sizeof(num), b);
	ach_err(p, b->line, 80, "duplicate_key",
		"batch %s (header at line %lu) and the batch with header at line %lu both have an "
		"entry with trace number %015" PRIu64 " for company \"%s\" and effective date %s: "
		"the same payment identity twice in one file, so the file cannot be loaded, "
		"because the second would be taken as a re-upload of the first",
		num, b->line, other->line, t, b->company_id,
		b->value_date[0] ? b->value_date : "(none)");
	ach_err_other_line(p, other->line);
}

/* This batch's entry traces overlap those of `other` and were not (or
 * could not be) told apart trace by trace. */
static void trace_restart(struct cl_ach *p, const struct ach_range *r,
			  const struct ach_batch_sum *other)
{
	struct ach_batch *b = &p->b;
	char num[32];

	if (r->min == other->max && r->min > other->min) {
		/* this batch goes on from the other's last trace and repeats
		 * it (range ends are real traces): a repeated key, not a
		 * restarted sequence, so no word of a weaker key */
		duplicate_trace(p, other, r->min);
		return;
	}
	show_batch(num, sizeof(num), b);
	ach_err(p, b->line, 80, "trace_restart",
		"batch %s (header at line %lu) reuses trace numbers %015" PRIu64 "-%015" PRIu64
		" of the batch with header at line %lu for company \"%s\" and effective date %s: "
		"entries are identified by company id, trace number and effective date, so the "
		"entries of the two batches cannot be told apart; if this originator restarts "
		"its trace numbers in every batch, --ach-key=batch identifies entries by their "
		"batch number too, but if this is the same batch sent twice, that loads every "
		"entry twice",
		num, b->line, r->min, r->max, other->line, b->company_id,
		b->value_date[0] ? b->value_date : "(none)");
	ach_err_other_line(p, other->line);
}

/* Trace `t` is in both batches: a restarted sequence (this batch starts
 * at or below the other's first trace) or one repeated key. */
static void repeated_trace(struct cl_ach *p, const struct ach_range *r,
			   const struct ach_batch_sum *other, uint64_t t)
{
	if (r->min <= other->min)
		trace_restart(p, r, other);
	else
		duplicate_trace(p, other, t);
}

/* ---- exact comparison of overlapping batches ---- */

/* Traces may span at most this many bits more than 16 per entry: a batch
 * whose traces are sparser keeps no bits, and an overlap with it is
 * rejected as before (it cannot be proven free of a repeated trace).  The
 * bits kept for all batches of a file are capped at ACH_BITS_TOTAL, and
 * the trace comparisons at ACH_COMPARE_MAX, so no input makes either
 * large; past them, overlaps are rejected as before. */
#define ACH_BITS_SPAN 4096u
#define ACH_BITS_TOTAL ((size_t)16 << 20)
#define ACH_COMPARE_MAX ((uint64_t)100 << 20)

void ach_bits_reset(struct ach_bits *b)
{
	free(b->w);
	memset(b, 0, sizeof(*b));
}

void ach_bits_add(struct ach_bits *b, uint64_t trace)
{
	uint64_t off;
	size_t word;

	if (b->dropped)
		return;
	if (b->count == 0)
		b->base = trace;
	off = trace - b->base; /* traces ascend in a batch (trace_in_order) */
	if (trace < b->base || off > (uint64_t)b->count * 16 + ACH_BITS_SPAN) {
		free(b->w);
		b->w = NULL;
		b->nw = 0;
		b->dropped = true;
		return;
	}
	word = (size_t)(off / 64);
	if (word >= b->nw) {
		size_t nw = b->nw ? b->nw : 1;

		while (nw <= word)
			nw *= 2;
		b->w = cl_xrealloc(b->w, nw * sizeof(*b->w));
		memset(b->w + b->nw, 0, (nw - b->nw) * sizeof(*b->w));
		b->nw = nw;
	}
	b->w[word] |= (uint64_t)1 << (off % 64);
	b->count++;
}

static bool bit_at(const uint64_t *w, uint64_t base, uint64_t t)
{
	uint64_t off = t - base;

	return (w[off / 64] >> (off % 64)) & 1;
}

/* The first trace in [lo, hi] both batches have, or 0 (trace numbers are
 * 15 digits after a nonzero routing prefix, never 0). */
static uint64_t shared_trace(const uint64_t *a, uint64_t abase, const uint64_t *b, uint64_t bbase,
			     uint64_t lo, uint64_t hi)
{
	for (uint64_t t = lo; t <= hi; t++)
		if (bit_at(a, abase, t) && bit_at(b, bbase, t))
			return t;
	return 0;
}

/* Groups whose ranges overlap are scanned whole: past this many ranges an
 * overlap with a batch is rejected as before, not compared. */
#define ACH_OVERLAP_SCAN 1024

/* Remember the entry trace range of this batch; report a trace it shares
 * with an earlier batch of the same group (the same v1 key twice), or an
 * overlap that cannot be compared exactly. */
static void range_summary(struct cl_ach *p, const struct ach_range *r)
{
	struct ach_batch *b = &p->b;
	struct ach_group *g;
	size_t lo, hi, i;
	bool overlap = false;
	uint64_t *bits = p->bits.dropped ? NULL : p->bits.w;

	if (p->nsums >= ACH_MAX_BATCHES) {
		p->sums_full = true;
		ach_err(p, b->line, 1, "too_many_batches",
			"more than %d batches: the trace-restart check keeps one summary per batch "
			"and stops here (split the file)",
			ACH_MAX_BATCHES);
		return;
	}
	g = group_of(p, b, 0);
	/* the first range with min >= r->min: usually the end (traces ascend) */
	lo = 0;
	hi = g->n;
	if (hi > 0 && g->v[hi - 1].min < r->min) {
		lo = hi;
	} else {
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (g->v[mid].min < r->min)
				lo = mid + 1;
			else
				hi = mid;
		}
	}
	/* the ranges that overlap [r->min, r->max]: next to lo while the
	 * group's ranges are disjoint, anywhere once they are not */
	if (g->overlapping && g->n > ACH_OVERLAP_SCAN) {
		if (lo > 0)
			trace_restart(p, r, &g->v[lo - 1]);
		else
			trace_restart(p, r, &g->v[0]);
		return;
	}
	for (i = g->overlapping ? 0 : lo > 0 ? lo - 1 : 0; i < g->n && g->v[i].min <= r->max; i++) {
		const struct ach_batch_sum *o = &g->v[i];
		uint64_t t;

		if (o->max < r->min)
			continue;
		{
			uint64_t from = r->min > o->min ? r->min : o->min;
			uint64_t to = r->max < o->max ? r->max : o->max;

			if (!p->compare_started) {
				p->compare_started = true;
				p->compare_budget = ACH_COMPARE_MAX;
			}
			if (!bits || !o->bits || to - from + 1 > p->compare_budget) {
				trace_restart(p, r, o); /* cannot be compared: as before */
				return;
			}
			p->compare_budget -= to - from + 1;
			t = shared_trace(bits, p->bits.base, o->bits, o->min, from, to);
		}
		if (t) {
			repeated_trace(p, r, o, t);
			return;
		}
		overlap = true;
	}
	if (g->n == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 4;
		g->v = cl_xrealloc(g->v, g->cap * sizeof(*g->v));
	}
	memmove(g->v + lo + 1, g->v + lo, (g->n - lo) * sizeof(*g->v));
	g->v[lo].min = r->min;
	g->v[lo].max = r->max;
	g->v[lo].line = b->line;
	if (bits && p->bits_bytes + p->bits.nw * sizeof(*bits) > ACH_BITS_TOTAL)
		bits = NULL; /* past the cap: this batch cannot be compared later */
	g->v[lo].bits = bits;
	if (bits) {
		p->bits_bytes += p->bits.nw * sizeof(*bits);
		p->bits.w = NULL; /* owned by the summary now */
		p->bits.nw = 0;
	}
	g->n++;
	if (overlap)
		g->overlapping = true;
	p->nsums++;
}

static void batch_summary(struct cl_ach *p)
{
	/* an unreadable effective date was reported; its keys mean nothing */
	if (!p->b.value_date[0] && !p->b.date_blank)
		return;
	/* entries only: the keys of returns and NOCs are compared exactly
	 * (return_key_once); the weaker entry key has the batch number in it,
	 * so entries of two batches never collide (batch numbers are checked
	 * unique) */
	if (p->b.range[0].have && !p->sums_full && p->opts.ach_key != CL_ACH_KEY_BATCH)
		range_summary(p, &p->b.range[0]);
}

void ach_batch_sums_free(struct cl_ach *p)
{
	for (size_t i = 0; i < p->capgroups; i++) {
		for (size_t j = 0; j < p->groups[i].n; j++)
			free(p->groups[i].v[j].bits);
		free(p->groups[i].v);
	}
	ach_bits_reset(&p->bits);
	free(p->groups);
	p->groups = NULL;
	p->capgroups = p->ngroups = 0;
}

/* Compare a control field with the value computed from the entries; the
 * error's detail says where both numbers came from (`from`: what was
 * counted or added up). */
static void check_total(struct cl_ach *p, const struct ach_line *l, int a, int b,
			const char *code, const char *scope, const char *what, const char *src,
			uint64_t computed, const char *from)
{
	uint64_t v;
	char want[24];
	int w = b - a + 1, digits = 1;

	if (!ach_field_num(p, l, a, b, what, &v))
		return;
	if (v == computed)
		return;
	p->totals_failed = true;
	/* a computed value too wide for its field is shown in full */
	for (uint64_t rest = computed / 10; rest > 0; rest /= 10)
		digits++;
	ach_fmt_u64(want, computed, digits > w ? digits : w);
	ach_err(p, l->no, (unsigned long)a, code, "%s %s mismatch (%s %.*s, computed %s)", scope,
		what, src, b - a + 1, l->c + a - 1, want);
	ach_err_detail(p, "%s %.*s: columns %d-%d of line %lu; computed %s: %s", src, b - a + 1,
		       l->c + a - 1, a, b, l->no, want, from);
}

/* What the entry hash and the totals of `whose` entries add up, for
 * check_total(); adv: amounts in columns 28-39. */
struct sums_from {
	char hash[160], debit[128], credit[128];
};

static void sums_from(struct sums_from *s, const char *whose, bool adv)
{
	const char *cols = adv ? "28-39" : "30-39";

	snprintf(s->hash, sizeof(s->hash),
		 "the last 10 digits of the sum of the receiving DFI identifications (entry "
		 "detail columns 4-11) of %s",
		 whose);
	snprintf(s->debit, sizeof(s->debit), "the amounts (entry detail columns %s) of the debits among %s",
		 cols, whose);
	snprintf(s->credit, sizeof(s->credit),
		 "the amounts (entry detail columns %s) of the credits among %s", cols, whose);
}

void ach_batch_control(struct cl_ach *p, const struct ach_line *l)
{
	struct ach_batch *b = &p->b;
	char scope[48], num[32], shown[32], whose[80], count_from[96];
	struct sums_from from;
	bool adv = memcmp(b->service_class, "280", 3) == 0;

	show_batch(num, sizeof(num), b);
	snprintf(scope, sizeof(scope), "batch %s", num);
	if (memcmp(l->c + 1, b->service_class, 3) != 0)
		ach_err(p, l->no, 2, "batch_service_class",
			"%s service class mismatch (batch control \"%s\", batch header \"%s\" at "
			"line %lu)",
			scope, ach_show(shown, sizeof(shown), l->c + 1, 3), b->service_class, b->line);
	snprintf(whose, sizeof(whose), "the %lu entr%s after the batch header at line %lu",
		 b->entry_count, b->entry_count == 1 ? "y" : "ies", b->line);
	sums_from(&from, whose, adv);
	snprintf(count_from, sizeof(count_from),
		 "the entry detail and addenda records after the batch header at line %lu", b->line);
	check_total(p, l, 5, 10, "batch_entry_count", scope, "entry/addenda count",
		    "batch control", b->entries, count_from);
	check_total(p, l, 11, 20, "batch_entry_hash", scope, "entry hash", "batch control",
		    b->hash % HASH_MOD, from.hash);
	if (adv) {
		check_total(p, l, 21, 40, "batch_total_debit", scope, "total debit",
			    "batch control", b->debit, from.debit);
		check_total(p, l, 41, 60, "batch_total_credit", scope, "total credit",
			    "batch control", b->credit, from.credit);
	} else {
		check_total(p, l, 21, 32, "batch_total_debit", scope, "total debit",
			    "batch control", b->debit, from.debit);
		check_total(p, l, 33, 44, "batch_total_credit", scope, "total credit",
			    "batch control", b->credit, from.credit);
		char ctl[11];

		/* blanks around the id are alignment, not identity (return files) */
		trim_both(ctl, l, 45, 54);
		if (strcmp(ctl, b->company_id_trim) != 0 && !(b->iat && !ctl[0]))
			ach_err(p, l->no, 45, "batch_company_id",
				"%s company identification mismatch (batch control \"%s\", batch "
				"header \"%s\" at line %lu)",
				scope, ach_show(shown, sizeof(shown), l->c + 44, 10),
				b->company_id_raw, b->line);
	}
	if (b->odfi[0] && memcmp(l->c + 79, b->odfi, 8) != 0)
		ach_err(p, l->no, 80, "batch_odfi",
			"%s originating DFI mismatch (batch control \"%s\", batch header \"%s\")",
			scope, ach_show(shown, sizeof(shown), l->c + 79, 8), b->odfi);
	if (memcmp(l->c + 87, b->number, 7) != 0)
		ach_err(p, l->no, 88, "batch_number",
			"batch number mismatch (batch control \"%s\", batch header \"%s\" at line "
			"%lu)",
			ach_show(shown, sizeof(shown), l->c + 87, 7), b->number, b->line);
	batch_summary(p);
	b->open = false;
}

void ach_file_control(struct cl_ach *p, const struct ach_line *l)
{
	struct sums_from from;

	p->saw_file_control = true;
	p->file_control_line = l->no;
	p->records_before_fill = l->no - p->blank_lines;
	/* checked at the end of the file (ach_block_count), once the 9-fill
	   after this record is counted */
	p->block_count_ok = ach_field_num(p, l, 8, 13, "block count", &p->block_count);
	sums_from(&from, "all entries of the file", p->all_adv && p->batches > 0);
	check_total(p, l, 2, 7, "file_batch_count", "file", "batch count", "file control",
		    p->batches, "the batch header records of the file");
	check_total(p, l, 14, 21, "file_entry_count", "file", "entry/addenda count",
		    "file control", p->file_entries, "the entry detail and addenda records of the file");
	check_total(p, l, 22, 31, "file_entry_hash", "file", "entry hash", "file control",
		    p->file_hash % HASH_MOD, from.hash);
	if (p->all_adv && p->batches > 0) {
		check_total(p, l, 32, 51, "file_total_debit", "file", "total debit",
			    "file control", p->file_debit, from.debit);
		check_total(p, l, 52, 71, "file_total_credit", "file", "total credit",
			    "file control", p->file_credit, from.credit);
	} else {
		check_total(p, l, 32, 43, "file_total_debit", "file", "total debit",
			    "file control", p->file_debit, from.debit);
		check_total(p, l, 44, 55, "file_total_credit", "file", "total credit",
			    "file control", p->file_credit, from.credit);
	}
}

/* The block count is layout, as line ends and 9-fill are: a file whose
 * control totals all add up is read with a note when only its block count
 * is wrong; with another total wrong it is one more sign of a damaged
 * file, and an error. */
void ach_block_count(struct cl_ach *p)
{
	uint64_t records = (uint64_t)p->records_before_fill + p->lines_after_control;
	uint64_t blocks = (records + 9) / 10;
	char want[24], got[24];
	int digits = 6;

	if (!p->block_count_ok || p->block_count == blocks)
		return;
	for (uint64_t rest = blocks / 1000000; rest > 0; rest /= 10)
		digits++;
	ach_fmt_u64(want, blocks, digits);
	ach_fmt_u64(got, p->block_count, 6);
	if (p->totals_failed) {
		ach_err(p, p->file_control_line, 8, "file_block_count",
			"file block count mismatch (file control %s, computed %s)", got, want);
		ach_err_detail(p,
			       "file control %s: columns 8-13 of line %lu; computed %s: the %lu "
			       "records up to and including the file control (blank lines not "
			       "counted) and the %lu lines after it, in blocks of 10",
			       got, p->file_control_line, want, p->records_before_fill,
			       p->lines_after_control);
		return;
	}
	ach_note(p, p->file_control_line, "file_block_count",
		 "file block count mismatch (file control %s, computed %s from %llu records of "
		 "94 characters, 9-fill included): read anyway, as the block count is layout "
		 "only and every control total adds up",
		 got, want, (unsigned long long)records);
}
