/* walk.c - one file through the parser, no database. */
#include "walk.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "keyset.h"
#include "row.h"
#include "xmalloc.h"

/* The keys reported as repeated, like the loader's check of the staged keys
 * (at most 10, the key as the journal stores it: accounts masked unless
 * --no-mask). */
#define WALK_DUP_MAX 10

struct walk_dup {
	char key[CL_KEY_MAX];
	unsigned long first, last, count;
};

struct walk_keys {
	struct cl_keyset *set;
	struct walk_dup dup[WALK_DUP_MAX];
	unsigned ndup;
};

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

	/* by the file's format, not the record's scheme: ACH records read
	 * from a CSV export are not proven unique by any parser */
	if (format == CL_FORMAT_ACH || !rec->natural_key[0])
		return;
	if (!k->set)
		k->set = cl_keyset_new();
	if (!cl_keyset_add(k->set, rec->kind, rec->natural_key, rec->position, &e))
		return;
	if (e->tag) {
		d = &k->dup[e->tag - 1];
	} else {
		if (k->ndup == WALK_DUP_MAX)
			return;
		d = &k->dup[k->ndup++];
		e->tag = k->ndup;
		d->first = e->first_line;
		d->count = 1;
		if (cl_opt_no_mask || !cl_row_mask_key(rec, rec->natural_key, d->key, sizeof(d->key)))
			snprintf(d->key, sizeof(d->key), "%s", rec->natural_key);
	}
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

		cl_error_set(&e, file, d->last, "duplicate_key",
			     "natural key \"%.200s\" appears %lu times in this file (first on line "
			     "%lu): the file cannot be deduplicated safely",
			     d->key, d->count, d->first);
		e.other_line = d->first;
		res->errors++;
		cb->on_error(ctx, &e);
	}
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
	if (keys)
		cl_keyset_free(keys->set);
	free(keys);
	cl_parser_free(p);
	cl_input_free(in);
	return res->errors == 0;
}
