/*
 * noise.c — before the first benchmark, say what usually makes numbers noisy on this
 * machine: another process using the CPUs, a frequency governor other than `performance`, a
 * hypervisor. One warning line each (stderr), and the same facts recorded with the run, so
 * compare can point at them later.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "suite/noise.h"
#include "core/util.h"

/* Busy share of all CPUs over a short interval, from /proc/stat; -1 when unreadable. */
static double cpu_busy_pct(double seconds)
{
	unsigned long long a[2][8];
	for (int k = 0; k < 2; k++) {
		FILE *f = fopen("/proc/stat", "r");
		if (!f || fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &a[k][0], &a[k][1],
				 &a[k][2], &a[k][3], &a[k][4], &a[k][5], &a[k][6], &a[k][7]) != 8) {
			if (f)
				fclose(f);
			return -1;
		}
		fclose(f);
		if (k == 0) {
			struct timespec ts = { 0, (long)(seconds * 1e9) };
			nanosleep(&ts, NULL);
		}
	}
	unsigned long long total = 0, idle = (a[1][3] - a[0][3]) + (a[1][4] - a[0][4]);
	for (int i = 0; i < 8; i++)
		total += a[1][i] - a[0][i];
	return total ? 100.0 * (double)(total - idle) / (double)total : -1;
}

void run_noise_check(struct run *run, void (*warn)(const char *fmt, ...), int sample_busy)
{
	/* plumb itself is idle here (between parsing options and the first step). */
	double busy = sample_busy ? cpu_busy_pct(0.25) : -1;
	if (busy >= 0) {
		char b[32];
		snprintf(b, sizeof b, "%.0f", busy);
		kv_set(&run->facts, "cpu_busy_pct_at_start", b);
		if (busy > 10)
			warn("other processes were using %.0f%% of the CPUs when the run started: "
			     "expect noisy numbers", busy);
	}
	const char *gov = kv_get(&run->facts, "governor");
	if (gov && strcmp(gov, "performance") != 0)
		warn("CPU frequency governor is '%s', not 'performance': clock ramps add noise", gov);
	const char *hv = kv_get(&run->facts, "hypervisor");
	if (hv && strcmp(hv, "yes") == 0)
		warn("running under a hypervisor: other guests share the host, expect more noise");
}
