/*
 * caches.c — the cache levels, from every source that knows them, each level recorded with its
 * source: sysfs (/sys/devices/system/cpu/cpuN/cache), else CPUID (x86, cpuid.c), else glibc's
 * sysconf(_SC_LEVEL1_DCACHE_SIZE ...). A level one source lacks is taken from the next (a
 * board's thin device tree may list L1 and L2 only). Many KVM guests have no sysfs cache
 * directory; ARM has no user-space CPUID for sizes and its sysconf often says 0. What no
 * source reports, or reports too large to believe (a guest is shown its host's whole L3), the
 * latency knee measured by the planner and the memory tools stands for: the *effective* last
 * level (sys_llc_effective()). Where no source reports any level, the knee probe's curve
 * gives them all (source "measured", PLUMB_MEM_LEVELS).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/cpu.h"
#include "core/cpuid.h"
#include "core/sysinfo.h"
#include "core/util.h"

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

/* CPUs in a list like "0-3,8". */
static int count_cpu_list(const char *s)
{
	int cnt = 0;
	for (char *p = (char *)s; *p;) {
		long a = strtol(p, &p, 10), b = a;
		if (*p == '-')
			b = strtol(p + 1, &p, 10);
		cnt += (int)(b - a + 1);
		if (*p == ',')
			p++;
		else
			break;
	}
	return cnt;
}

/* One file of /sys/devices/system/cpu/cpuCPU/cache/indexIDX; NULL when unreadable. */
static char *index_file(int cpu, int idx, const char *name, char *buf, int len)
{
	char path[160];
	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cache/index%d/%s", cpu, idx, name);
	return read_line_file(path, buf, len);
}

static int sysfs_caches(int cpu, struct cache_level *c, int max)
{
	int n = 0;
	for (int idx = 0; idx < 16 && n < max; idx++) {
		char buf[256];
		if (!index_file(cpu, idx, "type", buf, sizeof buf))
			break;
		if (strcmp(buf, "Instruction") == 0)
			continue;
		struct cache_level *l = &c[n];
		memset(l, 0, sizeof *l);
		snprintf(l->type, sizeof l->type, "%.15s", buf);
		snprintf(l->source, sizeof l->source, "sysfs");
		if (index_file(cpu, idx, "level", buf, sizeof buf))
			l->level = atoi(buf);
		if (index_file(cpu, idx, "size", buf, sizeof buf))
			l->size = parse_cache_size(buf);
		if (index_file(cpu, idx, "coherency_line_size", buf, sizeof buf))
			l->line = atoi(buf);
		if (index_file(cpu, idx, "shared_cpu_list", buf, sizeof buf))
			l->shared_cpus = count_cpu_list(buf);
		if (l->size && l->level > 0)
			n++;
	}
	return n;
}

/* glibc's answers (on x86 it asks CPUID itself; elsewhere often 0). None without glibc. */
static int sysconf_caches(struct cache_level *c, int max)
{
	int n = 0;
#ifdef _SC_LEVEL1_DCACHE_SIZE
	static const int names[][2] = {
		{ _SC_LEVEL1_DCACHE_SIZE, _SC_LEVEL1_DCACHE_LINESIZE },
		{ _SC_LEVEL2_CACHE_SIZE, _SC_LEVEL2_CACHE_LINESIZE },
		{ _SC_LEVEL3_CACHE_SIZE, _SC_LEVEL3_CACHE_LINESIZE },
		{ _SC_LEVEL4_CACHE_SIZE, _SC_LEVEL4_CACHE_LINESIZE },
	};
	for (int i = 0; i < 4 && n < max; i++) {
		long size = sysconf(names[i][0]), line = sysconf(names[i][1]);
		if (size <= 0)
			continue;
		memset(&c[n], 0, sizeof c[n]);
		c[n].level = i + 1;
		snprintf(c[n].type, sizeof c[n].type, i ? "Unified" : "Data");
		c[n].size = (uint64_t)size;
		c[n].line = line > 0 ? (int)line : 0;
		snprintf(c[n].source, sizeof c[n].source, "sysconf");
		n++;
	}
#else
	(void)c;
	(void)max;
#endif
	return n;
}

