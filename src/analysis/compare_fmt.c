/*
 * compare_fmt.c — prints a compare table (compare.h) as text, markdown, CSV or JSON.
 * Text and markdown show one line per point: each side's median ±spread (rounds), then for each
 * compared side its change and verdict; CSV has one line per point and side (easy to load);
 * JSON carries everything, p-values included.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare.h"
#include "analysis/compare_side.h"
#include "core/escape.h"
#include "core/json.h"
#include "core/util.h"

int cmp_format_parse(const char *s, enum cmp_format *f)
{
	static const char *const names[] = { "text", "markdown", "csv", "json" };
	for (int i = 0; i < 4; i++)
		if (strcmp(s, names[i]) == 0) {
			*f = (enum cmp_format)i;
			return 0;
		}
	return -1;
}

static void cell_text(const struct cmp_cell *c, char *buf, size_t len)
{
	char v[32];
	if (!c->present)
		snprintf(buf, len, "-");
	else if (isnan(c->spread))
		snprintf(buf, len, "%s (%zu)%s%s%s", cmp_fmt_num(c->center, v, sizeof v), c->nrounds,
			 c->noise > NOISY_PCT ? " noisy" : "", *c->caveat ? " caveat:" : "", c->caveat);
	else
		snprintf(buf, len, "%s ±%.1f%% (%zu)%s%s%s", cmp_fmt_num(c->center, v, sizeof v),
			 c->spread, c->nrounds, c->noise > NOISY_PCT ? " noisy" : "",
			 *c->caveat ? " caveat:" : "", c->caveat);
}

static void interval_text(const struct cmp_change *c, char *buf, size_t len)
{
	char e[PCT_LEN], l[PCT_LEN], h[PCT_LEN];
	if (isnan(c->est))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s%% [%s, %s]", pct_str(c->est, e), pct_str(c->lo, l),
			 pct_str(c->hi, h));
}

/* The raw change with its interval; a bare change when it was not estimated (no test). */
static void change_text(const struct cmp_test *t, char *buf, size_t len)
{
	char e[PCT_LEN];
	if (!isnan(t->raw.est))
		interval_text(&t->raw, buf, len);
	else if (isnan(t->change))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s%%", pct_str(t->change, e));
}

/* The verdict word, then the corrected p of the test that decided it (of the equivalence test
 * for `same`), and "at equal clock" when the judged change is the at-equal-clock column. */
static void verdict_text(const struct cmp_test *t, char *buf, size_t len)
{
	double p = t->v == V_SAME ? t->p_same_adj : t->p_adj;
	const char *eq = t->judged_eq ? ", at equal clock" : "";
	if (!isnan(p))
		snprintf(buf, len, "%s (p=%.2g%s)", verdict_name(t->v), p, eq);
	else
		snprintf(buf, len, "%s", verdict_name(t->v));
}

/* What "no significant change" means for this row: the smallest change it could flag. */
static void detect_text(const struct cmp_test *t, char *buf, size_t len)
{
	if (t->v == V_UNDECIDED && !isnan(t->mde))
		snprintf(buf, len, "±%.1f%%", t->mde);
	else
		snprintf(buf, len, "%s", "");
}

static void noise_text(const struct cmp_test *t, char *buf, size_t len)
{
	if (t->noise == NS_HISTORY)
		snprintf(buf, len, "history %d runs ±%.1f%%", t->hist_runs, t->noise_pct);
	else if (t->noise == NS_DEFAULT)
		snprintf(buf, len, "default ±%.1f%%", t->noise_pct);
	else if (t->noise == NS_PAIRED)
		snprintf(buf, len, "paired rounds");
	else
		snprintf(buf, len, "%s", "");
}

/* A table of strings: column widths computed, then printed as aligned text or markdown. */
struct grid {
	size_t ncol, nrow;
	char **c;     /* nrow * ncol */
	char *right;  /* per column: 1 = right-aligned (numbers) */
};

