/*
 * report.c — the report's series and bar charts from runs (the chart kinds "mem_latency",
 * "mem_bandwidth", "ctx_switch", "series" and "bars", declared at the end): one line per side
 * and series (metric + params; the abscissa is never part of a series), values = median of the
 * rounds, as compare computes them; each chart titled and named by its metric's row
 * (.chart_title, .chart_slug, x.label); cache sizes marked on the memory charts; bar charts of the
 * summary metrics, split so that no chart holds more than SVG_TEXT_MAX texts. The HTML page
 * around them: report_page.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/report_util.h"
#include "analysis/svg.h"
#include "core/stats.h"
#include "core/util.h"

/* ---- series ------------------------------------------------------------------------------ */

struct strs {
	char **v;
	size_t n;
};

static int strs_add(struct strs *s, const char *v)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], v) == 0)
			return 0;
	s->v = xrealloc(s->v, (s->n + 1) * sizeof *s->v);
	s->v[s->n++] = xstrdup(v);
	return 1;
}

static void strs_free(struct strs *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

/* A working-set size as a reader says it (32M, 48K, 1.5G); x in the metric's own unit: decimal
 * MB for lmbench's "bw" abscissa, MiB otherwise. */
static void size_text(const struct metric_def *d, double x, char *buf, size_t len)
{
	double b = d && d->xfmt && !strcmp(d->xfmt, "bw") ? x * 1e6 : x * 1048576;
	if (b >= 1024.0 * 1048576)
		snprintf(buf, len, "%.3gG", b / (1024.0 * 1048576));
	else if (b >= 1048576)
		snprintf(buf, len, "%.3gM", b / 1048576);
	else if (b >= 1024)
		snprintf(buf, len, "%.3gK", b / 1024);
	else
		snprintf(buf, len, "%.0f bytes", b);
}

static int x_is_size(const struct metric_def *d)
{
	return d && d->x.kind == X_SIZE;
}

/* A bar's name: metric, parameters, and its size in K/M/G when the abscissa is a size. */
static void bar_name(const struct cmp_row *r, char *buf, size_t len)
{
	char x[48] = "";
	if (!isnan(r->x) && x_is_size(r->def)) {
		char sz[32];
		size_text(r->def, r->x, sz, sizeof sz);
		snprintf(x, sizeof x, " %s", sz);
	} else if (!isnan(r->x)) {
		snprintf(x, sizeof x, " @%g", r->x);
	}
	snprintf(buf, len, "%s%s%s%s", r->metric, *r->params ? " " : "", r->params, x);
}

static int has_series(const struct side *sides, size_t n, const char *metric)
{
	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < sides[s].nruns; i++)
			for (size_t k = 0; k < sides[s].runs[i]->results.n; k++) {
				const struct result *r = &sides[s].runs[i]->results.v[k];
				if (!isnan(r->x) && strcmp(r->metric, metric) == 0)
					return 1;
			}
	return 0;
}

/* 1 when some run holds a curve of metric: two points of one series (same params) at different
 * x. A metric measured at one size only (bw_mem in a quick run) is a bar, not a chart. */
static int is_curve(const struct side *sides, size_t n, const char *metric)
{
	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < sides[s].nruns; i++) {
			const struct result_list *l = &sides[s].runs[i]->results;
			for (size_t k = 0; k < l->n; k++) {
				const struct result *a = &l->v[k];
				if (isnan(a->x) || strcmp(a->metric, metric))
					continue;
				for (size_t j = k + 1; j < l->n; j++) {
					const struct result *b = &l->v[j];
					if (!isnan(b->x) && b->x != a->x && !strcmp(b->metric, metric) &&
					    params_same(a->params, b->params))
						return 1;
				}
			}
		}
	return 0;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* One line per side and parameter set: x = every abscissa the side measured, y = median of
 * the rounds there. */
