/* pending.c - weak placeholders for the database commands until the loader
 * lands; the real definitions in cmd/cmd_{init,load,show,loads}.c win. */
#include "cli.h"

static int pending(const char *cmd)
{
	cl_msg("%s: not available in this build", cmd);
	return CL_EXIT_DB;
}

__attribute__((weak)) int cl_cmd_init(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return pending("init");
}

__attribute__((weak)) int cl_cmd_load(int argc, char **argv)
{
	(void)argc;
	return pending(argv[0]);
}

__attribute__((weak)) int cl_cmd_show(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return pending("show");
}

__attribute__((weak)) int cl_cmd_loads(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return pending("loads");
}
