/*
 * trend_fmt.c — prints `plumb trend`'s table (trend.h): the changes first, then one block per
 * metric with the versions as rows, so 30 versions stay within 120 columns; markdown, CSV (one
 * row per metric and version) and JSON. Every name from a run goes through core/escape.h.
 */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "analysis/compare_side.h"
#include "analysis/trend.h"
#include "core/escape.h"
#include "core/json.h"
#include "core/util.h"

#define NAME_COL 28 /* a version's name in text tables, cut with "..." beyond it */
#define NAME_CHANGE 22 /* the same in a change's line, which names two versions */

static const char *row_name(const struct trend_row *r, char *buf, size_t len)
{
	return cmp_row_name(r->row, buf, len);
}

static const char *direction(const struct trend_change *c)
{
	return c->worse > 0 ? "worse" : c->worse < 0 ? "better" : "";
}

const char *trend_change_text(const struct trend_table *t, const struct trend_row *r,
			      const struct trend_change *c, char *buf, size_t len)
{
	char nb[512], m[600], a[NAME_CHANGE + 8], b[NAME_CHANGE + 8];
	term_str(row_name(r, nb, sizeof nb), m, sizeof m);
	term_str(t->sides[c->from].name, a, NAME_CHANGE + 1);
	term_str(t->sides[c->at].name, b, NAME_CHANGE + 1);
	char pe[PCT_LEN], pl[PCT_LEN], ph[PCT_LEN];
	snprintf(buf, len, "%s: %s %% [%s, %s] between %s and %s", m, pct_str(c->est, pe),
		 pct_str(c->lo, pl), pct_str(c->hi, ph), a, b);
	return buf;
}

static const char *status_note(const struct trend_row *r)
{
	switch (r->status) {
	case TS_NEUTRAL: return "a property of the machine: not judged";
	case TS_METHOD: return "method versions differ along the series: not judged";
	case TS_FEW: return "in fewer than 2 versions: not judged";
	case TS_JUDGED: break;
	}
	return NULL;
}

static const struct trend_change *change_at(const struct trend_row *r, size_t s)
{
	for (size_t i = 0; i < r->nch; i++)
		if (r->ch[i].at == s)
			return &r->ch[i];
	return NULL;
}

/* What moved at version s, in a few words: "v3: 2 worse +100.0 % (lat_syscall ...)"; 0 when
 * nothing did. */
static int version_moves(const struct trend_table *t, size_t s, char *buf, size_t len)
{
	size_t nw = 0, nb = 0, nn = 0;
	double lo = NAN, hi = NAN;
	char first[64] = "";
	for (size_t i = 0; i < t->nrows; i++) {
		const struct trend_change *c = change_at(&t->rows[i], s);
		if (!c)
			continue;
		nw += c->worse > 0, nb += c->worse < 0, nn += !c->worse;
		lo = isnan(lo) || c->est < lo ? c->est : lo;
		hi = isnan(hi) || c->est > hi ? c->est : hi;
		if (!*first)
			term_str(t->rows[i].row->metric, first, sizeof first);
	}
	if (!nw && !nb && !nn)
		return 0;
	first[strcspn(first, ".")] = 0;
	char name[NAME_CHANGE + 8], range[64], what[64] = "", pl[PCT_LEN], ph[PCT_LEN];
	term_str(t->sides[s].name, name, NAME_CHANGE + 1);
	if (fabs(hi - lo) < 0.05)
		snprintf(range, sizeof range, "%s %%", pct_str(lo, pl));
	else
		snprintf(range, sizeof range, "%s to %s %%", pct_str(lo, pl), pct_str(hi, ph));
	size_t k = 0;
	if (nw)
		k += (size_t)snprintf(what + k, sizeof what - k, "%zu worse", nw);
	if (nb && k < sizeof what)
		k += (size_t)snprintf(what + k, sizeof what - k, "%s%zu better", k ? ", " : "", nb);
	if (nn && k < sizeof what)
		snprintf(what + k, sizeof what - k, "%s%zu moved", k ? ", " : "", nn);
	snprintf(buf, len, "%s: %s %s (%s%s)", name, what, range, first,
		 nw + nb + nn > 1 ? " ..." : "");
	return 1;
}

