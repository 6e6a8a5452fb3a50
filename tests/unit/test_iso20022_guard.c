/* test_iso20022_guard.c - the byte guard in front of libxml2: what it
 * refuses, where it says so, and that no split of the input into chunks
 * changes its verdict. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/iso20022_internal.h"

struct verdict {
	bool failed;
	char code[CL_CODE_MAX];
	unsigned long line, col, lines;
	size_t passed; /* bytes let through */
};

static void scan(const char *s, size_t len, size_t chunk, struct verdict *v)
{
	struct cl_iso_guard g;

	cl_iso_guard_init(&g);
	memset(v, 0, sizeof(*v));
	for (size_t o = 0; o < len; o += chunk) {
		size_t n = len - o < chunk ? len - o : chunk;
		size_t ok = cl_iso_guard_scan(&g, (const unsigned char *)s + o, n);

		v->passed += ok;
		if (ok < n)
			break;
	}
	v->failed = g.failed;
	snprintf(v->code, sizeof(v->code), "%s", g.failed ? g.code : "");
	v->line = g.failed ? g.fail_line : 0;
	v->col = g.failed ? g.fail_col : 0;
	v->lines = cl_iso_guard_lines(&g);
}

/* The verdict for the whole buffer, checked to be the same for chunks of
 * 1 to 9 bytes and 4 KiB. */
static struct verdict judge(const char *s, size_t len)
{
	static const size_t chunks[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 4096};
	struct verdict whole, part;

	scan(s, len, len ? len : 1, &whole);
	for (size_t i = 0; i < sizeof(chunks) / sizeof(chunks[0]); i++) {
		scan(s, len, chunks[i], &part);
		assert_int_equal(part.failed, whole.failed);
		assert_string_equal(part.code, whole.code);
		assert_int_equal(part.line, whole.line);
		assert_int_equal(part.col, whole.col);
		if (!whole.failed)
			assert_int_equal(part.lines, whole.lines);
	}
	return whole;
}

static void test_iso20022_guard_ordinary_markup_passes(void **state)
{
	static const char *const ok[] = {
		"<?xml version=\"1.0\"?>\n<a b=\"x>y\" c='>'>t&amp;t</a>\n",
		"<a><!-- a comment with <tags> and -- dashes --><b/></a>",
		"<a><![CDATA[ <not> a ]] tag ]]></a>",
		"<a><?pi with ? and > inside?></a>",
		"\xef\xbb\xbf<a>\r\n<b>x</b>\r\n</a>",
		"<a>\n\n\n</a>",
		"",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct verdict v = judge(ok[i], strlen(ok[i]));

		assert_false(v.failed);
		assert_int_equal(v.passed, strlen(ok[i]));
	}
	assert_int_equal(judge("<a>\n\n\n</a>", 11).lines, 4);
	assert_int_equal(judge("<a>\n</a>\n", 9).lines, 2);
	assert_int_equal(judge("", 0).lines, 0);
}

static void test_iso20022_guard_doctype_anywhere(void **state)
{
	static const char x[] = "<?xml version=\"1.0\"?>\n  <!DOCTYPE a [<!ENTITY e \"x\">]>\n<a/>";
	struct verdict v;

	(void)state;
	v = judge(x, strlen(x));
	assert_true(v.failed);
	assert_string_equal(v.code, "xml_doctype");
	assert_int_equal(v.line, 2);
	assert_int_equal(v.col, 3);
	/* nothing from "<!D" on reaches libxml2 */
	assert_true(v.passed <= (size_t)(strstr(x, "<!D") - x) + 2);
	v = judge("<a><!ENTITY e \"x\"></a>", 22);
	assert_string_equal(v.code, "xml_doctype");
	/* inside a comment or CDATA it is only text */
	assert_false(judge("<a><!-- <!DOCTYPE x> --></a>", 28).failed);
	assert_false(judge("<a><![CDATA[<!DOCTYPE x>]]></a>", 31).failed);
}

