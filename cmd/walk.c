/* walk.c - one file through the parser, no database. */
#include "cmd/walk.h"

#include <stdlib.h>
#include <string.h>

#include "base/banking_days.h"
#include "base/keyset.h"
#include "base/xmalloc.h"
#include "cmd/cli.h"
#include "parsers/same_key.h"
#include "parsers/statement.h"
#include "rules/fingerprint.h"
#include "rules/near.h"
#include "rules/statement_identity.h"
#include "rules/trace_ranges.h"

/* Every error of a file goes through here: counted, handed to the
 * command, and the first one decides between invalid and unsupported
 * (record.h cl_error_unsupported, the test load and ingest make too). */
static void walk_error(const struct cl_walk_cb *cb, void *ctx, struct cl_walk_result *res,
		       const struct cl_error *e)
{
	if (res->errors == 0)
		res->unsupported = cl_error_unsupported(e);
	res->errors += cl_error_count(e);
	cb->on_error(ctx, e);
}

/* The keys reported as repeated, like the loader's check of the staged keys
 * (at most 10, the key as the journal stores it: accounts masked unless
 * --no-mask). */
#define WALK_DUP_MAX 10

struct walk_dup {
	char key[CL_KEY_MAX];      /* as shown */
	char raw[CL_KEY_MAX];      /* the natural key itself (!alt) */
	unsigned long first, last, count;
	bool alt;  /* one payment under several natural keys (count: keys) */
};

/* The key sets hold at most this many identities (natural keys,
 * alternate keys), about 2 MB, and the near check (walk_near) this many
 * ACH records, about 3 MB: validate stays within its memory budget
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
	d->raw[0] = '\0';
	return d;
}

/* One payment under two natural keys in one file (a pacs.008 with and
 * without its UETR): the records share an alternate key and a fingerprint
 * (record.h alt_key).  load and diff reject such a file (duplicate_alt_key);
 * validate and parse say so too. */
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
 * and diff reject such a file, so validate and parse say so too, without a
 * database.  The NACHA parser proves ACH keys unique
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
	if (!d->raw[0])
		snprintf(d->raw, sizeof(d->raw), "%s", rec->natural_key);
	d->count++;
	d->last = rec->position;
}

