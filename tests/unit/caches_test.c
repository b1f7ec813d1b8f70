/* caches_test.c — cache levels from CPUID register values (Intel's leaf 4, AMD's 0x8000001D and
 * its older 0x80000005/6, values read from real CPUs), the sources' order and the testing knob,
 * the effective last level, and the kernel command line as a fact. */
#include <stdlib.h>
#include <string.h>
#include "core/cpuid.h"
#include "core/sysinfo.h"
#include "test.h"

TEST(cpuid_leaf4_intel)
{
	/* an Intel core's L1d: 8 ways x 1 partition x 64-byte lines x 64 sets, 2 threads */
	struct cpuid_regs l1 = { 0x1c004121, 0x01c0003f, 0x0000003f, 0 };
	/* its L2 (4 ways x 1024 sets) and L3 (16 ways x 8192 sets, up to 16 ids) */
	struct cpuid_regs l2 = { 0x1c004143, 0x00c0003f, 0x000003ff, 0 };
	struct cpuid_regs l3 = { 0x1c03c163, 0x03c0003f, 0x00001fff, 0x6 };
	struct cpuid_regs li = { 0x1c004122, 0x01c0003f, 0x0000003f, 0 };
	struct cpuid_regs end = { 0, 0, 0, 0 };
	struct cache_level c;
	CHECK(cpuid_decode_deterministic(&l1, &c) == 1);
	CHECK(c.level == 1 && c.size == 32768 && c.line == 64 && c.shared_cpus == 2);
	CHECK(!strcmp(c.type, "Data") && !strcmp(c.source, "cpuid"));
	CHECK(cpuid_decode_deterministic(&l2, &c) == 1);
	CHECK(c.level == 2 && c.size == 262144 && !strcmp(c.type, "Unified"));
	CHECK(cpuid_decode_deterministic(&l3, &c) == 1);
	CHECK(c.level == 3 && c.size == 8u << 20 && c.shared_cpus == 16);
	CHECK(cpuid_decode_deterministic(&li, &c) == 0); /* instruction cache: skipped */
	CHECK(cpuid_decode_deterministic(&end, &c) == -1);
}

TEST(cpuid_8000001d_amd)
{
	/* a Zen 2 CCX's L3: 16 ways x 64-byte lines x 16384 sets = 16 MiB, shared by 16 ids */
	struct cpuid_regs l3 = { 0x0003c163, 0x03c0003f, 0x00003fff, 0x1 };
	struct cache_level c;
	CHECK(cpuid_decode_deterministic(&l3, &c) == 1);
	CHECK(c.level == 3 && c.size == 16u << 20 && c.line == 64 && c.shared_cpus == 16);
}

TEST(cpuid_amd_legacy)
{
	/* a KVM guest on an AMD EPYC (family 26) without topology extensions: L1d 48 KiB, L2
	 * 1 MiB, L3 1016 x 512 KiB = 508 MiB (its host's whole L3) */
	struct cpuid_regs l5 = { 0xff60ff40, 0xff60ff40, 0x300c0140, 0x20080140 };
	struct cpuid_regs l6 = { 0x40802040, 0x60804040, 0x04006140, 0x0fe09140 };
	struct cache_level c[4];
	int n = cpuid_decode_amd_legacy(&l5, &l6, c, 4);
	CHECK(n == 3);
	CHECK(c[0].level == 1 && c[0].size == 49152 && c[0].line == 64);
	CHECK(c[1].level == 2 && c[1].size == 1048576 && c[1].line == 64);
	CHECK(c[2].level == 3 && c[2].size == 508ull << 20 && c[2].line == 64);
	CHECK(c[2].shared_cpus == 0); /* not known from these leaves */
	/* no L3 (EDX 0): two levels; max bounds what is filled */
	l6.edx = 0;
	CHECK(cpuid_decode_amd_legacy(&l5, &l6, c, 4) == 2);
	CHECK(cpuid_decode_amd_legacy(&l5, &l6, c, 1) == 1);
}

static void set_env(const char *k, const char *v)
{
	if (v)
		setenv(k, v, 1);
	else
		unsetenv(k);
}

