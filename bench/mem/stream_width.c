/*
 * stream_width.c — does the vector width of STREAM's loops change the bandwidth they read?
 * x86-64 only. Build: cc -O2 -fno-tree-vectorize bench/mem/stream_width.c -o stream_width
 *   stream_width [ELEMENTS]    (default 10,000,000 per array: 3 x 80 MB)
 * Copy, scale, add and triad written at 8, 16, 32 and 64 bytes a step (scalar, SSE2, AVX2,
 * AVX-512 intrinsics), with plain stores and with streaming ones; best of 10 passes, bytes as
 * McCalpin counts them; 3 rounds, one line per round and width. Then the clock: after 20 ms of
 * each width's triad, a chain of dependent 1-cycle adds timed for ~0.4 ms gives the core's
 * clock in GHz, so a width that lowers the clock (an AVX frequency license) shows there.
 * -fno-tree-vectorize keeps the scalar loop scalar; the intrinsics set the other widths.
 */
#if defined(__x86_64__)
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static size_t n;
static double *a, *b, *c;
static volatile uint64_t sink;

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

#define TGT __attribute__((target("avx512f,avx2"), noinline))
/* One width's four kernels, two vectors a step (as plumb's); n is a multiple of 16. */
#define KERNELS(W, T, LD, ST, MUL, ADD, SET)                                                   \
	TGT static void copy_##W(void)                                                         \
	{                                                                                      \
		for (size_t i = 0; i < n; i += 2 * (W / 8)) {                                  \
			T x = LD(a + i), y = LD(a + i + W / 8);                                \
			ST(c + i, x);                                                          \
			ST(c + i + W / 8, y);                                                  \
		}                                                                              \
	}                                                                                      \
	TGT static void scale_##W(void)                                                        \
	{                                                                                      \
		T s = SET(3.0);                                                                \
		for (size_t i = 0; i < n; i += 2 * (W / 8)) {                                  \
			T x = MUL(s, LD(c + i)), y = MUL(s, LD(c + i + W / 8));                \
			ST(b + i, x);                                                          \
			ST(b + i + W / 8, y);                                                  \
		}                                                                              \
	}                                                                                      \
	TGT static void add_##W(void)                                                          \
	{                                                                                      \
		for (size_t i = 0; i < n; i += 2 * (W / 8)) {                                  \
			T x = ADD(LD(a + i), LD(b + i)), y = ADD(LD(a + i + W / 8), LD(b + i + W / 8)); \
			ST(c + i, x);                                                          \
			ST(c + i + W / 8, y);                                                  \
		}                                                                              \
	}                                                                                      \
	TGT static void triad_##W(void)                                                        \
	{                                                                                      \
		T s = SET(3.0);                                                                \
		for (size_t i = 0; i < n; i += 2 * (W / 8)) {                                  \
			T x = ADD(LD(b + i), MUL(s, LD(c + i)));                               \
			T y = ADD(LD(b + i + W / 8), MUL(s, LD(c + i + W / 8)));               \
			ST(a + i, x);                                                          \
			ST(a + i + W / 8, y);                                                  \
		}                                                                              \
	}

#define LD1(p) (*(p))
#define ST1(p, v) (*(p) = (v))
#define MUL1(s, x) ((s) * (x))
#define ADD1(x, y) ((x) + (y))
#define SET1(s) (s)
KERNELS(8, double, LD1, ST1, MUL1, ADD1, SET1)
KERNELS(16, __m128d, _mm_loadu_pd, _mm_storeu_pd, _mm_mul_pd, _mm_add_pd, _mm_set1_pd)
KERNELS(32, __m256d, _mm256_loadu_pd, _mm256_storeu_pd, _mm256_mul_pd, _mm256_add_pd,
	_mm256_set1_pd)
KERNELS(64, __m512d, _mm512_loadu_pd, _mm512_storeu_pd, _mm512_mul_pd, _mm512_add_pd,
	_mm512_set1_pd)