static void grid_set(struct grid *g, size_t r, size_t c, const char *s)
{
	g->c[r * g->ncol + c] = xstrdup(s);
}

/* Display width: count UTF-8 lead bytes only (the ± sign is two bytes, one column). */
static size_t width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

/* Cut s to at most w columns, its end replaced by "..." (UTF-8 lead bytes counted). */
static void cut_to_width(char *s, size_t w)
{
	if (width(s) <= w || w < 4)
		return;
	size_t cols = 0;
	char *p = s;
	for (; *p; p++) {
		if (((unsigned char)*p & 0xc0) != 0x80 && cols++ == w - 3)
			break;
	}
	memcpy(p, "...", 4);
}

/* A text table wider than 120 columns gives up the end of its longest first cells (metric
 * names with their parameters: the JSON and CSV keep them whole), down to 24 columns. */
static void grid_fit(const struct grid *g, size_t *w)
{
	size_t total = 2 * (g->ncol - 1);
	for (size_t c = 0; c < g->ncol; c++)
		total += w[c];
	if (total <= 120 || w[0] <= 24)
		return;
	size_t over = total - 120, w0 = w[0] - (over < w[0] - 24 ? over : w[0] - 24);
	for (size_t r = 0; r < g->nrow; r++)
		cut_to_width(g->c[r * g->ncol], w0);
	w[0] = w0;
}

static void grid_print(FILE *f, const struct grid *g, int markdown)
{
	/* cells hold names from runs (labels, metrics, units): escaped for the medium first, so
	 * widths are those of what is printed and a LF or '|' cannot forge a row or a column */
	for (size_t i = 0; i < g->nrow * g->ncol; i++) {
		char *e = esc_dup(markdown ? md_fputs : term_fputs, g->c[i]);
		free(g->c[i]);
		g->c[i] = e;
	}
	size_t *w = xcalloc(g->ncol, sizeof *w);
	for (size_t r = 0; r < g->nrow; r++)
		for (size_t c = 0; c < g->ncol; c++)
			if (width(g->c[r * g->ncol + c]) > w[c])
				w[c] = width(g->c[r * g->ncol + c]);
	if (!markdown)
		grid_fit(g, w);
	for (size_t r = 0; r < g->nrow; r++) {
		for (size_t c = 0; c < g->ncol; c++) {
			const char *s = g->c[r * g->ncol + c];
			size_t pad = w[c] - width(s);
			int right = g->right[c] && r > 0;
			if (markdown)
				fputs(c ? " | " : "| ", f);
			else if (c)
				fputs("  ", f);
			if (right)
				fprintf(f, "%*s", (int)pad, "");
			fputs(s, f);
			if (!right && (markdown || c + 1 < g->ncol))
				fprintf(f, "%*s", (int)pad, "");
		}
		fputs(markdown ? " |\n" : "\n", f);
		if (markdown && r == 0) {
			for (size_t c = 0; c < g->ncol; c++) {
				fputs(c ? " | " : "| ", f);
				for (size_t k = 0; k < w[c]; k++)
					fputc(k + 1 == w[c] && g->right[c] ? ':' : '-', f);
			}
			fputs(" |\n", f);
		}
	}
	for (size_t i = 0; i < g->nrow * g->ncol; i++)
		free(g->c[i]);
	free(g->c);
	free(g->right);
	free(w);
}

/* Per compared side: value, change, change at equal clock, verdict, detectable, noise. */
#define SIDE_COLS 6

