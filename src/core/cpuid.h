/*
 * cpuid.h — cache sizes from the x86 CPUID instruction, for machines whose sysfs has no cache
 * directory (many KVM guests, some containers). The decoders take register values, so a unit
 * test can feed them any CPU's; cpuid_caches() reads this CPU's (none off x86: ARM has no
 * user-space instruction that gives sizes).
 */
#ifndef PLUMB_CPUID_H
#define PLUMB_CPUID_H

#include <stdint.h>
#include "core/sysinfo.h"

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

/* One sub-leaf of leaf 4 (Intel's deterministic cache parameters) or of 0x8000001D (AMD's,
 * the same layout). Returns 1 and fills c for a data or unified cache, 0 for an instruction
 * cache (skipped, as sysfs's are), -1 at the end of the list. shared_cpus is CPUID's count of
 * logical processor ids that may share the cache (an upper bound: a guest's may be larger than
 * its CPUs). */
int cpuid_decode_deterministic(const struct cpuid_regs *r, struct cache_level *c);
/* AMD's older leaves: 0x80000005 (l5: L1 data in ECX) and 0x80000006 (l6: L2 in ECX, L3 in
 * EDX). Fills at most max levels, returns how many (sizes of 0 mean "none" there). */
int cpuid_decode_amd_legacy(const struct cpuid_regs *l5, const struct cpuid_regs *l6,
			    struct cache_level *c, int max);
/* This CPU's data and unified caches as CPUID reports them: leaf 4 on Intel and others,
 * 0x8000001D on AMD and Hygon with topology extensions, else 0x80000005/6. 0 off x86 or when
 * CPUID says nothing. */
int cpuid_caches(struct cache_level *c, int max);

#endif
