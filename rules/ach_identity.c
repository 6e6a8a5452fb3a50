/*
 * ach_identity.c - natural key and fingerprint of an ACH record, from its
 * fields (clearing-load-keys(7)).
 *
 *   ach.entry   v1        <company id>|<trace>|<effective date>
 *               v1-batch  <company id>|<batch number>|<trace>|<effective date>
 *   ach.return  v1        <original trace>|<return code>|<trace>|<effective date>
 *   ach.noc     v1        <original trace>|<change code>|<trace>|<effective date>
 *
 * The fingerprint covers the economic fields only.  Names, addenda free
 * text, batch number, file creation time and padding are left out, so a
 * re-batched or re-created file gives the same fingerprint.
 *
 * Fingerprint encoding (rule v1, fixed forever once records are stored):
 * SHA-256 of P followed by E, every field written "<decimal length>:<value>;"
 * (integers in decimal):
 *
 *   P  kind, currency, company_id, sec_code, value_date, then ';' up to
 *      exactly 64 bytes (one SHA-256 block; P is at most 54 bytes of fields)
 *   E  amount_minor, transaction_code, receiving_dfi, receiving_account;
 *      IAT adds the addenda 14 RDFI id qualifier and id, the destination
 *      country and currency; returns and NOCs add reason_code,
 *      original_trace, original_rdfi, corrected_data, dishonored_code
 *
 * Why this shape: P is the same for every record of a kind in a batch, so
 * its block is hashed once per batch and copied; E of a plain entry is at
 * most 52 bytes, one more block.  Field names are left out (with them an
 * entry took four blocks): SHA-256 was over half of the parse time, and
 * validate is to read 500 MB/s.  Fixed-length P and length-prefixed fields keep
 * the encoding unambiguous.
 */
/* SHA-256 through libcrypto's SHA256_CTX (deprecated in OpenSSL 3.0, not
 * removed): a context is a plain struct, so the midstate after P is copied
 * by assignment.  EVP_MD_CTX_copy_ex allocated and freed a context per
 * record, which with its cleansing cost as much as the hashing itself
 * (docs/design/0053-ach-fingerprint-midstate.md). */
#define OPENSSL_SUPPRESS_DEPRECATED
#include "rules/ach_identity.h"

#include <openssl/sha.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

#define P_LEN 64

struct cl_ach_fp {
	SHA256_CTX p_ctx[3];    /* P of this batch absorbed, per kind */
	bool p_ok[3];
	size_t len;
	char buf[1024];         /* E being built (bounded: fields have fixed widths) */
};

static void crypto_failed(void)
{
	(void)cl_xmalloc(SIZE_MAX); /* exits: libcrypto fails only without memory */
}

struct cl_ach_fp *cl_ach_fp_new(void)
{
	return cl_xcalloc(1, sizeof(struct cl_ach_fp));
}

void cl_ach_fp_free(struct cl_ach_fp *f)
{
	free(f);
}

static char *enc(char *o, const char *v, size_t vlen)
{
	char digits[20];
	int nd = 0;
	size_t x = vlen;

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
	return o;
}

static void fp_str(struct cl_ach_fp *f, const char *v)
{
	f->len = (size_t)(enc(f->buf + f->len, v, strlen(v)) - f->buf);
}

static void fp_int(struct cl_ach_fp *f, int64_t v)
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
	f->len = (size_t)(enc(f->buf + f->len, out, (size_t)k) - f->buf);
}

static const char *const kinds[3] = {"ach.entry", "ach.return", "ach.noc"};

/* P for records of `kind` with the batch fields of `r`: exactly P_LEN
 * bytes at p (which has room for P_LEN + 32). */
static void write_p(char *p, const struct cl_record *r, int kind)
{
	char *o = p;

	o = enc(o, kinds[kind], strlen(kinds[kind]));
	o = enc(o, "USD", 3);
	o = enc(o, r->company_id, strlen(r->company_id));
	o = enc(o, r->sec_code, strlen(r->sec_code));
	o = enc(o, r->value_date, strlen(r->value_date));
	memset(o, ';', (size_t)(p + P_LEN - o));
}

