/*
 * gen_iso - a deterministic ISO 20022 file generator for tests and the
 * benchmark: pain.001, pacs.008, or the direct debits pain.008 and pacs.003,
 * with N transactions; or the cancellation request of N of pacs.008's
 * transactions (camt.056) or its answer (camt.029).
 *
 * Transaction i always gets the same EndToEndId, UETR, accounts, agents and
 * amount (for a given --seed), whatever the file around it: so a re-upload
 * with a new --msg-id, another --per-pmtinf grouping, or a subset
 * (--skip-every, --only-every, --start) must give the same natural keys and
 * fingerprints for the transactions it shares.  IBANs carry correct check
 * digits, BICs are well formed and UETRs are version 4 UUIDs.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: gen_iso --type pain.001|pacs.008|pain.008|pacs.003|camt.056|camt.029 --tx N\n"
	"       [options]\n"
	"Write an ISO 20022 message with N transactions to standard output.\n"
	"\n"
	"  --type T              pain.001, pacs.008, pain.008 or pacs.003; camt.056\n"
	"                        (the cancellation request of the same indexes of\n"
	"                        pacs.008) or camt.029 (its answer)\n"
	"  --tx N                transactions (indexes START .. START+N-1)\n"
	"  --start N             first transaction index (default 1)\n"
	"  --seed S              varies every derived value (default 1)\n"
	"  --msg-id ID           GrpHdr MsgId (default MSG-<seed>)\n"
	"  --msg-version V       pain.001.001.V (03 or 09, default 09) or\n"
	"                        pacs.008.001.V (02 or 08, default 08),\n"
	"                        pain.008.001.V (02 or 08, default 08) or\n"
	"                        pacs.003.001.V (02 or 08, default 08),\n"
	"                        camt.056.001.V (01 to 11, default 08) or\n"
	"                        camt.029.001.V (03 to 13, default 09)\n"
	"  --status S            camt.029: the answer, CNCL, RJCR or PDCR\n"
	"                        (default CNCL)\n"
	"  --new-debtor-every K  direct debits: another debtor account for\n"
	"                        indexes divisible by K\n"
	"  --per-pmtinf N        pain.001, pain.008: transactions per PmtInf\n"
	"                        (default 1000)\n"
	"  --skip-every K        leave out every index divisible by K\n"
	"  --only-every K        keep only indexes divisible by K\n"
	"  --bump-amount-every K add 1 minor unit to indexes divisible by K\n"
	"  --help                this text\n";

struct opts {
	bool pain;
	const char *type;
	unsigned long tx, start, per_pmtinf, skip_every, only_every, bump_every, debtor_every;
	uint64_t seed;
	const char *msg_id;
	int version;
	const char *status; /* camt.029 */
};

