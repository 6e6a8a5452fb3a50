/*
 * gen_ach - deterministic generator of valid NACHA ACH files (to stdout).
 *
 *   gen_ach [OPTION]...
 *
 *   -n, --entries N          entry indexes to consider (default 1000)
 *   -b, --batch-size N       entries per batch at most (default 500); a
 *                            batch also ends where the company changes
 *   -s, --seed S             varies accounts, amounts and RDFIs (default 1)
 *   -c, --created YYMMDDHHMM file creation date and time (default 2603011200)
 *   -r, --crlf               CRLF line ends
 *       --skip-every K       omit every K-th entry ((index + 1) % K == 0):
 *                            "an original upload with records missing"
 *       --only-every K       keep only every K-th entry
 *       --bump-amount-every K  add 1 cent to every K-th entry: "changed amounts"
 *       --start N            index of the first entry (default 0)
 *   -e, --effective YYMMDD   effective entry date (default 260302)
 *       --company-count N    originators (default 4)
 *   -h, --help
 *
 * Everything about an entry is a function of its index (and the seed and
 * effective date): company, SEC code (even companies PPD, odd CCD), trace
 * (ODFI 12104288 + index + 1, so unique in the file and ascending), RDFI,
 * account, amount, transaction code, and an addenda 05 on every 10th
 * entry.  Batch size, creation time, --crlf and the filters change only
 * the file around the entries, so the same entry index always gives the
 * same natural key and fingerprint.  Companies change every 1000 indexes.
 * Controls, entry hash, block count and 9-fill are always correct.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COMPANY_BLOCK 1000 /* indexes per company run */
#define MAX_INDEX 9999998  /* the trace sequence has 7 digits */

struct gen {
	uint64_t entries, batch_size, seed, skip_every, only_every, bump_every, start;
	uint64_t company_count;
	char created[11];
	char effective[7];
	bool crlf;

	/* output */
	char *out;
	size_t olen, ocap;
	uint64_t lines;

	/* batch and file totals */
	uint64_t b_entries, b_count, b_hash, b_debit, b_credit, b_number;
	uint64_t f_count, f_hash, f_debit, f_credit, f_batches;
	bool in_batch;
	uint64_t b_company;
};