/* The answer's first line, within 120 columns: at which versions the level moved, how and in
 * what, or that nothing did. "Changed at v3: 2 worse +100.0 % (lat_syscall ...); nothing else
 * changed (2 of 4 metrics steady)"; versions past the width are counted ("; 3 more versions"). */
static void print_answer(FILE *f, const struct trend_table *t)
{
	size_t moved = 0, more = 0;
	for (size_t i = 0; i < t->nrows; i++)
		moved += t->rows[i].nch > 0;
	if (!t->nchanges) {
		fprintf(f, "No change found along the %zu versions (%zu metrics judged)\n", t->nsides,
			t->ntested);
		return;
	}
	char line[512] = "Changed at", piece[200], tail[96];
	int said = 0;
	for (size_t s = 1; s < t->nsides; s++) {
		if (!version_moves(t, s, piece, sizeof piece))
			continue;
		if (said && strlen(line) + strlen(piece) + 2 > 120 - 20) {
			more++;
			continue;
		}
		snprintf(line + strlen(line), sizeof line - strlen(line), "%s %s", said++ ? ";" : "",
			 piece);
	}
	if (more)
		snprintf(line + strlen(line), sizeof line - strlen(line), "; %zu more version%s", more,
			 more == 1 ? "" : "s");
	if (moved < t->ntested)
		snprintf(tail, sizeof tail, "; nothing else changed (%zu of %zu metrics steady)",
			 t->ntested - moved, t->ntested);
	else
		snprintf(tail, sizeof tail, " (every metric judged moved)");
	fprintf(f, "%s%s\n", line, strlen(line) + strlen(tail) <= 120 ? tail : "");
	if (t->cmp->nwarnings)
		fprintf(f, "(%zu warning%s on stderr: the versions may differ by more than their code)\n",
			t->cmp->nwarnings, t->cmp->nwarnings == 1 ? "" : "s");
}

static void print_header(FILE *f, const struct trend_table *t, const char *bullet)
{
	fprintf(f, "%zu versions, %zu metrics judged (%s over them, alpha %g, min effect %g %%)\n",
		t->nsides, t->ntested, correction_name(t->o.corr), t->o.alpha, t->o.min_effect);
	if (!t->nchanges) {
		fprintf(f, "%sno change found\n", bullet);
		return;
	}
	for (size_t i = 0; i < t->nrows; i++)
		for (size_t k = 0; k < t->rows[i].nch; k++) {
			char buf[1024];
			const struct trend_change *c = &t->rows[i].ch[k];
			fprintf(f, "%s", bullet);
			if (*bullet == '-')
				md_fputs(f, trend_change_text(t, &t->rows[i], c, buf, sizeof buf));
			else
				fputs(trend_change_text(t, &t->rows[i], c, buf, sizeof buf), f);
			fprintf(f, " (%s)\n", direction(c));
		}
}

static void print_text(FILE *f, const struct trend_table *t)
{
	print_header(f, t, "  ");
	for (size_t i = 0; i < t->nrows; i++) {
		const struct trend_row *r = &t->rows[i];
		char nb[512], unit[64], n1[32], n2[32], n3[32];
		fputs("\n", f);
		term_fputs(f, row_name(r, nb, sizeof nb));
		fprintf(f, " (%s", term_str(r->row->unit, unit, sizeof unit));
		if (r->row->def && r->row->def->better != NEUTRAL)
			fprintf(f, ", %s is better", r->row->def->better == HIGHER ? "higher" : "lower");
		if (r->from_scatter)
			fprintf(f, "; run-to-run noise %.1f %%, %.1f df: the series' own scatter)\n",
				r->noise_pct, r->noise_df);
		else
			fprintf(f, "; run-to-run noise %.1f %%, %.0f df of which %d from the series)\n",
				r->noise_pct, r->noise_df, r->pooled_df);
		if (status_note(r))
			fprintf(f, "  %s\n", status_note(r));
		fprintf(f, "  %-*s %4s %10s  %-23s %s\n", NAME_COL, "version", "runs", "value",
			"95 % interval", "change");
		for (size_t s = 0; s < t->nsides; s++) {
			const struct trend_level *lv = &r->lv[s];
			char name[NAME_COL + 8], iv[64] = "";
			term_str(t->sides[s].name, name, NAME_COL + 1);
			if (!isnan(lv->lo))
				snprintf(iv, sizeof iv, "[%s, %s]", cmp_fmt_num(lv->lo, n2, sizeof n2),
					 cmp_fmt_num(lv->hi, n3, sizeof n3));
			const struct trend_change *c = change_at(r, s);
			/* no padding at the end of a line without a change */
			fprintf(f, "  %-*s %4zu %10s  %-*s", NAME_COL, name, lv->nruns,
				lv->present ? cmp_fmt_num(lv->value, n1, sizeof n1) : "-", c ? 23 : 0, iv);
			char pe[PCT_LEN], pl[PCT_LEN], ph[PCT_LEN];
			if (c)
				fprintf(f, " %s %% [%s, %s] %s", pct_str(c->est, pe),
					pct_str(c->lo, pl), pct_str(c->hi, ph), direction(c));
			fputs("\n", f);
		}
		/* what changed with each change of level (side metrics, docs/side-metrics.md) */
		for (size_t k = 0; k < r->nch; k++) {
			char title[256], a[41], b[41]; /* within 120 columns */
			snprintf(title, sizeof title, "  side metrics per operation, %s -> %s:\n",
				 term_str(t->sides[r->ch[k].from].name, a, sizeof a),
				 term_str(t->sides[r->ch[k].at].name, b, sizeof b));
			cmp_side_pair(f, t->cmp, r->row, r->ch[k].from, r->ch[k].at, 0, title);
		}
	}
}

