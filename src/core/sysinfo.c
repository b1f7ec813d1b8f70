/* sysinfo.c — read the machine's facts from uname, /proc and /sys. Missing files are normal
 * (containers, old kernels, boards): a fact that cannot be read is left out, never guessed. */
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

char *read_line_file(const char *path, char *buf, int len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *r = fgets(buf, len, f);
	fclose(f);
	if (!r)
		return NULL;
	buf[strcspn(buf, "\n")] = 0;
	return buf;
}

static uint64_t parse_cache_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	else if (*end == 'G')
		v <<= 30;
	return v;
}

int sys_caches(int cpu, struct cache_level *c, int max)
{
	int n = 0;
	for (int idx = 0; idx < 16 && n < max; idx++) {
		char path[160], buf[256];
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/type", cpu, idx);
		if (!read_line_file(path, buf, sizeof buf))
			break;
		if (strcmp(buf, "Instruction") == 0)
			continue;
		struct cache_level *l = &c[n];
		memset(l, 0, sizeof *l);
		snprintf(l->type, sizeof l->type, "%.15s", buf);
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/level", cpu, idx);
		if (read_line_file(path, buf, sizeof buf))
			l->level = atoi(buf);
		snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/size", cpu, idx);
		if (read_line_file(path, buf, sizeof buf))
			l->size = parse_cache_size(buf);
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/coherency_line_size", cpu, idx);
		if (read_line_file(path, buf, sizeof buf))
			l->line = atoi(buf);
		snprintf(path, sizeof path,
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list", cpu, idx);
		if (read_line_file(path, buf, sizeof buf)) {
			/* count CPUs in a list like "0-3,8" */
			int cnt = 0;
			for (char *p = buf; *p;) {
				long a = strtol(p, &p, 10), b = a;
				if (*p == '-')
					b = strtol(p + 1, &p, 10);
				cnt += (int)(b - a + 1);
				if (*p == ',')
					p++;
				else
					break;
			}
			l->shared_cpus = cnt;
		}
		if (l->size)
			n++;
	}
	uint64_t fake = sys_llc_override();
	if (fake) {
		/* the last level reported at the size asked for (one made up when sysfs has none) */
		int top = 0;
		for (int i = 0; i < n; i++)
			if (c[i].level > top)
				top = c[i].level;
		if (!n && max > 0) {
			memset(&c[0], 0, sizeof c[0]);
			snprintf(c[0].type, sizeof c[0].type, "Unified");
			c[0].level = top = 3;
			c[0].line = 64;
			c[0].shared_cpus = 1;
			n = 1;
		}
		for (int i = 0; i < n; i++)
			if (c[i].level == top)
				c[i].size = fake;
	}
	return n;
}

uint64_t sys_llc_override(void)
{
	const char *e = getenv("PLUMB_LLC");
	if (!e || !*e)
		return 0;
	return parse_size(e, 4096, 1ull << 44, "PLUMB_LLC (the last-level cache size to assume)");
}

uint64_t sys_llc_bytes(void)
{
	struct cache_level c[8];
	int cpus[1];
	int n = sys_caches(cpu_online(cpus, 1) ? cpus[0] : 0, c, 8);
	uint64_t best = 0;
	int lvl = 0;
	for (int i = 0; i < n; i++)
		if (c[i].level >= lvl) {
			lvl = c[i].level;
			best = c[i].size;
		}
	return best;
}

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

static int add(struct fact *f, int n, int max, const char *k, const char *v)
{
	if (n >= max || !v || !*v)
		return n;
	snprintf(f[n].key, sizeof f[n].key, "%s", k);
	snprintf(f[n].val, sizeof f[n].val, "%s", v);
	return n + 1;
}

int sysinfo_facts(struct fact *f, int max)
{
	int n = 0;
	char buf[256], tmp[256];
	struct utsname u;
	if (uname(&u) == 0) {
		n = add(f, n, max, "hostname", u.nodename);
		n = add(f, n, max, "os", u.sysname);
		n = add(f, n, max, "kernel", u.release);
		n = add(f, n, max, "kernel_version", u.version);
		n = add(f, n, max, "machine", u.machine);
	}
	cpu_model(buf, sizeof buf);
	n = add(f, n, max, "cpu_model", buf);
	int cpus[1024];
	snprintf(buf, sizeof buf, "%d", cpu_online(cpus, 1024));
	n = add(f, n, max, "cpus_online", buf);
	snprintf(buf, sizeof buf, "%ld", sysconf(_SC_NPROCESSORS_CONF));
	n = add(f, n, max, "cpus_configured", buf);
	double mhz = sys_nominal_mhz();
	if (mhz > 0) {
		snprintf(buf, sizeof buf, "%.0f", mhz);
		n = add(f, n, max, "nominal_mhz", buf);
	}
	struct cache_level c[8];
	int nc = sys_caches(cpus[0], c, 8);
	for (int i = 0; i < nc; i++) {
		char key[32];
		snprintf(key, sizeof key, "cache_l%d%s", c[i].level,
			 c[i].level == 1 ? "d" : "");
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)c[i].size);
		n = add(f, n, max, key, buf);
		if (i == 0) {
			snprintf(buf, sizeof buf, "%d", c[i].line);
			n = add(f, n, max, "cache_line", buf);
		}
	}
	if (sys_llc_override()) {
		/* the cache sizes above are not what sysfs says: on record, never silently */
		n = add(f, n, max, "llc_override", getenv("PLUMB_LLC"));
	}
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)sys_mem_total());
	n = add(f, n, max, "mem_total", buf);
	snprintf(buf, sizeof buf, "%llu", (unsigned long long)sys_mem_available());
	n = add(f, n, max, "mem_available", buf);
	snprintf(buf, sizeof buf, "%ld", sysconf(_SC_PAGESIZE));
	n = add(f, n, max, "page_size", buf);
	if (read_line_file("/sys/kernel/mm/transparent_hugepage/enabled", tmp, sizeof tmp)) {
		char *a = strchr(tmp, '['), *b = a ? strchr(a, ']') : NULL;
		if (a && b) {
			*b = 0;
			n = add(f, n, max, "thp", a + 1);
		}
	}
	snprintf(buf, sizeof buf, "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpus[0]);
	if (read_line_file(buf, tmp, sizeof tmp))
		n = add(f, n, max, "governor", tmp);
	if (read_line_file("/sys/devices/system/cpu/smt/active", tmp, sizeof tmp))
		n = add(f, n, max, "smt", tmp);
	n = add(f, n, max, "hypervisor", sys_hypervisor() ? "yes" : "no");
	n = add(f, n, max, "arch", arch_name());
	n = add(f, n, max, "cpu_features", arch_features());
	n = add(f, n, max, "build_cc", PLUMB_CC);
	n = add(f, n, max, "build_cflags", PLUMB_CFLAGS);
	n = add(f, n, max, "build_features", PLUMB_FEATURES);
	n = add(f, n, max, "plumb_version", PLUMB_VERSION);
	return n;
}

void sysinfo_json(struct json *j, const char *key)
{
	struct fact f[64];
	int n = sysinfo_facts(f, 64);
	json_obj_begin(j, key);
	for (int i = 0; i < n; i++)
		json_scalar(j, f[i].key, f[i].val);
	json_obj_end(j);
}
