/* statement_mt940.c - SWIFT MT940 customer statements and MT942 interim
 * transaction reports, as this reader takes the SWIFT Standards MT
 * (Category 9) and the way banks ship them
 * (docs/design/0035-mt940.md):
 *
 * - A file is one or more messages.  A message is its block 4 text: fields,
 *   each starting on a line ":TAG:" (two digits and an optional letter),
 *   the lines after it up to the next tag its continuation.  It ends with a
 *   line "-" (also "-}" of a SWIFT envelope), or where the next message
 *   starts (":20:" after a complete message, "{1:", "@@", a SOH or ETX
 *   byte).  SWIFT envelope blocks {1:}{2:}{3:} before "{4:" are read for
 *   the message type (O940, I942 ...); {5:} after the end is passed over.
 *   LF or CRLF; trailing blanks are dropped; blank lines are skipped.
 * - MT940: :20: reference, [:21:], :25: account, :28C: statement
 *   number[/sequence number], :60F: (first) or :60M: (intermediate)
 *   opening balance, then statement lines :61: each with its optional
 *   :86: information to the account owner, :62F:/:62M: closing balance,
 *   [:64:] closing available, [:65:]... forward available, [:86:].
 *   MT942: :20:, [:21:], :25:, :28C:, :34F: floor limit(s), :13D: date
 *   and time, statement lines, [:90D:] [:90C:] number and sum of debits
 *   and credits, [:86:].
 * - A balance is D/C, date YYMMDD, currency, amount; amounts have a
 *   decimal comma ("1234,5", "12,"), at most the currency's decimals
 *   besides trailing zeros.
 * - :61: value date YYMMDD, [entry date MMDD], D/C/RD/RC (RD, RC
 *   reversals: RD credits, RC debits the account), [funds code], amount,
 *   transaction type (S/N/F and three characters), customer reference
 *   (NONREF when none), [//bank reference], [supplementary details on the
 *   next line].
 * - :86: free text, or structured: "/EREF/.../KREF/..." (slash codes) or
 *   the German ?NN subfields (GVC, ?00 text, ?20-?29 and ?60-?63 purpose
 *   with SEPA identifiers EREF+, KREF+, MREF+, CRED+, SVWZ+ ...).
 *
 * Each message becomes a statement item, then one transaction item (its
 * references) and one entry item per :61:.  The statement item needs the
 * closing balance, written after the lines: a message is gathered whole
 * (bounded: MT_MAX_MESSAGE bytes), then handed out an entry at a time.
 *
 * A deviation whose meaning is clear is read with a note (code
 * "mt940_deviation"); damage that leaves the meaning unclear is an error.
 * The balance (opening + credits - debits = closing) is checked as camt's:
 * a break is a note (CL_STMT_BALANCE_BREAK), never an error. */
#include "parsers/statement_mt940_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

void cl_stmt_mt940_init(struct cl_stmt_parser *p)
{
	p->mt940 = cl_xcalloc(1, sizeof(*p->mt940));
	p->source = CL_STMT_SRC_MT940;
	snprintf(p->message_type, sizeof(p->message_type), "mt940");
}

void cl_stmt_mt940_free(struct cl_stmt_parser *p)
{
	if (!p->mt940)
		return;
	free(p->mt940->text);
	free(p->mt940->f);
	free(p->mt940);
	p->mt940 = NULL;
}

bool cl_stmt_mt940_detect(const unsigned char *h, size_t len)
{
	size_t i = 0;

	if (len >= 3 && h[0] == 0xEF && h[1] == 0xBB && h[2] == 0xBF)
		i = 3;
	while (i < len && (h[i] == '\r' || h[i] == '\n' || h[i] == ' ' || h[i] == '\t' ||
			   h[i] == 0x01))
		i++;
	if ((len - i >= 4 && memcmp(h + i, ":20:", 4) == 0) ||
	    (len - i >= 3 && memcmp(h + i, "{1:", 3) == 0))
		return true;
	/* a bank's transmission header of up to three short lines before
	   the first ":20:" ("ABNANL2A" "940" "ABNANL2A"; ING's "0000
	   01INGBNL2AXXXX00001" "940 00"; Rabobank's ":940:") */
	for (int lines = 0; lines < 3 && i < len; lines++) {
		size_t n = 0;

		while (i + n < len && h[i + n] != '\n') {
			unsigned char c = h[i + n];

			if (c == ',' || c == ';' || c == '<' || c == '\t' || c < 0x20 ? c != '\r' : c > 0x7E)
				return false;
			n++;
		}
		if (n == 0 || n > 40 || i + n == len)
			return false;
		i += n + 1;
		if (len - i >= 4 && memcmp(h + i, ":20:", 4) == 0)
			return true;
	}
	return false;
}

