/*
 * report.c — builds the report's charts from runs (series per side and parameter, values =
 * median of the rounds, as compare computes them) and writes the HTML page around them.
 * Sections: runs and facts, compare table, memory latency, memory bandwidth, context switch,
 * other series, summary bars. Print styles keep charts and table rows whole on a page.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/report.h"
#include "analysis/summary.h"
#include "analysis/svg.h"
#include "core/stats.h"
#include "core/util.h"

struct charts {
	struct report_chart *v;
	size_t n, cap;
};

static void chart_add(struct charts *c, const char *slug, const char *title, char *svg, int wide)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->v = xrealloc(c->v, c->cap * sizeof *c->v);
	}
	c->v[c->n++] = (struct report_chart){ xstrdup(slug), xstrdup(title), svg, wide };
}

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
			se.name = *params.v[p] ? xasprintf("%s %s", sides[s].name, params.v[p]) :
						 xstrdup(sides[s].name);
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

static void add_marker(struct svg_marker **out, size_t *nm, const char *name, double bytes)
{
	double mb = bytes / 1048576;
	for (size_t j = 0; j < *nm; j++)
		if ((*out)[j].x == mb)
			return;
	if (*nm >= 6)
		return; /* two machines' three levels at most: the chart's text stays bounded */
	*out = xrealloc(*out, (*nm + 1) * sizeof **out);
	(*out)[*nm].x = mb;
	(*out)[*nm].label = bytes >= 1048576 ? xasprintf("%s %gM", name, mb) :
					      xasprintf("%s %gK", name, bytes / 1024);
	(*nm)++;
}

/* Cache sizes as markers in MB: from the runs' facts (cache_l1d, cache_l2, cache_l3, bytes),
 * else from measured cache.size results (plumb's cache tool, lmbench's "L1 cache:" lines). */
