/* compare_side.c — side metrics per operation beside compare's verdicts (compare_side.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/compare_side.h"
#include "core/escape.h"
#include "core/side.h"
#include "core/stats.h"
#include "core/util.h"

/* Figures beyond the fields: per cpuidle state (names from the result's info idle_states),
 * its residency in % of the time of the CPUs read over the span the machine's figures cover
 * (side_idle_share: none for files without that span) and its entries per operation. */
#define NFIG (SIDE_NFIELDS + 2 * SIDE_IDLE_MAX)

/* One side's figures for one row: per figure, the values of its samples. */
struct side_vals {
	double *v[NFIG];
	size_t n[NFIG];
	size_t samples, disturbed;
	char state[SIDE_IDLE_MAX][32];
};

static void vals_free(struct side_vals *sv)
{
	for (int f = 0; f < NFIG; f++)
		free(sv->v[f]);
	memset(sv, 0, sizeof *sv);
}

static void add(struct side_vals *sv, int f, double v)
{
	sv->v[f] = xrealloc(sv->v[f], (sv->n[f] + 1) * sizeof *sv->v[f]);
	sv->v[f][sv->n[f]++] = v;
}

/* Every sample of side s at row r's point, with f(sample) applied. A steady figure's row
 * (core/metrics.h: "<id>.steady") reads its batch mean's samples: the steady pass follows each
 * of them, and its own samples carry no side metrics. */
static void each_sample(const struct cmp_table *t, const struct cmp_row *r, size_t s,
			void (*fn)(const struct result *, const struct sample *, void *), void *arg)
{
	const struct side *sd = &t->sides[s];
	char metric[256];
	size_t ml = strlen(r->metric);
	snprintf(metric, sizeof metric, "%s", r->metric);
	if (ml > 7 && ml < sizeof metric && strcmp(r->metric + ml - 7, ".steady") == 0)
		metric[ml - 7] = 0;
	for (size_t k = 0; k < sd->nruns; k++) {
		const struct result_list *l = &sd->runs[k]->results;
		for (size_t i = 0; i < l->n; i++)
			if (point_same(&l->v[i], metric, r->params, r->x))
				for (size_t j = 0; j < l->v[i].nsamples; j++)
					if (l->v[i].samples[j].side)
						fn(&l->v[i], &l->v[i].samples[j], arg);
	}
}

/* The figure index of cpuidle state `name` in sv (claimed when new), -1 when full. */
static int state_slot(struct side_vals *sv, const char *raw)
{
	/* a state's name comes from a file: it labels text, CSV and chart rows, so only the
	 * characters sysfs names use are kept (cpuidle: "POLL", "C1E", "C6_ACPI") */
	char name[32];
	snprintf(name, sizeof name, "%s", raw);
	for (char *p = name; *p; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      *p == '_' || *p == '-' || *p == '.'))
			*p = '?';
	for (int k = 0; k < SIDE_IDLE_MAX; k++) {
		if (!sv->state[k][0])
			snprintf(sv->state[k], sizeof sv->state[k], "%s", name);
		if (strcmp(sv->state[k], name) == 0)
			return k;
	}
	return -1;
}

static void collect(const struct result *r, const struct sample *sm, void *arg)
{
	struct side_vals *sv = arg;
	sv->samples++;
	for (int f = 0; f < SIDE_NFIELDS; f++) {
		double v = side_per_op(sm->side, f);
		if (!isnan(v) && !side_field_is_scale(f))
			add(sv, f, v);
	}
	char names[128];
	if (!param_get(r->info, "idle_states", names, sizeof names))
		return;
	char *save = NULL, *nm = strtok_r(names, ",", &save);
	for (uint32_t k = 0; nm && k < sm->side->idle_states; k++, nm = strtok_r(NULL, ",", &save)) {
		int slot = state_slot(sv, nm);
		if (slot < 0)
			break;
		double share = side_idle_share(sm->side, k);
		if (!isnan(share))
			add(sv, SIDE_NFIELDS + 2 * slot, share);
		if (sm->side->ops > 0)
			add(sv, SIDE_NFIELDS + 2 * slot + 1, sm->side->idle_usage[k] / sm->side->ops);
	}
}

/* The label of figure k of sv ("cs", "POLL%", "POLL/op") into buf. */
static const char *fig_name(const struct side_vals *sv, int k, char *buf, size_t len)
{
	if (k < SIDE_NFIELDS)
		return side_field_name(k);
	int st = (k - SIDE_NFIELDS) / 2;
	snprintf(buf, len, "%s%s", sv->state[st], (k - SIDE_NFIELDS) % 2 ? "/op" : "%");
	return buf;
}

/* Figure k of a as it is named in b (cpuidle states may be listed in another order). */
static int fig_in(const struct side_vals *a, int k, const struct side_vals *b)
{
	if (k < SIDE_NFIELDS)
		return k;
	int st = (k - SIDE_NFIELDS) / 2;
	for (int j = 0; j < SIDE_IDLE_MAX; j++)
		if (b->state[j][0] && strcmp(b->state[j], a->state[st]) == 0)
			return SIDE_NFIELDS + 2 * j + (k - SIDE_NFIELDS) % 2;
	return -1;
}