/* ------------------------------------------------------------ gathering */

static void text_add(struct cl_stmt_parser *p, const char *s, size_t n)
{
	struct cl_stmt_mt940 *m = p->mt940;

	if (m->over)
		return;
	if (m->text_len + n + 1 > MT_MAX_MESSAGE) {
		cl_outq_add(&p->q, m->msg_line, NULL, "mt940_message_too_long",
			      "message of line %lu is longer than the limit of %u bytes: expected "
			      "messages of at most some thousand statement lines",
			      m->msg_line, MT_MAX_MESSAGE);
		m->over = true;
		return;
	}
	if (m->text_len + n + 1 > m->text_cap) {
		m->text_cap = (m->text_len + n + 1) * 2;
		m->text = cl_xrealloc(m->text, m->text_cap);
	}
	memcpy(m->text + m->text_len, s, n);
	m->text_len += n;
	m->text[m->text_len] = '\0';
}

static void begin(struct cl_stmt_parser *p, unsigned long line)
{
	struct cl_stmt_mt940 *m = p->mt940;

	m->open = true;
	m->hint_type = 0;
	m->complete = m->ended = m->over = m->given = m->broken = m->closed = false;
	m->msg_line = line;
	m->text_len = 0;
	m->nf = 0;
	m->cur = 0;
}

/* The message is gathered: hand it out (pump). */
static void finish(struct cl_stmt_parser *p, bool by_dash)
{
	struct cl_stmt_mt940 *m = p->mt940;

	if (!m->open)
		return;
	m->ended = by_dash;
	m->complete = true;
	m->open = false;
}

static bool is_tag(const char *s, size_t n, size_t *tag_len)
{
	size_t k;

	if (n < 4 || s[0] != ':' || !isdigit((unsigned char)s[1]) || !isdigit((unsigned char)s[2]))
		return false;
	k = 3;
	if (isalpha((unsigned char)s[k]))
		k++;
	if (k >= n || s[k] != ':')
		return false;
	*tag_len = k + 1;
	return true;
}

static void field_start(struct cl_stmt_parser *p, const char *tag, size_t tn, const char *v,
			size_t vn)
{
	struct cl_stmt_mt940 *m = p->mt940;
	struct mt_field *f;

	if (m->over)
		return;
	if (m->nf == MT_MAX_FIELDS) {
		cl_outq_add(&p->q, m->msg_line, NULL, "mt940_message_too_long",
			      "message of line %lu has more than %d fields: expected messages of "
			      "at most some thousand statement lines",
			      m->msg_line, MT_MAX_FIELDS);
		m->over = true;
		return;
	}
	if (m->nf == m->f_cap) {
		m->f_cap = m->f_cap ? m->f_cap * 2 : 64;
		m->f = cl_xrealloc(m->f, m->f_cap * sizeof(*m->f));
	}
	f = &m->f[m->nf++];
	memset(f, 0, sizeof(*f));
	for (size_t i = 0; i < tn && i < 3; i++)
		f->tag[i] = (char)toupper((unsigned char)tag[i]);
	if (tn == 3 && islower((unsigned char)tag[2]) && !m->noted_lower) {
		m->noted_lower = true;
		cl_outq_note(&p->q, m->lineno, MT_NOTE, "field tag \":%.3s:\" in lower case: read as "
			     ":%s:", tag, f->tag);
	}
	if (f->tag[0] == '6' && f->tag[1] == '2')
		m->closed = true;
	f->line = m->lineno;
	f->off = m->text_len;
	text_add(p, v, vn);
	f->len = m->text_len - f->off;
}

static void text_line(struct cl_stmt_parser *p, char *s, size_t n);

/* Keep the line that starts the next message until the one before it is
 * handed out. */
