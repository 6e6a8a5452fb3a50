/*
 * csv_columns.c - the columns of a CSV export, its header, and one row
 * turned into a struct cl_record with the key and fingerprint recomputed.
 */
#include "csv_internal.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ach.h"
#include "iso20022.h"

/* Value shapes checked before a value is used (what the NACHA and ISO
 * parsers guarantee of the same field). */
enum shape {
	ANY = 0,
	DIGITS,   /* exactly `width` digits (empty allowed unless `needed`) */
	UPPER,    /* exactly `width` letters A-Z */
	DATE,     /* YYYY-MM-DD */
	UUID,     /* lowercase 8-4-4-4-12 */
};

enum scope { ALL, ACH, ISO };

struct column {
	const char *name;
	enum csv_col_type type;
	enum scope scope;   /* whose records may carry a value */
	bool required;      /* the header must name it */
	bool account;       /* masked by exports without --no-mask */
	size_t offset, cap; /* COL_TEXT: the field of struct cl_record */
	enum shape shape;
	int width;
	bool needed;        /* a value is required for records of `scope` */
};

#define X(n, t, sc, req) { #n, t, sc, req, false, 0, 0, ANY, 0, false }
#define T(n, sc, req) \
	{ #n, COL_TEXT, sc, req, false, offsetof(struct cl_record, n), \
	  sizeof(((struct cl_record *)0)->n), ANY, 0, false }
#define S(n, sc, sh, w, need) \
	{ #n, COL_TEXT, sc, true, false, offsetof(struct cl_record, n), \
	  sizeof(((struct cl_record *)0)->n), sh, w, need }
#define A(n, sc) \
	{ #n, COL_TEXT, sc, true, true, offsetof(struct cl_record, n), \
	  sizeof(((struct cl_record *)0)->n), ANY, 0, false }

/* Required: what a key or fingerprint of some kind reads (so a missing
 * column can never change one silently), plus scheme, kind, amount and
 * direction; company_name tells an IAT NOC.  Optional: cosmetic fields and
 * the columns that are checked or ignored. */
static const struct column columns[] = {
	X(file, COL_IGNORED, ALL, false),
	X(position, COL_IGNORED, ALL, false),
	X(scheme, COL_SCHEME, ALL, true),
	X(kind, COL_KIND, ALL, true),
	X(natural_key, COL_NATURAL_KEY, ALL, false),
	X(key_rule, COL_KEY_RULE, ALL, false),
	X(fingerprint, COL_FINGERPRINT, ALL, false),
	X(amount_minor, COL_AMOUNT, ALL, true),
	X(direction, COL_DIRECTION, ALL, true),
	S(currency, ALL, UPPER, 3, true),
	S(value_date, ALL, DATE, 10, false),
	S(trace_number, ACH, DIGITS, 15, true),
	S(sec_code, ACH, UPPER, 3, true),
	S(transaction_code, ACH, DIGITS, 2, true),
	S(receiving_dfi, ACH, DIGITS, 9, true),
	A(receiving_account, ACH),
	T(individual_id, ACH, false),
	T(individual_name, ACH, false),
	T(company_id, ACH, true),
	T(company_name, ACH, true),
	T(company_entry_description, ACH, false),
	T(batch_number, ACH, true),
	T(addenda_text, ACH, false),
	T(reason_code, ALL, true),
	S(original_trace, ACH, DIGITS, 15, false),
	T(original_rdfi, ACH, true),
	T(corrected_data, ACH, true),
	T(dishonored_code, ACH, true),
	T(message_type, ISO, false),
	T(msg_id, ISO, false),
	T(pmt_inf_id, ISO, false),
	T(instr_id, ISO, false),
	T(end_to_end_id, ISO, true),
	T(tx_id, ISO, true),
	S(uetr, ISO, UUID, 36, false),
	T(rtr_id, ISO, true),
	S(orgnl_uetr, ISO, UUID, 36, false),
	T(orgnl_end_to_end_id, ISO, true),
	T(orgnl_tx_id, ISO, true),
	T(orgnl_msg_id, ISO, true),
	T(initiating_party_id, ISO, true),
	T(debtor_name, ISO, false),
	A(debtor_account, ISO),
	T(debtor_agent, ISO, true),
	T(creditor_name, ISO, false),
	A(creditor_account, ISO),
	T(creditor_agent, ISO, true),
	T(instructing_agent, ISO, true),
	T(instructed_agent, ISO, true),
	T(remittance_text, ISO, false),
	X(addenda_count, COL_ADDENDA_COUNT, ACH, false),
};

#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

_Static_assert(NCOLUMNS <= sizeof(((struct cl_csv *)0)->present),
	       "present[] must hold every column");

static const struct {
	const char *kind, *scheme;
} kinds[] = {
	{ "ach.entry", "nacha" },   { "ach.return", "nacha" },  { "ach.noc", "nacha" },
	{ "pain.001", "iso20022" }, { "pacs.008", "iso20022" }, { "pacs.009", "iso20022" },
	{ "pacs.004", "iso20022" },
};

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
		if (strlen(columns[i].name) == len && memcmp(columns[i].name, name, len) == 0)
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
			     r->nfields, NCOLUMNS);
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
		if (columns[c].required && !p->present[c]) {
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

static bool utf8_ok(const unsigned char *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		unsigned c = s[i];
		size_t k;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
			k = 1;
		else if (c >= 0xE0 && c <= 0xEF)
			k = 2;
		else if (c >= 0xF0 && c <= 0xF4)
			k = 3;
		else
			return false;
		for (size_t j = 1; j <= k; j++)
			if (i + j >= n || (s[i + j] & 0xC0) != 0x80)
				return false;
		/* overlong 3- and 4-byte forms, surrogates, above U+10FFFF */
		if ((c == 0xE0 && s[i + 1] < 0xA0) || (c == 0xED && s[i + 1] > 0x9F) ||
		    (c == 0xF0 && s[i + 1] < 0x90) || (c == 0xF4 && s[i + 1] > 0x8F))
			return false;
		i += k + 1;
	}
	return true;
}

