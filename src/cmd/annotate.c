/*
 * annotate.c — `plumb annotate [--db URI]`: the change points of every host's metric series,
 * written into the store for a dashboard (docs/lab.md, "Grafana"). Per host, each label is a
 * version, the versions in the order their first runs started; `plumb trend`'s search
 * (analysis/trend.h) runs over them, and every change it finds is one row of the store's
 * change_points table (results/store_cp.c), which the annotations view shows in the columns a
 * Grafana annotation query wants. The rows found before are replaced in one transaction, so a
 * cron job may run it as often as it likes: the same store gives the same rows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/trend.h"
#include "cmd/commands.h"
#include "cmd/sides.h"
#include "core/escape.h"
#include "core/util.h"
#include "results/run_ident.h"
#include "results/store.h"

struct annotate_cli {
	struct compare_args ca;
	int all, quiet;
};

const struct opt annotate_options[] = {
	OPT_GROUP(struct annotate_cli, ca, compare_group),
	OPT_BOOL(0, "all", struct annotate_cli, all,
		"every point of every series (default: the summary-level points, as trend)"),
	OPT_BOOL('q', "quiet", struct annotate_cli, quiet,
		"print only errors: no line on success, no warning about a series (for cron)"),
	OPT_END,
};

/* What one search found, kept until the write: the rows and the text they point to. */
struct found {
	struct change_point *cp;
	size_t n;
	char **text; /* every string the rows point to, freed at the end */
	size_t ntext;
	size_t hosts, series;
};

static const char *keep(struct found *f, char *s)
{
	f->text = xrealloc(f->text, (f->ntext + 1) * sizeof *f->text);
	return f->text[f->ntext++] = s;
}

/* The side's earliest (last = 0) or latest (last = 1) start time (ISO 8601 UTC text, which
 * sorts as it reads). */
static const char *start_of(const struct side *s, int last)
{
	const char *t = s->runs[0]->started;
	for (size_t i = 1; i < s->nruns; i++)
		if ((strcmp(s->runs[i]->started, t) > 0) == last)
			t = s->runs[i]->started;
	return t;
}

/* Versions in the order their first runs started (the store lists runs in the order it got
 * them, which a push of older runs makes another). */
static int by_start(const void *a, const void *b)
{
	const struct side *x = a, *y = b;
	int c = strcmp(start_of(x, 0), start_of(y, 0));
	return c ? c : strcmp(x->name, y->name);
}

/* A host's runs as versions: one side per label, in the order their first runs started; runs
 * without a label or a start time are left out (counted in *left). */
static struct side *versions(struct run **runs, size_t n, size_t *nsides, size_t *left)
{
	struct side *s = NULL;
	size_t ns = 0;
	for (size_t i = 0; i < n; i++) {
		struct run *r = runs[i];
		if (!r->label || !*r->label || !r->started || !*r->started) {
			++*left;
			run_free(r);
			continue;
		}
		size_t k = 0;
		while (k < ns && strcmp(s[k].name, r->label))
			k++;
		if (k == ns) {
			s = xrealloc(s, (ns + 1) * sizeof *s);
			s[ns++] = (struct side){ .name = xstrdup(r->label) };
		}
		s[k].runs = xrealloc(s[k].runs, (s[k].nruns + 1) * sizeof *s[k].runs);
		s[k].runs[s[k].nruns++] = r;
	}
	if (ns)
		qsort(s, ns, sizeof *s, by_start);
	*nsides = ns;
	return s;
}

/* One change of a host's series as a row: the time span between the old level's last run
 * and the new level's first (whichever comes first: the runs of two labels may interleave). */
static void add_change(struct found *f, const char *host, const struct trend_table *t,
		       const struct trend_row *r, const struct trend_change *c)
{
	const char *a = start_of(&t->sides[c->from], 1), *b = start_of(&t->sides[c->at], 0);
	const char *dir = c->worse > 0 ? "worse" : c->worse < 0 ? "better" : "changed";
	char line[1400], h[RUN_TEXT_MAX * 4];
	trend_change_text(t, r, c, line, sizeof line);
	term_str(host, h, sizeof h);
	f->cp = xrealloc(f->cp, (f->n + 1) * sizeof *f->cp);
	f->cp[f->n++] = (struct change_point){
		.host = host, .metric = r->row->metric, .params = r->row->params,
		.unit = r->row->unit, .x = r->row->x,
		.label_from = t->sides[c->from].name, .label_to = t->sides[c->at].name,
		.time_from = strcmp(a, b) <= 0 ? a : b, .time_to = strcmp(a, b) <= 0 ? b : a,
		.change_pct = c->est, .lo = c->lo, .hi = c->hi, .p = c->p, .direction = dir,
		.text = keep(f, xasprintf("%s (%s) on %s", line, dir, h)),
		.tags = keep(f, xasprintf("plumb,%s,%s,%s", dir, r->row->metric, h)),
	};
}

