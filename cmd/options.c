/* options.c - command lines parsed and explained from option tables. */
#include "cmd/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "parsers/csv_map.h"
#include "parsers/statement.h"

/* The most lines a command's table has, includes expanded. */
#define MAX_LINES 32
/* --help: where the help of an option starts, and the last column used. */
#define HELP_COLUMN 26
#define HELP_WIDTH 79

const struct cl_choice cl_format_choices[] = {
	{ "text", CL_OUT_TEXT }, { "json", CL_OUT_JSON }, { "csv", CL_OUT_CSV }, { NULL, 0 },
};

static const struct cl_choice ach_key_choices[] = {
	{ "strict", CL_ACH_KEY_STRICT }, { "batch", CL_ACH_KEY_BATCH }, { NULL, 0 },
};

const struct cl_option cl_file_read_options[] = {
	CL_OPT_CHOICE(0, "ach-key", "RULE", ach_key, ach_key_choices,
		      "strict (default) or batch (the NACHA key rule; batch is weaker, see "
		      "clearing-load-keys(7))"),
	CL_OPT_BOOL(0, "positional-keys", positional_keys,
		    "key pain.001 records without EndToEndId by MsgId + PmtInfId + ordinal "
		    "(weaker, see clearing-load-keys(7))"),
	CL_OPT_ULONG(0, "max-errors", "N", max_errors, 1, 1000000,
		     "stop reading a file after N errors shown (1-1000000, default 100; repeats "
		     "of one kind are counted, not shown)"),
	CL_OPT_CSV_MAP(),
	CL_OPT_NO_MASK(),
	CL_OPT_END(),
};

const struct cl_option cl_file_options[] = {
	CL_OPT_FORMAT(),
	CL_OPT_INCLUDE(cl_file_read_options),
	CL_OPT_END(),
};

bool cl_parse_ulong(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-' || *s == '+')
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool cl_valid_day(const char *s)
{
	if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
		return false;
	for (int i = 0; i < 10; i++)
		if (i != 4 && i != 7 && !(s[i] >= '0' && s[i] <= '9'))
			return false;
	return true;
}

bool cl_valid_tenant(const char *s)
{
	size_t n = strlen(s);

	if (n < 1 || n > 63 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9')))
		return false;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' ||
		      ch == '.' || ch == '-'))
			return false;
	}
	return true;
}

const char *cl_file_name(const char *arg)
{
	return strcmp(arg, "-") == 0 ? "(stdin)" : arg;
}

void cl_note_if_verbose(void *ctx, const struct cl_error *err)
{
	(void)ctx;
	if (strcmp(err->code, CL_STMT_BALANCE_BREAK) == 0) {
		/* a person's stderr always; a machine's stdout too, as an
		   error would be (validate's and load's --format json) */
		cl_print_warning(err);
		if (cl_opt_format == CL_OUT_JSON)
			cl_json_diag("warning", NULL, err);
	} else if (cl_opt_verbose)
		cl_print_note(err);
}

/* A name that is no file (a typo, a glob that matched nothing) or a
 * directory is the command line's mistake, not an invalid file: nothing is
 * read and nothing recorded. */
int cl_check_file_operands(const struct cl_args *args)
{
	for (int i = 0; i < args->noperands; i++) {
		const char *f = args->operands[i];
		struct stat st;
		char safe[1024];

		if (strcmp(f, "-") == 0)
			continue;
		if (stat(f, &st) != 0) {
			if (errno == ENOENT)
				return cl_usage_error(args->cmd, "%s: no such file",
						      cl_text_safe(f, safe, sizeof(safe)));
			continue; /* unreadable: the command says so for the file */
		}
		if (S_ISDIR(st.st_mode))
			return cl_usage_error(args->cmd,
					      "%s is a directory: give the files in it "
					      "(or read an inbox with 'clearing-load ingest')",
					      cl_text_safe(f, safe, sizeof(safe)));
	}
	return 0;
}

