/*
 * arch.h — the only place with architecture-specific code: barriers, a value sink that the
 * compiler cannot delete, CPU feature tests for kernels chosen at run time. Every function has a
 * portable C fallback that is always compiled (and tested with PLUMB_PORTABLE=1).
 */
#ifndef PLUMB_ARCH_H
#define PLUMB_ARCH_H

#include <stdint.h>

/* Stop the compiler from moving memory accesses across this point. */
#define compiler_barrier() __asm__ __volatile__("" ::: "memory")

/* Make the compiler believe v is used and may have changed: defeats dead-code elimination and
 * constant folding of a timed loop's result without costing a memory access. */
#define KEEP(v) __asm__ __volatile__("" : "+r"(v))
/* Same for floating-point values (kept in a register or memory, wherever the compiler has it). */
#define KEEPF(v) __asm__ __volatile__("" : "+g"(v))

/* Results that must survive: stored to a volatile global, so nothing computing them is dead. */
extern volatile uint64_t arch_sink_u64;
extern volatile double arch_sink_f64;
static inline void sink_u64(uint64_t v) { arch_sink_u64 = v; }
static inline void sink_f64(double v) { arch_sink_f64 = v; }

/* Name of the machine the binary was built for ("x86_64", "aarch64", "arm", ...). */
const char *arch_name(void);

enum arch_feature { FEAT_SSE2, FEAT_AVX, FEAT_AVX2, FEAT_AVX512F, FEAT_NEON, FEAT_ERMS };
/* 1 when the CPU has the feature (0 always when PLUMB_PORTABLE=1 is set in the environment). */
int arch_has(enum arch_feature f);
/* Comma-separated list of the features found, for the system facts. */
const char *arch_features(void);

/* x86's CPUID: leaf (and sub-leaf sub) into r[] = EAX, EBX, ECX, EDX. Returns 0, or -1 off
 * x86 and when leaf is past the highest the CPU has in its range (basic or 0x80000000). */
int arch_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4]);

/* Drop a cache line of p from every cache level (clflush / dc civac); no-op where unsupported. */
void arch_flush_line(const void *p);

#endif