static uint64_t mix(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

static uint64_t h(const struct opts *o, unsigned long i, unsigned salt)
{
	return mix(mix(o->seed * 1000003ULL + salt) ^ (uint64_t)i);
}

static bool included(const struct opts *o, unsigned long i)
{
	if (o->skip_every && i % o->skip_every == 0)
		return false;
	if (o->only_every && i % o->only_every != 0)
		return false;
	return true;
}

static int64_t amount(const struct opts *o, unsigned long i)
{
	int64_t a = (int64_t)(h(o, i, 1) % 9999999) + 1;

	if (o->bump_every && i % o->bump_every == 0)
		a += 1;
	return a;
}

/* A German IBAN "DEkk" + 18 digits with correct ISO 13616 check digits. */
static void iban(uint64_t v, char out[23])
{
	char bban[19];
	unsigned rem = 0;

	snprintf(bban, sizeof(bban), "%08" PRIu64 "%010" PRIu64, (uint64_t)((v >> 34) % 100000000u),
		 (uint64_t)(v % 10000000000u));
	for (const char *c = bban; *c; c++)
		rem = (rem * 10 + (unsigned)(*c - '0')) % 97;
	/* "DE00" moved to the end: D=13, E=14, 00 */
	rem = (rem * 100 + 13) % 97;
	rem = (rem * 100 + 14) % 97;
	rem = (rem * 100) % 97;
	snprintf(out, 23, "DE%02u%s", 98 - rem, bban);
}

static const char *const bics[] = {"DEUTDEFFXXX", "COBADEFFXXX", "BNPAFRPPXXX", "INGBNL2AXXX",
				   "BARCGB22XXX", "CHASUS33XXX", "UBSWCHZH80A", "NDEAFIHH"};

static void uetr(const struct opts *o, unsigned long i, char out[37])
{
	uint64_t a = h(o, i, 2), b = h(o, i, 3);

	a = (a & ~0xF000ULL) | 0x4000ULL;                  /* version 4 */
	b = (b & 0x3FFFFFFFFFFFFFFFULL) | 0x8000000000000000ULL; /* variant 10 */
	snprintf(out, 37, "%08" PRIx64 "-%04" PRIx64 "-%04" PRIx64 "-%04" PRIx64 "-%012" PRIx64,
		 (uint64_t)(a >> 32), (uint64_t)((a >> 16) & 0xFFFF), (uint64_t)(a & 0xFFFF),
		 (uint64_t)(b >> 48), (uint64_t)(b & 0xFFFFFFFFFFFFu));
}

static void money(int64_t minor, char *out, size_t cap)
{
	snprintf(out, cap, "%" PRId64 ".%02" PRId64, minor / 100, minor % 100);
}

static void pain001(const struct opts *o)
{
	unsigned long n = 0, in_pmt = 0, pmt = 0;
	int64_t total = 0;
	char buf[64], acct[23], dbtr[23], u[37];
	bool v09 = o->version >= 9;
	const char *bic = v09 ? "BICFI" : "BIC";

	for (unsigned long i = o->start; i < o->start + o->tx; i++)
		if (included(o, i)) {
			n++;
			total += amount(o, i);
		}
	iban(h(o, 0, 4), dbtr);
	printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	       "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.001.001.%02d\">\n"
	       "<CstmrCdtTrfInitn>\n<GrpHdr>\n<MsgId>%s</MsgId>\n"
	       "<CreDtTm>2026-03-02T08:00:00Z</CreDtTm>\n<NbOfTxs>%lu</NbOfTxs>\n",
	       o->version, o->msg_id, n);
	money(total, buf, sizeof(buf));
	printf("<CtrlSum>%s</CtrlSum>\n<InitgPty><Nm>Generator AG</Nm></InitgPty>\n</GrpHdr>\n",
	       buf);
	for (unsigned long i = o->start; i < o->start + o->tx; i++) {
		if (!included(o, i))
			continue;
		if (in_pmt == 0) {
			unsigned long left = 0;
			int64_t sum = 0;

			for (unsigned long j = i; j < o->start + o->tx && left < o->per_pmtinf; j++)
				if (included(o, j)) {
					left++;
					sum += amount(o, j);
				}
			money(sum, buf, sizeof(buf));
			printf("<PmtInf>\n<PmtInfId>PMT-%lu</PmtInfId>\n<PmtMtd>TRF</PmtMtd>\n"
			       "<NbOfTxs>%lu</NbOfTxs>\n<CtrlSum>%s</CtrlSum>\n",
			       ++pmt, left, buf);
			if (v09)
				printf("<ReqdExctnDt><Dt>2026-03-03</Dt></ReqdExctnDt>\n");
			else
				printf("<ReqdExctnDt>2026-03-03</ReqdExctnDt>\n");
			printf("<Dbtr><Nm>Generator AG</Nm></Dbtr>\n"
			       "<DbtrAcct><Id><IBAN>%s</IBAN></Id></DbtrAcct>\n"
			       "<DbtrAgt><FinInstnId><%s>DEUTDEFFXXX</%s></FinInstnId></DbtrAgt>\n",
			       dbtr, bic, bic);
		}
		money(amount(o, i), buf, sizeof(buf));
		iban(h(o, i, 5), acct);
		printf("<CdtTrfTxInf>\n<PmtId><InstrId>I-%lu</InstrId>"
		       "<EndToEndId>E2E-%" PRIu64 "-%lu</EndToEndId>",
		       i, o->seed, i);
		if (v09) {
			uetr(o, i, u);
			printf("<UETR>%s</UETR>", u);
		}
		printf("</PmtId>\n<Amt><InstdAmt Ccy=\"EUR\">%s</InstdAmt></Amt>\n"
		       "<CdtrAgt><FinInstnId><%s>%s</%s></FinInstnId></CdtrAgt>\n"
		       "<Cdtr><Nm>Creditor %lu</Nm></Cdtr>\n"
		       "<CdtrAcct><Id><IBAN>%s</IBAN></Id></CdtrAcct>\n"
		       "<RmtInf><Ustrd>Invoice %lu</Ustrd></RmtInf>\n</CdtTrfTxInf>\n",
		       buf, bic, bics[h(o, i, 6) % 8], bic, i, acct, i);
		if (++in_pmt == o->per_pmtinf) {
			printf("</PmtInf>\n");
			in_pmt = 0;
		}
	}
	if (in_pmt)
		printf("</PmtInf>\n");
	printf("</CstmrCdtTrfInitn>\n</Document>\n");
}