/* The search over one host's runs; the rows in f point into its sides and table, which are
 * handed back (*sides_out, *t_out) and kept until the rows are written. */
static void search_host(struct found *f, const char *host, struct run **runs, size_t n,
			const struct cmp_opts *o, int quiet, struct side **sides_out, size_t *ns_out,
			struct trend_table **t_out)
{
	size_t left = 0, ns;
	struct side *s = versions(runs, n, &ns, &left);
	char h[RUN_TEXT_MAX * 4];
	term_str(host, h, sizeof h);
	if (left && !quiet)
		warnx_("warning: %s: %zu run%s without a label or a start time left out", h, left,
		       left == 1 ? "" : "s");
	*sides_out = s;
	*ns_out = ns;
	*t_out = NULL;
	if (ns < 2)
		return;
	for (size_t i = 0; i < ns && !quiet; i++) {
		char why[1024], lb[RUN_TEXT_MAX * 4];
		if (runs_pool_split(s[i].runs, s[i].nruns, why, sizeof why))
			warnx_("warning: %s: the runs of label %s are searched as one version, although "
			       "%s", h, term_str(s[i].name, lb, sizeof lb), why);
	}
	struct trend_table *t = trend_build(s, ns, o);
	for (size_t i = 0; i < t->cmp->nwarnings && !quiet; i++)
		warnx_("warning: %s: %s", h, t->cmp->warnings[i]);
	f->hosts++;
	for (size_t i = 0; i < t->nrows; i++) {
		f->series += t->rows[i].status == TS_JUDGED;
		for (size_t k = 0; k < t->rows[i].nch; k++)
			add_change(f, host, t, &t->rows[i], &t->rows[i].ch[k]);
	}
	*t_out = t;
}

/* Every host of the store, each once, in the order of its first run. */
static char **hosts_of(struct store *st, size_t *nh)
{
	struct run **list = NULL;
	char err[1024];
	int k = store_list(st, &list, err, sizeof err);
	if (k < 0)
		die(EXIT_USAGE, "%s", err);
	char **h = NULL;
	size_t n = 0;
	for (int i = 0; i < k; i++) {
		const char *name = list[i]->host ? list[i]->host : "";
		size_t j = 0;
		while (j < n && strcmp(h[j], name))
			j++;
		if (j == n && *name) {
			h = xrealloc(h, (n + 1) * sizeof *h);
			h[n++] = xstrdup(name);
		}
		run_free(list[i]);
	}
	free(list);
	*nh = n;
	return h;
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate_cli a = { 0 };
	cmp_opts_default(&a.ca.o);
	static const struct command_options cli = { "annotate", annotate_options, 0,
						    compare_bad_option, NULL };
	int first = command_parse(&cli, argc, argv, &a);
	if (first < argc)
		die(EXIT_USAGE, "takes no argument but options: it searches every host of the store");
	a.ca.o.all = a.all;
	char err[1024];
	struct store *st = store_open(a.ca.db, STORE_WRITE, err, sizeof err);
	if (!st)
		die(EXIT_USAGE, "%s", err);
	size_t nh;
	char **hosts = hosts_of(st, &nh);
	struct found f = { 0 };
	struct side **sides = xcalloc(nh + 1, sizeof *sides);
	size_t *ns = xcalloc(nh + 1, sizeof *ns);
	struct trend_table **tabs = xcalloc(nh + 1, sizeof *tabs);
	for (size_t i = 0; i < nh; i++) {
		struct run_filter flt = { .host = hosts[i] };
		struct run **runs = NULL;
		size_t n = 0;
		if (store_load_where(st, &flt, &runs, &n, err, sizeof err) != 0)
			die(EXIT_USAGE, "%s", err);
		search_host(&f, hosts[i], runs, n, &a.ca.o, a.quiet, &sides[i], &ns[i], &tabs[i]);
		free(runs);
	}
	if (store_put_change_points(st, f.cp, f.n, err, sizeof err) != 0)
		die(EXIT_USAGE, "%s", err);
	if (!a.quiet)
		printf("%zu change point%s in %zu series of %zu host%s written to %s (view "
		       "annotations)\n", f.n, f.n == 1 ? "" : "s", f.series, f.hosts,
		       f.hosts == 1 ? "" : "s", store_name(st));
	store_close(st);
	for (size_t i = 0; i < nh; i++) {
		if (tabs[i])
			trend_free(tabs[i]);
		sides_free(sides[i], ns[i]);
		free(hosts[i]);
	}
	for (size_t i = 0; i < f.ntext; i++)
		free(f.text[i]);
	free(f.text);
	free(f.cp);
	free(tabs);
	free(ns);
	free(sides);
	free(hosts);
	return 0;
}
