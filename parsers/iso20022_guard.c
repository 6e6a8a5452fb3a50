/* iso20022_guard.c - a byte scanner in front of libxml2: refuses a DOCTYPE
 * before the XML parser sees it (so no entity is ever declared), bounds
 * every text node, comment, CDATA section, PI and tag, and checks the
 * encoding.  Chunk-independent: all state is in struct cl_iso_guard. */
#include "parsers/iso20022_internal.h"

#include <stdio.h>
#include <string.h>

enum {
	G_TEXT = 0, /* character data */
	G_LT,       /* after '<' */
	G_BANG,     /* after "<!" */
	G_BANG_DASH,/* after "<!-" */
	G_BANG_BRK, /* after "<![": sub counts "CDATA[" */
	G_COMMENT,  /* inside <!-- ... -->; sub counts '-' seen */
	G_CDATA,    /* inside <![CDATA[ ... ]]>; sub counts ']' seen */
	G_PI,       /* inside <? ... ?>; sub = 1 after '?' */
	G_TAG,      /* inside <name ...> or </name> */
};

void cl_iso_guard_init(struct cl_iso_guard *g)
{
	memset(g, 0, sizeof(*g));
	g->line = 1;
	g->col = 1;
	g->start_line = 1;
	g->start_col = 1;
}

/* Failures are reported where the offending construct starts (its '<', or
 * the first byte of a text node). */
static void fail(struct cl_iso_guard *g, const char *code, const char *msg)
{
	g->failed = true;
	g->fail_line = g->start_line;
	g->fail_col = g->start_col;
	snprintf(g->code, sizeof(g->code), "%s", code);
	snprintf(g->message, sizeof(g->message), "%s", msg);
}

static const char *construct_name(int state)
{
	switch (state) {
	case G_COMMENT:
		return "comment";
	case G_CDATA:
		return "CDATA section";
	case G_PI:
		return "processing instruction";
	case G_TAG:
		return "tag";
	default:
		return "text node";
	}
}

/* Bytes that can change each state (or end a line): all others are
 * skipped by one table lookup each. */
#define NL ['\n'] = 1
static const unsigned char stop_text[256] = {NL, ['<'] = 1};
static const unsigned char stop_tag[256] = {NL, ['>'] = 1, ['"'] = 1, ['\''] = 1};
static const unsigned char stop_dquote[256] = {NL, ['"'] = 1};
static const unsigned char stop_squote[256] = {NL, ['\''] = 1};
static const unsigned char stop_comment[256] = {NL, ['-'] = 1};
static const unsigned char stop_cdata[256] = {NL, [']'] = 1};
static const unsigned char stop_pi[256] = {NL, ['?'] = 1};
#undef NL

static const unsigned char *stops(const struct cl_iso_guard *g)
{
	switch (g->state) {
	case G_TEXT:
		return stop_text;
	case G_TAG:
		return g->quote == '"' ? stop_dquote : g->quote ? stop_squote : stop_tag;
	case G_COMMENT:
		return g->sub ? NULL : stop_comment;
	case G_CDATA:
		return g->sub ? NULL : stop_cdata;
	case G_PI:
		return g->sub ? NULL : stop_pi;
	default:
		return NULL;
	}
}

static void too_long(struct cl_iso_guard *g)
{
	char msg[160];

	snprintf(msg, sizeof(msg), "%s longer than the limit of %d bytes", construct_name(g->state),
		 CL_ISO_MAX_TEXT);
	fail(g, "xml_too_long", msg);
}

/* Fail at buf[i]: fix the position first. */
static size_t fail_at(struct cl_iso_guard *g, uint64_t base, size_t i)
{
	g->bytes = base + i;
	g->col = (unsigned long)(g->bytes - g->line_start) + 1;
	return i;
}