/* Absorb P for records of `kind` in the current batch. */
static void absorb_p(struct cl_ach_fp *f, const struct cl_record *r, int kind)
{
	char p[P_LEN + 32];

	write_p(p, r, kind);
	if (!SHA256_Init(&f->p_ctx[kind]) || !SHA256_Update(&f->p_ctx[kind], p, P_LEN))
		crypto_failed();
	f->p_ok[kind] = true;
}

static char *put(char *o, const char *s)
{
	size_t n = strlen(s);

	memcpy(o, s, n);
	o[n] = '|';
	return o + n + 1;
}

void cl_ach_fp_batch(struct cl_ach_fp *f)
{
	for (int k = 0; k < 3; k++)
		f->p_ok[k] = false;
}

static int kind_index(const char *kind)
{
	/* entries first, without a string compare (millions of records) */
	if (kind[0] == 'a' && kind[1] == 'c' && kind[2] == 'h' && kind[3] == '.' && kind[4] == 'e')
		return 0;
	return strcmp(kind, "ach.return") == 0 ? 1 : strcmp(kind, "ach.noc") == 0 ? 2 : 0;
}

/* The natural key of `r` from its own fields (every part has a fixed
 * maximum width: the key always fits). */
static void write_key(struct cl_record *r, int kind, enum cl_ach_key rule)
{
	char *o = r->natural_key;

	r->key_rule = CL_KEY_RULE_V1;
	if (kind == 0) {
		o = put(o, r->company_id);
		if (rule == CL_ACH_KEY_BATCH) {
			o = put(o, r->batch_number);
			r->key_rule = CL_KEY_RULE_V1_ACH_BATCH;
		}
	} else {
		o = put(o, r->original_trace);
		o = put(o, r->reason_code);
	}
	o = put(o, r->trace_number);
	memcpy(o, r->value_date, sizeof(r->value_date));
}

/* E of `r` into f->buf (f->len set); `iat` adds the IAT fields. */
static void write_e(struct cl_ach_fp *f, const struct cl_record *r, int kind,
		    const struct cl_ach_iat *iat)
{
	char *o;

	f->len = 0;
	fp_int(f, r->amount_minor);
	/* "2:<tcode>;9:<rdfi>;": fixed widths */
	o = f->buf + f->len;
	memcpy(o, "2:", 2);
	memcpy(o + 2, r->transaction_code, 2);
	memcpy(o + 4, ";9:", 3);
	memcpy(o + 7, r->receiving_dfi, 9);
	o[16] = ';';
	f->len += 17;
	fp_str(f, r->receiving_account);
	if (iat) {
		fp_str(f, iat->rdfi_qual);
		fp_str(f, iat->rdfi_id);
		fp_str(f, iat->dest_country);
		fp_str(f, iat->dest_currency);
	}
	if (kind != 0) {
		fp_str(f, r->reason_code);
		fp_str(f, r->original_trace);
		fp_str(f, r->original_rdfi);
		fp_str(f, r->corrected_data);
		fp_str(f, r->dishonored_code);
	}
}

void cl_ach_natural_key(struct cl_record *r, enum cl_ach_key rule)
{
	write_key(r, kind_index(r->kind), rule);
	memset(r->fingerprint, 0, sizeof(r->fingerprint));
}

void cl_ach_identity(struct cl_ach_fp *f, struct cl_record *r, enum cl_ach_key rule,
		     const struct cl_ach_iat *iat)
{
	int kind = kind_index(r->kind);
	SHA256_CTX ctx;

	write_key(r, kind, rule);
	write_e(f, r, kind, iat);
	/* company_id, sec_code and value_date are the batch's, so P is
	   absorbed once per batch (cl_ach_fp_batch forgets it) */
	if (!f->p_ok[kind])
		absorb_p(f, r, kind);
	ctx = f->p_ctx[kind];
	if (!SHA256_Update(&ctx, f->buf, f->len) || !SHA256_Final(r->fingerprint, &ctx))
		crypto_failed();
}
