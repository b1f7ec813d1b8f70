/*
 * sysinfo.h — facts about the machine that a run records and benchmarks size themselves by:
 * kernel, CPU model, CPUs, caches (caches.c), memory (cgroup limits included), THP setting,
 * frequency governor, hypervisor, the kernel's command line, CPU mitigations, audit, clock
 * source, how plumb was built.
 */
#ifndef PLUMB_SYSINFO_H
#define PLUMB_SYSINFO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "core/json.h"

/* A fact's value holds a kernel command line; a run has about 80 facts (per cache level, per
 * CPU vulnerability the kernel lists). */
#define SYSINFO_MAX_FACTS 160
struct fact {
	char key[32];
	char val[1024];
};

struct cache_level {
	int level;          /* 1, 2, 3 ... */
	char type[16];      /* "Data", "Instruction", "Unified" */
	uint64_t size;      /* bytes */
	int line;           /* bytes; 0 unknown */
	int shared_cpus;    /* CPUs sharing it; 0 unknown */
	char source[12];    /* where it came from: "sysfs", "cpuid", "sysconf", "measured",
			     * "PLUMB_LLC" */
};

/* Fill f with the facts (key order stable); returns the count. */
int sysinfo_facts(struct fact *f, int max);
/* The facts as a JSON object under key. */
void sysinfo_json(struct json *j, const char *key);
/* f[n] = key, value (when v is not empty and n < max); returns the new count. */
int fact_add(struct fact *f, int n, int max, const char *k, const char *v);

/* kernel_facts.c: clocksource, cmdline (one printable line, secret-looking values masked),
 * audit, vuln_NAME per file of /sys/devices/system/cpu/vulnerabilities; appended at f[n]. */
int kernel_facts(struct fact *f, int n, int max);
/* A kernel command line (n bytes of raw) as one printable line into out: words split by any
 * white space joined by one space, the value of a word whose name looks like a secret (pass,
 * pwd, secret, token, key, auth, cred) as ***, a backslash or a byte outside printable ASCII
 * as \xNN; cut at a word with " ..." when it does not fit in len. */
void kernel_cmdline_clean(const char *raw, size_t n, char *out, size_t len);

/* host_facts.c: idle_driver, idle_states (NAME:LATENCYus,...), boost, smt_control,
 * thp_defrag, preempt (debugfs's, else "WORD (uname)" or "MODEL (config)"), microcode, and the
 * PMU probe's facts (pmu.h: pmu, pmu_refused, perf_event_paranoid, cpu_pmus); at f[n]. */
int host_facts(struct fact *f, int n, int max);

/* caches.c. The data and unified caches of CPU cpu, by level, each from the first source that
 * reports it: sysfs, CPUID (x86), sysconf (glibc); returns the count (0: none reported).
 * PLUMB_CACHE_SOURCES=LIST limits the sources (sysfs,cpuid,sysconf or none: a testing knob
 * for a machine without them). */
int sys_caches(int cpu, struct cache_level *c, int max);
/* Size of the last level reported, 0 when none is. */
uint64_t sys_llc_bytes(void);
/* The latency knee measured in this process tree (PLUMB_MEM_KNEE, set by the memory tools and
 * the planner when they measure it, handed to children) into *knee (0: none found below the
 * sizes probed); returns 0 when none was measured. */
int sys_llc_knee(uint64_t *knee);
/* The effective last level: the knee when one was measured below the reported size or nothing
 * is reported ("measured"), else the reported size (its source). 0 when neither is known. */
uint64_t sys_llc_effective(char *source, size_t len);
/* The cache facts appended at f[n]: per level cache_lN (cache_l1d for L1) with _source, _line,
 * _shared; cache_line; once a knee was measured cache_llc_effective and its _source, and
 * cache_llc_note when the reported last level is larger than the knee. */
int cache_facts(struct fact *f, int n, int max, int cpu);
/* PLUMB_LLC=SIZE (e.g. 300M) in the environment: the last-level cache size sys_caches() and
 * sys_llc_bytes() report instead of the sources' (source "PLUMB_LLC"), so a machine showing a
 * huge LLC can be planned for anywhere (tests, estimates); recorded as the llc_override fact.
 * 0 when unset; a bad value is a usage error (exit 2). */
uint64_t sys_llc_override(void);
/* Bytes this process can use without swapping or meeting the OOM killer: MemAvailable capped
 * by the cgroup's memory limit minus its usage. */
uint64_t sys_mem_available(void);
/* MemTotal in bytes. */
uint64_t sys_mem_total(void);
/* Nominal clock in MHz from cpufreq or /proc/cpuinfo, 0 when unknown. */
double sys_nominal_mhz(void);
/* emulation.c. 1 when this binary runs under user-mode emulation: /proc/cpuinfo describes a
 * CPU of another architecture family (x86, arm, riscv) than the binary's, or the process is
 * named after qemu. how: "qemu-user" (the emulator's name seen) or "user-mode"; host: the
 * CPU's family ("x86"; empty when only the name told). Either may be NULL. */
int sys_emulated(char *how, size_t len, char *host, size_t hostlen);
/* The test behind it: binary_arch (arch_name()) against the first line of cpuinfo that names
 * an architecture family; 1 and host = that family when they differ. */
int emulation_from_cpuinfo(const char *binary_arch, FILE *cpuinfo, char *host, size_t len);
/* 1 when running under a hypervisor. */
int sys_hypervisor(void);
/* First line of a file into buf (newline removed); NULL when unreadable. */
char *read_line_file(const char *path, char *buf, int len);

#endif