static size_t build_series(const struct side *sides, size_t n, const char *metric,
			   struct svg_series **out)
{
	size_t ns = 0;
	*out = NULL;
	for (size_t s = 0; s < n; s++) {
		struct strs params = { 0 };
		char *side_name = report_side_name(&sides[s]);
		for (size_t i = 0; i < sides[s].nruns; i++)
			for (size_t k = 0; k < sides[s].runs[i]->results.n; k++) {
				const struct result *r = &sides[s].runs[i]->results.v[k];
				if (!isnan(r->x) && strcmp(r->metric, metric) == 0)
					strs_add(&params, r->params);
			}
		for (size_t p = 0; p < params.n; p++) {
			double *xs = NULL;
			size_t nx = 0;
			for (size_t i = 0; i < sides[s].nruns; i++)
				for (size_t k = 0; k < sides[s].runs[i]->results.n; k++) {
					const struct result *r = &sides[s].runs[i]->results.v[k];
					if (isnan(r->x) || strcmp(r->metric, metric) ||
					    strcmp(r->params, params.v[p]))
						continue;
					int dup = 0;
					for (size_t j = 0; j < nx && !dup; j++)
						dup = xs[j] == r->x;
					if (!dup) {
						xs = xrealloc(xs, (nx + 1) * sizeof *xs);
						xs[nx++] = r->x;
					}
				}
			qsort(xs, nx, sizeof *xs, cmp_dbl);
			struct svg_series se = { 0 };
			se.name = *params.v[p] ? xasprintf("%s %s", side_name, params.v[p]) :
						 xstrdup(side_name);
			se.x = xs;
			se.y = xmalloc((nx ? nx : 1) * sizeof *se.y);
			se.n = nx;
			for (size_t j = 0; j < nx; j++) {
				double *rv;
				size_t nr = cmp_round_values(sides[s].runs, sides[s].nruns, metric,
							     params.v[p], xs[j], &rv);
				se.y[j] = nr ? stats_median(rv, nr) : NAN;
				free(rv);
			}
			se.color = (int)ns;
			se.dash = (int)s;
			*out = xrealloc(*out, (ns + 1) * sizeof **out);
			(*out)[ns++] = se;
		}
		strs_free(&params);
		free(side_name);
	}
	return ns;
}

static void free_series(struct svg_series *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(s[i].name);
		free(s[i].x);
		free(s[i].y);
	}
	free(s);
}

static void add_marker(struct svg_marker **out, size_t *nm, const char *name, double bytes,
		       const char *note)
{
	double mb = bytes / 1048576;
	for (size_t j = 0; j < *nm; j++)
		if ((*out)[j].x == mb)
			return;
	if (*nm >= 6)
		return; /* two machines' three levels at most: the chart's text stays bounded */
	*out = xrealloc(*out, (*nm + 1) * sizeof **out);
	(*out)[*nm].x = mb;
	(*out)[*nm].label = bytes >= 1048576 ? xasprintf("%s %gM%s", name, mb, note) :
					      xasprintf("%s %gK%s", name, bytes / 1024, note);
	(*nm)++;
}

/* A run's cache levels from its facts (cache_l1d, cache_l2, cache_l3: bytes, from sysfs, CPUID
 * or sysconf); the last level at its effective size when a latency knee measured it smaller
 * (a guest shown its host's L3) or nothing was reported. Returns how many it marked. */
static int fact_markers(const struct run *r, struct svg_marker **out, size_t *nm)
{
	static const char *const keys[] = { "cache_l1d", "cache_l2", "cache_l3" };
	static const char *const names[] = { "L1d", "L2", "L3" };
	double b[3];
	int last = -1, found = 0;
	for (int k = 0; k < 3; k++) {
		const char *v = kv_get(&r->facts, keys[k]);
		b[k] = v ? strtod(v, NULL) : 0;
		if (b[k] > 0)
			last = k;
	}
	const char *es = kv_get(&r->facts, "cache_llc_effective_source"),
		   *ev = kv_get(&r->facts, "cache_llc_effective");
	double eff = es && !strcmp(es, "measured") && ev ? strtod(ev, NULL) : 0;
	for (int k = 0; k < 3; k++)
		if (b[k] > 0 && !(k == last && eff > 0 && eff < b[k])) {
			add_marker(out, nm, names[k], b[k], "");
			found = 1;
		}
	if (eff > 0) {
		add_marker(out, nm, last >= 0 && eff < b[last] ? names[last] : "LLC", eff,
			   " (measured)");
		found = 1;
	}
	return found;
}

