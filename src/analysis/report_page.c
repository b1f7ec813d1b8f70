/*
 * report_page.c — `plumb report`'s HTML page around the charts (report.c): a table of
 * contents, the verdicts (the points that changed significantly, else the largest untested
 * differences; every compared point folded in a <details>), lmbench's summary tables (also for
 * one run), then the charts by section, and the system facts last, humanized (KiB/MiB, MHz), rows that differ
 * between runs shaded. No script, font or URL from outside; print styles keep charts and table
 * rows whole on a page. Every text goes through xml_fputs (valid UTF-8, no control bytes).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/report.h"
#include "analysis/summary.h"
#include "analysis/svg.h"
#include "core/escape.h"
#include "core/util.h"

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
	"td.val{max-width:360px;overflow-wrap:anywhere}td small{color:#555555}\n"
	"tr.diff td{background:#fff4d6}td.worse{background:#f6cdc8;font-weight:bold}"
	"td.better{background:#cdeed4;font-weight:bold}td.method{background:#e7e1f5}"
	"td.same{background:#e4eef8}\n"
	"ul.warn{color:#8a4b00;margin:6px 0}\n"
	"ul.toc{margin:4px 0 12px;padding-left:20px;line-height:1.5}\n"
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

static void esc(FILE *f, const char *s) { xml_fputs(f, s ? s : ""); }

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

/* A side's value of a row of the facts table (its first run's), malloc'd, or NULL. */
static char *fact_value(const struct side *side, const char *key)
{
	const struct run *r = side->runs[0];
	if (strcmp(key, "runs") == 0)
		return xasprintf("%zu", side->nruns);
	if (strcmp(key, "id") == 0)
		return r->id ? xasprintf("%ld", r->id) : NULL;
	if (strcmp(key, "rounds") == 0)
		return xasprintf("%d", r->rounds);
	static const char *const text_keys[] = { "label", "host", "profile", "source", "started",
						  "ended" };
	const char *text[] = { r->label, r->host, r->profile, r->source, r->started, r->ended };
	for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
		if (strcmp(key, text_keys[i]) == 0)
			return text[i] ? xstrdup(text[i]) : NULL;
	const char *x = kv_get(&r->facts, key);
	return x ? humanize(key, x) : NULL;
}

