/*
 * ach_entry.c - entry detail (6) and addenda (7) records: the layouts that
 * differ by SEC code, transaction codes, trace order, addenda rules, and
 * the record an entry with its addenda becomes.
 */
#include "parsers/ach_internal.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* ---- transaction codes ---- */

bool cl_ach_tcode_known(int t)
{
	int kind = t % 10;

	if (t >= 81 && t <= 88)
		return true; /* ADV */
	if (t < 21 || t > 56 || kind == 0 || kind == 5)
		return t == 55; /* 55: loan reversal (debit) */
	return true;
}

/* 2,3,4 credit (1 = return/NOC of a credit); 7,8,9 debit (6 = return/NOC
 * of a debit); ADV: odd credit, even debit. */
enum cl_direction cl_ach_tcode_direction(int t)
{
	if (t >= 81 && t <= 88)
		return t % 2 ? CL_DIR_CREDIT : CL_DIR_DEBIT;
	return t % 10 <= 4 ? CL_DIR_CREDIT : CL_DIR_DEBIT;
}

bool cl_ach_tcode_zero_amount(int t)
{
	int k = t % 10;

	return t < 80 && (k == 3 || k == 4 || k == 8 || k == 9); /* prenote, zero-dollar */
}

/* Why code t cannot be in a batch of SEC code sec_id and service class
 * `service_class` (3 digits, NULL when not known); NULL when it can. */
static const char *tcode_batch_problem(int t, int sec_id, const char *service_class)
{
	bool adv = t >= 81 && t <= 88;
	enum cl_direction d = cl_ach_tcode_direction(t);

	if (sec_id == SEC_ADV && !adv)
		return "ADV entries use codes 81-88";
	if (sec_id != SEC_ADV && adv)
		return "codes 81-88 are for ADV batches only";
	if (service_class && !memcmp(service_class, "220", 3) && d == CL_DIR_DEBIT)
		return "a debit in a credits-only batch (service class 220)";
	if (service_class && !memcmp(service_class, "225", 3) && d == CL_DIR_CREDIT)
		return "a credit in a debits-only batch (service class 225)";
	if (sec_id == SEC_COR && t % 10 != 1 && t % 10 != 6)
		return "COR (notification of change) entries use return/NOC codes 21, 26, 31, 36, "
		       "41, 46, 51 or 56";
	if ((sec_id == SEC_ARC || sec_id == SEC_BOC || sec_id == SEC_POP || sec_id == SEC_RCK ||
	     sec_id == SEC_XCK) &&
	    d != CL_DIR_DEBIT)
		return "this SEC code carries debits only";
	if (sec_id == SEC_CIE && d != CL_DIR_CREDIT)
		return "CIE carries credits only";
	return NULL;
}

static void check_tcode(struct cl_ach *p, const struct ach_line *l, int t)
{
	const struct ach_batch *b = &p->b;
	const char *why;

	if (!cl_ach_tcode_known(t)) {
		ach_err(p, l->no, 2, "transaction_code",
			"transaction code %02d (columns 2-3) is not a NACHA transaction code", t);
		return;
	}
	why = tcode_batch_problem(t, b->sec_id, b->service_class);
	if (why)
		ach_err(p, l->no, 2, "transaction_code",
			"transaction code %02d is not valid in a %s batch: %s", t, b->sec, why);
}

bool cl_ach_sec_known(const char *sec)
{
	return strlen(sec) == 3 && ach_sec_lookup(sec) != SEC_UNKNOWN;
}

const char *cl_ach_tcode_sec_problem(int tcode, const char *sec)
{
	return tcode_batch_problem(tcode, ach_sec_lookup(sec), NULL);
}

/* ---- entry detail ---- */