static void usage(FILE *f)
{
	fputs("usage: gen_ach [--entries N] [--batch-size N] [--seed S] [--created YYMMDDHHMM]\n"
	      "               [--crlf] [--skip-every K] [--only-every K] [--bump-amount-every K]\n"
	      "               [--start N] [--effective YYMMDD] [--company-count N]\n"
	      "Write a valid NACHA file to standard output; an entry's company, trace, date,\n"
	      "account and amount depend only on its index (see the top of gen_ach.c).\n",
	      f);
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static void flush_out(struct gen *g)
{
	if (g->olen && fwrite(g->out, 1, g->olen, stdout) != g->olen) {
		perror("gen_ach: write");
		exit(1);
	}
	g->olen = 0;
}

/* A fresh 94-column line of blanks in the output buffer. */
static char *line(struct gen *g)
{
	char *l;

	if (g->ocap - g->olen < 96)
		flush_out(g);
	l = g->out + g->olen;
	memset(l, ' ', 94);
	g->olen += 94;
	if (g->crlf)
		g->out[g->olen++] = '\r';
	g->out[g->olen++] = '\n';
	g->lines++;
	return l;
}

static void num(char *dst, uint64_t v, int width)
{
	for (int i = width - 1; i >= 0; i--) {
		dst[i] = (char)('0' + v % 10);
		v /= 10;
	}
}

static void text(char *dst, const char *s)
{
	memcpy(dst, s, strlen(s));
}

static int check_digit(const char *d)
{
	static const int w[8] = {3, 7, 1, 3, 7, 1, 3, 7};
	int sum = 0;

	for (int i = 0; i < 8; i++)
		sum += w[i] * (d[i] - '0');
	return (10 - sum % 10) % 10;
}

static uint64_t company_of(const struct gen *g, uint64_t index)
{
	return (index / COMPANY_BLOCK) % g->company_count;
}

static void company_id(char *dst, uint64_t company)
{
	dst[0] = '1';
	num(dst + 1, 100000000 + company, 9);
}

static void batch_header(struct gen *g, uint64_t company)
{
	char *l = line(g);
	char name[32];

	g->in_batch = true;
	g->b_company = company;
	g->b_number++;
	g->f_batches++;
	g->b_entries = g->b_count = g->b_hash = g->b_debit = g->b_credit = 0;
	l[0] = '5';
	text(l + 1, "200");
	snprintf(name, sizeof(name), "COMPANY %" PRIu64, company);
	memcpy(l + 4, name, strlen(name) > 16 ? 16 : strlen(name));
	company_id(l + 40, company);
	text(l + 50, company % 2 ? "CCD" : "PPD");
	text(l + 53, company % 2 ? "VENDORPAY" : "PAYROLL");
	memcpy(l + 69, g->effective, 6);
	l[78] = '1';
	text(l + 79, "12104288");
	num(l + 87, g->b_number, 7);
}

static void batch_control(struct gen *g)
{
	char *l = line(g);

	l[0] = '8';
	text(l + 1, "200");
	num(l + 4, g->b_count, 6);
	num(l + 10, g->b_hash % 10000000000ULL, 10);
	num(l + 20, g->b_debit, 12);
	num(l + 32, g->b_credit, 12);
	company_id(l + 44, g->b_company);
	text(l + 79, "12104288");
	num(l + 87, g->b_number, 7);
	g->in_batch = false;
}

static void entry(struct gen *g, uint64_t index)
{
	uint64_t h = mix(index * 0x9e3779b97f4a7c15ULL ^ mix(g->seed));
	uint64_t amount = 100 + h % 99900;
	bool debit = (h >> 40) % 3 == 0;
	bool addenda = index % 10 == 3;
	char *l = line(g);
	char rdfi[9];
	uint64_t rdfi8 = 10000000 + (h >> 20) % 89999999;
	char name[32];

	if (g->bump_every && (index + 1) % g->bump_every == 0)
		amount++;
	num(rdfi, rdfi8, 8);
	rdfi[8] = (char)('0' + check_digit(rdfi));
	l[0] = '6';
	text(l + 1, debit ? "27" : "22");
	memcpy(l + 3, rdfi, 9);
	num(l + 12, (h >> 8) % 1000000000000ULL, 12); /* account: 12 digits */
	num(l + 29, amount, 10);
	num(l + 39, index, 15);                        /* individual id */
	snprintf(name, sizeof(name), "RECEIVER %" PRIu64, index);
	memcpy(l + 54, name, strlen(name) > 22 ? 22 : strlen(name));
	l[78] = addenda ? '1' : '0';
	text(l + 79, "12104288");
	num(l + 87, index + 1, 7);
	g->b_entries++;
	g->b_count++;
	g->f_count++;
	g->b_hash += rdfi8;
	g->f_hash += rdfi8;
	if (debit) {
		g->b_debit += amount;
		g->f_debit += amount;
	} else {
		g->b_credit += amount;
		g->f_credit += amount;
	}
	if (addenda) {
		char info[81];

		l = line(g);
		l[0] = '7';
		text(l + 1, "05");
		snprintf(info, sizeof(info), "INVOICE %" PRIu64 " PAYMENT", index);
		text(l + 3, info);
		num(l + 83, 1, 4);
		num(l + 87, index + 1, 7);
		g->b_count++;
		g->f_count++;
	}
}

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!*s || *s == '-')
		return false;
	v = strtoull(s, &end, 10);
	if (*end)
		return false;
	*out = v;
	return true;
}