static void stash(struct cl_stmt_parser *p, const char *s, size_t n)
{
	struct cl_stmt_mt940 *m = p->mt940;

	memcpy(m->pending_line, s, n);
	m->pending_line[n] = '\0';
	m->pending_len = n;
	m->pending_lineno = m->lineno;
	m->pending = true;
}

/* Block headers "{1:...}{2:O940...}{3:...}{4:" and what follows "{4:";
 * "{5:...}" after a message is passed over. */
static void blocks(struct cl_stmt_parser *p, char *s, size_t n)
{
	struct cl_stmt_mt940 *m = p->mt940;
	char *b2 = strstr(s, "{2:"), *b4 = strstr(s, "{4:");

	if (!strstr(s, "{1:") && !b2 && !b4) {
		if (m->open && m->nf > 0 && strncmp(s, "{5:", 3) != 0 && strcmp(s, "}") != 0) {
			/* text of a field that starts with a brace */
			text_add(p, "\n", 1);
			text_add(p, s, n);
			m->f[m->nf - 1].len = m->text_len - m->f[m->nf - 1].off;
		}
		return; /* {5:...}, "}" after a message */
	}
	if (m->open && m->nf > 0) {
		finish(p, false);
		stash(p, s, n);
		return;
	}
	if (!m->open)
		begin(p, m->lineno);
	if (b2 && (b2[3] == 'O' || b2[3] == 'I') && strncmp(b2 + 4, "940", 3) == 0)
		m->hint_type = 940;
	else if (b2 && (b2[3] == 'O' || b2[3] == 'I') && strncmp(b2 + 4, "942", 3) == 0)
		m->hint_type = 942;
	if (b4 && b4[3])
		text_line(p, b4 + 3, strlen(b4 + 3));
}

/* A line "-" ends the message, unless a field of the message follows it:
 * then it was a line of text (a wrapped :86: whose next line is "-"). */
static void settle_dash(struct cl_stmt_parser *p)
{
	struct cl_stmt_mt940 *m = p->mt940;

	if (!m->dash)
		return;
	m->dash = false;
	finish(p, true);
}

/* One line (its end and trailing blanks dropped) of s[0..n). */
static void physical_text(struct cl_stmt_parser *p, char *s, size_t n)
{
	struct cl_stmt_mt940 *m = p->mt940;
	size_t k = 0;
	bool etx = false;

	/* transmission control bytes around a message: SOH starts one, ETX
	   ends one, SUB (a DOS end of file) ends the file: passed over, as
	   some banks' files still carry them */
	if (n > 0 && s[0] == 0x01) {
		while (n > 0 && s[0] == 0x01) {
			s++;
			n--;
		}
		if (m->dash) {
			settle_dash(p);
			if (n > 0)
				stash(p, s, n);
			return;
		}
		if (m->open && m->nf > 0) {
			finish(p, false);
			if (n > 0)
				stash(p, s, n);
			return;
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (s[i] == 0x03 || s[i] == 0x1A || s[i] == 0x01) {
			etx |= s[i] == 0x03;
			continue;
		}
		s[k++] = s[i];
	}
	n = k;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\t'))
		n--;
	if (n > 0) {
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)s[i];

			if ((c < 0x20 && c != '\t') || c == 0x7F) {
				cl_outq_add(&p->q, m->lineno, NULL, "mt940_character",
					      "byte 0x%02X in column %zu: expected text (SWIFT messages "
					      "are printable characters)",
					      c, i + 1);
				for (; i < n; i++)
					if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] == 0x7F)
						s[i] = '?';
			}
		}
		s[n] = '\0';
		text_line(p, s, n);
	}
	if (etx) {
		settle_dash(p);
		finish(p, true);
	}
}

static void physical(struct cl_stmt_parser *p)
{
	struct cl_stmt_mt940 *m = p->mt940;
	char *s = m->line, *b1;
	size_t n = m->line_len;

	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\t'))
		n--;
	s[n] = '\0';
	/* "-}" and the next message's "{1:" on one line (PostFinance:
	   "-}<ETX><SOH>{1:...") */
	if (n > 2 && s[0] == '-' && (b1 = strstr(s + 1, "{1:")) != NULL) {
		static char rest[MT_MAX_LINE + 1];
		size_t k = (size_t)(b1 - s);

		memcpy(rest, b1, n - k + 1);
		physical_text(p, s, k);
		if (m->complete || m->pending) {
			settle_dash(p);
			stash(p, rest, n - k);
		} else {
			physical_text(p, rest, n - k);
		}
		return;
	}
	physical_text(p, s, n);
}