size_t cl_iso_guard_scan(struct cl_iso_guard *g, const unsigned char *buf, size_t len)
{
	uint64_t base = g->bytes; /* offset of buf[0] in the input */
	size_t i = 0;

	if (g->failed)
		return 0;
	while (i < len) {
		const unsigned char *stop = stops(g);
		unsigned char c;
		int prev;

		if (stop) {
			size_t j = i;

			while (j < len && !stop[buf[j]])
				j++;
			if (g->run + (j - i) > CL_ISO_MAX_TEXT) {
				i += CL_ISO_MAX_TEXT - g->run;
				fail_at(g, base, i);
				too_long(g);
				return i;
			}
			g->run += j - i;
			i = j;
			if (i == len)
				break;
		}
		c = buf[i];
		prev = g->state;
		switch (g->state) {
		case G_TEXT:
			if (c == '<') {
				/* "<name" or "</name": straight to the tag (saves a
				 * round through G_LT for nearly every tag) */
				if (i + 1 < len && buf[i + 1] != '!' && buf[i + 1] != '?' &&
				    buf[i + 1] != '\n') {
					g->state = G_TAG;
					g->sub = 0;
					g->quote = 0;
					g->start_line = g->line;
					g->start_col = (unsigned long)(base + i - g->line_start) + 1;
					g->run = 1;
					i += 2;
					if (buf[i - 1] == '"' || buf[i - 1] == '\'' || buf[i - 1] == '>')
						i--; /* let the loop see it */
					else
						g->run++;
					continue;
				}
				g->state = G_LT;
			}
			break;
		case G_LT:
			g->state = c == '!' ? G_BANG : c == '?' ? G_PI : G_TAG;
			g->sub = 0;
			g->quote = 0;
			break;
		case G_BANG:
			if (c == '-') {
				g->state = G_BANG_DASH;
			} else if (c == '[') {
				g->state = G_BANG_BRK;
				g->sub = 0;
			} else {
				/* <!DOCTYPE (or any other declaration): ISO 20022
				 * never needs one, and refusing it here means no
				 * entity is ever declared, let alone expanded */
				fail_at(g, base, i);
				fail(g, "xml_doctype",
				     "document type declaration (<!DOCTYPE ...>) not allowed: "
				     "ISO 20022 messages have none, and entities are never "
				     "expanded");
				return i;
			}
			break;
		case G_BANG_DASH:
			g->state = c == '-' ? G_COMMENT : G_TAG; /* "<!-x": libxml2 reports it */
			g->sub = 0;
			break;
		case G_BANG_BRK:
			if (c == (unsigned char)"CDATA["[g->sub]) {
				if (++g->sub == 6) {
					g->state = G_CDATA;
					g->sub = 0;
				}
			} else {
				g->state = G_TAG; /* "<![x": libxml2 reports it */
				g->sub = 0;
			}
			break;
		case G_COMMENT: /* ends at "-->" */
		case G_CDATA:   /* ends at "]]>" */
			if (c == (g->state == G_COMMENT ? '-' : ']'))
				g->sub++;
			else if (c == '>' && g->sub >= 2)
				g->state = G_TEXT;
			else
				g->sub = 0;
			break;
		case G_PI:
			if (c == '>' && g->sub)
				g->state = G_TEXT;
			g->sub = c == '?';
			break;
		case G_TAG: /* sub counts the attribute values */
			if (g->quote) {
				if (c == (unsigned char)g->quote)
					g->quote = 0;
			} else if (c == '"' || c == '\'') {
				g->quote = (char)c;
				if (++g->sub > CL_ISO_MAX_ATTRS) {
					/* libxml2 checks attributes for duplicates
					 * pairwise: thousands in one tag cost seconds */
					char msg[160];

					snprintf(msg, sizeof(msg),
						 "tag with more than %d attributes", CL_ISO_MAX_ATTRS);
					fail_at(g, base, i);
					fail(g, "xml_too_many_attributes", msg);
					return i;
				}
			} else if (c == '>') {
				g->state = G_TEXT;
			}
			break;
		}
		if (g->state != prev) {
			g->run = 0; /* a new construct starts */
			if (g->state == G_LT || g->state == G_TEXT) {
				g->start_line = g->line;
				g->start_col = (unsigned long)(base + i - g->line_start) + 1 +
					       (g->state == G_TEXT);
			}
		} else if (++g->run > CL_ISO_MAX_TEXT) {
			fail_at(g, base, i);
			too_long(g);
			return i;
		}
		if (c == '\n') {
			g->line++;
			g->line_start = base + i + 1;
		}
		i++;
	}
	g->bytes = base + len;
	if (len)
		g->last_nl = buf[len - 1] == '\n';
	return len;
}

unsigned long cl_iso_guard_lines(const struct cl_iso_guard *g)
{
	if (g->bytes == 0)
		return 0;
	return g->last_nl ? g->line - 1 : g->line;
}

static bool ascii_ieq(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char x = a[i], y = b[i];

		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (char)(y - 'A' + 'a');
		if (x != y)
			return false;
	}
	return true;
}

bool cl_iso_check_encoding(const unsigned char *p, size_t len, char code[CL_CODE_MAX],
			   char *message, size_t cap)
{
	const char *s = (const char *)p, *end, *enc;
	size_t n;

	if (len >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF))) {
		snprintf(code, CL_CODE_MAX, "xml_encoding");
		snprintf(message, cap, "UTF-16 byte order mark: expected UTF-8 (ISO 20022 "
			 "messages are UTF-8)");
		return false;
	}
	if (len >= 2 && ((p[0] == 0 && p[1] == '<') || (p[0] == '<' && p[1] == 0))) {
		snprintf(code, CL_CODE_MAX, "xml_encoding");
		snprintf(message, cap, "UTF-16 or UTF-32 text: expected UTF-8 (ISO 20022 "
			 "messages are UTF-8)");
		return false;
	}
	if (len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
		s += 3;
		len -= 3;
	}
	if (len < 5 || memcmp(s, "<?xml", 5) != 0)
		return true; /* no declaration: UTF-8 by default */
	end = memchr(s, '>', len);
	if (!end)
		return true; /* libxml2 reports the broken declaration */
	n = (size_t)(end - s);
	for (enc = s; enc + 8 < s + n; enc++) {
		if (memcmp(enc, "encoding", 8) == 0)
			break;
	}
	if (enc + 8 >= s + n)
		return true;
	enc += 8;
	while (enc < end && (*enc == ' ' || *enc == '=' || *enc == '\t' || *enc == '\r' ||
			     *enc == '\n'))
		enc++;
	if (enc < end && (*enc == '"' || *enc == '\'')) {
		char q = *enc++;
		const char *close = memchr(enc, q, (size_t)(end - enc));
		size_t elen = close ? (size_t)(close - enc) : 0;

		if (!close)
			return true;
		if ((elen == 5 && ascii_ieq(enc, "UTF-8", 5)) ||
		    (elen == 4 && ascii_ieq(enc, "UTF8", 4)) ||
		    (elen == 8 && ascii_ieq(enc, "US-ASCII", 8)) ||
		    (elen == 5 && ascii_ieq(enc, "ASCII", 5)))
			return true;
		snprintf(code, CL_CODE_MAX, "xml_encoding");
		snprintf(message, cap, "declared encoding \"%.*s\": expected UTF-8 (ISO 20022 "
			 "messages are UTF-8)", (int)(elen > 40 ? 40 : elen), enc);
		return false;
	}
	return true;
}
