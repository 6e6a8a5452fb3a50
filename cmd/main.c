/* main.c - clearing-load: dispatch to the subcommands. */
#include "cli.h"

#include <csv.h>
#include <libxml/xmlversion.h>
#include <openssl/crypto.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "pqversion.h"

#define CL_VERSION "0.1.0"

static const char main_usage[] =
	"Usage: clearing-load COMMAND [OPTION]... [FILE]...\n"
	"Load NACHA ACH and ISO 20022 clearing files into PostgreSQL, applying each\n"
	"record exactly once (deduplicated per record against a unique index).\n"
	"\n"
	"Commands:\n"
	"  init       create or upgrade the database schema\n"
	"  load       apply new records, one transaction per file\n"
	"  diff       dry run: what load would do, per record\n"
	"  parse      print records as text, JSON lines or CSV (no database)\n"
	"  validate   check structure and control totals (no database)\n"
	"  show       a record, its source and every dedupe hit on it\n"
	"  loads      load history\n"
	"\n"
	"  -h, --help      display this help and exit\n"
	"  -V, --version   output version information and exit\n"
	"\n"
	"Run 'clearing-load COMMAND --help' for the options of a command.\n"
	"Exit status: 0 success, 1 changes pending (diff), 2 usage error, 3 invalid\n"
	"input, 4 conflicts held, 5 database unavailable or rolled back, 6 outcome\n"
	"unknown, 7 not found (show, loads --uuid).  See clearing-load(1) and\n"
	"clearing-load-keys(7).\n";

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
};

int main(int argc, char **argv)
{
	static const struct command commands[] = {
		{ "init", cl_cmd_init },     { "load", cl_cmd_load },
		{ "diff", cl_cmd_load },     { "parse", cl_cmd_parse },
		{ "validate", cl_cmd_validate }, { "show", cl_cmd_show },
		{ "loads", cl_cmd_loads },
	};
	const char *cmd;

	/* a closed pipe (| head) is a write error we report, not a signal */
	signal(SIGPIPE, SIG_IGN);
	if (argc < 2)
		return cl_usage_error(NULL, "no command given");
	cmd = argv[1];
	if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
		fputs(main_usage, stdout);
		return cl_finish_stdout(CL_EXIT_OK);
	}
	if (strcmp(cmd, "-V") == 0 || strcmp(cmd, "--version") == 0)
		return print_version();
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(cmd, commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	if (cmd[0] == '-')
		return cl_usage_error(NULL, "unrecognized option '%s'", cmd);
	return cl_usage_error(NULL, "unknown command \"%s\"", cmd);
}
