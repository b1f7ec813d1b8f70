/* cpu.c — placement policies (plumb's and lmbench's LMBENCH_SCHED) and pinning. */
#include <ctype.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/cpu.h"
#include "core/util.h"

#define MAXCPU CPU_MAX

enum policy { P_DEFAULT_SINGLE, P_NONE, P_LIST, P_SINGLE, P_BALANCED, P_BALANCED_SPREAD,
	      P_UNIQUE, P_UNIQUE_SPREAD, P_CUSTOM, P_CUSTOM_UNIQUE };


int cpu_online(int *cpus, int max)
{
	/* The CPUs this process may use (respects taskset and cgroup cpusets), as they were at the
	 * first call: pinning for a measurement must not shrink what later code sees. */
	static int cache[MAXCPU], ncache = -1;
	if (ncache < 0) {
		cpu_set_t set;
		ncache = 0;
		if (sched_getaffinity(0, sizeof set, &set) == 0)
			for (int i = 0; i < CPU_SETSIZE && ncache < MAXCPU; i++)
				if (CPU_ISSET(i, &set))
					cache[ncache++] = i;
		if (ncache == 0) {
			long c = sysconf(_SC_NPROCESSORS_ONLN);
			for (int i = 0; i < c && ncache < MAXCPU; i++)
				cache[ncache++] = i;
		}
	}
	int n = ncache < max ? ncache : max;
	memcpy(cpus, cache, (size_t)n * sizeof *cpus);
	return n;
}

/* "0,2-4" → list; returns count or -1. */
int cpu_parse_list(const char *s, int *out, int max)
{
	int n = 0;
	while (*s) {
		if (!isdigit((unsigned char)*s))
			return -1;
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -1;
			b = strtol(end + 1, &end, 10);
		}
		if (a < 0 || b < a || b >= MAXCPU)
			return -1;
		for (long i = a; i <= b && n < max; i++)
			out[n++] = (int)i;
		if (*end == ',')
			end++;
		else if (*end && !isspace((unsigned char)*end))
			return -1;
		while (isspace((unsigned char)*end))
			end++;
		s = end;
	}
	return n;
}

static int bitrev(int x, int ncpu)
{
	int bits = 0, r = 0;
	while ((1 << bits) < ncpu)
		bits++;
	for (int i = 0; i < bits; i++)
		if (x & (1 << i))
			r |= 1 << (bits - 1 - i);
	return r;
}

void cpu_policy_init(struct placement *p, const char *cpu_opt)
{
	int online[MAXCPU], non = cpu_online(online, MAXCPU);
	int *list = p->list;
	char *desc = p->desc;
	size_t dlen = sizeof p->desc;
	p->nlist = 0;
	if (cpu_opt) {
		if (strcmp(cpu_opt, "none") == 0) {
			p->policy = P_NONE;
			snprintf(desc, dlen, "none");
			return;
		}
		p->nlist = cpu_parse_list(cpu_opt, list, MAXCPU);
		if (p->nlist <= 0)
			die(EXIT_USAGE, "--cpu: '%s' is not a CPU list (e.g. 1 or 0,1 or 0-3, or none)",
			    cpu_opt);
		for (int i = 0; i < p->nlist; i++) {
			int ok = 0;
			for (int j = 0; j < non; j++)
				ok |= online[j] == list[i];
			if (!ok)
				die(EXIT_USAGE, "--cpu: CPU %d is not online or not allowed here", list[i]);
		}
		p->policy = P_LIST;
		snprintf(desc, dlen, "list:%s", cpu_opt);
		return;
	}
	const char *s = getenv("LMBENCH_SCHED");
	if (s && *s) {
		static const struct { const char *n; enum policy p; } names[] = {
			{ "DEFAULT", P_NONE }, { "SINGLE", P_SINGLE }, { "BALANCED", P_BALANCED },
			{ "BALANCED_SPREAD", P_BALANCED_SPREAD }, { "UNIQUE", P_UNIQUE },
			{ "UNIQUE_SPREAD", P_UNIQUE_SPREAD }, { "CUSTOM_UNIQUE", P_CUSTOM_UNIQUE },
			{ "CUSTOM", P_CUSTOM },
		};
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
			size_t l = strlen(names[i].n);
			if (strncmp(s, names[i].n, l) == 0 && (s[l] == 0 || isspace((unsigned char)s[l]))) {
				p->policy = names[i].p;
				if (p->policy == P_CUSTOM || p->policy == P_CUSTOM_UNIQUE) {
					const char *l2 = s + l;
					while (isspace((unsigned char)*l2))
						l2++;
					/* lmbench separates with blanks; accept both. */
					char tmp[512];
					snprintf(tmp, sizeof tmp, "%s", l2);
					for (char *q = tmp; *q; q++)
						if (*q == ' ')
							*q = ',';
					p->nlist = cpu_parse_list(tmp, list, MAXCPU);
					if (p->nlist <= 0)
						die(EXIT_USAGE, "LMBENCH_SCHED: no CPU list in '%s'", s);
				}
				snprintf(desc, dlen, "LMBENCH_SCHED=%s", s);
				return;
			}
		}
		die(EXIT_USAGE, "LMBENCH_SCHED: unknown policy '%s'", s);
	}
	p->policy = P_DEFAULT_SINGLE;
	/* Highest online CPU first. */
	for (int i = 0; i < non; i++)
		list[i] = online[non - 1 - i];
	p->nlist = non;
	snprintf(desc, dlen, "single:%d", p->nlist ? list[0] : -1);
}