struct dist { double own; size_t n, bad; };

static void count_disturbed(const struct result *r, const struct sample *sm, void *arg)
{
	(void)r;
	struct dist *d = arg;
	const struct side_sample *s = sm->side;
	int bad = (s->have & 1u << SIDE_STEAL_NS) &&
		  s->v[SIDE_STEAL_NS] >= 0.01 * side_window(s, sm->elapsed_ns);
	bad |= (s->have & 1u << SIDE_MIGRATIONS) && s->v[SIDE_MIGRATIONS] >= 1;
	bad |= (s->have & 1u << SIDE_INVOL_CS) && s->ops > 0 &&
	       s->v[SIDE_INVOL_CS] > 2 * d->own * s->ops + 2;
	d->n++;
	d->bad += (size_t)bad;
}

int cmp_side_disturbed(const struct cmp_table *t, const struct cmp_row *r, size_t s)
{
	/* what the operation itself causes: the median per op over both sides */
	struct side_vals a = { 0 }, b = { 0 };
	each_sample(t, r, 0, collect, &a);
	each_sample(t, r, s, collect, &b);
	size_t n = a.n[SIDE_INVOL_CS] + b.n[SIDE_INVOL_CS];
	double own = 0;
	if (n) {
		double *all = xmalloc(n * sizeof *all);
		/* one side may have none (NULL): memcpy of nothing from NULL is still undefined */
		if (a.n[SIDE_INVOL_CS])
			memcpy(all, a.v[SIDE_INVOL_CS], a.n[SIDE_INVOL_CS] * sizeof *all);
		if (b.n[SIDE_INVOL_CS])
			memcpy(all + a.n[SIDE_INVOL_CS], b.v[SIDE_INVOL_CS],
			       b.n[SIDE_INVOL_CS] * sizeof *all);
		own = stats_median(all, n);
		free(all);
	}
	vals_free(&a);
	vals_free(&b);
	int out = 0;
	size_t which[2] = { 0, s };
	for (int k = 0; k < 2; k++) {
		struct dist d = { own, 0, 0 };
		each_sample(t, r, which[k], count_disturbed, &d);
		out |= d.n > 0 && d.bad * 4 > d.n;
	}
	return out;
}

struct fig { int have; double med, lo, hi; };

static struct fig figure(const struct side_vals *sv, int f)
{
	struct fig g = { 0, NAN, NAN, NAN };
	if (!sv->n[f])
		return g;
	g.have = 1;
	g.med = stats_median(sv->v[f], sv->n[f]);
	if (stats_median_ci(sv->v[f], sv->n[f], &g.lo, &g.hi) != 0)
		g.lo = g.hi = NAN;
	return g;
}

/* The two intervals do not overlap and the medians differ by CMP_SIDE_MIN_PCT or more (a field
 * without an interval never "changed"; samples of one count each, 1 switch in 25000 and in
 * 24000 operations, have intervals of one point that never overlap). */
#define CMP_SIDE_MIN_PCT 10.0
static int changed(struct fig a, struct fig b)
{
	if (!a.have || !b.have || isnan(a.lo) || isnan(b.lo) || !(a.hi < b.lo || b.hi < a.lo))
		return 0;
	double base = fabs(a.med) > fabs(b.med) ? fabs(a.med) : fabs(b.med);
	return 100 * fabs(b.med - a.med) >= CMP_SIDE_MIN_PCT * base;
}

int cmp_side_judged(const struct cmp_row *r, size_t nsides)
{
	for (size_t s = 1; s < nsides; s++)
		if (r->test[s].v == V_WORSE || r->test[s].v == V_BETTER)
			return 1;
	return 0;
}

size_t cmp_side_figs(const struct cmp_table *t, const struct cmp_row *r, size_t from,
		     size_t to, int all, struct cmp_side_fig **out)
{
	struct side_vals a = { 0 }, b = { 0 };
	each_sample(t, r, from, collect, &a);
	each_sample(t, r, to, collect, &b);
	size_t n = 0;
	*out = NULL;
	for (int k = 0; k < NFIG; k++) {
		int kb = fig_in(&a, k, &b);
		if (kb < 0)
			continue;
		struct fig x = figure(&a, k), y = figure(&b, kb);
		if (!x.have || !y.have || (!all && !changed(x, y)))
			continue;
		*out = xrealloc(*out, (n + 1) * sizeof **out);
		struct cmp_side_fig *g = &(*out)[n++];
		char nm[48];
		snprintf(g->name, sizeof g->name, "%s", fig_name(&a, k, nm, sizeof nm));
		g->field = k < SIDE_NFIELDS ? k : -1;
		g->med[0] = x.med, g->lo[0] = x.lo, g->hi[0] = x.hi;
		g->med[1] = y.med, g->lo[1] = y.lo, g->hi[1] = y.hi;
		g->changed = changed(x, y);
	}
	vals_free(&a);
	vals_free(&b);
	return n;
}

