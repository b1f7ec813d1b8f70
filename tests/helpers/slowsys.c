/*
 * slowsys.c — test helper: `slowsys N[:LEN] COMMAND [ARGS...]` runs COMMAND with every system call
 * made dearer and nothing else. It sets no_new_privs and installs N seccomp filters of 4096
 * instructions each (the kernel's per-filter maximum) that load the call's first argument
 * again and again and then allow the call (reading an argument keeps the kernel from caching
 * the filter's answer per syscall number, which it does for filters that only read the number): the kernel runs every filter on every system call of the
 * process and of all its children, so each call pays N × 4096 BPF instructions and the
 * program's own computation pays nothing. tests/cli/ab.sh uses it to check that `plumb ab`
 * flags system-call metrics and no others; bench/verdicts.sh uses `slowsys 1:LEN` (one filter of
 * LEN instructions) for a slowdown of 10-30 %. Exit 2 when the kernel refuses (no seccomp).
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define FILTER_LEN 4096

int main(int argc, char **argv)
{
	const char *colon = argc >= 2 ? strchr(argv[1], ':') : NULL;
	int len = colon ? atoi(colon + 1) : FILTER_LEN;
	if (argc < 3 || atoi(argv[1]) < 1 || atoi(argv[1]) > 8 || len < 1 || len > FILTER_LEN) {
		fprintf(stderr, "usage: slowsys N[:LEN] COMMAND [ARGS...]  (N 1-8 filters of LEN "
				"1-4096 instructions; 1 = allow at once, which the kernel caches: only the cost of entering seccomp)\n");
		return 2;
	}
	static struct sock_filter f[FILTER_LEN];
	for (int i = 0; i < len - 1; i++)
		f[i] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						    offsetof(struct seccomp_data, args[0]));
	f[len - 1] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { .len = (unsigned short)len, .filter = f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		fprintf(stderr, "slowsys: no_new_privs: %s\n", strerror(errno));
		return 2;
	}
	for (int n = atoi(argv[1]); n > 0; n--)
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
			fprintf(stderr, "slowsys: seccomp filter: %s\n", strerror(errno));
			return 2;
		}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "slowsys: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
