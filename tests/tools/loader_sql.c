/* loader_sql - print one of the loader's embedded statements (sql/loader/
 * *.sql as the build expands them into loader_sql.h), so that a test can
 * run or EXPLAIN exactly what the program sends.
 *
 *   loader_sql NAME     the statement NAME, then a newline; exit 2 when no
 *                       statement has that name
 *   loader_sql --list   every statement's name, one a line */
#include <stdio.h>
#include <string.h>

#include "gen/loader_sql.h"

static const struct {
	const char *name, *sql;
} statements[] = {
#define X(name, sql) { name, sql },
	CL_LOADER_SQL_LIST(X)
#undef X
};

int main(int argc, char **argv)
{
	size_t i, n = sizeof(statements) / sizeof(statements[0]);

	if (argc != 2) {
		fprintf(stderr, "usage: loader_sql NAME | --list\n");
		return 2;
	}
	if (strcmp(argv[1], "--list") == 0) {
		for (i = 0; i < n; i++)
			printf("%s\n", statements[i].name);
		return ferror(stdout) ? 1 : 0;
	}
	for (i = 0; i < n; i++)
		if (strcmp(argv[1], statements[i].name) == 0) {
			printf("%s\n", statements[i].sql);
			return ferror(stdout) ? 1 : 0;
		}
	fprintf(stderr, "loader_sql: no statement named '%s'\n", argv[1]);
	return 2;
}