static void print_grid(FILE *f, const struct cmp_table *t, int markdown)
{
	struct grid g = { .ncol = 3 + (t->nsides - 1) * SIDE_COLS,
			  .nrow = t->nrows - cmp_rows_hidden(t) + 1 };
	g.c = xcalloc(g.ncol * g.nrow, sizeof *g.c);
	g.right = xcalloc(g.ncol, 1);
	g.right[2] = 1;
	for (size_t s = 1; s < t->nsides; s++) {
		size_t k = 3 + (s - 1) * SIDE_COLS;
		g.right[k] = g.right[k + 1] = g.right[k + 2] = g.right[k + 4] = 1;
	}
	size_t c = 0;
	char h[200];
	grid_set(&g, 0, c++, "metric");
	grid_set(&g, 0, c++, "unit");
	snprintf(h, sizeof h, "%s (base)", t->sides[0].name);
	grid_set(&g, 0, c++, h);
	for (size_t s = 1; s < t->nsides; s++) {
		grid_set(&g, 0, c++, t->sides[s].name);
		grid_set(&g, 0, c++, "change [95% CI]");
		grid_set(&g, 0, c++, "at equal clock");
		grid_set(&g, 0, c++, "verdict");
		grid_set(&g, 0, c++, "detectable");
		grid_set(&g, 0, c++, "noise");
	}
	for (size_t i = 0, row = 0; i < t->nrows; i++) {
		const struct cmp_row *r = &t->rows[i];
		char buf[256];
		if (!cmp_row_shown(t, r))
			continue;
		row++;
		c = 0;
		grid_set(&g, row, c++, cmp_row_name(r, buf, sizeof buf));
		grid_set(&g, row, c++, r->unit);
		cell_text(&r->cell[0], buf, sizeof buf);
		grid_set(&g, row, c++, buf);
		for (size_t s = 1; s < t->nsides; s++) {
			const struct cmp_test *ts = &r->test[s];
			cell_text(&r->cell[s], buf, sizeof buf);
			grid_set(&g, row, c++, buf);
			change_text(ts, buf, sizeof buf);
			grid_set(&g, row, c++, buf);
			if (isnan(ts->eq.est))
				snprintf(buf, sizeof buf, "-");
			else
				interval_text(&ts->eq, buf, sizeof buf);
			grid_set(&g, row, c++, buf);
			verdict_text(ts, buf, sizeof buf);
			grid_set(&g, row, c++, buf);
			detect_text(ts, buf, sizeof buf);
			grid_set(&g, row, c++, buf);
			noise_text(ts, buf, sizeof buf);
			grid_set(&g, row, c++, buf);
		}
	}
	grid_print(f, &g, markdown);
}

/* The default text table, within 120 columns for up to four sides (--wide: print_grid): two
 * sides show each value, the judged change with its interval and the verdict; three or more
 * show the base's value and, for each other side, its change and verdict in one column
 * ("+12% [+8, +16] worse"; "undecided" for no significant change; "worse*" judged at equal
 * clock, said under the table). Long side names become A, B, C... named in a line above the
 * table. */
static void narrow_change(const struct cmp_test *ts, int compact, char *buf, size_t len)
{
	const struct cmp_change *c = ts->judged_eq && !isnan(ts->eq.est) ? &ts->eq : &ts->raw;
	const char *eq = ts->judged_eq ? "*" : "";
	if (!compact) {
		if (c == &ts->eq)
			interval_text(c, buf, len);
		else
			change_text(ts, buf, len);
		return;
	}
	const char *v = ts->v == V_UNDECIDED ? "undecided" : verdict_name(ts->v);
	if (!isnan(c->est))
		snprintf(buf, len, "%+.0f%% [%+.0f, %+.0f] %s%s", c->est, c->lo, c->hi, v, eq);
	else if (!isnan(ts->change))
		snprintf(buf, len, "%+.0f%% %s", ts->change, v);
	else
		snprintf(buf, len, "%s", v);
}

