/*
 * pmu.h — the hardware counters' probe (docs/side-metrics.md). A counter that reads wrong is
 * worse than none: a guest may expose a PMU that reports a few thousand instructions a second
 * on a busy core. So before any hardware counter is read around a sample, the probe opens
 * cycles and instructions on this process (user space only: perf_event_paranoid 2 allows it),
 * runs a calibrated loop of PMU_PROBE_ITERS iterations of a known instruction count
 * (PMU_LOOP_INSNS each: x86-64 and AArch64 assembly) and keeps a counter only when
 *   instructions lie within a factor PMU_INSN_FACTOR of the known count, and
 *   cycles per nanosecond of the loop's wall time lie within 0.2 .. 10 (GHz).
 * Cache and dTLB misses are kept only beside accepted cycles and instructions, when they open.
 * The state is "none" (nothing kept), "partial" (some) or "full" (all four); what failed and
 * why is a fact, and nothing is printed or stored for a refused counter.
 * PLUMB_PMU_FAKE=implausible makes the probe see fabricated counts (3000 instructions and 10
 * cycles for the loop) so the refusal path runs on a machine without a PMU (tests/cli/side.sh).
 */
#ifndef PLUMB_PMU_H
#define PLUMB_PMU_H

#include <stdint.h>
#include "core/sysinfo.h"

#define PMU_PROBE_ITERS 2000000
#define PMU_INSN_FACTOR 2.0
#define PMU_GHZ_MIN 0.2
#define PMU_GHZ_MAX 10.0

enum pmu_state { PMU_NONE, PMU_PARTIAL, PMU_FULL };

struct pmu_probe {
	enum pmu_state state;
	int ok[4];          /* cycles, instructions, cache misses, dTLB misses accepted */
	char why[160];      /* the first refusal or failure ("" when full) */
};

/* The probe, run once per process and cached. */
const struct pmu_probe *pmu_probe(void);
/* The test: 1 when the counts of a loop of known_insns instructions lasting ns are plausible;
 * else 0 with the reason in why. */
int pmu_plausible(double insns, double cycles, double ns, double known_insns, char *why,
		  size_t len);
/* Open the accepted counters (inherit, user space) into hw[4]; -1 where none. */
void pmu_open_counters(int hw[4]);
/* The facts: pmu (none/partial/full), pmu_refused (why, when not full), perf_event_paranoid,
 * cpu_pmus (the CPU PMUs of /sys/bus/event_source/devices, "none"); appended at f[n]. */
int pmu_facts(struct fact *f, int n, int max);

#endif