static void text_line(struct cl_stmt_parser *p, char *s, size_t n)
{
	struct cl_stmt_mt940 *m = p->mt940;
	size_t tn;

	if (m->dash) {
		/* the line after a "-": a field of the message (not :20:), in a
		   message that has no closing balance yet, says the "-" was its
		   text */
		if (is_tag(s, n, &tn) && !(tn == 4 && s[1] == '2' && s[2] == '0') && m->open &&
		    m->nf > 0 && !m->closed) {
			m->dash = false;
			if (!m->noted_dash) {
				m->noted_dash = true;
				cl_outq_note(&p->q, m->dash_line, MT_NOTE,
					     "line \"-\" followed by the field :%.3s: of its message: "
					     "read as text of the field before it, not as the message's end",
					     s + 1);
			}
			text_add(p, "\n-", 2);
			m->f[m->nf - 1].len = m->text_len - m->f[m->nf - 1].off;
		} else {
			settle_dash(p);
			stash(p, s, n);
			return;
		}
	}
	if (s[0] == '{') {
		blocks(p, s, n);
		return;
	}
	if (n == 1 && s[0] == '-' && m->open) {
		m->dash = true;
		m->dash_line = m->lineno;
		return;
	}
	if ((n == 1 && s[0] == '-') || (n >= 2 && s[0] == '-' && s[1] == '}')) {
		if (!m->open)
			cl_outq_add(&p->q, m->lineno, NULL, "mt940_order",
				      "message end \"-\" with no message before it: expected :20: first");
		finish(p, true);
		return;
	}
	if (n >= 2 && s[0] == '@' && s[1] == '@') {
		finish(p, true); /* a separator some banks write for "-" */
		return;
	}
	if (is_tag(s, n, &tn)) {
		if (tn == 4 && s[1] == '2' && s[2] == '0' && m->open && m->nf > 0) {
			finish(p, false); /* the next message, no "-" before it */
			stash(p, s, n);
			return;
		}
		if (!m->open)
			begin(p, m->lineno);
		field_start(p, s + 1, tn - 2, s + tn, n - tn);
		return;
	}
	if (!m->open && n <= 40 && !m->complete) {
		/* between messages: a transmission header ("ABNANL2A" "940"
		   before each message; detection let at most three short lines
		   through before the first) */
		if (!m->noted_header) {
			m->noted_header = true;
			cl_outq_note(&p->q, m->lineno, MT_NOTE,
				     "line \"%.30s\" outside a message: passed over (a bank's "
				     "transmission header)",
				     s);
		}
		return;
	}
	if (!m->open || m->nf == 0) {
		cl_outq_add(&p->q, m->lineno, NULL, "mt940_order",
			      "line \"%.30s\" outside a message's fields: expected a field \":20:\" "
			      "(or a SWIFT block \"{1:\") first",
			      s);
		return;
	}
	text_add(p, "\n", 1);
	text_add(p, s, n);
	m->f[m->nf - 1].len = m->text_len - m->f[m->nf - 1].off;
}

/* ---------------------------------------------------------- the message */

static bool tag_is(const struct mt_field *f, const char *t)
{
	return strcmp(f->tag, t) == 0;
}

static bool add_ok(int64_t *acc, int64_t v)
{
	if ((v > 0 && *acc > INT64_MAX - v) || (v < 0 && *acc < INT64_MIN - v))
		return false;
	*acc += v;
	return true;
}

/* Read the message's own fields (all but its statement lines) into
 * m->stmt; false when it is refused (nothing of it handed out). */
