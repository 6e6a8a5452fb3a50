/* walk.c - one file through the parser, no database. */
#include "walk.h"

#include <stdlib.h>
#include <string.h>

#include "banking_days.h"
#include "cli.h"
#include "fingerprint.h"
#include "keyset.h"
#include "trace_ranges.h"
#include "xmalloc.h"

/* The keys reported as repeated, like the loader's check of the staged keys
 * (at most 10, the key as the journal stores it: accounts masked unless
 * --no-mask). */
#define WALK_DUP_MAX 10

struct walk_dup {
	char key[CL_KEY_MAX];
	unsigned long first, last, count;
	bool alt;  /* one payment under several natural keys (count: keys) */
};

/* The key sets hold at most this many identities (natural keys,
 * alternate keys), about 2 MB: validate stays within its memory budget
 * (16 MB) and speed (SHA-256 per identity) on big files; past it, the
 * check stops with a note, and load and diff, which check every record in
 * the database, stay the authority. */
#define WALK_KEYS_MAX 32768

struct walk_keys {
	struct cl_keyset *set;     /* kind + natural key */
	struct cl_keyset *alt;     /* kind + alternate key + fingerprint */
	struct cl_keyset *alt_nk;  /* the same + natural key */
	unsigned long ids;         /* identities added */
	unsigned long checked;     /* records checked before the cap */
	bool capped;
	struct walk_dup dup[WALK_DUP_MAX];
	unsigned ndup;
};

/* The group of a repeated key (entry e of one of the sets), made when the
 * key is first seen again; NULL once 10 groups are reported. */
static struct walk_dup *dup_group(struct walk_keys *k, struct cl_keyset_entry *e, bool alt,
				  const char *key)
{
	struct walk_dup *d;

	if (e->tag)
		return &k->dup[e->tag - 1];
	if (k->ndup == WALK_DUP_MAX)
		return NULL;
	d = &k->dup[k->ndup++];
	e->tag = k->ndup;
	d->first = e->first_line;
	d->count = 1;
	d->alt = alt;
	snprintf(d->key, sizeof(d->key), "%s", key);
	return d;
}

/* One payment under two natural keys in one file (a pacs.008 with and
 * without its UETR): the records share an alternate key and a fingerprint
 * (record.h alt_key).  load and diff reject such a file (duplicate_alt_key);
 * validate and parse say so too (review 2, R2-5). */
/* Returns true when the record repeats a payment of the file by `alt`. */
static bool walk_alt_key(struct walk_keys *k, const struct cl_record *rec, const char *alt)
{
	char fp[65], pair[CL_KEY_MAX + 80], triple[2 * CL_KEY_MAX + 80];
	struct cl_keyset_entry *e, *t;
	bool new_key, seen;
	struct walk_dup *d;

	cl_hex32(rec->has_alt_fp ? rec->alt_fp : rec->fingerprint, fp);
	snprintf(pair, sizeof(pair), "%s|%s", alt, fp);
	snprintf(triple, sizeof(triple), "%s|%s", pair, rec->natural_key);
	if (!k->alt) {
		k->alt = cl_keyset_new();
		k->alt_nk = cl_keyset_new();
	}
	new_key = !cl_keyset_add(k->alt_nk, rec->kind, triple, rec->position, &t);
	seen = cl_keyset_add(k->alt, rec->kind, pair, rec->position, &e);
	if (!seen || !new_key)
		return false;
	if ((d = dup_group(k, e, true, alt)) != NULL) {
		d->count++;
		d->last = rec->position;
	}
	return true;
}

/* Two records of one file with the same natural key make it invalid: load
 * and diff reject such a file (issue 4), so validate and parse say so too,
 * without a database (review 21).  The NACHA parser proves ACH keys unique
 * itself (entries in constant memory by trace order and per-batch trace
 * ranges, returns and NOCs with a key set) and names both lines; the
 * loader skips ACH files here too (NACHA files, not NACHA records: a CSV
 * export's ACH records are checked like ISO ones). */
