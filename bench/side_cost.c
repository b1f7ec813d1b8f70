/* side_cost.c — the cost of one sample's side metrics (bench/side.sh builds it against plumb's
 * core objects): N pairs of side_begin()/side_end() with no work between them, alone and with
 * H sleeping helpers registered as a tool's helpers are; prints the CPU time per sample in
 * microseconds (the process's own: what a busy machine's waiting does not inflate). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "core/cleanup.h"
#include "core/side.h"

static double cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static double per_sample_us(int n)
{
	struct side_probe p;
	side_open(&p, -1);
	struct side_sample s;
	double t0 = cpu_ns();
	for (int i = 0; i < n; i++) {
		side_begin(&p);
		side_end(&p, &s);
	}
	double us = (cpu_ns() - t0) / n / 1e3;
	side_close(&p);
	return us;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000, helpers = argc > 2 ? atoi(argv[2]) : 1;
	cleanup_init();
	printf("alone %.1f", per_sample_us(n));
	for (int h = 0; h < helpers; h++)
		if (plumb_fork() == 0) {
			pause();
			_exit(0);
		}
	printf(" helpers=%d %.1f us per sample\n", helpers, per_sample_us(n));
	child_kill_all();
	return 0;
}
