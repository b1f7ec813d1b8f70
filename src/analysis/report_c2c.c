/*
 * report_c2c.c — lat_c2c's matrix as a heatmap for `plumb report` and `plumb plot`: one chart per
 * side holding lat_c2c.roundtrip results, a cell per ordered pair (row: the CPU that starts),
 * its colour the median round trip over the side's runs and rounds on one scale from the
 * side's fastest pair (light) to its slowest (dark), the diagonal grey (never measured). Blocks
 * of CPUs sharing a cache, a cluster or a socket show as blocks of colour; the topology sysfs
 * gave each pair is a letter in the cell (small matrices) and in every cell's tooltip. The same
 * standalone SVG style as the other charts (presentation attributes, no script, no reference).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/report_c2c.h"
#include "analysis/svg.h"
#include "core/escape.h"
#include "core/result.h"
#include "core/topology.h"
#include "core/util.h"

#define MAXC 256

struct pair {
	int from, to;
	double *v;
	size_t n;
	char topo[16];
};

struct matrix {
	int cpu[MAXC];
	int ncpu;
	struct pair *p;
	size_t np;
};

static int cpu_index(struct matrix *m, int cpu, int add)
{
	for (int i = 0; i < m->ncpu; i++)
		if (m->cpu[i] == cpu)
			return i;
	if (!add || m->ncpu == MAXC)
		return -1;
	m->cpu[m->ncpu] = cpu;
	return m->ncpu++;
}

static struct pair *pair_get(struct matrix *m, int from, int to)
{
	for (size_t i = 0; i < m->np; i++)
		if (m->p[i].from == from && m->p[i].to == to)
			return &m->p[i];
	m->p = xrealloc(m->p, (m->np + 1) * sizeof *m->p);
	m->p[m->np] = (struct pair){ from, to, NULL, 0, "" };
	return &m->p[m->np++];
}

/* A CPU number as a run file holds it, -1 when it is not one (a file may hold anything). */
static int cpu_number(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	return end != s && !*end && v >= 0 && v < 1000000 ? (int)v : -1;
}

/* Every result of the side whose metric's row names this chart (.chart = "c2c": lat_c2c's round
 * trip, with the pair in its from= and to= parameters); 0 when it has none. */
