/* main.c - clearing-load: dispatch to the subcommands. */
#include "cmd/cli.h"

#include <csv.h>
#include <libxml/xmlversion.h>
#include <openssl/crypto.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "cmd/options.h"
#include "loader/pqversion.h"

#define CL_VERSION "0.1.0"

static const struct cl_option main_options[] = {
	CL_OPT_BOOL('V', "version", version, "output version information and exit"),
	CL_OPT_END(),
};

static int print_version(void)
{
	int pq = cl_libpq_version();

	printf("clearing-load %s\n", CL_VERSION);
	printf("key rules: v1\n");
	printf("libpq %d.%d, libxml2 %s, zlib %s, libcsv %d.%d.%d, %s\n", pq / 10000, pq % 100,
	       LIBXML_DOTTED_VERSION, zlibVersion(), CSV_MAJOR, CSV_MINOR, CSV_RELEASE,
	       OpenSSL_version(OPENSSL_VERSION));
	return cl_finish_stdout(CL_EXIT_OK);
}

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary; /* its line in --help */
};

static const struct command commands[] = {
	{ "init", cl_cmd_init, "create or upgrade the database schema" },
	{ "load", cl_cmd_load, "apply new records, one transaction per file" },
	{ "diff", cl_cmd_load, "dry run: what load would do, per record" },
	{ "parse", cl_cmd_parse, "print records as text, JSON lines or CSV (no database)" },
	{ "validate", cl_cmd_validate, "check structure and control totals (no database)" },
	{ "show", cl_cmd_show, "a record, its source and every dedupe hit on it" },
	{ "loads", cl_cmd_loads, "load history" },
	{ "feed", cl_cmd_feed, "applied records in commit order, for a downstream consumer" },
	{ "prune", cl_cmd_prune, "journal retention: remove old dedupe events, never records" },
	{ "conflicts", cl_cmd_conflicts, "held and quarantined conflicts, old and new values" },
	{ "resolve", cl_cmd_resolve, "accept a conflict's new version as a correction, or dismiss it" },
	{ "ingest", cl_cmd_ingest, "load an inbox's ready files and archive them (cron, systemd)" },
	{ "reconcile", cl_cmd_reconcile, "match bank statements against the loaded records" },
	{ "break", cl_cmd_break, "decide on reconcile's breaks: accept, match, write off, reopen" },
	{ "match-rules", cl_cmd_match_rules, "reconcile's matching rules per account or bank" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static int print_help(void)
{
	fputs("Usage: clearing-load COMMAND [OPTION]... [FILE]...\n"
	      "Load NACHA ACH and ISO 20022 clearing files into PostgreSQL, applying each\n"
	      "record exactly once (deduplicated per record against a unique index).\n"
	      "\n"
	      "Commands:\n",
	      stdout);
	for (size_t i = 0; i < NCOMMANDS; i++)
		printf("  %-11s %s\n", commands[i].name, commands[i].summary);
	putchar('\n');
	cl_print_help(main_options);
	fputs("\n"
	      "Run 'clearing-load COMMAND --help' for the options of a command.\n"
	      "See clearing-load(1) and clearing-load-keys(7).\n\n",
	      stdout);
	cl_print_exit_table(stdout);
	return cl_finish_stdout(CL_EXIT_OK);
}

int main(int argc, char **argv)
{
	const struct cl_option *opt;
	const char *cmd;

	/* a closed pipe (| head) is a write error we report, not a signal */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2)
		return cl_usage_error(NULL, "no command given");
	cmd = argv[1];
	opt = cl_option_named(main_options, cmd);
	if (strcmp(cmd, "help") == 0 && argc > 2) {
		/* help COMMAND: that command's --help */
		static char help_opt[] = "--help";
		char *hargv[] = { argv[2], help_opt, NULL };

		for (size_t i = 0; i < NCOMMANDS; i++)
			if (strcmp(argv[2], commands[i].name) == 0)
				return commands[i].run(2, hargv);
		return cl_usage_error(NULL, "help: unknown command \"%s\"", argv[2]);
	}
	if (strcmp(cmd, "help") == 0 || (opt && opt->type == CL_OPTION_HELP))
		return print_help();
	if (opt) /* the only other line */
		return print_version();
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(cmd, commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	if (cmd[0] == '-')
		return cl_usage_error(NULL, "unrecognized option '%s'", cmd);
	return cl_usage_error(NULL, "unknown command \"%s\"", cmd);
}
