/* csv_map.c - a bank CSV export's column map read from its file
 * (csv_map.h): lines "key = value", "#" comments, blank lines. */
#include "parsers/csv_map.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAP_MAX_BYTES (64u << 10) /* a map is some lines */

bool cl_csv_col_set(const struct cl_csv_col *c)
{
	return c->name[0] || c->number > 0;
}

struct ctx {
	struct cl_csv_map *m;
	struct cl_error *err;
	unsigned long line;
	const char *key;
};

static enum cl_status bad(struct ctx *c, const char *expected, const char *found)
{
	cl_error_set(c->err, c->m->path, c->line, "csv_map",
		     "%s: expected %s, found \"%.60s\"", c->key, expected, found);
	cl_error_hint(c->err, "correct the map file (its keys: clearing-load(1), BANK CSV "
			      "STATEMENTS)");
	return CL_INVALID;
}

/* A column: "#N" (its number) or a header name (quotes optional). */
static enum cl_status column(struct ctx *c, const char *v, struct cl_csv_col *col)
{
	memset(col, 0, sizeof(*col));
	col->line = (unsigned)c->line;
	if (v[0] == '#') {
		char *end;
		unsigned long n;

		errno = 0;
		n = strtoul(v + 1, &end, 10);
		if (!isdigit((unsigned char)v[1]) || *end || errno || n < 1 || n > 1000)
			return bad(c, "a column number #1 to #1000 or a header name", v);
		col->number = (unsigned)n;
		return CL_OK;
	}
	if (!v[0] || strlen(v) >= sizeof(col->name))
		return bad(c, "a column number (#3) or a header name of 1 to 63 bytes", v);
	memcpy(col->name, v, strlen(v) + 1);
	return CL_OK;
}

/* A quoted value ("EUR"): a fixed value, not a column. */
static bool quoted(const char *v, char *out, size_t cap)
{
	size_t n = strlen(v);

	if (n < 2 || v[0] != '"' || v[n - 1] != '"' || n - 2 >= cap)
		return false;
	memcpy(out, v + 1, n - 2);
	out[n - 2] = '\0';
	return true;
}

static enum cl_status one_char(struct ctx *c, const char *v, char *out, bool allow_none)
{
	char q[8];

	if (strcmp(v, "tab") == 0 || strcmp(v, "\\t") == 0)
		*out = '\t';
	else if (strcmp(v, "semicolon") == 0)
		*out = ';';
	else if (strcmp(v, "comma") == 0)
		*out = ',';
	else if (strcmp(v, "space") == 0)
		*out = ' ';
	else if (allow_none && strcmp(v, "none") == 0)
		*out = '\0';
	else if (quoted(v, q, sizeof(q)) && strlen(q) == 1)
		*out = q[0];
	else if (strlen(v) == 1 && ispunct((unsigned char)v[0]))
		*out = v[0];
	else
		return bad(c, allow_none ? "one character, tab, semicolon, comma, space or none"
					 : "one character, tab, semicolon or comma",
			   v);
	return CL_OK;
}

static bool date_format_ok(const char *v)
{
	const char *y = strstr(v, "YYYY"), *mo = strstr(v, "MM"), *d = strstr(v, "DD");

	if (!y || !mo || !d || strlen(v) >= 16 || strstr(y + 4, "YYYY") ||
	    strstr(mo + 2, "MM") || strstr(d + 2, "DD"))
		return false;
	for (const char *s = v; *s; s++)
		if (*s != 'Y' && *s != 'M' && *s != 'D' && !strchr("-./ ", *s))
			return false;
	return true;
}

static enum cl_status yes_no(struct ctx *c, const char *v, bool *out)
{
	if (strcmp(v, "yes") == 0)
		*out = true;
	else if (strcmp(v, "no") == 0)
		*out = false;
	else
		return bad(c, "yes or no", v);
	return CL_OK;
}

/* The map file's keys of columns (its own vocabulary: clearing-load(1),
 * BANK CSV STATEMENTS), each once, with the column it sets; written with
 * KEY() as they are the file's words, not the columns of the schema. */
