/*
 * mem_kern.c — the portable versions of the bw_mem and STREAM inner loops (mem_kern.h), and the
 * run-time choice among the versions. Plain C the compiler may vectorise for the baseline ISA;
 * results are returned or stored so nothing can be deleted.
 */
#include "bench/mem/mem_kern.h"
#include "core/arch.h"

static uint64_t p_frd(const char *p, size_t bytes)
{
	const uint64_t *w = (const uint64_t *)p;
	size_t n = bytes / 8;
	/* four independent sums: the loop is limited by loads, not by one add chain */
	uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	for (size_t i = 0; i + 4 <= n; i += 4) {
		s0 += w[i];
		s1 += w[i + 1];
		s2 += w[i + 2];
		s3 += w[i + 3];
	}
	return s0 + s1 + s2 + s3;
}

static void p_fwr(char *p, size_t bytes, uint64_t v)
{
	uint64_t *w = (uint64_t *)p;
	for (size_t i = 0; i < bytes / 8; i++)
		w[i] = v;
}

static void p_fcp(char *d, const char *s, size_t bytes)
{
	uint64_t *restrict dw = (uint64_t *)d;
	const uint64_t *restrict sw = (const uint64_t *)s;
	for (size_t i = 0; i < bytes / 8; i++)
		dw[i] = sw[i];
}

static void p_copy(double *restrict c, const double *restrict a, size_t n, int nt)
{
	for (size_t i = 0; i < n; i++)
		c[i] = a[i];
}

static void p_scale(double *restrict b, const double *restrict c, double s, size_t n, int nt)
{
	for (size_t i = 0; i < n; i++)
		b[i] = s * c[i];
}

static void p_add(double *restrict c, const double *restrict a, const double *restrict b,
		  size_t n, int nt)
{
	for (size_t i = 0; i < n; i++)
		c[i] = a[i] + b[i];
}

static void p_triad(double *restrict a, const double *restrict b, const double *restrict c,
		    double s, size_t n, int nt)
{
	for (size_t i = 0; i < n; i++)
		a[i] = b[i] + s * c[i];
}

static void p_fill(double *a, double q, size_t n, int nt)
{
	for (size_t i = 0; i < n; i++)
		a[i] = q;
}

static void p_daxpy(double *restrict a, const double *restrict b, double q, size_t n, int nt)
{
	for (size_t i = 0; i < n; i++)
		a[i] += q * b[i];
}

static double p_sum(const double *a, size_t n)
{
	double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	size_t i = 0;
	for (; i + 4 <= n; i += 4) {
		s0 += a[i];
		s1 += a[i + 1];
		s2 += a[i + 2];
		s3 += a[i + 3];
	}
	for (; i < n; i++)
		s0 += a[i];
	return (s0 + s1) + (s2 + s3);
}

const struct mem_kernels mem_kernels_portable = {
	"portable", 0, p_frd, p_fwr, p_fcp, p_copy, p_scale, p_add, p_triad, p_fill, p_daxpy, p_sum,
};

int mem_kernels_all(const struct mem_kernels **v, int max)
{
	int n = 0;
#if defined(__x86_64__)
	if (n < max && arch_has(FEAT_AVX512F))
		v[n++] = &mem_kernels_avx512;
	if (n < max && arch_has(FEAT_AVX2))
		v[n++] = &mem_kernels_avx2;
	if (n < max && arch_has(FEAT_SSE2))
		v[n++] = &mem_kernels_sse2;
#endif
	if (n < max)
		v[n++] = &mem_kernels_portable;
	return n;
}

const struct mem_kernels *mem_kernels_best(void)
{
	const struct mem_kernels *v[8];
	mem_kernels_all(v, 8);
	return v[0];
}

const struct mem_kernels *mem_kernels_plain(void)
{
#if defined(__x86_64__)
	if (arch_has(FEAT_SSE2))
		return &mem_kernels_sse2;
#endif
	return mem_kernels_best();
}

int mem_kernels_plain_stream(struct mem_kernels *k)
{
	const struct mem_kernels *widest = mem_kernels_best();
	*k = *mem_kernels_plain();
	k->s_sum = widest->s_sum;
	return mem_kernels_plain() != widest;
}