enum { SRC_SYSFS = 1, SRC_CPUID = 2, SRC_SYSCONF = 4, SRC_MEASURED = 8 };

/* PLUMB_CACHE_SOURCES=LIST (a testing knob): the sources plumb may read, comma-separated, of
 * sysfs, cpuid, sysconf; "none" or empty for none. Unset: all three. */
static int allowed_sources(void)
{
	const char *e = getenv("PLUMB_CACHE_SOURCES");
	if (!e)
		return SRC_SYSFS | SRC_CPUID | SRC_SYSCONF | SRC_MEASURED;
	int m = 0;
	for (const char *p = e; *p;) {
		size_t l = strcspn(p, ", ");
		if (l == 5 && !strncmp(p, "sysfs", 5))
			m |= SRC_SYSFS;
		else if (l == 5 && !strncmp(p, "cpuid", 5))
			m |= SRC_CPUID;
		else if (l == 7 && !strncmp(p, "sysconf", 7))
			m |= SRC_SYSCONF;
		else if (l == 8 && !strncmp(p, "measured", 8))
			m |= SRC_MEASURED;
		else if (l && !(l == 4 && !strncmp(p, "none", 4)))
			die(EXIT_USAGE, "PLUMB_CACHE_SOURCES: unknown source '%.*s' (sysfs, cpuid, "
					"sysconf, measured or none)", (int)l, p);
		p += l;
		p += strspn(p, ", ");
	}
	return m;
}

/* The levels the knee probe measured where no other source reported any (PLUMB_MEM_LEVELS,
 * "49152,1048576": L1 first, set by the memory tools for their process tree), source
 * "measured". The last level they name is the last cache seen below main memory. */
static int measured_caches(struct cache_level *c, int max)
{
	const char *e = getenv("PLUMB_MEM_LEVELS");
	int n = 0;
	for (const char *p = e; p && *p && n < max;) {
		char *end;
		unsigned long long v = strtoull(p, &end, 10);
		if (end == p || !v)
			break;
		memset(&c[n], 0, sizeof c[n]);
		c[n].level = n + 1;
		c[n].size = v;
		snprintf(c[n].type, sizeof c[n].type, n ? "Unified" : "Data");
		snprintf(c[n].source, sizeof c[n].source, "measured");
		n++;
		p = end + strspn(end, ",");
	}
	return n;
}

/* Add the levels of from[] that c[] does not have yet. */
static int merge(struct cache_level *c, int n, int max, const struct cache_level *from, int nf)
{
	for (int i = 0; i < nf && n < max; i++) {
		int have = 0;
		for (int k = 0; k < n; k++)
			have |= c[k].level == from[i].level;
		if (!have)
			c[n++] = from[i];
	}
	return n;
}