static void print_narrow(FILE *f, const struct cmp_table *t)
{
	int letters = 0, two = t->nsides == 2, starred = 0;
	for (size_t s = 0; s < t->nsides; s++)
		letters |= width(t->sides[s].name) > (two ? 14 : 10);
	if (letters) {
		/* within 120 columns: a name cut at 110, a line broken before a name past it */
		size_t col = 0;
		for (size_t s = 0; s < t->nsides && s < 26; s++) {
			char nm[111];
			size_t w = strlen(term_str(t->sides[s].name, nm, sizeof nm)) + 4;
			if (s && col + 2 + w > 120) {
				fputs(",\n", f);
				col = 0;
			} else if (s) {
				fputs(", ", f);
				col += 2;
			}
			fprintf(f, "%c = %s", (int)('A' + s), nm);
			col += w;
		}
		fputc('\n', f);
	}
	size_t per = two ? 3 : 1;
	struct grid g = { .ncol = 3 + (t->nsides - 1) * per,
			  .nrow = t->nrows - cmp_rows_hidden(t) + 1 };
	g.c = xcalloc(g.ncol * g.nrow, sizeof *g.c);
	g.right = xcalloc(g.ncol, 1);
	g.right[2] = g.right[3] = g.right[4] = 1; /* two sides: the values and the change */
	char h[200], buf[256], v[32];
	grid_set(&g, 0, 0, "metric");
	grid_set(&g, 0, 1, "unit");
	for (size_t s = 0; s < t->nsides; s++) {
		char nm[160];
		snprintf(nm, sizeof nm, "%s", t->sides[s].name);
		if (letters)
			snprintf(nm, sizeof nm, "%c", (int)('A' + (s < 26 ? s : 25)));
		snprintf(h, sizeof h, s ? two ? "%s" : "%s: change, verdict" : "%s (base)", nm);
		grid_set(&g, 0, s ? 3 + (s - 1) * per : 2, h);
	}
	if (two) {
		grid_set(&g, 0, 4, "change [95% CI]");
		grid_set(&g, 0, 5, "verdict");
	}
	for (size_t i = 0, row = 0; i < t->nrows; i++) {
		const struct cmp_row *r = &t->rows[i];
		if (!cmp_row_shown(t, r))
			continue;
		row++;
		grid_set(&g, row, 0, cmp_row_name(r, buf, sizeof buf));
		grid_set(&g, row, 1, r->unit);
		for (size_t s = 0; s < t->nsides; s++) {
			const struct cmp_cell *c = &r->cell[s];
			size_t k = s ? 3 + (s - 1) * per : 2;
			if (!s || two) {
				snprintf(buf, sizeof buf, "%s%s%s", c->present ?
					 cmp_fmt_num(c->center, v, sizeof v) : "-",
					 c->noise > NOISY_PCT ? " noisy" : "", *c->caveat ? " caveat" : "");
				grid_set(&g, row, k++, buf);
			}
			if (!s)
				continue;
			const struct cmp_test *ts = &r->test[s];
			narrow_change(ts, !two, buf, sizeof buf);
			starred |= !two && ts->judged_eq;
			grid_set(&g, row, k++, buf);
			if (two) {
				snprintf(buf, sizeof buf, "%s%s%s", verdict_name(ts->v),
					 ts->judged_eq ? " at equal clock" : "",
					 ts->v != V_UNDECIDED && cmp_side_disturbed(t, r, s)
						 ? " disturbed" : "");
				grid_set(&g, row, k, buf);
			}
		}
	}
	grid_print(f, &g, 0);
	if (starred)
		fputs("*: judged at equal clock (docs/compare.md)\n", f);
}