static int gather(const struct side *s, struct matrix *m)
{
	memset(m, 0, sizeof *m);
	for (size_t i = 0; i < s->nruns; i++)
		for (size_t k = 0; k < s->runs[i]->results.n; k++) {
			const struct result *r = &s->runs[i]->results.v[k];
			char a[16], b[16], t[16];
			if (!chart_draws(metric_find(r->metric), "c2c") || !isfinite(r->value) ||
			    !param_get(r->params, "from", a, sizeof a) ||
			    !param_get(r->params, "to", b, sizeof b))
				continue;
			int from = cpu_number(a), to = cpu_number(b);
			if (from < 0 || to < 0 || from == to || cpu_index(m, from, 1) < 0 ||
			    cpu_index(m, to, 1) < 0)
				continue;
			struct pair *p = pair_get(m, from, to);
			p->v = xrealloc(p->v, (p->n + 1) * sizeof *p->v);
			p->v[p->n++] = r->value;
			if (r->info && param_get(r->info, "topology", t, sizeof t))
				snprintf(p->topo, sizeof p->topo, "%s", t);
		}
	return m->np > 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A light-to-dark blue scale (sequential, readable in grey): t in [0, 1]. */
static void shade(double t, char *buf, size_t len)
{
	static const int lo[3] = { 0xef, 0xf3, 0xff }, hi[3] = { 0x08, 0x30, 0x6b };
	int c[3];
	for (int i = 0; i < 3; i++)
		c[i] = (int)lround(lo[i] + (hi[i] - lo[i]) * t);
	snprintf(buf, len, "#%02x%02x%02x", c[0], c[1], c[2]);
}

static char letter(const char *t)
{
	return !strcmp(t, "core") ? 'C' : !strcmp(t, "cluster") ? 'K' : !strcmp(t, "llc") ? 'L'
	       : !strcmp(t, "package") ? 'P' : !strcmp(t, "other-package") ? 'X' : 0;
}

/* A heatmap's layout and values: val[a * n + b] the median from CPU index a to b (NAN: none),
 * topo[] what the pair shares. */
struct heat {
	int n, cell, left, top, annotate;
	double vmin, vmax, *val;
	const char **topo;
};

/* The cells, each with its round trip as a tooltip and, when they are large, its value. */
static void heat_cells(FILE *f, const struct matrix *m, const struct heat *h)
{
	int n = h->n, cell = h->cell, left = h->left, top = h->top;
	char col[16], txt[160];
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++) {
			double v = h->val[a * n + b];
			double t = h->vmax > h->vmin ? (v - h->vmin) / (h->vmax - h->vmin) : 0;
			if (a == b || !isfinite(v))
				snprintf(col, sizeof col, "#d9d9d9");
			else
				shade(t, col, sizeof col);
			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" "
				   "stroke=\"#ffffff\" stroke-width=\"%s\">", left + b * cell, top + a * cell,
				cell, cell, col, cell >= 14 ? "1" : "0");
			if (a != b && isfinite(v)) {
				snprintf(txt, sizeof txt, "CPU %d to CPU %d and back: %.1f ns, %s", m->cpu[a],
					 m->cpu[b], v, topology_words(h->topo[a * n + b]));
				fputs("<title>", f);
				xml_fputs(f, txt);
				fputs("</title>", f);
			}
			fputs("</rect>\n", f);
			if (!h->annotate || a == b || !isfinite(v))
				continue;
			char l = letter(h->topo[a * n + b]);
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"11\" "
				   "fill=\"%s\">%.0f%s%c</text>\n", left + (b + 0.5) * cell,
				top + (a + 0.5) * cell + 4, t > 0.55 ? "#ffffff" : "#000000", v, l ? " " : "",
				l ? l : ' ');
		}
}

/* The scale beside the grid: fastest to slowest pair. */
static void heat_scale(FILE *f, const struct heat *h)
{
	char col[16];
	int grid = h->cell * h->n, sx = h->left + grid + 20, sh = grid < 120 ? 120 : grid;
	for (int i = 0; i < 20; i++) {
		shade(i / 19.0, col, sizeof col);
		fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"16\" height=\"%.1f\" fill=\"%s\"/>\n", sx,
			h->top + i * sh / 20.0, sh / 20.0 + 0.5, col);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%.1f ns</text>\n", sx + 20, h->top + 10,
		h->vmin);
	fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%.1f ns</text>\n", sx + 20, h->top + sh,
		h->vmax);
}

/* The frame, the titles and the CPU numbers along both edges. */
static void heat_frame(FILE *f, const char *side_name, const struct matrix *m,
		       const struct heat *h, int letters, int standalone)
{
	int n = h->n, cell = h->cell, left = h->left, top = h->top, grid = cell * n;
	int label_every = n <= 32 ? 1 : n / 16, w = left + grid + 110, hh = top + grid + 60;
	if (w < 520)
		w = 520;
	fprintf(f, "<svg%s viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
		   "font-size=\"12\" role=\"img\">\n", standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : "",
		w, hh, w, hh);
	fputs("<title>Core to core round trip (lat_c2c), ", f);
	xml_fputs(f, side_name);
	fputs("</title>\n", f);
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", w, hh);
	fputs("<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">Core to core round trip, ", f);
	char sn[48];
	term_str(side_name, sn, 40);
	xml_fputs(f, sn);
	fputs("</text>\n", f);
	fprintf(f, "<text x=\"10\" y=\"38\" fill=\"#555555\">ns, median of the runs; row: the CPU that "
		   "starts%s</text>\n", letters ? "; letter: what the pair shares (sysfs)" : "");
	if (letters)
		fputs("<text x=\"10\" y=\"54\" fill=\"#555555\" font-size=\"11\">C same core, K cluster, "
		      "L last-level cache, P package, X other package</text>\n", f);
	for (int i = 0; i < n; i += label_every) {
		int fs = cell >= 14 ? 11 : 8;
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" font-size=\"%d\">%d</text>\n",
			left - 4, top + (i + 0.5) * cell + 4, fs, m->cpu[i]);
		fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"%d\">%d</text>\n",
			left + (i + 0.5) * cell, top - 4, fs, m->cpu[i]);
	}
}