static bool header(struct cl_stmt_parser *p)
{
	struct cl_stmt_mt940 *m = p->mt940;
	struct cl_stmt_statement *s = &m->stmt;
	int i25 = -1, i28 = -1, i13 = -1, n34 = 0, kind;
	bool in_lines = false, after_close = false, ok = true;
	unsigned long first = m->nf ? m->f[0].line : m->msg_line;

	memset(s, 0, sizeof(*s));
	m->i60 = m->i62 = m->i90d = m->i90c = -1;
	m->entries = m->n_cdt = m->n_dbt = 0;
	m->sum_cdt = m->sum_dbt = 0;
	m->overflow = false;
	s->index = ++m->messages;
	s->line = first;
	s->last_page = true;
	s->sum_nb_of_ntries = s->sum_cdt_nb = s->sum_dbt_nb = -1;
	if (m->nf == 0 || !tag_is(&m->f[0], "20")) {
		cl_outq_add(&p->q, first, NULL, "mt940_missing_field",
			      "message of line %lu has no :20: transaction reference first: "
			      "expected a message to start with \":20:\"",
			      m->msg_line);
		return false;
	}
	cl_mt940_first_line(m, &m->f[0], s->id, sizeof(s->id));
	memcpy(s->msg_id, s->id, sizeof(s->msg_id));
	kind = m->hint_type;
	for (size_t i = 1; i < m->nf; i++) {
		const struct mt_field *f = &m->f[i];
		int *slot = NULL;

		if (tag_is(f, "61")) {
			if (after_close) {
				cl_outq_add(&p->q, f->line, NULL, "mt940_order",
					      ":61: statement line after the closing balance :%s: of "
					      "line %lu: expected statement lines before it",
					      m->f[m->i62].tag, m->f[m->i62].line);
				ok = false;
			}
			in_lines = true;
			continue;
		}
		if (tag_is(f, "86"))
			continue;
		if (tag_is(f, "21"))
			continue;
		if (tag_is(f, "25"))
			slot = &i25;
		else if (tag_is(f, "28C") || tag_is(f, "28"))
			slot = &i28;
		else if (tag_is(f, "60F") || tag_is(f, "60M"))
			slot = &m->i60;
		else if (tag_is(f, "62F") || tag_is(f, "62M"))
			slot = &m->i62;
		else if (tag_is(f, "13D") || tag_is(f, "13"))
			slot = &i13;
		else if (tag_is(f, "90D"))
			slot = &m->i90d;
		else if (tag_is(f, "90C"))
			slot = &m->i90c;
		else if (tag_is(f, "34F")) {
			if (++n34 > 2)
				cl_outq_note(&p->q, f->line, MT_NOTE, "a third :34F: floor limit: ignored");
			continue;
		} else if (tag_is(f, "64") || tag_is(f, "65")) {
			struct cl_stmt_balance b;

			if (!cl_mt940_balance(p, f, &b))
				ok = false;
			continue;
		} else if (tag_is(f, "20")) {
			cl_outq_add(&p->q, f->line, NULL, "mt940_order",
				      "a second :20: in the message of line %lu: expected the message "
				      "to end with \"-\" before the next",
				      m->msg_line);
			ok = false;
			continue;
		} else {
			cl_outq_note(&p->q, f->line, MT_NOTE,
				     "field :%s: is no field of MT940 or MT942: ignored", f->tag);
			continue;
		}
		if (*slot >= 0) {
			cl_outq_add(&p->q, f->line, NULL, "mt940_order",
				      "a second :%s: in the message (the first on line %lu): expected "
				      "one",
				      f->tag, m->f[*slot].line);
			ok = false;
			continue;
		}
		*slot = (int)i;
		if (slot == &m->i60 && in_lines) {
			cl_outq_add(&p->q, f->line, NULL, "mt940_order",
				      ":%s: opening balance after statement lines: expected it before "
				      "them",
				      f->tag);
			ok = false;
		}
		if (slot == &m->i62)
			after_close = true;
	}
	if (!kind)
		kind = m->i60 >= 0 || m->i62 >= 0 ? 940 : n34 > 0 || i13 >= 0 ? 942 : 940;
	s->source = kind == 942 ? CL_STMT_SRC_MT942 : CL_STMT_SRC_MT940;
	snprintf(s->message_type, sizeof(s->message_type), "mt%d", kind);
	if (m->messages == 1) {
		p->source = s->source;
		snprintf(p->message_type, sizeof(p->message_type), "mt%d", kind);
	}
	if (i25 < 0) {
		struct cl_error *err = cl_outq_add(
			&p->q, first, NULL, "mt940_missing_field",
			"message :20: %.35s has no :25: account identification: expected the "
			"account the statement is of",
			s->id);

		cl_error_hint(err, "without its account a statement cannot be matched: ask the bank "
				   "for the statement again");
		ok = false;
	} else {
		cl_mt940_account(p, &m->f[i25]);
	}
	if (i28 < 0) {
		cl_outq_add(&p->q, first, NULL, "mt940_missing_field",
			      "message :20: %.35s has no :28C: statement number: expected one", s->id);
		ok = false;
	} else {
		cl_mt940_statement_number(p, &m->f[i28]);
	}
	if (kind == 940) {
		if (m->i60 < 0 || m->i62 < 0) {
			struct cl_error *err = cl_outq_add(
				&p->q, first, NULL, m->ended || m->i62 >= 0 ? "mt940_missing_field"
									 : "mt940_truncated",
				"MT940 :20: %.35s has no %s: expected :60F: or :60M: before the "
				"statement lines and :62F: or :62M: after them%s",
				s->id,
				m->i60 < 0 && m->i62 < 0 ? "opening and no closing balance"
				: m->i60 < 0            ? "opening balance"
							: "closing balance",
				m->ended || m->i62 >= 0 ? "" : " (the file ends inside it: truncated?)");

			cl_error_hint(err, "a statement without its balances is incomplete: ask the "
					   "bank for the whole statement");
			ok = false;
		}
		if (m->i60 >= 0 && !cl_mt940_balance(p, &m->f[m->i60], &s->opening))
			ok = false;
		if (m->i62 >= 0 && !cl_mt940_balance(p, &m->f[m->i62], &s->closing))
			ok = false;
		if (s->opening.present) {
			if (!s->acct_ccy[0])
				memcpy(s->acct_ccy, s->opening.ccy, 4);
			memcpy(s->from, s->opening.date, 11);
		}
		if (s->closing.present)
			memcpy(s->to, s->closing.date, 11);
		/* pages: :60M:/:62M: are a page's intermediate balances */
		if (m->i60 >= 0 && m->i62 >= 0 &&
		    (m->f[m->i60].tag[2] == 'M' || m->f[m->i62].tag[2] == 'M' || s->page > 1)) {
			if (s->page == 0)
				s->page = 1;
			s->last_page = m->f[m->i62].tag[2] == 'F';
		} else {
			s->page = 0;
		}
	} else {
		s->page = 0;
		if (i13 < 0) {
			cl_outq_add(&p->q, first, NULL, "mt940_missing_field",
				      "MT942 :20: %.35s has no :13D: date and time: expected one",
				      s->id);
			ok = false;
		} else {
			cl_mt940_date_time(p, &m->f[i13]);
		}
		if (n34 == 0) {
			cl_outq_add(&p->q, first, NULL, "mt940_missing_field",
				      "MT942 :20: %.35s has no :34F: floor limit: expected one or two",
				      s->id);
			ok = false;
		}
		for (size_t i = 1; i < m->nf; i++)
			if (tag_is(&m->f[i], "34F"))
				cl_mt940_floor_limit(p, &m->f[i]);
	}
	if (!m->ended && ok && !m->noted_end) {
		m->noted_end = true;
		cl_outq_note(&p->q, first, MT_NOTE,
			     "message :20: %.35s does not end with a line \"-\": read as ending where "
			     "the next begins (or the file ends)",
			     s->id);
	}
	if (!s->acct_ccy[0] || cl_iso_ccy_exponent(s->acct_ccy) < 0) {
		if (ok)
			cl_outq_add(&p->q, first, NULL, "mt940_currency",
				      "message :20: %.35s currency \"%s\": expected an ISO 4217 code "
				      "with minor units",
				      s->id, s->acct_ccy);
		ok = false;
	}
	m->exp = cl_iso_ccy_exponent(s->acct_ccy);
	return ok && !m->broken;
}