static void reset_record(struct cl_ach *p, struct cl_record *r)
{
	const struct ach_batch *b = &p->b;

	/* the NACHA fields only (ISO fields stay zero from ach_open()), and
	 * each string by its first byte: clearing the whole record cost more
	 * than parsing the entry */
	r->natural_key[0] = '\0';
	r->amount_minor = 0;
	r->direction = CL_DIR_NONE;
	r->receiving_account[0] = '\0';
	r->individual_id[0] = '\0';
	r->individual_name[0] = '\0';
	r->addenda_text[0] = '\0';
	r->addenda_count = 0;
	r->reason_code[0] = '\0';
	r->original_trace[0] = '\0';
	r->original_rdfi[0] = '\0';
	r->corrected_data[0] = '\0';
	r->dishonored_code[0] = '\0';
	r->scheme = "nacha";
	r->kind = "ach.entry";
	memcpy(r->currency, "USD", 4);
	memcpy(r->value_date, b->value_date, sizeof(r->value_date));
	memcpy(r->sec_code, b->sec, sizeof(r->sec_code));
	memcpy(r->company_id, b->company_id, sizeof(r->company_id));
	memcpy(r->company_name, b->company_name, sizeof(r->company_name));
	memcpy(r->company_entry_description, b->entry_desc,
	       sizeof(r->company_entry_description));
	memcpy(r->batch_number, b->number, sizeof(r->batch_number));
}

/* Columns a..b of an entry detail record; a = 0: the layout has none. */
struct cols {
	unsigned char a, b;
};

/* Where an entry detail record keeps its fields, by SEC code. */
static const struct entry_layout {
	struct cols account, amount, addenda, id, name;
} layout_adv = {{13, 27}, {28, 39}, {0, 0}, {40, 54}, {55, 76}},
  /* IAT: the receiver's name and id come in addenda 10 */
  layout_iat = {{40, 74}, {30, 39}, {13, 16}, {0, 0}, {0, 0}},
  /* CIE, MTE: the name comes first */
  layout_cie = {{13, 29}, {30, 39}, {0, 0}, {55, 76}, {40, 54}},
  /* CTX, ATX, ENR, TRX: 55-58 number of addenda records */
  layout_ctx = {{13, 29}, {30, 39}, {55, 58}, {40, 54}, {59, 74}},
  /* POP: 40-48 check serial, 49-52 terminal city, 53-54 state */
  layout_pop = {{13, 29}, {30, 39}, {0, 0}, {40, 48}, {55, 76}},
  /* TRC, XCK: 40-54 check serial; 55-76 process control and item research
   * number, no name */
  layout_trc = {{13, 29}, {30, 39}, {0, 0}, {40, 54}, {0, 0}},
  layout_other = {{13, 29}, {30, 39}, {0, 0}, {40, 54}, {55, 76}};

static const struct entry_layout *entry_layout(int sec, bool iat)
{
	if (sec == SEC_ADV)
		return &layout_adv;
	if (iat)
		return &layout_iat;
	switch (sec) {
	case SEC_CIE:
	case SEC_MTE:
		return &layout_cie;
	case SEC_CTX:
	case SEC_ATX:
	case SEC_ENR:
	case SEC_TRX:
		return &layout_ctx;
	case SEC_POP:
		return &layout_pop;
	case SEC_TRC:
	case SEC_XCK:
		return &layout_trc;
	default:
		return &layout_other;
	}
}

static void trim_cols(char *dst, const struct ach_line *l, struct cols c)
{
	if (c.a)
		ach_field_trim(dst, l, c.a, c.b);
}

/* The number of addenda records the entry declares: checked when the
 * entry ends. */
static void declared_addenda(struct cl_ach *p, const struct ach_line *l, struct cols c)
{
	uint64_t v;

	if (ach_field_num(p, l, c.a, c.b, "number of addenda records", &v)) {
		p->e.declared_addenda = (unsigned)v;
		p->e.has_declared = true;
	}
}

