/*
 * bench/cpu/pingpong.c — an independent core-to-core loop to hold lat_c2c against (not part of
 * plumb; built by bench/cpu/c2c.sh). Written apart from src/bench/cpu/lat_c2c.c on purpose:
 * two threads pinned to CPUs A and B share a line holding a turn flag (0: A's turn, 1: B's);
 * each spins until the flag says its turn and hands it over with a store. A round trip is A's
 * turn to A's next turn. ROUNDS round trips are timed with CLOCK_MONOTONIC as a whole, 7 times;
 * the median ns per round trip is printed.
 * Usage: pingpong A B [ROUNDS]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile int turn __attribute__((aligned(128)));
static long rounds;

static void pin(int cpu)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	if (pthread_setaffinity_np(pthread_self(), sizeof s, &s) != 0) {
		fprintf(stderr, "pingpong: cannot run on CPU %d\n", cpu);
		exit(2);
	}
}

static void *player_b(void *arg)
{
	pin(*(int *)arg);
	for (long i = 0; i < 8 * rounds; i++) { /* 7 timed passes and a warm-up */
		while (turn != 1)
			;
		turn = 0;
	}
	return NULL;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: pingpong A B [ROUNDS]\n");
		return 2;
	}
	int a = atoi(argv[1]), b = atoi(argv[2]);
	rounds = argc > 3 ? atol(argv[3]) : 20000;
	pthread_t t;
	pin(a);
	pthread_create(&t, NULL, player_b, &b);
	double ns[8];
	for (int pass = 0; pass < 8; pass++) {
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (long i = 0; i < rounds; i++) {
			turn = 1;
			while (turn != 0)
				;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ns[pass] = ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / (double)rounds;
	}
	pthread_join(t, NULL);
	qsort(ns + 1, 7, sizeof ns[0], cmp); /* pass 0 is the warm-up */
	printf("%.2f\n", ns[4]);
	return 0;
}
