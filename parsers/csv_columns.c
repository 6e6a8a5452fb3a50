/*
 * csv_columns.c - the columns of a CSV export, its header, and one row
 * turned into a struct cl_record with the key and fingerprint recomputed.
 */
#include "parsers/csv_internal.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/banking_days.h"
#include "base/text.h"
#include "parsers/ach.h"
#include "parsers/iso20022.h"
#include "rules/iso_identity.h"

/* Value shapes checked before a value is used (what the NACHA and ISO
 * parsers guarantee of the same field). */
enum shape {
	ANY = 0,
	DIGITS,   /* exactly `width` digits (empty allowed unless `needed`) */
	UPPER,    /* exactly `width` letters A-Z */
};

/* What a value must further be: the checks the record's own parser runs on
 * the same field (its functions, not copies), so that a row reaches the
 * record model only in a form that parser could have given. */
enum check {
	CHK_NONE = 0,
	CHK_DATE,   /* a calendar date YYYY-MM-DD (cl_date_days) */
	CHK_UUID4,  /* a version 4 UUID, stored lowercase (cl_iso_uuid4) */
	CHK_IBAN,   /* ISO account: not an IBAN with blanks or lowercase letters */
	CHK_BIC,    /* ISO agent: not a BIC with blanks or lowercase letters */
	CHK_SEC,    /* a SEC code the NACHA parser reads */
	CHK_TCODE,  /* a NACHA transaction code */
	CHK_CCY,    /* ISO: an ISO 4217 currency with a minor unit */
};

/* A CSV column: the record field it is (record_fields.def: its scope,
 * flags, place in struct cl_record), NULL for the leading "file" column,
 * and how the reader takes it. */
struct column {
	const char *name;
	enum csv_col_type type;
	const struct cl_field *f;
	enum shape shape;
	int width;
	enum check check;
};

/* The columns parse --format csv writes: "file", then every OUT field of
 * record_fields.def in its order (the others are skipped: COL_NONE).  A
 * required column is one a key or fingerprint of some kind reads (so a
 * missing column can never change one silently), plus scheme, kind,
 * amount and direction; company_name tells an IAT NOC. */
