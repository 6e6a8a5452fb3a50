/* uuid.h - random (version 4) UUIDs for load identities. */
#ifndef CL_UUID_H
#define CL_UUID_H

#include <stdbool.h>

#define CL_UUID_LEN 37 /* 36 characters and a NUL */

/* A version 4 UUID from libcrypto's RAND_bytes, lowercase, into out[37].
 * Returns false when the random generator fails (nothing usable). */
bool cl_uuid_v4(char out[CL_UUID_LEN]);

/* True when s is a UUID in canonical 8-4-4-4-12 hex form. */
bool cl_uuid_valid(const char *s);

#endif
