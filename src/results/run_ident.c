/* run_ident.c — what tells runs apart for a reader, and what must agree before runs are pooled
 * (run_ident.h). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "core/escape.h"
#include "results/run_ident.h"

const char *run_arch(const struct run *r)
{
	const char *a = kv_get(&r->facts, "arch");
	return a ? a : kv_get(&r->facts, "machine");
}

/* The compiler's name and version from its --version line: "cc (Debian 12.2.0-14) 12.2.0" is
 * gcc 12.2.0, "Debian clang version 14.0.6" clang 14.0.6. */
static void compiler_short(const char *cc, char *buf, size_t len)
{
	const char *name = strstr(cc, "clang") ? "clang"
			   : strstr(cc, "gcc") || strstr(cc, "GCC") || !strncmp(cc, "cc ", 3) ? "gcc"
			   : NULL;
	char first[64] = "";
	if (!name) {
		sscanf(cc, "%63s", first);
		name = first;
	}
	/* the version: the last word that starts with a digit and holds a dot */
	const char *ver = NULL;
	size_t vlen = 0;
	for (const char *p = cc; *p;) {
		while (*p && isspace((unsigned char)*p))
			p++;
		size_t l = strcspn(p, " \t");
		if (l && isdigit((unsigned char)*p) && memchr(p, '.', l)) {
			ver = p;
			vlen = l;
		}
		p += l;
	}
	snprintf(buf, len, "%s%s%.*s", name, ver ? " " : "", (int)vlen, ver ? ver : "");
}

/* The flags that change the code: -O*, -m*, -f*, -static, -g (not warnings, defines, paths). */
static int flag_kept(const char *w, size_t l)
{
	return (l >= 2 && (!strncmp(w, "-O", 2) || !strncmp(w, "-m", 2) || !strncmp(w, "-f", 2))) ||
	       (l == 7 && !strncmp(w, "-static", 7));
}

const char *run_build_short(const struct run *r, char *buf, size_t len)
{
	const char *cc = kv_get(&r->facts, "build_cc"), *fl = kv_get(&r->facts, "build_cflags");
	if (!cc && !fl) {
		snprintf(buf, len, "-");
		return buf;
	}
	char c[128] = "?";
	if (cc)
		compiler_short(cc, c, sizeof c);
	size_t n = (size_t)snprintf(buf, len, "%s", c);
	for (const char *p = fl ? fl : ""; *p && n < len;) {
		while (*p && isspace((unsigned char)*p))
			p++;
		size_t l = strcspn(p, " \t");
		if (l && flag_kept(p, l))
			n += (size_t)snprintf(buf + n, len - n, " %.*s", (int)l, p);
		p += l;
	}
	return buf;
}

const char *run_scope(const struct run *r)
{
	const char *only = kv_get(&r->facts, "opt.only");
	if (only)
		return only;
	return r->source && !strcmp(r->source, "plumb") && r->profile &&
			       strcmp(r->profile, "tool") != 0
		       ? "all"
		       : "-";
}

static double iso_time(const char *s)
{
	struct tm tm = { 0 };
	if (!s || sscanf(s, "%d-%d-%dT%d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
			 &tm.tm_min, &tm.tm_sec) != 6)
		return NAN;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm);
}

double run_duration_s(const struct run *r)
{
	double d = iso_time(r->ended) - iso_time(r->started);
	return d >= 0 ? d : NAN;
}

const char *run_duration_str(const struct run *r, char *buf, size_t len)
{
	double d = run_duration_s(r);
	if (isnan(d))
		snprintf(buf, len, "-");
	else if (d < 60)
		snprintf(buf, len, "%.0fs", d);
	else if (d < 3600)
		snprintf(buf, len, "%dm%02ds", (int)d / 60, (int)d % 60);
	else
		snprintf(buf, len, "%dh%02dm", (int)d / 3600, (int)d % 3600 / 60);
	return buf;
}

const char *run_who(const struct run *r, size_t i, char *buf, size_t len)
{
	char lab[RUN_TEXT_MAX * 4 + 16] = "";
	if (r->label)
		snprintf(lab, sizeof lab, " (label %s)", r->label);
	if (r->id > 0)
		snprintf(buf, len, "run %ld%s", r->id, lab);
	else
		snprintf(buf, len, "file run %zu%s", i + 1, lab);
	return buf;
}

/* The facts pooled runs must share, in the order a difference is reported; machine: the fact
 * says which machine measured (runs_machine_split), not which build. */
static const struct {
	const char *key, *what;
	int machine;
} pool_facts[] = {
	{ NULL, "architecture", 1 }, /* run_arch */
	{ "cpu_model", "CPU model", 1 },
	{ "build_cc", "compiler", 0 },
	{ "build_cflags", "compiler flags", 0 },
	{ "kernel", "kernel", 1 },
	{ "emulated", "emulation", 1 },
};

static const char *pool_fact(const struct run *r, size_t k)
{
	if (!pool_facts[k].key)
		return run_arch(r);
	const char *v = kv_get(&r->facts, pool_facts[k].key);
	/* a plumb run (it knows its build) without the emulated fact ran natively; an lmbench
	 * file says nothing either way */
	if (!v && !strcmp(pool_facts[k].key, "emulated") && kv_get(&r->facts, "build_cc"))
		v = "no";
	return v;
}

/* which: 1 every fact pooling needs, 2 the machine's alone (not the build); without kernel
 * the kernel is left out. The hostname is never one: a container gets a new one each start. */
static int facts_split(struct run *const *runs, size_t n, int which, int kernel, char *why,
		       size_t len)
{
	for (size_t k = 0; k < sizeof pool_facts / sizeof pool_facts[0]; k++) {
		if (which == 2 && !pool_facts[k].machine)
			continue;
		if (!kernel && pool_facts[k].key && !strcmp(pool_facts[k].key, "kernel"))
			continue;
		size_t first = n;
		for (size_t i = 0; i < n; i++) {
			const char *v = pool_fact(runs[i], k);
			if (!v)
				continue;
			if (first == n) {
				first = i;
				continue;
			}
			const char *u = pool_fact(runs[first], k);
			if (!strcmp(u, v))
				continue;
			char a[RUN_TEXT_MAX * 4 + 32], b[sizeof a], ua[200], vb[200];
			snprintf(why, len, "%s differs: %s has '%s', %s has '%s'", pool_facts[k].what,
				 run_who(runs[first], first, a, sizeof a), term_str(u, ua, sizeof ua),
				 run_who(runs[i], i, b, sizeof b), term_str(v, vb, sizeof vb));
			return 1;
		}
	}
	return 0;
}

int runs_pool_split(struct run *const *runs, size_t n, char *why, size_t len)
{
	return facts_split(runs, n, 1, 1, why, len);
}

int runs_machine_split(struct run *const *runs, size_t n, int kernel, char *why, size_t len)
{
	return facts_split(runs, n, 2, kernel, why, len);
}
