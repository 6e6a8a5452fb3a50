/* test_ach_rules.c - what the rule cases of tests/rules/ach.test cannot say
 * through the program: the codes of the notes (validate prints notes
 * without them), that a record with a bad byte is handed out as text, and
 * that no change to any byte of a file crashes the parser. */
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

/* The note of each case of ach.test that validate reports as a note: its
 * code and line (the message is asserted there). */
static void expect_note(const struct fx *f, const char *code, unsigned long line)
{
	struct run r;

	run_fx(&r, f);
	assert_int_equal(r.errors, 0);
	assert_non_null(find_note(&r, code));
	assert_int_equal(find_note(&r, code)->line, line);
	run_free(&r);
}

/* base with line 3 ending after column 94 in `tail` */
static void base_with_tail(struct fx *f, const char *tail)
{
	char l[120];

	base(f);
	memcpy(l, fx_at(f, 3), 94);
	snprintf(l + 94, sizeof(l) - 94, "%s", tail);
	fx_replace(f, 3, l);
}

/* one batch of one entry, no 9-fill: 5 lines */
static void one_entry(struct fx *f)
{
	fx_begin(f, "2603011200");
	fx_batch(f, "1234567890", "PPD", "200", "260302", 1);
	fx_entry(f, "22", "23138010", 100, "A1", 1, NULL);
	fx_end_batch(f);
	fx_finish(f, false);
}

static void test_ach_rules_note_codes(void **state)
{
	struct fx f;
	size_t len;

	(void)state;
	base(&f);
	fx_replace(&f, 1, "101 231380104 1210428822603011200A094101FEDERAL RESERVE BANK");
	expect_note(&f, "short_line", 1);
	fx_free(&f);

	base_with_tail(&f, "    ");
	expect_note(&f, "trailing_blanks", 3);
	fx_free(&f);

	one_entry(&f);
	expect_note(&f, "missing_fill", 5);
	len = f.len;
	f.buf[f.len++] = 0x1a; /* alone, with no line end, as DOS tools write it */
	expect_note(&f, "eof_marker", 6);
	f.len = len;
	fx_line(&f, "\x1a"); /* on a line of its own */
	expect_note(&f, "eof_marker", 6);
	f.len = len;
	for (int i = 0; i < 3; i++)
		fx_line(&f, "99999999999999999999999999999999999999999999999999999999999999999999999"
			    "99999999999999999999999");
	fx_line(&f, "");
	expect_note(&f, "partial_fill", 9);
	expect_note(&f, "blank_lines", 9);
	fx_free(&f);
}

/* a NUL byte is an error, and what is handed out stays text */
static void test_ach_rules_nul_byte_is_handed_out_as_text(void **state)
{
	struct fx f;
	struct run r;

	(void)state;
	base(&f);
	fx_at(&f, 3)[59] = '\0';
	run_fx(&r, &f);
	assert_only_error(&r, "bad_byte", 3);
	assert_string_equal(nth_record(&r, 0)->individual_name, "JOHN ?OE");
	run_free(&r);
	fx_free(&f);
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

/* ---- robustness: every byte of a file changed ---- */

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ach_rules_note_codes),
		cmocka_unit_test(test_ach_rules_nul_byte_is_handed_out_as_text),
		cmocka_unit_test(test_ach_rules_control_total_details),
		cmocka_unit_test(test_ach_rules_mutated_files_never_crash),
	};

	return cmocka_run_group_tests_name("ach_rules", tests, NULL, NULL);
}