static void test_iso20022_guard_lengths(void **state)
{
	size_t big = CL_ISO_MAX_TEXT + 1;
	char *x = malloc(big + 64);
	struct verdict v;
	static const struct {
		const char *open, *close, *what;
		char fill;
		unsigned long line, col; /* where the construct starts */
	} cases[] = {
		{"<a>\n", "</a>", "xml_too_long", 't', 1, 4}, /* the text node starts after <a> */
		{"<a>\n<!--", "--></a>", "xml_too_long", '<', 2, 1}, /* '<' inside a comment */
		{"<a>\n<![CDATA[", "]]></a>", "xml_too_long", '>', 2, 1},
		{"<a>\n<?pi ", "?></a>", "xml_too_long", '<', 2, 1},
		{"<a>\n<b c=\"", "\"/></a>", "xml_too_long", '>', 2, 1}, /* '>' in quotes */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = (size_t)sprintf(x, "%s", cases[i].open);

		memset(x + n, cases[i].fill, big);
		n += big;
		n += (size_t)sprintf(x + n, "%s", cases[i].close);
		v = judge(x, n);
		assert_true(v.failed);
		assert_string_equal(v.code, cases[i].what);
		assert_int_equal(v.line, cases[i].line);
		assert_int_equal(v.col, cases[i].col);
	}
	/* exactly at the limit is fine */
	memcpy(x, "<a>", 3);
	memset(x + 3, 't', CL_ISO_MAX_TEXT);
	memcpy(x + 3 + CL_ISO_MAX_TEXT, "</a>", 4);
	assert_false(judge(x, CL_ISO_MAX_TEXT + 7).failed);
	free(x);
}

static void test_iso20022_guard_attribute_count(void **state)
{
	char x[8192];
	size_t n = (size_t)sprintf(x, "<a>\n<b");
	struct verdict v;

	(void)state;
	for (int i = 0; i < CL_ISO_MAX_ATTRS; i++)
		n += (size_t)sprintf(x + n, " a%d=''", i);
	memcpy(x + n, "/></a>", 7);
	assert_false(judge(x, n + 6).failed); /* exactly the limit */
	n += (size_t)sprintf(x + n, " z=\"x\"/></a>");
	v = judge(x, n);
	assert_true(v.failed);
	assert_string_equal(v.code, "xml_too_many_attributes");
	assert_int_equal(v.line, 2);
	assert_int_equal(v.col, 1);
}

static void test_iso20022_guard_encodings(void **state)
{
	char code[CL_CODE_MAX], msg[200];

	(void)state;
	assert_true(cl_iso_check_encoding((const unsigned char *)"<a/>", 4, code, msg, sizeof(msg)));
	assert_true(cl_iso_check_encoding((const unsigned char *)"<?xml version='1.0' "
				     "encoding='utf-8'?><a/>", 41, code, msg, sizeof(msg)));
	assert_true(cl_iso_check_encoding((const unsigned char *)"\xef\xbb\xbf<?xml version=\"1.0\" "
				     "encoding=\"US-ASCII\"?>", 43, code, msg, sizeof(msg)));
	assert_false(cl_iso_check_encoding((const unsigned char *)"<?xml version=\"1.0\" "
				      "encoding=\"windows-1252\"?>", 45, code, msg, sizeof(msg)));
	assert_string_equal(code, "xml_encoding");
	assert_string_equal(msg, "declared encoding \"windows-1252\": expected UTF-8 (ISO 20022 "
				 "messages are UTF-8)");
	assert_false(cl_iso_check_encoding((const unsigned char *)"\xfe\xff\0<", 4, code, msg,
					   sizeof(msg)));
	assert_false(cl_iso_check_encoding((const unsigned char *)"<\0a\0", 4, code, msg,
					   sizeof(msg)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iso20022_guard_ordinary_markup_passes),
		cmocka_unit_test(test_iso20022_guard_doctype_anywhere),
		cmocka_unit_test(test_iso20022_guard_lengths),
		cmocka_unit_test(test_iso20022_guard_attribute_count),
		cmocka_unit_test(test_iso20022_guard_encodings),
	};

	return cmocka_run_group_tests_name("iso20022_guard", tests, NULL, NULL);
}