static void pacs008(const struct opts *o)
{
	unsigned long n = 0;
	int64_t total = 0;
	char buf[64], dacct[23], cacct[23], u[37];
	bool v08 = o->version >= 8;
	const char *bic = v08 ? "BICFI" : "BIC";

	for (unsigned long i = o->start; i < o->start + o->tx; i++)
		if (included(o, i)) {
			n++;
			total += amount(o, i);
		}
	money(total, buf, sizeof(buf));
	printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	       "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pacs.008.001.%02d\">\n"
	       "<FIToFICstmrCdtTrf>\n<GrpHdr>\n<MsgId>%s</MsgId>\n"
	       "<CreDtTm>2026-03-02T08:00:00Z</CreDtTm>\n<NbOfTxs>%lu</NbOfTxs>\n"
	       "<CtrlSum>%s</CtrlSum>\n<IntrBkSttlmDt>2026-03-03</IntrBkSttlmDt>\n"
	       "<SttlmInf><SttlmMtd>CLRG</SttlmMtd></SttlmInf>\n"
	       "<InstgAgt><FinInstnId><%s>DEUTDEFFXXX</%s></FinInstnId></InstgAgt>\n"
	       "<InstdAgt><FinInstnId><%s>COBADEFFXXX</%s></FinInstnId></InstdAgt>\n"
	       "</GrpHdr>\n",
	       o->version, o->msg_id, n, buf, bic, bic, bic, bic);
	for (unsigned long i = o->start; i < o->start + o->tx; i++) {
		if (!included(o, i))
			continue;
		money(amount(o, i), buf, sizeof(buf));
		iban(h(o, i, 4), dacct);
		iban(h(o, i, 5), cacct);
		printf("<CdtTrfTxInf>\n<PmtId><InstrId>I-%lu</InstrId>"
		       "<EndToEndId>E2E-%" PRIu64 "-%lu</EndToEndId><TxId>TX-%" PRIu64 "-%lu</TxId>",
		       i, o->seed, i, o->seed, i);
		if (v08) {
			uetr(o, i, u);
			printf("<UETR>%s</UETR>", u);
		}
		printf("</PmtId>\n<IntrBkSttlmAmt Ccy=\"EUR\">%s</IntrBkSttlmAmt>\n"
		       "<ChrgBr>SLEV</ChrgBr>\n<Dbtr><Nm>Debtor %lu</Nm></Dbtr>\n"
		       "<DbtrAcct><Id><IBAN>%s</IBAN></Id></DbtrAcct>\n"
		       "<DbtrAgt><FinInstnId><%s>%s</%s></FinInstnId></DbtrAgt>\n"
		       "<CdtrAgt><FinInstnId><%s>%s</%s></FinInstnId></CdtrAgt>\n"
		       "<Cdtr><Nm>Creditor %lu</Nm></Cdtr>\n"
		       "<CdtrAcct><Id><IBAN>%s</IBAN></Id></CdtrAcct>\n"
		       "<RmtInf><Ustrd>Invoice %lu</Ustrd></RmtInf>\n</CdtTrfTxInf>\n",
		       buf, i, dacct, bic, bics[h(o, i, 7) % 8], bic, bic, bics[h(o, i, 6) % 8],
		       bic, i, cacct, i);
	}
	printf("</FIToFICstmrCdtTrf>\n</Document>\n");
}

/* The cancellation messages: the request (camt.056) of pacs008()'s
 * transaction i and its answer (camt.029), one table row each. */
