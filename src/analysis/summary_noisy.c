/*
 * summary_noisy.c — under summary's tables, the cells whose samples spread too much to trust
 * (the median's 95 % interval wider than ±NOISY_PCT) and those with a caveat. After a run on a
 * busy machine that list was longer than the tables: it now gives the count, the worst few
 * (largest spread first, caveats among them) and says how to see all (summary --noisy, or
 * summary_noisy_all). Runs with one sample per metric and no caveats (imported lmbench files)
 * print nothing, so lmbench's own layout is untouched for them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "analysis/summary_row.h"
#include "core/escape.h"
#include "core/result.h"
#include "core/util.h"

#define NOISY_SHOWN 5

int summary_noisy_all;

struct noisy {
	size_t row;
	const struct result *p;
	double noise;     /* NaN: a caveat alone */
	int cav;          /* cv holds the caveat's word */
	char cv[32];
};

int summary_used_before(const struct row *r, int k)
{
	for (int j = 0; j < k; j++)
		if (r->used[j] == r->used[k])
			return 1;
	return 0;
}

/* Largest spread first; caveats without a spread after them. */
static int by_noise(const void *a, const void *b)
{
	double x = ((const struct noisy *)a)->noise, y = ((const struct noisy *)b)->noise;
	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return x < y ? 1 : x > y ? -1 : 0;
}

static void put_one(FILE *f, const struct row *rows, const struct noisy *c)
{
	const struct result *p = c->p;
	fprintf(f, "  %-9.9s %s: ", rows[c->row].host, rows[c->row].who);
	term_fputs(f, p->metric);
	fputs(*p->params ? " " : "", f);
	term_fputs(f, p->params);
	if (!isnan(p->x))
		fprintf(f, " x=%g", p->x);
	if (!isnan(c->noise))
		fprintf(f, "  +-%.0f%% (%zu samples)", c->noise, p->nsamples);
	if (c->cav) {
		fputs("  caveat: ", f);
		term_fputs(f, c->cv);
	}
	fputc('\n', f);
}

void summary_noisy_notes(FILE *f, const struct row *rows, size_t n)
{
	struct noisy *v = NULL;
	size_t nv = 0, cap = 0, nnoisy = 0, ncav = 0;
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < rows[i].nused; k++) {
			const struct result *p = rows[i].used[k];
			if (summary_used_before(&rows[i], k))
				continue;
			struct noisy c = { .row = i, .p = p, .noise = result_noise_pct(p) };
			c.cav = result_caveat(p, c.cv, sizeof c.cv) != NULL;
			if (!(c.noise > NOISY_PCT))
				c.noise = NAN;
			if (isnan(c.noise) && !c.cav)
				continue;
			nnoisy += !isnan(c.noise);
			ncav += c.cav;
			if (nv == cap)
				v = xrealloc(v, (cap = cap ? 2 * cap : 16) * sizeof *v);
			v[nv++] = c;
		}
	if (!nv)
		return;
	qsort(v, nv, sizeof *v, by_noise);
	size_t shown = summary_noisy_all || nv <= NOISY_SHOWN + 1 ? nv : NOISY_SHOWN;
	fprintf(f, "\n%zu noisy cell%s (95%% confidence interval of the median wider than +-%.0f%%; "
		   "rerun or use --repeat) and %zu with a caveat%s\n", nnoisy, nnoisy == 1 ? "" : "s",
		NOISY_PCT, ncav, shown < nv ? "; the worst:" : ":");
	for (size_t j = 0; j < shown; j++)
		put_one(f, rows, &v[j]);
	if (shown < nv)
		fprintf(f, "  ... %zu more: plumb summary --noisy RUN lists them all\n", nv - shown);
	/* what each caveat word means, once */
	for (size_t j = 0; j < nv; j++) {
		if (!v[j].cav)
			continue;
		int known = 0;
		for (size_t i = 0; i < j && !known; i++)
			known = v[i].cav && !strcmp(caveat_text(v[i].cv), caveat_text(v[j].cv));
		if (known)
			continue;
		fputs("  caveat: ", f);
		term_fputs(f, caveat_text(v[j].cv));
		fputs(".\n", f);
	}
	free(v);
}
