/*
 * tailref.c — an independent check of lat_tail (bench/sys/tails.sh builds it; not part of
 * plumb, shares none of its code). N single operations, each between two clock_gettime() reads,
 * nothing subtracted; prints the pooled percentiles over all N (not a median over blocks) of
 * OP (null: syscall(SYS_getppid); pipe: a 1-byte round trip to a forked child) and, on its own
 * line, the cost of a pair of back-to-back reads, so a reader can subtract it.
 * Usage: tailref null|pipe N
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	int pipe_op = !strcmp(argv[1], "pipe");
	size_t n = strtoul(argv[2], NULL, 10);
	uint64_t *d = malloc(n * sizeof *d);
	int to[2], from[2];
	pid_t kid = -1;
	if (pipe_op) {
		if (pipe(to) || pipe(from))
			return 1;
		kid = fork();
		if (kid == 0) {
			close(to[1]); /* else its own copy keeps the pipe open: no EOF */
			close(from[0]);
			char c;
			while (read(to[0], &c, 1) == 1 && write(from[1], &c, 1) == 1)
				;
			_exit(0);
		}
		close(to[0]);
		close(from[1]);
	}
	volatile long sink = 0;
	char c = 'a';
	for (size_t i = 0; i < n; i++) {
		uint64_t a = ns();
		if (pipe_op) {
			if (write(to[1], &c, 1) != 1 || read(from[0], &c, 1) != 1)
				return 1;
		} else {
			sink += syscall(SYS_getppid);
		}
		d[i] = ns() - a;
	}
	if (pipe_op) {
		close(to[1]);
		waitpid(kid, NULL, 0);
	}
	uint64_t *e = malloc(n * sizeof *e);
	for (size_t i = 0; i < n; i++) {
		uint64_t a = ns();
		e[i] = ns() - a;
	}
	qsort(d, n, sizeof *d, by_value);
	qsort(e, n, sizeof *e, by_value);
	const double q[] = { 0.5, 0.9, 0.99, 0.999 };
	printf("%s", argv[1]);
	for (int k = 0; k < 4; k++) {
		size_t r = (size_t)ceil(q[k] * (double)n);
		printf(" %.3f", (double)d[r ? r - 1 : 0] / 1e3);
	}
	printf(" %.3f\nclock_pair_median_ns %llu\n", (double)d[n - 1] / 1e3,
	       (unsigned long long)e[n / 2]);
	return 0;
}