static void print_markdown(FILE *f, const struct trend_table *t)
{
	fputs("## Changes\n\n", f);
	print_header(f, t, "- ");
	for (size_t i = 0; i < t->nrows; i++) {
		const struct trend_row *r = &t->rows[i];
		char nb[512], n1[32], n2[32], n3[32];
		fputs("\n### ", f);
		md_fputs(f, row_name(r, nb, sizeof nb));
		fputs(" (", f);
		md_fputs(f, r->row->unit);
		fprintf(f, "; run-to-run noise %.1f %%, %.0f df)\n\n", r->noise_pct, r->noise_df);
		if (status_note(r))
			fprintf(f, "%s\n\n", status_note(r));
		fputs("| version | runs | value | 95 % interval | change |\n|---|---:|---:|---|---|\n", f);
		for (size_t s = 0; s < t->nsides; s++) {
			const struct trend_level *lv = &r->lv[s];
			fputs("| ", f);
			md_fputs(f, t->sides[s].name);
			fprintf(f, " | %zu | %s | ", lv->nruns,
				lv->present ? cmp_fmt_num(lv->value, n1, sizeof n1) : "-");
			if (!isnan(lv->lo))
				fprintf(f, "%s – %s", cmp_fmt_num(lv->lo, n2, sizeof n2),
					cmp_fmt_num(lv->hi, n3, sizeof n3));
			fputs(" | ", f);
			const struct trend_change *c = change_at(r, s);
			char pe[PCT_LEN], pl[PCT_LEN], ph[PCT_LEN];
			if (c)
				fprintf(f, "**%s %%** [%s, %s] %s", pct_str(c->est, pe),
					pct_str(c->lo, pl), pct_str(c->hi, ph), direction(c));
			fputs(" |\n", f);
		}
	}
}

static void csv_num(FILE *f, double v)
{
	char b[40];
	fprintf(f, ",%s", isnan(v) ? "" : json_fmt_num(v, b, sizeof b));
}

static void print_csv(FILE *f, const struct trend_table *t)
{
	fputs("metric,params,x,unit,position,version,runs,value,lo,hi,change_pct,change_lo,"
	      "change_hi,direction,noise_pct,judged\n", f);
	for (size_t i = 0; i < t->nrows; i++) {
		const struct trend_row *r = &t->rows[i];
		for (size_t s = 0; s < t->nsides; s++) {
			const struct trend_level *lv = &r->lv[s];
			const struct trend_change *c = change_at(r, s);
			csv_fputs(f, r->row->metric);
			fputc(',', f);
			csv_fputs(f, r->row->params);
			csv_num(f, r->row->x);
			fputc(',', f);
			csv_fputs(f, r->row->unit);
			fprintf(f, ",%zu,", s + 1);
			csv_fputs(f, t->sides[s].name);
			fprintf(f, ",%zu", lv->nruns);
			csv_num(f, lv->present ? lv->value : NAN);
			csv_num(f, lv->lo);
			csv_num(f, lv->hi);
			csv_num(f, c ? c->est : NAN);
			csv_num(f, c ? c->lo : NAN);
			csv_num(f, c ? c->hi : NAN);
			fprintf(f, ",%s", c ? direction(c) : "");
			csv_num(f, r->noise_pct);
			fprintf(f, ",%d\n", r->status == TS_JUDGED);
		}
	}
}

