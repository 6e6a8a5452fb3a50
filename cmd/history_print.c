/* history_print.c - rows of show and loads on stdout. */
#include "cmd/history_print.h"

#include <stdlib.h>
#include <string.h>

#include "base/mask.h"

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

/* One column's value into an open object: numbers as numbers. */
static void json_value(struct cl_json *j, const char *key, const struct cl_kv *kv)
{
	char buf[128];
	const char *v = value(kv, buf, sizeof(buf));

	if (strcmp(key, "fields") == 0) {
		/* an event's differing fields, "a,b" from the database: an
		   array, as diff prints them (field names hold no comma); none:
		   [] */
		cl_json_array(j, key);
		while (v && *v) {
			size_t n = strcspn(v, ",");
			char name[64];

			snprintf(name, sizeof(name), "%.*s", (int)n, v);
			cl_json_str(j, NULL, name);
			v += n + (v[n] == ',');
		}
		cl_json_array_end(j);
	} else if (!v)
		cl_json_null(j, key);
	else if (kv->number)
		cl_json_int(j, key, strtoll(v, NULL, 10));
	else
		cl_json_str(j, key, v);
}

static void json_row(const char *section, const struct cl_kv *kv, int n)
{
	struct cl_json j;

	cl_json_begin(&j, stdout, section);
	for (int i = 0; i < n; i++)
		json_value(&j, kv[i].name, &kv[i]);
	cl_json_end(&j);
}

static bool corrects_column(const char *name)
{
	return strcmp(name, "corrects_load_id") == 0 || strcmp(name, "corrects_ordinal") == 0;
}

/* The feed's link of a correction to the record it corrects, one member:
 * "corrects": {"load_id", "ordinal"}, or null (not a correction). */
static void corrects(struct cl_json *j, const struct cl_kv *kv, int n)
{
	const char *load = NULL, *ord = NULL;
	bool have = false;

	for (int i = 0; i < n; i++) {
		if (strcmp(kv[i].name, "corrects_load_id") == 0)
			have = true, load = kv[i].value;
		else if (strcmp(kv[i].name, "corrects_ordinal") == 0)
			ord = kv[i].value;
	}
	if (!have)
		return;
	if (!load || !ord) {
		cl_json_null(j, "corrects");
		return;
	}
	cl_json_object(j, "corrects");
	cl_json_int(j, "load_id", strtoll(load, NULL, 10));
	cl_json_int(j, "ordinal", strtoll(ord, NULL, 10));
	cl_json_object_end(j);
}

/* A record row as the record object of parse and diff: "file" (the
 * load's file name) and every OUT field of the record model in its
 * order (null for those never stored: names, free text, counts), then
 * the row's other columns (matched_by, tenant, load_id, ordinal; the
 * feed's feed_position, applied_at and corrects). */
static void json_record(const char *type, const struct cl_kv *kv, int n)
{
	const struct cl_field *const *fields;
	size_t nf = cl_record_out_fields(&fields);
	bool used[CL_HISTORY_MAX_COLS] = { false };
	struct cl_json j;
	int i;

	cl_json_begin(&j, stdout, type);
	for (i = 0; i < n && strcmp(kv[i].name, "file_name") != 0; i++)
		;
	if (i < n) {
		json_value(&j, "file", &kv[i]);
		used[i] = true;
	} else {
		cl_json_null(&j, "file");
	}
	for (size_t f = 0; f < nf; f++) {
		for (i = 0; i < n && strcmp(kv[i].name, fields[f]->name) != 0; i++)
			;
		if (i == n && fields[f] == &cl_fields[CL_F_scheme]) {
			/* not stored: the kind tells it (ach.* are NACHA's) */
			for (i = 0; i < n && strcmp(kv[i].name, CL_FIELD_NAME(kind)) != 0; i++)
				;
			cl_json_str(&j, fields[f]->name,
				    i == n || !kv[i].value ? NULL
				    : strncmp(kv[i].value, "ach.", 4) == 0 ? "nacha" : "iso20022");
			continue;
		}
		if (i == n) {
			cl_json_null(&j, fields[f]->name);
			continue;
		}
		used[i] = true;
		json_value(&j, fields[f]->name, &kv[i]);
	}
	for (i = 0; i < n; i++)
		if (!used[i] && !corrects_column(kv[i].name))
			json_value(&j, kv[i].name, &kv[i]);
	corrects(&j, kv, n);
	cl_json_end(&j);
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
	case CL_OUT_JSON:
		/* the feed's records are records too, with their position */
		if (strcmp(section, "record") == 0 || strcmp(section, "feed_record") == 0)
			json_record(section, kv, n);
		else
			json_row(section, kv, n);
		break;
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
			 * they cannot forge a line or drive the terminal;
			 * timestamps with their offset (cl_text_time) */
			/* "" too: JSON writes it as null (an empty fields list) */
			if (v && *v)
				printf("  %-20s %s\n", kv[i].name,
				       cl_text_time(v, safe, sizeof(safe)));
		}
		break;
	}
}
