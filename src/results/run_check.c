/*
 * run_check.c — the one test of whether a run can be shown (run.h: run_check): what every
 * reader applies to what it read (JSON and lmbench files, SQLite and PostgreSQL stores), what
 * every writer of a store applies before saving, and what `plumb runs --check` reports.
 *
 * Two kinds of limits. Lengths: a label or a host is a name, not a document; a fact or a
 * result's parameters are a line, not megabytes — a run breaking one is refused, never imported
 * or printed whole. Physics: counts and times of a measurement cannot be negative; a value is a
 * finite number, neither zero nor negative unless its row's sign rule allows (core/metrics.h),
 * within the range its unit allows (unit_ranges); rounds number at least one.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "core/escape.h"
#include "core/metrics.h"
#include "core/util.h"
#include "results/run.h"

#define RUN_ROUNDS_MAX 1000000
#define RUN_VERSION_MAX 1000000
#define RUN_FACTS_MAX 100000

/* The metric's sign rule (its row's, core/metrics.h: a steady figure has its row's). A metric
 * plumb does not know: ANY_SIGN, only its finiteness can be judged. */
static enum sign_rule sign_of(const struct metric_def *d)
{
	return d ? d->sign : ANY_SIGN;
}

static int too_long(const char *what, const char *s, size_t max, char *why, size_t len)
{
	size_t n = s ? strnlen(s, max + 1) : 0;
	if (n <= max)
		return 0;
	snprintf(why, len, "%s is longer than %zu bytes", what, max);
	return 1;
}

int run_text_check(const char *what, const char *s, char *why, size_t len)
{
	return too_long(what, s, RUN_TEXT_MAX, why, len) ? -1 : 0;
}

/* The values a unit can hold, generous: a figure outside is no machine's, fast or slow, but a
 * broken clock, a corrupted file or a hand-made row (1e-300 us, 1e308 us). Every bound is
 * many orders of magnitude past anything measured (a ps to hours; a byte/s to a PB/s). */
static const struct unit_range {
	const char *unit;
	double lo, hi;
} unit_ranges[] = {
	{ "ns", 1e-3, 1e13 },   { "us", 1e-6, 1e10 },  { "ms", 1e-9, 1e7 },
	{ "MB/s", 1e-6, 1e9 },  { "KB/s", 1e-3, 1e12 }, { "/s", 1e-6, 1e12 },
	{ "MHz", 1, 1e6 },      { "MiB", 1e-6, 1e12 }, { "bytes", 1, 1e18 },
	{ "pages", 1, 1e12 },   { "x", 1e-6, 1e6 },
};
/* a metric and unit plumb does not know (another tool's file): only finiteness is judged */
static const struct unit_range any_unit = { "", 0, INFINITY };

static const struct unit_range *range_of(const char *unit)
{
	for (size_t i = 0; unit && i < sizeof unit_ranges / sizeof *unit_ranges; i++)
		if (!strcmp(unit, unit_ranges[i].unit))
			return &unit_ranges[i];
	return &any_unit;
}

int value_check(const char *metric, const char *unit, double v, char *why, size_t len)
{
	const struct metric_def *d = metric_find(metric);
	if (d)
		unit = d->unit; /* the unit plumb declares, not the one a file claims */
	enum sign_rule sign = sign_of(d);
	int signed_ok = sign == ANY_SIGN;
	const struct unit_range *u = range_of(unit);
	const char *bad = NULL;
	if (isnan(v))
		bad = "no value (NaN or NULL)";
	else if (isinf(v))
		bad = "not a finite number";
	else if (v < 0 && !signed_ok)
		bad = "negative, which this metric cannot be";
	else if (v == 0 && sign == POSITIVE)
		bad = "zero, which this metric cannot be";
	else if (fabs(v) > u->hi || (v != 0 && !signed_ok && fabs(v) < u->lo))
		bad = "outside the plausible range";
	if (!bad)
		return 0;
	char name[96];
	term_str(metric ? metric : "", name, sizeof name);
	char range[96] = "";
	if (*u->unit)
		snprintf(range, sizeof range, " (%g to %g %s)", signed_ok ? -u->hi : u->lo, u->hi,
			 u->unit);
	snprintf(why, len, "%s: value %.6g%s%s is %s%s", name, v, *u->unit ? " " : "", u->unit, bad,
		 range);
	return -1;
}

