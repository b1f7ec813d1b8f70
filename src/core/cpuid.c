/*
 * cpuid.c — cache levels from x86 CPUID register values (decoding is portable C: arch_cpuid()
 * in arch.c is the only instruction). Intel's leaf 4 and AMD's 0x8000001D list one cache per
 * sub-leaf: type, level, sharing in EAX; line size, partitions and ways in EBX; sets in ECX;
 * size = ways x partitions x line x sets. AMD's older 0x80000005/6 give sizes directly, in KiB
 * (L1, L2) or 512 KiB units (L3), with no sharing.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "core/arch.h"
#include "core/cpuid.h"

static void level_init(struct cache_level *c, int level, const char *type, uint64_t size,
		       int line, int shared)
{
	memset(c, 0, sizeof *c);
	c->level = level;
	snprintf(c->type, sizeof c->type, "%s", type);
	c->size = size;
	c->line = line;
	c->shared_cpus = shared;
	snprintf(c->source, sizeof c->source, "cpuid");
}

int cpuid_decode_deterministic(const struct cpuid_regs *r, struct cache_level *c)
{
	unsigned type = r->eax & 0x1f;
	if (type == 0 || type > 3)
		return -1; /* 0: no more caches; 4..31 reserved */
	if (type == 2)
		return 0;
	int level = (int)((r->eax >> 5) & 7);
	int shared = (int)((r->eax >> 14) & 0xfff) + 1;
	uint64_t line = (r->ebx & 0xfff) + 1, parts = ((r->ebx >> 12) & 0x3ff) + 1,
		 ways = ((r->ebx >> 22) & 0x3ff) + 1, sets = (uint64_t)r->ecx + 1;
	level_init(c, level, type == 1 ? "Data" : "Unified", ways * parts * line * sets, (int)line,
		   shared);
	return 1;
}

int cpuid_decode_amd_legacy(const struct cpuid_regs *l5, const struct cpuid_regs *l6,
			    struct cache_level *c, int max)
{
	int n = 0;
	uint64_t l1 = (uint64_t)(l5->ecx >> 24) << 10, l2 = (uint64_t)(l6->ecx >> 16) << 10,
		 l3 = (uint64_t)(l6->edx >> 18) << 19;
	if (l1 && n < max)
		level_init(&c[n++], 1, "Data", l1, (int)(l5->ecx & 0xff), 0);
	if (l2 && n < max)
		level_init(&c[n++], 2, "Unified", l2, (int)(l6->ecx & 0xff), 0);
	if (l3 && n < max)
		level_init(&c[n++], 3, "Unified", l3, (int)(l6->edx & 0xff), 0);
	return n;
}

/* The list of leaf 4 or 0x8000001D, one sub-leaf per cache. */
static int deterministic(uint32_t leaf, struct cache_level *c, int max)
{
	int n = 0;
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	for (uint32_t sub = 0; sub < 16 && n < max; sub++) {
		uint32_t v[4];
		if (arch_cpuid(leaf, sub, v) != 0)
			break;
		struct cpuid_regs r = { v[0], v[1], v[2], v[3] };
		int k = cpuid_decode_deterministic(&r, &c[n]);
		if (k < 0)
			break;
		if (k == 0 || !c[n].size)
			continue;
		/* an id count, not a CPU count: never more than the CPUs this system has */
		if (cpus > 0 && c[n].shared_cpus > cpus)
			c[n].shared_cpus = (int)cpus;
		n++;
	}
	return n;
}

int cpuid_caches(struct cache_level *c, int max)
{
	uint32_t v[4];
	if (max < 1 || arch_cpuid(0, 0, v) != 0)
		return 0;
	char vendor[13];
	memcpy(vendor, &v[1], 4);
	memcpy(vendor + 4, &v[3], 4);
	memcpy(vendor + 8, &v[2], 4);
	vendor[12] = 0;
	uint32_t basic_max = v[0];
	int amd = !strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine");
	if (!amd)
		return basic_max >= 4 ? deterministic(4, c, max) : 0;
	/* topology extensions (0x80000001 ECX bit 22) enable 0x8000001D */
	if (arch_cpuid(0x80000001, 0, v) == 0 && (v[2] >> 22 & 1)) {
		int n = deterministic(0x8000001d, c, max);
		if (n > 0)
			return n;
	}
	uint32_t a[4], b[4];
	if (arch_cpuid(0x80000005, 0, a) != 0 || arch_cpuid(0x80000006, 0, b) != 0)
		return 0;
	struct cpuid_regs l5 = { a[0], a[1], a[2], a[3] }, l6 = { b[0], b[1], b[2], b[3] };
	return cpuid_decode_amd_legacy(&l5, &l6, c, max);
}
