/*
 * mem_kern_x86.c — SSE2, AVX2 and AVX-512 versions of the memory kernels (mem_kern.h), compiled with
 * per-function target attributes so the rest of plumb keeps the baseline ISA; mem_kern.c picks
 * one at run time with arch_has(). Nothing here on other architectures.
 */
#if defined(__x86_64__)
#include <immintrin.h>
#include <stdint.h>
#include "bench/mem/mem_kern.h"

static inline uint64_t hsum128(__m128i v)
{
	uint64_t l[2];
	_mm_storeu_si128((__m128i *)l, v);
	return l[0] + l[1];
}

static inline __attribute__((target("avx2"))) uint64_t hsum256(__m256i v)
{
	uint64_t l[4];
	_mm256_storeu_si256((__m256i *)l, v);
	return l[0] + l[1] + l[2] + l[3];
}

static inline __attribute__((target("avx512f"))) uint64_t hsum512(__m512i v)
{
	uint64_t l[8];
	_mm512_storeu_si512((void *)l, v);
	return l[0] + l[1] + l[2] + l[3] + l[4] + l[5] + l[6] + l[7];
}

#define SFX sse2
#define NAME "sse2"
#define TGT "sse2"
#define VD __m128d
#define VI __m128i
#define VW 2
#define LDD(p) _mm_loadu_pd(p)
#define STD(p, v) _mm_storeu_pd(p, v)
#define NTD(p, v) _mm_stream_pd(p, v)
#define ADDD _mm_add_pd
#define MULD _mm_mul_pd
#define SET1D _mm_set1_pd
#define LDI(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define STI(p, v) _mm_storeu_si128((__m128i *)(void *)(p), v)
#define ADDI _mm_add_epi64
#define SET1I _mm_set1_epi64x
#define ZEROI _mm_setzero_si128()
#define HSUMI hsum128
#include "bench/mem/mem_kern_x86.inc"

#define SFX avx2
#define NAME "avx2"
#define TGT "avx2"
#define VD __m256d
#define VI __m256i
#define VW 4
#define LDD(p) _mm256_loadu_pd(p)
#define STD(p, v) _mm256_storeu_pd(p, v)
#define NTD(p, v) _mm256_stream_pd(p, v)
#define ADDD _mm256_add_pd
#define MULD _mm256_mul_pd
#define SET1D _mm256_set1_pd
#define LDI(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define STI(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define ADDI _mm256_add_epi64
#define SET1I _mm256_set1_epi64x
#define ZEROI _mm256_setzero_si256()
#define HSUMI hsum256
#include "bench/mem/mem_kern_x86.inc"

#define SFX avx512
#define NAME "avx512"
#define TGT "avx512f"
#define VD __m512d
#define VI __m512i
#define VW 8
#define LDD(p) _mm512_loadu_pd(p)
#define STD(p, v) _mm512_storeu_pd(p, v)
#define NTD(p, v) _mm512_stream_pd(p, v)
#define ADDD _mm512_add_pd
#define MULD _mm512_mul_pd
#define SET1D _mm512_set1_pd
#define LDI(p) _mm512_loadu_si512((const void *)(p))
#define STI(p, v) _mm512_storeu_si512((void *)(p), v)
#define ADDI _mm512_add_epi64
#define SET1I _mm512_set1_epi64
#define ZEROI _mm512_setzero_si512()
#define HSUMI hsum512
#include "bench/mem/mem_kern_x86.inc"

#else
/* ISO C forbids an empty translation unit. */
typedef int mem_kern_x86_unused;
#endif
