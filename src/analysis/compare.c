/*
 * compare.c — builds `plumb compare`'s table: which points to compare, each side's round values,
 * the tests and their correction, the verdicts, the facts that differ, the order of rows.
 * Printing is in compare_fmt.c. Design and its reasons: docs/compare.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare.h"
#include "analysis/compare_cond.h"
#include "analysis/compare_priv.h"
#include "core/point_index.h"
#include "core/stats.h"
#include "core/util.h"

void cmp_opts_default(struct cmp_opts *o)
{
	o->alpha = 0.05;
	o->min_effect = 3;
	o->corr = CORR_BH;
	o->all = 0;
	o->interim = 0;
}


static int near_x(double a, double b, double tol) { return fabs(a - b) <= tol * fabs(b); }

/* Whether r is at one of the abscissas its row lists among lmbench's summary points (and, when
 * the row names a parameter, in the series with that parameter's value). */
static int listed_point(const struct metric_summary *p, const struct result *r)
{
	if (p->param) {
		char b[32];
		if (!param_get(r->params, p->param, b, sizeof b) || atol(b) != p->param_is)
			return 0;
	}
	for (size_t i = 0; i < sizeof p->x / sizeof *p->x && p->x[i] > 0; i++)
		if (p->tol > 0 ? near_x(r->x, p->x[i], p->tol) : r->x == p->x[i])
			return 1;
	return 0;
}

int cmp_summary_point(const struct result *r, double largest_x)
{
	if (isnan(r->x))
		return 1;
	/* the points lmbench's tables read, from the metric's row (a steady twin has its row's) */
	const struct metric_def *d = metric_find(r->metric);
	enum summary_at at = d ? d->summary.at : SUMMARY_LAST;
	if ((at == SUMMARY_LISTED || at == SUMMARY_LISTED_OR_LAST) && listed_point(&d->summary, r))
		return 1;
	if (at == SUMMARY_LISTED)
		return 0;
	/* every other series: its last point, as getsummary's LAST() reads it */
	return x_same(r->x, largest_x);
}

static int side_has(const struct side *s, const struct result *r, double x)
{
	for (size_t i = 0; i < s->nruns; i++)
		if (cmp_find_point(s->runs[i], r->metric, r->params, x))
			return 1;
	return 0;
}

/* For each result of run, the "last point" of its series for this comparison: the largest x
 * that every side measured (runs made with different size lists, e.g. a 256 MB and a 128 MB
 * lmbench run, then compare at 128 MB instead of showing two half-empty rows); the series'
 * own largest x when no x is common to all sides. One pass over the run, the series found by
 * hash (a scan per point made this quadratic). */
static double *last_xs(const struct cmp_table *t, const struct run *run)
{
	size_t n = run->results.n;
	struct point_index series;
	pidx_init(&series, PIDX_SERIES);
	size_t *first = xmalloc((n ? n : 1) * sizeof *first);
	double *common = xmalloc((n ? n : 1) * sizeof *common);
	double *largest = xmalloc((n ? n : 1) * sizeof *largest);
	for (size_t i = 0; i < n; i++) {
		const struct result *q = &run->results.v[i];
		size_t f = pidx_find(&series, q->metric, q->params, NAN);
		if (f == (size_t)-1) {
			pidx_add(&series, q->metric, q->params, NAN, i);
			f = i;
			common[f] = largest[f] = NAN;
		}
		first[i] = f;
		if (isnan(q->x))
			continue;
		if (isnan(largest[f]) || q->x > largest[f])
			largest[f] = q->x;
		if (!isnan(common[f]) && q->x <= common[f])
			continue;
		int all = 1;
		for (size_t s = 0; s < t->nsides && all; s++)
			all = side_has(&t->sides[s], q, q->x);
		if (all)
			common[f] = q->x;
	}
	double *last = xmalloc((n ? n : 1) * sizeof *last);
	for (size_t i = 0; i < n; i++) {
		size_t f = first[i];
		last[i] = !isnan(common[f]) ? common[f]
			: isnan(run->results.v[i].x) ? NAN : largest[f];
	}
	pidx_free(&series);
	free(first);
	free(common);
	free(largest);
	return last;
}