static const struct cxl_type {
	const char *type, *root, *group, *tx, *own_id, *case_el;
	int bicfi_from, uetr_from; /* first versions with BICFI, OrgnlUETR */
} cxl_types[] = {
	{"camt.056", "FIToFIPmtCxlReq", "Undrlyg", "TxInf", "CxlId", "Case", 2, 8},
	{"camt.029", "RsltnOfInvstgtn", "CxlDtls", "TxInfAndSts", "CxlStsId", "RslvdCase", 4, 9},
};

static void cancellation(const struct opts *o, const struct cxl_type *t)
{
	char buf[64], u[37];
	const char *bic = o->version >= t->bicfi_from ? "BICFI" : "BIC";
	bool req = strcmp(t->type, "camt.056") == 0;
	unsigned long n = 0;

	for (unsigned long i = o->start; i < o->start + o->tx; i++)
		n += included(o, i);
	printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	       "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:%s.001.%02d\">\n<%s>\n"
	       "<Assgnmt>\n<Id>%s</Id>\n"
	       "<Assgnr><Agt><FinInstnId><%s>%s</%s></FinInstnId></Agt></Assgnr>\n"
	       "<Assgne><Agt><FinInstnId><%s>%s</%s></FinInstnId></Agt></Assgne>\n"
	       "<CreDtTm>2026-03-03T09:00:00Z</CreDtTm>\n</Assgnmt>\n",
	       t->type, o->version, t->root, o->msg_id, bic, req ? "DEUTDEFFXXX" : "COBADEFFXXX",
	       bic, bic, req ? "COBADEFFXXX" : "DEUTDEFFXXX", bic);
	if (req)
		printf("<CtrlData><NbOfTxs>%lu</NbOfTxs></CtrlData>\n", n);
	else
		printf("<Sts><Conf>%s</Conf></Sts>\n", o->status);
	printf("<%s>\n", t->group);
	for (unsigned long i = o->start; i < o->start + o->tx; i++) {
		if (!included(o, i))
			continue;
		money(amount(o, i), buf, sizeof(buf));
		printf("<%s>\n<%s>%s-%" PRIu64 "-%lu</%s>\n"
		       "<%s><Id>CASE-%" PRIu64 "-%lu</Id><Cretr><Agt><FinInstnId><%s>DEUTDEFFXXX</%s>"
		       "</FinInstnId></Agt></Cretr></%s>\n"
		       "<OrgnlGrpInf><OrgnlMsgId>MSG-%" PRIu64 "</OrgnlMsgId>"
		       "<OrgnlMsgNmId>pacs.008.001.08</OrgnlMsgNmId></OrgnlGrpInf>\n"
		       "<OrgnlInstrId>I-%lu</OrgnlInstrId>\n"
		       "<OrgnlEndToEndId>E2E-%" PRIu64 "-%lu</OrgnlEndToEndId>\n"
		       "<OrgnlTxId>TX-%" PRIu64 "-%lu</OrgnlTxId>\n",
		       t->tx, t->own_id, req ? "CXL" : "STS", o->seed, i, t->own_id, t->case_el,
		       o->seed, i, bic, bic, t->case_el, o->seed, i, o->seed, i, o->seed, i);
		if (o->version >= t->uetr_from) {
			uetr(o, i, u);
			printf("<OrgnlUETR>%s</OrgnlUETR>\n", u);
		}
		if (req)
			printf("<OrgnlIntrBkSttlmAmt Ccy=\"EUR\">%s</OrgnlIntrBkSttlmAmt>\n"
			       "<OrgnlIntrBkSttlmDt>2026-03-03</OrgnlIntrBkSttlmDt>\n"
			       "<CxlRsnInf><Rsn><Cd>DUPL</Cd></Rsn></CxlRsnInf>\n",
			       buf);
		else
			printf("<TxCxlSts>%s</TxCxlSts>\n",
			       strcmp(o->status, "CNCL") == 0 ? "ACCR" : o->status);
		printf("</%s>\n", t->tx);
	}
	printf("</%s>\n</%s>\n</Document>\n", t->group, t->root);
}

/* A direct debit's debtor account: another one for the indexes
 * --new-debtor-every names. */
static void debtor(const struct opts *o, unsigned long i, char out[23])
{
	iban(h(o, i, (o->debtor_every && i % o->debtor_every == 0) ? 9 : 4), out);
}