#define KEY(k) #k
static const struct {
	const char *key;
	size_t off;
} col_keys[] = {
	{ KEY(booking_date), offsetof(struct cl_csv_map, booking_date) },
	{ KEY(value_date), offsetof(struct cl_csv_map, value_date) },
	{ KEY(amount), offsetof(struct cl_csv_map, amount) },
	{ KEY(debit), offsetof(struct cl_csv_map, debit) },
	{ KEY(credit), offsetof(struct cl_csv_map, credit) },
	{ KEY(direction), offsetof(struct cl_csv_map, mark) },
	{ KEY(balance), offsetof(struct cl_csv_map, balance) },
	{ KEY(end_to_end_id), offsetof(struct cl_csv_map, end_to_end_id) },
	{ KEY(bank_reference), offsetof(struct cl_csv_map, bank_reference) },
	{ KEY(customer_reference), offsetof(struct cl_csv_map, customer_reference) },
	{ KEY(code), offsetof(struct cl_csv_map, code) },
	{ KEY(counterparty), offsetof(struct cl_csv_map, counterparty) },
	{ KEY(currency), offsetof(struct cl_csv_map, currency) },
	{ KEY(account), offsetof(struct cl_csv_map, account) },
	{ KEY(text), offsetof(struct cl_csv_map, text) },
	{ KEY(text), offsetof(struct cl_csv_map, text) + sizeof(struct cl_csv_col) },
	{ KEY(text), offsetof(struct cl_csv_map, text) + 2 * sizeof(struct cl_csv_col) },
	{ KEY(text), offsetof(struct cl_csv_map, text) + 3 * sizeof(struct cl_csv_col) },
};
#define NCOLS (sizeof(col_keys) / sizeof(col_keys[0]))
#define COL_CURRENCY 12 /* currency, account, text: a fixed value or a list too */

const char *cl_csv_map_key(const struct cl_csv_map *m, const struct cl_csv_col *col)
{
	for (size_t i = 0; i < NCOLS; i++)
		if ((const char *)col == (const char *)m + col_keys[i].off)
			return col_keys[i].key;
	return "";
}

static struct cl_csv_col *col_at(struct cl_csv_map *m, size_t i)
{
	return (struct cl_csv_col *)(void *)((char *)m + col_keys[i].off);
}

static enum cl_status set(struct ctx *c, const char *k, const char *v)
{
	struct cl_csv_map *m = c->m;

