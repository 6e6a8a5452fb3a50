/* field_columns - print the clearing_record columns the field table
 * (base/record_fields.def) says are stored, one "name:type" a line in
 * the order the loader writes them; tests/db/test_fields.sh compares them
 * with the table in a real database. */
#include <stdio.h>
#include <string.h>

#include "gen/record_sql.h"

int main(void)
{
	const char *p = CL_SQL_STORED_TYPES;

	while (*p) {
		size_t n = strcspn(p, ",");

		printf("%.*s\n", (int)n, p);
		p += n;
		while (*p == ',' || *p == ' ')
			p++;
	}
	return ferror(stdout) ? 1 : 0;
}