/* pain.008: one creditor collecting from N debtors, PmtInf blocks of
 * --per-pmtinf collections, each under its own mandate. */
static void pain008(const struct opts *o)
{
	unsigned long n = 0, in_pmt = 0, pmt = 0;
	int64_t total = 0;
	char buf[64], acct[23], cdtr[23], u[37];
	bool v08 = o->version >= 8;
	const char *bic = o->version >= 3 ? "BICFI" : "BIC";

	for (unsigned long i = o->start; i < o->start + o->tx; i++)
		if (included(o, i)) {
			n++;
			total += amount(o, i);
		}
	iban(h(o, 0, 8), cdtr);
	printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	       "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pain.008.001.%02d\">\n"
	       "<CstmrDrctDbtInitn>\n<GrpHdr>\n<MsgId>%s</MsgId>\n"
	       "<CreDtTm>2026-03-02T08:00:00Z</CreDtTm>\n<NbOfTxs>%lu</NbOfTxs>\n",
	       o->version, o->msg_id, n);
	money(total, buf, sizeof(buf));
	printf("<CtrlSum>%s</CtrlSum>\n<InitgPty><Nm>Generator AG</Nm></InitgPty>\n</GrpHdr>\n",
	       buf);
	for (unsigned long i = o->start; i < o->start + o->tx; i++) {
		if (!included(o, i))
			continue;
		if (in_pmt == 0) {
			unsigned long left = 0;
			int64_t sum = 0;

			for (unsigned long j = i; j < o->start + o->tx && left < o->per_pmtinf; j++)
				if (included(o, j)) {
					left++;
					sum += amount(o, j);
				}
			money(sum, buf, sizeof(buf));
			printf("<PmtInf>\n<PmtInfId>PMT-%lu</PmtInfId>\n<PmtMtd>DD</PmtMtd>\n"
			       "<NbOfTxs>%lu</NbOfTxs>\n<CtrlSum>%s</CtrlSum>\n"
			       "<PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl><LclInstrm><Cd>CORE</Cd>"
			       "</LclInstrm><SeqTp>RCUR</SeqTp></PmtTpInf>\n"
			       "<ReqdColltnDt>2026-03-03</ReqdColltnDt>\n"
			       "<Cdtr><Nm>Generator AG</Nm></Cdtr>\n"
			       "<CdtrAcct><Id><IBAN>%s</IBAN></Id></CdtrAcct>\n"
			       "<CdtrAgt><FinInstnId><%s>DEUTDEFFXXX</%s></FinInstnId></CdtrAgt>\n"
			       "<ChrgBr>SLEV</ChrgBr>\n"
			       "<CdtrSchmeId><Id><PrvtId><Othr><Id>DE98ZZZ09999999999</Id>"
			       "<SchmeNm><Prtry>SEPA</Prtry></SchmeNm></Othr></PrvtId></Id>"
			       "</CdtrSchmeId>\n",
			       ++pmt, left, buf, cdtr, bic, bic);
		}
		money(amount(o, i), buf, sizeof(buf));
		debtor(o, i, acct);
		printf("<DrctDbtTxInf>\n<PmtId><InstrId>I-%lu</InstrId>"
		       "<EndToEndId>E2E-%" PRIu64 "-%lu</EndToEndId>",
		       i, o->seed, i);
		if (v08) {
			uetr(o, i, u);
			printf("<UETR>%s</UETR>", u);
		}
		printf("</PmtId>\n<InstdAmt Ccy=\"EUR\">%s</InstdAmt>\n"
		       "<DrctDbtTx><MndtRltdInf><MndtId>MNDT-%lu</MndtId>"
		       "<DtOfSgntr>2025-11-%02lu</DtOfSgntr></MndtRltdInf></DrctDbtTx>\n"
		       "<DbtrAgt><FinInstnId><%s>%s</%s></FinInstnId></DbtrAgt>\n"
		       "<Dbtr><Nm>Debtor %lu</Nm></Dbtr>\n"
		       "<DbtrAcct><Id><IBAN>%s</IBAN></Id></DbtrAcct>\n"
		       "<RmtInf><Ustrd>Invoice %lu</Ustrd></RmtInf>\n</DrctDbtTxInf>\n",
		       buf, i, i % 28 + 1, bic, bics[h(o, i, 6) % 8], bic, i, acct, i);
		if (++in_pmt == o->per_pmtinf) {
			printf("</PmtInf>\n");
			in_pmt = 0;
		}
	}
	if (in_pmt)
		printf("</PmtInf>\n");
	printf("</CstmrDrctDbtInitn>\n</Document>\n");
}