static const struct column columns[] = {
	{ "file", COL_IGNORED, NULL, ANY, 0, CHK_NONE },
#define CL_FIELD(n, type, cap, scope, store, flags, since, csv, shape, width, check)          \
	{ #n, COL_##csv, &cl_fields[CL_F_##n], shape, width, CHK_##check },
#include "base/record_fields.def"
#undef CL_FIELD
};

#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

/* The columns parse --format csv writes. */
static size_t csv_columns_written(void)
{
	size_t n = 0;

	for (size_t i = 0; i < NCOLUMNS; i++)
		n += columns[i].type != COL_NONE;
	return n;
}

static bool col_flag(const struct column *c, unsigned flag)
{
	return c->f && (c->f->flags & flag);
}

/* whose records may carry a value */
static bool col_mine(const struct column *c, const struct cl_record *rec)
{
	return !c->f || cl_field_in_scope(c->f, rec);
}

_Static_assert(NCOLUMNS <= sizeof(((struct cl_csv *)0)->present),
	       "present[] must hold every column");

static const struct {
	const char *kind, *scheme;
} kinds[] = {
	{ "ach.entry", "nacha" },   { "ach.return", "nacha" },  { "ach.noc", "nacha" },
	{ "pain.001", "iso20022" }, { "pacs.008", "iso20022" }, { "pacs.009", "iso20022" },
	{ "pacs.004", "iso20022" }, { "pain.008", "iso20022" }, { "pacs.003", "iso20022" },
	{ "camt.056", "iso20022" }, { "camt.029", "iso20022" },
};

/* The direction the XML parser gives an ISO 20022 kind: debit for the
 * direct debits, none for the cancellations, credit for the others. */
static enum cl_direction iso_direction(const char *kind)
{
	if (strcmp(kind, "camt.056") == 0 || strcmp(kind, "camt.029") == 0)
		return CL_DIR_NONE;
	return strcmp(kind, "pain.008") == 0 || strcmp(kind, "pacs.003") == 0 ? CL_DIR_DEBIT
									     : CL_DIR_CREDIT;
}

const char *csv_show(char *buf, size_t cap, const char *s, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0, i;

	for (i = 0; s[i] && o + 8 < cap; i++) {
		unsigned char c = (unsigned char)s[i];

		if (i == max) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (c >= 0x20 && c < 0x7f) {
			buf[o++] = (char)c;
		} else {
			buf[o++] = '\\';
			buf[o++] = 'x';
			buf[o++] = hex[c >> 4];
			buf[o++] = hex[c & 15];
		}
	}
	buf[o] = '\0';
	return buf;
}

/* ---- the header -------------------------------------------------------- */

static int column_index(const char *name, size_t len)
{
	for (size_t i = 0; i < NCOLUMNS; i++)
		if (columns[i].type != COL_NONE && strlen(columns[i].name) == len &&
		    memcmp(columns[i].name, name, len) == 0)
			return (int)i;
	return -1;
}

enum cl_status csv_header(struct cl_csv *p, struct cl_error *err)
{
	struct csv_row *r = &p->row;
	char shown[128];

	if (r->nfields > CL_CSV_MAX_COLUMNS || r->overflow) {
		cl_error_set(err, p->name, r->line, "csv_header",
			     "header row has %lu columns: expected at most %zu (the columns of "
			     "parse --format csv)",
			     r->nfields, csv_columns_written());
		return CL_INVALID;
	}
	memset(p->present, 0, sizeof(p->present));
	for (unsigned long i = 0; i < r->nfields; i++) {
		const char *name = r->buf + r->off[i];
		int c = column_index(name, r->len[i]);

		if (c < 0) {
			cl_error_set(err, p->name, r->line, "csv_column_unknown",
				     "unknown column \"%s\" (column %lu of the header): expected "
				     "a column that parse --format csv writes",
				     csv_show(shown, sizeof(shown), name, 40), i + 1);
			return CL_INVALID;
		}
		if (p->present[c]) {
			unsigned long first = 0;

			while (p->col[first] != c)
				first++;
			cl_error_set(err, p->name, r->line, "csv_column_duplicate",
				     "column \"%s\" appears twice in the header (columns %lu and "
				     "%lu)",
				     columns[c].name, first + 1, i + 1);
			return CL_INVALID;
		}
		p->present[c] = true;
		p->col[i] = c;
	}
	for (size_t c = 0; c < NCOLUMNS; c++)
		if (col_flag(&columns[c], CL_FF_REQUIRED) && !p->present[c]) {
			cl_error_set(err, p->name, r->line, "csv_column_missing",
				     "the header has no column \"%s\": it is required (it enters "
				     "a natural key or fingerprint, or names the record)",
				     columns[c].name);
			return CL_INVALID;
		}
	p->ncols = r->nfields;
	return CL_OK;
}

/* ---- value checks ------------------------------------------------------ */

static bool shape_ok(const struct column *c, const char *v, size_t n)
{
	if (n == 0)
		return !col_flag(c, CL_FF_NEEDED);
	switch (c->shape) {
	case ANY:
		return true;
	case DIGITS:
	case UPPER:
		if (n != (size_t)c->width)
			return false;
		for (size_t i = 0; i < n; i++)
			if (c->shape == DIGITS ? (v[i] < '0' || v[i] > '9')
					       : (v[i] < 'A' || v[i] > 'Z'))
				return false;
		return true;
	}
	return false;
}

static const char *shape_text(const struct column *c, char *buf, size_t cap)
{
	switch (c->shape) {
	case DIGITS:
		snprintf(buf, cap, "%d digits", c->width);
		break;
	case UPPER:
		snprintf(buf, cap, "%d uppercase letters", c->width);
		break;
	case ANY:
		snprintf(buf, cap, "a value");
		break;
	}
	return buf;
}

/* Digits only, at most max: the amount and the addenda count. */
static bool parse_uint(const char *v, size_t n, uint64_t max, uint64_t *out)
{
	uint64_t x = 0;

	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return false;
		if (x > (max - (uint64_t)(v[i] - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(v[i] - '0');
	}
	*out = x;
	return true;
}

/* ---- one row ----------------------------------------------------------- */

struct given {                 /* the checked columns, as found */
	const char *key, *rule, *fingerprint;
};

#define ROW_ERR(code, ...) \
	do { \
		cl_error_set(err, p->name, line, code, __VA_ARGS__); \
		return CL_INVALID; \
	} while (0)

/* "an ach.entry", "a pain.001" */
static const char *article(const char *kind)
{
	return kind[0] == 'a' ? "an" : "a";
}

/* scheme and kind first: every other check depends on them */
static enum cl_status identity(struct cl_csv *p, struct cl_record *rec, struct cl_error *err)
{
	const struct csv_row *r = &p->row;
	unsigned long line = r->line;
	const char *scheme = NULL, *kind = NULL;
	char s1[96], s2[96];

	for (unsigned long i = 0; i < p->ncols; i++) {
		if (columns[p->col[i]].type == COL_SCHEME)
			scheme = r->buf + r->off[i];
		else if (columns[p->col[i]].type == COL_KIND)
			kind = r->buf + r->off[i];
	}
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (strcmp(kind, kinds[k].kind) == 0) {
			rec->kind = kinds[k].kind;
			rec->scheme = kinds[k].scheme;
		}
	if (!rec->kind)
		ROW_ERR("csv_kind",
			"kind on line %lu is \"%s\": expected ach.entry, ach.return, ach.noc, "
			"pain.001, pacs.008, pacs.009, pacs.004, pain.008, pacs.003, camt.056 or "
			"camt.029",
			line, csv_show(s1, sizeof(s1), kind, 40));
	if (strcmp(scheme, rec->scheme) != 0)
		ROW_ERR("csv_scheme", "scheme on line %lu is \"%s\": %s %s record is scheme %s",
			line, csv_show(s2, sizeof(s2), scheme, 40), article(rec->kind), rec->kind,
			rec->scheme);
	return CL_OK;
}

/* The blanks the record's parser drops from the same field: an ISO value
 * loses the blanks around it (as every XML text does), a NACHA value its
 * trailing spaces and the company id its leading ones too. */
static void trim(const struct column *c, bool ach, const char **v, size_t *n)
{
	if (!ach) {
		cl_iso_trim(v, n);
		return;
	}
	while (*n > 0 && (*v)[*n - 1] == ' ')
		(*n)--;
	if (c->f == &cl_fields[CL_F_company_id])
		while (*n > 0 && **v == ' ') {
			(*v)++;
			(*n)--;
		}
}

/* Letters a-z made A-Z and blanks dropped, into out[cap]; false when it
 * does not fit or nothing changed (the value was already so written). */
static bool squeezed_upper(const char *v, char *out, size_t cap)
{
	size_t o = 0;
	bool changed = false;

	for (; *v; v++) {
		if (*v == ' ') {
			changed = true;
			continue;
		}
		if (o + 1 >= cap)
			return false;
		changed |= *v >= 'a' && *v <= 'z';
		out[o++] = (char)(*v >= 'a' && *v <= 'z' ? *v - 'a' + 'A' : *v);
	}
	out[o] = '\0';
	return changed;
}

/* The value, now in the record at dst, against the parser's own check. */
static enum cl_status value_check(struct cl_csv *p, const struct column *c, char *dst,
				  bool ach, struct cl_error *err)
{
	unsigned long line = p->row.line;
	char s1[96], up[CL_CSV_FIELD_MAX];
	long days;

	if (!dst[0])
		return CL_OK;
	switch (c->check) {
	case CHK_NONE:
		break;
	case CHK_DATE:
		if (!cl_date_days(dst, &days))
			ROW_ERR("csv_field_format",
				"column %s on line %lu must be a calendar date YYYY-MM-DD, found "
				"\"%s\"",
				c->name, line, csv_show(s1, sizeof(s1), dst, 40));
		break;
	case CHK_UUID4: {
		char lower[37];

		if (strlen(dst) != 36 || !cl_iso_uuid4(dst, lower))
			ROW_ERR("csv_field_format",
				"column %s on line %lu must be a version 4 UUID "
				"(xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx), found \"%s\"",
				c->name, line, csv_show(s1, sizeof(s1), dst, 40));
		memcpy(dst, lower, sizeof(lower)); /* the parser keeps it lowercase */
		break;
	}
	case CHK_IBAN:
		/* an Othr/Id may be any text; an IBAN is never written with
		 * blanks or lowercase letters: the XML parser refuses it */
		if (squeezed_upper(dst, up, sizeof(up)) && cl_iso_iban_shape(up) &&
		    cl_iso_iban_check(up))
			ROW_ERR("csv_field_format",
				"column %s on line %lu is an IBAN written with blanks or lowercase "
				"letters: the XML parser refuses such an IBAN (write it in capitals "
				"without blanks, as the XML file has it)",
				c->name, line);
		break;
	case CHK_BIC:
		if (squeezed_upper(dst, up, sizeof(up)) && cl_iso_bic_shape(up))
			ROW_ERR("csv_field_format",
				"column %s on line %lu is a BIC written with blanks or lowercase "
				"letters (\"%s\"): the XML parser refuses it as not a BIC (write it "
				"in capitals without blanks)",
				c->name, line, csv_show(s1, sizeof(s1), dst, 40));
		break;
	case CHK_SEC:
		if (!cl_ach_sec_known(dst))
			ROW_ERR("csv_field_format",
				"column sec_code on line %lu is \"%s\": not a SEC code the NACHA "
				"parser reads",
				line, csv_show(s1, sizeof(s1), dst, 40));
		break;
	case CHK_TCODE:
		if (!cl_ach_tcode_known((dst[0] - '0') * 10 + (dst[1] - '0')))
			ROW_ERR("csv_field_format",
				"column transaction_code on line %lu is \"%s\": not a NACHA "
				"transaction code",
				line, dst);
		break;
	case CHK_CCY:
		if (!ach && cl_iso_ccy_exponent(dst) < 0)
			ROW_ERR("csv_field_format",
				"column currency on line %lu is \"%s\": not an ISO 4217 currency "
				"with a minor unit",
				line, dst);
		break;
	}
	return CL_OK;
}

static enum cl_status field(struct cl_csv *p, const struct column *c, const char *v, size_t n,
			    struct cl_record *rec, struct given *g, struct cl_error *err)
{
	unsigned long line = p->row.line;
	bool ach = strcmp(rec->scheme, "nacha") == 0;
	bool mine = col_mine(c, rec);
	char s1[96], s2[64];
	uint64_t u;

	if (c->type == COL_TEXT && mine && c->shape == ANY)
		trim(c, ach, &v, &n);
	if (n && !mine) {
		if (col_flag(c, CL_FF_ACCOUNT | CL_FF_PERSONAL))
			ROW_ERR("csv_field_scope",
				"column %s on line %lu must be empty for %s %s record", c->name,
				line, article(rec->kind), rec->kind);
		ROW_ERR("csv_field_scope",
			"column %s on line %lu must be empty for %s %s record, found \"%s\"",
			c->name, line, article(rec->kind), rec->kind, csv_show(s1, sizeof(s1), v, 40));
	}
	switch (c->type) {
	case COL_TEXT: {
		const char *bad = ach ? v : NULL;

		while (bad && bad < v + n && (unsigned char)*bad >= 0x20 && *bad != 0x7f)
			bad++;
		/* the byte is named, never the value: it may be an account or a name */
		if (bad && bad < v + n)
			ROW_ERR("csv_bad_byte",
				"column %s on line %lu has a control character (byte %zu is 0x%02x): "
				"NACHA fields are printable",
				c->name, line, (size_t)(bad - v) + 1, (unsigned)(unsigned char)*bad);
		if (col_flag(c, CL_FF_ACCOUNT) && memchr(v, '*', n))
			ROW_ERR("csv_masked",
				"column %s on line %lu is masked: export the file with "
				"parse --format csv --no-mask",
				c->name, line);
		if (cl_copy_span((char *)rec + c->f->offset, c->f->size, v, n) != 0)
			ROW_ERR("csv_field_length",
				"column %s on line %lu is %zu bytes long: its limit is %zu", c->name,
				line, n, c->f->size - 1);
		/* a cancellation (camt.056, camt.029) without the original's
		   amount has no currency either */
		if (!shape_ok(c, v, n) && mine &&
		    !(n == 0 && c->f == &cl_fields[CL_F_currency] &&
		      (strcmp(rec->kind, "camt.056") == 0 || strcmp(rec->kind, "camt.029") == 0)))
			ROW_ERR("csv_field_format",
				"column %s on line %lu must be %s, found \"%s\"", c->name, line,
				shape_text(c, s2, sizeof(s2)), csv_show(s1, sizeof(s1), v, 40));
		return mine ? value_check(p, c, (char *)rec + c->f->offset, ach, err) : CL_OK;
	}
	case COL_AMOUNT:
		if (!parse_uint(v, n, INT64_MAX, &u))
			ROW_ERR("csv_amount",
				"amount_minor on line %lu must be a whole number of minor units "
				"from 0 to %" PRId64 ", found \"%s\"",
				line, INT64_MAX, csv_show(s1, sizeof(s1), v, 40));
		rec->amount_minor = (int64_t)u;
		return CL_OK;
	case COL_DIRECTION:
		if (n == 0)
			rec->direction = CL_DIR_NONE;
		else if (strcmp(v, "credit") == 0)
			rec->direction = CL_DIR_CREDIT;
		else if (strcmp(v, "debit") == 0)
			rec->direction = CL_DIR_DEBIT;
		else
			ROW_ERR("csv_direction",
				"direction on line %lu must be credit, debit or empty, found \"%s\"",
				line, csv_show(s1, sizeof(s1), v, 40));
		return CL_OK;
	case COL_ADDENDA_COUNT:
		if (!ach)
			return CL_OK;
		if (!parse_uint(v, n, 9999, &u))
			ROW_ERR("csv_addenda_count",
				"addenda_count on line %lu must be a number from 0 to 9999, found "
				"\"%s\"",
				line, csv_show(s1, sizeof(s1), v, 40));
		rec->addenda_count = (unsigned)u;
		return CL_OK;
	case COL_NATURAL_KEY:
		g->key = v;
		return CL_OK;
	case COL_KEY_RULE:
		g->rule = v;
		return CL_OK;
	case COL_FINGERPRINT:
		g->fingerprint = v;
		return CL_OK;
	case COL_IGNORED:
	case COL_NONE:
	case COL_SCHEME:
	case COL_KIND:
		break;
	}
	return CL_OK;
}

/* Kinds the columns cannot rebuild exactly: refused, never guessed. */
static enum cl_status rebuildable(struct cl_csv *p, const struct cl_record *rec,
				  const struct given *g, struct cl_error *err)
{
	unsigned long line = p->row.line;

	if (strcmp(rec->sec_code, "IAT") == 0)
		ROW_ERR("csv_unsupported",
			"IAT entry on line %lu cannot be read from CSV: its fingerprint covers "
			"addenda 14 and batch header fields the export does not carry (load the "
			"NACHA file)",
			line);
	if (strcmp(rec->sec_code, "COR") == 0 && !rec->company_name[0])
		ROW_ERR("csv_unsupported",
			"COR record on line %lu has no company_name, as an IAT notification of "
			"change (IATCOR) has: its fingerprint covers IAT batch header fields the "
			"export does not carry (load the NACHA file)",
			line);
	if (strcmp(rec->kind, "pacs.009") == 0)
		ROW_ERR("csv_unsupported",
			"pacs.009 record on line %lu cannot be read from CSV: its fingerprint "
			"covers the debtor and creditor institutions (Dbtr, Cdtr), which the "
			"export does not carry (load the XML file)",
			line);
	if (g->rule && strcmp(g->rule, CL_KEY_RULE_V1_POSITIONAL) == 0)
		ROW_ERR("csv_unsupported",
			"record on line %lu was keyed by position (key_rule v1-positional): "
			"its key needs its index in the XML file, which the export does not "
			"carry (load the XML file with --positional-keys)",
			line);
	return CL_OK;
}

/* Part i (from 0) of a key whose parts are separated by '|': *n bytes at
 * the returned pointer; NULL when the key has fewer parts. */
static const char *key_part(const char *key, unsigned i, size_t *n)
{
	for (; i > 0; i--) {
		key = strchr(key, '|');
		if (!key)
			return NULL;
		key++;
	}
	*n = strcspn(key, "|");
	return key;
}

/* Is this key part one of the record's account numbers? */
static bool is_account(const struct cl_record *rec, const char *s, size_t n)
{
	const char *const acct[] = { rec->receiving_account, rec->debtor_account,
				     rec->creditor_account };

	for (size_t i = 0; i < sizeof(acct) / sizeof(acct[0]); i++)
		if (acct[i][0] && strlen(acct[i]) == n && memcmp(acct[i], s, n) == 0)
			return true;
	return false;
}

/* A key part for a message: an account masked as everywhere else, since
 * messages reach logs and clearing_load.reason. */
static const char *show_part(char *buf, size_t cap, const char *s, size_t n, bool account)
{
	char part[CL_KEY_MAX];

	if (!s)
		return "(none)";
	if (n >= sizeof(part))
		n = sizeof(part) - 1;
	if (account) {
		/* the last four bytes stay: shown escaped like any other text */
		cl_iso_mask_account(s, n, part, sizeof(part));
	} else {
		memcpy(part, s, n);
		part[n] = '\0';
	}
	return csv_show(buf, cap, part, 60);
}

static enum cl_status check_given(struct cl_csv *p, const struct cl_record *rec,
				  const struct given *g, struct cl_error *err)
{
	unsigned long line = p->row.line;
	char s1[128], s2[128], hex[65];

	if (g->rule && strcmp(g->rule, rec->key_rule) != 0)
		ROW_ERR("csv_key_rule_mismatch",
			"key_rule on line %lu is \"%s\", the fields give \"%s\"%s", line,
			csv_show(s1, sizeof(s1), g->rule, 20), rec->key_rule,
			strcmp(rec->scheme, "nacha") == 0 ? " (see --ach-key)" : "");
	if (g->key && strcmp(g->key, rec->natural_key) != 0) {
		/* the first part that differs, never the whole keys: a key can
		 * hold an account number */
		const char *a, *b;
		size_t na = 0, nb = 0;
		unsigned i = 0;
		bool acct;

		for (;; i++) {
			a = key_part(g->key, i, &na);
			b = key_part(rec->natural_key, i, &nb);
			if (!a || !b || na != nb || memcmp(a, b, na) != 0)
				break;
		}
		acct = (a && is_account(rec, a, na)) || (b && is_account(rec, b, nb));
		ROW_ERR("csv_key_mismatch",
			"natural_key on line %lu is not the key its fields give: part %u is \"%s\" "
			"in the natural_key column, \"%s\" from the fields",
			line, i + 1, show_part(s1, sizeof(s1), a, na, acct),
			show_part(s2, sizeof(s2), b, nb, acct));
	}
	cl_hex32(rec->fingerprint, hex);
	if (g->fingerprint && strcmp(g->fingerprint, hex) != 0)
		ROW_ERR("csv_fingerprint_mismatch",
			"fingerprint on line %lu is \"%s\", the fields give \"%s\": a field that "
			"enters the fingerprint was changed after export%s",
			line, csv_show(s1, sizeof(s1), g->fingerprint, 64), hex,
			strcmp(rec->kind, "pain.001") == 0
				? " (or the XML file gave the amount as EqvtAmt, whose CcyOfTrf "
				  "the export does not carry: then load the XML file)"
				: "");
	return CL_OK;
}

/* The addenda fields as the NACHA parser gives them: a return has a known
 * reason code (and maybe a dishonored or contested one), a NOC a change
 * code and corrected data, both the original trace and RDFI; an entry none
 * of these (its addenda 05 text is addenda_text). */
static enum cl_status nacha_addenda(struct cl_csv *p, const struct cl_record *rec,
				    struct cl_error *err)
{
	unsigned long line = p->row.line;
	bool ret = strcmp(rec->kind, "ach.return") == 0, noc = strcmp(rec->kind, "ach.noc") == 0;
	const char *code = rec->reason_code;
	char s1[96];

	if (!ret && !noc) {
		static const size_t off[] = { offsetof(struct cl_record, reason_code),
					      offsetof(struct cl_record, original_trace),
					      offsetof(struct cl_record, original_rdfi),
					      offsetof(struct cl_record, corrected_data),
					      offsetof(struct cl_record, dishonored_code) };
		static const char *const name[] = { "reason_code", "original_trace",
						     "original_rdfi", "corrected_data",
						     "dishonored_code" };

		for (size_t i = 0; i < sizeof(off) / sizeof(off[0]); i++)
			if (((const char *)rec + off[i])[0])
				ROW_ERR("csv_field_scope",
					"column %s on line %lu must be empty for an ach.entry "
					"record (returns and NOCs carry it)",
					name[i], line);
		if (strcmp(rec->sec_code, "COR") == 0)
			ROW_ERR("csv_kind",
				"kind on line %lu is ach.entry with SEC code COR: a COR entry is a "
				"notification of change (ach.noc)",
				line);
		return CL_OK;
	}
	if (strlen(code) != 3 ||
	    !(ret ? cl_ach_return_code_known(code) : cl_ach_change_code_known(code)))
		ROW_ERR("csv_field_format",
			"column reason_code on line %lu must be %s, found \"%s\"", line,
			ret ? "a return reason code R01-R53, R61, R62, R67-R77 or R80-R85"
			    : "a change code C01-C14 or C61-C69",
			csv_show(s1, sizeof(s1), code, 40));
	if (!rec->original_trace[0] || !rec->original_rdfi[0])
		ROW_ERR("csv_field_format",
			"column %s on line %lu is empty: %s %s names the original entry's trace "
			"number and RDFI",
			rec->original_trace[0] ? "original_rdfi" : "original_trace", line,
			article(rec->kind), rec->kind);
	if (rec->dishonored_code[0] &&
	    (!ret || strlen(rec->dishonored_code) != 3 ||
	     !cl_ach_second_return_code(rec->dishonored_code)))
		ROW_ERR("csv_field_format",
			"column dishonored_code on line %lu must be %s, found \"%s\"", line,
			ret ? "empty or a dishonored (R61, R62, R67-R70) or contested (R71-R77) "
			      "return code"
			    : "empty for an ach.noc record",
			csv_show(s1, sizeof(s1), rec->dishonored_code, 40));
	if (ret && rec->corrected_data[0])
		ROW_ERR("csv_field_scope",
			"column corrected_data on line %lu must be empty for an ach.return record "
			"(NOCs carry it)",
			line);
	return CL_OK;
}

/* What the NACHA parser refuses of a record that columns can still give:
 * a direction other than the transaction code's, a code the SEC code does
 * not allow, an entry (not a return or NOC) without effective entry date. */
static enum cl_status nacha_rules(struct cl_csv *p, const struct cl_record *rec,
				  const struct given *g, struct cl_error *err)
{
	unsigned long line = p->row.line;
	int t = (rec->transaction_code[0] - '0') * 10 + (rec->transaction_code[1] - '0');
	enum cl_direction d = cl_ach_tcode_direction(t);
	const char *why = cl_ach_tcode_sec_problem(t, rec->sec_code);
	enum cl_status st;
	bool adv = t >= 81 && t <= 88;

	if (rec->direction != d)
		ROW_ERR("csv_direction", "direction on line %lu is \"%s\": transaction code %s is a %s",
			line,
			cl_direction_name(rec->direction) ? cl_direction_name(rec->direction) : "",
			rec->transaction_code, cl_direction_name(d));
	if (why)
		ROW_ERR("csv_transaction_code",
			"transaction code %s on line %lu is not valid in a %s batch: %s",
			rec->transaction_code, line, rec->sec_code, why);
	if (cl_ach_tcode_zero_amount(t) && rec->amount_minor != 0)
		ROW_ERR("csv_amount",
			"amount_minor on line %lu is %" PRId64 ": transaction code %s (prenote or "
			"zero-dollar entry) must have amount 0",
			line, rec->amount_minor, rec->transaction_code);
	if (rec->amount_minor > (adv ? INT64_C(999999999999) : INT64_C(9999999999)))
		ROW_ERR("csv_amount",
			"amount_minor on line %lu is %" PRId64 ": a NACHA amount has at most %d "
			"digits",
			line, rec->amount_minor, adv ? 12 : 10);
	if (strlen(rec->receiving_account) > (adv ? 15u : 17u))
		ROW_ERR("csv_field_length",
			"column receiving_account on line %lu is %zu bytes long: a NACHA %s holds %u",
			line, strlen(rec->receiving_account),
			adv ? "ADV entry's account (columns 13-27)" : "DFI account number (columns 13-29)",
			adv ? 15u : 17u);
	if (!cl_ach_routing_ok(rec->receiving_dfi))
		ROW_ERR("csv_field_format",
			"column receiving_dfi on line %lu is \"%s\": its check digit (the 9th) is "
			"not the ABA check digit of the first 8",
			line, rec->receiving_dfi);
	if ((st = nacha_addenda(p, rec, err)) != CL_OK)
		return st;
	if (rec->value_date[0])
		return CL_OK;
	/* the date is part of the key: empty, the same entry would get a new
	 * one.  ENR batches carry none; returns and NOCs may have none, and
	 * only the exported key tells that from a date removed. */
	if (strcmp(rec->kind, "ach.entry") == 0 && strcmp(rec->sec_code, "ENR") != 0)
		ROW_ERR("csv_value_date",
			"value_date on line %lu is empty: an ach.entry needs its effective entry "
			"date, which is part of what identifies a payment (the NACHA parser "
			"refuses an entry without one too)",
			line);
	if (strcmp(rec->kind, "ach.entry") != 0 && !g->key)
		ROW_ERR("csv_value_date",
			"value_date on line %lu is empty and the file has no natural_key column: "
			"only the exported key tells %s %s without effective entry date from one "
			"whose date was removed (keep the natural_key column)",
			line, article(rec->kind), rec->kind);
	return CL_OK;
}

enum cl_status csv_row_record(struct cl_csv *p, struct cl_error *err)
{
	const struct csv_row *r = &p->row;
	struct cl_record *rec = &p->rec;
	unsigned long line = r->line;
	struct given g = { NULL, NULL, NULL };
	char why[CL_MSGTEXT_MAX / 2];
	enum cl_status st;

	cl_record_clear(rec);
	rec->ordinal = ++p->ordinals; /* the row's index, kept by a row with errors */
	if (r->nfields != p->ncols)
		ROW_ERR("csv_field_count", "line %lu has %lu fields: the header has %lu", line,
			r->nfields, p->ncols);
	for (unsigned long i = 0; i < p->ncols; i++) {
		const char *v = r->buf + r->off[i];

		if (memchr(v, '\0', r->len[i]))
			ROW_ERR("csv_bad_byte", "column %s on line %lu contains a NUL byte",
				columns[p->col[i]].name, line);
		if (!cl_utf8_valid((const unsigned char *)v, r->len[i]))
			ROW_ERR("csv_utf8", "column %s on line %lu is not valid UTF-8",
				columns[p->col[i]].name, line);
	}
	if ((st = identity(p, rec, err)) != CL_OK)
		return st;
	for (unsigned long i = 0; i < p->ncols; i++)
		if ((st = field(p, &columns[p->col[i]], r->buf + r->off[i], r->len[i], rec, &g,
				err)) != CL_OK)
			return st;
	if (strcmp(rec->scheme, "nacha") == 0 && strcmp(rec->currency, "USD") != 0)
		ROW_ERR("csv_field_format", "currency on line %lu must be USD for %s %s record, found \"%s\"",
			line, article(rec->kind), rec->kind, rec->currency);
	if (strcmp(rec->scheme, "nacha") == 0 && (st = nacha_rules(p, rec, &g, err)) != CL_OK)
		return st;
	if (strcmp(rec->scheme, "iso20022") == 0 && rec->direction != iso_direction(rec->kind))
		ROW_ERR("csv_direction",
			"direction on line %lu is \"%s\": the XML parser gives every %s record "
			"the direction %s",
			line, cl_direction_name(rec->direction) ? cl_direction_name(rec->direction) : "",
			rec->kind,
			cl_direction_name(iso_direction(rec->kind)) ? cl_direction_name(iso_direction(rec->kind))
								    : "none");
	/* what the XML parser requires of every pain.001 transaction */
	if (strcmp(rec->kind, "pain.001") == 0 && (!rec->value_date[0] || !rec->debtor_account[0]))
		ROW_ERR("csv_field_format",
			"column %s on line %lu is empty: a pain.001 has its %s",
			rec->value_date[0] ? "debtor_account" : "value_date", line,
			rec->value_date[0] ? "debtor account (DbtrAcct/Id)"
					   : "requested execution date (ReqdExctnDt)");
	if ((st = rebuildable(p, rec, &g, err)) != CL_OK)
		return st;
	rec->position = line;
	if (strcmp(rec->kind, "pain.001") == 0 && cl_iso_id_unusable(rec->end_to_end_id) &&
	    (rec->debtor_account[0] || rec->initiating_party_id[0]))
		ROW_ERR("no_key",
			"record on line %lu has no natural key: EndToEndId is %s, and positional "
			"keys (MsgId, PmtInfId and position) cannot be rebuilt from a CSV export: "
			"load the XML file%s",
			line, rec->end_to_end_id[0] ? "NOTPROVIDED" : "empty",
			p->opts.positional_keys ? " with --positional-keys" : "");
	if (strcmp(rec->scheme, "nacha") == 0) {
		/* each row has batch fields of its own */
		cl_ach_fp_batch(p->afp);
		cl_ach_identity(p->afp, rec, p->opts.ach_key, NULL);
	} else if (!cl_iso20022_record_key_fingerprint(p->fp, rec, why, sizeof(why))) {
		ROW_ERR("no_key", "record on line %lu has no natural key: %s", line, why);
	}
	return check_given(p, rec, &g, err);
}