static int dup_cmp(const void *a, const void *b)
{
	const struct walk_dup *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/* The loader's messages, word for word (loader/stage.c duplicate_error):
 * a key twice with what differs between its first and last record, read
 * again from the file (not from standard input, which cannot be). */
static void walk_key_errors(struct walk_keys *k, const char *path, const char *file,
			    const struct cl_parse_opts *opts, const struct cl_walk_cb *cb,
			    void *ctx, struct cl_walk_result *res)
{
	struct cl_same_key same[WALK_DUP_MAX];
	size_t nsame = 0, filled;

	if (k->ndup == 0)
		return;
	qsort(k->dup, k->ndup, sizeof(k->dup[0]), dup_cmp);
	for (unsigned i = 0; i < k->ndup; i++) {
		const struct walk_dup *d = &k->dup[i];
		struct cl_same_key *s;

		if (d->alt)
			continue;
		s = &same[nsame++];
		memset(s, 0, sizeof(*s));
		snprintf(s->key, sizeof(s->key), "%s", d->key);
		snprintf(s->match, sizeof(s->match), "%s", d->raw);
		s->count = d->count;
		s->first = d->first;
		s->last = d->last;
	}
	if (nsame && strcmp(path, "-") != 0) {
		struct cl_input *in = NULL;
		struct cl_parser *p = NULL;
		struct cl_error err;

		if (cl_input_open_path(path, &in, &err) == CL_OK &&
		    cl_parser_open(in, opts, &p, &err) == CL_OK)
			cl_same_key_read(p, same, nsame);
		cl_parser_free(p);
		cl_input_free(in);
	}
	filled = nsame;
	nsame = 0;
	for (unsigned i = 0; i < k->ndup; i++) {
		struct cl_error e;
		const struct walk_dup *d = &k->dup[i];

		if (d->alt)
			cl_alt_key_error(&e, file, d->key, d->count, d->first, d->last);
		else
			cl_same_key_error(&e, file, &same[nsame++], !cl_opt_no_mask);
		walk_error(cb, ctx, res, &e);
	}
	cl_same_key_release(same, filled);
}

/* ---- ACH near duplicates inside the file ---- */

/* One ACH record of the file, as the near check keeps it: its line, its
 * date and the next (later) record with its near identity. */
struct near_copy {
	uint32_t line;
	int32_t day;        /* cl_date_days, valid when has_day */
	uint32_t next;      /* index + 1 of the next copy, 0 at the end */
	bool has_day;
};

/* The records of one near identity, oldest first. */
struct near_group {
	uint32_t head, tail; /* copy index + 1 */
	const char *kind;    /* static string */
};

/* A pair found, as the loader reports it (file order of the lines). */
struct near_pair {
	unsigned long first, last;
	struct near_copy a, b;
	const char *kind;
};

struct walk_near_state {
	struct cl_keyset *ids;      /* near identity -> group index + 1 (tag) */
	struct near_group *group;
	struct near_copy *copy;
	size_t ngroups, groups_cap, ncopies, copies_cap;
	struct near_pair pair[WALK_DUP_MAX]; /* the first pairs by (first, last) */
	unsigned npairs;
};

/* Keep the pair if it is among the WALK_DUP_MAX first by (first, last),
 * the loader's ORDER BY ... LIMIT. */
static void near_keep(struct walk_near_state *w, const struct near_copy *a,
		      const struct near_copy *b, const char *kind)
{
	unsigned i = w->npairs;

	if (i == WALK_DUP_MAX) {
		const struct near_pair *z = &w->pair[i - 1];

		if (z->first < a->line || (z->first == a->line && z->last < b->line))
			return;
		i--;
	} else {
		w->npairs++;
	}
	while (i > 0 && (w->pair[i - 1].first > a->line ||
			 (w->pair[i - 1].first == a->line && w->pair[i - 1].last > b->line))) {
		w->pair[i] = w->pair[i - 1];
		i--;
	}
	w->pair[i] = (struct near_pair){ a->line, b->line, *a, *b, kind };
}

/* Record `c` against every earlier record of its group: each near pair is
 * a finding (all pairs, as the loader's self-join of the staged records:
 * an entry and copies at +20, +40 and +22 days hold one near pair, the
 * second and the fourth).  Stops at a copy that could only give a pair
 * after the WALK_DUP_MAX kept ones. */
static void near_compare(struct walk_near_state *w, const struct near_group *g,
			 const struct near_copy *c)
{
	uint32_t i;

	for (i = g->head; i; i = w->copy[i - 1].next) {
		const struct near_copy *e = &w->copy[i - 1];

		if (w->npairs == WALK_DUP_MAX && e->line >= w->pair[WALK_DUP_MAX - 1].first)
			break;
		if (cl_near_days(e->has_day, e->day, c->has_day, c->day))
			near_keep(w, e, c, g->kind);
	}
}

/* Add one ACH record; false when it would pass the memory budget. */
static bool near_add(struct walk_near_state *w, const struct cl_record *rec, const char *id)
{
	struct cl_keyset_entry *e;
	struct near_copy c = { 0 };
	struct near_group *g;
	long day = 0;

	if (w->ncopies == WALK_KEYS_MAX)
		return false;
	c.line = rec->position > UINT32_MAX ? UINT32_MAX : (uint32_t)rec->position;
	c.has_day = cl_date_days(rec->value_date, &day) && day >= INT32_MIN && day <= INT32_MAX;
	c.day = c.has_day ? (int32_t)day : 0;
	if (!cl_keyset_add(w->ids, rec->kind, id, rec->position, &e)) {
		if (w->ngroups == w->groups_cap) {
			w->groups_cap = w->groups_cap ? 2 * w->groups_cap : 256;
			w->group = cl_xrealloc(w->group, w->groups_cap * sizeof(*w->group));
		}
		w->group[w->ngroups] = (struct near_group){ 0, 0, rec->kind };
		e->tag = (uint32_t)++w->ngroups;
	}
	g = &w->group[e->tag - 1];
	near_compare(w, g, &c);
	if (w->ncopies == w->copies_cap) {
		w->copies_cap = w->copies_cap ? 2 * w->copies_cap : 256;
		w->copy = cl_xrealloc(w->copy, w->copies_cap * sizeof(*w->copy));
	}
	w->copy[w->ncopies++] = c;
	if (g->tail)
		w->copy[g->tail - 1].next = (uint32_t)w->ncopies;
	else
		g->head = (uint32_t)w->ncopies;
	g->tail = (uint32_t)w->ncopies;
	return true;
}

/* A second pass over a valid NACHA file (or CSV export) whose trace runs
 * overlap or that has two returns (the loader's pre-check, trace_ranges.h):
 * every ACH record's near identity (rules/near.h) and every pair of records
 * of one identity compared, as load and diff compare the staged records,
 * with their message, lines and order (keys are unique here: the parser
 * or walk_key proved it).  Memory: for such files only, about 100 bytes
 * per ACH record up to WALK_KEYS_MAX records (3 MB); past it the check
 * stops with a note, and load and diff stay the authority.  Standard input
 * cannot be read twice: a note says the check was left to load and diff. */
static void walk_near(const char *path, const struct cl_parse_opts *opts,
		      const struct cl_walk_cb *cb, void *ctx, struct cl_walk_result *res)
{
	struct walk_near_state w = { 0 };
	struct cl_input *in = NULL;
	struct cl_parser *p = NULL;
	const struct cl_record *rec;
	struct cl_error err;
	enum cl_status st;
	unsigned long checked = 0;
	bool capped = false;

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
		walk_error(cb, ctx, res, &err);
		cl_input_free(in);
		return;
	}
	w.ids = cl_keyset_new();
	while ((st = cl_parser_next(p, &rec, &err)) != CL_END) {
		char id[CL_NEAR_KEY_MAX];

		if (st != CL_OK || !cl_near_key(rec, id, sizeof(id)))
			continue;
		if (!near_add(&w, rec, id)) {
			capped = true;
			break;
		}
		checked++;
	}
	for (unsigned i = 0; i < w.npairs; i++) {
		const struct near_pair *q = &w.pair[i];
		char da[11] = "", db[11] = "";
		struct cl_error x;

		if (q->a.has_day)
			cl_days_date(q->a.day, da);
		if (q->b.has_day)
			cl_days_date(q->b.day, db);
		cl_near_in_file_error(&x, cl_input_name(in), q->kind, q->first, da, q->last, db);
		walk_error(cb, ctx, res, &x);
	}
	if (capped && cb->on_note) {
		cl_error_set(&err, cl_input_name(in), 0, "note",
			     "payments repeated under two dates were looked for in the first %lu ACH "
			     "records of this file only (validate keeps at most %d in memory); load "
			     "and diff check every record",
			     checked, WALK_KEYS_MAX);
		cb->on_note(ctx, &err);
	}
	cl_keyset_free(w.ids);
	free(w.group);
	free(w.copy);
	cl_parser_free(p);
	cl_input_free(in);
}

