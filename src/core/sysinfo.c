/* sysinfo.c — read the machine's facts from uname, /proc and /sys (the caches: caches.c; the
 * kernel's command line, mitigations, audit and clock source: kernel_facts.c). Missing files
 * are normal (containers, old kernels, boards): a fact that cannot be read is left out, never
 * guessed. What the fact readers share (a file's first line, a fact added) is in
 * sysfile.c, below them all. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "core/arch.h"
#include "core/cpu.h"
#include "core/sysinfo.h"
#include "core/util.h"
#include "buildinfo.h"

static uint64_t meminfo(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	if (!f)
		return 0;
	char line[256];
	uint64_t v = 0;
	size_t kl = strlen(key);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, key, kl) == 0 && line[kl] == ':') {
			v = strtoull(line + kl + 1, NULL, 10) * 1024;
			break;
		}
	fclose(f);
	return v;
}

uint64_t sys_mem_total(void)
{
	return meminfo("MemTotal");
}

/* Room left under this process's cgroup limit (v2, then v1); UINT64_MAX when unlimited. */
static uint64_t cgroup_room(void)
{
	char buf[512], path[700], lim[64], cur[64];
	FILE *f = fopen("/proc/self/cgroup", "r");
	if (!f)
		return UINT64_MAX;
	uint64_t room = UINT64_MAX;
	while (fgets(buf, sizeof buf, f)) {
		buf[strcspn(buf, "\n")] = 0;
		char *p = strchr(buf, ':');
		char *q = p ? strchr(p + 1, ':') : NULL;
		if (!q)
			continue;
		*q = 0;
		const char *controllers = p + 1, *cg = q + 1;
		if (!*controllers) { /* v2 unified */
			snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.max", cg);
			if (read_line_file(path, lim, sizeof lim) && isdigit((unsigned char)lim[0])) {
				snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.current", cg);
				uint64_t l = strtoull(lim, NULL, 10), u = 0;
				if (read_line_file(path, cur, sizeof cur))
					u = strtoull(cur, NULL, 10);
				if (l > u && l - u < room)
					room = l - u;
				else if (l <= u)
					room = 0;
			}
		} else if (strstr(controllers, "memory")) {
			snprintf(path, sizeof path, "/sys/fs/cgroup/memory%s/memory.limit_in_bytes", cg);
			if (read_line_file(path, lim, sizeof lim)) {
				uint64_t l = strtoull(lim, NULL, 10), u = 0;
				snprintf(path, sizeof path, "/sys/fs/cgroup/memory%s/memory.usage_in_bytes", cg);
				if (read_line_file(path, cur, sizeof cur))
					u = strtoull(cur, NULL, 10);
				if (l < (1ull << 60) && l > u && l - u < room)
					room = l - u;
			}
		}
	}
	fclose(f);
	return room;
}

uint64_t sys_mem_available(void)
{
	uint64_t avail = meminfo("MemAvailable");
	if (!avail)
		avail = meminfo("MemFree");
	uint64_t room = cgroup_room();
	return room < avail ? room : avail;
}

double sys_nominal_mhz(void)
{
	char buf[256];
	int cpus[1];
	int cpu = cpu_online(cpus, 1) ? cpus[0] : 0;
	char path[128];
	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", cpu);
	if (read_line_file(path, buf, sizeof buf))
		return atof(buf) / 1000.0;
	FILE *f = fopen("/proc/cpuinfo", "r");
	double mhz = 0;
	if (f) {
		while (fgets(buf, sizeof buf, f))
			if (strncmp(buf, "cpu MHz", 7) == 0) {
				char *c = strchr(buf, ':');
				if (c)
					mhz = atof(c + 1);
				break;
			}
		fclose(f);
	}
	return mhz;
}

int sys_hypervisor(void)
{
	char buf[4096];
	FILE *f = fopen("/proc/cpuinfo", "r");
	int hv = 0;
	if (f) {
		while (fgets(buf, sizeof buf, f))
			if (strncmp(buf, "flags", 5) == 0) {
				hv = strstr(buf, " hypervisor") != NULL;
				break;
			}
		fclose(f);
	}
	if (!hv && read_line_file("/sys/hypervisor/type", buf, sizeof buf))
		hv = 1;
	return hv;
}

