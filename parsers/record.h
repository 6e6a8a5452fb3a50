/*
 * record.h - the one record model every parser emits, and the shared
 * status and error types.
 *
 * A parser hands out a `struct cl_record` that stays valid until the next
 * call to its `_next()` function; whoever keeps data copies it.  Every
 * text field is a fixed-capacity, NUL-terminated char array: an empty
 * string means "the format has no such field" (printed as null).  A value
 * longer than its field is a data error naming the limit, never truncated.
 *
 * No function in parsers/ prints, exits or talks to a database.
 */
#ifndef CL_RECORD_H
#define CL_RECORD_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define CL_MUST_CHECK __attribute__((warn_unused_result))
#define CL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define CL_MUST_CHECK
#define CL_PRINTF(f, a)
#endif

/* What a parser's next() (and most functions) return. */
enum cl_status {
	CL_OK = 0,      /* a record (or success) */
	CL_END,         /* no more records: the input is exhausted */
	CL_INVALID,     /* a data error, described in struct cl_error; the
	                   caller may call next() again to collect more */
	CL_NOTE,        /* not an error: a remark for verbose output (CRLF
	                   line ends, missing 9-fill, trimmed line) */
	CL_IO,          /* the input could not be read (error filled) */
};

/* The key rule a record's natural key was made by (clearing-load-keys(7)). */
#define CL_KEY_RULE_V1 "v1"                 /* DESIGN.md rule version 1 */
#define CL_KEY_RULE_V1_ACH_BATCH "v1-batch" /* ACH, --ach-key=batch: weaker */
#define CL_KEY_RULE_V1_POSITIONAL "v1-positional" /* pain.001 positional */

enum cl_direction {
	CL_DIR_NONE = 0, /* prenotes, zero-dollar, NOC ... */
	CL_DIR_CREDIT,
	CL_DIR_DEBIT,
};

/* Capacities, each including the terminating NUL. */
#define CL_KEY_MAX 320      /* natural key text */
#define CL_ID_MAX 36        /* ISO Max35Text identifiers */
#define CL_NAME_MAX 564     /* ISO Max140Text as UTF-8 (140 * 4 + 4) */
#define CL_ACCOUNT_MAX 36   /* IBAN (34) / Othr/Id (Max34Text) / ACH 17, IAT 35 */
#define CL_AGENT_MAX 36     /* BIC (11) or clearing member id (Max35Text) */
#define CL_ADDENDA_MAX 96   /* one addenda's payment information (80) */
#define CL_MSGTEXT_MAX 512  /* error message text (and its detail) */
#define CL_HINT_MAX 256     /* what an error's hint says to do */

struct cl_record {
	/* identity */
	const char *scheme;      /* "nacha" or "iso20022"; static string */
	const char *kind;        /* "ach.entry", "ach.return", "ach.noc",
	                            "pain.001", "pacs.008", "pacs.009",
	                            "pacs.004"; static string */
	const char *key_rule;    /* CL_KEY_RULE_*; static string */
	char natural_key[CL_KEY_MAX]; /* per clearing-load-keys(7); never
	                                 includes the tenant (the loader adds it) */
	char alt_key[CL_KEY_MAX];     /* pacs: the payment's identity under the
	                                 lowest key tier all its forms have
	                                 ("e2e|InstgAgt|EndToEndId", else
	                                 "txid|..."; pacs.004 "ouetr|...", else
	                                 "rtrid|..."), "" if none: the same
	                                 payment sent with and without UETR
	                                 has two natural keys, one alt_key */
	char alt_key2[CL_KEY_MAX];    /* the other identity when a record has
	                                 both (pacs: "txid|..." beside an e2e
	                                 alt_key; pacs.004 "rtrid|..." beside
	                                 an ouetr one), else "": a form that
	                                 lacks the EndToEndId meets it here */
	unsigned char fingerprint[32]; /* SHA-256 of the canonical economic
	                                  fields (see fingerprint.h) */
	unsigned char alt_fp[32];  /* pacs: the fingerprint without the
	                              instructed agent, which one form of a
	                              payment may lack (compared with alt_key,
	                              review 4: R4-2); valid when has_alt_fp */
	int has_alt_fp;
	unsigned long position;  /* line of the record's first line (ACH: the
	                            6 record; XML: the transaction element) */
	unsigned long ordinal;   /* 1-based index of the record in the file */

	/* economics */
	int64_t amount_minor;    /* minor units of `currency`; never float */
	char currency[4];        /* ISO 4217 alpha code; "USD" for NACHA */
	enum cl_direction direction;
	char value_date[11];     /* YYYY-MM-DD or "" (ACH: effective entry date;
	                            ISO: settlement / requested execution date) */

