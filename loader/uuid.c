/* uuid.c - version 4 UUIDs (RFC 9562, section 5.4). */
#include "loader/uuid.h"

#include <ctype.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <string.h>

bool cl_uuid_v4(char out[CL_UUID_LEN])
{
	unsigned char b[16];

	if (RAND_bytes(b, sizeof(b)) != 1)
		return false;
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* variant 10 */
	snprintf(out, CL_UUID_LEN,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
		 b[12], b[13], b[14], b[15]);
	return true;
}

bool cl_uuid_valid(const char *s)
{
	size_t i;

	if (strlen(s) != 36)
		return false;
	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return false;
		} else if (!isxdigit((unsigned char)s[i])) {
			return false;
		}
	}
	return true;
}