void ach_entry_detail(struct cl_ach *p, const struct ach_line *l)
{
	struct ach_batch *b = &p->b;
	struct ach_entry *e = &p->e;
	struct cl_record *r = p->cur;
	const struct entry_layout *lo;
	uint64_t v, rdfi = 0;
	int sec = b->sec_id;
	char shown[32];

	memset(e, 0, sizeof(*e));
	e->open = true;
	e->line = l->no;
	e->tcode = -1;
	e->iat_next = 10;
	reset_record(p, r);
	r->position = l->no;

	ach_field_raw(r->transaction_code, l, 2, 3);
	if (ach_field_num(p, l, 2, 3, "transaction code", &v)) {
		e->tcode = (int)v;
		check_tcode(p, l, e->tcode);
		r->direction = cl_ach_tcode_direction(e->tcode);
	}
	ach_field_raw(r->receiving_dfi, l, 4, 12);
	if (ach_field_num(p, l, 4, 11, "receiving DFI identification", &rdfi) &&
	    ach_field_num(p, l, 12, 12, "check digit", &v)) {
		int want = ach_check_digit(l->c + 3);

		if ((int)v != want)
			ach_err(p, l->no, 12, "routing_check_digit",
				"receiving DFI check digit (column 12) is %d, expected %d for "
				"routing number %.8s",
				(int)v, want, l->c + 3);
	}

	lo = entry_layout(sec, b->iat);
	trim_cols(r->receiving_account, l, lo->account);
	/* numbers in column order, so are their errors */
	if (lo->addenda.a && lo->addenda.a < lo->amount.a)
		declared_addenda(p, l, lo->addenda);
	(void)ach_field_num(p, l, lo->amount.a, lo->amount.b, "amount", &v);
	r->amount_minor = (int64_t)v;
	if (lo->addenda.a > lo->amount.a)
		declared_addenda(p, l, lo->addenda);
	trim_cols(r->individual_id, l, lo->id);
	trim_cols(r->individual_name, l, lo->name);
	if (e->tcode >= 0 && cl_ach_tcode_zero_amount(e->tcode) && r->amount_minor != 0)
		ach_err(p, l->no, 30, "amount",
			"transaction code %02d (prenote or zero-dollar entry) must have amount 0, "
			"found %" PRId64,
			e->tcode, r->amount_minor);

	if (l->c[78] == '0' || l->c[78] == '1') {
		e->indicator_ok = true;
		e->indicator = l->c[78] == '1';
	} else {
		ach_err(p, l->no, 79, "addenda_indicator",
			"addenda record indicator (column 79) must be 0 or 1, found \"%s\"",
			ach_show(shown, sizeof(shown), l->c + 78, 1));
	}
	if (sec == SEC_ADV && e->indicator)
		ach_err(p, l->no, 79, "addenda_indicator",
			"ADV entries have no addenda: the addenda record indicator must be 0");

	ach_field_raw(r->trace_number, l, 80, 94);
	if (ach_field_num(p, l, 80, 94, "trace number", &e->trace)) {
		e->trace_ok = true;
		if (b->have_trace && e->trace <= b->last_trace) {
			ach_err(p, l->no, 80, "trace_order",
				"trace number %s %s the trace number of the entry at line %lu: trace "
				"numbers must ascend within a batch",
				r->trace_number, e->trace == b->last_trace ? "repeats" : "is below",
				b->last_trace_line);
			ach_err_other_line(p, b->last_trace_line);
		} else {
			e->trace_in_order = true;
			b->have_trace = true;
			b->last_trace = e->trace;
			b->last_trace_line = l->no;
		}
	}

	/* totals are recomputed from the entries themselves */
	b->entries++;
	b->entry_count++;
	b->hash += rdfi;
	p->file_entries++;
	p->file_hash += rdfi;
	if (r->direction == CL_DIR_DEBIT) {
		b->debit += (uint64_t)r->amount_minor;
		p->file_debit += (uint64_t)r->amount_minor;
	} else if (r->direction == CL_DIR_CREDIT) {
		b->credit += (uint64_t)r->amount_minor;
		p->file_credit += (uint64_t)r->amount_minor;
	}
}

/* ---- addenda ---- */

static bool allows_05(int sec)
{
	switch (sec) {
	case SEC_UNKNOWN: /* already reported at the batch header */
	case SEC_ACK:
	case SEC_ATX:
	case SEC_CCD:
	case SEC_CIE:
	case SEC_CTX:
	case SEC_DNE:
	case SEC_ENR:
	case SEC_PPD:
	case SEC_TRX:
	case SEC_WEB:
		return true;
	default:
		return false;
	}
}

static bool many_05(int sec)
{
	return sec == SEC_CTX || sec == SEC_ATX || sec == SEC_ENR || sec == SEC_TRX;
}