/* Rows: every selected point of every side, in order of first appearance (baseline first). */
static void collect_rows(struct cmp_table *t)
{
	size_t cap = 0;
	struct point_index seen;
	pidx_init(&seen, PIDX_POINT);
	for (size_t s = 0; s < t->nsides; s++)
		for (size_t i = 0; i < t->sides[s].nruns; i++) {
			const struct run *run = t->sides[s].runs[i];
			double *last = t->o.all ? NULL : last_xs(t, run);
			for (size_t k = 0; k < run->results.n; k++) {
				const struct result *r = &run->results.v[k];
				if (!t->o.all && !cmp_summary_point(r, last[k]))
					continue;
				if (pidx_find(&seen, r->metric, r->params, r->x) != (size_t)-1)
					continue;
				if (t->nrows == cap) {
					cap = cap ? 2 * cap : 64;
					t->rows = xrealloc(t->rows, cap * sizeof *t->rows);
				}
				struct cmp_row *row = &t->rows[t->nrows];
				memset(row, 0, sizeof *row);
				row->metric = xstrdup(r->metric);
				row->params = xstrdup(r->params ? r->params : "");
				row->x = r->x;
				row->unit = xstrdup(r->unit ? r->unit : "");
				row->def = metric_find(r->metric);
				row->order = t->nrows++;
				pidx_add(&seen, row->metric, row->params, row->x, row->order);
			}
			free(last);
		}
	pidx_free(&seen);
}

/* Sort key: a row with any worse verdict first, then any better, then the rest in the runs'
 * order; among significant rows the largest change first. */
static int row_class(const struct cmp_row *r, size_t nsides, double *mag)
{
	int cls = 2;
	*mag = 0;
	for (size_t s = 1; s < nsides; s++) {
		const struct cmp_test *t = &r->test[s];
		if (t->v == V_WORSE)
			cls = 0;
		else if (t->v == V_BETTER && cls > 1)
			cls = 1;
		if ((t->v == V_WORSE || t->v == V_BETTER) && fabs(t->change) > *mag)
			*mag = fabs(t->change);
	}
	return cls;
}

