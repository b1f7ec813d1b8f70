/* run_cond.c — a run's conditions in words (run_cond.h): emulation and contention. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "results/run_cond.h"

const char *run_emulation(const struct run *r, char *buf, size_t len)
{
	const char *how = kv_get(&r->facts, "emulated");
	if (!how || !*how || !strcmp(how, "no"))
		return NULL;
	const char *host = kv_get(&r->facts, "emulation_host_arch");
	if (host && *host)
		snprintf(buf, len, "emulated (%s on %s)", how, host);
	else
		snprintf(buf, len, "emulated (%s)", how);
	return buf;
}

double run_contention_pct(const struct run *r)
{
	const char *v = kv_get(&r->facts, "contention_max_pct");
	if (!v || !*v)
		return NAN;
	char *end;
	double d = strtod(v, &end);
	return end != v && !*end && d >= 0 && d <= 100 ? d : NAN;
}

int run_contended(const struct run *r)
{
	const char *v = kv_get(&r->facts, "contended_steps");
	return v && *v;
}

const char *run_conditions(const struct run *r, char *buf, size_t len)
{
	char emu[160];
	const char *e = run_emulation(r, emu, sizeof emu);
	double c = run_contention_pct(r);
	char busy[96] = "";
	if (run_contended(r) && !isnan(c))
		snprintf(busy, sizeof busy, "contended (others up to %.0f%% of the CPUs)", c);
	else if (run_contended(r))
		snprintf(busy, sizeof busy, "contended");
	snprintf(buf, len, "%s%s%s", e ? e : "", e && *busy ? "; " : "", busy);
	return buf;
}

const char *run_conditions_short(const struct run *r, char *buf, size_t len)
{
	char emu[160], pct[32] = "";
	int e = run_emulation(r, emu, sizeof emu) != NULL, c = run_contended(r);
	if (c && !e && !isnan(run_contention_pct(r)))
		snprintf(pct, sizeof pct, " %.0f%%", run_contention_pct(r));
	snprintf(buf, len, "%s%s%s%s", e ? "emulated" : "", e && c ? ", " : "",
		 c ? "contended" : "", c ? pct : "");
	return buf;
}

/* "emulated (E on H)" or "emulated (E)": the emulation facts back. */
static void emulation_back(struct run *r, const char *s)
{
	const char *p = strstr(s, "emulated (");
	if (!p)
		return;
	p += strlen("emulated (");
	const char *end = strchr(p, ')');
	if (!end || end == p)
		return;
	char how[128];
	snprintf(how, sizeof how, "%.*s", (int)(end - p), p);
	char *on = strstr(how, " on ");
	if (on) {
		*on = 0;
		kv_set(&r->facts, "emulation_host_arch", on + 4);
	}
	kv_set(&r->facts, "emulated", how);
}

void run_conditions_back(struct run *r, const char *words)
{
	if (!words)
		return;
	emulation_back(r, words);
	const char *c = strstr(words, "contended");
	if (!c)
		return;
	kv_set(&r->facts, "contended_steps", "(named in the file's conditions only)");
	double pct;
	if (sscanf(c, "contended (others up to %lf%% of the CPUs)", &pct) == 1 && pct >= 0 &&
	    pct <= 100) {
		char buf[32];
		snprintf(buf, sizeof buf, "%.0f", pct);
		kv_set(&r->facts, "contention_max_pct", buf);
	}
}