static int check_result(const struct result *p, char *why, size_t len)
{
	char name[96];
	if (!p->metric || !*p->metric) {
		snprintf(why, len, "a result without a metric name");
		return -1;
	}
	if (too_long("a metric name", p->metric, RUN_TEXT_MAX, why, len))
		return -1;
	term_str(p->metric, name, sizeof name);
	if (too_long("the parameters of a result", p->params, RUN_FACT_MAX, why, len) ||
	    too_long("the info of a result", p->info, RUN_FACT_MAX, why, len) ||
	    too_long("a unit", p->unit, RUN_TEXT_MAX, why, len))
		return -1;
	if (isinf(p->x) || p->version < 0 || p->version > RUN_VERSION_MAX) {
		snprintf(why, len, "%s: x %g or method version %d cannot be", name, p->x, p->version);
		return -1;
	}
	if (value_check(p->metric, p->unit, p->value, why, len))
		return -1;
	for (size_t k = 0; k < p->nsamples; k++) {
		const struct sample *s = &p->samples[k];
		/* a sample's count of operations is 0 only when nothing timed it (lmbench's files
		 * give the value alone): then it has no elapsed time either */
		int counted = s->iters >= 1 && s->iters <= INT64_MAX;
		int timed = !isnan(s->elapsed_ns);
		if (value_check(p->metric, p->unit, s->value, why, len)) {
			char one[200];
			snprintf(one, sizeof one, "%s", why);
			snprintf(why, len, "sample %zu: %s", k + 1, one);
			return -1;
		}
		if ((timed && !counted) || (!timed && s->iters > INT64_MAX) || isinf(s->elapsed_ns) ||
		    s->elapsed_ns < 0 || s->round < 0 || s->round > RUN_ROUNDS_MAX) {
			snprintf(why, len, "%s: sample %zu (value %g, %llu iterations, %g ns, round %d) "
				 "cannot be", name, k + 1, s->value, (unsigned long long)s->iters,
				 s->elapsed_ns, s->round);
			return -1;
		}
	}
	return 0;
}

int run_check(const struct run *r, char *why, size_t len)
{
	if (too_long("the label", r->label, RUN_TEXT_MAX, why, len) ||
	    too_long("the host", r->host, RUN_TEXT_MAX, why, len) ||
	    too_long("the profile", r->profile, RUN_TEXT_MAX, why, len) ||
	    too_long("the source", r->source, RUN_FACT_MAX, why, len) ||
	    too_long("the start time", r->started, RUN_TIME_MAX, why, len) ||
	    too_long("the end time", r->ended, RUN_TIME_MAX, why, len))
		return -1;
	if (r->rounds < 1 || r->rounds > RUN_ROUNDS_MAX) {
		snprintf(why, len, "%d rounds cannot be (1 to %d)", r->rounds, RUN_ROUNDS_MAX);
		return -1;
	}
	if (r->facts.n > RUN_FACTS_MAX) {
		snprintf(why, len, "%zu facts, more than %d", r->facts.n, RUN_FACTS_MAX);
		return -1;
	}
	for (size_t i = 0; i < r->facts.n; i++) {
		char key[96];
		if (too_long("a fact's name", r->facts.v[i].key, RUN_TEXT_MAX, why, len))
			return -1;
		term_str(r->facts.v[i].key, key, sizeof key);
		char what[128];
		snprintf(what, sizeof what, "fact %s", key);
		if (too_long(what, r->facts.v[i].val, RUN_FACT_MAX, why, len))
			return -1;
	}
	for (size_t i = 0; i < r->results.n; i++)
		if (check_result(&r->results.v[i], why, len))
			return -1;
	return 0;
}

const char *run_what(const struct run *r, char *buf, size_t len)
{
	char uid[48];
	term_str(r->uid ? r->uid : "", uid, sizeof uid);
	if (r->id && *uid)
		snprintf(buf, len, "run %ld (uid %s)", r->id, uid);
	else if (r->id)
		snprintf(buf, len, "run %ld", r->id);
	else if (*uid)
		snprintf(buf, len, "run %s", uid);
	else
		snprintf(buf, len, "a run");
	return buf;
}
