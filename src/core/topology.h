/*
 * topology.h — how two CPUs are related, from sysfs (topology.c).
 */
#ifndef PLUMB_TOPOLOGY_H
#define PLUMB_TOPOLOGY_H

/* The closest level CPUs a and b share: "core" (SMT siblings), "cluster", "llc" (the last-level
 * cache), "package" (the same socket, no shared cache), "other-package"; "" when sysfs does not
 * say. The string is static. */
const char *cpu_pair_topology(int a, int b);
/* The id in words for people ("same core (SMT siblings)"); "unknown" for "" or an unknown id. */
const char *topology_words(const char *t);

#endif