/* The statement keys of a valid statement file, as load checks the staged
 * rows (statement_identity.h cl_stmt_rows_of, the rows load stores): a key
 * twice makes the file invalid for every command, with load's message. */
static void walk_statement_keys(struct walk_keys *k, const struct cl_stmt_row *row)
{
	struct cl_keyset_entry *e;
	struct walk_dup *d;
	char masked[CL_KEY_MAX];

	if (k->capped)
		return;
	if (++k->ids > WALK_KEYS_MAX) {
		k->capped = true;
		cl_keyset_free(k->set);
		k->set = NULL;
		return;
	}
	k->checked++;
	if (!k->set)
		k->set = cl_keyset_new();
	if (!cl_keyset_add(k->set, row->kind, row->natural_key, row->position, &e))
		return;
	cl_stmt_row_journal_key(row, masked, sizeof(masked));
	if (!(d = dup_group(k, e, false, masked)))
		return;
	d->count++;
	d->last = row->position;
}

/* A bank statement or status report (statement.h): no clearing file, but
 * load and ingest load it for reconcile, so it is checked by the statement
 * reader's own checks (balances, totals, trailers) and by load's check of
 * its keys, and its items (statements, entries, transactions, statuses)
 * are counted. */
static enum cl_status walk_statement(struct cl_input *in, struct cl_parser *p,
				     const struct cl_parse_opts *opts, const struct cl_walk_cb *cb,
				     void *ctx, struct cl_walk_result *res)
{
	struct cl_item it;
	struct walk_keys *k = cl_xcalloc(1, sizeof(*k));
	struct cl_stmt_rows rows_state = { 0 };
	struct cl_stmt_row *rows = cl_xmalloc(CL_STMT_ROWS_MAX * sizeof(*rows));
	const struct cl_stmt_item *item;
	struct cl_error err;
	enum cl_status st, last = CL_OK;
	unsigned long bad_line;

	while ((st = cl_parser_next_item(p, &it, &err)) != CL_END) {
		if (st == CL_OK && it.stmt) {
			int n;

			item = it.stmt;
			n = cl_stmt_rows_of(&rows_state, item, NULL, rows, &bad_line);

			res->info.records++;
			for (int i = 0; i < n; i++) {
				walk_statement_keys(k, &rows[i]);
				if (cb->on_answer)
					cb->on_answer(ctx, &rows[i]);
			}
			if (n < 0) {
				cl_error_set(&err, cl_input_name(in), bad_line, "key_too_long",
					     "the statement key of this item is longer than %d bytes",
					     CL_KEY_MAX - 1);
				walk_error(cb, ctx, res, &err);
				last = CL_INVALID;
			}
		} else if (st == CL_NOTE) {
			if (cb->on_note)
				cb->on_note(ctx, &err);
		} else {
			walk_error(cb, ctx, res, &err);
			last = st;
			if (st == CL_IO)
				break;
		}
	}
	if (res->errors == 0) {
		/* as load: its check of the staged keys runs on a file that
		   is otherwise valid */
		qsort(k->dup, k->ndup, sizeof(k->dup[0]), dup_cmp);
		for (unsigned i = 0; i < k->ndup; i++) {
			cl_stmt_duplicate_error(&err, cl_input_name(in), k->dup[i].first,
						k->dup[i].last, k->dup[i].count, k->dup[i].key);
			walk_error(cb, ctx, res, &err);
			last = CL_INVALID;
		}
		if (k->capped && cb->on_note) {
			cl_error_set(&err, cl_input_name(in), 0, "note",
				     "repeated statement keys were looked for in the first %lu items "
				     "of this file only (validate keeps at most %d in memory); load "
				     "and diff check every item",
				     k->checked, WALK_KEYS_MAX);
			cb->on_note(ctx, &err);
		}
	}
	snprintf(res->info.format_name, sizeof(res->info.format_name), "%s",
		 cl_parser_info(p)->format_name);
	snprintf(res->info.message_type, sizeof(res->info.message_type), "%s",
		 cl_parser_message(p));
	res->info.max_errors = opts->max_errors;
	res->info.stopped = cl_parser_info(p)->stopped;
	cl_keyset_free(k->set);
	free(k);
	free(rows);
	return last;
}