static bool has_control(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return true;
	return false;
}

static bool shape_ok(const struct column *c, const char *v, size_t n)
{
	static const char uuid[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";

	if (n == 0)
		return !c->needed;
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
	case DATE: {
		int m, d;

		if (n != 10 || v[4] != '-' || v[7] != '-')
			return false;
		for (size_t i = 0; i < n; i++)
			if (i != 4 && i != 7 && (v[i] < '0' || v[i] > '9'))
				return false;
		m = (v[5] - '0') * 10 + (v[6] - '0');
		d = (v[8] - '0') * 10 + (v[9] - '0');
		return m >= 1 && m <= 12 && d >= 1 && d <= 31;
	}
	case UUID:
		if (n != 36)
			return false;
		for (size_t i = 0; i < n; i++)
			if (uuid[i] == '-' ? v[i] != '-'
					   : !((v[i] >= '0' && v[i] <= '9') || (v[i] >= 'a' && v[i] <= 'f')))
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
	case DATE:
		snprintf(buf, cap, "a date YYYY-MM-DD");
		break;
	case UUID:
		snprintf(buf, cap, "a lowercase UUID");
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
			"pain.001, pacs.008, pacs.009 or pacs.004",
			line, csv_show(s1, sizeof(s1), kind, 40));
	if (strcmp(scheme, rec->scheme) != 0)
		ROW_ERR("csv_scheme", "scheme on line %lu is \"%s\": %s %s record is scheme %s",
			line, csv_show(s2, sizeof(s2), scheme, 40), article(rec->kind), rec->kind,
			rec->scheme);
	return CL_OK;
}

static enum cl_status field(struct cl_csv *p, const struct column *c, const char *v, size_t n,
			    struct cl_record *rec, struct given *g, struct cl_error *err)
{
	unsigned long line = p->row.line;
	bool ach = strcmp(rec->scheme, "nacha") == 0;
	char s1[96], s2[64];
	uint64_t u;

	if (n && c->scope != ALL && (c->scope == ACH) != ach)
		ROW_ERR("csv_field_scope",
			"column %s on line %lu must be empty for %s %s record, found \"%s\"",
			c->name, line, article(rec->kind), rec->kind, csv_show(s1, sizeof(s1), v, 40));
	switch (c->type) {
	case COL_TEXT:
		if (ach && has_control(v, n))
			ROW_ERR("csv_bad_byte",
				"column %s on line %lu has a control character: \"%s\" (NACHA "
				"fields are printable)",
				c->name, line, csv_show(s1, sizeof(s1), v, 40));
		if (c->account && memchr(v, '*', n))
			ROW_ERR("csv_masked",
				"column %s on line %lu is masked (\"%s\"): export the file with "
				"parse --format csv --no-mask",
				c->name, line, csv_show(s1, sizeof(s1), v, 40));
		if (cl_copy_span((char *)rec + c->offset, c->cap, v, n) != 0)
			ROW_ERR("csv_field_length",
				"column %s on line %lu is %zu bytes long: its limit is %zu", c->name,
				line, n, c->cap - 1);
		if (!shape_ok(c, v, n) && (c->scope == ALL || (c->scope == ACH) == ach))
			ROW_ERR("csv_field_format",
				"column %s on line %lu must be %s, found \"%s\"", c->name, line,
				shape_text(c, s2, sizeof(s2)), csv_show(s1, sizeof(s1), v, 40));
		return CL_OK;
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
	if (g->key && strcmp(g->key, rec->natural_key) != 0)
		ROW_ERR("csv_key_mismatch", "natural_key on line %lu is \"%s\", the fields give \"%s\"",
			line, csv_show(s1, sizeof(s1), g->key, 100),
			csv_show(s2, sizeof(s2), rec->natural_key, 100));
	cl_hex32(rec->fingerprint, hex);
	if (g->fingerprint && strcmp(g->fingerprint, hex) != 0)
		ROW_ERR("csv_fingerprint_mismatch",
			"fingerprint on line %lu is \"%s\", the fields give \"%s\"%s", line,
			csv_show(s1, sizeof(s1), g->fingerprint, 64), hex,
			strcmp(rec->kind, "pain.001") == 0
				? " (a pain.001 amount given as EqvtAmt adds its CcyOfTrf, which "
				  "the export does not carry: load the XML file)"
				: "");
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
		if (!utf8_ok((const unsigned char *)v, r->len[i]))
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
	if (strcmp(rec->scheme, "nacha") == 0) {
		int t = (rec->transaction_code[0] - '0') * 10 + (rec->transaction_code[1] - '0');
		enum cl_direction d = cl_ach_tcode_direction(t);

		if (rec->direction != d)
			ROW_ERR("csv_direction",
				"direction on line %lu is \"%s\": transaction code %s is a %s", line,
				cl_direction_name(rec->direction) ? cl_direction_name(rec->direction) : "",
				rec->transaction_code, cl_direction_name(d));
	}
	if ((st = rebuildable(p, rec, &g, err)) != CL_OK)
		return st;
	rec->position = line;
	if (strcmp(rec->scheme, "nacha") == 0) {
		cl_ach_record_key_fingerprint(p->fp, rec, p->opts.ach_key);
	} else if (!cl_iso20022_record_key_fingerprint(p->fp, rec, why, sizeof(why))) {
		ROW_ERR("no_key", "record on line %lu has no natural key: %s", line, why);
	}
	return check_given(p, rec, &g, err);
}