int cpu_for(struct placement *p, int copy, int proc, int nprocs)
{
	int online[MAXCPU], n = cpu_online(online, MAXCPU);
	if (!p->desc[0])
		cpu_policy_init(p, NULL);
	const int *list = p->list, nlist = p->nlist;
	switch ((enum policy)p->policy) {
	case P_NONE: return -1;
	case P_DEFAULT_SINGLE: return nlist ? list[copy % nlist] : -1;
	case P_LIST: return list[(copy * (nprocs + 1) + proc) % nlist];
	case P_SINGLE: return online[0];
	case P_BALANCED: return online[copy % n];
	case P_BALANCED_SPREAD: return online[bitrev(copy, n) % n];
	case P_UNIQUE: return online[(copy * (nprocs + 1) + proc) % n];
	case P_UNIQUE_SPREAD: return online[bitrev(copy * (nprocs + 1) + proc, n) % n];
	case P_CUSTOM: return list[copy % nlist];
	case P_CUSTOM_UNIQUE: return list[(copy * (nprocs + 1) + proc) % nlist];
	}
	return -1;
}

int cpu_place(struct placement *p, int copy, int proc, int nprocs)
{
	int cpu = cpu_for(p, copy, proc, nprocs);
	if (cpu < 0)
		return -1;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) != 0)
		return -1;
	return cpu;
}

const char *cpu_policy_desc(struct placement *p)
{
	if (!p->desc[0])
		cpu_policy_init(p, NULL);
	return p->desc;
}

const char *cpu_kind(int cpu)
{
	static char buf[64];
	char path[128];
	buf[0] = 0;
	if (cpu < 0)
		return buf;
	snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
	FILE *f = fopen(path, "r");
	if (f) {
		long cap;
		if (fscanf(f, "%ld", &cap) == 1)
			snprintf(buf, sizeof buf, "capacity=%ld", cap);
		fclose(f);
	}
	return buf;
}

int cpu_pin_thread(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

int cpu_list_allowed(const char *list, int *cpus, int max, const int *allowed, int na,
		     char *why, size_t len)
{
	int n = cpu_parse_list(list, cpus, max);
	if (n < 0) {
		snprintf(why, len, "not a CPU list: %s", list);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		int ok = 0;
		for (int j = 0; j < na; j++)
			ok |= cpus[i] == allowed[j];
		if (!ok) {
			snprintf(why, len, "CPU %d is not online or not allowed here", cpus[i]);
			return -1;
		}
		for (int j = 0; j < i; j++)
			if (cpus[j] == cpus[i]) {
				snprintf(why, len, "CPU %d named twice", cpus[i]);
				return -1;
			}
	}
	return n;
}

int cpu_pin_thread_warn(int cpu)
{
	int e = cpu_pin_thread(cpu);
	if (e != 0) {
		warnx_("CPU %d: %s", cpu, strerror(e));
		return -1;
	}
	return 0;
}
