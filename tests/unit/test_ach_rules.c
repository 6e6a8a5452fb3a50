/* test_ach_rules.c - every NACHA validation rule, each with an input that
 * breaks it: status, line, code (and the message for some). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ach_fixture.h"

/* 10 lines: 1 file header, 2 batch header, 3 entry 22, 4 entry 27 with
 * 5 addenda 05, 6 batch control, 7 batch header (CCD), 8 entry, 9 batch
 * control, 10 file control. */
static void base(struct fx *f)
{
	fx_begin(f, "2603011200");
	fx_batch(f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(f, "22", "23138010", 12345, "ACCT1", 1, NULL);
	fx_entry(f, "27", "09100001", 500, "ACCT2", 2, "INVOICE 1");
	fx_end_batch(f);
	fx_batch(f, "9876543210", "CCD", "200", "260303", 2);
	fx_entry(f, "22", "02100002", 777, "ACCT3", 3, NULL);
	fx_end_batch(f);
	fx_finish(f, true);
}

/* Patch the base file, run it, expect exactly one error. */
static void only(int line, int col, const char *text, const char *code, int err_line,
		 const char *message)
{
	struct fx f;
	struct run r;

	base(&f);
	fx_patch(&f, (unsigned long)line, col, text);
	run_fx(&r, &f);
	assert_only_error(&r, code, err_line);
	if (message)
		assert_string_equal(find_err(&r, code)->message, message);
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_base_is_valid(void **state)
{
	struct fx f;
	struct run r;

	(void)state;
	base(&f);
	run_fx(&r, &f);
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.notes, 0);
	assert_int_equal(r.records, 3);
	run_free(&r);
	fx_free(&f);
}

/* ---- record length ---- */

static void test_ach_rules_short_entry_is_error(void **state)
{
	struct fx f;
	struct run r;
	char l[100];

	(void)state;
	base(&f);
	memcpy(l, fx_at(&f, 3), 93); /* the last trace digit is missing */
	l[93] = '\0';
	fx_replace(&f, 3, l);
	run_fx(&r, &f);
	assert_has_error(&r, "record_length", 3);
	assert_string_equal(find_err(&r, "record_length")->message,
			    "entry detail record must be 94 characters, found 93 (columns 94-94 "
			    "are missing and are not blank padding)");
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_short_header_is_note(void **state)
{
	struct fx f;
	struct run r;

	(void)state;
	base(&f);
	fx_replace(&f, 1, "101 231380104 1210428822603011200A094101FEDERAL RESERVE BANK");
	run_fx(&r, &f);
	assert_int_equal(r.errors, 0);
	assert_non_null(find_note(&r, "short_line"));
	assert_int_equal(find_note(&r, "short_line")->line, 1);
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_text_past_column_94(void **state)
{
	struct fx f;
	struct run r;
	char l[120];

	(void)state;
	base(&f);
	memcpy(l, fx_at(&f, 3), 94);
	memcpy(l + 94, "6NEXT", 6);
	fx_replace(&f, 3, l);
	run_fx(&r, &f);
	assert_only_error(&r, "record_length", 3);
	assert_int_equal(find_err(&r, "record_length")->column, 95);
	assert_string_equal(find_err(&r, "record_length")->message,
			    "record must be 94 characters, found 99: text past column 94 "
			    "(\"6NEXT\")");
	assert_int_equal(r.records, 3);
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_blanks_past_column_94_are_note(void **state)
{
	struct fx f;
	struct run r;
	char l[120];

	(void)state;
	base(&f);
	memcpy(l, fx_at(&f, 3), 94);
	memcpy(l + 94, "    ", 5);
	fx_replace(&f, 3, l);
	run_fx(&r, &f);
	assert_int_equal(r.errors, 0);
	assert_non_null(find_note(&r, "trailing_blanks"));
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_blank_line_inside_file(void **state)
{
	struct fx f;
	struct run r;

	(void)state;
	base(&f);
	fx_replace(&f, 6, ""); /* the batch control becomes an empty line */
	run_fx(&r, &f);
	assert_has_error(&r, "record_length", 6);
	run_free(&r);
	fx_free(&f);
}

/* a blank line between records is one error: it is not a record, so it
 * does not make the block count wrong too (review 53) */
static void test_ach_rules_blank_line_between_records(void **state)
{
	struct fx f;
	struct run r;
	size_t at = 3 * 95; /* after line 3: lines are 94 characters and LF */

	(void)state;
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
	for (int i = 1; i <= 6; i++)
		fx_entry(&f, "22", "23138010", 100, "A1", (unsigned long)i, NULL);
	fx_end_batch(&f);
	fx_finish(&f, false); /* the file control is line 10: 1 block */
	f.buf = realloc(f.buf, f.len + 95);
	memmove(f.buf + at + 95, f.buf + at, f.len - at);
	memset(f.buf + at, ' ', 94);
	f.buf[at + 94] = '\n';
	f.len += 95;
	run_fx(&r, &f);
	assert_only_error(&r, "record_length", 4);
	run_free(&r);
	fx_free(&f);
}

/* ---- record type and order ---- */

static void test_ach_rules_unknown_record_type(void **state)
{
	struct fx f;
	struct run r;

	(void)state;
	base(&f);
	fx_patch(&f, 5, 1, "3");
	run_fx(&r, &f);
	/* the addenda is gone: the counts and the indicator follow from it */
	assert_has_error(&r, "record_type", 5);
	assert_string_equal(find_err(&r, "record_type")->message,
			    "unknown record type \"3\" (expected 1, 5, 6, 7, 8 or 9)");
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_entry_outside_batch(void **state)
{
	struct fx f;
	struct run r;
	char l[95];

	(void)state;
	base(&f);
	memcpy(l, fx_at(&f, 3), 94);
	l[94] = '\0';
	fx_replace(&f, 7, l); /* an entry where batch 2's header was */
	run_fx(&r, &f);
	assert_has_error(&r, "record_order", 7);
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_file_header_not_first(void **state)
{
	struct fx f;
	struct run r;
	char l[95];

	(void)state;
	base(&f);
	memcpy(l, fx_at(&f, 1), 94);
	l[94] = '\0';
	fx_replace(&f, 6, l);
	run_fx(&r, &f);
	assert_has_error(&r, "record_order", 6);
	run_free(&r);
	fx_free(&f);

	base(&f);
	fx_patch(&f, 1, 1, "5");
	run_fx(&r, &f);
	assert_has_error(&r, "record_order", 1);
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_addenda_without_entry(void **state)
{
	struct fx f;
	struct run r;

	(void)state;
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
	fx_raw(&f, "705NOTHING", 1, 0, 0, 0);
	fx_entry(&f, "22", "23138010", 100, "A1", 1, NULL);
	fx_end_batch(&f);
	fx_finish(&f, true);
	run_fx(&r, &f);
	assert_has_error(&r, "record_order", 3);
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_missing_batch_control(void **state)
{
	struct fx f;
	struct run r;
	char l[95];

	(void)state;
	base(&f);
	memcpy(l, fx_at(&f, 7), 94);
	l[94] = '\0';
	fx_replace(&f, 6, l); /* batch 1 has no control: a batch header instead */
	run_fx(&r, &f);
	assert_has_error(&r, "missing_batch_control", 6);
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_batch_control_outside_batch(void **state)
{
	struct fx f;
	struct run r;
	char l[95];

	(void)state;
	base(&f);
	memcpy(l, fx_at(&f, 6), 94);
	l[94] = '\0';
	fx_replace(&f, 7, l);
	run_fx(&r, &f);
	assert_has_error(&r, "record_order", 7);
	run_free(&r);
	fx_free(&f);
}

/* ---- numeric fields and codes ---- */

static void test_ach_rules_non_digit_amount(void **state)
{
	struct fx f;
	struct run r;
	const struct ev *e;

	(void)state;
	base(&f);
	fx_patch(&f, 3, 35, "X");
	run_fx(&r, &f);
	e = find_err(&r, "numeric");
	assert_non_null(e);
	assert_int_equal(e->line, 3);
	assert_int_equal(e->column, 35);
	assert_string_equal(e->message,
			    "amount (columns 30-39) must be 10 digits, found \"00000X2345\"");
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_unknown_transaction_code(void **state)
{
	struct fx f;
	struct run r;

	(void)state;
	base(&f);
	fx_patch(&f, 3, 2, "25");
	run_fx(&r, &f);
	assert_has_error(&r, "transaction_code", 3);
	assert_string_equal(find_err(&r, "transaction_code")->message,
			    "transaction code 25 (columns 2-3) is not a NACHA transaction code");
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_transaction_code_for_batch(void **state)
{
	struct fx f;
	struct run r;

	(void)state;
	/* a debit in a credits-only batch */
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "PPD", "220", "260302", 1);
	fx_entry(&f, "27", "23138010", 100, "A1", 1, NULL);
	fx_end_batch(&f);
	fx_finish(&f, true);
	run_fx(&r, &f);
	assert_only_error(&r, "transaction_code", 3);
	run_free(&r);
	fx_free(&f);

	/* ADV codes outside an ADV batch */
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(&f, "81", "23138010", 100, "A1", 1, NULL);
	fx_end_batch(&f);
	fx_finish(&f, true);
	run_fx(&r, &f);
	assert_has_error(&r, "transaction_code", 3);
	run_free(&r);
	fx_free(&f);

	/* a prenote carries no amount */
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(&f, "23", "23138010", 100, "A1", 1, NULL);
	fx_end_batch(&f);
	fx_finish(&f, true);
	run_fx(&r, &f);
	assert_only_error(&r, "amount", 3);
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_routing_check_digit(void **state)
{
	(void)state;
	only(3, 12, "5", "routing_check_digit", 3,
	     "receiving DFI check digit (column 12) is 5, expected 4 for routing number 23138010");
}

static void test_ach_rules_lowercase_sec_code(void **state)
{
	(void)state;
	only(2, 51, "ppd", "sec_code", 2,
	     "SEC code (columns 51-53) must be uppercase: found \"ppd\", expected \"PPD\"");
	only(2, 51, "XYZ", "sec_code", 2, "unknown SEC code \"XYZ\" (columns 51-53)");
}

static void test_ach_rules_service_class(void **state)
{
	(void)state;
	/* header and control both say 201: the header is wrong */
	struct fx f;
	struct run r;

	base(&f);
	fx_patch(&f, 2, 2, "201");
	fx_patch(&f, 6, 2, "201");
	run_fx(&r, &f);
	assert_only_error(&r, "service_class", 2);
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_dates(void **state)
{
	(void)state;
	only(2, 70, "261340", "effective_date", 2,
	     "effective entry date (columns 70-75) must be a date YYMMDD, found \"261340\"");
	only(1, 24, "260230", "creation_date", 1, NULL);
	only(1, 30, "2460", "creation_time", 1, NULL);
}

static void test_ach_rules_file_header_fields(void **state)
{
	(void)state;
	only(1, 34, "a", "file_id_modifier", 1,
	     "file ID modifier (column 34) must be A-Z or 0-9, found \"a\"");
	only(1, 35, "095", "record_size", 1, "record size (columns 35-37) must be \"094\", found \"095\"");
	only(1, 38, "12", "blocking_factor", 1, NULL);
	only(1, 40, "2", "format_code", 1, "format code (column 40) must be \"1\", found \"2\"");
	only(1, 2, "0X", "numeric", 1, NULL);
}

/* ---- bytes ---- */

static void test_ach_rules_nul_and_non_ascii_bytes(void **state)
{
	struct fx f;
	struct run r;

	(void)state;
	base(&f);
	fx_at(&f, 3)[59] = '\0';
	run_fx(&r, &f);
	assert_only_error(&r, "bad_byte", 3);
	assert_int_equal(find_err(&r, "bad_byte")->column, 60);
	assert_string_equal(find_err(&r, "bad_byte")->message,
			    "unexpected NUL byte at column 60 (expected printable ASCII)");
	/* what is handed out stays text */
	assert_string_equal(nth_record(&r, 0)->individual_name, "JOHN ?OE");
	run_free(&r);
	fx_free(&f);

	only(3, 60, "\xC3", "bad_byte", 3,
	     "unexpected non-ASCII byte 0xC3 at column 60 (expected printable ASCII; NACHA "
	     "files are plain ASCII)");
	only(3, 60, "\t", "bad_byte", 3,
	     "unexpected control character 0x09 at column 60 (expected printable ASCII)");
}

/* ---- traces ---- */

static void test_ach_rules_trace_not_ascending(void **state)
{
	struct fx f;
	struct run r;
	const struct ev *e;

	(void)state;
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(&f, "22", "23138010", 100, "A1", 5, NULL);
	fx_entry(&f, "22", "23138010", 200, "A2", 5, NULL); /* a repeat: same key */
	fx_entry(&f, "22", "23138010", 300, "A3", 4, NULL);
	fx_end_batch(&f);
	fx_finish(&f, true);
	run_fx(&r, &f);
	assert_int_equal(r.errors, 2);
	e = find_err(&r, "trace_order");
	assert_int_equal(e->line, 4);
	assert_int_equal(e->other_line, 3);
	assert_string_equal(e->message,
			    "trace number 121042880000005 repeats the trace number of the entry at "
			    "line 3: trace numbers must ascend within a batch");
	for (size_t i = 0; i < r.n; i++)
		if (r.ev[i].st == CL_INVALID && r.ev[i].line == 5)
			assert_non_null(strstr(r.ev[i].message, "is below"));
	assert_int_equal(r.records, 3);
	run_free(&r);
	fx_free(&f);
}

/* ---- addenda ---- */

static void test_ach_rules_addenda_indicator(void **state)
{
	(void)state;
	only(4, 79, "0", "addenda_indicator", 5, NULL);
	only(3, 79, "1", "addenda_indicator", 3,
	     "addenda record indicator is 1 but no addenda record follows the entry");
	only(3, 79, "2", "addenda_indicator", 3, NULL);
}

static void test_ach_rules_addenda_sequence(void **state)
{
	(void)state;
	only(5, 84, "0002", "addenda_sequence", 5,
	     "addenda 05 sequence number (columns 84-87) must be 0001, found 0002");
	only(5, 88, "0000009", "addenda_sequence", 5, NULL);
}

static void test_ach_rules_addenda_type(void **state)
{
	(void)state;
	only(5, 2, "42", "addenda_type", 5,
	     "unknown addenda type \"42\" (expected 02, 05, 10-18, 98 or 99)");
	only(5, 2, "02", "addenda_type", 5, NULL);
	only(5, 2, "12", "addenda_type", 5, NULL);
	only(5, 2, "X5", "addenda_type", 5, NULL);
}

static void test_ach_rules_addenda_count(void **state)
{
	struct fx f;
	struct run r;
	char l[95];

	(void)state;
	/* a second addenda 05 on a PPD entry */
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(&f, "22", "23138010", 100, "A1", 1, "FIRST");
	snprintf(l, sizeof(l), "705%-80.80s%04d%07d", "SECOND", 2, 1);
	fx_raw(&f, l, 1, 0, 0, 0);
	fx_end_batch(&f);
	fx_finish(&f, true);
	run_fx(&r, &f);
	assert_only_error(&r, "addenda_count", 5);
	run_free(&r);
	fx_free(&f);

	/* CTX: the entry declares 2 addenda, one follows */
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "CTX", "200", "260302", 1);
	snprintf(l, sizeof(l), "622231380104%-17.17s%010d%-15.15s0002%-16.16s    1%.8s%07d", "A1", 100,
		 "ID", "RECEIVER CO", FX_ODFI, 1);
	fx_raw(&f, l, 1, 23138010, 0, 100);
	snprintf(l, sizeof(l), "705%-80.80s%04d%07d", "ISA*00*", 1, 1);
	fx_raw(&f, l, 1, 0, 0, 0);
	fx_end_batch(&f);
	fx_finish(&f, true);
	run_fx(&r, &f);
	assert_only_error(&r, "addenda_count", 3);
	assert_string_equal(find_err(&r, "addenda_count")->message,
			    "entry declares 2 addenda records (columns 55-58), found 1");
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_return_and_change_codes(void **state)
{
	struct fx f;
	struct run r;

	(void)state;
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry_full(&f, "21", "23138010", 100, "A1", "ID1", "JANE ROE", 1, 1);
	fx_raw(&f, "799R97099912340000099      09101298                                            121042880000001",
	       1, 0, 0, 0);
	fx_entry_full(&f, "21", "23138010", 0, "A1", "ID1", "JANE ROE", 1, 2);
	fx_raw(&f, "798C92099912340000099      09101298NEWDATA                                     121042880000002",
	       1, 0, 0, 0);
	fx_end_batch(&f);
	fx_finish(&f, true);
	run_fx(&r, &f);
	assert_int_equal(r.errors, 2);
	assert_has_error(&r, "reason_code", 4);
	assert_has_error(&r, "change_code", 6);
	run_free(&r);
	fx_free(&f);
}

/* ---- batch control ---- */

static void test_ach_rules_batch_control(void **state)
{
	(void)state;
	only(6, 5, "000009", "batch_entry_count", 6,
	     "batch 1 entry/addenda count mismatch (batch control 000009, computed 000003)");
	only(6, 11, "0099999999", "batch_entry_hash", 6,
	     "batch 1 entry hash mismatch (batch control 0099999999, computed 0032238011)");
	only(6, 21, "000000000501", "batch_total_debit", 6,
	     "batch 1 total debit mismatch (batch control 000000000501, computed 000000000500)");
	only(6, 33, "000000000001", "batch_total_credit", 6, NULL);
	only(6, 2, "220", "batch_service_class", 6, NULL);
	only(6, 45, "1234567891", "batch_company_id", 6, NULL);
	only(6, 88, "0000009", "batch_number", 6, NULL);
	only(6, 80, "99999999", "batch_odfi", 6, NULL);
}

/* A control total that does not add up says, in its detail, where both
 * numbers came from; other errors have no detail.  Each case patches the
 * base file at line, col with text. */
static void test_ach_rules_control_total_details(void **state)
{
	static const struct {
		int line, col;
		const char *text, *code, *detail;
	} cases[] = {
		{6, 11, "0099999999", "batch_entry_hash",
		 "batch control 0099999999: columns 11-20 of line 6; computed 0032238011: the "
		 "last 10 digits of the sum of the receiving DFI identifications (entry detail "
		 "columns 4-11) of the 2 entries after the batch header at line 2"},
		{6, 21, "000000000501", "batch_total_debit",
		 "batch control 000000000501: columns 21-32 of line 6; computed 000000000500: "
		 "the amounts (entry detail columns 30-39) of the debits among the 2 entries "
		 "after the batch header at line 2"},
		{6, 5, "000009", "batch_entry_count",
		 "batch control 000009: columns 5-10 of line 6; computed 000003: the entry "
		 "detail and addenda records after the batch header at line 2"},
		{10, 8, "000002", "file_block_count",
		 "file control 000002: columns 8-13 of line 10; computed 000001: the 10 records "
		 "up to and including this file control (blank lines not counted), in blocks "
		 "of 10"},
		{10, 2, "000003", "file_batch_count",
		 "file control 000003: columns 2-7 of line 10; computed 000002: the batch header "
		 "records of the file"},
		{6, 2, "220", "batch_service_class", ""},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fx f;
		struct run r;

		base(&f);
		fx_patch(&f, (unsigned long)cases[i].line, cases[i].col, cases[i].text);
		run_fx(&r, &f);
		assert_non_null(find_err(&r, cases[i].code));
		assert_string_equal(find_err(&r, cases[i].code)->detail, cases[i].detail);
		assert_string_equal(find_err(&r, cases[i].code)->hint, "");
		run_free(&r);
		fx_free(&f);
	}
}

/* ---- file control, fill, end of file ---- */

static void test_ach_rules_file_control(void **state)
{
	(void)state;
	only(10, 2, "000003", "file_batch_count", 10,
	     "file batch count mismatch (file control 000003, computed 000002)");
	only(10, 8, "000002", "file_block_count", 10, NULL);
	only(10, 14, "00000009", "file_entry_count", 10, NULL);
	only(10, 22, "0000000001", "file_entry_hash", 10, NULL);
	only(10, 32, "000000000001", "file_total_debit", 10, NULL);
	only(10, 44, "000000000001", "file_total_credit", 10, NULL);
	only(10, 14, "0000000X", "numeric", 10, NULL);
}

static void test_ach_rules_fill_records(void **state)
{
	struct fx f;
	struct run r;

	(void)state;
	/* a line starting with 99 that is not all nines */
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(&f, "22", "23138010", 100, "A1", 1, NULL);
	fx_end_batch(&f);
	fx_finish(&f, true);
	fx_patch(&f, 7, 50, "0");
	run_fx(&r, &f);
	assert_only_error(&r, "fill_record", 7);
	run_free(&r);
	fx_free(&f);

	/* a 9-fill record before the file control */
	base(&f);
	fx_replace(&f, 9, "9999999999999999999999999999999999999999999999999999999999999999999999"
			  "999999999999999999999999");
	run_fx(&r, &f);
	assert_has_error(&r, "record_order", 9);
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_record_after_file_control(void **state)
{
	struct fx f;
	struct run r;

	(void)state;
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(&f, "22", "23138010", 100, "A1", 1, NULL);
	fx_end_batch(&f);
	fx_finish(&f, false);
	fx_line(&f, "8200000001000000000000000000000000000000000100");
	run_fx(&r, &f);
	assert_only_error(&r, "after_file_control", 6);
	run_free(&r);
	/* whatever follows: still one error, not one per line (review 50) */
	fx_line(&f, "6221231380101234567890       0000000100A1             NAME                  0121042880000002");
	fx_line(&f, "short");
	run_fx(&r, &f);
	assert_only_error(&r, "after_file_control", 6);
	assert_string_equal(find_err(&r, "after_file_control")->message,
			    "only 9-fill records may follow the file control (line 5), found a batch "
			    "control record; nothing after the file control is read");
	run_free(&r);
	fx_free(&f);
}

/* two files concatenated: one error that says so (review 50) */
static void test_ach_rules_second_file_after_file_control(void **state)
{
	struct fx a, b;
	struct run r;

	(void)state;
	fx_begin(&a, "2603011200");
	fx_batch(&a, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(&a, "22", "23138010", 100, "A1", 1, NULL);
	fx_end_batch(&a);
	fx_finish(&a, false);
	fx_begin(&b, "2603011300");
	fx_batch(&b, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(&b, "22", "23138010", 100, "A2", 2, NULL);
	fx_end_batch(&b);
	fx_finish(&b, false);
	a.buf = realloc(a.buf, a.len + b.len);
	memcpy(a.buf + a.len, b.buf, b.len);
	a.len += b.len;
	run_fx(&r, &a);
	assert_only_error(&r, "after_file_control", 6);
	assert_string_equal(find_err(&r, "after_file_control")->message,
			    "a second file starts here (a file header after the file control at line "
			    "5): one NACHA file per input; nothing after the file control is read");
	run_free(&r);
	fx_free(&a);
	fx_free(&b);
}

/* a DOS end-of-file byte after the file control: a note, not three errors
 * (review 53); once, and only as the end */
static void test_ach_rules_dos_eof_marker(void **state)
{
	struct fx f;
	struct run r;
	size_t len;

	(void)state;
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(&f, "22", "23138010", 100, "A1", 1, NULL);
	fx_end_batch(&f);
	fx_finish(&f, false);
	len = f.len;
	/* the byte alone, with no line end, as DOS tools write it */
	f.buf[f.len++] = 0x1a;
	run_fx(&r, &f);
	assert_int_equal(r.errors, 0);
	assert_non_null(find_note(&r, "eof_marker"));
	run_free(&r);
	/* padded with blanks on a line of its own */
	f.len = len;
	fx_line(&f, "\x1a");
	run_fx(&r, &f);
	assert_int_equal(r.errors, 0);
	assert_non_null(find_note(&r, "eof_marker"));
	run_free(&r);
	/* anything after it is the one error after the file control */
	fx_line(&f, "\x1a");
	run_fx(&r, &f);
	assert_only_error(&r, "after_file_control", 7);
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_truncated_file(void **state)
{
	struct fx f;
	struct run r;

	(void)state;
	base(&f);
	f.len -= 95; /* no file control */
	run_fx(&r, &f);
	assert_only_error(&r, "truncated", 9);
	assert_int_equal(r.records, 3);
	run_free(&r);
	fx_free(&f);

	base(&f);
	f.len = 95 * 4; /* ends inside batch 1 */
	run_fx(&r, &f);
	assert_has_error(&r, "missing_batch_control", 4);
	assert_has_error(&r, "truncated", 4);
	run_free(&r);
	fx_free(&f);

	run_buf(&r, "", 0);
	assert_only_error(&r, "empty_file", 0);
	run_free(&r);
}

/* ---- robustness: every byte of a file changed, at every chunking ---- */

static void test_ach_rules_mutated_files_never_crash(void **state)
{
	static const unsigned char vals[] = {0, '\n', '\r', ' ', '9', '1', '5', '6', '7', '8', 'A', 0xff};
	struct fx f;
	struct run r;

	(void)state;
	base(&f);
	for (size_t i = 0; i < f.len; i++) {
		unsigned char old = (unsigned char)f.buf[i];

		for (size_t v = 0; v < sizeof(vals); v++) {
			f.buf[i] = (char)vals[v];
			run_fx(&r, &f);
			if (vals[v] != old)
				assert_true(r.errors + r.notes > 0 || r.records > 0);
			run_free(&r);
		}
		f.buf[i] = (char)old;
	}
	/* every prefix of the file (a file control cut after column 55 is only
	 * missing blank padding) */
	for (size_t n = 0; n < f.len - 95 + 55; n += 7) {
		run_buf(&r, f.buf, n);
		assert_true(r.errors > 0);
		run_free(&r);
	}
	fx_free(&f);
}

static void test_ach_rules_originator_status(void **state)
{
	(void)state;
	only(2, 79, "7", "originator_status", 2,
	     "originator status code (column 79) must be 0, 1 or 2, found \"7\"");
}

static void test_ach_rules_fill_and_blank_line_notes(void **state)
{
	struct fx f;
	struct run r;

	(void)state;
	/* 5 records and 3 of the 5 nines needed: a note, not an error */
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(&f, "22", "23138010", 100, "A1", 1, NULL);
	fx_end_batch(&f);
	fx_finish(&f, false);
	for (int i = 0; i < 3; i++)
		fx_line(&f, "99999999999999999999999999999999999999999999999999999999999999999999999"
			    "99999999999999999999999");
	fx_line(&f, "");
	run_fx(&r, &f);
	assert_int_equal(r.errors, 0);
	assert_non_null(find_note(&r, "partial_fill"));
	assert_non_null(find_note(&r, "blank_lines"));
	run_free(&r);
	/* a whole block of 9-fill too many */
	for (int i = 0; i < 10; i++)
		fx_line(&f, "99999999999999999999999999999999999999999999999999999999999999999999999"
			    "99999999999999999999999");
	run_fx(&r, &f);
	assert_has_error(&r, "fill_record", 16); /* 5 records, 3 nines, a blank line, 7 nines */
	run_free(&r);
	fx_free(&f);
}

/* An entry with the given addenda lines, in a batch of `sec`. */
static void entry_with(struct run *r, const char *sec, const char *service, const char *tcode,
		       const char *const *addenda, int n)
{
	struct fx f;
	char l[120];

	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", sec, service, "260302", 1);
	snprintf(l, sizeof(l), "6%.2s231380104%-17.17s%010d%-15.15s%-22.22s  %d%.8s%07d", tcode,
		 "A1", 0, "ID", "NAME", n > 0, FX_ODFI, 1);
	fx_raw(&f, l, 1, 23138010, 0, 0);
	for (int i = 0; i < n; i++)
		fx_raw(&f, addenda[i], 1, 0, 0, 0);
	fx_end_batch(&f);
	fx_finish(&f, true);
	run_fx(r, &f);
	fx_free(&f);
}

static void test_ach_rules_addenda_combinations(void **state)
{
	char a99[95], a99b[95], a98[95], a02[95], a05[95];
	const char *v[3];
	struct run r;

	(void)state;
	snprintf(a99, sizeof(a99), "799R01099912340000099      09101298%-44.44s121042880000001", "");
	snprintf(a99b, sizeof(a99b), "799R02099912340000099      09101298%-44.44s121042880000001", "");
	snprintf(a98, sizeof(a98), "798C01099912340000099      09101298%-29.29s%15s121042880000001",
		 "NEWACCT", "");
	snprintf(a02, sizeof(a02), "702%-76.76s121042880000001", "TERMINAL");
	snprintf(a05, sizeof(a05), "705%-80.80s00010000001", "TEXT");

	/* a return and a NOC at once */
	v[0] = a99;
	v[1] = a98;
	entry_with(&r, "PPD", "200", "21", v, 2);
	assert_only_error(&r, "addenda_type", 3);
	run_free(&r);
	/* a second plain return */
	v[1] = a99b;
	entry_with(&r, "PPD", "200", "21", v, 2);
	assert_only_error(&r, "addenda_count", 5);
	run_free(&r);
	/* a COR entry without its 98 */
	entry_with(&r, "COR", "200", "21", v, 0);
	assert_only_error(&r, "addenda_count", 3);
	run_free(&r);
	/* a second 02 on a POS entry */
	v[0] = a02;
	v[1] = a02;
	entry_with(&r, "POS", "200", "27", v, 2);
	assert_only_error(&r, "addenda_count", 5);
	run_free(&r);
	/* ADV carries no addenda */
	v[0] = a05;
	entry_with(&r, "ADV", "280", "81", v, 1);
	assert_has_error(&r, "addenda_type", 4);
	run_free(&r);
}

static void test_ach_rules_iat_addenda_limits(void **state)
{
	char add[12][95], body[90];
	const char *v[12];
	struct fx f;
	struct run r;

	(void)state;
	for (int i = 0; i < 7; i++) {
		if (i == 0)
			snprintf(body, sizeof(body), "ANN000000000000100000%22s%-35.35s%6s", "", "NAME", "");
		else
			snprintf(body, sizeof(body), "%-84.84s", "X");
		snprintf(add[i], sizeof(add[i]), "7%02d%-84.84s%07d", 10 + i, body, 1);
	}
	for (int i = 7; i < 10; i++)
		snprintf(add[i], sizeof(add[i]), "717%-80.80s%04d%07d", "INFO", i - 6, 1);
	for (int i = 0; i < 10; i++)
		v[i] = add[i];
	fx_begin(&f, "2603011200");
	fx_iat_batch(&f, 10);
	for (int i = 0; i < 10; i++)
		fx_raw(&f, v[i], 1, 0, 0, 0);
	fx_end_batch(&f);
	fx_finish(&f, true);
	run_fx(&r, &f);
	/* three addenda 17: at most two */
	assert_only_error(&r, "addenda_count", 13);
	run_free(&r);

	/* addenda 11 before 10 */
	memcpy(fx_at(&f, 4) + 1, "11", 2);
	memcpy(fx_at(&f, 5) + 1, "10", 2);
	run_fx(&r, &f);
	assert_has_error(&r, "addenda_sequence", 4);
	run_free(&r);
	fx_free(&f);

	/* an unknown IAT transaction type code */
	memcpy(add[0] + 3, "XYZ", 3);
	fx_begin(&f, "2603011200");
	fx_iat_batch(&f, 7);
	for (int i = 0; i < 7; i++)
		fx_raw(&f, add[i], 1, 0, 0, 0);
	fx_end_batch(&f);
	fx_finish(&f, true);
	run_fx(&r, &f);
	assert_only_error(&r, "iat_transaction_type", 4);
	run_free(&r);
	fx_free(&f);
}

static void test_ach_rules_total_wider_than_its_field(void **state)
{
	struct fx f;
	struct run r;

	(void)state;
	/* 200 entries of 9,999,999,999 cents: a 12-digit total cannot hold
	 * their sum (the fixture writes all 13 digits, so the field holds the
	 * first 12), and the message shows the computed sum in full */
	fx_begin(&f, "2603011200");
	fx_batch(&f, "1234567890", "PPD", "225", "260302", 1);
	for (int i = 1; i <= 200; i++)
		fx_entry(&f, "27", "23138010", 9999999999ULL, "A1", (uint64_t)i, NULL);
	fx_end_batch(&f);
	fx_finish(&f, true);
	run_fx(&r, &f);
	assert_has_error(&r, "file_total_debit", 204);
	assert_string_equal(find_err(&r, "file_total_debit")->message,
			    "file total debit mismatch (file control 199999999980, computed "
			    "1999999999800)");
	run_free(&r);
	fx_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ach_rules_base_is_valid),
		cmocka_unit_test(test_ach_rules_short_entry_is_error),
		cmocka_unit_test(test_ach_rules_short_header_is_note),
		cmocka_unit_test(test_ach_rules_text_past_column_94),
		cmocka_unit_test(test_ach_rules_blanks_past_column_94_are_note),
		cmocka_unit_test(test_ach_rules_blank_line_inside_file),
		cmocka_unit_test(test_ach_rules_unknown_record_type),
		cmocka_unit_test(test_ach_rules_entry_outside_batch),
		cmocka_unit_test(test_ach_rules_file_header_not_first),
		cmocka_unit_test(test_ach_rules_addenda_without_entry),
		cmocka_unit_test(test_ach_rules_missing_batch_control),
		cmocka_unit_test(test_ach_rules_batch_control_outside_batch),
		cmocka_unit_test(test_ach_rules_non_digit_amount),
		cmocka_unit_test(test_ach_rules_unknown_transaction_code),
		cmocka_unit_test(test_ach_rules_transaction_code_for_batch),
		cmocka_unit_test(test_ach_rules_routing_check_digit),
		cmocka_unit_test(test_ach_rules_lowercase_sec_code),
		cmocka_unit_test(test_ach_rules_service_class),
		cmocka_unit_test(test_ach_rules_dates),
		cmocka_unit_test(test_ach_rules_file_header_fields),
		cmocka_unit_test(test_ach_rules_nul_and_non_ascii_bytes),
		cmocka_unit_test(test_ach_rules_trace_not_ascending),
		cmocka_unit_test(test_ach_rules_addenda_indicator),
		cmocka_unit_test(test_ach_rules_addenda_sequence),
		cmocka_unit_test(test_ach_rules_addenda_type),
		cmocka_unit_test(test_ach_rules_addenda_count),
		cmocka_unit_test(test_ach_rules_return_and_change_codes),
		cmocka_unit_test(test_ach_rules_batch_control),
		cmocka_unit_test(test_ach_rules_control_total_details),
		cmocka_unit_test(test_ach_rules_file_control),
		cmocka_unit_test(test_ach_rules_fill_records),
		cmocka_unit_test(test_ach_rules_record_after_file_control),
		cmocka_unit_test(test_ach_rules_second_file_after_file_control),
		cmocka_unit_test(test_ach_rules_blank_line_between_records),
		cmocka_unit_test(test_ach_rules_dos_eof_marker),
		cmocka_unit_test(test_ach_rules_truncated_file),
		cmocka_unit_test(test_ach_rules_mutated_files_never_crash),
		cmocka_unit_test(test_ach_rules_originator_status),
		cmocka_unit_test(test_ach_rules_fill_and_blank_line_notes),
		cmocka_unit_test(test_ach_rules_addenda_combinations),
		cmocka_unit_test(test_ach_rules_iat_addenda_limits),
		cmocka_unit_test(test_ach_rules_total_wider_than_its_field),
	};

	return cmocka_run_group_tests_name("ach_rules", tests, NULL, NULL);
}