	c->key = k;
	for (size_t i = 0; i < COL_CURRENCY; i++)
		if (strcmp(k, col_keys[i].key) == 0)
			return column(c, v, col_at(m, i));
	if (strcmp(k, col_keys[COL_CURRENCY].key) == 0) {
		char q[8];

		if (quoted(v, q, sizeof(q))) {
			if (strlen(q) != 3 || !isupper((unsigned char)q[0]) ||
			    !isupper((unsigned char)q[1]) || !isupper((unsigned char)q[2]))
				return bad(c, "a currency code of three capitals (\"EUR\") or a column", v);
			memcpy(m->fixed_currency, q, 4);
			return CL_OK;
		}
		return column(c, v, &m->currency);
	}
	if (strcmp(k, col_keys[COL_CURRENCY + 1].key) == 0) {
		if (v[0] == '"') {
			if (!quoted(v, m->fixed_account, sizeof(m->fixed_account)) ||
			    !m->fixed_account[0] || strchr(m->fixed_account, '|'))
				return bad(c, "an account (\"NL91ABNA0417164300\") or a column", v);
			return CL_OK;
		}
		return column(c, v, &m->account);
	}
	if (strcmp(k, col_keys[COL_CURRENCY + 2].key) == 0) {
		if (m->ntext == CL_CSV_MAP_TEXTS)
			return bad(c, "at most 4 text columns", v);
		return column(c, v, &m->text[m->ntext++]);
	}
	if (strcmp(k, "bank") == 0) {
		size_t n = strlen(v);

		if (n < 1 || n >= sizeof(m->bank) || strspn(v, "abcdefghijklmnopqrstuvwxyz0123456789._-") != n)
			return bad(c, "an id of 1 to 31 of a-z 0-9 . _ - (\"ing-nl\")", v);
		memcpy(m->bank, v, n + 1);
		return CL_OK;
	}
	if (strcmp(k, "delimiter") == 0)
		return one_char(c, v, &m->delimiter, false);
	if (strcmp(k, "quote") == 0)
		return one_char(c, v, &m->quote, true);
	if (strcmp(k, "thousands") == 0)
		return one_char(c, v, &m->thousands, true);
	if (strcmp(k, "decimal") == 0) {
		if (one_char(c, v, &m->decimal, false) != CL_OK || (m->decimal != '.' && m->decimal != ','))
			return bad(c, "\".\" or \",\"", v);
		return CL_OK;
	}
	if (strcmp(k, "header") == 0)
		return yes_no(c, v, &m->header);
	if (strcmp(k, "skip") == 0) {
		char *end;
		unsigned long n;

		errno = 0;
		n = strtoul(v, &end, 10);
		if (!isdigit((unsigned char)v[0]) || *end || errno || n > 100)
			return bad(c, "a number of lines 0 to 100", v);
		m->skip = (unsigned)n;
		return CL_OK;
	}
	if (strcmp(k, "encoding") == 0) {
		if (strcmp(v, "utf-8") == 0)
			m->encoding = CL_CSV_UTF8;
		else if (strcmp(v, "latin-1") == 0 || strcmp(v, "iso-8859-1") == 0)
			m->encoding = CL_CSV_LATIN1;
		else if (strcmp(v, "windows-1252") == 0)
			m->encoding = CL_CSV_CP1252;
		else
			return bad(c, "utf-8, latin-1 (iso-8859-1) or windows-1252", v);
		return CL_OK;
	}
	if (strcmp(k, "date_format") == 0) {
		if (!date_format_ok(v))
			return bad(c, "YYYY, MM and DD once each with - . / or blank between "
				      "(\"DD.MM.YYYY\")",
				   v);
		memcpy(m->date_format, v, strlen(v) + 1);
		return CL_OK;
	}
	if (strcmp(k, "order") == 0) {
		if (strcmp(v, "oldest-first") == 0)
			m->newest_first = false;
		else if (strcmp(v, "newest-first") == 0)
			m->newest_first = true;
		else
			return bad(c, "oldest-first or newest-first", v);
		return CL_OK;
	}
	if (strcmp(k, "sign") == 0) {
		if (strcmp(v, "normal") == 0)
			m->inverted = false;
		else if (strcmp(v, "inverted") == 0)
			m->inverted = true;
		else
			return bad(c, "normal (a debit negative) or inverted (a debit positive)", v);
		return CL_OK;
	}
	if (strcmp(k, "debit_mark") == 0 || strcmp(k, "credit_mark") == 0) {
		char *dst = k[0] == 'd' ? m->debit_mark : m->credit_mark;

		if (!quoted(v, dst, CL_CSV_MAP_NAME_MAX) && strlen(v) < CL_CSV_MAP_NAME_MAX)
			memcpy(dst, v, strlen(v) + 1);
		if (!dst[0])
			return bad(c, "the text of the mark (\"Af\", \"D\")", v);
		return CL_OK;
	}
	c->key = "key";
	return bad(c, "a key of clearing-load(1), BANK CSV STATEMENTS",
		   k);
}