/* Columns a..b must hold the entry's trace (or its last 7 digits). */
static void check_entry_seq(struct cl_ach *p, const struct ach_line *l, int a, int b,
			    const char *type)
{
	const struct cl_record *r = p->cur;
	int n = b - a + 1;
	char shown[32];

	if (!p->e.trace_ok)
		return;
	if (memcmp(l->c + a - 1, r->trace_number + 15 - n, (size_t)n) != 0)
		ach_err(p, l->no, (unsigned long)a, "addenda_sequence",
			"addenda %s %s (columns %d-%d) must be %s from the entry's trace "
			"number %s (line %lu), found \"%s\"",
			type, n == 15 ? "trace number" : "entry detail sequence number", a, b,
			n == 15 ? "the trace" : "the last 7 digits", r->trace_number, p->e.line,
			ach_show(shown, sizeof(shown), l->c + a - 1, (size_t)n));
}

static void check_seq(struct cl_ach *p, const struct ach_line *l, unsigned want,
		      const char *type)
{
	uint64_t v;

	if (!ach_field_num(p, l, 84, 87, "addenda sequence number", &v))
		return;
	if (v != want)
		ach_err(p, l->no, 84, "addenda_sequence",
			"addenda %s sequence number (columns 84-87) must be %04u, found %.4s", type,
			want, l->c + 83);
}

static bool dishonored(const char *code)
{
	return !memcmp(code, "R61", 3) || !memcmp(code, "R62", 3) ||
	       (code[0] == 'R' && code[1] == '6' && code[2] >= '7' && code[2] <= '9') ||
	       !memcmp(code, "R70", 3);
}

static bool contested(const char *code)
{
	return code[0] == 'R' && code[1] == '7' && code[2] >= '1' && code[2] <= '7';
}

bool cl_ach_return_code_known(const char *c)
{
	int n;

	if (c[0] != 'R' || !ach_digit[(unsigned char)c[1]] || !ach_digit[(unsigned char)c[2]])
		return false;
	n = (c[1] - '0') * 10 + (c[2] - '0');
	return (n >= 1 && n <= 53) || n == 61 || n == 62 || (n >= 67 && n <= 77) ||
	       (n >= 80 && n <= 85);
}

bool cl_ach_second_return_code(const char *c)
{
	return dishonored(c) || contested(c);
}

/* What a return (99) or NOC (98) addenda says of the entry it answers:
 * its code (4-6, checked by the caller), trace (7-21) and receiving DFI
 * (28-35). */
static void original_entry(struct cl_ach *p, const struct ach_line *l, const char code[4])
{
	struct cl_record *r = p->cur;
	uint64_t v;

	memcpy(r->reason_code, code, 4);
	ach_field_raw(r->original_trace, l, 7, 21);
	(void)ach_field_num(p, l, 7, 21, "original entry trace number", &v);
	ach_field_raw(r->original_rdfi, l, 28, 35);
	(void)ach_field_num(p, l, 28, 35, "original receiving DFI identification", &v);
}

static void addenda_99(struct cl_ach *p, const struct ach_line *l)
{
	struct cl_record *r = p->cur;
	struct ach_entry *e = &p->e;
	char code[4], shown[16];
	uint64_t v;

	ach_field_raw(code, l, 4, 6);
	if (!cl_ach_return_code_known(code))
		ach_err(p, l->no, 4, "reason_code",
			"return reason code (columns 4-6) must be R01-R53, R61, R62, R67-R77 or "
			"R80-R85, found \"%s\"",
			ach_show(shown, sizeof(shown), code, 3));
	if (dishonored(code)) {
		(void)ach_field_num(p, l, 39, 53, "return trace number", &v);
	} else if (contested(code)) {
		(void)ach_field_num(p, l, 39, 53, "return trace number", &v);
		(void)ach_field_num(p, l, 59, 73, "dishonored return trace number", &v);
	}
	if (e->n99 == 1) {
		original_entry(p, l, code);
		ach_field_trim(r->addenda_text, l, 36, 79);
	} else if (dishonored(code) || contested(code)) {
		memcpy(r->dishonored_code, code, 4);
	} else {
		ach_err(p, l->no, 4, "addenda_count",
			"a second return addenda (99) must be a dishonored (R61, R62, R67-R70) or "
			"contested (R71-R77) return, found \"%s\"",
			ach_show(shown, sizeof(shown), code, 3));
	}
	/* 80-94 (the return's trace) is not compared with the entry's: the
	 * corpus has operator-assigned traces there, and the key uses the
	 * entry's own */
}