/* The default text header: what the narrow table's columns are, in lines under 120 columns. */
static void print_header_narrow(FILE *f, const struct cmp_table *t)
{
	/* within 120 columns: a long name (cut at 110) gets the line to itself */
	char nm[111];
	term_str(t->sides[0].name, nm, sizeof nm);
	fprintf(f, "baseline %s%s", nm, strlen(nm) > 30 ? "\n" : "; ");
	fprintf(f, "value: median of the rounds; change: ratio of geometric means, 95%% interval\n"
		   "verdict: t test on logs, alpha %g, %s over %zu tests, min effect %g%%; same: "
		   "within ±%g%%\n(--wide: spreads, rounds, change at equal clock, detectable change, "
		   "noise; docs/compare.md)\n",
		t->o.alpha, t->o.corr == CORR_HOLM ? "Holm" : t->o.corr == CORR_BH ? "BH" : "uncorrected",
		t->ntests, t->o.min_effect, t->o.min_effect);
	if (t->seq_looks)
		fprintf(f, "sequential plumb ab session: %d of %d looks reached, alpha spent over them\n",
			t->seq_looks_done, t->seq_looks);
	fputc('\n', f);
}

static void print_header(FILE *f, const struct cmp_table *t, int markdown)
{
	const char *p = markdown ? "" : "";
	fprintf(f, "%sbaseline ", p);
	(markdown ? md_fputs : term_fputs)(f, t->sides[0].name);
	fprintf(f, "; values: median of the rounds ±half their range (rounds)\n");
	fprintf(f, "%schange: ratio of geometric means, 95%% interval; the run is the unit of noise "
		   "(paired rounds within one plumb ab session)\n", p);
	const char *corr = t->o.corr == CORR_HOLM ? "Holm" : t->o.corr == CORR_BH ?
			   "Benjamini-Hochberg" : "no correction";
	fprintf(f, "%sverdict: worse/better: interval excludes 0, t test on logs, alpha %g, %s over "
		   "%zu tests, min effect %g%%; same: the %g%% interval lies within ±%g%% (two "
		   "one-sided tests, %s); metrics that follow the CPU clock are judged at equal "
		   "clock; detectable: smallest change a row could flag\n%s",
		p, t->o.alpha, corr, t->ntests, t->o.min_effect, 100 * (1 - t->o.alpha),
		t->o.min_effect, corr, "");
	if (t->seq_looks)
		fprintf(f, "%ssequential plumb ab session: %d of %d looks reached, alpha spent over "
			   "them; p on the scale of alpha (docs/compare.md, \"Sequential sessions\")\n",
			p, t->seq_looks_done, t->seq_looks);
	fputc('\n', f);
}

static void print_footer(FILE *f, const struct cmp_table *t)
{
	size_t n[V_SAME + 1] = { 0 };
	for (size_t i = 0; i < t->nrows; i++)
		for (size_t s = 1; cmp_row_shown(t, &t->rows[i]) && s < t->nsides; s++)
			n[t->rows[i].test[s].v]++;
	/* the counts stay the last line (scripts read it) */
	size_t hidden = cmp_rows_hidden(t);
	if (hidden)
		fprintf(f, "\n%zu batch mean%s not shown: judged, neither worse nor better; %s "
			   "steady figure%s shown (--all shows every row)", hidden,
			hidden == 1 ? "" : "s", hidden == 1 ? "its" : "their", hidden == 1 ? " is" : "s are");
	/* the first four counts keep their order (scripts read them); same follows */
	fprintf(f, "\n%zu worse, %zu better, %zu no significant change, %zu no test, %zu same",
		n[V_WORSE], n[V_BETTER], n[V_UNDECIDED], n[V_NOTEST], n[V_SAME]);
	if (n[V_METHOD])
		fprintf(f, ", %zu method differs", n[V_METHOD]);
	if (n[V_MISSING])
		fprintf(f, ", %zu missing", n[V_MISSING]);
	if (n[V_NEUTRAL])
		fprintf(f, ", %zu not judged (neutral)", n[V_NEUTRAL]);
	fprintf(f, "\n");
}

static void csv_num(FILE *f, double v)
{
	if (isnan(v))
		fputc(',', f);
	else
		fprintf(f, ",%.6g", v);
}

