/*
 * chase_ref.c — a reference random pointer chase written from its definition, to compare
 * plumb's `lat_mem_rd -t` against at one size and page size in one run, and a clock estimate
 * to express L1 latency in cycles. Build: cc -O3 -march=native.
 *   chase_ref whole SIZE_MiB 4k|thp   one random cycle (Sattolo) through every 64-byte line
 *   chase_ref block SIZE_MiB 4k|thp   lines random within 256 KiB blocks, blocks in random
 *                                     order (multichase's default keeps TLB misses out)
 *   chase_ref mhz                     clock from a chain of dependent adds (1 cycle each)
 * Prints ns per load (minimum of RUNS=50 runs of LOADS=20000 loads) or MHz.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static uint64_t rs = 88172645463325252ULL;
static uint64_t rnd(uint64_t n)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs % n;
}

static void shuffle(size_t *v, size_t n)
{
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = rnd(i + 1), t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "mhz") == 0) {
		double best = 1e30;
		for (int r = 0; r < 7; r++) {
			uint64_t x = (uint64_t)r, n = 200000000;
			double t0 = now();
			for (uint64_t i = 0; i < n; i++)
				__asm__ volatile("add $1, %0" : "+r"(x));
			double t = (now() - t0) / (double)n;
			if (t < best)
				best = t;
		}
		printf("%.0f\n", 1000.0 / best);
		return 0;
	}
	if (argc < 4)
		return 2;
	int block = strcmp(argv[1], "block") == 0;
	size_t bytes = (size_t)atol(argv[2]) << 20, n = bytes / 64;
	char *buf = mmap(NULL, bytes + (2u << 20), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	buf = (char *)(((uintptr_t)buf + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1));
	madvise(buf, bytes, strcmp(argv[3], "thp") == 0 ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	memset(buf, 1, bytes);
	size_t *order = malloc(n * sizeof *order);
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	if (!block) {
		shuffle(order, n);
	} else {
		size_t per = (256u << 10) / 64, nb = n / per;
		size_t *bo = malloc(nb * sizeof *bo);
		for (size_t i = 0; i < nb; i++)
			bo[i] = i;
		shuffle(bo, nb);
		for (size_t k = 0; k < nb; k++) {
			for (size_t i = 0; i < per; i++)
				order[k * per + i] = bo[k] * per + i;
			shuffle(order + k * per, per);
		}
		n = nb * per;
	}
	for (size_t i = 0; i < n; i++)
		*(void **)(buf + order[i] * 64) = buf + order[(i + 1) % n] * 64;
	void **p = (void **)(buf + order[0] * 64);
	for (size_t i = 0; i < n; i++)
		p = (void **)*p;
	/* runs of LOADS loads (default 20,000: a few ms, like plumb's samples), RUNS of them
	 * (default 50), minimum kept: lmbench's statistic, and plumb's */
	double best = 1e30;
	size_t loads = getenv("LOADS") ? (size_t)atol(getenv("LOADS")) : 20000;
	int runs = getenv("RUNS") ? atoi(getenv("RUNS")) : 50;
	for (int r = 0; r < runs; r++) {
		double t0 = now();
		for (size_t i = 0; i < loads; i++)
			p = (void **)*p;
		double t = (now() - t0) / (double)loads;
		if (t < best)
			best = t;
	}
	printf("%.2f\n", best + (p == NULL));
	return 0;
}