/* ctx: the table's number of sides */
static int cmp_rows(const void *a, const void *b, void *ctx)
{
	const struct cmp_row *x = a, *y = b;
	size_t nsides = *(const size_t *)ctx;
	double mx, my;
	int cx = row_class(x, nsides, &mx), cy = row_class(y, nsides, &my);
	if (cx != cy)
		return cx - cy;
	if (cx < 2 && mx != my)
		return mx > my ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static void add_warning(struct cmp_table *t, char *w)
{
	t->warnings = xrealloc(t->warnings, (t->nwarnings + 1) * sizeof *t->warnings);
	t->warnings[t->nwarnings++] = w;
}

/* A side's value of one fact: its distinct values joined with "|", or NULL when none has it.
 * key "profile" is the run's profile; "placement" is read from the results' info. */
static char *side_fact(const struct side *s, const char *key)
{
	char *out = NULL;
	for (size_t i = 0; i < s->nruns; i++) {
		const struct run *r = s->runs[i];
		size_t nv = 1;
		if (strcmp(key, "placement") == 0)
			nv = r->results.n;
		for (size_t k = 0; k < nv; k++) {
			char buf[128];
			const char *v;
			if (strcmp(key, "profile") == 0)
				v = r->profile;
			else if (strcmp(key, "placement") == 0)
				v = r->results.v[k].info ?
					    param_get(r->results.v[k].info, "placement", buf, sizeof buf) :
					    NULL;
			else
				v = kv_get(&r->facts, key);
			if (!v || !*v)
				continue;
			if (!out) {
				out = xstrdup(v);
				continue;
			}
			/* already listed? */
			size_t len = strlen(v);
			int seen = 0;
			for (const char *p = out; *p && !seen;) {
				const char *e = strchr(p, '|');
				size_t l = e ? (size_t)(e - p) : strlen(p);
				seen = l == len && strncmp(p, v, len) == 0;
				p = e ? e + 1 : p + l;
			}
			if (!seen) {
				char *n = xasprintf("%s|%s", out, v);
				free(out);
				out = n;
			}
		}
	}
	return out;
}

static const char *const fact_keys[] = {
	"cpu_model", "smt", "governor", "thp", "page_size", "hypervisor", "placement",
	"build_cc", "build_cflags", "profile", "clocksource", "audit", NULL,
};

/* Whether the sides disagree on a fact: a side with two values, or two sides with different
 * ones (a side without it is no difference). */
static int fact_differs(const struct cmp_table *t, const char *key)
{
	char *first = NULL;
	int differ = 0;
	for (size_t s = 0; s < t->nsides && !differ; s++) {
		char *v = side_fact(&t->sides[s], key);
		if (!v)
			continue;
		differ = strchr(v, '|') || (first && strcmp(first, v) != 0);
		if (!first)
			first = v;
		else
			free(v);
	}
	free(first);
	return differ;
}

static void add_warning_cb(void *t, char *w)
{
	add_warning(t, w);
}

/* The kernel's command line and its CPU mitigations (vuln_*): too long to print side by side,
 * so one line names those that differ. They move every system call's cost (a 3x "regression"
 * between two kernels was mitigations and audit). The kernel's version is not named: comparing
 * two kernels is what compare is often for. */
static void kernel_warning(struct cmp_table *t)
{
	struct kv_list seen = { 0 };
	char *names = NULL;
	for (size_t s = 0; s < t->nsides; s++)
		for (size_t i = 0; i < t->sides[s].nruns; i++) {
			const struct kv_list *f = &t->sides[s].runs[i]->facts;
			for (size_t k = 0; k < f->n; k++) {
				const char *key = f->v[k].key;
				if ((strcmp(key, "cmdline") && strncmp(key, "vuln_", 5)) ||
				    kv_get(&seen, key))
					continue;
				kv_set(&seen, key, "");
				if (!fact_differs(t, key))
					continue;
				char *n = xasprintf("%s%s%s", names ? names : "", names ? ", " : "", key);
				free(names);
				names = n;
			}
		}
	if (names)
		add_warning(t, xasprintf("the kernel's settings differ (every system call's cost "
					 "moves with them): %s; each side's values are in its facts "
					 "(plumb report's table)", names));
	free(names);
	kv_free(&seen);
}

/* The median CPU clock a side's runs read while they ran (the clock_mhz fact of plumb run);
 * NAN when none recorded it. */
static double side_clock(const struct side *s)
{
	double v[64];
	size_t n = 0;
	for (size_t i = 0; i < s->nruns && n < 64; i++) {
		const char *c = kv_get(&s->runs[i]->facts, "clock_mhz");
		if (c && atof(c) > 0)
			v[n++] = atof(c);
	}
	return n ? stats_median(v, n) : NAN;
}

/* A clock that differs between sides moves every CPU-bound number with it: on a shared host
 * it differs from run to run by itself, so say by how much before anyone reads a verdict. */
static void clock_warning(struct cmp_table *t)
{
	double base = side_clock(&t->sides[0]);
	if (isnan(base))
		return;
	int differ = 0;
	for (size_t s = 1; s < t->nsides; s++) {
		double c = side_clock(&t->sides[s]);
		differ |= !isnan(c) && fabs(c / base - 1) * 100 > CLOCK_DIFFERS_PCT;
	}
	if (!differ)
		return;
	char *w = xasprintf("CPU clock during the runs differs by more than %.0f%%, and CPU-bound "
			    "numbers with it:", CLOCK_DIFFERS_PCT);
	for (size_t s = 0; s < t->nsides; s++) {
		double c = side_clock(&t->sides[s]);
		char val[64];
		if (isnan(c))
			snprintf(val, sizeof val, "?");
		else if (s == 0)
			snprintf(val, sizeof val, "%.0f MHz", c);
		else
			snprintf(val, sizeof val, "%.0f MHz (%+.1f%%)", c, (c / base - 1) * 100);
		char *n = xasprintf("%s %s=%s%s", w, t->sides[s].name, val, s + 1 < t->nsides ? ";" : "");
		free(w);
		w = n;
	}
	add_warning(t, w);
}

static void fact_warnings(struct cmp_table *t)
{
	for (int k = 0; fact_keys[k]; k++) {
		char **v = xcalloc(t->nsides, sizeof *v);
		int differ = 0;
		const char *first = NULL;
		for (size_t s = 0; s < t->nsides; s++) {
			v[s] = side_fact(&t->sides[s], fact_keys[k]);
			if (!v[s])
				continue;
			if (strchr(v[s], '|') || (first && strcmp(first, v[s]) != 0))
				differ = 1;
			if (!first)
				first = v[s];
		}
		if (differ) {
			char *w = xasprintf("%s differs:", fact_keys[k]);
			for (size_t s = 0; s < t->nsides; s++) {
				char *n = xasprintf("%s %s=%s%s", w, t->sides[s].name,
						    v[s] ? v[s] : "?", s + 1 < t->nsides ? ";" : "");
				free(w);
				w = n;
			}
			add_warning(t, w);
		}
		for (size_t s = 0; s < t->nsides; s++)
			free(v[s]);
		free(v);
	}
	kernel_warning(t);
	clock_warning(t);
	cmp_cond_warnings(t->sides, t->nsides, add_warning_cb, t); /* contention, time blocks */
	size_t method = 0;
	for (size_t i = 0; i < t->nrows; i++)
		for (size_t s = 1; s < t->nsides; s++)
			method += t->rows[i].test[s].v == V_METHOD;
	if (method)
		add_warning(t, xasprintf("%zu point%s measured with a different method version on "
					 "each side (imported lmbench = 0): marked \"method differs\", "
					 "not judged",
					 method, method == 1 ? "" : "s"));
}

/* Mark the batch means whose steady twin is a row too (point_index: one pass). */
static void mark_steady(struct cmp_table *t)
{
	struct point_index idx;
	pidx_init(&idx, PIDX_POINT);
	for (size_t i = 0; i < t->nrows; i++)
		if (t->rows[i].def && t->rows[i].def->steady_of)
			pidx_add(&idx, t->rows[i].metric, t->rows[i].params, t->rows[i].x, i);
	for (size_t i = 0; i < t->nrows; i++) {
		struct cmp_row *r = &t->rows[i];
		const struct metric_def *tw = metric_steady(r->def);
		r->has_steady = tw && pidx_find(&idx, tw->id, r->params, r->x) != (size_t)-1;
	}
	pidx_free(&idx);
}

int cmp_row_shown(const struct cmp_table *t, const struct cmp_row *r)
{
	if (t->o.all || !r->has_steady)
		return 1;
	for (size_t s = 1; s < t->nsides; s++)
		if (r->test[s].v == V_WORSE || r->test[s].v == V_BETTER)
			return 1;
	return 0;
}

size_t cmp_rows_hidden(const struct cmp_table *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nrows; i++)
		n += !cmp_row_shown(t, &t->rows[i]);
	return n;
}

