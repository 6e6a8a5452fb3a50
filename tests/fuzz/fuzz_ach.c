/*
 * fuzz_ach.c - libFuzzer entry point for the NACHA parser (cl_ach_*), fed
 * directly (no format detection), read whole and in chunks.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_drive_both(FUZZ_ACH, data, size);
	return 0;
}
