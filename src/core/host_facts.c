/*
 * host_facts.c — the facts that explain a departure which no figure shows (issue text: the
 * idle state chosen moved lat_pipe 11 %): the cpuidle driver and its states, cpufreq boost,
 * SMT control, THP defragmentation, the kernel's preemption model, the microcode revision, and
 * the PMU probe's outcome (pmu.h). The governor, SMT state, THP setting, clock source and
 * mitigations are sysinfo.c's and kernel_facts.c's.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include "core/pmu.h"
#include "core/sysinfo.h"

#define CPU_SYS "/sys/devices/system/cpu"

/* The cpuidle states of CPU 0 as "NAME:LATENCYus,..." ("POLL:0us,C1:2us"). */
static void idle_states(char *out, size_t len)
{
	out[0] = 0;
	for (int st = 0; st < 16; st++) {
		char path[96], name[64], lat[32];
		snprintf(path, sizeof path, CPU_SYS "/cpu0/cpuidle/state%d/name", st);
		if (!read_line_file(path, name, sizeof name))
			break;
		snprintf(path, sizeof path, CPU_SYS "/cpu0/cpuidle/state%d/latency", st);
		if (!read_line_file(path, lat, sizeof lat))
			snprintf(lat, sizeof lat, "?");
		for (char *c = name; *c; c++)
			if (*c == ' ' || *c == ',')
				*c = '_';
		size_t l = strlen(out);
		snprintf(out + l, len - l, "%s%s:%sus", l ? "," : "", name, lat);
	}
}

/* cpufreq boost: the generic switch, else intel_pstate's no_turbo turned round. */
static const char *boost(char *buf, int len)
{
	if (read_line_file(CPU_SYS "/cpufreq/boost", buf, len))
		return strcmp(buf, "1") == 0 ? "on" : "off";
	if (read_line_file(CPU_SYS "/intel_pstate/no_turbo", buf, len))
		return strcmp(buf, "0") == 0 ? "on" : "off";
	return NULL;
}

/* The preemption model: debugfs's choice (the one in parentheses), else what the kernel's
 * version string says (PREEMPT_RT, PREEMPT_DYNAMIC, PREEMPT), else its config file. */
static const char *preempt(char *buf, int len)
{
	char line[256];
	if (read_line_file("/sys/kernel/debug/sched/preempt", line, sizeof line)) {
		char *a = strchr(line, '('), *b = a ? strchr(a, ')') : NULL;
		if (a && b) {
			*b = 0;
			snprintf(buf, (size_t)len, "%s", a + 1);
			return buf;
		}
	}
	struct utsname u;
	if (uname(&u) == 0) {
		static const char *const words[] = { "PREEMPT_RT", "PREEMPT_DYNAMIC", "PREEMPT", NULL };
		for (int i = 0; words[i]; i++)
			if (strstr(u.version, words[i])) {
				snprintf(buf, (size_t)len, "%s (uname)", words[i]);
				return buf;
			}
		char path[128];
		snprintf(path, sizeof path, "/boot/config-%s", u.release);
		FILE *f = fopen(path, "r");
		const char *model = NULL;
		while (f && fgets(line, sizeof line, f) && !model)
			if (strcmp(line, "CONFIG_PREEMPT_NONE=y\n") == 0)
				model = "none";
			else if (strcmp(line, "CONFIG_PREEMPT_VOLUNTARY=y\n") == 0)
				model = "voluntary";
			else if (strcmp(line, "CONFIG_PREEMPT=y\n") == 0)
				model = "full";
		if (f)
			fclose(f);
		if (model) {
			snprintf(buf, (size_t)len, "%s (config)", model);
			return buf;
		}
	}
	return NULL;
}

static const char *microcode(char *buf, int len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	const char *got = NULL;
	while (f && !got && fgets(line, sizeof line, f))
		if (strncmp(line, "microcode", 9) == 0 && strchr(line, ':')) {
			snprintf(buf, (size_t)len, "%s", strchr(line, ':') + 2);
			buf[strcspn(buf, "\n")] = 0;
			got = buf;
		}
	if (f)
		fclose(f);
	return got;
}

int host_facts(struct fact *f, int n, int max)
{
	char buf[512];
	const char *v;
	if (read_line_file(CPU_SYS "/cpuidle/current_driver", buf, sizeof buf))
		n = fact_add(f, n, max, "idle_driver", buf);
	idle_states(buf, sizeof buf);
	n = fact_add(f, n, max, "idle_states", buf);
	if ((v = boost(buf, sizeof buf)))
		n = fact_add(f, n, max, "boost", v);
	if (read_line_file(CPU_SYS "/smt/control", buf, sizeof buf))
		n = fact_add(f, n, max, "smt_control", buf);
	if (read_line_file("/sys/kernel/mm/transparent_hugepage/defrag", buf, sizeof buf)) {
		char *a = strchr(buf, '['), *b = a ? strchr(a, ']') : NULL;
		if (a && b) {
			*b = 0;
			n = fact_add(f, n, max, "thp_defrag", a + 1);
		}
	}
	if ((v = preempt(buf, sizeof buf)))
		n = fact_add(f, n, max, "preempt", v);
	if ((v = microcode(buf, sizeof buf)))
		n = fact_add(f, n, max, "microcode", v);
	return pmu_facts(f, n, max);
}