int sys_caches(int cpu, struct cache_level *c, int max)
{
	int n = 0, src = allowed_sources();
	struct cache_level tmp[16];
	if (src & SRC_SYSFS)
		n = merge(c, n, max, tmp, sysfs_caches(cpu, tmp, 16));
	if (src & SRC_CPUID)
		n = merge(c, n, max, tmp, cpuid_caches(tmp, 16));
	if (src & SRC_SYSCONF)
		n = merge(c, n, max, tmp, sysconf_caches(tmp, 16));
	if ((src & SRC_MEASURED) && !n)
		n = merge(c, n, max, tmp, measured_caches(tmp, 16));
	for (int i = 1; i < n; i++) /* by level */
		for (int k = i; k > 0 && c[k - 1].level > c[k].level; k--) {
			struct cache_level t = c[k];
			c[k] = c[k - 1];
			c[k - 1] = t;
		}
	uint64_t fake = sys_llc_override();
	if (fake) {
		/* the last level reported at the size asked for (one made up when none is known) */
		if (!n && max > 0) {
			memset(&c[0], 0, sizeof c[0]);
			snprintf(c[0].type, sizeof c[0].type, "Unified");
			c[0].level = 3;
			c[0].line = 64;
			c[0].shared_cpus = 1;
			n = 1;
		}
		c[n - 1].size = fake;
		snprintf(c[n - 1].source, sizeof c[n - 1].source, "PLUMB_LLC");
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

static int first_cpu(void)
{
	int cpus[1];
	return cpu_online(cpus, 1) ? cpus[0] : 0;
}

uint64_t sys_llc_bytes(void)
{
	struct cache_level c[8];
	int n = sys_caches(first_cpu(), c, 8);
	return n ? c[n - 1].size : 0;
}

int sys_llc_knee(uint64_t *knee)
{
	const char *e = getenv("PLUMB_MEM_KNEE");
	*knee = 0;
	return e && *e && try_parse_size(e, knee) == 0;
}

uint64_t sys_llc_effective(char *source, size_t len)
{
	struct cache_level c[8];
	int n = sys_caches(first_cpu(), c, 8);
	uint64_t rep = n ? c[n - 1].size : 0, knee;
	if (sys_llc_knee(&knee) && knee && (!rep || knee < rep)) {
		snprintf(source, len, "measured");
		return knee;
	}
	snprintf(source, len, "%s", rep ? c[n - 1].source : "");
	return rep;
}

static void fmt_size(uint64_t b, char *buf, size_t len)
{
	if (b >= (1u << 20) && b % (1u << 20) == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(b >> 20));
	else
		snprintf(buf, len, "%.0f KiB", (double)b / 1024);
}

int cache_facts(struct fact *f, int n, int max, int cpu)
{
	char key[32], buf[256];
	struct cache_level c[8];
	int nc = sys_caches(cpu, c, 8);
	for (int i = 0; i < nc; i++) {
		/* the size last: scripts read a level's size as its cache_lN line */
		char name[16];
		snprintf(name, sizeof name, "cache_l%d%s", c[i].level, c[i].level == 1 ? "d" : "");
		snprintf(key, sizeof key, "%s_source", name);
		n = fact_add(f, n, max, key, c[i].source);
		if (c[i].line > 0) {
			snprintf(key, sizeof key, "%s_line", name);
			snprintf(buf, sizeof buf, "%d", c[i].line);
			n = fact_add(f, n, max, key, buf);
		}
		if (c[i].shared_cpus > 0) {
			snprintf(key, sizeof key, "%s_shared", name);
			snprintf(buf, sizeof buf, "%d", c[i].shared_cpus);
			n = fact_add(f, n, max, key, buf);
		}
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)c[i].size);
		n = fact_add(f, n, max, name, buf);
		if (i == 0 && c[i].line > 0) {
			snprintf(buf, sizeof buf, "%d", c[i].line);
			n = fact_add(f, n, max, "cache_line", buf);
		}
	}
	/* the effective size once a knee was measured (else the reported sizes are all there is) */
	char src[16];
	uint64_t knee, eff = sys_llc_knee(&knee) ? sys_llc_effective(src, sizeof src) : 0;
	if (eff) {
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)eff);
		n = fact_add(f, n, max, "cache_llc_effective", buf);
		n = fact_add(f, n, max, "cache_llc_effective_source", src);
	}
	if (eff && nc && eff < c[nc - 1].size) {
		char a[32], b[32];
		fmt_size(c[nc - 1].size, a, sizeof a);
		fmt_size(eff, b, sizeof b);
		snprintf(buf, sizeof buf, "L%d reported %s (%s) is larger than the latency knee "
			 "measured at %s: the cache this machine really gets ends there (a guest is "
			 "often shown its host's whole cache)", c[nc - 1].level, a, c[nc - 1].source, b);
		n = fact_add(f, n, max, "cache_llc_note", buf);
	}
	return n;
}