/* pacs.003: the creditor's bank collecting from the debtors' banks. */
static void pacs003(const struct opts *o)
{
	unsigned long n = 0;
	int64_t total = 0;
	char buf[64], dacct[23], cacct[23], u[37];
	bool v08 = o->version >= 8;
	const char *bic = o->version >= 3 ? "BICFI" : "BIC";

	for (unsigned long i = o->start; i < o->start + o->tx; i++)
		if (included(o, i)) {
			n++;
			total += amount(o, i);
		}
	money(total, buf, sizeof(buf));
	iban(h(o, 0, 8), cacct);
	printf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	       "<Document xmlns=\"urn:iso:std:iso:20022:tech:xsd:pacs.003.001.%02d\">\n"
	       "<FIToFICstmrDrctDbt>\n<GrpHdr>\n<MsgId>%s</MsgId>\n"
	       "<CreDtTm>2026-03-02T08:00:00Z</CreDtTm>\n<NbOfTxs>%lu</NbOfTxs>\n"
	       "<CtrlSum>%s</CtrlSum>\n<IntrBkSttlmDt>2026-03-03</IntrBkSttlmDt>\n"
	       "<SttlmInf><SttlmMtd>CLRG</SttlmMtd></SttlmInf>\n"
	       "<InstgAgt><FinInstnId><%s>DEUTDEFFXXX</%s></FinInstnId></InstgAgt>\n"
	       "<InstdAgt><FinInstnId><%s>COBADEFFXXX</%s></FinInstnId></InstdAgt>\n"
	       "</GrpHdr>\n",
	       o->version, o->msg_id, n, buf, bic, bic, bic, bic);
	for (unsigned long i = o->start; i < o->start + o->tx; i++) {
		if (!included(o, i))
			continue;
		money(amount(o, i), buf, sizeof(buf));
		debtor(o, i, dacct);
		printf("<DrctDbtTxInf>\n<PmtId><InstrId>I-%lu</InstrId>"
		       "<EndToEndId>E2E-%" PRIu64 "-%lu</EndToEndId><TxId>TX-%" PRIu64 "-%lu</TxId>",
		       i, o->seed, i, o->seed, i);
		if (v08) {
			uetr(o, i, u);
			printf("<UETR>%s</UETR>", u);
		}
		printf("</PmtId>\n<PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl><LclInstrm><Cd>CORE</Cd>"
		       "</LclInstrm><SeqTp>RCUR</SeqTp></PmtTpInf>\n"
		       "<IntrBkSttlmAmt Ccy=\"EUR\">%s</IntrBkSttlmAmt>\n"
		       "<ChrgBr>SLEV</ChrgBr>\n"
		       "<DrctDbtTx><MndtRltdInf><MndtId>MNDT-%lu</MndtId>"
		       "<DtOfSgntr>2025-11-%02lu</DtOfSgntr></MndtRltdInf>"
		       "<CdtrSchmeId><Id><PrvtId><Othr><Id>DE98ZZZ09999999999</Id>"
		       "<SchmeNm><Prtry>SEPA</Prtry></SchmeNm></Othr></PrvtId></Id>"
		       "</CdtrSchmeId></DrctDbtTx>\n"
		       "<Cdtr><Nm>Generator AG</Nm></Cdtr>\n"
		       "<CdtrAcct><Id><IBAN>%s</IBAN></Id></CdtrAcct>\n"
		       "<CdtrAgt><FinInstnId><%s>DEUTDEFFXXX</%s></FinInstnId></CdtrAgt>\n"
		       "<Dbtr><Nm>Debtor %lu</Nm></Dbtr>\n"
		       "<DbtrAcct><Id><IBAN>%s</IBAN></Id></DbtrAcct>\n"
		       "<DbtrAgt><FinInstnId><%s>%s</%s></FinInstnId></DbtrAgt>\n"
		       "<RmtInf><Ustrd>Invoice %lu</Ustrd></RmtInf>\n</DrctDbtTxInf>\n",
		       buf, i, i % 28 + 1, cacct, bic, bic, i, dacct, bic, bics[h(o, i, 7) % 8],
		       bic, i);
	}
	printf("</FIToFICstmrDrctDbt>\n</Document>\n");
}