static void print_csv(FILE *f, const struct cmp_table *t)
{
	fprintf(f, "metric,params,x,unit,side,value,min,max,spread_pct,rounds,change_pct,"
		   "change_lo_pct,change_hi_pct,equal_clock_change_pct,equal_clock_lo_pct,"
		   "equal_clock_hi_pct,judged_at_equal_clock,p,p_adjusted,verdict,detectable_pct,"
		   "noise,p_same,p_same_adjusted,disturbed,side_metrics\n");
	for (size_t i = 0; i < t->nrows; i++) {
		const struct cmp_row *r = &t->rows[i];
		for (size_t s = 0; s < t->nsides; s++) {
			const struct cmp_cell *c = &r->cell[s];
			csv_fputs(f, r->metric);
			fputc(',', f);
			csv_fputs(f, r->params);
			csv_num(f, r->x);
			fputc(',', f);
			csv_fputs(f, r->unit);
			fputc(',', f);
			csv_fputs(f, t->sides[s].name);
			csv_num(f, c->center);
			csv_num(f, c->lo);
			csv_num(f, c->hi);
			csv_num(f, c->spread);
			fprintf(f, ",%zu", c->nrounds);
			if (s == 0) {
				fprintf(f, ",,,,,,,,,,baseline,,,,");
				cmp_side_csv(f, t, r, s);
				fputc('\n', f);
				continue;
			}
			const struct cmp_test *ts = &r->test[s];
			csv_num(f, ts->raw.est);
			csv_num(f, ts->raw.lo);
			csv_num(f, ts->raw.hi);
			csv_num(f, ts->eq.est);
			csv_num(f, ts->eq.lo);
			csv_num(f, ts->eq.hi);
			fprintf(f, ",%d", ts->judged_eq);
			csv_num(f, ts->p);
			csv_num(f, ts->p_adj);
			fputc(',', f);
			csv_fputs(f, verdict_name(ts->v));
			csv_num(f, ts->v == V_UNDECIDED ? ts->mde : NAN);
			fputc(',', f);
			csv_fputs(f, noise_src_name(ts->noise));
			csv_num(f, ts->p_same);
			csv_num(f, ts->p_same_adj);
			cmp_side_csv(f, t, r, s);
			fputc('\n', f);
		}
	}
}

/* A computed percentage in JSON: 6 significant digits, as the CSV prints it (a ratio of two
 * measurements holds no more; +2225570095249.5713 is +2.22557e12). */
static void json_pct(struct json *j, const char *key, double v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%.6g", v);
	json_num(j, key, isfinite(v) ? strtod(buf, NULL) : v);
}

/* The test of a side against the first, in compare's JSON document. */
static void json_test(struct json *j, const struct cmp_test *ts)
{
	json_pct(j, "change_pct", ts->change);
	json_pct(j, "change_lo_pct", ts->lo);
	json_pct(j, "change_hi_pct", ts->hi);
	json_pct(j, "raw_change_pct", ts->raw.est);
	json_pct(j, "raw_change_lo_pct", ts->raw.lo);
	json_pct(j, "raw_change_hi_pct", ts->raw.hi);
	json_pct(j, "equal_clock_change_pct", ts->eq.est);
	json_pct(j, "equal_clock_lo_pct", ts->eq.lo);
	json_pct(j, "equal_clock_hi_pct", ts->eq.hi);
	json_bool(j, "judged_at_equal_clock", ts->judged_eq);
	json_num(j, "detectable_pct", ts->v == V_UNDECIDED ? ts->mde : NAN);
	json_str(j, "noise", noise_src_name(ts->noise));
	json_num(j, "noise_pct", ts->noise_pct);
	if (ts->noise == NS_HISTORY)
		json_int(j, "noise_history_runs", ts->hist_runs);
	json_num(j, "p", ts->p);
	json_num(j, "p_adjusted", ts->p_adj);
	json_num(j, "p_same", ts->p_same);
	json_num(j, "p_same_adjusted", ts->p_same_adj);
	json_str(j, "verdict", verdict_name(ts->v));
}