static void cpu_model(char *buf, int len)
{
	char line[512];
	buf[0] = 0;
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "model name", 10) == 0 || strncmp(line, "Hardware", 8) == 0 ||
		    (!buf[0] && strncmp(line, "CPU part", 8) == 0)) {
			char *c = strchr(line, ':');
			if (c) {
				c++;
				while (*c == ' ' || *c == '\t')
					c++;
				c[strcspn(c, "\n")] = 0;
				snprintf(buf, len, "%s", c);
				if (strncmp(line, "model name", 10) == 0)
					break;
			}
		}
	}
	fclose(f);
}

int sysinfo_facts(struct fact *f, int max)
{
	int n = 0;
	char buf[256], tmp[256];
	struct utsname u;
	if (uname(&u) == 0) {
		n = fact_add(f, n, max, "hostname", u.nodename);
		n = fact_add(f, n, max, "os", u.sysname);
		n = fact_add(f, n, max, "kernel", u.release);
		n = fact_add(f, n, max, "kernel_version", u.version);
		n = fact_add(f, n, max, "machine", u.machine);
	}
	/* under user-mode emulation /proc/cpuinfo describes the host: its model and clock are
	 * recorded as the host's, never as the target's */
	char emu[32], host[16];
	int emulated = sys_emulated(emu, sizeof emu, host, sizeof host);
	if (emulated) {
		n = fact_add(f, n, max, "emulated", emu);
		n = fact_add(f, n, max, "emulation_host_arch", host);
	}
	cpu_model(buf, sizeof buf);
	n = fact_add(f, n, max, emulated ? "host_cpu_model" : "cpu_model", buf);
	int cpus[1024];
	snprintf(buf, sizeof buf, "%d", cpu_online(cpus, 1024));
	n = fact_add(f, n, max, "cpus_online", buf);
	snprintf(buf, sizeof buf, "%ld", sysconf(_SC_NPROCESSORS_CONF));
	n = fact_add(f, n, max, "cpus_configured", buf);
	double mhz = sys_nominal_mhz();
	if (mhz > 0) {
		snprintf(buf, sizeof buf, "%.0f", mhz);
		n = fact_add(f, n, max, emulated ? "host_nominal_mhz" : "nominal_mhz", buf);
	}
	n = cache_facts(f, n, max, cpus[0]);
	if (sys_llc_override()) {
		/* the cache sizes above are not what sysfs says: on record, never silently */
		n = fact_add(f, n, max, "llc_override", getenv("PLUMB_LLC"));
	}
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)sys_mem_total());
	n = fact_add(f, n, max, "mem_total", buf);
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)sys_mem_available());
	n = fact_add(f, n, max, "mem_available", buf);
	snprintf(buf, sizeof buf, "%ld", sysconf(_SC_PAGESIZE));
	n = fact_add(f, n, max, "page_size", buf);
	if (read_line_file("/sys/kernel/mm/transparent_hugepage/enabled", tmp, sizeof tmp)) {
		char *a = strchr(tmp, '['), *b = a ? strchr(a, ']') : NULL;
		if (a && b) {
			*b = 0;
			n = fact_add(f, n, max, "thp", a + 1);
		}
	}
	snprintf(buf, sizeof buf, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpus[0]);
	if (read_line_file(buf, tmp, sizeof tmp))
		n = fact_add(f, n, max, "governor", tmp);
	if (read_line_file("/sys/devices/system/cpu/smt/active", tmp, sizeof tmp))
		n = fact_add(f, n, max, "smt", tmp);
	n = fact_add(f, n, max, "hypervisor", sys_hypervisor() ? "yes" : "no");
	n = kernel_facts(f, n, max);
	n = host_facts(f, n, max);
	n = fact_add(f, n, max, "arch", arch_name());
	n = fact_add(f, n, max, "cpu_features", arch_features());
	n = fact_add(f, n, max, "build_cc", PLUMB_CC);
	n = fact_add(f, n, max, "build_cflags", PLUMB_CFLAGS);
	n = fact_add(f, n, max, "build_features", PLUMB_FEATURES);
	n = fact_add(f, n, max, "plumb_version", PLUMB_VERSION);
	return n;
}

void sysinfo_json(struct json *j, const char *key)
{
	struct fact *f = xcalloc(SYSINFO_MAX_FACTS, sizeof *f);
	int n = sysinfo_facts(f, SYSINFO_MAX_FACTS);
	json_obj_begin(j, key);
	for (int i = 0; i < n; i++)
		json_scalar(j, f[i].key, f[i].val);
	json_obj_end(j);
	free(f);
}