static void walk_key(struct walk_keys *k, const struct cl_record *rec, enum cl_format format)
{
	struct cl_keyset_entry *e;
	struct walk_dup *d;
	char masked[CL_KEY_MAX];

	/* by the file's format, not the record's scheme: ACH records read
	 * from a CSV export are not proven unique by any parser */
	if (format == CL_FORMAT_ACH || k->capped)
		return;
	k->ids += 1 + (rec->alt_key[0] ? 2 : 0) + (rec->alt_key2[0] ? 2 : 0);
	if (k->ids > WALK_KEYS_MAX) {
		k->capped = true;
		cl_keyset_free(k->set);
		cl_keyset_free(k->alt);
		cl_keyset_free(k->alt_nk);
		k->set = k->alt = k->alt_nk = NULL;
		return;
	}
	k->checked++;
	/* the second identity only when the first did not already say it
	   (one pair, one error) */
	if (rec->alt_key[0] && !walk_alt_key(k, rec, rec->alt_key) && rec->alt_key2[0])
		walk_alt_key(k, rec, rec->alt_key2);
	if (!rec->natural_key[0])
		return;
	if (!k->set)
		k->set = cl_keyset_new();
	if (!cl_keyset_add(k->set, rec->kind, rec->natural_key, rec->position, &e))
		return;
	if (!(d = dup_group(k, e, false, cl_out_key(rec, rec->natural_key, masked, sizeof(masked)))))
		return;
	d->count++;
	d->last = rec->position;
}