static int check_operands(const struct cl_args *args, enum cl_operands operands)
{
	switch (operands) {
	case CL_NO_OPERANDS:
		if (args->noperands)
			return cl_usage_error(args->cmd, "unexpected argument \"%s\"",
					      args->operands[0]);
		break;
	case CL_FILE_OPERANDS:
		if (!args->noperands)
			return cl_usage_error(args->cmd, "no file given");
		/* a second "-" would read an empty, already consumed stream */
		for (int i = 0, stdin_seen = 0; i < args->noperands; i++)
			if (strcmp(args->operands[i], "-") == 0 && stdin_seen++)
				return cl_usage_error(args->cmd,
						      "standard input (-) given more than once");
		return cl_check_file_operands(args);
	case CL_ANY_OPERANDS:
		break;
	}
	return 0;
}

/* The map --csv-map named, read once by its check. */
static struct cl_csv_map csv_map;
static bool csv_map_read;

int cl_check_csv_map(struct cl_args *args)
{
	struct cl_error err;

	csv_map_read = false;
	if (!args->csv_map)
		return 0;
	if (cl_csv_map_load(args->csv_map, &csv_map, &err) != CL_OK) {
		char safe[CL_MSGTEXT_MAX], at[24] = "";

		if (err.line)
			snprintf(at, sizeof(at), ":%lu", err.line);
		return cl_usage_error(args->cmd, "--csv-map %s%s: %s (%s)",
				      cl_text_safe(err.file, safe, sizeof(safe)), at, err.message,
				      err.hint);
	}
	csv_map_read = true;
	return 0;
}

void cl_args_parse_opts(const struct cl_args *args, struct cl_parse_opts *popts)
{
	memset(popts, 0, sizeof(*popts));
	popts->ach_key = (enum cl_ach_key)args->ach_key;
	popts->positional_keys = args->positional_keys;
	popts->max_errors = (unsigned)args->max_errors;
	popts->schema_path = args->schema;
	popts->csv_map = args->csv_map && csv_map_read ? &csv_map : NULL;
}

/* ---- the lines of a table ---- */

/* Every command's -h, --help. */
static const struct cl_option help_line = {
	.type = CL_OPTION_HELP, .short_name = 'h', .long_name = "help",
	.help = "display this help and exit",
};

/* A table with its includes expanded, in order, and --help after its last
 * option. */
struct lines {
	const struct cl_option *at[MAX_LINES];
	int n;
};

static void add(struct lines *l, const struct cl_option *o)
{
	if (l->n == MAX_LINES)
		abort(); /* a table longer than MAX_LINES: raise it */
	l->at[l->n++] = o;
}

static void add_table(struct lines *l, const struct cl_option *table)
{
	for (const struct cl_option *o = table; o->type != CL_OPTION_END; o++)
		if (o->type == CL_OPTION_INCLUDE)
			add_table(l, o->include);
		else
			add(l, o);
}

static bool is_text(const struct cl_option *o)
{
	return o->type == CL_OPTION_USAGE || o->type == CL_OPTION_TEXT;
}

/* An option getopt_long is told of (not a usage line, text, operand or
 * check). */
static bool is_option(const struct cl_option *o)
{
	return !is_text(o) && o->type != CL_OPTION_OPERAND && o->type != CL_OPTION_CHECK;
}

/* A line of the options block of --help: an option or an operand. */
static bool is_listed(const struct cl_option *o)
{
	return is_option(o) || o->type == CL_OPTION_OPERAND;
}

static void expand(struct lines *l, const struct cl_option *table)
{
	int at;

	l->n = 0;
	add_table(l, table);
	for (at = l->n; at > 0 && !is_listed(l->at[at - 1]); at--)
		; /* --help goes after the last option, before the closing text */
	add(l, &help_line);
	memmove(&l->at[at + 1], &l->at[at], (size_t)(l->n - 1 - at) * sizeof(l->at[0]));
	l->at[at] = &help_line;
}

const struct cl_option *cl_option_named(const struct cl_option *table, const char *arg)
{
	struct lines l;

	expand(&l, table);
	for (int i = 0; i < l.n; i++) {
		const struct cl_option *o = l.at[i];

		if (!is_option(o))
			continue;
		if (arg[0] == '-' && o->short_name && arg[1] == o->short_name && !arg[2])
			return o;
		if (strncmp(arg, "--", 2) == 0 && strcmp(arg + 2, o->long_name) == 0)
			return o;
	}
	return NULL;
}