static char *render(const char *side_name, struct matrix *m, int standalone)
{
	int n = m->ncpu;
	qsort(m->cpu, (size_t)n, sizeof m->cpu[0], cmp_int);
	struct heat h = { .n = n, .left = 60, .top = 70, .vmin = INFINITY, .vmax = -INFINITY,
			  .val = xmalloc((size_t)n * (size_t)n * sizeof *h.val),
			  .topo = xcalloc((size_t)n * (size_t)n, sizeof *h.topo) };
	for (int i = 0; i < n * n; i++)
		h.val[i] = NAN;
	int letters = 0;
	for (size_t i = 0; i < m->np; i++) {
		struct pair *p = &m->p[i];
		int a = cpu_index(m, p->from, 0), b = cpu_index(m, p->to, 0);
		double v = median(p->v, p->n);
		h.val[a * n + b] = v;
		h.topo[a * n + b] = p->topo;
		letters |= letter(p->topo) != 0;
		h.vmin = fmin(h.vmin, v);
		h.vmax = fmax(h.vmax, v);
	}
	h.cell = n <= 8 ? 48 : n <= 16 ? 28 : n <= 64 ? 8 : 4;
	h.annotate = n <= 8;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	heat_frame(f, side_name, m, &h, letters, standalone);
	heat_cells(f, m, &h);
	heat_scale(f, &h);
	fputs("</svg>\n", f);
	fclose(f);
	free(h.val);
	free(h.topo);
	return buf;
}

static void matrix_free(struct matrix *m)
{
	for (size_t i = 0; i < m->np; i++)
		free(m->p[i].v);
	free(m->p);
}

/* The chart kind "c2c": a heatmap per side that holds results of the metrics whose row names
 * it (lat_c2c's). */
void report_c2c_charts(struct charts *out, const struct chart_in *in)
{
	size_t n = in->n;
	for (size_t s = 0; s < n; s++) {
		struct matrix m;
		if (!gather(&in->sides[s], &m)) {
			matrix_free(&m);
			continue;
		}
		char *name = report_side_name(&in->sides[s]);
		char *slug = n > 1 ? xasprintf("c2c-heatmap-%zu", s + 1) : xstrdup("c2c-heatmap");
		char *title = xasprintf("Core to core round trip (lat_c2c), %s", name);
		chart_add(out, slug, title, render(name, &m, in->standalone), 1);
		free(slug);
		free(title);
		free(name);
		matrix_free(&m);
	}
}

int report_c2c_bars_too(const struct side *sides, size_t n)
{
	/* a bar per pair reads well (with its interval, side by side) up to 4 CPUs: 12 pairs */
	for (size_t s = 0; s < n; s++) {
		struct matrix m;
		gather(&sides[s], &m);
		size_t np = m.np;
		matrix_free(&m);
		if (np > 12)
			return 0;
	}
	return 1;
}

static int c2c_bars_too(const struct chart_in *in)
{
	return report_c2c_bars_too(in->sides, in->n);
}

const struct chart_kind chart_kind_c2c = { .kind = "c2c", .fn = report_c2c_charts,
	.bars_too = c2c_bars_too, .section = "Core to core", .section_id = "c2c" };