/* Cache sizes as markers in MB: from the runs' facts, else from the results whose row says
 * they are sizes to mark (.size_mark: plumb's cache tool, lmbench's "L1 cache:" lines). */
static size_t cache_markers(const struct side *sides, size_t n, struct svg_marker **out)
{
	size_t nm = 0;
	*out = NULL;
	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < sides[s].nruns; i++) {
			const struct run *r = sides[s].runs[i];
			int found = fact_markers(r, out, &nm);
			for (size_t k = 0; k < r->results.n && !found; k++) {
				const struct result *c = &r->results.v[k];
				char lv[16], name[24];
				const struct metric_def *cd = metric_find(c->metric);
				if (!cd || !cd->size_mark || !(c->value > 0) ||
				    !param_get(c->params, "level", lv, sizeof lv) || !strcmp(lv, "mem"))
					continue;
				snprintf(name, sizeof name, "L%s", lv);
				add_marker(out, &nm, name, c->value, "");
			}
		}
	return nm;
}

static int wants_logy(const struct svg_series *s, size_t n)
{
	double lo = INFINITY, hi = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < s[i].n; k++)
			if (s[i].y[k] > 0) {
				lo = fmin(lo, s[i].y[k]);
				hi = fmax(hi, s[i].y[k]);
			}
	return hi > 0 && hi / lo > 20;
}

static char *render_line(struct svg_chart *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	svg_line_chart(m, c);
	fclose(m);
	return buf;
}

/* A series' axis name: its row's (core/metrics.h, x.label), "x" for a metric plumb does not
 * know or one declared without a series. */
static const char *x_name(const struct metric_def *d)
{
	return d && d->x.label ? d->x.label : "x";
}

/* A chart's slug and title: its row's (.chart_slug, .chart_title), else "series-ID" and "ID:
 * description" (the id alone for a metric plumb does not know). */
static void chart_names(const char *metric, const struct metric_def *d, char *slug, size_t ls,
			char *title, size_t lt)
{
	if (d && d->chart_slug) {
		snprintf(slug, ls, "%s", d->chart_slug);
	} else {
		snprintf(slug, ls, "series-%s", metric);
		for (char *p = slug; *p; p++)
			if (*p == '.' || *p == '_')
				*p = '-';
	}
	if (d && d->chart_title)
		snprintf(title, lt, "%s", d->chart_title);
	else
		snprintf(title, lt, "%s%s%s", metric, d ? ": " : "", d ? d->desc : "");
}

/* The chart of metric's series, when some run holds a curve of it: named and titled by its row
 * (chart_names()), x named by the row's x.label, on a log2 axis in MB when it is a size, where
 * markers marks the cache sizes. */
static void series_chart(struct charts *out, const struct chart_in *in, const char *metric,
			 int markers)
{
	const struct side *sides = in->sides;
	size_t n = in->n;
	if (!is_curve(sides, n, metric))
		return; /* its points are among the bars */
	struct svg_series *s;
	size_t ns = build_series(sides, n, metric, &s);
	if (ns == 0)
		return;
	const struct metric_def *d = metric_find(metric);
	char ylabel[64], slug[96], title[200];
	chart_names(metric, d, slug, sizeof slug, title, sizeof title);
	/* "x" is a ratio's unit, not the axis's name */
	snprintf(ylabel, sizeof ylabel, "%s", !d ? "" : strcmp(d->unit, "x") ? d->unit : "ratio");
	enum x_kind xk = x_is_size(d) ? X_LOG2_MB : X_LINEAR;
	struct svg_chart c = { .title = title, .xlabel = x_name(d), .ylabel = ylabel, .xk = xk,
			       .s = s, .ns = ns, .standalone = in->standalone };
	c.logy = d && d->better == LOWER && wants_logy(s, ns);
	if (markers && xk == X_LOG2_MB)
		c.nm = cache_markers(sides, n, &c.m);
	chart_add(out, slug, title, render_line(&c), 0);
	for (size_t i = 0; i < c.nm; i++)
		free(c.m[i].label);
	free(c.m);
	free_series(s, ns);
}