static size_t cache_markers(const struct side *sides, size_t n, struct svg_marker **out)
{
	static const char *const keys[] = { "cache_l1d", "cache_l2", "cache_l3" };
	static const char *const names[] = { "L1d", "L2", "L3" };
	size_t nm = 0;
	*out = NULL;
	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < sides[s].nruns; i++) {
			const struct run *r = sides[s].runs[i];
			int found = 0;
			for (int k = 0; k < 3; k++) {
				const char *v = kv_get(&r->facts, keys[k]);
				double b = v ? strtod(v, NULL) : 0;
				if (b > 0) {
					add_marker(out, &nm, names[k], b);
					found = 1;
				}
			}
			for (size_t k = 0; k < r->results.n && !found; k++) {
				const struct result *c = &r->results.v[k];
				char lv[16], name[24];
				if (strcmp(c->metric, "cache.size") || !(c->value > 0) ||
				    !param_get(c->params, "level", lv, sizeof lv) || !strcmp(lv, "mem"))
					continue;
				snprintf(name, sizeof name, "L%s", lv);
				add_marker(out, &nm, name, c->value);
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

static void series_chart(struct charts *out, const struct side *sides, size_t n,
			 const char *metric, const char *slug, const char *title,
			 const char *xlabel, enum x_kind xk, int markers)
{
	struct svg_series *s;
	size_t ns = build_series(sides, n, metric, &s);
	if (ns == 0)
		return;
	const struct metric_def *d = metric_find(metric);
	char ylabel[64];
	snprintf(ylabel, sizeof ylabel, "%s", d ? d->unit : "");
	struct svg_chart c = { .title = title, .xlabel = xlabel, .ylabel = ylabel, .xk = xk,
			       .s = s, .ns = ns };
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

static void bar_charts(struct charts *out, const struct side *sides, size_t n)
{
	struct cmp_opts o;
	cmp_opts_default(&o);
	struct cmp_table *t = cmp_build(sides, n, &o);
	const struct cmp_row **rows = xmalloc((t->nrows ? t->nrows : 1) * sizeof *rows);
	size_t nr = 0;
	for (size_t i = 0; i < t->nrows; i++)
		if (isnan(t->rows[i].x))
			rows[nr++] = &t->rows[i];
	qsort(rows, nr, sizeof *rows, cmp_order);
	char **names = xmalloc(n * sizeof *names);
	for (size_t s = 0; s < n; s++)
		names[s] = sides[s].name;
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
		/* a chart holds at most SVG_TEXT_MAX texts: title, a legend entry per side, and per
		 * bar group its name and a value per side; a longer group is split */
		size_t per = (SVG_TEXT_MAX - 1 - n) / (1 + n), part = (i - first) / (per ? per : 1);
		if (per && j - i > per)
			j = i + per;
		struct svg_bar_group *g = xcalloc(j - i, sizeof *g);
		for (size_t k = i; k < j; k++) {
			struct svg_bar_group *b = &g[k - i];
			char buf[256];
			b->name = xstrdup(cmp_row_name(rows[k], buf, sizeof buf));
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
		snprintf(title, sizeof title, "%s%s (bars: median, whiskers: min–max)", tool,
			 part ? " (continued)" : "");
		if (part)
			snprintf(slug, sizeof slug, "bars-%s-%zu", tool, part + 1);
		else
			snprintf(slug, sizeof slug, "bars-%s", tool);
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		svg_bar_chart(m, title, names, n, g, j - i, 1000);
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
	free(names);
	free(rows);
	cmp_free(t);
}

/* ---- all charts --------------------------------------------------------------------------- */

static int covered(const char *m)
{
	return strncmp(m, "lat_mem_rd.", 11) == 0 || strncmp(m, "bw_mem.", 7) == 0 ||
	       strcmp(m, "lat_ctx.switch") == 0;
}

size_t report_charts(const struct side *sides, size_t n, int standalone,
		     struct report_chart **out)
{
	struct charts c = { 0 };
	svg_set_standalone(standalone);
	series_chart(&c, sides, n, "lat_mem_rd.seq", "mem-latency-seq",
		     "Memory load latency, sequential chain (lat_mem_rd)", "working set", X_LOG2_MB, 1);
	series_chart(&c, sides, n, "lat_mem_rd.rand", "mem-latency-rand",
		     "Memory load latency, random chain (lat_mem_rd -t)", "working set", X_LOG2_MB, 1);
	for (int i = 0; i < metric_count; i++) {
		const struct metric_def *d = &metric_table[i];
		if (strncmp(d->id, "bw_mem.", 7) != 0 || !has_series(sides, n, d->id))
			continue;
		char slug[64], title[160];
		snprintf(slug, sizeof slug, "bw-mem-%s", d->id + 7);
		snprintf(title, sizeof title, "Memory bandwidth, bw_mem %s: %s", d->id + 7, d->desc);
		series_chart(&c, sides, n, d->id, slug, title, "working set", X_LOG2_MB, 1);
	}
	series_chart(&c, sides, n, "lat_ctx.switch", "ctx-switch",
		     "Context switch time by process count (lat_ctx; one line per size in KB)",
		     "processes", X_LINEAR, 0);
	/* every other series the runs hold, registry metrics first, then unknown ones */
	struct strs other = { 0 };
	for (int i = 0; i < metric_count; i++)
		if (!covered(metric_table[i].id) && has_series(sides, n, metric_table[i].id))
			strs_add(&other, metric_table[i].id);
	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < sides[s].nruns; i++)
			for (size_t k = 0; k < sides[s].runs[i]->results.n; k++) {
				const struct result *r = &sides[s].runs[i]->results.v[k];
				if (!isnan(r->x) && !covered(r->metric))
					strs_add(&other, r->metric);
			}
	for (size_t i = 0; i < other.n; i++) {
		const struct metric_def *d = metric_find(other.v[i]);
		int mb = d && ((d->xfmt && strcmp(d->xfmt, "bw") == 0) || strstr(d->desc, "(MB)") ||
			       strstr(d->desc, "(MiB)"));
		char slug[96], title[200];
		snprintf(slug, sizeof slug, "series-%s", other.v[i]);
		for (char *p = slug; *p; p++)
			if (*p == '.' || *p == '_')
				*p = '-';
		snprintf(title, sizeof title, "%s%s%s", other.v[i], d ? ": " : "", d ? d->desc : "");
		series_chart(&c, sides, n, other.v[i], slug, title, mb ? "size" : "x",
			     mb ? X_LOG2_MB : X_LINEAR, 0);
	}
	strs_free(&other);
	bar_charts(&c, sides, n);
	svg_set_standalone(0);
	*out = c.v;
	return c.n;
}

void report_charts_free(struct report_chart *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(c[i].slug);
		free(c[i].title);
		free(c[i].svg);
	}
	free(c);
}

/* ---- the page ------------------------------------------------------------------------------ */

static const char css[] =
	"body{font-family:sans-serif;margin:24px auto;max-width:1240px;padding:0 16px;"
	"color:#1a1a1a;background:#ffffff;font-size:14px}\n"
	"h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;border-bottom:1px solid #c8c8c8;"
	"padding-bottom:4px;margin-top:32px}\n"
	"p.note{color:#555555;margin:4px 0 12px}\n"
	"table{border-collapse:collapse;font-size:12.5px;margin:8px 0}\n"
	"td,th{border:1px solid #d0d0d0;padding:3px 7px;text-align:left;vertical-align:top}\n"
	"th{background:#eef1f4}td.num{text-align:right;white-space:nowrap;"
	"font-variant-numeric:tabular-nums}\n"
	"td.val{max-width:360px;overflow-wrap:anywhere}\n"
	"tr.diff td{background:#fff4d6}td.worse{background:#f6cdc8;font-weight:bold}"
	"td.better{background:#cdeed4;font-weight:bold}td.method{background:#e7e1f5}\n"
	"ul.warn{color:#8a4b00;margin:6px 0}\n"
	"details{margin:8px 0}summary{cursor:pointer;color:#1a4d8f}\n"
	"pre.summary{font-size:11.5px;overflow-x:auto;background:#f7f7f7;padding:8px;"
	"border:1px solid #dddddd}\n"
	".charts{display:flex;flex-wrap:wrap;gap:16px}\n"
	".chart{flex:1 1 580px;max-width:100%}.chart.wide{flex-basis:100%}\n"
	"svg{max-width:100%;height:auto;display:block}\n"
	"@page{margin:12mm}\n"
	"@media print{body{margin:0;max-width:none;padding:0;font-size:11px;"
	"-webkit-print-color-adjust:exact;print-color-adjust:exact}"
	"h2{break-after:avoid}.chart,svg,tr{break-inside:avoid}"
	".charts{display:block}.chart{margin-bottom:12px}table{font-size:10px}}\n";

static void esc(FILE *f, const char *s) { xml_escape(f, s ? s : ""); }

/* A fact as a reader wants it: byte counts in KiB/MiB/GiB (the exact count after it when
 * rounded), clock rates with their unit. Other values as they are. */
static char *humanize(const char *key, const char *v)
{
	char *end;
	double d = strtod(v, &end);
	if (end == v || *end || !(d >= 0))
		return xstrdup(v);
	static const char *const bytes[] = { "cache_", "mem_", "page_size", "hugepage", NULL };
	int is_bytes = 0;
	for (int i = 0; bytes[i]; i++)
		is_bytes |= !strncmp(key, bytes[i], strlen(bytes[i]));
	if (is_bytes) {
		static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
		int u = 0;
		double x = d;
		while (x >= 1024 && u < 4) {
			x /= 1024;
			u++;
		}
		if (u == 0 || x == floor(x))
			return xasprintf("%.0f %s", x, units[u]);
		return xasprintf("%.1f %s (%s bytes)", x, units[u], v);
	}
	size_t kl = strlen(key);
	if (kl >= 3 && !strcmp(key + kl - 3, "mhz"))
		return xasprintf("%s MHz", v);
	return xstrdup(v);
}

static void facts_section(FILE *f, const struct side *sides, size_t n)
{
	fputs("<h2 id=\"facts\">Runs and system facts</h2>\n<p class=\"note\">Rows shaded yellow "
	      "differ between runs. A side that pools several runs (a label) shows its first "
	      "run's facts.</p>\n<table>\n<tr><th></th>", f);
	for (size_t s = 0; s < n; s++) {
		fputs("<th>", f);
		esc(f, sides[s].name);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	static const char *const meta[] = { "runs", "id", "label", "host", "profile", "source",
					    "started", "ended", "rounds", NULL };
	struct strs keys = { 0 };
	for (int i = 0; meta[i]; i++)
		strs_add(&keys, meta[i]);
	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < sides[s].nruns; i++)
			for (size_t k = 0; k < sides[s].runs[i]->facts.n; k++)
				strs_add(&keys, sides[s].runs[i]->facts.v[k].key);
	for (size_t k = 0; k < keys.n; k++) {
		char **v = xcalloc(n, sizeof *v);
		int differ = 0, any = 0;
		for (size_t s = 0; s < n; s++) {
			const struct run *r = sides[s].runs[0];
			const char *key = keys.v[k];
			if (strcmp(key, "runs") == 0)
				v[s] = xasprintf("%zu", sides[s].nruns);
			else if (strcmp(key, "id") == 0)
				v[s] = r->id ? xasprintf("%ld", r->id) : NULL;
			else if (strcmp(key, "label") == 0)
				v[s] = r->label ? xstrdup(r->label) : NULL;
			else if (strcmp(key, "host") == 0)
				v[s] = r->host ? xstrdup(r->host) : NULL;
			else if (strcmp(key, "profile") == 0)
				v[s] = r->profile ? xstrdup(r->profile) : NULL;
			else if (strcmp(key, "source") == 0)
				v[s] = r->source ? xstrdup(r->source) : NULL;
			else if (strcmp(key, "started") == 0)
				v[s] = r->started ? xstrdup(r->started) : NULL;
			else if (strcmp(key, "ended") == 0)
				v[s] = r->ended ? xstrdup(r->ended) : NULL;
			else if (strcmp(key, "rounds") == 0)
				v[s] = xasprintf("%d", r->rounds);
			else {
				const char *x = kv_get(&r->facts, key);
				v[s] = x ? humanize(key, x) : NULL;
			}
			any |= v[s] != NULL;
			if (s > 0 && ((v[s] == NULL) != (v[0] == NULL) ||
				      (v[s] && v[0] && strcmp(v[s], v[0]) != 0)))
				differ = 1;
		}
		if (any) {
			fprintf(f, "<tr%s><th>", differ ? " class=\"diff\"" : "");
			esc(f, keys.v[k]);
			fputs("</th>", f);
			for (size_t s = 0; s < n; s++) {
				fputs("<td class=\"val\">", f);
				/* Long facts (per-step timings) would swamp the table: show their start. */
				size_t len = v[s] ? strlen(v[s]) : 0;
				if (len > 160) {
					v[s][150] = 0;
					esc(f, v[s]);
					fprintf(f, " &hellip; (%zu characters; all of it in the run's JSON)", len);
				} else {
					esc(f, v[s] ? v[s] : "");
				}
				fputs("</td>", f);
			}
			fputs("</tr>\n", f);
		}
		for (size_t s = 0; s < n; s++)
			free(v[s]);
		free(v);
	}
	strs_free(&keys);
	fputs("</table>\n", f);
}

static const char *verdict_class(enum verdict v)
{
	return v == V_WORSE ? " worse" : v == V_BETTER ? " better" : v == V_METHOD ? " method" : "";
}

static void compare_row(FILE *f, const struct cmp_row *r, size_t n)
{
	char buf[256], num[32];
	fputs("<tr><td>", f);
	esc(f, cmp_row_name(r, buf, sizeof buf));
	fputs("</td><td>", f);
	esc(f, r->unit);
	fputs("</td>", f);
	for (size_t s = 0; s < n; s++) {
		const struct cmp_cell *c = &r->cell[s];
		fputs("<td class=\"num\">", f);
		if (!c->present)
			fputs("-", f);
		else if (isnan(c->spread))
			fprintf(f, "%s (%zu)", cmp_fmt_num(c->center, num, sizeof num), c->nrounds);
		else
			fprintf(f, "%s &plusmn;%.1f%% (%zu)", cmp_fmt_num(c->center, num, sizeof num),
				c->spread, c->nrounds);
		fputs("</td>", f);
		if (s == 0)
			continue;
		const struct cmp_test *ts = &r->test[s];
		if (isnan(ts->change))
			fputs("<td class=\"num\">-</td>", f);
		else
			fprintf(f, "<td class=\"num\">%+.1f%%</td>", ts->change);
		fprintf(f, "<td class=\"v%s\">%s", verdict_class(ts->v), verdict_name(ts->v));
		if (!isnan(ts->p_adj))
			fprintf(f, " (p=%.2g)", ts->p_adj);
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

static void compare_head(FILE *f, const struct side *sides, size_t n)
{
	fputs("<table>\n<tr><th>metric</th><th>unit</th>", f);
	for (size_t s = 0; s < n; s++) {
		fputs("<th>", f);
		esc(f, sides[s].name);
		fputs(s ? "</th><th>change</th><th>verdict</th>" : " (base)</th>", f);
	}
	fputs("</tr>\n", f);
}

static int row_changed(const struct cmp_row *r, size_t n)
{
	for (size_t s = 1; s < n; s++)
		if (r->test[s].v == V_WORSE || r->test[s].v == V_BETTER)
			return 1;
	return 0;
}

/* The verdicts first: the points that changed significantly (worse first, largest change
 * first, as compare sorts them), then every compared point folded away in a <details>. */
static void compare_section(FILE *f, const struct side *sides, size_t n, const struct cmp_opts *o)
{
	struct cmp_table *t = cmp_build(sides, n, o);
	size_t changed = 0;
	for (size_t i = 0; i < t->nrows; i++)
		changed += row_changed(&t->rows[i], n);
	fprintf(f, "<h2 id=\"verdicts\">Verdicts</h2>\n<p class=\"note\">Baseline: ");
	esc(f, sides[0].name);
	fprintf(f, ". %zu of %zu compared points changed significantly (%zu worse). Values: median "
		   "of the rounds &plusmn;half their range (number of rounds). Verdict: two-sided "
		   "Mann&ndash;Whitney U on rounds, &alpha; = %g, %s over %zu tests, and a change of "
		   "at least %g %%.</p>\n", changed, t->nrows, cmp_regressions(t), t->o.alpha,
		t->o.corr == CORR_HOLM ? "Holm" : t->o.corr == CORR_BH ?
			"Benjamini&ndash;Hochberg" : "no correction",
		t->ntests, t->o.min_effect);
	if (t->nwarnings) {
		fputs("<ul class=\"warn\">\n", f);
		for (size_t i = 0; i < t->nwarnings; i++) {
			fputs("<li>", f);
			esc(f, t->warnings[i]);
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	if (changed) {
		compare_head(f, sides, n);
		for (size_t i = 0; i < t->nrows; i++)
			if (row_changed(&t->rows[i], n))
				compare_row(f, &t->rows[i], n);
		fputs("</table>\n", f);
	}
	fprintf(f, "<details id=\"compare\"><summary>Every compared point (%zu rows; "
		   "<code>plumb compare --all</code> lists every point of every series)</summary>\n",
		t->nrows);
	compare_head(f, sides, n);
	for (size_t i = 0; i < t->nrows; i++)
		compare_row(f, &t->rows[i], n);
	fputs("</table>\n</details>\n", f);
	cmp_free(t);
}

/* lmbench's summary tables (what forum users paste), for every run of every side. */
static void summary_section(FILE *f, const struct side *sides, size_t n)
{
	size_t nr = 0;
	for (size_t s = 0; s < n; s++)
		nr += sides[s].nruns;
	struct run **runs = xmalloc((nr ? nr : 1) * sizeof *runs);
	nr = 0;
	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < sides[s].nruns; i++)
			runs[nr++] = sides[s].runs[i];
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	summary_print(m, runs, nr);
	fclose(m);
	fputs("<h2 id=\"summary\">lmbench summary</h2>\n<p class=\"note\">The tables of lmbench's "
	      "<code>make see</code>, one row per run (<code>plumb summary</code> prints the "
	      "same).</p>\n<pre class=\"summary\">", f);
	esc(f, buf);
	fputs("</pre>\n", f);
	free(buf);
	free(runs);
}

static void chart_block(FILE *f, const struct report_chart *c)
{
	fprintf(f, "<div class=\"chart%s\" id=\"%s\">\n%s</div>\n", c->wide ? " wide" : "",
		c->slug, c->svg);
}

void report_html(FILE *f, const struct side *sides, size_t n, const struct cmp_opts *o)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>plumb report</title>\n<style>\n", f);
	fputs(css, f);
	fputs("</style>\n</head>\n<body>\n<h1>plumb report</h1>\n<p class=\"note\">", f);
	for (size_t s = 0; s < n; s++) {
		fputs(s ? ", " : "Runs: ", f);
		esc(f, sides[s].name);
		if (sides[s].runs[0]->host) {
			fputs(" (", f);
			esc(f, sides[s].runs[0]->host);
			fputs(")", f);
		}
	}
	fputs(". Verdicts first, then the charts (the median of the rounds at each point; dashes "
	      "tell runs apart), lmbench's summary tables, and the system facts.</p>\n", f);
	if (n >= 2)
		compare_section(f, sides, n, o);
	struct report_chart *c;
	size_t nc = report_charts(sides, n, 0, &c);
	static const struct {
		const char *prefix, *title, *id;
	} sect[] = {
		{ "mem-latency", "Memory latency", "latency" },
		{ "bw-mem", "Memory bandwidth", "bandwidth" },
		{ "ctx-switch", "Context switch", "ctx" },
		{ "series-", "Other series", "series" },
		{ "bars-", "Summary metrics", "bars" },
	};
	for (size_t k = 0; k < sizeof sect / sizeof *sect; k++) {
		int opened = 0;
		for (size_t i = 0; i < nc; i++) {
			if (strncmp(c[i].slug, sect[k].prefix, strlen(sect[k].prefix)) != 0)
				continue;
			if (!opened)
				fprintf(f, "<h2 id=\"%s\">%s</h2>\n<div class=\"charts\">\n", sect[k].id,
					sect[k].title);
			opened = 1;
			chart_block(f, &c[i]);
		}
		if (opened)
			fputs("</div>\n", f);
	}
	if (nc == 0)
		fputs("<p>No results to chart.</p>\n", f);
	summary_section(f, sides, n);
	facts_section(f, sides, n);
	fputs("</body>\n</html>\n", f);
	report_charts_free(c, nc);
}