bool cl_walk_file(const char *path, const struct cl_parse_opts *opts,
		  const struct cl_walk_cb *cb, void *ctx, struct cl_walk_result *res)
{
	/* without a record callback (validate) no fingerprint is shown: a
	   NACHA file's records are checked without them (walk_key checks no
	   NACHA record; walk_near reads the file again with `opts`) */
	struct cl_parse_opts first = *opts;
	struct cl_input *in = NULL;
	struct cl_parser *p = NULL;
	struct cl_error err;
	const struct cl_record *rec;
	enum cl_status st;
	enum cl_family family;
	struct walk_keys *keys = NULL;
	struct cl_trace_ranges traces = { 0 };
	unsigned long nreturns = 0;
	bool fp_unread = false;

	memset(res, 0, sizeof(*res));
	if (cl_input_open_path(path, &in, &err) != CL_OK) {
		walk_error(cb, ctx, res, &err);
		return false;
	}
	if (opts->no_checksum)
		cl_input_no_checksum(in);
	/* one detection, one pass: the parser tells the family from what it
	   reads anyway (an XML file's Document namespace), so standard input
	   reads as a file does */
	first.no_fingerprints = !cb->on_record;
	st = cl_parser_open(in, &first, &p, &err);
	if (st != CL_OK) {
		walk_error(cb, ctx, res, &err);
		goto done;
	}
	family = cl_parser_family(p);
	if (family == CL_FAMILY_STATEMENT || family == CL_FAMILY_STATUS) {
		res->statement = true;
		snprintf(res->info.format_name, sizeof(res->info.format_name), "%s",
			 cl_parser_info(p)->format_name);
		st = walk_statement(in, p, opts, cb, ctx, res);
		goto done;
	}
	keys = cl_xcalloc(1, sizeof(*keys));
	while ((st = cl_parser_next(p, &rec, &err)) != CL_END) {
		switch (st) {
		case CL_OK:
			walk_key(keys, rec, cl_parser_info(p)->format);
			/* past its cap walk_key reads no identity, and validate
			   shows no fingerprint */
			if (keys->capped && first.no_fingerprints && !fp_unread) {
				cl_parser_fingerprints_unread(p);
				fp_unread = true;
			}
			if (rec->kind[0] == 'a') {
				cl_trace_ranges_add(&traces, rec);
				if (!cl_trace_ranges_is_entry(rec))
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
			walk_error(cb, ctx, res, &err);
			break;
		case CL_END:
			break;
		}
		if (st == CL_IO)
			break;
	}
	res->info = *cl_parser_info(p);
	if (st != CL_IO)
		walk_key_errors(keys, path, cl_input_name(in), opts, cb, ctx, res);
	if (st != CL_IO && keys->capped && cb->on_note) {
		cl_error_set(&err, cl_input_name(in), 0, "note",
			     "repeated payment identities were looked for in the first %lu records "
			     "of this file only (validate keeps at most %d in memory); load and "
			     "diff check every record",
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