static bool digits(const char *s, size_t n)
{
	if (strlen(s) != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"entries", required_argument, NULL, 'n'},
		{"batch-size", required_argument, NULL, 'b'},
		{"seed", required_argument, NULL, 's'},
		{"created", required_argument, NULL, 'c'},
		{"crlf", no_argument, NULL, 'r'},
		{"skip-every", required_argument, NULL, 1},
		{"only-every", required_argument, NULL, 2},
		{"bump-amount-every", required_argument, NULL, 3},
		{"start", required_argument, NULL, 4},
		{"effective", required_argument, NULL, 'e'},
		{"company-count", required_argument, NULL, 5},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct gen g = {.entries = 1000, .batch_size = 500, .seed = 1, .company_count = 4};
	char *l;
	int c;

	memcpy(g.created, "2603011200", 11);
	memcpy(g.effective, "260302", 7);
	while ((c = getopt_long(argc, argv, "n:b:s:c:re:h", opts, NULL)) != -1) {
		bool ok = true;

		switch (c) {
		case 'n':
			ok = parse_u64(optarg, &g.entries);
			break;
		case 'b':
			ok = parse_u64(optarg, &g.batch_size) && g.batch_size > 0;
			break;
		case 's':
			ok = parse_u64(optarg, &g.seed);
			break;
		case 'c':
			ok = digits(optarg, 10);
			if (ok)
				memcpy(g.created, optarg, 11);
			break;
		case 'r':
			g.crlf = true;
			break;
		case 1:
			ok = parse_u64(optarg, &g.skip_every) && g.skip_every > 0;
			break;
		case 2:
			ok = parse_u64(optarg, &g.only_every) && g.only_every > 0;
			break;
		case 3:
			ok = parse_u64(optarg, &g.bump_every) && g.bump_every > 0;
			break;
		case 4:
			ok = parse_u64(optarg, &g.start);
			break;
		case 'e':
			ok = digits(optarg, 6);
			if (ok)
				memcpy(g.effective, optarg, 7);
			break;
		case 5:
			ok = parse_u64(optarg, &g.company_count) && g.company_count > 0 &&
			     g.company_count < 100000000;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
		if (!ok) {
			fprintf(stderr, "gen_ach: invalid option value \"%s\"\n", optarg);
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	if (g.entries > 0 && g.start + g.entries - 1 > MAX_INDEX) {
		fprintf(stderr, "gen_ach: entry indexes go up to %d (7-digit trace sequence)\n",
			MAX_INDEX);
		return 2;
	}
	{
		/* NACHA's file control counts: at most 999,999 batches and blocks */
		uint64_t batches = 0, lines = 2, in_batch = 0, last = UINT64_MAX;

		for (uint64_t i = g.start; i < g.start + g.entries; i++) {
			if ((g.skip_every && (i + 1) % g.skip_every == 0) ||
			    (g.only_every && (i + 1) % g.only_every != 0))
				continue;
			if (company_of(&g, i) != last || in_batch >= g.batch_size) {
				batches++;
				lines += 2;
				in_batch = 0;
				last = company_of(&g, i);
			}
			in_batch++;
			lines += 1 + (i % 10 == 3);
		}
		if (batches > 999999 || (lines + 9) / 10 > 999999) {
			fprintf(stderr,
				"gen_ach: %" PRIu64 " batches and %" PRIu64 " blocks do not fit a "
				"file control (at most 999999 each): raise --batch-size\n",
				batches, (lines + 9) / 10);
			return 2;
		}
	}
	g.ocap = 1 << 20;
	g.out = malloc(g.ocap);
	if (!g.out)
		return 1;

	l = line(&g);
	text(l, "101 231380104 121042882");
	memcpy(l + 23, g.created, 10);
	text(l + 33, "A094101");
	text(l + 40, "FEDERAL RESERVE BANK");
	text(l + 63, "GEN ACH ORIGINATOR");

	for (uint64_t i = g.start; i < g.start + g.entries; i++) {
		uint64_t company;

		if (g.skip_every && (i + 1) % g.skip_every == 0)
			continue;
		if (g.only_every && (i + 1) % g.only_every != 0)
			continue;
		company = company_of(&g, i);
		if (g.in_batch && (company != g.b_company || g.b_entries >= g.batch_size))
			batch_control(&g);
		if (!g.in_batch)
			batch_header(&g, company);
		entry(&g, i);
	}
	if (g.in_batch)
		batch_control(&g);

	l = line(&g);
	l[0] = '9';
	num(l + 1, g.f_batches, 6);
	num(l + 7, (g.lines + 9) / 10, 6);
	num(l + 13, g.f_count, 8);
	num(l + 21, g.f_hash % 10000000000ULL, 10);
	num(l + 31, g.f_debit, 12);
	num(l + 43, g.f_credit, 12);
	while (g.lines % 10 != 0)
		memset(line(&g), '9', 94);
	flush_out(&g);
	free(g.out);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("gen_ach: write");
		return 1;
	}
	return 0;
}