/* :90D:/:90C: number and sum of debits/credits, against the lines. */
static void count_check(struct cl_stmt_parser *p, int i, const char *what, unsigned long n,
			int64_t sum)
{
	struct cl_stmt_mt940 *m = p->mt940;
	const struct mt_field *f;
	char v[60], why[160], a[40], b[40];
	size_t d, k;
	int64_t amt;
	unsigned long cnt;

	if (i < 0)
		return;
	f = &m->f[i];
	cl_mt940_first_line(m, f, v, sizeof(v));
	d = strspn(v, "0123456789");
	if (d == 0 || d > 5 || !cl_mt940_ccy_ok(v + d)) {
		cl_outq_add(&p->q, f->line, NULL, "mt940_summary",
			      ":%s: \"%.30s\": expected the number of entries, the currency and the "
			      "sum",
			      f->tag, v);
		return;
	}
	cnt = strtoul(v, NULL, 10);
	k = cl_mt940_mt_amount(v + d + 3, m->exp, &amt, why, sizeof(why));
	if (k == 0 || v[d + 3 + k]) {
		cl_outq_add(&p->q, f->line, NULL, "mt940_amount", ":%s: sum: %s", f->tag,
			      k == 0 ? why : "text after the amount");
		return;
	}
	if (cnt != n)
		cl_outq_add(&p->q, f->line, NULL, "summary_count",
			      ":%s: number of %s entries is %lu, but the message has %lu", f->tag,
			      what, cnt, n);
	else if (!m->overflow && amt != sum)
		cl_outq_add(&p->q, f->line, NULL, "summary_sum",
			      ":%s: sum of %s entries is %s, but they add up to %s %s", f->tag, what,
			      cl_stmt_fmt_minor(amt, m->exp, a, sizeof(a)),
			      cl_stmt_fmt_minor(sum, m->exp, b, sizeof(b)), m->stmt.acct_ccy);
}