bool cl_ach_change_code_known(const char *c)
{
	int n;

	if (c[0] != 'C' || !ach_digit[(unsigned char)c[1]] || !ach_digit[(unsigned char)c[2]])
		return false;
	n = (c[1] - '0') * 10 + (c[2] - '0');
	return (n >= 1 && n <= 14) || (n >= 61 && n <= 69);
}

static void addenda_98(struct cl_ach *p, const struct ach_line *l)
{
	struct cl_record *r = p->cur;
	char code[4], shown[16];

	if (p->e.n98 > 1) {
		ach_err(p, l->no, 2, "addenda_count",
			"an entry carries one notification of change addenda (98), found a second "
			"one");
		return;
	}
	ach_field_raw(code, l, 4, 6);
	if (!cl_ach_change_code_known(code))
		ach_err(p, l->no, 4, "change_code",
			"change code (columns 4-6) must be C01-C14 or C61-C69, found \"%s\"",
			ach_show(shown, sizeof(shown), code, 3));
	original_entry(p, l, code);
	ach_field_trim(r->corrected_data, l, 36, 64);
}

static bool iat_type_known(const char *c)
{
	static const char codes[][4] = {"ANN", "BUS", "DEP", "LOA", "MIS", "MOR", "PEN", "RLS", "REM",
					"SAL", "TAX", "TEL", "WEB", "ARC", "BOC", "POP", "RCK"};

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (memcmp(codes[i], c, 3) == 0)
			return true;
	return false;
}

static void addenda_iat(struct cl_ach *p, const struct ach_line *l, int type)
{
	struct ach_entry *e = &p->e;
	struct cl_record *r = p->cur;
	char tname[3] = {l->c[1], l->c[2], '\0'};
	uint64_t v;

	if (type <= 16) {
		if (type != e->iat_next) {
			if (e->iat_next <= 16)
				ach_err(p, l->no, 2, "addenda_sequence",
					"IAT addenda %d out of order: expected addenda %d next", type,
					e->iat_next);
			else
				ach_err(p, l->no, 2, "addenda_sequence",
					"IAT addenda %d out of order: addenda 10-16 come once, in order, "
					"before 17 and 18",
					type);
		} else {
			e->iat_next++;
		}
		if (type == 10) {
			if (!iat_type_known(l->c + 3)) {
				char shown[16];

				ach_err(p, l->no, 4, "iat_transaction_type",
					"IAT transaction type code (columns 4-6) must be one of ANN, BUS, "
					"DEP, LOA, MIS, MOR, PEN, RLS, REM, SAL, TAX, TEL, WEB, ARC, BOC, "
					"POP, RCK, found \"%s\"",
					ach_show(shown, sizeof(shown), l->c + 3, 3));
			}
			(void)ach_field_num(p, l, 7, 24, "foreign payment amount", &v);
			ach_field_trim(r->individual_name, l, 47, 81);
		} else if (type == 14) {
			ach_field_raw(e->iat_rdfi_qual, l, 39, 40);
			ach_field_trim(e->iat_rdfi_id, l, 41, 74);
		} else if (type == 15) {
			ach_field_trim(r->individual_id, l, 4, 18);
		}
	} else {
		unsigned *n = type == 17 ? &e->n17 : &e->n18;
		unsigned max = type == 17 ? 2 : 5;

		if (e->iat_next <= 16 && !e->n98 && !e->n99)
			ach_err(p, l->no, 2, "addenda_sequence",
				"IAT addenda %d before the mandatory addenda %d", type, e->iat_next);
		(*n)++;
		if (*n > max)
			ach_err(p, l->no, 2, "addenda_count",
				"an IAT entry carries at most %u addenda %d records, found %u", max, type,
				*n);
		if (type == 17 && e->n18 > 0)
			ach_err(p, l->no, 2, "addenda_sequence",
				"IAT addenda 17 after addenda 18 (17 come first)");
		if (type == 17 && !r->addenda_text[0])
			ach_field_trim(r->addenda_text, l, 4, 83);
		check_seq(p, l, *n, tname);
	}
	check_entry_seq(p, l, 88, 94, tname);
}

