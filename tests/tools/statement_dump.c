/* statement_dump - read statements and status reports (parsers/statement.h)
 * and print every item as one JSON object a line on stdout; errors and
 * notes go to stderr as "FILE:LINE: error: MESSAGE (code)".  Until the
 * program has a command for them, this is how the readers are run.
 *
 *   statement_dump [--chunk N] FILE...
 *
 * --chunk N reads the input N bytes at a time (the results must not
 * change).  Exit status: 0 every file valid, 1 some file invalid, 2 usage
 * or read error. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsers/input.h"
#include "parsers/statement.h"

static void jstr(const char *key, const char *s, int *first)
{
	printf("%s\"%s\":", *first ? "" : ",", key);
	*first = 0;
	if (!s[0]) {
		fputs("null", stdout);
		return;
	}
	putchar('"');
	for (const unsigned char *u = (const unsigned char *)s; *u; u++) {
		if (*u == '"' || *u == '\\')
			printf("\\%c", *u);
		else if (*u < 0x20)
			printf("\\u%04x", *u);
		else
			putchar(*u);
	}
	putchar('"');
}

static void jnum(const char *key, long long v, int *first)
{
	printf("%s\"%s\":%lld", *first ? "" : ",", key, v);
	*first = 0;
}

static void jdir(const char *key, enum cl_direction d, int *first)
{
	const char *n = cl_direction_name(d);

	jstr(key, n ? n : "", first);
}

static void balance(const char *key, const struct cl_stmt_balance *b, int *first)
{
	if (!b->present)
		return;
	printf("%s\"%s\":{", *first ? "" : ",", key);
	*first = 1;
	jstr("type", b->type, first);
	jnum("amount_minor", (long long)b->amount_minor, first);
	jstr("ccy", b->ccy, first);
	jstr("date", b->date, first);
	putchar('}');
	*first = 0;
}

static void print_item(const struct cl_stmt_item *it)
{
	const struct cl_stmt_statement *s = &it->stmt;
	const struct cl_stmt_entry *e = &it->entry;
	const struct cl_stmt_tx *t = &it->tx;
	const struct cl_stmt_status *st = &it->status;
	int f = 1;

	putchar('{');
	jstr("kind", cl_stmt_kind_name(it->kind), &f);
	jstr("message_type", s->message_type, &f);
	jnum("statement", (long long)s->index, &f);
	switch (it->kind) {
	case CL_STMT_STATEMENT:
		jnum("line", (long long)s->line, &f);
		jstr("msg_id", s->msg_id, &f);
		jstr("created", s->created, &f);
		jstr("sender", s->sender, &f);
		jstr("receiver", s->receiver, &f);
		jstr("id", s->id, &f);
		jstr("elctrnc_seq_nb", s->elctrnc_seq_nb, &f);
		jstr("lgl_seq_nb", s->lgl_seq_nb, &f);
		jstr("from", s->from, &f);
		jstr("to", s->to, &f);
		jstr("acct_iban", s->acct_iban, &f);
		jstr("acct_other", s->acct_other, &f);
		jstr("acct_ccy", s->acct_ccy, &f);
		balance("opening", &s->opening, &f);
		balance("closing", &s->closing, &f);
		if (s->sum_nb_of_ntries >= 0)
			jnum("nb_of_ntries", s->sum_nb_of_ntries, &f);
		jstr("sum", s->sum_sum, &f);
		jstr("bai2_group_status", s->bai2_group_status, &f);
		jstr("bai2_as_of_modifier", s->bai2_as_of_modifier, &f);
		break;
	case CL_STMT_ENTRY:
	case CL_STMT_TX:
		jnum("entry", (long long)e->index, &f);
		if (it->kind == CL_STMT_ENTRY) {
			jnum("line", (long long)e->line, &f);
			jstr("ntry_ref", e->ntry_ref, &f);
			jstr("cust_ref", e->cust_ref, &f);
			jnum("txs", (long long)e->txs, &f);
			jstr("value_date", e->value_date, &f);
			jstr("bank_tx_code", e->bank_tx_code, &f);
			jstr("funds_type", e->funds_type, &f);
			if (e->btch_nb_of_txs >= 0)
				jnum("btch_nb_of_txs", e->btch_nb_of_txs, &f);
			if (e->btch_has_ttl)
				jnum("btch_ttl_amt_minor", (long long)e->btch_ttl_amt_minor, &f);
			jstr("btch_msg_id", e->btch_msg_id, &f);
			jstr("btch_pmt_inf_id", e->btch_pmt_inf_id, &f);
			jstr("text", e->text, &f);
		}
		jstr("acct_svcr_ref", e->acct_svcr_ref, &f);
		jnum("amount_minor", (long long)e->amount_minor, &f);
		jstr("ccy", e->ccy, &f);
		jdir("direction", e->direction, &f);
		jstr("status", e->status, &f);
		jstr("booking_date", e->booking_date, &f);
		if (e->reversal)
			jnum("reversal", 1, &f);
		if (it->kind == CL_STMT_ENTRY)
			break;
		printf(",\"tx\":{");
		f = 1;
		jnum("index", (long long)t->index, &f);
		jnum("line", (long long)t->line, &f);
		jstr("msg_id", t->msg_id, &f);
		jstr("acct_svcr_ref", t->acct_svcr_ref, &f);
		jstr("pmt_inf_id", t->pmt_inf_id, &f);
		jstr("instr_id", t->instr_id, &f);
		jstr("end_to_end_id", t->end_to_end_id, &f);
		jstr("uetr", t->uetr, &f);
		jstr("tx_id", t->tx_id, &f);
		jstr("clr_sys_ref", t->clr_sys_ref, &f);
		jstr("ach_trace", t->ach_trace, &f);
		if (t->has_amount) {
			jnum("amount_minor", (long long)t->amount_minor, &f);
			jstr("ccy", t->ccy, &f);
		}
		jdir("direction", t->direction, &f);
		jstr("rtr_reason", t->rtr_reason, &f);
		putchar('}');
		break;
	case CL_STMT_GROUP_STATUS:
	case CL_STMT_TX_STATUS:
		jstr("msg_id", s->msg_id, &f);
		jnum("index", (long long)st->index, &f);
		jnum("line", (long long)st->line, &f);
		jstr("orgnl_msg_id", st->orgnl_msg_id, &f);
		jstr("orgnl_msg_nm_id", st->orgnl_msg_nm_id, &f);
		if (st->orgnl_pmt_inf_id[0]) /* pain.002 */
			jstr(st->pmt_inf ? "pmt_inf_id" : "orgnl_pmt_inf_id", st->orgnl_pmt_inf_id,
			     &f);
		jstr("orgnl_instr_id", st->orgnl_instr_id, &f);
		jstr("orgnl_end_to_end_id", st->orgnl_end_to_end_id, &f);
		jstr("orgnl_tx_id", st->orgnl_tx_id, &f);
		jstr("orgnl_uetr", st->orgnl_uetr, &f);
		jstr("status", st->status, &f);
		jstr("reason", st->reason, &f);
		if (st->has_amount) {
			jnum("amount_minor", (long long)st->amount_minor, &f);
			jstr("ccy", st->ccy, &f);
		}
		break;
	}
	puts("}");
}

