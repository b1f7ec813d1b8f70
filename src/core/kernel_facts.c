/*
 * kernel_facts.c — what the kernel does on every system call and timer read, which moves the
 * OS benchmarks between two kernels of one machine as much as any code change (a 3x system
 * call "regression" was mitigations and audit, not the kernel's code): the CPU vulnerabilities
 * and their mitigations, the kernel's command line, whether audit is on, the clock source.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/sysinfo.h"

#define VULN_DIR "/sys/devices/system/cpu/vulnerabilities"

/* A word of the command line whose value may be a secret (a password, a token, a key): its
 * value is replaced by *** so it never reaches a stored run. */
static int secret_name(const char *w, size_t len)
{
	static const char *const hints[] = { "pass", "pwd", "secret", "token", "key", "auth",
					     "cred", NULL };
	char low[64];
	if (len >= sizeof low)
		len = sizeof low - 1;
	for (size_t i = 0; i < len; i++)
		low[i] = (char)tolower((unsigned char)w[i]);
	low[len] = 0;
	for (int k = 0; hints[k]; k++)
		if (strstr(low, hints[k]))
			return 1;
	return 0;
}

void kernel_cmdline_clean(const char *raw, size_t n, char *out, size_t len)
{
	size_t o = 0, i = 0;
	out[0] = 0;
	while (i < n) {
		while (i < n && (isspace((unsigned char)raw[i]) || !raw[i]))
			i++;
		size_t s = i;
		while (i < n && raw[i] && !isspace((unsigned char)raw[i]))
			i++;
		if (i == s)
			break;
		const char *eq = memchr(raw + s, '=', i - s);
		size_t end = eq && secret_name(raw + s, (size_t)(eq - (raw + s))) ? (size_t)(eq - raw) + 1
										: i;
		char word[4096];
		size_t w = 0;
		for (size_t k = s; k < end && w + 5 < sizeof word; k++) {
			unsigned char ch = (unsigned char)raw[k];
			if (ch == '\\' || ch < 0x21 || ch > 0x7e)
				w += (size_t)snprintf(word + w, sizeof word - w, "\\x%02x", ch);
			else
				word[w++] = (char)ch;
		}
		if (end < i && w + 4 < sizeof word)
			w += (size_t)snprintf(word + w, sizeof word - w, "***");
		word[w] = 0;
		if (o + (o > 0) + w + 4 > len) { /* room for " ..." and the NUL */
			snprintf(out + o, len - o, "%s...", o ? " " : "");
			return;
		}
		o += (size_t)snprintf(out + o, len - o, "%s%s", o ? " " : "", word);
	}
}

/* audit=0|off / 1|on among the kernel's words (those before "--", which go to init), NULL
 * when not given. */
static const char *audit_param(const char *raw, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i && !isspace((unsigned char)raw[i - 1]))
			continue;
		if (n - i >= 2 && raw[i] == '-' && raw[i + 1] == '-' &&
		    (n - i == 2 || isspace((unsigned char)raw[i + 2])))
			break;
		if (n - i < 7 || strncmp(raw + i, "audit=", 6) != 0)
			continue;
		const char *v = raw + i + 6;
		if (*v == '0' || !strncmp(v, "off", 3))
			return "off (audit=0 on the kernel command line)";
		if (*v == '1' || !strncmp(v, "on", 2))
			return "on (audit=1 on the kernel command line)";
	}
	return NULL;
}

/* An auditd among the processes this one can see (a container sees only its own). */
static int auditd_running(void)
{
	DIR *d = opendir("/proc");
	if (!d)
		return 0;
	int found = 0, seen = 0;
	struct dirent *e;
	while (!found && seen < 100000 && (e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		char path[300], comm[64];
		snprintf(path, sizeof path, "/proc/%.200s/comm", e->d_name);
		found = read_line_file(path, comm, sizeof comm) && !strcmp(comm, "auditd");
		seen++;
	}
	closedir(d);
	return found;
}

/* Whether system calls pass through audit. Unprivileged processes cannot ask the kernel
 * (AUDIT_GET needs CAP_AUDIT_CONTROL), so this reads the signs there are, best first. */
static const char *audit_state(const char *raw, size_t n)
{
	const char *p = audit_param(raw, n);
	if (p)
		return p;
	if (access("/proc/self/loginuid", F_OK) != 0)
		return "off (kernel built without audit: no /proc/self/loginuid)";
	if (auditd_running())
		return "on (auditd is running)";
	return "unknown (kernel built with audit, no audit= on its command line, no auditd seen)";
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One fact per file of the vulnerabilities directory, vuln_NAME = its line, by name. */
static int vuln_facts(struct fact *f, int n, int max)
{
	DIR *d = opendir(VULN_DIR);
	if (!d)
		return n;
	char *names[128];
	int nn = 0;
	struct dirent *e;
	while (nn < 128 && (e = readdir(d)))
		if (e->d_name[0] != '.' && strlen(e->d_name) < 200 && (names[nn] = strdup(e->d_name)))
			nn++;
	closedir(d);
	qsort(names, (size_t)nn, sizeof *names, cmp_str);
	for (int i = 0; i < nn; i++) {
		char path[300], val[512], key[64];
		snprintf(path, sizeof path, VULN_DIR "/%s", names[i]);
		snprintf(key, sizeof key, "vuln_%s", names[i]);
		if (read_line_file(path, val, sizeof val))
			n = fact_add(f, n, max, key, val);
		free(names[i]);
	}
	return n;
}

int kernel_facts(struct fact *f, int n, int max)
{
	char buf[1024];
	if (read_line_file("/sys/devices/system/clocksource/clocksource0/current_clocksource", buf,
			   sizeof buf))
		n = fact_add(f, n, max, "clocksource", buf);
	char raw[8192];
	size_t len = 0;
	FILE *c = fopen("/proc/cmdline", "r");
	if (c) {
		len = fread(raw, 1, sizeof raw - 1, c);
		fclose(c);
	}
	raw[len] = 0;
	if (len) {
		kernel_cmdline_clean(raw, len, buf, sizeof buf);
		n = fact_add(f, n, max, "cmdline", buf);
	}
	n = fact_add(f, n, max, "audit", audit_state(raw, len));
	return vuln_facts(f, n, max);
}
