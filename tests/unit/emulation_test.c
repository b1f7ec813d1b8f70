/* emulation_test.c — user-mode emulation told from /proc/cpuinfo (core/emulation.c). */
#include <stdio.h>
#include <string.h>
#include "core/sysinfo.h"
#include "test.h"

static int judge(const char *arch, const char *cpuinfo, char *host, size_t len)
{
	FILE *f = fmemopen((void *)cpuinfo, strlen(cpuinfo), "r");
	int r = emulation_from_cpuinfo(arch, f, host, len);
	fclose(f);
	return r;
}

TEST(emulation_from_cpuinfo)
{
	static const char x86[] = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n"
				  "model name\t: AMD EPYC\nflags\t\t: fpu vme sse sse2 avx\n";
	static const char arm[] = "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\n"
				  "CPU implementer\t: 0x41\nCPU architecture: 8\n";
	static const char rv[] = "processor\t: 0\nhart\t\t: 0\nisa\t\t: rv64imafdc\n";
	char host[16] = "";
	/* an aarch64 binary under qemu-user, reading an AMD host's cpuinfo */
	CHECK(judge("aarch64", x86, host, sizeof host) == 1 && strcmp(host, "x86") == 0);
	CHECK(judge("arm", x86, host, sizeof host) == 1);
	CHECK(judge("x86_64", arm, host, sizeof host) == 1 && strcmp(host, "arm") == 0);
	CHECK(judge("aarch64", rv, host, sizeof host) == 1 && strcmp(host, "riscv") == 0);
	/* native: the same family, whatever the word size */
	CHECK(judge("x86_64", x86, host, sizeof host) == 0);
	CHECK(judge("i386", x86, host, sizeof host) == 0);
	CHECK(judge("aarch64", arm, host, sizeof host) == 0);
	CHECK(judge("arm", arm, host, sizeof host) == 0);
	CHECK(judge("riscv", rv, host, sizeof host) == 0);
	/* nothing to tell by: no claim */
	CHECK(judge("aarch64", "processor\t: 0\n", host, sizeof host) == 0);
	CHECK(judge("unknown", x86, host, sizeof host) == 0);
	CHECK(judge("aarch64", "", host, sizeof host) == 0);
}
