/*
 * ab_duet.c — see ab_duet.h. The premise of duet measurement is that the interference (other
 * tenants, other processes, the hypervisor taking the vCPU, the clock) reaches both CPUs alike
 * and that neither side's work slows the other. Steps that share more than the machine's
 * background between the two CPUs break the second half: the memory and cache tools (one
 * side's traffic is the other's contention on the memory bus and the shared cache), the
 * parallel ones (more processes than the side's one CPU), the file, disk and network tools
 * (one page cache, one disk, one loopback stack whose softirq work lands on either CPU).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/ab_duet.h"
#include "core/cpu.h"
#include "core/util.h"

#define MAXCPU 1024

/* The tools whose work stays on the CPU their processes are pinned to. */
static const char *const duet_tools[] = {
	"lat_syscall", "lat_sig", "lat_ops", "lat_pipe", "lat_unix", "lat_fifo", "lat_fcntl",
	"lat_sem", "lat_proc",
};

const char *duet_left_out(const char *label)
{
	size_t len = strcspn(label, " ");
	for (size_t i = 0; i < sizeof duet_tools / sizeof *duet_tools; i++)
		if (strlen(duet_tools[i]) == len && strncmp(label, duet_tools[i], len) == 0)
			return NULL;
	if (strncmp(label, "par_", 4) == 0)
		return "runs several processes at once, more than its side's one CPU";
	if (strncmp(label, "bw_mem", 6) == 0 || strncmp(label, "lat_mem", 7) == 0 ||
	    strncmp(label, "stream", 6) == 0 || strstr(label, "cache") || strstr(label, "tlb") ||
	    strstr(label, "mmap") || strstr(label, "dram"))
		return "one side's memory traffic contends with the other's (memory bus, shared cache)";
	return "not known to keep its work on its own CPU (file system, disk, network or several "
	       "processes shared between the sides)";
}

/* The CPUs listed in /sys as cpu's SMT siblings (cpu itself among them); 0 when not said. */
static int smt_siblings(int cpu, int a, int b)
{
	char path[128], buf[256];
	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
		 cpu);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	int got = fgets(buf, sizeof buf, f) != NULL;
	fclose(f);
	int list[MAXCPU], n = got ? cpu_parse_list(buf, list, MAXCPU) : 0, sa = 0, sb = 0;
	for (int i = 0; i < n; i++) {
		sa |= list[i] == a;
		sb |= list[i] == b;
	}
	return sa && sb;
}

void duet_pick_cpus(int cpu[2])
{
	int online[MAXCPU], n = cpu_online(online, MAXCPU);
	if (n < 2)
		die(EXIT_USAGE, "--duet needs two CPUs this process may use; it has %s (taskset, cgroup "
		    "cpuset)", n == 1 ? "one" : "none");
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (!smt_siblings(online[i], online[i], online[j])) {
				cpu[0] = online[i];
				cpu[1] = online[j];
				return;
			}
	cpu[0] = online[0];
	cpu[1] = online[1];
	warnx_("warning: --duet: CPUs %d and %d are SMT siblings of one core (no other pair here): "
	       "each side's work slows the other's", cpu[0], cpu[1]);
}

void duet_check_runargs(char **runargs, int n)
{
	for (int i = 0; i < n; i++) {
		const char *a = runargs[i];
		if (strcmp(a, "--cpu") == 0 || strncmp(a, "--cpu=", 6) == 0)
			die(EXIT_USAGE, "--duet places each side on a CPU of its own: --cpu is not an "
			    "option with it");
		if (strcmp(a, "--copies") == 0 || strncmp(a, "--copies=", 9) == 0)
			die(EXIT_USAGE, "--duet runs one process per side and CPU: --copies is not an "
			    "option with it");
	}
}
