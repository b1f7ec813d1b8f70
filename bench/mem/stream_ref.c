/*
 * stream_ref.c — a reference STREAM written from McCalpin's definitions (not his code), to
 * compare plumb's `stream` against in one run. Build: cc -O3 -march=native [-fopenmp].
 *   stream_ref [ELEMENTS]      (default 80,000,000 per array, as the figures)
 * Runs the four kernels (copy c=a, scale b=s*c, add c=a+b, triad a=b+s*c) interleaved, NTIMES
 * passes, first pass dropped, best rate = bytes / minimum time, McCalpin's table layout and
 * his validation (a wrong answer exits 1). With OpenMP every loop is split over the threads.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define NTIMES 10

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 80000000L;
	double *a = aligned_alloc(64, (size_t)n * 8), *b = aligned_alloc(64, (size_t)n * 8),
	       *c = aligned_alloc(64, (size_t)n * 8);
	if (!a || !b || !c)
		return 2;
	double s = 3.0, t[4][NTIMES];
#pragma omp parallel for
	for (long j = 0; j < n; j++) {
		a[j] = 1.0;
		b[j] = 2.0;
		c[j] = 0.0;
	}
#pragma omp parallel for
	for (long j = 0; j < n; j++)
		a[j] = 2.0 * a[j];
	for (int k = 0; k < NTIMES; k++) {
		t[0][k] = now();
#pragma omp parallel for
		for (long j = 0; j < n; j++)
			c[j] = a[j];
		t[0][k] = now() - t[0][k];
		t[1][k] = now();
#pragma omp parallel for
		for (long j = 0; j < n; j++)
			b[j] = s * c[j];
		t[1][k] = now() - t[1][k];
		t[2][k] = now();
#pragma omp parallel for
		for (long j = 0; j < n; j++)
			c[j] = a[j] + b[j];
		t[2][k] = now() - t[2][k];
		t[3][k] = now();
#pragma omp parallel for
		for (long j = 0; j < n; j++)
			a[j] = b[j] + s * c[j];
		t[3][k] = now() - t[3][k];
	}
	static const char *label[4] = { "Copy:      ", "Scale:     ", "Add:       ", "Triad:     " };
	double bytes[4] = { 16.0 * n, 16.0 * n, 24.0 * n, 24.0 * n };
	int threads = 1;
#ifdef _OPENMP
	threads = omp_get_max_threads();
#endif
	printf("elements %ld, threads %d\n", n, threads);
	printf("Function    Best Rate MB/s  Avg time     Min time     Max time\n");
	for (int j = 0; j < 4; j++) {
		double mn = 1e30, mx = 0, sum = 0;
		for (int k = 1; k < NTIMES; k++) {
			mn = fmin(mn, t[j][k]);
			mx = fmax(mx, t[j][k]);
			sum += t[j][k];
		}
		printf("%s%12.1f  %11.6f  %11.6f  %11.6f\n", label[j], 1e-6 * bytes[j] / mn,
		       sum / (NTIMES - 1), mn, mx);
	}
	/* validation: replay the scalar sequence */
	double aj = 2.0, bj = 2.0, cj = 0.0;
	for (int k = 0; k < NTIMES; k++) {
		cj = aj;
		bj = s * cj;
		cj = aj + bj;
		aj = bj + s * cj;
	}
	double ea = 0, eb = 0, ec = 0;
	for (long j = 0; j < n; j++) {
		ea += fabs(a[j] - aj);
		eb += fabs(b[j] - bj);
		ec += fabs(c[j] - cj);
	}
	if (ea / n / aj > 1e-13 || eb / n / bj > 1e-13 || ec / n / cj > 1e-13) {
		printf("Failed Validation\n");
		return 1;
	}
	printf("Solution Validates\n");
	return 0;
}