/* streaming stores: the same loops, a different store and the fence after */
#define NT_KERNELS(W, T, LD, ST, MUL, ADD, SET) KERNELS(W, T, LD, ST, MUL, ADD, SET)
#define copy_16 copy_nt16
#define scale_16 scale_nt16
#define add_16 add_nt16
#define triad_16 triad_nt16
NT_KERNELS(16, __m128d, _mm_loadu_pd, _mm_stream_pd, _mm_mul_pd, _mm_add_pd, _mm_set1_pd)
#undef copy_16
#undef scale_16
#undef add_16
#undef triad_16
#define copy_64 copy_nt64
#define scale_64 scale_nt64
#define add_64 add_nt64
#define triad_64 triad_nt64
NT_KERNELS(64, __m512d, _mm512_loadu_pd, _mm512_stream_pd, _mm512_mul_pd, _mm512_add_pd,
	   _mm512_set1_pd)
#undef copy_64
#undef scale_64
#undef add_64
#undef triad_64

typedef void (*kernel)(void);
static const struct {
	const char *name;
	int nt;
	kernel k[4];
} widths[] = {
	{ "8B", 0, { copy_8, scale_8, add_8, triad_8 } },
	{ "16B", 0, { copy_16, scale_16, add_16, triad_16 } },
	{ "32B", 0, { copy_32, scale_32, add_32, triad_32 } },
	{ "64B", 0, { copy_64, scale_64, add_64, triad_64 } },
	{ "nt16B", 1, { copy_nt16, scale_nt16, add_nt16, triad_nt16 } },
	{ "nt64B", 1, { copy_nt64, scale_nt64, add_nt64, triad_nt64 } },
};
#define NW (sizeof widths / sizeof widths[0])

static double best_mbs(kernel k, int nt, double bytes)
{
	double min = 1e300;
	for (int r = 0; r < 10; r++) {
		double t = now_ns();
		k();
		if (nt)
			_mm_sfence();
		t = now_ns() - t;
		if (t < min)
			min = t;
	}
	return bytes / min * 1e3; /* bytes/ns = GB/s; x 1000 = MB/s */
}

/* dependent adds per ns after 20 ms of the kernel: the core clock in GHz */
static double clock_after(kernel k)
{
	for (double t0 = now_ns(); now_ns() - t0 < 20e6;)
		k();
	uint64_t x = 0;
	double t0 = now_ns();
	for (int i = 0; i < 100000; i++)
		__asm__ volatile("add $1,%0\n\tadd $1,%0\n\tadd $1,%0\n\tadd $1,%0" : "+r"(x));
	double t = now_ns() - t0;
	sink = x;
	return 400000.0 / t;
}

int main(int argc, char **argv)
{
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx512f")) {
		fprintf(stderr, "stream_width: this CPU has no AVX-512\n");
		return 2;
	}
	n = argc > 1 ? (size_t)atol(argv[1]) / 16 * 16 : 10000000;
	if (n < 16) {
		fprintf(stderr, "stream_width: ELEMENTS must be at least 16\n");
		return 2;
	}
	a = aligned_alloc(64, n * 8);
	b = aligned_alloc(64, n * 8);
	c = aligned_alloc(64, n * 8);
	if (!a || !b || !c) {
		fprintf(stderr, "stream_width: out of memory\n");
		return 2;
	}
	for (size_t i = 0; i < n; i++) {
		a[i] = 1;
		b[i] = 2;
		c[i] = 0;
	}
	const double bytes[4] = { 16.0 * (double)n, 16.0 * (double)n, 24.0 * (double)n,
				  24.0 * (double)n };
	printf("round width copy scale add triad (MB/s, best of 10 passes)\n");
	for (int r = 1; r <= 3; r++)
		for (size_t w = 0; w < NW; w++) {
			printf("%d %s", r, widths[w].name);
			for (int k = 0; k < 4; k++)
				printf(" %.0f", best_mbs(widths[w].k[k], widths[w].nt, bytes[k]));
			printf("\n");
		}
	printf("clock after 20 ms of each width's triad (GHz, dependent adds):");
	for (size_t w = 0; w < 4; w++)
		printf(" %s %.2f", widths[w].name, clock_after(widths[w].k[3]));
	printf("\n");
	/* the arrays' contents depend on every pass: print one so no pass is dead */
	printf("check %g\n", a[n / 2] + b[n / 3] + c[n / 4]);
	return 0;
}
#else
#include <stdio.h>
int main(void)
{
	fprintf(stderr, "stream_width: x86-64 only\n");
	return 2;
}
#endif
