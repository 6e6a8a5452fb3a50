/* history_print.c - rows of show and loads on stdout. */
#include "history_print.h"

#include <stdlib.h>
#include <string.h>

#include "mask.h"

static const char *value(const struct cl_kv *kv, char *buf, size_t cap)
{
	if (!kv->value)
		return NULL;
	if (kv->account)
		return cl_out_account(kv->value, buf, cap);
	return kv->value;
}

/* A natural key may hold an account number (pain.001: the debtor's): mask
 * it with the row's own account columns, unless --no-mask. */
static void mask_keys(const struct cl_kv *kv, int n, struct cl_kv *out, char (*keys)[CL_KEY_MAX])
{
	const char *accts[CL_HISTORY_MAX_COLS];
	size_t na = 0;
	int i;

	for (i = 0; i < n; i++) {
		out[i] = kv[i];
		if (kv[i].account && kv[i].value)
			accts[na++] = kv[i].value;
	}
	if (cl_opt_no_mask || !na)
		return;
	for (i = 0; i < n; i++)
		if (kv[i].value && (strcmp(kv[i].name, CL_FIELD_NAME(natural_key)) == 0 ||
				    strcmp(kv[i].name, "matched_key") == 0) &&
		    cl_mask_in_key(kv[i].value, accts, na, keys[i], CL_KEY_MAX))
			out[i].value = keys[i];
}

void cl_history_print(void *vctx, const char *section, const struct cl_kv *kv_in, int n)
{
	struct cl_history_out *o = vctx;
	char buf[128];
	static char keys[CL_HISTORY_MAX_COLS][CL_KEY_MAX];
	struct cl_kv kv[CL_HISTORY_MAX_COLS];
	int i;

	if (n > CL_HISTORY_MAX_COLS)
		n = CL_HISTORY_MAX_COLS;
	mask_keys(kv_in, n, kv, keys);

	switch (o->format) {
	case CL_OUT_JSON: {
		struct cl_json j;

		cl_json_begin(&j, stdout);
		cl_json_str(&j, "type", section);
		for (i = 0; i < n; i++) {
			const char *v = value(&kv[i], buf, sizeof(buf));

			if (!v)
				cl_json_null(&j, kv[i].name);
			else if (kv[i].number)
				cl_json_int(&j, kv[i].name, strtoll(v, NULL, 10));
			else
				cl_json_str(&j, kv[i].name, v);
		}
		cl_json_end(&j);
		break;
	}
	case CL_OUT_CSV: {
		const char *row[CL_HISTORY_MAX_COLS + 1];

		if (!o->last_section || strcmp(o->last_section, section) != 0) {
			row[0] = "type";
			for (i = 0; i < n; i++)
				row[i + 1] = kv[i].name;
			cl_csv_row(stdout, row, (size_t)n + 1);
			o->last_section = section;
		}
		row[0] = section;
		for (i = 0; i < n; i++) {
			/* each masked value needs its own buffer: mask in place of
			   a copy kept until the row is written */
			row[i + 1] = kv[i].account && kv[i].value ? NULL : kv[i].value;
		}
		{
			char masked[CL_HISTORY_MAX_COLS][64];

			for (i = 0; i < n; i++)
				if (kv[i].account && kv[i].value) {
					row[i + 1] = cl_out_account(kv[i].value, masked[i],
								    sizeof(masked[i]));
				}
			cl_csv_row(stdout, row, (size_t)n + 1);
		}
		break;
	}
	case CL_OUT_TEXT:
		printf("%s:\n", section);
		for (i = 0; i < n; i++) {
			const char *v = value(&kv[i], buf, sizeof(buf));
			char safe[4 * CL_KEY_MAX];

			/* file names and ids come from senders: escaped, so
			 * they cannot forge a line or drive the terminal */
			/* "" too: JSON writes it as null (an empty fields list) */
			if (v && *v)
				printf("  %-20s %s\n", kv[i].name, cl_text_safe(v, safe, sizeof(safe)));
		}
		break;
	}
}