static int dump(const char *path, size_t chunk)
{
	struct cl_input *in = NULL;
	struct cl_stmt_parser *p;
	const struct cl_stmt_item *it;
	struct cl_error err;
	enum cl_status st;
	int rc = 0;
	char *buf = NULL;
	size_t len = 0;

	if (chunk) {
		FILE *f = fopen(path, "rb");
		long n;

		if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0) {
			fprintf(stderr, "statement_dump: could not read \"%s\"\n", path);
			if (f)
				fclose(f);
			return 2;
		}
		rewind(f);
		len = (size_t)n;
		buf = malloc(len + 1);
		if (!buf || fread(buf, 1, len, f) != len) {
			fprintf(stderr, "statement_dump: could not read \"%s\"\n", path);
			fclose(f);
			free(buf);
			return 2;
		}
		fclose(f);
		in = cl_input_from_memory(buf, len, chunk, path);
	} else if (cl_input_open_path(path, &in, &err) != CL_OK) {
		fprintf(stderr, "statement_dump: %s\n", err.message);
		return 2;
	}
	p = cl_stmt_open(in, 0);
	while ((st = cl_stmt_next(p, &it, &err)) != CL_END) {
		if (st == CL_OK) {
			print_item(it);
			continue;
		}
		if (err.line)
			fprintf(stderr, "%s:%lu: %s: %s (%s)", err.file ? err.file : path, err.line,
				st == CL_NOTE ? "note" : "error", err.message, err.code);
		else
			fprintf(stderr, "%s: %s: %s (%s)", err.file ? err.file : path,
				st == CL_NOTE ? "note" : "error", err.message, err.code);
		if (err.path[0])
			fprintf(stderr, " at %s", err.path);
		fputc('\n', stderr);
		if (err.detail[0])
			fprintf(stderr, "DETAIL: %s\n", err.detail);
		if (st == CL_IO)
			rc = 2;
		else if (st == CL_INVALID && rc == 0)
			rc = 1;
	}
	cl_stmt_free(p);
	cl_input_free(in);
	free(buf);
	return rc;
}

int main(int argc, char **argv)
{
	size_t chunk = 0;
	int i = 1, rc = 0;

	if (argc > 2 && strcmp(argv[1], "--chunk") == 0) {
		chunk = (size_t)strtoul(argv[2], NULL, 10);
		i = 3;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: statement_dump [--chunk N] FILE...\n");
		return 2;
	}
	for (; i < argc; i++) {
		int r = dump(argv[i], chunk);

		if (r > rc)
			rc = r;
	}
	if (fclose(stdout) != 0)
		return 2;
	return rc;
}