/* What every map needs, once read whole. */
static enum cl_status complete(struct ctx *c)
{
	struct cl_csv_map *m = c->m;
	c->line = 0;
	if (!m->bank[0]) {
		c->key = "bank";
		return bad(c, "a line \"bank = ID\" naming the export (\"ing-nl\")", "");
	}
	if (!cl_csv_col_set(&m->booking_date)) {
		c->key = KEY(booking_date);
		return bad(c, "the column of the booking date", "");
	}
	if (!m->date_format[0]) {
		c->key = "date_format";
		return bad(c, "the date format (\"YYYY-MM-DD\", \"DD.MM.YYYY\")", "");
	}
	if (cl_csv_col_set(&m->amount) + (cl_csv_col_set(&m->debit) && cl_csv_col_set(&m->credit)) != 1 ||
	    cl_csv_col_set(&m->debit) != cl_csv_col_set(&m->credit)) {
		c->key = KEY(amount);
		return bad(c, "either an amount column (signed, or beside a direction column) or a debit and a credit column",
			   "");
	}
	m->amounts = cl_csv_col_set(&m->debit)  ? CL_CSV_DEBIT_CREDIT
		     : cl_csv_col_set(&m->mark) ? CL_CSV_MARK
						: CL_CSV_SIGNED;
	if (m->amounts == CL_CSV_MARK && (!m->debit_mark[0] || !m->credit_mark[0])) {
		c->key = KEY(direction);
		return bad(c, "debit_mark and credit_mark with a direction column", "");
	}
	if (!m->fixed_currency[0] && !cl_csv_col_set(&m->currency)) {
		c->key = KEY(currency);
		return bad(c, "a currency column or a fixed currency (\"EUR\" in quotes)", "");
	}
	if (!m->fixed_account[0] && !cl_csv_col_set(&m->account)) {
		c->key = KEY(account);
		return bad(c, "an account column or a fixed account (in quotes)", "");
	}
	if (m->thousands && m->thousands == m->decimal) {
		c->key = "thousands";
		return bad(c, "another character than the decimal separator", "");
	}
	if (m->delimiter == m->quote || m->delimiter == '\n') {
		c->key = "delimiter";
		return bad(c, "a delimiter other than the quote", "");
	}
	for (size_t i = 0; i < NCOLS; i++)
		if (!m->header && col_at(m, i)->name[0]) {
			c->line = col_at(m, i)->line;
			c->key = col_keys[i].key;
			return bad(c, "a column number (#3): the map says header = no",
				   col_at(m, i)->name);
		}
	return CL_OK;
}

static char *trim(char *s)
{
	char *e = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

enum cl_status cl_csv_map_parse(const char *name, const char *text, size_t len,
				struct cl_csv_map *m, struct cl_error *err)
{
	struct ctx c = { m, err, 0, "" };
	size_t i = 0;

	memset(m, 0, sizeof(*m));
	snprintf(m->path, sizeof(m->path), "%s", name);
	m->delimiter = ',';
	m->quote = '"';
	m->header = true;
	m->decimal = '.';
	while (i < len) {
		char buf[512], *k, *v, *eq;
		size_t e = i;

		while (e < len && text[e] != '\n')
			e++;
		c.line++;
		c.key = "line";
		if (e - i >= sizeof(buf) || memchr(text + i, '\0', e - i)) {
			snprintf(buf, sizeof(buf), "%.40s", text + i);
			return bad(&c, "a line of at most 511 bytes, no NUL", buf);
		}
		memcpy(buf, text + i, e - i);
		buf[e - i] = '\0';
		i = e + 1;
		k = trim(buf);
		if (!*k || *k == '#')
			continue;
		eq = strchr(k, '=');
		if (!eq)
			return bad(&c, "key = value", k);
		*eq = '\0';
		v = trim(eq + 1);
		k = trim(k);
		if (set(&c, k, v) != CL_OK)
			return CL_INVALID;
	}
	return complete(&c);
}

enum cl_status cl_csv_map_load(const char *path, struct cl_csv_map *m, struct cl_error *err)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;
	enum cl_status st;

	memset(m, 0, sizeof(*m));
	snprintf(m->path, sizeof(m->path), "%s", path);
	if (!f) {
		cl_error_set(err, m->path, 0, "csv_map", "cannot open the CSV map: %s",
			     strerror(errno));
		cl_error_hint(err, "name a readable map file (contrib/csv-maps/ has some)");
		return CL_IO;
	}
	buf = malloc(MAP_MAX_BYTES + 1);
	n = buf ? fread(buf, 1, MAP_MAX_BYTES + 1, f) : 0;
	if (!buf || ferror(f) || n > MAP_MAX_BYTES) {
		cl_error_set(err, m->path, 0, "csv_map", "%s",
			     !buf ? "out of memory" : ferror(f) ? "cannot read the CSV map"
								: "the CSV map is longer than 64 KiB");
		cl_error_hint(err, "a map is a few lines of key = value");
		fclose(f);
		free(buf);
		return CL_IO;
	}
	fclose(f);
	st = cl_csv_map_parse(path, buf, n, m, err);
	free(buf);
	return st;
}
