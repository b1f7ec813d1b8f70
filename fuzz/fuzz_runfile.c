/* fuzz_runfile.c — libFuzzer harness for the readers of outside input: lmbench 3 results files
 * and plumb JSON (run_parse detects which). Any input must be accepted or rejected cleanly. */
#include <stdint.h>
#include <stdlib.h>
#include "results/io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	struct run *r = run_parse((const char *)data, size, "fuzz", err, sizeof err);
	run_free(r);
	return 0;
}