	/* NACHA references */
	char trace_number[16];      /* 6 record 80-94 (the return's own trace
	                               for returns and NOCs) */
	char sec_code[4];           /* batch header 51-53 */
	char transaction_code[3];   /* 6 record 2-3 */
	char receiving_dfi[10];     /* 6 record 4-12 (routing with check digit) */
	char receiving_account[CL_ACCOUNT_MAX]; /* 6 record 13-29 (IAT: 40-74);
	                                           trailing blanks trimmed */
	char individual_id[23];     /* 6 record individual identification */
	char individual_name[CL_NAME_MAX]; /* receiver / individual name */
	char company_id[11];        /* batch header 41-50 (IAT: originator id) */
	char company_name[17];      /* batch header 5-20 */
	char company_entry_description[11]; /* batch header 54-63 */
	char batch_number[8];       /* batch header 88-94 */
	char addenda_text[CL_ADDENDA_MAX]; /* first addenda 05/02 text */
	unsigned addenda_count;     /* addenda records that belong to the entry */
	char reason_code[CL_ID_MAX]; /* return R.. / NOC C.. / ISO return reason
	                               (Cd, 4, or Prtry, Max35Text) */
	char original_trace[16];    /* addenda 98/99 7-21 */
	char original_rdfi[9];      /* addenda 98/99 28-35 */
	char corrected_data[30];    /* addenda 98 36-64 */
	char dishonored_code[4];    /* the code of the last dishonored (R61,
	                               R62, R67-R70) or contested (R71-R77) 99
	                               addenda that follows a plain return 99:
	                               the latest stage of the return's life */

	/* ISO 20022 references */
	char message_type[32];      /* namespace suffix, e.g. "pain.001.001.09" */
	char msg_id[CL_ID_MAX];
	char pmt_inf_id[CL_ID_MAX];
	char instr_id[CL_ID_MAX];
	char end_to_end_id[CL_ID_MAX];
	char tx_id[CL_ID_MAX];
	char uetr[37];              /* lowercase */
	char rtr_id[CL_ID_MAX];
	char orgnl_uetr[37];
	char orgnl_end_to_end_id[CL_ID_MAX];
	char orgnl_tx_id[CL_ID_MAX];
	char orgnl_msg_id[CL_ID_MAX];
	char initiating_party_id[CL_ID_MAX];
	char debtor_name[CL_NAME_MAX];
	char debtor_account[CL_ACCOUNT_MAX];
	char debtor_agent[CL_AGENT_MAX];
	char creditor_name[CL_NAME_MAX];
	char creditor_account[CL_ACCOUNT_MAX];
	char creditor_agent[CL_AGENT_MAX];
	char instructing_agent[CL_AGENT_MAX];
	char instructed_agent[CL_AGENT_MAX];
	char remittance_text[CL_NAME_MAX]; /* first Ustrd */
};

/* Machine-readable error codes are short snake_case words ("record_length",
 * "entry_hash", "xml_malformed"), stable across releases. */
#define CL_CODE_MAX 40
#define CL_PATH_MAX 256

struct cl_error {
	const char *file;         /* display name of the input; not owned */
	unsigned long line;       /* 1-based; 0 = no line (whole file) */
	unsigned long column;     /* 1-based; 0 = unknown */
	char code[CL_CODE_MAX];   /* stable machine code */
	char path[CL_PATH_MAX];   /* XML element path, "" for ACH */
	char message[CL_MSGTEXT_MAX]; /* PostgreSQL style: lowercase, no period,
	                                 what was expected and what was found */
	unsigned long other_line; /* a second line the error names (duplicate
	                             keys), 0 if none */
	char sqlstate[6];         /* loader errors only */
	/* As PostgreSQL's message parts: each "" unless the code that found
	 * the problem had more to say. */
	char detail[CL_MSGTEXT_MAX]; /* where each number in the message came
	                                from (a record, its columns, what was
	                                added up) */
	char hint[CL_HINT_MAX];   /* what the operator can do about it */
};

/* Fill `err` (all fields reset first: detail and hint are "").  Never
 * fails; overlong text is cut at the buffer (messages are ours, not data). */
void cl_error_set(struct cl_error *err, const char *file, unsigned long line,
		  const char *code, const char *fmt, ...) CL_PRINTF(5, 6);

/* Set the detail or the hint of an error already set (same style as the
 * message: lowercase, no period).  Cut at the buffer. */
void cl_error_detail(struct cl_error *err, const char *fmt, ...) CL_PRINTF(2, 3);
void cl_error_hint(struct cl_error *err, const char *fmt, ...) CL_PRINTF(2, 3);

/* Reset a record to all-empty (every string "", numbers 0). */
void cl_record_clear(struct cl_record *rec);

/* Copy NUL-terminated `src` into dst[cap]; returns 0, or -1 (dst unchanged
 * but emptied) when src does not fit.  Callers turn -1 into a data error
 * naming the field and its limit. */
int cl_copy(char *dst, size_t cap, const char *src) CL_MUST_CHECK;

/* Same for a (pointer, length) span that need not be NUL-terminated. */
int cl_copy_span(char *dst, size_t cap, const char *src, size_t len) CL_MUST_CHECK;

/* "credit", "debit" or NULL */
const char *cl_direction_name(enum cl_direction d);

#endif