TEST(cache_sources_knob_and_effective)
{
	char *old_src = getenv("PLUMB_CACHE_SOURCES") ? strdup(getenv("PLUMB_CACHE_SOURCES")) : NULL;
	char *old_knee = getenv("PLUMB_MEM_KNEE") ? strdup(getenv("PLUMB_MEM_KNEE")) : NULL;
	char *old_llc = getenv("PLUMB_LLC") ? strdup(getenv("PLUMB_LLC")) : NULL;
	struct cache_level c[8];
	char src[16];
	unsetenv("PLUMB_LLC");
	/* no source: nothing reported; a knee stands for the last level */
	setenv("PLUMB_CACHE_SOURCES", "none", 1);
	unsetenv("PLUMB_MEM_KNEE");
	CHECK(sys_caches(0, c, 8) == 0 && sys_llc_bytes() == 0);
	CHECK(sys_llc_effective(src, sizeof src) == 0);
	setenv("PLUMB_MEM_KNEE", "8M", 1);
	CHECK(sys_llc_effective(src, sizeof src) == 8u << 20 && !strcmp(src, "measured"));
	/* a reported 1 GiB last level (PLUMB_LLC) above the knee: the knee is the effective size */
	setenv("PLUMB_LLC", "1G", 1);
	CHECK(sys_llc_bytes() == 1u << 30);
	CHECK(sys_llc_effective(src, sizeof src) == 8u << 20 && !strcmp(src, "measured"));
	setenv("PLUMB_MEM_KNEE", "0", 1); /* measured, none found: the reported size stands */
	CHECK(sys_llc_effective(src, sizeof src) == 1u << 30 && !strcmp(src, "PLUMB_LLC"));
	unsetenv("PLUMB_LLC");
	/* every level found carries its source, levels ascending */
	unsetenv("PLUMB_CACHE_SOURCES");
	int n = sys_caches(0, c, 8);
	for (int i = 0; i < n; i++) {
		CHECK(!strcmp(c[i].source, "sysfs") || !strcmp(c[i].source, "cpuid") ||
		      !strcmp(c[i].source, "sysconf"));
		CHECK(c[i].size > 0 && (i == 0 || c[i].level > c[i - 1].level));
	}
#if defined(__x86_64__) || defined(__i386__)
	/* x86 without sysfs: what CPUID lists, all of it from CPUID */
	setenv("PLUMB_CACHE_SOURCES", "cpuid", 1);
	n = sys_caches(0, c, 8);
	for (int i = 0; i < n; i++)
		CHECK(!strcmp(c[i].source, "cpuid"));
#else
	setenv("PLUMB_CACHE_SOURCES", "cpuid", 1);
	CHECK(sys_caches(0, c, 8) == 0); /* no user-space CPUID for sizes */
#endif
	set_env("PLUMB_CACHE_SOURCES", old_src);
	set_env("PLUMB_MEM_KNEE", old_knee);
	set_env("PLUMB_LLC", old_llc);
	free(old_src);
	free(old_knee);
	free(old_llc);
}

TEST(kernel_cmdline_clean)
{
	char out[128];
	const char raw[] = "BOOT_IMAGE=/vmlinuz  ro\tquiet db.password=hunter2 api_TOKEN=abc "
			   "mitigations=off x=a\\b\x01 -- --auth-required\n";
	kernel_cmdline_clean(raw, sizeof raw - 1, out, sizeof out);
	CHECK(!strcmp(out, "BOOT_IMAGE=/vmlinuz ro quiet db.password=*** api_TOKEN=*** "
			   "mitigations=off x=a\\x5cb\\x01 -- --auth-required"));
	CHECK(!strstr(out, "hunter2"));
	/* too long: cut at a word, marked */
	char small[24];
	kernel_cmdline_clean(raw, sizeof raw - 1, small, sizeof small);
	CHECK(!strcmp(small, "BOOT_IMAGE=/vmlinuz ..."));
	CHECK(strlen(small) < sizeof small);
	kernel_cmdline_clean("", 0, small, sizeof small);
	CHECK(small[0] == 0);
}