static const char *status_name(enum trend_status s)
{
	switch (s) {
	case TS_JUDGED: return "judged";
	case TS_NEUTRAL: return "neutral";
	case TS_METHOD: return "method differs";
	case TS_FEW: return "too few versions";
	}
	return "?";
}

static void json_change(struct json *j, const struct trend_table *t, const struct trend_row *r,
			const struct trend_change *c)
{
	json_obj_begin(j, NULL);
	json_str(j, "metric", r->row->metric);
	json_str(j, "params", r->row->params);
	json_num(j, "x", r->row->x);
	json_str(j, "from", t->sides[c->from].name);
	json_str(j, "to", t->sides[c->at].name);
	json_int(j, "position", (long long)c->at + 1);
	json_num(j, "change_pct", c->est);
	json_num(j, "lo", c->lo);
	json_num(j, "hi", c->hi);
	json_num(j, "p", c->p);
	json_str(j, "direction", direction(c));
	json_obj_end(j);
}

static void print_json(FILE *f, const struct trend_table *t)
{
	struct json j;
	json_init(&j, f, 1);
	json_doc_begin(&j, "trend");
	json_num(&j, "alpha", t->o.alpha);
	json_num(&j, "min_effect_pct", t->o.min_effect);
	json_str(&j, "correction", correction_name(t->o.corr));
	json_int(&j, "metrics_judged", (long long)t->ntested);
	json_arr_begin(&j, "versions");
	for (size_t s = 0; s < t->nsides; s++)
		json_str(&j, NULL, t->sides[s].name);
	json_arr_end(&j);
	json_arr_begin(&j, "changes");
	for (size_t i = 0; i < t->nrows; i++)
		for (size_t k = 0; k < t->rows[i].nch; k++)
			json_change(&j, t, &t->rows[i], &t->rows[i].ch[k]);
	json_arr_end(&j);
	json_arr_begin(&j, "metrics");
	for (size_t i = 0; i < t->nrows; i++) {
		const struct trend_row *r = &t->rows[i];
		json_obj_begin(&j, NULL);
		json_str(&j, "metric", r->row->metric);
		json_str(&j, "params", r->row->params);
		json_num(&j, "x", r->row->x);
		json_str(&j, "unit", r->row->unit);
		json_str(&j, "status", status_name(r->status));
		json_num(&j, "noise_pct", r->noise_pct);
		json_num(&j, "noise_df", r->noise_df);
		json_num(&j, "p_first", r->p_first);
		json_num(&j, "p_adjusted", r->p_adj);
		json_arr_begin(&j, "levels");
		for (size_t s = 0; s < t->nsides; s++) {
			const struct trend_level *lv = &r->lv[s];
			json_obj_begin(&j, NULL);
			json_str(&j, "version", t->sides[s].name);
			json_int(&j, "runs", (long long)lv->nruns);
			json_num(&j, "value", lv->present ? lv->value : NAN);
			json_num(&j, "lo", lv->lo);
			json_num(&j, "hi", lv->hi);
			json_obj_end(&j);
		}
		json_arr_end(&j);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	fputc('\n', f);
}

/* The answer in markdown: a paragraph, escaped (versions are named by runs' text). */
static void answer_markdown(FILE *f, const struct trend_table *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return;
	print_answer(m, t);
	fclose(m);
	md_paragraphs(f, buf);
	free(buf);
}

void trend_print(FILE *f, const struct trend_table *t, enum cmp_format fmt)
{
	switch (fmt) {
	case CF_TEXT: print_answer(f, t); print_text(f, t); break;
	case CF_MARKDOWN: answer_markdown(f, t); print_markdown(f, t); break;
	case CF_CSV: print_csv(f, t); break;
	case CF_JSON: print_json(f, t); break;
	}
}
