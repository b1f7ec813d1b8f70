/*
 * emulation.c — is this binary running under user-mode emulation (qemu-user, binfmt_misc)? The
 * emulator passes the host's /proc/cpuinfo through, so the CPU it describes is another
 * architecture than the one the binary was built for: an aarch64 binary reading an AMD EPYC's
 * "vendor_id" and "flags". Then the CPU model, the nominal clock and a measured clock are the
 * host's or the emulator's, never the target's, and the run says so (sysinfo.c, clock_watch.c).
 */
#include <stdio.h>
#include <string.h>
#include "core/arch.h"
#include "core/sysinfo.h"

/* The architecture family a name or a cpuinfo line belongs to. */
static const char *family_of_arch(const char *a)
{
	if (!strcmp(a, "x86_64") || !strcmp(a, "i386"))
		return "x86";
	if (!strcmp(a, "aarch64") || !strcmp(a, "arm"))
		return "arm";
	if (!strcmp(a, "riscv"))
		return "riscv";
	return NULL;
}

static const char *family_of_line(const char *l)
{
	static const char *const x86_vendors[] = { "GenuineIntel", "AuthenticAMD", "HygonGenuine",
						   "CentaurHauls", "  Shanghai  ", NULL };
	if (!strncmp(l, "vendor_id", 9)) {
		for (int i = 0; x86_vendors[i]; i++)
			if (strstr(l, x86_vendors[i]))
				return "x86";
		return NULL;
	}
	if (!strncmp(l, "flags", 5) && strstr(l, " sse2"))
		return "x86";
	if (!strncmp(l, "CPU implementer", 15) || !strncmp(l, "CPU architecture", 16))
		return "arm";
	if (!strncmp(l, "isa", 3) && strstr(l, ": rv"))
		return "riscv";
	return NULL;
}

int emulation_from_cpuinfo(const char *binary_arch, FILE *cpuinfo, char *host, size_t len)
{
	const char *bin = family_of_arch(binary_arch), *cpu = NULL;
	char line[4096];
	while (!cpu && fgets(line, sizeof line, cpuinfo))
		cpu = family_of_line(line);
	if (!bin || !cpu || !strcmp(bin, cpu))
		return 0;
	snprintf(host, len, "%s", cpu);
	return 1;
}

int sys_emulated(char *how, size_t len, char *host, size_t hostlen)
{
	static int known = -1;
	static char h[16], w[32];
	if (known < 0) {
		FILE *f = fopen("/proc/cpuinfo", "r");
		known = f ? emulation_from_cpuinfo(arch_name(), f, h, sizeof h) : 0;
		if (f)
			fclose(f);
		/* the kernel names the process after the emulator when it was started by hand
		 * (qemu-aarch64 bin/plumb); through binfmt_misc it carries the binary's name */
		char comm[64];
		int q = read_line_file("/proc/self/comm", comm, sizeof comm) &&
			!strncmp(comm, "qemu-", 5);
		known |= q;
		snprintf(w, sizeof w, "%s", q ? "qemu-user" : known ? "user-mode" : "");
	}
	if (how)
		snprintf(how, len, "%s", w);
	if (host)
		snprintf(host, hostlen, "%s", h);
	return known;
}
