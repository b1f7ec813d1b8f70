/* fuzz_sizes.c — libFuzzer harness for the number, size and CPU-list parsers behind every
 * option: any input must give a clean answer, never a crash or a read past the end. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "core/cpu.h"
#include "core/result.h"
#include "core/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = 0;
	uint64_t v;
	(void)try_parse_size(s, &v);
	int cpus[64];
	(void)cpu_parse_list(s, cpus, 64);
	char buf[16];
	(void)param_get(s, "size", buf, sizeof buf);
	free(s);
	return 0;
}
