/*
 * sysinfo.h — facts about the machine that a run records and benchmarks size themselves by:
 * kernel, CPU model, CPUs, caches from sysfs, memory (cgroup limits included), THP setting,
 * frequency governor, hypervisor, how plumb was built.
 */
#ifndef PLUMB_SYSINFO_H
#define PLUMB_SYSINFO_H

#include <stdint.h>
#include "core/json.h"

struct fact {
	char key[32];
	char val[256];
};

struct cache_level {
	int level;          /* 1, 2, 3 ... */
	char type[16];      /* "Data", "Instruction", "Unified" */
	uint64_t size;      /* bytes */
	int line;           /* bytes */
	int shared_cpus;    /* CPUs sharing it */
};

/* Fill f with the facts (key order stable); returns the count. */
int sysinfo_facts(struct fact *f, int max);
/* The facts as a JSON object under key. */
void sysinfo_json(struct json *j, const char *key);
/* Data and unified caches of CPU cpu as sysfs reports them; returns the count (0: unknown). */
int sys_caches(int cpu, struct cache_level *c, int max);
/* Size of the last-level cache in bytes, 0 when sysfs says nothing. */
uint64_t sys_llc_bytes(void);
/* PLUMB_LLC=SIZE (e.g. 300M) in the environment: the last-level cache size sys_caches() and
 * sys_llc_bytes() report instead of sysfs's, so a machine showing a huge LLC can be planned for
 * anywhere (tests, estimates); recorded as the llc_override fact. 0 when unset; a bad value is a
 * usage error (exit 2). */
uint64_t sys_llc_override(void);
/* Bytes this process can use without swapping or meeting the OOM killer: MemAvailable capped
 * by the cgroup's memory limit minus its usage. */
uint64_t sys_mem_available(void);
/* MemTotal in bytes. */
uint64_t sys_mem_total(void);
/* Nominal clock in MHz from cpufreq or /proc/cpuinfo, 0 when unknown. */
double sys_nominal_mhz(void);
/* 1 when running under a hypervisor. */
int sys_hypervisor(void);
/* First line of a file into buf (newline removed); NULL when unreadable. */
char *read_line_file(const char *path, char *buf, int len);

#endif