static void fig_text(double med, double lo, double hi, char *buf, size_t len)
{
	char a[32], b[32], c[32];
	if (isnan(lo))
		snprintf(buf, len, "%s", cmp_fmt_num(med, a, sizeof a));
	else
		snprintf(buf, len, "%s [%s, %s]", cmp_fmt_num(med, a, sizeof a),
			 cmp_fmt_num(lo, b, sizeof b), cmp_fmt_num(hi, c, sizeof c));
}

int cmp_side_pair(FILE *f, const struct cmp_table *t, const struct cmp_row *r, size_t from,
		  size_t to, int all, const char *title)
{
	struct cmp_side_fig *g;
	size_t n = cmp_side_figs(t, r, from, to, all, &g);
	for (size_t i = 0; i < n; i++) {
		if (!i && title)
			fputs(title, f);
		char p[96], q[96];
		fig_text(g[i].med[0], g[i].lo[0], g[i].hi[0], p, sizeof p);
		fig_text(g[i].med[1], g[i].lo[1], g[i].hi[1], q, sizeof q);
		double pct = g[i].med[0] != 0 ? 100 * (g[i].med[1] - g[i].med[0]) / fabs(g[i].med[0])
					      : NAN;
		fprintf(f, "    %-12s %s -> %s", g[i].name, p, q);
		if (!isnan(pct))
			fprintf(f, " (%+.0f%%)", pct);
		fputs(g[i].changed ? " changed\n" : "\n", f);
	}
	free(g);
	return (int)n;
}

/* Row r's lines for side s against the baseline, under the block's header (printed once). */
static void row_lines(FILE *f, const struct cmp_table *t, const struct cmp_row *r, size_t s,
		      int *header)
{
	/* within 120 columns: the row's name cut at 72, a side's at 40 (term_str adds "...") */
	char nm[73], sn[41], title[1024];
	size_t o = 0;
	if (!*header)
		o += (size_t)snprintf(title, sizeof title, "side metrics per operation (median [95%% "
				      "CI] of the samples), base -> side; changed: intervals apart, "
				      "medians 10 %% apart\n");
	char raw[256];
	o += (size_t)snprintf(title + o, sizeof title - o, "  %s",
			      term_str(cmp_row_name(r, raw, sizeof raw), nm, sizeof nm));
	if (t->nsides > 2 && o < sizeof title)
		o += (size_t)snprintf(title + o, sizeof title - o, " (%s)",
				      term_str(t->sides[s].name, sn, sizeof sn));
	if (o < sizeof title)
		snprintf(title + o, sizeof title - o, "\n");
	if (cmp_side_pair(f, t, r, 0, s, t->o.side, title))
		*header = 1;
}

void cmp_side_text(FILE *f, const struct cmp_table *t)
{
	int header = 0;
	for (size_t i = 0; i < t->nrows; i++) {
		const struct cmp_row *r = &t->rows[i];
		if (!cmp_row_shown(t, r) || (!t->o.side && !cmp_side_judged(r, t->nsides)))
			continue;
		for (size_t s = 1; s < t->nsides; s++)
			row_lines(f, t, r, s, &header);
	}
}

void cmp_side_json(struct json *j, const struct cmp_table *t, const struct cmp_row *r, size_t s)
{
	struct side_vals sv = { 0 };
	each_sample(t, r, s, collect, &sv);
	if (sv.samples) {
		if (s)
			json_bool(j, "disturbed", cmp_side_disturbed(t, r, s));
		json_obj_begin(j, "side");
		for (int k = 0; k < NFIG; k++) {
			struct fig g = figure(&sv, k);
			char nm[48];
			if (!g.have)
				continue;
			json_obj_begin(j, fig_name(&sv, k, nm, sizeof nm));
			json_num(j, "per_op", g.med);
			json_num(j, "lo", g.lo);
			json_num(j, "hi", g.hi);
			json_obj_end(j);
		}
		json_obj_end(j);
	}
	vals_free(&sv);
}

void cmp_side_csv(FILE *f, const struct cmp_table *t, const struct cmp_row *r, size_t s)
{
	struct side_vals sv = { 0 };
	each_sample(t, r, s, collect, &sv);
	fprintf(f, ",%s,", s && sv.samples ? cmp_side_disturbed(t, r, s) ? "1" : "0" : "");
	for (int k = 0, first = 1; k < NFIG; k++) {
		struct fig g = figure(&sv, k);
		char nm[48];
		if (!g.have)
			continue;
		fprintf(f, "%s%s=%.6g[%.6g;%.6g]", first ? "" : " ", fig_name(&sv, k, nm, sizeof nm),
			g.med, g.lo, g.hi);
		first = 0;
	}
	vals_free(&sv);
}