static int dup_cmp(const void *a, const void *b)
{
	const struct walk_dup *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/* The loader's message, word for word (loader/load.c in_file_duplicates). */
static void walk_key_errors(struct walk_keys *k, const char *file, const struct cl_walk_cb *cb,
			    void *ctx, struct cl_walk_result *res)
{
	qsort(k->dup, k->ndup, sizeof(k->dup[0]), dup_cmp);
	for (unsigned i = 0; i < k->ndup; i++) {
		struct cl_error e;
		const struct walk_dup *d = &k->dup[i];

		if (d->alt)
			cl_error_set(&e, file, d->last, "duplicate_alt_key",
				     "one payment (alternate key \"%.200s\", same content) appears "
				     "under %lu natural keys in this file (first on line %lu): the file "
				     "cannot be deduplicated safely",
				     d->key, d->count, d->first);
		else
			cl_error_set(&e, file, d->last, "duplicate_key",
				     "natural key \"%.200s\" appears %lu times in this file (first on "
				     "line %lu): the file cannot be deduplicated safely",
				     d->key, d->count, d->first);
		e.other_line = d->first;
		cl_keyset_duplicate_hint(&e, d->alt);
		res->errors++;
		cb->on_error(ctx, &e);
	}
}

/* ---- ACH near duplicates inside the file (review 2, R2-5) ---- */

/* The near-duplicate identity of an ACH record (the loader's rule,
 * loader/load.c in_file_near_sql): entries by originator, trace, account
 * without blanks, RDFI and amount; returns and NOCs by original trace, code,
 * original RDFI and amount.  false for other records. */
static bool near_identity(const struct cl_record *rec, char *out, size_t cap)
{
	const char *a = rec->receiving_account;
	size_t n;

	if (strcmp(rec->kind, "ach.entry") == 0) {
		while (*a == ' ' || *a == '0') /* blank- or zero-filled (R3-10) */
			a++;
		n = strlen(a);
		while (n && a[n - 1] == ' ')
			n--;
		snprintf(out, cap, "E|%s|%s|%.*s|%s|%lld", rec->company_id, rec->trace_number,
			 (int)n, a, rec->receiving_dfi, (long long)rec->amount_minor);
		return true;
	}
	if (strncmp(rec->kind, "ach.", 4) == 0) {
		/* any two plain return codes are one return of the entry; a
		   dishonored or contested return (R61-R77) and a NOC keep theirs
		   (load_int.h CL_SAME_RETURN_CODE) */
		const char *c = rec->reason_code;
		bool plain = strcmp(rec->kind, "ach.return") == 0 &&
			     !(c[0] == 'R' && ((c[1] == '6' && c[2] >= '1' && c[2] <= '9') ||
					       (c[1] == '7' && c[2] >= '0' && c[2] <= '7')) && !c[3]);

		snprintf(out, cap, "R|%s|%s|%s|%lld", rec->original_trace, plain ? "plain" : c,
			 rec->original_rdfi, (long long)rec->amount_minor);
		return true;
	}
	return false;
}

/* A second pass over a valid NACHA file (or CSV export) whose trace runs
 * overlap or that has two returns (the loader's pre-check, trace_ranges.h):
 * every ACH record's near identity in a key set, its date in the tag; a
 * record within 5 banking days of the previous one with its identity is
 * the same payment twice (keys are unique: the parser proved it).  Each
 * copy is compared with the previous and the first copy (the loader compares all
 * pairs).  Standard input cannot be read twice: a note says the check was
 * left to load and diff.  Memory: the key set, only for such files. */
static void walk_near(const char *path, const struct cl_parse_opts *opts,
		      const struct cl_walk_cb *cb, void *ctx, struct cl_walk_result *res)
{
	struct cl_input *in = NULL;
	struct cl_parser *p = NULL;
	struct cl_keyset *set = NULL, *firsts = NULL;
	const struct cl_record *rec;
	struct cl_error err;
	enum cl_status st;
	unsigned reported = 0;

	if (strcmp(path, "-") == 0) {
		if (cb->on_note) {
			cl_error_set(&err, "(stdin)", 0, "note",
				     "trace numbers repeat across batches: the check for a payment "
				     "repeated under two dates is left to load and diff (standard "
				     "input cannot be read twice)");
			cb->on_note(ctx, &err);
		}
		return;
	}
	if (cl_input_open_path(path, &in, &err) != CL_OK || cl_parser_open(in, opts, &p, &err) != CL_OK) {
		res->errors++;
		cb->on_error(ctx, &err);
		cl_input_free(in);
		return;
	}
	set = cl_keyset_new();    /* the previous copy of each payment */
	firsts = cl_keyset_new(); /* its first copy (review 3, R3-2) */
	while ((st = cl_parser_next(p, &rec, &err)) != CL_END && reported < WALK_DUP_MAX) {
		char id[CL_KEY_MAX + 64], da[11], when[64];
		struct cl_keyset_entry *e, *f;
		long day, prev;
		bool entry;

		if (st != CL_OK)
			continue;
		if (!near_identity(rec, id, sizeof(id)))
			continue;
		/* the tag: 0 unset, 1 no date (a return's may be blank: it
		   matches every copy, R3-1), else the day number + 2 */
		if (!cl_date_days(rec->value_date, &day))
			day = -1;
		else if (day < 0)
			day = 0;
		if (!cl_keyset_add(set, rec->kind, id, rec->position, &e)) {
			e->tag = (uint32_t)(day + 2);
			if (!cl_keyset_add(firsts, rec->kind, id, rec->position, &f))
				f->tag = (uint32_t)(day + 2);
			continue;
		}
		prev = (long)e->tag - 2;
		if (!(prev < 0 || day < 0 || cl_banking_days(prev, day) <= 5) &&
		    cl_keyset_add(firsts, rec->kind, id, rec->position, &f)) {
			/* not near the previous copy: maybe near the first */
			long first = (long)f->tag - 2;

			if (first < 0 || cl_banking_days(first, day) <= 5) {
				prev = first;
				e->first_line = f->first_line;
			}
		}
		if (prev < 0 || day < 0 || cl_banking_days(prev, day) <= 5) {
			struct cl_error x;

			entry = strcmp(rec->kind, "ach.entry") == 0;
			if (prev < 0)
				snprintf(da, sizeof(da), "(none)");
			else
				cl_days_date(prev, da);
			if (prev < 0 || day < 0)
				snprintf(when, sizeof(when), "twice (effective %s and %s", da,
					 day < 0 ? "(none)" : rec->value_date);
			else if (prev == day)
				snprintf(when, sizeof(when), "twice (both effective %s", da);
			else
				snprintf(when, sizeof(when), "under two effective dates (%s and %s", da,
					 rec->value_date);
			cl_error_set(&x, cl_input_name(in), rec->position, "near_duplicate_in_file",
				     "the %s on lines %lu and %lu are one %s %s: %s): the file cannot "
				     "be deduplicated safely",
				     entry ? "entries" : "returns or NOCs",
				     (unsigned long)e->first_line, rec->position,
				     entry ? "payment" : "return", when,
				     entry ? "same originator, trace number, receiving account, RDFI "
					     "and amount"
					   : "same original trace, original RDFI and amount");
			x.other_line = e->first_line;
			res->errors++;
			reported++;
			cb->on_error(ctx, &x);
		}
		e->tag = (uint32_t)(day + 2);
		e->first_line = (uint32_t)rec->position;
	}
	cl_keyset_free(set);
	cl_keyset_free(firsts);
	cl_parser_free(p);
	cl_input_free(in);
}

bool cl_walk_file(const char *path, const struct cl_parse_opts *opts,
		  const struct cl_walk_cb *cb, void *ctx, struct cl_walk_result *res)
{
	struct cl_input *in = NULL;
	struct cl_parser *p = NULL;
	struct cl_error err;
	const struct cl_record *rec;
	enum cl_status st;
	struct walk_keys *keys = NULL;
	struct cl_trace_ranges traces = { 0 };
	unsigned long nreturns = 0;

	memset(res, 0, sizeof(*res));
	if (cl_input_open_path(path, &in, &err) != CL_OK) {
		res->errors++;
		cb->on_error(ctx, &err);
		return false;
	}
	st = cl_parser_open(in, opts, &p, &err);
	if (st != CL_OK) {
		res->errors++;
		cb->on_error(ctx, &err);
		goto done;
	}
	keys = cl_xcalloc(1, sizeof(*keys));
	while ((st = cl_parser_next(p, &rec, &err)) != CL_END) {
		switch (st) {
		case CL_OK:
			walk_key(keys, rec, cl_parser_info(p)->format);
			if (rec->kind[0] == 'a') {
				cl_trace_ranges_add(&traces, rec);
				if (strcmp(rec->kind, "ach.entry") != 0)
					nreturns++;
			}
			if (cb->on_record)
				cb->on_record(ctx, rec);
			break;
		case CL_NOTE:
			if (cb->on_note)
				cb->on_note(ctx, &err);
			break;
		case CL_INVALID:
		case CL_IO:
			res->errors++;
			cb->on_error(ctx, &err);
			break;
		case CL_END:
			break;
		}
		if (st == CL_IO)
			break;
	}
	res->info = *cl_parser_info(p);
	if (st != CL_IO)
		walk_key_errors(keys, cl_input_name(in), cb, ctx, res);
	if (st != CL_IO && keys->capped && cb->on_note) {
		cl_error_set(&err, cl_input_name(in), 0, "note",
			     "keys repeated in this file were looked for in its first %lu records "
			     "only (validate keeps at most %d keys in memory); load and diff check "
			     "every record",
			     keys->checked, WALK_KEYS_MAX);
		cb->on_note(ctx, &err);
	}
	if (st != CL_IO && res->errors == 0 &&
	    (cl_trace_ranges_maybe_near(&traces) || nreturns > 1))
		walk_near(path, opts, cb, ctx, res);
done:
	if (res->errors == 0 || st != CL_IO) {
		/* read to the end so the checksum covers the whole file */
		char buf[4096];
		long r;

		while ((r = cl_input_read(in, buf, sizeof(buf), &err)) > 0)
			;
	}
	memcpy(res->sha256, cl_input_sha256_hex(in), sizeof(res->sha256));
	res->bytes = cl_input_raw_bytes(in);
	if (keys) {
		cl_keyset_free(keys->set);
		cl_keyset_free(keys->alt);
		cl_keyset_free(keys->alt_nk);
	}
	free(keys);
	cl_trace_ranges_free(&traces);
	cl_parser_free(p);
	cl_input_free(in);
	return res->errors == 0;
}