static void print_json(FILE *f, const struct cmp_table *t)
{
	struct json j;
	json_init(&j, f, 1);
	json_obj_begin(&j, NULL);
	json_str(&j, "schema", "plumb/2");
	json_str(&j, "kind", "compare");
	json_num(&j, "alpha", t->o.alpha);
	json_str(&j, "correction", correction_name(t->o.corr));
	json_num(&j, "min_effect_pct", t->o.min_effect);
	json_int(&j, "tests", (long long)t->ntests);
	json_int(&j, "regressions", (long long)cmp_regressions(t));
	json_arr_begin(&j, "sides");
	for (size_t s = 0; s < t->nsides; s++) {
		json_obj_begin(&j, NULL);
		json_str(&j, "name", t->sides[s].name);
		json_arr_begin(&j, "run_ids");
		for (size_t i = 0; i < t->sides[s].nruns; i++)
			json_int(&j, NULL, t->sides[s].runs[i]->id);
		json_arr_end(&j);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_arr_begin(&j, "warnings");
	for (size_t i = 0; i < t->nwarnings; i++)
		json_str(&j, NULL, t->warnings[i]);
	json_arr_end(&j);
	json_arr_begin(&j, "rows");
	for (size_t i = 0; i < t->nrows; i++) {
		const struct cmp_row *r = &t->rows[i];
		json_obj_begin(&j, NULL);
		json_str(&j, "metric", r->metric);
		json_str(&j, "params", r->params);
		json_num(&j, "x", r->x);
		json_str(&j, "unit", r->unit);
		json_str(&j, "better", r->def ? better_name(r->def->better) : NULL);
		/* "steady": the median operation, the judged figure; "mean": a batch mean whose
		 * steady figure is a row too (shown in the text only where it changed) */
		json_str(&j, "figure", r->def && r->def->steady_of ? "steady"
				       : r->has_steady ? "mean" : NULL);
		json_bool(&j, "shown", cmp_row_shown(t, r));
		json_arr_begin(&j, "sides");
		for (size_t s = 0; s < t->nsides; s++) {
			const struct cmp_cell *c = &r->cell[s];
			json_obj_begin(&j, NULL);
			json_num(&j, "value", c->center);
			json_num(&j, "min", c->lo);
			json_num(&j, "max", c->hi);
			json_num(&j, "spread_pct", c->spread);
			json_int(&j, "rounds", (long long)c->nrounds);
			json_int(&j, "method_version", c->version);
			json_num(&j, "sample_noise_pct", c->noise);
			json_bool(&j, "noisy", c->noise > NOISY_PCT);
			json_str(&j, "caveat", *c->caveat ? c->caveat : NULL);
			if (s > 0)
				json_test(&j, &r->test[s]);
			cmp_side_json(&j, t, r, s);
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	fputc('\n', f);
}

/* The answer in markdown: each line a paragraph, escaped (a side's name is a run's text). */
static void answer_markdown(FILE *f, const struct cmp_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return;
	cmp_answer(m, t);
	fclose(m);
	md_paragraphs(f, buf);
	free(buf);
}

void cmp_print(FILE *f, const struct cmp_table *t, enum cmp_format fmt)
{
	switch (fmt) {
	case CF_TEXT:
	case CF_MARKDOWN:
		if (fmt == CF_MARKDOWN)
			answer_markdown(f, t);
		else
			cmp_answer(f, t);
		if (fmt == CF_TEXT && !t->o.wide) {
			print_header_narrow(f, t);
			print_narrow(f, t);
		} else {
			print_header(f, t, fmt == CF_MARKDOWN);
			print_grid(f, t, fmt == CF_MARKDOWN);
		}
		if (fmt == CF_TEXT)
			cmp_side_text(f, t);
		print_footer(f, t);
		break;
	case CF_CSV:
		print_csv(f, t);
		break;
	case CF_JSON:
		print_json(f, t);
		break;
	}
}