/* ---- bars of the summary metrics ---------------------------------------------------------- */

static int cmp_order(const void *a, const void *b)
{
	const struct cmp_row *x = *(const struct cmp_row *const *)a;
	const struct cmp_row *y = *(const struct cmp_row *const *)b;
	return (x->order > y->order) - (x->order < y->order);
}

/* Whether the bars show r's metric: yes, unless the chart kind its row names draws it instead
 * for these sides (lat_c2c's heatmap when its pairs are many). */
static int in_bars(const struct cmp_row *r, const struct chart_in *in)
{
	const struct chart_kind *k = chart_kind_find(r->def ? r->def->chart : NULL);
	return !k || !k->bars_too || k->bars_too(in);
}

/* The chart kind "bars". */
static void report_bar_charts(struct charts *out, const struct chart_in *in)
{
	const struct side *sides = in->sides;
	size_t n = in->n;
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct cmp_table *t = cmp_build(sides, n, &o);
	const struct cmp_row **rows = xmalloc((t->nrows ? t->nrows : 1) * sizeof *rows);
	size_t nr = 0;
	for (size_t i = 0; i < t->nrows; i++)
		if ((isnan(t->rows[i].x) || !is_curve(sides, n, t->rows[i].metric)) &&
		    in_bars(&t->rows[i], in))
			rows[nr++] = &t->rows[i];
	qsort(rows, nr, sizeof *rows, cmp_order);
	char **names = xmalloc(n * sizeof *names);
	for (size_t s = 0; s < n; s++)
		names[s] = report_side_name(&sides[s]);
	for (size_t i = 0, first = 0; i < nr;) {
		/* a group: consecutive rows of one tool (the id before the dot) */
		size_t tl = strcspn(rows[i]->metric, "."), j = i;
		if (i == 0 || strncmp(rows[i - 1]->metric, rows[i]->metric, tl + 1) != 0)
			first = i;
		while (j < nr && strncmp(rows[j]->metric, rows[i]->metric, tl) == 0 &&
		       rows[j]->metric[tl] == '.')
			j++;
		if (j == i)
			j = i + 1;
		/* a chart holds at most SVG_TEXT_MAX texts: title lines, a legend entry per side and
		 * its note, and per bar group its name and a value per side; a longer group is split */
		size_t per = (SVG_TEXT_MAX - SVG_TITLE_LINES - 1 - n) / (1 + n), part = (i - first) / (per ? per : 1);
		if (per && j - i > per)
			j = i + per;
		struct svg_bar_group *g = xcalloc(j - i, sizeof *g);
		for (size_t k = i; k < j; k++) {
			struct svg_bar_group *b = &g[k - i];
			char buf[256];
			bar_name(rows[k], buf, sizeof buf);
			b->name = xstrdup(buf);
			b->unit = rows[k]->unit;
			b->v = xmalloc(n * sizeof *b->v);
			b->lo = xmalloc(n * sizeof *b->lo);
			b->hi = xmalloc(n * sizeof *b->hi);
			for (size_t s = 0; s < n; s++) {
				const struct cmp_cell *c = &rows[k]->cell[s];
				b->v[s] = c->center;
				/* whiskers over rounds when there are several, else over samples */
				b->lo[s] = c->nrounds >= 2 ? c->lo : c->smin;
				b->hi[s] = c->nrounds >= 2 ? c->hi : c->smax;
			}
		}
		char tool[64], title[128], slug[80];
		snprintf(tool, sizeof tool, "%.*s", (int)(tl < 60 ? tl : 60), rows[i]->metric);
		snprintf(title, sizeof title, "%s%s", tool, part ? " (continued)" : "");
		if (part)
			snprintf(slug, sizeof slug, "bars-%s-%zu", tool, part + 1);
		else
			snprintf(slug, sizeof slug, "bars-%s", tool);
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		svg_bar_chart(m, title, names, n, g, j - i, 1000, in->standalone);
		fclose(m);
		chart_add(out, slug, title, buf, 1);
		for (size_t k = 0; k < j - i; k++) {
			free(g[k].name);
			free(g[k].v);
			free(g[k].lo);
			free(g[k].hi);
		}
		free(g);
		i = j;
	}
	for (size_t s = 0; s < n; s++)
		free(names[s]);
	free(names);
	free(rows);
	cmp_free(t);
}