/* Opening plus credits minus debits against closing: a break is a note
 * (statement_camt.c's balance_check says why). */
static void balance_check(struct cl_stmt_parser *p)
{
	struct cl_stmt_mt940 *m = p->mt940;
	const struct cl_stmt_statement *s = &m->stmt;
	const struct cl_stmt_balance *o = &s->opening, *k = &s->closing;
	char what[40] = "", a[40], b[40], d1[40], d2[40], d3[40], d4[40];
	int64_t want = o->amount_minor, diff;
	struct cl_error *err;

	if (!o->present || !k->present || m->overflow)
		return;
	if (strcmp(o->ccy, k->ccy) != 0 || strcmp(o->ccy, s->acct_ccy) != 0) {
		cl_outq_note(&p->q, k->line, "statement_currency",
			     "statement %.35s mixes currencies (opening balance %s, closing balance "
			     "%s, account %s): its balance is not added up",
			     s->id, o->ccy, k->ccy, s->acct_ccy);
		return;
	}
	if (!add_ok(&want, m->sum_cdt) || !add_ok(&want, -m->sum_dbt) || want == k->amount_minor)
		return;
	if (s->page)
		snprintf(what, sizeof(what), "page %u: ", s->page);
	diff = k->amount_minor - want;
	err = cl_outq_note(&p->q, k->line, CL_STMT_BALANCE_BREAK,
			   "balance break of %s %s: %sclosing balance :%s: is %s %s, but the opening "
			   "balance plus credits minus debits is %s %s",
			   cl_stmt_fmt_minor(diff, m->exp, d4, sizeof(d4)), o->ccy, what, k->type,
			   cl_stmt_fmt_minor(k->amount_minor, m->exp, a, sizeof(a)), k->ccy,
			   cl_stmt_fmt_minor(want, m->exp, b, sizeof(b)), o->ccy);
	cl_error_detail(err,
			"opening balance :%s: on line %lu: %s; credits: %s in %lu %s; debits: %s in "
			"%lu %s",
			o->type, o->line, cl_stmt_fmt_minor(o->amount_minor, m->exp, d1, sizeof(d1)),
			cl_stmt_fmt_minor(m->sum_cdt, m->exp, d2, sizeof(d2)), m->n_cdt,
			m->n_cdt == 1 ? "entry" : "entries",
			cl_stmt_fmt_minor(m->sum_dbt, m->exp, d3, sizeof(d3)), m->n_dbt,
			m->n_dbt == 1 ? "entry" : "entries");
	cl_error_hint(err, "the statement is valid and loads: reconcile reports the break as an "
			   "exception (balance_break) and still matches its entries");
}

/* Hand out the next piece of the complete message: its statement item
 * first, then an entry (its transaction and entry items) per call, then
 * its checks. */