static bool number(const char *s, unsigned long *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return false;
	v = strtoull(s, &end, 10);
	if (*end || v > 100000000ULL)
		return false;
	*out = (unsigned long)v;
	return true;
}

int main(int argc, char **argv)
{
	static char outbuf[1 << 20];
	struct opts o = {.start = 1, .per_pmtinf = 1000, .seed = 1, .status = "CNCL"};
	const struct cxl_type *cxl = NULL;
	const char *type = NULL;
	char msg_id[40];
	unsigned long v = 0;
	bool have_tx = false, have_version = false;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		bool ok = true;

		if (strcmp(a, "--help") == 0) {
			fputs(usage, stdout);
			return 0;
		}
		if (!val) {
			ok = false;
		} else if (strcmp(a, "--type") == 0) {
			type = val;
		} else if (strcmp(a, "--tx") == 0) {
			ok = number(val, &o.tx);
			have_tx = true;
		} else if (strcmp(a, "--start") == 0) {
			ok = number(val, &o.start);
		} else if (strcmp(a, "--seed") == 0) {
			ok = number(val, &v);
			o.seed = v;
		} else if (strcmp(a, "--msg-id") == 0) {
			o.msg_id = val;
			ok = strlen(val) > 0 && strlen(val) <= 35;
		} else if (strcmp(a, "--msg-version") == 0) {
			ok = number(val, &v) && v >= 1 && v <= 13;
			o.version = (int)v;
			have_version = true;
		} else if (strcmp(a, "--per-pmtinf") == 0) {
			ok = number(val, &o.per_pmtinf) && o.per_pmtinf > 0;
		} else if (strcmp(a, "--skip-every") == 0) {
			ok = number(val, &o.skip_every);
		} else if (strcmp(a, "--only-every") == 0) {
			ok = number(val, &o.only_every);
		} else if (strcmp(a, "--bump-amount-every") == 0) {
			ok = number(val, &o.bump_every);
		} else if (strcmp(a, "--new-debtor-every") == 0) {
			ok = number(val, &o.debtor_every);
		} else if (strcmp(a, "--status") == 0) {
			o.status = val;
			ok = strcmp(val, "CNCL") == 0 || strcmp(val, "RJCR") == 0 ||
			     strcmp(val, "PDCR") == 0;
		} else {
			ok = false;
		}
		if (!ok) {
			fprintf(stderr, "gen_iso: bad option or value: %s\n%s", a, usage);
			return 2;
		}
		i++;
	}
	for (size_t k = 0; type && k < sizeof(cxl_types) / sizeof(cxl_types[0]); k++)
		if (strcmp(type, cxl_types[k].type) == 0)
			cxl = &cxl_types[k];
	if (!type || !have_tx ||
	    (strcmp(type, "pain.001") != 0 && strcmp(type, "pacs.008") != 0 &&
	     strcmp(type, "pain.008") != 0 && strcmp(type, "pacs.003") != 0 && !cxl)) {
		fputs(usage, stderr);
		return 2;
	}
	o.type = type;
	o.pain = strcmp(type, "pain.001") == 0;
	if (!have_version)
		o.version = o.pain || (cxl && strcmp(type, "camt.029") == 0) ? 9 : 8;
	if (cxl && o.version < (strcmp(type, "camt.029") == 0 ? 3 : 1)) {
		fputs(usage, stderr);
		return 2;
	}
	if (!o.msg_id) {
		snprintf(msg_id, sizeof(msg_id), "MSG-%" PRIu64, o.seed);
		o.msg_id = msg_id;
	}
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	if (cxl)
		cancellation(&o, cxl);
	else if (o.pain)
		pain001(&o);
	else if (strcmp(o.type, "pain.008") == 0)
		pain008(&o);
	else if (strcmp(o.type, "pacs.003") == 0)
		pacs003(&o);
	else
		pacs008(&o);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("gen_iso: write");
		return 1;
	}
	return 0;
}