void ach_addenda(struct cl_ach *p, const struct ach_line *l)
{
	struct ach_batch *b = &p->b;
	struct ach_entry *e = &p->e;
	struct cl_record *r = p->cur;
	int sec = b->sec_id;
	char shown[16];
	uint64_t t;

	e->addenda++;
	if (e->addenda == 1)
		e->first_addenda_line = l->no;
	r->addenda_count = e->addenda;
	b->entries++;
	p->file_entries++;
	if (e->addenda == ACH_MAX_ADDENDA + 1)
		ach_err(p, l->no, 1, "addenda_count",
			"entry at line %lu has more than %d addenda records", e->line,
			ACH_MAX_ADDENDA);
	if (!ach_num(l->c + 1, 2, &t)) {
		ach_err(p, l->no, 2, "addenda_type",
			"unknown addenda type \"%s\" (expected 02, 05, 10-18, 98 or 99)",
			ach_show(shown, sizeof(shown), l->c + 1, 2));
		return;
	}
	if (t == 99) {
		e->n99++;
		addenda_99(p, l);
		if (b->iat && (e->n17 || e->n18) && e->n99 == 1)
			ach_err(p, l->no, 2, "addenda_type",
				"an IAT return carries no addenda 17 or 18 (the Fed returns it R25)");
		return;
	}
	if (t == 98) {
		e->n98++;
		addenda_98(p, l);
		return;
	}
	if (sec == SEC_ADV) {
		ach_err(p, l->no, 2, "addenda_type",
			"ADV entries have no addenda records, found addenda type %02" PRIu64, t);
		return;
	}
	if (t >= 10 && t <= 18) {
		if (!b->iat) {
			ach_err(p, l->no, 2, "addenda_type",
				"addenda type %02" PRIu64 " is for IAT batches only (this batch is %s)",
				t, b->sec);
			return;
		}
		addenda_iat(p, l, (int)t);
		return;
	}
	if (t == 5) {
		if (!allows_05(sec)) {
			ach_err(p, l->no, 2, "addenda_type",
				"addenda type 05 is not allowed in a %s batch", b->sec);
			return;
		}
		e->n05++;
		if (e->n05 == 2 && !many_05(sec))
			ach_err(p, l->no, 2, "addenda_count",
				"a %s entry carries at most one addenda 05, found a second one", b->sec);
		if (e->n05 == 1)
			ach_field_trim(r->addenda_text, l, 4, 83);
		check_seq(p, l, e->n05, "05");
		check_entry_seq(p, l, 88, 94, "05");
		return;
	}
	if (t == 2) {
		if (sec != SEC_POS && sec != SEC_SHR && sec != SEC_MTE && sec != SEC_UNKNOWN) {
			ach_err(p, l->no, 2, "addenda_type",
				"addenda type 02 is for POS, SHR and MTE batches only (this batch is "
				"%s)",
				b->sec);
			return;
		}
		e->n02++;
		if (e->n02 == 2)
			ach_err(p, l->no, 2, "addenda_count",
				"a %s entry carries at most one addenda 02, found a second one", b->sec);
		if (e->n02 == 1)
			ach_field_trim(r->addenda_text, l, 4, 79);
		check_entry_seq(p, l, 80, 94, "02");
		return;
	}
	ach_err(p, l->no, 2, "addenda_type",
		"unknown addenda type \"%02" PRIu64 "\" (expected 02, 05, 10-18, 98 or 99)", t);
}

/* Two returns (or NOCs) of one file with the same key make it invalid, as
 * two entries do.  Entries are proven unique by trace order and per-company
 * trace ranges; a return's key has no company id, and return files batch
 * by company with the RDFIs' traces interleaved, so those ranges cannot
 * prove it: the keys are remembered instead.  (Such a file was retried 8
 * times as a race and ended with exit 5.) */
