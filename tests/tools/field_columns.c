/* field_columns [statement] - print the clearing_record columns the
 * field table (base/record_fields.def) says are stored, one "name:type" a
 * line in the order the loader writes them; with "statement", the
 * clearing_statement_item columns of rules/statement_fields.def.
 * tests/db/test_fields.sh and test_statement_fields.sh compare them with
 * the tables in a real database. */
#include <stdio.h>
#include <string.h>

#include "gen/record_sql.h"

int main(int argc, char **argv)
{
	const char *p = CL_SQL_STORED_TYPES;

	if (argc > 1 && strcmp(argv[1], "statement") == 0)
		p = CL_SQL_STMT_STORED_TYPES;
	else if (argc > 1) {
		fprintf(stderr, "usage: field_columns [statement]\n");
		return 2;
	}

	while (*p) {
		size_t n = strcspn(p, ",");

		printf("%.*s\n", (int)n, p);
		p += n;
		while (*p == ',' || *p == ' ')
			p++;
	}
	return ferror(stdout) ? 1 : 0;
}