static void facts_section(FILE *f, const struct side *sides, size_t n)
{
	fputs("<h2 id=\"facts\">Runs and system facts</h2>\n<p class=\"note\">Rows shaded yellow "
	      "differ between runs. A side that pools several runs (a label) shows its first "
	      "run's facts.</p>\n<table>\n<tr><th></th>", f);
	for (size_t s = 0; s < n; s++) {
		char *name = report_side_name(&sides[s]);
		fputs("<th>", f);
		esc(f, name);
		fputs("</th>", f);
		free(name);
	}
	fputs("</tr>\n", f);
	static const char *const meta[] = { "runs", "id", "label", "host", "profile", "source",
					    "started", "ended", "rounds", NULL };
	struct kv_list keys = { 0 }; /* every key once, in first-seen order */
	for (int i = 0; meta[i]; i++)
		kv_set(&keys, meta[i], "");
	for (size_t s = 0; s < n; s++)
		for (size_t i = 0; i < sides[s].nruns; i++)
			for (size_t k = 0; k < sides[s].runs[i]->facts.n; k++)
				kv_set(&keys, sides[s].runs[i]->facts.v[k].key, "");
	for (size_t k = 0; k < keys.n; k++) {
		char **v = xcalloc(n, sizeof *v);
		int differ = 0, any = 0;
		for (size_t s = 0; s < n; s++) {
			v[s] = fact_value(&sides[s], keys.v[k].key);
			any |= v[s] != NULL;
			if (s > 0 && ((v[s] == NULL) != (v[0] == NULL) ||
				      (v[s] && v[0] && strcmp(v[s], v[0]) != 0)))
				differ = 1;
		}
		if (any) {
			fprintf(f, "<tr%s><th>", differ ? " class=\"diff\"" : "");
			esc(f, keys.v[k].key);
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
	kv_free(&keys);
	fputs("</table>\n", f);
}

static const char *verdict_class(enum verdict v)
{
	return v == V_WORSE ? " worse" : v == V_BETTER ? " better" : v == V_METHOD ? " method"
	       : v == V_SAME ? " same" : "";
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
			fprintf(f, "%s<br><small>&plusmn;%.1f%% (%zu)</small>",
				cmp_fmt_num(c->center, num, sizeof num), c->spread, c->nrounds);
		fputs("</td>", f);
		if (s == 0)
			continue;
		const struct cmp_test *ts = &r->test[s];
		/* the change the verdict judged: at equal clock it is not the raw one, and says so */
		const struct cmp_change *jc = ts->judged_eq && !isnan(ts->eq.est) ? &ts->eq :
					      !isnan(ts->raw.est) ? &ts->raw : NULL;
		char pe[PCT_LEN], pl[PCT_LEN], ph[PCT_LEN];
		if (jc)
			fprintf(f, "<td class=\"num\">%s%%<br><small>[%s, %s]%s</small></td>",
				pct_str(jc->est, pe), pct_str(jc->lo, pl), pct_str(jc->hi, ph),
				jc == &ts->eq ? " at equal clock" : "");
		else if (isnan(ts->change))
			fputs("<td class=\"num\">-</td>", f);
		else
			fprintf(f, "<td class=\"num\">%s%%</td>", pct_str(ts->change, pe));
		fprintf(f, "<td class=\"v%s\">%s", verdict_class(ts->v), verdict_name(ts->v));
		double p = ts->v == V_SAME ? ts->p_same_adj : ts->p_adj; /* the deciding test's */
		if (!isnan(p))
			fprintf(f, "<br><small>p=%.2g</small>", p);
		if (ts->judged_eq)
			fputs("<br><small>at equal clock</small>", f);
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

static void compare_head(FILE *f, const struct side *sides, size_t n)
{
	fputs("<table>\n<tr><th>metric</th><th>unit</th>", f);
	for (size_t s = 0; s < n; s++) {
		char *name = report_side_name(&sides[s]);
		fputs("<th>", f);
		esc(f, name);
		fputs(s ? "</th><th>change</th><th>verdict</th>" : " (base)</th>", f);
		free(name);
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

static double row_max_change(const struct cmp_row *r, size_t n, int untested_only)
{
	double m = NAN;
	for (size_t s = 1; s < n; s++) {
		const struct cmp_test *ts = &r->test[s];
		if (isnan(ts->change) || (untested_only && ts->v != V_NOTEST))
			continue;
		if (isnan(m) || fabs(ts->change) > m)
			m = fabs(ts->change);
	}
	return m;
}

/* Row indices by their largest untested change, largest first; ctx: the table. */
static int by_change(const void *a, const void *b, void *ctx)
{
	const struct cmp_table *t = ctx;
	double x = row_max_change(&t->rows[*(const size_t *)a], t->nsides, 1);
	double y = row_max_change(&t->rows[*(const size_t *)b], t->nsides, 1);
	return (x < y) - (x > y);
}

/* Nothing could be judged (fewer than 4 rounds a side, as with lmbench files): the largest
 * changes are still what a reader wants first, shown as such — not as verdicts. */
static void untested_changes(FILE *f, const struct cmp_table *t, const struct side *sides,
			     size_t n)
{
	size_t *idx = xmalloc((t->nrows ? t->nrows : 1) * sizeof *idx), k = 0;
	for (size_t i = 0; i < t->nrows; i++)
		if (!isnan(row_max_change(&t->rows[i], n, 1)))
			idx[k++] = i;
	if (k) {
		sort_with(idx, k, sizeof *idx, by_change, (void *)t);
		size_t show = k < 15 ? k : 15;
		fprintf(f, "<p class=\"note\">%zu points could not be tested (fewer than 4 rounds on a "
			   "side: <code>plumb run --repeat</code>). The %zu largest differences, "
			   "<b>not</b> verdicts:</p>\n", k, show);
		compare_head(f, sides, n);
		for (size_t i = 0; i < show; i++)
			compare_row(f, &t->rows[idx[i]], n);
		fputs("</table>\n", f);
	}
	free(idx);
}

/* The verdicts first: the points that changed significantly (worse first, largest change
 * first, as compare sorts them), then every compared point folded away in a <details>. */
static void compare_section(FILE *f, const struct side *sides, size_t n, const struct cmp_opts *o)
{
	struct cmp_table *t = cmp_build(sides, n, o);
	size_t changed = 0, same = 0;
	for (size_t i = 0; i < t->nrows; i++) {
		changed += row_changed(&t->rows[i], n);
		for (size_t s = 1; s < n; s++)
			same += t->rows[i].test[s].v == V_SAME;
	}
	fprintf(f, "<h2 id=\"verdicts\">Verdicts</h2>\n<p class=\"note\">Baseline: ");
	esc(f, sides[0].name);
	fprintf(f, ". %zu of %zu compared points changed significantly (%zu worse); %zu judged the "
		   "same. Values: median "
		   "of the rounds &plusmn;half their range (number of rounds). Verdict: the change's 95 "
		   "%% interval on log values (the run as the unit of noise; paired rounds for a plumb "
		   "ab session) excludes 0, &alpha; = %g, %s over %zu tests, and a change of "
		   "at least %g %%; <i>same</i>: the interval lies within &plusmn;%g %% (two one-sided "
		   "tests, corrected alike).</p>\n", changed, t->nrows, cmp_regressions(t), same,
		t->o.alpha, t->o.corr == CORR_HOLM ? "Holm" : t->o.corr == CORR_BH ?
			"Benjamini&ndash;Hochberg" : "no correction",
		t->ntests, t->o.min_effect, t->o.min_effect);
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
	} else {
		untested_changes(f, t, sides, n);
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

/* The chart sections, in page order, by the charts' slug prefixes. */
static const struct {
	const char *prefix, *title, *id;
} sect[] = {
	{ "side-", "Side metrics: what else happened during the samples", "side" }, /* report_side.c */
	{ "mem-latency", "Memory latency", "latency" },
	{ "bw-mem", "Memory bandwidth", "bandwidth" },
	{ "ctx-switch", "Context switch", "ctx" },
	{ "series-", "Other series", "series" },
	{ "bars-", "Summary metrics", "bars" },
	{ "trend-", "Series across the versions", "trend" }, /* 3+ sides: report_trend.c */
};
#define NSECT (sizeof sect / sizeof *sect)

static int in_section(const struct report_chart *c, size_t k)
{
	return strncmp(c->slug, sect[k].prefix, strlen(sect[k].prefix)) == 0;
}

/* The chart sections: as the table of contents lists them (toc: a line per section naming
 * its charts), or as the page shows them. */
static void chart_sections(FILE *f, const struct report_chart *c, size_t nc, int toc)
{
	for (size_t k = 0; k < NSECT; k++) {
		int opened = 0;
		for (size_t i = 0; i < nc; i++) {
			if (!in_section(&c[i], k))
				continue;
			if (!opened)
				fprintf(f, toc ? "<li><a href=\"#%s\">%s</a>: " :
					   "<h2 id=\"%s\">%s</h2>\n<div class=\"charts\">\n",
					sect[k].id, sect[k].title);
			if (toc) {
				fprintf(f, "%s<a href=\"#%s\">", opened ? " &middot; " : "", c[i].slug);
				esc(f, c[i].title);
				fputs("</a>", f);
			} else {
				chart_block(f, &c[i]);
			}
			opened = 1;
		}
		if (opened)
			fputs(toc ? "</li>\n" : "</div>\n", f);
	}
}

/* The table of contents: every section, and under each chart section its charts. */
static void contents(FILE *f, size_t n, const struct report_chart *c, size_t nc)
{
	fputs("<nav id=\"contents\"><b>Contents</b>\n<ul class=\"toc\">\n", f);
	if (n >= 2)
		fputs("<li><a href=\"#verdicts\">Verdicts</a></li>\n", f);
	fputs("<li><a href=\"#summary\">lmbench summary</a></li>\n", f);
	chart_sections(f, c, nc, 1);
	fputs("<li><a href=\"#facts\">Runs and system facts</a></li>\n</ul>\n</nav>\n", f);
}

void report_html(FILE *f, const struct side *sides, size_t n, const struct cmp_opts *o)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>plumb report</title>\n<style>\n", f);
	fputs(css, f);
	fputs("</style>\n</head>\n<body>\n<h1>plumb report</h1>\n<p class=\"note\">", f);
	for (size_t s = 0; s < n; s++) {
		char *name = report_side_name(&sides[s]);
		fputs(s ? ", " : "Runs: ", f);
		esc(f, name);
		free(name);
		if (sides[s].runs[0]->host) {
			fputs(" (", f);
			esc(f, sides[s].runs[0]->host);
			fputs(")", f);
		}
	}
	fputs(n >= 2 ? ". Verdicts first, then lmbench's summary tables, the charts (the median of "
		       "the rounds at each point; dashes tell runs apart), and the system facts.</p>\n"
		     : ". lmbench's summary tables, the charts (the median of the rounds at each "
		       "point), and the system facts.</p>\n", f);
	struct report_chart *c;
	size_t nc = report_charts(sides, n, 0, &c);
	contents(f, n, c, nc);
	if (n >= 2)
		compare_section(f, sides, n, o);
	summary_section(f, sides, n);
	chart_sections(f, c, nc, 0);
	if (nc == 0)
		fputs("<p>No results to chart.</p>\n", f);
	facts_section(f, sides, n);
	fputs("</body>\n</html>\n", f);
	report_charts_free(c, nc);
}