static void return_key_once(struct cl_ach *p, const struct cl_record *r, unsigned long line)
{
	struct cl_keyset_entry *k;

	if (!r->natural_key[0])
		return;
	if (!p->return_keys)
		p->return_keys = cl_keyset_new();
	if (!cl_keyset_add(p->return_keys, r->kind, r->natural_key, line, &k))
		return;
	ach_err(p, line, 1, "duplicate_key",
		"the same %s identity (natural key \"%.200s\") appears again in this file, on "
		"lines %lu and %lu: the file cannot be loaded, because the second would be "
		"taken as a re-upload of the first",
		strcmp(r->kind, "ach.noc") == 0 ? "notification of change" : "return",
		r->natural_key, (unsigned long)k->first_line, line);
	ach_err_other_line(p, k->first_line);
	if (p->last_err)
		cl_keyset_duplicate_hint(p->last_err, false);
}

void ach_entry_finish(struct cl_ach *p)
{
	struct ach_entry *e = &p->e;
	struct ach_batch *b = &p->b;
	struct cl_record *r = p->cur;

	if (!e->open)
		return;
	e->open = false;
	if (e->indicator_ok && e->indicator && e->addenda == 0)
		ach_err(p, e->line, 79, "addenda_indicator",
			"addenda record indicator is 1 but no addenda record follows the entry");
	else if (e->indicator_ok && !e->indicator && e->addenda > 0)
		ach_err(p, e->first_addenda_line, 1, "addenda_indicator",
			"addenda record found, but the entry at line %lu has addenda record "
			"indicator 0",
			e->line);
	/* IAT 13-16 is not compared: real files disagree on whether it counts
	 * the optional addenda 17 and 18 (the mandatory 10-16 are checked) */
	if (e->has_declared && !b->iat && e->declared_addenda != e->addenda)
		ach_err(p, e->line, b->iat ? 13 : 55, "addenda_count",
			"entry declares %u addenda records (columns %s), found %u",
			e->declared_addenda, b->iat ? "13-16" : "55-58", e->addenda);
	if (b->iat && !b->iat_cor && e->n98 == 0 && e->iat_next <= 16)
		ach_err(p, e->line, 1, "addenda_count",
			"IAT entry lacks its mandatory addenda %d (addenda 10-16 are required)",
			e->iat_next);
	if (b->sec_id == SEC_COR && e->n98 == 0)
		ach_err(p, e->line, 1, "addenda_count",
			"a COR (notification of change) entry needs an addenda 98");
	if (e->n98 && e->n99)
		ach_err(p, e->line, 1, "addenda_type",
			"an entry is either a return (addenda 99) or a notification of change "
			"(addenda 98), not both");
	if (e->n99)
		r->kind = "ach.return";
	else if (e->n98)
		r->kind = "ach.noc";
	else if (!b->value_date[0] && b->date_blank && b->sec_id != SEC_ENR &&
		 !b->date_reported) {
		b->date_reported = true; /* once per batch */
		ach_err(p, b->line, 70, "effective_date",
			"effective entry date %s(columns 70-75) %s: expected YYMMDD, which the "
			"entry at line %lu needs (the date is part of what identifies a payment; "
			"only returns, notifications of change and ENR entries go without)",
			b->date_zero ? "000000 " : "", b->date_zero ? "is not a date" : "is blank",
			e->line);
	}
	if (e->trace_in_order) {
		struct ach_range *g = &b->range[e->n99 ? 1 : e->n98 ? 2 : 0];

		if (!g->have)
			g->min = e->trace;
		g->max = e->trace;
		g->have = true;
		if (!e->n99 && !e->n98)
			ach_bits_add(&p->bits, e->trace);
	}
	r->ordinal = ++p->ordinals;
	{
		/* r's batch fields are the batch's: its prefix is cached */
		const struct cl_ach_iat iat = { e->iat_rdfi_qual, e->iat_rdfi_id,
						b->iat_dest_country, b->iat_dest_currency };

		if (p->opts.no_fingerprints)
			cl_ach_natural_key(r, p->opts.ach_key);
		else
			cl_ach_identity(p->afp, r, p->opts.ach_key, b->iat ? &iat : NULL);
	}
	if (e->n99 || e->n98)
		return_key_once(p, r, e->line);
	ach_emit_record(p);
}
