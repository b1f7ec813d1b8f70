/*
 * chase.c — the helpers the pointer-chase tools share (chase.h): the chase buffer, sized and
 * allocated as --pages says, and the line size sysfs gives.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench/mem/chase.h"
#include "bench/mem/mem_common.h"
#include "bench/mem/mem_levels.h"
#include "bench/tool.h"
#include "core/arch.h"
#include "core/sysinfo.h"
#include "core/timing.h"
#include "core/util.h"


int chase_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* par_mem and cache: check the line size, size the largest buffer (mem_default_bytes() by
 * default: capped by what the machine can give) and allocate it; says how it was sized. */
uint64_t chase_buffer(struct tool_ctx *c, size_t line, uint64_t max, const char *pages,
			     struct mem_buf *b)
{
	if (!chase_pow2(line))
		usage_error(c, "-L %zu is not a power of two", line);
	char how[160] = "";
	if (!max)
		max = mem_default_bytes(1, 1, how, sizeof how);
	mem_check_fits(c, max);
	mem_alloc(b, max, mem_pages_opt(c, pages));
	mem_page_fact(c, b);
	if (how[0])
		mem_fact(c, NULL, "Largest size", "largest_size", 1, "%.0f MiB = %s",
			 (double)max / 1048576.0, how);
	return max;
}


size_t chase_sysfs_line(void)
{
	struct cache_level cl[8];
	int n = sys_caches(0, cl, 8);
	return n > 0 && cl[0].line > 0 ? (size_t)cl[0].line : 0;
}
