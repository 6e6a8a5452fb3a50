/* test_iso20022_hostile.c - hostile and broken XML: each is refused with
 * its own error code, fast, without output on stderr and without any of
 * its content reaching a record. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <libxml/parser.h>
#include <time.h>
#include <unistd.h>

#include "parsers/iso20022_internal.h"
#include "test_iso20022_util.h"

static struct iso_run run;

#define PAIN_NS "urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"

static const char good_body[] =
	"<Document xmlns=\"" PAIN_NS "\"><CstmrCdtTrfInitn>\n"
	"<GrpHdr><MsgId>M</MsgId><CreDtTm>2026-03-02T08:00:00</CreDtTm><NbOfTxs>1</NbOfTxs>"
	"</GrpHdr>\n"
	"<PmtInf><PmtInfId>P</PmtInfId><ReqdExctnDt><Dt>2026-03-03</Dt></ReqdExctnDt>\n"
	"<DbtrAcct><Id><Othr><Id>ACC</Id></Othr></Id></DbtrAcct>\n"
	"<CdtTrfTxInf><PmtId><EndToEndId>E1</EndToEndId></PmtId>"
	"<Amt><InstdAmt Ccy=\"EUR\">1.00</InstdAmt></Amt>"
	"<Cdtr><Nm>Caf\xc3\xa9 M\xc3\xbcller</Nm></Cdtr></CdtTrfTxInf>\n"
	"</PmtInf></CstmrCdtTrfInitn></Document>\n";

/* One error, with this code, and nothing else. */
static void only_error(const struct iso_run *r, const char *code)
{
	if (r->nerr != 1 || strcmp(r->err[0].code, code) != 0)
		fail_msg("expected one %s error, got %d (first: %s: %s)", code, r->nerr,
			 r->nerr ? r->err[0].code : "-", r->nerr ? r->err[0].message : "-");
	assert_int_equal(r->nrec, 0);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_iso20022_external_entity_refused(void **state)
{
	static const char x[] =
		"<?xml version=\"1.0\"?>\n"
		"<!DOCTYPE Document [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n"
		"<Document xmlns=\"" PAIN_NS "\"><CstmrCdtTrfInitn><GrpHdr><MsgId>&xxe;</MsgId>"
		"</GrpHdr></CstmrCdtTrfInitn></Document>\n";

	(void)state;
	iso_run(x, &run);
	only_error(&run, "xml_doctype");
	assert_int_equal(run.err[0].line, 2);
	assert_int_equal(run.err[0].column, 1);
	assert_string_equal(run.err[0].message,
			    "document type declaration (<!DOCTYPE ...>) not allowed: ISO 20022 "
			    "messages have none, and entities are never expanded");
}

static void test_iso20022_entity_bomb_refused_fast(void **state)
{
	char x[4096];
	int n = snprintf(x, sizeof(x), "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n"
				       "<!ENTITY lol0 \"lol\">\n");
	double t0;

	(void)state;
	/* the billion laughs: lol9 expands to 10^9 "lol" */
	for (int i = 1; i < 10; i++) {
		n += snprintf(x + n, sizeof(x) - (size_t)n, "<!ENTITY lol%d \"", i);
		for (int j = 0; j < 10; j++)
			n += snprintf(x + n, sizeof(x) - (size_t)n, "&lol%d;", i - 1);
		n += snprintf(x + n, sizeof(x) - (size_t)n, "\">\n");
	}
	snprintf(x + n, sizeof(x) - (size_t)n,
		 "]>\n<Document xmlns=\"" PAIN_NS "\"><CstmrCdtTrfInitn><GrpHdr><MsgId>&lol9;"
		 "</MsgId></GrpHdr></CstmrCdtTrfInitn></Document>\n");
	t0 = now();
	iso_run(x, &run);
	assert_true(now() - t0 < 1.0);
	only_error(&run, "xml_doctype");
	assert_int_equal(run.err[0].line, 2);
}

static void test_iso20022_any_doctype_refused(void **state)
{
	static const char x[] = "<!DOCTYPE Document SYSTEM \"http://example.com/x.dtd\">\n"
				"<Document xmlns=\"" PAIN_NS "\"/>\n";

	(void)state;
	iso_run(x, &run);
	only_error(&run, "xml_doctype");
	assert_int_equal(run.err[0].line, 1);
}

static void test_iso20022_deep_nesting_refused(void **state)
{
	static char x[8192];
	size_t n = (size_t)snprintf(x, sizeof(x),
				    "<Document xmlns=\"" PAIN_NS "\"><CstmrCdtTrfInitn>\n");

	(void)state;
	for (int i = 0; i < 1000 && n + 8 < sizeof(x); i++)
		n += (size_t)snprintf(x + n, sizeof(x) - n, "<a>");
	iso_run_opts(x, n, 0, NULL, &run); /* never closed: the depth limit comes first */
	only_error(&run, "xml_depth");
	assert_string_equal(run.err[0].message, "elements nested deeper than the limit of 64 levels");
}

static void huge(const char *open, char fill, const char *close, const char *what)
{
	size_t big = CL_ISO_MAX_TEXT + 10, n;
	char *x = malloc(big + 512);
	char want[128];

	n = (size_t)sprintf(x, "<Document xmlns=\"" PAIN_NS "\"><CstmrCdtTrfInitn><GrpHdr>\n%s",
			    open);
	memset(x + n, fill, big);
	n += big;
	n += (size_t)sprintf(x + n, "%s</GrpHdr></CstmrCdtTrfInitn></Document>\n", close);
	iso_run_opts(x, n, 0, NULL, &run);
	only_error(&run, "xml_too_long");
	assert_int_equal(run.err[0].line, 2);
	snprintf(want, sizeof(want), "%s longer than the limit of %d bytes", what,
		 CL_ISO_MAX_TEXT);
	assert_string_equal(run.err[0].message, want);
	free(x);
}

static void test_iso20022_huge_text_refused(void **state)
{
	(void)state;
	huge("<MsgId>", 'A', "</MsgId>", "text node");
	huge("<!--", 'c', "-->", "comment");
	huge("<![CDATA[", 'd', "]]>", "CDATA section");
	huge("<MsgId a=\"", 'v', "\">x</MsgId>", "tag");
}

static void test_iso20022_distinct_names_bounded(void **state)
{
	/* libxml2 keeps every distinct name: 4,000 names of 100 characters
	 * pass the cap, and are refused before memory grows */
	size_t cap = 4000 * 110 + 256, n;
	char *x = malloc(cap);

	(void)state;
	n = (size_t)sprintf(x, "<Document xmlns=\"" PAIN_NS "\"><CstmrCdtTrfInitn>\n");
	for (int i = 0; i < 4000; i++)
		n += (size_t)sprintf(x + n, "<n%099d/>\n", i);
	n += (size_t)sprintf(x + n, "</CstmrCdtTrfInitn></Document>\n");
	iso_run_opts(x, n, 0, NULL, &run);
	only_error(&run, "xml_too_many_names");
	assert_true(run.err[0].line > 2000 && run.err[0].line <= 4001);
	free(x);
}

static void test_iso20022_truncated_file(void **state)
{
	size_t cut = strlen(good_body) / 2;

	(void)state;
	iso_run_opts(good_body, cut, 0, NULL, &run);
	assert_int_equal(run.nrec, 0);
	assert_true(run.nerr >= 1);
	assert_string_equal(run.err[run.nerr - 1].code, "xml_truncated");
	assert_non_null(strstr(run.err[run.nerr - 1].message,
			       "file ends inside the document (truncated?)"));
	/* cut in a tag, in text, after a whole element: always truncated */
	for (size_t c = 40; c < strlen(good_body) - 2; c += 37) {
		iso_run_opts(good_body, c, 0, NULL, &run);
		assert_string_equal(run.err[run.nerr - 1].code, "xml_truncated");
		iso_run_opts(good_body, c, 1, NULL, &run);
		assert_string_equal(run.err[run.nerr - 1].code, "xml_truncated");
	}
}

static void test_iso20022_malformed(void **state)
{
	(void)state;
	iso_run("<Document xmlns=\"" PAIN_NS "\"><CstmrCdtTrfInitn><a></b></CstmrCdtTrfInitn>"
		"</Document>",
		&run);
	only_error(&run, "xml_malformed");
	assert_int_equal(run.err[0].line, 1);
	assert_true(run.err[0].column > 0);
	iso_run("<<<", &run);
	only_error(&run, "xml_malformed");
	iso_run("<Document xmlns=\"" PAIN_NS "\"/><Document/>", &run);
	only_error(&run, "xml_malformed"); /* two roots */
}

static void test_iso20022_wrong_namespace(void **state)
{
	(void)state;
	iso_run("<Document xmlns=\"urn:example:pain\"><CstmrCdtTrfInitn/></Document>", &run);
	only_error(&run, "xml_namespace");
	assert_non_null(strstr(run.err[0].message, "\"urn:example:pain\""));
	assert_non_null(strstr(run.err[0].message, "pacs.008.001.02 to .14"));
	iso_run("<Document><CstmrCdtTrfInitn/></Document>", &run);
	only_error(&run, "xml_namespace");
	assert_non_null(strstr(run.err[0].message, "namespace (none)"));
	iso_run("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\"/>", &run);
	only_error(&run, "unsupported_message");
	assert_string_equal(run.err[0].message,
			    "camt.053.001.08 is a bank statement, not a clearing file: "
			    "clearing-load loads pain.001, pacs.008, pacs.009, pacs.004, pain.008, "
			    "pacs.003, camt.056 and camt.029");
	/* what the message holds is not read, even what looks like a payment */
	iso_run("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pacs.002.001.10\">"
		"<FIToFIPmtStsRpt><FIToFICstmrCdtTrf/><Bad/></FIToFIPmtStsRpt></Document>",
		&run);
	only_error(&run, "unsupported_message");
	assert_string_equal(run.err[0].message,
			    "pacs.002.001.10 is a payment status report, not a clearing file: "
			    "clearing-load loads pain.001, pacs.008, pacs.009, pacs.004, pain.008, "
			    "pacs.003, camt.056 and camt.029");
	iso_run("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pacs.007.001.09\"/>", &run);
	only_error(&run, "unsupported_message");
	assert_string_equal(run.err[0].message,
			    "pacs.007.001.09 is a payment reversal, a message "
			    "clearing-load does not load: it loads pain.001, pacs.008, pacs.009, "
			    "pacs.004, pain.008, pacs.003, camt.056 and camt.029");
	iso_run("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:reda.001.001.04\"/>", &run);
	only_error(&run, "unsupported_message");
	assert_string_equal(run.err[0].message,
			    "reda.001.001.04 is an ISO 20022 message clearing-load does not "
			    "load: it loads pain.001, pacs.008, pacs.009, pacs.004, pain.008, "
			    "pacs.003, camt.056 and camt.029");
	iso_run("<Document xmlns=\"http://www.six-interbank-clearing.com/de/"
		"pain.002.001.03.ch.02.xsd\"/>", &run);
	only_error(&run, "unsupported_message");
	assert_non_null(strstr(run.err[0].message, "pain.002.001.03.ch.02 is a payment status"));
	/* a statement cut short is a broken file too: not only "unsupported" */
	iso_run("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\">"
		"<BkToCstmrStmt><GrpHdr>", &run);
	assert_int_equal(run.nerr, 2);
	assert_string_equal(run.err[0].code, "unsupported_message");
	assert_string_equal(run.err[1].code, "xml_truncated");
	iso_run("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:camt.053.001.08\">"
		"<BkToCstmrStmt></Stmt></Document>", &run);
	assert_int_equal(run.nerr, 2);
	assert_string_equal(run.err[0].code, "unsupported_message");
	assert_string_equal(run.err[1].code, "xml_malformed");
	iso_run("<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.001.001.99\"/>", &run);
	only_error(&run, "unsupported_version");
	iso_run("<Document xmlns=\"" PAIN_NS "\"><FIToFICstmrCdtTrf/></Document>", &run);
	only_error(&run, "unexpected_element");
	assert_string_equal(run.err[0].message,
			    "element <FIToFICstmrCdtTrf> under Document: a pain.001.001.09 "
			    "message has <CstmrCdtTrfInitn>");
	iso_run("<Envelope><Other/></Envelope>", &run);
	only_error(&run, "no_document");
}

static void test_iso20022_bom_accepted(void **state)
{
	char x[2048];

	(void)state;
	snprintf(x, sizeof(x), "\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"utf-8\"?>\n%s",
		 good_body);
	iso_run(x, &run);
	assert_int_equal(run.nerr, 0);
	assert_int_equal(run.nrec, 1);
	assert_string_equal(run.rec[0].creditor_name, "Caf\xc3\xa9 M\xc3\xbcller");
	assert_int_equal(run.rec[0].position, 6);
}

static void test_iso20022_utf16_refused(void **state)
{
	static const char le[] = "\xff\xfe<\0D\0o\0c\0/\0>\0";
	char x[2048];

	(void)state;
	snprintf(x, sizeof(x), "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n%s", good_body);
	iso_run(x, &run);
	only_error(&run, "xml_encoding");
	assert_string_equal(run.err[0].message, "declared encoding \"UTF-16\": expected UTF-8 "
						"(ISO 20022 messages are UTF-8)");
	assert_int_equal(run.err[0].line, 1);
	iso_run_opts(le, sizeof(le) - 1, 0, NULL, &run);
	only_error(&run, "xml_encoding");
	snprintf(x, sizeof(x), "<?xml version='1.0' encoding='ISO-8859-1'?>\n%s", good_body);
	iso_run(x, &run);
	only_error(&run, "xml_encoding");
}

static void test_iso20022_non_utf8_refused(void **state)
{
	char x[2048], *p;

	(void)state;
	snprintf(x, sizeof(x), "%s", good_body);
	p = strstr(x, "Caf\xc3\xa9");
	p[3] = '\xe9'; /* Latin-1 e-acute: not UTF-8 */
	p[4] = ' ';
	iso_run(x, &run);
	assert_int_equal(run.nrec, 0);
	assert_string_equal(run.err[run.nerr - 1].code, "xml_encoding");
	assert_int_equal(run.err[run.nerr - 1].line, 5);
}

static void test_iso20022_empty_input(void **state)
{
	(void)state;
	iso_run_opts("", 0, 0, NULL, &run);
	only_error(&run, "empty_file");
	iso_run("   \n", &run);
	only_error(&run, "xml_malformed");
}

static void test_iso20022_undeclared_entity_and_xinclude(void **state)
{
	static const char ent[] =
		"<Document xmlns=\"" PAIN_NS "\"><CstmrCdtTrfInitn><GrpHdr><MsgId>&xxe;</MsgId>"
		"</GrpHdr></CstmrCdtTrfInitn></Document>\n";
	static const char xi[] =
		"<Document xmlns=\"" PAIN_NS "\" xmlns:xi=\"http://www.w3.org/2001/XInclude\">"
		"<CstmrCdtTrfInitn><GrpHdr><MsgId><xi:include href=\"/etc/hostname\" "
		"parse=\"text\"/></MsgId><CreDtTm>2026-01-01T00:00:00</CreDtTm>"
		"<NbOfTxs>0</NbOfTxs></GrpHdr></CstmrCdtTrfInitn></Document>\n";

	(void)state;
	iso_run(ent, &run);
	only_error(&run, "xml_malformed");
	assert_string_equal(run.err[0].message, "entity 'xxe' not defined");
	/* XInclude is never processed: the MsgId stays empty */
	iso_run(xi, &run);
	assert_int_equal(run.nerr, 2); /* and the message has no transaction */
	assert_int_equal(run.nrec, 0);
	assert_string_equal(run.err[0].code, "missing_element");
	assert_string_equal(run.err[0].message, "MsgId is empty");
	assert_string_equal(run.err[1].code, "no_transaction");
	assert_string_equal(run.info.file_id, "");
}

/* Every case above again, with stderr redirected: libxml2 never prints. */
static void test_iso20022_libxml2_is_silent(void **state)
{
	FILE *tmp = tmpfile();
	int saved = dup(STDERR_FILENO);
	long size;

	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), STDERR_FILENO);
	test_iso20022_external_entity_refused(state);
	test_iso20022_entity_bomb_refused_fast(state);
	test_iso20022_deep_nesting_refused(state);
	test_iso20022_truncated_file(state);
	test_iso20022_malformed(state);
	test_iso20022_wrong_namespace(state);
	test_iso20022_utf16_refused(state);
	test_iso20022_non_utf8_refused(state);
	test_iso20022_undeclared_entity_and_xinclude(state);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	fseek(tmp, 0, SEEK_END);
	size = ftell(tmp);
	fclose(tmp);
	assert_int_equal(size, 0);
}

static int teardown(void **state)
{
	(void)state;
	xmlCleanupParser();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iso20022_external_entity_refused),
		cmocka_unit_test(test_iso20022_entity_bomb_refused_fast),
		cmocka_unit_test(test_iso20022_any_doctype_refused),
		cmocka_unit_test(test_iso20022_deep_nesting_refused),
		cmocka_unit_test(test_iso20022_huge_text_refused),
		cmocka_unit_test(test_iso20022_distinct_names_bounded),
		cmocka_unit_test(test_iso20022_truncated_file),
		cmocka_unit_test(test_iso20022_malformed),
		cmocka_unit_test(test_iso20022_wrong_namespace),
		cmocka_unit_test(test_iso20022_bom_accepted),
		cmocka_unit_test(test_iso20022_utf16_refused),
		cmocka_unit_test(test_iso20022_non_utf8_refused),
		cmocka_unit_test(test_iso20022_empty_input),
		cmocka_unit_test(test_iso20022_undeclared_entity_and_xinclude),
		cmocka_unit_test(test_iso20022_libxml2_is_silent),
	};

	return cmocka_run_group_tests_name("iso20022_hostile", tests, NULL, teardown);
}
