/* pmu.c — the hardware counters' probe and its calibrated loop (pmu.h). */
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "core/clock.h"
#include "core/pmu.h"

static const struct { uint32_t type; uint64_t config; const char *name; } hw_events[4] = {
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions" },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, "cache-misses" },
	{ PERF_TYPE_HW_CACHE, PERF_COUNT_HW_CACHE_DTLB | (PERF_COUNT_HW_CACHE_OP_READ << 8) |
				      (PERF_COUNT_HW_CACHE_RESULT_MISS << 16), "dTLB-misses" },
};

static int hw_open(int k, int inherit)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = hw_events[k].type;
	a.config = hw_events[k].config;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.inherit = (unsigned)inherit;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

/* A loop of PMU_LOOP_INSNS instructions an iteration; 0 where no assembly is written. */
#if defined(__x86_64__)
#define PMU_LOOP_INSNS 2.0
static void known_loop(uint64_t n)
{
	__asm__ volatile("1: sub $1, %0\n\tjnz 1b" : "+r"(n) : : "cc");
}
#elif defined(__aarch64__)
#define PMU_LOOP_INSNS 2.0
static void known_loop(uint64_t n)
{
	__asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
}
#else
#define PMU_LOOP_INSNS 0.0
static void known_loop(uint64_t n)
{
	(void)n;
}
#endif

int pmu_plausible(double insns, double cycles, double ns, double known_insns, char *why,
		  size_t len)
{
	if (!(known_insns > 0) || !(ns > 0)) {
		snprintf(why, len, "no calibrated loop on this architecture");
		return 0;
	}
	double r = insns / known_insns;
	if (!(r >= 1 / PMU_INSN_FACTOR && r <= PMU_INSN_FACTOR)) {
		snprintf(why, len, "instructions %.0f for a loop of %.0f", insns, known_insns);
		return 0;
	}
	double ghz = cycles / ns;
	if (!(ghz >= PMU_GHZ_MIN && ghz <= PMU_GHZ_MAX)) {
		snprintf(why, len, "cycles %.0f in %.0f ns (%.3g GHz)", cycles, ns, ghz);
		return 0;
	}
	return 1;
}

static int read_fd(int fd, double *v)
{
	uint64_t c;
	if (read(fd, &c, sizeof c) != (ssize_t)sizeof c)
		return -1;
	*v = (double)c;
	return 0;
}

/* cycles and instructions over the calibrated loop, or the fabricated counts of
 * PLUMB_PMU_FAKE=implausible; 0 when both read. */
static int loop_counts(struct pmu_probe *p, double *insns, double *cycles, double *ns)
{
	const char *fake = getenv("PLUMB_PMU_FAKE");
	if (fake && strcmp(fake, "implausible") == 0) {
		known_loop(PMU_PROBE_ITERS);
		*insns = 3000, *cycles = 10, *ns = 1e6;
		return 0;
	}
	int fd[2] = { hw_open(0, 0), hw_open(1, 0) };
	if (fd[0] < 0 || fd[1] < 0) {
		snprintf(p->why, sizeof p->why, "%s: %s", fd[0] < 0 ? "cycles" : "instructions",
			 strerror(errno));
		for (int i = 0; i < 2; i++)
			if (fd[i] >= 0)
				close(fd[i]);
		return -1;
	}
	double c0 = 0, c1 = 0, i0 = 0, i1 = 0;
	uint64_t t0 = now_ns();
	int rc = read_fd(fd[0], &c0) | read_fd(fd[1], &i0);
	known_loop(PMU_PROBE_ITERS);
	rc |= read_fd(fd[1], &i1) | read_fd(fd[0], &c1);
	*ns = (double)(now_ns() - t0);
	close(fd[0]);
	close(fd[1]);
	*insns = i1 - i0, *cycles = c1 - c0;
	if (rc)
		snprintf(p->why, sizeof p->why, "counters opened but could not be read");
	return rc ? -1 : 0;
}

static void probe(struct pmu_probe *p)
{
	double insns, cycles, ns;
	if (loop_counts(p, &insns, &cycles, &ns) != 0)
		return;
	if (!pmu_plausible(insns, cycles, ns, PMU_LOOP_INSNS * PMU_PROBE_ITERS, p->why,
			   sizeof p->why))
		return;
	p->ok[0] = p->ok[1] = 1;
	for (int k = 2; k < 4; k++) {
		int fd = hw_open(k, 0);
		if (fd < 0) {
			if (!*p->why)
				snprintf(p->why, sizeof p->why, "%s: %s", hw_events[k].name,
					 strerror(errno));
			continue;
		}
		close(fd);
		p->ok[k] = 1;
	}
	p->state = p->ok[2] && p->ok[3] ? PMU_FULL : PMU_PARTIAL;
}

const struct pmu_probe *pmu_probe(void)
{
	static struct pmu_probe p;
	static int done;
	if (!done) {
		done = 1;
		probe(&p);
	}
	return &p;
}

void pmu_open_counters(int hw[4])
{
	const struct pmu_probe *p = pmu_probe();
	for (int k = 0; k < 4; k++)
		hw[k] = p->ok[k] ? hw_open(k, 1) : -1;
}

/* A CPU PMU's device name: "cpu", hybrid "cpu_core"/"cpu_atom", Arm's "armv8_*" and the
 * like. */
static int cpu_pmu_name(const char *n)
{
	return strcmp(n, "cpu") == 0 || strncmp(n, "cpu_", 4) == 0 || strncmp(n, "armv", 4) == 0 ||
	       strstr(n, "_pmu") != NULL;
}

int pmu_facts(struct fact *f, int n, int max)
{
	static const char *const names[] = { "none", "partial", "full" };
	const struct pmu_probe *p = pmu_probe();
	n = fact_add(f, n, max, "pmu", names[p->state]);
	if (p->state != PMU_FULL && *p->why)
		n = fact_add(f, n, max, "pmu_refused", p->why);
	char buf[256] = "";
	if (read_line_file("/proc/sys/kernel/perf_event_paranoid", buf, sizeof buf))
		n = fact_add(f, n, max, "perf_event_paranoid", buf);
	buf[0] = 0;
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && cpu_pmu_name(e->d_name) &&
		    strlen(buf) + strlen(e->d_name) + 2 < sizeof buf)
			snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", *buf ? "," : "",
				 e->d_name);
	if (d)
		closedir(d);
	return fact_add(f, n, max, "cpu_pmus", *buf ? buf : "none");
}
