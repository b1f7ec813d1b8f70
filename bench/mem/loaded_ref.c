/*
 * bench/mem/loaded_ref.c — an independent loaded-latency loop to hold lat_loaded against (not
 * part of plumb; built by bench/mem/loaded.sh). Written apart from src/bench/mem/lat_loaded.c
 * on purpose, the way MLC's loaded-latency mode works: CPU A walks a random cycle (Sattolo's
 * shuffle of the 64-byte lines of SIZE MiB, each line holding the index of the next) while a
 * thread on CPU B sums 64-bit words of its own SIZE MiB buffer in address order as fast as it
 * can. Each figure is the median of RUNS=15 timed walks of LOADS=200000 loads; the reader's
 * MB/s are its bytes over the wall time of the loaded walks.
 * Usage: loaded_ref A B [SIZE_MiB]   prints "idle NS" then "loaded NS MBS"
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RUNS 15
#define LOADS 200000

static volatile int quit;
static volatile uint64_t read_bytes;
static size_t nbytes;

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	if (pthread_setaffinity_np(pthread_self(), sizeof s, &s) != 0) {
		fprintf(stderr, "loaded_ref: cannot run on CPU %d\n", cpu);
		exit(2);
	}
}

static void *reader(void *arg)
{
	pin(*(int *)arg);
	uint64_t *buf = malloc(nbytes), sum = 0;
	if (!buf)
		exit(2);
	memset(buf, 1, nbytes);
	size_t n = nbytes / 8;
	while (!quit) {
		for (size_t i = 0; i < n; i += 8) /* a line per step, 8 words summed */
			sum += buf[i] + buf[i + 1] + buf[i + 2] + buf[i + 3] + buf[i + 4] + buf[i + 5] +
			       buf[i + 6] + buf[i + 7];
		read_bytes += nbytes;
	}
	free(buf);
	return (void *)(uintptr_t)(sum & 1);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* median ns per load of RUNS walks of LOADS loads from *pos (the walk goes on) */
static double walk(const uint64_t *next, uint64_t *pos)
{
	double t[RUNS];
	uint64_t p = *pos;
	for (int r = 0; r < RUNS; r++) {
		double t0 = now();
		for (int i = 0; i < LOADS; i++)
			p = next[p * 8];
		t[r] = (now() - t0) / LOADS;
	}
	*pos = p;
	qsort(t, RUNS, sizeof t[0], cmp);
	return t[RUNS / 2];
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: loaded_ref A B [SIZE_MiB]\n");
		return 2;
	}
	int a = atoi(argv[1]), b = atoi(argv[2]);
	nbytes = (size_t)(argc > 3 ? atoi(argv[3]) : 128) << 20;
	pin(a);
	size_t lines = nbytes / 64;
	uint64_t *next = malloc(nbytes), *perm = malloc(lines * sizeof *perm);
	if (!next || !perm)
		return 2;
	memset(next, 0, nbytes);
	/* Sattolo: one cycle through every line */
	uint64_t s = 0x2545f4914f6cdd1dULL;
	for (size_t i = 0; i < lines; i++)
		perm[i] = i;
	for (size_t i = lines - 1; i > 0; i--) {
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		size_t j = s % i, t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	for (size_t i = 0; i < lines; i++)
		next[perm[i] * 8] = perm[(i + 1) % lines];
	free(perm);
	uint64_t pos = 0;
	walk(next, &pos); /* warm-up */
	printf("idle %.2f\n", walk(next, &pos));
	pthread_t th;
	pthread_create(&th, NULL, reader, &b);
	while (read_bytes == 0) /* the reader has filled its buffer and made one pass */
		sched_yield();
	uint64_t b0 = read_bytes;
	double t0 = now(), ns = walk(next, &pos), el = now() - t0;
	uint64_t b1 = read_bytes;
	quit = 1;
	pthread_join(th, NULL);
	printf("loaded %.2f %.0f\n", ns, (double)(b1 - b0) * 1e3 / el);
	return 0;
}