static void hand_out(struct cl_stmt_parser *p)
{
	struct cl_stmt_mt940 *m = p->mt940;
	struct cl_stmt_item *it;

	if (!m->given) {
		m->given = true;
		m->cur = 1;
		if (m->over || !header(p)) {
			m->complete = false;
			return;
		}
		it = cl_stmt_slot(p, CL_STMT_STATEMENT);
		it->stmt = m->stmt;
		cl_stmt_commit(p);
		return;
	}
	while (m->cur < m->nf && !tag_is(&m->f[m->cur], "61"))
		m->cur++;
	if (m->cur < m->nf) {
		const struct mt_field *f = &m->f[m->cur++];
		struct cl_stmt_entry e;
		struct cl_stmt_tx tx;

		memset(&e, 0, sizeof(e));
		memset(&tx, 0, sizeof(tx));
		e.line = f->line;
		e.btch_nb_of_txs = -1;
		memcpy(e.ccy, m->stmt.acct_ccy, sizeof(e.ccy));
		snprintf(e.status, sizeof(e.status), "BOOK");
		e.index = ++m->entries;
		if (!cl_mt940_statement_line(p, f, &e, &tx)) {
			m->overflow = true; /* nothing to add up without it */
			return;
		}
		if (m->cur < m->nf && tag_is(&m->f[m->cur], "86") &&
		    !(m->i62 >= 0 && m->cur > (size_t)m->i62))
			cl_mt940_information(p, &m->f[m->cur++], &e, &tx);
		if (e.direction == CL_DIR_CREDIT) {
			m->n_cdt++;
			m->overflow |= !add_ok(&m->sum_cdt, e.amount_minor);
		} else {
			m->n_dbt++;
			m->overflow |= !add_ok(&m->sum_dbt, e.amount_minor);
		}
		cl_stmt_give_entry(p, &m->stmt, &e, &tx);
		return;
	}
	if (m->stmt.source == CL_STMT_SRC_MT940)
		balance_check(p);
	count_check(p, m->i90d, "debit", m->n_dbt, m->sum_dbt);
	count_check(p, m->i90c, "credit", m->n_cdt, m->sum_cdt);
	m->complete = false;
}

static void at_end(struct cl_stmt_parser *p)
{
	struct cl_stmt_mt940 *m = p->mt940;

	if (m->dash) {
		settle_dash(p);
		return;
	}
	if (m->open) {
		finish(p, false);
		return;
	}
	if (m->messages == 0 && !m->pending)
		cl_outq_add(&p->q, m->lineno, NULL, "mt940_missing_field",
			      "no message in the file: expected \":20:\" to start one");
	p->finished = true;
}

void cl_stmt_mt940_pump(struct cl_stmt_parser *p)
{
	struct cl_stmt_mt940 *m = p->mt940;

	while (!p->finished && !cl_outq_ready(&p->q)) {
		unsigned char *nl;
		size_t take;

		if (m->complete) {
			hand_out(p);
			continue;
		}
		if (m->pending) {
			unsigned long keep = m->lineno;

			m->pending = false;
			m->lineno = m->pending_lineno;
			text_line(p, m->pending_line, m->pending_len);
			m->lineno = keep;
			continue;
		}
		if (m->pos == m->len) {
			long r;

			if (m->eof) {
				if (m->line_len > 0) {
					m->lineno++;
					physical(p);
					m->line_len = 0;
					continue;
				}
				at_end(p);
				continue;
			}
			r = cl_input_read(p->in, m->buf, sizeof(m->buf), &p->io_err);
			if (r < 0) {
				p->io_failed = true;
				p->finished = true;
				break;
			}
			if (r == 0)
				m->eof = true;
			m->len = (size_t)r;
			m->pos = 0;
			continue;
		}
		nl = memchr(m->buf + m->pos, '\n', m->len - m->pos);
		take = nl ? (size_t)(nl - (m->buf + m->pos)) : m->len - m->pos;
		if (m->line_len + take > MT_MAX_LINE) {
			cl_stmt_fatal(p, m->lineno + 1, "mt940_line_too_long",
				      "line longer than the limit of %d bytes: MT940 lines are at most "
				      "65 characters",
				      MT_MAX_LINE);
			break;
		}
		memcpy(m->line + m->line_len, m->buf + m->pos, take);
		m->line_len += take;
		m->pos += take;
		if (nl) {
			m->pos++;
			m->lineno++;
			m->line[m->line_len] = '\0';
			physical(p);
			m->line_len = 0;
		}
	}
}
