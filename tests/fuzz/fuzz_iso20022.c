/*
 * fuzz_iso20022.c - libFuzzer entry point for the ISO 20022 parser
 * (CL_FORMAT_ISO20022, libxml2 SAX2), fed directly, whole and in chunks.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init_libxml();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_drive_both(FUZZ_ISO20022, data, size);
	return 0;
}