/* ---- --help ---- */

/* The length of the next unit of `text` to keep on one line: a word, or
 * a number and the word after it ("5 database", not "5" at a line end). */
static size_t unit(const char *text)
{
	size_t w = strcspn(text, " ");

	if (w && strspn(text, "0123456789") == w && text[w] == ' ' && text[w + 1])
		w += 1 + strcspn(text + w + 1, " ");
	return w;
}

/* Print `text` from column `col` on, unit by unit with the spaces between
 * them, breaking lines before HELP_WIDTH and starting each further line at
 * `indent`. */
static void wrap(const char *text, int col, int indent)
{
	size_t gap = 0;

	while (*text) {
		size_t w = unit(text);

		if (gap && col + (int)(gap + w) > HELP_WIDTH) {
			printf("\n%*s", indent, "");
			col = indent;
		} else if (gap) {
			printf("%*s", (int)gap, "");
			col += (int)gap;
		}
		fwrite(text, 1, w, stdout);
		col += (int)w;
		text += w;
		gap = strspn(text, " ");
		text += gap;
	}
	putchar('\n');
}

/* "  -d, --db=CONNINFO    connection string ..." */
static void print_option(const struct cl_option *o)
{
	int n;

	if (o->type == CL_OPTION_OPERAND)
		n = printf("  %s", o->argh);
	else if (o->short_name)
		n = printf("  -%c, --%s%s%s", o->short_name, o->long_name, o->argh ? "=" : "",
			   o->argh ? o->argh : "");
	else
		n = printf("      --%s%s%s", o->long_name, o->argh ? "=" : "",
			   o->argh ? o->argh : "");
	if (n > HELP_COLUMN - 2)
		printf("\n%*s", HELP_COLUMN, "");
	else
		printf("%*s", HELP_COLUMN - n, "");
	wrap(o->help, HELP_COLUMN, HELP_COLUMN);
}

/* The usage line, then blocks: a paragraph of text, or a run of options;
 * a blank line between two blocks. */
static void print_lines(const struct lines *l)
{
	const struct cl_option *prev = NULL;

	for (int i = 0; i < l->n; i++) {
		const struct cl_option *o = l->at[i];

		if (o->type == CL_OPTION_CHECK)
			continue;
		if (prev && prev->type != CL_OPTION_USAGE && (is_text(o) || is_text(prev)))
			putchar('\n');
		if (o->type == CL_OPTION_USAGE)
			printf("Usage: clearing-load %s %s\n", o->long_name, o->argh);
		else if (o->type == CL_OPTION_TEXT)
			wrap(o->help, 0, 0);
		else
			print_option(o);
		prev = o;
	}
}

void cl_list_add(const char **list, size_t cap, unsigned *n, const char *arg)
{
	if (*n < cap)
		list[*n] = arg;
	(*n)++;
}

void cl_print_help(const struct cl_option *table)
{
	struct lines l;

	expand(&l, table);
	print_lines(&l);
}

/* ---- parsing ---- */

/* "text, json or csv" */
static void choice_names(const struct cl_choice *c, char *buf, size_t cap)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; c[i].name && n < cap; i++) {
		const char *sep = i == 0 ? "" : c[i + 1].name ? ", " : " or ";

		n += (size_t)snprintf(buf + n, cap - n, "%s%s", sep, c[i].name);
	}
}

/* Apply one option with its argument: -1 to go on, or the exit code. */
static int apply(const struct cl_option *cmd, const struct cl_option *o, const char *arg,
		 struct cl_args *args)
{
	char *field = (char *)args + o->offset;
	char expected[128];

