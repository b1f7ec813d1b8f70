/*
 * topology.c — how two CPUs are related, from sysfs (/sys/devices/system/cpu/cpuN/topology and
 * cache/indexK), for lat_c2c's pairs: the closest level both share. Nothing is guessed: where
 * sysfs does not say (no topology directory, a hidden cache directory, a board whose device tree
 * leaves it out), the answer is "" and the tool records no topology. PLUMB_SYSFS_CPU replaces
 * /sys/devices/system/cpu (tests give a made-up tree).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/cpu.h"
#include "core/sysinfo.h"
#include "core/topology.h"

#define LIST_MAX 4096

static const char *cpu_root(void)
{
	const char *r = getenv("PLUMB_SYSFS_CPU");
	return r && *r ? r : "/sys/devices/system/cpu";
}

/* The CPU list in a sysfs file into out; -1 when unreadable or malformed. */
static int read_list(const char *path, int *out, int max)
{
	char line[LIST_MAX];
	if (!read_line_file(path, line, sizeof line))
		return -1;
	return cpu_parse_list(line, out, max);
}

static int in_list(const char *path, int cpu)
{
	int v[CPU_MAX];
	int n = read_list(path, v, CPU_MAX);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++)
		if (v[i] == cpu)
			return 1;
	return 0;
}

/* 1 when the two lists are the same set (cluster == core on most x86: not a level of its own). */
static int same_list(const char *p, const char *q)
{
	char a[LIST_MAX], b[LIST_MAX];
	return read_line_file(p, a, sizeof a) && read_line_file(q, b, sizeof b) && strcmp(a, b) == 0;
}

/* Path of cpu's last-level data or unified cache's shared_cpu_list into buf; 0 when none. */
static int llc_list_path(int cpu, char *buf, size_t len)
{
	int best = -1, best_level = 0;
	buf[0] = 0;
	for (int i = 0; i < 16; i++) {
		char p[512], v[64];
		snprintf(p, sizeof p, "%s/cpu%d/cache/index%d/type", cpu_root(), cpu, i);
		if (!read_line_file(p, v, sizeof v))
			continue;
		if (strcmp(v, "Instruction") == 0)
			continue;
		snprintf(p, sizeof p, "%s/cpu%d/cache/index%d/level", cpu_root(), cpu, i);
		if (read_line_file(p, v, sizeof v) && atoi(v) > best_level) {
			best_level = atoi(v);
			best = i;
		}
	}
	if (best < 0)
		return 0;
	snprintf(buf, len, "%s/cpu%d/cache/index%d/shared_cpu_list", cpu_root(), cpu, best);
	return 1;
}

static int package_id(int cpu)
{
	char p[512], v[32];
	snprintf(p, sizeof p, "%s/cpu%d/topology/physical_package_id", cpu_root(), cpu);
	return read_line_file(p, v, sizeof v) ? atoi(v) : -1;
}

const char *cpu_pair_topology(int a, int b)
{
	char core[512], cluster[512], llc[512] = "";
	snprintf(core, sizeof core, "%s/cpu%d/topology/core_cpus_list", cpu_root(), a);
	int r = in_list(core, b);
	if (r < 0) { /* kernels before 5.7 */
		snprintf(core, sizeof core, "%s/cpu%d/topology/thread_siblings_list", cpu_root(), a);
		r = in_list(core, b);
	}
	if (r == 1)
		return "core";
	snprintf(cluster, sizeof cluster, "%s/cpu%d/topology/cluster_cpus_list", cpu_root(), a);
	if (in_list(cluster, b) == 1 && !same_list(cluster, core))
		return "cluster";
	if (llc_list_path(a, llc, sizeof llc) && in_list(llc, b) == 1)
		return "llc";
	int pa = package_id(a), pb = package_id(b);
	if (pa < 0 || pb < 0)
		return "";
	if (pa == pb)
		/* sharing no cache: "package" only when sysfs could have said so (else unknown) */
		return r == 0 && llc[0] ? "package" : "";
	return "other-package";
}

const char *topology_words(const char *t)
{
	static const struct { const char *id, *words; } w[] = {
		{ "core", "same core (SMT siblings)" },
		{ "cluster", "same cluster" },
		{ "llc", "same last-level cache" },
		{ "package", "same package, no shared cache" },
		{ "other-package", "other package (socket)" },
	};
	for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
		if (t && strcmp(t, w[i].id) == 0)
			return w[i].words;
	return "unknown";
}
