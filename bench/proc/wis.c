/*
 * wis.c — an independent will-it-scale-like loop, written apart from plumb (none of its code):
 * K processes, each pinned to one CPU of the list, run an operation in a tight loop and bump
 * their own counter (one 128-byte line each, in a shared mapping) after every operation, as
 * will-it-scale does; the parent lets them run WARM ms, then reads the counters around MS ms
 * and prints "K ops_per_second".
 *   null       getppid()
 *   pagefault  will-it-scale's page_fault1: map 128 MiB anonymous, write one byte per page
 *              (one count per page), unmap, again
 * Usage: wis null|pagefault K MS CPU... (at least K CPUs). Built by bench/proc/scale.sh.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BIG (128ul << 20)

struct ctr { volatile unsigned long n; char pad[120]; };

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void worker(int pf, struct ctr *c)
{
	long pg = sysconf(_SC_PAGESIZE);
	for (;;) {
		if (!pf) {
			getppid();
			c->n++;
			continue;
		}
		char *m = mmap(NULL, BIG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED)
			_exit(1);
		madvise(m, BIG, MADV_NOHUGEPAGE);
		for (unsigned long off = 0; off < BIG; off += pg) {
			m[off] = 1;
			c->n++;
		}
		munmap(m, BIG);
	}
}

static unsigned long sum(struct ctr *c, int k)
{
	unsigned long s = 0;
	for (int i = 0; i < k; i++)
		s += c[i].n;
	return s;
}

int main(int argc, char **argv)
{
	if (argc < 5 || atoi(argv[2]) < 1 || argc - 4 < atoi(argv[2])) {
		fprintf(stderr, "usage: wis null|pagefault K MS CPU...\n");
		return 2;
	}
	int pf = strcmp(argv[1], "pagefault") == 0, k = atoi(argv[2]);
	double ms = atof(argv[3]);
	struct ctr *c = mmap(NULL, sizeof *c * k, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t *pid = calloc(k, sizeof *pid);
	for (int i = 0; i < k; i++) {
		if ((pid[i] = fork()) == 0) {
			cpu_set_t s;
			CPU_ZERO(&s);
			CPU_SET(atoi(argv[4 + i]), &s);
			sched_setaffinity(0, sizeof s, &s);
			worker(pf, &c[i]);
		}
	}
	usleep(200000); /* warm: every worker running */
	unsigned long c0 = sum(c, k);
	double t0 = now();
	usleep((useconds_t)(ms * 1000));
	unsigned long c1 = sum(c, k);
	double t1 = now();
	for (int i = 0; i < k; i++)
		kill(pid[i], SIGKILL);
	for (int i = 0; i < k; i++)
		waitpid(pid[i], NULL, 0);
	printf("%d %.0f\n", k, (c1 - c0) / (t1 - t0));
	return 0;
}