struct cmp_table *cmp_build(const struct side *sides, size_t nsides, const struct cmp_opts *o)
{
	struct cmp_table *t = xcalloc(1, sizeof *t);
	t->o = *o;
	t->sides = sides;
	t->nsides = nsides;
	collect_rows(t);
	cmp_judge(t);
	fact_warnings(t);
	sort_with(t->rows, t->nrows, sizeof *t->rows, cmp_rows, &nsides);
	mark_steady(t);
	return t;
}

void cmp_free(struct cmp_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrows; i++) {
		struct cmp_row *r = &t->rows[i];
		for (size_t s = 0; r->cell && s < t->nsides; s++)
			free(r->cell[s].rounds);
		free(r->cell);
		free(r->test);
		free(r->metric);
		free(r->params);
		free(r->unit);
	}
	free(t->rows);
	for (size_t i = 0; i < t->nwarnings; i++)
		free(t->warnings[i]);
	free(t->warnings);
	free(t);
}

size_t cmp_regressions(const struct cmp_table *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nrows; i++)
		for (size_t s = 1; s < t->nsides; s++)
			n += t->rows[i].test[s].v == V_WORSE;
	return n;
}

const char *verdict_name(enum verdict v)
{
	switch (v) {
	case V_WORSE: return "worse";
	case V_BETTER: return "better";
	case V_UNDECIDED: return "no significant change";
	case V_SAME: return "same";
	case V_NOTEST: return "no test";
	case V_NEUTRAL: return "-";
	case V_METHOD: return "method differs";
	case V_MISSING: return "missing";
	}
	return "?";
}

const char *noise_src_name(enum noise_src n)
{
	switch (n) {
	case NS_PAIRED: return "paired";
	case NS_HISTORY: return "history";
	case NS_DEFAULT: return "default";
	case NS_NONE: break;
	}
	return "-";
}
