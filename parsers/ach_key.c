/*
 * ach_key.c - natural key and fingerprint of a finished ACH record
 * (clearing-load-keys(7)).
 *
 *   ach.entry   v1        <company id>|<trace>|<effective date>
 *               v1-batch  <company id>|<batch number>|<trace>|<effective date>
 *   ach.return  v1        <original trace>|<return code>|<trace>|<effective date>
 *   ach.noc     v1        <original trace>|<change code>|<trace>|<effective date>
 *
 * The fingerprint covers the economic fields only, in this order:
 * kind, amount_minor, currency, transaction_code, receiving_dfi,
 * receiving_account, company_id, sec_code, value_date; IAT adds the
 * foreign RDFI (addenda 14 qualifier and id), destination country and
 * currency; returns and NOCs add reason_code, original_trace,
 * original_rdfi, corrected_data and dishonored_code.  Names, addenda free
 * text, batch number, file creation time and padding are left out, so a
 * re-batched or re-created file gives the same fingerprint.
 */
#include "ach_internal.h"

#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

/* Fingerprint encoding (rule v1, fixed forever once records are stored):
 * the fields of the kind, in the order listed above, each written as
 * "<decimal length>:<value>;", integers in decimal; the kind comes first,
 * so two kinds' field lists never hash alike.  Field names are left out on
 * purpose: with them an entry takes four SHA-256 blocks, without them two,
 * and hashing was half the parser's time (the speed goal in issue 2).
 * The bytes go into one buffer and are hashed in one call. */
struct ach_fp {
	EVP_MD_CTX *ctx;
	EVP_MD *md;
	size_t len;
	char buf[1024];
};

struct ach_fp *ach_fp_new(void)
{
	struct ach_fp *f = cl_xcalloc(1, sizeof(*f));

	f->ctx = EVP_MD_CTX_new();
	f->md = EVP_MD_fetch(NULL, "SHA256", NULL);
	if (!f->ctx || !f->md)
		(void)cl_xmalloc(SIZE_MAX); /* exits: OOM in libcrypto */
	return f;
}

void ach_fp_free(struct ach_fp *f)
{
	if (!f)
		return;
	EVP_MD_CTX_free(f->ctx);
	EVP_MD_free(f->md);
	free(f);
}

static void fp_field(struct ach_fp *f, const char *v, size_t vlen)
{
	char *o = f->buf + f->len;
	char digits[20];
	int nd = 0;
	size_t x = vlen;

	/* every value is bounded (at most a 35-character account): it fits */
	do {
		digits[nd++] = (char)('0' + x % 10);
		x /= 10;
	} while (x);
	while (nd)
		*o++ = digits[--nd];
	*o++ = ':';
	memcpy(o, v, vlen);
	o += vlen;
	*o++ = ';';
	f->len = (size_t)(o - f->buf);
}

static void fp_str(struct ach_fp *f, const char *v)
{
	fp_field(f, v, strlen(v));
}

static void fp_int(struct ach_fp *f, int64_t v)
{
	char d[24];
	int n = 0;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	char out[24];
	int k = 0;

	do {
		d[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		out[k++] = '-';
	while (n)
		out[k++] = d[--n];
	fp_field(f, out, (size_t)k);
}

static char *put(char *o, const char *s)
{
	size_t n = strlen(s);

	memcpy(o, s, n);
	o[n] = '|';
	return o + n + 1;
}

void ach_key_batch(struct cl_ach *p)
{
	struct ach_batch *b = &p->b;
	struct ach_fp *f = p->afp;
	char *o = put(b->key_head, b->company_id);

	if (p->opts.ach_key == CL_ACH_KEY_BATCH)
		o = put(o, b->number);
	b->key_head_len = (size_t)(o - b->key_head);
	f->len = 0;
	fp_str(f, b->company_id);
	fp_str(f, b->sec);
	fp_str(f, b->value_date);
	memcpy(b->fp_tail, f->buf, f->len);
	b->fp_tail_len = f->len;
}

void ach_key_and_fingerprint(struct cl_ach *p, struct cl_record *r, bool iat)
{
	const struct ach_entry *e = &p->e;
	const struct ach_batch *b = &p->b;
	bool entry = r->kind[4] == 'e'; /* "ach.entry" */
	char *o = r->natural_key;
	struct ach_fp *f = p->afp;
	unsigned int mdlen = 32;

	/* every part has a fixed maximum width: the key always fits */
	r->key_rule = CL_KEY_RULE_V1;
	if (entry) {
		memcpy(o, b->key_head, b->key_head_len);
		o += b->key_head_len;
		if (p->opts.ach_key == CL_ACH_KEY_BATCH)
			r->key_rule = CL_KEY_RULE_V1_ACH_BATCH;
	} else {
		o = put(o, r->original_trace);
		o = put(o, r->reason_code);
	}
	o = put(o, r->trace_number);
	memcpy(o, r->value_date, sizeof(r->value_date));

	f->len = 0;
	if (entry) {
		memcpy(f->buf, "9:ach.entry;", 12);
		f->len = 12;
	} else {
		fp_str(f, r->kind);
	}
	fp_int(f, r->amount_minor);
	/* "3:USD;2:<tcode>;9:<rdfi>;": fixed widths */
	o = f->buf + f->len;
	memcpy(o, "3:USD;2:", 8);
	memcpy(o + 8, r->transaction_code, 2);
	memcpy(o + 10, ";9:", 3);
	memcpy(o + 13, r->receiving_dfi, 9);
	o[22] = ';';
	f->len += 23;
	fp_str(f, r->receiving_account);
	/* company_id, sec_code, value_date: the same for the whole batch */
	memcpy(f->buf + f->len, b->fp_tail, b->fp_tail_len);
	f->len += b->fp_tail_len;
	if (iat) {
		fp_str(f, e->iat_rdfi_qual);
		fp_str(f, e->iat_rdfi_id);
		fp_str(f, b->iat_dest_country);
		fp_str(f, b->iat_dest_currency);
	}
	if (!entry) {
		fp_str(f, r->reason_code);
		fp_str(f, r->original_trace);
		fp_str(f, r->original_rdfi);
		fp_str(f, r->corrected_data);
		fp_str(f, r->dishonored_code);
	}
	if (!EVP_DigestInit_ex2(f->ctx, f->md, NULL) ||
	    !EVP_DigestUpdate(f->ctx, f->buf, f->len) ||
	    !EVP_DigestFinal_ex(f->ctx, r->fingerprint, &mdlen))
		(void)cl_xmalloc(SIZE_MAX); /* libcrypto fails only without memory */
}