/* ---- all charts --------------------------------------------------------------------------- */

/* Whether a chart of its own (not the generic one per metric) draws the series of m. */
static int covered(const char *m)
{
	const struct metric_def *d = metric_find(m);
	return d && d->chart && strcmp(d->chart, "series") != 0;
}

/* A chart for each row that names kind, in the registry's order, named and titled by its row;
 * markers: cache sizes marked on a size axis. */
static void row_charts(struct charts *c, const struct chart_in *in, const char *kind, int markers)
{
	for (int i = 0; metric_at(i); i++)
		if (chart_draws(metric_at(i), kind))
			series_chart(c, in, metric_at(i)->id, markers);
}

/* The chart kind "mem_latency": lat_mem_rd's chains, titled as lmbench's readers know them. */
static void mem_latency_charts(struct charts *c, const struct chart_in *in)
{
	row_charts(c, in, "mem_latency", 1);
}

/* The chart kind "mem_bandwidth": a chart per metric whose row names it (bw_mem's operations). */
static void mem_bandwidth_charts(struct charts *c, const struct chart_in *in)
{
	row_charts(c, in, "mem_bandwidth", 1);
}

/* The chart kind "ctx_switch": lat_ctx's chart, a line per size. */
static void ctx_switch_charts(struct charts *c, const struct chart_in *in)
{
	row_charts(c, in, "ctx_switch", 0);
}

/* The chart kind "series": a chart of its own for every other series the runs hold, registry
 * metrics first, then unknown ones. */
static void series_charts(struct charts *c, const struct chart_in *in)
{
	const struct side *sides = in->sides;
	size_t n = in->n;
	struct strs other = { 0 };
	for (int i = 0; metric_at(i); i++)
		if (!covered(metric_at(i)->id) && has_series(sides, n, metric_at(i)->id))
			strs_add(&other, metric_at(i)->id);
	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < sides[s].nruns; i++)
			for (size_t k = 0; k < sides[s].runs[i]->results.n; k++) {
				const struct result *r = &sides[s].runs[i]->results.v[k];
				if (!isnan(r->x) && !covered(r->metric))
					strs_add(&other, r->metric);
			}
	for (size_t i = 0; i < other.n; i++)
		series_chart(c, in, other.v[i], 0);
	strs_free(&other);
}

const struct chart_kind chart_kind_mem_latency = { .kind = "mem_latency", .fn = mem_latency_charts,
	.section = "Memory latency", .section_id = "latency" };
const struct chart_kind chart_kind_mem_bandwidth = { .kind = "mem_bandwidth",
	.fn = mem_bandwidth_charts, .section = "Memory bandwidth", .section_id = "bandwidth" };
const struct chart_kind chart_kind_ctx_switch = { .kind = "ctx_switch", .fn = ctx_switch_charts,
	.section = "Context switch", .section_id = "ctx" };
const struct chart_kind chart_kind_series = { .kind = "series", .fn = series_charts,
	.section = "Other series", .section_id = "series" };
const struct chart_kind chart_kind_bars = { .kind = "bars", .fn = report_bar_charts,
	.section = "Summary metrics", .section_id = "bars" };
