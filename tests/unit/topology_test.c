/* topology_test.c — the relation of two CPUs from a made-up sysfs tree (PLUMB_SYSFS_CPU): every
 * level found where it is the closest one shared, a cluster that is only the core not taken for a
 * level, and "" (unknown) where the tree says too little, never a guess. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "core/topology.h"
#include "test.h"

static char root[] = "/tmp/plumb-topology-test.XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[512], dir[512];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	/* every parent directory */
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		snprintf(dir, sizeof dir, "%.*s", (int)(p - path), path);
		mkdir(dir, 0755);
	}
	FILE *f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s\n", text);
		fclose(f);
	}
}

/* Package 0: CPUs 0-7, cores {0,1} {2,3} {4,5} {6,7}, clusters 0-3 and 4-5 (a cluster that is
 * only its core) and 6-7, last-level caches 0-5 and 6-7. Package 1: CPUs 8 and 9, whose cache
 * directories are missing. CPU 10 has no topology directory at all. */
static void make_tree(void)
{
	static const char *core[] = { "0-1", "0-1", "2-3", "2-3", "4-5", "4-5", "6-7", "6-7", "8", "9" };
	static const char *cluster[] = { "0-3", "0-3", "0-3", "0-3", "4-5", "4-5", "6-7", "6-7", "8", "9" };
	for (int c = 0; c < 10; c++) {
		char rel[128], v[16];
		snprintf(rel, sizeof rel, "cpu%d/topology/core_cpus_list", c);
		put(rel, core[c]);
		snprintf(rel, sizeof rel, "cpu%d/topology/cluster_cpus_list", c);
		put(rel, cluster[c]);
		snprintf(rel, sizeof rel, "cpu%d/topology/physical_package_id", c);
		snprintf(v, sizeof v, "%d", c < 8 ? 0 : 1);
		put(rel, v);
		if (c >= 8)
			continue;
		/* an L1 instruction cache private to the core, and the last level */
		snprintf(rel, sizeof rel, "cpu%d/cache/index0/type", c);
		put(rel, "Instruction");
		snprintf(rel, sizeof rel, "cpu%d/cache/index0/level", c);
		put(rel, "1");
		snprintf(rel, sizeof rel, "cpu%d/cache/index0/shared_cpu_list", c);
		put(rel, "0-9");
		snprintf(rel, sizeof rel, "cpu%d/cache/index3/type", c);
		put(rel, "Unified");
		snprintf(rel, sizeof rel, "cpu%d/cache/index3/level", c);
		put(rel, "3");
		snprintf(rel, sizeof rel, "cpu%d/cache/index3/shared_cpu_list", c);
		put(rel, c < 6 ? "0-5" : "6-7");
	}
}

TEST(topology_from_sysfs_tree)
{
	CHECK(mkdtemp(root) != NULL);
	make_tree();
	setenv("PLUMB_SYSFS_CPU", root, 1);
	CHECK(strcmp(cpu_pair_topology(0, 1), "core") == 0);
	CHECK(strcmp(cpu_pair_topology(1, 0), "core") == 0);
	CHECK(strcmp(cpu_pair_topology(0, 2), "cluster") == 0);
	CHECK(strcmp(cpu_pair_topology(4, 0), "llc") == 0);    /* 4's cluster is its core */
	CHECK(strcmp(cpu_pair_topology(0, 4), "llc") == 0);
	CHECK(strcmp(cpu_pair_topology(0, 6), "package") == 0);
	CHECK(strcmp(cpu_pair_topology(0, 8), "other-package") == 0);
	CHECK(strcmp(cpu_pair_topology(8, 0), "other-package") == 0);
	CHECK(strcmp(cpu_pair_topology(8, 9), "") == 0);       /* no cache information */
	CHECK(strcmp(cpu_pair_topology(0, 10), "") == 0);      /* 10 has no topology */
	CHECK(strcmp(cpu_pair_topology(10, 0), "") == 0);
	CHECK(strcmp(topology_words("llc"), "same last-level cache") == 0);
	CHECK(strcmp(topology_words(""), "unknown") == 0);
	unsetenv("PLUMB_SYSFS_CPU");
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}
