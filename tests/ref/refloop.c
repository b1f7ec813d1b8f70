/*
 * refloop — independent reference loops for the tests (tests/cli/honesty.sh): no plumb code,
 * so a figure plumb reports can be held against the same work timed by a program that shares
 * nothing with plumb's timing core.
 *
 *   refloop call|fork [SAMPLES]
 *
 *   call  a loop calling a function the compiler cannot inline or drop: ns per iteration (the
 *         call and its loop, nothing subtracted)
 *   fork  fork(), the child exit(0)s through the C library (as lmbench's and plumb's children
 *         do), the parent waits: ns per iteration, from a process as small as this one
 * Each sample runs a count calibrated to last at least 1 ms (60 ms for fork); the median and the
 * minimum of the samples (default 11) are printed, in nanoseconds, on one line.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

__attribute__((noinline)) static int callee(int x)
{
	__asm__ __volatile__("" : "+r"(x));
	return x;
}

static volatile int sink;

static void calls(uint64_t n)
{
	unsigned acc = 0; /* unsigned: no overflow check under UBSan, the loop stays the same */
	for (uint64_t i = 0; i < n; i++)
		acc += (unsigned)callee((int)i);
	sink = (int)acc;
}

static void forks(uint64_t n)
{
	fflush(NULL); /* a child's exit() flushes stdio: nothing may be buffered to print twice */
	for (uint64_t i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			exit(1);
		}
		if (pid == 0)
			exit(0);
		int st;
		waitpid(pid, &st, 0);
	}
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	if (argc < 2 || (strcmp(argv[1], "call") && strcmp(argv[1], "fork"))) {
		fprintf(stderr, "usage: refloop call|fork [SAMPLES]\n");
		return 2;
	}
	int is_fork = !strcmp(argv[1], "fork");
	int samples = argc > 2 ? atoi(argv[2]) : 11;
	if (samples < 1 || samples > 1000)
		samples = 11;
	void (*fn)(uint64_t) = is_fork ? forks : calls;
	double target = is_fork ? 60e6 : 1e6;
	uint64_t n = 1;
	for (;;) {
		uint64_t t0 = now_ns();
		fn(n);
		double t = (double)(now_ns() - t0);
		if (t >= target)
			break;
		n = t < target / 64 ? n * 8 : (uint64_t)((double)n * target * 1.1 / t) + 1;
	}
	double *v = malloc((size_t)samples * sizeof *v);
	for (int i = 0; i < samples; i++) {
		uint64_t t0 = now_ns();
		fn(n);
		v[i] = (double)(now_ns() - t0) / (double)n;
	}
	qsort(v, (size_t)samples, sizeof *v, cmp);
	double med = samples % 2 ? v[samples / 2] : (v[samples / 2 - 1] + v[samples / 2]) / 2;
	printf("%.4f %.4f\n", med, v[0]);
	free(v);
	return 0;
}
