/* arch.c — feature detection and the few instructions that have no portable spelling. */
#include <stdlib.h>
#include <string.h>
#include "core/arch.h"
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#if defined(__linux__) && (defined(__aarch64__) || defined(__arm__))
#include <sys/auxv.h>
#endif

volatile uint64_t arch_sink_u64;
volatile double arch_sink_f64;

const char *arch_name(void)
{
#if defined(__x86_64__)
	return "x86_64";
#elif defined(__i386__)
	return "i386";
#elif defined(__aarch64__)
	return "aarch64";
#elif defined(__arm__)
	return "arm";
#elif defined(__riscv)
	return "riscv";
#else
	return "unknown";
#endif
}

static int portable(void)
{
	static int p = -1;
	if (p < 0) {
		const char *e = getenv("PLUMB_PORTABLE");
		p = e && *e && strcmp(e, "0") != 0;
	}
	return p;
}

int arch_has(enum arch_feature f)
{
	if (portable())
		return 0;
#if defined(__x86_64__) || defined(__i386__)
	__builtin_cpu_init();
	switch (f) {
	case FEAT_SSE2: return __builtin_cpu_supports("sse2");
	case FEAT_AVX: return __builtin_cpu_supports("avx");
	case FEAT_AVX2: return __builtin_cpu_supports("avx2");
	case FEAT_AVX512F: return __builtin_cpu_supports("avx512f");
	case FEAT_ERMS: {
		unsigned a = 7, b = 0, c = 0, d = 0;
		__asm__ __volatile__("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
		return (b >> 9) & 1;
	}
	default: return 0;
	}
#elif defined(__aarch64__)
	return f == FEAT_NEON; /* Advanced SIMD is mandatory on AArch64 */
#elif defined(__arm__) && defined(__linux__)
	return f == FEAT_NEON && (getauxval(AT_HWCAP) & (1 << 12)); /* HWCAP_NEON */
#else
	(void)f;
	return 0;
#endif
}

const char *arch_features(void)
{
	static char buf[128];
	static const struct { enum arch_feature f; const char *n; } names[] = {
		{ FEAT_SSE2, "sse2" }, { FEAT_AVX, "avx" }, { FEAT_AVX2, "avx2" },
		{ FEAT_AVX512F, "avx512f" }, { FEAT_ERMS, "erms" }, { FEAT_NEON, "neon" },
	};
	buf[0] = 0;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (arch_has(names[i].f)) {
			if (buf[0])
				strcat(buf, ",");
			strcat(buf, names[i].n);
		}
	return buf;
}

void arch_flush_line(const void *p)
{
	if (portable())
		return;
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("clflush (%0)" ::"r"(p) : "memory");
#elif defined(__aarch64__)
	__asm__ __volatile__("dc civac, %0" ::"r"(p) : "memory");
#else
	(void)p;
#endif
}

int arch_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	if (!__get_cpuid_count(leaf, sub, &a, &b, &c, &d))
		return -1;
	r[0] = a;
	r[1] = b;
	r[2] = c;
	r[3] = d;
	return 0;
#else
	(void)leaf;
	(void)sub;
	(void)r;
	return -1;
#endif
}