	switch (o->type) {
	case CL_OPTION_HELP:
		cl_print_help(cmd);
		return cl_finish_stdout(CL_EXIT_OK);
	case CL_OPTION_BOOL:
		*(bool *)field = true;
		return -1;
	case CL_OPTION_COUNT:
		(*(int *)field)++;
		return -1;
	case CL_OPTION_STRING:
		if (o->valid && !o->valid(arg))
			break;
		*(const char **)field = arg;
		return -1;
	case CL_OPTION_ULONG:
		if (!cl_parse_ulong(arg, o->min, o->max, (unsigned long *)field))
			break;
		return -1;
	case CL_OPTION_CHOICE:
		for (const struct cl_choice *c = o->choices; c->name; c++)
			if (strcmp(arg, c->name) == 0) {
				*(int *)field = c->value;
				return -1;
			}
		break;
	case CL_OPTION_CALLBACK:
		o->callback(args, o, arg);
		return -1;
	case CL_OPTION_END:
	case CL_OPTION_USAGE:
	case CL_OPTION_TEXT:
	case CL_OPTION_INCLUDE:
	case CL_OPTION_OPERAND:
	case CL_OPTION_CHECK:
		abort(); /* never handed to getopt_long */
	}
	if (o->type == CL_OPTION_ULONG)
		snprintf(expected, sizeof(expected), "%lu to %lu", o->min, o->max);
	else if (o->type == CL_OPTION_CHOICE)
		choice_names(o->choices, expected, sizeof(expected));
	else
		snprintf(expected, sizeof(expected), "%s", o->expected);
	return cl_usage_error(cmd->long_name, "invalid --%s \"%s\" (expected %s)", o->long_name,
			      arg, expected);
}

/* The usage error for what getopt_long returned as ':' or '?'. */
static int option_error(const char *cmd, int c, char **argv)
{
	if (c == ':')
		return cl_usage_error(cmd, "option '%s' requires an argument", argv[optind - 1]);
	if (optopt)
		return cl_usage_error(cmd, "invalid option -- '%c'", optopt);
	return cl_usage_error(cmd, "unrecognized option '%s'", argv[optind - 1]);
}

/* getopt_long returns an option's short name, or for one without, 256 +
 * its index in the expanded table. */
static const struct cl_option *line_of(const struct lines *l, int c)
{
	if (c >= 256)
		return c - 256 < l->n ? l->at[c - 256] : NULL;
	for (int i = 0; i < l->n; i++)
		if (l->at[i]->short_name == c && is_option(l->at[i]))
			return l->at[i];
	return NULL;
}

int cl_parse_options(const struct cl_option *cmd, int argc, char **argv, struct cl_args *args)
{
	const char *name = cmd->long_name; /* the USAGE line's */
	struct lines l;
	struct option longopts[MAX_LINES + 1];
	char shortopts[1 + 2 * MAX_LINES + 1];
	int nlong = 0, nshort = 0, c;

	expand(&l, cmd);
	shortopts[nshort++] = ':'; /* a missing argument returns ':', not '?' */
	for (int i = 0; i < l.n; i++) {
		const struct cl_option *o = l.at[i];

		if (!is_option(o))
			continue;
		longopts[nlong++] = (struct option){ o->long_name,
						     o->argh ? required_argument : no_argument, NULL,
						     o->short_name ? o->short_name : 256 + i };
		if (o->short_name) {
			shortopts[nshort++] = (char)o->short_name;
			if (o->argh)
				shortopts[nshort++] = ':';
		}
	}
	longopts[nlong] = (struct option){ NULL, 0, NULL, 0 };
	shortopts[nshort] = '\0';

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct cl_option *o = c == ':' || c == '?' ? NULL : line_of(&l, c);
		int code;

		if (!o)
			return option_error(name, c, argv);
		if ((code = apply(cmd, o, optarg, args)) >= 0)
			return code;
	}
	args->cmd = name;
	args->operands = argv + optind;
	args->noperands = argc - optind;
	if ((c = check_operands(args, (enum cl_operands)cmd->value)) != 0)
		return c;
	if (args->quiet && args->verbose)
		return cl_usage_error(name, "--quiet and --verbose cannot be used together");
	for (int i = 0; i < l.n; i++)
		if (l.at[i]->type == CL_OPTION_CHECK && (c = l.at[i]->check(args)) != 0)
			return c;
	cl_opt_quiet = args->quiet;
	cl_opt_verbose = args->verbose;
	cl_opt_no_mask = args->no_mask;
	cl_opt_format = (enum cl_out_format)args->format;
	return -1;
}
